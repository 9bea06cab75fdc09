//! BPGN (bughouse) and PGN (crazyhouse) records: reading as they are written in practice,
//! replaying with every check a record implies, and writing standard BPGN.
//!
//! BPGN conventions: partners are WhiteA + BlackB against BlackA + WhiteB; `1-0` means
//! WhiteA + BlackB won; move numbers `12A.` / `12a.` / `12B.` / `12b.` give the board, the side
//! (case) and that board's own move number; both boards' moves stand in one sequence in the
//! order they were made.

mod otb;
mod reader;
mod replay;
mod writer;

pub use otb::table_record;
pub use reader::{latin1, read_games, Games, ReadError, Record, RecordMove};
pub use replay::{
    replay, replay_bughouse, replay_single, replay_single_each, time_control_of, ReplayError,
    ReplayResult,
};
pub use writer::{format_clock, termination, write_bpgn, write_record};
