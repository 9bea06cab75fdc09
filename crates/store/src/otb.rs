//! Over-the-board tables: settings, the events their page sent, and the result (see
//! `migrations/0006_otb.sql`).

use crate::{is_unique_violation, Pool, Store, StoreError};

/// A new over-the-board table.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct NewOtbTable {
    /// The table id (non-empty; the server makes it up).
    pub id: String,
    /// The SHA-256 (hex) of the table's key.
    pub key_hash: String,
    /// The rulebook preset id.
    pub preset: String,
    /// Base time per player, milliseconds (> 0).
    pub base_ms: i64,
    /// Increment per move, milliseconds.
    pub increment_ms: i64,
    /// When it was created, Unix milliseconds.
    pub created_at_ms: i64,
    /// The tournament pairing it plays: tournament id, round, table (from 1).
    pub pairing: Option<(String, i64, i64)>,
}

/// One stored event of a table.
#[derive(Debug, Clone, PartialEq, Eq, sqlx::FromRow)]
pub struct StoredOtbEvent {
    /// Its place in the table's order, from 0.
    pub seq: i64,
    /// The page's id of the event.
    pub client_id: i64,
    /// The table clock's time, milliseconds.
    pub at_ms: i64,
    /// The event as JSON.
    pub event_json: String,
}

/// A table as stored, with its events in order.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct StoredOtbTable {
    /// The settings.
    pub table: NewOtbTable,
    /// The match result once over, and each game's.
    pub result: Option<OtbResult>,
    /// The events in order.
    pub events: Vec<StoredOtbEvent>,
}

/// The stored result of a table: the match and each game, as PGN result texts.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct OtbResult {
    /// The match (`1-0`: WhiteA + BlackB won).
    pub result: String,
    /// Board A's game.
    pub a: String,
    /// Board B's game.
    pub b: String,
}

#[derive(sqlx::FromRow)]
struct TableRow {
    id: String,
    key_hash: String,
    preset: String,
    base_ms: i64,
    increment_ms: i64,
    created_at_ms: i64,
    tournament_id: Option<String>,
    round_no: Option<i64>,
    table_no: Option<i64>,
    result: Option<String>,
    result_a: Option<String>,
    result_b: Option<String>,
}

const TABLE_COLUMNS: &str = "id, key_hash, preset, base_ms, increment_ms, created_at_ms, \
     tournament_id, round_no, table_no, result, result_a, result_b";

impl TableRow {
    fn into_stored(self, events: Vec<StoredOtbEvent>) -> StoredOtbTable {
        let pairing = match (self.tournament_id, self.round_no, self.table_no) {
            (Some(t), Some(r), Some(n)) => Some((t, r, n)),
            _ => None,
        };
        let result = match (self.result, self.result_a, self.result_b) {
            (Some(result), Some(a), Some(b)) => Some(OtbResult { result, a, b }),
            _ => None,
        };
        StoredOtbTable {
            table: NewOtbTable {
                id: self.id,
                key_hash: self.key_hash,
                preset: self.preset,
                base_ms: self.base_ms,
                increment_ms: self.increment_ms,
                created_at_ms: self.created_at_ms,
                pairing,
            },
            result,
            events,
        }
    }
}

impl Store {
    /// Stores a new table.
    ///
    /// Errors: [`StoreError::Invalid`] for an empty id, a base time that is not positive, an id
    /// or a tournament pairing already taken, or a tournament that does not exist.
    pub async fn create_otb_table(&self, t: &NewOtbTable) -> Result<(), StoreError> {
        if t.id.is_empty() || t.base_ms <= 0 || t.increment_ms < 0 {
            return Err(StoreError::Invalid(format!(
                "over-the-board table {:?}: an id and a positive time are needed",
                t.id
            )));
        }
        let (tid, round, table) = match &t.pairing {
            Some((tid, r, n)) => (Some(tid.as_str()), Some(*r), Some(*n)),
            None => (None, None, None),
        };
        let done = with_pool!(self, pool => {
            sqlx::query(
                "INSERT INTO otb_tables (id, key_hash, preset, base_ms, increment_ms, \
                 created_at_ms, tournament_id, round_no, table_no) \
                 VALUES ($1, $2, $3, $4, $5, $6, $7, $8, $9)",
            )
            .bind(&t.id)
            .bind(&t.key_hash)
            .bind(&t.preset)
            .bind(t.base_ms)
            .bind(t.increment_ms)
            .bind(t.created_at_ms)
            .bind(tid)
            .bind(round)
            .bind(table)
            .execute(pool)
            .await
            .map(drop)
        });
        match done {
            Err(e) if is_unique_violation(&e) => Err(StoreError::Invalid(format!(
                "over-the-board table {:?}: the id or the pairing is taken",
                t.id
            ))),
            Err(sqlx::Error::Database(d)) if d.is_foreign_key_violation() => {
                Err(StoreError::Invalid(format!(
                    "over-the-board table {:?}: no such tournament",
                    t.id
                )))
            }
            other => other.map_err(StoreError::from),
        }
    }

    /// One table with its events, `None` if there is no such table.
    pub async fn load_otb_table(&self, id: &str) -> Result<Option<StoredOtbTable>, StoreError> {
        let t_sql = format!("SELECT {TABLE_COLUMNS} FROM otb_tables WHERE id = $1");
        let (row, events): (Option<TableRow>, Vec<StoredOtbEvent>) = with_pool!(self, pool => {
            let mut tx = pool.begin().await?;
            let row = sqlx::query_as(&t_sql).bind(id).fetch_optional(&mut *tx).await?;
            let events = sqlx::query_as(
                "SELECT seq, client_id, at_ms, event_json FROM otb_events \
                 WHERE table_id = $1 ORDER BY seq",
            )
            .bind(id)
            .fetch_all(&mut *tx)
            .await?;
            tx.commit().await?;
            (row, events)
        });
        Ok(row.map(|r| r.into_stored(events)))
    }

    /// The tables of a tournament's pairings, without their events, by round and table.
    pub async fn otb_tables_of_tournament(
        &self,
        tournament_id: &str,
    ) -> Result<Vec<StoredOtbTable>, StoreError> {
        let sql = format!(
            "SELECT {TABLE_COLUMNS} FROM otb_tables WHERE tournament_id = $1 \
             ORDER BY round_no, table_no"
        );
        let rows: Vec<TableRow> = with_pool!(self, pool => {
            sqlx::query_as(&sql).bind(tournament_id).fetch_all(pool).await?
        });
        Ok(rows
            .into_iter()
            .map(|r| r.into_stored(Vec::new()))
            .collect())
    }

    /// Appends events to a table, in one transaction, after those it has, and sets its result
    /// when given. The caller numbers them from the table's count of events.
    ///
    /// Errors: [`StoreError::Invalid`] when a sequence number or client id is taken (another
    /// writer came first: nothing is stored), a negative time, or no such table.
    pub async fn append_otb_events(
        &self,
        id: &str,
        events: &[StoredOtbEvent],
        result: Option<&OtbResult>,
    ) -> Result<(), StoreError> {
        if events.iter().any(|e| e.at_ms < 0 || e.seq < 0) {
            return Err(StoreError::Invalid("negative time or sequence".into()));
        }
        let outcome: Result<u64, sqlx::Error> = with_pool!(self, pool => {
            async {
                let mut tx = pool.begin().await?;
                let n = match result {
                    Some(r) => sqlx::query(
                        "UPDATE otb_tables SET result = $2, result_a = $3, result_b = $4 \
                         WHERE id = $1",
                    )
                    .bind(id)
                    .bind(&r.result)
                    .bind(&r.a)
                    .bind(&r.b)
                    .execute(&mut *tx)
                    .await?
                    .rows_affected(),
                    // A write, not a read, first: on SQLite a transaction that has read cannot
                    // start writing once another connection has committed meanwhile (the
                    // heartbeat, every second), and fails at once with SQLITE_BUSY instead of
                    // waiting for the lock. (On PostgreSQL it locks the table's row.)
                    None => sqlx::query("UPDATE otb_tables SET id = id WHERE id = $1")
                        .bind(id)
                        .execute(&mut *tx)
                        .await?
                        .rows_affected(),
                };
                if n == 0 {
                    tx.rollback().await?;
                    return Ok(0);
                }
                for e in events {
                    sqlx::query(
                        "INSERT INTO otb_events (table_id, seq, client_id, at_ms, event_json) \
                         VALUES ($1, $2, $3, $4, $5)",
                    )
                    .bind(id)
                    .bind(e.seq)
                    .bind(e.client_id)
                    .bind(e.at_ms)
                    .bind(&e.event_json)
                    .execute(&mut *tx)
                    .await?;
                }
                tx.commit().await?;
                Ok(n)
            }
            .await
        });
        match outcome {
            Ok(0) => Err(StoreError::Invalid(format!(
                "no over-the-board table {id:?}"
            ))),
            Ok(_) => Ok(()),
            Err(e) if is_unique_violation(&e) => Err(StoreError::Invalid(format!(
                "over-the-board table {id:?}: an event with that number or client id exists"
            ))),
            Err(e) => Err(e.into()),
        }
    }
}
