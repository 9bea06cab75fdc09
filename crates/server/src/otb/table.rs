//! A stored table brought back: its settings, its events replayed through
//! [`bughouse_core::otb::Table`], and what is shown and stored of it.

use std::time::Duration;

use bughouse_core::otb::{Rulebook, Table};
use bughouse_core::{BoardId, Preset, TimeControl};
use bughouse_protocol::otb::{OtbEvent, OtbGameResult, OtbPairing, OtbRejected, OtbTableView};
use bughouse_store::{OtbResult, StoredOtbTable};

use super::{record, wire, Error};

/// The rulebook and time control of a stored table.
pub(super) fn settings(stored: &StoredOtbTable) -> Result<(Rulebook, TimeControl), Error> {
    let corrupt = || {
        tracing::error!(table = %stored.table.id, "unreadable over-the-board table");
        Error::Corrupt
    };
    let preset: Preset = stored.table.preset.parse().map_err(|_| corrupt())?;
    let book = Rulebook::from_preset(preset).map_err(|_| corrupt())?;
    let ms = |v: i64| {
        u64::try_from(v)
            .map(Duration::from_millis)
            .map_err(|_| corrupt())
    };
    Ok((
        book,
        TimeControl {
            base: ms(stored.table.base_ms)?,
            increment: ms(stored.table.increment_ms)?,
        },
    ))
}

/// The BPGN of a stored table (its events replayed); `None` when no move was entered.
pub(crate) fn stored_bpgn(stored: &StoredOtbTable) -> Result<Option<String>, Error> {
    let table = replay(stored)?;
    Ok(record::bpgn(stored, &table))
}

/// The table after its stored events.
pub(super) fn replay(stored: &StoredOtbTable) -> Result<Table, Error> {
    let (book, tc) = settings(stored)?;
    let mut table = Table::new(book, tc);
    for e in &stored.events {
        let Ok(event) = serde_json::from_str::<OtbEvent>(&e.event_json) else {
            tracing::error!(table = %stored.table.id, seq = e.seq, "unreadable event");
            continue;
        };
        let at = Duration::from_millis(u64::try_from(e.at_ms).unwrap_or(0));
        if let Err(err) = wire::event(&event, &table).and_then(|ev| table.apply(ev, at)) {
            // Accepted once, so refused now only if the rules changed since: keep going.
            tracing::warn!(table = %stored.table.id, seq = e.seq, "event refused on replay: {err}");
        }
    }
    Ok(table)
}

/// The result to store once the match is over.
pub(super) fn result_of(table: &Table) -> Option<OtbResult> {
    let result = table.result()?;
    let game = |b: BoardId| {
        table
            .game_end(b)
            .map_or(OtbGameResult::Stopped, |e| wire::game_result(e.score))
            .as_str()
            .to_owned()
    };
    Some(OtbResult {
        result: result.pgn().to_owned(),
        a: game(BoardId::A),
        b: game(BoardId::B),
    })
}

pub(super) fn view(
    stored: &StoredOtbTable,
    table: &Table,
    applied: Vec<u64>,
    rejected: Vec<OtbRejected>,
) -> OtbTableView {
    let t = &stored.table;
    OtbTableView {
        id: t.id.clone(),
        rulebook: wire::wire_rulebook(table.rulebook()),
        base_ms: u64::try_from(t.base_ms).unwrap_or(0),
        increment_ms: u64::try_from(t.increment_ms).unwrap_or(0),
        pairing: t.pairing.as_ref().map(|(tid, r, n)| OtbPairing {
            tournament: tid.clone(),
            round: u32::try_from(*r).unwrap_or(0),
            table: u32::try_from(*n).unwrap_or(0),
        }),
        started: table.clock().is_started(),
        paused: table.clock().is_paused(),
        as_of_ms: u64::try_from(table.clock().last().as_millis()).unwrap_or(u64::MAX),
        clocks: wire::faces(table),
        games: wire::games(table),
        result: table.result().map(wire::match_result),
        illegal_moves: wire::illegal_moves(table),
        record: wire::record(table),
        applied,
        rejected,
        moves: wire::moves(table),
    }
}
