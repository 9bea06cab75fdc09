//! Over-the-board tables on SQLite and PostgreSQL (each test runs as `NAME::sqlite` and
//! `NAME::postgres`, see tests/common).

#[macro_use]
mod common;

use bughouse_store::{NewOtbTable, OtbResult, StoreError, StoredOtbEvent, StoredTournament};
use common::TestDb;

suite!(
    tables_and_events,
    resent_events_are_refused,
    tournament_tables
);

const T0: i64 = 1_763_700_000_000;

fn table(id: &str, pairing: Option<(String, i64, i64)>) -> NewOtbTable {
    NewOtbTable {
        id: id.into(),
        key_hash: "hash".into(),
        preset: "knsb-1988".into(),
        base_ms: 120_000,
        increment_ms: 0,
        created_at_ms: T0,
        pairing,
    }
}

fn event(seq: i64, client_id: i64, at_ms: i64) -> StoredOtbEvent {
    StoredOtbEvent {
        seq,
        client_id,
        at_ms,
        event_json: format!(r#"{{"type":"press","seat":"WhiteA","n":{seq}}}"#),
    }
}

async fn tables_and_events(db: &TestDb) {
    let store = db.store().await;
    assert!(store.load_otb_table("t1").await.unwrap().is_none());
    store.create_otb_table(&table("t1", None)).await.unwrap();
    assert!(matches!(
        store.create_otb_table(&table("t1", None)).await,
        Err(StoreError::Invalid(_))
    ));
    let mut bad = table("t2", None);
    bad.base_ms = 0;
    assert!(matches!(
        store.create_otb_table(&bad).await,
        Err(StoreError::Invalid(_))
    ));
    store
        .append_otb_events("t1", &[event(0, 11, 0), event(1, 12, 900)], None)
        .await
        .unwrap();
    let result = OtbResult {
        result: "1-0".into(),
        a: "1-0".into(),
        b: "1/2-1/2".into(),
    };
    store
        .append_otb_events("t1", &[event(2, 13, 1500)], Some(&result))
        .await
        .unwrap();
    let t = store.load_otb_table("t1").await.unwrap().unwrap();
    assert_eq!(t.table, table("t1", None));
    assert_eq!(t.result, Some(result));
    assert_eq!(
        t.events,
        vec![event(0, 11, 0), event(1, 12, 900), event(2, 13, 1500)]
    );
    assert!(matches!(
        store
            .append_otb_events("nope", &[event(0, 1, 0)], None)
            .await,
        Err(StoreError::Invalid(_))
    ));
}

async fn resent_events_are_refused(db: &TestDb) {
    let store = db.store().await;
    store.create_otb_table(&table("t1", None)).await.unwrap();
    store
        .append_otb_events("t1", &[event(0, 11, 0)], None)
        .await
        .unwrap();
    // The same client id again, or the same number: nothing of the batch is stored.
    for batch in [
        vec![event(1, 20, 10), event(2, 11, 20)],
        vec![event(0, 21, 10)],
    ] {
        assert!(matches!(
            store.append_otb_events("t1", &batch, None).await,
            Err(StoreError::Invalid(_))
        ));
    }
    let t = store.load_otb_table("t1").await.unwrap().unwrap();
    assert_eq!(t.events, vec![event(0, 11, 0)]);
}

async fn tournament_tables(db: &TestDb) {
    let store = db.store().await;
    let pairing = |round, table| Some(("cup".to_owned(), round, table));
    assert!(matches!(
        store.create_otb_table(&table("t1", pairing(1, 1))).await,
        Err(StoreError::Invalid(_))
    ));
    store
        .create_tournament(&StoredTournament {
            id: "cup".into(),
            organiser_hash: "h".into(),
            time_control: "5+0".into(),
            data_json: "{}".into(),
            created_at_ms: T0,
            updated_at_ms: T0,
            matches: Vec::new(),
        })
        .await
        .unwrap();
    store
        .create_otb_table(&table("t2", pairing(1, 2)))
        .await
        .unwrap();
    store
        .create_otb_table(&table("t1", pairing(1, 1)))
        .await
        .unwrap();
    assert!(matches!(
        store.create_otb_table(&table("t3", pairing(1, 1))).await,
        Err(StoreError::Invalid(_))
    ));
    let tables = store.otb_tables_of_tournament("cup").await.unwrap();
    let ids: Vec<&str> = tables.iter().map(|t| t.table.id.as_str()).collect();
    assert_eq!(ids, ["t1", "t2"]);
    assert_eq!(tables[0].table.pairing, pairing(1, 1));
}
