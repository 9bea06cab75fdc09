//! The server's websocket protocol (RFC 6455) seen from a raw TCP client that writes its own
//! frames: the handshake, fragments, control frames, the close handshake, and a close with the
//! right code for each way of breaking the protocol.

use std::net::SocketAddr;
use std::time::Duration;

use bughouse_protocol::ServerMessage;
use tokio::io::{AsyncReadExt, AsyncWriteExt};
use tokio::net::TcpStream;

const PATIENCE: Duration = Duration::from_secs(10);

#[path = "support/server.rs"]
mod support;
use support::TestServer;

/// The handshake's request, with the RFC's example key.
fn handshake(extra: &str) -> String {
    format!(
        "GET /ws HTTP/1.1\r\nHost: localhost\r\nUpgrade: websocket\r\nConnection: keep-alive, Upgrade\r\n\
         Sec-WebSocket-Key: dGhlIHNhbXBsZSBub25jZQ==\r\n{extra}\r\n"
    )
}

/// Reads an HTTP answer's head (up to the blank line).
async fn head(tcp: &mut TcpStream) -> String {
    let mut got = Vec::new();
    while !got.ends_with(b"\r\n\r\n") {
        let mut byte = [0u8; 1];
        let n = tokio::time::timeout(PATIENCE, tcp.read(&mut byte))
            .await
            .expect("an answer in time")
            .expect("the socket reads");
        assert_eq!(n, 1, "the server closed before its answer ended: {got:?}");
        got.push(byte[0]);
    }
    String::from_utf8(got).expect("an ASCII head")
}

/// A masked client frame.
fn frame(first: u8, payload: &[u8]) -> Vec<u8> {
    let mask = [0xa1, 0x0b, 0x5c, 0x7e];
    let mut out = vec![first];
    match payload.len() {
        0..=125 => out.push(0x80 | payload.len() as u8),
        126..=0xFFFF => {
            out.push(0x80 | 126);
            out.extend_from_slice(&(payload.len() as u16).to_be_bytes());
        }
        _ => {
            out.push(0x80 | 127);
            out.extend_from_slice(&(payload.len() as u64).to_be_bytes());
        }
    }
    out.extend_from_slice(&mask);
    out.extend(payload.iter().enumerate().map(|(i, b)| b ^ mask[i % 4]));
    out
}

/// A server frame: its first byte and payload; `None` at the end of the stream.
async fn server_frame(tcp: &mut TcpStream) -> Option<(u8, Vec<u8>)> {
    let mut two = [0u8; 2];
    match tokio::time::timeout(PATIENCE, tcp.read_exact(&mut two))
        .await
        .expect("a frame in time")
    {
        Ok(_) => {}
        Err(e) if e.kind() == std::io::ErrorKind::UnexpectedEof => return None,
        Err(e) => panic!("reading a frame: {e}"),
    }
    assert_eq!(two[1] & 0x80, 0, "server frames are not masked");
    let len = match two[1] & 0x7F {
        126 => {
            let mut b = [0u8; 2];
            tcp.read_exact(&mut b).await.expect("a length");
            u16::from_be_bytes(b) as usize
        }
        127 => {
            let mut b = [0u8; 8];
            tcp.read_exact(&mut b).await.expect("a length");
            u64::from_be_bytes(b) as usize
        }
        n => n as usize,
    };
    let mut payload = vec![0u8; len];
    tcp.read_exact(&mut payload).await.expect("a payload");
    Some((two[0], payload))
}

/// The next frame that is not one of the server's own pings.
async fn next(tcp: &mut TcpStream) -> Option<(u8, Vec<u8>)> {
    loop {
        match server_frame(tcp).await {
            Some((0x89, _)) => continue,
            other => return other,
        }
    }
}

async fn open(addr: SocketAddr) -> TcpStream {
    let mut tcp = TcpStream::connect(addr).await.expect("the server listens");
    tcp.write_all(handshake("Sec-WebSocket-Version: 13\r\n").as_bytes())
        .await
        .expect("the handshake is sent");
    let head = head(&mut tcp).await;
    assert!(head.starts_with("HTTP/1.1 101"), "{head}");
    assert!(
        head.to_ascii_lowercase()
            .contains("sec-websocket-accept: s3pplmbitxaq9kygzzhzrbk+xoo="),
        "{head}"
    );
    tcp
}

/// The code of a close frame, after which the server ends the connection.
async fn closed_with(tcp: &mut TcpStream) -> u16 {
    let (first, payload) = next(tcp).await.expect("a close frame");
    assert_eq!(first, 0x88, "a close frame, got {first:#x} {payload:?}");
    assert!(next(tcp).await.is_none(), "the connection ends after it");
    u16::from_be_bytes([payload[0], payload[1]])
}

#[tokio::test]
async fn fragments_pings_and_the_close_handshake_work_as_the_rfc_says() {
    let server = TestServer::start().await;
    let mut tcp = open(server.addr).await;

    // A message in three fragments with a ping between them: the pong comes first (same
    // payload), then the answer to the whole message.
    let mut bytes = frame(0x01, br#"{"type":"pi"#);
    bytes.extend(frame(0x89, b"are you there"));
    bytes.extend(frame(0x00, br#"ng","t":"#));
    bytes.extend(frame(0x80, b"42}"));
    tcp.write_all(&bytes).await.expect("sent");
    assert_eq!(
        next(&mut tcp).await,
        Some((0x8A, b"are you there".to_vec()))
    );
    let (first, text) = next(&mut tcp).await.expect("an answer");
    assert_eq!(first, 0x81);
    let answer: ServerMessage = serde_json::from_slice(&text).expect("a server message");
    assert!(
        matches!(answer, ServerMessage::Pong { t, .. } if t == 42.0),
        "{answer:?}"
    );

    // The client closes: the server answers with its own close frame, then ends.
    tcp.write_all(&frame(0x88, b"\x03\xe8done"))
        .await
        .expect("sent");
    assert_eq!(closed_with(&mut tcp).await, 1000);
}

#[tokio::test]
async fn each_way_of_breaking_the_protocol_closes_with_its_code() {
    let server = TestServer::start().await;
    let cases: [(&str, Vec<u8>, u16); 5] = [
        ("an unmasked frame", vec![0x81, 0x02, b'{', b'}'], 1002),
        ("a reserved bit", frame(0xC1, b"{}"), 1002),
        (
            "text that is not UTF-8",
            frame(0x81, &[0x7b, 0xff, 0x7d]),
            1007,
        ),
        (
            "a message over 64 KiB",
            frame(0x81, &vec![b' '; 70_000]),
            1009,
        ),
        (
            "a continuation with nothing to continue",
            frame(0x80, b"{}"),
            1002,
        ),
    ];
    for (what, bytes, code) in cases {
        let mut tcp = open(server.addr).await;
        tcp.write_all(&bytes).await.expect("sent");
        assert_eq!(closed_with(&mut tcp).await, code, "{what}");
    }
    // The server goes on: a new connection still gets its answers.
    let mut tcp = open(server.addr).await;
    tcp.write_all(&frame(0x81, br#"{"type":"ping","t":7}"#))
        .await
        .expect("sent");
    let (_, text) = next(&mut tcp).await.expect("an answer");
    assert!(String::from_utf8_lossy(&text).contains("pong"));
}

#[tokio::test]
async fn a_request_that_is_no_websocket_handshake_gets_a_json_error() {
    let server = TestServer::start().await;
    for (extra, status) in [
        ("", "426"),                             // no version
        ("Sec-WebSocket-Version: 8\r\n", "426"), // an old one
    ] {
        let mut tcp = TcpStream::connect(server.addr).await.expect("listens");
        tcp.write_all(handshake(extra).as_bytes())
            .await
            .expect("sent");
        let head = head(&mut tcp).await;
        assert!(head.starts_with(&format!("HTTP/1.1 {status}")), "{head}");
    }
    let mut tcp = TcpStream::connect(server.addr).await.expect("listens");
    tcp.write_all(b"GET /ws HTTP/1.1\r\nHost: localhost\r\nConnection: close\r\n\r\n")
        .await
        .expect("sent");
    let mut answer = String::new();
    tcp.read_to_string(&mut answer).await.expect("an answer");
    assert!(answer.starts_with("HTTP/1.1 400"), "{answer}");
    assert!(answer.contains(r#""error":"not_websocket""#), "{answer}");
}
