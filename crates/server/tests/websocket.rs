//! The real server over real sockets: HTTP routes and four websocket players on a SQLite file.
//! The shared setup is here (the server in support/server.rs); the tests are a concern a file
//! in websocket/: play, actions, http, lobby.

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

#[path = "websocket/actions.rs"]
mod actions;
#[path = "websocket/http.rs"]
mod http;
#[path = "websocket/lobby.rs"]
mod lobby;
#[path = "websocket/play.rs"]
mod play;

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
        Client::open(format!("ws://{addr}/ws"), name).await
    }

    /// A connection whose address names the match it is for, as the match page's does (the
    /// server runs it beside that match's shard).
    async fn connect_for(addr: SocketAddr, id: &str, name: &str) -> Client {
        Client::open(format!("ws://{addr}/ws?match={id}"), name).await
    }

    async fn open(url: String, name: &str) -> Client {
        let (ws, _) = tokio_tungstenite::connect_async(url)
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

    /// Reads until the server closes the websocket; the messages read until then.
    async fn until_closed(&mut self) -> Vec<ServerMessage> {
        let mut seen = Vec::new();
        loop {
            let name = &self.name;
            match tokio::time::timeout(PATIENCE, self.ws.next()).await {
                Err(_) => panic!("{name}: the websocket was not closed in time"),
                Ok(None | Some(Err(_)) | Some(Ok(Message::Close(_)))) => return seen,
                Ok(Some(Ok(Message::Text(text)))) => seen.push(
                    serde_json::from_str(text.as_str())
                        .unwrap_or_else(|e| panic!("{name}: not a server message ({e}): {text}")),
                ),
                Ok(Some(Ok(_))) => {}
            }
        }
    }

    /// A new connection to `id` that says hello with `token`: the client, once it has the
    /// state (returned too).
    async fn rejoin(addr: SocketAddr, id: &str, token: &str, name: &str) -> (Client, MatchState) {
        Client::join(addr, id, Some(token), name).await
    }

    /// A new connection watching `id` (no seat): the client, once it has the state (returned
    /// too).
    async fn watch(addr: SocketAddr, id: &str, name: &str) -> (Client, MatchState) {
        Client::join(addr, id, None, name).await
    }

    async fn join(
        addr: SocketAddr,
        id: &str,
        token: Option<&str>,
        name: &str,
    ) -> (Client, MatchState) {
        let mut c = Client::connect(addr, name).await;
        c.send(&ClientMessage::Hello {
            match_id: id.to_owned(),
            token: token.map(str::to_owned),
        })
        .await;
        let (state, _) = c.state().await;
        (c, state)
    }

    /// Says hello to the waiting match `id` (watching it) and takes `seat`: the seat's token.
    async fn sit(&mut self, id: &str, seat: &str) -> String {
        self.send(&ClientMessage::Hello {
            match_id: id.to_owned(),
            token: None,
        })
        .await;
        let (state, you) = self.state().await;
        assert_eq!(state.match_id, id);
        assert_eq!(state.status, "waiting");
        assert_eq!(you, None);
        self.send(&ClientMessage::Sit {
            seat: seat.parse().unwrap(),
            name: format!("player {seat}"),
        })
        .await;
        let (seated, token) = self
            .until(|m| match m {
                ServerMessage::Seated { seat, token } => Some((*seat, token.clone())),
                _ => None,
            })
            .await;
        assert_eq!(seated, seat);
        assert!(token.len() >= 16, "a seat token has some entropy");
        token
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
/// starts. Returns them in seat order. The white players' connections name the match in their
/// address, as the match page's do; the black players' do not, as an older page's did not.
async fn seat_four(addr: SocketAddr, id: &str) -> Vec<Client> {
    seat_four_with_tokens(addr, id).await.0
}

/// [`seat_four`], with the seat tokens.
async fn seat_four_with_tokens(addr: SocketAddr, id: &str) -> (Vec<Client>, Vec<String>) {
    let mut clients = Vec::new();
    let mut tokens = Vec::new();
    for seat in SEATS {
        let mut c = if seat.starts_with("White") {
            Client::connect_for(addr, id, seat).await
        } else {
            Client::connect(addr, seat).await
        };
        tokens.push(c.sit(id, seat).await);
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
