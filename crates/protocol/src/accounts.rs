//! Accounts, ratings, profiles and the leaderboard: the JSON of `POST /api/account/signup` and
//! `login` ([`Credentials`], answered by an [`AccountView`]), `GET /api/account/me`
//! ([`AccountView`]), `GET /api/players/{name}` ([`Profile`]) and `GET /api/leaderboard`
//! ([`Leaderboard`]). `docs/protocol.md` ("Accounts, profiles and the leaderboard") describes
//! them.

use serde::{Deserialize, Serialize};
use ts_rs::TS;

use crate::SeatName;

/// The body of `POST /api/account/signup` and `POST /api/account/login`.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize, TS)]
#[serde(deny_unknown_fields)]
pub struct Credentials {
    /// 3 to 20 letters, digits, `_` or `-` (any case; names differing only in case are one).
    pub username: String,
    /// At least 8 characters.
    pub password: String,
}

/// An account as its owner sees it: `GET /api/account/me`, and the answer to signing in or up.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize, TS)]
pub struct AccountView {
    /// The account's name, as it was signed up.
    pub username: String,
    /// When it was created, Unix milliseconds.
    pub created_at: i64,
    /// Null before the first rated match.
    pub rating: Option<RatingView>,
}

/// A rating (Glicko-2) as the API shows it, with the record behind it.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize, TS)]
pub struct RatingView {
    /// The rating.
    pub rating: f64,
    /// Its deviation.
    pub deviation: f64,
    /// Its volatility.
    pub volatility: f64,
    /// Rated matches played.
    pub games: i64,
    /// Of which won.
    pub wins: i64,
    /// Of which drawn.
    pub draws: i64,
    /// Of which lost.
    pub losses: i64,
    /// The deviation is still above 230 (about the first nine rated matches).
    pub provisional: bool,
}

/// Who sat in a seat of a played match.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize, TS)]
pub struct MatchPlayer {
    /// The name he sat under.
    pub name: String,
    /// The account's name when a signed-in player sat there.
    pub account: Option<String>,
    /// A bot played the seat.
    pub bot: bool,
}

/// How a played match went for the player.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize, TS)]
#[serde(rename_all = "lowercase")]
pub enum Outcome {
    /// His team won.
    Win,
    /// Drawn.
    Draw,
    /// His team lost.
    Loss,
}

/// One match in a profile's history.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize, TS)]
pub struct PlayedMatchView {
    /// The match (its replay is `/m/{match_id}`).
    pub match_id: String,
    /// The rules preset id, or `custom`.
    pub rules: String,
    /// When it ended, Unix milliseconds.
    pub finished_at: i64,
    /// The player's seat.
    pub seat: SeatName,
    /// The result, `1-0`, `0-1` or `1/2-1/2` (team WhiteA + BlackB first).
    pub result: String,
    /// How it went for the player.
    pub outcome: Outcome,
    /// His partner.
    pub partner: Option<MatchPlayer>,
    /// The two opponents.
    pub opponents: [Option<MatchPlayer>; 2],
    /// Everyone by seat: WhiteA, BlackA, WhiteB, BlackB.
    pub players: [Option<MatchPlayer>; 4],
    /// What the match changed of his rating; null for a casual match.
    pub rating_delta: Option<f64>,
}

/// One point of a profile's rating history (the chart).
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize, TS)]
pub struct RatingPointView {
    /// The rated match.
    pub match_id: String,
    /// When, Unix milliseconds.
    pub at: i64,
    /// The rating after it.
    pub rating: f64,
    /// The deviation after it.
    pub deviation: f64,
    /// What it changed.
    pub delta: f64,
}

/// A team rating in short.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize, TS)]
pub struct TeamRatingView {
    /// The rating.
    pub rating: f64,
    /// Its deviation.
    pub deviation: f64,
}

/// A partner in a profile: the matches played together and the team's rating.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize, TS)]
pub struct PartnerView {
    /// The partner's account.
    pub username: String,
    /// Matches played together.
    pub games: i64,
    /// Of which won.
    pub wins: i64,
    /// Of which drawn.
    pub draws: i64,
    /// Of which lost.
    pub losses: i64,
    /// Their team rating, null before their first rated match together.
    pub team_rating: Option<TeamRatingView>,
}

/// A profile's results under one rulebook.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize, TS)]
pub struct RulesView {
    /// The rules preset id, or `custom`.
    pub rules: String,
    /// Matches played.
    pub games: i64,
    /// Of which won.
    pub wins: i64,
    /// Of which drawn.
    pub draws: i64,
    /// Of which lost.
    pub losses: i64,
}

/// `GET /api/players/{name}`: a player's profile.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize, TS)]
pub struct Profile {
    /// The account's name.
    pub username: String,
    /// When it was created, Unix milliseconds.
    pub created_at: i64,
    /// Null before the first rated match.
    pub rating: Option<RatingView>,
    /// Oldest first: the chart.
    pub rating_history: Vec<RatingPointView>,
    /// Newest first, a page (`limit`, `offset`).
    pub matches: Vec<PlayedMatchView>,
    /// The partners he played most with.
    pub best_partners: Vec<PartnerView>,
    /// His results by rulebook.
    pub by_rules: Vec<RulesView>,
}

/// A ranked player.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize, TS)]
pub struct LeaderView {
    /// From 1.
    pub rank: u32,
    /// The account's name.
    pub username: String,
    /// His rating.
    #[serde(flatten)]
    pub rating: RatingView,
}

/// A ranked team of two.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize, TS)]
pub struct TeamLeaderView {
    /// From 1.
    pub rank: u32,
    /// The two accounts' names.
    pub players: [String; 2],
    /// The team rating.
    #[serde(flatten)]
    pub rating: RatingView,
}

/// `GET /api/leaderboard`: the best-rated players and teams.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize, TS)]
pub struct Leaderboard {
    /// Who is ranked: at least this many rated matches...
    pub min_games: i64,
    /// ...(a team: this many)...
    pub team_min_games: i64,
    /// ...and a deviation of at most this.
    pub max_deviation: f64,
    /// The players, best first.
    pub players: Vec<LeaderView>,
    /// The teams, best first.
    pub teams: Vec<TeamLeaderView>,
}
