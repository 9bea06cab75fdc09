//! A shard's task: it owns the shard's [`Hub`], applies a batch of commands at a time with the
//! server time as `now`, and hands each batch's effects to the committer
//! ([`Commit`]): stores first, sends after. It also wakes for flag falls.

use std::time::Duration;

use bughouse_store::Store;
use tokio::sync::mpsc;

use super::load::scratch;
use super::*;
use crate::app::ServerClock;
use crate::bots::BotRunner;
use crate::cluster::Cluster;
use crate::hub::{Effect, Hub, Input, PlaceError, Write};
use crate::tournaments::Finished;

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
