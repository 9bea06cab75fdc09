//! The client that the load tester and the crash test share: where the server is (loopback
//! only), HTTP requests through reqwest, a websocket (`bughouse-ws`'s client: small buffers,
//! each message read lent from the read buffer), creating a match, and picking a random legal
//! move.

use std::net::SocketAddr;
use std::time::Duration;

use bughouse_protocol::{ClientFrame, CreateMatch, CreatedMatch, UciList};
use bughouse_ws::{Client, WsError};
use rand::Rng;
use tokio::net::TcpStream;

/// How long one connection attempt, handshake or HTTP request may take.
pub const IO_TIMEOUT: Duration = Duration::from_secs(10);

/// The largest message taken from the server: far above any (a match's whole state, its record
/// included, is tens of kilobytes); a guard against a runaway length only.
const MAX_SERVER_MESSAGE: usize = 1 << 24;

/// A websocket to the server.
pub type Ws = Client<TcpStream>;

/// Why `--server` names no server the tools may reach.
#[derive(Debug, thiserror::Error)]
pub enum TargetError {
    /// Not `http://...`.
    #[error("--server {0:?}: expected http://HOST:PORT")]
    NotHttp(String),
    /// A path after the host.
    #[error("--server {0:?}: a base URL has no path")]
    HasPath(String),
    /// The host does not resolve.
    #[error("--server {url:?}: {source}")]
    Resolve {
        /// The URL given.
        url: String,
        /// The resolver's error.
        source: std::io::Error,
    },
    /// The host resolves to nothing.
    #[error("--server {0:?}: no address")]
    NoAddress(String),
    /// Not a loopback address.
    #[error("--server {0:?}: the load tester only targets loopback addresses")]
    NotLoopback(String),
    /// The HTTP client could not be built.
    #[error("cannot build the HTTP client: {0}")]
    Client(reqwest::Error),
}

/// What went wrong talking to the server.
#[derive(Debug, thiserror::Error)]
pub enum ClientError {
    /// The TCP connection failed.
    #[error("{addr}: {source}")]
    Connect {
        /// The server's address.
        addr: SocketAddr,
        /// Why.
        source: std::io::Error,
    },
    /// The websocket handshake failed, or a message could not be sent.
    #[error(transparent)]
    Ws(WsError),
    /// A message could not be written as JSON.
    #[error("cannot write the message: {0}")]
    Encode(serde_json::Error),
    /// No answer within [`IO_TIMEOUT`].
    #[error("timed out")]
    Timeout,
    /// The HTTP request failed (connection, protocol, or the client could not be built).
    #[error("{0}")]
    Http(reqwest::Error),
    /// The server refused the request.
    #[error("HTTP {status}: {body}")]
    Status {
        /// The status code.
        status: u16,
        /// The answer's body.
        body: String,
    },
    /// The answer is not what the protocol says.
    #[error("unexpected answer {body:?}: {source}")]
    Answer {
        /// The answer's body.
        body: String,
        /// Why it does not read.
        source: serde_json::Error,
    },
}

/// Where the server is (loopback only), and an HTTP client for it.
#[derive(Debug, Clone)]
pub struct Target {
    /// The address to connect to.
    pub addr: SocketAddr,
    /// `http://host:port`, the base of HTTP requests.
    pub base: String,
    /// `host:port`, the `Host` of requests and of the websocket's handshake.
    pub host: String,
    http: reqwest::Client,
}

/// An HTTP answer: the status and the body.
#[derive(Debug)]
pub struct Answer {
    /// The status code.
    pub status: u16,
    /// The body.
    pub body: String,
}

impl Target {
    /// Reads `http://HOST:PORT`; refuses anything but a loopback address.
    ///
    /// # Errors
    ///
    /// [`TargetError`]: not such a URL, or not loopback.
    pub fn parse(url: &str) -> Result<Target, TargetError> {
        let rest = url
            .strip_prefix("http://")
            .ok_or_else(|| TargetError::NotHttp(url.to_owned()))?;
        let host = rest.trim_end_matches('/').to_owned();
        if host.contains('/') {
            return Err(TargetError::HasPath(url.to_owned()));
        }
        use std::net::ToSocketAddrs;
        let addr = host
            .to_socket_addrs()
            .map_err(|source| TargetError::Resolve {
                url: url.to_owned(),
                source,
            })?
            .next()
            .ok_or_else(|| TargetError::NoAddress(url.to_owned()))?;
        if !addr.ip().is_loopback() {
            return Err(TargetError::NotLoopback(url.to_owned()));
        }
        Target::of_addr(addr, host)
    }

    /// The server at `addr`, named `host` (`host:port`) in requests.
    ///
    /// # Errors
    ///
    /// [`TargetError::Client`] when the HTTP client cannot be built.
    pub fn of_addr(addr: SocketAddr, host: String) -> Result<Target, TargetError> {
        // One connection per request, as the tools always did: idle keep-alive connections
        // would hold descriptors in the server and in the load tester (under its open-file
        // limit), and the crash test kills the server under them. No proxy: loopback only.
        let http = reqwest::Client::builder()
            .timeout(IO_TIMEOUT)
            .connect_timeout(IO_TIMEOUT)
            .pool_max_idle_per_host(0)
            .no_proxy()
            .build()
            .map_err(TargetError::Client)?;
        Ok(Target {
            base: format!("http://{host}"),
            host,
            addr,
            http,
        })
    }

    /// `GET PATH`, within [`IO_TIMEOUT`]; the answer whatever its status.
    ///
    /// # Errors
    ///
    /// [`ClientError::Http`] when no answer came.
    pub async fn get(&self, path: &str) -> Result<Answer, ClientError> {
        let response = self
            .http
            .get(format!("{}{path}", self.base))
            .send()
            .await
            .map_err(ClientError::Http)?;
        answer(response).await
    }

    /// `POST PATH` with `body` as JSON, within [`IO_TIMEOUT`]; the answer whatever its status.
    ///
    /// # Errors
    ///
    /// [`ClientError::Http`] when no answer came.
    pub async fn post(
        &self,
        path: &str,
        body: &impl serde::Serialize,
    ) -> Result<Answer, ClientError> {
        let response = self
            .http
            .post(format!("{}{path}", self.base))
            .json(body)
            .send()
            .await
            .map_err(ClientError::Http)?;
        answer(response).await
    }

    /// `POST /api/matches`; the new match id.
    ///
    /// # Errors
    ///
    /// [`ClientError`]: no answer, a refusal, or an answer that does not read.
    pub async fn create_match(
        &self,
        rules: &str,
        time_control: &str,
    ) -> Result<String, ClientError> {
        let request = CreateMatch {
            rules: rules.to_owned(),
            time_control: time_control.to_owned(),
            custom: Default::default(),
            ..Default::default()
        };
        let answer = self.post("/api/matches", &request).await?;
        if answer.status != 201 && answer.status != 200 {
            return Err(ClientError::Status {
                status: answer.status,
                body: answer.body,
            });
        }
        serde_json::from_str::<CreatedMatch>(answer.body.trim())
            .map(|c| c.match_id)
            .map_err(|source| ClientError::Answer {
                body: answer.body,
                source,
            })
    }

    /// Opens the websocket for the match `match_id`, within [`IO_TIMEOUT`]: its address names
    /// the match (`/ws?match=ID`, as the match page's does), so that the server runs the
    /// connection beside that match's shard.
    ///
    /// # Errors
    ///
    /// [`ClientError`]: the connection or the handshake failed or timed out.
    pub async fn connect(&self, match_id: &str) -> Result<Ws, ClientError> {
        let path = format!("/ws?match={match_id}");
        let attempt = async {
            let tcp =
                TcpStream::connect(self.addr)
                    .await
                    .map_err(|source| ClientError::Connect {
                        addr: self.addr,
                        source,
                    })?;
            let _ = tcp.set_nodelay(true);
            Client::handshake(tcp, &self.host, &path, MAX_SERVER_MESSAGE)
                .await
                .map_err(ClientError::Ws)
        };
        tokio::time::timeout(IO_TIMEOUT, attempt)
            .await
            .map_err(|_| ClientError::Timeout)?
    }
}

async fn answer(response: reqwest::Response) -> Result<Answer, ClientError> {
    let status = response.status().as_u16();
    let body = response.text().await.map_err(ClientError::Http)?;
    Ok(Answer { status, body })
}

/// Sends one client message (with its id, if any) as a text frame, within [`IO_TIMEOUT`].
///
/// # Errors
///
/// [`ClientError`]: the frame could not be written or sent in time.
pub async fn send(ws: &mut Ws, frame: &ClientFrame) -> Result<(), ClientError> {
    let text = serde_json::to_string(frame).map_err(ClientError::Encode)?;
    tokio::time::timeout(IO_TIMEOUT, ws.send_text(&text))
        .await
        .map_err(|_| ClientError::Timeout)?
        .map_err(ClientError::Ws)
}

/// A random legal move; three times in four a board move rather than a drop, when there is
/// one, which keeps games going longer than drops would. `legal` must not be empty.
pub fn pick(legal: &UciList, rng: &mut impl Rng) -> String {
    if rng.gen_bool(0.75) {
        // A drop is `P@e4`: its `@` is the second character.
        let board_move = |m: &&str| m.as_bytes().get(1) != Some(&b'@');
        let board_moves = legal.iter().filter(board_move).count();
        if board_moves > 0 {
            let k = rng.gen_range(0..board_moves);
            if let Some(m) = legal.iter().filter(board_move).nth(k) {
                return m.to_owned();
            }
        }
    }
    let k = rng.gen_range(0..legal.len().max(1));
    legal.get(k).unwrap_or_default().to_owned()
}

#[cfg(test)]
mod tests {
    use super::*;
    use rand::rngs::StdRng;
    use rand::SeedableRng;

    #[test]
    fn picks_are_legal_and_mostly_board_moves() {
        let legal: UciList = ["e2e4", "N@f3", "a2a3"].into_iter().collect();
        let mut rng = StdRng::seed_from_u64(1);
        let mut drops = 0;
        for _ in 0..400 {
            let m = pick(&legal, &mut rng);
            assert!(legal.contains(&m), "{m}");
            drops += usize::from(m.contains('@'));
        }
        // A drop only in the quarter of picks that take any move, a third of those.
        assert!((10..70).contains(&drops), "{drops} drops");
        let only_drops: UciList = ["P@e4"].into_iter().collect();
        assert_eq!(pick(&only_drops, &mut rng), "P@e4");
    }

    #[test]
    fn only_loopback() {
        assert!(Target::parse("http://127.0.0.1:8099").is_ok());
        assert!(Target::parse("http://10.0.0.1:8099").is_err());
        assert!(Target::parse("https://127.0.0.1:8099").is_err());
        assert!(Target::parse("http://127.0.0.1:8099/api").is_err());
        let t = Target::parse("http://127.0.0.1:8099/").expect("loopback");
        assert_eq!(t.base, "http://127.0.0.1:8099");
        assert_eq!(t.host, "127.0.0.1:8099");
    }
}
