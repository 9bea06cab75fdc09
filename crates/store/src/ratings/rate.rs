//! Applying a rated match to the players' and teams' ratings: once, in one transaction that
//! reads the six ratings (locking them on PostgreSQL), computes, and writes the new ratings and
//! the history rows, so that two matches ending at once for the same player never lose an
//! update; started over when PostgreSQL broke a deadlock between two of them.

use bughouse_rating::{team_of, Change, Config, MatchRatings, Rating};

use super::{
    MatchRatingChanges, RatedMatch, RatedSeat, RatedSeats, RecordRow, SeatRatingChanges,
    RECORD_COLUMNS,
};
use crate::accounts::{is_foreign_key_violation, AccountError};
use crate::{Backend, Pool, Store};

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
}

/// A PostgreSQL deadlock or serialization failure: the transaction may simply be run again.
fn is_retryable(e: &sqlx::Error) -> bool {
    matches!(e, sqlx::Error::Database(d)
        if matches!(d.code().as_deref(), Some("40P01") | Some("40001")))
}
