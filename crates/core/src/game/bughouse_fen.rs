//! Both boards as one text, `FEN_A | FEN_B`, the way bughouse.pro writes it.

use super::Match;
use crate::position::Position;
use crate::rules::Rules;
use crate::seat::BoardId;

/// Both boards as one text that cannot be read.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
pub enum BughouseFenError {
    /// The text is not two FENs separated by `|`.
    #[error("expected two FENs separated by '|' (FEN_A | FEN_B), found {0} part(s)")]
    Parts(usize),
    /// One board's FEN is invalid.
    #[error("board {board}: {error}")]
    Board {
        /// The board whose FEN is wrong.
        board: BoardId,
        /// What is wrong with it.
        error: crate::fen::FenError,
    },
}

/// Reads both boards written as one text, `FEN_A | FEN_B`, the way bughouse.pro writes it.
///
/// # Errors
///
/// [`BughouseFenError`] saying which board is wrong and why.
///
/// # Examples
///
/// ```
/// use bughouse_core::{parse_bughouse_fen, write_bughouse_fen, Rules};
///
/// let text = "rnbqkbnr/pppppppp/8/8/4P3/8/PPPP1PPP/RNBQKBNR[] b KQkq - 0 1 | \
///             rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR[Pp] w KQkq - 0 1";
/// let [a, b] = parse_bughouse_fen(text, Rules::fide()).unwrap();
/// assert_eq!(b.reserve(bughouse_core::Color::White).len(), 1);
/// assert_eq!(write_bughouse_fen(&a, &b), text.split_whitespace().collect::<Vec<_>>().join(" "));
/// ```
pub fn parse_bughouse_fen(text: &str, rules: Rules) -> Result<[Position; 2], BughouseFenError> {
    let parts: Vec<&str> = text.split('|').collect();
    let [a, b] = parts.as_slice() else {
        return Err(BughouseFenError::Parts(parts.len()));
    };
    let read = |board, fen: &str| {
        Position::from_fen(fen.trim(), rules)
            .map_err(|error| BughouseFenError::Board { board, error })
    };
    Ok([read(BoardId::A, a)?, read(BoardId::B, b)?])
}

/// Writes both boards as one text, `FEN_A | FEN_B`.
pub fn write_bughouse_fen(a: &Position, b: &Position) -> String {
    format!("{} | {}", a.fen(), b.fen())
}

impl Match {
    /// Both boards as one text, `FEN_A | FEN_B`.
    pub fn fen(&self) -> String {
        write_bughouse_fen(self.position(BoardId::A), self.position(BoardId::B))
    }
}
