//! The lobby: play now, and its live feed.

use super::*;

/// The lobby over HTTP: "play now" seats four players in one match (the fullest open one of the
/// kind), a fifth in a new one; the token it answers opens the seat on a websocket; the snapshot
/// lists the open match and the one being played; bad requests are refused.
#[tokio::test]
async fn play_now_fills_one_match_and_the_lobby_shows_it() {
    use bughouse_protocol::lobby::{LobbySnapshot, PlacedSeat};
    let server = TestServer::start().await;
    let addr = server.addr;
    let empty = http(addr, "GET", "/api/lobby", None).await;
    assert_eq!(empty.status, 200, "{}", empty.body);
    let empty: LobbySnapshot = serde_json::from_str(&empty.body).expect("a snapshot");
    assert!(empty.open.is_empty() && empty.live.is_empty());

    let mut placed = Vec::new();
    for name in ["Ann", "Ben", "Cleo", "Dirk", "Eve"] {
        let body = format!(r#"{{"rules":"fide","time_control":"3+0","name":"{name}"}}"#);
        let answer = http(addr, "POST", "/api/lobby/play", Some(&body)).await;
        assert_eq!(answer.status, 200, "{}", answer.body);
        let seat: PlacedSeat = serde_json::from_str(&answer.body).expect("a placed seat");
        placed.push(seat);
    }
    let first = &placed[0].match_id;
    assert!(placed[0].created);
    for (p, seat) in placed[..4].iter().zip(SEATS) {
        assert_eq!(&p.match_id, first);
        assert_eq!(p.seat.as_str(), seat);
    }
    assert!(!placed[1].created && !placed[3].created);
    assert!(
        placed[4].created && placed[4].match_id != *first,
        "the full match is passed over"
    );

    // Ann's token opens her seat.
    let mut ann = Client::connect(addr, "Ann").await;
    ann.send(&ClientMessage::Hello {
        match_id: first.clone(),
        token: Some(placed[0].token.clone()),
    })
    .await;
    let (state, you) = ann.state().await;
    assert_eq!(you.as_deref(), Some("WhiteA"));
    assert_eq!(state.status, "playing");

    let lobby = http(addr, "GET", "/api/lobby", None).await;
    let lobby: LobbySnapshot = serde_json::from_str(&lobby.body).expect("a snapshot");
    assert_eq!(lobby.live.len(), 1);
    assert_eq!(&lobby.live[0].match_id, first);
    assert_eq!(lobby.live[0].seats[3].name.as_deref(), Some("Dirk"));
    assert_eq!(lobby.open.len(), 1);
    assert_eq!(lobby.open[0].match_id, placed[4].match_id);
    assert_eq!(lobby.open[0].free, 3);
    assert_eq!(lobby.playing, 4);
    assert!(lobby.online >= 1, "Ann's connection");

    // Each refusal says what is wrong.
    for (bad, says) in [
        (
            r#"{"rules":"chess960","time_control":"3+0","name":"Ann"}"#,
            r#"unknown rules preset \"chess960\""#,
        ),
        (
            r#"{"rules":"fide","time_control":"soon","name":"Ann"}"#,
            r#"invalid time control \"soon\""#,
        ),
        (
            r#"{"rules":"fide","time_control":"3+0","name":"  "}"#,
            "printable characters",
        ),
        (
            r#"{"rules":"fide","time_control":"3+0"}"#,
            "missing field `name`",
        ),
        (
            r#"{"rules":"fide","time_control":"3+0","name":"Ann","rated":true}"#,
            "sign in",
        ),
    ] {
        let answer = http(addr, "POST", "/api/lobby/play", Some(bad)).await;
        assert_eq!(answer.status, 400, "{bad}: {}", answer.body);
        assert!(
            answer.body.contains(r#""error":"invalid""#) && answer.body.contains(says),
            "{bad}: {}",
            answer.body
        );
    }
}

/// The lobby's live feed: a snapshot at once, then a new one after a change (a match created).
#[tokio::test]
async fn the_lobby_feed_pushes_a_snapshot_when_something_changes() {
    use bughouse_protocol::lobby::LobbySnapshot;
    let server = TestServer::start().await;
    let addr = server.addr;
    let mut stream = TcpStream::connect(addr).await.expect("the server accepts");
    stream
        .write_all(
            format!("GET /api/lobby/events HTTP/1.1\r\nHost: {addr}\r\nAccept: text/event-stream\r\n\r\n")
                .as_bytes(),
        )
        .await
        .expect("the request is sent");
    let mut raw = String::new();
    // The next `data:` line of the stream, as a snapshot.
    async fn next_event(stream: &mut TcpStream, raw: &mut String) -> LobbySnapshot {
        loop {
            if let Some(start) = raw.find("data: ") {
                if let Some(len) = raw[start..].find('\n') {
                    let line = raw[start + 6..start + len].trim().to_owned();
                    raw.replace_range(..start + len, "");
                    return serde_json::from_str(&line).expect("a snapshot");
                }
            }
            let mut buf = [0u8; 4096];
            let n = tokio::time::timeout(PATIENCE, stream.read(&mut buf))
                .await
                .expect("an event in time")
                .expect("the stream is read");
            assert!(n > 0, "the feed closed");
            raw.push_str(&String::from_utf8_lossy(&buf[..n]));
        }
    }
    let first = next_event(&mut stream, &mut raw).await;
    assert!(first.open.is_empty());
    assert_eq!(first.online, 1, "this page follows the feed");
    let id = create_match(addr, "knsb-1988", "2+12").await;
    // Within about a second, a snapshot with the new match (maybe after one for the count).
    let deadline = tokio::time::Instant::now() + Duration::from_secs(5);
    loop {
        let snapshot = next_event(&mut stream, &mut raw).await;
        if snapshot.open.iter().any(|m| m.match_id == id) {
            assert_eq!(snapshot.open[0].rules, "knsb-1988");
            assert_eq!(snapshot.open[0].time_control, "2+12");
            break;
        }
        assert!(
            tokio::time::Instant::now() < deadline,
            "no snapshot with the new match"
        );
    }
}
