//! Tournaments: stored, linked to their matches, refused when duplicated or unknown,
//! versioned, and locked by one holder at a time.

use super::*;

suite!(
    tournaments_round_trip,
    tournament_refusals,
    tournament_versions_and_exclusive,
);

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
