//! Reading messages from a connection: frames taken out of a small read buffer as they are
//! whole, and assembled into messages.

use std::io;

use bytes::BytesMut;
use thiserror::Error;
use tokio::io::{AsyncRead, AsyncReadExt};

use crate::frame::{self, FrameError, Role};
use crate::message::{Assembler, Message};

/// The room a read asks for: a move is a frame of some 60 bytes.
const READ_CHUNK: usize = 512;

/// A read buffer this large is dropped when empty rather than kept.
const KEEP_READ_BUFFER: usize = 4096;

/// Why reading stopped.
#[derive(Debug, Error)]
pub enum ReadError {
    #[error("websocket: {0}")]
    Io(#[from] io::Error),
    /// The other end broke the protocol: the connection closes with the error's code.
    #[error("websocket: {0}")]
    Protocol(#[from] FrameError),
}

/// A connection's reading state: what was read and not yet taken, and a message in fragments.
#[derive(Debug)]
pub struct Inbox {
    buf: BytesMut,
    assembler: Assembler,
    role: Role,
}

impl Inbox {
    /// Reads as `role`; messages are refused over `limit` bytes.
    pub fn new(role: Role, limit: usize) -> Inbox {
        Inbox::with_bytes(role, limit, BytesMut::new())
    }

    /// Starts from bytes already read (those that followed the handshake's answer).
    pub fn with_bytes(role: Role, limit: usize, buf: BytesMut) -> Inbox {
        Inbox {
            buf,
            assembler: Assembler::new(limit),
            role,
        }
    }

    /// The next message read from `io`, or `None` when the other end closed the connection
    /// without a close frame. Cancel-safe: dropped while it waits, nothing read is lost.
    pub async fn next<R: AsyncRead + Unpin>(
        &mut self,
        io: &mut R,
    ) -> Result<Option<Message>, ReadError> {
        loop {
            while let Some(frame) = frame::read(&mut self.buf, self.assembler.limit(), self.role)? {
                if let Some(message) = self.assembler.push(frame)? {
                    if self.buf.is_empty() && self.buf.capacity() > KEEP_READ_BUFFER {
                        self.buf = BytesMut::new();
                    }
                    return Ok(Some(message));
                }
            }
            if self.buf.capacity() - self.buf.len() < READ_CHUNK {
                self.buf.reserve(READ_CHUNK);
            }
            if io.read_buf(&mut self.buf).await? == 0 {
                return Ok(None);
            }
        }
    }
}
