//! A connection's outbox: the queue of messages on their way to one socket, and the write
//! straight to the socket when nothing is queued.
//!
//! It does what tokio's unbounded mpsc channel did here, at a fraction of the memory: that
//! channel allocates its slots in blocks of 32 (some 1.3 KB for our 40-byte [`Outgoing`]) and
//! keeps up to a few such blocks per channel for reuse, about 3 KB for every connection (measured
//! with heaptrack at 2,000 connections), whereas a connection rarely has more than a handful of
//! messages waiting. Here the queue is a `VecDeque` that grows to the largest backlog the
//! connection has had, behind a mutex that only the hub's sender and the connection's writer
//! take, each for a push or a pop.
//!
//! An outbox made for a TCP socket ([`outbox_to`]) writes a message itself when the queue is
//! empty and the connection's writer is not writing: the sender (a shard's thread, for a move)
//! then puts the frame on the socket with one non-blocking `writev`, and nobody is woken. Only
//! what the socket does not take at once (a full send buffer, rare), a close, or a message that
//! finds others ahead of it is queued for the writer task. Before, every message woke that task
//! on the server's runtime: a hand-over between threads for each of the four players of every
//! move, and the runtime's own wake-up (an `eventfd` write) on the shard's thread. The mutex
//! orders the two writers: a sender writes only while holding it with the queue empty and the
//! writer idle, and the writer marks itself writing in the same lock in which it takes messages.

use std::collections::VecDeque;
use std::io::IoSlice;
use std::sync::atomic::{AtomicUsize, Ordering};
use std::sync::{Arc, Mutex, MutexGuard};

use bughouse_ws::Header;
use bytes::Bytes;
use tokio::net::tcp::OwnedWriteHalf;
use tokio::sync::Notify;

use super::Outgoing;
use crate::http::ws::socket::{lay_out, Out};

struct Shared {
    queue: Mutex<Queue>,
    /// Wakes the receiver: a message was queued, or the last sender went.
    ready: Notify,
    senders: AtomicUsize,
    /// The socket a sender may write to itself.
    direct: Option<Arc<OwnedWriteHalf>>,
}

struct Queue {
    items: VecDeque<Outgoing>,
    /// The receiver is gone: sends fail.
    closed: bool,
    /// The writer has taken messages and not yet said it is done with them: senders queue.
    writing: bool,
}

/// The sending half; cloned for each part of the server that writes to the connection.
pub(crate) struct OutSender(Arc<Shared>);

/// The receiving half, held by the connection's writer.
pub(crate) struct OutReceiver(Arc<Shared>);

/// The message could not be queued: the connection's writer is gone.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(crate) struct Closed;

/// A new outbox whose messages all go through the receiver.
pub(crate) fn outbox() -> (OutSender, OutReceiver) {
    new(None)
}

/// A new outbox for a websocket on `tcp`: a message that finds the queue empty and the writer
/// idle is written to the socket by its sender.
pub(crate) fn outbox_to(tcp: Arc<OwnedWriteHalf>) -> (OutSender, OutReceiver) {
    new(Some(tcp))
}

fn new(direct: Option<Arc<OwnedWriteHalf>>) -> (OutSender, OutReceiver) {
    let shared = Arc::new(Shared {
        queue: Mutex::new(Queue {
            items: VecDeque::new(),
            closed: false,
            writing: false,
        }),
        ready: Notify::new(),
        senders: AtomicUsize::new(1),
        direct,
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

/// The most frames written with one direct write.
const DIRECT_FRAMES: usize = 16;

impl OutSender {
    /// Sends a message: written to the socket at once if the outbox has one, nothing is queued
    /// and the writer is idle, else queued for the writer. Fails once the receiver is gone.
    pub(crate) fn send(&self, out: Outgoing) -> Result<(), Closed> {
        self.deliver([out])
    }

    /// Sends messages in order (emptying `outs`, whose room is kept for the caller), those the
    /// socket takes at once with one write, as [`OutSender::send`] does one.
    pub(crate) fn send_all(&self, outs: &mut Vec<Outgoing>) -> Result<(), Closed> {
        self.deliver(outs.drain(..))
    }

    fn deliver<O>(&self, outs: O) -> Result<(), Closed>
    where
        O: AsRef<[Outgoing]> + IntoIterator<Item = Outgoing>,
    {
        {
            let mut q = lock(&self.0);
            if q.closed {
                return Err(Closed);
            }
            let before = q.items.len();
            let mut written = 0;
            if let Some(tcp) = &self.0.direct {
                if before == 0 && !q.writing {
                    let (taken, partial) = write_now(tcp, outs.as_ref());
                    written = taken;
                    q.items.extend(partial);
                }
            }
            q.items.extend(outs.into_iter().skip(written));
            if q.items.len() == before {
                // Everything was written: nobody to wake.
                return Ok(());
            }
        }
        self.0.ready.notify_one();
        Ok(())
    }
}

/// Writes the frames at the head of `outs` (up to [`DIRECT_FRAMES`], up to the first close,
/// which is the writer's: it sends it and then ends the connection) with one non-blocking
/// write. Returns how many messages are done with, and the rest of a frame the socket took in
/// part, as raw bytes to queue first. A full socket, or a failing one, takes nothing: the
/// writer meets the error and ends the connection.
fn write_now(tcp: &OwnedWriteHalf, outs: &[Outgoing]) -> (usize, Option<Outgoing>) {
    let mut frames: [Out; DIRECT_FRAMES] = std::array::from_fn(|_| Out::raw(Bytes::new()));
    let mut n = 0;
    for out in outs.iter().take(DIRECT_FRAMES) {
        let (frame, ends) = Out::of(out);
        if ends {
            break;
        }
        frames[n] = frame;
        n += 1;
    }
    if n == 0 {
        return (0, None);
    }
    let frames = &frames[..n];
    let mut headers = [None; DIRECT_FRAMES];
    let mut slices = [IoSlice::new(&[]); 2 * DIRECT_FRAMES];
    let used = lay_out(frames, &mut headers[..n], &mut slices);
    let Ok(mut left) = tcp.try_write_vectored(&slices[..used]) else {
        return (0, None);
    };
    for (i, (header, frame)) in headers.iter().zip(frames).enumerate() {
        let header = header.as_ref().map_or(&[][..], Header::as_bytes);
        let len = header.len() + frame.payload.len();
        if left >= len {
            left -= len;
            continue;
        }
        if left == 0 {
            return (i, None);
        }
        let mut rest = Vec::with_capacity(len - left);
        if left < header.len() {
            rest.extend_from_slice(&header[left..]);
            rest.extend_from_slice(&frame.payload);
        } else {
            rest.extend_from_slice(&frame.payload[left - header.len()..]);
        }
        return (i + 1, Some(Outgoing::Raw(Bytes::from(rest))));
    }
    (n, None)
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
    /// The next message; `None` once every sender is gone and the queue is empty. The receiver
    /// is writing from then until [`OutReceiver::done`].
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

    /// The next message if one is queued (the receiver is then writing).
    pub(crate) fn try_recv(&mut self) -> Option<Outgoing> {
        let mut q = lock(&self.0);
        let out = q.items.pop_front();
        if out.is_some() {
            q.writing = true;
        }
        out
    }

    /// Queues a message of the receiver's own (a ping): `recv` returns it next.
    pub(crate) fn push(&mut self, out: Outgoing) {
        lock(&self.0).items.push_back(out);
    }

    /// The receiver has written what it took: senders may write to the socket themselves again
    /// once the queue is empty.
    pub(crate) fn done(&mut self) {
        let mut q = lock(&self.0);
        if q.items.is_empty() {
            q.writing = false;
        }
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
    use bughouse_ws::Opcode;

    fn text(s: &'static str) -> Outgoing {
        Outgoing::Text(s.into())
    }

    fn as_text(out: Option<Outgoing>) -> Option<String> {
        match out {
            Some(Outgoing::Text(t)) => Some(t.to_text()),
            Some(Outgoing::Ping(_)) => Some("ping".into()),
            Some(Outgoing::Close) => Some("close".into()),
            Some(Outgoing::Pong(_) | Outgoing::Fail(..) | Outgoing::Raw(_)) => Some("other".into()),
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

    /// A connected pair of loopback sockets: the server's writing half, the client's stream.
    async fn pair() -> (Arc<OwnedWriteHalf>, tokio::net::TcpStream) {
        let listener = tokio::net::TcpListener::bind("127.0.0.1:0").await.unwrap();
        let client = tokio::net::TcpStream::connect(listener.local_addr().unwrap());
        let (client, accepted) = tokio::join!(client, listener.accept());
        let (_read, write) = accepted.unwrap().0.into_split();
        // The reading half is dropped: that does not close the socket.
        (Arc::new(write), client.unwrap())
    }

    async fn read_exactly(client: &mut tokio::net::TcpStream, n: usize) -> Vec<u8> {
        use tokio::io::AsyncReadExt;
        let mut got = vec![0; n];
        client.read_exact(&mut got).await.unwrap();
        got
    }

    fn frame(opcode: Opcode, payload: &[u8]) -> Vec<u8> {
        let mut bytes = Header::new(opcode, payload.len(), None).as_bytes().to_vec();
        bytes.extend_from_slice(payload);
        bytes
    }

    #[tokio::test]
    async fn a_sender_writes_to_an_idle_socket_itself_and_queues_behind_the_writer() {
        let (tcp, mut client) = pair().await;
        let (tx, mut rx) = outbox_to(tcp);
        // Idle writer, empty queue: written at once, in order, nothing queued.
        tx.send_all(&mut vec![
            text("ack"),
            text("moved"),
            Outgoing::Pong(Bytes::from_static(b"p")),
        ])
        .unwrap();
        assert_eq!(as_text(rx.try_recv()), None);
        let mut expected = frame(Opcode::Text, b"ack");
        expected.extend(frame(Opcode::Text, b"moved"));
        expected.extend(frame(Opcode::Pong, b"p"));
        assert_eq!(read_exactly(&mut client, expected.len()).await, expected);
        // A close is the writer's; what follows it waits behind it.
        tx.send_all(&mut vec![text("last"), Outgoing::Close, text("after")])
            .unwrap();
        let last = frame(Opcode::Text, b"last");
        assert_eq!(read_exactly(&mut client, last.len()).await, last);
        assert_eq!(as_text(rx.try_recv()).as_deref(), Some("close"));
        // The writer is writing now: a sender queues, even with the queue empty.
        assert_eq!(as_text(rx.try_recv()).as_deref(), Some("after"));
        tx.send(text("queued")).unwrap();
        assert_eq!(as_text(rx.try_recv()).as_deref(), Some("queued"));
        // Done with nothing queued: senders write again.
        rx.done();
        tx.send(text("direct")).unwrap();
        assert_eq!(as_text(rx.try_recv()), None);
        let direct = frame(Opcode::Text, b"direct");
        assert_eq!(read_exactly(&mut client, direct.len()).await, direct);
    }

    #[tokio::test]
    async fn done_with_messages_still_queued_keeps_the_senders_queueing() {
        let (tcp, _client) = pair().await;
        let (tx, mut rx) = outbox_to(tcp);
        rx.push(Outgoing::Ping(vec![1]));
        assert_eq!(as_text(rx.try_recv()).as_deref(), Some("ping"));
        tx.send(text("a")).unwrap();
        rx.done();
        // "a" is still queued: "b" must not overtake it.
        tx.send(text("b")).unwrap();
        assert_eq!(as_text(rx.try_recv()).as_deref(), Some("a"));
        assert_eq!(as_text(rx.try_recv()).as_deref(), Some("b"));
    }

    #[tokio::test]
    async fn what_a_full_socket_does_not_take_is_queued_and_completes_the_stream() {
        let (tcp, mut client) = pair().await;
        let (tx, mut rx) = outbox_to(tcp.clone());
        // Far more than the loopback socket's buffers hold while nobody reads.
        let big: String = "x".repeat(16 << 20);
        let whole = frame(Opcode::Text, big.as_bytes());
        tx.send_all(&mut vec![Outgoing::Text(big.into()), text("next")])
            .unwrap();
        let rest = match rx.try_recv() {
            Some(Outgoing::Raw(rest)) => rest,
            _ => panic!("the rest of the frame should be queued first"),
        };
        assert!(!rest.is_empty() && rest.len() < whole.len());
        assert_eq!(as_text(rx.try_recv()).as_deref(), Some("next"));
        let reader =
            tokio::spawn(async move { read_exactly(&mut client, whole.len()).await == whole });
        // The writer's part: the rest, as is.
        let mut at = 0;
        while at < rest.len() {
            tcp.writable().await.unwrap();
            match tcp.try_write(&rest[at..]) {
                Ok(n) => at += n,
                Err(e) if e.kind() == std::io::ErrorKind::WouldBlock => {}
                Err(e) => panic!("{e}"),
            }
        }
        assert!(reader.await.unwrap());
    }
}
