//! A real server for the websocket tests: on a free loopback port, with its own SQLite file.

use std::net::SocketAddr;

use tokio::net::TcpListener;

/// A server on a free port with its own SQLite file (kept while the value lives).
pub struct TestServer {
    pub addr: SocketAddr,
    pub _dir: tempfile::TempDir,
    server: Option<bughouse_server::Server>,
}

impl TestServer {
    pub async fn start() -> TestServer {
        let dir = tempfile::tempdir().expect("a temporary directory");
        let url = format!("sqlite://{}", dir.path().join("bughouse.db").display());
        let listener = TcpListener::bind("127.0.0.1:0").await.expect("a free port");
        let server = bughouse_server::serve_on(listener, &url)
            .await
            .expect("the server starts");
        TestServer {
            addr: server.addr,
            _dir: dir,
            server: Some(server),
        }
    }
}

impl TestServer {
    /// A connection of its own to the server's SQLite file (to lock it, add a trigger, read).
    #[allow(dead_code, reason = "shared support: not every test binary uses it")]
    pub async fn database(&self) -> sqlx::SqliteConnection {
        use sqlx::Connection as _;
        let url = format!(
            "sqlite://{}",
            self._dir.path().join("bughouse.db").display()
        );
        sqlx::SqliteConnection::connect(&url)
            .await
            .expect("a connection to the server's database")
    }
}

impl Drop for TestServer {
    fn drop(&mut self) {
        if let Some(server) = self.server.take() {
            server.abort();
        }
    }
}
