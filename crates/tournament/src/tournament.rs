//! The tournament: teams, rounds, pairings with seats, results; saved as JSON.

use std::fmt;
use std::str::FromStr;

use bughouse_core::{Preset, Rules};
use serde::{Deserialize, Serialize};

use crate::berger;
use crate::result::{MatchRecord, MatchScore, ResultError, Scoring};
use crate::seating::{Basis, Choice, Lot, SeatedPlayer, Seating};
use crate::standings::{self, Standing};
use crate::swiss::{self, Entrant, SwissError};
use crate::team::{Slot, Team, TeamId};

/// The version of the JSON file this crate writes and reads.
pub const FILE_VERSION: u32 = 1;

/// How the rounds are paired.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, Serialize, Deserialize)]
#[serde(rename_all = "kebab-case")]
pub enum Format {
    /// Swiss: each round paired from the standings (see [`crate::swiss`]).
    Swiss,
    /// Every team meets every other once (Berger tables).
    RoundRobin,
    /// Every team meets every other twice, home and away swapped in the second cycle.
    DoubleRoundRobin,
}

impl Format {
    /// `swiss`, `round-robin` or `double-round-robin`.
    pub const fn id(self) -> &'static str {
        match self {
            Format::Swiss => "swiss",
            Format::RoundRobin => "round-robin",
            Format::DoubleRoundRobin => "double-round-robin",
        }
    }
}

impl fmt::Display for Format {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(self.id())
    }
}

/// An unknown format name.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
#[error("unknown format {0:?}: expected swiss, round-robin or double-round-robin")]
pub struct UnknownFormat(pub String);

impl FromStr for Format {
    type Err = UnknownFormat;

    fn from_str(s: &str) -> Result<Format, UnknownFormat> {
        match s {
            "swiss" => Ok(Format::Swiss),
            "round-robin" | "rr" => Ok(Format::RoundRobin),
            "double-round-robin" | "drr" => Ok(Format::DoubleRoundRobin),
            _ => Err(UnknownFormat(s.to_owned())),
        }
    }
}

/// One match of a round.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
pub struct Pairing {
    /// The table number, from 1.
    pub table: u32,
    /// The home (first-named) team.
    pub home: TeamId,
    /// The away team.
    pub away: TeamId,
    /// Who sits where, and why.
    pub seating: Seating,
    /// The result, once entered.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub result: Option<MatchRecord>,
}

impl Pairing {
    /// The four seats, in BPGN order: WhiteA, BlackA, WhiteB, BlackB.
    pub fn seats(&self) -> [SeatedPlayer; 4] {
        self.seating.seats(self.home, self.away)
    }

    /// Whether `team` plays in this match.
    pub fn involves(&self, team: TeamId) -> bool {
        self.home == team || self.away == team
    }

    /// The other team.
    pub fn opponent(&self, team: TeamId) -> Option<TeamId> {
        if self.home == team {
            Some(self.away)
        } else if self.away == team {
            Some(self.home)
        } else {
            None
        }
    }
}

/// A paired round.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
pub struct Round {
    /// The round number, from 1.
    pub number: u32,
    /// The matches, by table.
    pub pairings: Vec<Pairing>,
    /// The team with the bye, if the number of teams is odd.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub bye: Option<TeamId>,
}

impl Round {
    /// Whether every match has a result.
    pub fn is_finished(&self) -> bool {
        self.pairings.iter().all(|p| p.result.is_some())
    }

    /// The match at `table`.
    pub fn table(&self, table: u32) -> Option<&Pairing> {
        self.pairings.iter().find(|p| p.table == table)
    }
}

/// Why the tournament refused something.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
pub enum TournamentError {
    /// No name.
    #[error("the tournament needs a name")]
    EmptyName,
    /// Crazyhouse.
    #[error("{0} is a single-board game, not a team game: use fide, minerva-2014, knsb-1988 or uscf-scholastic-2006")]
    NotBughouse(Preset),
    /// A Swiss without a number of rounds.
    #[error("a Swiss tournament needs a number of rounds (--rounds)")]
    RoundsNeeded,
    /// Zero rounds.
    #[error("the number of rounds must be at least 1")]
    ZeroRounds,
    /// A team without a name.
    #[error("a team needs a name")]
    EmptyTeamName,
    /// A player without a name.
    #[error("team {0:?}: both players need a name")]
    EmptyPlayerName(String),
    /// A name taken.
    #[error("there is already a team named {0:?}")]
    DuplicateTeam(String),
    /// Teams added after the start.
    #[error("the teams are fixed once round 1 is paired (M1.4)")]
    TeamsFixed,
    /// Not enough teams.
    #[error("pairing needs at least 2 teams; there are {0}")]
    TooFewTeams(usize),
    /// Every round is paired.
    #[error("all {0} rounds are paired")]
    AllRoundsPaired(u32),
    /// A round robin with more rounds than it has.
    #[error("a {format} of {teams} teams has {max} rounds, not {planned}")]
    TooManyRounds {
        /// The format.
        format: Format,
        /// Teams.
        teams: usize,
        /// Rounds asked for.
        planned: u32,
        /// Rounds it has.
        max: u32,
    },
    /// A Swiss round paired before the previous one is finished.
    #[error("round {round} is not finished: no result at table {}", join(.tables))]
    RoundNotFinished {
        /// The round.
        round: u32,
        /// The tables without a result.
        tables: Vec<u32>,
    },
    /// No Swiss pairing.
    #[error("round {round} cannot be paired: {error}")]
    Pairing {
        /// The round.
        round: u32,
        /// Why.
        error: SwissError,
    },
    /// No such round.
    #[error("there is no round {0} (rounds paired: {1})")]
    NoSuchRound(u32, usize),
    /// No such table.
    #[error("round {round} has no table {table} (tables 1 to {tables})")]
    NoSuchTable {
        /// The round.
        round: u32,
        /// The table.
        table: u32,
        /// How many tables it has.
        tables: usize,
    },
    /// A Swiss result changed after the next round was paired from it.
    #[error("the result of round {round} can no longer change: round {later} was paired from it")]
    RoundClosed {
        /// The round.
        round: u32,
        /// The round paired after it.
        later: u32,
    },
    /// A result that does not fit the rules.
    #[error(transparent)]
    Result(#[from] ResultError),
    /// A colour choice outside uscf.
    #[error(
        "under {0} the teams do not choose their colours: only uscf-scholastic-2006 does (U3)"
    )]
    NoChoice(Preset),
    /// A team not in the match.
    #[error("team {team:?} does not play at table {table} of round {round}")]
    NotInPairing {
        /// The team's name.
        team: String,
        /// The round.
        round: u32,
        /// The table.
        table: u32,
    },
    /// A colour choice after the match.
    #[error(
        "round {round} table {table} already has a result: colours are chosen before the match"
    )]
    AlreadyPlayed {
        /// The round.
        round: u32,
        /// The table.
        table: u32,
    },
    /// Scoring values that are not half points.
    #[error("match points must be whole numbers of half points")]
    InvalidScoring,
    /// Unreadable JSON.
    #[error("cannot read the tournament: {0}")]
    Json(String),
    /// A file from another version.
    #[error(
        "tournament file version {0} is not supported (this program reads version {FILE_VERSION})"
    )]
    Version(u32),
    /// A file whose contents contradict each other.
    #[error("the tournament file is inconsistent: {0}")]
    Invalid(String),
}

fn join(tables: &[u32]) -> String {
    tables
        .iter()
        .map(u32::to_string)
        .collect::<Vec<_>>()
        .join(", ")
}

/// The preset as its id in files.
mod preset_id {
    use bughouse_core::Preset;
    use serde::{Deserialize, Deserializer, Serializer};

    pub fn serialize<S: Serializer>(p: &Preset, s: S) -> Result<S::Ok, S::Error> {
        s.serialize_str(p.id())
    }

    pub fn deserialize<'de, D: Deserializer<'de>>(d: D) -> Result<Preset, D::Error> {
        let s = String::deserialize(d)?;
        s.parse().map_err(serde::de::Error::custom)
    }
}

/// A bughouse team tournament.
///
/// Saved as JSON ([`Tournament::to_json`]): the settings, the [`Scoring`] (which can be edited
/// there), the teams in starting order, every round with its pairings, seats, draws of lots and
/// results. Teams are referred to by their index in `teams`, from 0 (the starting number less
/// one). [`Tournament::from_json`] checks that a file holds together: team indexes, each team
/// once per round, seats that follow the preset, draws of lots that follow from the seed,
/// results that fit the scoring.
///
/// ```
/// use bughouse_core::Preset;
/// use bughouse_tournament::{Format, MatchRecord, Player, Team, Tournament};
///
/// let mut t = Tournament::new("Club night", Preset::Minerva2014, Format::RoundRobin, None, 7)?;
/// for (name, a, b) in [("Rooks", "Ann", "Bob"), ("Knights", "Cas", "Dirk"), ("Pawns", "Eva", "Fem")] {
///     t.add_team(Team::new(name, Player::new(a), Player::new(b)))?;
/// }
/// let round = t.pair_next_round()?;
/// assert_eq!(round.pairings.len(), 1);
/// assert!(round.bye.is_some());
/// // Board A 0-1: Black on board A is the home team's first-board player (M1.5).
/// let record = MatchRecord::Games { a: "0-1".parse()?, b: "*".parse()? };
/// let score = t.set_result(1, 1, record)?;
/// assert_eq!(score.home.match_points.to_string(), "1");
/// let json = t.to_json();
/// assert_eq!(Tournament::from_json(&json)?, t);
/// # Ok::<(), Box<dyn std::error::Error>>(())
/// ```
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
pub struct Tournament {
    version: u32,
    name: String,
    #[serde(with = "preset_id")]
    preset: Preset,
    format: Format,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    planned_rounds: Option<u32>,
    seed: u64,
    scoring: Scoring,
    teams: Vec<Team>,
    rounds: Vec<Round>,
    lots_drawn: u64,
}

impl Tournament {
    /// A new tournament with no teams. `rounds` is required for a Swiss; for a round robin it
    /// may cut the tournament short (default: every round of the Berger table). `seed` drives
    /// the knsb-1988 draws of lots.
    pub fn new(
        name: impl Into<String>,
        preset: Preset,
        format: Format,
        rounds: Option<u32>,
        seed: u64,
    ) -> Result<Tournament, TournamentError> {
        let name = name.into();
        if name.trim().is_empty() {
            return Err(TournamentError::EmptyName);
        }
        if preset == Preset::Crazyhouse {
            return Err(TournamentError::NotBughouse(preset));
        }
        match (format, rounds) {
            (_, Some(0)) => return Err(TournamentError::ZeroRounds),
            (Format::Swiss, None) => return Err(TournamentError::RoundsNeeded),
            _ => {}
        }
        Ok(Tournament {
            version: FILE_VERSION,
            name,
            preset,
            format,
            planned_rounds: rounds,
            seed,
            scoring: Scoring::for_preset(preset),
            teams: Vec::new(),
            rounds: Vec::new(),
            lots_drawn: 0,
        })
    }

    /// The name.
    pub fn name(&self) -> &str {
        &self.name
    }

    /// The rules preset.
    pub fn preset(&self) -> Preset {
        self.preset
    }

    /// The rules.
    pub fn rules(&self) -> Rules {
        self.preset.rules()
    }

    /// The format.
    pub fn format(&self) -> Format {
        self.format
    }

    /// The number of rounds asked for, if one was.
    pub fn planned_rounds(&self) -> Option<u32> {
        self.planned_rounds
    }

    /// The seed of the draws of lots.
    pub fn seed(&self) -> u64 {
        self.seed
    }

    /// How many draws of lots were made.
    pub fn lots_drawn(&self) -> u64 {
        self.lots_drawn
    }

    /// How results score.
    pub fn scoring(&self) -> &Scoring {
        &self.scoring
    }

    /// Changes how results score (match points for a win, draw and loss; the bye).
    pub fn set_scoring(&mut self, scoring: Scoring) -> Result<(), TournamentError> {
        if !scoring.is_valid() {
            return Err(TournamentError::InvalidScoring);
        }
        self.scoring = scoring;
        Ok(())
    }

    /// The teams, by [`TeamId`].
    pub fn teams(&self) -> &[Team] {
        &self.teams
    }

    /// A team.
    pub fn team(&self, id: TeamId) -> Option<&Team> {
        self.teams.get(id.0)
    }

    /// The team with this name (without case).
    pub fn find_team(&self, name: &str) -> Option<TeamId> {
        let name = name.trim().to_lowercase();
        self.teams
            .iter()
            .position(|t| t.name.trim().to_lowercase() == name)
            .map(TeamId)
    }

    /// The rounds paired so far.
    pub fn rounds(&self) -> &[Round] {
        &self.rounds
    }

    /// Round `number` (from 1).
    pub fn round(&self, number: u32) -> Option<&Round> {
        self.rounds.get((number as usize).checked_sub(1)?)
    }

    /// The number of rounds the tournament will have with the teams it has now.
    pub fn total_rounds(&self) -> u32 {
        match self.format {
            Format::Swiss => self.planned_rounds.unwrap_or(0),
            Format::RoundRobin | Format::DoubleRoundRobin => {
                self.planned_rounds.unwrap_or(self.berger_rounds())
            }
        }
    }

    fn berger_rounds(&self) -> u32 {
        let cycles = match self.format {
            Format::DoubleRoundRobin => 2,
            _ => 1,
        };
        (berger::rounds(self.teams.len()) * cycles) as u32
    }

    /// Whether every round is paired and every match has a result.
    pub fn is_finished(&self) -> bool {
        self.rounds.len() as u32 == self.total_rounds()
            && self.rounds.iter().all(Round::is_finished)
    }

    /// Adds a team; only before round 1 is paired (M1.4).
    pub fn add_team(&mut self, team: Team) -> Result<TeamId, TournamentError> {
        if !self.rounds.is_empty() {
            return Err(TournamentError::TeamsFixed);
        }
        self.check_team(&team, None)?;
        self.teams.push(team);
        Ok(TeamId(self.teams.len() - 1))
    }

    fn check_team(&self, team: &Team, own: Option<TeamId>) -> Result<(), TournamentError> {
        if team.name.trim().is_empty() {
            return Err(TournamentError::EmptyTeamName);
        }
        if team.first.name.trim().is_empty() || team.second.name.trim().is_empty() {
            return Err(TournamentError::EmptyPlayerName(team.name.clone()));
        }
        match self.find_team(&team.name) {
            Some(other) if Some(other) != own => {
                Err(TournamentError::DuplicateTeam(team.name.clone()))
            }
            _ => Ok(()),
        }
    }

    /// Pairs the next round, seats every match by the preset's rules and returns the round.
    ///
    /// A Swiss round is paired only when every match of the previous round has a result.
    pub fn pair_next_round(&mut self) -> Result<&Round, TournamentError> {
        let n = self.teams.len();
        if n < 2 {
            return Err(TournamentError::TooFewTeams(n));
        }
        let total = self.total_rounds();
        let number = self.rounds.len() as u32 + 1;
        if self.format != Format::Swiss {
            let max = self.berger_rounds();
            if total > max {
                return Err(TournamentError::TooManyRounds {
                    format: self.format,
                    teams: n,
                    planned: total,
                    max,
                });
            }
        }
        if number > total {
            return Err(TournamentError::AllRoundsPaired(total));
        }
        let (pairs, bye) = match self.format {
            Format::Swiss => {
                if let Some(last) = self.rounds.last() {
                    let tables: Vec<u32> = last
                        .pairings
                        .iter()
                        .filter(|p| p.result.is_none())
                        .map(|p| p.table)
                        .collect();
                    if !tables.is_empty() {
                        return Err(TournamentError::RoundNotFinished {
                            round: last.number,
                            tables,
                        });
                    }
                }
                let r = swiss::pair(&self.swiss_entrants(), total - number).map_err(|error| {
                    TournamentError::Pairing {
                        round: number,
                        error,
                    }
                })?;
                (r.pairs, r.bye)
            }
            Format::RoundRobin | Format::DoubleRoundRobin => {
                let r = berger::round(n, number as usize, self.format == Format::DoubleRoundRobin)
                    .ok_or(TournamentError::AllRoundsPaired(total))?;
                (r.pairs, r.bye)
            }
        };
        let mut pairings = Vec::with_capacity(pairs.len());
        for (i, (home, away)) in pairs.into_iter().enumerate() {
            let seating = self.seat(home, away);
            pairings.push(Pairing {
                table: i as u32 + 1,
                home,
                away,
                seating,
                result: None,
            });
        }
        self.rounds.push(Round {
            number,
            pairings,
            bye,
        });
        Ok(self.rounds.last().expect("a round was just added"))
    }

    /// The seats of a new match, by the preset (see [`crate::seating`]).
    fn seat(&mut self, home: TeamId, away: TeamId) -> Seating {
        match self.preset {
            Preset::Minerva2014 => Seating::minerva(),
            Preset::Knsb1988 => {
                let lot = Lot::draw(self.seed, self.lots_drawn);
                self.lots_drawn += 1;
                Seating::knsb(lot)
            }
            Preset::UscfScholastic2006 => Seating::uscf_default(),
            Preset::Fide | Preset::Crazyhouse => {
                Seating::fide(self.alternating_white(home), self.alternating_white(away))
            }
        }
    }

    /// fide: the first-board player has White when he has had White no more often than Black.
    fn alternating_white(&self, team: TeamId) -> Slot {
        let (mut whites, mut blacks) = (0u32, 0u32);
        for p in self.rounds.iter().flat_map(|r| &r.pairings) {
            let white = if p.home == team {
                p.seating.home_white
            } else if p.away == team {
                p.seating.away_white
            } else {
                continue;
            };
            match white {
                Slot::First => whites += 1,
                Slot::Second => blacks += 1,
            }
        }
        if whites <= blacks {
            Slot::First
        } else {
            Slot::Second
        }
    }

    /// The teams in Swiss pairing order: match points, game points, rating (unrated last),
    /// starting number.
    fn swiss_entrants(&self) -> Vec<Entrant> {
        let tallies = standings::tally(self);
        let mut ids: Vec<TeamId> = (0..self.teams.len()).map(TeamId).collect();
        ids.sort_by(|&a, &b| {
            let (ta, tb) = (&tallies[a.0], &tallies[b.0]);
            tb.match_points
                .cmp(&ta.match_points)
                .then(tb.game_points.cmp(&ta.game_points))
                .then(
                    rating_key(self.teams[b.0].rating()).cmp(&rating_key(self.teams[a.0].rating())),
                )
                .then(a.cmp(&b))
        });
        ids.into_iter()
            .map(|id| Entrant {
                id,
                score: tallies[id.0].match_points,
                met: self
                    .rounds
                    .iter()
                    .flat_map(|r| &r.pairings)
                    .filter_map(|p| p.opponent(id))
                    .collect(),
                byes: self.rounds.iter().filter(|r| r.bye == Some(id)).count() as u32,
                home: self
                    .rounds
                    .iter()
                    .map(|r| {
                        r.pairings
                            .iter()
                            .find(|p| p.involves(id))
                            .map(|p| p.home == id)
                    })
                    .collect(),
            })
            .collect()
    }

    fn locate(&self, round: u32, table: u32) -> Result<(usize, usize), TournamentError> {
        let r = self
            .round(round)
            .ok_or(TournamentError::NoSuchRound(round, self.rounds.len()))?;
        let i = r.pairings.iter().position(|p| p.table == table).ok_or(
            TournamentError::NoSuchTable {
                round,
                table,
                tables: r.pairings.len(),
            },
        )?;
        Ok((round as usize - 1, i))
    }

    /// Enters (or corrects) the result of the match at `table` of `round` and returns its
    /// score. In a Swiss, a round's results can change only until the next round is paired.
    pub fn set_result(
        &mut self,
        round: u32,
        table: u32,
        record: MatchRecord,
    ) -> Result<MatchScore, TournamentError> {
        let (r, i) = self.locate(round, table)?;
        if self.format == Format::Swiss && r + 1 < self.rounds.len() {
            return Err(TournamentError::RoundClosed {
                round,
                later: round + 1,
            });
        }
        let pairing = &mut self.rounds[r].pairings[i];
        let score = self.scoring.score(&record, &pairing.seating)?;
        pairing.result = Some(record);
        Ok(score)
    }

    /// uscf-scholastic-2006 (U3): `team` chooses which of its players has White at `table` of
    /// `round`; before the result is entered.
    pub fn set_white_choice(
        &mut self,
        round: u32,
        table: u32,
        team: TeamId,
        white: Slot,
    ) -> Result<&Pairing, TournamentError> {
        if self.preset != Preset::UscfScholastic2006 {
            return Err(TournamentError::NoChoice(self.preset));
        }
        let (r, i) = self.locate(round, table)?;
        let team_name = self.team(team).map_or_else(String::new, |t| t.name.clone());
        let pairing = &mut self.rounds[r].pairings[i];
        if pairing.result.is_some() {
            return Err(TournamentError::AlreadyPlayed { round, table });
        }
        let Basis::TeamChoice { mut home, mut away } = pairing.seating.basis else {
            return Err(TournamentError::Invalid(format!(
                "round {round} table {table} was not seated by team choice"
            )));
        };
        if pairing.home == team {
            pairing.seating.home_white = white;
            home = Choice::Entered;
        } else if pairing.away == team {
            pairing.seating.away_white = white;
            away = Choice::Entered;
        } else {
            return Err(TournamentError::NotInPairing {
                team: team_name,
                round,
                table,
            });
        }
        pairing.seating.basis = Basis::TeamChoice { home, away };
        Ok(pairing)
    }

    /// The score of a match, if it has a result.
    pub fn score(&self, pairing: &Pairing) -> Option<MatchScore> {
        let record = pairing.result.as_ref()?;
        self.scoring.score(record, &pairing.seating).ok()
    }

    /// The standings after the results entered so far.
    pub fn standings(&self) -> Vec<Standing> {
        standings::standings(self)
    }

    /// The tournament as pretty-printed JSON.
    pub fn to_json(&self) -> String {
        serde_json::to_string_pretty(self).expect("a tournament always serializes") + "\n"
    }

    /// Reads a tournament saved by [`Tournament::to_json`], checking that it holds together.
    pub fn from_json(text: &str) -> Result<Tournament, TournamentError> {
        #[derive(Deserialize)]
        struct Version {
            version: u32,
        }
        let v: Version =
            serde_json::from_str(text).map_err(|e| TournamentError::Json(e.to_string()))?;
        if v.version != FILE_VERSION {
            return Err(TournamentError::Version(v.version));
        }
        let t: Tournament =
            serde_json::from_str(text).map_err(|e| TournamentError::Json(e.to_string()))?;
        t.validate()?;
        Ok(t)
    }

    /// Checks a loaded tournament.
    fn validate(&self) -> Result<(), TournamentError> {
        let bad = |msg: String| Err(TournamentError::Invalid(msg));
        if self.name.trim().is_empty() {
            return Err(TournamentError::EmptyName);
        }
        if self.preset == Preset::Crazyhouse {
            return Err(TournamentError::NotBughouse(self.preset));
        }
        if self.planned_rounds == Some(0) {
            return Err(TournamentError::ZeroRounds);
        }
        if self.format == Format::Swiss && self.planned_rounds.is_none() {
            return Err(TournamentError::RoundsNeeded);
        }
        if !self.scoring.is_valid() {
            return Err(TournamentError::InvalidScoring);
        }
        for (i, team) in self.teams.iter().enumerate() {
            self.check_team(team, Some(TeamId(i)))?;
        }
        if self.rounds.len() as u32 > self.total_rounds() {
            return bad(format!(
                "{} rounds paired of {}",
                self.rounds.len(),
                self.total_rounds()
            ));
        }
        let n = self.teams.len();
        let mut draws = Vec::new();
        for (ri, round) in self.rounds.iter().enumerate() {
            if round.number as usize != ri + 1 {
                return bad(format!("round {} is numbered {}", ri + 1, round.number));
            }
            let mut seen = vec![false; n];
            let mut mark = |id: TeamId| -> Result<(), TournamentError> {
                match seen.get_mut(id.0) {
                    None => Err(TournamentError::Invalid(format!(
                        "round {}: no team {}",
                        round.number,
                        id.number()
                    ))),
                    Some(true) => Err(TournamentError::Invalid(format!(
                        "round {}: team {} plays twice",
                        round.number,
                        id.number()
                    ))),
                    Some(s) => {
                        *s = true;
                        Ok(())
                    }
                }
            };
            if let Some(bye) = round.bye {
                mark(bye)?;
            }
            for (pi, p) in round.pairings.iter().enumerate() {
                if p.table as usize != pi + 1 {
                    return bad(format!(
                        "round {}: table {} is numbered {}",
                        round.number,
                        pi + 1,
                        p.table
                    ));
                }
                mark(p.home)?;
                mark(p.away)?;
                if !p.seating.fits(self.preset) {
                    return bad(format!(
                        "round {} table {}: the seats do not follow {}",
                        round.number, p.table, self.preset
                    ));
                }
                if let Basis::Lot(lot) = p.seating.basis {
                    if lot != Lot::draw(self.seed, lot.draw) {
                        return bad(format!(
                            "round {} table {}: draw of lots {} does not follow from the seed",
                            round.number, p.table, lot.draw
                        ));
                    }
                    draws.push(lot.draw);
                }
                if let Some(record) = &p.result {
                    self.scoring.check(record)?;
                }
            }
        }
        draws.sort_unstable();
        if draws.windows(2).any(|w| w[0] == w[1])
            || draws.last().is_some_and(|&d| d >= self.lots_drawn)
        {
            return bad("the draws of lots are not numbered in order".to_owned());
        }
        Ok(())
    }
}

/// Ratings in descending order with unrated teams last.
pub(crate) fn rating_key(rating: Option<u32>) -> u64 {
    rating.map_or(0, |r| u64::from(r) + 1)
}
