//! Cross-site request forgery: a layer over every route.
//!
//! A request that carries the session cookie and changes something (any method but GET, HEAD,
//! OPTIONS and TRACE, and a websocket handshake, whose messages change things) must prove that
//! it comes from one of our own pages:
//!
//! - `Sec-Fetch-Site`, when the browser sends it, must be `same-origin` (or `none`: typed by the
//!   user);
//! - `Origin`, when sent, must name this host: its host and port equal the request's `Host`
//!   (default ports aside); `Origin: null` never does;
//! - with neither header there is no proof, and the request is refused. Browsers send `Origin`
//!   with every POST, PUT and DELETE and every websocket handshake; a program that signs in and
//!   then posts must send `Origin` itself.
//!
//! Refused: 403 `{"error": "cross_origin"}`. Requests without the cookie (guests, API clients,
//! the tests of the match routes) pass as before: without the cookie a forged request acts for
//! nobody. `SameSite=Lax` already keeps the cookie off other sites' posts in today's browsers;
//! this check does not rely on it. Behind a reverse proxy, the proxy must pass the client's
//! `Host` through.

use axum::extract::Request;
use axum::http::{header, Method, StatusCode};
use axum::middleware::Next;
use axum::response::{IntoResponse, Response};

use super::auth::has_session_cookie;
use super::ApiError;

/// The middleware (`axum::middleware::from_fn(csrf::guard)`).
pub(crate) async fn guard(request: Request, next: Next) -> Response {
    if changes_state(&request) && has_session_cookie(request.headers()) {
        if let Err(why) = same_origin(&request) {
            tracing::info!(path = %request.uri().path(), "refused as cross-site: {why}");
            return ApiError::new(
                StatusCode::FORBIDDEN,
                "cross_origin",
                format!(
                    "refused: a signed-in request that changes something must come from this \
                     site's own pages ({why})"
                ),
            )
            .into_response();
        }
    }
    next.run(request).await
}

fn changes_state(request: &Request) -> bool {
    let safe = matches!(
        *request.method(),
        Method::GET | Method::HEAD | Method::OPTIONS | Method::TRACE
    );
    let websocket = request
        .headers()
        .get(header::UPGRADE)
        .and_then(|v| v.to_str().ok())
        .is_some_and(|v| v.eq_ignore_ascii_case("websocket"));
    !safe || websocket
}

/// Why a request that must prove its origin did not.
#[derive(Debug, thiserror::Error)]
enum CrossSite {
    #[error("Sec-Fetch-Site is {0}")]
    FetchSite(String),
    #[error("no Host to compare the Origin with")]
    NoHost,
    #[error("Origin {0} is not this site")]
    Origin(String),
    #[error("neither Origin nor Sec-Fetch-Site")]
    NoProof,
}

/// `Ok` if the request proves it comes from this site; else why not.
fn same_origin(request: &Request) -> Result<(), CrossSite> {
    let headers = request.headers();
    let fetch_site = headers
        .get("sec-fetch-site")
        .map(|v| v.to_str().unwrap_or("").to_ascii_lowercase());
    if let Some(site) = &fetch_site {
        if site != "same-origin" && site != "none" {
            return Err(CrossSite::FetchSite(site.clone()));
        }
    }
    let host = headers
        .get(header::HOST)
        .and_then(|v| v.to_str().ok())
        .map(str::to_owned)
        .or_else(|| request.uri().authority().map(|a| a.as_str().to_owned()));
    match headers.get(header::ORIGIN) {
        Some(origin) => {
            let origin = origin.to_str().unwrap_or("");
            let Some(host) = host else {
                return Err(CrossSite::NoHost);
            };
            if origin_matches_host(origin, &host) {
                Ok(())
            } else {
                Err(CrossSite::Origin(origin.to_owned()))
            }
        }
        None if fetch_site.is_some() => Ok(()),
        None => Err(CrossSite::NoProof),
    }
}

/// Whether `origin` (`scheme://host[:port]`) names `host` (a `Host` header, `host[:port]`),
/// comparing case-insensitively and leaving out the scheme's default port on both sides.
fn origin_matches_host(origin: &str, host: &str) -> bool {
    let Some((scheme, authority)) = origin.split_once("://") else {
        return false;
    };
    let default_port = match scheme.to_ascii_lowercase().as_str() {
        "http" => ":80",
        "https" => ":443",
        _ => return false,
    };
    if authority.is_empty() || authority.contains(['/', '?', '#', '@']) {
        return false;
    }
    let strip = |a: &str| {
        let a = a.to_ascii_lowercase();
        match a.strip_suffix(default_port) {
            Some(bare) => bare.to_owned(),
            None => a,
        }
    };
    strip(authority) == strip(host)
}

#[cfg(test)]
mod tests {
    use super::*;
    use axum::body::Body;

    fn request(method: Method, headers: &[(&str, &str)]) -> Request {
        let mut builder = Request::builder().method(method).uri("/api/matches");
        for (k, v) in headers {
            builder = builder.header(*k, *v);
        }
        builder.body(Body::empty()).unwrap()
    }

    #[test]
    fn origins() {
        assert!(origin_matches_host(
            "http://localhost:8080",
            "localhost:8080"
        ));
        assert!(origin_matches_host("https://Bug.example", "bug.example"));
        assert!(origin_matches_host(
            "https://bug.example",
            "bug.example:443"
        ));
        assert!(origin_matches_host("http://bug.example:80", "bug.example"));
        assert!(!origin_matches_host(
            "http://localhost:8081",
            "localhost:8080"
        ));
        assert!(!origin_matches_host("https://evil.example", "bug.example"));
        assert!(!origin_matches_host(
            "https://bug.example.evil",
            "bug.example"
        ));
        assert!(!origin_matches_host("null", "bug.example"));
        assert!(!origin_matches_host("ftp://bug.example", "bug.example"));
        assert!(!origin_matches_host("https://bug.example/x", "bug.example"));
        assert!(!origin_matches_host("https://", ""));
    }

    #[test]
    fn proofs() {
        let host = ("host", "bug.example");
        let ok = |h: &[(&str, &str)]| same_origin(&request(Method::POST, h)).is_ok();
        assert!(ok(&[host, ("origin", "https://bug.example")]));
        assert!(ok(&[host, ("sec-fetch-site", "same-origin")]));
        assert!(ok(&[
            host,
            ("sec-fetch-site", "same-origin"),
            ("origin", "https://bug.example")
        ]));
        assert!(!ok(&[host]));
        assert!(!ok(&[host, ("origin", "https://evil.example")]));
        assert!(!ok(&[host, ("origin", "null")]));
        assert!(!ok(&[host, ("sec-fetch-site", "cross-site")]));
        assert!(!ok(&[host, ("sec-fetch-site", "same-site")]));
        assert!(!ok(&[
            host,
            ("sec-fetch-site", "cross-site"),
            ("origin", "https://bug.example")
        ]));
    }

    #[test]
    fn what_changes_state() {
        assert!(changes_state(&request(Method::POST, &[])));
        assert!(changes_state(&request(Method::PUT, &[])));
        assert!(changes_state(&request(Method::DELETE, &[])));
        assert!(changes_state(&request(Method::PATCH, &[])));
        assert!(!changes_state(&request(Method::GET, &[])));
        assert!(!changes_state(&request(Method::HEAD, &[])));
        assert!(changes_state(&request(
            Method::GET,
            &[("upgrade", "websocket")]
        )));
    }
}
