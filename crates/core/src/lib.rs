//! Bughouse and crazyhouse rules for one board with both reserves.
//!
//! - [`Position`]: one board, both reserves, legal moves (board moves and drops), promoted-piece
//!   tracking, play.
//! - [`Rules`]: one field per decision point of the rulebooks, with presets for the FIDE
//!   bughouse extension, JSV Minerva 2014, KNSB 1988, US Scholastic 2006 and crazyhouse.
//! - [`Verdict`], [`BoardGame`], [`DrawClaim`]: checkmate, stalemate or waiting per rulebook;
//!   repetition and move-count claims.
//! - Notation: [`fen`], [`san`], [`uci`].
//! - [`perft`].
//!
//! Core holds no I/O and never reads the clock.
//!
//! # Examples
//!
//! ```
//! use bughouse_core::{Position, Rules, Verdict};
//!
//! let mut pos = Position::from_fen(
//!     "rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR[N] w KQkq - 0 1",
//!     Rules::fide(),
//! ).unwrap();
//! let m = pos.parse_san("N@f6+").unwrap();
//! pos.play(m).unwrap();
//! assert_eq!(pos.verdict(), Verdict::Ongoing);
//! ```

mod clock;
pub mod fen;
mod game;
mod legality;
pub mod otb;
mod outcome;
mod perft;
mod position;
mod rules;
pub mod san;
mod seat;
mod setup;
mod types;
pub mod uci;

pub use clock::{BoardClock, ParseTimeControlError, TimeControl};
pub use game::{
    parse_bughouse_fen, write_bughouse_fen, BoardId, BughouseFenError, EndReason, GameEnd, Match,
    MatchError, MatchResult, RecordedMove, Score, Seat, Team,
};
pub use legality::Candidates;
pub use outcome::{BoardGame, DrawClaim, Verdict};
pub use perft::{divide, perft};
pub use position::{IllegalMove, MoveList, Position, MAX_MOVES};
pub use rules::{
    BothFlagsRule, CaptureDestination, DrawAgreement, DropCheck, DropSquares, FlagRule,
    IllegalMoveRule, MateRule, NoMoveRule, PartnerTalk, Preset, PromotedCapture, PromotionRoles,
    ReserveVisibility, ResignRule, RuleFieldError, Rules, UnknownPreset,
};
pub use setup::{PositionError, Setup};
pub use shakmaty::{attacks, Bitboard, Board, ByColor, Color, File, Piece, Rank, Role, Square};
pub use types::{Move, Reserve, UciText, RESERVE_ROLES};
