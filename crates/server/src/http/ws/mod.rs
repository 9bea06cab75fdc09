//! The websocket protocol (RFC 6455), our own: the server's opening handshake (`Upgrade`) and
//! the connection's two halves (`socket`); frames, messages and the keys are `bughouse-ws`'s,
//! which the load and crash tools' client shares. Written for this server's traffic:
//! thousands of connections each carrying a few small messages a second, every message written
//! to many of them. The server's frames are written straight from the shared bytes of each
//! message (tungstenite copied every message into a per-connection write buffer, which kept the
//! capacity of its largest batch for the connection's life: 7 to 9 KB of every connection's
//! memory). No extension (compression) and no subprotocol is offered.

pub(crate) mod socket;

use std::future::Future;

use axum::extract::FromRequestParts;
use axum::http::header::{
    CONNECTION, SEC_WEBSOCKET_ACCEPT, SEC_WEBSOCKET_KEY, SEC_WEBSOCKET_VERSION, UPGRADE,
};
use axum::http::request::Parts;
use axum::http::{HeaderMap, HeaderValue, StatusCode};
use axum::response::{IntoResponse, Response};
use bughouse_ws::handshake;
use hyper::upgrade::{OnUpgrade, Upgraded};

use crate::http::error::ApiError;

/// A request to open a websocket, checked: answer it with [`Upgrade::on_upgrade`].
pub(crate) struct Upgrade {
    accept: HeaderValue,
    on_upgrade: OnUpgrade,
}

impl<S: Send + Sync> FromRequestParts<S> for Upgrade {
    type Rejection = ApiError;

    async fn from_request_parts(parts: &mut Parts, _: &S) -> Result<Upgrade, ApiError> {
        let refuse = |message: &str| {
            ApiError::new(
                StatusCode::BAD_REQUEST,
                "not_websocket",
                format!("{message}: this address takes websocket connections only"),
            )
        };
        let headers = &parts.headers;
        if !has_token(headers, CONNECTION, "upgrade") {
            return Err(refuse("the Connection header does not say upgrade"));
        }
        if !has_token(headers, UPGRADE, "websocket") {
            return Err(refuse("the Upgrade header does not say websocket"));
        }
        if headers
            .get(SEC_WEBSOCKET_VERSION)
            .map(HeaderValue::as_bytes)
            != Some(b"13")
        {
            return Err(ApiError::new(
                StatusCode::UPGRADE_REQUIRED,
                "not_websocket",
                "Sec-WebSocket-Version must be 13",
            ));
        }
        let key = headers
            .get(SEC_WEBSOCKET_KEY)
            .ok_or_else(|| refuse("no Sec-WebSocket-Key header"))?;
        if !handshake::is_valid_key(key.as_bytes()) {
            return Err(refuse("Sec-WebSocket-Key is not 16 bytes in base64"));
        }
        let on_upgrade = parts
            .extensions
            .remove::<OnUpgrade>()
            .ok_or_else(|| refuse("the connection cannot be upgraded"))?;
        Ok(Upgrade {
            accept: accept_key(key.as_bytes()),
            on_upgrade,
        })
    }
}

impl Upgrade {
    /// Answers `101 Switching Protocols` and runs `serve` on the connection once it is upgraded.
    pub(crate) fn on_upgrade<F, Fut>(self, serve: F) -> Response
    where
        F: FnOnce(Upgraded) -> Fut + Send + 'static,
        Fut: Future<Output = ()> + Send + 'static,
    {
        let Upgrade { accept, on_upgrade } = self;
        tokio::spawn(async move {
            match on_upgrade.await {
                Ok(upgraded) => serve(upgraded).await,
                Err(e) => tracing::debug!("websocket: the upgrade failed: {e}"),
            }
        });
        let mut response = StatusCode::SWITCHING_PROTOCOLS.into_response();
        let headers = response.headers_mut();
        headers.insert(CONNECTION, HeaderValue::from_static("upgrade"));
        headers.insert(UPGRADE, HeaderValue::from_static("websocket"));
        headers.insert(SEC_WEBSOCKET_ACCEPT, accept);
        response
    }
}

/// Whether a comma-separated header holds `token` (any case).
fn has_token(headers: &HeaderMap, name: axum::http::HeaderName, token: &str) -> bool {
    headers.get_all(name).iter().any(|value| {
        value.to_str().is_ok_and(|value| {
            value
                .split(',')
                .any(|part| part.trim().eq_ignore_ascii_case(token))
        })
    })
}

/// `Sec-WebSocket-Accept` for a client's key.
fn accept_key(key: &[u8]) -> HeaderValue {
    // Base64 is always a valid header value.
    HeaderValue::from_str(&handshake::accept_key(key)).unwrap_or(HeaderValue::from_static(""))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_accept_header_of_the_rfc_example() {
        // RFC 6455, section 1.3.
        assert_eq!(
            accept_key(b"dGhlIHNhbXBsZSBub25jZQ=="),
            "s3pPLMBiTxaQ9kYGzzhZRbK+xOo="
        );
    }

    #[test]
    fn header_tokens_are_found_in_lists_and_any_case() {
        let mut headers = HeaderMap::new();
        headers.insert(CONNECTION, HeaderValue::from_static("keep-alive, Upgrade"));
        assert!(has_token(&headers, CONNECTION, "upgrade"));
        assert!(!has_token(&headers, UPGRADE, "websocket"));
        headers.insert(UPGRADE, HeaderValue::from_static("h2c"));
        assert!(!has_token(&headers, UPGRADE, "websocket"));
    }
}
