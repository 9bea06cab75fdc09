//! The bughouse bot.
//!
//! - [`Searcher`]: single-board search (iterative deepening PVS, transposition table with
//!   reserves in the key, quiescence with checking drops), for UCI and for the bot.
//! - [`evaluate`]: an evaluation made for bughouse (reserve material, king safety against
//!   drops, mobility, pawns near promotion, tempo).
//! - [`EvalParams`]: the evaluation's weights, defaults or tuned (`bughouse tune`);
//!   [`SearchParams`]: the search's margins; [`EngineParams`]: both, in one text form.
//! - [`Book`]: the opening book, moves searched deeply beforehand (`bughouse tune book`).
//! - [`Level`]: strength levels 1 to 8 for casual play.
//! - [`TeamBot`]: one seat of a match, seeing both boards: counts on the pieces about to cross,
//!   sits when moving loses to an incoming piece or when the partner is about to capture the
//!   piece it needs, talks with its partner ([`Talk`]), and budgets its clock.
//! - [`uci`] and [`xboard`]: the engine behind the UCI and XBoard (CECP v2, with the partner
//!   protocol) text protocols, on any reader and writer (`bughouse uci` and `bughouse xboard`
//!   give them standard input and output).
//!
//! The engine reads `std::time::Instant` only for its own search deadline; with node limits
//! only, a search is deterministic. Only the protocol front ends do I/O, and only on the
//! reader and writer they are given.
//!
//! # Examples
//!
//! ```
//! use bughouse_core::{Position, Rules};
//! use bughouse_engine::{Limits, Searcher};
//!
//! let pos = Position::new(Rules::fide());
//! let mut searcher = Searcher::new(1);
//! let result = searcher.search(&pos, Limits::depth(3), &mut |_| {});
//! assert!(pos.legal_moves().contains(&result.best.unwrap()));
//! ```

mod book;
mod eval;
mod level;
mod params;
mod search;
mod send;
mod team;
pub mod uci;
pub mod xboard;
mod zobrist;

pub use book::{Book, BookError};
pub use eval::{evaluate, evaluate_with, see, BOARD_VALUE, RESERVE_VALUE};
pub use level::{Level, ParseLevelError, PUBLISHED_DEVIATION, PUBLISHED_RATINGS};
pub use params::{
    EngineParams, EvalFileError, EvalParams, ParamsError, ENGINE_PARAM_COUNT, EVAL_PARAM_COUNT,
};
pub use search::{
    find_mate, mate_in, Limits, MateLine, MateSearch, SearchConfig, SearchInfo, SearchParams,
    SearchResult, Searcher, MATE, MATE_BOUND, MAX_PLY, SEARCH_PARAM_COUNT,
};
pub use team::{Action, Decision, Talk, TeamBot};

/// The longest time a protocol command's clock, increment or move time is taken to mean (a
/// year): a longer one (`go wtime 99999999999999999`, `level 40 9999999999 0`) is read as this,
/// so that no deadline or budget overflows.
pub const MAX_CLOCK: std::time::Duration = std::time::Duration::from_secs(365 * 24 * 3600);

/// A protocol's time in seconds (possibly fractional, from the outside world) as a duration:
/// negative or not a number is zero, more than [`MAX_CLOCK`] is that.
pub(crate) fn clock_secs(secs: f64) -> std::time::Duration {
    if secs.is_nan() || secs <= 0.0 {
        std::time::Duration::ZERO
    } else {
        std::time::Duration::from_secs_f64(secs.min(MAX_CLOCK.as_secs_f64()))
    }
}

/// The Zobrist key the search uses for `pos`: pieces, promoted squares, side to move,
/// castling, en passant and both reserves.
pub fn position_key(pos: &bughouse_core::Position) -> u64 {
    zobrist::key(pos)
}
