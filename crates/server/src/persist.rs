//! What the hub's store effects become in the database: one [`Write`] per [`StoreOp`].

use bughouse_store::Write;

use crate::hub::StoreOp;

/// Unix time now, in milliseconds.
pub fn unix_ms() -> i64 {
    std::time::SystemTime::now()
        .duration_since(std::time::UNIX_EPOCH)
        .map_or(0, |d| i64::try_from(d.as_millis()).unwrap_or(i64::MAX))
}

fn i(n: u64) -> i64 {
    i64::try_from(n).unwrap_or(i64::MAX)
}

/// The database write of a store effect. `unix_zero_ms` is the Unix time, in milliseconds, of
/// server time 0 (the hub's `now` counts from it).
pub fn store_write(op: StoreOp, unix_zero_ms: i64) -> Write {
    match op {
        StoreOp::CreateMatch {
            id,
            preset,
            rules,
            time_control,
            rematch_of,
        } => {
            let rules_json = serde_json::to_string(&rules).unwrap_or_else(|_| "null".into());
            Write::CreateMatch(bughouse_store::NewMatch {
                id,
                rules_preset: preset,
                rules_json,
                base_ms: i(u64::try_from(time_control.base.as_millis()).unwrap_or(0)),
                increment_ms: i(u64::try_from(time_control.increment.as_millis()).unwrap_or(0)),
                created_at_ms: unix_ms(),
                rematch_of,
            })
        }
        StoreOp::SetSeat {
            match_id,
            seat,
            name,
            token_hash,
            bot,
        } => Write::SetSeat {
            match_id,
            seat,
            name,
            token_hash,
            bot,
        },
        StoreOp::ClearSeat { match_id, seat } => Write::ClearSeat { match_id, seat },
        StoreOp::Start { match_id } => Write::StartMatch {
            match_id,
            started_at_ms: unix_ms(),
        },
        StoreOp::Move {
            match_id,
            ply,
            seat,
            uci,
            san,
            at_ms,
            remaining_ms,
            action_id,
            lag_ms,
        } => {
            let mover = usize::from(seat).min(3);
            Write::RecordMove(bughouse_store::StoredMove {
                match_id,
                ply: i64::try_from(ply).unwrap_or(i64::MAX),
                seat,
                uci,
                san,
                at_ms: i(at_ms),
                clock_ms: i(remaining_ms[mover]),
                remaining_ms: remaining_ms.map(i),
                action_id: action_id.map(i),
                lag_ms: i(lag_ms),
            })
        }
        StoreOp::Event {
            match_id,
            seq,
            ply,
            seat,
            kind,
            detail,
            at_ms,
            action_id,
        } => Write::RecordEvent(bughouse_store::StoredEvent {
            match_id,
            seq: i64::try_from(seq).unwrap_or(i64::MAX),
            ply: i64::try_from(ply).unwrap_or(i64::MAX),
            seat,
            kind,
            detail,
            at_ms: i(at_ms),
            action_id: action_id.map(i),
        }),
        StoreOp::Talk {
            match_id,
            seat,
            entry,
            action_id,
        } => Write::RecordTalk(bughouse_store::StoredTalk {
            match_id,
            seq: i(entry.n),
            seat,
            kind: serde_json::to_value(entry.kind)
                .ok()
                .and_then(|v| v.as_str().map(str::to_owned))
                .unwrap_or_default(),
            piece: entry.piece.map(|p| p.as_str().to_owned()),
            text: entry.text,
            at_ms: i(entry.at_ms),
            action_id: action_id.map(i),
        }),
        StoreOp::ClockAnchor {
            match_id,
            zero_at_ms,
        } => Write::SetClockAnchor {
            match_id,
            anchor_ms: unix_zero_ms.saturating_add(zero_at_ms),
        },
        StoreOp::Finish {
            match_id,
            result,
            bpgn,
        } => Write::FinishMatch {
            match_id,
            result: result.result,
            reason: result.reason,
            board_results: result.boards,
            bpgn,
            finished_at_ms: unix_ms(),
        },
    }
}
