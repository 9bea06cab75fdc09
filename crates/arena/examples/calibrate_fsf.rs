//! Ties the bot levels' ratings to an outside reference: Fairy-Stockfish 11.1 (Debian) at
//! several `Skill Level`s. Fits one Elo scale to the levels' matches against each other (the
//! log of `examples/calibrate.rs`) and to matches of levels against Fairy-Stockfish (a results
//! file), level 1 fixed at 800 as for the published ratings, and prints each Fairy-Stockfish
//! skill's rating on that scale and each level's rating relative to Fairy-Stockfish at full
//! strength.
//!
//! ```sh
//! cargo run --release -p bughouse-arena --example calibrate_fsf -- \
//!     crates/arena/examples/levels-10s.log crates/arena/examples/levels-fsf-10s.txt
//! ```
//!
//! The results file has one line per match, `LEVEL SKILL SCORE` (the level's points, 1, ½ or
//! 0; skill 20 is full strength), `#` starting a comment; its matches are played with
//! `bughouse arena --team1 bot:LEVEL --team2 'fairy-stockfish?Skill Level=SKILL' --time 10s+0`.

use std::collections::BTreeMap;
use std::process::ExitCode;

use bughouse_arena::elo::{fit, Game};

const ANCHOR: f64 = 800.0;

fn run(levels_log: &str, fsf_results: &str) -> Result<(), String> {
    let read = |p: &str| std::fs::read_to_string(p).map_err(|e| format!("{p}: {e}"));
    let mut games = Vec::new();
    for line in read(levels_log)?.lines() {
        let w: Vec<&str> = line.split_whitespace().collect();
        if w.len() < 5 {
            continue;
        }
        let num = |s: &str| {
            s.parse::<f64>()
                .map_err(|_| format!("{levels_log}: {line:?}"))
        };
        let (low, high, score) = (num(w[1])?, num(w[2])?, num(w[3])?);
        games.push(Game {
            a: low as usize - 1,
            b: high as usize - 1,
            score_a: score,
        });
    }
    // Fairy-Stockfish skills are players 8, 9, ...
    let mut skills: BTreeMap<u32, usize> = BTreeMap::new();
    let mut tally: BTreeMap<(u32, u32), (u32, f64)> = BTreeMap::new();
    let mut fsf_games = Vec::new();
    for line in read(fsf_results)?.lines() {
        let line = line.split('#').next().unwrap_or("").trim();
        if line.is_empty() {
            continue;
        }
        let w: Vec<&str> = line.split_whitespace().collect();
        let bad = || format!("{fsf_results}: {line:?}: expected LEVEL SKILL SCORE");
        if w.len() != 3 {
            return Err(bad());
        }
        let level: u32 = w[0].parse().map_err(|_| bad())?;
        let skill: u32 = w[1].parse().map_err(|_| bad())?;
        let score: f64 = w[2].parse().map_err(|_| bad())?;
        if !(1..=8).contains(&level) {
            return Err(bad());
        }
        let n = skills.len();
        skills.entry(skill).or_insert(8 + n);
        fsf_games.push((level, skill, score));
        let t = tally.entry((level, skill)).or_default();
        t.0 += 1;
        t.1 += score;
    }
    for (level, skill, score) in fsf_games {
        games.push(Game {
            a: level as usize - 1,
            b: skills[&skill],
            score_a: score,
        });
    }
    let players = 8 + skills.len();
    let fitted = fit(players, &games, 0, ANCHOR).map_err(|e| e.to_string())?;
    println!("| level | Fairy-Stockfish Skill Level | matches | level's score |");
    println!("|---:|---:|---:|---:|");
    for ((level, skill), (n, s)) in &tally {
        println!(
            "| {level} | {skill} | {n} | {s} ({:.0} %) |",
            100.0 * s / f64::from(*n)
        );
    }
    println!();
    println!("| player | rating (level 1 = {ANCHOR}) | ± |");
    println!("|---|---:|---:|");
    for (skill, &i) in &skills {
        println!(
            "| Fairy-Stockfish, Skill Level {skill} | {:.0} | {:.0} |",
            fitted[i].rating, fitted[i].error
        );
    }
    for (i, f) in fitted.iter().take(8).enumerate() {
        println!("| level {} | {:.0} | {:.0} |", i + 1, f.rating, f.error);
    }
    if let Some(&full) = skills.get(&20) {
        println!();
        println!("Relative to Fairy-Stockfish at full strength (Skill Level 20):");
        for (i, f) in fitted.iter().take(8).enumerate() {
            println!("level {}: {:+.0}", i + 1, f.rating - fitted[full].rating);
        }
    }
    Ok(())
}

fn main() -> ExitCode {
    let args: Vec<String> = std::env::args().skip(1).collect();
    let [levels, fsf] = args.as_slice() else {
        eprintln!("usage: calibrate_fsf LEVELS_LOG FSF_RESULTS");
        return ExitCode::from(2);
    };
    match run(levels, fsf) {
        Ok(()) => ExitCode::SUCCESS,
        Err(e) => {
            eprintln!("error: {e}");
            ExitCode::from(2)
        }
    }
}
