//! A table's scoresheet as BPGN (`GET /api/otb/{id}/bpgn`, and a tournament's `matches.bpgn`):
//! the tags the server knows of the table, the moves with the clock times of the table's
//! presses, written by `bughouse_bpgn` as an online match's are.

use bughouse_core::otb::Table;
use bughouse_store::StoredOtbTable;

/// The BPGN of `table` (the replay of `stored`), or `None` when no move was entered.
pub(super) fn bpgn(stored: &StoredOtbTable, table: &Table) -> Option<String> {
    let t = &stored.table;
    let mut tags: Vec<(String, String)> = vec![
        ("Event".into(), "over-the-board bughouse".into()),
        ("Site".into(), "over the board".into()),
        ("Variant".into(), "bughouse".into()),
        ("Rules".into(), t.preset.clone()),
    ];
    if let Some((tournament, round, number)) = &t.pairing {
        tags[0].1 = format!("tournament {tournament}, table {number}");
        tags.push(("Round".into(), round.to_string()));
    }
    let record = bughouse_bpgn::table_record(table, &tags)?;
    Some(bughouse_bpgn::write_record(&record))
}
