//! The HTTP side: the routes of matches, the archive and the rules; the tournament routes (on
//! `crate::tournaments`); accounts, profiles and the leaderboard (`accounts`, `players`); the
//! websocket adapter; the lobby (`lobby`: snapshot, live feed, play now); the pages; one JSON
//! error for every refusal. Every route sits behind the
//! CSRF check of signed-in requests (`csrf`).

mod accounts;
pub(crate) mod auth;
mod csrf;
mod error;
mod limits;
mod lobby;
mod matches;
pub(crate) mod otb;
mod pages;
mod players;
mod route;
mod tournaments;
mod websocket;
pub(crate) mod ws;

use std::sync::atomic::AtomicU64;
use std::sync::Arc;
use std::time::Instant;

use axum::routing::{get, post};
use axum::Router;
use bughouse_store::Store;
pub(crate) use error::ApiError;
pub(crate) use route::{ConnRouter, Incoming};

use crate::runtime::Shards;

/// What every route may use: the hub task's inbox, the store, connection numbers, the start.
#[derive(Clone)]
pub(crate) struct App {
    pub(crate) shards: Shards,
    pub(crate) store: Store,
    pub(crate) next_conn: Arc<AtomicU64>,
    pub(crate) started: Instant,
    /// This node's membership of a cluster (`--bus`), if it runs in one.
    pub(crate) cluster: Option<crate::cluster::Cluster>,
}

/// Every route of the server.
pub(crate) fn router(
    app: App,
    tournaments: Arc<crate::tournaments::Service>,
    accounts: Arc<auth::Accounts>,
    lobby: Arc<crate::runtime::Lobby>,
) -> Router {
    let otb = Arc::new(crate::otb::Service::new(
        app.store.clone(),
        tournaments.clone(),
    ));
    Router::new()
        .route("/", get(pages::index))
        .route("/m/{id}", get(pages::index))
        .route("/player/{name}", get(pages::index))
        .route("/leaderboard", get(pages::index))
        .route("/assets/{*path}", get(pages::asset))
        .route("/api/matches", post(matches::create))
        .route("/api/matches/{id}", get(matches::state))
        .route("/api/matches/{id}/bpgn", get(matches::bpgn))
        .route("/api/matches/{id}/positions", get(matches::positions))
        .route("/api/archive", get(matches::archive))
        .route("/api/rules", get(matches::rules_catalog))
        .route("/ws", get(websocket::websocket))
        .with_state(app)
        .merge(tournaments::router(tournaments))
        .merge(accounts::router(accounts))
        .merge(lobby::router(lobby))
        .merge(otb::router(otb))
        .fallback(pages::no_route)
        .method_not_allowed_fallback(pages::no_method)
        .layer(axum::middleware::from_fn(csrf::guard))
}
