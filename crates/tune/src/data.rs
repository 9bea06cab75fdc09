//! Positions with results, from arena games: read from BPGN records or played here.

use std::fmt::Write as _;
use std::time::Duration;

use bughouse_arena::Config;
use bughouse_bpgn::{read_games, replay_bughouse};
use bughouse_core::{BoardId, Color, EndReason, Match, Rules, Seat};

use crate::TuneError;

/// One position and the result of its match from White's side of its board.
#[derive(Debug, Clone, PartialEq)]
pub struct Sample {
    /// 1 when the team with White on this board won the match, 0.5 a draw, 0 a loss.
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
pub fn samples_from_bpgn(text: &[u8], rules: Rules) -> Result<Vec<Sample>, TuneError> {
    let mut out = Vec::new();
    for record in read_games(text) {
        let record = record.map_err(|e| TuneError::Bpgn(e.to_string()))?;
        let end = replay_bughouse(&record, rules).map_err(|e| TuneError::Bpgn(e.to_string()))?;
        if end.result().is_none() {
            continue;
        }
        let white_points = |board: BoardId| {
            end.points(Seat::new(board, Color::White).team())
                .unwrap_or(0.5)
        };
        let results = [white_points(BoardId::A), white_points(BoardId::B)];
        let decided = [BoardId::A, BoardId::B].map(|board| {
            end.game_end(board)
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
/// [`TuneError::Sample`] for a line without a result of 0, 0.5 or 1 and a FEN.
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
        if ![0.0, 0.5, 1.0].contains(&result) {
            return Err(bad("the result must be 0, 0.5 or 1"));
        }
        out.push(Sample {
            result,
            fen: fen.trim().to_owned(),
        });
    }
    Ok(out)
}
