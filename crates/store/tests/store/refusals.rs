//! Writes the store refuses, with clear errors, storing nothing.

use super::*;

suite!(duplicates_refused, refusals,);

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
