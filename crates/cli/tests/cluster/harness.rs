//! The cluster tests' harness: a schema of its own in the test PostgreSQL, `bughouse serve`
//! nodes on the test Redis, and players over websockets that reconnect.

use std::fs::File;
use std::net::{SocketAddr, TcpListener as StdListener};
use std::path::{Path, PathBuf};
use std::process::{Child, Command, Stdio};
use std::time::{Duration, Instant};

use bughouse_loadtest::client::{Answer, Target};
use bughouse_protocol::{ClientFrame, ClientMessage, CreateMatch, MatchState, ServerMessage};
use futures_util::{SinkExt, StreamExt};
use sqlx::Connection;
use tokio::net::TcpStream;
use tokio_tungstenite::tungstenite::Message;
use tokio_tungstenite::{MaybeTlsStream, WebSocketStream};

/// How long a test waits for any one answer.
pub const PATIENCE: Duration = Duration::from_secs(10);

pub const SEATS: [&str; 4] = ["WhiteA", "BlackA", "WhiteB", "BlackB"];

/// The test PostgreSQL and Redis, or `None` (after a note) when there are none; under `CI`
/// their absence fails the test.
pub async fn backends(test: &str) -> Option<(String, String)> {
    let pg = std::env::var("BUGHOUSE_TEST_POSTGRES_URL").ok();
    let redis = std::env::var("BUGHOUSE_TEST_REDIS_URL").ok();
    let (Some(pg), Some(redis)) = (pg, redis) else {
        assert!(
            std::env::var_os("CI").is_none(),
            "{test}: BUGHOUSE_TEST_POSTGRES_URL and BUGHOUSE_TEST_REDIS_URL must be set under CI \
             (.ci/test sets them with .ci/postgres.sh and .ci/redis.sh)"
        );
        eprintln!(
            "{test}: skipped: set BUGHOUSE_TEST_POSTGRES_URL and BUGHOUSE_TEST_REDIS_URL \
             (eval \"$(bash .ci/postgres.sh)\"; eval \"$(bash .ci/redis.sh)\")"
        );
        return None;
    };
    // A schema of its own: the nodes take over every match in progress they find.
    let schema = format!("bughouse_cluster_{}_{}", std::process::id(), unique());
    let mut conn = sqlx::PgConnection::connect(&pg)
        .await
        .expect("the test PostgreSQL answers");
    sqlx::query(&format!("CREATE SCHEMA {schema}"))
        .execute(&mut conn)
        .await
        .expect("CREATE SCHEMA");
    conn.close().await.expect("closed");
    let sep = if pg.contains('?') { '&' } else { '?' };
    Some((
        format!("{pg}{sep}options=-c%20search_path%3D{schema}"),
        redis,
    ))
}

/// Nanoseconds now: names that no other run uses.
pub fn unique() -> u128 {
    std::time::SystemTime::now()
        .duration_since(std::time::UNIX_EPOCH)
        .expect("after 1970")
        .as_nanos()
}

/// A directory for the nodes' logs.
pub fn log_dir(test: &str) -> PathBuf {
    let dir = Path::new(env!("CARGO_TARGET_TMPDIR")).join(format!(
        "{test}-{}-{}",
        std::process::id(),
        unique()
    ));
    std::fs::create_dir_all(&dir).expect("a test directory");
    dir
}

/// A running `bughouse serve --bus`, killed when dropped (also when the test fails).
pub struct Node {
    pub addr: SocketAddr,
    child: Child,
    log: PathBuf,
}

impl Node {
    /// Starts a node and waits until it answers HTTP.
    pub async fn start(database: &str, bus: &str, id: &str, dir: &Path) -> Node {
        let args = ["--database", database, "--bus", bus, "--node-id", id];
        Node::serve(free_port(), &args, &dir.join(format!("{id}.log"))).await
    }

    /// Starts `bughouse serve --addr ADDR ARGS…`, its log in `log`, and waits until it answers
    /// HTTP (a single server: `--database` alone).
    pub async fn serve(addr: SocketAddr, args: &[&str], log: &Path) -> Node {
        let child = Command::new(env!("CARGO_BIN_EXE_bughouse"))
            .args(["serve", "--addr", &addr.to_string()])
            .args(args)
            .env("RUST_LOG", "info")
            .stdin(Stdio::null())
            .stdout(Stdio::null())
            .stderr(File::create(log).expect("the log file is writable"))
            .spawn()
            .expect("the bughouse binary starts");
        let mut node = Node {
            addr,
            child,
            log: log.to_owned(),
        };
        let deadline = Instant::now() + Duration::from_secs(30);
        loop {
            if let Some(status) = node.child.try_wait().expect("the child can be waited on") {
                panic!(
                    "{} exited with {status}:\n{}",
                    log.display(),
                    node.log_text()
                );
            }
            if let Ok(Ok(answer)) = tokio::time::timeout(
                Duration::from_secs(2),
                target(addr).get("/api/archive?limit=1"),
            )
            .await
            {
                if answer.status == 200 {
                    return node;
                }
            }
            assert!(
                Instant::now() < deadline,
                "{} does not answer on {addr}:\n{}",
                log.display(),
                node.log_text()
            );
            tokio::time::sleep(Duration::from_millis(25)).await;
        }
    }

    /// The server's process id (for `loadtest --server-pid`; the cluster tests do not use it).
    #[allow(dead_code)]
    pub fn pid(&self) -> u32 {
        self.child.id()
    }

    pub fn log_text(&self) -> String {
        std::fs::read_to_string(&self.log).unwrap_or_default()
    }

    /// SIGTERM: the node stops politely.
    pub fn terminate(&self) {
        let status = Command::new("kill")
            .args(["-TERM", &self.child.id().to_string()])
            .status()
            .expect("kill runs");
        assert!(status.success());
    }

    /// SIGKILL: nothing is flushed, no lease released.
    pub fn kill(&mut self) {
        self.child.kill().expect("the node can be killed");
        self.child.wait().expect("the killed node is reaped");
    }
}

impl Drop for Node {
    fn drop(&mut self) {
        let _ = self.child.kill();
        let _ = self.child.wait();
    }
}

pub fn free_port() -> SocketAddr {
    let listener = StdListener::bind("127.0.0.1:0").expect("a free port");
    listener.local_addr().expect("a local address")
}

/// The node at `addr`, through the load tester's HTTP client.
pub fn target(addr: SocketAddr) -> Target {
    Target::of_addr(addr, addr.to_string()).expect("an HTTP client")
}

/// `GET PATH`.
pub async fn get(addr: SocketAddr, path: &str) -> Answer {
    tokio::time::timeout(PATIENCE, target(addr).get(path))
        .await
        .expect("the node answers in time")
        .expect("the HTTP request succeeds")
}

/// Creates a 5+0 match on the node at `addr`: its id.
pub async fn create_match(addr: SocketAddr) -> String {
    let create = CreateMatch {
        rules: "fide".into(),
        time_control: "5+0".into(),
        custom: Default::default(),
        ..Default::default()
    };
    let answer = tokio::time::timeout(PATIENCE, target(addr).post("/api/matches", &create))
        .await
        .expect("the node answers in time")
        .expect("the HTTP request succeeds");
    assert_eq!(answer.status, 201, "{}", answer.body);
    let id: bughouse_protocol::CreatedMatch =
        serde_json::from_str(&answer.body).expect("a match id");
    id.match_id
}

/// The match's state as a node serves it over HTTP.
pub async fn state_of(addr: SocketAddr, id: &str) -> MatchState {
    let answer = get(addr, &format!("/api/matches/{id}")).await;
    assert_eq!(answer.status, 200, "{}", answer.body);
    serde_json::from_str(&answer.body).expect("a match state")
}

type Ws = WebSocketStream<MaybeTlsStream<TcpStream>>;

/// A player or spectator on one node.
pub struct Client {
    ws: Ws,
    pub who: String,
    next_id: u64,
    /// Messages looked at and put back (by `play`, for the mover's later waits).
    pending: std::collections::VecDeque<ServerMessage>,
}

/// What `recv` found.
pub enum Got {
    Msg(Box<ServerMessage>),
    Closed,
}

impl Client {
    pub async fn connect(addr: SocketAddr, who: &str) -> Client {
        let (ws, _) = tokio_tungstenite::connect_async(format!("ws://{addr}/ws"))
            .await
            .expect("the websocket opens");
        Client {
            ws,
            who: who.to_owned(),
            // Ids go on growing across reconnects (a seat's ids must be new: a known one is
            // answered again, not applied).
            next_id: u64::try_from(unique() / 1_000).expect("microseconds fit"),
            pending: Default::default(),
        }
    }

    pub async fn send(&mut self, msg: ClientMessage) {
        self.send_frame(ClientFrame { id: None, msg }).await;
    }

    /// Sends an action with an id (acknowledged once stored); the id.
    pub async fn act(&mut self, msg: ClientMessage) -> u64 {
        let id = self.next_id;
        self.next_id += 1;
        self.send_frame(ClientFrame { id: Some(id), msg }).await;
        id
    }

    async fn send_frame(&mut self, frame: ClientFrame) {
        let text = serde_json::to_string(&frame).expect("serializable");
        // A socket its node closed fails here; the caller finds out at the next receive.
        let _ = self.ws.send(Message::Text(text.into())).await;
    }

    /// The next message, or that the socket closed; panics after `patience`.
    pub async fn recv_within(&mut self, patience: Duration) -> Option<Got> {
        let deadline = tokio::time::Instant::now() + patience;
        loop {
            let frame = match tokio::time::timeout_at(deadline, self.ws.next()).await {
                Err(_) => return None,
                Ok(None) | Ok(Some(Err(_))) => return Some(Got::Closed),
                Ok(Some(Ok(frame))) => frame,
            };
            match frame {
                Message::Text(text) => {
                    if std::env::var_os("BUGHOUSE_TEST_SHOW").is_some() {
                        eprintln!("{} <- {}", self.who, &text.as_str()[..text.len().min(200)]);
                    }
                    let msg = serde_json::from_str(text.as_str()).unwrap_or_else(|e| {
                        panic!("{}: not a server message ({e}): {text}", self.who)
                    });
                    return Some(Got::Msg(Box::new(msg)));
                }
                Message::Close(_) => return Some(Got::Closed),
                _ => continue,
            }
        }
    }

    pub async fn recv(&mut self) -> ServerMessage {
        if let Some(msg) = self.pending.pop_front() {
            return msg;
        }
        match self.recv_within(PATIENCE).await {
            Some(Got::Msg(msg)) => *msg,
            Some(Got::Closed) => panic!("{}: the websocket closed", self.who),
            None => panic!("{}: no message in time", self.who),
        }
    }

    /// Waits for the message `pick` accepts; an error fails the test.
    pub async fn until<T>(&mut self, mut pick: impl FnMut(&ServerMessage) -> Option<T>) -> T {
        loop {
            let msg = self.recv().await;
            if let ServerMessage::Error { code, message, .. } = &msg {
                panic!("{}: error {code}: {message}", self.who);
            }
            if let Some(t) = pick(&msg) {
                return t;
            }
        }
    }

    /// `hello`: the state and the seat the token opened.
    pub async fn hello(
        &mut self,
        match_id: &str,
        token: Option<String>,
    ) -> (MatchState, Option<String>) {
        self.send(ClientMessage::Hello {
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

    /// Waits until the node closes this socket (its match's owner died).
    pub async fn closed_within(&mut self, patience: Duration) -> bool {
        let deadline = Instant::now() + patience;
        loop {
            let left = deadline.saturating_duration_since(Instant::now());
            match self.recv_within(left).await {
                Some(Got::Closed) => return true,
                None => return false,
                Some(Got::Msg(_)) => continue,
            }
        }
    }
}

/// Connects to `addr` and says hello with the seat's token until the match answers (while a
/// match is being taken over, a hello may reach a node that cannot answer yet): the client and
/// the state.
pub async fn rejoin(
    addr: SocketAddr,
    who: &str,
    match_id: &str,
    token: Option<String>,
    patience: Duration,
) -> (Client, MatchState) {
    let deadline = Instant::now() + patience;
    loop {
        let mut c = Client::connect(addr, who).await;
        c.send(ClientMessage::Hello {
            match_id: match_id.to_owned(),
            token: token.clone(),
        })
        .await;
        loop {
            let left = deadline.saturating_duration_since(Instant::now());
            match c.recv_within(left.min(Duration::from_secs(3))).await {
                Some(Got::Msg(msg)) => match *msg {
                    ServerMessage::State { state, .. } => return (c, *state),
                    ServerMessage::Error { .. } => break,
                    _ => continue,
                },
                Some(Got::Closed) | None => break,
            }
        }
        assert!(
            Instant::now() < deadline,
            "{who}: the match {match_id} does not answer on {addr} within {patience:?}"
        );
        tokio::time::sleep(Duration::from_millis(100)).await;
    }
}

/// The four seats come back, seat `i` to `addrs[i]`, with their tokens ([`rejoin`]): the clients
/// and the states they got, in seat order.
pub async fn rejoin_four(
    addrs: [SocketAddr; 4],
    match_id: &str,
    tokens: &[String],
    patience: Duration,
) -> (Vec<Client>, Vec<MatchState>) {
    let mut clients = Vec::new();
    let mut states = Vec::new();
    for (i, token) in tokens.iter().enumerate() {
        let (c, state) = rejoin(addrs[i], SEATS[i], match_id, Some(token.clone()), patience).await;
        clients.push(c);
        states.push(state);
    }
    (clients, states)
}

/// Every client is told the match ended with `result` (`1-0`, `0-1`, `1/2-1/2`).
pub async fn all_see_result(clients: &mut [Client], result: &str) {
    for c in clients {
        let got = c
            .until(|m| match m {
                ServerMessage::Ended { result, .. } => Some(result.clone()),
                _ => None,
            })
            .await;
        assert_eq!(got.result, result, "{}", c.who);
    }
}

/// `seat` of `clients` plays `uci` (with an action id); every client in `watchers` (indices of
/// `clients`) gets the `moved`, and the mover its `ack`.
pub async fn play(clients: &mut [Client], seat: usize, uci: &str) {
    let id = clients[seat]
        .act(ClientMessage::Move {
            uci: uci.to_owned(),
        })
        .await;
    let mut acked = false;
    let mut moved = false;
    let mut later = Vec::new();
    while !(acked && moved) {
        match clients[seat].recv().await {
            ServerMessage::Ack { id: a, .. } if a == id => acked = true,
            ServerMessage::Moved { mv, .. } if mv.uci == uci => moved = true,
            ServerMessage::Error { code, message, .. } => {
                panic!("{}: {uci}: error {code}: {message}", clients[seat].who)
            }
            other => later.push(other),
        }
    }
    clients[seat].pending.extend(later);
    for (i, c) in clients.iter_mut().enumerate() {
        if i == seat {
            continue;
        }
        let mv = c
            .until(|m| match m {
                ServerMessage::Moved { mv, .. } => Some(mv.clone()),
                _ => None,
            })
            .await;
        assert_eq!(mv.uci, uci, "{}", c.who);
        assert_eq!(mv.seat, SEATS[seat], "{}", c.who);
    }
}

/// Seats four players, each connected to the node `nodes[i]`: the clients and their tokens.
pub async fn seat_four(nodes: [SocketAddr; 4], match_id: &str) -> (Vec<Client>, Vec<String>) {
    let mut clients = Vec::new();
    let mut tokens = Vec::new();
    for (i, seat) in SEATS.iter().enumerate() {
        let mut c = Client::connect(nodes[i], seat).await;
        c.hello(match_id, None).await;
        c.send(ClientMessage::Sit {
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
    (clients, tokens)
}
