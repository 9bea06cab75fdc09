//! The record of an over-the-board table (issue 16) as BPGN: the scoresheet's moves with the
//! times the table's clocks showed when each mover pressed, without a running [`Match`]
//! (whose own clock would flag players the table lets play on, K11A2).
//!
//! [`Match`]: bughouse_core::Match

use bughouse_core::otb::Table;
use bughouse_core::BoardId;

use crate::reader::{Record, RecordMove};

/// The table's record as a bughouse [`Record`] with `tags` (in order; a `TimeControl` tag is
/// added from the table's clocks when missing): the moves entered on its scoresheet, each with
/// the mover's clock after his press for it (none while he has not pressed), the result once
/// the match is over, and as termination how each finished game ended and by which article.
/// `None` when no move was entered. Write it with [`write_record`](crate::write_record).
pub fn table_record(table: &Table, tags: &[(String, String)]) -> Option<Record> {
    let sheet = table.scoresheet();
    if sheet.is_empty() {
        return None;
    }
    let mut tags: Vec<(String, String)> = tags.to_vec();
    if !tags.iter().any(|(k, _)| k == "TimeControl") {
        let tc = table.clock().time_control();
        tags.push((
            "TimeControl".to_owned(),
            format!("{}+{}", tc.base.as_secs(), tc.increment.as_secs()),
        ));
    }
    let moves = sheet
        .moves()
        .iter()
        .zip(table.move_clocks())
        .map(|(m, clock)| RecordMove {
            board: Some(m.seat.board),
            color: m.seat.color,
            number: m.number,
            san: m.san.clone(),
            clock,
            line: 0,
        })
        .collect();
    let ends: Vec<String> = BoardId::ALL
        .into_iter()
        .filter_map(|b| {
            table
                .game_end(b)
                .map(|e| format!("board {b}: {} ({})", e.score.pgn(), e.article))
        })
        .collect();
    Some(Record {
        tags,
        moves,
        termination: (!ends.is_empty()).then(|| ends.join("; ")),
        result: Some(table.result().map_or("*", |r| r.pgn()).to_owned()),
        line: 0,
        bughouse: true,
    })
}
