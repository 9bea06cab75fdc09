//! FEN with reserves, as Fairy-Stockfish and lichess write it.
//!
//! Reserves go in brackets after the board, `~` after a promoted piece:
//! `rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR[Qn] w KQkq - 0 1`. The form where the reserve
//! is a ninth rank (`.../RNBQKBNR/Qn w KQkq - 0 1`) is read too. The move counters may be left
//! out (as in EPD); they default to `0 1`.
//!
//! Syntax errors ([`ParseFenError`]) are kept apart from legality errors
//! ([`crate::PositionError`]); [`FenError`] is either, for [`crate::Position::from_fen`].

use std::fmt;
use std::str::FromStr;

use shakmaty::{Bitboard, Board, Color, File, Piece, Rank, Role, Square};

use crate::position::Position;
use crate::rules::Rules;
use crate::setup::{PositionError, Setup};
use crate::types::Reserve;

/// The field of a FEN an error is in.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum FenField {
    /// The piece placement.
    Board,
    /// The reserves.
    Reserve,
    /// The side to move.
    Turn,
    /// The castling letters.
    Castling,
    /// The en passant square.
    EnPassant,
    /// The halfmove counter.
    Halfmoves,
    /// The move number.
    Fullmoves,
}

impl fmt::Display for FenField {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(match self {
            FenField::Board => "board",
            FenField::Reserve => "reserve",
            FenField::Turn => "side to move",
            FenField::Castling => "castling",
            FenField::EnPassant => "en passant square",
            FenField::Halfmoves => "halfmove counter",
            FenField::Fullmoves => "move number",
        })
    }
}

/// What is wrong in a FEN's syntax.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
pub enum FenErrorKind {
    /// The text is empty.
    #[error("empty FEN")]
    Empty,
    /// A character that has no meaning here.
    #[error("unexpected character {0:?}")]
    UnexpectedChar(char),
    /// A rank describes more than 8 squares.
    #[error("rank {0} has more than 8 squares")]
    RankTooLong(u8),
    /// A rank describes fewer than 8 squares.
    #[error("rank {0} has fewer than 8 squares")]
    RankTooShort(u8),
    /// The board does not have 8 ranks.
    #[error("the board has {0} ranks, expected 8")]
    WrongRankCount(usize),
    /// A letter in the reserve that is no piece.
    #[error("unknown reserve letter {0:?}")]
    UnknownReserveLetter(char),
    /// A king in a reserve.
    #[error("a king cannot be in a reserve")]
    KingInReserve,
    /// More than 255 pieces of one kind in a reserve.
    #[error("more than 255 pieces of one kind in a reserve")]
    ReserveTooLarge,
    /// `[` without `]`.
    #[error("reserve opened with '[' is not closed with ']'")]
    UnclosedReserve,
    /// `~` not directly after a piece letter.
    #[error("'~' must follow a piece letter")]
    StrayPromotedMarker,
    /// The side to move is not `w` or `b`.
    #[error("expected 'w' or 'b'")]
    BadTurn,
    /// The side to move is missing.
    #[error("the side to move is missing")]
    MissingTurn,
    /// A castling letter that is not `K`, `Q`, `k`, `q` (or a rook file `A`/`H`, `a`/`h`).
    #[error("bad castling letter {0:?}")]
    BadCastling(char),
    /// The en passant field is neither `-` nor a square.
    #[error("expected '-' or a square")]
    BadSquare,
    /// A counter that is no number.
    #[error("expected a number")]
    BadNumber,
    /// Text after the last field.
    #[error("unexpected text after the move number")]
    TrailingText,
}

/// A FEN syntax error: what is wrong and where.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
#[error("invalid FEN: {kind} in the {field} at column {column}")]
pub struct ParseFenError {
    /// The field the error is in.
    pub field: FenField,
    /// The 1-based character column of the error.
    pub column: usize,
    /// What is wrong.
    pub kind: FenErrorKind,
}

/// A FEN that is not a legal position: bad syntax or an illegal setup.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
pub enum FenError {
    /// The text is not a FEN.
    #[error(transparent)]
    Syntax(#[from] ParseFenError),
    /// The FEN describes no legal position.
    #[error("illegal position: {0}")]
    Illegal(#[from] PositionError),
}

/// A parsed FEN: a [`Setup`].
///
/// # Examples
///
/// ```
/// use bughouse_core::fen::Fen;
///
/// let fen: Fen = "4k3/8/8/8/8/8/8/4K2R[Nq] w K - 0 1".parse().unwrap();
/// assert_eq!(fen.to_string(), "4k3/8/8/8/8/8/8/4K2R[Nq] w K - 0 1");
/// ```
#[derive(Clone, Debug, PartialEq, Eq, Hash)]
pub struct Fen(pub Setup);

struct Cursor<'a> {
    bytes: &'a [u8],
    pos: usize,
}

impl Cursor<'_> {
    fn err(&self, field: FenField, at: usize, kind: FenErrorKind) -> ParseFenError {
        ParseFenError {
            field,
            column: at + 1,
            kind,
        }
    }

    fn peek(&self) -> Option<u8> {
        self.bytes.get(self.pos).copied()
    }

    fn skip_spaces(&mut self) {
        while self.peek().is_some_and(|c| c.is_ascii_whitespace()) {
            self.pos += 1;
        }
    }

    /// The next whitespace-separated token and its start.
    fn token(&mut self) -> Option<(usize, &str)> {
        self.skip_spaces();
        let start = self.pos;
        while self.peek().is_some_and(|c| !c.is_ascii_whitespace()) {
            self.pos += 1;
        }
        if start == self.pos {
            None
        } else {
            // Tokens are split at ASCII whitespace, so they are valid UTF-8 slices.
            std::str::from_utf8(&self.bytes[start..self.pos])
                .ok()
                .map(|t| (start, t))
        }
    }
}

fn char_at(bytes: &[u8], at: usize) -> char {
    // Report the whole character even when it is not ASCII.
    std::str::from_utf8(&bytes[at..])
        .ok()
        .or_else(|| std::str::from_utf8(&bytes[at..(at + 1).min(bytes.len())]).ok())
        .and_then(|s| s.chars().next())
        .unwrap_or(char::from(bytes[at]))
}

fn parse_reserve(
    c: &Cursor<'_>,
    text: &[u8],
    offset: usize,
    reserves: &mut shakmaty::ByColor<Reserve>,
) -> Result<(), ParseFenError> {
    for (i, &ch) in text.iter().enumerate() {
        let at = offset + i;
        if ch == b'-' && text.len() == 1 {
            continue;
        }
        let piece = Piece::from_char(char::from(ch)).ok_or_else(|| {
            c.err(
                FenField::Reserve,
                at,
                FenErrorKind::UnknownReserveLetter(char_at(c.bytes, at)),
            )
        })?;
        if piece.role == Role::King {
            return Err(c.err(FenField::Reserve, at, FenErrorKind::KingInReserve));
        }
        if !reserves.get_mut(piece.color).add(piece.role) {
            return Err(c.err(FenField::Reserve, at, FenErrorKind::ReserveTooLarge));
        }
    }
    Ok(())
}

fn parse_board(c: &mut Cursor<'_>, setup: &mut Setup) -> Result<(), ParseFenError> {
    let start = c.pos;
    while c
        .peek()
        .is_some_and(|ch| !ch.is_ascii_whitespace() && ch != b'[')
    {
        c.pos += 1;
    }
    let text = &c.bytes[start..c.pos];
    let mut board = Board::empty();
    let mut promoted = Bitboard::EMPTY;
    let ranks: Vec<&[u8]> = text.split(|&ch| ch == b'/').collect();
    let mut rank_starts = Vec::with_capacity(ranks.len());
    let mut at = start;
    for r in &ranks {
        rank_starts.push(at);
        at += r.len() + 1;
    }
    let board_ranks = match ranks.len() {
        8 => 8,
        // A ninth rank is the reserve (lichess, Fairy-Stockfish).
        9 => {
            parse_reserve(c, ranks[8], rank_starts[8], &mut setup.reserves)?;
            8
        }
        n => {
            return Err(c.err(FenField::Board, start, FenErrorKind::WrongRankCount(n)));
        }
    };
    for (i, rank_text) in ranks.iter().take(board_ranks).enumerate() {
        let rank_no = 8 - i as u8;
        let rank = Rank::new(u32::from(rank_no - 1));
        let mut file = 0u32;
        let mut last: Option<Square> = None;
        for (j, &ch) in rank_text.iter().enumerate() {
            let at = rank_starts[i] + j;
            match ch {
                b'1'..=b'8' => {
                    file += u32::from(ch - b'0');
                    last = None;
                }
                b'~' => {
                    let sq = last.take().ok_or_else(|| {
                        c.err(FenField::Board, at, FenErrorKind::StrayPromotedMarker)
                    })?;
                    promoted.add(sq);
                    continue;
                }
                _ => {
                    let piece = Piece::from_char(char::from(ch)).ok_or_else(|| {
                        c.err(
                            FenField::Board,
                            at,
                            FenErrorKind::UnexpectedChar(char_at(c.bytes, at)),
                        )
                    })?;
                    if file >= 8 {
                        return Err(c.err(FenField::Board, at, FenErrorKind::RankTooLong(rank_no)));
                    }
                    let sq = Square::from_coords(File::new(file), rank);
                    board.set_piece_at(sq, piece);
                    last = Some(sq);
                    file += 1;
                }
            }
            if file > 8 {
                return Err(c.err(FenField::Board, at, FenErrorKind::RankTooLong(rank_no)));
            }
        }
        if file < 8 {
            let at = rank_starts[i] + rank_text.len();
            return Err(c.err(FenField::Board, at, FenErrorKind::RankTooShort(rank_no)));
        }
    }
    setup.board = board;
    setup.promoted = promoted;

    if c.peek() == Some(b'[') {
        let open = c.pos;
        let rest = &c.bytes[open + 1..];
        let close = rest
            .iter()
            .position(|&ch| ch == b']')
            .ok_or_else(|| c.err(FenField::Reserve, open, FenErrorKind::UnclosedReserve))?;
        parse_reserve(c, &rest[..close], open + 1, &mut setup.reserves)?;
        c.pos = open + 1 + close + 1;
        if c.peek().is_some_and(|ch| !ch.is_ascii_whitespace()) {
            let at = c.pos;
            return Err(c.err(
                FenField::Reserve,
                at,
                FenErrorKind::UnexpectedChar(char_at(c.bytes, at)),
            ));
        }
    }
    Ok(())
}

impl FromStr for Fen {
    type Err = ParseFenError;

    fn from_str(s: &str) -> Result<Fen, ParseFenError> {
        let mut c = Cursor {
            bytes: s.as_bytes(),
            pos: 0,
        };
        c.skip_spaces();
        if c.peek().is_none() {
            return Err(c.err(FenField::Board, 0, FenErrorKind::Empty));
        }
        let mut setup = Setup {
            board: Board::empty(),
            promoted: Bitboard::EMPTY,
            reserves: shakmaty::ByColor::default(),
            turn: Color::White,
            castling: Bitboard::EMPTY,
            ep_square: None,
            halfmoves: 0,
            fullmoves: 1,
        };
        parse_board(&mut c, &mut setup)?;

        let end = c.bytes.len();
        setup.turn = match c.token() {
            Some((_, "w")) => Color::White,
            Some((_, "b")) => Color::Black,
            Some((at, _)) => return Err(c.err(FenField::Turn, at, FenErrorKind::BadTurn)),
            None => return Err(c.err(FenField::Turn, end, FenErrorKind::MissingTurn)),
        };

        if let Some((at, tok)) = c.token() {
            if tok != "-" {
                for (i, ch) in tok.char_indices() {
                    let corner = match ch {
                        'K' | 'H' => Square::H1,
                        'Q' | 'A' => Square::A1,
                        'k' | 'h' => Square::H8,
                        'q' | 'a' => Square::A8,
                        _ => {
                            return Err(c.err(
                                FenField::Castling,
                                at + i,
                                FenErrorKind::BadCastling(ch),
                            ))
                        }
                    };
                    setup.castling.add(corner);
                }
            }
        }

        if let Some((at, tok)) = c.token() {
            if tok != "-" {
                let sq = tok
                    .parse::<Square>()
                    .map_err(|_| c.err(FenField::EnPassant, at, FenErrorKind::BadSquare))?;
                setup.ep_square = Some(sq);
            }
        }

        if let Some((at, tok)) = c.token() {
            setup.halfmoves = tok
                .parse()
                .map_err(|_| c.err(FenField::Halfmoves, at, FenErrorKind::BadNumber))?;
        }
        if let Some((at, tok)) = c.token() {
            setup.fullmoves = tok
                .parse()
                .map_err(|_| c.err(FenField::Fullmoves, at, FenErrorKind::BadNumber))?;
        }
        if let Some((at, _)) = c.token() {
            return Err(c.err(FenField::Fullmoves, at, FenErrorKind::TrailingText));
        }
        Ok(Fen(setup))
    }
}

impl fmt::Display for Fen {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(&write_setup(&self.0))
    }
}

/// Writes the board part with `~` markers and the bracketed reserves.
pub fn write_board_and_reserves(setup: &Setup) -> String {
    let mut out = String::with_capacity(90);
    for rank in (0..8).rev() {
        let mut empty = 0;
        for file in 0..8 {
            let sq = Square::from_coords(File::new(file), Rank::new(rank));
            match setup.board.piece_at(sq) {
                Some(piece) => {
                    if empty > 0 {
                        out.push(char::from(b'0' + empty));
                        empty = 0;
                    }
                    out.push(piece.char());
                    if setup.promoted.contains(sq) {
                        out.push('~');
                    }
                }
                None => empty += 1,
            }
        }
        if empty > 0 {
            out.push(char::from(b'0' + empty));
        }
        if rank > 0 {
            out.push('/');
        }
    }
    out.push('[');
    setup.reserves.white.write_fen(Color::White, &mut out);
    setup.reserves.black.write_fen(Color::Black, &mut out);
    out.push(']');
    out
}

fn write_setup(setup: &Setup) -> String {
    let mut out = write_board_and_reserves(setup);
    out.push(' ');
    out.push(setup.turn.char());
    out.push(' ');
    if setup.castling.is_empty() {
        out.push('-');
    } else {
        for (sq, ch) in [
            (Square::H1, 'K'),
            (Square::A1, 'Q'),
            (Square::H8, 'k'),
            (Square::A8, 'q'),
        ] {
            if setup.castling.contains(sq) {
                out.push(ch);
            }
        }
    }
    out.push(' ');
    match setup.ep_square {
        Some(sq) => out.push_str(&sq.to_string()),
        None => out.push('-'),
    }
    out.push_str(&format!(" {} {}", setup.halfmoves, setup.fullmoves));
    out
}

/// The FEN of a position.
pub fn write_fen(pos: &Position) -> String {
    write_setup(&pos.to_setup())
}

impl Position {
    /// Reads a FEN under `rules`.
    ///
    /// # Errors
    ///
    /// [`FenError::Syntax`] when the text is not a FEN, [`FenError::Illegal`] when it describes
    /// no legal position.
    ///
    /// # Examples
    ///
    /// ```
    /// use bughouse_core::{Position, Rules};
    ///
    /// let pos = Position::from_fen("4k3/8/8/8/8/8/8/4K3[Qn] w - - 0 1", Rules::fide()).unwrap();
    /// assert_eq!(pos.fen(), "4k3/8/8/8/8/8/8/4K3[Qn] w - - 0 1");
    /// assert!(Position::from_fen("8/8/8/8/8/8/8/8 w - - 0 1", Rules::fide()).is_err());
    /// ```
    pub fn from_fen(fen: &str, rules: Rules) -> Result<Position, FenError> {
        let Fen(setup) = fen.parse()?;
        Ok(Position::from_setup(setup, rules)?)
    }

    /// The FEN of this position, with bracketed reserves.
    pub fn fen(&self) -> String {
        write_fen(self)
    }
}
