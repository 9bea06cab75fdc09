//! The store's test suite. Every test of `suite!` runs twice: against SQLite (a file in a
//! temporary directory) and against PostgreSQL, at the URL in `BUGHOUSE_TEST_POSTGRES_URL`, each
//! test in a schema of its own (the harness is tests/common). Without that variable the
//! PostgreSQL half is skipped with a note, except when `CI` is set: then it fails, so that CI
//! can't pass without PostgreSQL. To get one:
//!
//! ```sh
//! pg_env=$(bash .ci/postgres.sh) && eval "$pg_env"
//! ```

use std::time::{Duration, Instant};

use bughouse_protocol::ArchiveEntry;
use bughouse_store::{
    Backend, MatchStatus, NewMatch, Store, StoreError, StoredEvent, StoredMatch, StoredMove,
    StoredSeat, StoredTalk, StoredTournament, TournamentMatch, Write,
};

#[macro_use]
mod common;

use common::{postgres_url, TestDb};

suite!(
    round_trip,
    live_matches_exclude_finished,
    duplicates_refused,
    archive_order_and_paging,
    bpgn_stored_and_read,
    reconnect_sees_data,
    refusals,
    concurrent_writers,
    tournaments_round_trip,
    tournament_refusals,
    tournament_versions_and_exclusive,
    talk_anchor_and_heartbeat,
);

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

async fn round_trip(db: &TestDb) {
    let store = db.store().await;
    let id = "round-trip";
    let created = new_match(id, T0);
    store.create_match(&created).await.unwrap();

    let waiting = store.load_match(id).await.unwrap().expect("the new match");
    assert_eq!(
        waiting,
        StoredMatch {
            id: id.into(),
            rules_preset: created.rules_preset.clone(),
            rules_json: created.rules_json.clone(),
            base_ms: 300_000,
            increment_ms: 2_000,
            created_at_ms: T0,
            rematch_of: None,
            rated: false,
            allow_bots: false,
            started_at_ms: None,
            status: MatchStatus::Waiting,
            seats: [None, None, None, None],
            moves: vec![],
            events: vec![],
            talk: vec![],
            clock_anchor_ms: None,
            result: None,
            reason: None,
            board_results: None,
            finished_at_ms: None,
        }
    );
    assert!(waiting.status == "waiting");
    assert_eq!(waiting.to_new_match(), created);

    // Seats: take all four, replace one, free and retake another, give one to a bot.
    sit_all(&store, id, ["ann", "bob", "cid", "dan"]).await;
    store
        .set_seat(id, 1, "bea", "sha256:bea", false)
        .await
        .unwrap();
    store.clear_seat(id, 2).await.unwrap();
    assert_eq!(store.load_match(id).await.unwrap().unwrap().seats[2], None);
    store.clear_seat(id, 2).await.unwrap(); // already free: fine
    store
        .set_seat(id, 2, "cid", "sha256:cid", false)
        .await
        .unwrap();
    store
        .set_seat(id, 3, "bot-3", "sha256:bot-3", true)
        .await
        .unwrap();

    store.start_match(id, T0 + 5_000).await.unwrap();

    // Moves on both boards, one recorded out of order: they come back by ply.
    let moves = vec![
        mv(id, 0, 0, "e2e4", "e4"),
        mv(id, 1, 2, "d2d4", "d4"),
        mv(id, 2, 1, "d7d5", "d5"),
        mv(id, 3, 0, "e4d5", "exd5"),
        mv(id, 4, 3, "P@e5", "P@e5"),
        mv(id, 5, 1, "N@f3", "N@f3+"),
    ];
    for &i in &[0, 1, 3, 2, 4, 5] {
        store.record_move(&moves[i]).await.unwrap();
    }
    let events = vec![
        ev(id, 0, 2, 1, "offer_draw", ""),
        ev(id, 1, 3, 1, "withdraw_draw", ""),
        ev(id, 2, 5, 2, "claim_draw", "repetition"),
        ev(id, 3, 6, 0, "resign", "«über» \"quoted\" 'single'"),
    ];
    for e in &events {
        store.record_event(e).await.unwrap();
    }

    let expected_seats = [
        seat("ann", false),
        seat("bea", false),
        seat("cid", false),
        seat("bot-3", true),
    ];
    let playing = store.load_match(id).await.unwrap().unwrap();
    assert_eq!(playing.status, MatchStatus::Playing);
    assert_eq!(playing.started_at_ms, Some(T0 + 5_000));
    assert_eq!(playing.seats, expected_seats);
    assert_eq!(playing.moves, moves);
    assert_eq!(playing.events, events);
    assert_eq!(store.live_matches().await.unwrap(), vec![playing.clone()]);

    store
        .finish_match(
            id,
            "0-1",
            "WhiteA resigns",
            ["0-1", "*"],
            "[Event \"round trip\"]\n",
            T0 + 90_000,
        )
        .await
        .unwrap();
    let finished = store.load_match(id).await.unwrap().unwrap();
    assert_eq!(
        finished,
        StoredMatch {
            status: MatchStatus::Finished,
            result: Some("0-1".into()),
            reason: Some("WhiteA resigns".into()),
            board_results: Some(["0-1".into(), "*".into()]),
            finished_at_ms: Some(T0 + 90_000),
            ..playing
        }
    );

    // A rematch points back at it.
    let rematch = NewMatch {
        rematch_of: Some(id.into()),
        // The new columns round-trip (migration 0005).
        rated: true,
        allow_bots: true,
        ..new_match("round-trip-2", T0 + 100_000)
    };
    store.create_match(&rematch).await.unwrap();
    let loaded = store.load_match("round-trip-2").await.unwrap().unwrap();
    assert_eq!(loaded.rematch_of.as_deref(), Some(id));
    assert_eq!(loaded.to_new_match(), rematch);

    assert_eq!(store.load_match("no-such-match").await.unwrap(), None);
    store.close().await;
}

async fn live_matches_exclude_finished(db: &TestDb) {
    let store = db.store().await;
    assert_eq!(store.live_matches().await.unwrap(), vec![]);

    store
        .create_match(&new_match("waiting", T0 + 1))
        .await
        .unwrap();
    store
        .set_seat("waiting", 0, "wes", "h", false)
        .await
        .unwrap();

    store
        .create_match(&new_match("playing", T0 + 2))
        .await
        .unwrap();
    sit_all(&store, "playing", ["pa", "pb", "pc", "pd"]).await;
    store.start_match("playing", T0 + 10).await.unwrap();
    store
        .record_move(&mv("playing", 0, 0, "e2e4", "e4"))
        .await
        .unwrap();
    store
        .record_move(&mv("playing", 1, 2, "g1f3", "Nf3"))
        .await
        .unwrap();
    store
        .record_event(&ev("playing", 0, 2, 1, "offer_draw", ""))
        .await
        .unwrap();

    finished_match(&store, "finished", ["fa", "fb", "fc", "fd"], "1-0", T0 + 20).await;

    // Abandoned before it started: finished too.
    store
        .create_match(&new_match("abandoned", T0 + 4))
        .await
        .unwrap();
    store
        .finish_match("abandoned", "1/2-1/2", "aborted", ["*", "*"], "", T0 + 30)
        .await
        .unwrap();

    // The oldest comes first.
    store.create_match(&new_match("oldest", T0)).await.unwrap();
    sit_all(&store, "oldest", ["oa", "ob", "oc", "od"]).await;
    store.start_match("oldest", T0 + 5).await.unwrap();
    store
        .record_move(&mv("oldest", 0, 2, "b1c3", "Nc3"))
        .await
        .unwrap();

    let live = store.live_matches().await.unwrap();
    let ids: Vec<&str> = live.iter().map(|m| m.id.as_str()).collect();
    assert_eq!(ids, ["oldest", "waiting", "playing"]);

    assert_eq!(live[0].status, MatchStatus::Playing);
    assert_eq!(live[0].moves, vec![mv("oldest", 0, 2, "b1c3", "Nc3")]);
    assert!(live[0].events.is_empty());

    assert_eq!(live[1].status, MatchStatus::Waiting);
    assert_eq!(
        live[1].seats,
        [
            Some(StoredSeat {
                name: "wes".into(),
                token_hash: "h".into(),
                bot: false,
                account: None,
            }),
            None,
            None,
            None
        ]
    );
    assert!(live[1].moves.is_empty());

    assert_eq!(live[2].moves.len(), 2);
    assert_eq!(
        live[2].events,
        vec![ev("playing", 0, 2, 1, "offer_draw", "")]
    );
    assert_eq!(live[2].seats[3], seat("pd", false));

    // Each live match loads alone the same way.
    for m in &live {
        assert_eq!(store.load_match(&m.id).await.unwrap().as_ref(), Some(m));
    }
    let finished = store.load_match("finished").await.unwrap().unwrap();
    assert_eq!(finished.status, MatchStatus::Finished);
    assert_eq!(finished.moves.len(), 1);
    let abandoned = store.load_match("abandoned").await.unwrap().unwrap();
    assert_eq!(abandoned.started_at_ms, None);
    assert_eq!(abandoned.status, MatchStatus::Finished);
}

async fn duplicates_refused(db: &TestDb) {
    let store = db.store().await;
    store.create_match(&new_match("dup", T0)).await.unwrap();
    sit_all(&store, "dup", ["a", "b", "c", "d"]).await;
    store.start_match("dup", T0 + 1).await.unwrap();

    let first = mv("dup", 0, 0, "e2e4", "e4");
    store.record_move(&first).await.unwrap();
    let err = store
        .record_move(&mv("dup", 0, 2, "d2d4", "d4"))
        .await
        .unwrap_err();
    assert!(
        matches!(&err, StoreError::DuplicatePly { match_id, ply: 0 } if match_id == "dup"),
        "{err:?}"
    );
    assert_eq!(
        err.to_string(),
        "match \"dup\" already has a move with ply 0"
    );
    // The same move again is refused just the same.
    assert!(matches!(
        store.record_move(&first).await,
        Err(StoreError::DuplicatePly { .. })
    ));
    assert_eq!(
        store.load_match("dup").await.unwrap().unwrap().moves,
        vec![first]
    );

    // The same ply in another match is another move.
    store.create_match(&new_match("dup-2", T0)).await.unwrap();
    store.start_match("dup-2", T0 + 1).await.unwrap();
    store
        .record_move(&mv("dup-2", 0, 0, "e2e4", "e4"))
        .await
        .unwrap();

    let offer = ev("dup", 0, 1, 1, "offer_draw", "");
    store.record_event(&offer).await.unwrap();
    let err = store
        .record_event(&ev("dup", 0, 1, 2, "resign", ""))
        .await
        .unwrap_err();
    assert!(
        matches!(&err, StoreError::DuplicateEvent { seq: 0, .. }),
        "{err:?}"
    );
    assert_eq!(
        store.load_match("dup").await.unwrap().unwrap().events,
        vec![offer]
    );

    let err = store
        .create_match(&new_match("dup", T0 + 9))
        .await
        .unwrap_err();
    assert!(
        matches!(&err, StoreError::MatchExists(id) if id == "dup"),
        "{err:?}"
    );
    // The match was not touched.
    let m = store.load_match("dup").await.unwrap().unwrap();
    assert_eq!((m.created_at_ms, m.status), (T0, MatchStatus::Playing));
}

async fn archive_order_and_paging(db: &TestDb) {
    let store = db.store().await;
    assert_eq!(store.archive(50, 0).await.unwrap(), vec![]);

    finished_match(&store, "a", ["a0", "a1", "a2", "a3"], "1-0", T0 + 5_000).await;
    finished_match(&store, "b", ["b0", "b1", "b2", "b3"], "0-1", T0 + 1_000).await;
    finished_match(&store, "c", ["c0", "c1", "c2", "c3"], "1/2-1/2", T0 + 3_000).await;
    finished_match(&store, "d", ["d0", "d1", "d2", "d3"], "1-0", T0 + 3_000).await;
    // Two seats taken, then abandoned.
    store.create_match(&new_match("e", T0)).await.unwrap();
    store.set_seat("e", 1, "e1", "h", false).await.unwrap();
    store.set_seat("e", 3, "bot", "h", true).await.unwrap();
    store
        .finish_match("e", "1/2-1/2", "aborted", ["*", "*"], "", T0 + 2_000)
        .await
        .unwrap();
    // Live matches are not in the archive.
    store.create_match(&new_match("live", T0)).await.unwrap();
    sit_all(&store, "live", ["l0", "l1", "l2", "l3"]).await;
    store.start_match("live", T0).await.unwrap();

    let all = store.archive(50, 0).await.unwrap();
    let ids: Vec<&str> = all.iter().map(|e| e.match_id.as_str()).collect();
    // Newest first; the tie of c and d goes by id, descending.
    assert_eq!(ids, ["a", "d", "c", "e", "b"]);
    assert_eq!(
        all[0],
        ArchiveEntry {
            match_id: "a".into(),
            rules: "fide".into(),
            players: ["a0", "a1", "a2", "a3"].map(|n| Some(n.to_owned())),
            result: "1-0".into(),
            finished_at: T0 + 5_000,
        }
    );
    assert_eq!(
        all[3].players,
        [None, Some("e1".to_owned()), None, Some("bot".to_owned())]
    );
    assert_eq!(all[3].result, "1/2-1/2");

    let mut paged = Vec::new();
    for offset in [0, 2, 4] {
        let page = store.archive(2, offset).await.unwrap();
        assert!(page.len() <= 2);
        paged.extend(page);
    }
    assert_eq!(paged, all);
    assert_eq!(store.archive(2, 4).await.unwrap().len(), 1);
    assert_eq!(store.archive(2, 6).await.unwrap(), vec![]);
    assert_eq!(store.archive(0, 0).await.unwrap(), vec![]);
    assert_eq!(store.archive(3, 1).await.unwrap(), all[1..4].to_vec());

    for (limit, offset) in [(-1, 0), (10, -1)] {
        let err = store.archive(limit, offset).await.unwrap_err();
        assert!(matches!(err, StoreError::Invalid(_)), "{err:?}");
    }
}

async fn bpgn_stored_and_read(db: &TestDb) {
    let store = db.store().await;
    assert_eq!(store.bpgn("nothing").await.unwrap(), None);

    store.create_match(&new_match("rec", T0)).await.unwrap();
    sit_all(&store, "rec", ["Ann", "Bob", "Cid", "Dan"]).await;
    assert_eq!(store.bpgn("rec").await.unwrap(), None);
    store.start_match("rec", T0).await.unwrap();
    assert_eq!(store.bpgn("rec").await.unwrap(), None);

    let bpgn = "[Event \"Bughouse\"]\n[WhiteA \"Ann\"]\n[BlackA \"Bob\"]\n\
                [WhiteB \"Cid\"]\n[BlackB \"Dan\"]\n[TimeControl \"300+2\"]\n\
                [Result \"1-0\"]\n\n1A. e4{299.3} 1a. d5{298.1} {a comment: «Grüße» \\ 'q'} \
                2A. N@f3 1-0\n";
    store
        .finish_match(
            "rec",
            "1-0",
            "BlackA checkmated",
            ["1-0", "*"],
            bpgn,
            T0 + 60_000,
        )
        .await
        .unwrap();
    assert_eq!(store.bpgn("rec").await.unwrap().as_deref(), Some(bpgn));

    // A long record survives whole.
    let long: String = (1..=2_000)
        .map(|n| format!("{n}A. e4{{299.3}} {n}a. e5{{298.1}} "))
        .collect();
    store.create_match(&new_match("long", T0)).await.unwrap();
    store
        .finish_match(
            "long",
            "0-1",
            "WhiteA forfeits on time",
            ["0-1", "*"],
            &long,
            T0 + 1,
        )
        .await
        .unwrap();
    assert_eq!(store.bpgn("long").await.unwrap(), Some(long));
}

async fn reconnect_sees_data(db: &TestDb) {
    let first = db.store().await;
    first.create_match(&new_match("kept", T0)).await.unwrap();
    sit_all(&first, "kept", ["a", "b", "c", "d"]).await;
    first.start_match("kept", T0 + 1).await.unwrap();
    let moves: Vec<StoredMove> = (0..10)
        .map(|ply| mv("kept", ply, (ply % 4) as u8, "e2e4", "e4"))
        .collect();
    for m in &moves {
        first.record_move(m).await.unwrap();
    }
    first
        .record_event(&ev("kept", 0, 10, 3, "flag", ""))
        .await
        .unwrap();
    finished_match(&first, "done", ["e", "f", "g", "h"], "0-1", T0 + 7).await;
    let before = first.load_match("kept").await.unwrap().unwrap();
    first.close().await;
    drop(first);

    // A new store on the same database (migrations run again: nothing to do).
    let second = db.store().await;
    let after = second.load_match("kept").await.unwrap().unwrap();
    assert_eq!(after, before);
    assert_eq!(after.moves, moves);
    assert_eq!(second.live_matches().await.unwrap(), vec![before]);
    assert_eq!(second.archive(10, 0).await.unwrap().len(), 1);
    assert!(second.bpgn("done").await.unwrap().is_some());

    // And it goes on where the first left off.
    second
        .record_move(&mv("kept", 10, 1, "e7e5", "e5"))
        .await
        .unwrap();
    assert!(matches!(
        second.record_move(&mv("kept", 9, 1, "e7e5", "e5")).await,
        Err(StoreError::DuplicatePly { ply: 9, .. })
    ));
    // Two stores on one database at once see each other's writes.
    let third = db.store().await;
    assert_eq!(
        third.load_match("kept").await.unwrap().unwrap().moves.len(),
        11
    );
}

async fn refusals(db: &TestDb) {
    let store = db.store().await;
    let no_such = |r: Result<(), StoreError>| match r {
        Err(StoreError::NoSuchMatch(id)) => assert_eq!(id, "ghost"),
        other => panic!("expected NoSuchMatch, got {other:?}"),
    };
    no_such(store.set_seat("ghost", 0, "a", "h", false).await);
    no_such(store.clear_seat("ghost", 0).await);
    no_such(store.start_match("ghost", T0).await);
    no_such(store.record_move(&mv("ghost", 0, 0, "e2e4", "e4")).await);
    no_such(
        store
            .record_event(&ev("ghost", 0, 0, 0, "resign", ""))
            .await,
    );
    no_such(
        store
            .finish_match("ghost", "1-0", "r", ["1-0", "*"], "", T0)
            .await,
    );

    store.create_match(&new_match("m", T0)).await.unwrap();
    let wrong = |r: Result<(), StoreError>, want: MatchStatus| match r {
        Err(StoreError::WrongStatus { status, .. }) => assert_eq!(status, want),
        other => panic!("expected WrongStatus({want}), got {other:?}"),
    };
    // Before the start: no moves, no events.
    let err = store
        .record_move(&mv("m", 0, 0, "e2e4", "e4"))
        .await
        .unwrap_err();
    assert_eq!(
        err.to_string(),
        "cannot record a move: match \"m\" is waiting"
    );
    wrong(
        store.record_event(&ev("m", 0, 0, 0, "resign", "")).await,
        MatchStatus::Waiting,
    );
    store.start_match("m", T0).await.unwrap();
    wrong(store.start_match("m", T0).await, MatchStatus::Playing);

    // Seats are 0..4.
    for bad in [4, 5, 255] {
        assert!(matches!(
            store.set_seat("m", bad, "a", "h", false).await,
            Err(StoreError::InvalidSeat(s)) if s == bad
        ));
        assert!(matches!(
            store.clear_seat("m", bad).await,
            Err(StoreError::InvalidSeat(_))
        ));
        assert!(matches!(
            store.record_move(&mv("m", 0, bad, "e2e4", "e4")).await,
            Err(StoreError::InvalidSeat(_))
        ));
        assert!(matches!(
            store.record_event(&ev("m", 0, 0, bad, "resign", "")).await,
            Err(StoreError::InvalidSeat(_))
        ));
    }
    // Bad arguments.
    let invalid = |r: Result<(), StoreError>| {
        assert!(matches!(r, Err(StoreError::Invalid(_))), "{r:?}");
    };
    invalid(store.create_match(&new_match("", T0)).await);
    invalid(
        store
            .create_match(&NewMatch {
                base_ms: -1,
                ..new_match("neg", T0)
            })
            .await,
    );
    invalid(store.record_move(&mv("m", -1, 0, "e2e4", "e4")).await);
    invalid(store.record_event(&ev("m", -1, 0, 0, "resign", "")).await);
    invalid(store.record_event(&ev("m", 0, -1, 0, "resign", "")).await);
    assert_eq!(store.load_match("neg").await.unwrap(), None);

    // After the end nothing changes.
    store
        .finish_match("m", "1-0", "BlackA resigns", ["1-0", "*"], "x", T0 + 9)
        .await
        .unwrap();
    let fin = MatchStatus::Finished;
    wrong(store.set_seat("m", 0, "a", "h", false).await, fin);
    wrong(store.clear_seat("m", 0).await, fin);
    wrong(store.start_match("m", T0).await, fin);
    wrong(store.record_move(&mv("m", 0, 0, "e2e4", "e4")).await, fin);
    wrong(
        store.record_event(&ev("m", 0, 0, 0, "resign", "")).await,
        fin,
    );
    wrong(
        store
            .finish_match("m", "0-1", "again", ["0-1", "*"], "y", T0 + 10)
            .await,
        fin,
    );
    let m = store.load_match("m").await.unwrap().unwrap();
    assert_eq!(m.result.as_deref(), Some("1-0"));
    assert_eq!(store.bpgn("m").await.unwrap().as_deref(), Some("x"));
}

/// Many matches written at once, readers alongside: nothing is lost or refused (SQLite makes
/// writers take turns; a busy database must wait, not fail).
async fn concurrent_writers(db: &TestDb) {
    let store = db.store().await;
    const MATCHES: usize = 6;
    const MOVES: i64 = 30;
    let mut tasks = Vec::new();
    for n in 0..MATCHES {
        let store = store.clone();
        tasks.push(tokio::spawn(async move {
            let id = format!("c{n}");
            store.create_match(&new_match(&id, T0 + n as i64)).await?;
            for s in 0..4u8 {
                store
                    .set_seat(&id, s, &format!("p{n}{s}"), "h", s == 3)
                    .await?;
            }
            store.start_match(&id, T0).await?;
            for ply in 0..MOVES {
                store
                    .record_move(&mv(&id, ply, (ply % 4) as u8, "e2e4", "e4"))
                    .await?;
                if ply % 10 == 9 {
                    store
                        .record_event(&ev(&id, ply / 10, ply + 1, 0, "offer_draw", ""))
                        .await?;
                }
            }
            Ok::<_, StoreError>(())
        }));
    }
    let reader = {
        let store = store.clone();
        tokio::spawn(async move {
            for _ in 0..20 {
                for m in store.live_matches().await? {
                    // Every snapshot is consistent: plies 0..n without holes.
                    let plies: Vec<i64> = m.moves.iter().map(|m| m.ply).collect();
                    assert_eq!(plies, (0..plies.len() as i64).collect::<Vec<_>>());
                }
                tokio::time::sleep(Duration::from_millis(2)).await;
            }
            Ok::<_, StoreError>(())
        })
    };
    for t in tasks {
        t.await.unwrap().unwrap();
    }
    reader.await.unwrap().unwrap();

    let live = store.live_matches().await.unwrap();
    assert_eq!(live.len(), MATCHES);
    for (n, m) in live.iter().enumerate() {
        assert_eq!(m.id, format!("c{n}"));
        assert_eq!(m.moves.len() as i64, MOVES);
        assert!(m.moves.iter().enumerate().all(|(i, mv)| mv.ply == i as i64));
        assert_eq!(m.events.len(), 3);
        assert_eq!(m.seats[3].as_ref().map(|s| s.bot), Some(true));
    }
}

#[tokio::test]
async fn bad_urls_give_clear_errors() {
    for url in [
        "mysql://u:p@localhost/db",
        "bughouse.db",
        "",
        "http://example.invalid/",
    ] {
        let err = Store::connect(url).await.unwrap_err();
        assert!(
            matches!(err, StoreError::UnsupportedUrl(_)),
            "{url}: {err:?}"
        );
        let msg = err.to_string();
        assert!(
            msg.contains("sqlite:") && msg.contains("postgres://"),
            "{msg}"
        );
    }
    // The password never shows in a message.
    let err = Store::connect("mysql://user:hunter2@localhost/db")
        .await
        .unwrap_err();
    assert!(!err.to_string().contains("hunter2"), "{err}");

    // A SQLite file in a directory that does not exist.
    let dir = tempfile::tempdir().unwrap();
    let path = dir.path().join("no/such/dir/bughouse.db");
    let err = Store::connect(&format!("sqlite://{}?mode=rwc", path.display()))
        .await
        .unwrap_err();
    assert!(matches!(err, StoreError::Connect { .. }), "{err:?}");
    let msg = err.to_string();
    assert!(msg.contains("no/such/dir/bughouse.db"), "{msg}");
    assert!(msg.starts_with("cannot open the database"), "{msg}");

    // A SQLite URL with a bad parameter.
    let err = Store::connect("sqlite://x.db?mode=sideways")
        .await
        .unwrap_err();
    assert!(matches!(err, StoreError::Connect { .. }), "{err:?}");
    assert!(err.to_string().contains("sideways"), "{err}");

    // PostgreSQL where none listens: an error at once, not after the pool's retries.
    let started = Instant::now();
    let err = Store::connect("postgres://bughouse:hunter2@127.0.0.1:1/bughouse")
        .await
        .unwrap_err();
    assert!(started.elapsed() < Duration::from_secs(10));
    assert!(matches!(err, StoreError::Connect { .. }), "{err:?}");
    let msg = err.to_string();
    assert!(
        msg.contains("postgres://bughouse:***@127.0.0.1:1/bughouse"),
        "{msg}"
    );
    assert!(!msg.contains("hunter2"), "{msg}");

    // A malformed PostgreSQL URL.
    let err = Store::connect("postgres://[::1/x").await.unwrap_err();
    assert!(matches!(err, StoreError::Connect { .. }), "{err:?}");
}

/// A database that does not exist on a real server, and a wrong password.
#[tokio::test]
async fn postgres_connect_errors() {
    let Some(base) = postgres_url() else { return };
    let (head, tail) = base.rsplit_once('/').expect("a URL with a database name");
    let query = tail.find('?').map_or("", |i| &tail[i..]);
    let err = Store::connect(&format!("{head}/no_such_bughouse_db{query}"))
        .await
        .unwrap_err();
    assert!(matches!(err, StoreError::Connect { .. }), "{err:?}");
    assert!(err.to_string().contains("no_such_bughouse_db"), "{err}");

    // postgres://USER:PASSWORD@HOST...: the same with another password.
    let (scheme, authority) = head.split_once("://").expect("a URL");
    if let Some((user, host)) = authority
        .split_once('@')
        .and_then(|(userinfo, host)| Some((userinfo.split_once(':')?.0, host)))
    {
        let err = Store::connect(&format!("{scheme}://{user}:wrong-password@{host}/{tail}"))
            .await
            .unwrap_err();
        assert!(matches!(err, StoreError::Connect { .. }), "{err:?}");
        assert!(!err.to_string().contains("wrong-password"), "{err}");
    }
}

/// `sqlite::memory:`: a working store (for the server's tests), private to each connect.
#[tokio::test]
async fn sqlite_in_memory() {
    let one = Store::connect("sqlite::memory:").await.unwrap();
    let two = Store::connect("sqlite::memory:").await.unwrap();
    assert_eq!(one.backend(), Backend::Sqlite);
    one.create_match(&new_match("mem", T0)).await.unwrap();
    one.start_match("mem", T0).await.unwrap();
    let clone = one.clone();
    clone
        .record_move(&mv("mem", 0, 0, "e2e4", "e4"))
        .await
        .unwrap();
    assert_eq!(one.live_matches().await.unwrap()[0].moves.len(), 1);
    assert_eq!(two.live_matches().await.unwrap(), vec![]);
}

fn new_tournament(id: &str, created_at_ms: i64) -> StoredTournament {
    StoredTournament {
        id: id.into(),
        organiser_hash: "ab".repeat(32),
        time_control: "3+2".into(),
        data_json: format!("{{\"name\": \"{id}\"}}\n"),
        created_at_ms,
        updated_at_ms: created_at_ms,
        matches: Vec::new(),
    }
}

fn link(round: i64, table: i64, match_id: &str) -> TournamentMatch {
    TournamentMatch {
        round,
        table,
        match_id: match_id.into(),
    }
}

/// A tournament is stored, rewritten with its matches linked, read back (also by a new
/// connection, as after a restart), and found from one of its matches.
async fn tournaments_round_trip(db: &TestDb) {
    let store = db.store().await;
    assert!(store.tournaments().await.unwrap().is_empty());
    assert_eq!(store.load_tournament("t1").await.unwrap(), None);
    store
        .create_tournament(&new_tournament("t1", T0))
        .await
        .unwrap();
    store
        .create_tournament(&new_tournament("t0", T0 + 5))
        .await
        .unwrap();
    let json = "{\"name\": \"t1\", \"rounds\": [1]}\n";
    store
        .save_tournament("t1", json, T0 + 10, &[link(1, 1, "m1"), link(1, 2, "m2")])
        .await
        .unwrap();
    store
        .save_tournament("t1", json, T0 + 20, &[link(2, 1, "m3")])
        .await
        .unwrap();
    drop(store);

    let store = db.store().await;
    let all = store.tournaments().await.unwrap();
    assert_eq!(
        all.iter().map(|t| t.id.as_str()).collect::<Vec<_>>(),
        ["t1", "t0"],
        "oldest first"
    );
    let t1 = store.load_tournament("t1").await.unwrap().unwrap();
    assert_eq!(t1.data_json, json);
    assert_eq!(t1.updated_at_ms, T0 + 20);
    assert_eq!(t1.created_at_ms, T0);
    assert_eq!(t1.organiser_hash, "ab".repeat(32));
    assert_eq!(t1.time_control, "3+2");
    assert_eq!(
        t1.matches,
        [link(1, 1, "m1"), link(1, 2, "m2"), link(2, 1, "m3")]
    );
    assert!(all[1].matches.is_empty());
    assert_eq!(
        store.tournament_of_match("m2").await.unwrap(),
        Some(("t1".to_owned(), link(1, 2, "m2")))
    );
    assert_eq!(store.tournament_of_match("m9").await.unwrap(), None);
}

/// Duplicates and unknown tournaments are refused with clear errors, and a refused save stores
/// nothing, not even its file.
async fn tournament_refusals(db: &TestDb) {
    let store = db.store().await;
    store
        .create_tournament(&new_tournament("t1", T0))
        .await
        .unwrap();
    let err = store
        .create_tournament(&new_tournament("t1", T0))
        .await
        .unwrap_err();
    assert!(
        matches!(err, StoreError::TournamentExists(ref id) if id == "t1"),
        "{err}"
    );
    let err = store
        .create_tournament(&new_tournament("", T0))
        .await
        .unwrap_err();
    assert!(matches!(err, StoreError::Invalid(_)), "{err}");
    let err = store
        .save_tournament("nope", "{}", T0, &[])
        .await
        .unwrap_err();
    assert!(matches!(err, StoreError::NoSuchTournament(_)), "{err}");
    assert_eq!(err.to_string(), "no tournament \"nope\"");

    store
        .save_tournament("t1", "{\"v\": 1}", T0 + 1, &[link(1, 1, "m1")])
        .await
        .unwrap();
    // The same pairing again, or the same match for another pairing: nothing changes.
    for links in [[link(1, 1, "m2")], [link(1, 2, "m1")]] {
        let err = store
            .save_tournament("t1", "{\"v\": 2}", T0 + 2, &links)
            .await
            .unwrap_err();
        assert!(matches!(err, StoreError::Invalid(_)), "{err}");
    }
    let err = store
        .save_tournament("t1", "{\"v\": 2}", T0 + 2, &[link(0, 1, "m5")])
        .await
        .unwrap_err();
    assert!(matches!(err, StoreError::Invalid(_)), "{err}");
    let t1 = store.load_tournament("t1").await.unwrap().unwrap();
    assert_eq!(t1.data_json, "{\"v\": 1}");
    assert_eq!(t1.matches, [link(1, 1, "m1")]);
}

fn talk(match_id: &str, seq: i64, seat: u8, kind: &str, piece: Option<&str>) -> StoredTalk {
    StoredTalk {
        match_id: match_id.into(),
        seq,
        seat,
        kind: kind.into(),
        piece: piece.map(Into::into),
        text: (kind == "text").then(|| "hold the knight".to_owned()),
        at_ms: 700 * seq,
        action_id: Some(40 + seq),
    }
}

/// Partner talk, the clock anchor and the heartbeat round-trip through the single writes and
/// the batch; talk is kept after the end, a duplicate talk seq is refused, and what a move or
/// event carries (its action id, its lag) comes back as written.
async fn talk_anchor_and_heartbeat(db: &TestDb) {
    let store = db.store().await;
    let id = "trust-1";
    store.create_match(&new_match(id, T0)).await.unwrap();
    sit_all(&store, id, ["ann", "bob", "cid", "dan"]).await;
    store.start_match(id, T0 + 1_000).await.unwrap();
    store
        .record_talk(&talk(id, 0, 0, "need", Some("N")))
        .await
        .unwrap();
    let err = store
        .record_talk(&talk(id, 0, 3, "go", None))
        .await
        .unwrap_err();
    assert!(matches!(err, StoreError::DuplicateEvent { .. }), "{err}");
    let err = store
        .record_talk(&talk("nope", 0, 3, "go", None))
        .await
        .unwrap_err();
    assert!(matches!(err, StoreError::NoSuchMatch(_)), "{err}");
    for result in store
        .apply_batch(&[
            Write::RecordMove(mv(id, 0, 0, "e2e4", "e4")),
            Write::RecordTalk(talk(id, 1, 3, "text", None)),
            Write::SetClockAnchor {
                match_id: id.into(),
                anchor_ms: T0 + 1_234,
            },
            Write::RecordEvent(ev(id, 0, 1, 1, "offer_draw", "")),
        ])
        .await
    {
        result.unwrap();
    }
    assert!(matches!(
        store.set_clock_anchor("nope", 1).await,
        Err(StoreError::NoSuchMatch(_))
    ));
    finished_match_end(&store, id).await;
    // Talk after the end is kept too.
    store
        .record_talk(&talk(id, 2, 0, "text", None))
        .await
        .unwrap();
    let m = store.load_match(id).await.unwrap().unwrap();
    assert_eq!(m.clock_anchor_ms, Some(T0 + 1_234));
    assert_eq!(
        m.talk,
        [
            talk(id, 0, 0, "need", Some("N")),
            talk(id, 1, 3, "text", None),
            talk(id, 2, 0, "text", None)
        ]
    );
    assert_eq!(m.moves, [mv(id, 0, 0, "e2e4", "e4")]);
    assert_eq!(m.events, [ev(id, 0, 1, 1, "offer_draw", "")]);

    assert_eq!(store.last_alive("node-a").await.unwrap(), None);
    store.heartbeat("node-a", T0).await.unwrap();
    store.heartbeat("node-a", T0 + 1_000).await.unwrap();
    store.heartbeat("node-b", T0 + 5).await.unwrap();
    assert_eq!(store.last_alive("node-a").await.unwrap(), Some(T0 + 1_000));
    assert_eq!(store.last_alive("node-b").await.unwrap(), Some(T0 + 5));
}

async fn finished_match_end(store: &Store, id: &str) {
    store
        .finish_match(
            id,
            "1-0",
            "BlackA resigns",
            ["1-0", "*"],
            "[Event \"x\"]",
            T0 + 9_000,
        )
        .await
        .unwrap();
}

/// A save over a version is refused once another save changed it, and the lock is held by one
/// holder at a time (in PostgreSQL, across connections; in SQLite it is only a token).
async fn tournament_versions_and_exclusive(db: &TestDb) {
    let store = db.store().await;
    store
        .create_tournament(&new_tournament("t1", T0))
        .await
        .unwrap();
    assert_eq!(store.tournament_version("t1").await.unwrap(), Some(T0));
    assert_eq!(store.tournament_version("nope").await.unwrap(), None);
    store
        .save_tournament_over("t1", T0, "{\"v\": 1}", T0 + 1, &[link(1, 1, "m1")])
        .await
        .unwrap();
    // A second writer that read T0 too is refused, and stores nothing (not its links).
    let err = store
        .save_tournament_over("t1", T0, "{\"v\": 2}", T0 + 2, &[link(1, 2, "m2")])
        .await
        .unwrap_err();
    assert!(
        matches!(err, StoreError::TournamentChanged(ref id) if id == "t1"),
        "{err}"
    );
    let err = store
        .save_tournament_over("nope", T0, "{}", T0 + 2, &[])
        .await
        .unwrap_err();
    assert!(matches!(err, StoreError::NoSuchTournament(_)), "{err}");
    let t1 = store.load_tournament("t1").await.unwrap().unwrap();
    assert_eq!(
        (t1.data_json.as_str(), t1.updated_at_ms),
        ("{\"v\": 1}", T0 + 1)
    );
    assert_eq!(t1.matches, [link(1, 1, "m1")]);

    let held = store.exclusive("tournament:t1").await.unwrap();
    if store.backend() == Backend::Postgres {
        let other = db.store().await;
        let waiting = tokio::spawn(async move {
            let lock = other.exclusive("tournament:t1").await.unwrap();
            lock.release().await;
        });
        tokio::time::sleep(Duration::from_millis(300)).await;
        assert!(!waiting.is_finished(), "a second holder waits");
        // Another name is not held.
        store
            .exclusive("tournament:t2")
            .await
            .unwrap()
            .release()
            .await;
        held.release().await;
        tokio::time::timeout(Duration::from_secs(5), waiting)
            .await
            .expect("the second holder gets the lock once released")
            .unwrap();
    } else {
        held.release().await;
    }
}
