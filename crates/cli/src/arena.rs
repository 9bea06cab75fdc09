//! `bughouse arena`: the options, the BPGN file, the progress bar and the table; the matches
//! are played by bughouse-arena.

use std::fs::File;
use std::io::{self, IsTerminal, Write};
use std::path::PathBuf;
use std::process::ExitCode;
use std::time::Instant;

use bughouse_arena::{arena_preset, points, write_results, Config, Spec};
use bughouse_core::{Preset, TimeControl};
use indicatif::{ProgressBar, ProgressStyle};

/// Options of `bughouse arena`.
#[derive(clap::Args)]
pub struct Args {
    /// Team 1: `bot[:LEVEL]` (our engine), `uci:PATH` (an outside UCI engine that knows
    /// bughouse, one process per board), `xboard:PATH` (an outside XBoard bughouse engine, one
    /// process per board, partners talking), `fairy-stockfish` or `fairy-stockfish-xboard`.
    #[arg(long, value_parser = str::parse::<Spec>)]
    team1: Spec,
    /// Team 2, as team 1.
    #[arg(long, value_parser = str::parse::<Spec>)]
    team2: Spec,
    /// How many matches to play.
    #[arg(long, default_value_t = 2, value_parser = clap::value_parser!(u32).range(1..=100_000))]
    matches: u32,
    /// Time control: MINUTES+SECONDS like `1+0` or `3+2`, or SECONDSs+SECONDS like `90s+2`.
    #[arg(long, default_value = "1+0")]
    time: TimeControl,
    /// Rules preset (see `bughouse rules`); crazyhouse is a one-board game and is refused.
    #[arg(long, default_value = "fide", value_parser = arena_preset)]
    rules: Preset,
    /// Write every match as BPGN to this file.
    #[arg(long)]
    out: Option<PathBuf>,
    /// Seed of our bots' random choices (each seat of each match gets its own, derived from it).
    #[arg(long, default_value_t = 1)]
    seed: u64,
}

/// Runs `bughouse arena`.
pub fn main(args: Args) -> ExitCode {
    let config = Config {
        team1: args.team1,
        team2: args.team2,
        time: args.time,
        rules: args.rules,
        seed: args.seed,
    };
    // Every outside engine must start and know bughouse before anything is played.
    if let Err(e) = config.check_engines() {
        eprintln!("error: {e}");
        return ExitCode::from(2);
    }
    let mut out = match &args.out {
        Some(path) => match File::create(path) {
            Ok(f) => Some(io::BufWriter::new(f)),
            Err(e) => {
                eprintln!("error: cannot create {}: {e}", path.display());
                return ExitCode::from(2);
            }
        },
        None => None,
    };
    let bar = if io::stderr().is_terminal() {
        let bar = ProgressBar::new(u64::from(args.matches));
        bar.set_style(
            ProgressStyle::with_template("{bar:40} {pos}/{len} matches {elapsed} {msg}")
                .unwrap_or_else(|_| ProgressStyle::default_bar()),
        );
        bar
    } else {
        ProgressBar::hidden()
    };
    let report = |line: String| bar.suspend(|| eprintln!("{line}"));
    let started = Instant::now();
    let mut played = Vec::new();
    let (mut score1, mut score2) = (0.0f64, 0.0f64);
    for number in 1..=args.matches {
        let p = config.play(number, &report);
        score1 += f64::from(p.team1_points());
        score2 += f64::from(p.team2_points());
        if let Some(out) = out.as_mut() {
            let text = p.bpgn(&config);
            if let Err(e) = out.write_all(text.as_bytes()).and_then(|()| out.flush()) {
                bar.finish_and_clear();
                eprintln!("error: cannot write the BPGN file: {e}");
                return ExitCode::from(2);
            }
        }
        bar.set_message(format!(
            "team1 {} - {} team2",
            points(score1),
            points(score2)
        ));
        bar.inc(1);
        played.push(p);
    }
    bar.finish_and_clear();
    let wall = started.elapsed();
    let mut stdout = io::stdout().lock();
    let result = write_results(&mut stdout, &config, &played, wall);
    match result.and_then(|()| stdout.flush()) {
        Ok(()) => ExitCode::SUCCESS,
        Err(e) if e.kind() == io::ErrorKind::BrokenPipe => ExitCode::SUCCESS,
        Err(e) => {
            eprintln!("error: {e}");
            ExitCode::from(2)
        }
    }
}
