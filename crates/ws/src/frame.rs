//! Websocket frames (RFC 6455, section 5): a frame read whole from a buffer, and the header a
//! frame is written with. No extension is ever negotiated, so the reserved bits must be zero. A
//! client's frames are masked, a server's are not: [`Role`] says which end reads or writes.

use bytes::{Buf, BytesMut};
use thiserror::Error;

/// A frame's kind (its opcode).
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Opcode {
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
    pub fn is_control(self) -> bool {
        matches!(self, Opcode::Close | Opcode::Ping | Opcode::Pong)
    }
}

/// Which end of the connection reads or writes: a client masks its frames, a server does not
/// (RFC 6455, section 5.1), and each refuses the other's frames otherwise.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Role {
    Server,
    Client,
}

/// What is wrong with what the other end sent; each closes the connection with its code.
#[derive(Debug, Clone, PartialEq, Eq, Error)]
pub enum FrameError {
    #[error("a reserved bit is set (no extension was negotiated)")]
    ReservedBits,
    #[error("unknown opcode {0:#x}")]
    UnknownOpcode(u8),
    #[error("a client frame must be masked")]
    Unmasked,
    #[error("a server frame must not be masked")]
    Masked,
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
    pub fn close_code(&self) -> u16 {
        match self {
            FrameError::TooLarge { .. } => 1009,
            FrameError::NotUtf8 => 1007,
            _ => 1002,
        }
    }
}

/// One frame read, its payload unmasked.
#[derive(Debug, PartialEq, Eq)]
pub struct Frame {
    pub fin: bool,
    pub opcode: Opcode,
    pub payload: BytesMut,
}

/// Takes the first whole frame out of `buf`, or `None` while it is not all there yet; `role` is
/// the reading end (a server reads masked frames, a client unmasked ones). A frame whose payload
/// is over `limit` is refused from its header, before its payload is read.
pub fn read(buf: &mut BytesMut, limit: usize, role: Role) -> Result<Option<Frame>, FrameError> {
    let Some(&[b0, b1]) = buf.get(..2) else {
        return Ok(None);
    };
    if b0 & 0x70 != 0 {
        return Err(FrameError::ReservedBits);
    }
    let fin = b0 & 0x80 != 0;
    let opcode = Opcode::from_bits(b0 & 0x0F).ok_or(FrameError::UnknownOpcode(b0 & 0x0F))?;
    let masked = b1 & 0x80 != 0;
    match (role, masked) {
        (Role::Server, false) => return Err(FrameError::Unmasked),
        (Role::Client, true) => return Err(FrameError::Masked),
        _ => {}
    }
    let (len, mut at) = match b1 & 0x7F {
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
    let mask = if masked {
        let Some(key) = buf.get(at..at + 4) else {
            return Ok(None);
        };
        let mut mask = [0u8; 4];
        mask.copy_from_slice(key);
        at += 4;
        Some(mask)
    } else {
        None
    };
    if buf.len() < at + len {
        // Room for the rest of the frame, so that reading it takes one allocation at most.
        buf.reserve(at + len - buf.len());
        return Ok(None);
    }
    buf.advance(at);
    let mut payload = buf.split_to(len);
    if let Some(mask) = mask {
        apply_mask(&mut payload, mask);
    }
    Ok(Some(Frame {
        fin,
        opcode,
        payload,
    }))
}

/// Masks or unmasks `bytes` with `mask` (the same operation, RFC 6455, section 5.3).
pub fn apply_mask(bytes: &mut [u8], mask: [u8; 4]) {
    let mut words = bytes.chunks_exact_mut(4);
    for word in &mut words {
        for (byte, m) in word.iter_mut().zip(mask) {
            *byte ^= m;
        }
    }
    for (byte, m) in words.into_remainder().iter_mut().zip(mask) {
        *byte ^= m;
    }
}

/// The header of a final frame: 2 to 14 bytes.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Header {
    bytes: [u8; 14],
    len: u8,
}

impl Header {
    /// The header of a final frame of `len` bytes, in the shortest length encoding; with `mask`
    /// (a client's frame) its key follows, and the payload must be masked with it.
    pub fn new(opcode: Opcode, len: usize, mask: Option<[u8; 4]>) -> Header {
        let mut h = [0u8; 14];
        h[0] = 0x80 | opcode.bits();
        let mut n = match len {
            0..=125 => {
                // The match arm bounds `len` below 126.
                h[1] = len as u8;
                2
            }
            126..=0xFFFF => {
                h[1] = 126;
                h[2..4].copy_from_slice(&(len as u16).to_be_bytes());
                4
            }
            _ => {
                h[1] = 127;
                h[2..10].copy_from_slice(&(len as u64).to_be_bytes());
                10
            }
        };
        if let Some(mask) = mask {
            h[1] |= 0x80;
            h[n..n + 4].copy_from_slice(&mask);
            n += 4;
        }
        Header {
            bytes: h,
            len: n as u8,
        }
    }

    /// The header's bytes.
    pub fn as_bytes(&self) -> &[u8] {
        &self.bytes[..usize::from(self.len)]
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
        let frame = read(&mut buf, 100, Role::Server).unwrap().unwrap();
        assert!(frame.fin);
        assert_eq!(frame.opcode, Opcode::Text);
        assert_eq!(&frame.payload[..], b"{\"t\":\"hello\"}");
        assert_eq!(&buf[..], &[0x89, 0x80]);
        assert_eq!(read(&mut buf, 100, Role::Server), Ok(None));
    }

    #[test]
    fn a_frame_arriving_byte_by_byte_is_read_once_it_is_all_there() {
        let payload = vec![b'x'; 300]; // a 16-bit length
        let whole = client(0x81, &payload, [9, 8, 7, 6]);
        let mut buf = BytesMut::new();
        for (i, byte) in whole.iter().enumerate() {
            buf.extend_from_slice(&[*byte]);
            let got = read(&mut buf, 1000, Role::Server).unwrap();
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
        let frame = read(&mut buf, 100_000, Role::Server).unwrap().unwrap();
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
            assert_eq!(read(&mut buf, 100, Role::Server), Err(expected.clone()));
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
            read(&mut head, 4096, Role::Server),
            Err(FrameError::TooLarge { .. })
        ));
        let mut huge = BytesMut::from(&[0x82u8, 0xFF, 0x80, 0, 0, 0, 0, 0, 0, 0][..]);
        assert_eq!(
            read(&mut huge, 4096, Role::Server),
            Err(FrameError::BadLength)
        );
    }

    #[test]
    fn a_client_reads_unmasked_frames_and_refuses_masked_ones() {
        let mut buf = BytesMut::from(&[0x81u8, 0x02, b'o', b'k'][..]);
        let frame = read(&mut buf, 100, Role::Client).unwrap().unwrap();
        assert_eq!(&frame.payload[..], b"ok");
        let mut masked = client(0x81, b"ok", [1, 2, 3, 4]);
        assert_eq!(
            read(&mut masked, 100, Role::Client),
            Err(FrameError::Masked)
        );
    }

    #[test]
    fn headers_use_the_shortest_length() {
        assert_eq!(Header::new(Opcode::Text, 5, None).as_bytes(), &[0x81, 5]);
        assert_eq!(
            Header::new(Opcode::Text, 300, None).as_bytes(),
            &[0x81, 126, 1, 44]
        );
        assert_eq!(
            Header::new(Opcode::Close, 70_000, None).as_bytes(),
            &[0x88, 127, 0, 0, 0, 0, 0, 1, 0x11, 0x70]
        );
    }

    #[test]
    fn a_masked_header_carries_its_key_and_reads_back() {
        let mask = [0xA1, 0xB2, 0xC3, 0xD4];
        let header = Header::new(Opcode::Text, 300, Some(mask));
        assert_eq!(
            header.as_bytes(),
            &[0x81, 0x80 | 126, 1, 44, 0xA1, 0xB2, 0xC3, 0xD4]
        );
        let payload: Vec<u8> = (0..300).map(|i| (i % 251) as u8).collect();
        let mut masked = payload.clone();
        apply_mask(&mut masked, mask);
        assert_ne!(masked, payload);
        let mut buf = BytesMut::from(header.as_bytes());
        buf.extend_from_slice(&masked);
        let frame = read(&mut buf, 1000, Role::Server).unwrap().unwrap();
        assert_eq!(&frame.payload[..], &payload[..]);
    }

    #[test]
    fn masking_twice_gives_the_bytes_back_whatever_the_length() {
        for len in 0..12 {
            let bytes: Vec<u8> = (0..len).map(|i| i as u8 * 17).collect();
            let mut once = bytes.clone();
            apply_mask(&mut once, [1, 2, 4, 8]);
            let expected: Vec<u8> = bytes
                .iter()
                .enumerate()
                .map(|(i, b)| b ^ [1, 2, 4, 8][i % 4])
                .collect();
            assert_eq!(once, expected);
            apply_mask(&mut once, [1, 2, 4, 8]);
            assert_eq!(once, bytes);
        }
    }
}
