//! Stores before sends: the committer hands each batch's store effects to the writer (with
//! whatever else queued, in one transaction), and the sender, once they are stored, delivers the
//! batch's messages (each serialised once) and runs what waited for them.

use axum::extract::ws::Utf8Bytes;
use std::collections::HashMap;
use tokio::sync::{mpsc, oneshot};

use crate::hub::{encode, ConnId, Effect, Input, RateRequest, Write};
use crate::tournaments::Finished;

use super::*;

/// What the hub task hands the committer (and the committer the sender) for one batch of
/// commands.
#[derive(Default)]
pub(crate) struct Commit {
    /// Connections opened (with their outgoing queue) and closed, in order.
    pub(crate) conns: Vec<(ConnId, Option<OutSender>)>,
    /// The hub's effects, in order (without the store effects, once handed to the writer).
    pub(crate) effects: Vec<Effect>,
    /// To run once the batch's writes are stored and its messages sent (answers).
    pub(crate) after: Vec<Box<dyn FnOnce() + Send>>,
}

/// What applies the ratings of rated matches once their end is stored: the store, and the
/// shard's inbox, where the changes go back to the hub ([`Input::Rated`]).
pub(crate) struct Rater {
    pub(crate) store: bughouse_store::Store,
    /// Weak, so that the hub task still ends when everyone else has dropped its inbox.
    pub(crate) inbox: mpsc::WeakSender<Command>,
}

impl Rater {
    /// Rates a finished match (its end is stored) on a task of its own: one transaction in the
    /// store, then the changes to the hub, which keeps them for the match's state and sends
    /// them to its watchers after the `ended` already on its way.
    fn rate(&self, request: RateRequest) {
        let store = self.store.clone();
        let inbox = self.inbox.clone();
        tokio::spawn(async move {
            let config = bughouse_store::rating::Config::default();
            let match_id = request.seats.match_id.clone();
            match store.rate_seats(&request.seats, &config).await {
                Ok(applied) => {
                    tracing::info!(%match_id, "ratings applied");
                    let changes = crate::hub::rating_changes(&request, &applied);
                    if let Some(inbox) = inbox.upgrade() {
                        let _ = inbox
                            .send(Command::Input(Input::Rated { match_id, changes }))
                            .await;
                    }
                }
                Err(bughouse_store::AccountError::AlreadyRated(_)) => {
                    tracing::info!(%match_id, "rated already");
                }
                Err(e) => tracing::error!(%match_id, "the ratings were not applied: {e}"),
            }
        });
    }
}

/// The most transactions handed to the writer whose results the sender has not taken yet.
const SEND_QUEUE: usize = 64;

/// A transaction handed to the writer: what waits for it.
pub(crate) struct Handed {
    /// Its writes and their results (once stored).
    pending: Pending,
    /// The batches whose writes it holds, their messages to be sent once it is stored.
    commits: Vec<Commit>,
    /// Matches that end in it (with their board results, for the tournaments), each with the
    /// place of its `FinishMatch` among the writes.
    ended: Vec<(usize, Finished)>,
    /// Rated matches that end in it: rated once their end is stored.
    to_rate: Vec<RateRequest>,
}

/// Takes the batches of the hub task in order and hands their writes to the writer (whatever
/// queued meanwhile in one transaction), then hands the sender task what waits for them. The
/// hub goes on with its next commands meanwhile, and on SQLite the committer with its next
/// batches, which the writer stores in its next transaction (one commit, one `fsync`, with
/// those of the other shards). The sender takes the transactions in order, waits until each is
/// stored, and only then sends its messages: nothing is acknowledged before it is stored.
/// Matches that ended are reported to `finished` once stored (the tournaments enter their
/// results).
pub(crate) async fn committer(
    mut rx: mpsc::Receiver<Commit>,
    writer: Writer,
    finished: mpsc::UnboundedSender<Finished>,
    rater: Rater,
) {
    let (send_tx, send_rx) = mpsc::channel::<Handed>(SEND_QUEUE);
    tokio::spawn(sender(send_rx, finished, rater));
    let mut queued = Vec::new();
    while rx.recv_many(&mut queued, COMMIT_QUEUE).await > 0 {
        let mut writes = Vec::new();
        let mut ended = Vec::new();
        let mut to_rate = Vec::new();
        for commit in &mut queued {
            let mut others = Vec::with_capacity(commit.effects.len());
            for effect in commit.effects.drain(..) {
                match effect {
                    Effect::Rate(request) => to_rate.push(request),
                    Effect::Store(write) => {
                        if let Write::FinishMatch {
                            match_id,
                            board_results,
                            ..
                        } = &write
                        {
                            let end = (match_id.clone(), board_results.clone());
                            ended.push((writes.len(), end));
                        }
                        writes.push(write);
                    }
                    other => others.push(other),
                }
            }
            commit.effects = others;
        }
        let pending = if writes.is_empty() {
            Pending::Done((Vec::new(), Vec::new()))
        } else {
            writer.submit(writes).await
        };
        let handed = Handed {
            pending,
            commits: std::mem::take(&mut queued),
            ended,
            to_rate,
        };
        if send_tx.send(handed).await.is_err() {
            return;
        }
    }
}

/// Waits until a transaction is stored; rates the rated matches whose end it stored, and
/// reports the ended ones to the tournaments.
async fn stored_ends(
    handed: Handed,
    finished: &mpsc::UnboundedSender<Finished>,
    rater: &Rater,
) -> Vec<Commit> {
    let (_, results) = handed.pending.results().await;
    for result in &results {
        if let Err(e) = result {
            tracing::error!("storage: {e}");
        }
    }
    // The matches whose end was stored: only those are rated.
    let stored = |match_id: &str| {
        handed
            .ended
            .iter()
            .any(|(i, (id, _))| id == match_id && matches!(results.get(*i), Some(Ok(()))))
    };
    for request in handed.to_rate {
        if stored(&request.seats.match_id) {
            rater.rate(request);
        }
    }
    for (_, end) in handed.ended {
        let _ = finished.send(end);
    }
    handed.commits
}

/// Waits until everything handed to the committer so far is stored (and sent).
pub(crate) async fn stored(commit_tx: &mpsc::Sender<Commit>) {
    let (done, wait) = oneshot::channel();
    let barrier = Commit {
        after: vec![Box::new(move || {
            let _ = done.send(());
        })],
        ..Commit::default()
    };
    if commit_tx.send(barrier).await.is_ok() {
        let _ = wait.await;
    }
}

/// Sends the messages of stored batches, in order (each once its transaction is stored), and
/// runs what waited for them.
pub(crate) async fn sender(
    mut rx: mpsc::Receiver<Handed>,
    finished: mpsc::UnboundedSender<Finished>,
    rater: Rater,
) {
    let mut senders: HashMap<ConnId, OutSender> = HashMap::new();
    while let Some(handed) = rx.recv().await {
        for commit in stored_ends(handed, &finished, &rater).await {
            for (conn, tx) in commit.conns {
                match tx {
                    Some(tx) => {
                        senders.insert(conn, tx);
                    }
                    None => {
                        senders.remove(&conn);
                    }
                }
            }
            send(commit.effects, &senders);
            for after in commit.after {
                after();
            }
        }
    }
}

/// Sends the messages (each serialised once) and closes: everything for one connection with one
/// `send_all` (a move's `ack` and `moved` to its player with one write), in order.
pub(crate) fn send(effects: Vec<Effect>, senders: &HashMap<ConnId, OutSender>) {
    let mut outs: Vec<(ConnId, Outgoing)> = Vec::new();
    for effect in effects {
        match effect {
            Effect::Send(to, msg) => {
                let text: Utf8Bytes = match encode(&msg) {
                    Ok(t) => t.into(),
                    Err(e) => {
                        tracing::error!("cannot encode a message: {e}");
                        continue;
                    }
                };
                outs.extend(
                    to.into_iter()
                        .map(|conn| (conn, Outgoing::Text(text.clone()))),
                );
            }
            Effect::Close(conn) => outs.push((conn, Outgoing::Close)),
            Effect::Store(_) | Effect::BotTurn(_) | Effect::Rate(_) => {}
        }
    }
    // A stable sort: each connection's messages keep their order.
    outs.sort_by_key(|(conn, _)| *conn);
    let mut run = Vec::new();
    let mut outs = outs.into_iter().peekable();
    while let Some((conn, out)) = outs.next() {
        run.push(out);
        while let Some((_, out)) = outs.next_if(|(next, _)| *next == conn) {
            run.push(out);
        }
        match senders.get(&conn) {
            Some(tx) => {
                let _ = tx.send_all(&mut run);
            }
            None => run.clear(),
        }
    }
}
