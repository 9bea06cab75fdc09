//! The journal's tests: random writes against a model on small limits, the opening's fold,
//! gaps, the quiet store.

use super::*;
use crate::{MatchStatus, NewMatch, Store, StoreError, Write};
use rand::rngs::StdRng;
use rand::{Rng, SeedableRng};

/// Small limits, so that every way of folding and deleting happens within a few hundred
/// moves.
const SMALL: Limits = Limits {
    fold_at: 5,
    span: 40,
    budget: 16,
    delete_every: 8,
    quiet: 0,
    quiet_rate: 0.0,
};

fn setup(id: &str) -> Vec<Write> {
    let mut w = vec![Write::CreateMatch(NewMatch {
        id: id.into(),
        rules_preset: "fide".into(),
        rules_json: "{}".into(),
        base_ms: 60_000,
        ..NewMatch::default()
    })];
    for seat in 0..4u8 {
        w.push(Write::SetSeat {
            match_id: id.into(),
            seat,
            name: format!("p{seat}"),
            token_hash: "h".into(),
            bot: false,
        });
    }
    w.push(Write::StartMatch {
        match_id: id.into(),
        started_at_ms: 1,
    });
    w
}

fn mv(id: &str, ply: i64, salt: i64) -> StoredMove {
    StoredMove {
        match_id: id.into(),
        ply,
        seat: (ply % 4) as u8,
        uci: "e2e4".into(),
        san: format!("e4-{salt}"),
        at_ms: ply * 10 + salt,
        clock_ms: 1_000 - ply,
        remaining_ms: [ply, salt, 3, 4],
        action_id: (ply % 3 == 0).then_some(ply + salt),
        lag_ms: salt % 7,
    }
}

fn finish(id: &str) -> Write {
    Write::FinishMatch {
        match_id: id.into(),
        result: "1-0".into(),
        reason: "test".into(),
        board_results: ["1-0".into(), "*".into()],
        bpgn: String::new(),
        finished_at_ms: 2,
    }
}

async fn small(store: &Store) {
    limit(store, SMALL).await;
}

async fn limit(store: &Store, limits: Limits) {
    store
        .journal
        .as_ref()
        .unwrap()
        .lock()
        .await
        .set_limits(limits);
}

async fn rows(store: &Store, table: &str) -> i64 {
    let crate::Pool::Sqlite(pool) = &store.pool else {
        panic!("not SQLite")
    };
    sqlx::query_scalar(&format!("SELECT COUNT(*) FROM {table}"))
        .fetch_one(pool)
        .await
        .unwrap()
}

async fn in_moves(store: &Store, id: &str) -> i64 {
    let crate::Pool::Sqlite(pool) = &store.pool else {
        panic!("not SQLite")
    };
    sqlx::query_scalar("SELECT COUNT(*) FROM moves WHERE match_id = $1")
        .bind(id)
        .fetch_one(pool)
        .await
        .unwrap()
}

/// What the matches must hold: their moves in ply order, and whether they are finished.
#[derive(Default, Clone)]
struct Model {
    moves: Vec<StoredMove>,
    finished: bool,
}

/// Random batches and single writes of moves (some of a ply stored already, some after the
/// end) and ends of matches, on small limits: every write gets the result `moves`' key gave
/// it, every read shows exactly the moves acknowledged, and the journal's rows are folded
/// and deleted as they go. Then the store is opened again: everything is in `moves`.
#[tokio::test]
async fn the_journal_keeps_every_move_once_and_folds_them_all() {
    random_writes(SMALL).await;
}

/// The same, quiet (all folded at once) for as long as few rows are unfolded, and not
/// once more are.
#[tokio::test]
async fn quiet_and_busy_in_turn() {
    random_writes(Limits {
        quiet: 12,
        quiet_rate: f64::INFINITY,
        ..SMALL
    })
    .await;
}

/// A quiet store folds every move as it is written: `moves` holds them all at each commit.
#[tokio::test]
async fn a_quiet_store_folds_at_once() {
    let store = Store::connect("sqlite::memory:").await.unwrap();
    for r in store.apply_batch(&setup("q")).await {
        r.unwrap();
    }
    for ply in 0..5 {
        store.record_move(&mv("q", ply, 0)).await.unwrap();
        assert_eq!(rows(&store, "moves").await, ply + 1);
    }
    let two = [
        Write::RecordMove(mv("q", 5, 0)),
        Write::RecordMove(mv("q", 6, 0)),
    ];
    for r in store.apply_batch(&two).await {
        r.unwrap();
    }
    assert_eq!(rows(&store, "moves").await, 7);
    let journal = store.journal.as_ref().unwrap().lock().await;
    assert_eq!(journal.counts(), (0, 1));
}

async fn random_writes(limits: Limits) {
    let dir = tempfile::tempdir().unwrap();
    let url = format!("sqlite://{}", dir.path().join("journal.db").display());
    let store = Store::connect(&url).await.unwrap();
    limit(&store, limits).await;
    let ids: Vec<String> = (0..12).map(|i| format!("m{i}")).collect();
    let mut model: Vec<Model> = vec![Model::default(); ids.len()];
    for id in &ids {
        for r in store.apply_batch(&setup(id)).await {
            r.unwrap();
        }
    }
    let mut rng = StdRng::seed_from_u64(7);
    let (mut duplicates, mut after_end, mut max_unfolded) = (0, 0, 0);
    for round in 0..400 {
        let mut batch = Vec::new();
        let mut expect: Vec<Result<(), &str>> = Vec::new();
        let mut refused: Vec<usize> = Vec::new();
        let mut next_ply: Vec<i64> = model.iter().map(|m| m.moves.len() as i64).collect();
        let mut finished: Vec<bool> = model.iter().map(|m| m.finished).collect();
        let mut pending: Vec<(usize, StoredMove)> = Vec::new();
        let mut ends: Vec<usize> = Vec::new();
        for _ in 0..rng.gen_range(1..12) {
            let m = rng.gen_range(0..ids.len());
            let roll = rng.gen_range(0..100);
            if refused.contains(&m) {
                // Held after a refusal earlier in the batch: nothing of it is stored.
                batch.push(Write::RecordMove(mv(&ids[m], next_ply[m], round)));
                expect.push(Err("held"));
            } else if roll < 3 && !finished[m] && next_ply[m] > 60 && m < 8 {
                batch.push(finish(&ids[m]));
                finished[m] = true;
                ends.push(m);
                expect.push(Ok(()));
            } else if roll < 10 && next_ply[m] > 0 {
                let ply = rng.gen_range(0..next_ply[m]);
                batch.push(Write::RecordMove(mv(&ids[m], ply, round)));
                if finished[m] {
                    // Refused: the match's later writes in the batch are held.
                    expect.push(Err("status"));
                    refused.push(m);
                } else {
                    // A duplicate is no refusal: the record holds it once already.
                    expect.push(Err("duplicate"));
                }
            } else {
                let stored = mv(&ids[m], next_ply[m], round);
                batch.push(Write::RecordMove(stored.clone()));
                if finished[m] {
                    expect.push(Err("status"));
                    refused.push(m);
                } else {
                    next_ply[m] += 1;
                    pending.push((m, stored));
                    expect.push(Ok(()));
                }
            }
        }
        let results = if batch.len() == 1 || rng.gen_bool(0.2) {
            let mut out = Vec::new();
            for (w, e) in batch.iter().zip(&expect) {
                if *e == Err("held") {
                    out.push(Err(StoreError::Held(w.match_id().into())));
                } else {
                    out.push(store.apply(w).await);
                }
            }
            out
        } else {
            store.apply_batch(&batch).await
        };
        for ((r, e), w) in results.iter().zip(&expect).zip(&batch) {
            match (e, r) {
                (Ok(()), Ok(())) => {}
                (Err("duplicate"), Err(StoreError::DuplicatePly { .. })) => duplicates += 1,
                (
                    Err("status"),
                    Err(StoreError::WrongStatus {
                        status: MatchStatus::Finished,
                        ..
                    }),
                ) => after_end += 1,
                (Err("held"), Err(StoreError::Held(_))) => {}
                _ => panic!("round {round}: {w:?} expected {e:?}, got {r:?}"),
            }
        }
        for (m, stored) in pending {
            model[m].moves.push(stored);
        }
        for m in ends {
            model[m].finished = true;
        }
        // A finished match is whole in `moves` from its end's commit on.
        for (m, id) in ids.iter().enumerate() {
            if model[m].finished {
                assert_eq!(
                    in_moves(&store, id).await,
                    model[m].moves.len() as i64,
                    "round {round}: finished match {m}"
                );
            }
        }
        let journal = store.journal.as_ref().unwrap().lock().await;
        max_unfolded = max_unfolded.max(journal.counts().0);
        drop(journal);
        for _ in 0..2 {
            let m = rng.gen_range(0..ids.len());
            let loaded = store.load_match(&ids[m]).await.unwrap().unwrap();
            assert_eq!(loaded.moves, model[m].moves, "round {round}, match {m}");
        }
        if round % 50 == 0 {
            let live = store.live_matches().await.unwrap();
            for l in live {
                let m: usize = l.id[1..].parse().unwrap();
                assert_eq!(l.moves, model[m].moves, "round {round}, live {m}");
            }
        }
    }
    let total: usize = model.iter().map(|m| m.moves.len()).sum();
    assert!(total > 800, "{total} moves");
    assert!(duplicates > 10 && after_end > 5, "{duplicates} {after_end}");
    // Folded as it went: never more unfolded than the limits let through.
    assert!(max_unfolded < 200, "{max_unfolded} unfolded");
    let (in_moves, in_journal) = (
        rows(&store, "moves").await,
        rows(&store, "move_journal").await,
    );
    assert!(
        in_moves as usize > total - 200,
        "{in_moves} of {total} folded"
    );
    // Deleted as it went: the journal holds not much more than its span.
    assert!(in_journal < 100, "{in_journal} rows left in the journal");
    store.close().await;

    // Opened again: all in `moves`, the journal empty, the moves the same.
    let again = Store::connect(&url).await.unwrap();
    assert_eq!(rows(&again, "moves").await as usize, total);
    assert_eq!(rows(&again, "move_journal").await, 0);
    for (m, id) in ids.iter().enumerate() {
        let loaded = again.load_match(id).await.unwrap().unwrap();
        assert_eq!(
            loaded.moves, model[m].moves,
            "match {m} after opening again"
        );
    }
    // And a ply folded at the opening is a duplicate still.
    let m = model
        .iter()
        .position(|m| !m.finished && !m.moves.is_empty())
        .unwrap();
    let again_ply = Write::RecordMove(mv(&ids[m], 0, 99));
    assert!(matches!(
        again.apply(&again_ply).await,
        Err(StoreError::DuplicatePly { ply: 0, .. })
    ));
}

/// A crash between folding and deleting leaves a row in both tables (the fold and the
/// delete are one transaction, but a journal row is deleted only when all older rows are
/// folded too): the opening keeps one copy, and the record is whole.
#[tokio::test]
async fn a_row_in_both_tables_is_kept_once() {
    let dir = tempfile::tempdir().unwrap();
    let url = format!("sqlite://{}", dir.path().join("both.db").display());
    let store = Store::connect(&url).await.unwrap();
    small(&store).await;
    for r in store.apply_batch(&setup("m")).await {
        r.unwrap();
    }
    for ply in 0..3 {
        store.record_move(&mv("m", ply, 0)).await.unwrap();
    }
    let crate::Pool::Sqlite(pool) = &store.pool else {
        panic!("not SQLite")
    };
    // The journal's first row copied into `moves` by hand, as a fold would have.
    sqlx::query(
        "INSERT INTO moves SELECT match_id, ply, seat, uci, san, at_ms, clock_ms, \
         remaining_0, remaining_1, remaining_2, remaining_3, action_id, lag_ms \
         FROM move_journal WHERE ply = 0",
    )
    .execute(pool)
    .await
    .unwrap();
    store.close().await;
    let again = Store::connect(&url).await.unwrap();
    let loaded = again.load_match("m").await.unwrap().unwrap();
    assert_eq!(
        loaded.moves,
        (0..3).map(|p| mv("m", p, 0)).collect::<Vec<_>>()
    );
    assert!(matches!(
        again.record_move(&mv("m", 1, 5)).await,
        Err(StoreError::DuplicatePly { ply: 1, .. })
    ));
    again.record_move(&mv("m", 3, 0)).await.unwrap();
}

/// A gap in a match's plies (no server leaves one, but `moves`' key allowed it) may be
/// filled later, once, whether the plies above it are folded or not.
#[tokio::test]
async fn a_gap_is_filled_once() {
    let store = Store::connect("sqlite::memory:").await.unwrap();
    small(&store).await;
    for r in store.apply_batch(&setup("g")).await {
        r.unwrap();
    }
    store.record_move(&mv("g", 0, 0)).await.unwrap();
    for ply in 2..20 {
        store.record_move(&mv("g", ply, 0)).await.unwrap();
    }
    // Folded by now (five at a time).
    assert!(rows(&store, "moves").await >= 15);
    store.record_move(&mv("g", 1, 0)).await.unwrap();
    assert!(matches!(
        store.record_move(&mv("g", 1, 1)).await,
        Err(StoreError::DuplicatePly { ply: 1, .. })
    ));
    let loaded = store.load_match("g").await.unwrap().unwrap();
    assert_eq!(
        loaded.moves,
        (0..20).map(|p| mv("g", p, 0)).collect::<Vec<_>>()
    );
}

#[test]
fn json_arrays() {
    assert_eq!(json_array(&[]), "[]");
    assert_eq!(json_array(&[1, -2, 30]), "[1,-2,30]");
}
