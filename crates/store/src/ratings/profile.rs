//! What a profile shows: an account's finished matches (partner, opponents, result, rating
//! change), its best partners, and its results by rulebook.

use bughouse_rating::Rating;

use super::{check_limit, Outcome, PartnerRecord, PlayedMatch, RulesRecord, SeatPlayer};
use crate::{Pool, Store, StoreError};

#[derive(sqlx::FromRow)]
struct PlayedRow {
    id: String,
    rules_preset: String,
    result: Option<String>,
    finished_at_ms: Option<i64>,
    seat: i64,
    name_0: Option<String>,
    account_0: Option<String>,
    bot_0: Option<bool>,
    name_1: Option<String>,
    account_1: Option<String>,
    bot_1: Option<bool>,
    name_2: Option<String>,
    account_2: Option<String>,
    bot_2: Option<bool>,
    name_3: Option<String>,
    account_3: Option<String>,
    bot_3: Option<bool>,
    delta: Option<f64>,
}

#[derive(sqlx::FromRow)]
struct PartnerRow {
    account_id: i64,
    username: String,
    games: i64,
    wins: i64,
    draws: i64,
    team_rating: Option<f64>,
    team_deviation: Option<f64>,
    team_volatility: Option<f64>,
}

#[derive(sqlx::FromRow)]
struct RulesRow {
    rules_preset: String,
    games: i64,
    wins: i64,
    draws: i64,
}

/// `1` when the seated account (`me`) won the match (`m`), for `SUM`.
const WON: &str = "CASE WHEN (m.result = '1-0' AND me.seat IN (0, 3)) \
                   OR (m.result = '0-1' AND me.seat IN (1, 2)) THEN 1 ELSE 0 END";
/// `1` for a drawn match, for `SUM`.
const DRAWN: &str = "CASE WHEN m.result = '1/2-1/2' THEN 1 ELSE 0 END";

impl Store {
    /// The finished matches in which an account sat, newest first, skipping `offset`: its seat,
    /// the four players, the result for it, and its rating change when the match was rated.
    pub async fn player_matches(
        &self,
        account_id: i64,
        limit: i64,
        offset: i64,
    ) -> Result<Vec<PlayedMatch>, StoreError> {
        check_limit(limit, offset)?;
        let mut columns = String::new();
        let mut joins = String::new();
        for k in 0..4 {
            columns.push_str(&format!(
                ", s{k}.name AS name_{k}, a{k}.username AS account_{k}, s{k}.bot AS bot_{k}"
            ));
            joins.push_str(&format!(
                " LEFT JOIN seats s{k} ON s{k}.match_id = m.id AND s{k}.seat = {k} \
                 LEFT JOIN seat_accounts x{k} ON x{k}.match_id = m.id AND x{k}.seat = {k} \
                 LEFT JOIN accounts a{k} ON a{k}.id = x{k}.account_id"
            ));
        }
        let sql = format!(
            "SELECT m.id, m.rules_preset, m.result, m.finished_at_ms, me.seat{columns}, h.delta \
             FROM seat_accounts me JOIN matches m ON m.id = me.match_id{joins} \
             LEFT JOIN player_rating_history h ON h.account_id = me.account_id \
             AND h.match_id = m.id \
             WHERE me.account_id = $1 AND m.status = 'finished' \
             ORDER BY m.finished_at_ms DESC, m.id DESC LIMIT $2 OFFSET $3"
        );
        let rows: Vec<PlayedRow> = with_pool!(self, pool => {
            sqlx::query_as(&sql)
                .bind(account_id)
                .bind(limit)
                .bind(offset)
                .fetch_all(pool)
                .await?
        });
        rows.into_iter()
            .map(|r| {
                let seat = crate::accounts::seat_number(r.seat, &r.id)?;
                let (Some(result), Some(finished_at_ms)) = (r.result, r.finished_at_ms) else {
                    return Err(StoreError::Corrupt(format!(
                        "finished match {:?} without result or end time",
                        r.id
                    )));
                };
                let outcome = Outcome::of(&result, seat).ok_or_else(|| {
                    StoreError::Corrupt(format!("match {:?} has the result {result:?}", r.id))
                })?;
                let player = |name: Option<String>, account: Option<String>, bot: Option<bool>| {
                    name.map(|name| SeatPlayer {
                        name,
                        account,
                        bot: bot.unwrap_or(false),
                    })
                };
                Ok(PlayedMatch {
                    match_id: r.id,
                    rules_preset: r.rules_preset,
                    finished_at_ms,
                    seat,
                    result,
                    outcome,
                    players: [
                        player(r.name_0, r.account_0, r.bot_0),
                        player(r.name_1, r.account_1, r.bot_1),
                        player(r.name_2, r.account_2, r.bot_2),
                        player(r.name_3, r.account_3, r.bot_3),
                    ],
                    rating_delta: r.delta,
                })
            })
            .collect()
    }

    /// The signed-in partners of an account in finished matches, best first: by points scored
    /// together (a win 2, a draw 1), then by matches together, then by name. Each with the
    /// team's rating when the two played rated.
    pub async fn best_partners(
        &self,
        account_id: i64,
        limit: i64,
    ) -> Result<Vec<PartnerRecord>, StoreError> {
        check_limit(limit, 0)?;
        let sql = format!(
            "SELECT * FROM (SELECT p.account_id, a.username, COUNT(*) AS games, \
             SUM({WON}) AS wins, SUM({DRAWN}) AS draws, t.rating AS team_rating, \
             t.deviation AS team_deviation, t.volatility AS team_volatility \
             FROM seat_accounts me \
             JOIN seat_accounts p ON p.match_id = me.match_id AND p.seat = 3 - me.seat \
             JOIN matches m ON m.id = me.match_id \
             JOIN accounts a ON a.id = p.account_id \
             LEFT JOIN team_ratings t \
             ON t.account_lo = CASE WHEN me.account_id < p.account_id \
                THEN me.account_id ELSE p.account_id END \
             AND t.account_hi = CASE WHEN me.account_id < p.account_id \
                THEN p.account_id ELSE me.account_id END \
             WHERE me.account_id = $1 AND p.account_id <> $1 AND m.status = 'finished' \
             GROUP BY p.account_id, a.username, a.username_key, t.rating, t.deviation, \
             t.volatility) x \
             ORDER BY 2 * x.wins + x.draws DESC, x.games DESC, x.username LIMIT $2"
        );
        let rows: Vec<PartnerRow> = with_pool!(self, pool => {
            sqlx::query_as(&sql)
                .bind(account_id)
                .bind(limit)
                .fetch_all(pool)
                .await?
        });
        Ok(rows
            .into_iter()
            .map(|r| PartnerRecord {
                account_id: r.account_id,
                username: r.username,
                games: r.games,
                wins: r.wins,
                draws: r.draws,
                losses: r.games - r.wins - r.draws,
                team_rating: match (r.team_rating, r.team_deviation, r.team_volatility) {
                    (Some(rating), Some(deviation), Some(volatility)) => {
                        Some(Rating::new(rating, deviation, volatility))
                    }
                    _ => None,
                },
            })
            .collect())
    }

    /// An account's results in finished matches under each rulebook, most played first.
    pub async fn results_by_rules(&self, account_id: i64) -> Result<Vec<RulesRecord>, StoreError> {
        let sql = format!(
            "SELECT m.rules_preset, COUNT(*) AS games, SUM({WON}) AS wins, SUM({DRAWN}) AS draws \
             FROM seat_accounts me JOIN matches m ON m.id = me.match_id \
             WHERE me.account_id = $1 AND m.status = 'finished' \
             GROUP BY m.rules_preset ORDER BY COUNT(*) DESC, m.rules_preset"
        );
        let rows: Vec<RulesRow> = with_pool!(self, pool => {
            sqlx::query_as(&sql).bind(account_id).fetch_all(pool).await?
        });
        Ok(rows
            .into_iter()
            .map(|r| RulesRecord {
                rules_preset: r.rules_preset,
                games: r.games,
                wins: r.wins,
                draws: r.draws,
                losses: r.games - r.wins - r.draws,
            })
            .collect())
    }
}
