//! The real server over real sockets: HTTP routes and four websocket players on a SQLite file.

use std::net::SocketAddr;
use std::time::Duration;

use bughouse_protocol::{ArchiveEntry, ClientMessage, MatchState, ServerMessage};
use futures_util::{SinkExt, StreamExt};
use tokio::io::{AsyncReadExt, AsyncWriteExt};
use tokio::net::{TcpListener, TcpStream};
use tokio_tungstenite::tungstenite::Message;
use tokio_tungstenite::{MaybeTlsStream, WebSocketStream};

/// How long a test waits for any one answer before it fails.
const PATIENCE: Duration = Duration::from_secs(10);

const SEATS: [&str; 4] = ["WhiteA", "BlackA", "WhiteB", "BlackB"];

#[path = "support/server.rs"]
mod support;
use support::TestServer;

/// An HTTP answer: status and body.
struct Answer {
    status: u16,
    body: String,
}

/// A minimal HTTP/1.1 client: one request per connection (`Connection: close`), the answer read
/// to the end, chunked bodies decoded.
async fn http(addr: SocketAddr, method: &str, path: &str, body: Option<&str>) -> Answer {
    let mut stream = TcpStream::connect(addr).await.expect("the server accepts");
    let mut request = format!("{method} {path} HTTP/1.1\r\nHost: {addr}\r\nConnection: close\r\n");
    if let Some(body) = body {
        request.push_str(&format!(
            "Content-Type: application/json\r\nContent-Length: {}\r\n\r\n{body}",
            body.len()
        ));
    } else {
        request.push_str("\r\n");
    }
    stream
        .write_all(request.as_bytes())
        .await
        .expect("the request is sent");
    let mut raw = Vec::new();
    tokio::time::timeout(PATIENCE, stream.read_to_end(&mut raw))
        .await
        .expect("the server answers in time")
        .expect("the answer is read");
    let text = String::from_utf8(raw).expect("the answer is UTF-8");
    let (head, rest) = text.split_once("\r\n\r\n").expect("a header and a body");
    let status = head
        .split_whitespace()
        .nth(1)
        .and_then(|s| s.parse().ok())
        .expect("a status line");
    let chunked = head.lines().any(|l| {
        let l = l.to_ascii_lowercase();
        l.starts_with("transfer-encoding:") && l.contains("chunked")
    });
    let body = if chunked {
        dechunk(rest)
    } else {
        rest.to_owned()
    };
    Answer { status, body }
}

fn dechunk(mut rest: &str) -> String {
    let mut body = String::new();
    loop {
        let (size, after) = rest.split_once("\r\n").expect("a chunk size line");
        let size = usize::from_str_radix(size.split(';').next().unwrap_or("").trim(), 16)
            .expect("a hexadecimal chunk size");
        if size == 0 {
            return body;
        }
        body.push_str(&after[..size]);
        rest = &after[size + 2..];
    }
}

async fn create_match(addr: SocketAddr, rules: &str, tc: &str) -> String {
    let answer = http(
        addr,
        "POST",
        "/api/matches",
        Some(&format!(r#"{{"rules":"{rules}","time_control":"{tc}"}}"#)),
    )
    .await;
    assert_eq!(answer.status, 201, "create: {}", answer.body);
    let created: bughouse_protocol::CreatedMatch =
        serde_json::from_str(&answer.body).expect("a CreatedMatch");
    created.match_id
}

type Ws = WebSocketStream<MaybeTlsStream<TcpStream>>;

/// One websocket client.
struct Client {
    ws: Ws,
    name: String,
}

impl Client {
    async fn connect(addr: SocketAddr, name: &str) -> Client {
        let (ws, _) = tokio_tungstenite::connect_async(format!("ws://{addr}/ws"))
            .await
            .expect("the websocket opens");
        Client {
            ws,
            name: name.to_owned(),
        }
    }

    async fn send(&mut self, msg: &ClientMessage) {
        let text = serde_json::to_string(msg).expect("serializable");
        self.send_raw(&text).await;
    }

    async fn send_raw(&mut self, text: &str) {
        self.ws
            .send(Message::Text(text.into()))
            .await
            .expect("the frame is sent");
    }

    /// The next message from the server (pings are answered by the library and skipped).
    async fn recv(&mut self) -> ServerMessage {
        loop {
            let name = &self.name;
            let frame = match tokio::time::timeout(PATIENCE, self.ws.next()).await {
                Err(_) => panic!("{name}: no message from the server in time"),
                Ok(None) => panic!("{name}: the server closed the websocket"),
                Ok(Some(Err(e))) => panic!("{name}: websocket error: {e}"),
                Ok(Some(Ok(frame))) => frame,
            };
            match frame {
                Message::Text(text) => {
                    return serde_json::from_str(text.as_str()).unwrap_or_else(|e| {
                        panic!("{}: not a server message ({e}): {text}", self.name)
                    })
                }
                Message::Ping(_) | Message::Pong(_) => continue,
                other => panic!("{}: unexpected frame {other:?}", self.name),
            }
        }
    }

    /// Reads messages until one satisfies `pick`; returns what `pick` made of it.
    async fn until<T>(&mut self, mut pick: impl FnMut(&ServerMessage) -> Option<T>) -> T {
        loop {
            let msg = self.recv().await;
            if let Some(t) = pick(&msg) {
                return t;
            }
        }
    }

    async fn state(&mut self) -> (MatchState, Option<String>) {
        self.until(|m| match m {
            ServerMessage::State { state, you } => {
                Some(((**state).clone(), you.map(|s| s.to_string())))
            }
            _ => None,
        })
        .await
    }

    async fn error(&mut self) -> (String, String) {
        match self.recv().await {
            ServerMessage::Error { code, message, .. } => (code.to_string(), message),
            other => panic!("{}: expected an error, got {other:?}", self.name),
        }
    }
}

/// Four clients watch `id` and sit WhiteA, BlackA, WhiteB, BlackB in that order; the match
/// starts. Returns them in seat order.
async fn seat_four(addr: SocketAddr, id: &str) -> Vec<Client> {
    seat_four_with_tokens(addr, id).await.0
}

/// [`seat_four`], with the seat tokens.
async fn seat_four_with_tokens(addr: SocketAddr, id: &str) -> (Vec<Client>, Vec<String>) {
    let mut clients = Vec::new();
    let mut tokens = Vec::new();
    for seat in SEATS {
        let mut c = Client::connect(addr, seat).await;
        c.send(&ClientMessage::Hello {
            match_id: id.to_owned(),
            token: None,
        })
        .await;
        let (state, you) = c.state().await;
        assert_eq!(state.match_id, id);
        assert_eq!(state.status, "waiting");
        assert_eq!(you, None);
        c.send(&ClientMessage::Sit {
            seat: seat.parse().unwrap(),
            name: format!("player {seat}"),
        })
        .await;
        let seated = c
            .until(|m| match m {
                ServerMessage::Seated { seat, token } => Some((*seat, token.clone())),
                _ => None,
            })
            .await;
        assert_eq!(seated.0, seat);
        assert!(seated.1.len() >= 16, "a seat token has some entropy");
        tokens.push(seated.1);
        clients.push(c);
    }
    // Everyone sees the match start: the last state has all four seats and status `playing`.
    for c in &mut clients {
        c.until(|m| match m {
            ServerMessage::State { state, .. } if state.status == "playing" => Some(()),
            _ => None,
        })
        .await;
    }
    (clients, tokens)
}

/// `seat` plays `uci`; every client then gets the `moved` (the mover's own answer first).
async fn play(clients: &mut [Client], seat: usize, uci: &str) {
    clients[seat]
        .send(&ClientMessage::Move {
            uci: uci.to_owned(),
        })
        .await;
    for c in clients.iter_mut() {
        let name = c.name.clone();
        let mv = c
            .until(|m| match m {
                ServerMessage::Moved { mv, .. } => Some(mv.clone()),
                ServerMessage::Error { code, message, .. } => {
                    panic!("{name}: {uci} was refused: {code}: {message}")
                }
                _ => None,
            })
            .await;
        assert_eq!(mv.uci, uci, "{name} sees the move");
        assert_eq!(mv.seat, SEATS[seat], "{name} sees who moved");
    }
}

#[tokio::test]
async fn four_players_play_scholars_mate_and_the_archive_has_it() {
    let server = TestServer::start().await;
    let addr = server.addr;
    let id = create_match(addr, "fide", "5+0").await;

    // The match is there over HTTP before anyone sits.
    let answer = http(addr, "GET", &format!("/api/matches/{id}"), None).await;
    assert_eq!(answer.status, 200, "{}", answer.body);
    let state: MatchState = serde_json::from_str(&answer.body).expect("a MatchState");
    assert_eq!(state.status, "waiting");
    assert_eq!(state.rules, "fide");

    let mut clients = seat_four(addr, &id).await;
    // WhiteA = 0, BlackA = 1.
    for (seat, uci) in [
        (0, "e2e4"),
        (1, "e7e5"),
        (0, "f1c4"),
        (1, "b8c6"),
        (0, "d1h5"),
        (1, "g8f6"),
        (0, "h5f7"),
    ] {
        play(&mut clients, seat, uci).await;
    }
    for c in &mut clients {
        let name = c.name.clone();
        let (result, clocks) = c
            .until(|m| match m {
                ServerMessage::Ended { result, clocks, .. } => {
                    Some((result.clone(), clocks.clone()))
                }
                _ => None,
            })
            .await;
        assert_eq!(result.result, "1-0", "{name}: WhiteA and BlackB win");
        assert_eq!(result.boards[0], "1-0", "{name}: board A");
        assert!(
            result.reason.to_lowercase().contains("mate"),
            "{name}: {}",
            result.reason
        );
        assert!(clocks.running.is_empty(), "{name}: the clocks stopped");
        let (state, _) = c.state().await;
        assert_eq!(state.status, "finished");
        assert_eq!(state.moves.len(), 7);
        assert_eq!(state.moves[6].san, "Qxf7#");
    }

    // A move after the end is refused, even a legal one on the other board.
    clients[2]
        .send(&ClientMessage::Move {
            uci: "d2d4".to_owned(),
        })
        .await;
    let (code, _) = clients[2].error().await;
    assert_eq!(code, "game_over");

    let answer = http(addr, "GET", &format!("/api/matches/{id}/bpgn"), None).await;
    assert_eq!(answer.status, 200);
    assert!(answer.body.contains("1A. e4"), "{}", answer.body);
    assert!(answer.body.contains("Qxf7#"), "{}", answer.body);
    assert!(
        answer.body.contains("[WhiteA \"player WhiteA\"]"),
        "{}",
        answer.body
    );
    assert!(answer.body.trim_end().ends_with("1-0"), "{}", answer.body);

    let answer = http(addr, "GET", "/api/archive", None).await;
    assert_eq!(answer.status, 200, "{}", answer.body);
    let archive: Vec<ArchiveEntry> = serde_json::from_str(&answer.body).expect("archive entries");
    let entry = archive
        .iter()
        .find(|e| e.match_id == id)
        .unwrap_or_else(|| panic!("the archive lists {id}: {archive:?}"));
    assert_eq!(entry.result, "1-0");
    assert_eq!(entry.rules, "fide");
    assert_eq!(entry.players[0].as_deref(), Some("player WhiteA"));
    assert_eq!(entry.players[3].as_deref(), Some("player BlackB"));

    // Once everyone has left, the finished match is still there from the archive.
    drop(clients);
    let mut late = Client::connect(addr, "late").await;
    late.send(&ClientMessage::Hello {
        match_id: id.clone(),
        token: None,
    })
    .await;
    let (state, you) = late.state().await;
    assert_eq!(state.status, "finished");
    assert_eq!(state.moves.len(), 7);
    assert_eq!(you, None);
    let answer = http(addr, "GET", &format!("/api/matches/{id}/bpgn"), None).await;
    assert_eq!(answer.status, 200);
    assert!(answer.body.contains("1A. e4"), "{}", answer.body);
}

#[tokio::test]
async fn both_boards_move_and_the_partner_gets_the_capture() {
    let server = TestServer::start().await;
    let id = create_match(server.addr, "fide", "5+0").await;
    let mut clients = seat_four(server.addr, &id).await;
    // Board A: 1. e4 d5 2. exd5: WhiteA takes a pawn, his partner BlackB gets it.
    play(&mut clients, 0, "e2e4").await;
    play(&mut clients, 2, "g1f3").await;
    play(&mut clients, 1, "d7d5").await;
    clients[0]
        .send(&ClientMessage::Move {
            uci: "e4d5".to_owned(),
        })
        .await;
    for (i, c) in clients.iter_mut().enumerate() {
        let (board, other) = c
            .until(|m| match m {
                ServerMessage::Moved { board, other, .. } => Some((board.clone(), other.clone())),
                _ => None,
            })
            .await;
        assert_eq!(board.board, "A");
        assert_eq!(other.board, "B");
        assert!(other.fen.contains("[p]"), "{}: {}", c.name, other.fen);
        // BlackB, to move on board B, gets his legal moves with the new drops; nobody else
        // gets any for board B.
        if i == 3 {
            let legal = other.legal.expect("BlackB's legal moves");
            assert!(legal.iter().any(|m| m == "P@e5"), "{legal:?}");
        } else {
            assert_eq!(other.legal, None, "{}", c.name);
        }
    }
    clients[3]
        .send(&ClientMessage::Hello {
            match_id: id.clone(),
            token: None,
        })
        .await;
    let (state, you) = clients[3].state().await;
    assert_eq!(you, None, "a hello without the token watches only");
    assert!(state.boards.iter().all(|b| b.legal.is_none()));
    // Not seated any more on this connection: moving is refused.
    clients[3]
        .send(&ClientMessage::Move {
            uci: "P@e5".to_owned(),
        })
        .await;
    let (code, _) = clients[3].error().await;
    assert_eq!(code, "not_seated");
    // Moving out of turn is refused too.
    clients[0]
        .send(&ClientMessage::Move {
            uci: "d2d4".to_owned(),
        })
        .await;
    let (code, _) = clients[0].error().await;
    assert_eq!(code, "not_your_turn");
    clients[1]
        .send(&ClientMessage::Move {
            uci: "e8e6".to_owned(),
        })
        .await;
    let (code, _) = clients[1].error().await;
    assert_eq!(code, "illegal_move");
}

#[tokio::test]
async fn bad_frames_get_errors_and_the_connection_stays_usable() {
    let server = TestServer::start().await;
    let id = create_match(server.addr, "minerva-2014", "3+0").await;
    let mut c = Client::connect(server.addr, "prober").await;

    c.send_raw("this is not JSON").await;
    let (code, _) = c.error().await;
    assert_eq!(code, "bad_message");

    c.send_raw(r#"{"type":"teleport","to":"h8"}"#).await;
    let (code, _) = c.error().await;
    assert_eq!(code, "bad_message");

    c.send_raw(r#"{"type":"hello","match_id":"x","extra":1}"#)
        .await;
    let (code, _) = c.error().await;
    assert_eq!(code, "bad_message", "unknown fields are refused");

    c.ws.send(Message::Binary(vec![1u8, 2, 3].into()))
        .await
        .expect("the binary frame is sent");
    let (code, message) = c.error().await;
    assert_eq!(code, "bad_message");
    assert!(message.contains("binary"), "{message}");

    // Too large for the protocol, though small enough for the socket.
    c.send_raw(&format!(
        r#"{{"type":"ping","t":1,"pad":"{}"}}"#,
        "x".repeat(5000)
    ))
    .await;
    let (code, _) = c.error().await;
    assert_eq!(code, "too_large");

    // Anything but hello and ping needs a match first.
    c.send(&ClientMessage::Move {
        uci: "e2e4".to_owned(),
    })
    .await;
    let (code, _) = c.error().await;
    assert_eq!(code, "bad_message");

    c.send(&ClientMessage::Hello {
        match_id: "no-such-match".to_owned(),
        token: None,
    })
    .await;
    let (code, _) = c.error().await;
    assert_eq!(code, "no_such_match");

    // Still usable: ping, then watch and sit.
    c.send(&ClientMessage::Ping { t: 42.5 }).await;
    match c.recv().await {
        ServerMessage::Pong { t, .. } => assert_eq!(t, 42.5),
        other => panic!("expected pong, got {other:?}"),
    }
    c.send(&ClientMessage::Hello {
        match_id: id.clone(),
        token: None,
    })
    .await;
    let (state, _) = c.state().await;
    assert_eq!(state.rules, "minerva-2014");
    assert_eq!(state.time_control, "3+0");

    // A seat that does not exist is refused by the schema at the edge.
    c.send_raw(r#"{"type":"sit","seat":"Nowhere","name":"x"}"#)
        .await;
    let (code, _) = c.error().await;
    assert_eq!(code, "bad_message");
    c.send(&ClientMessage::Sit {
        seat: "BlackB".parse().unwrap(),
        name: "prober".to_owned(),
    })
    .await;
    let seat = c
        .until(|m| match m {
            ServerMessage::Seated { seat, .. } => Some(*seat),
            ServerMessage::Error { code, message, .. } => panic!("sit refused: {code}: {message}"),
            _ => None,
        })
        .await;
    assert_eq!(seat, "BlackB");

    // A second client cannot take the same seat.
    let mut other = Client::connect(server.addr, "other").await;
    other
        .send(&ClientMessage::Hello {
            match_id: id.clone(),
            token: None,
        })
        .await;
    other.state().await;
    other
        .send(&ClientMessage::Sit {
            seat: "BlackB".parse().unwrap(),
            name: "other".to_owned(),
        })
        .await;
    let (code, _) = other.error().await;
    assert_eq!(code, "seat_taken");
}

#[tokio::test]
async fn http_errors_are_json() {
    let server = TestServer::start().await;
    let addr = server.addr;

    let answer = http(
        addr,
        "POST",
        "/api/matches",
        Some(r#"{"rules":"chess960","time_control":"5+0"}"#),
    )
    .await;
    assert_eq!(answer.status, 400, "{}", answer.body);
    let body: serde_json::Value = serde_json::from_str(&answer.body).expect("JSON");
    assert!(body["error"].is_string(), "{body}");

    let answer = http(
        addr,
        "POST",
        "/api/matches",
        Some(r#"{"rules":"fide","time_control":"soon"}"#),
    )
    .await;
    assert_eq!(answer.status, 400, "{}", answer.body);

    let answer = http(addr, "GET", "/api/matches/nonexistent", None).await;
    assert_eq!(answer.status, 404, "{}", answer.body);
    let body: serde_json::Value = serde_json::from_str(&answer.body).expect("JSON");
    assert!(body["error"].is_string(), "{body}");

    let answer = http(addr, "GET", "/api/matches/nonexistent/bpgn", None).await;
    assert_eq!(answer.status, 404, "{}", answer.body);

    let answer = http(addr, "GET", "/api/archive?limit=5", None).await;
    assert_eq!(answer.status, 200);
    assert_eq!(answer.body.trim(), "[]");

    // Every refusal is `{"error": code, "message": text}` with its status.
    for (method, path, body, status, code) in [
        ("POST", "/api/matches", Some("{not json"), 400, "invalid"),
        (
            "POST",
            "/api/matches",
            Some(r#"{"rules":"fide"}"#),
            400,
            "invalid",
        ),
        ("POST", "/api/matches", None, 400, "invalid"),
        ("GET", "/api/archive?limit=-1", None, 400, "invalid"),
        ("GET", "/api/archive?limit=0", None, 400, "invalid"),
        ("GET", "/api/archive?limit=501", None, 400, "invalid"),
        ("GET", "/api/archive?offset=-3", None, 400, "invalid"),
        ("GET", "/api/archive?limit=ten", None, 400, "invalid"),
        ("GET", "/api/archive?page=2", None, 400, "invalid"),
        ("GET", "/api/matches/nonexistent", None, 404, "not_found"),
        ("GET", "/api/nothing-here", None, 404, "not_found"),
        ("DELETE", "/api/matches", None, 405, "invalid"),
    ] {
        let answer = http(addr, method, path, body).await;
        assert_eq!(answer.status, status, "{method} {path}: {}", answer.body);
        let error: bughouse_protocol::ApiError =
            serde_json::from_str(&answer.body).unwrap_or_else(|e| {
                panic!("{method} {path}: not the JSON error ({e}): {}", answer.body)
            });
        assert_eq!(error.error, code, "{method} {path}");
        assert!(!error.message.is_empty());
    }

    // The pages are the embedded front end.
    let answer = http(addr, "GET", "/", None).await;
    assert_eq!(answer.status, 200);
    assert!(answer.body.contains("<div id=\"app\">"), "{}", answer.body);
    let answer = http(addr, "GET", "/m/anything", None).await;
    assert_eq!(answer.status, 200);
}

#[tokio::test]
async fn custom_rules_are_offered_created_and_survive_a_restart() {
    let dir = tempfile::tempdir().expect("a temporary directory");
    let url = format!("sqlite://{}", dir.path().join("bughouse.db").display());
    let start = || async {
        let listener = TcpListener::bind("127.0.0.1:0").await.expect("a free port");
        bughouse_server::serve_on(listener, &url)
            .await
            .expect("the server starts")
    };
    let server = start().await;

    let answer = http(server.addr, "GET", "/api/rules", None).await;
    assert_eq!(answer.status, 200, "{}", answer.body);
    let catalog: bughouse_protocol::RulesCatalog =
        serde_json::from_str(&answer.body).expect("a RulesCatalog");
    let ids: Vec<&str> = catalog.presets.iter().map(|p| p.id.as_str()).collect();
    assert_eq!(
        ids,
        ["fide", "minerva-2014", "knsb-1988", "uscf-scholastic-2006"]
    );
    assert_eq!(catalog.fields.len(), bughouse_core::Rules::FIELDS.len());
    let drop_check = catalog
        .fields
        .iter()
        .find(|f| f.name == "drop_check")
        .expect("drop_check is a field");
    assert_eq!(
        drop_check.options.as_deref(),
        Some(&["Allowed".to_owned(), "Forbidden".to_owned()][..])
    );

    let answer = http(
        server.addr,
        "POST",
        "/api/matches",
        Some(r#"{"rules":"fide","time_control":"5+0","custom":{"drop_check":"maybe"}}"#),
    )
    .await;
    assert_eq!(answer.status, 400, "{}", answer.body);
    assert!(answer.body.contains("drop_check"), "{}", answer.body);

    let answer = http(
        server.addr,
        "POST",
        "/api/matches",
        Some(r#"{"rules":"minerva-2014","time_control":"5+0","custom":{"drop_check":"Forbidden","repetition_claim":"3"}}"#),
    )
    .await;
    assert_eq!(answer.status, 201, "{}", answer.body);
    let id = serde_json::from_str::<bughouse_protocol::CreatedMatch>(&answer.body)
        .expect("a CreatedMatch")
        .match_id;
    server.abort();

    let server = start().await;
    let answer = http(server.addr, "GET", &format!("/api/matches/{id}"), None).await;
    assert_eq!(answer.status, 200, "{}", answer.body);
    let state: MatchState = serde_json::from_str(&answer.body).expect("a MatchState");
    assert_eq!(state.rules, "custom");
    let value = |field: &str| {
        state
            .settings
            .iter()
            .find(|s| s.field == field)
            .map(|s| s.value.clone())
    };
    assert_eq!(value("drop_check").as_deref(), Some("Forbidden"));
    assert_eq!(value("repetition_claim").as_deref(), Some("3"));
    assert_eq!(value("partner_talk").as_deref(), Some("MinervaKinds"));
    server.abort();
}

#[tokio::test]
async fn four_bots_play_a_match_to_its_end_while_a_spectator_watches() {
    let server = TestServer::start().await;
    // Ten seconds a player: the bots think in proportion, and the match ends soon.
    let id = create_match(server.addr, "fide", "10s+0").await;
    let mut watcher = Client::connect(server.addr, "watcher").await;
    watcher
        .send(&ClientMessage::Hello {
            match_id: id.clone(),
            token: None,
        })
        .await;
    watcher.state().await;
    for (i, seat) in ["WhiteA", "BlackA", "WhiteB", "BlackB"].iter().enumerate() {
        watcher
            .send(&ClientMessage::AddBot {
                seat: seat.parse().unwrap(),
                level: Some(if i % 2 == 0 { 1 } else { 2 }),
            })
            .await;
        let (state, _) = watcher.state().await;
        assert!(state.seats[i].bot, "{seat} is a bot");
    }
    let mut moves = 0;
    let result = loop {
        match watcher.recv().await {
            ServerMessage::Moved { .. } => moves += 1,
            ServerMessage::Ended { result, .. } if result.result != "*" => break result,
            _ => {}
        }
    };
    assert!(moves >= 2, "the bots played {moves} moves");
    assert!(
        ["1-0", "0-1", "1/2-1/2"].contains(&result.result.as_str()),
        "{result:?}"
    );
    // The finished match is in the archive with the bots' names.
    let answer = http(server.addr, "GET", &format!("/api/matches/{id}/bpgn"), None).await;
    assert_eq!(answer.status, 200);
    assert!(
        answer.body.contains("[WhiteA \"Bot 1\"]"),
        "{}",
        answer.body
    );
}

/// One connection watches match after match: each `hello` answers with that match's state,
/// whichever hub shard runs it (matches are spread over the shards).
#[tokio::test]
async fn one_connection_watches_matches_of_every_shard() {
    let server = TestServer::start().await;
    let addr = server.addr;
    let mut ids = Vec::new();
    for _ in 0..6 {
        ids.push(create_match(addr, "fide", "5+0").await);
    }
    let mut c = Client::connect(addr, "watcher").await;
    for round in 0..2 {
        for id in &ids {
            c.send(&ClientMessage::Hello {
                match_id: id.clone(),
                token: None,
            })
            .await;
            let (state, you) = c.state().await;
            assert_eq!(&state.match_id, id, "round {round}");
            assert_eq!(you, None);
        }
    }
    // Seated players of a match on any shard play on after the watcher has moved on.
    let mut clients = seat_four(addr, &ids[3]).await;
    play(&mut clients, 0, "e2e4").await;
}

/// Over real sockets: an action with an id is acknowledged after its `moved`; resent from a new
/// connection of the same seat (a reconnect) it is acknowledged again and not applied twice;
/// partner talk reaches both partners once and comes back in `talk_log` after a reconnect, to
/// the team only; a wrong token gets `bad_token` and the connection watches.
#[tokio::test]
async fn actions_are_acknowledged_once_and_talk_is_kept_over_websockets() {
    let server = TestServer::start().await;
    let addr = server.addr;
    let id = create_match(addr, "fide", "5+0").await;
    let (mut clients, tokens) = seat_four_with_tokens(addr, &id).await;
    let frame = |msg: ClientMessage, action: u64| {
        serde_json::to_string(&bughouse_protocol::ClientFrame {
            id: Some(action),
            msg,
        })
        .expect("serializable")
    };
    let e4 = frame(ClientMessage::Move { uci: "e2e4".into() }, 41);
    let talk = frame(
        ClientMessage::Talk {
            kind: bughouse_protocol::TalkKind::Text,
            piece: None,
            text: Some("gl partner".into()),
        },
        42,
    );
    clients[0].send_raw(&e4).await;
    let mut order = Vec::new();
    while order.len() < 2 {
        match clients[0].recv().await {
            ServerMessage::Moved { seq, .. } => order.push(("moved", seq)),
            ServerMessage::Ack { id, seq, lag_ms } => {
                assert_eq!((id, lag_ms.is_some()), (41, true));
                order.push(("ack", seq));
            }
            _ => {}
        }
    }
    assert_eq!(order[0].0, "moved");
    assert_eq!(order[1], ("ack", order[0].1));
    clients[0].send_raw(&talk).await;
    // The sender gets the server's copy, and so does his partner (BlackB).
    for seat in [0, 3] {
        let entry = clients[seat]
            .until(|m| match m {
                ServerMessage::Talk { entry } => Some(entry.clone()),
                _ => None,
            })
            .await;
        assert_eq!((entry.n, entry.text.as_deref()), (0, Some("gl partner")));
    }

    // WhiteA's connection drops; he comes back and resends both: acknowledged, not applied.
    drop(clients.remove(0));
    let mut again = Client::connect(addr, "WhiteA again").await;
    again
        .send(&ClientMessage::Hello {
            match_id: id.clone(),
            token: Some(tokens[0].clone()),
        })
        .await;
    let (state, you) = again.state().await;
    assert_eq!(you.as_deref(), Some("WhiteA"));
    assert_eq!(state.moves.len(), 1);
    assert_eq!(state.talk_log.len(), 1, "the team's talk comes back");
    for (text, action) in [(&e4, 41), (&talk, 42)] {
        again.send_raw(text).await;
        let ack = again
            .until(|m| match m {
                ServerMessage::Ack { id, .. } => Some(*id),
                ServerMessage::Moved { .. } | ServerMessage::Talk { .. } => {
                    panic!("a resent action was applied again: {m:?}")
                }
                _ => None,
            })
            .await;
        assert_eq!(ack, action);
    }
    let answer = http(addr, "GET", &format!("/api/matches/{id}"), None).await;
    let public: MatchState = serde_json::from_str(&answer.body).expect("a MatchState");
    assert_eq!(public.moves.len(), 1);
    assert!(public.talk_log.is_empty(), "the public state has no talk");

    // An opponent's reconnect shows his own team's talk only (none); a bad token watches.
    let mut opponent = Client::connect(addr, "BlackA again").await;
    opponent
        .send(&ClientMessage::Hello {
            match_id: id.clone(),
            token: Some(tokens[1].clone()),
        })
        .await;
    let (state, _) = opponent.state().await;
    assert!(state.talk_log.is_empty());
    let mut spectator = Client::connect(addr, "spectator").await;
    spectator
        .send(&ClientMessage::Hello {
            match_id: id.clone(),
            token: Some("not-a-token".into()),
        })
        .await;
    let (code, _) = spectator.error().await;
    assert_eq!(code, "bad_token");
    let (state, you) = spectator.state().await;
    assert_eq!(you, None);
    assert!(state.talk_log.is_empty(), "spectators see no talk");
}

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

    for bad in [
        r#"{"rules":"chess960","time_control":"3+0","name":"Ann"}"#,
        r#"{"rules":"fide","time_control":"soon","name":"Ann"}"#,
        r#"{"rules":"fide","time_control":"3+0","name":"  "}"#,
        r#"{"rules":"fide","time_control":"3+0"}"#,
    ] {
        let answer = http(addr, "POST", "/api/lobby/play", Some(bad)).await;
        assert_eq!(answer.status, 400, "{bad}: {}", answer.body);
        assert!(
            answer.body.contains(r#""error":"invalid""#),
            "{}",
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

/// A move the database cannot take yet (SQLite locked by another writer for longer than the
/// store's 10 s busy timeout) is held: nobody hears of it, until it is stored; then it goes out
/// and it is in the record. (It used to go out, unstored, when the write failed.)
#[tokio::test]
async fn a_move_the_database_cannot_take_yet_is_held_until_it_is_stored() {
    use sqlx::Connection as _;

    let server = TestServer::start().await;
    let addr = server.addr;
    let id = create_match(addr, "fide", "5+0").await;
    let mut clients = seat_four(addr, &id).await;
    play(&mut clients, 0, "e2e4").await;

    let url = format!(
        "sqlite://{}",
        server._dir.path().join("bughouse.db").display()
    );
    let mut lock = sqlx::SqliteConnection::connect(&url)
        .await
        .expect("a connection");
    sqlx::query("BEGIN EXCLUSIVE")
        .execute(&mut lock)
        .await
        .expect("the database locked");
    clients[1]
        .send(&ClientMessage::Move {
            uci: "e7e5".to_owned(),
        })
        .await;
    // Past the busy timeout (10 s) the first write fails; the move must not go out unstored.
    let moved = |m: &ServerMessage| matches!(m, ServerMessage::Moved { .. }).then_some(());
    let early = tokio::time::timeout(Duration::from_secs(13), clients[0].until(moved)).await;
    assert!(
        early.is_err(),
        "the move went out while it could not be stored"
    );
    sqlx::query("COMMIT")
        .execute(&mut lock)
        .await
        .expect("the lock released");
    lock.close().await.expect("closed");

    // Tried again, stored, sent.
    for c in clients.iter_mut() {
        let mv = c
            .until(|m| match m {
                ServerMessage::Moved { mv, .. } => Some(mv.uci.clone()),
                _ => None,
            })
            .await;
        assert_eq!(mv, "e7e5");
    }
    let mut read = sqlx::SqliteConnection::connect(&url)
        .await
        .expect("a connection");
    let stored: i64 = sqlx::query_scalar("SELECT COUNT(*) FROM moves WHERE match_id = ?")
        .bind(&id)
        .fetch_one(&mut read)
        .await
        .expect("the moves counted");
    assert_eq!(stored, 2, "both moves are stored");
}
