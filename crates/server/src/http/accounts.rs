//! The account routes: sign up, log in, log out, who am I; and the public player pages:
//! profiles and the leaderboard (`players.rs`). The JSON shapes are `bughouse_protocol::accounts`
//! (generated for the front end), described in docs/protocol.md.

use std::sync::Arc;

use axum::extract::rejection::JsonRejection;
use axum::extract::{FromRequestParts, State};
use axum::http::request::Parts;
use axum::http::{header, HeaderMap, HeaderValue, StatusCode};
use axum::response::{IntoResponse, Response};
use axum::routing::{get, post};
use axum::{Json, Router};
use bughouse_protocol::accounts::{AccountView, Credentials, RatingView};
use bughouse_store::{Account, AccountError, RatingRecord};

use super::auth::{self, Accounts};
use super::{players, ApiError};

/// The routes of accounts and players, with their state.
pub(crate) fn router(accounts: Arc<Accounts>) -> Router {
    Router::new()
        .route("/api/account/signup", post(signup))
        .route("/api/account/login", post(login))
        .route("/api/account/logout", post(logout))
        .route("/api/account/me", get(me))
        .route("/api/players/{name}", get(players::profile))
        .route("/api/leaderboard", get(players::leaderboard))
        .with_state(accounts)
}

/// User names: 3 to 20 of `A-Z a-z 0-9 _ -`.
pub(crate) const USERNAME_LENGTH: std::ops::RangeInclusive<usize> = 3..=20;

/// Passwords: at least 8 characters; at most 1024 bytes (hashing a megabyte is no password).
pub(crate) const PASSWORD_MIN_CHARS: usize = 8;
pub(crate) const PASSWORD_MAX_BYTES: usize = 1024;

/// A rating whose deviation is above this is shown as provisional: about a player's first nine
/// rated matches (a bughouse match tells little about one player, see `bughouse_rating`).
pub(crate) const PROVISIONAL_DEVIATION: f64 = 230.0;

/// A rating as the API shows it: provisional while the deviation is above
/// [`PROVISIONAL_DEVIATION`].
pub(crate) fn rating_view(r: &RatingRecord) -> RatingView {
    RatingView {
        rating: r.rating.rating,
        deviation: r.rating.deviation,
        volatility: r.rating.volatility,
        games: r.games,
        wins: r.wins,
        draws: r.draws,
        losses: r.losses,
        provisional: r.rating.deviation > PROVISIONAL_DEVIATION,
    }
}

/// The client's address as the log-in limit counts it.
pub(crate) struct ClientKey(String);

impl<S: Send + Sync> FromRequestParts<S> for ClientKey {
    type Rejection = std::convert::Infallible;

    async fn from_request_parts(parts: &mut Parts, _: &S) -> Result<ClientKey, Self::Rejection> {
        Ok(ClientKey(auth::client_key(&parts.extensions)))
    }
}

fn read_credentials(
    body: Result<Json<Credentials>, JsonRejection>,
) -> Result<Credentials, ApiError> {
    body.map(|Json(c)| c).map_err(|e| {
        ApiError::bad(format!(
            "expected JSON {{\"username\": \"…\", \"password\": \"…\"}}: {}",
            e.body_text()
        ))
    })
}

fn check_username(name: &str) -> Result<(), ApiError> {
    let ok = USERNAME_LENGTH.contains(&name.len())
        && name
            .bytes()
            .all(|b| b.is_ascii_alphanumeric() || b == b'_' || b == b'-');
    if ok {
        Ok(())
    } else {
        Err(ApiError::new(
            StatusCode::BAD_REQUEST,
            "invalid_username",
            "a user name has 3 to 20 characters, each a letter (A-Z, a-z), a digit, _ or -",
        ))
    }
}

fn check_password(password: &str) -> Result<(), ApiError> {
    if password.chars().count() < PASSWORD_MIN_CHARS {
        return Err(ApiError::new(
            StatusCode::BAD_REQUEST,
            "invalid_password",
            format!("a password has at least {PASSWORD_MIN_CHARS} characters"),
        ));
    }
    if password.len() > PASSWORD_MAX_BYTES {
        return Err(ApiError::new(
            StatusCode::BAD_REQUEST,
            "invalid_password",
            format!("a password has at most {PASSWORD_MAX_BYTES} bytes"),
        ));
    }
    Ok(())
}

async fn view(accounts: &Accounts, account: &Account) -> Result<AccountView, ApiError> {
    let rating = accounts
        .store
        .player_rating(account.id)
        .await
        .map_err(|e| ApiError::storage(&e))?;
    Ok(AccountView {
        username: account.username.clone(),
        created_at: account.created_at_ms,
        rating: rating.as_ref().map(rating_view),
    })
}

fn with_cookie(status: StatusCode, body: AccountView, cookie: HeaderValue) -> Response {
    (status, [(header::SET_COOKIE, cookie)], Json(body)).into_response()
}

fn account_error(e: AccountError) -> ApiError {
    match e {
        AccountError::UsernameTaken(name) => ApiError::new(
            StatusCode::CONFLICT,
            "username_taken",
            format!("the user name {name:?} is taken"),
        ),
        AccountError::Store(e) => ApiError::storage(&e),
        other => {
            tracing::error!("accounts: {other}");
            ApiError::new(
                StatusCode::INTERNAL_SERVER_ERROR,
                "storage",
                "the account could not be stored",
            )
        }
    }
}

fn hashing_failed(e: &auth::HashError) -> ApiError {
    tracing::error!("password hashing: {e}");
    ApiError::new(
        StatusCode::INTERNAL_SERVER_ERROR,
        "internal",
        "the password could not be processed",
    )
}

/// `POST /api/account/signup`: creates the account and signs it in.
async fn signup(
    State(accounts): State<Arc<Accounts>>,
    body: Result<Json<Credentials>, JsonRejection>,
) -> Result<Response, ApiError> {
    let Credentials { username, password } = read_credentials(body)?;
    check_username(&username)?;
    check_password(&password)?;
    // A cheap early answer for a taken name (the store checks again, atomically).
    if accounts
        .store
        .account_by_username(&username)
        .await
        .map_err(|e| ApiError::storage(&e))?
        .is_some()
    {
        return Err(account_error(AccountError::UsernameTaken(username)));
    }
    let hash = accounts
        .hash_password(password)
        .await
        .map_err(|e| hashing_failed(&e))?;
    let account = accounts
        .store
        .create_account(&username, &hash, auth::unix_ms())
        .await
        .map_err(account_error)?;
    tracing::info!(username = %account.username, "account created");
    let cookie = accounts
        .start_session(&account)
        .await
        .map_err(account_error)?;
    let body = view(&accounts, &account).await?;
    Ok(with_cookie(StatusCode::CREATED, body, cookie))
}

/// `POST /api/account/login`.
async fn login(
    State(accounts): State<Arc<Accounts>>,
    ClientKey(client): ClientKey,
    body: Result<Json<Credentials>, JsonRejection>,
) -> Result<Response, Response> {
    let Credentials { username, password } =
        read_credentials(body).map_err(|e| e.into_response())?;
    let name_key = format!("name:{}", username.to_lowercase());
    let address_key = format!("address:{client}");
    let now = auth::now();
    let wait = [
        accounts.by_name.blocked(&name_key, now),
        accounts.by_address.blocked(&address_key, now),
    ]
    .into_iter()
    .flatten()
    .max();
    if let Some(wait) = wait {
        let seconds = wait.as_secs() + u64::from(wait.subsec_nanos() > 0);
        let seconds = seconds.max(1);
        let refusal = ApiError::new(
            StatusCode::TOO_MANY_REQUESTS,
            "too_many_attempts",
            format!("too many failed log-ins: try again in {seconds} s"),
        );
        return Err(([(header::RETRY_AFTER, HeaderValue::from(seconds))], refusal).into_response());
    }
    let bad_credentials = || {
        ApiError::new(
            StatusCode::UNAUTHORIZED,
            "bad_credentials",
            "wrong user name or password",
        )
        .into_response()
    };
    // A name or password that no account can have is a failure without a look-up or a hash
    // (and a name of any length never becomes a key of the per-name limit).
    if check_username(&username).is_err() || password.len() > PASSWORD_MAX_BYTES {
        accounts.by_address.fail(&address_key, now);
        return Err(bad_credentials());
    }
    let found = accounts
        .store
        .login_credentials(&username)
        .await
        .map_err(|e| ApiError::storage(&e).into_response())?;
    let (account, stored) = match found {
        Some((account, hash)) => (Some(account), Some(hash)),
        None => (None, None),
    };
    let matches = accounts.verify_password(password, stored).await;
    let Some(account) = account.filter(|_| matches) else {
        accounts.by_name.fail(&name_key, now);
        accounts.by_address.fail(&address_key, now);
        return Err(bad_credentials());
    };
    accounts.by_name.clear(&name_key);
    let cookie = accounts
        .start_session(&account)
        .await
        .map_err(|e| account_error(e).into_response())?;
    let body = view(&accounts, &account)
        .await
        .map_err(IntoResponse::into_response)?;
    Ok(with_cookie(StatusCode::OK, body, cookie))
}

/// `POST /api/account/logout`: ends the session (if any) and deletes the cookie. 204 either
/// way.
async fn logout(
    State(accounts): State<Arc<Accounts>>,
    headers: HeaderMap,
) -> Result<Response, ApiError> {
    if let Some(token) = auth::session_token(&headers) {
        accounts
            .store
            .delete_session(&auth::token_hash(&token))
            .await
            .map_err(|e| ApiError::storage(&e))?;
    }
    Ok((
        StatusCode::NO_CONTENT,
        [(header::SET_COOKIE, accounts.clear_cookie())],
    )
        .into_response())
}

/// `GET /api/account/me`: the signed-in account, or 401 `not_signed_in` (which also deletes a
/// cookie whose session is gone).
async fn me(
    State(accounts): State<Arc<Accounts>>,
    headers: HeaderMap,
) -> Result<Response, Response> {
    let account = accounts
        .signed_in(&headers)
        .await
        .map_err(|e| ApiError::storage(&e).into_response())?;
    match account {
        Some(account) => {
            let body = view(&accounts, &account)
                .await
                .map_err(IntoResponse::into_response)?;
            Ok(Json(body).into_response())
        }
        None => {
            let refusal = ApiError::new(StatusCode::UNAUTHORIZED, "not_signed_in", "not signed in");
            if auth::has_session_cookie(&headers) {
                Err(([(header::SET_COOKIE, accounts.clear_cookie())], refusal).into_response())
            } else {
                Err(refusal.into_response())
            }
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn usernames() {
        for ok in ["ann", "Bob_2", "x-y-z", "abcdefghij0123456789"] {
            assert!(check_username(ok).is_ok(), "{ok}");
        }
        for bad in [
            "",
            "ab",
            "abcdefghij0123456789x",
            "ann smith",
            "änn",
            "a.b",
            "a@b",
        ] {
            assert!(check_username(bad).is_err(), "{bad}");
        }
    }

    #[test]
    fn passwords() {
        assert!(check_password("12345678").is_ok());
        assert!(check_password("ééééééé").is_err());
        assert!(check_password("éééééééé").is_ok());
        assert!(check_password("1234567").is_err());
        assert!(check_password(&"x".repeat(1025)).is_err());
    }
}
