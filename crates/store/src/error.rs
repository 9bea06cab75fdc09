//! The store's errors.

use crate::MatchStatus;

/// Everything that can go wrong in the store. No call panics on bad input or bad data in the
/// database; it returns one of these.
#[derive(Debug, thiserror::Error)]
#[non_exhaustive]
pub enum StoreError {
    /// The URL names no backend the store knows.
    #[error(
        "unsupported database URL {0:?}: expected sqlite:PATH (e.g. sqlite://bughouse.db?mode=rwc), \
         sqlite::memory: or postgres://USER:PASSWORD@HOST:PORT/DATABASE"
    )]
    UnsupportedUrl(String),
    /// The database could not be opened: a malformed URL, a missing directory, a refused
    /// connection, a wrong password, a database that does not exist.
    #[error("cannot open the database {url}: {source}")]
    Connect {
        /// The URL, with any password replaced by `***`.
        url: String,
        /// What the driver said.
        #[source]
        source: sqlx::Error,
    },
    /// The schema could not be brought up to date, for example because the database was
    /// migrated by a newer version of the program.
    #[error("cannot bring the database schema up to date: {0}")]
    Migrate(#[from] sqlx::migrate::MigrateError),
    /// In [`Store::apply_batch`], a write after one the database could not take for now
    /// ([transient](StoreError::is_transient)): not tried, so that the writes are stored in
    /// order when they are tried again. Transient itself.
    #[error("not tried: an earlier write of the batch could not be stored for now")]
    NotTried,
    /// A write of a match after one of the same match was refused (an error neither
    /// [transient](StoreError::is_transient) nor a [duplicate](StoreError::is_duplicate)): not
    /// stored, so that the match's record has no gap (a move stored after a move that is not
    /// would make the record unreadable).
    #[error("not stored: an earlier write of match {0:?} was refused")]
    Held(String),
    /// No match has this id.
    #[error("no match {0:?}")]
    NoSuchMatch(String),
    /// [`Store::create_match`] with an id already taken.
    #[error("match {0:?} already exists")]
    MatchExists(String),
    /// The match is not in a state that allows the call: a move before the start, a seat change
    /// after the end, a second start or end.
    #[error("cannot {action}: match {match_id:?} is {status}")]
    WrongStatus {
        /// The match.
        match_id: String,
        /// Its status.
        status: MatchStatus,
        /// What was refused, in words (`record a move`).
        action: &'static str,
    },
    /// A seat number outside 0..4.
    #[error("no seat {0}: seats are 0 (WhiteA), 1 (BlackA), 2 (WhiteB) and 3 (BlackB)")]
    InvalidSeat(u8),
    /// [`Store::record_move`] with a ply the match already has.
    #[error("match {match_id:?} already has a move with ply {ply}")]
    DuplicatePly {
        /// The match.
        match_id: String,
        /// The ply.
        ply: i64,
    },
    /// [`Store::record_event`] with a sequence number the match already has.
    #[error("match {match_id:?} already has an event with seq {seq}")]
    DuplicateEvent {
        /// The match.
        match_id: String,
        /// The sequence number.
        seq: i64,
    },
    /// No tournament has this id.
    #[error("no tournament {0:?}")]
    NoSuchTournament(String),
    /// [`Store::create_tournament`] with an id already taken.
    #[error("tournament {0:?} already exists")]
    TournamentExists(String),
    /// [`Store::save_tournament_over`]: the tournament changed since the version it was read at
    /// (another node or request changed it first); nothing was stored.
    #[error("tournament {0:?} changed meanwhile")]
    TournamentChanged(String),
    /// An argument that can't be stored: an empty match id, a negative ply or time, ...
    #[error("invalid argument: {0}")]
    Invalid(String),
    /// The database holds something this program cannot read (written by hand or by another
    /// program).
    #[error("unexpected data in the database: {0}")]
    Corrupt(String),
    /// The store was closed (the server is stopping) before the write could be made.
    #[error("the store is closed")]
    Closed,
    /// Any other database failure (lost connection, disk full, ...).
    #[error("database error: {0}")]
    Database(#[from] sqlx::Error),
    /// The SQLite writer's batch connection (direct.rs) could not write for now: the database
    /// locked past the busy timeout, a full disk, an I/O error.
    #[error("database error: {0}")]
    Unavailable(String),
}

impl StoreError {
    /// Whether a move or an event with this number is stored already: a write tried again
    /// after the database took it but its answer was lost (the record holds what was asked,
    /// once).
    pub fn is_duplicate(&self) -> bool {
        matches!(
            self,
            StoreError::DuplicatePly { .. } | StoreError::DuplicateEvent { .. }
        )
    }

    /// Whether the write was refused for good: neither [transient](StoreError::is_transient)
    /// (it would be tried again) nor a [duplicate](StoreError::is_duplicate).
    pub fn is_refusal(&self) -> bool {
        !self.is_transient() && !self.is_duplicate()
    }

    /// Whether trying the same call again later may succeed: the database could not be
    /// reached or was busy (a lost connection, a pool with no connection free in time, SQLite
    /// locked by another writer for longer than its busy timeout, a full disk, PostgreSQL
    /// shutting down, a serialisation failure). A refusal of what was asked (a duplicate, a
    /// wrong status, bad data) is not: it would be refused again.
    pub fn is_transient(&self) -> bool {
        let e = match self {
            StoreError::Database(e) => e,
            StoreError::NotTried | StoreError::Unavailable(_) => return true,
            _ => return false,
        };
        match e {
            sqlx::Error::Io(_)
            | sqlx::Error::PoolTimedOut
            | sqlx::Error::WorkerCrashed
            | sqlx::Error::Tls(_)
            | sqlx::Error::Protocol(_) => true,
            sqlx::Error::Database(db) => {
                let code = db.code();
                let code = code.as_deref().unwrap_or("");
                // SQLite's primary result codes (the extended ones share their low byte):
                // 5 BUSY, 6 LOCKED, 10 IOERR, 13 FULL, 14 CANTOPEN.
                let sqlite = code
                    .parse::<i32>()
                    .is_ok_and(|c| matches!(c & 0xff, 5 | 6 | 10 | 13 | 14));
                // PostgreSQL's SQLSTATE classes: 08 connection exception, 53 insufficient
                // resources, 57P01-57P03 shut down or cannot connect now, 57014 a statement
                // timed out, 55P03 a lock not available, 25006 a read-only transaction (a
                // standby, during a failover), 40001 serialisation failure, 40P01 deadlock.
                let postgres = code.starts_with("08")
                    || code.starts_with("53")
                    || matches!(
                        code,
                        "57P01"
                            | "57P02"
                            | "57P03"
                            | "57014"
                            | "55P03"
                            | "25006"
                            | "40001"
                            | "40P01"
                    );
                sqlite || postgres
            }
            _ => false,
        }
    }
}

#[cfg(test)]
mod tests {
    use super::StoreError;

    #[test]
    fn only_failures_to_reach_the_database_are_transient() {
        let io = std::io::Error::new(std::io::ErrorKind::ConnectionReset, "reset");
        assert!(StoreError::Database(sqlx::Error::Io(io)).is_transient());
        assert!(StoreError::Database(sqlx::Error::PoolTimedOut).is_transient());
        assert!(!StoreError::Database(sqlx::Error::RowNotFound).is_transient());
        assert!(!StoreError::Closed.is_transient());
        assert!(StoreError::NotTried.is_transient());
        assert!(!StoreError::Invalid("x".into()).is_transient());
        let duplicate = StoreError::DuplicatePly {
            match_id: "m".into(),
            ply: 1,
        };
        assert!(!duplicate.is_transient());
        assert!(duplicate.is_duplicate() && !duplicate.is_refusal());
        assert!(StoreError::Held("m".into()).is_refusal());
        assert!(StoreError::MatchExists("m".into()).is_refusal());
        assert!(!StoreError::NotTried.is_refusal());
    }
}
