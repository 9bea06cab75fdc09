//! Match results and how they score.
//!
//! A result is entered per match as the two games' results ([`MatchRecord::Games`], each from
//! its board's White side, `*` for a game stopped because the match ended on the other board),
//! as a match result ([`MatchRecord::Match`], from the home team's side) or as a forfeit
//! ([`MatchRecord::Forfeit`]).
//!
//! [`Scoring`] turns it into match points (the first ranking criterion) and game points (the
//! second):
//!
//! - **First-game scoring** (fide F4.3/F4.4, minerva-2014 M5.1/M8.2, uscf-scholastic-2006 U7):
//!   the match result is the result of the game that ended first; the other board is `*`. If
//!   both boards carry a result they ended at the same moment (F4.4, *interp.* the same for
//!   minerva and uscf): the team that won both wins, anything else is a draw. Match points
//!   1 / ½ / 0. *interp.*: game points are the match score (1 / ½ / 0): the decided game is the
//!   one that counts, so under first-game scoring game points equal match points and only
//!   matter when a custom [`Scoring`] changes the match points.
//! - **Both-games scoring** (knsb-1988, K11G): both games are played out and each scores
//!   1 / ½ / 0 (*interp.*, K11G says each game scores on its own); a team's game points are the
//!   sum over its two games. *interp.*: the team with more game points wins the match, scoring
//!   2 match points, a tie is a drawn match, 1 each. `*` is refused: every game is played out.
//!   A bare match result is refused too: it does not say what the games were.
//! - **Byes** (*interp.*): a match won by default — the full match points of a win, and the game
//!   points of winning every game (1 under first-game scoring, 2 under both-games scoring).
//!   [`Scoring::bye`] can make it a draw or nothing instead.
//! - **Forfeits**: the team that did not forfeit wins the match as with a bye (full match and
//!   game points); a double forfeit is a loss for both, with no points. A forfeited match counts
//!   as played for the pairings (the teams are not paired again) and for Buchholz.

use std::fmt;
use std::str::FromStr;

use bughouse_core::{BoardId, Color, Preset, Score};
use serde::{Deserialize, Serialize};

use crate::points::Points;
use crate::seating::Seating;

/// The result of one game, from its board's White side.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, Serialize, Deserialize)]
pub enum GameResult {
    /// White won (`1-0`).
    #[serde(rename = "1-0")]
    WhiteWins,
    /// Black won (`0-1`).
    #[serde(rename = "0-1")]
    BlackWins,
    /// A draw (`1/2-1/2`).
    #[serde(rename = "1/2-1/2")]
    Draw,
    /// Stopped because the match ended on the other board (`*`).
    #[serde(rename = "*")]
    Stopped,
}

impl GameResult {
    /// The score, if the game was decided.
    pub const fn score(self) -> Option<Score> {
        match self {
            GameResult::WhiteWins => Some(Score::WhiteWins),
            GameResult::BlackWins => Some(Score::BlackWins),
            GameResult::Draw => Some(Score::Draw),
            GameResult::Stopped => None,
        }
    }

    /// From a core score.
    pub const fn from_score(score: Score) -> GameResult {
        match score {
            Score::WhiteWins => GameResult::WhiteWins,
            Score::BlackWins => GameResult::BlackWins,
            Score::Draw => GameResult::Draw,
        }
    }

    /// `1-0`, `0-1`, `1/2-1/2` or `*`.
    pub const fn as_str(self) -> &'static str {
        match self {
            GameResult::WhiteWins => "1-0",
            GameResult::BlackWins => "0-1",
            GameResult::Draw => "1/2-1/2",
            GameResult::Stopped => "*",
        }
    }
}

impl fmt::Display for GameResult {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(self.as_str())
    }
}

/// A result that could not be read.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
#[error("cannot read result {text:?}: expected {expected}")]
pub struct ParseResultError {
    /// The text.
    pub text: String,
    /// What was expected.
    pub expected: &'static str,
}

impl FromStr for GameResult {
    type Err = ParseResultError;

    /// `1-0`, `0-1`, `1/2-1/2` (also `½-½`, `0.5-0.5`, `=`) or `*`.
    fn from_str(s: &str) -> Result<GameResult, ParseResultError> {
        match s.trim() {
            "1-0" => Ok(GameResult::WhiteWins),
            "0-1" => Ok(GameResult::BlackWins),
            "1/2-1/2" | "½-½" | "0.5-0.5" | "=" => Ok(GameResult::Draw),
            "*" => Ok(GameResult::Stopped),
            _ => Err(ParseResultError {
                text: s.to_owned(),
                expected: "1-0, 0-1, 1/2-1/2 or *",
            }),
        }
    }
}

/// A match result from the home (first-named) team's side.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, Serialize, Deserialize)]
pub enum Outcome {
    /// The home team won (`1-0`).
    #[serde(rename = "1-0")]
    HomeWins,
    /// The away team won (`0-1`).
    #[serde(rename = "0-1")]
    AwayWins,
    /// A draw (`1/2-1/2`).
    #[serde(rename = "1/2-1/2")]
    Draw,
}

impl Outcome {
    /// `1-0`, `0-1` or `1/2-1/2`.
    pub const fn as_str(self) -> &'static str {
        match self {
            Outcome::HomeWins => "1-0",
            Outcome::AwayWins => "0-1",
            Outcome::Draw => "1/2-1/2",
        }
    }
}

/// A forfeited match.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, Serialize, Deserialize)]
pub enum Forfeit {
    /// The away team forfeited: the home team wins (`+-`).
    #[serde(rename = "+-")]
    AwayForfeits,
    /// The home team forfeited: the away team wins (`-+`).
    #[serde(rename = "-+")]
    HomeForfeits,
    /// Both forfeited: both lose (`--`).
    #[serde(rename = "--")]
    Both,
}

impl Forfeit {
    /// `+-`, `-+` or `--`.
    pub const fn as_str(self) -> &'static str {
        match self {
            Forfeit::AwayForfeits => "+-",
            Forfeit::HomeForfeits => "-+",
            Forfeit::Both => "--",
        }
    }
}

/// The result of a match as entered.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, Serialize, Deserialize)]
#[serde(rename_all = "kebab-case")]
pub enum MatchRecord {
    /// The two games, each from its board's White side.
    Games {
        /// Board A.
        a: GameResult,
        /// Board B.
        b: GameResult,
    },
    /// The match result only, from the home team's side (first-game scoring only).
    Match(Outcome),
    /// A forfeit.
    Forfeit(Forfeit),
}

impl MatchRecord {
    /// Reads a match result: `1-0`, `0-1`, `1/2-1/2` (also `½-½`, `=`) from the home team's
    /// side, or a forfeit `+-` (the away team forfeits), `-+` (the home team) or `--` (both).
    pub fn parse_match(s: &str) -> Result<MatchRecord, ParseResultError> {
        match s.trim() {
            "1-0" => Ok(MatchRecord::Match(Outcome::HomeWins)),
            "0-1" => Ok(MatchRecord::Match(Outcome::AwayWins)),
            "1/2-1/2" | "½-½" | "0.5-0.5" | "=" => Ok(MatchRecord::Match(Outcome::Draw)),
            "+-" => Ok(MatchRecord::Forfeit(Forfeit::AwayForfeits)),
            "-+" => Ok(MatchRecord::Forfeit(Forfeit::HomeForfeits)),
            "--" => Ok(MatchRecord::Forfeit(Forfeit::Both)),
            _ => Err(ParseResultError {
                text: s.to_owned(),
                expected: "1-0, 0-1, 1/2-1/2 (home team first), or a forfeit +-, -+ or --",
            }),
        }
    }

    /// The game result on `board`, if entered per game.
    pub const fn game(&self, board: BoardId) -> Option<GameResult> {
        match (self, board) {
            (MatchRecord::Games { a, .. }, BoardId::A) => Some(*a),
            (MatchRecord::Games { b, .. }, BoardId::B) => Some(*b),
            _ => None,
        }
    }
}

impl fmt::Display for MatchRecord {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            MatchRecord::Games { a, b } => write!(f, "A {a}, B {b}"),
            MatchRecord::Match(o) => write!(f, "{}", o.as_str()),
            MatchRecord::Forfeit(x) => write!(f, "{} (forfeit)", x.as_str()),
        }
    }
}

/// What a bye scores.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, Serialize, Deserialize)]
#[serde(rename_all = "kebab-case")]
pub enum ByeValue {
    /// A match won (the default).
    Win,
    /// A drawn match.
    Draw,
    /// Nothing.
    Loss,
}

impl fmt::Display for ByeValue {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(match self {
            ByeValue::Win => "a match won",
            ByeValue::Draw => "a drawn match",
            ByeValue::Loss => "nothing",
        })
    }
}

/// How results turn into points. Kept in the tournament file, so it can be changed there.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, Serialize, Deserialize)]
pub struct Scoring {
    /// `true`: the first game to end decides the match (F4.3, M8.2, U7); `false`: both games
    /// are played out and each scores on its own (K11G). From the preset's
    /// [`bughouse_core::Rules::match_ends_with_first_game`].
    pub first_game_decides: bool,
    /// Match points for a match won.
    pub win: Points,
    /// Match points for a drawn match.
    pub draw: Points,
    /// Match points for a match lost.
    pub loss: Points,
    /// What a bye scores.
    pub bye: ByeValue,
}

/// How a match went for one team.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub enum TeamOutcome {
    /// Won.
    Win,
    /// Drawn.
    Draw,
    /// Lost.
    Loss,
}

impl TeamOutcome {
    /// The other team's.
    pub const fn flip(self) -> TeamOutcome {
        match self {
            TeamOutcome::Win => TeamOutcome::Loss,
            TeamOutcome::Draw => TeamOutcome::Draw,
            TeamOutcome::Loss => TeamOutcome::Win,
        }
    }
}

/// One team's score from a match or a bye.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub struct TeamScore {
    /// Won, drawn or lost.
    pub outcome: TeamOutcome,
    /// Match points.
    pub match_points: Points,
    /// Game points.
    pub game_points: Points,
}

/// The score of a match.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub struct MatchScore {
    /// The home team's.
    pub home: TeamScore,
    /// The away team's.
    pub away: TeamScore,
}

/// A result that does not fit the rules.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
pub enum ResultError {
    /// Both boards `*`.
    #[error("both boards are *: one game must have ended")]
    BothStopped,
    /// `*` under both-games scoring.
    #[error("board {0} is *, but under knsb-1988 both games are played out (K11G)")]
    StoppedGame(BoardId),
    /// A bare match result under both-games scoring.
    #[error("under knsb-1988 each game scores on its own (K11G): give both games' results (--board-a, --board-b), not a match result")]
    MatchResultNeedsGames,
}

impl Scoring {
    /// The scoring of a preset: first-game scoring with match points 1 / ½ / 0, or for
    /// knsb-1988 both-games scoring with match points 2 / 1 / 0. A bye is a match won.
    pub fn for_preset(preset: Preset) -> Scoring {
        if preset.rules().match_ends_with_first_game {
            Scoring {
                first_game_decides: true,
                win: Points::ONE,
                draw: Points::HALF,
                loss: Points::ZERO,
                bye: ByeValue::Win,
            }
        } else {
            Scoring {
                first_game_decides: false,
                win: Points::TWO,
                draw: Points::ONE,
                loss: Points::ZERO,
                bye: ByeValue::Win,
            }
        }
    }

    /// Whether every value is a whole number of half points (so that Sonneborn-Berger is exact
    /// in quarters).
    pub fn is_valid(&self) -> bool {
        [self.win, self.draw, self.loss]
            .iter()
            .all(|p| p.is_multiple_of_half())
    }

    /// The game points of winning every game: 1 under first-game scoring, 2 under both-games
    /// scoring.
    pub const fn full_game_points(&self) -> Points {
        if self.first_game_decides {
            Points::ONE
        } else {
            Points::TWO
        }
    }

    /// Match points for an outcome.
    pub const fn match_points(&self, outcome: TeamOutcome) -> Points {
        match outcome {
            TeamOutcome::Win => self.win,
            TeamOutcome::Draw => self.draw,
            TeamOutcome::Loss => self.loss,
        }
    }

    fn team(&self, outcome: TeamOutcome, game_points: Points) -> TeamScore {
        TeamScore {
            outcome,
            match_points: self.match_points(outcome),
            game_points,
        }
    }

    /// What a bye scores.
    pub fn bye_score(&self) -> TeamScore {
        let full = self.full_game_points();
        match self.bye {
            ByeValue::Win => self.team(TeamOutcome::Win, full),
            ByeValue::Draw => self.team(TeamOutcome::Draw, full.half()),
            ByeValue::Loss => self.team(TeamOutcome::Loss, Points::ZERO),
        }
    }

    /// Checks a result against the rules without scoring it.
    pub fn check(&self, record: &MatchRecord) -> Result<(), ResultError> {
        match *record {
            MatchRecord::Games { a, b } => {
                if self.first_game_decides {
                    if a == GameResult::Stopped && b == GameResult::Stopped {
                        return Err(ResultError::BothStopped);
                    }
                } else {
                    for (board, r) in [(BoardId::A, a), (BoardId::B, b)] {
                        if r == GameResult::Stopped {
                            return Err(ResultError::StoppedGame(board));
                        }
                    }
                }
                Ok(())
            }
            MatchRecord::Match(_) if !self.first_game_decides => {
                Err(ResultError::MatchResultNeedsGames)
            }
            MatchRecord::Match(_) | MatchRecord::Forfeit(_) => Ok(()),
        }
    }

    /// Scores a match whose seats were `seating`.
    pub fn score(
        &self,
        record: &MatchRecord,
        seating: &Seating,
    ) -> Result<MatchScore, ResultError> {
        self.check(record)?;
        let full = self.full_game_points();
        let home_outcome = match *record {
            MatchRecord::Forfeit(Forfeit::Both) => {
                let lost = self.team(TeamOutcome::Loss, Points::ZERO);
                return Ok(MatchScore {
                    home: lost,
                    away: lost,
                });
            }
            MatchRecord::Forfeit(Forfeit::AwayForfeits) => TeamOutcome::Win,
            MatchRecord::Forfeit(Forfeit::HomeForfeits) => TeamOutcome::Loss,
            MatchRecord::Match(Outcome::HomeWins) => TeamOutcome::Win,
            MatchRecord::Match(Outcome::AwayWins) => TeamOutcome::Loss,
            MatchRecord::Match(Outcome::Draw) => TeamOutcome::Draw,
            MatchRecord::Games { a, b } => {
                // Each decided game, from the home team's side.
                let home_games: Vec<TeamOutcome> = [(BoardId::A, a), (BoardId::B, b)]
                    .into_iter()
                    .filter_map(|(board, r)| {
                        let score = r.score()?;
                        let home_color = if seating.home_white_on(board) {
                            Color::White
                        } else {
                            Color::Black
                        };
                        Some(match score.winner() {
                            None => TeamOutcome::Draw,
                            Some(c) if c == home_color => TeamOutcome::Win,
                            Some(_) => TeamOutcome::Loss,
                        })
                    })
                    .collect();
                if self.first_game_decides {
                    match home_games.as_slice() {
                        [one] => *one,
                        // Both ended at the same moment (F4.4): the team that won both wins,
                        // anything else is a draw.
                        [x, y] if x == y && *x != TeamOutcome::Draw => *x,
                        _ => TeamOutcome::Draw,
                    }
                } else {
                    let game_points = |o: &TeamOutcome| match o {
                        TeamOutcome::Win => Points::ONE,
                        TeamOutcome::Draw => Points::HALF,
                        TeamOutcome::Loss => Points::ZERO,
                    };
                    let home: Points = home_games.iter().map(game_points).sum();
                    let away: Points = home_games.iter().map(|o| game_points(&o.flip())).sum();
                    let outcome = match home.cmp(&away) {
                        std::cmp::Ordering::Greater => TeamOutcome::Win,
                        std::cmp::Ordering::Equal => TeamOutcome::Draw,
                        std::cmp::Ordering::Less => TeamOutcome::Loss,
                    };
                    return Ok(MatchScore {
                        home: self.team(outcome, home),
                        away: self.team(outcome.flip(), away),
                    });
                }
            }
        };
        let game_points = |o: TeamOutcome| match o {
            TeamOutcome::Win => full,
            TeamOutcome::Draw => full.half(),
            TeamOutcome::Loss => Points::ZERO,
        };
        Ok(MatchScore {
            home: self.team(home_outcome, game_points(home_outcome)),
            away: self.team(home_outcome.flip(), game_points(home_outcome.flip())),
        })
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::seating::Lot;

    fn games(a: &str, b: &str) -> MatchRecord {
        MatchRecord::Games {
            a: a.parse().unwrap(),
            b: b.parse().unwrap(),
        }
    }

    #[test]
    fn minerva_first_game_decides() {
        let s = Scoring::for_preset(Preset::Minerva2014);
        // Home: BlackA + WhiteB. Board A 0-1: Black on A won, the home team.
        let m = s.score(&games("0-1", "*"), &Seating::minerva()).unwrap();
        assert_eq!(m.home.outcome, TeamOutcome::Win);
        assert_eq!(m.home.match_points, Points::ONE);
        assert_eq!(m.home.game_points, Points::ONE);
        assert_eq!(m.away.match_points, Points::ZERO);
        // Board B 1-0: White on B (home) won.
        let m = s.score(&games("*", "1-0"), &Seating::minerva()).unwrap();
        assert_eq!(m.home.outcome, TeamOutcome::Win);
        let m = s
            .score(&games("*", "1/2-1/2"), &Seating::minerva())
            .unwrap();
        assert_eq!(m.home.match_points, Points::HALF);
        assert_eq!(m.away.game_points, Points::HALF);
        // Both at once: the home team won both (0-1 on A, 1-0 on B).
        let m = s.score(&games("0-1", "1-0"), &Seating::minerva()).unwrap();
        assert_eq!(m.home.outcome, TeamOutcome::Win);
        // One each: a draw.
        let m = s.score(&games("1-0", "1-0"), &Seating::minerva()).unwrap();
        assert_eq!(m.home.outcome, TeamOutcome::Draw);
        assert_eq!(
            s.score(&games("*", "*"), &Seating::minerva()),
            Err(ResultError::BothStopped)
        );
    }

    #[test]
    fn knsb_both_games_count() {
        let s = Scoring::for_preset(Preset::Knsb1988);
        let lot = Lot {
            draw: 0,
            roll: 0,
            home_first_white: true,
        };
        // Home: WhiteA + BlackB. A 1-0 (home), B 1/2: home 1.5 - 0.5.
        let m = s
            .score(&games("1-0", "1/2-1/2"), &Seating::knsb(lot))
            .unwrap();
        assert_eq!(m.home.game_points, Points::halves(3));
        assert_eq!(m.away.game_points, Points::HALF);
        assert_eq!(m.home.match_points, Points::TWO);
        assert_eq!(m.away.match_points, Points::ZERO);
        // A 1-0 (home), B 1-0 (away): 1-1, a drawn match.
        let m = s.score(&games("1-0", "1-0"), &Seating::knsb(lot)).unwrap();
        assert_eq!(m.home.match_points, Points::ONE);
        assert_eq!(m.home.outcome, TeamOutcome::Draw);
        assert_eq!(
            s.score(&games("1-0", "*"), &Seating::knsb(lot)),
            Err(ResultError::StoppedGame(BoardId::B))
        );
        assert_eq!(
            s.score(&MatchRecord::Match(Outcome::Draw), &Seating::knsb(lot)),
            Err(ResultError::MatchResultNeedsGames)
        );
        let m = s
            .score(
                &MatchRecord::Forfeit(Forfeit::HomeForfeits),
                &Seating::knsb(lot),
            )
            .unwrap();
        assert_eq!(m.away.game_points, Points::TWO);
        assert_eq!(m.away.match_points, Points::TWO);
        assert_eq!(s.bye_score().game_points, Points::TWO);
    }

    #[test]
    fn parse_results() {
        assert_eq!("½-½".parse::<GameResult>(), Ok(GameResult::Draw));
        assert!("2-0".parse::<GameResult>().is_err());
        assert_eq!(
            MatchRecord::parse_match("-+"),
            Ok(MatchRecord::Forfeit(Forfeit::HomeForfeits))
        );
        assert!(MatchRecord::parse_match("*").is_err());
    }
}
