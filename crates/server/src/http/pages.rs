//! The embedded front end's pages and assets, and the JSON answers for unknown routes.

use axum::extract::Path;
use axum::http::StatusCode;
use axum::response::Response;

use crate::http::ApiError;

pub(crate) async fn no_route(uri: axum::http::Uri) -> ApiError {
    ApiError::new(
        StatusCode::NOT_FOUND,
        "not_found",
        format!("no such page: {}", uri.path()),
    )
}

pub(crate) async fn no_method(method: axum::http::Method, uri: axum::http::Uri) -> ApiError {
    ApiError::new(
        StatusCode::METHOD_NOT_ALLOWED,
        "invalid",
        format!("{method} is not allowed on {}", uri.path()),
    )
}

pub(crate) async fn index() -> Response {
    crate::assets::file("index.html")
}

pub(crate) async fn asset(Path(path): Path<String>) -> Response {
    crate::assets::file(&format!("assets/{path}"))
}
