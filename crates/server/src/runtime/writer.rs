//! Where the committers' writes go. SQLite has one writer at a time: committers of several
//! shards writing to it side by side would take turns on its lock, each waiting in SQLite's
//! busy handler (which sleeps 1, 2, 5, 10 ms and more between tries) for the other's commit. So
//! on SQLite the shards hand their batches to one writer task, which stores everything queued in
//! one transaction (one commit, one `fsync`, for all shards) and answers each shard. PostgreSQL
//! takes concurrent transactions: each committer writes directly.

use bughouse_store::{Backend, Store, StoreError, Write};
use tokio::sync::{mpsc, oneshot};

/// The most shard batches the writer stores in one transaction.
const GROUP: usize = 64;

/// Writes given back with one result each.
pub(crate) type Stored = (Vec<Write>, Vec<Result<(), StoreError>>);

/// A batch of writes and where its results go.
pub(crate) struct Request {
    writes: Vec<Write>,
    reply: oneshot::Sender<Stored>,
}

/// The committers' way to the database.
#[derive(Clone)]
pub(crate) enum Writer {
    /// Each committer writes directly (PostgreSQL).
    Direct(Store),
    /// One writer task stores for all (SQLite).
    Shared(mpsc::Sender<Request>),
}

impl Writer {
    /// A writer for `store`: shared (with its task spawned) on SQLite, direct on PostgreSQL.
    pub(crate) fn new(store: &Store) -> Writer {
        match store.backend() {
            Backend::Postgres => Writer::Direct(store.clone()),
            Backend::Sqlite => {
                let (tx, rx) = mpsc::channel(GROUP);
                tokio::spawn(writer_task(store.clone(), rx));
                Writer::Shared(tx)
            }
        }
    }

    /// Stores the writes in order, in one transaction when they all succeed; one result per
    /// write, as [`Store::apply_batch`] gives them, and the writes back (to try again those the
    /// database could not take).
    pub(crate) async fn write(&self, writes: Vec<Write>) -> Stored {
        match self {
            Writer::Direct(store) => {
                let results = store.apply_batch(&writes).await;
                (writes, results)
            }
            Writer::Shared(tx) => {
                let n = writes.len();
                let closed = || (0..n).map(|_| Err(StoreError::Closed)).collect();
                let (reply, answer) = oneshot::channel();
                if let Err(mpsc::error::SendError(request)) =
                    tx.send(Request { writes, reply }).await
                {
                    return (request.writes, closed());
                }
                // The writer task ended without answering (the server stops): the writes are
                // gone with it, and refused as closed, which is not tried again.
                answer.await.unwrap_or_else(|_| (Vec::new(), closed()))
            }
        }
    }
}

/// Stores what the shards queued, all of it in one transaction, and answers each.
async fn writer_task(store: Store, mut rx: mpsc::Receiver<Request>) {
    let mut queued = Vec::with_capacity(GROUP);
    while rx.recv_many(&mut queued, GROUP).await > 0 {
        let mut all = Vec::new();
        let mut sizes = Vec::with_capacity(queued.len());
        for request in &mut queued {
            sizes.push(request.writes.len());
            all.append(&mut request.writes);
        }
        let mut results = store.apply_batch(&all).await.into_iter();
        let mut writes = all.into_iter();
        for (request, size) in queued.drain(..).zip(sizes) {
            let _ = request.reply.send((
                writes.by_ref().take(size).collect(),
                results.by_ref().take(size).collect(),
            ));
        }
    }
}
