//! Several writes in one transaction: one commit, so one `fsync` under SQLite's
//! `synchronous=FULL`, for all of them (group commit). The server stores the writes of a whole
//! batch of player commands this way before it acknowledges any of them.
//!
//! Each write runs the statement of its single write (write.rs); only runs of moves go in one
//! statement of many rows. Anything unusual (a write that changes nothing, such as a move for a
//! finished match, or any database error) rolls the whole batch back and applies the writes one
//! by one instead, so the outcome and the errors are exactly those of single writes.

use crate::journal::{self, Journal};
use crate::write::{bind_move, bind_write, MOVE_COLUMNS, MOVE_COLUMN_COUNT};
use crate::{Backend, Pool, Store, StoredMove, Write};

/// The most moves stored by one statement (13 parameters each). A run of moves is stored in
/// chunks of powers of two up to this, so that a handful of statement texts serve every run
/// length and stay in the connection's cache of prepared statements. A busy server's
/// transaction holds thousands of moves: each statement is a round trip to the database (on
/// SQLite, to sqlx's worker thread, which under load waits for a core each time), so fewer,
/// larger statements keep a commit short.
const MOVES_PER_STATEMENT: usize = 512;

/// The size of the first chunk of a run of `n` moves: the largest power of two not above `n`
/// and [`MOVES_PER_STATEMENT`].
fn chunk(n: usize) -> usize {
    let n = n.min(MOVES_PER_STATEMENT);
    if n == 0 {
        0
    } else {
        1 << (usize::BITS - 1 - n.leading_zeros())
    }
}

/// The moves the next statement of a batch stores: the first chunk of the run of moves that
/// starts `writes` (none when it starts with another write).
pub(crate) fn move_run(writes: &[Write]) -> Vec<&StoredMove> {
    let moves: Vec<&StoredMove> = writes
        .iter()
        .map_while(|w| match w {
            Write::RecordMove(mv) => Some(mv),
            _ => None,
        })
        .take(MOVES_PER_STATEMENT)
        .collect();
    let run = chunk(moves.len());
    moves.into_iter().take(run).collect()
}

/// `INSERT` of `n` moves, each under the condition of a single move: its match is playing.
/// (`columnN` are the names SQLite and PostgreSQL both give the columns of `VALUES`.)
fn insert_moves_sql(n: usize, backend: Backend) -> String {
    insert_rows_sql("moves", MOVE_COLUMNS, MOVE_COLUMN_COUNT, 1, n, backend)
}

/// `INSERT` of `n` rows of `count` `columns` into `table`, each only while the match named by
/// its column `id_column` (from 1) is playing.
///
/// PostgreSQL's parameters are numbered (`$1`); SQLite's are anonymous (`?`), bound in order:
/// looking up a numbered parameter's name scans the statement's list of names, which made
/// binding quadratic in the number of parameters.
pub(crate) fn insert_rows_sql(
    table: &str,
    columns: &str,
    count: usize,
    id_column: usize,
    n: usize,
    backend: Backend,
) -> String {
    let mut sql = format!("INSERT INTO {table} ({columns}) SELECT ");
    for col in 1..=count {
        if col > 1 {
            sql.push_str(", ");
        }
        sql.push_str(&format!("v.column{col}"));
    }
    sql.push_str(" FROM (VALUES ");
    for row in 0..n {
        if row > 0 {
            sql.push_str(", ");
        }
        sql.push('(');
        for col in 1..=count {
            if col > 1 {
                sql.push_str(", ");
            }
            match backend {
                Backend::Postgres => sql.push_str(&format!("${}", row * count + col)),
                Backend::Sqlite => sql.push('?'),
            }
        }
        sql.push(')');
    }
    sql.push_str(&format!(
        ") AS v WHERE EXISTS (SELECT 1 FROM matches WHERE id = v.column{id_column} \
         AND status = 'playing')"
    ));
    sql
}

/// How a batch's transaction ended ([`Store::try_batch`]).
enum Batch {
    /// Committed, every write done.
    Stored,
    /// Rolled back: a write changed nothing, or an error the single writes will name.
    Refused,
    /// Rolled back: the database could not take it for now.
    Unavailable(String),
}

impl Store {
    /// Applies the writes in order, in one transaction when they all succeed: durable, all of
    /// them, when this returns. Returns one result per write, the same as [`Store::apply`]
    /// applied to each in turn would have returned (which is what happens, after a rollback,
    /// when any write fails or changes nothing), except that after a write the database could
    /// not take for now ([`StoreError::is_transient`](crate::StoreError::is_transient)) the
    /// rest are not tried ([`StoreError::NotTried`](crate::StoreError::NotTried)): tried again
    /// from there, they are stored in order; and after a write refused
    /// ([`StoreError::is_refusal`](crate::StoreError::is_refusal)) the later writes of the same
    /// match are not tried ([`StoreError::Held`](crate::StoreError::Held)).
    pub async fn apply_batch(&self, writes: &[Write]) -> Vec<Result<(), crate::StoreError>> {
        // On a SQLite file a single write goes through the batches' connection too, whose page
        // cache the writes of another connection would make stale.
        let batched = writes.len() > 1 || (self.direct.is_some() && !writes.is_empty());
        if batched && writes.iter().all(|w| w.check().is_ok()) {
            match self.try_batch(writes).await {
                Ok(Batch::Stored) => return writes.iter().map(|_| Ok(())).collect(),
                // The single writes would wait for the database as long again.
                Ok(Batch::Unavailable(e)) => {
                    return std::iter::once(Err(crate::StoreError::Unavailable(e)))
                        .chain(writes[1..].iter().map(|_| Err(crate::StoreError::NotTried)))
                        .collect();
                }
                Ok(Batch::Refused) | Err(_) => {}
            }
        }
        let mut out = Vec::with_capacity(writes.len());
        let mut stopped = false;
        let mut refused: Vec<&str> = Vec::new();
        for write in writes {
            if stopped {
                // Stored later, they would overtake the write that failed (a move after the
                // end that follows it would make it impossible): they wait for it.
                out.push(Err(crate::StoreError::NotTried));
                continue;
            }
            let id = write.match_id();
            if refused.contains(&id) {
                // Stored, they would leave a gap in the match's record.
                out.push(Err(crate::StoreError::Held(id.to_owned())));
                continue;
            }
            let result = self.apply(write).await;
            if let Err(e) = &result {
                stopped = e.is_transient();
                if e.is_refusal() {
                    refused.push(id);
                }
            }
            out.push(result);
        }
        out
    }

    /// Copies what the SQLite write-ahead log holds into the database file, as far as it can
    /// without waiting for anyone (`PRAGMA wal_checkpoint(PASSIVE)`); nothing on PostgreSQL or
    /// a database in memory.
    ///
    /// SQLite does this by itself, in the connection whose commit made the log exceed 1000
    /// pages, and that commit waits for it. Called every few dozen milliseconds from another
    /// task, it keeps that work (and its `fsync` of the database file) mostly off the path of
    /// the commits.
    pub async fn checkpoint(&self) -> Result<(), crate::StoreError> {
        if let Pool::Sqlite(pool) = &self.pool {
            sqlx::query("PRAGMA wal_checkpoint(PASSIVE)")
                .execute(pool)
                .await?;
        }
        Ok(())
    }

    /// `Ok(Batch::Stored)`: every write changed its row and the transaction committed.
    /// Anything else: rolled back (explicitly, or by dropping the transaction).
    async fn try_batch(&self, writes: &[Write]) -> Result<Batch, sqlx::Error> {
        if let (Some(journal), Some(direct)) = (&self.journal, &self.direct) {
            let mut journal = journal.lock().await;
            return Ok(match direct.try_batch(&mut journal, writes) {
                Ok(true) => Batch::Stored,
                Ok(false) => Batch::Refused,
                Err(e) if crate::direct::is_transient(&e) => Batch::Unavailable(e.to_string()),
                // Rolled back: the single writes will say what it was.
                Err(e) => {
                    tracing::debug!("batch of {} writes: {e}", writes.len());
                    Batch::Refused
                }
            });
        }
        if let (Some(journal), Some(pool)) = (&self.journal, self.sqlite_writer()) {
            return try_batch_journaled(pool, journal, writes)
                .await
                .map(|stored| {
                    if stored {
                        Batch::Stored
                    } else {
                        Batch::Refused
                    }
                });
        }
        let backend = self.backend();
        with_batch_pool!(self, pool => {
            let mut tx = pool.begin().await?;
            let mut next = 0;
            while next < writes.len() {
                // Moves in a row (the bulk of a busy server's writes) go in one statement.
                let run = chunk(
                    writes[next..]
                        .iter()
                        .take_while(|w| matches!(w, Write::RecordMove(_)))
                        .take(MOVES_PER_STATEMENT)
                        .count(),
                );
                let (query_done, expected) = if run >= 2 {
                    let sql = insert_moves_sql(run, backend);
                    let mut query = sqlx::query(&sql);
                    for write in &writes[next..next + run] {
                        if let Write::RecordMove(mv) = write {
                            query = bind_move!(query, mv);
                        }
                    }
                    (query.execute(&mut *tx).await?.rows_affected(), run as u64)
                } else {
                    let done = bind_write!(&writes[next]).execute(&mut *tx).await?;
                    (done.rows_affected(), u64::from(!writes[next].may_change_nothing()))
                };
                // Fewer rows than writes: one was refused; the single writes will say which.
                // (A row may also count more than once: an upsert of a seat. That is fine.)
                if query_done < expected {
                    tx.rollback().await?;
                    return Ok(Batch::Refused);
                }
                next += run.max(1);
            }
            tx.commit().await?;
            Ok(Batch::Stored)
        })
    }
}

/// [`Store::try_batch`] on SQLite: the moves go to the journal (journal.rs), and the
/// transaction folds its share of it.
async fn try_batch_journaled(
    pool: &sqlx::SqlitePool,
    journal: &tokio::sync::Mutex<Journal>,
    writes: &[Write],
) -> Result<bool, sqlx::Error> {
    let mut journal = journal.lock().await;
    let mut jtx = journal.begin();
    let mut tx = pool.begin_with(journal::BEGIN).await?;
    let mut next = 0;
    while next < writes.len() {
        let moves = move_run(&writes[next..]);
        let run = moves.len();
        if run >= 1 {
            let sql = journal::insert_sql(run);
            let mut query = sqlx::query(&sql);
            for &mv in &moves {
                // A ply stored already: the single writes will say so.
                if jtx.has_ply(&mut tx, mv).await? {
                    return Ok(false);
                }
                query = bind_move!(query.bind(jtx.append(mv)), mv);
            }
            // Fewer rows than moves: one was refused (its match is not playing).
            if query.execute(&mut *tx).await?.rows_affected() < run as u64 {
                return Ok(false);
            }
            next += run;
        } else {
            let write = &writes[next];
            let done = bind_write!(write).execute(&mut *tx).await?.rows_affected();
            if done < u64::from(!write.may_change_nothing()) {
                return Ok(false);
            }
            if let Write::FinishMatch { match_id, .. } = write {
                jtx.finish(match_id);
            }
            next += 1;
        }
    }
    jtx.fold(&mut tx).await?;
    tx.commit().await?;
    jtx.commit();
    Ok(true)
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::{NewMatch, StoreError, StoredEvent, StoredMove};

    fn writes(id: &str) -> Vec<Write> {
        let mut w = vec![Write::CreateMatch(NewMatch {
            id: id.into(),
            rules_preset: "fide".into(),
            rules_json: "{}".into(),
            base_ms: 300_000,
            increment_ms: 0,
            created_at_ms: 1_700_000_000_000,
            rematch_of: None,
            rated: false,
            allow_bots: false,
        })];
        for seat in 0..4u8 {
            w.push(Write::SetSeat {
                match_id: id.into(),
                seat,
                name: format!("p{seat}"),
                token_hash: format!("h{seat}"),
                bot: seat == 3,
            });
        }
        w.push(Write::ClearSeat {
            match_id: id.into(),
            seat: 3,
        });
        w.push(Write::SetSeat {
            match_id: id.into(),
            seat: 3,
            name: "q".into(),
            token_hash: "h".into(),
            bot: false,
        });
        w.push(Write::StartMatch {
            match_id: id.into(),
            started_at_ms: 1_700_000_001_000,
        });
        for (ply, (seat, uci)) in [(0u8, "e2e4"), (2, "d2d4"), (1, "e7e5")]
            .into_iter()
            .enumerate()
        {
            w.push(Write::RecordMove(StoredMove {
                match_id: id.into(),
                ply: ply as i64,
                seat,
                uci: uci.into(),
                san: uci[2..].into(),
                at_ms: 100 * ply as i64,
                clock_ms: 299_000,
                remaining_ms: [299_000, 300_000, 300_000, 300_000],
                action_id: None,
                lag_ms: 0,
            }));
        }
        w.push(Write::RecordEvent(StoredEvent {
            match_id: id.into(),
            seq: 0,
            ply: 3,
            seat: 1,
            kind: "offer_draw".into(),
            detail: String::new(),
            at_ms: 400,
            action_id: Some(9),
        }));
        w.push(Write::FinishMatch {
            match_id: id.into(),
            result: "0-1".into(),
            reason: "WhiteA resigns".into(),
            board_results: ["0-1".into(), "*".into()],
            bpgn: "[Event \"x\"]\n\n*\n".into(),
            finished_at_ms: 1_700_000_002_000,
        });
        w
    }

    /// A batch leaves the database exactly as the single writes do.
    async fn batch_equals_single_writes(one: &Store, many: &Store, p: &str) {
        let (m1, m1_single) = (&format!("{p}m1"), &format!("{p}m1-single"));
        let w = writes(m1);
        // In one transaction indeed (not by falling back to single writes).
        assert!(matches!(one.try_batch(&w).await.unwrap(), Batch::Stored));
        for write in &writes(m1_single) {
            many.apply(write).await.unwrap();
        }
        let a = one.load_match(m1).await.unwrap().unwrap();
        let mut b = many.load_match(m1_single).await.unwrap().unwrap();
        b.id.clone_from(m1);
        b.moves.iter_mut().for_each(|m| m.match_id.clone_from(m1));
        b.events.iter_mut().for_each(|e| e.match_id.clone_from(m1));
        assert_eq!(a, b);
        assert_eq!(a.moves.len(), 3);
        assert_eq!(a.status, "finished");
    }

    /// A write that fails or changes nothing: every write gets the result its single write
    /// gets, and the others are stored, except the later writes of a match one of whose writes
    /// was refused.
    async fn failures_fall_back_to_single_writes(store: &Store, p: &str) {
        let m2 = &format!("{p}m2");
        let mut w = writes(m2);
        w.truncate(9); // created, seated, started, one move
        let duplicate = w[8].clone();
        w.push(duplicate);
        w.push(Write::StartMatch {
            match_id: format!("{p}nope"),
            started_at_ms: 0,
        });
        w.push(Write::RecordMove(StoredMove {
            match_id: m2.into(),
            ply: 1,
            seat: 9,
            uci: "d2d4".into(),
            san: "d4".into(),
            at_ms: 1,
            clock_ms: 1,
            remaining_ms: [1; 4],
            action_id: None,
            lag_ms: 0,
        }));
        // After a refusal, the match's later writes are held (a gap in its record otherwise).
        let mut valid = w[11].clone();
        if let Write::RecordMove(mv) = &mut valid {
            mv.seat = 2;
        }
        w.push(valid);
        let results = store.apply_batch(&w).await;
        assert!(results[..9].iter().all(Result::is_ok));
        assert!(matches!(&results[12], Err(StoreError::Held(id)) if id == m2));
        assert!(matches!(
            results[9],
            Err(StoreError::DuplicatePly { ply: 0, .. })
        ));
        assert!(matches!(results[10], Err(StoreError::NoSuchMatch(_))));
        assert!(matches!(results[11], Err(StoreError::InvalidSeat(9))));
        let m = store.load_match(m2).await.unwrap().unwrap();
        assert_eq!(m.moves.len(), 1);
        assert_eq!(m.status, "playing");

        // A batch that fails only at its last write still stores the rest, in order.
        let mut w = vec![Write::RecordMove(StoredMove {
            match_id: m2.into(),
            ply: 1,
            seat: 2,
            uci: "d2d4".into(),
            san: "d4".into(),
            at_ms: 1,
            clock_ms: 1,
            remaining_ms: [1; 4],
            action_id: None,
            lag_ms: 0,
        })];
        w.push(w[0].clone());
        let results = store.apply_batch(&w).await;
        assert!(results[0].is_ok());
        assert!(matches!(
            results[1],
            Err(StoreError::DuplicatePly { ply: 1, .. })
        ));
        assert_eq!(store.load_match(m2).await.unwrap().unwrap().moves.len(), 2);
    }

    /// Many moves of several matches, more than one statement holds, and one of them for a
    /// match that is not playing: the others are stored, that one is refused as alone.
    async fn long_runs_of_moves(store: &Store, p: &str) {
        let (a, b_id, waiting) = (&format!("{p}a"), &format!("{p}b"), &format!("{p}waiting"));
        let mut setup = writes(a);
        setup.truncate(8);
        let mut b = writes(b_id);
        b.truncate(8);
        setup.extend(b);
        setup.push(Write::CreateMatch(NewMatch {
            id: waiting.into(),
            rules_preset: "fide".into(),
            rules_json: "{}".into(),
            ..NewMatch::default()
        }));
        for r in store.apply_batch(&setup).await {
            r.unwrap();
        }
        let mv = |id: &str, ply: i64| {
            Write::RecordMove(StoredMove {
                match_id: id.into(),
                ply,
                seat: (ply % 4) as u8,
                uci: "e2e4".into(),
                san: "e4".into(),
                at_ms: ply,
                clock_ms: 1,
                remaining_ms: [ply; 4],
                action_id: None,
                lag_ms: 0,
            })
        };
        let mut w = Vec::new();
        // 1,100 moves: chunks of 512, 512, 64, 8 and 4 rows.
        for ply in 0..550 {
            w.push(mv(a, ply));
            w.push(mv(b_id, ply));
        }
        assert!(matches!(store.try_batch(&w).await.unwrap(), Batch::Stored));
        assert_eq!(store.load_match(a).await.unwrap().unwrap().moves.len(), 550);
        let b = store.load_match(b_id).await.unwrap().unwrap();
        assert_eq!(b.moves.len(), 550);
        assert_eq!(
            b.moves[549],
            StoredMove {
                match_id: b_id.into(),
                ply: 549,
                seat: 1,
                uci: "e2e4".into(),
                san: "e4".into(),
                at_ms: 549,
                clock_ms: 1,
                remaining_ms: [549; 4],
                action_id: None,
                lag_ms: 0,
            }
        );
        let w = vec![mv(a, 550), mv(waiting, 0), mv(b_id, 550)];
        let results = store.apply_batch(&w).await;
        assert!(results[0].is_ok() && results[2].is_ok());
        assert!(matches!(
            results[1],
            Err(StoreError::WrongStatus {
                action: "record a move",
                ..
            })
        ));
        assert_eq!(store.load_match(a).await.unwrap().unwrap().moves.len(), 551);
        assert!(store
            .load_match(waiting)
            .await
            .unwrap()
            .unwrap()
            .moves
            .is_empty());
    }

    #[test]
    fn chunks_are_powers_of_two() {
        assert_eq!(
            [0, 1, 2, 3, 16, 17, 511, 512, 513, 5000].map(chunk),
            [0, 1, 2, 2, 16, 16, 256, 512, 512, 512]
        );
        assert_eq!(
            insert_moves_sql(2, Backend::Sqlite).matches('?').count(),
            26
        );
        assert!(insert_moves_sql(2, Backend::Postgres).contains("$26)"));
    }

    #[tokio::test]
    async fn sqlite() {
        let one = Store::connect("sqlite::memory:").await.unwrap();
        let many = Store::connect("sqlite::memory:").await.unwrap();
        batch_equals_single_writes(&one, &many, "").await;
        let store = Store::connect("sqlite::memory:").await.unwrap();
        failures_fall_back_to_single_writes(&store, "").await;
        long_runs_of_moves(&store, "").await;
    }

    /// The same on a SQLite file, whose batches go through the direct connection (direct.rs);
    /// a transaction left open on it is rolled back, and once the store is closed no batch is
    /// stored.
    #[tokio::test]
    async fn sqlite_file() {
        let dir = tempfile::tempdir().unwrap();
        let url = |name: &str| format!("sqlite://{}", dir.path().join(name).display());
        let one = Store::connect(&url("one.db")).await.unwrap();
        let many = Store::connect(&url("many.db")).await.unwrap();
        assert!(one.direct.is_some());
        batch_equals_single_writes(&one, &many, "").await;
        let store = Store::connect(&url("store.db")).await.unwrap();
        failures_fall_back_to_single_writes(&store, "").await;
        long_runs_of_moves(&store, "").await;
        {
            let direct = store.direct.as_ref().unwrap().conn.lock().unwrap();
            direct
                .as_ref()
                .unwrap()
                .execute_batch("BEGIN IMMEDIATE")
                .unwrap();
        }
        let w = writes("left-open");
        assert!(matches!(store.try_batch(&w).await.unwrap(), Batch::Stored));
        let stored = store.load_match("left-open").await.unwrap().unwrap();
        assert_eq!(stored.status, "finished");
        store.close().await;
        let results = store.apply_batch(&writes("after-close")).await;
        assert!(results.iter().all(Result::is_err), "{results:?}");
    }

    /// The same on PostgreSQL, when the tests have one (`BUGHOUSE_TEST_POSTGRES_URL`, see
    /// tests/store.rs); match ids of their own, so that runs don't collide.
    #[tokio::test]
    async fn postgres() {
        let Ok(url) = std::env::var("BUGHOUSE_TEST_POSTGRES_URL") else {
            return;
        };
        let store = Store::connect(&url).await.unwrap();
        let nanos = std::time::SystemTime::now()
            .duration_since(std::time::UNIX_EPOCH)
            .unwrap()
            .as_nanos();
        let p = format!("batch-{nanos}-");
        batch_equals_single_writes(&store, &store, &p).await;
        let q = format!("{p}x-");
        failures_fall_back_to_single_writes(&store, &q).await;
        long_runs_of_moves(&store, &q).await;
    }
}
