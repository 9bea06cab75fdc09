//! `bughouse serve` killed in the middle of a match (SIGKILL, as a crash) and started again on
//! the same database and port: the players come back with their seat tokens, the moves are all
//! there, the downtime is charged to nobody, and the match goes on to mate.

use std::fs::File;
use std::net::{SocketAddr, TcpListener as StdListener};
use std::path::{Path, PathBuf};
use std::process::{Child, Command, Stdio};
use std::time::{Duration, Instant};

use bughouse_loadtest::client::{Answer, Target};
use bughouse_protocol::{
    ArchiveEntry, ClientMessage, Clocks, CreateMatch, MatchState, ServerMessage,
};
use futures_util::{SinkExt, StreamExt};
use tokio::net::TcpStream;
use tokio_tungstenite::tungstenite::Message;
use tokio_tungstenite::{MaybeTlsStream, WebSocketStream};

/// How long the test waits for any one answer.
const PATIENCE: Duration = Duration::from_secs(10);

const SEATS: [&str; 4] = ["WhiteA", "BlackA", "WhiteB", "BlackB"];

/// A running `bughouse serve`, killed when dropped (also when the test fails).
struct ServerProcess {
    child: Child,
    log: PathBuf,
}

impl ServerProcess {
    /// Starts `bughouse serve` and waits until it answers HTTP.
    async fn start(addr: SocketAddr, database: &str, log: &Path) -> ServerProcess {
        let child = Command::new(env!("CARGO_BIN_EXE_bughouse"))
            .args(["serve", "--addr", &addr.to_string(), "--database", database])
            .env("RUST_LOG", "info")
            .stdin(Stdio::null())
            .stdout(Stdio::null())
            .stderr(File::create(log).expect("the log file is writable"))
            .spawn()
            .expect("the bughouse binary starts");
        let mut server = ServerProcess {
            child,
            log: log.to_owned(),
        };
        let deadline = Instant::now() + Duration::from_secs(30);
        loop {
            if let Some(status) = server.child.try_wait().expect("the child can be waited on") {
                panic!(
                    "bughouse serve exited with {status}:\n{}",
                    std::fs::read_to_string(&server.log).unwrap_or_default()
                );
            }
            if let Ok(Ok(answer)) = tokio::time::timeout(
                Duration::from_secs(2),
                target(addr).get("/api/archive?limit=1"),
            )
            .await
            {
                if answer.status == 200 {
                    return server;
                }
            }
            assert!(
                Instant::now() < deadline,
                "bughouse serve does not answer on {addr}:\n{}",
                std::fs::read_to_string(&server.log).unwrap_or_default()
            );
            tokio::time::sleep(Duration::from_millis(25)).await;
        }
    }

    /// SIGKILL: nothing is flushed beyond what the server had stored.
    fn kill(mut self) {
        self.child.kill().expect("the server can be killed");
        self.child.wait().expect("the killed server is reaped");
    }
}

impl Drop for ServerProcess {
    fn drop(&mut self) {
        let _ = self.child.kill();
        let _ = self.child.wait();
    }
}

/// The server at `addr`, through the load tester's HTTP client.
fn target(addr: SocketAddr) -> Target {
    Target::of_addr(addr, addr.to_string()).expect("an HTTP client")
}

/// `GET PATH`.
async fn get(addr: SocketAddr, path: &str) -> Answer {
    tokio::time::timeout(PATIENCE, target(addr).get(path))
        .await
        .expect("the server answers in time")
        .expect("the HTTP request succeeds")
}

type Ws = WebSocketStream<MaybeTlsStream<TcpStream>>;

struct Client {
    ws: Ws,
    seat: usize,
}

impl Client {
    async fn connect(addr: SocketAddr, seat: usize) -> Client {
        let (ws, _) = tokio_tungstenite::connect_async(format!("ws://{addr}/ws"))
            .await
            .expect("the websocket opens");
        Client { ws, seat }
    }

    async fn send(&mut self, msg: &ClientMessage) {
        let text = serde_json::to_string(msg).expect("serializable");
        self.ws
            .send(Message::Text(text.into()))
            .await
            .expect("the frame is sent");
    }

    async fn recv(&mut self) -> ServerMessage {
        let who = SEATS[self.seat];
        loop {
            let frame = match tokio::time::timeout(PATIENCE, self.ws.next()).await {
                Err(_) => panic!("{who}: no message in time"),
                Ok(None) => panic!("{who}: the websocket closed"),
                Ok(Some(Err(e))) => panic!("{who}: websocket error: {e}"),
                Ok(Some(Ok(frame))) => frame,
            };
            match frame {
                Message::Text(text) => {
                    return serde_json::from_str(text.as_str())
                        .unwrap_or_else(|e| panic!("{who}: not a server message ({e}): {text}"))
                }
                Message::Ping(_) | Message::Pong(_) => continue,
                other => panic!("{who}: unexpected frame {other:?}"),
            }
        }
    }

    async fn until<T>(&mut self, mut pick: impl FnMut(&ServerMessage) -> Option<T>) -> T {
        loop {
            let msg = self.recv().await;
            if let ServerMessage::Error { code, message, .. } = &msg {
                panic!("{}: error {code}: {message}", SEATS[self.seat]);
            }
            if let Some(t) = pick(&msg) {
                return t;
            }
        }
    }

    async fn hello(
        &mut self,
        match_id: &str,
        token: Option<String>,
    ) -> (MatchState, Option<String>) {
        self.send(&ClientMessage::Hello {
            match_id: match_id.to_owned(),
            token,
        })
        .await;
        self.until(|m| match m {
            ServerMessage::State { state, you } => {
                Some(((**state).clone(), you.map(|s| s.to_string())))
            }
            _ => None,
        })
        .await
    }
}

/// `seat` plays `uci`; every client gets the `moved`. Returns the clocks it carried.
async fn play(clients: &mut [Client], seat: usize, uci: &str) -> Clocks {
    clients[seat]
        .send(&ClientMessage::Move {
            uci: uci.to_owned(),
        })
        .await;
    let mut clocks = None;
    for c in clients.iter_mut() {
        let (mv, cl) = c
            .until(|m| match m {
                ServerMessage::Moved { mv, clocks, .. } => Some((mv.clone(), clocks.clone())),
                _ => None,
            })
            .await;
        assert_eq!(mv.uci, uci);
        assert_eq!(mv.seat, SEATS[seat]);
        clocks.get_or_insert(cl);
    }
    clocks.expect("four clients")
}

fn free_port() -> SocketAddr {
    let listener = StdListener::bind("127.0.0.1:0").expect("a free port");
    listener.local_addr().expect("a local address")
}

fn remaining(state: &MatchState, seat: usize) -> i64 {
    i64::try_from(state.clocks.remaining_ms[seat]).expect("a sane clock")
}

#[tokio::test]
async fn a_killed_server_resumes_the_match_with_the_same_moves_and_clocks() {
    let dir = Path::new(env!("CARGO_TARGET_TMPDIR")).join(format!(
        "restart-{}-{}",
        std::process::id(),
        std::time::SystemTime::now()
            .duration_since(std::time::UNIX_EPOCH)
            .expect("after 1970")
            .as_nanos()
    ));
    std::fs::create_dir_all(&dir).expect("a test directory");
    let database = format!("sqlite://{}", dir.join("bughouse.db").display());
    let addr = free_port();

    let server = ServerProcess::start(addr, &database, &dir.join("first.log")).await;
    let create = CreateMatch {
        rules: "fide".into(),
        time_control: "5+0".into(),
        custom: Default::default(),
        ..Default::default()
    };
    let answer = tokio::time::timeout(PATIENCE, target(addr).post("/api/matches", &create))
        .await
        .expect("the server answers in time")
        .expect("the HTTP request succeeds");
    assert_eq!(answer.status, 201, "{}", answer.body);
    let id: bughouse_protocol::CreatedMatch =
        serde_json::from_str(&answer.body).expect("a match id");
    let id = id.match_id;

    let mut clients = Vec::new();
    let mut tokens = Vec::new();
    for (i, seat) in SEATS.iter().enumerate() {
        let mut c = Client::connect(addr, i).await;
        c.hello(&id, None).await;
        c.send(&ClientMessage::Sit {
            seat: seat.parse().expect("a seat name"),
            name: format!("{seat} player"),
        })
        .await;
        let token = c
            .until(|m| match m {
                ServerMessage::Seated { token, .. } => Some(token.clone()),
                _ => None,
            })
            .await;
        tokens.push(token);
        clients.push(c);
    }
    for c in &mut clients {
        c.until(|m| match m {
            ServerMessage::State { state, .. } if state.status == "playing" => Some(()),
            _ => None,
        })
        .await;
    }

    // Both boards move; then WhiteA thinks for a while, so that the match time of the last
    // move is well past the time the restarted server takes to come back.
    let mut played = Vec::new();
    for (seat, uci) in [(0, "e2e4"), (2, "d2d4"), (1, "e7e5"), (3, "d7d5")] {
        play(&mut clients, seat, uci).await;
        played.push(uci);
    }
    tokio::time::sleep(Duration::from_secs(3)).await;
    let before = play(&mut clients, 0, "f1c4").await;
    played.push("f1c4");
    assert_eq!(before.running, ["BlackA", "WhiteB"]);
    // WhiteA was charged his thinking time.
    assert!(before.remaining_ms[0] <= 297_000, "{before:?}");

    // BlackA and WhiteB think 2.5 s; then a crash, down for a while, back on the same database
    // and port.
    let thinking = Duration::from_millis(2500);
    tokio::time::sleep(thinking).await;
    drop(clients);
    server.kill();
    let down = Duration::from_secs(3);
    tokio::time::sleep(down).await;
    let server = ServerProcess::start(addr, &database, &dir.join("second.log")).await;

    let mut clients = Vec::new();
    let mut states = Vec::new();
    for (i, token) in tokens.iter().enumerate() {
        let mut c = Client::connect(addr, i).await;
        let (state, you) = c.hello(&id, Some(token.clone())).await;
        assert_eq!(
            you.as_deref(),
            Some(SEATS[i]),
            "the token opens the seat again"
        );
        clients.push(c);
        states.push(state);
    }
    let state = states.last().expect("four states").clone();
    assert_eq!(state.status, "playing");
    let ucis: Vec<&str> = state.moves.iter().map(|m| m.uci.as_str()).collect();
    assert_eq!(ucis, played, "the same moves after the restart");
    assert_eq!(state.seats[0].name.as_deref(), Some("WhiteA player"));
    assert_eq!(state.clocks.running, ["BlackA", "WhiteB"]);
    // BlackA (to move on board A) has his legal moves again.
    let a = &states[1].boards[0];
    assert!(
        a.legal
            .as_ref()
            .is_some_and(|l| l.iter().any(|m| m == "b8c6")),
        "{a:?}"
    );

    // The players to move are charged their thinking up to the server's last heartbeat (one a
    // second: between 1.5 and 2.5 s of the 2.5 s, plus the moments of the restart), the downtime
    // (3 s) to nobody; the others' clocks are as they were (the store keeps whole
    // milliseconds, hence a little slack).
    for (seat, name) in SEATS.iter().enumerate() {
        let was = i64::try_from(before.remaining_ms[seat]).expect("a sane clock");
        let now = remaining(&state, seat);
        let charged = was - now;
        if before.running.iter().any(|s| s == name) {
            assert!(
                (1400..2900).contains(&charged),
                "{name}: {was} ms at the last move, {now} ms after the restart"
            );
        } else {
            assert!(
                (-2..=2).contains(&charged),
                "{name}: {was} ms at the last move, {now} ms after the restart"
            );
        }
    }

    // And the clocks run again: the players to move are charged from now on.
    let pause = Duration::from_millis(1500);
    tokio::time::sleep(pause).await;
    let answer = get(addr, &format!("/api/matches/{id}")).await;
    assert_eq!(answer.status, 200, "{}", answer.body);
    let later: MatchState = serde_json::from_str(&answer.body).expect("a match state");
    for (seat, name) in SEATS.iter().enumerate() {
        let spent = remaining(&state, seat) - remaining(&later, seat);
        if later.clocks.running.iter().any(|s| s == name) {
            assert!(
                (1400..4000).contains(&spent),
                "{name}'s clock runs after the restart: {spent} ms spent in a pause of {pause:?}"
            );
        } else {
            assert_eq!(spent, 0, "{name}'s clock is stopped");
        }
    }

    // The match goes on to mate.
    for (seat, uci) in [(1, "b8c6"), (0, "d1h5"), (1, "g8f6"), (0, "h5f7")] {
        play(&mut clients, seat, uci).await;
    }
    for c in &mut clients {
        let result = c
            .until(|m| match m {
                ServerMessage::Ended { result, .. } => Some(result.clone()),
                _ => None,
            })
            .await;
        assert_eq!(result.result, "1-0");
    }
    let answer = get(addr, &format!("/api/matches/{id}/bpgn")).await;
    assert!(answer.body.contains("1A. e4"), "{}", answer.body);
    assert!(answer.body.contains("Qxf7#"), "{}", answer.body);

    // The record survives a second crash, in the archive.
    drop(clients);
    server.kill();
    let server = ServerProcess::start(addr, &database, &dir.join("third.log")).await;
    let answer = get(addr, "/api/archive").await;
    let archive: Vec<ArchiveEntry> = serde_json::from_str(&answer.body).expect("the archive");
    assert!(
        archive
            .iter()
            .any(|e| e.match_id == id && e.result == "1-0"),
        "{archive:?}"
    );
    let answer = get(addr, &format!("/api/matches/{id}/bpgn")).await;
    assert!(answer.body.contains("Qxf7#"), "{}", answer.body);
    server.kill();
    let _ = std::fs::remove_dir_all(&dir);
}
