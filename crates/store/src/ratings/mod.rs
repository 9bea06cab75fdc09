//! Ratings (Glicko-2, `bughouse_rating`) of players and teams, their history, the leaderboards,
//! and what a profile shows: a player's matches, his partners, his results by rulebook (see
//! `migrations/0004_accounts.sql`). One concern a file:
//!
//! - [`types`]: the records the store gives;
//! - this file: a player's or team's rating now, and setting one by hand;
//! - `rate`: applying a rated match, once, in one transaction ([`Store::rate_match`]): it reads
//!   the six ratings (locking them on PostgreSQL), computes, and writes the new ratings and the
//!   history rows, so that two matches ending at once for the same player never lose an update;
//! - `history`: what rated matches changed, and the rating histories (the charts);
//! - `leaderboard`: the players' and the teams' leaderboards;
//! - `profile`: a player's matches, best partners and results by rulebook.

mod history;
mod leaderboard;
mod profile;
mod rate;
pub mod types;

pub use types::*;

use bughouse_rating::Rating;

use crate::accounts::{is_foreign_key_violation, AccountError};
use crate::{Pool, Store, StoreError};

#[derive(sqlx::FromRow)]
pub(super) struct RecordRow {
    rating: f64,
    deviation: f64,
    volatility: f64,
    games: i64,
    wins: i64,
    draws: i64,
    losses: i64,
    updated_at_ms: i64,
}

impl From<RecordRow> for RatingRecord {
    fn from(r: RecordRow) -> RatingRecord {
        RatingRecord {
            rating: Rating::new(r.rating, r.deviation, r.volatility),
            games: r.games,
            wins: r.wins,
            draws: r.draws,
            losses: r.losses,
            updated_at_ms: r.updated_at_ms,
        }
    }
}

pub(super) const RECORD_COLUMNS: &str =
    "rating, deviation, volatility, games, wins, draws, losses, updated_at_ms";

impl Store {
    /// An account's rating, `None` before its first rated match.
    pub async fn player_rating(&self, account_id: i64) -> Result<Option<RatingRecord>, StoreError> {
        let sql = format!("SELECT {RECORD_COLUMNS} FROM player_ratings WHERE account_id = $1");
        let row: Option<RecordRow> = with_pool!(self, pool => {
            sqlx::query_as(&sql).bind(account_id).fetch_optional(pool).await?
        });
        Ok(row.map(RatingRecord::from))
    }

    /// The player rating of the account of this name (any case); `None` when there is no such
    /// account or it has no rated match yet.
    pub async fn player_rating_by_name(&self, username: &str) -> Result<Option<f64>, StoreError> {
        let row: Option<(f64,)> = with_pool!(self, pool => {
            sqlx::query_as(
                "SELECT r.rating FROM accounts a JOIN player_ratings r ON r.account_id = a.id \
                 WHERE a.username_key = $1",
            )
            .bind(crate::accounts::username_key(username))
            .fetch_optional(pool)
            .await?
        });
        Ok(row.map(|(rating,)| rating))
    }

    /// A team's rating (the two accounts in either order), `None` before its first rated match.
    pub async fn team_rating(&self, a: i64, b: i64) -> Result<Option<RatingRecord>, StoreError> {
        let (lo, hi) = (a.min(b), a.max(b));
        let sql = format!(
            "SELECT {RECORD_COLUMNS} FROM team_ratings WHERE account_lo = $1 AND account_hi = $2"
        );
        let row: Option<RecordRow> = with_pool!(self, pool => {
            sqlx::query_as(&sql).bind(lo).bind(hi).fetch_optional(pool).await?
        });
        Ok(row.map(RatingRecord::from))
    }

    /// Sets an account's rating and record as given (an administrator's correction, an import;
    /// rated matches go through [`Store::rate_match`]). No history row is written.
    pub async fn set_player_rating(
        &self,
        account_id: i64,
        record: &RatingRecord,
    ) -> Result<(), AccountError> {
        let done: Result<_, sqlx::Error> = with_pool!(self, pool => {
            sqlx::query(
                "INSERT INTO player_ratings (account_id, rating, deviation, volatility, games, \
                 wins, draws, losses, updated_at_ms) VALUES ($1, $2, $3, $4, $5, $6, $7, $8, $9) \
                 ON CONFLICT (account_id) DO UPDATE SET rating = excluded.rating, \
                 deviation = excluded.deviation, volatility = excluded.volatility, \
                 games = excluded.games, wins = excluded.wins, draws = excluded.draws, \
                 losses = excluded.losses, updated_at_ms = excluded.updated_at_ms",
            )
            .bind(account_id)
            .bind(record.rating.rating)
            .bind(record.rating.deviation)
            .bind(record.rating.volatility)
            .bind(record.games)
            .bind(record.wins)
            .bind(record.draws)
            .bind(record.losses)
            .bind(record.updated_at_ms)
            .execute(pool)
            .await
            .map(drop)
        });
        match done {
            Ok(_) => Ok(()),
            Err(e) if is_foreign_key_violation(&e) => {
                Err(AccountError::NoSuchAccount(account_id.to_string()))
            }
            Err(e) => Err(e.into()),
        }
    }
}

pub(super) fn check_limit(limit: i64, offset: i64) -> Result<(), StoreError> {
    if limit < 0 || offset < 0 {
        return Err(StoreError::Invalid(format!(
            "negative limit {limit} or offset {offset}"
        )));
    }
    Ok(())
}
