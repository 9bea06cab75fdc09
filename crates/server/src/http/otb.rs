//! The over-the-board routes: `POST /api/otb` (a new table), `GET /api/otb/{id}` (the table),
//! `POST /api/otb/{id}/events` (the page's events), `GET /api/otb/{id}/bpgn` (the scoresheet as
//! BPGN), a tournament pairing's table and its QR code, and the page `/otb/...`. What a table
//! does is in [`crate::otb`]; this file only translates.

use std::sync::Arc;

use axum::extract::rejection::{JsonRejection, PathRejection};
use axum::extract::{Path, State};
use axum::http::{header, HeaderMap, StatusCode};
use axum::response::{IntoResponse, Response};
use axum::routing::{get, post};
use axum::{Json, Router};
use bughouse_protocol::otb::{CreateOtbTable, CreatedOtbTable, OtbEvents};

use crate::http::tournaments::secret;
use crate::http::ApiError;
use crate::otb::{Error, Service};

impl From<Error> for ApiError {
    fn from(e: Error) -> ApiError {
        match e {
            Error::Invalid(m) => ApiError::bad(m),
            Error::NotFound => ApiError::new(StatusCode::NOT_FOUND, "not_found", e.to_string()),
            Error::WrongKey => ApiError::new(StatusCode::FORBIDDEN, "forbidden", e.to_string()),
            Error::Conflict(m) => ApiError::new(StatusCode::CONFLICT, "conflict", m),
            Error::Table(e) => ApiError::new(StatusCode::CONFLICT, "conflict", e.to_string()),
            Error::Corrupt => {
                ApiError::new(StatusCode::INTERNAL_SERVER_ERROR, "storage", e.to_string())
            }
            Error::Tournament(e) => e.into(),
            Error::Storage(e) => ApiError::storage(&e),
            Error::NoRandomness => {
                ApiError::new(StatusCode::INTERNAL_SERVER_ERROR, "internal", e.to_string())
            }
        }
    }
}

type Svc = State<Arc<Service>>;

/// The routes: `/api/otb...` and the pages `/otb`, `/otb/{id}`.
pub(crate) fn router(service: Arc<Service>) -> Router {
    Router::new()
        .route("/otb", get(page))
        .route("/otb/{id}", get(page))
        .route("/otb-sw.js", get(service_worker))
        .route("/api/otb", post(create))
        .route("/api/otb/{id}", get(show))
        .route("/api/otb/{id}/events", post(events))
        .route("/api/otb/{id}/bpgn", get(bpgn))
        .route(
            "/api/tournaments/{id}/rounds/{round}/tables/{table}/otb",
            post(open_for_pairing),
        )
        .route(
            "/api/tournaments/{id}/rounds/{round}/tables/{table}/otb.svg",
            get(pairing_qr),
        )
        .with_state(service)
}

async fn page() -> Response {
    crate::assets::file("index.html")
}

/// The service worker that keeps the page for offline use (`web/public/otb-sw.js`).
async fn service_worker() -> Response {
    crate::assets::file("otb-sw.js")
}

async fn create(
    State(svc): Svc,
    body: Result<Json<CreateOtbTable>, JsonRejection>,
) -> Result<Response, ApiError> {
    let Json(req) = body?;
    let created = svc.create(&req).await?;
    Ok((StatusCode::CREATED, Json(created)).into_response())
}

async fn show(
    State(svc): Svc,
    id: Result<Path<String>, PathRejection>,
) -> Result<Response, ApiError> {
    let Path(id) = id?;
    Ok(Json(svc.view(&id).await?).into_response())
}

/// The scoresheet as BPGN text; 404 when the table is unknown or no move was entered.
async fn bpgn(
    State(svc): Svc,
    id: Result<Path<String>, PathRejection>,
) -> Result<Response, ApiError> {
    let Path(id) = id?;
    let text = svc.bpgn(&id).await?.ok_or_else(|| {
        ApiError::new(
            StatusCode::NOT_FOUND,
            "not_found",
            "no move was entered on this table's scoresheet",
        )
    })?;
    Ok((
        [
            (header::CONTENT_TYPE, "text/plain; charset=utf-8".to_owned()),
            (
                header::CONTENT_DISPOSITION,
                format!("attachment; filename=\"bughouse-otb-{id}.bpgn\""),
            ),
        ],
        text,
    )
        .into_response())
}

async fn events(
    State(svc): Svc,
    id: Result<Path<String>, PathRejection>,
    body: Result<Json<OtbEvents>, JsonRejection>,
) -> Result<Response, ApiError> {
    let Path(id) = id?;
    let Json(req) = body?;
    Ok(Json(svc.post(&id, req).await?).into_response())
}

async fn open_for_pairing(
    State(svc): Svc,
    path: Result<Path<(String, u32, u32)>, PathRejection>,
    headers: HeaderMap,
) -> Result<Response, ApiError> {
    Ok(Json(pairing_table(&svc, path, &headers).await?).into_response())
}

/// The table of the pairing in the path, opened for the organiser whose secret the request
/// carries.
async fn pairing_table(
    svc: &Service,
    path: Result<Path<(String, u32, u32)>, PathRejection>,
    headers: &HeaderMap,
) -> Result<CreatedOtbTable, ApiError> {
    let Path((id, round, table)) = path?;
    Ok(svc
        .open_for_pairing((&id, round, table), secret(headers))
        .await?)
}

/// A QR code (SVG) of the pairing's table page with its key, for the organiser's printed
/// pairings: the arbiter at the table scans it to run the clock. The address is this server's
/// as the request names it (`Host`, and `X-Forwarded-Proto` behind a proxy).
async fn pairing_qr(
    State(svc): Svc,
    path: Result<Path<(String, u32, u32)>, PathRejection>,
    headers: HeaderMap,
) -> Result<Response, ApiError> {
    let created = pairing_table(&svc, path, &headers).await?;
    let host = headers
        .get(header::HOST)
        .and_then(|v| v.to_str().ok())
        .filter(|h| {
            h.chars()
                .all(|c| c.is_ascii_alphanumeric() || ".:-[]".contains(c))
        })
        .ok_or_else(|| ApiError::bad("the request names no host"))?;
    let scheme = match headers
        .get("x-forwarded-proto")
        .and_then(|v| v.to_str().ok())
    {
        Some("https") => "https",
        _ => "http",
    };
    let url = format!("{scheme}://{host}{}", created.url);
    let code = qrcode::QrCode::new(url.as_bytes()).map_err(|e| ApiError::bad(e.to_string()))?;
    let svg = code
        .render::<qrcode::render::svg::Color<'_>>()
        .min_dimensions(160, 160)
        .build();
    Ok((
        [
            (header::CONTENT_TYPE, "image/svg+xml"),
            (header::CACHE_CONTROL, "no-store"),
        ],
        svg,
    )
        .into_response())
}
