//! The web front end, embedded in the binary by `build.rs`.

use axum::http::{header, StatusCode};
use axum::response::{IntoResponse, Response};

include!(concat!(env!("OUT_DIR"), "/assets.rs"));

/// The embedded file at `path` (relative to the front end's root), or 404.
pub fn file(path: &str) -> Response {
    match FILES.iter().find(|(name, _, _)| *name == path) {
        Some((name, mime, bytes)) => {
            // Vite puts a content hash in asset names, so they may be cached for good;
            // index.html may not.
            let cache = if name.starts_with("assets/") {
                "public, max-age=31536000, immutable"
            } else {
                "no-cache"
            };
            (
                [
                    (header::CONTENT_TYPE, *mime),
                    (header::CACHE_CONTROL, cache),
                ],
                *bytes,
            )
                .into_response()
        }
        None => (StatusCode::NOT_FOUND, "not found").into_response(),
    }
}
