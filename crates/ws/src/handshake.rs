//! The opening handshake (RFC 6455, section 4): the key a client sends, the accept key a server
//! answers with, the client's request and its check of the answer.

use base64::Engine;
use sha1::{Digest, Sha1};
use thiserror::Error;

/// Appended to the client's key to make the accept header (RFC 6455, section 1.3).
const ACCEPT_GUID: &str = "258EAFA5-E914-47DA-95CA-C5AB0DC85B11";

/// The most headers an answer to the handshake may have.
const MAX_HEADERS: usize = 32;

/// Why the server's answer to the handshake opens no websocket.
#[derive(Debug, Clone, PartialEq, Eq, Error)]
pub enum HandshakeError {
    #[error("the server closed the connection before answering")]
    NoAnswer,
    #[error("the answer's head is over {0} bytes")]
    TooLong(usize),
    #[error("the answer is not HTTP: {0}")]
    Malformed(httparse::Error),
    #[error("status {0}, not 101 Switching Protocols")]
    Status(u16),
    #[error("the Upgrade header does not say websocket")]
    NotWebsocket,
    #[error("the Connection header does not say upgrade")]
    NotUpgrade,
    #[error("Sec-WebSocket-Accept is missing or does not match the key")]
    BadAccept,
}

/// `Sec-WebSocket-Accept` for a client's key.
pub fn accept_key(key: &[u8]) -> String {
    let mut sha1 = Sha1::new();
    sha1.update(key);
    sha1.update(ACCEPT_GUID.as_bytes());
    base64::engine::general_purpose::STANDARD.encode(sha1.finalize())
}

/// Whether a `Sec-WebSocket-Key` is 16 bytes in base64, as the RFC requires.
pub fn is_valid_key(key: &[u8]) -> bool {
    base64::engine::general_purpose::STANDARD
        .decode(key)
        .is_ok_and(|k| k.len() == 16)
}

/// A new client key: 16 random bytes in base64.
pub fn new_key() -> String {
    base64::engine::general_purpose::STANDARD.encode(rand::random::<[u8; 16]>())
}

/// The client's request to open a websocket at `path` on `host` (`host:port`).
pub fn request(host: &str, path: &str, key: &str) -> String {
    format!(
        "GET {path} HTTP/1.1\r\nHost: {host}\r\nUpgrade: websocket\r\nConnection: Upgrade\r\n\
         Sec-WebSocket-Key: {key}\r\nSec-WebSocket-Version: 13\r\n\r\n"
    )
}

/// Reads the server's answer to a request made with `key`: `None` while its head is not all
/// there, then the length of the head (frames may follow it in the same bytes), once the answer
/// is checked to accept the websocket.
pub fn read_answer(bytes: &[u8], key: &str) -> Result<Option<usize>, HandshakeError> {
    let mut headers = [httparse::EMPTY_HEADER; MAX_HEADERS];
    let mut answer = httparse::Response::new(&mut headers);
    let len = match answer.parse(bytes).map_err(HandshakeError::Malformed)? {
        httparse::Status::Partial => return Ok(None),
        httparse::Status::Complete(len) => len,
    };
    let code = answer.code.unwrap_or(0);
    if code != 101 {
        return Err(HandshakeError::Status(code));
    }
    let has = |name: &str, token: &str| {
        answer.headers.iter().any(|h| {
            h.name.eq_ignore_ascii_case(name)
                && std::str::from_utf8(h.value).is_ok_and(|value| {
                    value
                        .split(',')
                        .any(|part| part.trim().eq_ignore_ascii_case(token))
                })
        })
    };
    if !has("upgrade", "websocket") {
        return Err(HandshakeError::NotWebsocket);
    }
    if !has("connection", "upgrade") {
        return Err(HandshakeError::NotUpgrade);
    }
    let expected = accept_key(key.as_bytes());
    let accepted = answer.headers.iter().any(|h| {
        h.name.eq_ignore_ascii_case("sec-websocket-accept") && h.value == expected.as_bytes()
    });
    if !accepted {
        return Err(HandshakeError::BadAccept);
    }
    Ok(Some(len))
}

#[cfg(test)]
mod tests {
    use super::*;

    const RFC_KEY: &str = "dGhlIHNhbXBsZSBub25jZQ==";

    #[test]
    fn the_accept_key_of_the_rfc_example() {
        // RFC 6455, section 1.3.
        assert_eq!(
            accept_key(RFC_KEY.as_bytes()),
            "s3pPLMBiTxaQ9kYGzzhZRbK+xOo="
        );
    }

    #[test]
    fn new_keys_are_valid_and_differ() {
        let (a, b) = (new_key(), new_key());
        assert!(is_valid_key(a.as_bytes()) && is_valid_key(b.as_bytes()));
        assert_ne!(a, b);
        assert!(!is_valid_key(b"c2hvcnQ="));
        assert!(!is_valid_key(b"not base64!"));
    }

    #[test]
    fn an_answer_is_read_once_its_head_is_all_there() {
        let head = "HTTP/1.1 101 Switching Protocols\r\nupgrade: WebSocket\r\n\
                    connection: keep-alive, Upgrade\r\n\
                    sec-websocket-accept: s3pPLMBiTxaQ9kYGzzhZRbK+xOo=\r\n\r\n";
        let mut bytes = head.as_bytes().to_vec();
        bytes.extend_from_slice(&[0x81, 0x00]); // a frame right after
        assert_eq!(read_answer(&bytes[..40], RFC_KEY), Ok(None));
        assert_eq!(read_answer(&bytes, RFC_KEY), Ok(Some(head.len())));
    }

    #[test]
    fn answers_that_open_no_websocket_say_why() {
        let answer = |status: &str, headers: &str| {
            format!("HTTP/1.1 {status}\r\n{headers}\r\n").into_bytes()
        };
        let good = "Upgrade: websocket\r\nConnection: Upgrade\r\n\
                    Sec-WebSocket-Accept: s3pPLMBiTxaQ9kYGzzhZRbK+xOo=\r\n";
        let cases = [
            (
                answer("400 Bad Request", "Content-Length: 0\r\n"),
                HandshakeError::Status(400),
            ),
            (
                answer("101 Switching Protocols", "Connection: Upgrade\r\n"),
                HandshakeError::NotWebsocket,
            ),
            (
                answer("101 Switching Protocols", "Upgrade: websocket\r\n"),
                HandshakeError::NotUpgrade,
            ),
            (
                answer(
                    "101 Switching Protocols",
                    "Upgrade: websocket\r\nConnection: Upgrade\r\nSec-WebSocket-Accept: x\r\n",
                ),
                HandshakeError::BadAccept,
            ),
        ];
        for (bytes, expected) in cases {
            assert_eq!(read_answer(&bytes, RFC_KEY), Err(expected));
        }
        assert!(read_answer(&answer("101 Switching Protocols", good), RFC_KEY).is_ok());
        assert!(matches!(
            read_answer(b"SSH-2.0-OpenSSH\r\n\r\n", RFC_KEY),
            Err(HandshakeError::Malformed(_))
        ));
    }
}
