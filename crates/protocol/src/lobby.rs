//! The lobby: `GET /api/lobby` (a [`LobbySnapshot`]), its live feed `GET /api/lobby/events`
//! (server-sent events, one snapshot each), and "play now" (`POST /api/lobby/play`, a
//! [`PlayNow`] answered by a [`PlacedSeat`]). `docs/protocol.md` describes them.

use serde::{Deserialize, Serialize};
use ts_rs::TS;

use crate::{Clocks, SeatInfo, SeatName};

/// The most matches in progress a snapshot lists (the most recently started).
pub const LOBBY_LIVE_MAX: usize = 24;

/// The most open matches a snapshot lists (the fullest, then the oldest).
pub const LOBBY_OPEN_MAX: usize = 50;

/// What the lobby shows: open matches with free seats, matches in progress, and how many are
/// online and playing.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize, TS)]
pub struct LobbySnapshot {
    /// Matches waiting for players, fullest first, then oldest (at most [`LOBBY_OPEN_MAX`]).
    pub open: Vec<OpenMatch>,
    /// Matches being played, the most recently started first (at most [`LOBBY_LIVE_MAX`]).
    pub live: Vec<LiveGame>,
    /// Connections to the server: match pages and lobby pages.
    pub online: u64,
    /// Players (not bots) seated in matches being played.
    pub playing: u64,
}

/// A match waiting for players.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize, TS)]
pub struct OpenMatch {
    /// The match id.
    pub match_id: String,
    /// The rules preset id, or `custom`.
    pub rules: String,
    /// The time control, `5+0`.
    pub time_control: String,
    /// The four seats in seat order, as the match page shows them.
    pub seats: Vec<SeatInfo>,
    /// How many seats are free.
    pub free: u8,
    /// Whether the match is rated (only signed-in players sit in it).
    pub rated: bool,
    /// The rating of each seat's player in seat order: a signed-in player's (his player
    /// rating), a bot's published rating; null for a free seat, a guest, or an account not yet
    /// rated.
    pub seat_ratings: Vec<Option<u32>>,
    /// The mean rating of its seated players (a guest or an unrated account counts as 1500);
    /// null when nobody sits.
    pub rating: Option<u32>,
    /// The bot level whose published rating is nearest the mean rating of its seated players
    /// (not bots): what the match page offers to fill its free seats with.
    pub bot_level: u8,
    /// When it was created, Unix milliseconds.
    pub created_at: i64,
}

/// A match being played, as the lobby's miniature boards show it.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize, TS)]
pub struct LiveGame {
    /// The match id.
    pub match_id: String,
    /// The rules preset id, or `custom`.
    pub rules: String,
    /// The time control.
    pub time_control: String,
    /// The four seats in seat order.
    pub seats: Vec<SeatInfo>,
    /// Boards A and B.
    pub boards: [LobbyBoard; 2],
    /// The four clocks as of the snapshot (a client counts the running ones down).
    pub clocks: Clocks,
    /// When its clocks started, Unix milliseconds.
    pub started_at: i64,
}

/// One board in miniature.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize, TS)]
pub struct LobbyBoard {
    /// The position, FEN with bracketed reserves.
    pub fen: String,
    /// The last move in UCI, for highlighting.
    pub last_move: Option<String>,
}

/// The body of `POST /api/lobby/play`: a seat in an open match of this kind, or a new one.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize, TS)]
#[serde(deny_unknown_fields)]
pub struct PlayNow {
    /// A preset id (`fide`, `minerva-2014`, `knsb-1988`, `uscf-scholastic-2006`).
    pub rules: String,
    /// The time control, `3+0`.
    pub time_control: String,
    /// The name to sit as (1 to 32 printable characters); a signed-in player sits under his
    /// account's name instead.
    pub name: String,
    /// A rated match (default casual): only for a signed-in player, placed among signed-in
    /// players.
    #[serde(default, skip_serializing_if = "std::ops::Not::not")]
    pub rated: bool,
}

/// The answer to `POST /api/lobby/play`: the seat taken for the player.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize, TS)]
pub struct PlacedSeat {
    /// The match.
    pub match_id: String,
    /// The seat.
    pub seat: SeatName,
    /// The seat's secret, as `seated` gives it: the match page says `hello` with it.
    pub token: String,
    /// Whether the match was created for this request (no open match of the kind had room).
    pub created: bool,
}
