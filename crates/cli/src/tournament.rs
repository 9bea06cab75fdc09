//! `bughouse tournament`: run a team tournament kept in a JSON file.
//!
//! Every subcommand reads the file, does one thing and, if it changed anything, writes the
//! file back (to a temporary file first, then renamed over it). Errors go to standard error
//! as `error: ...` with exit status 2; nothing is written then.

use std::io::{self, Write};
use std::path::{Path, PathBuf};
use std::process::ExitCode;

use bughouse_core::Preset;
use bughouse_tournament::text::{
    pairing_text, player_text, round_text, show, standings_text, team_name,
};
use bughouse_tournament::{
    csv, Format, GameResult, MatchRecord, Player, Slot, Team, TeamId, Tournament,
};
use clap::Subcommand;

/// The subcommands of `bughouse tournament`.
#[derive(Subcommand)]
pub enum TournamentCommand {
    /// Create a tournament file (refuses to overwrite one without --force).
    New {
        /// The tournament file (JSON).
        file: PathBuf,
        /// The tournament's name.
        #[arg(long)]
        name: String,
        /// Rules preset: fide, minerva-2014, knsb-1988 or uscf-scholastic-2006.
        #[arg(long, value_parser = parse_preset)]
        rules: Preset,
        /// swiss, round-robin or double-round-robin.
        #[arg(long, value_parser = parse_format)]
        format: Format,
        /// Number of rounds: required for swiss; for a round robin, cuts it short.
        #[arg(long)]
        rounds: Option<u32>,
        /// Seed of the knsb-1988 draws of lots (default: from the clock; printed).
        #[arg(long)]
        seed: Option<u64>,
        /// Overwrite an existing file.
        #[arg(long)]
        force: bool,
    },
    /// Add a team (before round 1 is paired).
    AddTeam {
        /// The tournament file.
        file: PathBuf,
        /// The team's name.
        #[arg(long)]
        name: String,
        /// The first-board player, fixed for the tournament (M1.3, M1.4).
        #[arg(long)]
        first: String,
        /// The partner.
        #[arg(long)]
        second: String,
        /// The first-board player's rating.
        #[arg(long)]
        rating1: Option<u32>,
        /// The partner's rating.
        #[arg(long)]
        rating2: Option<u32>,
    },
    /// Pair the next round and print it with the seats.
    Pair {
        /// The tournament file.
        file: PathBuf,
    },
    /// Enter the result of a match: both games, or the match result.
    ///
    /// Games are given from their board's White side: 1-0, 0-1, 1/2-1/2, or * for a game
    /// stopped because the match ended on the other board (a board left out is *). A match
    /// result is from the home (first-named) team's side: 1-0, 0-1, 1/2-1/2, or a forfeit:
    /// +- (the away team forfeits), -+ (the home team forfeits), -- (both).
    Result {
        /// The tournament file.
        file: PathBuf,
        /// The round.
        #[arg(long)]
        round: u32,
        /// The table.
        #[arg(long)]
        table: u32,
        /// The game on board A.
        #[arg(long, value_name = "RESULT", value_parser = parse_game, allow_hyphen_values = true)]
        board_a: Option<GameResult>,
        /// The game on board B.
        #[arg(long, value_name = "RESULT", value_parser = parse_game, allow_hyphen_values = true)]
        board_b: Option<GameResult>,
        /// The match result from the home team's side, or a forfeit (+-, -+, --).
        #[arg(long = "match", value_name = "RESULT", value_parser = parse_match, allow_hyphen_values = true,
              conflicts_with_all = ["board_a", "board_b"])]
        match_result: Option<MatchRecord>,
    },
    /// uscf-scholastic-2006 (U3): enter which player of a team has White in a match.
    Choose {
        /// The tournament file.
        file: PathBuf,
        /// The round.
        #[arg(long)]
        round: u32,
        /// The table.
        #[arg(long)]
        table: u32,
        /// The team: its name or starting number.
        #[arg(long)]
        team: String,
        /// The player with White: first or second.
        #[arg(long, value_parser = parse_slot)]
        white: Slot,
    },
    /// Print the standings.
    Standings {
        /// The tournament file.
        file: PathBuf,
        /// As CSV.
        #[arg(long)]
        csv: bool,
    },
    /// Print the pairings of one round or of all, with seats and results.
    Pairings {
        /// The tournament file.
        file: PathBuf,
        /// Only this round.
        #[arg(long)]
        round: Option<u32>,
        /// As CSV.
        #[arg(long)]
        csv: bool,
    },
    /// Print the tournament: settings, teams, rounds and standings.
    Show {
        /// The tournament file.
        file: PathBuf,
    },
}

fn parse_preset(s: &str) -> Result<Preset, String> {
    s.parse::<Preset>().map_err(|e| e.to_string())
}

fn parse_format(s: &str) -> Result<Format, String> {
    s.parse::<Format>().map_err(|e| e.to_string())
}

fn parse_game(s: &str) -> Result<GameResult, String> {
    s.parse::<GameResult>().map_err(|e| e.to_string())
}

fn parse_match(s: &str) -> Result<MatchRecord, String> {
    MatchRecord::parse_match(s).map_err(|e| e.to_string())
}

fn parse_slot(s: &str) -> Result<Slot, String> {
    s.parse::<Slot>().map_err(|e| e.to_string())
}

/// Runs a `bughouse tournament` subcommand.
pub fn run(command: TournamentCommand) -> ExitCode {
    let result = match command {
        TournamentCommand::New {
            file,
            name,
            rules,
            format,
            rounds,
            seed,
            force,
        } => new(&file, name, rules, format, rounds, seed, force),
        TournamentCommand::AddTeam {
            file,
            name,
            first,
            second,
            rating1,
            rating2,
        } => add_team(&file, name, first, second, rating1, rating2),
        TournamentCommand::Pair { file } => pair(&file),
        TournamentCommand::Result {
            file,
            round,
            table,
            board_a,
            board_b,
            match_result,
        } => enter_result(&file, round, table, board_a, board_b, match_result),
        TournamentCommand::Choose {
            file,
            round,
            table,
            team,
            white,
        } => choose(&file, round, table, &team, white),
        TournamentCommand::Standings { file, csv: as_csv } => load(&file).map(|t| {
            if as_csv {
                csv::standings_csv(&t)
            } else {
                standings_text(&t)
            }
        }),
        TournamentCommand::Pairings {
            file,
            round,
            csv: as_csv,
        } => load(&file).and_then(|t| {
            if let Some(n) = round {
                if t.round(n).is_none() {
                    return Err(format!(
                        "there is no round {n} (rounds paired: {})",
                        t.rounds().len()
                    ));
                }
            }
            Ok(if as_csv {
                csv::pairings_csv(&t, round)
            } else {
                let mut out = String::new();
                for r in t.rounds() {
                    if round.is_none_or(|n| n == r.number) {
                        out.push_str(&round_text(&t, r));
                    }
                }
                if out.is_empty() {
                    out.push_str("no round is paired yet\n");
                }
                out
            })
        }),
        TournamentCommand::Show { file } => load(&file).map(|t| show(&t)),
    };
    match result {
        Ok(text) => {
            let mut out = io::stdout().lock();
            match out.write_all(text.as_bytes()).and_then(|()| out.flush()) {
                Ok(()) => ExitCode::SUCCESS,
                Err(e) if e.kind() == io::ErrorKind::BrokenPipe => ExitCode::SUCCESS,
                Err(e) => {
                    eprintln!("error: {e}");
                    ExitCode::from(2)
                }
            }
        }
        Err(e) => {
            eprintln!("error: {e}");
            ExitCode::from(2)
        }
    }
}

fn load(file: &Path) -> Result<Tournament, String> {
    Tournament::load(file).map_err(|e| e.to_string())
}

fn save(file: &Path, t: &Tournament) -> Result<(), String> {
    t.save(file).map_err(|e| e.to_string())
}

fn new(
    file: &Path,
    name: String,
    rules: Preset,
    format: Format,
    rounds: Option<u32>,
    seed: Option<u64>,
    force: bool,
) -> Result<String, String> {
    if !force && file.exists() {
        return Err(format!(
            "{} exists; use --force to overwrite it",
            file.display()
        ));
    }
    let seed = seed.unwrap_or_else(clock_seed);
    let t = Tournament::new(name, rules, format, rounds, seed).map_err(|e| e.to_string())?;
    save(file, &t)?;
    let rounds = match (format, rounds) {
        (_, Some(r)) => format!("{r} rounds"),
        _ => "every round".to_owned(),
    };
    Ok(format!(
        "created {}: {}, {}, {}, {rounds}, seed {seed}\n",
        file.display(),
        t.name(),
        rules,
        format
    ))
}

/// A seed from the clock and the process id, for when none is given.
fn clock_seed() -> u64 {
    let nanos = std::time::SystemTime::now()
        .duration_since(std::time::UNIX_EPOCH)
        .map_or(0, |d| d.as_nanos() as u64);
    nanos ^ (u64::from(std::process::id()) << 32)
}

fn add_team(
    file: &Path,
    name: String,
    first: String,
    second: String,
    rating1: Option<u32>,
    rating2: Option<u32>,
) -> Result<String, String> {
    let mut t = load(file)?;
    let team = Team::new(
        name,
        Player {
            name: first,
            rating: rating1,
        },
        Player {
            name: second,
            rating: rating2,
        },
    );
    let id = t.add_team(team).map_err(|e| e.to_string())?;
    save(file, &t)?;
    let team = &t.teams()[id.0];
    Ok(format!(
        "team {}: {} ({} first board, {})\n",
        id.number(),
        team.name,
        player_text(&team.first),
        player_text(&team.second)
    ))
}

fn pair(file: &Path) -> Result<String, String> {
    let mut t = load(file)?;
    let number = t.pair_next_round().map_err(|e| e.to_string())?.number;
    save(file, &t)?;
    let round = t.round(number).expect("the round was just paired");
    Ok(round_text(&t, round))
}

fn enter_result(
    file: &Path,
    round: u32,
    table: u32,
    board_a: Option<GameResult>,
    board_b: Option<GameResult>,
    match_result: Option<MatchRecord>,
) -> Result<String, String> {
    let mut t = load(file)?;
    let record = match (match_result, board_a, board_b) {
        (Some(m), _, _) => m,
        (None, None, None) => {
            return Err(
                "give the games (--board-a, --board-b) or the match result (--match)".into(),
            )
        }
        (None, a, b) => MatchRecord::Games {
            a: a.unwrap_or(GameResult::Stopped),
            b: b.unwrap_or(GameResult::Stopped),
        },
    };
    let score = t
        .set_result(round, table, record)
        .map_err(|e| e.to_string())?;
    save(file, &t)?;
    let p = t
        .round(round)
        .and_then(|r| r.table(table))
        .expect("the result was just entered");
    Ok(format!(
        "round {round} table {table}: {} - {}: {}; match points {}-{}, game points {}-{}\n",
        team_name(&t, p.home),
        team_name(&t, p.away),
        record,
        score.home.match_points,
        score.away.match_points,
        score.home.game_points,
        score.away.game_points
    ))
}

fn choose(file: &Path, round: u32, table: u32, team: &str, white: Slot) -> Result<String, String> {
    let mut t = load(file)?;
    let id = t
        .find_team(team)
        .or_else(|| {
            team.parse::<usize>()
                .ok()
                .filter(|&n| n >= 1 && n <= t.teams().len())
                .map(|n| TeamId(n - 1))
        })
        .ok_or_else(|| format!("there is no team {team:?}"))?;
    t.set_white_choice(round, table, id, white)
        .map_err(|e| e.to_string())?;
    save(file, &t)?;
    let p = t
        .round(round)
        .and_then(|r| r.table(table))
        .expect("the choice was just entered");
    let mut out = String::new();
    pairing_text(&t, p, &mut out);
    Ok(out)
}
