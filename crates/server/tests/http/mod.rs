//! What the HTTP tests share: a server on a SQLite file in a temporary directory, and one
//! HTTP/1.1 request at a time over a plain socket (so that the tests see the bytes the server
//! sends: status, headers, chunked bodies).
// Each test file uses some of these, not all.
#![allow(dead_code)]

use std::net::SocketAddr;
use std::path::Path;
use std::time::Duration;

use serde_json::Value;
use tokio::io::{AsyncReadExt, AsyncWriteExt};
use tokio::net::{TcpListener, TcpStream};

pub const PATIENCE: Duration = Duration::from_secs(20);

pub fn database(dir: &Path) -> String {
    format!("sqlite://{}?mode=rwc", dir.join("bughouse.db").display())
}

pub async fn start(dir: &Path) -> bughouse_server::Server {
    let listener = TcpListener::bind("127.0.0.1:0").await.expect("a free port");
    bughouse_server::serve_on(listener, &database(dir))
        .await
        .expect("the server starts")
}

pub struct Answer {
    pub status: u16,
    pub head: String,
    pub body: String,
}

impl Answer {
    pub fn json(&self) -> Value {
        serde_json::from_str(&self.body)
            .unwrap_or_else(|e| panic!("not JSON ({e}): {} {}", self.status, self.body))
    }

    pub fn header(&self, name: &str) -> Option<String> {
        self.head.lines().find_map(|l| {
            let (k, v) = l.split_once(':')?;
            k.eq_ignore_ascii_case(name).then(|| v.trim().to_owned())
        })
    }

    /// The error code of a refusal.
    pub fn code(&self) -> String {
        self.json()["error"].as_str().unwrap_or("").to_owned()
    }

    /// The session cookie set by this answer (`name=value`), if any.
    pub fn cookie(&self) -> Option<String> {
        let set = self.header("set-cookie")?;
        let pair = set.split(';').next()?.trim().to_owned();
        Some(pair)
    }
}

/// One HTTP/1.1 request (`Connection: close`), with optional JSON body and extra headers.
pub async fn http(
    addr: SocketAddr,
    method: &str,
    path: &str,
    headers: &[(&str, &str)],
    body: Option<&str>,
) -> Answer {
    let mut stream = TcpStream::connect(addr).await.expect("the server accepts");
    let mut request = format!("{method} {path} HTTP/1.1\r\nHost: {addr}\r\nConnection: close\r\n");
    for (k, v) in headers {
        request.push_str(&format!("{k}: {v}\r\n"));
    }
    match body {
        Some(body) => request.push_str(&format!(
            "Content-Type: application/json\r\nContent-Length: {}\r\n\r\n{body}",
            body.len()
        )),
        None => request.push_str("Content-Length: 0\r\n\r\n"),
    }
    stream.write_all(request.as_bytes()).await.unwrap();
    let mut raw = Vec::new();
    tokio::time::timeout(PATIENCE, stream.read_to_end(&mut raw))
        .await
        .expect("the server answers in time")
        .expect("the answer is read");
    let text = String::from_utf8(raw).expect("UTF-8");
    let (head, rest) = text.split_once("\r\n\r\n").expect("a header and a body");
    let status = head.split_whitespace().nth(1).unwrap().parse().unwrap();
    let body = if head
        .to_ascii_lowercase()
        .contains("transfer-encoding: chunked")
    {
        dechunk(rest)
    } else {
        rest.to_owned()
    };
    Answer {
        status,
        head: head.to_owned(),
        body,
    }
}

fn dechunk(mut rest: &str) -> String {
    let mut body = String::new();
    loop {
        let (size, after) = rest.split_once("\r\n").expect("a chunk size line");
        let size = usize::from_str_radix(size.trim(), 16).expect("a chunk size");
        if size == 0 {
            return body;
        }
        body.push_str(&after[..size]);
        rest = &after[size + 2..];
    }
}

/// This server's own origin, as a browser on its pages sends it.
pub fn origin(addr: SocketAddr) -> String {
    format!("http://{addr}")
}

/// Signs up (from the site's own page) and returns the session cookie.
pub async fn sign_up(addr: SocketAddr, username: &str, password: &str) -> String {
    let body = serde_json::json!({"username": username, "password": password}).to_string();
    let a = http(
        addr,
        "POST",
        "/api/account/signup",
        &[("Origin", &origin(addr))],
        Some(&body),
    )
    .await;
    assert_eq!(a.status, 201, "{}", a.body);
    a.cookie().expect("a session cookie")
}
