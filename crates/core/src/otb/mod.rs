//! Over-the-board bughouse: the decisions an arbiter takes at a table of two physical boards,
//! as each rulebook says, with the article that applies.
//!
//! - [`TableClock`]: the two chess clocks (four faces): start, press, pause, resume, flags.
//! - [`Claim`], [`Ruling`]: what players claim and the arbiter rules.
//! - [`decide()`](decide::decide): the article and the [`Consequence`] of a claim, from the
//!   facts the table knows and, when the moves were entered, the rules engine's answers
//!   ([`EngineFacts`]).
//! - [`Scoresheet`]: the moves of both boards when a scorer enters them, checked by the engine.
//! - [`Table`]: applies events in order, carries out the decisions and keeps the record.
//!
//! Pure: no I/O, and time is passed in with every event.

mod article;
mod claim;
mod clock;
pub mod decide;
mod scoresheet;
mod table;

pub use article::{Article, NotABughouseRulebook, Rulebook};
pub use claim::{
    CapturedPiece, Claim, Consequence, Decision, PieceBack, Refusal, Ruling, SetupFault,
};
pub use clock::{ClockError, TableClock};
pub use decide::{EngineFacts, Facts};
pub use scoresheet::{Scoresheet, ScoresheetError, SheetMove};
pub use table::{Entry, EntryKind, Event, Table, TableError, TableGameEnd};
