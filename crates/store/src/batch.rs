//! Several writes in one transaction: one commit, so one `fsync` under SQLite's
//! `synchronous=FULL`, for all of them (group commit). The server stores the writes of a whole
//! batch of player commands this way before it acknowledges any of them.
//!
//! The statements are those of the single-write methods ([`Store::record_move`] and the others),
//! run on one transaction. Anything unusual (a write that changes nothing, such as a move for a
//! finished match, or any database error) rolls the whole batch back and applies the writes one
//! by one with the single-write methods instead, so the outcome and the errors are exactly
//! theirs.

use super::{
    check_id, check_seat, NewMatch, Pool, Store, StoreError, StoredEvent, StoredMove, StoredTalk,
};

/// The columns of a stored move, in the order of its parameters.
const MOVE_COLUMNS: usize = 13;

/// The most moves stored by one statement, 13 parameters each (more would not save much: binding
/// looks each parameter up by a scan of all of them, quadratic in their number).
const MOVES_PER_STATEMENT: usize = 16;

/// `INSERT` of `n` moves, each under the condition of [`Store::record_move`]: its match is
/// playing. (`columnN` are the names SQLite and PostgreSQL both give the columns of `VALUES`.)
fn insert_moves_sql(n: usize) -> String {
    let mut sql = String::from(
        "INSERT INTO moves (match_id, ply, seat, uci, san, at_ms, clock_ms, \
         remaining_0, remaining_1, remaining_2, remaining_3, action_id, lag_ms) \
         SELECT v.column1, v.column2, v.column3, v.column4, v.column5, v.column6, v.column7, \
         v.column8, v.column9, v.column10, v.column11, v.column12, v.column13 FROM (VALUES ",
    );
    for row in 0..n {
        if row > 0 {
            sql.push_str(", ");
        }
        sql.push('(');
        for col in 1..=MOVE_COLUMNS {
            if col > 1 {
                sql.push_str(", ");
            }
            sql.push_str(&format!("${}", row * MOVE_COLUMNS + col));
        }
        sql.push(')');
    }
    sql.push_str(
        ") AS v WHERE EXISTS (SELECT 1 FROM matches WHERE id = v.column1 AND status = 'playing')",
    );
    sql
}

/// One write of [`Store::apply_batch`]: the arguments of the single-write method of that name.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum Write {
    /// [`Store::create_match`].
    CreateMatch(NewMatch),
    /// [`Store::set_seat`].
    SetSeat {
        /// The match.
        match_id: String,
        /// The seat, 0..4.
        seat: u8,
        /// The player's name.
        name: String,
        /// The hash of the seat's token.
        token_hash: String,
        /// Whether a bot plays it.
        bot: bool,
    },
    /// [`Store::clear_seat`].
    ClearSeat {
        /// The match.
        match_id: String,
        /// The seat, 0..4.
        seat: u8,
    },
    /// [`Store::start_match`].
    StartMatch {
        /// The match.
        match_id: String,
        /// Unix milliseconds.
        started_at_ms: i64,
    },
    /// [`Store::record_move`].
    RecordMove(StoredMove),
    /// [`Store::record_event`].
    RecordEvent(StoredEvent),
    /// [`Store::record_talk`].
    RecordTalk(StoredTalk),
    /// [`Store::set_clock_anchor`].
    SetClockAnchor {
        /// The match.
        match_id: String,
        /// Unix milliseconds at which its time was 0.
        anchor_ms: i64,
    },
    /// [`Store::finish_match`].
    FinishMatch {
        /// The match.
        match_id: String,
        /// `1-0`, `0-1` or `1/2-1/2`.
        result: String,
        /// Why, in words.
        reason: String,
        /// Each board's result from its White side.
        board_results: [String; 2],
        /// The record as BPGN.
        bpgn: String,
        /// Unix milliseconds.
        finished_at_ms: i64,
    },
}

impl Write {
    /// Whether the single-write method would accept the arguments (it reports the error
    /// otherwise).
    fn valid(&self) -> bool {
        match self {
            Write::CreateMatch(m) => {
                check_id(&m.id).is_ok() && m.base_ms >= 0 && m.increment_ms >= 0
            }
            Write::SetSeat { seat, .. } | Write::ClearSeat { seat, .. } => {
                check_seat(*seat).is_ok()
            }
            Write::StartMatch { .. } | Write::FinishMatch { .. } | Write::SetClockAnchor { .. } => {
                true
            }
            Write::RecordTalk(t) => check_seat(t.seat).is_ok() && t.seq >= 0,
            Write::RecordMove(mv) => check_seat(mv.seat).is_ok() && mv.ply >= 0,
            Write::RecordEvent(ev) => check_seat(ev.seat).is_ok() && ev.seq >= 0 && ev.ply >= 0,
        }
    }
}

impl Store {
    /// Applies one write with its single-write method.
    pub async fn apply(&self, write: &Write) -> Result<(), StoreError> {
        match write {
            Write::CreateMatch(m) => self.create_match(m).await,
            Write::SetSeat {
                match_id,
                seat,
                name,
                token_hash,
                bot,
            } => self.set_seat(match_id, *seat, name, token_hash, *bot).await,
            Write::ClearSeat { match_id, seat } => self.clear_seat(match_id, *seat).await,
            Write::StartMatch {
                match_id,
                started_at_ms,
            } => self.start_match(match_id, *started_at_ms).await,
            Write::RecordMove(mv) => self.record_move(mv).await,
            Write::RecordEvent(ev) => self.record_event(ev).await,
            Write::RecordTalk(t) => self.record_talk(t).await,
            Write::SetClockAnchor {
                match_id,
                anchor_ms,
            } => self.set_clock_anchor(match_id, *anchor_ms).await,
            Write::FinishMatch {
                match_id,
                result,
                reason,
                board_results,
                bpgn,
                finished_at_ms,
            } => {
                self.finish_match(
                    match_id,
                    result,
                    reason,
                    [&board_results[0], &board_results[1]],
                    bpgn,
                    *finished_at_ms,
                )
                .await
            }
        }
    }

    /// Applies the writes in order, in one transaction when they all succeed: durable, all of
    /// them, when this returns. Returns one result per write, the same as the single-write
    /// methods applied one after the other would have returned (which is what happens, after a
    /// rollback, when any write fails or changes nothing).
    pub async fn apply_batch(&self, writes: &[Write]) -> Vec<Result<(), StoreError>> {
        if writes.len() > 1 && writes.iter().all(Write::valid) {
            if let Ok(true) = self.try_batch(writes).await {
                return writes.iter().map(|_| Ok(())).collect();
            }
        }
        let mut out = Vec::with_capacity(writes.len());
        for write in writes {
            out.push(self.apply(write).await);
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
    pub async fn checkpoint(&self) -> Result<(), StoreError> {
        if let Pool::Sqlite(pool) = &self.pool {
            sqlx::query("PRAGMA wal_checkpoint(PASSIVE)")
                .execute(pool)
                .await?;
        }
        Ok(())
    }

    /// `Ok(true)`: every write changed its row and the transaction committed. `Ok(false)` or an
    /// error: rolled back (explicitly, or by dropping the transaction).
    async fn try_batch(&self, writes: &[Write]) -> Result<bool, sqlx::Error> {
        with_pool!(self, pool => {
            let mut tx = pool.begin().await?;
            let mut next = 0;
            while next < writes.len() {
                // Moves in a row (the bulk of a busy server's writes) go in one statement.
                let run = writes[next..]
                    .iter()
                    .take_while(|w| matches!(w, Write::RecordMove(_)))
                    .take(MOVES_PER_STATEMENT)
                    .count();
                if run >= 2 {
                    let sql = insert_moves_sql(run);
                    let mut query = sqlx::query(&sql);
                    for write in &writes[next..next + run] {
                        if let Write::RecordMove(mv) = write {
                            query = query
                                .bind(&mv.match_id)
                                .bind(mv.ply)
                                .bind(i64::from(mv.seat))
                                .bind(&mv.uci)
                                .bind(&mv.san)
                                .bind(mv.at_ms)
                                .bind(mv.clock_ms)
                                .bind(mv.remaining_ms[0])
                                .bind(mv.remaining_ms[1])
                                .bind(mv.remaining_ms[2])
                                .bind(mv.remaining_ms[3])
                                .bind(mv.action_id)
                                .bind(mv.lag_ms);
                        }
                    }
                    if query.execute(&mut *tx).await?.rows_affected() != run as u64 {
                        tx.rollback().await?;
                        return Ok(false);
                    }
                    next += run;
                    continue;
                }
                let write = &writes[next];
                next += 1;
                // The statements of the single-write methods in lib.rs, unchanged.
                let query = match write {
                    Write::CreateMatch(m) => sqlx::query(
                        "INSERT INTO matches \
                         (id, rules_preset, rules_json, base_ms, increment_ms, created_at_ms, rematch_of) \
                         VALUES ($1, $2, $3, $4, $5, $6, $7)",
                    )
                    .bind(&m.id)
                    .bind(&m.rules_preset)
                    .bind(&m.rules_json)
                    .bind(m.base_ms)
                    .bind(m.increment_ms)
                    .bind(m.created_at_ms)
                    .bind(&m.rematch_of),
                    Write::SetSeat {
                        match_id,
                        seat,
                        name,
                        token_hash,
                        bot,
                    } => sqlx::query(
                        "INSERT INTO seats (match_id, seat, name, token_hash, bot) \
                         SELECT $1, $2, $3, $4, $5 \
                         WHERE EXISTS (SELECT 1 FROM matches WHERE id = $1 AND status <> 'finished') \
                         ON CONFLICT (match_id, seat) DO UPDATE \
                         SET name = excluded.name, token_hash = excluded.token_hash, bot = excluded.bot",
                    )
                    .bind(match_id)
                    .bind(i64::from(*seat))
                    .bind(name)
                    .bind(token_hash)
                    .bind(*bot),
                    Write::ClearSeat { match_id, seat } => sqlx::query(
                        "DELETE FROM seats WHERE match_id = $1 AND seat = $2 \
                         AND EXISTS (SELECT 1 FROM matches WHERE id = $1 AND status <> 'finished')",
                    )
                    .bind(match_id)
                    .bind(i64::from(*seat)),
                    Write::StartMatch {
                        match_id,
                        started_at_ms,
                    } => sqlx::query(
                        "UPDATE matches SET status = 'playing', started_at_ms = $2 \
                         WHERE id = $1 AND status = 'waiting'",
                    )
                    .bind(match_id)
                    .bind(*started_at_ms),
                    Write::RecordMove(mv) => sqlx::query(
                        crate::INSERT_MOVE,
                    )
                    .bind(&mv.match_id)
                    .bind(mv.ply)
                    .bind(i64::from(mv.seat))
                    .bind(&mv.uci)
                    .bind(&mv.san)
                    .bind(mv.at_ms)
                    .bind(mv.clock_ms)
                    .bind(mv.remaining_ms[0])
                    .bind(mv.remaining_ms[1])
                    .bind(mv.remaining_ms[2])
                    .bind(mv.remaining_ms[3])
                    .bind(mv.action_id)
                    .bind(mv.lag_ms),
                    Write::RecordEvent(ev) => sqlx::query(
                        crate::INSERT_EVENT,
                    )
                    .bind(&ev.match_id)
                    .bind(ev.seq)
                    .bind(ev.ply)
                    .bind(i64::from(ev.seat))
                    .bind(&ev.kind)
                    .bind(&ev.detail)
                    .bind(ev.at_ms)
                    .bind(ev.action_id),
                    Write::RecordTalk(t) => sqlx::query(crate::INSERT_TALK)
                        .bind(&t.match_id)
                        .bind(t.seq)
                        .bind(i64::from(t.seat))
                        .bind(&t.kind)
                        .bind(&t.piece)
                        .bind(&t.text)
                        .bind(t.at_ms)
                        .bind(t.action_id),
                    Write::SetClockAnchor {
                        match_id,
                        anchor_ms,
                    } => sqlx::query(crate::SET_ANCHOR).bind(match_id).bind(*anchor_ms),
                    Write::FinishMatch {
                        match_id,
                        result,
                        reason,
                        board_results,
                        bpgn,
                        finished_at_ms,
                    } => sqlx::query(
                        "UPDATE matches SET status = 'finished', result = $2, reason = $3, \
                         board_result_a = $4, board_result_b = $5, bpgn = $6, finished_at_ms = $7 \
                         WHERE id = $1 AND status <> 'finished'",
                    )
                    .bind(match_id)
                    .bind(result)
                    .bind(reason)
                    .bind(&board_results[0])
                    .bind(&board_results[1])
                    .bind(bpgn)
                    .bind(*finished_at_ms),
                };
                if query.execute(&mut *tx).await?.rows_affected() == 0 {
                    tx.rollback().await?;
                    return Ok(false);
                }
            }
            tx.commit().await?;
            Ok(true)
        })
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn writes(id: &str) -> Vec<Write> {
        let mut w = vec![Write::CreateMatch(NewMatch {
            id: id.into(),
            rules_preset: "fide".into(),
            rules_json: "{}".into(),
            base_ms: 300_000,
            increment_ms: 0,
            created_at_ms: 1_700_000_000_000,
            rematch_of: None,
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
        assert!(one.try_batch(&w).await.unwrap());
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
    /// gets, and the others are stored.
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
        let results = store.apply_batch(&w).await;
        assert!(results[..9].iter().all(Result::is_ok));
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
        for ply in 0..100 {
            w.push(mv(a, ply));
            w.push(mv(b_id, ply));
        }
        assert!(store.try_batch(&w).await.unwrap());
        assert_eq!(store.load_match(a).await.unwrap().unwrap().moves.len(), 100);
        let b = store.load_match(b_id).await.unwrap().unwrap();
        assert_eq!(b.moves.len(), 100);
        assert_eq!(
            b.moves[99],
            StoredMove {
                match_id: b_id.into(),
                ply: 99,
                seat: 3,
                uci: "e2e4".into(),
                san: "e4".into(),
                at_ms: 99,
                clock_ms: 1,
                remaining_ms: [99; 4],
                action_id: None,
                lag_ms: 0,
            }
        );
        let w = vec![mv(a, 100), mv(waiting, 0), mv(b_id, 100)];
        let results = store.apply_batch(&w).await;
        assert!(results[0].is_ok() && results[2].is_ok());
        assert!(matches!(
            results[1],
            Err(StoreError::WrongStatus {
                action: "record a move",
                ..
            })
        ));
        assert_eq!(store.load_match(a).await.unwrap().unwrap().moves.len(), 101);
        assert!(store
            .load_match(waiting)
            .await
            .unwrap()
            .unwrap()
            .moves
            .is_empty());
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
