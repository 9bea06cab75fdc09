//! `bughouse tune`: Texel tuning of the evaluation weights (the logic is in bughouse-tune).

use std::path::PathBuf;
use std::process::ExitCode;

use bughouse_arena::{Config, Spec};
use bughouse_core::{Preset, Rules, TimeControl};
use bughouse_engine::EvalParams;
use bughouse_tune::{
    fit, label, pick, read_samples, samples_from_bpgn, samples_from_pgn, selfplay, write_samples,
    Fitter, LabelConfig,
};
use clap::Subcommand;

/// The steps of `bughouse tune`.
#[derive(Subcommand)]
pub enum TuneCommand {
    /// Collect positions with their match results from arena records (`--bpgn`, as `bughouse
    /// arena --out` writes them) and/or from self-play matches played now (`--selfplay N`),
    /// and write them as `RESULT FEN` lines.
    Positions {
        /// BPGN files of arena matches (fide rules).
        #[arg(long)]
        bpgn: Vec<PathBuf>,
        /// Crazyhouse PGN files (single-board games; for `bughouse tune label`, which does not
        /// use their results).
        #[arg(long)]
        pgn: Vec<PathBuf>,
        /// Take the positions of both boards of every match, decided or not (for `bughouse
        /// tune label`), not only the deciding board's.
        #[arg(long)]
        every_board: bool,
        /// Play this many matches of `--team1` against `--team2` now and use them too.
        #[arg(long, default_value_t = 0)]
        selfplay: u32,
        /// Team 1 of the self-play matches (any arena SPEC).
        #[arg(long, default_value = "bot", value_parser = str::parse::<Spec>)]
        team1: Spec,
        /// Team 2 of the self-play matches.
        #[arg(long, default_value = "bot", value_parser = str::parse::<Spec>)]
        team2: Spec,
        /// Time control of the self-play matches.
        #[arg(long, default_value = "5s+0")]
        time: TimeControl,
        /// Seed of the self-play matches' bots.
        #[arg(long, default_value_t = 1)]
        seed: u64,
        /// Also write the self-play matches as BPGN here.
        #[arg(long)]
        games_out: Option<PathBuf>,
        /// Where to write the positions.
        #[arg(long)]
        out: PathBuf,
    },
    /// Replace the results of a positions file by an engine's judgement: each quiet position
    /// (those `fit` uses) gets White's expected score from a UCI engine's search of `--nodes`
    /// nodes, `1 / (1 + 10^(-score / --scale))`. A fit to these labels teaches the evaluation
    /// what a stronger search sees, with far less noise than match results.
    Label {
        /// The positions (`bughouse tune positions`).
        #[arg(long)]
        positions: PathBuf,
        /// Label this many positions at most, chosen by `--seed` (each FEN once).
        #[arg(long)]
        count: Option<usize>,
        /// Seed of the choice.
        #[arg(long, default_value_t = 1)]
        seed: u64,
        /// The UCI engine (default: Fairy-Stockfish, as the arena finds it).
        #[arg(long)]
        engine: Option<PathBuf>,
        /// Nodes the engine searches per position.
        #[arg(long, default_value_t = 10_000)]
        nodes: u64,
        /// Engine processes at once.
        #[arg(long, default_value_t = 1)]
        jobs: usize,
        /// The engine's units for ten-to-one odds (400 suits Fairy-Stockfish).
        #[arg(long, default_value_t = 400.0)]
        scale: f64,
        /// Where to write the labelled positions.
        #[arg(long)]
        out: PathBuf,
    },
    /// Fit the weights to a positions file and write them (the text `bot?eval=FILE` reads).
    Fit {
        /// The positions (`bughouse tune positions`).
        #[arg(long)]
        positions: PathBuf,
        /// Passes over all the weights.
        #[arg(long, default_value_t = 10)]
        iterations: u32,
        /// Seed of the held-out split and the order of the weights.
        #[arg(long, default_value_t = 1)]
        seed: u64,
        /// Fit only these weight groups (comma-separated names as in the weights file, e.g.
        /// `mobility,danger_shield`); default: all.
        #[arg(long, value_delimiter = ',')]
        groups: Vec<String>,
        /// Start from these weights instead of the defaults.
        #[arg(long)]
        from: Option<PathBuf>,
        /// Where to write the weights.
        #[arg(long)]
        out: PathBuf,
    },
}

/// Runs `bughouse tune`.
pub fn run(command: TuneCommand) -> ExitCode {
    match command_result(command) {
        Ok(()) => ExitCode::SUCCESS,
        Err(e) => {
            eprintln!("error: {e}");
            ExitCode::from(2)
        }
    }
}

fn read(path: &PathBuf) -> Result<Vec<u8>, String> {
    std::fs::read(path).map_err(|e| format!("cannot read {}: {e}", path.display()))
}

fn write(path: &PathBuf, text: &str) -> Result<(), String> {
    std::fs::write(path, text).map_err(|e| format!("cannot write {}: {e}", path.display()))
}

fn command_result(command: TuneCommand) -> Result<(), String> {
    let rules = Rules::fide();
    match command {
        TuneCommand::Positions {
            bpgn,
            pgn,
            every_board,
            selfplay: matches,
            team1,
            team2,
            time,
            seed,
            games_out,
            out,
        } => {
            let mut samples = Vec::new();
            for path in &bpgn {
                let found = samples_from_bpgn(&read(path)?, rules, every_board)
                    .map_err(|e| format!("{}: {e}", path.display()))?;
                eprintln!("{}: {} positions", path.display(), found.len());
                samples.extend(found);
            }
            for path in &pgn {
                let found = samples_from_pgn(&read(path)?)
                    .map_err(|e| format!("{}: {e}", path.display()))?;
                eprintln!("{}: {} positions", path.display(), found.len());
                samples.extend(found);
            }
            if matches > 0 {
                let config = Config {
                    team1,
                    team2,
                    time,
                    rules: Preset::Fide,
                    seed,
                };
                config.check_engines().map_err(|e| e.to_string())?;
                let games = selfplay(&config, matches, &|line| eprintln!("{line}"));
                if let Some(path) = &games_out {
                    write(path, &games)?;
                }
                let found = samples_from_bpgn(games.as_bytes(), rules, every_board)
                    .map_err(|e| e.to_string())?;
                eprintln!("self-play: {} positions", found.len());
                samples.extend(found);
            }
            write(&out, &write_samples(&samples))?;
            println!("{} positions written to {}", samples.len(), out.display());
            Ok(())
        }
        TuneCommand::Label {
            positions,
            count,
            seed,
            engine,
            nodes,
            jobs,
            scale,
            out,
        } => {
            if scale.is_nan() || scale <= 0.0 {
                return Err("--scale must be above 0".to_owned());
            }
            let text = String::from_utf8_lossy(&read(&positions)?).into_owned();
            let samples = read_samples(&text).map_err(|e| e.to_string())?;
            let chosen = pick(&samples, count.unwrap_or(usize::MAX), seed);
            let config = LabelConfig {
                engine: engine.unwrap_or_else(bughouse_arena::fairy_stockfish_path),
                nodes,
                jobs,
                scale,
            };
            eprintln!(
                "{} positions ({} read), labelling the quiet ones with {} at {nodes} nodes",
                chosen.len(),
                samples.len(),
                config.engine.display()
            );
            let labelled = label(&chosen, rules, &config, &|n| eprintln!("{n} labelled"))
                .map_err(|e| e.to_string())?;
            let mut text = format!(
                "# bughouse tune label --positions {}{} --seed {seed} --engine {} --nodes {nodes} --scale {scale}\n",
                positions.display(),
                count.map(|n| format!(" --count {n}")).unwrap_or_default(),
                config.engine.display()
            );
            text.push_str(&write_samples(&labelled));
            write(&out, &text)?;
            println!(
                "{} quiet positions of {} labelled, written to {}",
                labelled.len(),
                chosen.len(),
                out.display()
            );
            Ok(())
        }
        TuneCommand::Fit {
            positions,
            iterations,
            seed,
            groups,
            from,
            out,
        } => {
            let text = String::from_utf8_lossy(&read(&positions)?).into_owned();
            let samples = read_samples(&text).map_err(|e| e.to_string())?;
            let start = match &from {
                Some(path) => EvalParams::from_text(&String::from_utf8_lossy(&read(path)?))
                    .map_err(|e| format!("{}: {e}", path.display()))?,
                None => EvalParams::DEFAULT,
            };
            let fitter = Fitter::new(&samples, rules, seed).map_err(|e| e.to_string())?;
            if let Some(bad) = groups
                .iter()
                .find(|g| !EvalParams::group_names().any(|name| name == g.as_str()))
            {
                return Err(format!("--groups: no weight group {bad:?}"));
            }
            let report = fit(&fitter, &start, &groups, iterations, seed, &mut |it, e| {
                eprintln!("iteration {it}: training error {e:.6}");
            });
            let mut text = format!(
                "# bughouse tune fit --positions {} --iterations {iterations} --seed {seed} --groups {}\n\
                 # K {:.4}, {} quiet positions trained on, {} held out\n\
                 # training error {:.6} -> {:.6}, held-out error {:.6} -> {:.6}\n",
                positions.display(),
                if groups.is_empty() { "all".to_owned() } else { groups.join(",") },
                report.k,
                report.train,
                report.valid,
                report.train_error.0,
                report.train_error.1,
                report.valid_error.0,
                report.valid_error.1
            );
            text.push_str(&report.params.to_text());
            write(&out, &text)?;
            println!(
                "K {:.4}; {} positions trained on, {} held out; training error {:.6} -> {:.6}; held-out error {:.6} -> {:.6}; weights written to {}",
                report.k,
                report.train,
                report.valid,
                report.train_error.0,
                report.train_error.1,
                report.valid_error.0,
                report.valid_error.1,
                out.display()
            );
            Ok(())
        }
    }
}
