//! A websocket connection once upgraded: its reading half assembles the client's messages from
//! frames; its writing half writes the server's frames straight from the messages' shared
//! bytes, a header and a payload each, with one vectored write for all that is queued. Nothing
//! is buffered on the way out (a write buffer kept for a connection's life was the largest part
//! of its memory), and the read buffer is a few hundred bytes.

use std::io::{self, IoSlice};

use axum::extract::ws::Utf8Bytes;
use bytes::{Bytes, BytesMut};
use hyper::upgrade::Upgraded;
use hyper_util::rt::TokioIo;
use thiserror::Error;
use tokio::io::{AsyncRead, AsyncReadExt, AsyncWrite, AsyncWriteExt, ReadHalf, WriteHalf};

use super::frame::{self, Frame, FrameError, Opcode};

/// The room a read asks for: a move is a frame of some 60 bytes.
const READ_CHUNK: usize = 512;

/// The most frames [`Writer::write`] takes at once.
pub(crate) const MAX_FRAMES: usize = 32;

/// A read buffer this large is dropped when empty rather than kept.
const KEEP_READ_BUFFER: usize = 4096;

/// The upgraded connection's halves.
pub(crate) type ReadSide = Reader<ReadHalf<TokioIo<Upgraded>>>;
pub(crate) type WriteSide = Writer<WriteHalf<TokioIo<Upgraded>>>;

/// Splits an upgraded connection; messages read are refused over `limit` bytes.
pub(crate) fn split(upgraded: Upgraded, limit: usize) -> (ReadSide, WriteSide) {
    let (read, write) = tokio::io::split(TokioIo::new(upgraded));
    (Reader::new(read, limit), Writer::new(write))
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

/// Why reading stopped.
#[derive(Debug, Error)]
pub(crate) enum ReadError {
    #[error("websocket: {0}")]
    Io(#[from] io::Error),
    /// The client broke the protocol: the connection closes with the error's code.
    #[error("websocket: {0}")]
    Protocol(#[from] FrameError),
}

/// The reading half.
pub(crate) struct Reader<R> {
    io: R,
    buf: BytesMut,
    /// A fragmented message's kind and what has come of it.
    partial: Option<(Opcode, BytesMut)>,
    limit: usize,
}

impl<R: AsyncRead + Unpin> Reader<R> {
    pub(crate) fn new(io: R, limit: usize) -> Reader<R> {
        Reader {
            io,
            buf: BytesMut::new(),
            partial: None,
            limit,
        }
    }

    /// The next message, or `None` when the client closed the connection without a close frame.
    pub(crate) async fn next(&mut self) -> Result<Option<Received>, ReadError> {
        loop {
            while let Some(frame) = frame::read(&mut self.buf, self.limit)? {
                if let Some(message) = self.assemble(frame)? {
                    if self.buf.is_empty() && self.buf.capacity() > KEEP_READ_BUFFER {
                        self.buf = BytesMut::new();
                    }
                    return Ok(Some(message));
                }
            }
            if self.buf.capacity() - self.buf.len() < READ_CHUNK {
                self.buf.reserve(READ_CHUNK);
            }
            if self.io.read_buf(&mut self.buf).await? == 0 {
                return Ok(None);
            }
        }
    }

    /// A frame's part in a message: the message when it is complete.
    fn assemble(&mut self, frame: Frame) -> Result<Option<Received>, FrameError> {
        let Frame {
            fin,
            opcode,
            payload,
        } = frame;
        let (opcode, payload) = match opcode {
            Opcode::Ping => return Ok(Some(Received::Ping(payload.freeze()))),
            Opcode::Pong => return Ok(Some(Received::Pong(payload.freeze()))),
            Opcode::Close => return close(&payload).map(Some),
            Opcode::Continuation => {
                let Some((kind, mut so_far)) = self.partial.take() else {
                    return Err(FrameError::StrayContinuation);
                };
                if so_far.len() + payload.len() > self.limit {
                    return Err(FrameError::TooLarge {
                        size: (so_far.len() + payload.len()) as u64,
                        limit: self.limit,
                    });
                }
                so_far.unsplit(payload);
                if !fin {
                    self.partial = Some((kind, so_far));
                    return Ok(None);
                }
                (kind, so_far)
            }
            Opcode::Text | Opcode::Binary => {
                if self.partial.is_some() {
                    return Err(FrameError::UnfinishedMessage);
                }
                if !fin {
                    self.partial = Some((opcode, payload));
                    return Ok(None);
                }
                (opcode, payload)
            }
        };
        if opcode == Opcode::Binary {
            return Ok(Some(Received::Binary));
        }
        Utf8Bytes::try_from(payload.freeze())
            .map(|text| Some(Received::Text(text)))
            .map_err(|_| FrameError::NotUtf8)
    }
}

/// A close frame's code: none, or two bytes and an optional UTF-8 reason.
fn close(payload: &[u8]) -> Result<Received, FrameError> {
    match payload {
        [] => Ok(Received::Close(None)),
        [_] => Err(FrameError::BadClosePayload),
        [a, b, reason @ ..] => {
            std::str::from_utf8(reason).map_err(|_| FrameError::NotUtf8)?;
            Ok(Received::Close(Some(u16::from_be_bytes([*a, *b]))))
        }
    }
}

/// A frame to write: its kind and its payload (shared, not copied).
pub(crate) struct Out {
    pub(crate) opcode: Opcode,
    pub(crate) payload: Bytes,
}

impl Out {
    /// A close frame with `code` and a reason.
    pub(crate) fn close(code: u16, reason: &str) -> Out {
        let mut payload = Vec::with_capacity(2 + reason.len());
        payload.extend_from_slice(&code.to_be_bytes());
        // A control frame carries at most 125 bytes.
        let mut end = reason.len().min(123);
        while !reason.is_char_boundary(end) {
            end -= 1;
        }
        payload.extend_from_slice(&reason.as_bytes()[..end]);
        Out {
            opcode: Opcode::Close,
            payload: payload.into(),
        }
    }
}

/// The writing half.
pub(crate) struct Writer<W> {
    io: W,
    /// The frames' headers, kept between writes (their room only).
    headers: Vec<([u8; 10], usize)>,
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
        self.headers.extend(
            frames
                .iter()
                .map(|out| frame::header(out.opcode, out.payload.len())),
        );
        let mut slices = [IoSlice::new(&[]); 2 * MAX_FRAMES];
        let mut n = 0;
        for ((header, len), out) in self.headers.iter().zip(frames) {
            slices[n] = IoSlice::new(&header[..*len]);
            n += 1;
            if !out.payload.is_empty() {
                slices[n] = IoSlice::new(&out.payload);
                n += 1;
            }
        }
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
                Out {
                    opcode: Opcode::Text,
                    payload: Bytes::from_static(b"{\"t\":\"ack\"}"),
                },
                Out {
                    opcode: Opcode::Ping,
                    payload: Bytes::new(),
                },
                Out::close(1009, "too large"),
            ])
            .await
            .unwrap();
        let mut expected = vec![0x81, 11];
        expected.extend_from_slice(b"{\"t\":\"ack\"}");
        expected.extend_from_slice(&[0x89, 0]);
        expected.extend_from_slice(&[0x88, 11, 0x03, 0xf1]);
        expected.extend_from_slice(b"too large");
        assert_eq!(sink, expected);
    }
}
