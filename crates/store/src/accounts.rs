//! Accounts, sessions and which account sat in a seat (see `migrations/0004_accounts.sql`).
//!
//! The store keeps what it is given: the server hashes passwords (argon2id) and session tokens
//! (SHA-256) before they get here, and checks user names against its rules. Names are unique
//! regardless of case: `Ann` and `ann` are one account, found by either.

use crate::{is_unique_violation, Pool, Store, StoreError};

/// Why an account call was refused. Database failures are [`AccountError::Store`].
#[derive(Debug, thiserror::Error)]
#[non_exhaustive]
pub enum AccountError {
    /// [`Store::create_account`] with a name that is taken (in any case).
    #[error("the user name {0:?} is taken")]
    UsernameTaken(String),
    /// No account has this id (or name).
    #[error("no account {0}")]
    NoSuchAccount(String),
    /// No match has this id.
    #[error("no match {0:?}")]
    NoSuchMatch(String),
    /// [`Store::rate_match`] for a match whose ratings were applied already.
    #[error("match {0:?} is rated already")]
    AlreadyRated(String),
    /// An argument that can't be stored or rated: an empty name, the same account in two seats,
    /// a score outside 0..=1, a seat outside 0..4, ...
    #[error("invalid argument: {0}")]
    Invalid(String),
    /// The store failed.
    #[error(transparent)]
    Store(#[from] StoreError),
}

impl From<sqlx::Error> for AccountError {
    fn from(e: sqlx::Error) -> AccountError {
        AccountError::Store(StoreError::Database(e))
    }
}

/// An account, without its password hash.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Account {
    /// The account's id (1, 2, ...).
    pub id: i64,
    /// The name as it was chosen (case kept).
    pub username: String,
    /// When it was created, Unix milliseconds.
    pub created_at_ms: i64,
}

#[derive(sqlx::FromRow)]
struct AccountRow {
    id: i64,
    username: String,
    created_at_ms: i64,
}

impl From<AccountRow> for Account {
    fn from(r: AccountRow) -> Account {
        Account {
            id: r.id,
            username: r.username,
            created_at_ms: r.created_at_ms,
        }
    }
}

#[derive(sqlx::FromRow)]
struct LoginRow {
    id: i64,
    username: String,
    created_at_ms: i64,
    password_hash: String,
}

/// The key that makes names unique regardless of case.
pub(crate) fn username_key(username: &str) -> String {
    username.to_lowercase()
}

/// How often [`Store::create_account`] retries when a concurrent sign-up took the same id.
const ID_ATTEMPTS: usize = 8;

impl Store {
    /// Creates an account with the next free id.
    ///
    /// Errors: [`AccountError::UsernameTaken`] if the name is taken in any case,
    /// [`AccountError::Invalid`] for an empty name or hash.
    pub async fn create_account(
        &self,
        username: &str,
        password_hash: &str,
        created_at_ms: i64,
    ) -> Result<Account, AccountError> {
        if username.is_empty() || password_hash.is_empty() {
            return Err(AccountError::Invalid(
                "an account needs a name and a password hash".into(),
            ));
        }
        let key = username_key(username);
        for _ in 0..ID_ATTEMPTS {
            let inserted: Result<i64, sqlx::Error> = with_pool!(self, pool => {
                sqlx::query_scalar(
                    "INSERT INTO accounts (id, username, username_key, password_hash, created_at_ms) \
                     SELECT COALESCE(MAX(id), 0) + 1, $1, $2, $3, $4 FROM accounts RETURNING id",
                )
                .bind(username)
                .bind(&key)
                .bind(password_hash)
                .bind(created_at_ms)
                .fetch_one(pool)
                .await
            });
            match inserted {
                Ok(id) => {
                    return Ok(Account {
                        id,
                        username: username.to_owned(),
                        created_at_ms,
                    })
                }
                // Either the name is taken, or (PostgreSQL) a concurrent sign-up took the id.
                Err(e) if is_unique_violation(&e) => {
                    if self.account_by_username(username).await?.is_some() {
                        return Err(AccountError::UsernameTaken(username.to_owned()));
                    }
                }
                Err(e) => return Err(e.into()),
            }
        }
        Err(AccountError::Store(StoreError::Invalid(
            "could not find a free account id".into(),
        )))
    }

    /// The account of this name, in any case.
    pub async fn account_by_username(&self, username: &str) -> Result<Option<Account>, StoreError> {
        let row: Option<AccountRow> = with_pool!(self, pool => {
            sqlx::query_as(
                "SELECT id, username, created_at_ms FROM accounts WHERE username_key = $1",
            )
            .bind(username_key(username))
            .fetch_optional(pool)
            .await?
        });
        Ok(row.map(Account::from))
    }

    /// The account with this id.
    pub async fn account_by_id(&self, id: i64) -> Result<Option<Account>, StoreError> {
        let row: Option<AccountRow> = with_pool!(self, pool => {
            sqlx::query_as("SELECT id, username, created_at_ms FROM accounts WHERE id = $1")
                .bind(id)
                .fetch_optional(pool)
                .await?
        });
        Ok(row.map(Account::from))
    }

    /// The account of this name (any case) with its password hash, for signing in.
    pub async fn login_credentials(
        &self,
        username: &str,
    ) -> Result<Option<(Account, String)>, StoreError> {
        let row: Option<LoginRow> = with_pool!(self, pool => {
            sqlx::query_as(
                "SELECT id, username, created_at_ms, password_hash FROM accounts \
                 WHERE username_key = $1",
            )
            .bind(username_key(username))
            .fetch_optional(pool)
            .await?
        });
        Ok(row.map(|r| {
            (
                Account {
                    id: r.id,
                    username: r.username,
                    created_at_ms: r.created_at_ms,
                },
                r.password_hash,
            )
        }))
    }

    /// Replaces an account's password hash (and ends none of its sessions: the caller decides).
    pub async fn set_password_hash(
        &self,
        account_id: i64,
        password_hash: &str,
    ) -> Result<(), AccountError> {
        let done = with_pool!(self, pool => {
            sqlx::query("UPDATE accounts SET password_hash = $2 WHERE id = $1")
                .bind(account_id)
                .bind(password_hash)
                .execute(pool)
                .await?
                .rows_affected()
        });
        if done == 0 {
            return Err(AccountError::NoSuchAccount(account_id.to_string()));
        }
        Ok(())
    }

    /// Stores a session: the hash of its token, its account and its lifetime (Unix
    /// milliseconds).
    ///
    /// Errors: [`AccountError::NoSuchAccount`]; [`AccountError::Invalid`] if the token hash is
    /// in use (a token collision, which a 256-bit random token makes impossible in practice).
    pub async fn create_session(
        &self,
        token_hash: &str,
        account_id: i64,
        created_at_ms: i64,
        expires_at_ms: i64,
    ) -> Result<(), AccountError> {
        let done: Result<u64, sqlx::Error> = with_pool!(self, pool => {
            sqlx::query(
                "INSERT INTO sessions (token_hash, account_id, created_at_ms, expires_at_ms) \
                 SELECT $1, $2, $3, $4 WHERE EXISTS (SELECT 1 FROM accounts WHERE id = $2)",
            )
            .bind(token_hash)
            .bind(account_id)
            .bind(created_at_ms)
            .bind(expires_at_ms)
            .execute(pool)
            .await
            .map(|done| done.rows_affected())
        });
        match done {
            Ok(0) => Err(AccountError::NoSuchAccount(account_id.to_string())),
            Ok(_) => Ok(()),
            Err(e) if is_unique_violation(&e) => {
                Err(AccountError::Invalid("the session token is in use".into()))
            }
            Err(e) => Err(e.into()),
        }
    }

    /// The account of the session with this token hash, if the session exists and has not
    /// expired at `now_ms`.
    pub async fn session_account(
        &self,
        token_hash: &str,
        now_ms: i64,
    ) -> Result<Option<Account>, StoreError> {
        let row: Option<AccountRow> = with_pool!(self, pool => {
            sqlx::query_as(
                "SELECT a.id, a.username, a.created_at_ms FROM sessions s \
                 JOIN accounts a ON a.id = s.account_id \
                 WHERE s.token_hash = $1 AND s.expires_at_ms > $2",
            )
            .bind(token_hash)
            .bind(now_ms)
            .fetch_optional(pool)
            .await?
        });
        Ok(row.map(Account::from))
    }

    /// Ends a session; `false` if there was none with this token hash.
    pub async fn delete_session(&self, token_hash: &str) -> Result<bool, StoreError> {
        let done = with_pool!(self, pool => {
            sqlx::query("DELETE FROM sessions WHERE token_hash = $1")
                .bind(token_hash)
                .execute(pool)
                .await?
                .rows_affected()
        });
        Ok(done > 0)
    }

    /// Ends every session of an account (after a password change, say); how many there were.
    pub async fn delete_sessions_of(&self, account_id: i64) -> Result<u64, StoreError> {
        Ok(with_pool!(self, pool => {
            sqlx::query("DELETE FROM sessions WHERE account_id = $1")
                .bind(account_id)
                .execute(pool)
                .await?
                .rows_affected()
        }))
    }

    /// Forgets the sessions that expired at or before `now_ms`; how many.
    pub async fn delete_expired_sessions(&self, now_ms: i64) -> Result<u64, StoreError> {
        Ok(with_pool!(self, pool => {
            sqlx::query("DELETE FROM sessions WHERE expires_at_ms <= $1")
                .bind(now_ms)
                .execute(pool)
                .await?
                .rows_affected()
        }))
    }

    /// Records which account sits in `seat` of a match (`Some`), or that a guest or bot does
    /// (`None`, which removes the link). The match must exist; its status is not checked (the
    /// caller links seats as the hub gives them). The same statement as the hub's
    /// [`Write::SetSeatAccount`](crate::Write::SetSeatAccount).
    pub async fn set_seat_account(
        &self,
        match_id: &str,
        seat: u8,
        account_id: Option<i64>,
    ) -> Result<(), AccountError> {
        if seat >= crate::SEATS {
            return Err(AccountError::Invalid(format!("no seat {seat}")));
        }
        let write = crate::Write::SetSeatAccount {
            match_id: match_id.to_owned(),
            seat,
            account_id,
        };
        match self.apply(&write).await {
            Ok(()) => Ok(()),
            Err(StoreError::NoSuchMatch(id)) => Err(AccountError::NoSuchMatch(id)),
            Err(StoreError::Database(e)) if is_foreign_key_violation(&e) => Err(
                AccountError::NoSuchAccount(account_id.unwrap_or_default().to_string()),
            ),
            Err(e) => Err(e.into()),
        }
    }

    /// The accounts seated in a match, by seat (`None`: a guest, a bot, or nobody).
    pub async fn seat_accounts(&self, match_id: &str) -> Result<[Option<i64>; 4], StoreError> {
        let rows: Vec<(i64, i64)> = with_pool!(self, pool => {
            sqlx::query_as("SELECT seat, account_id FROM seat_accounts WHERE match_id = $1")
                .bind(match_id)
                .fetch_all(pool)
                .await?
        });
        let mut out = [None; 4];
        for (seat, account) in rows {
            let seat = seat_number(seat, match_id)?;
            out[usize::from(seat)] = Some(account);
        }
        Ok(out)
    }
}

/// A seat number read from the database, checked.
pub(crate) fn seat_number(seat: i64, match_id: &str) -> Result<u8, StoreError> {
    u8::try_from(seat)
        .ok()
        .filter(|&s| s < crate::SEATS)
        .ok_or_else(|| StoreError::Corrupt(format!("match {match_id:?} has a seat {seat}")))
}

pub(crate) fn is_foreign_key_violation(e: &sqlx::Error) -> bool {
    matches!(e, sqlx::Error::Database(d) if d.is_foreign_key_violation())
}
