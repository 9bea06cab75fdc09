//! Round-robin pairings from the Berger tables (FIDE Handbook C.05, annex 1).
//!
//! Teams are numbered by starting number 1..n (the order they were added). With an odd number
//! of teams a dummy number n + 1 is added; the team drawn against it has the bye. With
//! `m = n' - 1` rounds for `n'` (even) numbers, in round `r` (from 1) let
//! `p = ((r - 1) * n'/2) mod m + 1`. Table 1 is `p - n'` in odd rounds and `n' - p` in even
//! rounds (the first-named team is at home); table `k` (2..=n'/2) is `(p + k - 1) - (p - k + 1)`,
//! both taken in 1..=m modulo m. This reproduces the printed tables, e.g. for six teams
//! round 1: 1-6 2-5 3-4, round 2: 6-4 5-3 1-2, round 3: 2-6 3-1 4-5.
//!
//! A double round robin plays the same rounds again with home and away swapped.

use crate::team::TeamId;

/// The pairings of one round: `(home, away)` by table, and the team with the bye.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct BergerRound {
    /// `(home, away)` per table, in table order.
    pub pairs: Vec<(TeamId, TeamId)>,
    /// The team with the bye (odd team counts only).
    pub bye: Option<TeamId>,
}

/// The number of rounds of a single round robin of `teams` teams: `n - 1`, or `n` when `n` is
/// odd (one bye each round).
pub const fn rounds(teams: usize) -> usize {
    if teams < 2 {
        0
    } else if teams.is_multiple_of(2) {
        teams - 1
    } else {
        teams
    }
}

/// Round `round` (from 1) of a round robin of `teams` teams; `double` for a double round robin,
/// whose rounds past the first cycle swap home and away. `None` past the last round.
pub fn round(teams: usize, round: usize, double: bool) -> Option<BergerRound> {
    let m = rounds(teams);
    if round == 0 || m == 0 {
        return None;
    }
    let (r, swap) = if round <= m {
        (round, false)
    } else if double && round <= 2 * m {
        (round - m, true)
    } else {
        return None;
    };
    let numbers = m + 1; // even
    let half = numbers / 2;
    // 1-based numbers modulo m into 1..=m.
    let wrap = |x: isize| -> usize { (x - 1).rem_euclid(m as isize) as usize + 1 };
    let p = ((r - 1) * half) % m + 1;
    let mut tables = Vec::with_capacity(half);
    tables.push(if r % 2 == 1 {
        (p, numbers)
    } else {
        (numbers, p)
    });
    for k in 2..=half {
        let d = (k - 1) as isize;
        tables.push((wrap(p as isize + d), wrap(p as isize - d)));
    }
    let mut pairs = Vec::with_capacity(half);
    let mut bye = None;
    for (home, away) in tables {
        if home > teams {
            bye = Some(TeamId(away - 1));
        } else if away > teams {
            bye = Some(TeamId(home - 1));
        } else if swap {
            pairs.push((TeamId(away - 1), TeamId(home - 1)));
        } else {
            pairs.push((TeamId(home - 1), TeamId(away - 1)));
        }
    }
    Some(BergerRound { pairs, bye })
}

#[cfg(test)]
mod tests {
    use super::*;

    fn numbers(teams: usize, r: usize) -> Vec<(usize, usize)> {
        round(teams, r, false)
            .unwrap()
            .pairs
            .iter()
            .map(|(a, b)| (a.number(), b.number()))
            .collect()
    }

    #[test]
    fn six_teams_match_the_printed_table() {
        assert_eq!(numbers(6, 1), [(1, 6), (2, 5), (3, 4)]);
        assert_eq!(numbers(6, 2), [(6, 4), (5, 3), (1, 2)]);
        assert_eq!(numbers(6, 3), [(2, 6), (3, 1), (4, 5)]);
        assert_eq!(numbers(6, 4), [(6, 5), (1, 4), (2, 3)]);
        assert_eq!(numbers(6, 5), [(3, 6), (4, 2), (5, 1)]);
        assert!(round(6, 6, false).is_none());
    }

    #[test]
    fn four_teams_match_the_printed_table() {
        assert_eq!(numbers(4, 1), [(1, 4), (2, 3)]);
        assert_eq!(numbers(4, 2), [(4, 3), (1, 2)]);
        assert_eq!(numbers(4, 3), [(2, 4), (3, 1)]);
    }

    #[test]
    fn odd_counts_give_a_bye() {
        let r = round(5, 1, false).unwrap();
        assert_eq!(r.bye, Some(TeamId(0)));
        assert_eq!(r.pairs.len(), 2);
    }

    #[test]
    fn double_swaps_home() {
        let first = round(4, 2, true).unwrap();
        let second = round(4, 5, true).unwrap();
        let swapped: Vec<_> = first.pairs.iter().map(|&(a, b)| (b, a)).collect();
        assert_eq!(second.pairs, swapped);
        assert!(round(4, 7, true).is_none());
    }
}
