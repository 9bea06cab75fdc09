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
    /// The store was closed (the server is stopping) before the write could be made.
    #[error("the store is closed")]
    Closed,
    /// Any other database failure (lost connection, disk full, ...).
    #[error("database error: {0}")]
    Database(#[from] sqlx::Error),
}
