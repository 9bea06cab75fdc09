//! The `bughouse` command line.

use std::io::{self, BufRead, Write};
use std::process::ExitCode;
use std::time::Instant;

use bughouse_core::{divide, perft, BoardGame, Position, Preset, Rules};
use clap::{Parser, Subcommand};

/// The allocator of every command (see Cargo.toml for why).
#[global_allocator]
static ALLOCATOR: mimalloc::MiMalloc = mimalloc::MiMalloc;

mod arena;
mod chaos;
mod loadtest;
mod replay;
mod tournament;
mod tune;

#[derive(Parser)]
#[command(
    name = "bughouse",
    version,
    about = "Bughouse chess: rules engine and tools"
)]
struct Cli {
    #[command(subcommand)]
    command: Command,
}

#[derive(Subcommand)]
enum Command {
    /// Count the leaves of the legal move tree to DEPTH. The last line is `nodes N`.
    Perft {
        /// Rules preset (see `bughouse rules`).
        #[arg(long, value_parser = parse_rules)]
        rules: Rules,
        /// Start position (default: the initial position with empty reserves).
        #[arg(long)]
        fen: Option<String>,
        /// Print each first move with its count.
        #[arg(long)]
        divide: bool,
        /// Print the time taken and leaves per second to standard error.
        #[arg(long)]
        time: bool,
        /// The depth in plies.
        depth: u32,
    },
    /// List the legal moves in UCI notation, one line per position.
    ///
    /// Without --fen, reads lines `FEN` or `FEN moves M1 M2 ...` from standard input.
    Moves {
        /// Rules preset (see `bughouse rules`).
        #[arg(long, value_parser = parse_rules)]
        rules: Rules,
        /// The position (default: read lines from standard input).
        #[arg(long)]
        fen: Option<String>,
    },
    /// Say whether the position is ongoing, checkmate, stalemate or waiting, and which draws
    /// the player to move may claim.
    ///
    /// Takes the same input as `moves`.
    Status {
        /// Rules preset (see `bughouse rules`).
        #[arg(long, value_parser = parse_rules)]
        rules: Rules,
        /// The position (default: read lines from standard input).
        #[arg(long)]
        fen: Option<String>,
    },
    /// Replay every game of BPGN or PGN files, checking every move, check mark and mate.
    ///
    /// Prints `FILE:N: ok RESULT` or `FILE:N: error: MESSAGE` per game and `N passed, M failed`
    /// last; exits with 1 if any game failed.
    Replay {
        /// Rules preset (default: fide for BPGN, crazyhouse for single-board PGN).
        #[arg(long, value_parser = parse_rules)]
        rules: Option<Rules>,
        /// Print games and plies per second to standard error.
        #[arg(long)]
        time: bool,
        /// BPGN or PGN files.
        #[arg(required = true)]
        files: Vec<std::path::PathBuf>,
    },
    /// Run the server: the lobby, live matches and the archive, with the web front end.
    Serve {
        /// Where to listen.
        #[arg(long, env = "BUGHOUSE_ADDR", default_value = "127.0.0.1:8080")]
        addr: std::net::SocketAddr,
        /// The database: `sqlite://PATH` or `postgres://USER:PASSWORD@HOST/DB`.
        #[arg(
            long,
            env = "BUGHOUSE_DATABASE",
            default_value = "sqlite://bughouse.db"
        )]
        database: String,
        /// Run as one node of a cluster: the Redis that relays between the nodes and holds
        /// who owns each match (`redis://HOST:PORT`); needs a PostgreSQL database. See
        /// docs/cluster.md.
        #[arg(long, env = "BUGHOUSE_BUS")]
        bus: Option<String>,
        /// This node's name in the cluster (letters, digits, `-`, `_`; unique per node);
        /// a random one if not given.
        #[arg(long, env = "BUGHOUSE_NODE_ID")]
        node_id: Option<String>,
    },
    /// Load-test a running server with simulated players (loopback only); see `--help`.
    Loadtest(loadtest::Args),
    /// Crash-test the server: start it, play matches with simulated players, kill it with
    /// SIGKILL at random moments and restart it, then check that no acknowledged move or result
    /// was lost, duplicated or changed; see `--help`.
    Chaos(chaos::Args),
    /// Run a team tournament kept in a JSON file: teams, pairings with seats, results,
    /// standings.
    Tournament {
        #[command(subcommand)]
        command: tournament::TournamentCommand,
    },
    /// Play N bughouse matches between two teams (our bot, outside UCI engines or outside
    /// XBoard engines with their partner talk) in virtual time; print a results table and
    /// `team1 S1 - S2 team2 (P%)` last.
    Arena(arena::Args),
    /// Tuning of the bot's evaluation weights: collect positions from arena games
    /// (`positions`), label them by an engine (`label`), fit the weights to them (`fit`), or
    /// tune them through play (`spsa`); `bot?eval=FILE` plays with them.
    Tune {
        #[command(subcommand)]
        command: tune::TuneCommand,
    },
    /// Run our engine as a UCI engine on standard input and output (variants bughouse and
    /// crazyhouse; positions with reserves as Fairy-Stockfish writes them).
    Uci,
    /// Run our engine as an XBoard (CECP v2) bughouse engine on standard input and output,
    /// with the partner protocol of FICS-style interfaces (`partner`, `holding`, `ptell`).
    Xboard,
    /// List the rules presets, or print every field of one.
    Rules {
        /// A preset id.
        preset: Option<String>,
    },
}

fn parse_rules(s: &str) -> Result<Rules, String> {
    s.parse::<Rules>().map_err(|e| e.to_string())
}

fn main() -> ExitCode {
    let cli = Cli::parse();
    match cli.command {
        Command::Perft {
            rules,
            fen,
            divide: split,
            time,
            depth,
        } => {
            let pos = match load(fen.as_deref(), rules) {
                Ok(pos) => pos,
                Err(e) => {
                    eprintln!("error: {e}");
                    return ExitCode::from(2);
                }
            };
            finish(run_perft(&pos, depth, split, time))
        }
        Command::Moves { rules, fen } => answer_lines(fen, rules, |game| {
            game.position()
                .legal_moves()
                .iter()
                .map(|m| m.to_string())
                .collect::<Vec<_>>()
                .join(" ")
        }),
        Command::Status { rules, fen } => answer_lines(fen, rules, |game| {
            let mut line = game.position().verdict().to_string();
            for claim in game.claims() {
                line.push_str(&format!(" claim:{claim}"));
            }
            line
        }),
        Command::Serve {
            addr,
            database,
            bus,
            node_id,
        } => serve(addr, database, bus, node_id),
        Command::Tournament { command } => tournament::run(command),
        Command::Loadtest(args) => loadtest::main(args),
        Command::Chaos(args) => chaos::main(args),
        Command::Arena(args) => arena::main(args),
        Command::Tune { command } => tune::run(command),
        Command::Uci => {
            bughouse_engine::uci::run(io::stdin().lock(), io::stdout());
            ExitCode::SUCCESS
        }
        Command::Xboard => {
            bughouse_engine::xboard::run(io::BufReader::new(io::stdin()), io::stdout());
            ExitCode::SUCCESS
        }
        Command::Replay { rules, time, files } => {
            let mut out = io::BufWriter::new(io::stdout().lock());
            match replay::run(&files, rules, time, &mut out).and_then(|t| out.flush().map(|()| t)) {
                Ok(totals) if totals.failed == 0 => ExitCode::SUCCESS,
                Ok(_) => ExitCode::from(1),
                Err(e) if e.kind() == io::ErrorKind::BrokenPipe => ExitCode::SUCCESS,
                Err(e) => {
                    eprintln!("error: {e}");
                    ExitCode::from(2)
                }
            }
        }
        Command::Rules { preset: None } => {
            let mut out = io::stdout().lock();
            finish(
                Preset::ALL
                    .iter()
                    .try_for_each(|p| writeln!(out, "{:<22}{}", p.id(), p.description()))
                    .and_then(|()| out.flush()),
            )
        }
        Command::Rules { preset: Some(name) } => match name.parse::<Preset>() {
            Ok(p) => {
                let mut out = io::stdout().lock();
                let result = writeln!(out, "preset = {}", p.id())
                    .and_then(|()| {
                        p.rules()
                            .describe()
                            .into_iter()
                            .try_for_each(|(field, value)| writeln!(out, "{field} = {value}"))
                    })
                    .and_then(|()| out.flush());
                finish(result)
            }
            Err(e) => {
                eprintln!("error: {e}");
                ExitCode::from(2)
            }
        },
    }
}

/// Prints `MOVE N` per first move when `split`, then `nodes N`; with `time`, the speed to
/// standard error.
fn run_perft(pos: &Position, depth: u32, split: bool, time: bool) -> io::Result<()> {
    let start = Instant::now();
    let mut out = io::stdout().lock();
    // `divide` at depth 0 has no first moves; the count is still 1, as without --divide.
    let nodes = if split && depth > 0 {
        let mut total = 0;
        for (m, n) in divide(pos, depth) {
            writeln!(out, "{m} {n}")?;
            total += n;
        }
        total
    } else {
        perft(pos, depth)
    };
    let secs = start.elapsed().as_secs_f64();
    writeln!(out, "nodes {nodes}")?;
    out.flush()?;
    if time {
        eprintln!(
            "time {secs:.3} s, {:.1} million leaves per second",
            nodes as f64 / secs.max(1e-9) / 1e6
        );
    }
    Ok(())
}

/// The exit status after writing a subcommand's answer. A closed pipe (`bughouse ... | head`)
/// ends the output early without being an error of ours.
fn finish<T>(result: io::Result<T>) -> ExitCode {
    match result {
        Ok(_) => ExitCode::SUCCESS,
        Err(e) if e.kind() == io::ErrorKind::BrokenPipe => ExitCode::SUCCESS,
        Err(e) => {
            eprintln!("error: {e}");
            ExitCode::from(2)
        }
    }
}

fn load(fen: Option<&str>, rules: Rules) -> Result<Position, bughouse_core::fen::FenError> {
    match fen {
        Some(fen) => Position::from_fen(fen, rules),
        None => Ok(Position::new(rules)),
    }
}

/// Reads `FEN` or `FEN moves M1 M2 ...` and plays the moves.
fn game_from_line(line: &str, rules: Rules) -> Result<BoardGame, String> {
    let (fen, moves) = match line.find(" moves") {
        Some(i) if line[i + 6..].is_empty() || line[i + 6..].starts_with(char::is_whitespace) => {
            (&line[..i], Some(&line[i + 6..]))
        }
        _ => (line, None),
    };
    let fen = fen.trim();
    let pos = if fen == "startpos" {
        Position::new(rules)
    } else {
        Position::from_fen(fen, rules).map_err(|e| e.to_string())?
    };
    let mut game = BoardGame::new(pos);
    for (i, token) in moves.unwrap_or("").split_whitespace().enumerate() {
        let m = game
            .position()
            .parse_uci(token)
            .map_err(|e| format!("move {} ({token}): {e}", i + 1))?;
        game.play(m).map_err(|e| e.to_string())?;
    }
    Ok(game)
}

fn answer_lines(
    fen: Option<String>,
    rules: Rules,
    answer: impl Fn(&BoardGame) -> String,
) -> ExitCode {
    let mut failed = false;
    let mut out = io::stdout().lock();
    let mut respond = |line: &str| -> io::Result<()> {
        match game_from_line(line, rules) {
            Ok(game) => writeln!(out, "{}", answer(&game)),
            Err(e) => {
                failed = true;
                writeln!(out, "error: {e}")
            }
        }?;
        out.flush()
    };
    let result = match fen {
        Some(fen) => respond(&fen),
        None => {
            let stdin = io::stdin().lock();
            let mut result = Ok(());
            // Lines are read as bytes so that a line that is not UTF-8 gets an error answer
            // instead of ending the run.
            for line in stdin.split(b'\n') {
                let line = match line {
                    Ok(line) => String::from_utf8_lossy(&line).into_owned(),
                    Err(e) => {
                        result = Err(e);
                        break;
                    }
                };
                if line.trim().is_empty() {
                    continue;
                }
                if let Err(e) = respond(line.trim_end_matches('\r')) {
                    result = Err(e);
                    break;
                }
            }
            result
        }
    };
    if let Err(e) = result {
        if e.kind() != io::ErrorKind::BrokenPipe {
            eprintln!("error: {e}");
            return ExitCode::from(2);
        }
    }
    if failed {
        ExitCode::from(1)
    } else {
        ExitCode::SUCCESS
    }
}

/// The open-file limit `serve` asks for.
const OPEN_FILES: u64 = 65_536;

fn serve(
    addr: std::net::SocketAddr,
    database: String,
    bus: Option<String>,
    node_id: Option<String>,
) -> ExitCode {
    tracing_subscriber::fmt()
        .with_env_filter(
            tracing_subscriber::EnvFilter::try_from_default_env()
                .unwrap_or_else(|_| tracing_subscriber::EnvFilter::new("info")),
        )
        .with_writer(io::stderr)
        .init();
    // Every websocket is a file descriptor: allow 65,536 (20,000 players' connections and
    // room to spare) where the process may raise its hard limit, else as many as the hard limit.
    if rlimit::getrlimit(rlimit::Resource::NOFILE).is_ok_and(|(_, hard)| hard < OPEN_FILES) {
        let _ = rlimit::setrlimit(rlimit::Resource::NOFILE, OPEN_FILES, OPEN_FILES);
    }
    match rlimit::increase_nofile_limit(u64::MAX) {
        Ok(n) if n < OPEN_FILES => eprintln!(
            "warning: at most {n} open files (each websocket is one); raise the hard limit \
             (ulimit -Hn, LimitNOFILE=) for more connections"
        ),
        Ok(_) => {}
        Err(e) => eprintln!("warning: cannot raise the open-file limit: {e}"),
    }
    let runtime = match tokio::runtime::Runtime::new() {
        Ok(rt) => rt,
        Err(e) => {
            eprintln!("error: cannot start the runtime: {e}");
            return ExitCode::from(2);
        }
    };
    eprintln!("bughouse server on http://{addr}/ (database {database})");
    match runtime.block_on(bughouse_server::run(bughouse_server::Config {
        addr,
        database,
        bus,
        node_id,
    })) {
        Ok(()) => ExitCode::SUCCESS,
        Err(e) => {
            eprintln!("error: {e}");
            ExitCode::from(2)
        }
    }
}
