//! The lobby's view of a shard: its open matches, its matches in progress (both boards in
//! miniature), its connections and seated players; the aggregation of every shard's part into
//! one [`LobbySnapshot`]; and "play now": which open matches a player fits in by rating (a
//! spread that widens with the time a match has waited, [`accepted_spread`]) and in which
//! order they are offered to him, and the seat taken for him without a connection (he says
//! `hello` with its token).
//!
//! Nothing here is on a move's path: a change only marks the hub's lobby flag (see
//! [`Hub::lobby_flag`]), and the runtime asks for a part at most about once a second.

use std::cmp::Reverse;
use std::sync::atomic::{AtomicBool, Ordering};
use std::sync::Arc;

use bughouse_engine::Level;
use bughouse_protocol::lobby::{
    LiveGame, LobbyBoard, LobbySnapshot, OpenMatch, LOBBY_LIVE_MAX, LOBBY_OPEN_MAX,
};

use super::*;

/// The rating a guest, or an account without a rated match, counts as when "play now" places
/// him (the Glicko-2 start).
pub const DEFAULT_RATING: f64 = 1500.0;

/// The spread of ratings "play now" accepts in a match that has just opened.
pub const SPREAD_START: f64 = 200.0;

/// How much the accepted spread widens for each second a match has waited.
pub const SPREAD_PER_SECOND: f64 = 20.0;

/// The spread of ratings (highest minus lowest, the newcomer included) "play now" accepts in
/// a match that has waited `waited_ms` milliseconds since it opened: [`SPREAD_START`], widened
/// by [`SPREAD_PER_SECOND`] (after 30 s 800, after a minute 1,400: about anyone), as lichess's
/// pools widen the range they pair in with the time waited.
pub fn accepted_spread(waited_ms: i64) -> f64 {
    SPREAD_START + SPREAD_PER_SECOND * (waited_ms.max(0) as f64 / 1000.0)
}

/// The ratings of the players seated in an open match, as "play now" counts them: each
/// seat's known rating, [`DEFAULT_RATING`] for a seated guest or unrated account; bots are
/// counted when `with_bots`.
fn seated_ratings(m: &OpenMatch, with_bots: bool) -> Vec<f64> {
    m.seats
        .iter()
        .enumerate()
        .filter(|(_, s)| s.name.is_some() && (with_bots || !s.bot))
        .map(|(i, _)| {
            m.seat_ratings
                .get(i)
                .copied()
                .flatten()
                .map_or(DEFAULT_RATING, f64::from)
        })
        .collect()
}

/// Fills an open match's mean `rating` and `bot_level` from its `seat_ratings` (set before:
/// the accounts' by the lobby, the bots' by the hub): the mean of everyone seated, and the
/// level nearest the mean of the seated players who are not bots.
pub fn rate_open_match(m: &mut OpenMatch) {
    let mean = |r: &[f64]| (!r.is_empty()).then(|| r.iter().sum::<f64>() / r.len() as f64);
    m.rating = mean(&seated_ratings(m, true)).map(|r| r.round().max(0.0) as u32);
    let humans = mean(&seated_ratings(m, false)).unwrap_or(DEFAULT_RATING);
    m.bot_level = Level::nearest(humans).get();
}

/// Who asks "play now": his name (his account's when signed in), his rating
/// ([`DEFAULT_RATING`] for a guest) and whether he asks for a rated match.
#[derive(Debug, Clone, PartialEq)]
pub struct Asker<'a> {
    /// The name he sits under.
    pub name: &'a str,
    /// His rating.
    pub rating: f64,
    /// A rated match (only a signed-in player asks for one).
    pub rated: bool,
}

/// One shard's part of the lobby.
#[derive(Debug, Clone, Default, PartialEq)]
pub struct LobbyPart {
    /// Its open matches (waiting, with a free seat), fullest first, then oldest; at most
    /// [`LOBBY_OPEN_MAX`].
    pub open: Vec<OpenMatch>,
    /// Its matches in progress, the most recently started first; at most [`LOBBY_LIVE_MAX`].
    pub live: Vec<LiveGame>,
    /// Its websocket connections.
    pub connections: u64,
    /// Seats held by players (not bots) in its matches in progress.
    pub playing: u64,
}

/// Whether a player may sit under `name` (already trimmed): 1 to [`MAX_NAME`] characters,
/// none of them a control character.
pub(crate) fn valid_name(name: &str) -> bool {
    !name.is_empty() && name.chars().count() <= MAX_NAME && !name.chars().any(char::is_control)
}

/// Why "play now" could not seat a player in a match.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
pub enum PlaceError {
    /// The match is not in memory (finished and gone, or unknown).
    #[error("no such match")]
    NoSuchMatch,
    /// The match has started, or has no free seat.
    #[error("the match has no free seat")]
    Full,
    /// A player of that name already sits in the match.
    #[error("a player named {0:?} already sits in this match")]
    NameTaken(String),
    /// The name is empty, too long or has control characters.
    #[error("a name has 1 to {max} printable characters", max = MAX_NAME)]
    BadName,
    /// A guest asked for a seat in a rated match.
    #[error("this match is rated: sign in to sit")]
    SignInRequired,
}

/// The order of the open matches in which "play now" tries to seat `asker`, asking for `rules`
/// and `time_control` (as the matches write them) at Unix time `now_ms`: matches of that kind,
/// rated as he asks, with a free seat and nobody of his name, whose seated players' ratings
/// and his own lie within the [`accepted_spread`] of the time the match has waited; the
/// fullest first, then the oldest (the longest waiting). None fitting, he opens a match.
pub fn placement_order(
    open: &[OpenMatch],
    rules: &str,
    time_control: &str,
    asker: &Asker<'_>,
    now_ms: i64,
) -> Vec<String> {
    let name = asker.name.trim().to_lowercase();
    let mut fits: Vec<&OpenMatch> = open
        .iter()
        .filter(|m| {
            m.rules == rules
                && m.time_control == time_control
                && m.free > 0
                && m.rated == asker.rated
        })
        .filter(|m| {
            !m.seats
                .iter()
                .any(|s| s.name.as_ref().is_some_and(|n| n.to_lowercase() == name))
        })
        .filter(|m| {
            let ratings = seated_ratings(m, true);
            let low = ratings.iter().copied().fold(asker.rating, f64::min);
            let high = ratings.iter().copied().fold(asker.rating, f64::max);
            high - low <= accepted_spread(now_ms - m.created_at)
        })
        .collect();
    fits.sort_by_key(|m| (m.free, m.created_at, m.match_id.clone()));
    fits.into_iter().map(|m| m.match_id.clone()).collect()
}

/// Every shard's part as one snapshot: the open matches fullest first, then oldest, and the
/// most recently started matches in progress, each list bounded; `subscribers` (lobby pages
/// following the feed) count as online.
pub fn lobby_snapshot(parts: Vec<LobbyPart>, subscribers: u64) -> LobbySnapshot {
    let mut snapshot = LobbySnapshot {
        open: Vec::new(),
        live: Vec::new(),
        online: subscribers,
        playing: 0,
    };
    for part in parts {
        snapshot.open.extend(part.open);
        snapshot.live.extend(part.live);
        snapshot.online += part.connections;
        snapshot.playing += part.playing;
    }
    sort_open(&mut snapshot.open);
    sort_live(&mut snapshot.live);
    snapshot
}

fn sort_open(open: &mut Vec<OpenMatch>) {
    open.sort_by(|a, b| {
        (a.free, a.created_at, &a.match_id).cmp(&(b.free, b.created_at, &b.match_id))
    });
    open.truncate(LOBBY_OPEN_MAX);
}

fn sort_live(live: &mut Vec<LiveGame>) {
    live.sort_by(|a, b| {
        (Reverse(a.started_at), &a.match_id).cmp(&(Reverse(b.started_at), &b.match_id))
    });
    live.truncate(LOBBY_LIVE_MAX);
}

impl Hub {
    /// The flag this hub sets whenever something the lobby shows may have changed (a match
    /// created, a seat taken or left, a move, an end, a connection): the runtime clears it
    /// when it asks for [`Hub::lobby_part`]. Shared with the runtime's lobby task, which reads
    /// it about once a second; the hub only writes it.
    pub fn lobby_flag(&self) -> Arc<AtomicBool> {
        self.lobby_dirty.clone()
    }

    /// Whether the lobby flag was set, clearing it.
    pub fn take_lobby_changed(&self) -> bool {
        self.lobby_dirty.swap(false, Ordering::Relaxed)
    }

    /// Marks the lobby flag (a relaxed store, skipped when it is already set).
    pub(super) fn lobby_changed(&self) {
        if !self.lobby_dirty.load(Ordering::Relaxed) {
            self.lobby_dirty.store(true, Ordering::Relaxed);
        }
    }

    /// This shard's part of the lobby at server time `now`.
    pub fn lobby_part(&self, now: Duration) -> LobbyPart {
        let mut part = LobbyPart {
            connections: self.conns.len() as u64,
            ..LobbyPart::default()
        };
        let mut live: Vec<(i64, &LiveMatch)> = Vec::new();
        for m in self.matches.values() {
            match m.status() {
                Status::Waiting => {
                    let free = m.seats.iter().filter(|s| s.is_none()).count();
                    if free > 0 {
                        // The bots' published ratings; the accounts' are the lobby's to add
                        // (the hub does not know ratings).
                        let seat_ratings = m
                            .seats
                            .iter()
                            .map(|s| {
                                let level = s.as_ref().and_then(|h| h.bot).and_then(Level::new);
                                level.map(|l| l.published_rating().round() as u32)
                            })
                            .collect();
                        let mut open = OpenMatch {
                            match_id: m.id.clone(),
                            rules: m.preset.clone(),
                            time_control: m.game.time_control().to_string(),
                            seats: self.seat_infos(m),
                            free: free as u8,
                            rated: m.rated,
                            seat_ratings,
                            rating: None,
                            bot_level: 0,
                            // Until the start, match time 0 is the creation.
                            created_at: self.unix_ms(m.epoch),
                        };
                        rate_open_match(&mut open);
                        part.open.push(open);
                    }
                }
                Status::Playing => {
                    part.playing += m
                        .seats
                        .iter()
                        .filter(|s| s.as_ref().is_some_and(|h| h.bot.is_none()))
                        .count() as u64;
                    let started = self.unix_zero_ms + signed_ms(m.epoch, m.ahead);
                    live.push((started, m));
                }
                Status::Finished => {}
            }
        }
        sort_open(&mut part.open);
        live.sort_by(|a, b| (Reverse(a.0), &a.1.id).cmp(&(Reverse(b.0), &b.1.id)));
        live.truncate(LOBBY_LIVE_MAX);
        // Positions are written only for the matches listed.
        part.live = live
            .into_iter()
            .map(|(started_at, m)| LiveGame {
                match_id: m.id.clone(),
                rules: m.preset.clone(),
                time_control: m.game.time_control().to_string(),
                seats: self.seat_infos(m),
                boards: BoardId::ALL.map(|b| LobbyBoard {
                    fen: m.game.position(b).fen(),
                    last_move: m.last_moves[b.index()].clone(),
                }),
                clocks: m.clocks(now),
                started_at,
            })
            .collect();
        part
    }

    pub(super) fn seat_infos(&self, m: &LiveMatch) -> Vec<SeatInfo> {
        m.seat_infos(&self.connected(m))
    }

    /// Seats a player named `name` (signed in as `account`, or a guest) in the first free seat
    /// of a waiting match, without a connection ("play now"): his seat and its secret token,
    /// which opens the seat with `hello`, and the effects (the seat and its account stored,
    /// the state to everyone watching, the start if the match is now full).
    ///
    /// # Errors
    ///
    /// No such match, no free seat (or started), a bad name, that name (or that account)
    /// already sits there, or a guest asked for a seat in a rated match.
    pub fn place(
        &mut self,
        match_id: &str,
        name: &str,
        account: Option<&AccountInfo>,
        now: Duration,
    ) -> Result<(SeatName, String, Vec<Effect>), PlaceError> {
        self.now = now;
        // A signed-in player sits under his account's name.
        let name = account.map_or(name, |a| a.username.as_str()).trim();
        if !valid_name(name) {
            return Err(PlaceError::BadName);
        }
        let m = self.matches.get(match_id).ok_or(PlaceError::NoSuchMatch)?;
        if m.status() != Status::Waiting {
            return Err(PlaceError::Full);
        }
        // Only signed-in players sit in a rated match.
        if m.rated && account.is_none() {
            return Err(PlaceError::SignInRequired);
        }
        let lower = name.to_lowercase();
        if m.seats.iter().flatten().any(|h| {
            h.name.to_lowercase() == lower || account.is_some_and(|a| h.account == Some(a.id))
        }) {
            return Err(PlaceError::NameTaken(name.to_owned()));
        }
        let seat = Seat::ALL
            .into_iter()
            .find(|s| m.seats[(*s).index()].is_none())
            .ok_or(PlaceError::Full)?;
        let token = self.random_id(24);
        let token_hash = hash_token(&token);
        let Some(m) = self.matches.get_mut(match_id) else {
            return Err(PlaceError::NoSuchMatch);
        };
        m.seats[seat.index()] = Some(SeatHolder {
            name: name.to_owned(),
            token_hash: token_hash.clone(),
            bot: None,
            account: account.map(|a| a.id),
        });
        let mut fx = vec![Effect::Store(Write::SetSeat {
            match_id: match_id.to_owned(),
            seat: seat.index() as u8,
            name: name.to_owned(),
            token_hash,
            bot: false,
        })];
        if let Some(a) = account {
            fx.push(Effect::Store(Write::SetSeatAccount {
                match_id: match_id.to_owned(),
                seat: seat.index() as u8,
                account_id: Some(a.id),
            }));
        }
        self.maybe_start(match_id, &mut fx);
        self.broadcast_state(match_id, &mut fx);
        self.lobby_changed();
        Ok((seat_name(seat), token, fx))
    }
}
