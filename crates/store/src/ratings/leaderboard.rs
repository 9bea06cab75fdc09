//! The leaderboards: the best-rated players and teams of two, among those with enough rated
//! matches and a deviation small enough to rank.

use super::{check_limit, LeaderboardEntry, RecordRow, TeamLeaderboardEntry};
use crate::{Pool, Store, StoreError};

#[derive(sqlx::FromRow)]
struct LeaderRow {
    account_id: i64,
    username: String,
    #[sqlx(flatten)]
    record: RecordRow,
}

#[derive(sqlx::FromRow)]
struct TeamLeaderRow {
    account_lo: i64,
    username_lo: String,
    account_hi: i64,
    username_hi: String,
    #[sqlx(flatten)]
    record: RecordRow,
}

impl Store {
    /// The best-rated players, highest first (ties by name), among those with at least
    /// `min_games` rated matches and a deviation of at most `max_deviation` (a rating that is
    /// known well enough to rank).
    pub async fn leaderboard(
        &self,
        limit: i64,
        min_games: i64,
        max_deviation: f64,
    ) -> Result<Vec<LeaderboardEntry>, StoreError> {
        check_limit(limit, 0)?;
        let sql = "SELECT r.account_id, a.username, r.rating, r.deviation, r.volatility, \
             r.games, r.wins, r.draws, r.losses, r.updated_at_ms \
             FROM player_ratings r JOIN accounts a ON a.id = r.account_id \
             WHERE r.games >= $1 AND r.deviation <= $2 \
             ORDER BY r.rating DESC, a.username_key LIMIT $3";
        let rows: Vec<LeaderRow> = with_pool!(self, pool => {
            sqlx::query_as(sql)
                .bind(min_games)
                .bind(max_deviation)
                .bind(limit)
                .fetch_all(pool)
                .await?
        });
        Ok(rows
            .into_iter()
            .map(|r| LeaderboardEntry {
                account_id: r.account_id,
                username: r.username,
                record: r.record.into(),
            })
            .collect())
    }

    /// The best-rated teams, as [`Store::leaderboard`] for players.
    pub async fn team_leaderboard(
        &self,
        limit: i64,
        min_games: i64,
        max_deviation: f64,
    ) -> Result<Vec<TeamLeaderboardEntry>, StoreError> {
        check_limit(limit, 0)?;
        let rows: Vec<TeamLeaderRow> = with_pool!(self, pool => {
            sqlx::query_as(
                "SELECT t.account_lo, lo.username AS username_lo, t.account_hi, \
                 hi.username AS username_hi, t.rating, t.deviation, t.volatility, t.games, \
                 t.wins, t.draws, t.losses, t.updated_at_ms FROM team_ratings t \
                 JOIN accounts lo ON lo.id = t.account_lo JOIN accounts hi ON hi.id = t.account_hi \
                 WHERE t.games >= $1 AND t.deviation <= $2 \
                 ORDER BY t.rating DESC, lo.username_key, hi.username_key LIMIT $3",
            )
            .bind(min_games)
            .bind(max_deviation)
            .bind(limit)
            .fetch_all(pool)
            .await?
        });
        Ok(rows
            .into_iter()
            .map(|r| TeamLeaderboardEntry {
                players: [(r.account_lo, r.username_lo), (r.account_hi, r.username_hi)],
                record: r.record.into(),
            })
            .collect())
    }
}
