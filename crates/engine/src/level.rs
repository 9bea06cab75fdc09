//! Strength levels for casual play.

use std::fmt;
use std::str::FromStr;

use bughouse_core::Move;

use crate::search::{Limits, RootMove, MATE_BOUND};

/// A strength level from 1 (a beginner) to 8 (full strength).
///
/// | level | depth | nodes | eval noise | picks among moves within | team play |
/// |---|---|---|---|---|---|
/// | 1 | 1 | 2 000 | ±150 cp | 200 cp, and one move in eight any move not mated | none |
/// | 2 | 2 | 5 000 | ±100 cp | 120 cp | none |
/// | 3 | 3 | 20 000 | ±60 cp | 70 cp | talks |
/// | 4 | 4 | 60 000 | ±30 cp | 40 cp | talks, sits |
/// | 5 | 6 | 200 000 | ±15 cp | 20 cp | full |
/// | 6 | 10 | 1 000 000 | none | best only | full |
/// | 7 | none | 5 000 000 | none | best only | full |
/// | 8 | none | none (time only) | none | best only | full |
///
/// "Talks" means it sends `Need`/`DontGive`/`Sit`/`Go`/`Flag` and obeys its partner's
/// messages; "sits" means it may also sit itself; "full" adds the search that counts on the
/// piece the opponents' partner is about to capture and the what-if probes for every role.
/// The limits of a level apply on top of the [`crate::Limits`] of each call, so a level never
/// thinks longer than its caller allows.
///
/// # Examples
///
/// ```
/// use bughouse_engine::Level;
///
/// let level: Level = "3".parse().unwrap();
/// assert_eq!(level.get(), 3);
/// assert_eq!(level.to_string(), "3");
/// assert!("9".parse::<Level>().is_err());
/// assert_eq!(Level::DEFAULT, Level::MAX);
/// ```
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub struct Level(u8);

/// The published rating of each level, 1 to 8 (index 0 is level 1), on the Glicko scale of
/// the players' ratings: the one table of bots' ratings (a rated match counts a bot at it; "play
/// now" offers the level nearest the waiting players).
///
/// Measured in the arena, levels against each other: 468 matches (36 for each pair of
/// neighbouring levels and of levels two apart) at `10s+0` under the fide rules, each level's
/// Elo fitted by maximum likelihood with level 1 fixed at 800 (the anchor: the weakest bot
/// stands where chess sites put a beginner, and where the provisional table had it):
///
/// ```sh
/// cargo run --release -p bughouse-arena --example calibrate -- \
///     --time 10s+0 --rounds 36 --log crates/arena/examples/levels-10s.log
/// ```
///
/// (the log of that run is checked in; `--fit-only` fits it again). The fit gave, with one
/// standard error relative to level 1: 800, 1145 ± 79, 1417 ± 94, 1756 ± 112, 1928 ± 119,
/// 2362 ± 137, 2376 ± 139, 2332 ± 142. Levels 6 to 8 could not be told apart at that time
/// control (on a machine whose two cores were shared with builds), and level 8 came out below
/// 7 within its error: the three are published at their mean. Neighbouring levels up to 6 are
/// 170 to 430 apart and well separated; the absolute values are no better than about ±80 to
/// ±140, and the top levels at longer time controls are likely stronger than this.
///
/// The scale is tied to an outside engine by matches of levels against Fairy-Stockfish 11.1 at
/// several `Skill Level`s at `10s+0` (`crates/arena/examples/calibrate_fsf.rs`,
/// `levels-fsf-10s.txt`; figures in docs/arena.md): on it, Fairy-Stockfish at full strength
/// stands near levels 6 to 8.
pub const PUBLISHED_RATINGS: [f64; 8] = [
    800.0, 1145.0, 1417.0, 1756.0, 1928.0, 2357.0, 2357.0, 2357.0,
];

/// The deviation a bot's fixed rating is counted with in a rated match (its uncertainty widens
/// its opponents' expectation, as a partner's or opponent's deviation does).
pub const PUBLISHED_DEVIATION: f64 = 100.0;

/// What a level means for the search.
#[derive(Debug, Clone, Copy)]
pub(crate) struct LevelParams {
    pub max_depth: Option<u32>,
    pub max_nodes: Option<u64>,
    pub noise: i32,
    pub margin: i32,
    /// Percent of moves chosen among all moves that are not mated (a beginner's blunders:
    /// it hangs pieces).
    pub blunder: u64,
    pub talks: bool,
    pub sits: bool,
    pub full_team: bool,
}

impl LevelParams {
    /// Whether the level plays its best move, with no noise and no choice among near-best
    /// moves (levels 6 to 8): the opening book and the mate check are for those only.
    pub fn exact(&self) -> bool {
        self.noise == 0 && self.margin == 0
    }
}

impl Level {
    /// The weakest level.
    pub const MIN: Level = Level(1);
    /// Full strength.
    pub const MAX: Level = Level(8);
    /// The default: full strength.
    pub const DEFAULT: Level = Level::MAX;

    /// The level `n`, if `1 <= n <= 8`.
    pub const fn new(n: u8) -> Option<Level> {
        if n >= Level::MIN.0 && n <= Level::MAX.0 {
            Some(Level(n))
        } else {
            None
        }
    }

    /// The number of the level.
    pub const fn get(self) -> u8 {
        self.0
    }

    /// The level's published rating (Glicko scale), what a rated match counts a bot of this
    /// level as: its rating is fixed and never changes ([`PUBLISHED_RATINGS`]).
    pub const fn published_rating(self) -> f64 {
        PUBLISHED_RATINGS[self.0 as usize - 1]
    }

    /// The level whose published rating is nearest `rating`; on a tie the stronger one (levels
    /// the calibration could not tell apart share a rating, and a player asking for that
    /// rating gets the strongest of them).
    ///
    /// ```
    /// use bughouse_engine::Level;
    ///
    /// assert_eq!(Level::nearest(0.0), Level::MIN);
    /// assert_eq!(Level::nearest(1400.0).get(), 3);
    /// assert_eq!(Level::nearest(5000.0), Level::MAX);
    /// ```
    pub fn nearest(rating: f64) -> Level {
        let mut best = Level::MIN;
        for n in Level::MIN.0..=Level::MAX.0 {
            let level = Level(n);
            if (level.published_rating() - rating).abs() <= (best.published_rating() - rating).abs()
            {
                best = level;
            }
        }
        best
    }

    pub(crate) fn params(self) -> LevelParams {
        let (max_depth, max_nodes, noise, margin) = match self.0 {
            1 => (Some(1), Some(2_000), 150, 200),
            2 => (Some(2), Some(5_000), 100, 120),
            3 => (Some(3), Some(20_000), 60, 70),
            4 => (Some(4), Some(60_000), 30, 40),
            5 => (Some(6), Some(200_000), 15, 20),
            6 => (Some(10), Some(1_000_000), 0, 0),
            7 => (None, Some(5_000_000), 0, 0),
            _ => (None, None, 0, 0),
        };
        LevelParams {
            max_depth,
            max_nodes,
            noise,
            margin,
            blunder: if self.0 == 1 { 12 } else { 0 },
            talks: self.0 >= 3,
            sits: self.0 >= 4,
            full_team: self.0 >= 5,
        }
    }
}

impl LevelParams {
    /// The caller's `limits` with the level's depth and nodes on top: a level never searches
    /// deeper or longer than its caller allows.
    pub(crate) fn limits(&self, limits: Limits) -> Limits {
        Limits {
            deadline: limits.deadline,
            max_nodes: min_opt(limits.max_nodes, self.max_nodes),
            max_depth: min_opt(limits.max_depth, self.max_depth),
        }
    }

    /// The move a level plays, given the search's `best` and its root moves with their exact
    /// scores: one chosen at random among those within the level's margin of the best (no
    /// margin: `best`); and in [`LevelParams::blunder`] percent of its moves (level 1 only)
    /// any move that is not mated (a beginner hangs pieces). `random` gives uniformly random
    /// numbers.
    pub(crate) fn choose(
        &self,
        best: Move,
        roots: &[RootMove],
        random: &mut dyn FnMut() -> u64,
    ) -> Move {
        if self.margin <= 0 || roots.is_empty() {
            return best;
        }
        let pick = |moves: Vec<Move>, random: &mut dyn FnMut() -> u64| {
            (!moves.is_empty()).then(|| moves[(random() % moves.len() as u64) as usize])
        };
        let top = roots[0].score;
        let near: Vec<Move> = roots
            .iter()
            .filter(|r| r.score >= top - self.margin && r.score > -MATE_BOUND)
            .map(|r| r.mv)
            .collect();
        let mut chosen = pick(near, random).unwrap_or(best);
        if self.blunder > 0 && random() % 100 < self.blunder {
            let alive: Vec<Move> = roots
                .iter()
                .filter(|r| r.score > -MATE_BOUND)
                .map(|r| r.mv)
                .collect();
            chosen = pick(alive, random).unwrap_or(chosen);
        }
        chosen
    }
}

/// The smaller of two limits, either of which may be absent (no limit).
fn min_opt<T: Ord>(a: Option<T>, b: Option<T>) -> Option<T> {
    match (a, b) {
        (Some(a), Some(b)) => Some(a.min(b)),
        (a, None) => a,
        (None, b) => b,
    }
}

/// The next number of a SplitMix64 generator whose state is `state`: the random choices of
/// the weak levels, reproducible from a seed.
pub(crate) fn split_mix(state: &mut u64) -> u64 {
    *state = state.wrapping_add(0x9e37_79b9_7f4a_7c15);
    let mut z = *state;
    z = (z ^ (z >> 30)).wrapping_mul(0xbf58_476d_1ce4_e5b9);
    z = (z ^ (z >> 27)).wrapping_mul(0x94d0_49bb_1331_11eb);
    z ^ (z >> 31)
}

impl Default for Level {
    fn default() -> Level {
        Level::DEFAULT
    }
}

impl fmt::Display for Level {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "{}", self.0)
    }
}

/// A level that cannot be read: not a number from 1 to 8.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct ParseLevelError(pub String);

impl fmt::Display for ParseLevelError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(
            f,
            "invalid level {:?}: expected a number from {} to {}",
            self.0,
            Level::MIN,
            Level::MAX
        )
    }
}

impl std::error::Error for ParseLevelError {}

impl FromStr for Level {
    type Err = ParseLevelError;

    fn from_str(s: &str) -> Result<Level, ParseLevelError> {
        s.trim()
            .parse::<u8>()
            .ok()
            .and_then(Level::new)
            .ok_or_else(|| ParseLevelError(s.to_string()))
    }
}
