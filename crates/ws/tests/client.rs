//! The client's websocket against a scripted server over an in-memory stream: the handshake
//! (and its refusals), masked frames out, a fragmented message in, pings and a close answered,
//! and the server's protocol errors as typed errors.

use std::time::Duration;

use bughouse_ws::handshake::{accept_key, is_valid_key};
use bughouse_ws::{
    apply_mask, frame, Client, Frame, FrameError, HandshakeError, Header, Incoming, Opcode, Role,
    WsError,
};
use bytes::BytesMut;
use tokio::io::{AsyncReadExt, AsyncWriteExt, DuplexStream};

const LIMIT: usize = 1000;

/// The server's end: what the client sent, read as a server reads it.
struct Server {
    io: DuplexStream,
    buf: BytesMut,
}

impl Server {
    /// Reads the client's request head; its lines, lower-cased names.
    async fn request(&mut self) -> Vec<String> {
        loop {
            if let Some(end) = self.buf.windows(4).position(|w| w == b"\r\n\r\n") {
                let head = self.buf.split_to(end + 4);
                let text = String::from_utf8(head.to_vec()).expect("an ASCII head");
                return text.lines().map(str::to_owned).collect();
            }
            assert!(
                self.io.read_buf(&mut self.buf).await.unwrap() > 0,
                "no request"
            );
        }
    }

    /// Accepts the handshake whose request it reads; `extra` follows the answer's head.
    async fn accept(&mut self, extra: &[u8]) -> Vec<String> {
        let request = self.request().await;
        let key = header(&request, "sec-websocket-key").expect("a key");
        let answer = format!(
            "HTTP/1.1 101 Switching Protocols\r\nUpgrade: websocket\r\nConnection: Upgrade\r\n\
             Sec-WebSocket-Accept: {}\r\n\r\n",
            accept_key(key.as_bytes())
        );
        let mut bytes = answer.into_bytes();
        bytes.extend_from_slice(extra);
        self.io.write_all(&bytes).await.unwrap();
        request
    }

    /// The next frame from the client, which must be masked; `None` at the end of the stream.
    async fn frame(&mut self) -> Option<Frame> {
        loop {
            if let Some(frame) = frame::read(&mut self.buf, LIMIT, Role::Server).unwrap() {
                return Some(frame);
            }
            if self.io.read_buf(&mut self.buf).await.unwrap() == 0 {
                return None;
            }
        }
    }

    async fn send(&mut self, bytes: &[u8]) {
        self.io.write_all(bytes).await.unwrap();
    }
}

/// A server frame: unmasked, `first` its first byte.
fn unmasked(first: u8, payload: &[u8]) -> Vec<u8> {
    let mut out = vec![first, payload.len() as u8];
    out.extend_from_slice(payload);
    out
}

fn header(lines: &[String], name: &str) -> Option<String> {
    lines.iter().find_map(|line| {
        let (n, v) = line.split_once(':')?;
        n.eq_ignore_ascii_case(name).then(|| v.trim().to_owned())
    })
}

/// The client's end of a stream, and the scripted server at the other.
fn pair() -> (DuplexStream, Server) {
    let (near, far) = tokio::io::duplex(64 * 1024);
    let server = Server {
        io: far,
        buf: BytesMut::new(),
    };
    (near, server)
}

/// A client connected to a scripted server that accepted it.
async fn connected() -> (Client<DuplexStream>, Server) {
    let (near, mut server) = pair();
    let (client, _) = tokio::join!(
        Client::handshake(near, "127.0.0.1:8099", "/ws", LIMIT),
        server.accept(b"")
    );
    (client.expect("the handshake"), server)
}

#[tokio::test]
async fn the_handshake_asks_for_a_websocket_with_a_fresh_key() {
    let (near, mut server) = pair();
    // A text frame in the same bytes as the answer's head is read as the first message.
    let hello = unmasked(0x81, b"{\"type\":\"hi\"}");
    let (client, request) = tokio::join!(
        Client::handshake(near, "127.0.0.1:8099", "/ws", LIMIT),
        server.accept(&hello)
    );
    assert_eq!(request[0], "GET /ws HTTP/1.1");
    assert_eq!(header(&request, "host").as_deref(), Some("127.0.0.1:8099"));
    assert_eq!(header(&request, "upgrade").as_deref(), Some("websocket"));
    assert_eq!(header(&request, "connection").as_deref(), Some("Upgrade"));
    assert_eq!(
        header(&request, "sec-websocket-version").as_deref(),
        Some("13")
    );
    let key = header(&request, "sec-websocket-key").unwrap();
    assert!(is_valid_key(key.as_bytes()), "{key}");
    let mut client = client.unwrap();
    assert_eq!(
        client.next().await.unwrap(),
        Some(Incoming::Text("{\"type\":\"hi\"}"))
    );
}

#[tokio::test]
async fn a_refused_handshake_says_why() {
    async fn answered(answer: &'static [u8]) -> WsError {
        let (near, mut server) = pair();
        let script = async {
            server.request().await;
            server.send(answer).await;
            drop(server);
        };
        let (client, ()) = tokio::join!(
            Client::handshake(near, "127.0.0.1:8099", "/ws", LIMIT),
            script
        );
        client.expect_err("no websocket")
    }
    let refused = answered(b"HTTP/1.1 400 Bad Request\r\nContent-Length: 0\r\n\r\n").await;
    assert!(
        matches!(refused, WsError::Handshake(HandshakeError::Status(400))),
        "{refused}"
    );
    let forged = answered(
        b"HTTP/1.1 101 Switching Protocols\r\nUpgrade: websocket\r\nConnection: Upgrade\r\n\
          Sec-WebSocket-Accept: s3pPLMBiTxaQ9kYGzzhZRbK+xOo=\r\n\r\n",
    )
    .await;
    assert!(
        matches!(forged, WsError::Handshake(HandshakeError::BadAccept)),
        "{forged}"
    );
    let gone = answered(b"").await;
    assert!(
        matches!(gone, WsError::Handshake(HandshakeError::NoAnswer)),
        "{gone}"
    );
    assert_eq!(
        gone.to_string(),
        "websocket handshake: the server closed the connection before answering"
    );
}

#[tokio::test]
async fn text_is_sent_in_masked_frames_each_with_its_own_key() {
    let (mut client, mut server) = connected().await;
    let text = "{\"type\":\"move\"}"; // 15 bytes
    client.send_text(text).await.unwrap();
    client.send_text(text).await.unwrap();
    let mut raw = vec![0u8; 2 * (2 + 4 + 15)];
    server.io.read_exact(&mut raw).await.unwrap();
    let mut keys = Vec::new();
    for sent in raw.chunks(2 + 4 + 15) {
        assert_eq!(sent[0], 0x81, "a final text frame");
        assert_eq!(sent[1], 0x80 | 15, "masked, 15 bytes");
        let key: [u8; 4] = sent[2..6].try_into().unwrap();
        let mut payload = sent[6..].to_vec();
        assert_ne!(payload, text.as_bytes(), "not in clear");
        apply_mask(&mut payload, key);
        assert_eq!(payload, text.as_bytes());
        keys.push(key);
    }
    assert_ne!(keys[0], keys[1], "a new key for every frame");
}

#[tokio::test]
async fn a_fragmented_message_is_joined_and_a_ping_between_is_answered() {
    let (mut client, mut server) = connected().await;
    let mut bytes = unmasked(0x01, b"{\"type\":");
    bytes.extend(unmasked(0x89, b"12345678"));
    bytes.extend(unmasked(0x00, b"\"moved\""));
    bytes.extend(unmasked(0x80, b"}"));
    server.send(&bytes).await;
    assert_eq!(
        client.next().await.unwrap(),
        Some(Incoming::Text("{\"type\":\"moved\"}"))
    );
    let pong = server.frame().await.expect("the pong");
    assert_eq!(pong.opcode, Opcode::Pong);
    assert_eq!(&pong.payload[..], b"12345678");
    // A binary message is lent as it came.
    server.send(&unmasked(0x82, &[1, 2, 3])).await;
    assert_eq!(
        client.next().await.unwrap(),
        Some(Incoming::Binary(&[1, 2, 3]))
    );
}

#[tokio::test]
async fn a_wait_cut_short_loses_nothing() {
    let (mut client, mut server) = connected().await;
    // Half a frame, then the wait is dropped (as `select!` drops it when a timer fires).
    let frame = unmasked(0x81, b"{\"type\":\"ack\"}");
    server.send(&frame[..5]).await;
    let waited = tokio::time::timeout(Duration::from_millis(20), client.next()).await;
    assert!(waited.is_err(), "nothing whole to read yet");
    server.send(&frame[5..]).await;
    assert_eq!(
        client.next().await.unwrap(),
        Some(Incoming::Text("{\"type\":\"ack\"}"))
    );
}

#[tokio::test]
async fn the_servers_close_is_answered_with_its_code_and_ends_the_connection() {
    let (mut client, mut server) = connected().await;
    let mut close = vec![0x88, 5, 0x03, 0xe9];
    close.extend_from_slice(b"bye");
    server.send(&close).await;
    assert_eq!(
        client.next().await.unwrap(),
        Some(Incoming::Close(Some(1001)))
    );
    let answer = server.frame().await.expect("the close answered");
    assert_eq!(answer.opcode, Opcode::Close);
    assert_eq!(&answer.payload[..], &[0x03, 0xe9]);
    assert_eq!(client.next().await.unwrap(), None);
    assert!(matches!(
        client.send_text("late").await,
        Err(WsError::Closed)
    ));
}

#[tokio::test]
async fn the_client_closes_with_a_code_and_ends_its_side() {
    let (mut client, mut server) = connected().await;
    client.close(1000).await.unwrap();
    let close = server.frame().await.expect("a close frame");
    assert_eq!(close.opcode, Opcode::Close);
    assert_eq!(&close.payload[..], &[0x03, 0xe8]);
    assert!(server.frame().await.is_none(), "the stream ends");
}

#[tokio::test]
async fn a_server_gone_without_a_close_ends_the_messages() {
    let (mut client, server) = connected().await;
    drop(server);
    assert_eq!(client.next().await.unwrap(), None);
}

#[tokio::test]
async fn the_servers_protocol_errors_are_typed() {
    let masked = {
        let mut bytes = Header::new(Opcode::Text, 2, Some([1, 2, 3, 4]))
            .as_bytes()
            .to_vec();
        bytes.extend_from_slice(&[b'o' ^ 1, b'k' ^ 2]);
        bytes
    };
    let mut too_large = vec![0x82, 126];
    too_large.extend_from_slice(&(LIMIT as u16 + 1).to_be_bytes());
    let cases: Vec<(Vec<u8>, FrameError)> = vec![
        (masked, FrameError::Masked),
        (unmasked(0xC1, b"x"), FrameError::ReservedBits),
        (unmasked(0x81, &[0xff, 0xfe]), FrameError::NotUtf8),
        (unmasked(0x80, b"x"), FrameError::StrayContinuation),
        (
            too_large,
            FrameError::TooLarge {
                size: LIMIT as u64 + 1,
                limit: LIMIT,
            },
        ),
    ];
    for (bytes, expected) in cases {
        let (mut client, mut server) = connected().await;
        server.send(&bytes).await;
        match client.next().await {
            Err(WsError::Protocol(e)) => assert_eq!(e, expected),
            other => panic!("{other:?} instead of {expected}"),
        }
    }
}
