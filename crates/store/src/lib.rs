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

use std::collections::HashMap;
use std::fmt;
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
    /// An argument that can't be stored: an empty match id, a negative ply or time, ...
    #[error("invalid argument: {0}")]
    Invalid(String),
    /// The database holds something this program cannot read (written by hand or by another
    /// program).
    #[error("unexpected data in the database: {0}")]
    Corrupt(String),
    /// Any other database failure (lost connection, disk full, ...).
    #[error("database error: {0}")]
    Database(#[from] sqlx::Error),
}

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

/// Where a match is in its life.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub enum MatchStatus {
    /// Created, seats filling; no move yet.
    Waiting,
    /// Started: clocks run, moves are recorded.
    Playing,
    /// Over: the result and the BPGN are stored; nothing changes any more.
    Finished,
}

impl MatchStatus {
    /// `waiting`, `playing` or `finished`, as in the protocol's `state.status`.
    pub fn as_str(self) -> &'static str {
        match self {
            MatchStatus::Waiting => "waiting",
            MatchStatus::Playing => "playing",
            MatchStatus::Finished => "finished",
        }
    }
}

impl fmt::Display for MatchStatus {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(self.as_str())
    }
}

impl FromStr for MatchStatus {
    type Err = StoreError;

    fn from_str(s: &str) -> Result<Self, Self::Err> {
        match s {
            "waiting" => Ok(MatchStatus::Waiting),
            "playing" => Ok(MatchStatus::Playing),
            "finished" => Ok(MatchStatus::Finished),
            _ => Err(StoreError::Corrupt(format!("unknown match status {s:?}"))),
        }
    }
}

/// So that `m.status == "playing"` reads as it would with a string.
impl PartialEq<str> for MatchStatus {
    fn eq(&self, other: &str) -> bool {
        self.as_str() == other
    }
}

/// So that `m.status == "playing"` reads as it would with a string.
impl PartialEq<&str> for MatchStatus {
    fn eq(&self, other: &&str) -> bool {
        self.as_str() == *other
    }
}

/// A match as created, before anyone sits.
#[derive(Debug, Clone, PartialEq, Eq, Default)]
pub struct NewMatch {
    /// The match id (non-empty; the server makes it up).
    pub id: String,
    /// The rules preset id (`fide`, `minerva-2014`, `knsb-1988`, `uscf-scholastic-2006`) or
    /// `custom`.
    pub rules_preset: String,
    /// The full rules as JSON, as the server serialises them; stored as given.
    pub rules_json: String,
    /// Each player's initial time, in milliseconds (at least 0).
    pub base_ms: i64,
    /// The increment per move, in milliseconds (at least 0).
    pub increment_ms: i64,
    /// When the match was created, Unix milliseconds.
    pub created_at_ms: i64,
    /// The match this one is a rematch of, if any.
    pub rematch_of: Option<String>,
}

/// A taken seat.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct StoredSeat {
    /// The player's name.
    pub name: String,
    /// A hash of the seat's secret token (the store never sees the token).
    pub token_hash: String,
    /// Whether a bot plays the seat.
    pub bot: bool,
}

/// One move of a match record.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct StoredMove {
    /// The match.
    pub match_id: String,
    /// The index in the match record (both boards, in the order played), from 0. Unique per
    /// match.
    pub ply: i64,
    /// The seat that moved, 0..4 (WhiteA, BlackA, WhiteB, BlackB).
    pub seat: u8,
    /// The move in UCI (`e2e4`, `N@f3`).
    pub uci: String,
    /// The move in SAN with `+`/`#`.
    pub san: String,
    /// Server time of the move, in milliseconds since the match started.
    pub at_ms: i64,
    /// The mover's time left after the move (increment included), in milliseconds.
    pub clock_ms: i64,
    /// All four clocks right after the move, in seat order, in milliseconds.
    pub remaining_ms: [i64; 4],
    /// The client's id of the action, if it sent one.
    pub action_id: Option<i64>,
    /// The lag compensation the move was given, in milliseconds.
    pub lag_ms: i64,
}

/// Something besides a move that changes a match's course: a resignation, a draw offer or its
/// withdrawal, a draw claim, a flag fall. Stored in order with the ply it happened at, so that a
/// restarted server replays moves and events exactly as they happened.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct StoredEvent {
    /// The match.
    pub match_id: String,
    /// The event's place among the match's events, from 0. Unique per match; events are read
    /// back in this order.
    pub seq: i64,
    /// How many moves the record held when the event happened (so it comes after the move with
    /// ply `ply - 1` and before the move with ply `ply`).
    pub ply: i64,
    /// The seat that acted (or whose flag fell), 0..4.
    pub seat: u8,
    /// What happened, chosen by the server: `resign`, `offer_draw`, `withdraw_draw`,
    /// `claim_draw`, `flag`, ...
    pub kind: String,
    /// Details for the kind, free text chosen by the server (`repetition` for a claim, or empty).
    pub detail: String,
    /// Server time of the event, in milliseconds since the match started.
    pub at_ms: i64,
    /// The client's id of the action, if it sent one.
    pub action_id: Option<i64>,
}

/// One message of partner talk.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct StoredTalk {
    /// The match.
    pub match_id: String,
    /// Its place among the match's talk (both teams), from 0. Unique per match.
    pub seq: i64,
    /// The seat that spoke, 0..4.
    pub seat: u8,
    /// `need`, `dont_give`, `sit`, `go`, `flag` or `text`.
    pub kind: String,
    /// The piece letter, for `need` and `dont_give`.
    pub piece: Option<String>,
    /// The text, for `text`.
    pub text: Option<String>,
    /// Match time, in milliseconds.
    pub at_ms: i64,
    /// The client's id of the action, if it sent one.
    pub action_id: Option<i64>,
}

/// A match as stored: what it was created with, its seats, its record, and how it ended.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct StoredMatch {
    /// The match id.
    pub id: String,
    /// The rules preset id, or `custom`.
    pub rules_preset: String,
    /// The full rules as JSON.
    pub rules_json: String,
    /// Each player's initial time, in milliseconds.
    pub base_ms: i64,
    /// The increment per move, in milliseconds.
    pub increment_ms: i64,
    /// When the match was created, Unix milliseconds.
    pub created_at_ms: i64,
    /// The match this one is a rematch of, if any.
    pub rematch_of: Option<String>,
    /// When play started, Unix milliseconds; `None` while waiting (and for a match that ended
    /// before it started).
    pub started_at_ms: Option<i64>,
    /// Waiting, playing or finished. Compares with strings: `m.status == "playing"`.
    pub status: MatchStatus,
    /// The seats, in order WhiteA, BlackA, WhiteB, BlackB; `None` for a free seat.
    pub seats: [Option<StoredSeat>; 4],
    /// Every move, ordered by ply.
    pub moves: Vec<StoredMove>,
    /// Every event, ordered by seq.
    pub events: Vec<StoredEvent>,
    /// The partner talk, ordered by seq.
    pub talk: Vec<StoredTalk>,
    /// Unix milliseconds at which the match's time was 0, as last set
    /// ([`Store::set_clock_anchor`]).
    pub clock_anchor_ms: Option<i64>,
    /// `1-0`, `0-1` or `1/2-1/2` once finished.
    pub result: Option<String>,
    /// Why it ended, in words, once finished.
    pub reason: Option<String>,
    /// Each board's result from its White side (`*` for a board stopped by the other), once
    /// finished.
    pub board_results: Option<[String; 2]>,
    /// When it ended, Unix milliseconds, once finished.
    pub finished_at_ms: Option<i64>,
}

impl StoredMatch {
    /// What the match was created with (for a rematch with the same settings, say).
    pub fn to_new_match(&self) -> NewMatch {
        NewMatch {
            id: self.id.clone(),
            rules_preset: self.rules_preset.clone(),
            rules_json: self.rules_json.clone(),
            base_ms: self.base_ms,
            increment_ms: self.increment_ms,
            created_at_ms: self.created_at_ms,
            rematch_of: self.rematch_of.clone(),
        }
    }
}

/// Records one move, only while its match is playing (shared by the single write and the batch).
pub(crate) const INSERT_MOVE: &str = "INSERT INTO moves (match_id, ply, seat, uci, san, at_ms, \
     clock_ms, remaining_0, remaining_1, remaining_2, remaining_3, action_id, lag_ms) \
     SELECT $1, $2, $3, $4, $5, $6, $7, $8, $9, $10, $11, $12, $13 \
     WHERE EXISTS (SELECT 1 FROM matches WHERE id = $1 AND status = 'playing')";

/// Records one event, only while its match is playing (shared by the single write and the batch).
pub(crate) const INSERT_EVENT: &str =
    "INSERT INTO events (match_id, seq, ply, seat, kind, detail, \
     at_ms, action_id) SELECT $1, $2, $3, $4, $5, $6, $7, $8 \
     WHERE EXISTS (SELECT 1 FROM matches WHERE id = $1 AND status = 'playing')";

/// Records one message of partner talk (players may talk after the end too).
pub(crate) const INSERT_TALK: &str =
    "INSERT INTO talk (match_id, seq, seat, kind, piece, text, at_ms, action_id) \
     SELECT $1, $2, $3, $4, $5, $6, $7, $8 WHERE EXISTS (SELECT 1 FROM matches WHERE id = $1)";

/// Sets a match's clock anchor.
pub(crate) const SET_ANCHOR: &str = "UPDATE matches SET clock_anchor_ms = $2 WHERE id = $1";

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

/// The match store: a pool of connections to SQLite or PostgreSQL. Cheap to clone (clones share
/// the pool); every method may be called from many tasks at once.
#[derive(Debug, Clone)]
pub struct Store {
    pool: Pool,
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
        let pool = match Backend::of_url(url) {
            Some(Backend::Sqlite) => {
                let in_memory = url.contains(":memory:") || url.contains("mode=memory");
                let mut options = SqliteConnectOptions::from_str(url)
                    .map_err(connect_error)?
                    .foreign_keys(true)
                    .synchronous(SqliteSynchronous::Full)
                    .busy_timeout(SQLITE_BUSY_TIMEOUT);
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
                let pool_options = if in_memory {
                    // Each connection to a shared-cache memory database locks whole tables, and
                    // the database lives only while a connection is open: keep exactly one.
                    SqlitePoolOptions::new()
                        .max_connections(1)
                        .min_connections(1)
                        .idle_timeout(None)
                        .max_lifetime(None)
                } else {
                    // Writes take turns anyway; a few connections let reads go on meanwhile.
                    SqlitePoolOptions::new().max_connections(4)
                };
                let pool = pool_options
                    .acquire_timeout(ACQUIRE_TIMEOUT)
                    .connect_with(options)
                    .await
                    .map_err(connect_error)?;
                conn.close().await.map_err(connect_error)?;
                Pool::Sqlite(pool)
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
                Pool::Postgres(pool)
            }
            None => return Err(StoreError::UnsupportedUrl(redact_url(url))),
        };
        Ok(Store { pool })
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
        with_pool!(self, pool => pool.close().await)
    }

    /// Stores a new match, status `waiting`, no seats taken.
    ///
    /// Errors: [`StoreError::MatchExists`] if the id is taken, [`StoreError::Invalid`] for an
    /// empty id or negative times.
    pub async fn create_match(&self, m: &NewMatch) -> Result<(), StoreError> {
        check_id(&m.id)?;
        if m.base_ms < 0 || m.increment_ms < 0 {
            return Err(StoreError::Invalid(format!(
                "negative time control {}+{} ms",
                m.base_ms, m.increment_ms
            )));
        }
        let done = with_pool!(self, pool => {
            sqlx::query(
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
            .bind(&m.rematch_of)
            .execute(pool)
            .await
            .map(|done| done.rows_affected())
        });
        match done {
            Err(e) if is_unique_violation(&e) => Err(StoreError::MatchExists(m.id.clone())),
            other => other.map(drop).map_err(StoreError::from),
        }
    }

    /// Gives `seat` (0..4 = WhiteA, BlackA, WhiteB, BlackB) to a player, replacing whoever had
    /// it. Allowed until the match is finished.
    pub async fn set_seat(
        &self,
        match_id: &str,
        seat: u8,
        name: &str,
        token_hash: &str,
        bot: bool,
    ) -> Result<(), StoreError> {
        check_seat(seat)?;
        let done = with_pool!(self, pool => {
            // One statement, so that the status check and the write can't be separated by
            // another writer (and SQLite never has to upgrade a read lock).
            sqlx::query(
                "INSERT INTO seats (match_id, seat, name, token_hash, bot) \
                 SELECT $1, $2, $3, $4, $5 \
                 WHERE EXISTS (SELECT 1 FROM matches WHERE id = $1 AND status <> 'finished') \
                 ON CONFLICT (match_id, seat) DO UPDATE \
                 SET name = excluded.name, token_hash = excluded.token_hash, bot = excluded.bot",
            )
            .bind(match_id)
            .bind(i64::from(seat))
            .bind(name)
            .bind(token_hash)
            .bind(bot)
            .execute(pool)
            .await?
            .rows_affected()
        });
        if done == 0 {
            return Err(self.refusal(match_id, "change a seat").await);
        }
        Ok(())
    }

    /// Frees `seat`. Freeing a free seat is no error. Allowed until the match is finished.
    pub async fn clear_seat(&self, match_id: &str, seat: u8) -> Result<(), StoreError> {
        check_seat(seat)?;
        let done = with_pool!(self, pool => {
            sqlx::query(
                "DELETE FROM seats WHERE match_id = $1 AND seat = $2 \
                 AND EXISTS (SELECT 1 FROM matches WHERE id = $1 AND status <> 'finished')",
            )
            .bind(match_id)
            .bind(i64::from(seat))
            .execute(pool)
            .await?
            .rows_affected()
        });
        if done == 0 {
            match self.status(match_id).await? {
                None => return Err(StoreError::NoSuchMatch(match_id.to_owned())),
                Some(MatchStatus::Finished) => {
                    return Err(StoreError::WrongStatus {
                        match_id: match_id.to_owned(),
                        status: MatchStatus::Finished,
                        action: "change a seat",
                    })
                }
                Some(_) => {} // the seat was free already
            }
        }
        Ok(())
    }

    /// Marks a waiting match as playing, started at `started_at_ms` (Unix milliseconds).
    pub async fn start_match(&self, match_id: &str, started_at_ms: i64) -> Result<(), StoreError> {
        let done = with_pool!(self, pool => {
            sqlx::query(
                "UPDATE matches SET status = 'playing', started_at_ms = $2 \
                 WHERE id = $1 AND status = 'waiting'",
            )
            .bind(match_id)
            .bind(started_at_ms)
            .execute(pool)
            .await?
            .rows_affected()
        });
        if done == 0 {
            return Err(self.refusal(match_id, "start the match").await);
        }
        Ok(())
    }

    /// Appends a move to a playing match's record. Durable when this returns.
    ///
    /// Errors: [`StoreError::DuplicatePly`] if the match has a move with this ply already (the
    /// stored move stays as it was), [`StoreError::WrongStatus`] unless the match is playing.
    pub async fn record_move(&self, mv: &StoredMove) -> Result<(), StoreError> {
        check_seat(mv.seat)?;
        if mv.ply < 0 {
            return Err(StoreError::Invalid(format!("negative ply {}", mv.ply)));
        }
        let done = with_pool!(self, pool => {
            sqlx::query(
                INSERT_MOVE,
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
            .bind(mv.lag_ms)
            .execute(pool)
            .await
            .map(|done| done.rows_affected())
        });
        match done {
            Err(e) if is_unique_violation(&e) => Err(StoreError::DuplicatePly {
                match_id: mv.match_id.clone(),
                ply: mv.ply,
            }),
            Err(e) => Err(e.into()),
            Ok(0) => Err(self.refusal(&mv.match_id, "record a move").await),
            Ok(_) => Ok(()),
        }
    }

    /// Appends an event (resignation, draw offer, withdrawal, claim, flag fall) to a playing
    /// match. Durable when this returns.
    ///
    /// Errors: [`StoreError::DuplicateEvent`] if the match has an event with this seq already,
    /// [`StoreError::WrongStatus`] unless the match is playing.
    pub async fn record_event(&self, ev: &StoredEvent) -> Result<(), StoreError> {
        check_seat(ev.seat)?;
        if ev.seq < 0 || ev.ply < 0 {
            return Err(StoreError::Invalid(format!(
                "negative seq {} or ply {}",
                ev.seq, ev.ply
            )));
        }
        let done = with_pool!(self, pool => {
            sqlx::query(
                INSERT_EVENT,
            )
            .bind(&ev.match_id)
            .bind(ev.seq)
            .bind(ev.ply)
            .bind(i64::from(ev.seat))
            .bind(&ev.kind)
            .bind(&ev.detail)
            .bind(ev.at_ms)
            .bind(ev.action_id)
            .execute(pool)
            .await
            .map(|done| done.rows_affected())
        });
        match done {
            Err(e) if is_unique_violation(&e) => Err(StoreError::DuplicateEvent {
                match_id: ev.match_id.clone(),
                seq: ev.seq,
            }),
            Err(e) => Err(e.into()),
            Ok(0) => Err(self.refusal(&ev.match_id, "record an event").await),
            Ok(_) => Ok(()),
        }
    }

    /// Appends a message of partner talk to a match's record. Durable when this returns.
    ///
    /// Errors: [`StoreError::NoSuchMatch`], [`StoreError::DuplicateEvent`] if the match has
    /// talk with this seq already.
    pub async fn record_talk(&self, t: &StoredTalk) -> Result<(), StoreError> {
        check_seat(t.seat)?;
        if t.seq < 0 {
            return Err(StoreError::Invalid(format!("negative talk seq {}", t.seq)));
        }
        let done = with_pool!(self, pool => {
            sqlx::query(INSERT_TALK)
                .bind(&t.match_id)
                .bind(t.seq)
                .bind(i64::from(t.seat))
                .bind(&t.kind)
                .bind(&t.piece)
                .bind(&t.text)
                .bind(t.at_ms)
                .bind(t.action_id)
                .execute(pool)
                .await
                .map(|done| done.rows_affected())
        });
        match done {
            Err(e) if is_unique_violation(&e) => Err(StoreError::DuplicateEvent {
                match_id: t.match_id.clone(),
                seq: t.seq,
            }),
            Err(e) => Err(e.into()),
            Ok(0) => Err(StoreError::NoSuchMatch(t.match_id.clone())),
            Ok(_) => Ok(()),
        }
    }

    /// Records the Unix milliseconds at which a match's time was 0 for the server now running
    /// it (set at the start and again at each restore).
    pub async fn set_clock_anchor(&self, match_id: &str, anchor_ms: i64) -> Result<(), StoreError> {
        let done = with_pool!(self, pool => {
            sqlx::query(SET_ANCHOR)
                .bind(match_id)
                .bind(anchor_ms)
                .execute(pool)
                .await?
                .rows_affected()
        });
        if done == 0 {
            return Err(StoreError::NoSuchMatch(match_id.to_owned()));
        }
        Ok(())
    }

    /// Records that server `node` is alive at `alive_at_ms` (Unix milliseconds).
    pub async fn heartbeat(&self, node: &str, alive_at_ms: i64) -> Result<(), StoreError> {
        with_pool!(self, pool => {
            sqlx::query(
                "INSERT INTO heartbeats (node, alive_at_ms) VALUES ($1, $2) \
                 ON CONFLICT (node) DO UPDATE SET alive_at_ms = excluded.alive_at_ms",
            )
            .bind(node)
            .bind(alive_at_ms)
            .execute(pool)
            .await
            .map(drop)?
        });
        Ok(())
    }

    /// When server `node` was last alive (Unix milliseconds), if it ever wrote a heartbeat.
    pub async fn last_alive(&self, node: &str) -> Result<Option<i64>, StoreError> {
        Ok(with_pool!(self, pool => {
            sqlx::query_scalar("SELECT alive_at_ms FROM heartbeats WHERE node = $1")
                .bind(node)
                .fetch_optional(pool)
                .await?
        }))
    }

    /// Ends a match (waiting or playing) with its result (`1-0`, `0-1`, `1/2-1/2`), the reason in
    /// words, each board's result from its White side (`*` if stopped), the record as BPGN, and
    /// the time (Unix milliseconds). Durable when this returns; the match then shows in
    /// [`Store::archive`] and no longer in [`Store::live_matches`].
    ///
    /// Errors: [`StoreError::WrongStatus`] if it is finished already.
    pub async fn finish_match(
        &self,
        match_id: &str,
        result: &str,
        reason: &str,
        board_results: [&str; 2],
        bpgn: &str,
        finished_at_ms: i64,
    ) -> Result<(), StoreError> {
        let done = with_pool!(self, pool => {
            sqlx::query(
                "UPDATE matches SET status = 'finished', result = $2, reason = $3, \
                 board_result_a = $4, board_result_b = $5, bpgn = $6, finished_at_ms = $7 \
                 WHERE id = $1 AND status <> 'finished'",
            )
            .bind(match_id)
            .bind(result)
            .bind(reason)
            .bind(board_results[0])
            .bind(board_results[1])
            .bind(bpgn)
            .bind(finished_at_ms)
            .execute(pool)
            .await?
            .rows_affected()
        });
        if done == 0 {
            return Err(self.refusal(match_id, "finish the match").await);
        }
        Ok(())
    }

    /// Every match not finished (waiting or playing), oldest first, each with its seats, moves
    /// (by ply) and events (by seq): what a restarting server resumes.
    pub async fn live_matches(&self) -> Result<Vec<StoredMatch>, StoreError> {
        self.load(None).await
    }

    /// One match with its seats, moves and events, or `None` if there is no such match.
    pub async fn load_match(&self, match_id: &str) -> Result<Option<StoredMatch>, StoreError> {
        Ok(self.load(Some(match_id)).await?.into_iter().next())
    }

    /// Finished matches, newest first (ties by id, descending), skipping `offset` and returning
    /// at most `limit`. Both must be at least 0.
    pub async fn archive(
        &self,
        limit: i64,
        offset: i64,
    ) -> Result<Vec<bughouse_protocol::ArchiveEntry>, StoreError> {
        if limit < 0 || offset < 0 {
            return Err(StoreError::Invalid(format!(
                "negative limit {limit} or offset {offset}"
            )));
        }
        let rows: Vec<ArchiveRow> = with_pool!(self, pool => {
            sqlx::query_as(
                "SELECT m.id, m.rules_preset, m.result, m.finished_at_ms, \
                 s0.name AS player_0, s1.name AS player_1, s2.name AS player_2, \
                 s3.name AS player_3 \
                 FROM matches m \
                 LEFT JOIN seats s0 ON s0.match_id = m.id AND s0.seat = 0 \
                 LEFT JOIN seats s1 ON s1.match_id = m.id AND s1.seat = 1 \
                 LEFT JOIN seats s2 ON s2.match_id = m.id AND s2.seat = 2 \
                 LEFT JOIN seats s3 ON s3.match_id = m.id AND s3.seat = 3 \
                 WHERE m.status = 'finished' \
                 ORDER BY m.finished_at_ms DESC, m.id DESC \
                 LIMIT $1 OFFSET $2",
            )
            .bind(limit)
            .bind(offset)
            .fetch_all(pool)
            .await?
        });
        rows.into_iter()
            .map(|row| {
                let (Some(result), Some(finished_at)) = (row.result, row.finished_at_ms) else {
                    return Err(StoreError::Corrupt(format!(
                        "finished match {:?} without result or end time",
                        row.id
                    )));
                };
                Ok(bughouse_protocol::ArchiveEntry {
                    match_id: row.id,
                    rules: row.rules_preset,
                    players: [row.player_0, row.player_1, row.player_2, row.player_3],
                    result,
                    finished_at,
                })
            })
            .collect()
    }

    /// The BPGN record of a finished match; `None` if there is no such match or it is not
    /// finished.
    pub async fn bpgn(&self, match_id: &str) -> Result<Option<String>, StoreError> {
        let bpgn: Option<Option<String>> = with_pool!(self, pool => {
            sqlx::query_scalar("SELECT bpgn FROM matches WHERE id = $1")
                .bind(match_id)
                .fetch_optional(pool)
                .await?
        });
        Ok(bpgn.flatten())
    }

    /// The status of a match, `None` if there is no such match.
    async fn status(&self, match_id: &str) -> Result<Option<MatchStatus>, StoreError> {
        let status: Option<String> = with_pool!(self, pool => {
            sqlx::query_scalar("SELECT status FROM matches WHERE id = $1")
                .bind(match_id)
                .fetch_optional(pool)
                .await?
        });
        status.map(|s| s.parse()).transpose()
    }

    /// Why a conditional write changed nothing: no such match, or a match in the wrong status.
    async fn refusal(&self, match_id: &str, action: &'static str) -> StoreError {
        match self.status(match_id).await {
            Ok(None) => StoreError::NoSuchMatch(match_id.to_owned()),
            Ok(Some(status)) => StoreError::WrongStatus {
                match_id: match_id.to_owned(),
                status,
                action,
            },
            Err(e) => e,
        }
    }

    /// Loads one match (`Some(id)`) or every live one (`None`), in one read transaction so that
    /// the match, its seats, moves and events are of the same moment.
    async fn load(&self, one: Option<&str>) -> Result<Vec<StoredMatch>, StoreError> {
        // Only two fixed conditions are ever spliced in; values go through binds.
        let filter = if one.is_some() {
            "id = $1"
        } else {
            "status IN ('waiting', 'playing')"
        };
        let match_sql = format!(
            "SELECT id, rules_preset, rules_json, base_ms, increment_ms, created_at_ms, \
             rematch_of, status, started_at_ms, finished_at_ms, result, reason, board_result_a, \
             board_result_b, clock_anchor_ms FROM matches WHERE {filter} ORDER BY created_at_ms, id"
        );
        let seat_sql = format!(
            "SELECT match_id, seat, name, token_hash, bot FROM seats \
             WHERE match_id IN (SELECT id FROM matches WHERE {filter})"
        );
        let move_sql = format!(
            "SELECT match_id, ply, seat, uci, san, at_ms, clock_ms, \
             remaining_0, remaining_1, remaining_2, remaining_3, action_id, lag_ms FROM moves \
             WHERE match_id IN (SELECT id FROM matches WHERE {filter}) ORDER BY match_id, ply"
        );
        let event_sql = format!(
            "SELECT match_id, seq, ply, seat, kind, detail, at_ms, action_id FROM events \
             WHERE match_id IN (SELECT id FROM matches WHERE {filter}) ORDER BY match_id, seq"
        );
        let talk_sql = format!(
            "SELECT match_id, seq, seat, kind, piece, text, at_ms, action_id FROM talk \
             WHERE match_id IN (SELECT id FROM matches WHERE {filter}) ORDER BY match_id, seq"
        );
        let postgres = self.backend() == Backend::Postgres;
        let (matches, seats, moves, events, talk) = with_pool!(self, pool => {
            let mut tx = pool.begin().await?;
            if postgres {
                // PostgreSQL's default isolation takes a new snapshot per statement. (SQLite's
                // transaction reads one snapshot from its first read on.)
                sqlx::query("SET TRANSACTION ISOLATION LEVEL REPEATABLE READ, READ ONLY")
                    .execute(&mut *tx)
                    .await?;
            }
            // `$1` is in the filter only when loading one match.
            macro_rules! fetch {
                ($sql:expr) => {{
                    let query = sqlx::query_as($sql);
                    let query = match one {
                        Some(id) => query.bind(id),
                        None => query,
                    };
                    query.fetch_all(&mut *tx).await?
                }};
            }
            let matches: Vec<MatchRow> = fetch!(&match_sql);
            #[allow(clippy::type_complexity)]
            let (seats, moves, events, talk): (
                Vec<SeatRow>,
                Vec<MoveRow>,
                Vec<EventRow>,
                Vec<TalkRow>,
            ) = if matches.is_empty() {
                Default::default()
            } else {
                (
                    fetch!(&seat_sql),
                    fetch!(&move_sql),
                    fetch!(&event_sql),
                    fetch!(&talk_sql),
                )
            };
            tx.commit().await?;
            (matches, seats, moves, events, talk)
        });

        let mut index = HashMap::with_capacity(matches.len());
        let mut out = Vec::with_capacity(matches.len());
        for row in matches {
            index.insert(row.id.clone(), out.len());
            out.push(row.into_match()?);
        }
        // Rows of a match missing from `index` can only come from a match that disappeared
        // between statements, which the snapshot rules out; skip them rather than fail.
        for row in seats {
            let seat = seat_index(row.seat, &row.match_id)?;
            if let Some(&i) = index.get(&row.match_id) {
                out[i].seats[usize::from(seat)] = Some(StoredSeat {
                    name: row.name,
                    token_hash: row.token_hash,
                    bot: row.bot,
                });
            }
        }
        for row in moves {
            if let Some(&i) = index.get(&row.match_id) {
                let mv = row.into_move()?;
                out[i].moves.push(mv);
            }
        }
        for row in events {
            if let Some(&i) = index.get(&row.match_id) {
                let ev = row.into_event()?;
                out[i].events.push(ev);
            }
        }
        for row in talk {
            if let Some(&i) = index.get(&row.match_id) {
                let t = row.into_talk()?;
                out[i].talk.push(t);
            }
        }
        Ok(out)
    }
}

#[derive(sqlx::FromRow)]
struct MatchRow {
    id: String,
    rules_preset: String,
    rules_json: String,
    base_ms: i64,
    increment_ms: i64,
    created_at_ms: i64,
    rematch_of: Option<String>,
    status: String,
    started_at_ms: Option<i64>,
    finished_at_ms: Option<i64>,
    result: Option<String>,
    reason: Option<String>,
    board_result_a: Option<String>,
    board_result_b: Option<String>,
    clock_anchor_ms: Option<i64>,
}

impl MatchRow {
    fn into_match(self) -> Result<StoredMatch, StoreError> {
        let board_results = match (self.board_result_a, self.board_result_b) {
            (Some(a), Some(b)) => Some([a, b]),
            _ => None,
        };
        Ok(StoredMatch {
            status: self.status.parse()?,
            id: self.id,
            rules_preset: self.rules_preset,
            rules_json: self.rules_json,
            base_ms: self.base_ms,
            increment_ms: self.increment_ms,
            created_at_ms: self.created_at_ms,
            rematch_of: self.rematch_of,
            started_at_ms: self.started_at_ms,
            seats: Default::default(),
            moves: Vec::new(),
            events: Vec::new(),
            talk: Vec::new(),
            clock_anchor_ms: self.clock_anchor_ms,
            result: self.result,
            reason: self.reason,
            board_results,
            finished_at_ms: self.finished_at_ms,
        })
    }
}

#[derive(sqlx::FromRow)]
struct SeatRow {
    match_id: String,
    seat: i64,
    name: String,
    token_hash: String,
    bot: bool,
}

#[derive(sqlx::FromRow)]
struct MoveRow {
    match_id: String,
    ply: i64,
    seat: i64,
    uci: String,
    san: String,
    at_ms: i64,
    clock_ms: i64,
    remaining_0: i64,
    remaining_1: i64,
    remaining_2: i64,
    remaining_3: i64,
    action_id: Option<i64>,
    lag_ms: i64,
}

impl MoveRow {
    fn into_move(self) -> Result<StoredMove, StoreError> {
        Ok(StoredMove {
            seat: seat_index(self.seat, &self.match_id)?,
            match_id: self.match_id,
            ply: self.ply,
            uci: self.uci,
            san: self.san,
            at_ms: self.at_ms,
            clock_ms: self.clock_ms,
            remaining_ms: [
                self.remaining_0,
                self.remaining_1,
                self.remaining_2,
                self.remaining_3,
            ],
            action_id: self.action_id,
            lag_ms: self.lag_ms,
        })
    }
}

#[derive(sqlx::FromRow)]
struct EventRow {
    match_id: String,
    seq: i64,
    ply: i64,
    seat: i64,
    kind: String,
    detail: String,
    at_ms: i64,
    action_id: Option<i64>,
}

impl EventRow {
    fn into_event(self) -> Result<StoredEvent, StoreError> {
        Ok(StoredEvent {
            seat: seat_index(self.seat, &self.match_id)?,
            match_id: self.match_id,
            seq: self.seq,
            ply: self.ply,
            kind: self.kind,
            detail: self.detail,
            at_ms: self.at_ms,
            action_id: self.action_id,
        })
    }
}

#[derive(sqlx::FromRow)]
struct TalkRow {
    match_id: String,
    seq: i64,
    seat: i64,
    kind: String,
    piece: Option<String>,
    text: Option<String>,
    at_ms: i64,
    action_id: Option<i64>,
}

impl TalkRow {
    fn into_talk(self) -> Result<StoredTalk, StoreError> {
        Ok(StoredTalk {
            seat: seat_index(self.seat, &self.match_id)?,
            match_id: self.match_id,
            seq: self.seq,
            kind: self.kind,
            piece: self.piece,
            text: self.text,
            at_ms: self.at_ms,
            action_id: self.action_id,
        })
    }
}

#[derive(sqlx::FromRow)]
struct ArchiveRow {
    id: String,
    rules_preset: String,
    result: Option<String>,
    finished_at_ms: Option<i64>,
    player_0: Option<String>,
    player_1: Option<String>,
    player_2: Option<String>,
    player_3: Option<String>,
}

/// A seat number read from the database, checked.
fn seat_index(seat: i64, match_id: &str) -> Result<u8, StoreError> {
    u8::try_from(seat)
        .ok()
        .filter(|&s| s < SEATS)
        .ok_or_else(|| StoreError::Corrupt(format!("match {match_id:?} has a seat {seat}")))
}

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

// Several writes in one transaction (declared here, after `with_pool!`, which it uses).
mod batch;
pub use batch::Write;
mod tournaments;
pub use tournaments::{StoredTournament, TournamentMatch};
// Accounts, sessions, seats' accounts; ratings, leaderboards and profiles (issue 13).
mod accounts;
pub use accounts::{Account, AccountError};
mod ratings;
pub use bughouse_rating as rating;
pub use ratings::{
    LeaderboardEntry, MatchRatingChange, MatchRatingChanges, Outcome, PartnerRecord, PlayedMatch,
    RatedMatch, RatingPoint, RatingRecord, RulesRecord, SeatPlayer, TeamLeaderboardEntry,
};

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
