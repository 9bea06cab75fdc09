//! The tournament routes: `/api/tournaments...` (the bodies and answers of
//! [`bughouse_protocol::tournament`]) and the pages `/t/...`, on top of
//! [`crate::tournaments::Service`]. Here only HTTP: the organiser secret read from
//! `Authorization: Bearer SECRET`, statuses, the ETag, downloads.

use std::sync::Arc;

use axum::extract::rejection::{JsonRejection, PathRejection, QueryRejection};
use axum::extract::{Path, Query, State};
use axum::http::{header, HeaderMap, HeaderValue, StatusCode};
use axum::response::{IntoResponse, Response};
use axum::routing::{get, post, put};
use axum::{Json, Router};
use bughouse_protocol::tournament::{
    AddTeam, CreateTournament, PairRound, SetColours, SetResult, TournamentView,
};
use serde::Deserialize;

use crate::http::ApiError;
use crate::tournaments::Service;

type Svc = State<Arc<Service>>;
type ApiResult = Result<Response, ApiError>;

/// `?round=N` of the exports.
#[derive(Deserialize)]
pub(crate) struct RoundQuery {
    round: Option<u32>,
}

/// The routes: `/api/tournaments...` and the pages `/t/...`.
pub(crate) fn router(service: Arc<Service>) -> Router {
    Router::new()
        .route("/t/new", get(page))
        .route("/t/{id}", get(page))
        .route("/t/{id}/admin", get(page))
        .route("/t/{id}/print", get(page))
        .route("/api/tournaments", post(create))
        .route("/api/tournaments/{id}", get(show))
        .route("/api/tournaments/{id}/auth", get(check_auth))
        .route("/api/tournaments/{id}/teams", post(add_team))
        .route("/api/tournaments/{id}/rounds", post(pair_round))
        .route(
            "/api/tournaments/{id}/rounds/{round}/tables/{table}/result",
            put(set_result),
        )
        .route(
            "/api/tournaments/{id}/rounds/{round}/tables/{table}/colours",
            put(set_colours),
        )
        .route("/api/tournaments/{id}/pairings.csv", get(pairings_csv))
        .route("/api/tournaments/{id}/standings.csv", get(standings_csv))
        .route("/api/tournaments/{id}/matches.bpgn", get(matches_bpgn))
        .with_state(service)
}

async fn page() -> Response {
    crate::assets::file("index.html")
}

/// The organiser secret of `Authorization: Bearer SECRET`, if any (the tournament's routes
/// and its pairings' over-the-board tables).
pub(crate) fn secret(headers: &HeaderMap) -> Option<&str> {
    headers
        .get(header::AUTHORIZATION)
        .and_then(|v| v.to_str().ok())
        .and_then(|v| v.strip_prefix("Bearer "))
}

fn etag(updated_at_ms: i64) -> HeaderValue {
    HeaderValue::from_str(&format!("\"{updated_at_ms}\""))
        .unwrap_or_else(|_| HeaderValue::from_static("\"0\""))
}

/// The tournament with its ETag.
fn answer(status: StatusCode, view: TournamentView) -> Response {
    (
        status,
        [
            (header::ETAG, etag(view.updated_at)),
            (header::CACHE_CONTROL, HeaderValue::from_static("no-cache")),
        ],
        Json(view),
    )
        .into_response()
}

async fn create(State(svc): Svc, body: Result<Json<CreateTournament>, JsonRejection>) -> ApiResult {
    let Json(req) = body?;
    let created = svc.create(req).await?;
    Ok((StatusCode::CREATED, Json(created)).into_response())
}

async fn show(State(svc): Svc, Path(id): Path<String>, headers: HeaderMap) -> ApiResult {
    let tag = etag(svc.updated_at(&id).await?);
    if headers
        .get(header::IF_NONE_MATCH)
        .is_some_and(|v| v.as_bytes() == tag.as_bytes())
    {
        return Ok((StatusCode::NOT_MODIFIED, [(header::ETAG, tag)]).into_response());
    }
    Ok(answer(StatusCode::OK, svc.view(&id).await?))
}

async fn check_auth(State(svc): Svc, Path(id): Path<String>, headers: HeaderMap) -> ApiResult {
    svc.authorize(&id, secret(&headers)).await?;
    Ok(StatusCode::NO_CONTENT.into_response())
}

async fn add_team(
    State(svc): Svc,
    Path(id): Path<String>,
    headers: HeaderMap,
    body: Result<Json<AddTeam>, JsonRejection>,
) -> ApiResult {
    // Who asks comes before what is asked: without the secret, a bad body is a 401 too.
    svc.authorize(&id, secret(&headers)).await?;
    let Json(req) = body?;
    let view = svc.add_team(&id, secret(&headers), req).await?;
    Ok(answer(StatusCode::CREATED, view))
}

async fn pair_round(
    State(svc): Svc,
    Path(id): Path<String>,
    headers: HeaderMap,
    body: Result<Json<serde_json::Value>, JsonRejection>,
) -> ApiResult {
    svc.authorize(&id, secret(&headers)).await?;
    // No body at all pairs offline.
    let req: PairRound = match body {
        Ok(Json(v)) if !v.is_null() => serde_json::from_value(v)
            .map_err(|e| ApiError::bad(format!("expected {{\"online\": true|false}}: {e}")))?,
        Ok(_) | Err(JsonRejection::MissingJsonContentType(_)) => PairRound::default(),
        Err(e) => return Err(e.into()),
    };
    let view = svc.pair_round(&id, secret(&headers), req).await?;
    Ok(answer(StatusCode::CREATED, view))
}

async fn set_result(
    State(svc): Svc,
    path: Result<Path<(String, u32, u32)>, PathRejection>,
    headers: HeaderMap,
    body: Result<Json<SetResult>, JsonRejection>,
) -> ApiResult {
    let Path((id, round, table)) = path?;
    svc.authorize(&id, secret(&headers)).await?;
    let Json(req) = body?;
    let view = svc
        .set_result((&id, round, table), secret(&headers), req)
        .await?;
    Ok(answer(StatusCode::OK, view))
}

async fn set_colours(
    State(svc): Svc,
    path: Result<Path<(String, u32, u32)>, PathRejection>,
    headers: HeaderMap,
    body: Result<Json<SetColours>, JsonRejection>,
) -> ApiResult {
    let Path((id, round, table)) = path?;
    svc.authorize(&id, secret(&headers)).await?;
    let Json(req) = body?;
    let view = svc
        .set_colours((&id, round, table), secret(&headers), req)
        .await?;
    Ok(answer(StatusCode::OK, view))
}

fn download(content_type: &'static str, filename: String, body: String) -> Response {
    (
        [
            (header::CONTENT_TYPE, content_type.to_owned()),
            (
                header::CONTENT_DISPOSITION,
                format!("attachment; filename=\"{filename}\""),
            ),
        ],
        body,
    )
        .into_response()
}

fn suffix(round: Option<u32>) -> String {
    round.map_or_else(String::new, |r| format!("-round-{r}"))
}

async fn pairings_csv(
    State(svc): Svc,
    Path(id): Path<String>,
    query: Result<Query<RoundQuery>, QueryRejection>,
) -> ApiResult {
    let Query(q) = query?;
    let text = svc.pairings_csv(&id, q.round).await?;
    Ok(download(
        "text/csv; charset=utf-8",
        format!("tournament-{id}-pairings{}.csv", suffix(q.round)),
        text,
    ))
}

async fn standings_csv(State(svc): Svc, Path(id): Path<String>) -> ApiResult {
    let text = svc.standings_csv(&id).await?;
    Ok(download(
        "text/csv; charset=utf-8",
        format!("tournament-{id}-standings.csv"),
        text,
    ))
}

async fn matches_bpgn(
    State(svc): Svc,
    Path(id): Path<String>,
    query: Result<Query<RoundQuery>, QueryRejection>,
) -> ApiResult {
    let Query(q) = query?;
    let text = svc.matches_bpgn(&id, q.round).await?;
    Ok(download(
        "text/plain; charset=utf-8",
        format!("tournament-{id}{}.bpgn", suffix(q.round)),
        text,
    ))
}
