//! Websocket frames (RFC 6455, section 5): the header a client frame is read from, and the
//! header a server frame is written with. No extension is ever negotiated, so the reserved bits
//! must be zero; a client's frames must be masked, the server's are not.

use bytes::{Buf, BytesMut};
use thiserror::Error;

/// A frame's kind (its opcode).
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(crate) enum Opcode {
    Continuation,
    Text,
    Binary,
    Close,
    Ping,
    Pong,
}

impl Opcode {
    fn from_bits(bits: u8) -> Option<Opcode> {
        Some(match bits {
            0x0 => Opcode::Continuation,
            0x1 => Opcode::Text,
            0x2 => Opcode::Binary,
            0x8 => Opcode::Close,
            0x9 => Opcode::Ping,
            0xA => Opcode::Pong,
            _ => return None,
        })
    }

    fn bits(self) -> u8 {
        match self {
            Opcode::Continuation => 0x0,
            Opcode::Text => 0x1,
            Opcode::Binary => 0x2,
            Opcode::Close => 0x8,
            Opcode::Ping => 0x9,
            Opcode::Pong => 0xA,
        }
    }

    /// Close, ping and pong: never fragmented, at most 125 bytes, allowed between the fragments
    /// of a message.
    pub(crate) fn is_control(self) -> bool {
        matches!(self, Opcode::Close | Opcode::Ping | Opcode::Pong)
    }
}

/// What is wrong with what the client sent; each closes the connection with its code.
#[derive(Debug, Clone, PartialEq, Eq, Error)]
pub(crate) enum FrameError {
    #[error("a reserved bit is set (no extension was negotiated)")]
    ReservedBits,
    #[error("unknown opcode {0:#x}")]
    UnknownOpcode(u8),
    #[error("a client frame must be masked")]
    Unmasked,
    #[error("a control frame must not be fragmented")]
    FragmentedControl,
    #[error("a control frame carries at most 125 bytes, this one {0}")]
    ControlTooLong(u64),
    #[error("a frame's length must fit in 63 bits")]
    BadLength,
    #[error("a message of {size} bytes or more is over the limit of {limit}")]
    TooLarge { size: u64, limit: usize },
    #[error("a continuation frame with no message to continue")]
    StrayContinuation,
    #[error("a new message started before the last one ended")]
    UnfinishedMessage,
    #[error("a text message is not UTF-8")]
    NotUtf8,
    #[error("a close frame's payload of one byte")]
    BadClosePayload,
}

impl FrameError {
    /// The close code the connection ends with (RFC 6455, section 7.4.1).
    pub(crate) fn close_code(&self) -> u16 {
        match self {
            FrameError::TooLarge { .. } => 1009,
            FrameError::NotUtf8 => 1007,
            _ => 1002,
        }
    }
}

/// One frame read from the client, its payload unmasked.
#[derive(Debug, PartialEq, Eq)]
pub(crate) struct Frame {
    pub(crate) fin: bool,
    pub(crate) opcode: Opcode,
    pub(crate) payload: BytesMut,
}

/// Takes the first whole frame out of `buf`, or `None` while it is not all there yet. A frame
/// whose payload is over `limit` is refused from its header, before its payload is read.
pub(crate) fn read(buf: &mut BytesMut, limit: usize) -> Result<Option<Frame>, FrameError> {
    let Some(&[b0, b1]) = buf.get(..2) else {
        return Ok(None);
    };
    if b0 & 0x70 != 0 {
        return Err(FrameError::ReservedBits);
    }
    let fin = b0 & 0x80 != 0;
    let opcode = Opcode::from_bits(b0 & 0x0F).ok_or(FrameError::UnknownOpcode(b0 & 0x0F))?;
    if b1 & 0x80 == 0 {
        return Err(FrameError::Unmasked);
    }
    let (len, at) = match b1 & 0x7F {
        126 => match buf.get(2..4) {
            Some(&[a, b]) => (u64::from(u16::from_be_bytes([a, b])), 4),
            _ => return Ok(None),
        },
        127 => match buf.get(2..10) {
            Some(bytes) => {
                let mut be = [0u8; 8];
                be.copy_from_slice(bytes);
                let len = u64::from_be_bytes(be);
                if len >> 63 != 0 {
                    return Err(FrameError::BadLength);
                }
                (len, 10)
            }
            None => return Ok(None),
        },
        len => (u64::from(len), 2),
    };
    if opcode.is_control() {
        if !fin {
            return Err(FrameError::FragmentedControl);
        }
        if len > 125 {
            return Err(FrameError::ControlTooLong(len));
        }
    }
    let len = match usize::try_from(len) {
        Ok(len) if len <= limit => len,
        _ => return Err(FrameError::TooLarge { size: len, limit }),
    };
    let Some(key) = buf.get(at..at + 4) else {
        return Ok(None);
    };
    let mut mask = [0u8; 4];
    mask.copy_from_slice(key);
    if buf.len() < at + 4 + len {
        // Room for the rest of the frame, so that reading it takes one allocation at most.
        buf.reserve(at + 4 + len - buf.len());
        return Ok(None);
    }
    buf.advance(at + 4);
    let mut payload = buf.split_to(len);
    for (i, byte) in payload.iter_mut().enumerate() {
        *byte ^= mask[i % 4];
    }
    Ok(Some(Frame {
        fin,
        opcode,
        payload,
    }))
}

/// The header of an unmasked, final frame of `len` bytes: its bytes and how many of them.
pub(crate) fn header(opcode: Opcode, len: usize) -> ([u8; 10], usize) {
    let mut h = [0u8; 10];
    h[0] = 0x80 | opcode.bits();
    match len {
        0..=125 => {
            // The match arm bounds `len` below 126.
            h[1] = len as u8;
            (h, 2)
        }
        126..=0xFFFF => {
            h[1] = 126;
            h[2..4].copy_from_slice(&(len as u16).to_be_bytes());
            (h, 4)
        }
        _ => {
            h[1] = 127;
            h[2..10].copy_from_slice(&(len as u64).to_be_bytes());
            (h, 10)
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// A client frame: masked with `mask`.
    fn client(first: u8, payload: &[u8], mask: [u8; 4]) -> BytesMut {
        let mut out = BytesMut::new();
        out.extend_from_slice(&[first]);
        match payload.len() {
            0..=125 => out.extend_from_slice(&[0x80 | payload.len() as u8]),
            126..=0xFFFF => {
                out.extend_from_slice(&[0x80 | 126]);
                out.extend_from_slice(&(payload.len() as u16).to_be_bytes());
            }
            _ => {
                out.extend_from_slice(&[0x80 | 127]);
                out.extend_from_slice(&(payload.len() as u64).to_be_bytes());
            }
        }
        out.extend_from_slice(&mask);
        out.extend(payload.iter().enumerate().map(|(i, b)| b ^ mask[i % 4]));
        out
    }

    #[test]
    fn a_masked_text_frame_is_read_whole_and_unmasked() {
        let mut buf = client(0x81, b"{\"t\":\"hello\"}", [1, 2, 3, 4]);
        buf.extend_from_slice(&[0x89, 0x80]); // the start of the next frame stays
        let frame = read(&mut buf, 100).unwrap().unwrap();
        assert!(frame.fin);
        assert_eq!(frame.opcode, Opcode::Text);
        assert_eq!(&frame.payload[..], b"{\"t\":\"hello\"}");
        assert_eq!(&buf[..], &[0x89, 0x80]);
        assert_eq!(read(&mut buf, 100), Ok(None));
    }

    #[test]
    fn a_frame_arriving_byte_by_byte_is_read_once_it_is_all_there() {
        let payload = vec![b'x'; 300]; // a 16-bit length
        let whole = client(0x81, &payload, [9, 8, 7, 6]);
        let mut buf = BytesMut::new();
        for (i, byte) in whole.iter().enumerate() {
            buf.extend_from_slice(&[*byte]);
            let got = read(&mut buf, 1000).unwrap();
            assert_eq!(got.is_some(), i == whole.len() - 1, "after byte {i}");
            if let Some(frame) = got {
                assert_eq!(&frame.payload[..], &payload[..]);
            }
        }
        assert!(buf.is_empty());
    }

    #[test]
    fn a_64_bit_length_is_read() {
        let payload = vec![7u8; 70_000];
        let mut buf = client(0x82, &payload, [0, 0xFF, 0, 0xFF]);
        let frame = read(&mut buf, 100_000).unwrap().unwrap();
        assert_eq!(frame.opcode, Opcode::Binary);
        assert_eq!(frame.payload.len(), 70_000);
        assert!(frame.payload.iter().all(|&b| b == 7));
    }

    #[test]
    fn bad_frames_are_refused_with_their_close_codes() {
        let cases: Vec<(BytesMut, FrameError)> = vec![
            (client(0xC1, b"x", [0; 4]), FrameError::ReservedBits),
            (client(0x83, b"x", [0; 4]), FrameError::UnknownOpcode(3)),
            (
                BytesMut::from(&[0x81u8, 0x01, b'x'][..]),
                FrameError::Unmasked,
            ),
            (client(0x09, b"", [0; 4]), FrameError::FragmentedControl),
            (
                client(0x89, &[0u8; 126], [0; 4]),
                FrameError::ControlTooLong(126),
            ),
            (
                client(0x81, &[b'a'; 200], [0; 4]),
                FrameError::TooLarge {
                    size: 200,
                    limit: 100,
                },
            ),
        ];
        for (mut buf, expected) in cases {
            assert_eq!(read(&mut buf, 100), Err(expected.clone()));
            assert_eq!(
                expected.close_code(),
                if matches!(expected, FrameError::TooLarge { .. }) {
                    1009
                } else {
                    1002
                }
            );
        }
        // Too large is seen from the header alone, before any of the payload is there.
        let mut head = BytesMut::from(&[0x82u8, 0xFF, 0, 0, 0, 1, 0, 0, 0, 0][..]);
        assert!(matches!(
            read(&mut head, 4096),
            Err(FrameError::TooLarge { .. })
        ));
        let mut huge = BytesMut::from(&[0x82u8, 0xFF, 0x80, 0, 0, 0, 0, 0, 0, 0][..]);
        assert_eq!(read(&mut huge, 4096), Err(FrameError::BadLength));
    }

    #[test]
    fn headers_use_the_shortest_length() {
        assert_eq!(
            header(Opcode::Text, 5),
            ([0x81, 5, 0, 0, 0, 0, 0, 0, 0, 0], 2)
        );
        assert_eq!(
            header(Opcode::Text, 300),
            ([0x81, 126, 1, 44, 0, 0, 0, 0, 0, 0], 4)
        );
        let (h, n) = header(Opcode::Close, 70_000);
        assert_eq!(
            (&h[..n], n),
            (&[0x88, 127, 0, 0, 0, 0, 0, 1, 0x11, 0x70][..], 10)
        );
    }
}
