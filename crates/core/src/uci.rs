//! UCI move notation: `e2e4`, `e7e8q`, `e1g1` for castling, `N@f3` for drops.
//!
//! The piece letter of a drop is written upper case for either side; reading accepts either
//! case. Castling is also read as the king taking its own rook (`e1h1`), as chess960 engines
//! write it.

use std::fmt;
use std::str::FromStr;

use shakmaty::{Role, Square};

use crate::position::Position;
use crate::types::Move;

/// A move in UCI notation, parsed but not yet checked against a position.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub enum UciMove {
    /// A board move, with an optional promotion role.
    Normal {
        /// The square the piece leaves.
        from: Square,
        /// The square it goes to.
        to: Square,
        /// The promotion role, if any.
        promotion: Option<Role>,
    },
    /// A drop.
    Drop {
        /// The dropped role.
        role: Role,
        /// The target square.
        to: Square,
    },
}

/// A UCI move that cannot be read.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
#[error("invalid UCI move {text:?}: {reason}")]
pub struct ParseUciError {
    /// The text that was given.
    pub text: String,
    /// What is wrong with it.
    pub reason: &'static str,
}

/// A UCI move that is well formed but not legal in the position.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
#[error("illegal move {uci} in {fen}")]
pub struct IllegalUciMove {
    /// The move.
    pub uci: UciMove,
    /// The position, as FEN.
    pub fen: String,
}

impl FromStr for UciMove {
    type Err = ParseUciError;

    fn from_str(s: &str) -> Result<UciMove, ParseUciError> {
        let err = |reason| ParseUciError {
            text: s.to_owned(),
            reason,
        };
        let b = s.as_bytes();
        let square = |i: usize| -> Result<Square, ParseUciError> {
            b.get(i..i + 2)
                .and_then(|t| Square::from_ascii(t).ok())
                .ok_or_else(|| err("expected a square like e4"))
        };
        if b.len() == 4 && b[1] == b'@' {
            let role = Role::from_char(char::from(b[0]))
                .filter(|r| *r != Role::King)
                .ok_or_else(|| err("expected P, N, B, R or Q before '@'"))?;
            return Ok(UciMove::Drop {
                role,
                to: square(2)?,
            });
        }
        if b.len() != 4 && b.len() != 5 {
            return Err(err(
                "expected 4 or 5 characters (e2e4, e7e8q) or a drop (N@f3)",
            ));
        }
        let from = square(0)?;
        let to = square(2)?;
        let promotion = match b.get(4) {
            None => None,
            Some(&ch) => Some(
                Role::from_char(char::from(ch))
                    .filter(|r| !matches!(r, Role::Pawn | Role::King))
                    .ok_or_else(|| err("promotion must be q, r, b or n"))?,
            ),
        };
        if from == to {
            return Err(err("a move must change square"));
        }
        Ok(UciMove::Normal {
            from,
            to,
            promotion,
        })
    }
}

impl fmt::Display for UciMove {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match *self {
            UciMove::Normal {
                from,
                to,
                promotion,
            } => {
                write!(f, "{from}{to}")?;
                if let Some(role) = promotion {
                    write!(f, "{}", role.char())?;
                }
                Ok(())
            }
            UciMove::Drop { role, to } => write!(f, "{}@{}", role.upper_char(), to),
        }
    }
}

impl UciMove {
    /// The UCI form of a move.
    pub fn from_move(m: Move) -> UciMove {
        match (m.dropped_role(), m.from()) {
            (Some(role), _) => UciMove::Drop { role, to: m.to() },
            (None, from) => UciMove::Normal {
                from: from.unwrap_or(m.to()),
                to: m.king_to(),
                promotion: m.promotion_role(),
            },
        }
    }

    /// Finds the legal move this names in `pos`.
    ///
    /// # Errors
    ///
    /// [`IllegalUciMove`] when no legal move matches.
    pub fn to_move(&self, pos: &Position) -> Result<Move, IllegalUciMove> {
        let found = pos.legal_moves().iter().copied().find(|&m| match *self {
            UciMove::Drop { role, to } => m.dropped_role() == Some(role) && m.to() == to,
            UciMove::Normal {
                from,
                to,
                promotion,
            } => {
                if m.is_drop() || m.from() != Some(from) || m.promotion_role() != promotion {
                    return false;
                }
                if m.is_castle() {
                    // e1g1 / e1c1, or the king taking its rook (e1h1 / e1a1).
                    to == m.king_to() || to == m.to()
                } else {
                    m.to() == to
                }
            }
        });
        found.ok_or_else(|| IllegalUciMove {
            uci: *self,
            fen: pos.fen(),
        })
    }
}

impl Position {
    /// Reads a UCI move and checks it against this position.
    ///
    /// # Errors
    ///
    /// [`UciError::Syntax`] when the text is not a UCI move, [`UciError::Illegal`] when it is not
    /// legal here.
    ///
    /// # Examples
    ///
    /// ```
    /// use bughouse_core::{Position, Rules};
    ///
    /// let pos = Position::new(Rules::fide());
    /// let m = pos.parse_uci("e2e4").unwrap();
    /// assert_eq!(m.to_string(), "e2e4");
    /// assert!(pos.parse_uci("e2e5").is_err());
    /// ```
    pub fn parse_uci(&self, text: &str) -> Result<Move, UciError> {
        let uci: UciMove = text.parse()?;
        Ok(uci.to_move(self)?)
    }
}

/// A UCI move that cannot be read or is not legal.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
pub enum UciError {
    /// The text is not a UCI move.
    #[error(transparent)]
    Syntax(#[from] ParseUciError),
    /// The move is not legal in the position.
    #[error(transparent)]
    Illegal(#[from] IllegalUciMove),
}
