//! The evaluation's weights as one parameter struct ([`EvalParams`]), which the evaluation and
//! the search read, with the values the engine plays with as [`EvalParams::DEFAULT`] (hand-set,
//! the reserve and king-danger weights since tuned through play by `bughouse tune spsa`);
//! `bughouse tune` fits them to game results and writes them in a text form the engine reads back
//! ([`EvalParams::to_text`], [`EvalParams::from_text`]).
//!
//! The text form is one line per weight group, `name = v1 v2 ...`, `#` starting a comment:
//!
//! ```
//! use bughouse_engine::EvalParams;
//!
//! let text = EvalParams::DEFAULT.to_text();
//! assert!(text.contains("board_value = 100 310 320 470 850"));
//! assert_eq!(EvalParams::from_text(&text).unwrap(), EvalParams::DEFAULT);
//! ```

use std::fmt::Write as _;

use crate::search::{SearchParams, SEARCH_GROUPS, SEARCH_PARAM_COUNT};

/// The weights of [`crate::evaluate_with`], in centipawns or danger units.
///
/// Arrays by role are indexed pawn, knight, bishop, rook, queen (index 0 = pawn).
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub struct EvalParams {
    /// Value of a piece on the board.
    pub board_value: [i32; 5],
    /// Value of a piece in the reserve.
    pub reserve_value: [i32; 5],
    /// How much a piece of the enemy reserve threatens our king (drop danger).
    pub drop_weight: [i32; 5],
    /// How much an enemy piece attacking our king's ring threatens it, per attacked square.
    pub attack_weight: [i32; 5],
    /// Mobility per reachable square: knight, bishop, rook, queen.
    pub mobility: [i32; 4],
    /// Bonus for a pawn on its 2nd to 7th rank (relative).
    pub pawn_rank: [i32; 6],
    /// King danger: a safe check the enemy can give next move, by role (pawn to queen), each
    /// counted once, twice for two or more squares: a drop of a piece it holds, or a move of
    /// one of its pieces, onto an empty square (or one of ours) from which that role checks
    /// our king, not attacked by our pieces other than the king and, next to the king,
    /// defended by the enemy (else the king takes). Fairy-Stockfish's `SafeCheck` with its
    /// drops (`evaluate.cpp`, `king()`): in bughouse the mates come as drop checks.
    pub danger_safe_check: [i32; 5],
    /// Extra bonus for a pawn on the 7th rank whose promotion square is empty.
    pub pawn_free_seventh: i32,
    /// Multiplier of the centralisation bonus of knights.
    pub knight_centre: i32,
    /// The side to move's bonus.
    pub tempo: i32,
    /// King danger: per empty undefended square next to the king (plus half the drop weight).
    pub danger_undefended: i32,
    /// King danger: per empty square next to the king the enemy attacks (plus half the drop
    /// weight).
    pub danger_controlled: i32,
    /// King danger: per knight-check drop square, when the enemy holds a knight.
    pub danger_knight_in_hand: i32,
    /// King danger: per knight-check drop square, when no knight is held (one may come).
    pub danger_knight_possible: i32,
    /// King danger: per attacker, from two attackers on.
    pub danger_attackers: i32,
    /// King danger: per missing shield pawn.
    pub danger_shield: i32,
    /// King danger: a king away from its home rank.
    pub danger_open_king: i32,
    /// King danger: less per defender next to the king (at most three).
    pub danger_defender: i32,
    /// Less for a piece (knight to queen) far from both kings: in eighths of a centipawn per
    /// unit of the product of its distances to our king and to the enemy's. In bughouse a
    /// piece counts where the kings are, to attack with or to defend with (Fairy-Stockfish's
    /// `KingProximity` for drop variants, `evaluate.cpp`).
    pub king_proximity: i32,
    /// A penalty in centipawns, beside the (quadratic) king danger: per square of our king's
    /// flank, in our half and one rank beyond, that the enemy attacks, counted twice when
    /// attacked twice (Fairy-Stockfish's `FlankAttacks`, six times as heavy with drops).
    pub flank_attack: i32,
    /// A penalty in centipawns, beside the king danger, when our king has no square to flee
    /// to: per role (pawn to queen) that could check it from an empty square where it would be
    /// safe, whether the enemy holds that piece or (in bughouse) its partner may still send it.
    /// A boxed king and a safe drop check is a mate threat one piece away (Fairy-Stockfish's
    /// "virtual drops" for two-board variants, 2000 units of king danger each, `evaluate.cpp`).
    pub boxed_king: i32,
    /// The cap of the enemy reserve's drop weight.
    pub drop_weight_cap: i32,
    /// The penalty is danger² / this.
    pub danger_divisor: i32,
}

/// Names and sizes of the groups, in the order of [`EvalParams::to_vec`].
const GROUPS: [(&str, usize); 23] = [
    ("board_value", 5),
    ("reserve_value", 5),
    ("drop_weight", 5),
    ("attack_weight", 5),
    ("mobility", 4),
    ("pawn_rank", 6),
    ("danger_safe_check", 5),
    ("pawn_free_seventh", 1),
    ("knight_centre", 1),
    ("tempo", 1),
    ("danger_undefended", 1),
    ("danger_controlled", 1),
    ("danger_knight_in_hand", 1),
    ("danger_knight_possible", 1),
    ("danger_attackers", 1),
    ("danger_shield", 1),
    ("danger_open_king", 1),
    ("danger_defender", 1),
    ("king_proximity", 1),
    ("flank_attack", 1),
    ("boxed_king", 1),
    ("drop_weight_cap", 1),
    ("danger_divisor", 1),
];

/// The number of weights.
pub const EVAL_PARAM_COUNT: usize = 51;

/// Why a weights file does not read ([`EvalParams::from_file`]).
#[derive(Debug, thiserror::Error)]
pub enum EvalFileError {
    /// The file cannot be read.
    #[error("{0}")]
    Read(#[from] std::io::Error),
    /// Its text is not a weights text.
    #[error("{0}")]
    Params(#[from] ParamsError),
}

/// Why a weights text does not read.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
pub enum ParamsError {
    /// A line without `=`.
    #[error("line {0}: expected `name = values`")]
    Syntax(usize),
    /// A name that is no weight group.
    #[error("line {line}: unknown weight {name:?}")]
    Unknown {
        /// The line (1-based).
        line: usize,
        /// The name.
        name: String,
    },
    /// A value that is no integer, or the wrong number of them.
    #[error("line {line}: {name} needs {want} integers")]
    Values {
        /// The line (1-based).
        line: usize,
        /// The group.
        name: String,
        /// How many it needs.
        want: usize,
    },
    /// A value the evaluation cannot use (a divisor below 1).
    #[error("danger_divisor must be at least 1")]
    Divisor,
}

impl EvalParams {
    /// The weights the engine plays with unless told otherwise: hand-set, except the reserve
    /// values, `tempo` and four of the king danger's (`danger_controlled`, `danger_attackers`,
    /// `drop_weight_cap`, `danger_divisor`), which come from 600 iterations of `bughouse tune
    /// spsa` in self-play at 3s+0 (docs/arena.md, "Tuning through play"; it tuned
    /// `danger_knight_in_hand` and `danger_undefended` too, and they came back to their values). The hand-set values were reserve
    /// `130 350 340 500 900`, tempo 25, `danger_controlled` 2, `danger_attackers` 2,
    /// `drop_weight_cap` 14 and `danger_divisor` 5.
    pub const DEFAULT: EvalParams = EvalParams {
        board_value: [100, 310, 320, 470, 850],
        reserve_value: [132, 313, 312, 477, 835],
        drop_weight: [1, 3, 2, 3, 5],
        attack_weight: [1, 3, 2, 3, 5],
        mobility: [4, 4, 2, 1],
        pawn_rank: [0, 0, 4, 10, 25, 70],
        danger_safe_check: [0, 0, 0, 0, 0],
        pawn_free_seventh: 40,
        knight_centre: 2,
        tempo: 22,
        danger_undefended: 2,
        danger_controlled: 3,
        danger_knight_in_hand: 3,
        danger_knight_possible: 1,
        danger_attackers: 3,
        danger_shield: 1,
        danger_open_king: 4,
        danger_defender: 1,
        king_proximity: 0,
        flank_attack: 0,
        boxed_king: 0,
        drop_weight_cap: 15,
        danger_divisor: 4,
    };

    /// All weights in one vector (the groups in declaration order).
    pub fn to_vec(&self) -> Vec<i32> {
        let mut v = Vec::with_capacity(EVAL_PARAM_COUNT);
        v.extend_from_slice(&self.board_value);
        v.extend_from_slice(&self.reserve_value);
        v.extend_from_slice(&self.drop_weight);
        v.extend_from_slice(&self.attack_weight);
        v.extend_from_slice(&self.mobility);
        v.extend_from_slice(&self.pawn_rank);
        v.extend_from_slice(&self.danger_safe_check);
        v.extend_from_slice(&[
            self.pawn_free_seventh,
            self.knight_centre,
            self.tempo,
            self.danger_undefended,
            self.danger_controlled,
            self.danger_knight_in_hand,
            self.danger_knight_possible,
            self.danger_attackers,
            self.danger_shield,
            self.danger_open_king,
            self.danger_defender,
            self.king_proximity,
            self.flank_attack,
            self.boxed_king,
            self.drop_weight_cap,
            self.danger_divisor,
        ]);
        v
    }

    /// The weights from a vector in the order of [`EvalParams::to_vec`].
    ///
    /// # Panics
    ///
    /// If `v` does not hold exactly [`EVAL_PARAM_COUNT`] values.
    pub fn from_slice(v: &[i32]) -> EvalParams {
        assert_eq!(v.len(), EVAL_PARAM_COUNT, "wrong number of weights");
        let arr = |i: usize| -> [i32; 5] { v[i..i + 5].try_into().expect("five") };
        let s = &v[35..];
        EvalParams {
            board_value: arr(0),
            reserve_value: arr(5),
            drop_weight: arr(10),
            attack_weight: arr(15),
            mobility: v[20..24].try_into().expect("four"),
            pawn_rank: v[24..30].try_into().expect("six"),
            danger_safe_check: arr(30),
            pawn_free_seventh: s[0],
            knight_centre: s[1],
            tempo: s[2],
            danger_undefended: s[3],
            danger_controlled: s[4],
            danger_knight_in_hand: s[5],
            danger_knight_possible: s[6],
            danger_attackers: s[7],
            danger_shield: s[8],
            danger_open_king: s[9],
            danger_defender: s[10],
            king_proximity: s[11],
            flank_attack: s[12],
            boxed_king: s[13],
            drop_weight_cap: s[14],
            danger_divisor: s[15].max(1),
        }
    }

    /// The names of the weight groups, as the text form writes them.
    pub fn group_names() -> impl Iterator<Item = &'static str> {
        GROUPS.iter().map(|g| g.0)
    }

    /// The name of the `i`th weight of [`EvalParams::to_vec`], like `board_value[2]`.
    pub fn name(i: usize) -> String {
        name_in(&GROUPS, i)
    }

    /// The text form: one `name = values` line per group.
    pub fn to_text(&self) -> String {
        write_text(&GROUPS, &self.to_vec())
    }

    /// Reads a weights file (the text form, as `bughouse tune fit` writes it).
    ///
    /// # Errors
    ///
    /// [`EvalFileError`]: the file cannot be read, or its text does not read.
    pub fn from_file(path: &std::path::Path) -> Result<EvalParams, EvalFileError> {
        Ok(EvalParams::from_text(&std::fs::read_to_string(path)?)?)
    }

    /// Reads the text form. Groups not named keep their default values.
    ///
    /// # Errors
    ///
    /// [`ParamsError`] for a line that is not `name = integers` of a known group.
    pub fn from_text(text: &str) -> Result<EvalParams, ParamsError> {
        let mut v = EvalParams::DEFAULT.to_vec();
        read_text(text, &GROUPS, &mut v)?;
        Ok(EvalParams::from_slice(&v))
    }
}

/// The text form of `groups` with the values `v`: one `name = values` line per group.
fn write_text(groups: &[(&str, usize)], v: &[i32]) -> String {
    let mut out = String::new();
    let mut at = 0;
    for &(name, n) in groups {
        let values: Vec<String> = v[at..at + n].iter().map(i32::to_string).collect();
        let _ = writeln!(out, "{name} = {}", values.join(" "));
        at += n;
    }
    out
}

/// Reads the `name = values` lines of `text` into `v` (laid out as `groups`); `#` starts a
/// comment. The evaluation's `danger_divisor`, if among the groups, must stay at least 1.
fn read_text(text: &str, groups: &[(&str, usize)], v: &mut [i32]) -> Result<(), ParamsError> {
    for (i, raw) in text.lines().enumerate() {
        let line = raw.split('#').next().unwrap_or("").trim();
        if line.is_empty() {
            continue;
        }
        let (name, values) = line.split_once('=').ok_or(ParamsError::Syntax(i + 1))?;
        let name = name.trim();
        let mut at = 0;
        let mut found = None;
        for &(g, n) in groups {
            if g == name {
                found = Some((at, n));
            }
            at += n;
        }
        let (at, n) = found.ok_or_else(|| ParamsError::Unknown {
            line: i + 1,
            name: name.to_owned(),
        })?;
        let parsed: Result<Vec<i32>, _> =
            values.split_whitespace().map(str::parse::<i32>).collect();
        match parsed {
            Ok(p) if p.len() == n => v[at..at + n].copy_from_slice(&p),
            _ => {
                return Err(ParamsError::Values {
                    line: i + 1,
                    name: name.to_owned(),
                    want: n,
                })
            }
        }
    }
    if v[EVAL_PARAM_COUNT - 1] < 1 {
        return Err(ParamsError::Divisor);
    }
    Ok(())
}

/// The name of the `i`th value of a vector laid out as `groups`, like `board_value[2]`.
fn name_in(groups: &[(&str, usize)], i: usize) -> String {
    let mut at = 0;
    for &(name, n) in groups {
        if i < at + n {
            return if n == 1 {
                name.to_owned()
            } else {
                format!("{name}[{}]", i - at)
            };
        }
        at += n;
    }
    format!("#{i}")
}

/// The number of values of [`EngineParams::to_vec`].
pub const ENGINE_PARAM_COUNT: usize = EVAL_PARAM_COUNT + SEARCH_PARAM_COUNT;

/// Everything the engine can be tuned by: the evaluation's weights and the search's margins.
/// Its text form is the two kinds of `name = values` lines in one file (the evaluation's
/// first); a file of the evaluation's weights alone reads too, the margins at their defaults.
///
/// ```
/// use bughouse_engine::{EngineParams, EvalParams};
///
/// let text = "tempo = 30\nrfp_margin = 95\n";
/// let p = EngineParams::from_text(text).unwrap();
/// assert_eq!((p.eval.tempo, p.search.rfp_margin), (30, 95));
/// assert_eq!(p.eval.board_value, EvalParams::DEFAULT.board_value);
/// assert_eq!(EngineParams::from_text(&p.to_text()), Ok(p));
/// ```
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, Default)]
pub struct EngineParams {
    /// The evaluation's weights.
    pub eval: EvalParams,
    /// The search's margins and thresholds.
    pub search: SearchParams,
}

impl EngineParams {
    /// The values the engine plays with unless told otherwise.
    pub const DEFAULT: EngineParams = EngineParams {
        eval: EvalParams::DEFAULT,
        search: SearchParams::DEFAULT,
    };

    /// All values in one vector: [`EvalParams::to_vec`], then [`SearchParams::to_vec`].
    pub fn to_vec(&self) -> Vec<i32> {
        let mut v = self.eval.to_vec();
        v.extend(self.search.to_vec());
        v
    }

    /// The values from a vector in the order of [`EngineParams::to_vec`].
    ///
    /// # Panics
    ///
    /// If `v` does not hold exactly [`ENGINE_PARAM_COUNT`] values.
    pub fn from_slice(v: &[i32]) -> EngineParams {
        assert_eq!(v.len(), ENGINE_PARAM_COUNT, "wrong number of parameters");
        EngineParams {
            eval: EvalParams::from_slice(&v[..EVAL_PARAM_COUNT]),
            search: SearchParams::from_slice(&v[EVAL_PARAM_COUNT..]),
        }
    }

    /// The groups of both, in the order of [`EngineParams::to_vec`].
    fn groups() -> Vec<(&'static str, usize)> {
        GROUPS.iter().chain(SEARCH_GROUPS.iter()).copied().collect()
    }

    /// The names of the groups, as the text form writes them.
    pub fn group_names() -> impl Iterator<Item = &'static str> {
        GROUPS.iter().chain(SEARCH_GROUPS.iter()).map(|g| g.0)
    }

    /// The name of the `i`th value of [`EngineParams::to_vec`], like `board_value[2]` or
    /// `rfp_margin`.
    pub fn name(i: usize) -> String {
        name_in(&EngineParams::groups(), i)
    }

    /// The text form: the evaluation's lines, then the search's.
    pub fn to_text(&self) -> String {
        write_text(&EngineParams::groups(), &self.to_vec())
    }

    /// Reads a parameters file (the text form).
    ///
    /// # Errors
    ///
    /// [`EvalFileError`]: the file cannot be read, or its text does not read.
    pub fn from_file(path: &std::path::Path) -> Result<EngineParams, EvalFileError> {
        Ok(EngineParams::from_text(&std::fs::read_to_string(path)?)?)
    }

    /// Reads the text form. Groups not named keep their default values.
    ///
    /// # Errors
    ///
    /// [`ParamsError`] for a line that is not `name = integers` of a known group.
    pub fn from_text(text: &str) -> Result<EngineParams, ParamsError> {
        let mut v = EngineParams::DEFAULT.to_vec();
        read_text(text, &EngineParams::groups(), &mut v)?;
        Ok(EngineParams::from_slice(&v))
    }
}

impl Default for EvalParams {
    fn default() -> EvalParams {
        EvalParams::DEFAULT
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn vector_and_text_round_trip() {
        let v = EvalParams::DEFAULT.to_vec();
        assert_eq!(v.len(), EVAL_PARAM_COUNT);
        assert_eq!(GROUPS.iter().map(|g| g.1).sum::<usize>(), EVAL_PARAM_COUNT);
        assert_eq!(EvalParams::from_slice(&v), EvalParams::DEFAULT);
        let mut changed = v.clone();
        changed[7] = 333;
        let p = EvalParams::from_slice(&changed);
        assert_eq!(p.reserve_value[2], 333);
        assert_eq!(EvalParams::from_text(&p.to_text()), Ok(p));
        assert_eq!(EvalParams::name(7), "reserve_value[2]");
        assert_eq!(EvalParams::name(50), "danger_divisor");
        assert_eq!(EvalParams::name(48), "boxed_king");
        assert_eq!(EvalParams::name(46), "king_proximity");
        assert_eq!(EvalParams::name(33), "danger_safe_check[3]");
    }

    #[test]
    fn engine_params_hold_both_kinds_in_one_text() {
        let v = EngineParams::DEFAULT.to_vec();
        assert_eq!(v.len(), ENGINE_PARAM_COUNT);
        assert_eq!(EngineParams::from_slice(&v), EngineParams::DEFAULT);
        assert_eq!(EngineParams::name(EVAL_PARAM_COUNT), "rfp_margin");
        assert_eq!(EngineParams::name(ENGINE_PARAM_COUNT - 1), "qs_delta");
        assert_eq!(EngineParams::name(7), "reserve_value[2]");
        let text = EngineParams::DEFAULT.to_text();
        assert!(text.starts_with("board_value = "), "{text}");
        assert!(text.ends_with("qs_delta = 200\n"), "{text}");
        assert_eq!(EngineParams::from_text(&text), Ok(EngineParams::DEFAULT));
        // A file of the evaluation's weights alone reads, the margins at their defaults.
        let eval_only = EngineParams::from_text(&EvalParams::DEFAULT.to_text()).unwrap();
        assert_eq!(eval_only, EngineParams::DEFAULT);
        // The evaluation alone does not take the search's names.
        assert!(matches!(
            EvalParams::from_text("rfp_margin = 90"),
            Err(ParamsError::Unknown { line: 1, .. })
        ));
        let p = EngineParams::from_text("# tuned\nlmr_divisor = 180\ntempo = 20\n").unwrap();
        assert_eq!((p.search.lmr_divisor, p.eval.tempo), (180, 20));
        assert!(matches!(
            EngineParams::from_text("null_base = 1 2"),
            Err(ParamsError::Values {
                line: 1,
                want: 1,
                ..
            })
        ));
        assert_eq!(
            EngineParams::from_text("danger_divisor = 0"),
            Err(ParamsError::Divisor)
        );
    }

    #[test]
    fn bad_text_is_refused() {
        assert_eq!(
            EvalParams::from_text("tempo 3"),
            Err(ParamsError::Syntax(1))
        );
        assert!(matches!(
            EvalParams::from_text("# c\nfoo = 1"),
            Err(ParamsError::Unknown { line: 2, .. })
        ));
        assert!(matches!(
            EvalParams::from_text("mobility = 1 2 3"),
            Err(ParamsError::Values { want: 4, .. })
        ));
        assert_eq!(
            EvalParams::from_text("danger_divisor = 0"),
            Err(ParamsError::Divisor)
        );
        assert_eq!(
            EvalParams::from_text("tempo = 30\n").map(|p| p.tempo),
            Ok(30)
        );
    }
}
