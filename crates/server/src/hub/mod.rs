//! The live-game state machine: every match, seat and connection of the server, changed only by
//! [`Hub::apply`] with the time passed in. No sockets, no database, no clock inside: the adapter
//! (`runtime`, `http`) turns websocket frames into [`Input`]s, executes the [`Effect`]s in order (stores
//! before sends, so a move is stored before it is acknowledged) and wakes the hub for flags.
//!
//! A file per concern: [`effects`] (what the adapter must do), `live` (one match's state and
//! clocks), `views` (what clients see), `conn` (frames, rate limits, acknowledgements, hello),
//! `create`, `seats`, `play` (moves, lag, flags, ends), `actions` (resignation, draws, claims),
//! `talk`, `bots` and `restore`.

mod actions;
mod bots;
mod conn;
mod create;
pub mod effects;
mod handover;
mod live;
mod lobby;
mod play;
mod rated;
mod restore;
mod seats;
mod seen;
mod talk;
mod views;

use std::collections::{BTreeMap, BTreeSet, HashMap, HashSet, VecDeque};
use std::time::Duration;

use bughouse_core::{
    BoardId, DrawClaim, EndReason, Match, MatchError, PartnerTalk, Position, Preset, Rules, Seat,
    TimeControl,
};
use bughouse_protocol::{
    BoardName, BoardState, Claim, ClientFrame, ClientMessage, Clocks, CreateMatch, ErrorCode,
    MatchState, MoveInfo, Piece, RatingChanges, ResultInfo, RuleSetting, SeatInfo, SeatName,
    ServerMessage, Status, TalkEntry, TalkKind, UciList, Verdict, MAX_CHAT, MAX_CLIENT_MESSAGE,
    MAX_NAME,
};
use rand::rngs::StdRng;
use rand::{RngCore, SeedableRng};
use sha2::{Digest, Sha256};

pub use bughouse_store::Write;
pub use effects::{encode, Effect, EventKind, FrameText};
pub use live::rule_settings;
use live::*;
pub(crate) use lobby::valid_name;
pub use lobby::{
    accepted_spread, lobby_snapshot, placement_order, rate_open_match, Asker, LobbyPart,
    PlaceError, DEFAULT_RATING, SPREAD_PER_SECOND, SPREAD_START,
};
pub use rated::{rate_request_of_stored, rating_changes, RateRequest};
pub use restore::RestoreError;
use seen::SeenBoard;
use views::bpgn_of;

/// A connection, numbered by the adapter.
pub type ConnId = u64;

/// The most a flag fall waits for a move compensated for lag (see `docs/protocol.md`).
pub const MAX_FLAG_GRACE: Duration = Duration::from_secs(2);

/// Acknowledged action ids a seat's recent actions keep, to answer a resent action again.
const RECENT_ACTIONS: usize = 64;

/// Messages per second a connection may send on average, and the burst it may save up.
const RATE_PER_SEC: f64 = 20.0;

const RATE_BURST: f64 = 40.0;

/// Refusals in a row after which a flooding connection is closed.
const MAX_REFUSALS: u32 = 100;

/// The account a connection is signed in as (read from its session cookie at the websocket
/// handshake).
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct AccountInfo {
    /// The account's id.
    pub id: i64,
    /// Its name: the name of every seat it takes.
    pub username: String,
}

/// What happens to the hub.
#[derive(Debug, Clone, PartialEq)]
pub enum Input {
    /// A websocket opened.
    Connected(ConnId),
    /// The connection is signed in as this account (right after `Connected`): the seats it
    /// takes carry the account and its name.
    SignedIn(ConnId, AccountInfo),
    /// A rated match's ratings were applied (after an [`Effect::Rate`]): kept for its `state`
    /// and sent to its watchers.
    Rated {
        /// The match.
        match_id: String,
        /// What changed.
        changes: RatingChanges,
    },
    /// A websocket closed.
    Disconnected(ConnId),
    /// A text frame arrived (read here with [`read_frame`]).
    Text(ConnId, String),
    /// A text frame arrived, read at the edge with [`read_frame`] (the websocket adapter reads
    /// each frame once, on its own task, and routes it by what it says).
    Frame(ConnId, Result<ClientFrame, FrameError>),
    /// Time passed: apply flags.
    Tick,
    /// A bot's answer to an [`Effect::BotTurn`].
    Bot(BotReply),
    /// A sitting bot's time to look again.
    BotWake {
        /// The match.
        match_id: String,
        /// The bot's seat.
        seat: Seat,
    },
}

impl Input {
    /// The match a `hello` frame names.
    pub fn hello_match(&self) -> Option<&str> {
        self.hello().map(|(_, match_id)| match_id)
    }

    /// The connection of a `hello` frame and the match it names.
    pub fn hello(&self) -> Option<(ConnId, &str)> {
        match self {
            Input::Frame(
                conn,
                Ok(ClientFrame {
                    msg: ClientMessage::Hello { match_id, .. },
                    ..
                }),
            ) => Some((*conn, match_id)),
            _ => None,
        }
    }
}

/// A text frame that cannot be read: the error answered to its sender.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct FrameError {
    /// `too_large` or `bad_message`.
    pub code: ErrorCode,
    /// What is wrong, and where (serde's message names the line and column).
    pub message: String,
}

/// Reads a client's text frame: its size, then its JSON against the protocol's types.
pub fn read_frame(text: &str) -> Result<ClientFrame, FrameError> {
    if text.len() > MAX_CLIENT_MESSAGE {
        return Err(FrameError {
            code: ErrorCode::TooLarge,
            message: format!("a message may have at most {MAX_CLIENT_MESSAGE} bytes"),
        });
    }
    serde_json::from_str(text).map_err(|e| FrameError {
        code: ErrorCode::BadMessage,
        message: e.to_string(),
    })
}

/// The bot levels a seat may be given (1 weakest).
pub const BOT_LEVELS: std::ops::RangeInclusive<u8> = 1..=8;

/// A partner message between a bot and its partner: the kind and, for `need` and
/// `dont_give`, the piece letter.
pub type BotTalk = (TalkKind, Option<Piece>);

/// A bot's turn: the adapter runs the engine on a copy of the match and answers with
/// [`Input::Bot`].
#[derive(Debug, Clone)]
pub struct BotTurn {
    /// The match.
    pub match_id: String,
    /// The bot's seat.
    pub seat: Seat,
    /// Its level, in [`BOT_LEVELS`].
    pub level: u8,
    /// The number of moves on the bot's board when it was asked: a reply for another count
    /// is stale and dropped.
    pub ply: usize,
    /// The match as it stands.
    pub game: Box<Match>,
    /// Match time now.
    pub at: Duration,
    /// What its partner said since the last turn.
    pub heard: Vec<BotTalk>,
}

impl PartialEq for BotTurn {
    fn eq(&self, other: &BotTurn) -> bool {
        (
            &self.match_id,
            self.seat,
            self.level,
            self.ply,
            self.at,
            &self.heard,
        ) == (
            &other.match_id,
            other.seat,
            other.level,
            other.ply,
            other.at,
            &other.heard,
        )
    }
}

/// What a bot decided on its turn.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct BotReply {
    /// The match.
    pub match_id: String,
    /// The bot's seat.
    pub seat: Seat,
    /// [`BotTurn::ply`] of the turn it answers.
    pub ply: usize,
    /// A move in UCI, or `None` to sit (not move now, the clock running).
    pub uci: Option<String>,
    /// What it says to its partner.
    pub talk: Vec<BotTalk>,
}

/// Every live match and connection.
pub struct Hub {
    matches: HashMap<String, LiveMatch>,
    conns: HashMap<ConnId, Conn>,
    /// (flag time in server time, match id): when to look at a match's clocks.
    deadlines: BTreeSet<(Duration, String)>,
    /// Each scheduled match's entry in `deadlines`, to replace it without a scan.
    deadline_of: HashMap<String, Duration>,
    /// The finished matches in memory, which [`Hub::evict_finished`] looks at (not all).
    finished: HashSet<String>,
    /// Matches whose bots must be looked at on the next tick (restored ones).
    bots_pending: HashSet<String>,
    rng: StdRng,
    now: Duration,
    /// The client's id of the action being applied.
    action: Option<u64>,
    /// The lag compensation of the move just played, for its acknowledgement.
    last_lag: Option<Duration>,
    /// This hub's shard and the number of shards.
    shard: (usize, usize),
    /// The Unix time, in milliseconds, of server time 0: stored times are Unix times.
    unix_zero_ms: i64,
    /// Set when something the lobby shows may have changed (see `lobby.rs`).
    lobby_dirty: std::sync::Arc<std::sync::atomic::AtomicBool>,
}

/// The shard, of `count`, that runs the match `match_id` (FNV-1a of the id): every command about
/// a match goes to that shard's hub.
pub fn shard_of(match_id: &str, count: usize) -> usize {
    let mut hash: u64 = 0xcbf2_9ce4_8422_2325;
    for b in match_id.bytes() {
        hash ^= u64::from(b);
        hash = hash.wrapping_mul(0x0000_0100_0000_01b3);
    }
    (hash % count.max(1) as u64) as usize
}

/// Why a match could not be created.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
pub enum CreateError {
    /// The rules are unknown.
    #[error(transparent)]
    Rules(#[from] bughouse_core::UnknownPreset),
    /// The time control cannot be read.
    #[error(transparent)]
    TimeControl(#[from] bughouse_core::ParseTimeControlError),
    /// A field of a custom rule set is unknown or cannot take its value.
    #[error(transparent)]
    Field(#[from] bughouse_core::RuleFieldError),
}

impl Hub {
    /// An empty hub. `seed` seeds the generator of match ids and seat tokens: give it real
    /// entropy in production, a constant in tests.
    pub fn new(seed: [u8; 32]) -> Hub {
        Hub {
            matches: HashMap::new(),
            conns: HashMap::new(),
            deadlines: BTreeSet::new(),
            deadline_of: HashMap::new(),
            finished: HashSet::new(),
            bots_pending: HashSet::new(),
            rng: StdRng::from_seed(seed),
            now: Duration::ZERO,
            action: None,
            last_lag: None,
            shard: (0, 1),
            unix_zero_ms: 0,
            lobby_dirty: std::sync::Arc::default(),
        }
    }

    /// The same hub, its server time 0 being Unix time `unix_zero_ms` (milliseconds): the times
    /// it stores (creation, start, end, clock anchors) are Unix times. Without this, server time
    /// 0 is Unix time 0.
    pub fn with_unix_zero(self, unix_zero_ms: i64) -> Hub {
        Hub {
            unix_zero_ms,
            ..self
        }
    }

    /// The Unix time, in milliseconds, of server time `t`.
    fn unix_ms(&self, t: Duration) -> i64 {
        self.unix_zero_ms
            .saturating_add(i64::try_from(t.as_millis()).unwrap_or(i64::MAX))
    }

    /// A hub that is shard `index` of `count`: the ids of the matches it creates (rematches
    /// too) are those [`shard_of`] sends to it.
    pub fn shard(seed: [u8; 32], index: usize, count: usize) -> Hub {
        Hub {
            shard: (index, count.max(1)),
            ..Hub::new(seed)
        }
    }

    /// The number of live (not finished) matches.
    pub fn live_matches(&self) -> usize {
        self.matches.values().filter(|m| !m.finished).count()
    }

    /// The next moment the hub must be woken with [`Input::Tick`], if any.
    pub fn next_deadline(&self) -> Option<Duration> {
        self.deadlines.first().map(|(t, _)| *t)
    }

    /// Applies one input at server time `now`.
    pub fn apply(&mut self, input: Input, now: Duration) -> Vec<Effect> {
        self.now = now;
        let mut fx = Vec::new();
        // A connection counts as online in the lobby, and a `hello` may connect a seat.
        let connection = matches!(input, Input::Connected(_) | Input::Disconnected(_))
            || input.hello_match().is_some();
        match input {
            Input::Connected(conn) => {
                self.conns.insert(
                    conn,
                    Conn {
                        match_id: None,
                        seat: None,
                        tokens: RATE_BURST,
                        last_refill: now,
                        refusals: 0,
                        rtt: None,
                        account: None,
                    },
                );
            }
            Input::SignedIn(conn, account) => {
                if let Some(c) = self.conns.get_mut(&conn) {
                    c.account = Some(account);
                }
            }
            Input::Rated { match_id, changes } => self.rated(&match_id, changes, &mut fx),
            Input::Disconnected(conn) => self.disconnect(conn, &mut fx),
            Input::Text(conn, text) => self.frame(conn, read_frame(&text), &mut fx),
            Input::Frame(conn, frame) => self.frame(conn, frame, &mut fx),
            Input::Tick => self.tick(&mut fx),
            Input::Bot(reply) => self.bot_reply(reply, &mut fx),
            Input::BotWake { match_id, seat } => {
                if let Some(b) = self
                    .matches
                    .get_mut(&match_id)
                    .map(|m| &mut m.bots[seat.index()])
                {
                    if b.sitting {
                        // Anything counts as new: ask again.
                        b.asked = b.asked.map(|(ply, _)| (ply, usize::MAX));
                        self.bot_turns(&match_id, &mut fx);
                    }
                }
            }
        }
        // Whatever changes a match is stored: that, or a connection, is what the lobby shows.
        if connection || fx.iter().any(|e| matches!(e, Effect::Store(_))) {
            self.lobby_changed();
        }
        fx
    }

    /// Whether the match is in memory.
    pub fn has_match(&self, match_id: &str) -> bool {
        self.matches.contains_key(match_id)
    }

    /// Drops finished matches nobody watches any more (they stay in the database archive).
    pub fn evict_finished(&mut self) {
        let matches = &mut self.matches;
        self.finished.retain(|id| match matches.get(id) {
            Some(m) if m.finished && m.watchers.is_empty() => {
                matches.remove(id);
                false
            }
            Some(m) => m.finished,
            None => false,
        });
    }
}
