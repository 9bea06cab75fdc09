//! `bughouse replay`: replays every game of BPGN or PGN files and says, per game, whether the
//! record holds up and what result the moves alone reach.

use std::io::{self, IsTerminal, Write};
use std::path::PathBuf;
use std::time::Instant;

use bughouse_bpgn::{read_games, replay};
use bughouse_core::Rules;
use indicatif::{ProgressBar, ProgressStyle};

/// Totals of a replay run.
pub struct Totals {
    pub passed: usize,
    pub failed: usize,
}

/// Replays `files`, writing one line per game to `out`; a progress bar goes to standard error
/// when it is a terminal.
pub fn run(
    files: &[PathBuf],
    rules: Option<Rules>,
    time: bool,
    out: &mut impl Write,
) -> io::Result<Totals> {
    let mut totals = Totals {
        passed: 0,
        failed: 0,
    };
    let mut plies = 0usize;
    let start = Instant::now();
    let contents: Vec<(String, io::Result<Vec<u8>>)> = files
        .iter()
        .map(|f| (f.display().to_string(), std::fs::read(f)))
        .collect();
    let total_bytes: u64 = contents
        .iter()
        .map(|(_, c)| c.as_ref().map_or(0, |b| b.len() as u64))
        .sum();
    let bar = if io::stderr().is_terminal() {
        let bar = ProgressBar::new(total_bytes);
        bar.set_style(
            ProgressStyle::with_template("{bar:40} {bytes}/{total_bytes} {msg}")
                .unwrap_or_else(|_| ProgressStyle::default_bar()),
        );
        bar
    } else {
        ProgressBar::hidden()
    };
    for (name, content) in &contents {
        let bytes = match content {
            Ok(bytes) => bytes,
            Err(e) => {
                writeln!(out, "{name}: error: cannot read: {e}")?;
                totals.failed += 1;
                continue;
            }
        };
        bar.set_message(name.clone());
        for (i, game) in read_games(bytes).enumerate() {
            let n = i + 1;
            match game.map_err(|e| e.to_string()).and_then(|g| {
                plies += g.moves.len();
                replay(&g, rules).map_err(|e| e.to_string())
            }) {
                Ok(result) => {
                    totals.passed += 1;
                    writeln!(out, "{name}:{n}: ok {result}")?;
                }
                Err(message) => {
                    totals.failed += 1;
                    writeln!(out, "{name}:{n}: error: {message}")?;
                }
            }
        }
        bar.inc(bytes.len() as u64);
    }
    bar.finish_and_clear();
    if time {
        let secs = start.elapsed().as_secs_f64().max(1e-9);
        let games = totals.passed + totals.failed;
        eprintln!(
            "{games} games, {plies} plies in {secs:.3} s: {:.0} games per second, {:.0} plies per second",
            games as f64 / secs,
            plies as f64 / secs
        );
    }
    writeln!(out, "{} passed, {} failed", totals.passed, totals.failed)?;
    Ok(totals)
}
