//! A websocket connection once upgraded: its reading half assembles the client's messages from
//! frames; its writing half writes the server's frames straight from the messages' shared
//! bytes, a header and a payload each, with one vectored write for all that is queued. Nothing
//! is buffered on the way out (a write buffer kept for a connection's life was the largest part
//! of its memory), and the read buffer is a few hundred bytes.

use std::io::{self, IoSlice};
use std::pin::Pin;
use std::sync::Arc;
use std::task::{ready, Context, Poll};

use axum::extract::ws::Utf8Bytes;
use bughouse_ws::{close_payload, FrameError, Header, Inbox, Message, Opcode, Role};
use bytes::Bytes;
use hyper::upgrade::Upgraded;
use hyper_util::rt::TokioIo;
use tokio::io::{AsyncRead, AsyncReadExt, AsyncWrite, AsyncWriteExt};
use tokio::net::tcp::OwnedWriteHalf;
use tokio::net::TcpStream;

use crate::runtime::Outgoing;

pub(crate) use bughouse_ws::ReadError;

/// The most frames [`Writer::write`] takes at once.
pub(crate) const MAX_FRAMES: usize = 32;

/// The upgraded connection's halves.
pub(crate) type ReadSide = Reader<Box<dyn AsyncRead + Send + Unpin>>;
pub(crate) type WriteSide = Writer<Box<dyn AsyncWrite + Send + Unpin>>;

/// An upgraded connection: a TCP socket with the bytes the HTTP server read past the handshake
/// (every connection `axum::serve` upgrades), or anything else hyper upgraded.
pub(crate) enum Conn {
    Tcp(TcpStream, Bytes),
    Other(Upgraded),
}

impl Conn {
    pub(crate) fn of(upgraded: Upgraded) -> Conn {
        match hyper_util::server::conn::auto::upgrade::downcast::<TokioIo<TcpStream>>(upgraded) {
            // A copy of the early bytes, since the slice would keep the HTTP server's whole read
            // buffer (8 KB or more) for the connection's life.
            Ok(parts) => Conn::Tcp(
                parts.io.into_inner(),
                Bytes::copy_from_slice(&parts.read_buf),
            ),
            Err(upgraded) => Conn::Other(upgraded),
        }
    }
}

/// Splits a connection; messages read are refused over `limit` bytes. A TCP socket also gives
/// its writing half, shared, for the outbox's direct writes ([`crate::runtime::outbox_to`]).
pub(crate) fn split(
    conn: Conn,
    limit: usize,
) -> (ReadSide, WriteSide, Option<Arc<OwnedWriteHalf>>) {
    match conn {
        Conn::Tcp(tcp, early) => {
            let (read, write) = tcp.into_split();
            let write = Arc::new(write);
            // First the bytes the HTTP server read past the handshake.
            let early = std::io::Cursor::new(early);
            (
                Reader::new(Box::new(early.chain(read)), limit),
                Writer::new(Box::new(TcpWrite(write.clone()))),
                Some(write),
            )
        }
        Conn::Other(upgraded) => {
            let (read, write) = tokio::io::split(TokioIo::new(upgraded));
            (
                Reader::new(Box::new(read), limit),
                Writer::new(Box::new(write)),
                None,
            )
        }
    }
}

/// Writing a TCP socket whose writing half the outbox shares (the two never write at the same
/// time). Dropping the last holder of the half shuts its side down.
struct TcpWrite(Arc<OwnedWriteHalf>);

impl AsyncWrite for TcpWrite {
    fn poll_write(
        self: Pin<&mut Self>,
        cx: &mut Context<'_>,
        buf: &[u8],
    ) -> Poll<io::Result<usize>> {
        self.poll_write_vectored(cx, &[IoSlice::new(buf)])
    }

    fn poll_write_vectored(
        self: Pin<&mut Self>,
        cx: &mut Context<'_>,
        bufs: &[IoSlice<'_>],
    ) -> Poll<io::Result<usize>> {
        let tcp: &TcpStream = (*self.0).as_ref();
        loop {
            ready!(tcp.poll_write_ready(cx))?;
            match tcp.try_write_vectored(bufs) {
                Err(e) if e.kind() == io::ErrorKind::WouldBlock => {}
                written => return Poll::Ready(written),
            }
        }
    }

    fn is_write_vectored(&self) -> bool {
        true
    }

    fn poll_flush(self: Pin<&mut Self>, _: &mut Context<'_>) -> Poll<io::Result<()>> {
        Poll::Ready(Ok(()))
    }

    fn poll_shutdown(self: Pin<&mut Self>, _: &mut Context<'_>) -> Poll<io::Result<()>> {
        let tcp: &TcpStream = (*self.0).as_ref();
        Poll::Ready(socket2::SockRef::from(tcp).shutdown(std::net::Shutdown::Write))
    }
}

/// A message from the client.
#[derive(Debug, PartialEq, Eq)]
pub(crate) enum Received {
    Text(Utf8Bytes),
    Binary,
    Ping(Bytes),
    Pong(Bytes),
    /// The client closes, with its code if it gave one.
    Close(Option<u16>),
}

/// The reading half: the client's masked frames, assembled by `bughouse-ws`.
pub(crate) struct Reader<R> {
    io: R,
    inbox: Inbox,
}

impl<R: AsyncRead + Unpin> Reader<R> {
    pub(crate) fn new(io: R, limit: usize) -> Reader<R> {
        Reader {
            io,
            inbox: Inbox::new(Role::Server, limit),
        }
    }

    /// The next message, or `None` when the client closed the connection without a close frame.
    pub(crate) async fn next(&mut self) -> Result<Option<Received>, ReadError> {
        let Some(message) = self.inbox.next(&mut self.io).await? else {
            return Ok(None);
        };
        Ok(Some(match message {
            Message::Text(payload) => {
                Received::Text(Utf8Bytes::try_from(payload).map_err(|_| FrameError::NotUtf8)?)
            }
            Message::Binary(_) => Received::Binary,
            Message::Ping(payload) => Received::Ping(payload),
            Message::Pong(payload) => Received::Pong(payload),
            Message::Close(code) => Received::Close(code),
        }))
    }
}

/// A frame to write: its kind and its payload (shared, not copied); no kind for the rest of a
/// frame the socket took in part, written as is.
pub(crate) struct Out {
    pub(crate) opcode: Option<Opcode>,
    pub(crate) payload: Bytes,
}

impl Out {
    /// A whole frame.
    pub(crate) fn frame(opcode: Opcode, payload: Bytes) -> Out {
        Out {
            opcode: Some(opcode),
            payload,
        }
    }

    /// Bytes written as they are.
    pub(crate) fn raw(payload: Bytes) -> Out {
        Out {
            opcode: None,
            payload,
        }
    }

    /// The frame a queued message is written as (its payload shared, not copied), and whether
    /// the connection ends after it (a close).
    pub(crate) fn of(out: &Outgoing) -> (Out, bool) {
        match out {
            Outgoing::Text(text) => (Out::frame(Opcode::Text, text.bytes().clone()), false),
            Outgoing::Ping(payload) => (Out::frame(Opcode::Ping, payload.clone().into()), false),
            Outgoing::Pong(payload) => (Out::frame(Opcode::Pong, payload.clone()), false),
            Outgoing::Raw(bytes) => (Out::raw(bytes.clone()), false),
            Outgoing::Close => (Out::close(1000, ""), true),
            Outgoing::Fail(code, reason) => (Out::close(*code, reason), true),
        }
    }

    /// A close frame with `code` and a reason.
    pub(crate) fn close(code: u16, reason: &str) -> Out {
        Out::frame(Opcode::Close, close_payload(code, reason).into())
    }
}

/// Lays `frames` out for one vectored write: each frame's header (none for raw bytes, written
/// into `headers`, one per frame) and payload, in order, into `slices` (room for two per
/// frame). Returns the number of slices used. Shared by the writer task and the outbox's
/// direct write.
pub(crate) fn lay_out<'a>(
    frames: &'a [Out],
    headers: &'a mut [Option<Header>],
    slices: &mut [IoSlice<'a>],
) -> usize {
    for (header, out) in headers.iter_mut().zip(frames) {
        *header = out
            .opcode
            .map(|op| Header::new(op, out.payload.len(), None));
    }
    let headers: &'a [Option<Header>] = headers;
    let mut n = 0;
    for (header, out) in headers.iter().zip(frames) {
        if let Some(header) = header {
            slices[n] = IoSlice::new(header.as_bytes());
            n += 1;
        }
        if !out.payload.is_empty() {
            slices[n] = IoSlice::new(&out.payload);
            n += 1;
        }
    }
    n
}

/// The writing half.
pub(crate) struct Writer<W> {
    io: W,
    /// The frames' headers, kept between writes (their room only); none for raw bytes.
    headers: Vec<Option<Header>>,
}

impl<W: AsyncWrite + Unpin> Writer<W> {
    pub(crate) fn new(io: W) -> Writer<W> {
        Writer {
            io,
            headers: Vec::new(),
        }
    }

    /// Writes the frames, in order, with as few system calls as the socket takes them in. At
    /// most [`MAX_FRAMES`] frames: their slices are kept on the stack (this runs for every
    /// message to every connection).
    pub(crate) async fn write(&mut self, frames: &[Out]) -> io::Result<()> {
        debug_assert!(frames.len() <= MAX_FRAMES);
        let frames = &frames[..frames.len().min(MAX_FRAMES)];
        self.headers.clear();
        self.headers.resize(frames.len(), None);
        let mut slices = [IoSlice::new(&[]); 2 * MAX_FRAMES];
        let n = lay_out(frames, &mut self.headers, &mut slices);
        let mut rest = &mut slices[..n];
        while !rest.is_empty() {
            let n = self.io.write_vectored(rest).await?;
            if n == 0 {
                return Err(io::ErrorKind::WriteZero.into());
            }
            IoSlice::advance_slices(&mut rest, n);
        }
        Ok(())
    }

    /// Ends the connection's sending side.
    pub(crate) async fn shutdown(&mut self) {
        let _ = self.io.shutdown().await;
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn masked(first: u8, payload: &[u8]) -> Vec<u8> {
        let mask = [0x37, 0xfa, 0x21, 0x3d];
        let mut out = vec![first, 0x80 | payload.len() as u8];
        out.extend_from_slice(&mask);
        out.extend(payload.iter().enumerate().map(|(i, b)| b ^ mask[i % 4]));
        out
    }

    async fn read_all(bytes: Vec<u8>, limit: usize) -> Vec<Result<Received, String>> {
        let mut reader = Reader::new(&bytes[..], limit);
        let mut got = Vec::new();
        loop {
            match reader.next().await {
                Ok(Some(message)) => got.push(Ok(message)),
                Ok(None) => return got,
                Err(e) => {
                    got.push(Err(e.to_string()));
                    return got;
                }
            }
        }
    }

    #[tokio::test]
    async fn fragments_make_one_message_and_control_frames_come_between() {
        let mut bytes = masked(0x01, b"{\"t\":");
        bytes.extend(masked(0x89, b"abc"));
        bytes.extend(masked(0x00, b"\"hel"));
        bytes.extend(masked(0x80, b"lo\"}"));
        bytes.extend(masked(0x8A, b"12345678"));
        bytes.extend(masked(0x82, b"\x01\x02"));
        bytes.extend(masked(0x88, b"\x03\xe8bye"));
        let got = read_all(bytes, 100).await;
        assert_eq!(
            got,
            vec![
                Ok(Received::Ping(Bytes::from_static(b"abc"))),
                Ok(Received::Text(Utf8Bytes::from_static("{\"t\":\"hello\"}"))),
                Ok(Received::Pong(Bytes::from_static(b"12345678"))),
                Ok(Received::Binary),
                Ok(Received::Close(Some(1000))),
            ]
        );
    }

    #[tokio::test]
    async fn a_broken_message_stops_reading_with_what_is_wrong() {
        let cases = [
            (masked(0x80, b"x"), "continuation frame with no message"),
            (
                [masked(0x01, b"a"), masked(0x81, b"b")].concat(),
                "new message started",
            ),
            (masked(0x81, &[0xff, 0xfe]), "not UTF-8"),
            (
                [masked(0x01, &[b'a'; 60]), masked(0x80, &[b'a'; 60])].concat(),
                "over the limit of 100",
            ),
            (masked(0x88, b"\x03"), "one byte"),
        ];
        for (bytes, expected) in cases {
            let got = read_all(bytes, 100).await;
            let last = got.last().unwrap().as_ref().unwrap_err();
            assert!(last.contains(expected), "{last} should say {expected}");
        }
    }

    #[tokio::test]
    async fn the_writer_puts_each_frame_after_its_header() {
        let mut sink = Vec::new();
        let mut writer = Writer::new(&mut sink);
        writer
            .write(&[
                Out::frame(Opcode::Text, Bytes::from_static(b"{\"t\":\"ack\"}")),
                Out::raw(Bytes::from_static(b"xy")),
                Out::frame(Opcode::Ping, Bytes::new()),
                Out::close(1009, "too large"),
            ])
            .await
            .unwrap();
        let mut expected = vec![0x81, 11];
        expected.extend_from_slice(b"{\"t\":\"ack\"}");
        expected.extend_from_slice(b"xy");
        expected.extend_from_slice(&[0x89, 0]);
        expected.extend_from_slice(&[0x88, 11, 0x03, 0xf1]);
        expected.extend_from_slice(b"too large");
        assert_eq!(sink, expected);
    }
}
