//! Standard algebraic notation with drops: `e4`, `Nbd7`, `exd8=Q#`, `O-O-O`, `N@f3+`, `P@e4`.
//!
//! Reading is lenient in the ways real records are: `0-0`, a promotion without `=` (`e8Q`),
//! lower-case drop letters (`n@f3`), a bare `@e4` for a pawn drop, annotations (`!`, `?`) and
//! superfluous disambiguation. Syntax errors ([`ParseSanError`]) are kept apart from legality
//! errors ([`SanError`]).

use std::fmt;
use std::str::FromStr;

use shakmaty::{File, Rank, Role, Square};

use crate::outcome::Verdict;
use crate::position::Position;
use crate::types::Move;

/// A SAN move, parsed but not yet checked against a position.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub enum San {
    /// A board move other than castling.
    Normal {
        /// The moving role.
        role: Role,
        /// The file the piece comes from, if given.
        file: Option<File>,
        /// The rank the piece comes from, if given.
        rank: Option<Rank>,
        /// Whether it is written as a capture.
        capture: bool,
        /// The target square.
        to: Square,
        /// The promotion role, if any.
        promotion: Option<Role>,
    },
    /// Castling short (`O-O`).
    CastleShort,
    /// Castling long (`O-O-O`).
    CastleLong,
    /// A drop (`N@f3`).
    Drop {
        /// The dropped role.
        role: Role,
        /// The target square.
        to: Square,
    },
}

/// The check or mate mark after a SAN move.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub enum Suffix {
    /// `+`
    Check,
    /// `#`
    Mate,
}

/// A SAN move with its check or mate mark.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub struct SanPlus {
    /// The move.
    pub san: San,
    /// The `+` or `#`, if any.
    pub suffix: Option<Suffix>,
}

/// A SAN token that cannot be read.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
#[error("invalid SAN {text:?}: {reason}")]
pub struct ParseSanError {
    /// The text that was given.
    pub text: String,
    /// What is wrong with it.
    pub reason: &'static str,
}

/// A well-formed SAN move that does not name exactly one legal move.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
pub enum SanError {
    /// No legal move matches.
    #[error("illegal move {san} in {fen}")]
    Illegal {
        /// The move as written.
        san: String,
        /// The position, as FEN.
        fen: String,
    },
    /// More than one legal move matches.
    #[error("ambiguous move {san} in {fen}")]
    Ambiguous {
        /// The move as written.
        san: String,
        /// The position, as FEN.
        fen: String,
    },
}

/// A SAN move that cannot be read or does not name one legal move.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
pub enum SanParseOrMoveError {
    /// The text is not SAN.
    #[error(transparent)]
    Syntax(#[from] ParseSanError),
    /// It names no legal move, or more than one.
    #[error(transparent)]
    Move(#[from] SanError),
}

fn role_from_upper(ch: u8) -> Option<Role> {
    match ch {
        b'P' => Some(Role::Pawn),
        b'N' => Some(Role::Knight),
        b'B' => Some(Role::Bishop),
        b'R' => Some(Role::Rook),
        b'Q' => Some(Role::Queen),
        b'K' => Some(Role::King),
        _ => None,
    }
}

impl FromStr for SanPlus {
    type Err = ParseSanError;

    fn from_str(text: &str) -> Result<SanPlus, ParseSanError> {
        let err = |reason| ParseSanError {
            text: text.to_owned(),
            reason,
        };
        // Strip annotations and the check or mate mark.
        let mut s = text.trim_end_matches(['!', '?']);
        let suffix = if let Some(rest) = s.strip_suffix('#') {
            s = rest;
            Some(Suffix::Mate)
        } else if let Some(rest) = s.strip_suffix('+') {
            s = rest.trim_end_matches('+');
            Some(Suffix::Check)
        } else {
            None
        };
        let san = match s {
            "O-O" | "0-0" | "o-o" => San::CastleShort,
            "O-O-O" | "0-0-0" | "o-o-o" => San::CastleLong,
            "" => return Err(err("empty move")),
            _ => parse_san_body(s.as_bytes())
                .ok_or_else(|| err("expected a move like e4, Nf3, exd5, e8=Q, O-O or N@f3"))?,
        };
        Ok(SanPlus { san, suffix })
    }
}

impl FromStr for San {
    type Err = ParseSanError;

    fn from_str(text: &str) -> Result<San, ParseSanError> {
        text.parse::<SanPlus>().map(|s| s.san)
    }
}

fn parse_san_body(b: &[u8]) -> Option<San> {
    // Drops: N@f3, n@f3, @e4 (pawn).
    if let Some(at) = b.iter().position(|&c| c == b'@') {
        let role = match &b[..at] {
            [] => Role::Pawn,
            [c] => role_from_upper(c.to_ascii_uppercase()).filter(|r| *r != Role::King)?,
            _ => return None,
        };
        if b.len() != at + 3 {
            return None;
        }
        let to = Square::from_ascii(&b[at + 1..]).ok()?;
        return Some(San::Drop { role, to });
    }

    let (role, mut rest) = match b.first().copied().and_then(role_from_upper) {
        Some(role) => (role, &b[1..]),
        None => (Role::Pawn, b),
    };

    // Promotion at the end: =Q, Q or (for records written that way) /Q.
    let mut promotion = None;
    if let Some(&last) = rest.last() {
        if let Some(p) =
            role_from_upper(last.to_ascii_uppercase()).filter(|_| last.is_ascii_uppercase())
        {
            if role == Role::Pawn && rest.len() >= 3 {
                promotion = Some(p);
                rest = &rest[..rest.len() - 1];
                if let Some((b'=' | b'/', r)) = rest.split_last().map(|(l, r)| (*l, r)) {
                    rest = r;
                }
            }
        }
    }

    if rest.len() < 2 {
        return None;
    }
    let to = Square::from_ascii(&rest[rest.len() - 2..]).ok()?;
    let mut head = &rest[..rest.len() - 2];
    let mut capture = false;
    if let Some((&b'x' | &b':', h)) = head.split_last() {
        capture = true;
        head = h;
    }
    // Some records write a hyphen between squares (Ng1-f3).
    if let Some((&b'-', h)) = head.split_last() {
        head = h;
    }
    let (file, rank) = match head {
        [] => (None, None),
        [f @ b'a'..=b'h'] => (Some(File::new(u32::from(f - b'a'))), None),
        [r @ b'1'..=b'8'] => (None, Some(Rank::new(u32::from(r - b'1')))),
        [f @ b'a'..=b'h', r @ b'1'..=b'8'] => (
            Some(File::new(u32::from(f - b'a'))),
            Some(Rank::new(u32::from(r - b'1'))),
        ),
        _ => return None,
    };
    if promotion.is_some() && role != Role::Pawn {
        return None;
    }
    Some(San::Normal {
        role,
        file,
        rank,
        capture,
        to,
        promotion,
    })
}

impl San {
    /// Finds the legal move this names in `pos`.
    ///
    /// # Errors
    ///
    /// [`SanError::Illegal`] if none matches, [`SanError::Ambiguous`] if more than one does.
    pub fn to_move(&self, pos: &Position) -> Result<Move, SanError> {
        let candidates = match *self {
            San::Drop { role, to } => pos.moves_to(role, to, true),
            San::Normal { role, to, .. } => pos.moves_to(role, to, false),
            San::CastleShort | San::CastleLong => {
                let mut moves = crate::MoveList::new();
                if !pos.is_check() {
                    pos.gen_castling(pos.king(pos.turn()), &mut moves);
                }
                moves.into_iter().collect()
            }
        };
        let mut found = None;
        for m in candidates {
            if self.matches(pos, m) {
                if found.is_some() {
                    return Err(SanError::Ambiguous {
                        san: self.to_string(),
                        fen: pos.fen(),
                    });
                }
                found = Some(m);
            }
        }
        found.ok_or_else(|| SanError::Illegal {
            san: self.to_string(),
            fen: pos.fen(),
        })
    }

    fn matches(&self, pos: &Position, m: Move) -> bool {
        match *self {
            San::Drop { role, to } => m.dropped_role() == Some(role) && m.to() == to,
            San::CastleShort => m.is_castle() && m.to() > m.raw_from(),
            San::CastleLong => m.is_castle() && m.to() < m.raw_from(),
            San::Normal {
                role,
                file,
                rank,
                capture: _,
                to,
                promotion,
            } => {
                if m.is_drop() || m.is_castle() {
                    return false;
                }
                let from = m.raw_from();
                pos.role_at(from) == Some(role)
                    && m.to() == to
                    && m.promotion_role() == promotion
                    && file.is_none_or(|f| from.file() == f)
                    && rank.is_none_or(|r| from.rank() == r)
            }
        }
    }

    /// The SAN of a legal move `m` in `pos`, with minimal disambiguation.
    pub fn from_move(pos: &Position, m: Move) -> San {
        if let Some(role) = m.dropped_role() {
            return San::Drop { role, to: m.to() };
        }
        if m.is_castle() {
            return if m.to() > m.raw_from() {
                San::CastleShort
            } else {
                San::CastleLong
            };
        }
        let from = m.raw_from();
        let role = pos.role_at(from).unwrap_or(Role::Pawn);
        let capture = pos.captured_role(m).is_some();
        let (file, rank) = if role == Role::Pawn {
            (capture.then(|| from.file()), None)
        } else {
            let others: Vec<Square> = pos
                .moves_to(role, m.to(), false)
                .into_iter()
                .filter(|o| {
                    !o.is_drop()
                        && !o.is_castle()
                        && *o != m
                        && o.to() == m.to()
                        && o.raw_from() != from
                        && pos.role_at(o.raw_from()) == Some(role)
                })
                .map(|o| o.raw_from())
                .collect();
            if others.is_empty() {
                (None, None)
            } else if others.iter().all(|o| o.file() != from.file()) {
                (Some(from.file()), None)
            } else if others.iter().all(|o| o.rank() != from.rank()) {
                (None, Some(from.rank()))
            } else {
                (Some(from.file()), Some(from.rank()))
            }
        };
        San::Normal {
            role,
            file,
            rank,
            capture,
            to: m.to(),
            promotion: m.promotion_role(),
        }
    }
}

impl SanPlus {
    /// The SAN of a legal move with `+` or `#`; `#` only when the move mates under the
    /// position's rules (under fide a check that a drop could still block is `+`).
    pub fn from_move(pos: &Position, m: Move) -> SanPlus {
        let san = San::from_move(pos, m);
        let mut after = pos.clone();
        after.play_unchecked(m);
        let suffix = if after.is_check() {
            if after.verdict() == Verdict::Checkmate {
                Some(Suffix::Mate)
            } else {
                Some(Suffix::Check)
            }
        } else {
            None
        };
        SanPlus { san, suffix }
    }
}

impl fmt::Display for San {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match *self {
            San::CastleShort => f.write_str("O-O"),
            San::CastleLong => f.write_str("O-O-O"),
            San::Drop { role, to } => write!(f, "{}@{}", role.upper_char(), to),
            San::Normal {
                role,
                file,
                rank,
                capture,
                to,
                promotion,
            } => {
                if role != Role::Pawn {
                    write!(f, "{}", role.upper_char())?;
                }
                if let Some(file) = file {
                    write!(f, "{}", file.char())?;
                }
                if let Some(rank) = rank {
                    write!(f, "{}", rank.char())?;
                }
                if capture {
                    f.write_str("x")?;
                }
                write!(f, "{to}")?;
                if let Some(p) = promotion {
                    write!(f, "={}", p.upper_char())?;
                }
                Ok(())
            }
        }
    }
}

impl fmt::Display for SanPlus {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "{}", self.san)?;
        match self.suffix {
            Some(Suffix::Check) => f.write_str("+"),
            Some(Suffix::Mate) => f.write_str("#"),
            None => Ok(()),
        }
    }
}

impl Position {
    /// Reads a SAN move and finds it in this position.
    ///
    /// # Errors
    ///
    /// [`SanParseOrMoveError::Syntax`] when the text is not SAN, [`SanParseOrMoveError::Move`]
    /// when it names no legal move or more than one.
    ///
    /// # Examples
    ///
    /// ```
    /// use bughouse_core::{Position, Rules};
    ///
    /// let pos = Position::from_fen("4k3/8/8/8/8/8/8/4K3[N] w - - 0 1", Rules::fide()).unwrap();
    /// let m = pos.parse_san("N@f6+").unwrap();
    /// assert_eq!(pos.san(m), "N@f6+");
    /// ```
    pub fn parse_san(&self, text: &str) -> Result<Move, SanParseOrMoveError> {
        let san: SanPlus = text.parse()?;
        Ok(san.san.to_move(self)?)
    }

    /// The SAN of a legal move, with `+` or `#`.
    pub fn san(&self, m: Move) -> String {
        SanPlus::from_move(self, m).to_string()
    }
}

/// The text of a move's SAN (with `+` or `#`) kept inline, without an allocation: a match keeps
/// one for every move it recorded. The longest SAN is seven characters (`Qa1xb2+`, `exd8=Q#`);
/// there is room for fifteen.
#[derive(Clone, Copy, PartialEq, Eq, Hash)]
pub struct SanText {
    len: u8,
    bytes: [u8; SanText::CAPACITY],
}

impl SanText {
    /// The most bytes a `SanText` holds.
    pub const CAPACITY: usize = 15;

    /// The SAN of `m` in `pos` (legal in it), with `+` or `#`.
    pub fn of(pos: &Position, m: Move) -> SanText {
        use fmt::Write;
        let mut text = SanText {
            len: 0,
            bytes: [0; SanText::CAPACITY],
        };
        // Cannot fail: SAN is at most seven ASCII characters.
        let _ = write!(text, "{}", SanPlus::from_move(pos, m));
        text
    }

    /// The text.
    pub fn as_str(&self) -> &str {
        // Only whole ASCII strings are written (`write_str` refuses what does not fit).
        std::str::from_utf8(&self.bytes[..usize::from(self.len)]).unwrap_or("")
    }
}

impl fmt::Write for SanText {
    fn write_str(&mut self, s: &str) -> fmt::Result {
        let start = usize::from(self.len);
        let end = start + s.len();
        if end > SanText::CAPACITY {
            return Err(fmt::Error);
        }
        self.bytes[start..end].copy_from_slice(s.as_bytes());
        self.len = u8::try_from(end).map_err(|_| fmt::Error)?;
        Ok(())
    }
}

impl std::ops::Deref for SanText {
    type Target = str;
    fn deref(&self) -> &str {
        self.as_str()
    }
}

impl fmt::Display for SanText {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(self.as_str())
    }
}

impl fmt::Debug for SanText {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        fmt::Debug::fmt(self.as_str(), f)
    }
}

impl PartialEq<str> for SanText {
    fn eq(&self, other: &str) -> bool {
        self.as_str() == other
    }
}

impl PartialEq<&str> for SanText {
    fn eq(&self, other: &&str) -> bool {
        self.as_str() == *other
    }
}

impl From<SanText> for String {
    fn from(san: SanText) -> String {
        san.as_str().to_owned()
    }
}

#[cfg(test)]
mod san_text_tests {
    use super::*;
    use crate::Rules;

    #[test]
    fn san_text_holds_the_san_of_the_longest_moves() {
        // Two queens that both take on b2: the capture names the file.
        let pos = Position::from_fen("7k/8/8/8/8/8/1p6/Q1Q1K3[] w - - 0 1", Rules::fide()).unwrap();
        for m in pos.legal_moves() {
            let text = SanText::of(&pos, m);
            assert_eq!(text.as_str(), pos.san(m));
            assert_eq!(text.to_string(), pos.san(m));
        }
        let m = pos.parse_san("Qa1xb2").unwrap();
        assert_eq!(SanText::of(&pos, m), "Qaxb2+");
        let pos = Position::from_fen("3r3k/4P3/8/8/8/8/8/4K3[] w - - 0 1", Rules::fide()).unwrap();
        let m = pos.parse_san("exd8=Q+").unwrap();
        assert_eq!(SanText::of(&pos, m), "exd8=Q+");
        assert_eq!(format!("{:?}", SanText::of(&pos, m)), "\"exd8=Q+\"");
    }
}
