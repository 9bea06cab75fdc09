//! The bughouse server: lobby, seats, live matches with server-side clocks, partner talk,
//! spectators, an archive, all stored in SQLite or PostgreSQL.
//!
//! - [`hub`]: the live-game state machine, `apply(input, now) -> effects`, with no sockets,
//!   database or clock inside, a file per concern;
//! - `app`: start-up (the store opened, matches restored from the last heartbeat, the tasks
//!   spawned, the routes served);
//! - `runtime`: the task that owns the hub and wakes it for flag falls, the committer (stores
//!   before sends) and the sender;
//! - `http`: the routes, the websocket adapter (it only translates) and the one JSON error;
//! - `tournaments`: tournaments in the browser (`/api/tournaments`, `/t/{id}`) on top of
//!   `bughouse_tournament`, with rounds played as server matches whose results are entered as
//!   they end;
//! - [`assets`]: the web front end, built by `build.rs` with npm and embedded in the binary.

mod app;
pub mod assets;
mod bots;
mod cluster;
mod http;
pub mod hub;
mod otb;
mod runtime;
mod tournaments;

use std::net::SocketAddr;

pub use app::{run, serve_on, Server};

/// How to run the server.
#[derive(Debug, Clone)]
pub struct Config {
    /// Where to listen.
    pub addr: SocketAddr,
    /// `sqlite://PATH` or `postgres://...`.
    pub database: String,
    /// `redis://HOST:PORT`: run as a node of a cluster (PostgreSQL only); `None` for a single
    /// server.
    pub bus: Option<String>,
    /// This node's name in the cluster (random if `None`).
    pub node_id: Option<String>,
}

/// Why the server could not start or stopped.
#[derive(Debug, thiserror::Error)]
pub enum ServerError {
    /// The database could not be opened or migrated.
    #[error("database: {0}")]
    Store(#[from] bughouse_store::StoreError),
    /// The address could not be bound.
    #[error("cannot listen on {addr}: {source}")]
    Bind {
        /// The address.
        addr: SocketAddr,
        /// Why.
        source: std::io::Error,
    },
    /// The cluster's bus (Redis) cannot be used, or the configuration is refused.
    #[error("cluster: {0}")]
    Cluster(#[from] crate::cluster::ClusterError),
    /// Serving failed.
    #[error("server: {0}")]
    Io(#[from] std::io::Error),
}
