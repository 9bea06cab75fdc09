//! The store's test suite. Every test of `suite!` runs twice: against SQLite (a file in a
//! temporary directory) and against PostgreSQL, at the URL in `BUGHOUSE_TEST_POSTGRES_URL`, each
//! test in a schema of its own (the harness is tests/common). Without that variable the
//! PostgreSQL half is skipped with a note, except when `CI` is set: then it fails, so that CI
//! can't pass without PostgreSQL. To get one:
//!
//! ```sh
//! pg_env=$(bash .ci/postgres.sh) && eval "$pg_env"
//! ```
//!
//! The fixtures are here, the tests in store/, a file per concern.

use std::time::{Duration, Instant};

use bughouse_protocol::ArchiveEntry;
use bughouse_store::{
    Backend, MatchStatus, NewMatch, Store, StoreError, StoredEvent, StoredMatch, StoredMove,
    StoredSeat, StoredTalk, StoredTournament, TournamentMatch, Write,
};

#[macro_use]
mod common;

use common::{postgres_url, TestDb};

#[path = "store/connect.rs"]
mod connect;
#[path = "store/reads.rs"]
mod reads;
#[path = "store/refusals.rs"]
mod refusals;
#[path = "store/talk.rs"]
mod talk;
#[path = "store/tournaments.rs"]
mod tournaments;
#[path = "store/writes.rs"]
mod writes;

const T0: i64 = 1_763_700_000_000;

fn new_match(id: &str, created_at_ms: i64) -> NewMatch {
    NewMatch {
        id: id.into(),
        rules_preset: "fide".into(),
        rules_json: r#"{"preset":"fide","drops":{"pawn_ranks":[2,7]}}"#.into(),
        base_ms: 300_000,
        increment_ms: 2_000,
        created_at_ms,
        rematch_of: None,
        rated: false,
        allow_bots: false,
    }
}

fn mv(match_id: &str, ply: i64, seat: u8, uci: &str, san: &str) -> StoredMove {
    StoredMove {
        match_id: match_id.into(),
        ply,
        seat,
        uci: uci.into(),
        san: san.into(),
        at_ms: 1_000 * (ply + 1),
        clock_ms: 300_000 - 700 * ply,
        remaining_ms: [300_000 - ply, 299_000 - ply, 298_000 - ply, 297_000 - ply],
        action_id: Some(1_000 + ply),
        lag_ms: ply % 3,
    }
}

fn ev(match_id: &str, seq: i64, ply: i64, seat: u8, kind: &str, detail: &str) -> StoredEvent {
    StoredEvent {
        match_id: match_id.into(),
        seq,
        ply,
        seat,
        kind: kind.into(),
        detail: detail.into(),
        at_ms: 1_500 * (seq + 1),
        action_id: (seq % 2 == 0).then_some(seq),
    }
}

fn seat(name: &str, bot: bool) -> Option<StoredSeat> {
    Some(StoredSeat {
        name: name.into(),
        token_hash: format!("sha256:{name}"),
        bot,
        account: None,
    })
}

async fn sit_all(store: &Store, id: &str, names: [&str; 4]) {
    for (i, name) in names.into_iter().enumerate() {
        store
            .set_seat(id, i as u8, name, &format!("sha256:{name}"), false)
            .await
            .unwrap();
    }
}

/// Creates, seats, starts and finishes a match.
async fn finished_match(store: &Store, id: &str, names: [&str; 4], result: &str, at: i64) {
    store
        .create_match(&new_match(id, at - 60_000))
        .await
        .unwrap();
    sit_all(store, id, names).await;
    store.start_match(id, at - 50_000).await.unwrap();
    store
        .record_move(&mv(id, 0, 0, "e2e4", "e4"))
        .await
        .unwrap();
    store
        .finish_match(
            id,
            result,
            "BlackA resigns",
            ["1-0", "*"],
            &format!("[Event \"{id}\"]\n1A. e4 {result}\n"),
            at,
        )
        .await
        .unwrap();
}
