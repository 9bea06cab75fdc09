//! Over-the-board decisions (`bughouse_core::otb`), one scenario per article, under each
//! rulebook where they differ. Time is a fake clock: milliseconds since the table's start,
//! passed with every event. Every test name starts with its rulebook (`fide_`, `minerva_`,
//! `knsb_`, `uscf_`) or `all_`, then the article.
//!
//! The shared helpers are here; the scenarios are in otb/, a file per group of articles.

#[path = "otb/claims_and_rulings.rs"]
mod claims_and_rulings;
#[path = "otb/flags.rs"]
mod flags;
#[path = "otb/illegal_moves.rs"]
mod illegal_moves;
#[path = "otb/scoresheet.rs"]
mod scoresheet;
#[path = "otb/setup.rs"]
mod setup;
#[path = "otb/start_and_pause.rs"]
mod start_and_pause;

use std::time::Duration;

use bughouse_core::otb::{
    Article, CapturedPiece, Claim, ClockError, Consequence, Decision, EngineFacts, Event,
    PieceBack, Refusal, Rulebook, Ruling, SetupFault, Table, TableError,
};
use bughouse_core::{BoardId, Color, DrawClaim, MatchResult, Role, Score, Seat, Team, TimeControl};

fn ms(n: u64) -> Duration {
    Duration::from_millis(n)
}

/// A table with `secs` seconds per player, started at 0.
fn started(book: Rulebook, secs: u64) -> Table {
    let tc = TimeControl {
        base: Duration::from_secs(secs),
        increment: Duration::ZERO,
    };
    let mut t = Table::new(book, tc);
    t.apply(Event::Start, ms(0)).unwrap();
    t
}

/// The decisions taken on the new entries (flags fallen, then the event).
fn go(t: &mut Table, event: Event, at: u64) -> Vec<Decision> {
    let entries = t.apply(event, ms(at)).unwrap();
    entries.into_iter().flat_map(|e| e.decisions).collect()
}

fn go_with(t: &mut Table, event: Event, at: u64, engine: &EngineFacts) -> Vec<Decision> {
    let entries = t.apply_with(event, ms(at), Some(engine)).unwrap();
    entries.into_iter().flat_map(|e| e.decisions).collect()
}

fn press(t: &mut Table, seat: Seat, at: u64) {
    t.apply(Event::Press(seat), ms(at)).unwrap();
}

fn claim(c: Claim) -> Event {
    Event::Claim(c)
}

fn d(article: Article, consequence: Consequence) -> Decision {
    Decision::new(article, consequence)
}

fn refused(article: Article, why: Refusal) -> Decision {
    Decision::refused(article, why)
}

fn flag(claimant: Seat) -> Event {
    claim(Claim::Flag { claimant })
}

fn illegal(claimant: Seat) -> Event {
    claim(Claim::IllegalMove {
        claimant,
        captured: None,
    })
}
