//! Partner talk, the clock anchor and the heartbeat.

use super::*;

suite!(talk_anchor_and_heartbeat,);

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
