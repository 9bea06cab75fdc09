//! The bughouse server: lobby, seats, live matches with server-side clocks, partner talk,
//! spectators, an archive, all stored in SQLite or PostgreSQL.
//!
//! - [`hub`]: the live-game state machine, `apply(input, now) -> effects`, with no sockets,
//!   database or clock inside;
//! - [`http`]: the axum routes and the websocket adapter onto the hub, and the task that owns
//!   the hub, executes its effects (stores before sends) and wakes it for flag falls;
//! - [`persist`]: what the hub's store effects become in the database;
//! - `tournaments`: tournaments in the browser (`/api/tournaments`, `/t/{id}`) on top of
//!   `bughouse_tournament`, with rounds played as server matches whose results are entered as
//!   they end;
//! - [`assets`]: the web front end, built by `build.rs` with npm and embedded in the binary.

mod api_error;
pub mod assets;
mod bots;
pub mod http;
pub mod hub;
pub mod persist;
mod tournaments;

use std::net::SocketAddr;

pub use http::{run, serve_on, Server};

/// How to run the server.
#[derive(Debug, Clone)]
pub struct Config {
    /// Where to listen.
    pub addr: SocketAddr,
    /// `sqlite://PATH` or `postgres://...`.
    pub database: String,
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
    /// Serving failed.
    #[error("server: {0}")]
    Io(#[from] std::io::Error),
}
