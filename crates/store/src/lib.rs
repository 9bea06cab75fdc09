//! Durable storage of bughouse matches: seats, moves, events (resignations, draw offers, claims,
//! flag falls), results and the finished record as BPGN.
//!
//! One [`Store`] talks to SQLite or PostgreSQL, chosen at run time by the URL given to
//! [`Store::connect`]: `sqlite://bughouse.db?mode=rwc` (the default of the server; the file is
//! created when missing), `sqlite::memory:` (for tests), or `postgres://user:pass@host/db`. Both
//! backends get the same schema, from migrations embedded in the binary and run at connect.
//! Tournaments run on the server are stored beside the matches ([`StoredTournament`]).
//!
//! # Durability
//!
//! Every write is committed, and on disk, when its future resolves: the server acknowledges a
//! move only after [`Store::record_move`] returned, so an acknowledged move survives a crash of
//! the server, of the machine, or a power cut.
//!
//! - SQLite runs in WAL mode with `synchronous=FULL`: each commit syncs the write-ahead log before
//!   it returns. `synchronous=NORMAL`, the usual partner of WAL, syncs only at checkpoints, so a
//!   power cut or kernel crash can take back the last commits: commits that the server has
//!   already acknowledged to players. FULL costs one `fsync` per write, a fraction of a
//!   millisecond to a few milliseconds, far below the pace of moves; WAL keeps reads (spectators,
//!   the archive) from waiting on writes.
//! - PostgreSQL commits are durable when `synchronous_commit` is `on`; the store sets it on each
//!   of its connections, whatever the server's default.
//!
//! # Example
//!
//! ```
//! # tokio::runtime::Runtime::new().unwrap().block_on(async {
//! use bughouse_store::{NewMatch, Store, StoredMove};
//!
//! let store = Store::connect("sqlite::memory:").await?;
//! store.create_match(&NewMatch {
//!     id: "m1".into(),
//!     rules_preset: "fide".into(),
//!     rules_json: "{}".into(),
//!     base_ms: 300_000,
//!     increment_ms: 0,
//!     created_at_ms: 1_700_000_000_000,
//!     rematch_of: None,
//!     rated: false,
//!     allow_bots: false,
//! }).await?;
//! for (seat, name) in ["ann", "bob", "cid", "dan"].into_iter().enumerate() {
//!     store.set_seat("m1", seat as u8, name, "token-hash", false).await?;
//! }
//! store.start_match("m1", 1_700_000_005_000).await?;
//! store.record_move(&StoredMove {
//!     match_id: "m1".into(),
//!     ply: 0,
//!     seat: 0,
//!     uci: "e2e4".into(),
//!     san: "e4".into(),
//!     at_ms: 1_200,
//!     clock_ms: 298_800,
//!     remaining_ms: [298_800, 300_000, 300_000, 300_000],
//!     action_id: Some(17),
//!     lag_ms: 40,
//! }).await?;
//! let live = store.live_matches().await?;
//! assert_eq!(live[0].moves[0].san, "e4");
//! # Ok::<(), bughouse_store::StoreError>(())
//! # }).unwrap();
//! ```

use std::str::FromStr;
use std::time::Duration;

use sqlx::migrate::Migrator;
use sqlx::postgres::{PgConnectOptions, PgConnection, PgPool, PgPoolOptions};
use sqlx::sqlite::{
    SqliteConnectOptions, SqliteConnection, SqliteJournalMode, SqlitePool, SqlitePoolOptions,
    SqliteSynchronous,
};
use sqlx::Connection;

/// The schema, one set of migrations for both backends (see `migrations/0001_matches.sql`).
static MIGRATOR: Migrator = sqlx::migrate!("./migrations");

/// The number of seats of a match: 0 WhiteA, 1 BlackA, 2 WhiteB, 3 BlackB.
pub const SEATS: u8 = 4;

/// How long a SQLite write waits for another connection's write to finish before failing.
const SQLITE_BUSY_TIMEOUT: Duration = Duration::from_secs(10);

/// How long a store call waits for a free connection of the pool.
const ACQUIRE_TIMEOUT: Duration = Duration::from_secs(30);

mod error;
mod types;
pub use error::StoreError;
pub use types::{
    MatchStatus, NewMatch, StoredEvent, StoredMatch, StoredMove, StoredSeat, StoredTalk,
};

/// The two kinds of database the store runs on.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub enum Backend {
    /// SQLite, a file (or memory) in this process.
    Sqlite,
    /// A PostgreSQL server.
    Postgres,
}

impl Backend {
    /// Which backend a URL names, without opening anything: `sqlite:...`, or `postgres://...` /
    /// `postgresql://...`.
    pub fn of_url(url: &str) -> Option<Backend> {
        let lower = url.to_ascii_lowercase();
        if lower.starts_with("sqlite:") {
            Some(Backend::Sqlite)
        } else if lower.starts_with("postgres://") || lower.starts_with("postgresql://") {
            Some(Backend::Postgres)
        } else {
            None
        }
    }
}

/// The connection pool of one backend.
#[derive(Debug, Clone)]
enum Pool {
    Sqlite(SqlitePool),
    Postgres(PgPool),
}

/// Runs `$body` with `$pool` bound to the pool of whichever backend the store has. The body is
/// written once and compiled for each backend, which keeps the SQL (portable by design) in one
/// place.
macro_rules! with_pool {
    ($store:expr, $pool:ident => $body:expr) => {
        match &$store.pool {
            Pool::Sqlite($pool) => $body,
            Pool::Postgres($pool) => $body,
        }
    };
}

/// A SQLite pool of exactly one connection, open for the store's whole life.
fn one_connection() -> SqlitePoolOptions {
    SqlitePoolOptions::new()
        .max_connections(1)
        .min_connections(1)
        .idle_timeout(None)
        .max_lifetime(None)
}

/// Like [`with_pool!`], with the connection for batches of writes on SQLite.
macro_rules! with_batch_pool {
    ($store:expr, $pool:ident => $body:expr) => {
        match (&$store.pool, &$store.batches) {
            (Pool::Sqlite(_), Some($pool)) => $body,
            (Pool::Sqlite($pool), None) => $body,
            (Pool::Postgres($pool), _) => $body,
        }
    };
}

/// The match store: a pool of connections to SQLite or PostgreSQL. Cheap to clone (clones share
/// the pool); every method may be called from many tasks at once.
#[derive(Debug, Clone)]
pub struct Store {
    pool: Pool,
    /// On a SQLite file, the one connection that batches of writes go through
    /// ([`Store::apply_batch`]).
    batches: Option<SqlitePool>,
    /// On SQLite, what the store remembers of its journal of moves (journal.rs), behind the
    /// lock every write of a move and every read of a match's moves takes.
    journal: Option<std::sync::Arc<tokio::sync::Mutex<journal::Journal>>>,
    /// On a SQLite file, the connection batches of writes go through on the calling thread
    /// (direct.rs); the single writes go through `batches`.
    direct: Option<std::sync::Arc<direct::Direct>>,
}

impl Store {
    /// Opens the database at `url` and brings its schema up to date.
    ///
    /// - `sqlite://PATH?mode=rwc`, `sqlite:PATH`: a SQLite file, created when missing (unless
    ///   the URL sets `mode=` itself). Relative paths are relative to the working directory.
    /// - `sqlite::memory:`: a private database in memory, gone when the last clone of the store
    ///   is dropped (for tests).
    /// - `postgres://USER:PASSWORD@HOST:PORT/DATABASE` (or `postgresql://`): a PostgreSQL
    ///   database, which must exist. Parameters such as `?options=-c%20search_path%3Dbughouse`
    ///   pass through.
    ///
    /// Fails fast with [`StoreError::Connect`] when the database can't be reached (no retries),
    /// and with [`StoreError::Migrate`] when the schema is of a newer program.
    pub async fn connect(url: &str) -> Result<Store, StoreError> {
        let connect_error = |source| StoreError::Connect {
            url: redact_url(url),
            source,
        };
        let (pool, batches, journal, direct) = match Backend::of_url(url) {
            Some(Backend::Sqlite) => {
                let in_memory = url.contains(":memory:") || url.contains("mode=memory");
                let mut options = SqliteConnectOptions::from_str(url)
                    .map_err(connect_error)?
                    .foreign_keys(true)
                    .synchronous(SqliteSynchronous::Full)
                    .busy_timeout(SQLITE_BUSY_TIMEOUT)
                    // SQLite's page cache per connection, 32 MiB (the default is 2 MiB): the moves
                    // of thousands of live matches go into pages all over the moves' index, and
                    // with the default cache every insert read its page back from the file (perf
                    // at 5,000 matches: the writer's thread spent more time in the kernel than
                    // in SQLite). Memory is taken only as pages are used.
                    .pragma("cache_size", "-32768")
                    // Sorts and temporary tables in memory: the journal's fold sorts a few hundred
                    // rows each transaction (journal.rs), which SQLite otherwise writes to a
                    // temporary file in /var/tmp, one per transaction (2 KB a move at 4,900
                    // matches, three times the log's share).
                    .pragma("temp_store", "memory");
                if !in_memory {
                    options = options.journal_mode(SqliteJournalMode::Wal);
                }
                if !url.contains("mode=") {
                    options = options.create_if_missing(true);
                }
                // A first connection alone: it reports a bad path or URL at once, where a pool
                // would retry, and it migrates before anyone else uses the database.
                let mut conn = SqliteConnection::connect_with(&options)
                    .await
                    .map_err(connect_error)?;
                MIGRATOR.run(&mut conn).await?;
                let journal = journal::Journal::open(&mut conn)
                    .await
                    .map_err(connect_error)?;
                let pool_options = if in_memory {
                    // Each connection to a shared-cache memory database locks whole tables, and
                    // the database lives only while a connection is open: keep exactly one.
                    one_connection()
                } else {
                    // Writes take turns anyway; a few connections let reads go on meanwhile.
                    SqlitePoolOptions::new().max_connections(4)
                };
                // The batches' own connection (a file database; in memory there is only one):
                // its page cache stays valid from one transaction to the next. Connections of
                // the pool taking turns would each find their cache stale, since another one
                // wrote meanwhile, and read back every page a transaction touches.
                // The direct connection opens the file read-write with SQLite's defaults: a URL
                // that asks for anything else (read only, immutable, another VFS) goes through
                // sqlx alone.
                let plain = !["mode=ro", "immutable=", "vfs="]
                    .iter()
                    .any(|option| url.contains(option));
                let (batches, direct) = if in_memory {
                    (None, None)
                } else {
                    let pool = one_connection()
                        .acquire_timeout(ACQUIRE_TIMEOUT)
                        .connect_with(options.clone())
                        .await
                        .map_err(connect_error)?;
                    let direct = if plain {
                        let direct =
                            direct::Direct::open(options.get_filename(), SQLITE_BUSY_TIMEOUT)
                                .map_err(|e| StoreError::Connect {
                                    url: redact_url(url),
                                    source: sqlx::Error::Configuration(Box::new(e)),
                                })?;
                        Some(std::sync::Arc::new(direct))
                    } else {
                        None
                    };
                    (Some(pool), direct)
                };
                let pool = pool_options
                    .acquire_timeout(ACQUIRE_TIMEOUT)
                    .connect_with(options)
                    .await
                    .map_err(connect_error)?;
                conn.close().await.map_err(connect_error)?;
                let journal = Some(std::sync::Arc::new(tokio::sync::Mutex::new(journal)));
                (Pool::Sqlite(pool), batches, journal, direct)
            }
            Some(Backend::Postgres) => {
                let options = PgConnectOptions::from_str(url)
                    .map_err(connect_error)?
                    .options([("synchronous_commit", "on")]);
                let mut conn = PgConnection::connect_with(&options)
                    .await
                    .map_err(connect_error)?;
                // Takes an advisory lock: several servers starting at once migrate in turn.
                MIGRATOR.run(&mut conn).await?;
                conn.close().await.map_err(connect_error)?;
                let pool = PgPoolOptions::new()
                    .max_connections(10)
                    .acquire_timeout(ACQUIRE_TIMEOUT)
                    .connect_with(options)
                    .await
                    .map_err(connect_error)?;
                (Pool::Postgres(pool), None, None, None)
            }
            None => return Err(StoreError::UnsupportedUrl(redact_url(url))),
        };
        Ok(Store {
            pool,
            batches,
            journal,
            direct,
        })
    }

    /// The SQLite connection that writes go through when several take turns: the batches' own,
    /// or the pool's one connection in memory (`None` on PostgreSQL).
    fn sqlite_writer(&self) -> Option<&SqlitePool> {
        match (&self.pool, &self.batches) {
            (Pool::Sqlite(_), Some(pool)) | (Pool::Sqlite(pool), None) => Some(pool),
            (Pool::Postgres(_), _) => None,
        }
    }

    /// Which backend this store uses.
    pub fn backend(&self) -> Backend {
        match self.pool {
            Pool::Sqlite(_) => Backend::Sqlite,
            Pool::Postgres(_) => Backend::Postgres,
        }
    }

    /// Closes every connection, waiting for calls in progress to finish; calls made afterwards
    /// fail. Optional: dropping the last clone closes the connections too, only less politely.
    pub async fn close(&self) {
        if let Some(direct) = &self.direct {
            direct.close();
        }
        if let Some(batches) = &self.batches {
            batches.close().await;
        }
        with_pool!(self, pool => pool.close().await)
    }
}

// The modules that run SQL, declared after `with_pool!`, which they use.
mod batch;
mod direct;
mod exclusive;
mod heartbeat;
mod journal;
mod read;
mod tournaments;
mod write;
pub use exclusive::Exclusive;
pub use tournaments::{StoredTournament, TournamentMatch};
mod otb;
pub use otb::{NewOtbTable, OtbResult, StoredOtbEvent, StoredOtbTable};
pub use write::Write;
// Accounts, sessions, seats' accounts; ratings, leaderboards and profiles (issue 13).
mod accounts;
pub use accounts::{Account, AccountError};
mod ratings;
pub use bughouse_rating as rating;
pub use ratings::{
    LeaderboardEntry, MatchRatingChange, MatchRatingChanges, Outcome, PartnerRecord, PlayedMatch,
    RatedMatch, RatedSeat, RatedSeats, RatingPoint, RatingRecord, RulesRecord, SeatPlayer,
    SeatRatingChanges, TeamLeaderboardEntry, TeamRatingChange,
};

fn check_seat(seat: u8) -> Result<(), StoreError> {
    if seat < SEATS {
        Ok(())
    } else {
        Err(StoreError::InvalidSeat(seat))
    }
}

fn check_id(id: &str) -> Result<(), StoreError> {
    if id.is_empty() {
        Err(StoreError::Invalid("empty match id".into()))
    } else {
        Ok(())
    }
}

fn is_unique_violation(e: &sqlx::Error) -> bool {
    matches!(e, sqlx::Error::Database(db) if db.is_unique_violation())
}

/// The URL with its password (user-info or `password=` parameter) replaced by `***`, for error
/// messages and logs.
fn redact_url(url: &str) -> String {
    let mut out = url.to_owned();
    if let Some(scheme_end) = out.find("://") {
        let authority_start = scheme_end + 3;
        let authority_end = out[authority_start..]
            .find(['/', '?', '#'])
            .map_or(out.len(), |i| authority_start + i);
        if let Some(at) = out[authority_start..authority_end].rfind('@') {
            let userinfo = &out[authority_start..authority_start + at];
            if let Some(colon) = userinfo.find(':') {
                out.replace_range(authority_start + colon + 1..authority_start + at, "***");
            }
        }
    }
    if let Some(query_start) = out.find('?') {
        let (head, query) = out.split_at(query_start + 1);
        let query = query
            .split('&')
            .map(|pair| match pair.split_once('=') {
                Some((key, _)) if key.eq_ignore_ascii_case("password") => format!("{key}=***"),
                _ => pair.to_owned(),
            })
            .collect::<Vec<_>>()
            .join("&");
        out = format!("{head}{query}");
    }
    out
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn backend_of_url() {
        assert_eq!(
            Backend::of_url("sqlite://x.db?mode=rwc"),
            Some(Backend::Sqlite)
        );
        assert_eq!(Backend::of_url("sqlite::memory:"), Some(Backend::Sqlite));
        assert_eq!(
            Backend::of_url("postgres://u@h/db"),
            Some(Backend::Postgres)
        );
        assert_eq!(
            Backend::of_url("PostgreSQL://u@h/db"),
            Some(Backend::Postgres)
        );
        assert_eq!(Backend::of_url("mysql://u@h/db"), None);
        assert_eq!(Backend::of_url("bughouse.db"), None);
        assert_eq!(Backend::of_url(""), None);
    }

    #[test]
    fn passwords_are_redacted() {
        assert_eq!(
            redact_url("postgres://bob:s3cr@t@db.example:5432/bh?sslmode=disable"),
            "postgres://bob:***@db.example:5432/bh?sslmode=disable"
        );
        assert_eq!(
            redact_url("postgres://bob@h/bh?password=hunter2&x=1"),
            "postgres://bob@h/bh?password=***&x=1"
        );
        assert_eq!(redact_url("postgres://h/bh"), "postgres://h/bh");
        assert_eq!(
            redact_url("sqlite://bughouse.db?mode=rwc"),
            "sqlite://bughouse.db?mode=rwc"
        );
        assert_eq!(redact_url("no url at all"), "no url at all");
    }

    #[test]
    fn status_compares_with_strings() {
        assert!(MatchStatus::Playing == "playing");
        assert!(MatchStatus::Waiting != "playing");
        assert_eq!(
            "finished".parse::<MatchStatus>().unwrap(),
            MatchStatus::Finished
        );
        assert!(matches!(
            "over".parse::<MatchStatus>(),
            Err(StoreError::Corrupt(_))
        ));
    }

    /// The durability settings really reach every SQLite connection.
    #[tokio::test]
    async fn sqlite_runs_wal_with_full_sync() {
        let dir = tempfile::tempdir().unwrap();
        let url = format!("sqlite://{}", dir.path().join("pragmas.db").display());
        let store = Store::connect(&url).await.unwrap();
        let Pool::Sqlite(pool) = &store.pool else {
            panic!("not SQLite")
        };
        for _ in 0..3 {
            let mut conn = pool.acquire().await.unwrap();
            let mode: String = sqlx::query_scalar("PRAGMA journal_mode")
                .fetch_one(&mut *conn)
                .await
                .unwrap();
            let sync: i64 = sqlx::query_scalar("PRAGMA synchronous")
                .fetch_one(&mut *conn)
                .await
                .unwrap();
            let fk: i64 = sqlx::query_scalar("PRAGMA foreign_keys")
                .fetch_one(&mut *conn)
                .await
                .unwrap();
            assert_eq!((mode.as_str(), sync, fk), ("wal", 2, 1));
        }
        assert!(dir.path().join("pragmas.db").exists());
    }

    /// PostgreSQL connections commit synchronously whatever the server's default (this one runs
    /// only with a test PostgreSQL; tests/store.rs insists on one under CI).
    #[tokio::test]
    async fn postgres_commits_synchronously() {
        let Ok(url) = std::env::var("BUGHOUSE_TEST_POSTGRES_URL") else {
            return;
        };
        // Even when the URL asks otherwise.
        let sep = if url.contains('?') { '&' } else { '?' };
        let url = format!("{url}{sep}options=-c%20synchronous_commit%3Doff");
        let store = Store::connect(&url).await.unwrap();
        let Pool::Postgres(pool) = &store.pool else {
            panic!("not PostgreSQL")
        };
        let setting: String = sqlx::query_scalar("SHOW synchronous_commit")
            .fetch_one(pool)
            .await
            .unwrap();
        assert_eq!(setting, "on");
    }
}
