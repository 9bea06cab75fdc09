//! The opening book: a move for each of the board positions the bot meets early in a match,
//! searched deeply beforehand, so that the bot plays them at once and keeps its clock.
//!
//! At a minute for the whole match, our bot used about 7 s on its first eight moves and
//! Fairy-Stockfish 2 s (docs/arena.md): the seconds a race of sitting is lost by later. A
//! position is in the book only while neither side of its board holds a piece (the partner's
//! board has not captured yet): with a reserve the position is no longer the one searched.
//!
//! The book is a text file, a position and its move a line:
//!
//! ```text
//! # comment
//! rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR[] w KQkq - e2e4
//! ```
//!
//! The position is the first four fields of its FEN (board and reserves, side to move,
//! castling, en passant), the move in UCI notation. `bughouse tune book` writes it; the one
//! built into the engine is `book/opening.txt`.

use std::collections::HashMap;
use std::sync::OnceLock;

use bughouse_core::uci::UciMove;
use bughouse_core::{Color, Move, Position, Rules};

/// An opening book (see the module's documentation).
#[derive(Debug, Clone, Default)]
pub struct Book {
    moves: HashMap<String, UciMove>,
}

/// A book line that does not read.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
#[error("book line {line}: {message}")]
pub struct BookError {
    /// The line (1-based).
    pub line: usize,
    /// What is wrong.
    pub message: String,
}

/// The book built into the engine.
const BUILTIN: &str = include_str!("../book/opening.txt");

impl Book {
    /// Reads a book. Every line's position must read as a FEN and its move must be legal
    /// there, under `rules`.
    ///
    /// # Errors
    ///
    /// [`BookError`] for the first line that does not read.
    pub fn parse(text: &str, rules: Rules) -> Result<Book, BookError> {
        let mut moves = HashMap::new();
        for (i, raw) in text.lines().enumerate() {
            let line = raw.trim();
            if line.is_empty() || line.starts_with('#') {
                continue;
            }
            let err = |message: String| BookError {
                line: i + 1,
                message,
            };
            let (fen, mv) = line
                .rsplit_once(char::is_whitespace)
                .ok_or_else(|| err("expected a position and a move".to_owned()))?;
            let fen = fen.trim_end();
            if fen.split_whitespace().count() != 4 {
                return Err(err(format!(
                    "expected the four first fields of a FEN, found {fen:?}"
                )));
            }
            let pos = Position::from_fen(&format!("{fen} 0 1"), rules)
                .map_err(|e| err(format!("position {fen:?}: {e}")))?;
            let uci: UciMove = mv.parse().map_err(|e| err(format!("move {mv:?}: {e}")))?;
            uci.to_move(&pos)
                .map_err(|e| err(format!("move {mv:?} in {fen:?}: {e}")))?;
            let key = Book::key(&pos).ok_or_else(|| {
                err(format!(
                    "position {fen:?} has a piece in hand: the book holds none"
                ))
            })?;
            moves.insert(key, uci);
        }
        Ok(Book { moves })
    }

    /// The book built into the engine (read once; bughouse rules).
    pub fn builtin() -> &'static Book {
        static BOOK: OnceLock<Book> = OnceLock::new();
        BOOK.get_or_init(|| Book::parse(BUILTIN, Rules::fide()).unwrap_or_default())
    }

    /// How many positions it holds.
    pub fn len(&self) -> usize {
        self.moves.len()
    }

    /// Whether it holds no position.
    pub fn is_empty(&self) -> bool {
        self.moves.is_empty()
    }

    /// The book's key of `pos`: the first four fields of its FEN; `None` when either side
    /// holds a piece.
    pub fn key(pos: &Position) -> Option<String> {
        if !pos.reserve(Color::White).is_empty() || !pos.reserve(Color::Black).is_empty() {
            return None;
        }
        let fen = pos.fen();
        let fields: Vec<&str> = fen.split_whitespace().take(4).collect();
        Some(fields.join(" "))
    }

    /// The book's move in `pos`, if it holds the position (and the move is legal there).
    pub fn lookup(&self, pos: &Position) -> Option<Move> {
        if self.moves.is_empty() {
            return None;
        }
        let uci = self.moves.get(&Book::key(pos)?)?;
        uci.to_move(pos).ok()
    }

    /// Adds (or replaces) the move of `pos`; `false` when either side holds a piece.
    pub fn insert(&mut self, pos: &Position, mv: Move) -> bool {
        match Book::key(pos) {
            Some(key) => {
                self.moves.insert(key, UciMove::from_move(mv));
                true
            }
            None => false,
        }
    }

    /// The book as text, its lines sorted (the form [`Book::parse`] reads).
    pub fn to_text(&self) -> String {
        let mut lines: Vec<String> = self
            .moves
            .iter()
            .map(|(key, mv)| format!("{key} {mv}"))
            .collect();
        lines.sort();
        let mut text = lines.join("\n");
        text.push('\n');
        text
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn reads_what_it_writes_and_finds_the_move() {
        let rules = Rules::fide();
        let start = Position::new(rules);
        let e4 = "e2e4".parse::<UciMove>().unwrap().to_move(&start).unwrap();
        let mut book = Book::default();
        assert!(book.insert(&start, e4));
        let text = book.to_text();
        assert!(text.starts_with("rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR"));
        let read = Book::parse(&format!("# a comment\n\n{text}"), rules).unwrap();
        assert_eq!(read.len(), 1);
        assert_eq!(read.lookup(&start), Some(e4));
        // The move counters do not matter.
        let later = Position::from_fen(
            "rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR[] w KQkq - 4 9",
            rules,
        )
        .unwrap();
        assert_eq!(read.lookup(&later), Some(e4));
    }

    #[test]
    fn a_position_with_a_piece_in_hand_is_not_in_it() {
        let rules = Rules::fide();
        let mut pos = Position::new(rules);
        let e4 = "e2e4".parse::<UciMove>().unwrap().to_move(&pos).unwrap();
        let mut book = Book::default();
        book.insert(&pos, e4);
        pos.add_to_reserve(Color::Black, bughouse_core::Role::Knight);
        assert_eq!(book.lookup(&pos), None);
        assert!(!book.insert(&pos, e4));
        let line = "rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR[n] w KQkq - e2e4";
        let e = Book::parse(line, rules).unwrap_err();
        assert_eq!(e.line, 1);
        assert!(e.message.contains("piece in hand"), "{e}");
    }

    #[test]
    fn bad_lines_say_which_and_why() {
        let rules = Rules::fide();
        for (text, needle) in [
            ("e2e4", "position and a move"),
            (
                "rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR[] w e2e4",
                "four first fields",
            ),
            (
                "rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR[] w KQkq - e2e5",
                "e2e5",
            ),
            (
                "rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR[] w KQkq - zz",
                "zz",
            ),
            (
                "rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBN[] w KQkq - e2e4",
                "position",
            ),
        ] {
            let e = Book::parse(&format!("# c\n{text}\n"), rules).unwrap_err();
            assert_eq!(e.line, 2, "{text}");
            assert!(e.to_string().contains(needle), "{text}: {e}");
        }
    }

    #[test]
    fn the_builtin_book_reads() {
        // `builtin` falls back to an empty book when the file does not read: it must read.
        Book::parse(BUILTIN, Rules::fide()).unwrap();
    }
}
