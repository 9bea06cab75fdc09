//! Where the committers' writes go. SQLite has one writer at a time: committers of several
//! shards writing to it side by side would take turns on its lock, each waiting in SQLite's
//! busy handler (which sleeps 1, 2, 5, 10 ms and more between tries) for the other's commit. So
//! on SQLite the shards hand their batches to one writer, which stores everything queued in one
//! transaction (one commit, one `fsync`, for all shards) and answers each shard. A committer
//! does not wait for that answer before it hands over its next batch: while one transaction is
//! being written, the batches of every shard queue up for the next.
//!
//! The writer runs on a thread of its own (with a single-threaded runtime). On the server's
//! runtime it would wait, after each statement SQLite's worker thread answered, behind the
//! thousands of socket tasks ready to run: measured at 4,900 matches, that doubled the time of a
//! transaction (median 8 ms against 4 ms) and every move waited for it.
//!
//! PostgreSQL takes concurrent transactions: each committer writes directly, and in order.
//!
//! A write the database refuses (neither a passing failure, tried again, nor a duplicate) holds
//! its match: the match's later writes are not stored ([`StoreError::Held`]) until the shard
//! has reloaded it from the store and [released](Writer::release) it, so that no record has a
//! gap (see `commit.rs`).

use std::collections::HashSet;
use std::sync::{Arc, Mutex, PoisonError};
use std::time::{Duration, Instant};

use bughouse_store::{Backend, Store, StoreError, Write};
use tokio::sync::{mpsc, oneshot};

/// The most shard batches waiting for the writer (a committer waits beyond: the back pressure
/// of a slow database); it stores all of them in one transaction.
const GROUP: usize = 64;

/// Writes given back with one result each.
pub(crate) type Stored = (Vec<Write>, Vec<Result<(), StoreError>>);

/// A batch of writes and where its results go.
pub(crate) struct Request {
    writes: Vec<Write>,
    reply: oneshot::Sender<Stored>,
    /// When the batch was handed over, if the stages are timed (`stages.rs`).
    handed: Option<Instant>,
}

/// The committers' way to the database.
#[derive(Clone)]
pub(crate) struct Writer {
    way: Way,
    held: Held,
}

#[derive(Clone)]
enum Way {
    /// Each committer writes directly (PostgreSQL).
    Direct(Store),
    /// One writer stores for all (SQLite).
    Shared(mpsc::Sender<Request>),
}

/// The matches one of whose writes was refused: their later writes are not stored until they
/// are released. Each match belongs to one shard, whose writes reach the database in order.
#[derive(Clone, Default)]
struct Held(Arc<Mutex<HashSet<String>>>);

impl Held {
    fn with<T>(&self, f: impl FnOnce(&mut HashSet<String>) -> T) -> T {
        f(&mut self.0.lock().unwrap_or_else(PoisonError::into_inner))
    }
}

/// Writes handed to the writer: their results, now or once it has stored them.
pub(crate) enum Pending {
    Done(Stored),
    Queued(usize, oneshot::Receiver<Stored>),
}

impl Pending {
    /// The writes back with their results, in order.
    pub(crate) async fn results(self) -> Stored {
        match self {
            Pending::Done(stored) => stored,
            // The writer ended without answering (the server stops): the writes are gone with
            // it, and refused as closed, which is not tried again.
            Pending::Queued(n, answer) => answer.await.unwrap_or_else(|_| closed(Vec::new(), n)),
        }
    }
}

fn closed(writes: Vec<Write>, n: usize) -> Stored {
    (writes, (0..n).map(|_| Err(StoreError::Closed)).collect())
}

impl Writer {
    /// A writer for `store`: shared (with its thread started) on SQLite, direct on PostgreSQL.
    pub(crate) fn new(store: &Store) -> Writer {
        let held = Held::default();
        let way = match store.backend() {
            Backend::Postgres => Way::Direct(store.clone()),
            Backend::Sqlite => {
                let (tx, rx) = mpsc::channel(GROUP);
                // The thread ends when every committer has dropped its sender.
                let task = writer_task(store.clone(), rx, held.clone());
                super::spawn_on_own_thread("sqlite-writer", task);
                Way::Shared(tx)
            }
        };
        Writer { way, held }
    }

    /// Lets the writes of a match held after a refusal be stored again: called once everything
    /// handed over before is stored, and the match reloaded from the store.
    pub(crate) fn release(&self, match_id: &str) {
        self.held.with(|held| held.remove(match_id));
    }

    /// Hands over writes to be stored in order, in one transaction when they all succeed, the
    /// failures that are [transient](StoreError::is_transient) tried again until the database
    /// takes them, before anything handed over later. Directly, this stores them before it
    /// returns; shared, it returns once they are queued (it waits only while the writer's queue
    /// is full).
    pub(crate) async fn submit(&self, writes: Vec<Write>) -> Pending {
        match &self.way {
            Way::Direct(store) => {
                Pending::Done(store_until_reached(store, writes, &self.held).await)
            }
            Way::Shared(tx) => {
                let n = writes.len();
                let (reply, answer) = oneshot::channel();
                let request = Request {
                    writes,
                    reply,
                    handed: super::stages::now(),
                };
                match tx.send(request).await {
                    Ok(()) => Pending::Queued(n, answer),
                    Err(mpsc::error::SendError(request)) => {
                        Pending::Done(closed(request.writes, n))
                    }
                }
            }
        }
    }
}

/// Stores what the shards queued, all of it in one transaction, and answers each.
async fn writer_task(store: Store, mut rx: mpsc::Receiver<Request>, held: Held) {
    use super::stages::{Stages, QUEUE, TRANSACTION, WRITER};
    let mut stages = Stages::new("the writer", WRITER);
    let mut queued = Vec::with_capacity(GROUP);
    while rx.recv_many(&mut queued, GROUP).await > 0 {
        let mut all = Vec::new();
        let mut sizes = Vec::with_capacity(queued.len());
        let begun = stages.as_ref().map(|_| Instant::now());
        for request in &mut queued {
            sizes.push(request.writes.len());
            all.append(&mut request.writes);
            if let (Some(stages), Some(begun), Some(handed)) =
                (stages.as_mut(), begun, request.handed)
            {
                stages.record(QUEUE, begun.saturating_duration_since(handed));
            }
        }
        let (all, results) = store_until_reached(&store, all, &held).await;
        if let (Some(stages), Some(begun)) = (stages.as_mut(), begun) {
            stages.record(TRANSACTION, begun.elapsed());
            stages.report_if_due();
        }
        let mut results = results.into_iter();
        let mut writes = all.into_iter();
        for (request, size) in queued.drain(..).zip(sizes) {
            let _ = request.reply.send((
                writes.by_ref().take(size).collect(),
                results.by_ref().take(size).collect(),
            ));
        }
    }
}

/// The longest wait between two tries of writes the database could not take.
const RETRY_AT_MOST: Duration = Duration::from_secs(2);

/// Stores `writes` in order; the writes that failed because the database could not be reached
/// or was busy ([`StoreError::is_transient`]) are tried again, in order, after a wait that
/// doubles up to [`RETRY_AT_MOST`], until it takes them. Meanwhile nothing else is written
/// (what comes later waits, and its messages with it: nothing is acknowledged that is not
/// stored). Writes refused for what they are keep their error, and hold their match: its later
/// writes, here and in later calls, are not stored ([`StoreError::Held`]) until it is released.
async fn store_until_reached(store: &Store, writes: Vec<Write>, held: &Held) -> Stored {
    let mut results = store_unheld(store, &writes, held).await;
    let mut wait = Duration::from_millis(50);
    loop {
        // Held before anything is tried again: a write of the match after the refused one,
        // not tried for a passing failure in between, must not be stored on the retry.
        hold_refused(held, &writes, &results);
        let again: Vec<usize> = results
            .iter()
            .enumerate()
            .filter(|(_, r)| r.as_ref().is_err_and(|e| e.is_transient()))
            .map(|(i, _)| i)
            .collect();
        let Some(first) = again.first() else {
            return (writes, results);
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
        let retry: Vec<Write> = again.iter().map(|&i| writes[i].clone()).collect();
        let retried = store_unheld(store, &retry, held).await;
        for (i, result) in again.into_iter().zip(retried) {
            results[i] = result;
        }
    }
}

/// Holds the matches of the refused writes.
fn hold_refused(held: &Held, writes: &[Write], results: &[Result<(), StoreError>]) {
    let refused = |r: &Result<(), StoreError>| {
        r.as_ref()
            .is_err_and(|e| e.is_refusal() && !matches!(e, StoreError::Held(_)))
    };
    if !results.iter().any(refused) {
        return;
    }
    held.with(|held| {
        for (write, result) in writes.iter().zip(results) {
            if refused(result) {
                held.insert(write.match_id().to_owned());
            }
        }
    });
}

/// [`Store::apply_batch`] for the writes whose match is not held; the others are
/// [`StoreError::Held`] without being tried.
async fn store_unheld(store: &Store, writes: &[Write], held: &Held) -> Vec<Result<(), StoreError>> {
    let holds = held.with(|held| {
        (!held.is_empty()).then(|| {
            writes
                .iter()
                .map(|w| held.contains(w.match_id()))
                .collect::<Vec<bool>>()
        })
    });
    let Some(holds) = holds.filter(|holds| holds.contains(&true)) else {
        return store.apply_batch(writes).await;
    };
    let tried: Vec<Write> = writes
        .iter()
        .zip(&holds)
        .filter(|(_, held)| !**held)
        .map(|(w, _)| w.clone())
        .collect();
    let mut results = store.apply_batch(&tried).await.into_iter();
    writes
        .iter()
        .zip(holds)
        .map(|(w, held)| match held {
            true => Err(StoreError::Held(w.match_id().to_owned())),
            false => results.next().unwrap_or(Err(StoreError::NotTried)),
        })
        .collect()
}
