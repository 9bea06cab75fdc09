//! The one shape of every refused HTTP request: a status and `{"error": code, "message": text}`
//! ([`bughouse_protocol::ApiError`]), for the match routes and the tournaments alike; here too
//! the status of each refusal of the tournament service.

use axum::extract::rejection::{JsonRejection, PathRejection, QueryRejection};
use axum::http::StatusCode;
use axum::response::{IntoResponse, Response};
use axum::Json;
use bughouse_tournament::TournamentError;

use crate::tournaments;

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

impl From<tournaments::Error> for ApiError {
    fn from(e: tournaments::Error) -> ApiError {
        use tournaments::Error as E;
        match e {
            E::NotFound => ApiError::not_found(),
            E::Missing(m) => ApiError::new(StatusCode::NOT_FOUND, "not_found", m),
            E::NoSecret => ApiError::new(StatusCode::UNAUTHORIZED, "unauthorized", e.to_string()),
            E::WrongSecret => ApiError::new(StatusCode::FORBIDDEN, "forbidden", e.to_string()),
            E::Invalid(m) => ApiError::bad(m),
            E::Conflict(m) => ApiError::new(StatusCode::CONFLICT, "conflict", m),
            E::Tournament(e) => e.into(),
            E::Unavailable(_) => ApiError::new(
                StatusCode::SERVICE_UNAVAILABLE,
                "unavailable",
                e.to_string(),
            ),
            E::Storage(e) => ApiError::storage(&e),
            E::NoRandomness => ApiError::new(
                StatusCode::INTERNAL_SERVER_ERROR,
                "internal",
                "no randomness",
            ),
        }
    }
}

impl From<TournamentError> for ApiError {
    fn from(e: TournamentError) -> ApiError {
        use TournamentError as E;
        let (status, code) = match e {
            E::NoSuchRound(..) | E::NoSuchTable { .. } => (StatusCode::NOT_FOUND, "not_found"),
            E::TeamsFixed
            | E::AllRoundsPaired(_)
            | E::RoundNotFinished { .. }
            | E::RoundClosed { .. }
            | E::AlreadyPlayed { .. }
            | E::Pairing { .. }
            | E::DuplicateTeam(_)
            | E::TooManyRounds { .. }
            | E::TooFewTeams(_) => (StatusCode::CONFLICT, "conflict"),
            _ => (StatusCode::BAD_REQUEST, "invalid"),
        };
        ApiError::new(status, code, e.to_string())
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
