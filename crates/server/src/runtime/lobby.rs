//! The lobby across the shards: a snapshot made by asking every shard for its part
//! ([`Command::Lobby`]), the live feed that pushes a fresh snapshot at most once a
//! [`FEED_EVERY`] when a shard marked a change, and "play now".
//!
//! "Play now" joins the fullest open match of the asked kind (rules preset, time control, rated
//! or casual) whose players' ratings and the asker's lie within a spread that widens with the
//! time the match has waited ([`placement_order`]), else creates one. The asker's rating is his
//! account's player rating (read at the request); a guest, or an account without a rated
//! match, counts as [`DEFAULT_RATING`]. The hub does not know ratings: the lobby adds the
//! seated accounts' ratings to each open match (read from the store, kept [`RATING_TTL`]).
//! Requests are taken one at a time (a lock), so players pressing "play now" together
//! fill one match rather than each creating his own; the seat is taken by the match's shard
//! in one step, and a match that filled or started meanwhile is passed over for the next.
//! In a cluster the placement is among every node's open matches, one at a time across the
//! nodes (a turn in Redis), a match of another node seated by its owner over the bus
//! (`crate::cluster`, `place.rs`).

use std::collections::HashMap;
use std::sync::atomic::{AtomicBool, AtomicU64, Ordering};
use std::sync::Arc;
use std::time::{Duration, Instant};

use super::ask;
use bughouse_core::TimeControl;
use bughouse_protocol::lobby::{LobbySnapshot, OpenMatch, PlacedSeat, PlayNow};
use bughouse_protocol::{CreateMatch, SeatName};
use bughouse_store::{Account, Store, StoreError};
use tokio::sync::{oneshot, watch, Mutex};

use super::{Command, Shards};
use crate::app::unix_ms;
use crate::hub::{
    lobby_snapshot, placement_order, rate_open_match, valid_name, AccountInfo, Asker, CreateError,
    PlaceError, DEFAULT_RATING,
};

/// How often, at most, the feed sends a new snapshot.
pub(crate) const FEED_EVERY: Duration = Duration::from_secs(1);

/// How long "play now" tries open matches before it opens one (in a cluster, owners that do
/// not answer are waited for).
const PLACE_FOR: Duration = Duration::from_millis(3000);

/// How long the lobby keeps a seated account's rating before reading it again.
pub(crate) const RATING_TTL: Duration = Duration::from_secs(30);

/// Why "play now" could not seat a player.
#[derive(Debug, thiserror::Error)]
pub(crate) enum PlayError {
    /// A guest asked for a rated match.
    #[error("only signed-in players play rated matches: sign in first")]
    GuestRated,
    /// The rules or the time control asked for are refused.
    #[error(transparent)]
    Create(#[from] CreateError),
    /// The seat was refused (a bad name, or the new match's seat).
    #[error(transparent)]
    Place(#[from] PlaceError),
    /// The server is stopping.
    #[error("the server is stopping")]
    Stopping,
    /// The store failed (reading the asker's rating).
    #[error("storage: {0}")]
    Store(#[from] StoreError),
}

/// The lobby service: the shards, their change flags, the feed's latest snapshot.
pub(crate) struct Lobby {
    shards: Shards,
    /// Each shard's flag, set by its hub when something the lobby shows changed.
    flags: Vec<Arc<AtomicBool>>,
    /// Lobby pages following the feed (they count as online).
    subscribers: AtomicU64,
    /// The latest snapshot as JSON, sent to every feed.
    feed: watch::Sender<Arc<str>>,
    /// One "play now" at a time.
    play: Mutex<()>,
    /// Where the accounts' ratings are read.
    store: Store,
    /// Seated accounts' ratings by name (lower case), `None` when unrated, as read at that
    /// instant.
    ratings: std::sync::Mutex<HashMap<String, (Option<f64>, Instant)>>,
    /// In a cluster, where the other nodes' parts are read.
    cluster: Option<crate::cluster::Cluster>,
}

/// A lobby page following the feed, counted while it lives.
pub(crate) struct Subscription {
    lobby: Arc<Lobby>,
    /// The snapshots, as JSON.
    pub(crate) updates: watch::Receiver<Arc<str>>,
}

impl Drop for Subscription {
    fn drop(&mut self) {
        self.lobby.subscribers.fetch_sub(1, Ordering::Relaxed);
        self.lobby.mark_changed();
    }
}

impl Lobby {
    pub(crate) fn new(shards: Shards, flags: Vec<Arc<AtomicBool>>, store: Store) -> Lobby {
        let (feed, _) = watch::channel(Arc::from(""));
        Lobby {
            shards,
            flags,
            subscribers: AtomicU64::new(0),
            feed,
            play: Mutex::new(()),
            store,
            ratings: std::sync::Mutex::new(HashMap::new()),
            cluster: None,
        }
    }

    /// The lobby of a node of a cluster: the other nodes' parts are shown too.
    pub(crate) fn in_cluster(self, cluster: Option<crate::cluster::Cluster>) -> Lobby {
        Lobby { cluster, ..self }
    }

    /// The store the lobby reads ratings from (and the play route reads sessions from).
    pub(crate) fn store(&self) -> &Store {
        &self.store
    }

    /// The rating of the seated account `username` (`None` when unrated or unreadable): from
    /// what was read less than [`RATING_TTL`] ago, else from the store.
    async fn seated_rating(&self, username: &str) -> Option<f64> {
        let key = username.to_lowercase();
        let now = Instant::now();
        if let Ok(cache) = self.ratings.lock() {
            if let Some((rating, at)) = cache.get(&key) {
                if now.duration_since(*at) < RATING_TTL {
                    return *rating;
                }
            }
        }
        let rating = match self.store.player_rating_by_name(username).await {
            Ok(rating) => rating,
            Err(e) => {
                tracing::warn!("lobby: cannot read the rating of {username}: {e}");
                return None;
            }
        };
        if let Ok(mut cache) = self.ratings.lock() {
            // Names of accounts that left the lobby go once they are stale.
            cache.retain(|_, (_, at)| now.duration_since(*at) < RATING_TTL);
            cache.insert(key, (rating, now));
        }
        rating
    }

    /// Adds the seated accounts' ratings to open matches, and their mean and bot level.
    async fn add_ratings(&self, open: &mut [OpenMatch]) {
        for m in open.iter_mut() {
            for i in 0..m.seats.len() {
                let seat = &m.seats[i];
                let Some(name) = seat.name.clone().filter(|_| seat.account) else {
                    continue;
                };
                let rating = self.seated_rating(&name).await;
                if let Some(slot) = m.seat_ratings.get_mut(i) {
                    *slot = rating.map(|r| r.round().max(0.0) as u32);
                }
            }
            rate_open_match(m);
        }
    }

    /// Makes the feed's next round send a fresh snapshot (the online count changed).
    fn mark_changed(&self) {
        if let Some(flag) = self.flags.first() {
            flag.store(true, Ordering::Relaxed);
        }
    }

    /// A fresh snapshot: every shard's part, now.
    pub(crate) async fn snapshot(&self) -> Result<LobbySnapshot, PlayError> {
        let mut answers = Vec::with_capacity(self.shards.count());
        for index in 0..self.shards.count() {
            let (reply, answer) = oneshot::channel();
            self.shards
                .at(index)
                .send(Command::Lobby { reply })
                .await
                .map_err(|_| PlayError::Stopping)?;
            answers.push(answer);
        }
        let mut parts = Vec::with_capacity(answers.len());
        for answer in answers {
            parts.push(answer.await.map_err(|_| PlayError::Stopping)?);
        }
        if let Some(cluster) = &self.cluster {
            parts.extend(cluster.other_lobby_parts().await);
        }
        let mut snapshot = lobby_snapshot(parts, self.subscribers.load(Ordering::Relaxed));
        self.add_ratings(&mut snapshot.open).await;
        Ok(snapshot)
    }

    /// Follows the feed: the caller gets a fresh snapshot first, then each update.
    pub(crate) fn subscribe(self: &Arc<Lobby>) -> Subscription {
        self.subscribers.fetch_add(1, Ordering::Relaxed);
        // A new page is one more online: the next round sends that.
        self.mark_changed();
        // Only what is sent from now on: the caller makes the first snapshot itself.
        Subscription {
            lobby: self.clone(),
            updates: self.feed.subscribe(),
        }
    }

    /// Seats the player (signed in as `account`, or a guest) in the best open match of the
    /// kind he asks for, among players of similar rating, or in a new one.
    pub(crate) async fn play_now(
        &self,
        request: PlayNow,
        account: Option<Account>,
    ) -> Result<PlacedSeat, PlayError> {
        // A signed-in player sits under his account's name.
        let name = match &account {
            Some(a) => a.username.clone(),
            None => request.name.trim().to_owned(),
        };
        if !valid_name(&name) {
            return Err(PlaceError::BadName.into());
        }
        if request.rated && account.is_none() {
            return Err(PlayError::GuestRated);
        }
        request
            .rules
            .parse::<bughouse_core::Preset>()
            .map_err(CreateError::from)?;
        // As the matches write it (`3+0`), whatever the spelling asked.
        let time_control = request
            .time_control
            .parse::<TimeControl>()
            .map_err(CreateError::from)?
            .to_string();
        let rating = match &account {
            Some(a) => self
                .store
                .player_rating(a.id)
                .await?
                .map_or(DEFAULT_RATING, |r| r.rating.rating),
            None => DEFAULT_RATING,
        };
        let account = account.map(|a| AccountInfo {
            id: a.id,
            username: a.username,
        });
        let asker = Asker {
            name: &name,
            rating,
            rated: request.rated,
        };
        let _one_at_a_time = self.play.lock().await;
        // In a cluster, one placement at a time across the nodes too.
        let turn = match &self.cluster {
            Some(cluster) => Some(cluster.play_turn().await),
            None => None,
        };
        let placed = self
            .place(&request, time_control, &name, account, &asker)
            .await;
        if let (Some(cluster), Some(turn)) = (&self.cluster, turn) {
            cluster.end_play_turn(turn).await;
        }
        placed
    }

    /// Seats the player in the best open match (of any node, in a cluster), else in a new one
    /// (on this node).
    async fn place(
        &self,
        request: &PlayNow,
        time_control: String,
        name: &str,
        account: Option<AccountInfo>,
        asker: &Asker<'_>,
    ) -> Result<PlacedSeat, PlayError> {
        let snapshot = self.snapshot().await?;
        let order = placement_order(
            &snapshot.open,
            &request.rules,
            &time_control,
            asker,
            unix_ms(),
        );
        let started = Instant::now();
        for id in order {
            // Past this, the turn might lapse: open a match rather than ask on.
            if started.elapsed() > PLACE_FOR {
                break;
            }
            match self.place_in(&id, name, account.clone()).await? {
                Ok((seat, token)) => {
                    return Ok(PlacedSeat {
                        match_id: id,
                        seat,
                        token,
                        created: false,
                    })
                }
                // Filled, started or gone meanwhile: the next one.
                Err(
                    PlaceError::Full
                    | PlaceError::NoSuchMatch
                    | PlaceError::NameTaken(_)
                    | PlaceError::SignInRequired,
                ) => {}
                Err(e @ PlaceError::BadName) => return Err(e.into()),
            }
        }
        let name = name.to_owned();
        let (reply, answer) = oneshot::channel();
        let request = CreateMatch {
            rules: request.rules.clone(),
            time_control,
            custom: Default::default(),
            rated: request.rated,
            // A rated "play now" match is among people: no bot is offered in it.
            allow_bots: false,
        };
        self.shards
            .next()
            .send(Command::CreatePlaced {
                request,
                name,
                account,
                reply,
            })
            .await
            .map_err(|_| PlayError::Stopping)?;
        match answer.await {
            Ok(Ok((match_id, seat, token))) => Ok(PlacedSeat {
                match_id,
                seat,
                token,
                created: true,
            }),
            Ok(Err(e)) => Err(e),
            Err(_) => Err(PlayError::Stopping),
        }
    }
}

impl Lobby {
    /// Asks the match's owner to seat the player: this node's shard, or (in a cluster) the
    /// node holding the match's lease, over the bus.
    async fn place_in(
        &self,
        id: &str,
        name: &str,
        account: Option<AccountInfo>,
    ) -> Result<Result<(SeatName, String), PlaceError>, PlayError> {
        if let Some(cluster) = &self.cluster {
            match cluster.owner_of(id).await {
                Some(owner) if owner != cluster.node() => {
                    return Ok(cluster.place_remote(&owner, id, name, account).await);
                }
                Some(_) => {}
                None => return Ok(Err(PlaceError::NoSuchMatch)),
            }
        }
        ask(self.shards.of(id), |reply| Command::Place {
            id: id.to_owned(),
            name: name.to_owned(),
            account,
            reply,
        })
        .await
        .ok_or(PlayError::Stopping)
    }
}

/// The live feed: every [`FEED_EVERY`], when a lobby page follows and some shard marked a
/// change, a fresh snapshot goes to the pages if it differs from the last one. Nothing is
/// asked of the shards while nothing changes or nobody follows.
pub(crate) async fn lobby_feed(lobby: Arc<Lobby>) {
    let mut every = tokio::time::interval(FEED_EVERY);
    every.set_missed_tick_behavior(tokio::time::MissedTickBehavior::Delay);
    loop {
        every.tick().await;
        if lobby.subscribers.load(Ordering::Relaxed) == 0 {
            continue;
        }
        // Every flag is read (and cleared), not only up to the first set.
        // (In a cluster the other nodes' parts may have changed: a snapshot every time, sent
        // only if it differs.)
        let changed = lobby
            .flags
            .iter()
            .fold(false, |any, f| f.swap(false, Ordering::Relaxed) | any)
            || lobby.cluster.is_some();
        if !changed {
            continue;
        }
        let Ok(snapshot) = lobby.snapshot().await else {
            return;
        };
        let Ok(json) = serde_json::to_string(&snapshot) else {
            continue;
        };
        lobby.feed.send_if_modified(|last| {
            if **last == *json {
                false
            } else {
                *last = Arc::from(json);
                true
            }
        });
    }
}
