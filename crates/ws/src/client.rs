//! A websocket client over any byte stream: the opening handshake, text messages sent as masked
//! frames, pings answered, a close answered. Made for the load tool's thousands of connections:
//! a message read is lent from the read buffer (no copy, no allocation per message), and a
//! frame written is masked into one buffer kept for the connection's life.

use std::io;

use bytes::{Buf, Bytes, BytesMut};
use thiserror::Error;
use tokio::io::{AsyncRead, AsyncReadExt, AsyncWrite, AsyncWriteExt};

use crate::frame::{apply_mask, FrameError, Header, Opcode, Role};
use crate::handshake::{self, HandshakeError};
use crate::message::{close_payload, Message};
use crate::reader::{Inbox, ReadError};

/// The most bytes of an answer's head read before it is refused.
const MAX_ANSWER_HEAD: usize = 8 * 1024;

/// A write buffer this large is dropped when empty rather than kept.
const KEEP_WRITE_BUFFER: usize = 4096;

/// What went wrong on a client's websocket.
#[derive(Debug, Error)]
pub enum WsError {
    #[error("websocket: {0}")]
    Io(#[from] io::Error),
    /// The server broke the protocol.
    #[error("websocket: {0}")]
    Protocol(#[from] FrameError),
    /// The server did not open the websocket.
    #[error("websocket handshake: {0}")]
    Handshake(#[from] HandshakeError),
    /// A message to send after the connection closed.
    #[error("websocket: the connection is closed")]
    Closed,
}

impl From<ReadError> for WsError {
    fn from(e: ReadError) -> WsError {
        match e {
            ReadError::Io(e) => WsError::Io(e),
            ReadError::Protocol(e) => WsError::Protocol(e),
        }
    }
}

/// A message from the server, lent until the next call on the client.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Incoming<'a> {
    Text(&'a str),
    Binary(&'a [u8]),
    /// The server closes, with its code if it gave one; the close frame was answered.
    Close(Option<u16>),
}

/// A client's end of a websocket.
#[derive(Debug)]
pub struct Client<S> {
    io: S,
    inbox: Inbox,
    /// Frames not yet written: a message whose sending was interrupted, and the answers to pings
    /// and to a close.
    out: BytesMut,
    /// The last data message, which [`Incoming`] borrows.
    last: Bytes,
    /// A close frame was received or sent.
    closed: bool,
}

impl<S: AsyncRead + AsyncWrite + Unpin> Client<S> {
    /// Opens a websocket at `path` on `host` (`host:port`, the `Host` header) over `io`;
    /// messages from the server are refused over `limit` bytes.
    ///
    /// # Errors
    ///
    /// [`WsError`]: the stream failed, or the answer opens no websocket.
    pub async fn handshake(
        mut io: S,
        host: &str,
        path: &str,
        limit: usize,
    ) -> Result<Client<S>, WsError> {
        let key = handshake::new_key();
        io.write_all(handshake::request(host, path, &key).as_bytes())
            .await?;
        let mut buf = BytesMut::with_capacity(1024);
        let head = loop {
            if io.read_buf(&mut buf).await? == 0 {
                return Err(HandshakeError::NoAnswer.into());
            }
            if let Some(head) = handshake::read_answer(&buf, &key)? {
                break head;
            }
            if buf.len() > MAX_ANSWER_HEAD {
                return Err(HandshakeError::TooLong(MAX_ANSWER_HEAD).into());
            }
        };
        buf.advance(head);
        Ok(Client {
            io,
            inbox: Inbox::with_bytes(Role::Client, limit, buf),
            out: BytesMut::new(),
            last: Bytes::new(),
            closed: false,
        })
    }

    /// The next message; pings are answered on the way. `None` once the connection has ended
    /// (after a close, or when the server went without one). Cancel-safe: dropped while it
    /// waits, nothing read is lost and an answer half written is finished by the next call.
    ///
    /// # Errors
    ///
    /// [`WsError`]: the stream failed or the server broke the protocol.
    pub async fn next(&mut self) -> Result<Option<Incoming<'_>>, WsError> {
        // Nothing borrows the last message any more: let the read buffer have its room back.
        self.last = Bytes::new();
        self.flush().await?;
        loop {
            if self.closed {
                return Ok(None);
            }
            let Some(message) = self.inbox.next(&mut self.io).await? else {
                self.closed = true;
                return Ok(None);
            };
            match message {
                Message::Text(bytes) => {
                    self.last = bytes;
                    let text = std::str::from_utf8(&self.last).map_err(|_| FrameError::NotUtf8)?;
                    return Ok(Some(Incoming::Text(text)));
                }
                Message::Binary(bytes) => {
                    self.last = bytes;
                    return Ok(Some(Incoming::Binary(&self.last)));
                }
                Message::Ping(payload) => {
                    self.queue(Opcode::Pong, &payload);
                    self.flush().await?;
                }
                Message::Pong(_) => {}
                Message::Close(code) => {
                    // The answer carries the same code (RFC 6455, section 5.5.1); the server
                    // may be gone already, which ends the connection all the same.
                    let payload = code.map(|c| close_payload(c, "")).unwrap_or_default();
                    self.queue(Opcode::Close, &payload);
                    self.closed = true;
                    let _ = self.flush().await;
                    return Ok(Some(Incoming::Close(code)));
                }
            }
        }
    }

    /// Sends `text` as one text message.
    ///
    /// # Errors
    ///
    /// [`WsError`]: the stream failed, or the connection is closed.
    pub async fn send_text(&mut self, text: &str) -> Result<(), WsError> {
        if self.closed {
            return Err(WsError::Closed);
        }
        self.queue(Opcode::Text, text.as_bytes());
        self.flush().await
    }

    /// Closes the websocket with `code`, and the stream's sending side.
    ///
    /// # Errors
    ///
    /// [`WsError`]: the stream failed, or the connection is closed.
    pub async fn close(&mut self, code: u16) -> Result<(), WsError> {
        if self.closed {
            return Err(WsError::Closed);
        }
        self.queue(Opcode::Close, &close_payload(code, ""));
        self.closed = true;
        self.flush().await?;
        self.io.shutdown().await?;
        Ok(())
    }

    /// Adds a frame of `payload`, masked with a new key, to what is to be written.
    fn queue(&mut self, opcode: Opcode, payload: &[u8]) {
        let mask = rand::random::<[u8; 4]>();
        self.out
            .extend_from_slice(Header::new(opcode, payload.len(), Some(mask)).as_bytes());
        let start = self.out.len();
        self.out.extend_from_slice(payload);
        apply_mask(&mut self.out[start..], mask);
    }

    /// Writes what is queued. Cancel-safe: what a write took is gone from the queue before the
    /// next write waits.
    async fn flush(&mut self) -> Result<(), WsError> {
        while !self.out.is_empty() {
            let n = self.io.write(&self.out).await?;
            if n == 0 {
                return Err(io::Error::from(io::ErrorKind::WriteZero).into());
            }
            self.out.advance(n);
        }
        if self.out.capacity() > KEEP_WRITE_BUFFER {
            self.out = BytesMut::new();
        }
        Ok(())
    }
}
