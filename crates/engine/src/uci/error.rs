//! What a UCI command can get wrong, as the engine reports it (`info string error: ...`):
//! the command, the option or parameter, and the value it could not take.

use bughouse_core::fen::FenError;
use bughouse_core::uci::UciError;
use bughouse_core::IllegalMove;

use crate::{EvalFileError, ParseLevelError, SearchConfig};

/// A command the engine could not carry out; it goes on with the next line.
#[derive(Debug, thiserror::Error)]
pub(crate) enum CommandError {
    #[error("unknown command {0:?}")]
    UnknownCommand(String),
    #[error("setoption: expected name NAME value VALUE")]
    SetOptionShape,
    #[error("setoption: unknown option {0:?}")]
    UnknownOption(String),
    #[error("setoption UCI_Variant: unknown variant {0:?} (bughouse, crazyhouse)")]
    UnknownVariant(String),
    #[error("setoption Hash: {0:?} is not 1-4096")]
    Hash(String),
    #[error("setoption Search: unknown search {0:?} ({names})", names = SearchConfig::names())]
    UnknownSearch(String),
    #[error("setoption {option}: {value:?} is not true or false")]
    NotBool { option: &'static str, value: String },
    #[error("setoption Level: {0}")]
    Level(#[from] ParseLevelError),
    #[error("setoption UCI_Elo: {value:?} is not {min}-{max}")]
    Elo { value: String, min: u32, max: u32 },
    #[error("setoption EvalFile: {path}: {source}")]
    EvalFile { path: String, source: EvalFileError },
    #[error("go {0}: missing value")]
    MissingValue(String),
    #[error("go {param}: {value:?} is not a number")]
    NotANumber { param: String, value: String },
    #[error("go: unsupported parameter {0:?}")]
    UnsupportedGo(String),
    #[error("position: expected startpos or fen FEN, then optionally moves")]
    PositionShape,
    #[error("position fen: {0}")]
    Fen(#[from] FenError),
    #[error("position: move {number} ({token}): {source}")]
    Move {
        number: usize,
        token: String,
        source: MoveError,
    },
}

/// Why a move of `position ... moves` was refused: its notation, or its legality.
#[derive(Debug, thiserror::Error)]
pub(crate) enum MoveError {
    #[error(transparent)]
    Notation(#[from] UciError),
    #[error(transparent)]
    Illegal(#[from] IllegalMove),
}
