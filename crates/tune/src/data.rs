//! Positions with results, from arena games: read from BPGN records or played here; from
//! crazyhouse PGN archives; and labelled with an engine's score instead of a result.

use std::collections::HashSet;
use std::fmt::Write as _;
use std::time::Duration;

use bughouse_arena::uci::UciEngine;
use bughouse_arena::{uci_fen, Config, EngineScore, UCI_VARIANT};
use bughouse_bpgn::{read_games, replay_bughouse, replay_single_each};
use bughouse_core::{BoardId, Color, EndReason, Match, Position, Rules, Seat};

use crate::{Rng, TuneError};

/// One position and the result of its match from White's side of its board.
#[derive(Debug, Clone, PartialEq)]
pub struct Sample {
    /// 1 when the team with White on this board won the match, 0.5 a draw, 0 a loss; or, for
    /// a labelled position ([`label`]), White's expected score from an engine's evaluation,
    /// anywhere from 0 to 1.
    pub result: f32,
    /// The position (bughouse FEN of one board, reserves in brackets).
    pub fen: String,
}

/// Plies of each board skipped at the start of a game (the opening tells little).
pub const SKIP_PLIES: u32 = 6;

/// The positions of every decided match in a BPGN text (as the arena writes it), each with its
/// match's result: those of the board that decided the match (the other board's game was
/// stopped, its positions tell little of the result), after the first [`SKIP_PLIES`] plies.
///
/// # Errors
///
/// [`TuneError::Bpgn`] for a record that does not read or replay under `rules`.
/// With `every_board`, the positions of both boards of every match, decided or not, each with
/// its match's result (0.5 for a match without one): for labelling by an engine ([`label`]),
/// where the match result does not matter.
pub fn samples_from_bpgn(
    text: &[u8],
    rules: Rules,
    every_board: bool,
) -> Result<Vec<Sample>, TuneError> {
    let mut out = Vec::new();
    for record in read_games(text) {
        let record = record.map_err(|e| TuneError::Bpgn(e.to_string()))?;
        let end = replay_bughouse(&record, rules).map_err(|e| TuneError::Bpgn(e.to_string()))?;
        if end.result().is_none() && !every_board {
            continue;
        }
        let white_points = |board: BoardId| {
            end.points(Seat::new(board, Color::White).team())
                .unwrap_or(0.5)
        };
        let results = [white_points(BoardId::A), white_points(BoardId::B)];
        let decided = [BoardId::A, BoardId::B].map(|board| {
            every_board
                || end
                    .game_end(board)
                    .is_some_and(|e| e.reason != EndReason::OtherBoard)
        });
        // Play the recorded moves again, one millisecond apart, looking at every position.
        let mut game = Match::new(rules, end.time_control());
        game.start(Duration::ZERO)
            .map_err(|e| TuneError::Bpgn(e.to_string()))?;
        let mut plies = [0u32; 2];
        for (i, rm) in end.record().iter().enumerate() {
            let board = rm.seat.board;
            let now = Duration::from_millis(i as u64 + 1);
            if game.play(rm.seat, rm.mv, now).is_err() {
                break;
            }
            let b = usize::from(board == BoardId::B);
            plies[b] += 1;
            if decided[b] && plies[b] > SKIP_PLIES && game.game_end(board).is_none() {
                out.push(Sample {
                    result: results[b],
                    fen: game.position(board).fen(),
                });
            }
        }
    }
    Ok(out)
}

/// The positions of every game of a crazyhouse PGN text (single-board records, as the
/// crazyhouse archives of lichess and FICS hold them), after the first [`SKIP_PLIES`] plies,
/// each with the game's result from White's side (0.5 when it has none), written as bughouse
/// FENs. Crazyhouse positions are bughouse positions whose reserves filled differently: an
/// engine's label ([`label`]) does not care where a piece in hand came from. A record that does
/// not replay is skipped from its failing move on.
///
/// # Errors
///
/// [`TuneError::Bpgn`] for a record that does not read.
pub fn samples_from_pgn(text: &[u8]) -> Result<Vec<Sample>, TuneError> {
    let mut out = Vec::new();
    for record in read_games(text) {
        let record = record.map_err(|e| TuneError::Bpgn(e.to_string()))?;
        if record.bughouse {
            continue;
        }
        let result = match record.tag("Result") {
            Some("1-0") => 1.0,
            Some("0-1") => 0.0,
            _ => 0.5,
        };
        let mut ply = 0;
        // A record that fails part-way has given its positions up to the failing move.
        let _ = replay_single_each(&record, Rules::crazyhouse(), |pos| {
            ply += 1;
            if ply > SKIP_PLIES && !pos.legal_moves().is_empty() {
                out.push(Sample {
                    result,
                    fen: pos.fen(),
                });
            }
        });
    }
    Ok(out)
}

/// Up to `count` of `samples`, chosen by `seed`, each position once (the first of its FEN).
pub fn pick(samples: &[Sample], count: usize, seed: u64) -> Vec<Sample> {
    let mut seen = HashSet::new();
    let mut unique: Vec<Sample> = samples
        .iter()
        .filter(|s| seen.insert(s.fen.as_str()))
        .cloned()
        .collect();
    Rng::new(seed).shuffle(&mut unique);
    unique.truncate(count);
    unique
}

/// White's expected score from an engine's score for the side to move: `1 / (1 + 10^(-cp /
/// scale))`, a mate 1 or 0.
pub fn expected_score(score: EngineScore, white_to_move: bool, scale: f64) -> f32 {
    let stm = match score {
        EngineScore::Cp(cp) => 1.0 / (1.0 + 10f64.powf(-f64::from(cp) / scale)),
        EngineScore::Mate(n) if n > 0 => 1.0,
        EngineScore::Mate(_) => 0.0,
    };
    let white = if white_to_move { stm } else { 1.0 - stm };
    // Four decimals are plenty, and keep the positions file short.
    ((white * 10_000.0).round() / 10_000.0) as f32
}

/// How [`label`] asks the engine.
#[derive(Debug, Clone)]
pub struct LabelConfig {
    /// The UCI engine (it must offer `UCI_Variant bughouse`, as Fairy-Stockfish does).
    pub engine: std::path::PathBuf,
    /// `go nodes N` for each position.
    pub nodes: u64,
    /// Engine processes running at once, one thread each.
    pub jobs: usize,
    /// Engine units for ten-to-one odds in [`expected_score`] (400: Fairy-Stockfish's units,
    /// about 2.1 a centipawn, make a pawn about 0.75).
    pub scale: f64,
}

/// Labels the quiet positions of `samples` (those [`crate::Fitter`] would keep: not in check,
/// and the quiescence search scores them as the static evaluation does) with White's expected
/// score from the engine's search of `nodes` nodes ([`expected_score`]), in place of their
/// match results: a fit to these labels teaches the evaluation what the engine's search sees.
/// Positions the engine gives no score are left out. `progress` is called every 500 positions
/// with the number done. Each position is searched after `ucinewgame`, so the labels of a
/// deterministic engine (Fairy-Stockfish with `Threads` 1) depend neither on the order of the
/// positions nor on `jobs`.
///
/// # Errors
///
/// [`TuneError::Sample`] for a FEN that does not read under `rules`; [`TuneError::Engine`]
/// when an engine cannot be started or fails on a position.
pub fn label(
    samples: &[Sample],
    rules: Rules,
    config: &LabelConfig,
    progress: &(dyn Fn(usize) + Sync),
) -> Result<Vec<Sample>, TuneError> {
    let quiet: Vec<Position> = crate::fit::quiet_samples(samples, rules)?
        .into_iter()
        .map(|(pos, _)| pos)
        .collect();
    let jobs = config.jobs.max(1);
    let done = std::sync::atomic::AtomicUsize::new(0);
    let labelled = crate::in_jobs(
        jobs,
        |job| {
            let engine_error =
                |position: Option<&Position>, e: bughouse_arena::EngineError| TuneError::Engine {
                    fen: position.map(Position::fen).unwrap_or_default(),
                    message: e.to_string(),
                };
            let mut engine =
                UciEngine::start(&config.engine, UCI_VARIANT).map_err(|e| engine_error(None, e))?;
            let mut out = Vec::new();
            for (i, pos) in quiet.iter().enumerate().skip(job).step_by(jobs) {
                // A fresh table for each position: its label does not depend on the
                // positions searched before it, so not on `jobs` either.
                engine.new_game().map_err(|e| engine_error(Some(pos), e))?;
                let score = engine
                    .analyse(&uci_fen(pos), config.nodes, Duration::from_secs(120))
                    .map_err(|e| engine_error(Some(pos), e))?;
                if let Some(score) = score {
                    let white = pos.turn() == Color::White;
                    out.push((i, expected_score(score, white, config.scale)));
                }
                let n = done.fetch_add(1, std::sync::atomic::Ordering::Relaxed) + 1;
                if n.is_multiple_of(500) {
                    progress(n);
                }
            }
            Ok(out)
        },
        || TuneError::Engine {
            fen: String::new(),
            message: "a labelling thread panicked".to_owned(),
        },
    )?;
    Ok(labelled
        .into_iter()
        .map(|(i, result)| Sample {
            result,
            fen: quiet[i].fen(),
        })
        .collect())
}

/// Plays `matches` arena matches of `config` and returns them as BPGN, calling `report` with
/// the arena's messages and a line per match.
pub fn selfplay(config: &Config, matches: u32, report: &dyn Fn(String)) -> String {
    let mut text = String::new();
    for number in 1..=matches {
        let played = config.play(number, report);
        report(format!(
            "match {number}/{matches}: {} plies, {}",
            played.plies(),
            played.reason()
        ));
        text.push_str(&played.bpgn(config));
    }
    text
}

/// The positions file: one `RESULT FEN` line per sample.
pub fn write_samples(samples: &[Sample]) -> String {
    let mut out = String::new();
    for s in samples {
        let _ = writeln!(out, "{} {}", s.result, s.fen);
    }
    out
}

/// Reads a positions file written by [`write_samples`]; empty lines and `#` lines are skipped.
///
/// # Errors
///
/// [`TuneError::Sample`] for a line without a result from 0 to 1 and a FEN.
pub fn read_samples(text: &str) -> Result<Vec<Sample>, TuneError> {
    let mut out = Vec::new();
    for (i, line) in text.lines().enumerate() {
        let line = line.trim();
        if line.is_empty() || line.starts_with('#') {
            continue;
        }
        let bad = |message: &str| TuneError::Sample {
            line: i + 1,
            message: message.to_owned(),
        };
        let (result, fen) = line
            .split_once(' ')
            .ok_or_else(|| bad("expected RESULT FEN"))?;
        let result: f32 = result
            .parse()
            .map_err(|_| bad("the result is not a number"))?;
        if !(0.0..=1.0).contains(&result) {
            return Err(bad("the result must be from 0 to 1"));
        }
        out.push(Sample {
            result,
            fen: fen.trim().to_owned(),
        });
    }
    Ok(out)
}
