//! `bughouse tune`: Texel tuning of the evaluation weights (the logic is in bughouse-tune).

use std::path::PathBuf;
use std::process::ExitCode;

use bughouse_arena::{Config, Spec};
use bughouse_core::{Preset, Rules, TimeControl};
use bughouse_engine::{EngineParams, EvalParams, Level};
use bughouse_tune::{
    build_book, fit, label, parse_weights, pick, read_samples, samples_from_bpgn, samples_from_pgn,
    selfplay, write_samples, BookConfig, Fitter, LabelConfig, Spsa, SpsaConfig,
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
    /// Build the opening book (the text `crates/engine/book/opening.txt` holds): the positions
    /// of the first `--plies` half-moves of a board, for either colour, each searched to
    /// `--nodes` nodes; the opponent's replies followed are ours and the reply engine's.
    Book {
        /// Half-moves of one board from the start.
        #[arg(long, default_value_t = 10)]
        plies: u32,
        /// Nodes of our search per position.
        #[arg(long, default_value_t = 4_000_000)]
        nodes: u64,
        /// The UCI engine whose replies are followed too (default: Fairy-Stockfish, as the
        /// arena finds it).
        #[arg(long)]
        reply_engine: Option<PathBuf>,
        /// Follow only our own replies: no reply engine.
        #[arg(long, conflicts_with = "reply_engine")]
        no_reply_engine: bool,
        /// The reply engine's `go nodes`, one search each (comma-separated).
        #[arg(long, value_delimiter = ',', default_value = "150000")]
        reply_nodes: Vec<u64>,
        /// The reply engine's best moves followed from each search (its `MultiPV`).
        #[arg(long, default_value_t = 3)]
        reply_lines: usize,
        /// Positions searched at once.
        #[arg(long, default_value_t = 1)]
        jobs: usize,
        /// Where to write the book.
        #[arg(long)]
        out: PathBuf,
    },
    /// SPSA of chosen weights through play: each iteration plays two arena matches with the
    /// weights nudged up and down along a random direction (against each other, or each against
    /// `--opponent`) and moves the weights towards the side that won more.
    Spsa(SpsaArgs),
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

/// A weights file: the evaluation's weights, and the search's margins if it has them.
fn read_params(path: &PathBuf) -> Result<EngineParams, String> {
    EngineParams::from_text(&String::from_utf8_lossy(&read(path)?))
        .map_err(|e| format!("{}: {e}", path.display()))
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
        TuneCommand::Book {
            plies,
            nodes,
            reply_engine,
            no_reply_engine,
            reply_nodes,
            reply_lines,
            jobs,
            out,
        } => {
            let reply_engine = if no_reply_engine {
                None
            } else {
                Some(reply_engine.unwrap_or_else(bughouse_arena::fairy_stockfish_path))
            };
            let config = BookConfig {
                rules,
                plies,
                nodes,
                reply_engine: reply_engine.clone(),
                reply_nodes: reply_nodes.clone(),
                reply_lines,
                jobs,
            };
            let book =
                build_book(&config, &|line| eprintln!("{line}")).map_err(|e| e.to_string())?;
            let replies = match &reply_engine {
                Some(path) => format!(
                    " --reply-engine {} --reply-lines {reply_lines} --reply-nodes {}",
                    path.display(),
                    reply_nodes
                        .iter()
                        .map(u64::to_string)
                        .collect::<Vec<_>>()
                        .join(",")
                ),
                None => " --no-reply-engine".to_owned(),
            };
            let mut text = format!(
                "# The opening book of the bot (crates/engine/src/book.rs): a position (the first four\n\
                 # fields of its FEN) and our move a line.\n\
                 # bughouse tune book --plies {plies} --nodes {nodes}{replies}\n"
            );
            text.push_str(&book.to_text());
            write(&out, &text)?;
            println!("{} positions written to {}", book.len(), out.display());
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
                Some(path) => read_params(path)?,
                None => EngineParams::DEFAULT,
            };
            let fitter = Fitter::new(&samples, rules, seed).map_err(|e| e.to_string())?;
            if let Some(bad) = groups
                .iter()
                .find(|g| !EvalParams::group_names().any(|name| name == g.as_str()))
            {
                return Err(format!("--groups: no weight group {bad:?}"));
            }
            let report = fit(
                &fitter,
                &start.eval,
                &groups,
                iterations,
                seed,
                &mut |it, e| {
                    eprintln!("iteration {it}: training error {e:.6}");
                },
            );
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
            // The search's margins it started from go on with the fitted weights.
            let fitted = EngineParams {
                eval: report.params,
                search: start.search,
            };
            text.push_str(&fitted.to_text());
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
        TuneCommand::Spsa(args) => spsa(args),
    }
}

/// The arguments of `bughouse tune spsa`.
#[derive(clap::Args)]
pub struct SpsaArgs {
    /// The weights to tune (comma-separated: a group name as in the weights file for all of
    /// its weights, or `group[i]` for one), e.g. `tempo,danger_divisor,reserve_value`; the
    /// search's margins too, e.g. `rfp_margin,lmr_divisor,futility_margin`.
    #[arg(long, value_delimiter = ',', required = true)]
    weights: Vec<String>,
    /// Iterations (two matches each).
    #[arg(long, default_value_t = 200)]
    iterations: u32,
    /// Seed of the perturbations and of the bots.
    #[arg(long, default_value_t = 1)]
    seed: u64,
    /// Time control of the matches.
    #[arg(long, default_value = "5s+0")]
    time: TimeControl,
    /// Level of the tuned bot.
    #[arg(long, default_value_t = 8)]
    level: u8,
    /// Search configuration of the tuned bot (`bot?search=NAME`).
    #[arg(long)]
    search: Option<String>,
    /// Play each perturbation against this team (any arena SPEC) instead of against each
    /// other.
    #[arg(long, value_parser = str::parse::<Spec>)]
    opponent: Option<Spec>,
    /// Iterations played at once.
    #[arg(long, default_value_t = 1)]
    jobs: usize,
    /// The perturbation at the last iteration, as a fraction of each weight (at least 1).
    #[arg(long, default_value_t = 0.1)]
    c_fraction: f64,
    /// The step gain at the last iteration over the perturbation squared (fishtest's
    /// `r_end`).
    #[arg(long, default_value_t = 0.02)]
    r_end: f64,
    /// Start from these weights instead of the defaults.
    #[arg(long)]
    from: Option<PathBuf>,
    /// Also write every match as BPGN here.
    #[arg(long)]
    games_out: Option<PathBuf>,
    /// Where to write the weights (rewritten after every iteration).
    #[arg(long)]
    out: PathBuf,
}

fn spsa(args: SpsaArgs) -> Result<(), String> {
    let tuned = parse_weights(&args.weights).map_err(|e| format!("--weights: {e}"))?;
    let level = Level::new(args.level)
        .ok_or_else(|| format!("--level: {} is not a level (1 to 8)", args.level))?;
    if let Some(name) = &args.search {
        if bughouse_engine::SearchConfig::named(name).is_none() {
            return Err(format!("--search: no search configuration {name:?}"));
        }
    }
    if !(args.c_fraction > 0.0 && args.r_end > 0.0) {
        return Err("--c-fraction and --r-end must be above 0".to_owned());
    }
    if args.iterations == 0 {
        return Err("--iterations must be at least 1".to_owned());
    }
    let start = match &args.from {
        Some(path) => read_params(path)?,
        None => EngineParams::DEFAULT,
    };
    if let Some(opponent) = &args.opponent {
        let check = Config {
            team1: Spec::bot(level),
            team2: opponent.clone(),
            time: args.time,
            rules: Preset::Fide,
            seed: args.seed,
        };
        check.check_engines().map_err(|e| e.to_string())?;
    }
    let names: Vec<String> = tuned.iter().map(|&i| EngineParams::name(i)).collect();
    let header = format!(
        "# bughouse tune spsa --weights {} --iterations {} --seed {} --time {} --level {}{}{} --jobs {} --c-fraction {} --r-end {}{}\n",
        args.weights.join(","),
        args.iterations,
        args.seed,
        args.time,
        args.level,
        args.search.as_ref().map(|s| format!(" --search {s}")).unwrap_or_default(),
        args.opponent.as_ref().map(|o| format!(" --opponent '{o}'")).unwrap_or_default(),
        args.jobs,
        args.c_fraction,
        args.r_end,
        args.from.as_ref().map(|f| format!(" --from {}", f.display())).unwrap_or_default(),
    );
    let mut tuner = Spsa::new(SpsaConfig {
        weights: tuned,
        start,
        iterations: args.iterations,
        seed: args.seed,
        time: args.time,
        level,
        search: args.search,
        opponent: args.opponent,
        jobs: args.jobs,
        c_fraction: args.c_fraction,
        r_end: args.r_end,
    });
    eprintln!("tuning {} from {:?}", names.join(" "), tuner.theta());
    let mut games = String::new();
    let (mut plus, mut minus, mut failed) = (0.0f32, 0.0f32, None);
    tuner.run(&|line| eprintln!("{line}"), &mut |step| {
        if step.result > 0.0 {
            plus += step.result;
        } else {
            minus -= step.result;
        }
        let theta: Vec<String> = step.theta.iter().map(|t| format!("{t:.2}")).collect();
        eprintln!(
            "iteration {}: {:+} ; {}",
            step.k,
            step.result,
            theta.join(" ")
        );
        if failed.is_some() {
            return;
        }
        let mut text = header.clone();
        text.push_str(&format!(
            "# after {} of {} iterations: {}\n",
            step.k,
            args.iterations,
            named(&names, &step.theta)
        ));
        if let Some(path) = &args.games_out {
            games.push_str(&step.bpgn);
            if let Err(e) = write(path, &games) {
                failed = Some(e);
                return;
            }
        }
        text.push_str(&step.params.to_text());
        if let Err(e) = write(&args.out, &text) {
            failed = Some(e);
        }
    });
    if let Some(e) = failed {
        return Err(e);
    }
    println!(
        "{} iterations: the pairs' points for the + side {plus}, for the - side {minus}; weights written to {}: {}",
        args.iterations,
        args.out.display(),
        named(&names, tuner.theta())
    );
    Ok(())
}

/// `name value, ...` of the tuned weights, for the log and the weights file's comment.
fn named(names: &[String], theta: &[f64]) -> String {
    names
        .iter()
        .zip(theta)
        .map(|(n, t)| format!("{n} {t:.2}"))
        .collect::<Vec<_>>()
        .join(", ")
}
