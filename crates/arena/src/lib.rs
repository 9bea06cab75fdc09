//! The bughouse arena: two teams play two-board bughouse matches against each other in virtual
//! time, one engine thinking at a time (docs/arena.md explains the clock).
//!
//! A team ([`Spec`]) is our in-process bot (`bughouse_engine::TeamBot`, one per seat; partners
//! talk), an outside UCI engine that knows bughouse (one process per board, [`uci`]), or an
//! outside XBoard engine (one process per board; partners talk through `ptell`, which the arena
//! relays, [`xboard`]). Matches alternate the seats: team1 plays WhiteA + BlackB in odd matches
//! and BlackA + WhiteB in even ones ([`Config::seating`]).
//!
//! - [`elo`]: ratings fitted to results between players (the bot levels' calibration).
//! - [`Config`]: the teams, time control, rules and seed; [`Config::check_engines`] before the
//!   first match, [`Config::play`] for each ([`Played`]).
//! - [`write_results`]: the results table; [`Played::bpgn`]: a match's record.
//! - [`uci`], [`xboard`]: the outside engines' clients, every misbehaviour an [`EngineError`];
//!   both run their process through one module (start, lines with deadlines, `quit` on drop).

pub mod elo;
mod fen;
mod play;
mod player;
mod process;
mod report;
mod spec;
pub mod uci;
pub mod xboard;

use std::path::PathBuf;

pub use fen::uci_fen;
pub use play::{Config, Played, TeamError};
pub use report::{points, write_results};
pub use spec::{arena_preset, fairy_stockfish_path, BotOptions, PresetError, Spec, SpecError};
pub use uci::EngineScore;

/// The variant outside engines are asked to play.
pub const UCI_VARIANT: &str = "bughouse";
/// A match still going after this many plies (both boards together) is adjudicated a draw.
pub const MAX_PLIES: usize = 1000;

/// What went wrong with an outside engine.
#[derive(Debug, thiserror::Error)]
pub enum EngineError {
    /// The process could not be started.
    #[error("cannot start the engine: {}: {source}", path.display())]
    Start {
        /// The program.
        path: PathBuf,
        /// Why it did not start.
        source: std::io::Error,
    },
    /// The process started without pipes to it.
    #[error("cannot start the engine: no pipes to the process")]
    NoPipes,
    /// The process ended or closed its output.
    #[error("the engine died (its output closed)")]
    Died,
    /// No answer in time: what we waited for.
    #[error("the engine did not answer {0} in time")]
    Timeout(&'static str),
    /// The engine does not know the variant we need.
    #[error(
        "the engine does not offer the variant {0} (it must be a bughouse engine, e.g. Fairy-Stockfish)"
    )]
    Variant(String),
    /// Writing to the engine failed.
    #[error("cannot write to the engine: {0}")]
    Io(std::io::Error),
    /// The engine answered this line instead of a move.
    #[error("the engine answered {0:?} instead of a move")]
    Answer(String),
}
