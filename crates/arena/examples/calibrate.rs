//! Calibrates the bot levels' published ratings: our bot at one level against our bot at
//! another (levels 1 to 8; neighbours, and two apart), matches in virtual time, then the ratings
//! fitted to the results (`bughouse_arena::elo`) with level 1 fixed at 800, and the published
//! column: the fit made non-decreasing (a level measured below the one before is pooled with
//! it, `elo::monotone`).
//!
//! ```sh
//! cargo run --release -p bughouse-arena --example calibrate -- \
//!     --time 10s+0 --rounds 36 --log crates/arena/examples/levels-10s.log
//! ```
//!
//! (`levels-10s.log` is the run behind `bughouse_engine::PUBLISHED_RATINGS`.)
//!
//! Each match is appended to the log as it ends (`round low high points_low points_high plies
//! wall_ms`); a run started again with the same log plays only what it lacks, so it may be
//! stopped and resumed. `--fit-only` prints the table from the log without playing. Rounds go
//! over every pair in turn (each pair's odd rounds seat the lower level as WhiteA + BlackB, its
//! even rounds as BlackA + WhiteB), so that a run stopped early has as many matches for every
//! pair, give or take one.

use std::collections::BTreeMap;
use std::fs::OpenOptions;
use std::io::Write;
use std::process::ExitCode;
use std::time::Instant;

use bughouse_arena::elo::{fit, monotone, Game};
use bughouse_arena::{Config, Spec};
use bughouse_core::{Preset, TimeControl};
use bughouse_engine::Level;

/// The pairs played: neighbours, then two apart.
const PAIRS: [(u8, u8); 13] = [
    (1, 2),
    (2, 3),
    (3, 4),
    (4, 5),
    (5, 6),
    (6, 7),
    (7, 8),
    (1, 3),
    (2, 4),
    (3, 5),
    (4, 6),
    (5, 7),
    (6, 8),
];

/// Level 1's rating: the anchor of the scale.
const ANCHOR: f64 = 800.0;

struct Args {
    time: TimeControl,
    rounds: u32,
    log: String,
    fit_only: bool,
}

fn args() -> Result<Args, String> {
    let mut out = Args {
        time: "10s+0".parse().map_err(|e| format!("{e}"))?,
        rounds: 20,
        log: "levels.log".to_owned(),
        fit_only: false,
    };
    let mut it = std::env::args().skip(1);
    while let Some(a) = it.next() {
        let mut value = || it.next().ok_or(format!("{a} needs a value"));
        match a.as_str() {
            "--time" => out.time = value()?.parse().map_err(|e| format!("--time: {e}"))?,
            "--rounds" => out.rounds = value()?.parse().map_err(|e| format!("--rounds: {e}"))?,
            "--log" => out.log = value()?,
            "--fit-only" => out.fit_only = true,
            _ => {
                return Err(format!(
                    "unknown argument {a:?}: --time T --rounds N --log FILE --fit-only"
                ))
            }
        }
    }
    Ok(out)
}

/// One logged match: the round and the pair, and the lower level's share of the points.
struct Logged {
    round: u32,
    pair: (u8, u8),
    score_low: f64,
}

fn read_log(path: &str) -> Result<Vec<Logged>, String> {
    let text = match std::fs::read_to_string(path) {
        Ok(t) => t,
        Err(e) if e.kind() == std::io::ErrorKind::NotFound => return Ok(Vec::new()),
        Err(e) => return Err(format!("{path}: {e}")),
    };
    let mut out = Vec::new();
    for (n, line) in text.lines().enumerate() {
        let f: Vec<&str> = line.split_whitespace().collect();
        let bad = || format!("{path}:{}: not a logged match: {line:?}", n + 1);
        if f.len() < 5 {
            return Err(bad());
        }
        let round: u32 = f[0].parse().map_err(|_| bad())?;
        let low: u8 = f[1].parse().map_err(|_| bad())?;
        let high: u8 = f[2].parse().map_err(|_| bad())?;
        let pl: f64 = f[3].parse().map_err(|_| bad())?;
        let ph: f64 = f[4].parse().map_err(|_| bad())?;
        // An unfinished match (no points) counts as a draw.
        let score_low = if pl + ph > 0.0 { pl / (pl + ph) } else { 0.5 };
        out.push(Logged {
            round,
            pair: (low, high),
            score_low,
        });
    }
    Ok(out)
}

fn play(args: &Args) -> Result<(), String> {
    let done: Vec<(u32, (u8, u8))> = read_log(&args.log)?
        .iter()
        .map(|l| (l.round, l.pair))
        .collect();
    let mut log = OpenOptions::new()
        .create(true)
        .append(true)
        .open(&args.log)
        .map_err(|e| format!("{}: {e}", args.log))?;
    for round in 1..=args.rounds {
        for (i, &(low, high)) in PAIRS.iter().enumerate() {
            if done.contains(&(round, (low, high))) {
                continue;
            }
            let level = |n| Level::new(n).ok_or(format!("no level {n}"));
            let config = Config {
                team1: Spec::bot(level(low)?),
                team2: Spec::bot(level(high)?),
                time: args.time,
                rules: Preset::Fide,
                seed: u64::from(round) * 100 + i as u64,
            };
            let started = Instant::now();
            let played = config.play(round, &|line| eprintln!("{line}"));
            let wall = started.elapsed().as_millis();
            let line = format!(
                "{round} {low} {high} {} {} {} {wall}",
                played.team1_points(),
                played.team2_points(),
                played.plies()
            );
            eprintln!("{line}");
            writeln!(log, "{line}").map_err(|e| format!("{}: {e}", args.log))?;
        }
    }
    Ok(())
}

fn report(args: &Args) -> Result<(), String> {
    let logged = read_log(&args.log)?;
    let games: Vec<Game> = logged
        .iter()
        .map(|l| Game {
            a: usize::from(l.pair.0 - 1),
            b: usize::from(l.pair.1 - 1),
            score_a: l.score_low,
        })
        .collect();
    let fitted = fit(8, &games, 0, ANCHOR).map_err(|e| e.to_string())?;
    let mut pairs: BTreeMap<(u8, u8), (u32, f64)> = BTreeMap::new();
    for l in &logged {
        let e = pairs.entry(l.pair).or_default();
        e.0 += 1;
        e.1 += l.score_low;
    }
    println!(
        "{} matches, time {}, rules fide, level 1 fixed at {ANCHOR}",
        logged.len(),
        args.time
    );
    println!("| pair | matches | lower level's score |");
    println!("|---|---:|---:|");
    for ((low, high), (n, score)) in &pairs {
        println!(
            "| {low}–{high} | {n} | {score:.1} ({:.0} %) |",
            100.0 * score / f64::from(*n)
        );
    }
    println!();
    let published = monotone(&fitted.iter().map(|f| f.rating).collect::<Vec<_>>());
    println!(
        "| level | rating | ± (one standard error, relative to level 1) | matches | published (never below the level before) |"
    );
    println!("|---|---:|---:|---:|---:|");
    for (i, f) in fitted.iter().enumerate() {
        let level = i as u8 + 1;
        let n: u32 = pairs
            .iter()
            .filter(|((a, b), _)| *a == level || *b == level)
            .map(|(_, (n, _))| n)
            .sum();
        println!(
            "| {level} | {:.0} | {:.0} | {n} | {:.0} |",
            f.rating, f.error, published[i]
        );
    }
    Ok(())
}

fn main() -> ExitCode {
    let args = match args() {
        Ok(a) => a,
        Err(e) => {
            eprintln!("error: {e}");
            return ExitCode::from(2);
        }
    };
    let done = if args.fit_only { Ok(()) } else { play(&args) };
    match done.and_then(|()| report(&args)) {
        Ok(()) => ExitCode::SUCCESS,
        Err(e) => {
            eprintln!("error: {e}");
            ExitCode::from(2)
        }
    }
}
