//! `bughouse tournament`: run a team tournament kept in a JSON file.
//!
//! Every subcommand reads the file, does one thing and, if it changed anything, writes the
//! file back (to a temporary file first, then renamed over it). Errors go to standard error
//! as `error: ...` with exit status 2; nothing is written then.

use std::fmt::Write as _;
use std::io::{self, Write};
use std::path::{Path, PathBuf};
use std::process::ExitCode;

use bughouse_core::{BoardId, Preset};
use bughouse_tournament::{
    csv, Format, GameResult, MatchRecord, Pairing, Player, Round, Slot, Team, TeamId, Tournament,
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
    let text = std::fs::read_to_string(file)
        .map_err(|e| format!("cannot read {}: {e}", file.display()))?;
    Tournament::from_json(&text).map_err(|e| format!("{}: {e}", file.display()))
}

/// Writes the file through a temporary file renamed over it.
fn save(file: &Path, t: &Tournament) -> Result<(), String> {
    let mut tmp = file.as_os_str().to_owned();
    tmp.push(".tmp");
    let tmp = PathBuf::from(tmp);
    std::fs::write(&tmp, t.to_json())
        .and_then(|()| std::fs::rename(&tmp, file))
        .map_err(|e| {
            let _ = std::fs::remove_file(&tmp);
            format!("cannot write {}: {e}", file.display())
        })
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

fn player_text(p: &Player) -> String {
    match p.rating {
        Some(r) => format!("{} ({r})", p.name),
        None => p.name.clone(),
    }
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

fn team_name(t: &Tournament, id: TeamId) -> String {
    t.team(id)
        .map_or_else(|| format!("#{id}"), |tm| tm.name.clone())
}

fn pairing_text(t: &Tournament, p: &Pairing, out: &mut String) {
    let _ = writeln!(
        out,
        "Table {}: {} - {}",
        p.table,
        team_name(t, p.home),
        team_name(t, p.away)
    );
    for s in p.seats() {
        let player = t
            .team(s.team)
            .map_or_else(String::new, |tm| tm.player(s.slot).name.clone());
        let _ = writeln!(
            out,
            "  {:<7} {} ({}{})",
            s.seat.to_string(),
            player,
            team_name(t, s.team),
            if s.slot == Slot::First {
                ", first board"
            } else {
                ""
            }
        );
    }
    let _ = writeln!(out, "  colours: {}", csv::basis_text(&p.seating.basis));
    if let Some(record) = &p.result {
        let games = match (record.game(BoardId::A), record.game(BoardId::B)) {
            (Some(a), Some(b)) => format!("board A {a}, board B {b}: "),
            _ => String::new(),
        };
        match t.score(p) {
            Some(score) => {
                let _ = writeln!(
                    out,
                    "  result: {games}{} (match points {}-{}, game points {}-{})",
                    csv::result_text(t, p),
                    score.home.match_points,
                    score.away.match_points,
                    score.home.game_points,
                    score.away.game_points
                );
            }
            None => {
                let _ = writeln!(out, "  result: {record} (does not score under these rules)");
            }
        }
    }
}

fn round_text(t: &Tournament, r: &Round) -> String {
    let mut out = format!("Round {}\n", r.number);
    for p in &r.pairings {
        pairing_text(t, p, &mut out);
    }
    if let Some(bye) = r.bye {
        let s = t.scoring().bye_score();
        let _ = writeln!(
            out,
            "Bye: {} (match points {}, game points {})",
            team_name(t, bye),
            s.match_points,
            s.game_points
        );
    }
    out
}

fn standings_text(t: &Tournament) -> String {
    let rows: Vec<Vec<String>> = t
        .standings()
        .iter()
        .map(|s| {
            vec![
                s.rank_label(),
                team_name(t, s.team),
                s.match_points.to_string(),
                s.game_points.to_string(),
                s.buchholz.to_string(),
                s.sonneborn_berger.to_string(),
                s.direct_encounter
                    .map_or_else(|| "-".to_owned(), |d| d.to_string()),
                s.rating.map_or_else(|| "-".to_owned(), |r| r.to_string()),
                s.played.to_string(),
                s.won.to_string(),
                s.drawn.to_string(),
                s.lost.to_string(),
                s.byes.to_string(),
            ]
        })
        .collect();
    let header: Vec<String> = [
        "Rank", "Team", "MP", "GP", "Buchholz", "SB", "DE", "Rating", "Played", "W", "D", "L",
        "Byes",
    ]
    .map(str::to_owned)
    .to_vec();
    let widths: Vec<usize> = (0..header.len())
        .map(|c| {
            std::iter::once(&header)
                .chain(&rows)
                .map(|r| r[c].chars().count())
                .max()
                .unwrap_or(0)
        })
        .collect();
    let mut out = String::new();
    for row in std::iter::once(&header).chain(&rows) {
        let cells: Vec<String> = row
            .iter()
            .enumerate()
            .map(|(c, cell)| {
                let pad = widths[c] - cell.chars().count();
                if c == 1 {
                    format!("{cell}{}", " ".repeat(pad))
                } else {
                    format!("{}{cell}", " ".repeat(pad))
                }
            })
            .collect();
        out.push_str(cells.join("  ").trim_end());
        out.push('\n');
    }
    out
}

fn show(t: &Tournament) -> String {
    let mut out = String::new();
    let _ = writeln!(out, "{}", t.name());
    let _ = writeln!(out, "rules: {}", t.preset());
    let _ = writeln!(
        out,
        "format: {}, {} rounds ({} paired)",
        t.format(),
        t.total_rounds(),
        t.rounds().len()
    );
    let s = t.scoring();
    let _ = writeln!(
        out,
        "scoring: {}; match points {}/{}/{} for a win/draw/loss; a bye scores {}",
        if s.first_game_decides {
            "the first game to end decides the match"
        } else {
            "both games count"
        },
        s.win,
        s.draw,
        s.loss,
        s.bye
    );
    let _ = writeln!(out, "seed: {} ({} draws of lots)", t.seed(), t.lots_drawn());
    let _ = writeln!(out, "\nTeams");
    for (i, team) in t.teams().iter().enumerate() {
        let _ = writeln!(
            out,
            "{:>3}. {} ({} first board, {}){}",
            i + 1,
            team.name,
            player_text(&team.first),
            player_text(&team.second),
            team.rating()
                .map_or_else(String::new, |r| format!(", rating {r}"))
        );
    }
    for r in t.rounds() {
        out.push('\n');
        out.push_str(&round_text(t, r));
    }
    if !t.rounds().is_empty() {
        let _ = writeln!(out, "\nStandings");
        out.push_str(&standings_text(t));
    }
    out
}
