//! On a SQLite file, the batches of writes ([`Store::apply_batch`](crate::Store::apply_batch))
//! run on the calling thread, through a connection of their own opened with rusqlite. sqlx
//! runs each SQLite connection on a worker thread: every statement of a transaction was a
//! message to that thread and an answer that woke the caller's runtime. On a server's writer,
//! at 2,000 live matches, those hand-overs (futex and eventfd calls, the two threads' wake-ups)
//! cost more CPU than SQLite's own work.
//!
//! The statements and their bindings are the single writes' (write.rs, through
//! [`bind_write!`]'s `query` argument) and the journal's (journal.rs). Anything unusual (a
//! write that changes nothing, any error) rolls the transaction back, and the caller applies
//! the writes one by one through sqlx, as before.

use std::path::Path;
use std::sync::{Mutex, PoisonError};
use std::time::Duration;

use rusqlite::types::Value;
use rusqlite::Connection;

use crate::batch::move_run;
use crate::journal::{self, Fold, Journal, JournalTx, PlyCheck};
use crate::write::{bind_move, bind_write};
use crate::{StoredMove, Write};

/// The most prepared statements the connection keeps (the journal's inserts of 1 to 512 rows,
/// the writes' statements, the fold's).
const STATEMENTS_KEPT: usize = 64;

/// Whether a failure of SQLite is one of the database not taking a write for now (5 BUSY,
/// 6 LOCKED, 10 IOERR, 13 FULL, 14 CANTOPEN, as `StoreError::is_transient` says of sqlx's).
pub(crate) fn is_transient(e: &rusqlite::Error) -> bool {
    use rusqlite::ErrorCode;
    matches!(
        e.sqlite_error_code(),
        Some(
            ErrorCode::DatabaseBusy
                | ErrorCode::DatabaseLocked
                | ErrorCode::SystemIoFailure
                | ErrorCode::DiskFull
                | ErrorCode::CannotOpen
        )
    )
}

/// The SQLite writer's own connection.
#[derive(Debug)]
pub(crate) struct Direct {
    /// `None` once the store is closed.
    pub(crate) conn: Mutex<Option<Connection>>,
}

impl Direct {
    /// Opens `path`, whose schema is up to date and which is in WAL mode already, with the
    /// settings of the store's other connections (lib.rs).
    pub(crate) fn open(path: &Path, busy_timeout: Duration) -> rusqlite::Result<Direct> {
        let conn = Connection::open(path)?;
        conn.busy_timeout(busy_timeout)?;
        conn.execute_batch(
            "PRAGMA foreign_keys = ON; PRAGMA synchronous = FULL; \
             PRAGMA cache_size = -32768; PRAGMA temp_store = memory;",
        )?;
        conn.set_prepared_statement_cache_capacity(STATEMENTS_KEPT);
        Ok(Direct {
            conn: Mutex::new(Some(conn)),
        })
    }

    /// Closes the connection: later batches go to the single writes.
    pub(crate) fn close(&self) {
        let conn = self
            .conn
            .lock()
            .unwrap_or_else(PoisonError::into_inner)
            .take();
        drop(conn);
    }

    /// [`Store::try_batch`](crate::Store) on this connection: `Ok(true)` when every write
    /// changed its row and the transaction committed; otherwise rolled back.
    pub(crate) fn try_batch(
        &self,
        journal: &mut Journal,
        writes: &[Write],
    ) -> rusqlite::Result<bool> {
        let guard = self.conn.lock().unwrap_or_else(PoisonError::into_inner);
        // Closed: the single writes say so.
        let Some(conn) = guard.as_ref() else {
            return Ok(false);
        };
        // A transaction left open (a batch stopped by a panic, a rollback that failed) would
        // hold the write lock for ever.
        if !conn.is_autocommit() {
            conn.execute_batch("ROLLBACK")?;
        }
        let mut jtx = journal.begin();
        conn.execute_batch(journal::BEGIN)?;
        let done = write_all(conn, &mut jtx, writes).and_then(|done| {
            conn.execute_batch(if done { "COMMIT" } else { "ROLLBACK" })
                .map(|()| done)
        });
        match done {
            Ok(true) => {
                jtx.commit();
                Ok(true)
            }
            other => {
                // A failed statement or commit may leave the transaction open.
                if !conn.is_autocommit() {
                    let _ = conn.execute_batch("ROLLBACK");
                }
                other
            }
        }
    }
}

/// The writes of a batch and the journal's fold, in the open transaction: `Ok(false)` as soon
/// as one is refused.
fn write_all(
    conn: &Connection,
    jtx: &mut JournalTx<'_>,
    writes: &[Write],
) -> rusqlite::Result<bool> {
    let mut next = 0;
    while next < writes.len() {
        let moves = move_run(&writes[next..]);
        let run = moves.len();
        if run >= 1 {
            let sql = journal::insert_sql(run);
            let mut query = query(&sql);
            for &mv in &moves {
                // A ply stored already: the single writes will say so.
                if has_ply(conn, jtx, mv)? {
                    return Ok(false);
                }
                query = bind_move!(query.bind(jtx.append(mv)), mv);
            }
            // Fewer rows than moves: one was refused (its match is not playing).
            if query.execute(conn)? < run {
                return Ok(false);
            }
            next += run;
        } else {
            let write = &writes[next];
            let done = bind_write!(write, query).execute(conn)?;
            if done < usize::from(!write.may_change_nothing()) {
                return Ok(false);
            }
            if let Write::FinishMatch { match_id, .. } = write {
                jtx.finish(match_id);
            }
            next += 1;
        }
    }
    let Fold { seqs, delete_below } = jtx.plan_fold();
    if let Some(seqs) = seqs {
        query(journal::FOLD).bind(seqs).execute(conn)?;
    }
    if let Some(below) = delete_below {
        query(journal::DELETE_BELOW).bind(below).execute(conn)?;
    }
    Ok(true)
}

/// [`JournalTx::has_ply`] on this connection.
fn has_ply(conn: &Connection, jtx: &mut JournalTx<'_>, mv: &StoredMove) -> rusqlite::Result<bool> {
    loop {
        match jtx.check_ply(mv) {
            PlyCheck::Known(there) => return Ok(there),
            PlyCheck::FoldedMax => {
                let max: Option<i64> = query(journal::MAX_PLY).bind(&mv.match_id).row(conn)?;
                jtx.set_folded_max(&mv.match_id, max);
            }
            PlyCheck::InMoves => {
                return query(journal::PLY_IN_MOVES)
                    .bind(&mv.match_id)
                    .bind(mv.ply)
                    .row(conn);
            }
        }
    }
}

/// A statement and the values of its parameters, bound as sqlx's queries are (`.bind` in the
/// order of `$1`, `$2`, … or of the anonymous `?`), so that the bindings of write.rs serve
/// both.
pub(crate) struct Query<'q> {
    sql: &'q str,
    values: Vec<Value>,
}

/// A statement to bind: what [`bind_write!`] builds its queries with here.
pub(crate) fn query(sql: &str) -> Query<'_> {
    Query {
        sql,
        values: Vec::new(),
    }
}

impl Query<'_> {
    /// The next parameter's value.
    pub(crate) fn bind(mut self, value: impl IntoValue) -> Self {
        self.values.push(value.into_value());
        self
    }

    /// The prepared statement, with its parameters bound.
    fn prepare<'c>(&self, conn: &'c Connection) -> rusqlite::Result<rusqlite::CachedStatement<'c>> {
        let mut statement = conn.prepare_cached(self.sql)?;
        for index in 1..=statement.parameter_count() {
            // `$N` is the N-th value, wherever it stands; `?` the next one.
            let value = match statement.parameter_name(index) {
                Some(name) => name
                    .strip_prefix('$')
                    .and_then(|n| n.parse::<usize>().ok())
                    .and_then(|n| self.values.get(n.wrapping_sub(1))),
                None => self.values.get(index - 1),
            };
            let value = value.ok_or(rusqlite::Error::InvalidParameterCount(
                index,
                self.values.len(),
            ))?;
            statement.raw_bind_parameter(index, value)?;
        }
        Ok(statement)
    }

    /// Runs the statement: the number of rows it changed.
    fn execute(self, conn: &Connection) -> rusqlite::Result<usize> {
        self.prepare(conn)?.raw_execute()
    }

    /// Runs the statement: the first column of its one row.
    fn row<T: rusqlite::types::FromSql>(self, conn: &Connection) -> rusqlite::Result<T> {
        let mut statement = self.prepare(conn)?;
        let mut rows = statement.raw_query();
        match rows.next()? {
            Some(row) => row.get(0),
            None => Err(rusqlite::Error::QueryReturnedNoRows),
        }
    }
}

/// A value a write binds.
pub(crate) trait IntoValue {
    fn into_value(self) -> Value;
}

impl IntoValue for i64 {
    fn into_value(self) -> Value {
        Value::Integer(self)
    }
}

impl IntoValue for bool {
    fn into_value(self) -> Value {
        Value::Integer(i64::from(self))
    }
}

impl IntoValue for &str {
    fn into_value(self) -> Value {
        Value::Text(self.to_owned())
    }
}

impl IntoValue for &String {
    fn into_value(self) -> Value {
        Value::Text(self.clone())
    }
}

impl IntoValue for String {
    fn into_value(self) -> Value {
        Value::Text(self)
    }
}

impl<T: IntoValue + Clone> IntoValue for &Option<T> {
    fn into_value(self) -> Value {
        self.clone().into_value()
    }
}

impl<T: IntoValue> IntoValue for Option<T> {
    fn into_value(self) -> Value {
        self.map_or(Value::Null, IntoValue::into_value)
    }
}

impl IntoValue for &i64 {
    fn into_value(self) -> Value {
        Value::Integer(*self)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn numbered_parameters_take_their_values_wherever_they_stand() {
        let conn = Connection::open_in_memory().unwrap();
        conn.execute_batch("CREATE TABLE t (a TEXT, b INTEGER, c INTEGER)")
            .unwrap();
        query("INSERT INTO t VALUES (?, ?, ?)")
            .bind("x")
            .bind(1)
            .bind(None::<i64>)
            .execute(&conn)
            .unwrap();
        // `$2` first, `$1` twice: as START_MATCH and SET_SEAT have them.
        let changed = query("UPDATE t SET b = $2, c = $2 WHERE a = $1 AND a = $1")
            .bind("x")
            .bind(7)
            .execute(&conn)
            .unwrap();
        assert_eq!(changed, 1);
        let a = "x".to_owned();
        let b: i64 = query("SELECT b + c FROM t WHERE a = $1")
            .bind(&a)
            .row(&conn)
            .unwrap();
        assert_eq!(b, 14);
        // A value missing is an error, not a NULL.
        assert!(query("UPDATE t SET b = $2 WHERE a = $1")
            .bind("x")
            .execute(&conn)
            .is_err());
    }

    #[test]
    fn a_locked_database_is_a_passing_failure() {
        let dir = tempfile::tempdir().unwrap();
        let path = dir.path().join("locked.db");
        let holder = Connection::open(&path).unwrap();
        holder
            .execute_batch("CREATE TABLE t (a INTEGER); BEGIN IMMEDIATE; INSERT INTO t VALUES (1);")
            .unwrap();
        let direct = Direct::open(&path, Duration::from_millis(50)).unwrap();
        let guard = direct.conn.lock().unwrap();
        let conn = guard.as_ref().unwrap();
        let e = conn.execute_batch("BEGIN IMMEDIATE").unwrap_err();
        assert!(is_transient(&e), "{e}");
        let e = query("INSERT INTO nowhere VALUES (1)")
            .execute(conn)
            .unwrap_err();
        assert!(!is_transient(&e), "{e}");
    }
}
