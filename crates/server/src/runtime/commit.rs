//! Stores before sends: the committer writes each batch's store effects in one transaction,
//! then the sender delivers its messages (each serialised once) and runs what waited for them.

use std::collections::HashMap;
use std::time::Duration;

use axum::extract::ws::Utf8Bytes;
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
    /// The hub's effects, in order (without the store effects, once stored).
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

/// The most stored transactions waiting for the sender.
const SEND_QUEUE: usize = 64;

/// Stores the batches of the hub task in order, then hands them to the sender task. While it
/// waits for the database the hub goes on with the next commands; the batches that queue up
/// meanwhile are stored together in one transaction (one commit, one `fsync`), and their
/// messages sent after it, so nothing is acknowledged before it is stored. Matches that ended
/// are reported to `finished` once stored (the tournaments enter their results).
pub(crate) async fn committer(
    mut rx: mpsc::Receiver<Commit>,
    writer: Writer,
    finished: mpsc::UnboundedSender<Finished>,
    rater: Rater,
) {
    let (send_tx, send_rx) = mpsc::channel::<Vec<Commit>>(SEND_QUEUE);
    tokio::spawn(sender(send_rx));
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
                            ended.push((match_id.clone(), board_results.clone()));
                        }
                        writes.push(write);
                    }
                    other => others.push(other),
                }
            }
            commit.effects = others;
        }
        // The matches whose end was stored: only those are rated.
        let mut ends_stored = Vec::new();
        if !writes.is_empty() {
            // (Looked at only when a rated match ended: a move's path allocates nothing more.)
            let finishes: Vec<(usize, String)> = if to_rate.is_empty() {
                Vec::new()
            } else {
                writes
                    .iter()
                    .enumerate()
                    .filter_map(|(i, w)| match w {
                        Write::FinishMatch { match_id, .. } => Some((i, match_id.clone())),
                        _ => None,
                    })
                    .collect()
            };
            let results = store_until_reached(&writer, writes).await;
            for result in &results {
                if let Err(e) = result {
                    tracing::error!("storage: {e}");
                }
            }
            for (i, match_id) in finishes {
                if matches!(results.get(i), Some(Ok(()))) {
                    ends_stored.push(match_id);
                }
            }
        }
        for request in to_rate {
            if ends_stored.contains(&request.seats.match_id) {
                rater.rate(request);
            }
        }
        for end in ended {
            let _ = finished.send(end);
        }
        // Stored: the messages may go, while the next batches are stored.
        let stored = std::mem::take(&mut queued);
        if send_tx.send(stored).await.is_err() {
            return;
        }
    }
}

/// The longest wait between two tries of writes the database could not take.
const RETRY_AT_MOST: Duration = Duration::from_secs(2);

/// Stores `writes` in order; the writes that failed because the database could not be reached
/// or was busy ([`StoreError::is_transient`]) are tried again, in order, after a wait that
/// doubles up to [`RETRY_AT_MOST`], until it takes them. Meanwhile the batches' messages wait
/// (nothing is acknowledged that is not stored) and the hub goes on until the commit queue is
/// full. Writes refused for what they are keep their error.
async fn store_until_reached(
    writer: &Writer,
    writes: Vec<Write>,
) -> Vec<Result<(), bughouse_store::StoreError>> {
    let (writes, mut results) = writer.write(writes).await;
    let mut wait = Duration::from_millis(50);
    loop {
        let again: Vec<usize> = results
            .iter()
            .enumerate()
            .filter(|(_, r)| r.as_ref().is_err_and(|e| e.is_transient()))
            .map(|(i, _)| i)
            .collect();
        let Some(first) = again.first() else {
            return results;
        };
        if let Err(e) = &results[*first] {
            tracing::warn!(
                "storage unreachable, {} writes held (their messages wait), trying again in {} ms: {e}",
                again.len(),
                wait.as_millis()
            );
        }
        tokio::time::sleep(wait).await;
        wait = (wait * 2).min(RETRY_AT_MOST);
        let (_, retried) = writer
            .write(again.iter().map(|&i| writes[i].clone()).collect())
            .await;
        for (i, result) in again.into_iter().zip(retried) {
            results[i] = result;
        }
    }
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

/// Sends the messages of stored batches, in order, and runs what waited for them.
pub(crate) async fn sender(mut rx: mpsc::Receiver<Vec<Commit>>) {
    let mut senders: HashMap<ConnId, OutSender> = HashMap::new();
    while let Some(commits) = rx.recv().await {
        for commit in commits {
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

/// Sends the messages (each serialised once) and closes.
pub(crate) fn send(effects: Vec<Effect>, senders: &HashMap<ConnId, OutSender>) {
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
                for conn in to {
                    if let Some(tx) = senders.get(&conn) {
                        let _ = tx.send(Outgoing::Text(text.clone()));
                    }
                }
            }
            Effect::Close(conn) => {
                if let Some(tx) = senders.get(&conn) {
                    let _ = tx.send(Outgoing::Close);
                }
            }
            Effect::Store(_) | Effect::BotTurn(_) | Effect::Rate(_) => {}
        }
    }
}
