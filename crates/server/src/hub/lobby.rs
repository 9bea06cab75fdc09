//! The lobby's view of a shard: its open matches, its matches in progress (both boards in
//! miniature), its connections and seated players; the aggregation of every shard's part into
//! one [`LobbySnapshot`]; and "play now": the order in which open matches are offered to a
//! player, and the seat taken for him without a connection (he says `hello` with its token).
//!
//! Nothing here is on a move's path: a change only marks the hub's lobby flag (see
//! [`Hub::lobby_flag`]), and the runtime asks for a part at most about once a second.

use std::cmp::Reverse;
use std::sync::atomic::{AtomicBool, Ordering};
use std::sync::Arc;

use bughouse_protocol::lobby::{
    LiveGame, LobbyBoard, LobbySnapshot, OpenMatch, LOBBY_LIVE_MAX, LOBBY_OPEN_MAX,
};

use super::*;

/// Ratings further apart than this count as not similar when "play now" places a player.
pub const RATING_BAND: f64 = 300.0;

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
}

/// The order of the open matches in which "play now" tries to seat a player asking for
/// `rules` and `time_control` (as the matches write them): matches of that kind with a free
/// seat and nobody of his `name`; first those whose players' mean rating is within
/// [`RATING_BAND`] of his `rating` (or where either is unknown), then the fullest, then the
/// oldest (arrival order).
pub fn placement_order(
    open: &[OpenMatch],
    rules: &str,
    time_control: &str,
    name: &str,
    rating: Option<f64>,
) -> Vec<String> {
    let name = name.trim().to_lowercase();
    let mut fits: Vec<&OpenMatch> = open
        .iter()
        .filter(|m| m.rules == rules && m.time_control == time_control && m.free > 0)
        .filter(|m| {
            !m.seats
                .iter()
                .any(|s| s.name.as_ref().is_some_and(|n| n.to_lowercase() == name))
        })
        .collect();
    let far = |m: &OpenMatch| match (rating, m.rating) {
        (Some(mine), Some(theirs)) => (mine - f64::from(theirs)).abs() > RATING_BAND,
        _ => false,
    };
    fits.sort_by_key(|m| (far(m), m.free, m.created_at, m.match_id.clone()));
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
                        part.open.push(OpenMatch {
                            match_id: m.id.clone(),
                            rules: m.preset.clone(),
                            time_control: m.game.time_control().to_string(),
                            seats: self.seat_infos(m),
                            free: free as u8,
                            // Until the start, match time 0 is the creation.
                            created_at: self.unix_ms(m.epoch),
                            // Seats do not carry ratings yet (accounts in seats come later).
                            rating: None,
                        });
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

    fn seat_infos(&self, m: &LiveMatch) -> Vec<SeatInfo> {
        let connected = self.connected(m);
        Seat::ALL
            .into_iter()
            .enumerate()
            .map(|(i, s)| SeatInfo {
                seat: seat_name(s),
                name: m.seats[i].as_ref().map(|h| h.name.clone()),
                bot: m.seats[i].as_ref().is_some_and(|h| h.bot.is_some()),
                connected: connected[i],
                account: m.seats[i].as_ref().is_some_and(|h| h.account.is_some()),
            })
            .collect()
    }

    /// Seats a player named `name` in the first free seat of a waiting match, without a
    /// connection ("play now"): his seat and its secret token, which opens the seat with
    /// `hello`, and the effects (the seat stored, the state to everyone watching, the start
    /// if the match is now full).
    ///
    /// # Errors
    ///
    /// No such match, no free seat (or started), a bad name, or that name already sits there.
    pub fn place(
        &mut self,
        match_id: &str,
        name: &str,
        now: Duration,
    ) -> Result<(SeatName, String, Vec<Effect>), PlaceError> {
        self.now = now;
        let name = name.trim();
        if name.is_empty() || name.chars().count() > MAX_NAME || name.chars().any(char::is_control)
        {
            return Err(PlaceError::BadName);
        }
        let m = self.matches.get(match_id).ok_or(PlaceError::NoSuchMatch)?;
        // "Play now" seats a guest: never in a rated match, where only signed-in players sit.
        if m.status() != Status::Waiting || m.rated {
            return Err(PlaceError::Full);
        }
        let lower = name.to_lowercase();
        if m.seats
            .iter()
            .flatten()
            .any(|h| h.name.to_lowercase() == lower)
        {
            return Err(PlaceError::NameTaken(name.to_owned()));
        }
        let seat = Seat::ALL
            .into_iter()
            .find(|s| m.seats[seat_index(*s)].is_none())
            .ok_or(PlaceError::Full)?;
        let token = self.random_id(24);
        let token_hash = hash_token(&token);
        let Some(m) = self.matches.get_mut(match_id) else {
            return Err(PlaceError::NoSuchMatch);
        };
        m.seats[seat_index(seat)] = Some(SeatHolder {
            name: name.to_owned(),
            token_hash: token_hash.clone(),
            bot: None,
            account: None,
        });
        let mut fx = vec![Effect::Store(Write::SetSeat {
            match_id: match_id.to_owned(),
            seat: seat_index(seat) as u8,
            name: name.to_owned(),
            token_hash,
            bot: false,
        })];
        self.maybe_start(match_id, &mut fx);
        self.broadcast_state(match_id, &mut fx);
        self.lobby_changed();
        Ok((seat_name(seat), token, fx))
    }
}
