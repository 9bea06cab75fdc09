//! Stores before sends: the committer hands each batch's store effects to the writer (with
//! whatever else queued, in one transaction), and the sender, once they are stored, delivers the
//! batch's messages (each serialised once) and runs what waited for them.
//!
//! A write the database refuses for good (not a passing failure, which is tried again until it
//! is stored, nor a duplicate of a stored row) is never acknowledged: the batch's messages after
//! it to the watchers of its match are withheld and their connections closed (their clients
//! reconnect and read the state anew), and what waited for it is told it was not stored. The
//! batch's other matches, whose writes were stored, are not disturbed. The match's later writes
//! are held (see `writer.rs`), and its shard reloads it from the store: the hub forgets what
//! was not stored and answers the refused actions, when they are sent again, with
//! `not_stored`.

use std::collections::HashMap;
use tokio::sync::{mpsc, oneshot};

use bughouse_protocol::ServerMessage;
use bughouse_store::StoreError;

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
    /// To run once the batch's writes are stored and its messages sent (answers), each with
    /// the number of store effects before it and the match it answers for ([`Commit::then`]).
    pub(crate) after: Vec<(usize, Option<String>, After)>,
    /// Filled by the committer: each write of the batch, its place among the transaction's
    /// writes and the number of the batch's other effects before it.
    written: Vec<(usize, usize)>,
    /// The connections watching the match of each write (by the write's number among the
    /// batch's writes) when the batch was handed over ([`Commit::note_watchers`]): the ones
    /// whose messages are withheld when their match's write is refused.
    watching: Vec<(usize, ConnId)>,
    /// Connections that left a match for another within the batch (by a `hello`), with the
    /// match they left and the number of the batch's writes before: they got the batch's
    /// messages about it until then, so they count among its watchers for those writes.
    pub(crate) left: Vec<(ConnId, String, usize)>,
    /// When the hub began the batch, if its stages are timed (`stages.rs`).
    pub(crate) begun: Option<std::time::Instant>,
}

/// What runs once a batch is stored: told whether every write before it (of its match) was
/// stored (false: one was refused).
pub(crate) type After = Box<dyn FnOnce(bool) + Send>;

impl Commit {
    /// Runs `f` once what the batch holds so far is stored and sent, telling it whether it
    /// was all stored: every write so far of `match_id`, or of any match if `None`.
    pub(crate) fn then(&mut self, match_id: Option<String>, f: impl FnOnce(bool) + Send + 'static) {
        let writes = self
            .effects
            .iter()
            .filter(|e| matches!(e, Effect::Store(_)))
            .count();
        self.after.push((writes, match_id, Box::new(f)));
    }

    /// Notes who watches the match of each of the batch's writes, from the hub that made them,
    /// and who left it within the batch after that write.
    pub(crate) fn note_watchers(&mut self, hub: &crate::hub::Hub) {
        let writes = self.effects.iter().filter_map(|e| match e {
            Effect::Store(write) => Some(write),
            _ => None,
        });
        for (n, write) in writes.enumerate() {
            let id = write.match_id();
            let watchers = hub.watchers_of(id);
            self.watching.extend(watchers.iter().map(|&conn| (n, conn)));
            let left = self
                .left
                .iter()
                .filter(|(_, m, before)| m == id && n < *before);
            self.watching.extend(left.map(|&(conn, _, _)| (n, conn)));
        }
    }

    /// The matches the store refused a write of in this batch, and the connections watching
    /// them (sorted, each once).
    fn refused_matches(
        &self,
        writes: &[Write],
        results: &[Result<(), StoreError>],
    ) -> (Vec<String>, Vec<ConnId>) {
        let mut matches: Vec<String> = Vec::new();
        for (i, _) in &self.written {
            let refused = refused_at(results, *i);
            if let (true, Some(write)) = (refused, writes.get(*i)) {
                if !matches.iter().any(|m| m == write.match_id()) {
                    matches.push(write.match_id().to_owned());
                }
            }
        }
        let mut conns: Vec<ConnId> = self
            .watching
            .iter()
            .filter(|(n, _)| {
                self.written
                    .get(*n)
                    .and_then(|(i, _)| writes.get(*i))
                    .is_some_and(|w| matches.iter().any(|m| m == w.match_id()))
            })
            .map(|(_, conn)| *conn)
            .collect();
        conns.sort_unstable();
        conns.dedup();
        (matches, conns)
    }

    /// Whether the batch's first `count` writes of `match_id` (of any match if `None`) were
    /// all stored.
    fn all_stored(
        &self,
        count: usize,
        match_id: Option<&str>,
        writes: &[Write],
        results: &[Result<(), StoreError>],
    ) -> bool {
        !self.written.iter().take(count).any(|(i, _)| {
            let refused = refused_at(results, *i);
            refused && match_id.is_none_or(|id| writes.get(*i).is_some_and(|w| w.match_id() == id))
        })
    }

    /// Where the batch's first write that the database refused stood: the number of the
    /// batch's other effects before it.
    fn first_refused(&self, results: &[Result<(), StoreError>]) -> Option<usize> {
        self.written
            .iter()
            .find(|(i, _)| refused_at(results, *i))
            .map(|(_, at)| *at)
    }
}

/// Whether the transaction's write `i` was refused for good.
fn refused_at(results: &[Result<(), StoreError>], i: usize) -> bool {
    results
        .get(i)
        .is_some_and(|r| r.as_ref().is_err_and(StoreError::is_refusal))
}

/// What applies the ratings of rated matches once their end is stored: the store, and the
/// shard's inbox, where the changes go back to the hub ([`Input::Rated`]); and the shard's
/// way for reloads, where a match one of whose writes was refused is sent to be reloaded
/// ([`Command::Reload`]).
pub(crate) struct Rater {
    pub(crate) store: bughouse_store::Store,
    /// Weak, so that the hub task still ends when everyone else has dropped its inbox.
    pub(crate) inbox: mpsc::WeakSender<Command>,
    /// Unbounded, and read by the shard before each batch of its inbox.
    pub(crate) reloads: mpsc::UnboundedSender<Command>,
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

    /// Has the shard reload a match one of whose writes was refused, and answer the refused
    /// actions (seat and id) with `not_stored` when they are sent again.
    ///
    /// Queued before the batch's connections are closed, on a way of its own that never makes
    /// the sender wait (the shard may be waiting for it: [`stored`]) and that the shard reads
    /// before each batch of its inbox: the `hello` of a client that reconnects after the close
    /// is in a later batch, and finds the match reloaded.
    fn reload(&self, match_id: String, refused: Vec<(u8, u64)>) {
        let _ = self.reloads.send(Command::Reload { match_id, refused });
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
                        commit.written.push((writes.len(), others.len()));
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

/// Waits until a transaction is stored; rates the rated matches whose end it stored, reports
/// the ended ones to the tournaments, and has the matches one of whose writes was refused
/// reloaded. The batches, with the transaction's writes and their results.
async fn stored_ends(
    handed: Handed,
    finished: &mpsc::UnboundedSender<Finished>,
    rater: &Rater,
) -> (Vec<Commit>, Stored) {
    let (writes, results) = handed.pending.results().await;
    let mut refused: Vec<(String, Vec<(u8, u64)>)> = Vec::new();
    for (write, result) in writes.iter().zip(&results) {
        let Err(e) = result else { continue };
        if !e.is_refusal() {
            tracing::warn!("storage: stored already: {e}");
            continue;
        }
        tracing::error!("storage: refused, not acknowledged: {e}");
        if matches!(e, StoreError::Held(_)) {
            // Its match is on its way to be reloaded.
            continue;
        }
        let id = write.match_id();
        let i = match refused.iter().position(|(m, _)| m == id) {
            Some(i) => i,
            None => {
                refused.push((id.to_owned(), Vec::new()));
                refused.len() - 1
            }
        };
        if let Some(action) = action_of(write) {
            refused[i].1.push(action);
        }
    }
    for (match_id, actions) in refused {
        rater.reload(match_id, actions);
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
    for (i, end) in handed.ended {
        if matches!(results.get(i), Some(Ok(()))) {
            let _ = finished.send(end);
        }
    }
    (handed.commits, (writes, results))
}

/// The seat and client id of the action a write stores, if it has one.
fn action_of(write: &Write) -> Option<(u8, u64)> {
    let (seat, id) = match write {
        Write::RecordMove(mv) => (mv.seat, mv.action_id),
        Write::RecordEvent(ev) => (ev.seat, ev.action_id),
        Write::RecordTalk(t) => (t.seat, t.action_id),
        _ => return None,
    };
    Some((seat, u64::try_from(id?).ok()?))
}

/// Waits until everything handed to the committer so far is stored (and sent).
pub(crate) async fn stored(commit_tx: &mpsc::Sender<Commit>) {
    let (done, wait) = oneshot::channel();
    let mut barrier = Commit::default();
    barrier.then(None, move |_| {
        let _ = done.send(());
    });
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
    let mut stages = super::stages::Stages::new("the sender", super::stages::SENDER);
    while let Some(handed) = rx.recv().await {
        let (commits, (writes, results)) = stored_ends(handed, &finished, &rater).await;
        let stored_at = stages.as_ref().map(|_| std::time::Instant::now());
        for mut commit in commits {
            let begun = commit.begun;
            let writes_of_batch = commit.written.len();
            let refused = commit.first_refused(&results);
            if let Some(at) = refused {
                let (matches, watchers) = commit.refused_matches(&writes, &results);
                withhold(&mut commit.effects, at, &matches, &watchers);
            }
            for (conn, tx) in commit.conns.drain(..) {
                match tx {
                    Some(tx) => {
                        senders.insert(conn, tx);
                    }
                    None => {
                        senders.remove(&conn);
                    }
                }
            }
            send(std::mem::take(&mut commit.effects), &senders);
            if let (Some(stages), Some(begun), Some(stored_at)) = (&mut stages, begun, stored_at) {
                // Once per write: the figures are those of a write (a move, mostly).
                use super::stages::{SEND, STORE};
                stages.record_n(STORE, stored_at - begun, writes_of_batch);
                stages.record_n(SEND, stored_at.elapsed(), writes_of_batch);
            }
            for (count, match_id, after) in std::mem::take(&mut commit.after) {
                let stored = refused.is_none()
                    || commit.all_stored(count, match_id.as_deref(), &writes, &results);
                after(stored);
            }
        }
        if let Some(stages) = &mut stages {
            stages.report_if_due();
        }
    }
}

/// Withholds the messages from the effect `at` on that tell of what was not stored: those to
/// the connections watching a match a write of which was refused (`watchers`, sorted), and the
/// offers of a rematch whose creation was refused (one of `matches`). Their recipients'
/// connections are closed instead, after the rest: their clients reconnect and read the state
/// as stored. The other matches' messages of the batch go out as they are (their writes are
/// stored: [`Commit::all_stored`]).
fn withhold(effects: &mut Vec<Effect>, at: usize, matches: &[String], watchers: &[ConnId]) {
    let mut closed: Vec<ConnId> = Vec::new();
    for effect in effects.drain(at.min(effects.len())..).collect::<Vec<_>>() {
        match effect {
            Effect::Send(to, msg) => {
                let refused_rematch = matches!(
                    &msg,
                    ServerMessage::Rematch { match_id } if matches.contains(match_id)
                );
                let (shut, open): (Vec<ConnId>, Vec<ConnId>) = to
                    .into_iter()
                    .partition(|c| refused_rematch || watchers.binary_search(c).is_ok());
                closed.extend(shut);
                if !open.is_empty() {
                    effects.push(Effect::Send(open, msg));
                }
            }
            other => effects.push(other),
        }
    }
    closed.sort_unstable();
    closed.dedup();
    effects.extend(closed.into_iter().map(Effect::Close));
}

/// Sends the messages (each serialised once) and closes: everything for one connection with one
/// `send_all` (a move's `ack` and `moved` to its player with one write), in order.
pub(crate) fn send(effects: Vec<Effect>, senders: &HashMap<ConnId, OutSender>) {
    let mut outs: Vec<(ConnId, Outgoing)> = Vec::new();
    for effect in effects {
        match effect {
            Effect::Send(to, msg) => {
                let text = match encode(&msg) {
                    Ok(t) => t,
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

#[cfg(test)]
mod tests {
    use super::*;

    fn pong() -> ServerMessage {
        ServerMessage::Pong {
            t: 0.0,
            server_ms: 0,
            lag_ms: None,
            quota_ms: None,
        }
    }

    fn refused() -> Result<(), StoreError> {
        Err(StoreError::Invalid("refused".into()))
    }

    fn write_of(match_id: &str) -> Write {
        Write::SetClockAnchor {
            match_id: match_id.into(),
            anchor_ms: 0,
        }
    }

    /// The messages after a refused write to the watchers of its match are replaced by
    /// closing their connections (each once, after the rest); those before it, the closes and
    /// the messages to other matches' watchers stay, and a message to both keeps the others.
    #[test]
    fn messages_after_a_refused_write_to_its_matchs_watchers_become_closes() {
        let mut effects = vec![
            Effect::Send(vec![1], pong()),
            Effect::Send(vec![2, 3], pong()),
            Effect::Close(4),
            Effect::Send(vec![3, 1], pong()),
            Effect::Send(vec![5, 6], pong()),
            Effect::Send(vec![2, 5], pong()),
        ];
        withhold(&mut effects, 1, &["a".into()], &[1, 2, 3]);
        assert!(matches!(&effects[0], Effect::Send(to, _) if to == &[1]));
        assert!(matches!(&effects[1], Effect::Close(4)));
        assert!(matches!(&effects[2], Effect::Send(to, _) if to == &[5, 6]));
        assert!(matches!(&effects[3], Effect::Send(to, _) if to == &[5]));
        let closed: Vec<ConnId> = effects[4..]
            .iter()
            .map(|e| match e {
                Effect::Close(c) => *c,
                other => panic!("a message was not withheld: {other:?}"),
            })
            .collect();
        assert_eq!(closed, [1, 2, 3]);
    }

    /// The offer of a rematch whose creation was refused is withheld from everyone it was
    /// for (the old match's watchers, who watch no refused match).
    #[test]
    fn a_refused_rematch_is_not_offered() {
        let rematch = |id: &str| ServerMessage::Rematch {
            match_id: id.into(),
        };
        let mut effects = vec![
            Effect::Send(vec![7, 8], rematch("new")),
            Effect::Send(vec![9], rematch("other")),
        ];
        withhold(&mut effects, 0, &["new".into()], &[]);
        assert!(matches!(&effects[0], Effect::Send(to, _) if to == &[9]));
        assert!(matches!(
            &effects[1..],
            [Effect::Close(7), Effect::Close(8)]
        ));
    }

    /// The watchers noted for each write are those of the refused writes' matches only.
    #[test]
    fn the_watchers_of_the_refused_matches_are_found_by_their_writes() {
        let commit = Commit {
            written: vec![(0, 0), (1, 0), (2, 1)],
            watching: vec![(0, 10), (0, 11), (1, 20), (2, 11), (2, 12)],
            ..Commit::default()
        };
        let writes = [write_of("a"), write_of("b"), write_of("a")];
        let (matches, conns) = commit.refused_matches(&writes, &[Ok(()), Ok(()), refused()]);
        assert_eq!(matches, ["a"]);
        assert_eq!(conns, [10, 11, 12]);
        let (matches, conns) = commit.refused_matches(&writes, &[Ok(()), Ok(()), Ok(())]);
        assert!(matches.is_empty() && conns.is_empty());
    }

    /// A connection that left a match within the batch counts among its watchers for the
    /// writes of that match made before it left, and for nothing else.
    #[test]
    fn a_connection_that_left_a_match_in_the_batch_counts_among_its_watchers() {
        let mut commit = Commit::default();
        commit.effects.push(Effect::Store(write_of("a")));
        commit.effects.push(Effect::Store(write_of("b")));
        commit.effects.push(Effect::Store(write_of("a")));
        commit.left = vec![
            (30, "a".into(), 2),
            (31, "c".into(), 3),
            (32, "a".into(), 0),
        ];
        commit.note_watchers(&crate::hub::Hub::new([0; 32]));
        assert_eq!(commit.watching, [(0, 30)]);
    }

    /// What waited for a batch is told whether its own match's writes before it were stored:
    /// a refusal of another match, or after it, does not count.
    #[test]
    fn an_answer_is_stored_when_its_matches_writes_before_it_are() {
        let mut commit = Commit::default();
        commit.effects.push(Effect::Store(write_of("a")));
        commit.then(Some("a".into()), |_| {});
        commit.effects.push(Effect::Store(write_of("b")));
        commit.then(Some("a".into()), |_| {});
        commit.then(Some("b".into()), |_| {});
        commit.then(None, |_| {});
        commit.written = vec![(0, 0), (1, 0)];
        let writes = [write_of("a"), write_of("b")];
        let results = [Ok(()), refused()];
        let told: Vec<bool> = commit
            .after
            .iter()
            .map(|(count, id, _)| commit.all_stored(*count, id.as_deref(), &writes, &results))
            .collect();
        assert_eq!(told, [true, true, false, false]);
        assert_eq!(commit.first_refused(&results), Some(0));
        assert_eq!(commit.first_refused(&[Ok(()), Ok(())]), None);
    }
}
