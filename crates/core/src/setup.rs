//! An unvalidated setup (what a FEN says) and the legality errors of turning it into a position.

use shakmaty::{Bitboard, Board, ByColor, Color, Square};

use crate::types::Reserve;

/// The plain fields of a position, as a FEN writes them, not yet checked for legality. Turn it
/// into a [`crate::Position`] with [`crate::Position::from_setup`].
#[derive(Clone, Debug, PartialEq, Eq, Hash)]
pub struct Setup {
    /// The pieces on the board; promoted pieces as the piece they move as.
    pub board: Board,
    /// The squares of promoted pieces (`~` in FEN).
    pub promoted: Bitboard,
    /// Both reserves.
    pub reserves: ByColor<Reserve>,
    /// The side to move.
    pub turn: Color,
    /// The corners whose castling letter is set.
    pub castling: Bitboard,
    /// The en passant square, if the FEN names one.
    pub ep_square: Option<Square>,
    /// Plies since the last capture, drop or move of an unpromoted pawn.
    pub halfmoves: u32,
    /// The move number.
    pub fullmoves: u32,
}

impl Default for Setup {
    /// The start position with empty reserves.
    fn default() -> Setup {
        Setup {
            board: Board::new(),
            promoted: Bitboard::EMPTY,
            reserves: ByColor::default(),
            turn: Color::White,
            castling: Bitboard::CORNERS,
            ep_square: None,
            halfmoves: 0,
            fullmoves: 1,
        }
    }
}

/// Why a setup is not a legal position.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
pub enum PositionError {
    /// A side has no king.
    #[error("{} has no king", color_name(*.0))]
    NoKing(Color),
    /// A side has more than one king.
    #[error("{color} has {count} kings; exactly one is allowed", color = color_name(*.0), count = .1)]
    TooManyKings(Color, usize),
    /// A pawn stands on rank 1 or 8.
    #[error("pawn on {0}: pawns cannot stand on rank 1 or 8")]
    PawnOnBackRank(Square),
    /// The side that is not to move is in check.
    #[error("{} is in check but it is not {}'s move", color_name(*.0), color_name(*.0))]
    OppositeCheck(Color),
    /// A castling letter names a corner whose king (or, where dropped rooks may not castle,
    /// rook) is not at home.
    #[error("castling right for {0} is impossible: the king (or the rook) is not on its original square")]
    BadCastling(Square),
    /// The en passant square is not behind a pawn that has just moved two squares.
    #[error("en passant square {0} is not behind a pawn that has just moved two squares")]
    BadEnPassant(Square),
    /// A king, a pawn or an empty square is marked as promoted.
    #[error("{0} is marked promoted (~) but holds no knight, bishop, rook or queen")]
    BadPromoted(Square),
}

pub(crate) fn color_name(color: Color) -> &'static str {
    match color {
        Color::White => "White",
        Color::Black => "Black",
    }
}
