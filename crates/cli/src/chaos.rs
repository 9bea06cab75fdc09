//! `bughouse chaos`: the options; the crash test is bughouse-loadtest's.

use std::process::ExitCode;

use bughouse_loadtest::chaos::{self, Config};

/// The options of `bughouse chaos`.
#[derive(clap::Args, Debug, Clone)]
pub struct Args {
    /// Matches played at once (four simulated players each).
    #[arg(long, default_value_t = 20)]
    matches: usize,
    /// How many times the server is killed (SIGKILL) and started again.
    #[arg(long, default_value_t = 10)]
    kills: usize,
    /// Time control of the matches, BASE+INC (`1+0`, `0.5+0`, `20s+0`): short, so that they
    /// end by mate or flag during the run.
    #[arg(long = "time", default_value = "1+0")]
    time: String,
    /// Rules preset of the matches.
    #[arg(long, default_value = "fide")]
    rules: String,
    /// The database of the server (default: a fresh SQLite database in a temporary directory).
    #[arg(long)]
    database: Option<String>,
    /// Seed of the random choices (kill moments, moves, thinking times); default random.
    #[arg(long)]
    seed: Option<u64>,
    /// Stop after this many seconds even if matches are still playing, and check what exists.
    #[arg(long, default_value_t = 900.0)]
    duration_max: f64,
}

/// Runs `bughouse chaos`.
pub fn main(args: Args) -> ExitCode {
    let config = Config {
        matches: args.matches,
        kills: args.kills,
        time: args.time,
        rules: args.rules,
        database: args.database,
        seed: args.seed,
        duration_max: args.duration_max,
    };
    match chaos::run(&config) {
        Ok(outcome) => {
            print!("{outcome}");
            if outcome.passed {
                ExitCode::SUCCESS
            } else {
                ExitCode::from(1)
            }
        }
        Err(e) => {
            eprintln!("error: {e}");
            ExitCode::from(2)
        }
    }
}
