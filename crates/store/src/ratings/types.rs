//! The ratings' records as the store gives them: ratings with their records, a match to rate
//! and what rating it changed, history points, leaderboard lines, and what a profile shows.

use bughouse_rating::{team_of, Change, Rating};

#[cfg(doc)]
use crate::Store;

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
