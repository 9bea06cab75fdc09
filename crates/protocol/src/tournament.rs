//! The tournament HTTP API (`/api/tournaments...`, served by `crates/server/src/tournaments`):
//! the request bodies and the tournament as the pages read it. `docs/protocol.md` lists the
//! routes. Points are decimal strings (`1.5`), teams are numbered from 0 in the order
//! registered, rounds and tables from 1.

use serde::{Deserialize, Serialize};
use ts_rs::TS;

use crate::SeatName;

wire_enum!(
    /// How the rounds are paired.
    TournamentFormat {
        /// Every team meets every other once (Berger tables).
        RoundRobin = "round-robin" | "rr",
        /// Every team meets every other twice, home and away swapped in the second cycle.
        DoubleRoundRobin = "double-round-robin" | "drr",
        /// Each round paired from the standings; needs a number of rounds.
        Swiss = "swiss",
    }
);

wire_enum!(
    /// One of the two players of a team.
    Slot {
        /// The first-board player, fixed for the tournament.
        First = "first" | "1",
        /// His partner.
        Second = "second" | "2",
    }
);

wire_enum!(
    /// One of the two teams of a pairing.
    TeamSide {
        /// The home (first-named) team.
        Home = "home",
        /// The away team.
        Away = "away",
    }
);

wire_enum!(
    /// The result of one game, from its board's White side.
    GameResult {
        /// White won.
        WhiteWins = "1-0",
        /// Black won.
        BlackWins = "0-1",
        /// A draw.
        Draw = "1/2-1/2" | "½-½" | "0.5-0.5" | "=",
        /// Stopped because the match ended on the other board.
        Stopped = "*",
    }
);

wire_enum!(
    /// A match result from the home team's side, or a forfeit.
    MatchResult {
        /// The home team won.
        HomeWins = "1-0",
        /// The away team won.
        AwayWins = "0-1",
        /// A draw.
        Draw = "1/2-1/2" | "½-½" | "0.5-0.5" | "=",
        /// The away team forfeits.
        AwayForfeits = "+-",
        /// The home team forfeits.
        HomeForfeits = "-+",
        /// Both teams forfeit.
        BothForfeit = "--",
    }
);

/// The body of `POST /api/tournaments`.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize, TS)]
#[serde(deny_unknown_fields)]
pub struct CreateTournament {
    /// Up to 80 characters.
    pub name: String,
    /// The rules preset: `minerva-2014`, `knsb-1988`, `fide` or `uscf-scholastic-2006` (the
    /// two-board presets).
    pub preset: String,
    /// How the rounds are paired.
    pub format: TournamentFormat,
    /// The number of rounds: needed for a Swiss; a round robin plays every round of its table
    /// unless told fewer.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    #[ts(optional)]
    pub rounds: Option<u32>,
    /// The time control of the server matches, `M+S` (default `5+0`).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    #[ts(optional)]
    pub time_control: Option<String>,
    /// The seed of the draws of lots (default random).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    #[ts(optional)]
    pub seed: Option<u64>,
}

/// A player of a team being registered.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize, TS)]
#[serde(deny_unknown_fields)]
pub struct PlayerEntry {
    /// Up to 32 characters (a seat name).
    pub name: String,
    /// Up to 4000.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    #[ts(optional)]
    pub rating: Option<u32>,
}

/// The body of `POST /api/tournaments/{id}/teams`.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize, TS)]
#[serde(deny_unknown_fields)]
pub struct AddTeam {
    /// Up to 80 characters, unique in the tournament.
    pub name: String,
    /// The first-board player.
    pub first: PlayerEntry,
    /// His partner.
    pub second: PlayerEntry,
}

/// The body of `POST /api/tournaments/{id}/rounds` (none at all is `{}`).
#[derive(Debug, Clone, Default, PartialEq, Eq, Serialize, Deserialize, TS)]
#[serde(deny_unknown_fields)]
pub struct PairRound {
    /// Also create one server match per pairing.
    #[serde(default, skip_serializing_if = "std::ops::Not::not")]
    pub online: bool,
}

/// The body of `PUT /api/tournaments/{id}/rounds/{r}/tables/{t}/result`: both games, or the
/// match result alone.
#[derive(Debug, Clone, Default, PartialEq, Eq, Serialize, Deserialize, TS)]
#[serde(deny_unknown_fields)]
pub struct SetResult {
    /// The game on board A.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    #[ts(optional)]
    pub board_a: Option<GameResult>,
    /// The game on board B.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    #[ts(optional)]
    pub board_b: Option<GameResult>,
    /// The match result alone (first-game scoring only), or a forfeit.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    #[ts(optional)]
    pub result: Option<MatchResult>,
}

/// The body of `PUT /api/tournaments/{id}/rounds/{r}/tables/{t}/colours` (uscf-scholastic-2006,
/// U3: a team chooses which of its players has White).
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize, TS)]
#[serde(deny_unknown_fields)]
pub struct SetColours {
    /// The team that chooses.
    pub team: TeamSide,
    /// Its player with White.
    pub white: Slot,
}

/// The answer to `POST /api/tournaments` (201).
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize, TS)]
pub struct CreatedTournament {
    /// The new tournament's id.
    pub tournament_id: String,
    /// The secret of organiser requests (`Authorization: Bearer SECRET`): shown once.
    pub organiser_secret: String,
    /// The tournament.
    pub tournament: TournamentView,
}

/// The tournament as the pages show it: the answer to `GET /api/tournaments/{id}` and to every
/// change by the organiser.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize, TS)]
pub struct TournamentView {
    /// The id.
    pub id: String,
    /// The name.
    pub name: String,
    /// The rules preset id.
    pub preset: String,
    /// How the rounds are paired.
    pub format: TournamentFormat,
    /// The number of rounds asked for at creation, if any.
    pub planned_rounds: Option<u32>,
    /// The number of rounds to play (0 for a Swiss without a number yet).
    pub total_rounds: u32,
    /// The time control of the server matches.
    pub time_control: String,
    /// The seed of the draws of lots.
    pub seed: u64,
    /// How results score.
    pub scoring: ScoringView,
    /// The teams, by id.
    pub teams: Vec<TeamView>,
    /// The rounds paired so far.
    pub rounds: Vec<RoundView>,
    /// The standings, best first.
    pub standings: Vec<StandingView>,
    /// Whether every round is paired and played.
    pub finished: bool,
    /// Whether the teams can no longer change (a round is paired).
    pub teams_fixed: bool,
    /// Why the next round cannot be paired, if it cannot.
    pub cannot_pair: Option<String>,
    /// When it was created, Unix milliseconds.
    pub created_at: i64,
    /// When it last changed, Unix milliseconds (also the ETag).
    pub updated_at: i64,
}

/// How results score.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize, TS)]
pub struct ScoringView {
    /// Whether the first game to end decides the match (`false`: both games are played out
    /// and score apart).
    pub first_game_decides: bool,
    /// Match points for a win.
    pub win: String,
    /// Match points for a draw.
    pub draw: String,
    /// Match points for a loss.
    pub loss: String,
}

/// A player of a team.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize, TS)]
pub struct PlayerView {
    /// The name.
    pub name: String,
    /// The rating, if known.
    pub rating: Option<u32>,
}

/// A team.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize, TS)]
pub struct TeamView {
    /// Its number, from 0 in the order registered.
    pub id: usize,
    /// The name.
    pub name: String,
    /// The first-board player.
    pub first: PlayerView,
    /// His partner.
    pub second: PlayerView,
    /// The team rating (the players' mean), if any is known.
    pub rating: Option<u32>,
}

/// A round.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize, TS)]
pub struct RoundView {
    /// Its number, from 1.
    pub number: u32,
    /// Whether every pairing has a result.
    pub finished: bool,
    /// The matches, by table.
    pub pairings: Vec<PairingView>,
    /// The team with the bye, if the number of teams is odd.
    pub bye: Option<ByeView>,
}

/// The team with a round's bye.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize, TS)]
pub struct ByeView {
    /// The team's id.
    pub team: usize,
    /// Its name.
    pub name: String,
}

/// A match of a round.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize, TS)]
pub struct PairingView {
    /// The table, from 1.
    pub table: u32,
    /// The home team's id.
    pub home: usize,
    /// The away team's id.
    pub away: usize,
    /// The home team's name.
    pub home_name: String,
    /// The away team's name.
    pub away_name: String,
    /// Who sits where, in seat order WhiteA, BlackA, WhiteB, BlackB.
    pub seats: Vec<SeatView>,
    /// What decided the colours, in words.
    pub colours: String,
    /// The result, once entered.
    pub result: Option<PairingResult>,
    /// What the home team scored, once there is a result.
    pub home_points: Option<PointsView>,
    /// What the away team scored, once there is a result.
    pub away_points: Option<PointsView>,
    /// The server match played for it, if the round was paired online.
    pub match_id: Option<String>,
}

/// A player at a seat of a pairing.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize, TS)]
pub struct SeatView {
    /// The seat.
    pub seat: SeatName,
    /// The player's team.
    pub team: usize,
    /// Its name.
    pub team_name: String,
    /// The player's name.
    pub player: String,
    /// Which of the team's players.
    pub slot: Slot,
    /// Whether the team is the home team.
    pub home: bool,
}

/// The result of a pairing.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize, TS)]
pub struct PairingResult {
    /// Board A's game, when entered per game.
    pub board_a: Option<GameResult>,
    /// Board B's game, when entered per game.
    pub board_b: Option<GameResult>,
    /// The match result from the home team's side (`1-0`, `0-1`, `1/2-1/2`) or the forfeit
    /// (`+-`, `-+`, `--`).
    #[serde(rename = "match")]
    pub match_result: String,
    /// The result as entered, in words (`A 1-0, B *`).
    pub text: String,
}

/// What a team scored in a match.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize, TS)]
pub struct PointsView {
    /// Match points.
    pub match_points: String,
    /// Game points.
    pub game_points: String,
}

/// One line of the standings.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize, TS)]
pub struct StandingView {
    /// The rank: `3`, or `3-4` for a shared place.
    pub rank: String,
    /// The team's id.
    pub team: usize,
    /// Its name.
    pub name: String,
    /// Matches played (forfeits included, byes not).
    pub played: u32,
    /// Matches won.
    pub won: u32,
    /// Matches drawn.
    pub drawn: u32,
    /// Matches lost.
    pub lost: u32,
    /// Byes.
    pub byes: u32,
    /// Match points.
    pub match_points: String,
    /// Game points.
    pub game_points: String,
    /// Buchholz.
    pub buchholz: String,
    /// Sonneborn-Berger.
    pub sonneborn_berger: String,
    /// Match points against the other teams of its tie, when every two of them have met.
    pub direct_encounter: Option<String>,
    /// The team rating.
    pub rating: Option<u32>,
}
