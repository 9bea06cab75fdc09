//! What signing in is made of: password hashes (argon2id), session tokens and their cookie, the
//! signed-in account of a request, and the limits on failed log-ins.
//!
//! - A password is hashed with argon2id (the `argon2` crate's defaults: 19 MiB, 2 passes, 1 lane,
//!   one of OWASP's recommended settings) on the blocking pool, at most one hash per core at a
//!   time, and stored as a PHC string.
//! - A session is a random 256-bit token in the cookie `bughouse_session` (`HttpOnly;
//!   SameSite=Lax; Path=/`, 30 days); the store keeps only its SHA-256.
//! - `Secure` is added when the server is configured to sit behind TLS:
//!   `BUGHOUSE_SECURE_COOKIES=1` ([`AccountsConfig::from_env`]). The server never terminates TLS
//!   itself, so it cannot see it; it does not trust `X-Forwarded-Proto` either, which any client
//!   can send when the server is reachable directly.

use std::net::{IpAddr, SocketAddr};
use std::sync::{Arc, OnceLock};
use std::time::{Duration, Instant};

use argon2::password_hash::rand_core::OsRng;
use argon2::password_hash::{PasswordHash, PasswordHasher, PasswordVerifier, SaltString};
use argon2::Argon2;
use axum::extract::ConnectInfo;
use axum::http::{header, Extensions, HeaderMap, HeaderValue};
use bughouse_store::{Account, Store};
use tokio::sync::Semaphore;

use super::limits::FailureLimiter;

/// The session cookie's name.
pub(crate) const SESSION_COOKIE: &str = "bughouse_session";

/// How long a session lasts.
pub(crate) const SESSION_LIFETIME: Duration = Duration::from_secs(30 * 24 * 3600);

/// Failed log-ins allowed per user name in [`LOGIN_WINDOW`], before 429.
pub(crate) const LOGIN_FAILURES_PER_NAME: usize = 5;

/// Failed log-ins allowed per client address in [`LOGIN_WINDOW`]. More than per name: an
/// address may be shared by many people (a school, a proxy).
pub(crate) const LOGIN_FAILURES_PER_ADDRESS: usize = 20;

/// The window of the log-in limits.
pub(crate) const LOGIN_WINDOW: Duration = Duration::from_secs(60);

/// How the accounts behave, from the environment.
#[derive(Debug, Clone, Copy, Default)]
pub struct AccountsConfig {
    /// Mark the session cookie `Secure` (the site is served over HTTPS by a proxy in front).
    pub secure_cookies: bool,
}

impl AccountsConfig {
    /// `BUGHOUSE_SECURE_COOKIES=1` (or `true`) sets [`AccountsConfig::secure_cookies`].
    pub fn from_env() -> AccountsConfig {
        let secure = std::env::var("BUGHOUSE_SECURE_COOKIES")
            .map(|v| matches!(v.trim().to_ascii_lowercase().as_str(), "1" | "true" | "yes"))
            .unwrap_or(false);
        AccountsConfig {
            secure_cookies: secure,
        }
    }
}

/// The accounts' shared state: the store, the settings, the log-in limits and the hashing
/// permits.
pub(crate) struct Accounts {
    pub(crate) store: Store,
    pub(crate) config: AccountsConfig,
    pub(crate) by_name: FailureLimiter,
    pub(crate) by_address: FailureLimiter,
    /// One password hash per core at a time: a burst of log-ins queues instead of starving the
    /// matches of CPU.
    hashing: Semaphore,
}

/// Why a password could not be hashed (none of them the user's fault).
#[derive(Debug, thiserror::Error)]
pub(crate) enum HashError {
    /// The hashing pool is closed (the server is stopping).
    #[error("the hashing pool is closed: {0}")]
    Closed(#[from] tokio::sync::AcquireError),
    /// argon2 refused (a parameter or the output length).
    #[error("argon2: {0}")]
    Argon2(argon2::password_hash::Error),
    /// The hashing thread panicked or was cancelled.
    #[error("the hashing thread: {0}")]
    Thread(#[from] tokio::task::JoinError),
}

impl Accounts {
    pub(crate) fn new(store: Store, config: AccountsConfig) -> Accounts {
        let cores = std::thread::available_parallelism().map_or(1, usize::from);
        Accounts {
            store,
            config,
            by_name: FailureLimiter::new(LOGIN_FAILURES_PER_NAME, LOGIN_WINDOW),
            by_address: FailureLimiter::new(LOGIN_FAILURES_PER_ADDRESS, LOGIN_WINDOW),
            hashing: Semaphore::new(cores),
        }
    }

    /// The argon2id hash of a password, as a PHC string.
    pub(crate) async fn hash_password(
        self: &Arc<Self>,
        password: String,
    ) -> Result<String, HashError> {
        let _permit = self.hashing.acquire().await?;
        tokio::task::spawn_blocking(move || {
            let salt = SaltString::generate(&mut OsRng);
            Argon2::default()
                .hash_password(password.as_bytes(), &salt)
                .map(|h| h.to_string())
                .map_err(HashError::Argon2)
        })
        .await?
    }

    /// Whether `password` matches the stored hash; with `None` (no such account) the same work
    /// is done against a hash of nothing, so that a wrong name takes as long as a wrong
    /// password.
    pub(crate) async fn verify_password(
        self: &Arc<Self>,
        password: String,
        stored: Option<String>,
    ) -> bool {
        let Ok(_permit) = self.hashing.acquire().await else {
            return false;
        };
        tokio::task::spawn_blocking(move || {
            let stored = match stored {
                Some(s) => s,
                None => dummy_hash().to_owned(),
            };
            let Ok(parsed) = PasswordHash::new(&stored) else {
                tracing::error!("an account's password hash cannot be read");
                return false;
            };
            Argon2::default()
                .verify_password(password.as_bytes(), &parsed)
                .is_ok()
        })
        .await
        .unwrap_or(false)
    }

    /// Starts a session for an account: stores the token's hash, returns the `Set-Cookie`
    /// value.
    pub(crate) async fn start_session(
        &self,
        account: &Account,
    ) -> Result<HeaderValue, bughouse_store::AccountError> {
        let token = new_token();
        let now = unix_ms();
        let expires = now + SESSION_LIFETIME.as_millis() as i64;
        self.store
            .create_session(&token_hash(&token), account.id, now, expires)
            .await?;
        Ok(self.cookie(&token, SESSION_LIFETIME.as_secs()))
    }

    /// The `Set-Cookie` value that carries `token` for `max_age` seconds (0 deletes it).
    pub(crate) fn cookie(&self, token: &str, max_age: u64) -> HeaderValue {
        cookie_value(token, max_age, self.config.secure_cookies)
    }

    /// The `Set-Cookie` value that deletes the session cookie.
    pub(crate) fn clear_cookie(&self) -> HeaderValue {
        self.cookie("", 0)
    }

    /// The account signed in on this request, if its cookie names a live session.
    pub(crate) async fn signed_in(
        &self,
        headers: &HeaderMap,
    ) -> Result<Option<Account>, bughouse_store::StoreError> {
        let Some(token) = session_token(headers) else {
            return Ok(None);
        };
        self.store
            .session_account(&token_hash(&token), unix_ms())
            .await
    }
}

/// The session cookie: `HttpOnly` (no script reads it), `SameSite=Lax` (not sent with another
/// site's subrequests and form posts), the whole site, `Secure` when configured.
fn cookie_value(token: &str, max_age: u64, secure: bool) -> HeaderValue {
    let secure = if secure { "; Secure" } else { "" };
    let value = format!(
        "{SESSION_COOKIE}={token}; Path=/; Max-Age={max_age}; HttpOnly; SameSite=Lax{secure}"
    );
    HeaderValue::from_str(&value).expect("a cookie of hex digits is a valid header")
}

pub(crate) use crate::app::unix_ms;

/// A new session token: 32 random bytes, as 64 hex digits.
fn new_token() -> String {
    let mut bytes = [0u8; 32];
    getrandom::fill(&mut bytes).expect("the operating system's random numbers");
    hex(&bytes)
}

/// What the store keeps of a token: its SHA-256, in hex.
pub(crate) fn token_hash(token: &str) -> String {
    crate::app::sha256_hex(token)
}

fn hex(bytes: &[u8]) -> String {
    bytes.iter().map(|b| format!("{b:02x}")).collect()
}

/// The session token of the request's cookie, if it has one of the right shape.
pub(crate) fn session_token(headers: &HeaderMap) -> Option<String> {
    headers
        .get_all(header::COOKIE)
        .iter()
        .filter_map(|v| v.to_str().ok())
        .flat_map(|v| v.split(';'))
        .filter_map(|pair| pair.trim().split_once('='))
        .find(|(name, value)| {
            *name == SESSION_COOKIE
                && value.len() == 64
                && value.bytes().all(|b| b.is_ascii_hexdigit())
        })
        .map(|(_, value)| value.to_owned())
}

/// Whether the request carries a session cookie at all (of any shape): what makes the CSRF
/// check apply.
pub(crate) fn has_session_cookie(headers: &HeaderMap) -> bool {
    headers
        .get_all(header::COOKIE)
        .iter()
        .filter_map(|v| v.to_str().ok())
        .flat_map(|v| v.split(';'))
        .any(|pair| {
            pair.trim()
                .split_once('=')
                .is_some_and(|(name, _)| name == SESSION_COOKIE)
        })
}

/// A hash to verify against when the account does not exist.
fn dummy_hash() -> &'static str {
    static DUMMY: OnceLock<String> = OnceLock::new();
    DUMMY.get_or_init(|| {
        let salt = SaltString::generate(&mut OsRng);
        Argon2::default()
            .hash_password(b"no account has this password", &salt)
            .map(|h| h.to_string())
            .unwrap_or_default()
    })
}

/// The client's address as the log-in limit counts it: the peer's IP, an IPv6 address by its
/// /64 (what one subscriber usually gets). Behind a reverse proxy every client is the proxy;
/// the per-name limit still holds.
pub(crate) fn client_key(extensions: &Extensions) -> String {
    let ip = extensions
        .get::<ConnectInfo<SocketAddr>>()
        .map(|ConnectInfo(addr)| addr.ip());
    match ip {
        Some(IpAddr::V4(v4)) => v4.to_string(),
        Some(IpAddr::V6(v6)) => match v6.to_ipv4_mapped() {
            Some(v4) => v4.to_string(),
            None => {
                let s = v6.segments();
                format!("{:x}:{:x}:{:x}:{:x}::/64", s[0], s[1], s[2], s[3])
            }
        },
        None => "unknown".to_owned(),
    }
}

/// How often expired sessions are deleted.
const SWEEP_EVERY: Duration = Duration::from_secs(3600);

/// Deletes expired sessions every hour, as long as the server runs.
pub(crate) async fn sweep_sessions(store: Store) {
    let mut every = tokio::time::interval(SWEEP_EVERY);
    every.set_missed_tick_behavior(tokio::time::MissedTickBehavior::Delay);
    loop {
        every.tick().await;
        match store.delete_expired_sessions(unix_ms()).await {
            Ok(0) => {}
            Ok(n) => tracing::debug!("{n} expired sessions deleted"),
            Err(e) => tracing::warn!("deleting expired sessions: {e}"),
        }
    }
}

/// Now, for the limiters.
pub(crate) fn now() -> Instant {
    Instant::now()
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn cookies() {
        assert_eq!(
            cookie_value("ab", 60, false),
            "bughouse_session=ab; Path=/; Max-Age=60; HttpOnly; SameSite=Lax"
        );
        assert_eq!(
            cookie_value("", 0, true),
            "bughouse_session=; Path=/; Max-Age=0; HttpOnly; SameSite=Lax; Secure"
        );
    }

    #[test]
    fn tokens_and_their_cookie() {
        let token = new_token();
        assert_eq!(token.len(), 64);
        assert_ne!(token, new_token());
        assert_eq!(token_hash(&token).len(), 64);
        assert_ne!(token_hash(&token), token);
        let mut headers = HeaderMap::new();
        headers.insert(
            header::COOKIE,
            HeaderValue::from_str(&format!("theme=dark; {SESSION_COOKIE}={token}; x=1")).unwrap(),
        );
        assert_eq!(session_token(&headers), Some(token));
        assert!(has_session_cookie(&headers));
        let mut odd = HeaderMap::new();
        odd.insert(
            header::COOKIE,
            HeaderValue::from_static("bughouse_session=not-a-token"),
        );
        assert_eq!(session_token(&odd), None);
        assert!(has_session_cookie(&odd));
        assert!(!has_session_cookie(&HeaderMap::new()));
    }

    #[test]
    fn addresses() {
        let key = |addr: &str| {
            let mut extensions = Extensions::new();
            extensions.insert(ConnectInfo(addr.parse::<SocketAddr>().unwrap()));
            client_key(&extensions)
        };
        assert_eq!(key("203.0.113.9:5000"), "203.0.113.9");
        assert_eq!(key("[2001:db8:1:2:3:4:5:6]:5000"), "2001:db8:1:2::/64");
        assert_eq!(key("[::ffff:203.0.113.9]:5000"), "203.0.113.9");
        assert_eq!(client_key(&Extensions::new()), "unknown");
    }

    #[test]
    fn config_from_the_environment_defaults_to_plain_cookies() {
        // (The variable is not set in the test environment.)
        if std::env::var_os("BUGHOUSE_SECURE_COOKIES").is_none() {
            assert!(!AccountsConfig::from_env().secure_cookies);
        }
    }
}
