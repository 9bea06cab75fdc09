//! Messages from frames (RFC 6455, section 5.4): a message's fragments joined, the control
//! frames that come between them taken as they come, a close frame's payload checked.

use bytes::{Bytes, BytesMut};

use crate::frame::{Frame, FrameError, Opcode};

/// A message: a whole data message or a control frame.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum Message {
    /// A text message's payload, not yet checked as UTF-8: the reader checks it once, as it
    /// makes it the string type it uses (failing with [`FrameError::NotUtf8`]).
    Text(Bytes),
    Binary(Bytes),
    Ping(Bytes),
    Pong(Bytes),
    /// The other end closes, with its code if it gave one.
    Close(Option<u16>),
}

/// Joins frames into messages; a message is refused over `limit` bytes.
#[derive(Debug)]
pub struct Assembler {
    /// A fragmented message's kind and what has come of it.
    partial: Option<(Opcode, BytesMut)>,
    limit: usize,
}

impl Assembler {
    pub fn new(limit: usize) -> Assembler {
        Assembler {
            partial: None,
            limit,
        }
    }

    /// The largest message taken, in bytes.
    pub fn limit(&self) -> usize {
        self.limit
    }

    /// A frame's part in a message: the message when it is complete.
    pub fn push(&mut self, frame: Frame) -> Result<Option<Message>, FrameError> {
        let Frame {
            fin,
            opcode,
            payload,
        } = frame;
        let (opcode, payload) = match opcode {
            Opcode::Ping => return Ok(Some(Message::Ping(payload.freeze()))),
            Opcode::Pong => return Ok(Some(Message::Pong(payload.freeze()))),
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
        Ok(Some(if opcode == Opcode::Binary {
            Message::Binary(payload.freeze())
        } else {
            Message::Text(payload.freeze())
        }))
    }
}

/// A close frame's code: none, or two bytes and an optional UTF-8 reason.
fn close(payload: &[u8]) -> Result<Message, FrameError> {
    match payload {
        [] => Ok(Message::Close(None)),
        [_] => Err(FrameError::BadClosePayload),
        [a, b, reason @ ..] => {
            std::str::from_utf8(reason).map_err(|_| FrameError::NotUtf8)?;
            Ok(Message::Close(Some(u16::from_be_bytes([*a, *b]))))
        }
    }
}

/// A close frame's payload: `code` and as much of `reason` as fits (a control frame carries at
/// most 125 bytes), cut at a character's boundary.
pub fn close_payload(code: u16, reason: &str) -> Vec<u8> {
    let mut payload = Vec::with_capacity(2 + reason.len());
    payload.extend_from_slice(&code.to_be_bytes());
    let mut end = reason.len().min(123);
    while !reason.is_char_boundary(end) {
        end -= 1;
    }
    payload.extend_from_slice(&reason.as_bytes()[..end]);
    payload
}

#[cfg(test)]
mod tests {
    use super::*;

    fn frame(fin: bool, opcode: Opcode, payload: &[u8]) -> Frame {
        Frame {
            fin,
            opcode,
            payload: BytesMut::from(payload),
        }
    }

    #[test]
    fn fragments_join_and_a_ping_between_them_comes_at_once() {
        let mut a = Assembler::new(100);
        assert_eq!(a.push(frame(false, Opcode::Text, b"ab")), Ok(None));
        assert_eq!(
            a.push(frame(true, Opcode::Ping, b"p")),
            Ok(Some(Message::Ping(Bytes::from_static(b"p"))))
        );
        assert_eq!(a.push(frame(false, Opcode::Continuation, b"cd")), Ok(None));
        assert_eq!(
            a.push(frame(true, Opcode::Continuation, b"e")),
            Ok(Some(Message::Text(Bytes::from_static(b"abcde"))))
        );
        assert_eq!(
            a.push(frame(true, Opcode::Binary, &[1, 2])),
            Ok(Some(Message::Binary(Bytes::from_static(&[1, 2]))))
        );
    }

    #[test]
    fn close_payloads_are_checked_and_cut_to_fit() {
        let mut a = Assembler::new(100);
        assert_eq!(
            a.push(frame(true, Opcode::Close, b"")),
            Ok(Some(Message::Close(None)))
        );
        assert_eq!(
            a.push(frame(true, Opcode::Close, &[0x03])),
            Err(FrameError::BadClosePayload)
        );
        assert_eq!(
            a.push(frame(true, Opcode::Close, &[0x03, 0xe8, 0xff])),
            Err(FrameError::NotUtf8)
        );
        let long = "é".repeat(100);
        let payload = close_payload(1011, &long);
        assert_eq!(&payload[..2], &[0x03, 0xf3]);
        assert_eq!(payload.len(), 2 + 122, "cut before the split character");
        assert!(std::str::from_utf8(&payload[2..]).is_ok());
    }
}
