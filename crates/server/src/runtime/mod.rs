//! The tasks around the hub. One task owns the [`Hub`] of each shard (on SQLite, on a thread
//! of its own).
//! Websocket readers send it commands through a channel; it applies a batch of them and hands
//! the effects to the committer task, which hands the store effects to the writer (on SQLite,
//! one for all shards, which stores whatever queued meanwhile in one transaction) and the rest
//! to the sender task, which waits until the batch is stored, serialises each message once and
//! sends it: every accepted move is stored before it is acknowledged. The hub goes on with the
//! next batch while the writer writes; the committer and the sender take turns with it on its
//! thread. The hub also wakes for flag falls.

mod commit;
mod lobby;
mod outbox;
mod reload;
mod shards;
mod stages;
mod thread;
mod writer;

pub(crate) use commit::*;
pub(crate) use lobby::{lobby_feed, Lobby, PlayError};
pub(crate) use outbox::{outbox, outbox_to, OutReceiver, OutSender};
pub(crate) use shards::{ask, Shards};
pub(crate) use thread::spawn_on_own_thread;
pub(crate) use writer::{Pending, Stored, Writer};

use std::time::Duration;

use bughouse_protocol::{CreateMatch, MatchState, SeatName};
use bughouse_store::Store;
use tokio::sync::{mpsc, oneshot};

use crate::app::ServerClock;

use crate::bots::BotRunner;
use crate::cluster::Cluster;
use crate::hub::{
    ConnId, CreateError, Effect, FrameText, Hub, Input, LobbyPart, PlaceError, Write,
};
use crate::tournaments::Finished;

/// The most commands the hub applies before it hands their effects to the committer.
pub(crate) const BATCH: usize = 512;

/// The most batches waiting for the committer (the hub waits beyond, which is the back pressure
/// of a slow database, once the writer's and the sender's queues are full too). The hub hands a
/// batch over as soon as it is applied (one command when the server is quiet), so under load
/// hundreds queue up within one commit: a small bound here would make the hub wait for the
/// database after a few of them, and every command behind it in its inbox (measured: with 64, a
/// move waited up to 130 ms at 1,000 matches).
pub(crate) const COMMIT_QUEUE: usize = 8192;

pub(crate) enum Outgoing {
    /// Shared by every recipient of the message (serialised once).
    Text(FrameText),
    Ping(Vec<u8>),
    /// The answer to a client's ping (its payload).
    Pong(bytes::Bytes),
    /// The server closes the connection (normal closure).
    Close,
    /// The client broke the websocket protocol: close with this code and reason.
    Fail(u16, String),
    /// The rest of a frame the socket took only in part (written as is, no header).
    Raw(bytes::Bytes),
}

pub(crate) enum Command {
    /// A connection joins this shard, signed in as an account or not.
    Connect(ConnId, OutSender, Option<crate::hub::AccountInfo>),
    Disconnect(ConnId),
    Input(Input),
    Rtt(ConnId, Duration),
    Create {
        request: CreateMatch,
        reply: oneshot::Sender<Result<String, CreateError>>,
    },
    State {
        id: String,
        reply: oneshot::Sender<Option<MatchState>>,
    },
    Positions {
        id: String,
        reply: oneshot::Sender<Option<Vec<[String; 2]>>>,
    },
    Bpgn {
        id: String,
        reply: oneshot::Sender<Option<String>>,
    },
    /// The shard's part of the lobby.
    Lobby {
        reply: oneshot::Sender<LobbyPart>,
    },
    /// Seat a player in a waiting match without a connection ("play now"): the seat and its
    /// token, answered once the seat is stored.
    Place {
        id: String,
        name: String,
        account: Option<crate::hub::AccountInfo>,
        reply: oneshot::Sender<Result<(SeatName, String), PlaceError>>,
    },
    /// In a cluster: this node has just taken the match's lease; restore it from the store
    /// (true if it is now running here, false if it is not in progress).
    Adopt {
        id: String,
        reply: oneshot::Sender<bool>,
    },
    /// In a cluster: this node lost the match's lease; forget it at once.
    Drop {
        id: String,
    },
    /// A write of the match was refused by the store (see `commit.rs`): forget it, and restore
    /// it from the store once everything handed over before is stored. The refused actions
    /// (seat and id) are answered with `not_stored` when they are sent again.
    Reload {
        match_id: String,
        refused: Vec<(u8, u64)>,
    },
    /// Stop applying anything: answered once everything applied so far is stored and sent
    /// (a node leaving the cluster politely).
    Stop {
        reply: oneshot::Sender<()>,
    },
    /// Create a match and seat a player in it: the match, the seat and its token.
    CreatePlaced {
        request: CreateMatch,
        name: String,
        account: Option<crate::hub::AccountInfo>,
        reply: oneshot::Sender<Result<(String, SeatName, String), PlayError>>,
    },
}

/// Why a shard created no match for another part of the server (a tournament's round).
#[derive(Debug, thiserror::Error)]
pub(crate) enum CreateRefused {
    /// The rules or the time control asked for are refused.
    #[error(transparent)]
    Create(#[from] CreateError),
    /// The server is stopping (or the match was not stored).
    #[error("the server is stopping")]
    Stopping,
}

/// What other parts of the server (the tournaments) may ask of the hub task.
#[derive(Clone)]
pub(crate) struct HubHandle {
    pub(crate) shards: Shards,
    pub(crate) store: Store,
}

impl HubHandle {
    /// Creates a match; its id once it is stored.
    pub(crate) async fn create_match(
        &self,
        rules: &str,
        time_control: &str,
    ) -> Result<String, CreateRefused> {
        let request = CreateMatch {
            rules: rules.to_owned(),
            time_control: time_control.to_owned(),
            custom: Default::default(),
            ..Default::default()
        };
        ask(self.shards.next(), |reply| Command::Create {
            request,
            reply,
        })
        .await
        .ok_or(CreateRefused::Stopping)?
        .map_err(CreateRefused::Create)
    }

    /// A match's record as BPGN: the record so far of a match in memory, else the archive's.
    pub(crate) async fn bpgn(
        &self,
        id: &str,
    ) -> Result<Option<String>, bughouse_store::StoreError> {
        let asked = ask(self.shards.of(id), |reply| Command::Bpgn {
            id: id.to_owned(),
            reply,
        });
        match asked.await {
            Some(Some(text)) => Ok(Some(text)),
            _ => self.store.bpgn(id).await,
        }
    }
}

/// The shard's channels: its own inbox (the ratings of its matches come back there), its
/// commands, and where the ends of matches are reported.
pub(crate) struct Inbox {
    /// Weak: the hub task ends when the others drop their senders.
    pub(crate) tx: mpsc::WeakSender<Command>,
    pub(crate) rx: mpsc::Receiver<Command>,
    pub(crate) finished: mpsc::UnboundedSender<Finished>,
}

pub(crate) async fn hub_task(
    mut hub: Hub,
    inbox: Inbox,
    store: Store,
    writer: Writer,
    clock: ServerClock,
    bots: BotRunner,
    cluster: Option<Cluster>,
) {
    let cluster = cluster.as_ref();
    let Inbox {
        tx: own,
        mut rx,
        finished,
    } = inbox;
    let started = clock.started;
    let (commit_tx, commit_rx) = mpsc::channel(COMMIT_QUEUE);
    let (reload_tx, mut reloads) = mpsc::unbounded_channel();
    let rater = Rater {
        store: store.clone(),
        inbox: own,
        reloads: reload_tx,
    };
    tokio::spawn(committer(commit_rx, writer.clone(), finished, rater));
    let mut batch = Vec::with_capacity(BATCH);
    let mut reloaded = reload::Reloads::default();
    let mut stages = stages::Stages::new("the hub", stages::HUB);
    // When the last pass ended, if the stages are timed.
    let mut passed = stages.as_ref().map(|_| std::time::Instant::now());
    loop {
        // Wake for the next flag fall (its deadline includes the grace for lag).
        let wake = hub.next_deadline().map(|t| t + Duration::from_millis(1));
        let sleep = async {
            match wake {
                Some(t) => {
                    tokio::time::sleep_until(tokio::time::Instant::from_std(started + t)).await
                }
                None => std::future::pending().await,
            }
        };
        let mut first = Vec::new();
        tokio::select! {
            n = rx.recv_many(&mut batch, BATCH) => {
                if n == 0 {
                    return;
                }
            }
            Some(reload) = reloads.recv() => first.push(reload),
            () = sleep => {}
        }
        reload::first(&mut batch, first, &mut reloads);
        let now = started.elapsed();
        let mut commit = Commit::default();
        let begun = stages.as_ref().map(|_| std::time::Instant::now());
        if let (Some(stages), Some(begun), Some(passed)) = (&mut stages, begun, passed) {
            stages.record(stages::AWAY, begun - passed);
        }
        commit.begun = begun;
        let mut stop = None;
        let load = Loader {
            store: &store,
            commit_tx: &commit_tx,
            writer: &writer,
            cluster,
            clock,
        };
        for command in batch.drain(..) {
            match command {
                Command::Connect(conn, tx, account) => {
                    commit.conns.push((conn, Some(tx)));
                    commit
                        .effects
                        .extend(hub.apply(Input::Connected(conn), now));
                    if let Some(account) = account {
                        commit
                            .effects
                            .extend(hub.apply(Input::SignedIn(conn, account), now));
                    }
                }
                Command::Disconnect(conn) => {
                    commit.conns.push((conn, None));
                    commit
                        .effects
                        .extend(hub.apply(Input::Disconnected(conn), now));
                }
                Command::Input(input) => {
                    // A `hello` for a match not in memory (finished and evicted, or unknown):
                    // load it from the database so it can be watched and replayed.
                    if let Some((conn, id)) = input.hello() {
                        let loaded = load.load(&mut hub, id, now).await;
                        commit.effects.extend(loaded.fx);
                        // Leaving a match: its messages so far in this batch reached this
                        // connection (withheld with the others' if a write of it is refused).
                        if let Some(left) = hub.match_of(conn).filter(|m| *m != id) {
                            let writes = commit
                                .effects
                                .iter()
                                .filter(|e| matches!(e, Effect::Store(_)))
                                .count();
                            commit.left.push((conn, left.to_owned(), writes));
                        }
                    }
                    commit.effects.extend(hub.apply(input, now));
                }
                Command::Rtt(conn, rtt) => hub.observe_rtt(conn, rtt),
                Command::Create { request, reply } => {
                    match hub.create_from(&request, now) {
                        Ok((id, fx)) => {
                            commit.effects.extend(fx);
                            // The match exists once it is stored: answer after the stores
                            // (not stored: the reply is dropped, and the asker is told the
                            // server is unavailable).
                            commit.then(Some(id.clone()), move |stored| {
                                if stored {
                                    let _ = reply.send(Ok(id));
                                }
                            });
                        }
                        Err(e) => {
                            let _ = reply.send(Err(e));
                        }
                    }
                }
                Command::State { id, reply } => {
                    let loaded = load.load(&mut hub, &id, now).await;
                    commit.effects.extend(loaded.fx);
                    let state = match loaded.elsewhere {
                        Some(stored) => scratch(&stored, clock, now, |h| h.public_state(&id, now)),
                        None => hub.public_state(&id, now),
                    };
                    let _ = reply.send(state);
                }
                Command::Positions { id, reply } => {
                    let loaded = load.load(&mut hub, &id, now).await;
                    commit.effects.extend(loaded.fx);
                    let positions = match loaded.elsewhere {
                        Some(stored) => scratch(&stored, clock, now, |h| h.positions(&id)),
                        None => hub.positions(&id),
                    };
                    let _ = reply.send(positions);
                }
                Command::Adopt { id, reply } => {
                    if hub.has_match(&id) {
                        let _ = reply.send(true);
                    } else {
                        let loaded = load.load(&mut hub, &id, now).await;
                        commit.effects.extend(loaded.fx);
                        let _ = reply.send(loaded.live);
                    }
                }
                Command::Drop { id } => {
                    bots.forget(&id);
                    commit.effects.extend(hub.drop_match(&id));
                }
                // What the batch made so far is handed over first: its writes of the match,
                // held, must reach the writer before the match is released. The commands after
                // this one (a `hello` of a client that reconnected) find the match reloaded.
                Command::Reload { match_id, refused } => {
                    let before = std::mem::take(&mut commit);
                    if !hand_over(&hub, before, &bots, cluster, &commit_tx).await {
                        return;
                    }
                    bots.forget(&match_id);
                    let mut again = Commit::default();
                    let restore = reloaded.restore_now(&match_id, now);
                    again.effects = load
                        .reload(&mut hub, &match_id, &refused, now, restore)
                        .await;
                    if !hand_over(&hub, again, &bots, cluster, &commit_tx).await {
                        return;
                    }
                }
                Command::Stop { reply } => {
                    stop = Some(reply);
                    break;
                }
                Command::Lobby { reply } => {
                    let _ = reply.send(hub.lobby_part(now));
                }
                Command::Place {
                    id,
                    name,
                    account,
                    reply,
                } => match hub.place(&id, &name, account.as_ref(), now) {
                    Ok((seat, token, fx)) => {
                        commit.effects.extend(fx);
                        commit.then(Some(id), move |stored| {
                            // Not stored: the seat is not taken (the match is reloaded).
                            let _ = reply.send(match stored {
                                true => Ok((seat, token)),
                                false => Err(PlaceError::NoSuchMatch),
                            });
                        });
                    }
                    Err(e) => {
                        let _ = reply.send(Err(e));
                    }
                },
                Command::CreatePlaced {
                    request,
                    name,
                    account,
                    reply,
                } => {
                    let created = hub.create_from(&request, now);
                    match created {
                        Ok((id, fx)) => {
                            commit.effects.extend(fx);
                            let created = id.clone();
                            let answer = match hub.place(&id, &name, account.as_ref(), now) {
                                Ok((seat, token, fx)) => {
                                    commit.effects.extend(fx);
                                    Ok((id, seat, token))
                                }
                                Err(e) => Err(PlayError::Place(e)),
                            };
                            commit.then(Some(created), move |stored| {
                                // Not stored: the reply is dropped (the server is unavailable).
                                if stored {
                                    let _ = reply.send(answer);
                                }
                            });
                        }
                        Err(e) => {
                            let _ = reply.send(Err(PlayError::Create(e)));
                        }
                    }
                }
                Command::Bpgn { id, reply } => match hub.bpgn(&id) {
                    Some(text) => {
                        let _ = reply.send(Some(text));
                    }
                    // Not in memory: the caller reads the archive, once what the hub handed
                    // the committer (the end of that match, say) is stored.
                    None => commit.then(None, move |_| {
                        let _ = reply.send(None);
                    }),
                },
            }
        }
        batch.clear();
        if stop.is_none() {
            commit.effects.extend(hub.apply(Input::Tick, now));
        }
        if !hand_over(&hub, commit, &bots, cluster, &commit_tx).await {
            return;
        }
        if let Some(reply) = stop {
            stored(&commit_tx).await;
            let _ = reply.send(());
            return;
        }
        hub.evict_finished();
        if let Some(stages) = &mut stages {
            let ended = std::time::Instant::now();
            if let Some(begun) = begun {
                stages.record(stages::APPLY, ended - begun);
            }
            stages.report_if_due();
            passed = Some(ended);
        }
    }
}

/// Hands a batch's commit to the committer: bot turns go to the bot runner, a finished
/// match's bots are freed (and, stored, its lease), a match created here is claimed before
/// anyone hears of it, and the watchers of each write's match are noted. False when the
/// committer is gone.
async fn hand_over(
    hub: &Hub,
    mut commit: Commit,
    bots: &BotRunner,
    cluster: Option<&Cluster>,
    commit_tx: &mpsc::Sender<Commit>,
) -> bool {
    let mut created = Vec::new();
    for effect in std::mem::take(&mut commit.effects) {
        match effect {
            Effect::BotTurn(turn) => bots.turn(turn),
            other => {
                let mut ended = None;
                match &other {
                    Effect::Store(Write::FinishMatch { match_id, .. }) => {
                        bots.forget(match_id);
                        ended = Some(match_id.clone());
                    }
                    Effect::Store(Write::CreateMatch(new)) if cluster.is_some() => {
                        created.push(new.id.clone());
                    }
                    _ => {}
                }
                commit.effects.push(other);
                // Its end stored, a match needs no owner any more.
                if let (Some(id), Some(cluster)) = (ended, cluster) {
                    let cluster = cluster.clone();
                    commit.then(Some(id.clone()), move |stored| {
                        if stored {
                            cluster.release_later(id);
                        }
                    });
                }
            }
        }
    }
    // A match created here is owned here (its lease taken before anyone hears of it).
    if let Some(cluster) = cluster {
        for id in created {
            cluster.claim_new(&id).await;
        }
    }
    commit.note_watchers(hub);
    commit_tx.send(commit).await.is_ok()
}

/// What loading a match needs: the store, the committer (to wait for what it holds), the
/// cluster (who owns what) and where server time stands.
pub(crate) struct Loader<'a> {
    pub(crate) store: &'a Store,
    /// The way to the database (whose matches held after a refused write are released on
    /// reload).
    pub(crate) writer: &'a Writer,
    pub(crate) commit_tx: &'a mpsc::Sender<Commit>,
    pub(crate) cluster: Option<&'a Cluster>,
    pub(crate) clock: ServerClock,
}

/// A match loaded from the store.
#[derive(Default)]
pub(crate) struct Loaded {
    /// The effects of its restore.
    pub(crate) fx: Vec<Effect>,
    /// In a cluster, a match in progress that another node owns: read, not restored here.
    pub(crate) elsewhere: Option<Box<bughouse_store::StoredMatch>>,
    /// It was restored here and is in progress.
    pub(crate) live: bool,
}

/// A view of a stored match computed on a hub of its own, thrown away after (a match in
/// progress on another node: every acknowledged move is in the store).
fn scratch<T>(
    stored: &bughouse_store::StoredMatch,
    clock: ServerClock,
    now: Duration,
    view: impl FnOnce(&Hub) -> Option<T>,
) -> Option<T> {
    let mut hub = Hub::new([0; 32]).with_unix_zero(clock.unix_ms);
    hub.restore(stored, now, None).ok()?;
    view(&hub)
}

impl Loader<'_> {
    /// Loads a match that is not in memory from the store: a finished one (evicted), or, in a
    /// cluster, one this node has just taken over, whose clocks resume from its last owner's
    /// last heartbeat.
    pub(crate) async fn load(&self, hub: &mut Hub, id: &str, now: Duration) -> Loaded {
        if hub.has_match(id) || id.len() > 64 {
            return Loaded::default();
        }
        // The database must first have what the hub handed over (the end of an evicted match).
        stored(self.commit_tx).await;
        let stored = match self.store.load_match(id).await {
            Ok(Some(stored)) => stored,
            Ok(None) => return Loaded::default(),
            Err(e) => {
                tracing::error!(match_id = %id, "cannot load: {e}");
                return Loaded::default();
            }
        };
        let live = stored.status != bughouse_store::MatchStatus::Finished;
        let mut alive_at = None;
        if let (true, Some(cluster)) = (live, self.cluster) {
            if !cluster.owns(id) {
                return Loaded {
                    elsewhere: Some(Box::new(stored)),
                    ..Loaded::default()
                };
            }
            if let Some(previous) = cluster.previous_owner(id) {
                // This node id's own predecessor: its heartbeat as read before this process
                // wrote one.
                let last = match cluster.own_last_alive(&previous) {
                    Some(last) => Ok(last),
                    None => self.store.last_alive(&previous).await,
                };
                match last {
                    Ok(last) => alive_at = self.clock.alive_at(last, stored.clock_anchor_ms),
                    Err(e) => tracing::error!(%previous, "cannot read the heartbeat: {e}"),
                }
            }
        }
        let fx = load_match(hub, self.store, &stored, now, alive_at).await;
        Loaded {
            fx,
            elsewhere: None,
            live: live && hub.has_match(id),
        }
    }
}

/// Restores a match read from the store (resuming at `alive_at`, or its last record); the
/// effects of its restore.
pub(crate) async fn load_match(
    hub: &mut Hub,
    store: &Store,
    stored: &bughouse_store::StoredMatch,
    now: Duration,
    alive_at: Option<Duration>,
) -> Vec<Effect> {
    let id = stored.id.as_str();
    match hub.restore(stored, now, alive_at) {
        Ok(fx) => {
            if hub.wants_rating_changes(id) {
                // A rated match shows what it changed, after a reload too.
                let players = store.match_rating_changes(id).await;
                let teams = store.match_team_rating_changes(id).await;
                match (players, teams) {
                    (Ok(players), Ok(teams)) => {
                        hub.set_stored_rating_changes(id, &players, &teams);
                    }
                    (Err(e), _) | (_, Err(e)) => {
                        tracing::error!(match_id = %id, "cannot read the rating changes: {e}");
                    }
                }
            }
            fx
        }
        Err(e) => {
            tracing::error!(match_id = %id, "cannot load: {e}");
            Vec::new()
        }
    }
}
