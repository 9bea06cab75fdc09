//! The hub shards: matches are partitioned over N hubs, each owned by its own task with its own
//! committer and sender, so that nothing is shared on a move's path. A match lives on the shard
//! [`shard_of`] its id names; a new match goes to the next shard in turn (which makes up an id
//! of its own). On SQLite each shard's thread is also the home of the connections that say, as
//! they open, which match they are for ([`Shards::home_of`]).

use std::sync::atomic::{AtomicUsize, Ordering};
use std::sync::Arc;

use tokio::runtime::Handle;
use tokio::sync::{mpsc, oneshot};

use super::Command;
use crate::hub::{shard_of, Input};

/// The inboxes of the hub tasks.
#[derive(Clone)]
pub(crate) struct Shards {
    inboxes: Arc<[mpsc::Sender<Command>]>,
    /// The runtime of each shard's own thread, where it has one.
    homes: Arc<[Option<Handle>]>,
    next: Arc<AtomicUsize>,
}

impl Shards {
    /// The shards' inboxes, and the runtimes of the threads they run on (where they have their
    /// own; fewer than the inboxes, the rest have none).
    pub(crate) fn new(inboxes: Vec<mpsc::Sender<Command>>, homes: Vec<Option<Handle>>) -> Shards {
        let homes = (0..inboxes.len())
            .map(|i| homes.get(i).cloned().flatten())
            .collect();
        Shards {
            inboxes: inboxes.into(),
            homes,
            next: Arc::new(AtomicUsize::new(0)),
        }
    }

    /// The runtime of the thread the shard of a match runs on, where it has one of its own: a
    /// connection for that match, run there, hands its frames to the hub and gets its messages
    /// on one thread, with no other thread woken on a move's way.
    /// `None` also once the shard's task has ended (a panic): its thread's runtime goes soon.
    pub(crate) fn home_of(&self, match_id: &str) -> Option<&Handle> {
        let index = self.index_of(match_id);
        if self.inboxes[index].is_closed() {
            return None;
        }
        self.homes[index].as_ref()
    }

    /// How many shards there are.
    pub(crate) fn count(&self) -> usize {
        self.inboxes.len()
    }

    /// The shard of a match, by its id.
    pub(crate) fn index_of(&self, match_id: &str) -> usize {
        shard_of(match_id, self.count())
    }

    /// The inbox of the shard of a match.
    pub(crate) fn of(&self, match_id: &str) -> &mpsc::Sender<Command> {
        &self.inboxes[self.index_of(match_id)]
    }

    /// The inbox of shard `index`.
    pub(crate) fn at(&self, index: usize) -> &mpsc::Sender<Command> {
        &self.inboxes[index % self.count()]
    }

    /// The inbox of the shard whose turn it is to create a match.
    pub(crate) fn next(&self) -> &mpsc::Sender<Command> {
        let i = self.next.fetch_add(1, Ordering::Relaxed);
        self.at(i)
    }

    /// Sends a bot's answer or wake-up to the shard of its match.
    pub(crate) async fn bot(&self, input: Input) -> bool {
        let inbox = match &input {
            Input::Bot(reply) => self.of(&reply.match_id),
            Input::BotWake { match_id, .. } => self.of(match_id),
            _ => self.at(0),
        };
        inbox.send(Command::Input(input)).await.is_ok()
    }
}

/// Sends a shard the command that `command` builds around a reply channel and waits for the
/// answer; `None` when the shard is gone (the server stops) or dropped the reply.
pub(crate) async fn ask<T>(
    inbox: &mpsc::Sender<Command>,
    command: impl FnOnce(oneshot::Sender<T>) -> Command,
) -> Option<T> {
    let (reply, answer) = oneshot::channel();
    inbox.send(command(reply)).await.ok()?;
    answer.await.ok()
}
