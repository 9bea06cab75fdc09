//! The search's margins and thresholds as one parameter struct ([`SearchParams`]), so that
//! `bughouse tune spsa` can tune them through play as it tunes the evaluation's weights. The
//! defaults are the values the search was written with; the switches of
//! [`crate::SearchConfig`] decide which of them are used at all.

/// The numbers the search prunes and reduces by (centipawns, plies, move counts).
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub struct SearchParams {
    /// Reverse futility pruning: a node that stands this much per ply of depth above beta
    /// returns its static evaluation.
    pub rfp_margin: i32,
    /// Reverse futility pruning: the deepest node it applies to (6 with
    /// `SearchConfig::deep_prune`, whatever this says).
    pub rfp_depth: i32,
    /// Null move: the reduction is `null_base + depth / null_divisor` plies.
    pub null_base: i32,
    /// Null move: the depth divisor of the reduction (at least 1).
    pub null_divisor: i32,
    /// Late-move reductions: the table's `0.5 + ln(depth)·ln(moves) / (this / 100)` plies,
    /// the base given by `lmr_base` in hundredths (at least 1).
    pub lmr_divisor: i32,
    /// Late-move reductions: the table's base, in hundredths of a ply.
    pub lmr_base: i32,
    /// Late-move pruning near the leaves keeps `lmp_base + lmp_factor·depth²` quiet moves
    /// (without `SearchConfig::strong_reductions`).
    pub lmp_base: i32,
    /// Late-move pruning: the factor of `depth²`.
    pub lmp_factor: i32,
    /// Futility pruning of quiet moves at depth 1 and 2: pruned when the static evaluation
    /// plus `futility_base + futility_margin·depth` does not reach alpha.
    pub futility_margin: i32,
    /// Futility pruning: the constant part of the margin.
    pub futility_base: i32,
    /// Quiet moves that leave their piece lost (`SearchConfig::lost_quiet_pruning`) are pruned
    /// at this depth or less.
    pub lost_depth: i32,
    /// Drops far from both kings (`SearchConfig::drop_pruning`): pruned at depth 3 or less
    /// once `far_drops + depth` of them were searched, or when the static evaluation plus
    /// `far_drop_margin·depth` does not reach alpha.
    pub far_drops: i32,
    /// The futility margin of far drops, per ply of depth.
    pub far_drop_margin: i32,
    /// Quiescence: a capture whose victim cannot bring the score within this much of alpha is
    /// not searched (delta pruning).
    pub qs_delta: i32,
}

/// Names and sizes of the groups, in the order of [`SearchParams::to_vec`].
pub(crate) const SEARCH_GROUPS: [(&str, usize); 14] = [
    ("rfp_margin", 1),
    ("rfp_depth", 1),
    ("null_base", 1),
    ("null_divisor", 1),
    ("lmr_divisor", 1),
    ("lmr_base", 1),
    ("lmp_base", 1),
    ("lmp_factor", 1),
    ("futility_margin", 1),
    ("futility_base", 1),
    ("lost_depth", 1),
    ("far_drops", 1),
    ("far_drop_margin", 1),
    ("qs_delta", 1),
];

/// The number of search parameters.
pub const SEARCH_PARAM_COUNT: usize = 14;

impl SearchParams {
    /// The values the search was written with.
    pub const DEFAULT: SearchParams = SearchParams {
        rfp_margin: 110,
        rfp_depth: 3,
        null_base: 3,
        null_divisor: 5,
        lmr_divisor: 220,
        lmr_base: 50,
        lmp_base: 4,
        lmp_factor: 3,
        futility_margin: 120,
        futility_base: 60,
        lost_depth: 4,
        far_drops: 2,
        far_drop_margin: 100,
        qs_delta: 200,
    };

    /// All parameters in one vector (in declaration order).
    pub fn to_vec(&self) -> Vec<i32> {
        vec![
            self.rfp_margin,
            self.rfp_depth,
            self.null_base,
            self.null_divisor,
            self.lmr_divisor,
            self.lmr_base,
            self.lmp_base,
            self.lmp_factor,
            self.futility_margin,
            self.futility_base,
            self.lost_depth,
            self.far_drops,
            self.far_drop_margin,
            self.qs_delta,
        ]
    }

    /// The parameters from a vector in the order of [`SearchParams::to_vec`]; the divisors are
    /// kept at least 1.
    ///
    /// # Panics
    ///
    /// If `v` does not hold exactly [`SEARCH_PARAM_COUNT`] values.
    pub fn from_slice(v: &[i32]) -> SearchParams {
        assert_eq!(
            v.len(),
            SEARCH_PARAM_COUNT,
            "wrong number of search parameters"
        );
        SearchParams {
            rfp_margin: v[0],
            rfp_depth: v[1],
            null_base: v[2],
            null_divisor: v[3].max(1),
            lmr_divisor: v[4].max(1),
            lmr_base: v[5],
            lmp_base: v[6],
            lmp_factor: v[7],
            futility_margin: v[8],
            futility_base: v[9],
            lost_depth: v[10],
            far_drops: v[11],
            far_drop_margin: v[12],
            qs_delta: v[13],
        }
    }

    /// The late-move reduction table: plies by depth and move number (both below 64).
    pub(crate) fn lmr_table(&self) -> Vec<[u8; 64]> {
        let divisor = f64::from(self.lmr_divisor.max(1)) / 100.0;
        let base = f64::from(self.lmr_base) / 100.0;
        let mut lmr = vec![[0u8; 64]; 64];
        for (d, row) in lmr.iter_mut().enumerate().skip(1) {
            for (n, r) in row.iter_mut().enumerate().skip(1) {
                let x = base + (d as f64).ln() * (n as f64).ln() / divisor;
                *r = x.clamp(0.0, 40.0) as u8;
            }
        }
        lmr
    }
}

impl Default for SearchParams {
    fn default() -> SearchParams {
        SearchParams::DEFAULT
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn vector_round_trips_and_the_table_is_the_one_written_by_hand() {
        let v = SearchParams::DEFAULT.to_vec();
        assert_eq!(v.len(), SEARCH_PARAM_COUNT);
        assert_eq!(SEARCH_GROUPS.len(), SEARCH_PARAM_COUNT);
        assert_eq!(SearchParams::from_slice(&v), SearchParams::DEFAULT);
        let mut zero = v.clone();
        zero[3] = 0;
        zero[4] = -5;
        let p = SearchParams::from_slice(&zero);
        assert_eq!((p.null_divisor, p.lmr_divisor), (1, 1));
        // The table the searcher built before the parameters existed.
        let table = SearchParams::DEFAULT.lmr_table();
        for (d, row) in table.iter().enumerate().skip(1) {
            for (n, &r) in row.iter().enumerate().skip(1) {
                let x = 0.5 + (d as f64).ln() * (n as f64).ln() / 2.2;
                assert_eq!(r, x.clamp(0.0, 40.0) as u8, "{d} {n}");
            }
        }
        assert_eq!(table[0], [0; 64]);
        // A smaller divisor reduces more.
        let more = SearchParams {
            lmr_divisor: 150,
            ..SearchParams::DEFAULT
        }
        .lmr_table();
        assert!(more[20][20] > table[20][20]);
    }
}
