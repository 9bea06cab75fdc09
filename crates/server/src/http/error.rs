//! The one shape of every refused HTTP request: a status and `{"error": code, "message": text}`
//! ([`bughouse_protocol::ApiError`]), for the match routes and the tournaments alike.

use axum::extract::rejection::{JsonRejection, PathRejection, QueryRejection};
use axum::http::StatusCode;
use axum::response::{IntoResponse, Response};
use axum::Json;

/// A refusal: status, code and message, answered as `{"error": code, "message": message}`.
#[derive(Debug)]
pub(crate) struct ApiError {
    pub(crate) status: StatusCode,
    pub(crate) code: &'static str,
    pub(crate) message: String,
}

impl ApiError {
    pub(crate) fn new(
        status: StatusCode,
        code: &'static str,
        message: impl Into<String>,
    ) -> ApiError {
        ApiError {
            status,
            code,
            message: message.into(),
        }
    }

    pub(crate) fn bad(message: impl Into<String>) -> ApiError {
        ApiError::new(StatusCode::BAD_REQUEST, "invalid", message)
    }

    pub(crate) fn not_found() -> ApiError {
        ApiError::new(StatusCode::NOT_FOUND, "not_found", "no such tournament")
    }

    pub(crate) fn no_match() -> ApiError {
        ApiError::new(StatusCode::NOT_FOUND, "not_found", "no such match")
    }

    pub(crate) fn storage(e: &bughouse_store::StoreError) -> ApiError {
        tracing::error!("storage: {e}");
        ApiError::new(
            StatusCode::INTERNAL_SERVER_ERROR,
            "storage",
            "the database failed; nothing changed",
        )
    }

    pub(crate) fn unavailable() -> ApiError {
        ApiError::new(
            StatusCode::SERVICE_UNAVAILABLE,
            "unavailable",
            "the server is stopping",
        )
    }
}

impl From<JsonRejection> for ApiError {
    fn from(e: JsonRejection) -> ApiError {
        ApiError::bad(format!(
            "the body must be JSON of the right shape: {}",
            e.body_text()
        ))
    }
}

impl From<PathRejection> for ApiError {
    fn from(e: PathRejection) -> ApiError {
        ApiError::new(
            StatusCode::NOT_FOUND,
            "not_found",
            format!("no such page: {}", e.body_text()),
        )
    }
}

impl From<QueryRejection> for ApiError {
    fn from(e: QueryRejection) -> ApiError {
        ApiError::bad(format!("bad query: {}", e.body_text()))
    }
}

impl IntoResponse for ApiError {
    fn into_response(self) -> Response {
        (
            self.status,
            Json(bughouse_protocol::ApiError {
                error: self.code.to_owned(),
                message: self.message,
            }),
        )
            .into_response()
    }
}
