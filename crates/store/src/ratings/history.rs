//! What rated matches changed: the matches not rated yet, each match's player and team
//! changes, and the rating histories of a player and of a team (the charts).

use super::{check_limit, MatchRatingChange, RatingPoint, TeamRatingChange};
use crate::{Pool, Store, StoreError};

#[derive(sqlx::FromRow)]
struct PointRow {
    match_id: String,
    at_ms: i64,
    rating: f64,
    deviation: f64,
    delta: f64,
}

#[derive(sqlx::FromRow)]
struct ChangeRow {
    account_id: i64,
    username: String,
    rating: f64,
    deviation: f64,
    delta: f64,
}

#[derive(sqlx::FromRow)]
struct TeamChangeRow {
    account_lo: i64,
    account_hi: i64,
    rating: f64,
    deviation: f64,
    delta: f64,
}

impl Store {
    /// The finished rated matches whose ratings were not applied (the server stopped between
    /// storing the end and rating it): the server rates them at start.
    pub async fn unrated_matches(&self) -> Result<Vec<String>, StoreError> {
        Ok(with_pool!(self, pool => {
            sqlx::query_scalar(
                "SELECT m.id FROM matches m WHERE m.rated AND m.status = 'finished' \
                 AND NOT EXISTS (SELECT 1 FROM rated_matches r WHERE r.match_id = m.id) \
                 ORDER BY m.finished_at_ms, m.id",
            )
            .fetch_all(pool)
            .await?
        }))
    }

    /// The team rating changes of a rated match (empty if it was not rated, or a bot played),
    /// each team's accounts lower id first.
    pub async fn match_team_rating_changes(
        &self,
        match_id: &str,
    ) -> Result<Vec<TeamRatingChange>, StoreError> {
        let rows: Vec<TeamChangeRow> = with_pool!(self, pool => {
            sqlx::query_as(
                "SELECT account_lo, account_hi, rating, deviation, delta FROM team_rating_history \
                 WHERE match_id = $1 ORDER BY account_lo, account_hi",
            )
            .bind(match_id)
            .fetch_all(pool)
            .await?
        });
        Ok(rows
            .into_iter()
            .map(|r| TeamRatingChange {
                accounts: (r.account_lo, r.account_hi),
                rating: r.rating,
                deviation: r.deviation,
                delta: r.delta,
            })
            .collect())
    }

    /// Whether a match's ratings were applied.
    pub async fn is_rated(&self, match_id: &str) -> Result<bool, StoreError> {
        let found: i64 = with_pool!(self, pool => {
            sqlx::query_scalar("SELECT COUNT(*) FROM rated_matches WHERE match_id = $1")
                .bind(match_id)
                .fetch_one(pool)
                .await?
        });
        Ok(found > 0)
    }

    /// The players' rating changes of a rated match (empty if it was not rated), by account
    /// id: what the match page shows at the end, and again after a reload.
    pub async fn match_rating_changes(
        &self,
        match_id: &str,
    ) -> Result<Vec<MatchRatingChange>, StoreError> {
        let rows: Vec<ChangeRow> = with_pool!(self, pool => {
            sqlx::query_as(
                "SELECT h.account_id, a.username, h.rating, h.deviation, h.delta \
                 FROM player_rating_history h JOIN accounts a ON a.id = h.account_id \
                 WHERE h.match_id = $1 ORDER BY h.account_id",
            )
            .bind(match_id)
            .fetch_all(pool)
            .await?
        });
        Ok(rows
            .into_iter()
            .map(|r| MatchRatingChange {
                account_id: r.account_id,
                username: r.username,
                rating: r.rating,
                deviation: r.deviation,
                delta: r.delta,
            })
            .collect())
    }

    /// An account's rating after each of its last `limit` rated matches, oldest first (the
    /// profile's chart).
    pub async fn rating_history(
        &self,
        account_id: i64,
        limit: i64,
    ) -> Result<Vec<RatingPoint>, StoreError> {
        check_limit(limit, 0)?;
        let rows: Vec<PointRow> = with_pool!(self, pool => {
            sqlx::query_as(
                "SELECT match_id, at_ms, rating, deviation, delta FROM player_rating_history \
                 WHERE account_id = $1 ORDER BY at_ms DESC, match_id DESC LIMIT $2",
            )
            .bind(account_id)
            .bind(limit)
            .fetch_all(pool)
            .await?
        });
        Ok(points(rows))
    }

    /// A team's rating after each of its last `limit` rated matches, oldest first.
    pub async fn team_rating_history(
        &self,
        a: i64,
        b: i64,
        limit: i64,
    ) -> Result<Vec<RatingPoint>, StoreError> {
        check_limit(limit, 0)?;
        let rows: Vec<PointRow> = with_pool!(self, pool => {
            sqlx::query_as(
                "SELECT match_id, at_ms, rating, deviation, delta FROM team_rating_history \
                 WHERE account_lo = $1 AND account_hi = $2 \
                 ORDER BY at_ms DESC, match_id DESC LIMIT $3",
            )
            .bind(a.min(b))
            .bind(a.max(b))
            .bind(limit)
            .fetch_all(pool)
            .await?
        });
        Ok(points(rows))
    }
}

fn points(rows: Vec<PointRow>) -> Vec<RatingPoint> {
    let mut out: Vec<RatingPoint> = rows
        .into_iter()
        .map(|r| RatingPoint {
            match_id: r.match_id,
            at_ms: r.at_ms,
            rating: r.rating,
            deviation: r.deviation,
            delta: r.delta,
        })
        .collect();
    out.reverse();
    out
}
