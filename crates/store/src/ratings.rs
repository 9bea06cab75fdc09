//! Ratings (Glicko-2, `bughouse_rating`) of players and teams, their history, the leaderboards,
//! and what a profile shows: a player's matches, his partners, his results by rulebook (see
//! `migrations/0004_accounts.sql`).
//!
//! A rated match is applied once, in one transaction, by [`Store::rate_match`]: it reads the
//! six ratings (locking them on PostgreSQL), computes, and writes the new ratings and the
//! history rows, so that two matches ending at once for the same player never lose an update.

use bughouse_rating::{team_of, Change, Config, MatchRatings, Rating};

use crate::accounts::{is_foreign_key_violation, AccountError};
use crate::{Backend, Pool, Store, StoreError};

/// A rating as stored, with the record behind it.
#[derive(Debug, Clone, Copy, PartialEq)]
pub struct RatingRecord {
    /// Rating, deviation and volatility after the last rated match.
    pub rating: Rating,
    /// Rated matches played.
    pub games: i64,
    /// Of which won.
    pub wins: i64,
    /// Of which drawn.
    pub draws: i64,
    /// Of which lost.
    pub losses: i64,
    /// When it last changed, Unix milliseconds.
    pub updated_at_ms: i64,
}

/// A finished match to rate: who sat where and how it ended.
#[derive(Debug, Clone, PartialEq)]
pub struct RatedMatch {
    /// The match (it must be stored).
    pub match_id: String,
    /// The accounts by seat: 0 WhiteA, 1 BlackA, 2 WhiteB, 3 BlackB; four different accounts.
    pub accounts: [i64; 4],
    /// Team one's score (seats 0 and 3): 1, ½ or 0 (`bughouse_rating::score_of_result`).
    pub score: f64,
    /// When it ended, Unix milliseconds: the time of the history rows, and what idle time is
    /// counted up to.
    pub at_ms: i64,
}

/// Who sat in a seat of a rated match.
#[derive(Debug, Clone, Copy, PartialEq)]
pub enum RatedSeat {
    /// A signed-in player: his rating changes.
    Account(i64),
    /// A bot, with its fixed rating: it enters the computation and never changes.
    Bot(Rating),
}

impl RatedSeat {
    /// The account, for a player.
    pub fn account(&self) -> Option<i64> {
        match self {
            RatedSeat::Account(a) => Some(*a),
            RatedSeat::Bot(_) => None,
        }
    }
}

/// A finished match to rate in which bots may have played ([`Store::rate_seats`]).
#[derive(Debug, Clone, PartialEq)]
pub struct RatedSeats {
    /// The match (it must be stored).
    pub match_id: String,
    /// By seat: 0 WhiteA, 1 BlackA, 2 WhiteB, 3 BlackB; at least one account, no account
    /// twice.
    pub seats: [RatedSeat; 4],
    /// Team one's score (seats 0 and 3): 1, ½ or 0.
    pub score: f64,
    /// When it ended, Unix milliseconds.
    pub at_ms: i64,
}

/// What [`Store::rate_seats`] changed.
#[derive(Debug, Clone, Copy, PartialEq)]
pub struct SeatRatingChanges {
    /// By seat: the account and its rating before (idle time counted) and after; `None` for a
    /// bot.
    pub players: [Option<(i64, Change)>; 4],
    /// Team one, team two: the pair of accounts (lower id first) and the team's rating; `None`
    /// when a bot played.
    pub teams: [Option<((i64, i64), Change)>; 2],
}

/// One team's change in a rated match, as stored.
#[derive(Debug, Clone, PartialEq)]
pub struct TeamRatingChange {
    /// The two accounts, lower id first.
    pub accounts: (i64, i64),
    /// The team rating after the match.
    pub rating: f64,
    /// The deviation after the match.
    pub deviation: f64,
    /// The change.
    pub delta: f64,
}

/// What [`Store::rate_match`] changed.
#[derive(Debug, Clone, Copy, PartialEq)]
pub struct MatchRatingChanges {
    /// By seat: the account and its rating before (idle time counted) and after.
    pub players: [(i64, Change); 4],
    /// Team one, team two: the pair of accounts (lower id first) and the team's rating.
    pub teams: [((i64, i64), Change); 2],
}

/// One point of a rating's history: the rating after a rated match.
#[derive(Debug, Clone, PartialEq)]
pub struct RatingPoint {
    /// The match.
    pub match_id: String,
    /// When it was rated, Unix milliseconds.
    pub at_ms: i64,
    /// The rating after it.
    pub rating: f64,
    /// The deviation after it.
    pub deviation: f64,
    /// How much the match moved the rating.
    pub delta: f64,
}

/// One player's change in a rated match.
#[derive(Debug, Clone, PartialEq)]
pub struct MatchRatingChange {
    /// The account.
    pub account_id: i64,
    /// Its name.
    pub username: String,
    /// The rating after the match.
    pub rating: f64,
    /// The deviation after the match.
    pub deviation: f64,
    /// The change.
    pub delta: f64,
}

/// A line of the players' leaderboard.
#[derive(Debug, Clone, PartialEq)]
pub struct LeaderboardEntry {
    /// The account.
    pub account_id: i64,
    /// Its name.
    pub username: String,
    /// Its rating and record.
    pub record: RatingRecord,
}

/// A line of the teams' leaderboard.
#[derive(Debug, Clone, PartialEq)]
pub struct TeamLeaderboardEntry {
    /// The two accounts and their names, lower id first.
    pub players: [(i64, String); 2],
    /// The team's rating and record.
    pub record: RatingRecord,
}

/// How a match ended for one player.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub enum Outcome {
    /// His team won.
    Win,
    /// Drawn.
    Draw,
    /// His team lost.
    Loss,
}

impl Outcome {
    /// `win`, `draw` or `loss`.
    pub fn as_str(self) -> &'static str {
        match self {
            Outcome::Win => "win",
            Outcome::Draw => "draw",
            Outcome::Loss => "loss",
        }
    }

    /// The outcome for `seat` of a match result (`1-0`, `0-1`, `1/2-1/2`).
    pub fn of(result: &str, seat: u8) -> Option<Outcome> {
        let score = bughouse_rating::score_of_result(result)?;
        let mine = if team_of(usize::from(seat)) == 0 {
            score
        } else {
            1.0 - score
        };
        Some(if mine > 0.5 {
            Outcome::Win
        } else if mine < 0.5 {
            Outcome::Loss
        } else {
            Outcome::Draw
        })
    }
}

/// Who sat in a seat of a played match.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct SeatPlayer {
    /// The name shown at the board.
    pub name: String,
    /// The account's name, if a signed-in player sat there.
    pub account: Option<String>,
    /// Whether a bot played the seat.
    pub bot: bool,
}

/// A finished match in which an account sat.
#[derive(Debug, Clone, PartialEq)]
pub struct PlayedMatch {
    /// The match.
    pub match_id: String,
    /// Its rulebook (preset id or `custom`).
    pub rules_preset: String,
    /// When it ended, Unix milliseconds.
    pub finished_at_ms: i64,
    /// The account's seat.
    pub seat: u8,
    /// The match result, `1-0`, `0-1` or `1/2-1/2`.
    pub result: String,
    /// The result for the account.
    pub outcome: Outcome,
    /// All four seats (the account's own included), by seat.
    pub players: [Option<SeatPlayer>; 4],
    /// The rating change, if the match was rated.
    pub rating_delta: Option<f64>,
}

/// A partner with whom an account played, and how it went.
#[derive(Debug, Clone, PartialEq)]
pub struct PartnerRecord {
    /// The partner's account.
    pub account_id: i64,
    /// Its name.
    pub username: String,
    /// Finished matches together.
    pub games: i64,
    /// Won together.
    pub wins: i64,
    /// Drawn together.
    pub draws: i64,
    /// Lost together.
    pub losses: i64,
    /// The team's rating, if it played rated.
    pub team_rating: Option<Rating>,
}

/// An account's results under one rulebook.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct RulesRecord {
    /// The preset id, or `custom`.
    pub rules_preset: String,
    /// Finished matches.
    pub games: i64,
    /// Won.
    pub wins: i64,
    /// Drawn.
    pub draws: i64,
    /// Lost.
    pub losses: i64,
}

#[derive(sqlx::FromRow)]
struct RecordRow {
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

#[derive(sqlx::FromRow)]
struct LockedPlayer {
    account_id: i64,
    #[sqlx(flatten)]
    record: RecordRow,
}

#[derive(sqlx::FromRow)]
struct LockedTeam {
    account_lo: i64,
    account_hi: i64,
    #[sqlx(flatten)]
    record: RecordRow,
}

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

const RECORD_COLUMNS: &str =
    "rating, deviation, volatility, games, wins, draws, losses, updated_at_ms";

/// The most times [`Store::rate_match`] starts over after PostgreSQL broke a deadlock or a
/// serialization conflict between two rated matches.
const RATE_ATTEMPTS: usize = 5;

/// What one attempt of [`Store::rate_match`] came to (database errors apart).
enum Attempt {
    Done(Box<SeatRatingChanges>),
    Rated,
    NoSuchMatch,
    NoSuchAccount,
    Invalid(bughouse_rating::RatingError),
}

impl Store {
    /// An account's rating, `None` before its first rated match.
    pub async fn player_rating(&self, account_id: i64) -> Result<Option<RatingRecord>, StoreError> {
        let sql = format!("SELECT {RECORD_COLUMNS} FROM player_ratings WHERE account_id = $1");
        let row: Option<RecordRow> = with_pool!(self, pool => {
            sqlx::query_as(&sql).bind(account_id).fetch_optional(pool).await?
        });
        Ok(row.map(RatingRecord::from))
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

    /// Applies a finished rated match to the four players' and the two teams' ratings, once:
    /// reads them (a newcomer or a new team starts at `config.initial`), widens each by its idle
    /// time since its last rated match ([`Config::idle`]), rates the match
    /// ([`Config::rate_match`]), and writes the new ratings, the records (games, wins, draws,
    /// losses) and a history row per player and team, all in one transaction.
    ///
    /// Errors: [`AccountError::AlreadyRated`] if the match was rated before (nothing changes),
    /// [`AccountError::NoSuchMatch`], [`AccountError::NoSuchAccount`], and
    /// [`AccountError::Invalid`] for the same account in two seats or a score outside 0..=1.
    pub async fn rate_match(
        &self,
        rated: &RatedMatch,
        config: &Config,
    ) -> Result<MatchRatingChanges, AccountError> {
        let seats = RatedSeats {
            match_id: rated.match_id.clone(),
            seats: rated.accounts.map(RatedSeat::Account),
            score: rated.score,
            at_ms: rated.at_ms,
        };
        let changes = self.rate_seats(&seats, config).await?;
        let (Some(players), [Some(t0), Some(t1)]) = (
            changes
                .players
                .iter()
                .copied()
                .collect::<Option<Vec<_>>>()
                .and_then(|p| <[(i64, Change); 4]>::try_from(p).ok()),
            changes.teams,
        ) else {
            return Err(AccountError::Invalid("four accounts rate two teams".into()));
        };
        Ok(MatchRatingChanges {
            players,
            teams: [t0, t1],
        })
    }

    /// [`Store::rate_match`] for a match in which bots may have played: a bot's seat has its
    /// fixed rating ([`RatedSeat::Bot`]), enters the computation as it is and is never updated.
    /// The accounts' ratings change as in [`Store::rate_match`]; the team ratings only when all
    /// four seats are accounts (a team rating is of two accounts against two accounts).
    ///
    /// Errors: as [`Store::rate_match`]; [`AccountError::Invalid`] also for a match without an
    /// account.
    pub async fn rate_seats(
        &self,
        rated: &RatedSeats,
        config: &Config,
    ) -> Result<SeatRatingChanges, AccountError> {
        let mut distinct: Vec<i64> = rated.seats.iter().filter_map(RatedSeat::account).collect();
        if distinct.is_empty() {
            return Err(AccountError::Invalid(format!(
                "match {:?}: no account to rate",
                rated.match_id
            )));
        }
        distinct.sort_unstable();
        if distinct.windows(2).any(|w| w[0] == w[1]) {
            return Err(AccountError::Invalid(format!(
                "match {:?}: an account sits in two seats",
                rated.match_id
            )));
        }
        if !(0.0..=1.0).contains(&rated.score) {
            return Err(AccountError::Invalid(format!(
                "score {} is not between 0 and 1",
                rated.score
            )));
        }
        let mut attempt = 0;
        loop {
            attempt += 1;
            match self.rate_match_once(rated, config).await {
                Ok(Attempt::Done(changes)) => return Ok(*changes),
                Ok(Attempt::Rated) => {
                    return Err(AccountError::AlreadyRated(rated.match_id.clone()))
                }
                Ok(Attempt::NoSuchMatch) => {
                    return Err(AccountError::NoSuchMatch(rated.match_id.clone()))
                }
                Ok(Attempt::NoSuchAccount) => {
                    return Err(AccountError::NoSuchAccount(format!("{distinct:?}")))
                }
                Ok(Attempt::Invalid(e)) => return Err(AccountError::Invalid(e.to_string())),
                Err(e) if attempt < RATE_ATTEMPTS && is_retryable(&e) => continue,
                Err(e) => return Err(e.into()),
            }
        }
    }

    async fn rate_match_once(
        &self,
        rated: &RatedSeats,
        config: &Config,
    ) -> Result<Attempt, sqlx::Error> {
        let lock = if self.backend() == Backend::Postgres {
            " FOR UPDATE"
        } else {
            ""
        };
        let mut sorted: Vec<i64> = rated.seats.iter().filter_map(RatedSeat::account).collect();
        sorted.sort_unstable();
        // The IN list has four places: the accounts, the first repeated.
        let bound: [i64; 4] = std::array::from_fn(|i| sorted.get(i).copied().unwrap_or(sorted[0]));
        let accounts: Vec<Option<i64>> = rated.seats.iter().map(RatedSeat::account).collect();
        let all_accounts = accounts.iter().all(Option::is_some);
        let pair = |seats: [usize; 2]| {
            let (a, b) = (
                accounts[seats[0]].unwrap_or(0),
                accounts[seats[1]].unwrap_or(0),
            );
            (a.min(b), a.max(b))
        };
        let teams = bughouse_rating::TEAM_SEATS.map(pair);
        let mut team_order = teams;
        team_order.sort_unstable();
        let players_sql = format!(
            "SELECT account_id, {RECORD_COLUMNS} FROM player_ratings \
             WHERE account_id IN ($1, $2, $3, $4) ORDER BY account_id{lock}"
        );
        let teams_sql = format!(
            "SELECT account_lo, account_hi, {RECORD_COLUMNS} FROM team_ratings \
             WHERE (account_lo = $1 AND account_hi = $2) OR (account_lo = $3 AND account_hi = $4) \
             ORDER BY account_lo, account_hi{lock}"
        );
        let initial = config.initial;
        let score = [rated.score, 1.0 - rated.score];
        with_pool!(self, pool => {
            async {
                let mut tx = pool.begin().await?;
                // First a write: the guard. On SQLite it takes the write lock before anything is
                // read, so that two rated matches run one after the other.
                let guard = sqlx::query(
                    "INSERT INTO rated_matches (match_id, score, rated_at_ms) VALUES ($1, $2, $3) \
                     ON CONFLICT (match_id) DO NOTHING",
                )
                .bind(&rated.match_id)
                .bind(rated.score)
                .bind(rated.at_ms)
                .execute(&mut *tx)
                .await;
                match guard {
                    Ok(done) if done.rows_affected() == 0 => return Ok(Attempt::Rated),
                    Ok(_) => {}
                    Err(e) if is_foreign_key_violation(&e) => return Ok(Attempt::NoSuchMatch),
                    Err(e) => return Err(e),
                }
                // Newcomers and new teams get a row first, in a fixed order (so that concurrent
                // matches lock rows in the same order).
                for &account in &sorted {
                    let insert = sqlx::query(
                        "INSERT INTO player_ratings (account_id, rating, deviation, volatility, \
                         games, wins, draws, losses, updated_at_ms) \
                         VALUES ($1, $2, $3, $4, 0, 0, 0, 0, $5) ON CONFLICT (account_id) DO NOTHING",
                    )
                    .bind(account)
                    .bind(initial.rating)
                    .bind(initial.deviation)
                    .bind(initial.volatility)
                    .bind(rated.at_ms)
                    .execute(&mut *tx)
                    .await;
                    match insert {
                        Ok(_) => {}
                        Err(e) if is_foreign_key_violation(&e) => return Ok(Attempt::NoSuchAccount),
                        Err(e) => return Err(e),
                    }
                }
                if all_accounts {
                    for (lo, hi) in team_order {
                        sqlx::query(
                            "INSERT INTO team_ratings (account_lo, account_hi, rating, deviation, \
                             volatility, games, wins, draws, losses, updated_at_ms) \
                             VALUES ($1, $2, $3, $4, $5, 0, 0, 0, 0, $6) \
                             ON CONFLICT (account_lo, account_hi) DO NOTHING",
                        )
                        .bind(lo)
                        .bind(hi)
                        .bind(initial.rating)
                        .bind(initial.deviation)
                        .bind(initial.volatility)
                        .bind(rated.at_ms)
                        .execute(&mut *tx)
                        .await?;
                    }
                }
                let players: Vec<LockedPlayer> = sqlx::query_as(&players_sql)
                    .bind(bound[0])
                    .bind(bound[1])
                    .bind(bound[2])
                    .bind(bound[3])
                    .fetch_all(&mut *tx)
                    .await?;
                let team_rows: Vec<LockedTeam> = if all_accounts {
                    sqlx::query_as(&teams_sql)
                        .bind(teams[0].0)
                        .bind(teams[0].1)
                        .bind(teams[1].0)
                        .bind(teams[1].1)
                        .fetch_all(&mut *tx)
                        .await?
                } else {
                    Vec::new()
                };
                let idle = |record: &RecordRow| {
                    let rating = Rating::new(record.rating, record.deviation, record.volatility);
                    if record.games == 0 {
                        return Ok(rating);
                    }
                    let days = (rated.at_ms - record.updated_at_ms).max(0) as f64 / 86_400_000.0;
                    config.idle(rating, days)
                };
                let mut before = MatchRatings {
                    players: [initial; 4],
                    teams: [initial; 2],
                };
                for (seat, rated_seat) in rated.seats.iter().enumerate() {
                    let account = match rated_seat {
                        RatedSeat::Bot(fixed) => {
                            before.players[seat] = *fixed;
                            continue;
                        }
                        RatedSeat::Account(account) => *account,
                    };
                    let Some(row) = players.iter().find(|p| p.account_id == account) else {
                        return Ok(Attempt::NoSuchAccount);
                    };
                    match idle(&row.record) {
                        Ok(r) => before.players[seat] = r,
                        Err(e) => return Ok(Attempt::Invalid(e)),
                    }
                }
                if all_accounts {
                    for (team, (lo, hi)) in teams.iter().enumerate() {
                        let Some(row) = team_rows
                            .iter()
                            .find(|t| t.account_lo == *lo && t.account_hi == *hi)
                        else {
                            return Ok(Attempt::NoSuchAccount);
                        };
                        match idle(&row.record) {
                            Ok(r) => before.teams[team] = r,
                            Err(e) => return Ok(Attempt::Invalid(e)),
                        }
                    }
                }
                let changes = match config.rate_match(&before, rated.score) {
                    Ok(changes) => changes,
                    Err(e) => return Ok(Attempt::Invalid(e)),
                };
                let tally = |s: f64| -> (i64, i64, i64) {
                    if s > 0.5 {
                        (1, 0, 0)
                    } else if s < 0.5 {
                        (0, 0, 1)
                    } else {
                        (0, 1, 0)
                    }
                };
                for (seat, change) in changes.players.iter().enumerate() {
                    let Some(account) = accounts[seat] else {
                        continue;
                    };
                    let (w, d, l) = tally(score[team_of(seat)]);
                    let after = change.after;
                    sqlx::query(
                        "UPDATE player_ratings SET rating = $2, deviation = $3, volatility = $4, \
                         games = games + 1, wins = wins + $5, draws = draws + $6, \
                         losses = losses + $7, updated_at_ms = $8 WHERE account_id = $1",
                    )
                    .bind(account)
                    .bind(after.rating)
                    .bind(after.deviation)
                    .bind(after.volatility)
                    .bind(w)
                    .bind(d)
                    .bind(l)
                    .bind(rated.at_ms)
                    .execute(&mut *tx)
                    .await?;
                    sqlx::query(
                        "INSERT INTO player_rating_history (account_id, match_id, at_ms, rating, \
                         deviation, volatility, delta) VALUES ($1, $2, $3, $4, $5, $6, $7)",
                    )
                    .bind(account)
                    .bind(&rated.match_id)
                    .bind(rated.at_ms)
                    .bind(after.rating)
                    .bind(after.deviation)
                    .bind(after.volatility)
                    .bind(change.delta())
                    .execute(&mut *tx)
                    .await?;
                }
                if all_accounts {
                    for (team, change) in changes.teams.iter().enumerate() {
                        let (lo, hi) = teams[team];
                        let (w, d, l) = tally(score[team]);
                        let after = change.after;
                        sqlx::query(
                            "UPDATE team_ratings SET rating = $3, deviation = $4, volatility = $5, \
                             games = games + 1, wins = wins + $6, draws = draws + $7, \
                             losses = losses + $8, updated_at_ms = $9 \
                             WHERE account_lo = $1 AND account_hi = $2",
                        )
                        .bind(lo)
                        .bind(hi)
                        .bind(after.rating)
                        .bind(after.deviation)
                        .bind(after.volatility)
                        .bind(w)
                        .bind(d)
                        .bind(l)
                        .bind(rated.at_ms)
                        .execute(&mut *tx)
                        .await?;
                        sqlx::query(
                            "INSERT INTO team_rating_history (account_lo, account_hi, match_id, \
                             at_ms, rating, deviation, volatility, delta) \
                             VALUES ($1, $2, $3, $4, $5, $6, $7, $8)",
                        )
                        .bind(lo)
                        .bind(hi)
                        .bind(&rated.match_id)
                        .bind(rated.at_ms)
                        .bind(after.rating)
                        .bind(after.deviation)
                        .bind(after.volatility)
                        .bind(change.delta())
                        .execute(&mut *tx)
                        .await?;
                    }
                }
                tx.commit().await?;
                Ok(Attempt::Done(Box::new(SeatRatingChanges {
                    players: std::array::from_fn(|seat| {
                        accounts[seat].map(|a| (a, changes.players[seat]))
                    }),
                    teams: std::array::from_fn(|team| {
                        all_accounts.then(|| (teams[team], changes.teams[team]))
                    }),
                })))
            }
            .await
        })
    }

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

fn check_limit(limit: i64, offset: i64) -> Result<(), StoreError> {
    if limit < 0 || offset < 0 {
        return Err(StoreError::Invalid(format!(
            "negative limit {limit} or offset {offset}"
        )));
    }
    Ok(())
}

/// A PostgreSQL deadlock or serialization failure: the transaction may simply be run again.
fn is_retryable(e: &sqlx::Error) -> bool {
    matches!(e, sqlx::Error::Database(d)
        if matches!(d.code().as_deref(), Some("40P01") | Some("40001")))
}
