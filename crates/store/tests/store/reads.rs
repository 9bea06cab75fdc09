//! What the readers see: the live matches, the archive's order and pages, the BPGN records.

use super::*;

suite!(
    live_matches_exclude_finished,
    archive_order_and_paging,
    bpgn_stored_and_read,
);

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
