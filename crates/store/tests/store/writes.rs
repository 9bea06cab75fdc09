//! Matches written and read back whole: every kind of write, a new connection (as after a
//! restart), many writers at once.

use super::*;

suite!(round_trip, reconnect_sees_data, concurrent_writers,);

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

/// A batch the database cannot take for now (SQLite locked by another writer past the busy
/// timeout, 10 s): the write that failed is transient, and the writes after it are not tried,
/// so that, tried again from there, they are stored in order. (Tried, the end of the match
/// would have been stored before its last move, which could then never be.)
#[tokio::test]
async fn after_a_write_that_must_wait_the_rest_of_the_batch_waits_too() {
    use sqlx::Connection as _;

    let dir = tempfile::tempdir().unwrap();
    let url = format!("sqlite://{}", dir.path().join("locked.db").display());
    let store = Store::connect(&url).await.unwrap();
    let id = "locked";
    store.create_match(&new_match(id, T0)).await.unwrap();
    sit_all(&store, id, ["a", "b", "c", "d"]).await;
    store.start_match(id, T0).await.unwrap();
    let batch = [
        Write::RecordMove(mv(id, 0, 0, "e2e4", "e4")),
        Write::FinishMatch {
            match_id: id.into(),
            result: "1-0".into(),
            reason: "resignation".into(),
            board_results: ["1-0".into(), "1-0".into()],
            bpgn: String::new(),
            finished_at_ms: T0 + 5_000,
        },
    ];

    let mut lock = sqlx::SqliteConnection::connect(&url).await.unwrap();
    sqlx::query("BEGIN EXCLUSIVE")
        .execute(&mut lock)
        .await
        .unwrap();
    let results = store.apply_batch(&batch).await;
    assert!(
        results[0].as_ref().is_err_and(|e| e.is_transient()),
        "{:?}",
        results[0]
    );
    assert!(
        matches!(results[1], Err(StoreError::NotTried)),
        "{:?}",
        results[1]
    );
    sqlx::query("COMMIT").execute(&mut lock).await.unwrap();
    lock.close().await.unwrap();

    // Tried again, in order: both stored.
    for result in store.apply_batch(&batch).await {
        result.unwrap();
    }
    let stored = store.load_match(id).await.unwrap().unwrap();
    assert_eq!(stored.moves, [mv(id, 0, 0, "e2e4", "e4")]);
    assert_eq!(stored.status, MatchStatus::Finished);
}
