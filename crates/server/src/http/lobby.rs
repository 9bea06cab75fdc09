//! The lobby routes: `GET /api/lobby` (a snapshot), `GET /api/lobby/events` (the live feed as
//! server-sent events, one snapshot per event) and `POST /api/lobby/play` ("play now").

use std::convert::Infallible;
use std::sync::Arc;

use axum::extract::rejection::JsonRejection;
use axum::extract::State;
use axum::http::HeaderMap;
use axum::response::sse::{Event, KeepAlive, Sse};
use axum::routing::{get, post};
use axum::{Json, Router};
use bughouse_protocol::lobby::{LobbySnapshot, PlacedSeat, PlayNow};
use futures_util::Stream;

use crate::http::{auth, ApiError};
use crate::runtime::{Lobby, PlayError};

pub(crate) fn router(lobby: Arc<Lobby>) -> Router {
    Router::new()
        .route("/api/lobby", get(snapshot))
        .route("/api/lobby/events", get(events))
        .route("/api/lobby/play", post(play))
        .with_state(lobby)
}

fn refusal(e: PlayError) -> ApiError {
    match e {
        e @ (PlayError::GuestRated | PlayError::Create(_) | PlayError::Place(_)) => {
            ApiError::bad(e.to_string())
        }
        PlayError::Stopping => ApiError::unavailable(),
        PlayError::Store(e) => ApiError::storage(&e),
    }
}

async fn snapshot(State(lobby): State<Arc<Lobby>>) -> Result<Json<LobbySnapshot>, ApiError> {
    lobby.snapshot().await.map(Json).map_err(refusal)
}

/// The feed: a snapshot at once, then one whenever the lobby changed (at most one a second).
async fn events(
    State(lobby): State<Arc<Lobby>>,
) -> Result<Sse<impl Stream<Item = Result<Event, Infallible>>>, ApiError> {
    // Subscribed first, so that this page counts among the online in its first snapshot.
    let subscription = lobby.subscribe();
    let first = lobby.snapshot().await.map_err(refusal)?;
    let first = serde_json::to_string(&first).unwrap_or_default();
    let stream = futures_util::stream::unfold(
        (Some(first), subscription),
        |(first, mut subscription)| async move {
            let json = match first {
                Some(json) => json,
                None => {
                    subscription.updates.changed().await.ok()?;
                    subscription.updates.borrow_and_update().to_string()
                }
            };
            Some((Ok(Event::default().data(json)), (None, subscription)))
        },
    );
    Ok(Sse::new(stream).keep_alive(KeepAlive::default()))
}

/// "Play now": a signed-in request (its session cookie; the CSRF layer has checked where it
/// comes from) is placed as its account, at its rating; any other as a guest.
async fn play(
    State(lobby): State<Arc<Lobby>>,
    headers: HeaderMap,
    body: Result<Json<PlayNow>, JsonRejection>,
) -> Result<Json<PlacedSeat>, ApiError> {
    let Json(request) = body?;
    let account = match auth::session_token(&headers) {
        Some(token) => lobby
            .store()
            .session_account(&auth::token_hash(&token), auth::unix_ms())
            .await
            .map_err(|e| ApiError::storage(&e))?,
        None => None,
    };
    lobby
        .play_now(request, account)
        .await
        .map(Json)
        .map_err(refusal)
}
