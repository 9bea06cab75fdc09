//! A connection's outbox: the queue of messages on their way to one socket.
//!
//! It does what tokio's unbounded mpsc channel did here, at a fraction of the memory: that
//! channel allocates its slots in blocks of 32 (some 1.3 KB for our 40-byte [`Outgoing`]) and
//! keeps up to a few such blocks per channel for reuse, about 3 KB for every connection (measured
//! with heaptrack at 2,000 connections), whereas a connection rarely has more than a handful of
//! messages waiting. Here the queue is a `VecDeque` that grows to the largest backlog the
//! connection has had, behind a mutex that only the hub's sender and the connection's writer
//! take, each for a push or a pop.

use std::collections::VecDeque;
use std::sync::atomic::{AtomicUsize, Ordering};
use std::sync::{Arc, Mutex, MutexGuard};

use tokio::sync::Notify;

use super::Outgoing;

struct Shared {
    queue: Mutex<Queue>,
    /// Wakes the receiver: a message was queued, or the last sender went.
    ready: Notify,
    senders: AtomicUsize,
}

struct Queue {
    items: VecDeque<Outgoing>,
    /// The receiver is gone: sends fail.
    closed: bool,
}

/// The sending half; cloned for each part of the server that writes to the connection.
pub(crate) struct OutSender(Arc<Shared>);

/// The receiving half, held by the connection's writer.
pub(crate) struct OutReceiver(Arc<Shared>);

/// The message could not be queued: the connection's writer is gone.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(crate) struct Closed;

/// A new outbox.
pub(crate) fn outbox() -> (OutSender, OutReceiver) {
    let shared = Arc::new(Shared {
        queue: Mutex::new(Queue {
            items: VecDeque::new(),
            closed: false,
        }),
        ready: Notify::new(),
        senders: AtomicUsize::new(1),
    });
    (OutSender(shared.clone()), OutReceiver(shared))
}

fn lock(shared: &Shared) -> MutexGuard<'_, Queue> {
    // A panic while the lock was held cannot leave the queue half-changed (push and pop are
    // whole operations): the poison is ignored.
    shared
        .queue
        .lock()
        .unwrap_or_else(|poisoned| poisoned.into_inner())
}

impl OutSender {
    /// Queues a message; fails once the receiver is gone.
    pub(crate) fn send(&self, out: Outgoing) -> Result<(), Closed> {
        {
            let mut q = lock(&self.0);
            if q.closed {
                return Err(Closed);
            }
            q.items.push_back(out);
        }
        self.0.ready.notify_one();
        Ok(())
    }
}

impl Clone for OutSender {
    fn clone(&self) -> OutSender {
        self.0.senders.fetch_add(1, Ordering::Relaxed);
        OutSender(self.0.clone())
    }
}

impl Drop for OutSender {
    fn drop(&mut self) {
        if self.0.senders.fetch_sub(1, Ordering::AcqRel) == 1 {
            self.0.ready.notify_one();
        }
    }
}

impl OutReceiver {
    /// The next message; `None` once every sender is gone and the queue is empty.
    pub(crate) async fn recv(&mut self) -> Option<Outgoing> {
        loop {
            if let Some(out) = self.try_recv() {
                return Some(out);
            }
            if self.0.senders.load(Ordering::Acquire) == 0 {
                // A message queued just before the last sender went is still delivered.
                return self.try_recv();
            }
            // `notify_one` keeps a permit when nobody waits, so a message queued between the
            // check above and this wait still wakes it.
            self.0.ready.notified().await;
        }
    }

    /// The next message if one is queued.
    pub(crate) fn try_recv(&mut self) -> Option<Outgoing> {
        lock(&self.0).items.pop_front()
    }
}

impl Drop for OutReceiver {
    fn drop(&mut self) {
        let mut q = lock(&self.0);
        q.closed = true;
        q.items = VecDeque::new();
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn text(s: &'static str) -> Outgoing {
        Outgoing::Text(s.into())
    }

    fn as_text(out: Option<Outgoing>) -> Option<String> {
        match out {
            Some(Outgoing::Text(t)) => Some(t.as_str().to_owned()),
            Some(Outgoing::Ping(_)) => Some("ping".into()),
            Some(Outgoing::Close) => Some("close".into()),
            Some(Outgoing::Pong(_) | Outgoing::Fail(..)) => Some("other".into()),
            None => None,
        }
    }

    #[tokio::test]
    async fn messages_arrive_in_order_and_the_end_after_the_last() {
        let (tx, mut rx) = outbox();
        let tx2 = tx.clone();
        tx.send(text("a")).unwrap();
        tx2.send(text("b")).unwrap();
        drop(tx);
        assert_eq!(as_text(rx.recv().await).as_deref(), Some("a"));
        tx2.send(Outgoing::Close).unwrap();
        drop(tx2);
        // Queued before the last sender went: still delivered, then the end.
        assert_eq!(as_text(rx.recv().await).as_deref(), Some("b"));
        assert_eq!(as_text(rx.recv().await).as_deref(), Some("close"));
        assert_eq!(as_text(rx.recv().await), None);
    }

    #[tokio::test]
    async fn a_waiting_receiver_wakes_for_a_message_from_another_task() {
        let (tx, mut rx) = outbox();
        let waiter = tokio::spawn(async move { as_text(rx.recv().await) });
        tokio::task::yield_now().await;
        tx.send(text("late")).unwrap();
        assert_eq!(waiter.await.unwrap().as_deref(), Some("late"));
    }

    #[tokio::test]
    async fn a_waiting_receiver_ends_when_the_last_sender_goes() {
        let (tx, mut rx) = outbox();
        let waiter = tokio::spawn(async move { as_text(rx.recv().await) });
        tokio::task::yield_now().await;
        drop(tx);
        assert_eq!(waiter.await.unwrap(), None);
    }

    #[test]
    fn sending_fails_once_the_receiver_is_gone() {
        let (tx, mut rx) = outbox();
        tx.send(text("kept")).unwrap();
        assert_eq!(as_text(rx.try_recv()).as_deref(), Some("kept"));
        assert_eq!(as_text(rx.try_recv()), None);
        drop(rx);
        assert_eq!(tx.send(text("lost")), Err(Closed));
    }
}
