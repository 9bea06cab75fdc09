//! The small HTTP and websocket client that `bughouse loadtest` and `bughouse chaos` share: where
//! the server is, one HTTP/1.1 request per connection, a websocket with small buffers, creating
//! a match, and picking a random legal move.

use std::net::SocketAddr;
use std::time::Duration;

use rand::Rng;
use serde::Deserialize;
use tokio::io::{AsyncReadExt, AsyncWriteExt};
use tokio::net::TcpStream;
use tokio_tungstenite::tungstenite::protocol::WebSocketConfig;
use tokio_tungstenite::WebSocketStream;

/// How long one connection attempt, handshake or HTTP request may take.
pub const IO_TIMEOUT: Duration = Duration::from_secs(10);

/// The seats in the protocol's order.
pub const SEATS: [&str; 4] = ["WhiteA", "BlackA", "WhiteB", "BlackB"];
/// The boards; seat `i` plays on board `BOARDS[i / 2]`.
pub const BOARDS: [&str; 2] = ["A", "B"];

/// A websocket to the server.
pub type Ws = WebSocketStream<TcpStream>;

/// Where the server is (loopback only).
#[derive(Debug, Clone)]
pub struct Target {
    /// The address to connect to.
    pub addr: SocketAddr,
    /// `host:port` for the `Host` header and the websocket URL.
    pub host: String,
    /// `ws://host:port/ws`.
    pub ws_url: String,
}

impl Target {
    /// Reads `http://HOST:PORT`; refuses anything but a loopback address.
    pub fn parse(url: &str) -> Result<Target, String> {
        let rest = url
            .strip_prefix("http://")
            .ok_or_else(|| format!("--server {url:?}: expected http://HOST:PORT"))?;
        let host = rest.trim_end_matches('/').to_owned();
        if host.contains('/') {
            return Err(format!("--server {url:?}: a base URL has no path"));
        }
        use std::net::ToSocketAddrs;
        let addr = host
            .to_socket_addrs()
            .map_err(|e| format!("--server {url:?}: {e}"))?
            .next()
            .ok_or_else(|| format!("--server {url:?}: no address"))?;
        if !addr.ip().is_loopback() {
            return Err(format!(
                "--server {url:?}: the load tester only targets loopback addresses"
            ));
        }
        Ok(Target::of_addr(addr, host))
    }

    /// The server at `addr`, named `host` in requests.
    pub fn of_addr(addr: SocketAddr, host: String) -> Target {
        Target {
            ws_url: format!("ws://{host}/ws"),
            addr,
            host,
        }
    }
}

/// Opens the websocket, within [`IO_TIMEOUT`].
pub async fn connect(target: &Target) -> Result<Ws, String> {
    let attempt = async {
        let tcp = TcpStream::connect(target.addr)
            .await
            .map_err(|e| format!("{}: {e}", target.addr))?;
        let _ = tcp.set_nodelay(true);
        // Small buffers: thousands of connections, small messages.
        let config = WebSocketConfig::default()
            .read_buffer_size(4096)
            .write_buffer_size(0);
        let (ws, _) =
            tokio_tungstenite::client_async_with_config(target.ws_url.as_str(), tcp, Some(config))
                .await
                .map_err(|e| format!("websocket handshake: {e}"))?;
        Ok(ws)
    };
    tokio::time::timeout(IO_TIMEOUT, attempt)
        .await
        .map_err(|_| "timed out".to_owned())?
}

/// An HTTP answer: the status and the body (de-chunked).
#[derive(Debug)]
pub struct Answer {
    /// The status code.
    pub status: u16,
    /// The body.
    pub body: String,
}

/// One HTTP/1.1 request over a fresh connection (`Connection: close`), within [`IO_TIMEOUT`];
/// a body is sent as JSON.
pub async fn http(
    target: &Target,
    method: &str,
    path: &str,
    body: Option<&str>,
) -> Result<Answer, String> {
    let mut request = format!(
        "{method} {path} HTTP/1.1\r\nHost: {}\r\nConnection: close\r\n",
        target.host
    );
    match body {
        Some(body) => request.push_str(&format!(
            "Content-Type: application/json\r\nContent-Length: {}\r\n\r\n{body}",
            body.len()
        )),
        None => request.push_str("\r\n"),
    }
    let exchange = async {
        let mut tcp = TcpStream::connect(target.addr)
            .await
            .map_err(|e| format!("{}: {e}", target.addr))?;
        tcp.write_all(request.as_bytes())
            .await
            .map_err(|e| e.to_string())?;
        let mut answer = Vec::with_capacity(512);
        (&mut tcp)
            .take(16 * 1024 * 1024)
            .read_to_end(&mut answer)
            .await
            .map_err(|e| e.to_string())?;
        Ok::<_, String>(answer)
    };
    let answer = tokio::time::timeout(IO_TIMEOUT, exchange)
        .await
        .map_err(|_| "timed out".to_owned())??;
    let answer = String::from_utf8_lossy(&answer);
    let (head, rest) = answer
        .split_once("\r\n\r\n")
        .ok_or_else(|| "malformed HTTP answer".to_owned())?;
    let status = head
        .split_whitespace()
        .nth(1)
        .and_then(|s| s.parse().ok())
        .ok_or_else(|| format!("no status in {head:?}"))?;
    let chunked = head
        .to_ascii_lowercase()
        .lines()
        .any(|l| l.starts_with("transfer-encoding:") && l.contains("chunked"));
    let body = if chunked {
        dechunk(rest)?
    } else {
        rest.to_owned()
    };
    Ok(Answer { status, body })
}

fn dechunk(mut rest: &str) -> Result<String, String> {
    let mut body = String::new();
    while let Some((size, after)) = rest.split_once("\r\n") {
        let size = usize::from_str_radix(size.split(';').next().unwrap_or("").trim(), 16)
            .map_err(|_| format!("bad chunk size {size:?}"))?;
        if size == 0 {
            break;
        }
        let chunk = after.get(..size).ok_or("truncated chunk")?;
        body.push_str(chunk);
        rest = after.get(size + 2..).unwrap_or("");
    }
    Ok(body)
}

/// `POST /api/matches`; the new match id.
pub async fn create_match(
    target: &Target,
    rules: &str,
    time_control: &str,
) -> Result<String, String> {
    let body = serde_json::to_string(&bughouse_protocol::CreateMatch {
        rules: rules.to_owned(),
        time_control: time_control.to_owned(),
        custom: Default::default(),
    })
    .map_err(|e| e.to_string())?;
    let answer = http(target, "POST", "/api/matches", Some(&body)).await?;
    if answer.status != 201 && answer.status != 200 {
        return Err(format!("HTTP {}: {}", answer.status, answer.body));
    }
    serde_json::from_str::<bughouse_protocol::CreatedMatch>(answer.body.trim())
        .map(|c| c.match_id)
        .map_err(|e| format!("unexpected answer {:?}: {e}", answer.body))
}

/// Legal moves, kept as one string of moves separated by spaces: one allocation instead of one
/// per move (the load tester reads tens of thousands of these a second).
#[derive(Debug, Clone, PartialEq)]
pub struct MoveList(pub String);

impl<'de> Deserialize<'de> for MoveList {
    fn deserialize<D: serde::Deserializer<'de>>(d: D) -> Result<MoveList, D::Error> {
        struct Joiner;
        impl<'de> serde::de::Visitor<'de> for Joiner {
            type Value = MoveList;
            fn expecting(&self, f: &mut std::fmt::Formatter) -> std::fmt::Result {
                f.write_str("a list of moves")
            }
            fn visit_seq<A: serde::de::SeqAccess<'de>>(
                self,
                mut seq: A,
            ) -> Result<MoveList, A::Error> {
                let mut all = String::with_capacity(256);
                while let Some(m) = seq.next_element::<std::borrow::Cow<'de, str>>()? {
                    if !all.is_empty() {
                        all.push(' ');
                    }
                    all.push_str(&m);
                }
                Ok(MoveList(all))
            }
        }
        d.deserialize_seq(Joiner)
    }
}

/// A random legal move; three times in four a board move rather than a drop, when there is
/// one, which keeps games going longer than drops would.
pub fn pick(legal: &MoveList, rng: &mut impl Rng) -> String {
    let moves = || legal.0.split(' ');
    if rng.gen_bool(0.75) {
        let board_moves = moves().filter(|m| !m.contains('@')).count();
        if board_moves > 0 {
            let k = rng.gen_range(0..board_moves);
            if let Some(m) = moves().filter(|m| !m.contains('@')).nth(k) {
                return m.to_owned();
            }
        }
    }
    let k = rng.gen_range(0..moves().count());
    moves().nth(k).unwrap_or_default().to_owned()
}

#[cfg(test)]
mod tests {
    use super::*;
    use rand::rngs::StdRng;
    use rand::SeedableRng;

    #[derive(Deserialize)]
    struct BoardLite {
        #[serde(default)]
        legal: Option<MoveList>,
    }

    #[test]
    fn move_lists() {
        let b: BoardLite =
            serde_json::from_str(r#"{"board":"A","fen":"x","legal":["e2e4","N@f3","a\u0032a3"]}"#)
                .unwrap();
        let legal = b.legal.unwrap();
        assert_eq!(legal, MoveList("e2e4 N@f3 a2a3".into()));
        let mut rng = StdRng::seed_from_u64(1);
        for _ in 0..50 {
            let m = pick(&legal, &mut rng);
            assert!(["e2e4", "N@f3", "a2a3"].contains(&m.as_str()));
        }
        let none: BoardLite = serde_json::from_str(r#"{"board":"B","legal":null}"#).unwrap();
        assert!(none.legal.is_none());
    }

    #[test]
    fn only_loopback() {
        assert!(Target::parse("http://127.0.0.1:8099").is_ok());
        assert!(Target::parse("http://10.0.0.1:8099").is_err());
        assert!(Target::parse("https://127.0.0.1:8099").is_err());
    }

    #[test]
    fn chunked_bodies() {
        assert_eq!(
            dechunk("5\r\nhello\r\n6\r\n world\r\n0\r\n\r\n").unwrap(),
            "hello world"
        );
        assert!(dechunk("zz\r\nx").is_err());
    }
}
