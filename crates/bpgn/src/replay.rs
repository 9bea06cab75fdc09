//! Replaying a record move by move, checking everything a record claims.

use std::fmt;
use std::time::Duration;

use bughouse_core::san::{SanPlus, Suffix};
use bughouse_core::{
    parse_bughouse_fen, BoardId, Match, MatchError, MatchResult, Position, Rules, Score, Seat,
    TimeControl, Verdict,
};

use crate::reader::{Record, RecordMove};

/// What the moves alone reach.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum ReplayResult {
    /// A bughouse match decided by its first game to end (fide, minerva-2014, uscf); `None` while
    /// undecided.
    Match(Option<MatchResult>),
    /// A bughouse match whose games score on their own (knsb-1988, K11G): each board's result
    /// from its White side.
    Boards([Option<Score>; 2]),
    /// A single-board game.
    Single(Option<Score>),
}

impl fmt::Display for ReplayResult {
    /// `1-0`, `0-1`, `1/2-1/2` or `*`; `A:<result> B:<result>` for [`ReplayResult::Boards`].
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        let score = |s: Option<Score>| s.map_or("*", Score::pgn);
        match *self {
            ReplayResult::Match(r) => f.write_str(r.map_or("*", MatchResult::pgn)),
            ReplayResult::Boards([a, b]) => write!(f, "A:{} B:{}", score(a), score(b)),
            ReplayResult::Single(s) => f.write_str(score(s)),
        }
    }
}

/// Why a record does not replay, naming the move token.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
#[error("{token} (line {line}): {message}")]
pub struct ReplayError {
    /// The move token, like `23b. Q@d8#`.
    pub token: String,
    /// The 1-based line of the token.
    pub line: usize,
    /// What is wrong.
    pub message: String,
}

fn fail(m: &RecordMove, message: impl Into<String>) -> ReplayError {
    ReplayError {
        token: m.token(),
        line: m.line,
        message: message.into(),
    }
}

/// Checks that the `+` or `#` written after a move agrees with the position after it: `#` only
/// when it is checkmate under the rules, `+` only for a check that is not mate.
fn check_suffix(
    m: &RecordMove,
    suffix: Option<Suffix>,
    after: &Position,
) -> Result<(), ReplayError> {
    let check = after.is_check();
    match suffix {
        Some(Suffix::Mate) => {
            if !check {
                return Err(fail(m, "marked mate (#) but it gives no check"));
            }
            match after.verdict() {
                Verdict::Checkmate => Ok(()),
                v => Err(fail(
                    m,
                    format!(
                        "marked mate (#) but under these rules the position is {v}, not checkmate"
                    ),
                )),
            }
        }
        Some(Suffix::Check) => {
            if !check {
                return Err(fail(m, "marked check (+) but it gives no check"));
            }
            if after.verdict() == Verdict::Checkmate {
                return Err(fail(m, "marked check (+) but it is checkmate"));
            }
            Ok(())
        }
        None => {
            if check {
                Err(fail(m, "gives check but is not marked + or #"))
            } else {
                Ok(())
            }
        }
    }
}

/// The time control of a record's `TimeControl` tag (`180+0`, seconds), or 5+0.
pub fn time_control_of(record: &Record) -> TimeControl {
    record
        .tag("TimeControl")
        .and_then(|tc| {
            let (base, inc) = tc.split_once('+').unwrap_or((tc, "0"));
            let base: u64 = base.trim().parse().ok()?;
            let inc: u64 = inc.trim().parse().ok()?;
            (base > 0 && base < 1_000_000 && inc < 3600).then(|| TimeControl {
                base: Duration::from_secs(base),
                increment: Duration::from_secs(inc),
            })
        })
        .unwrap_or_default()
}

/// Whether `fen` is one position, the initial one (with or without its empty reserves).
fn is_initial(fen: &str, rules: Rules) -> bool {
    !fen.contains('|') && Position::from_fen(fen.trim(), rules).is_ok_and(|p| p.is_initial())
}

/// Replays a bughouse record under `rules`, returning the match as the moves leave it.
///
/// Every move must be legal (a drop only of a piece really in the reserve), its `+`/`#` must
/// agree with the position, and no move may come after the match has ended. Clocks are not
/// used to decide anything: moves are played one millisecond apart so no flag can fall. A
/// `FEN` tag sets both boards up, written `FEN_A | FEN_B` (reserves in brackets) as
/// [`bughouse_core::write_bughouse_fen`] writes it; without one, or with the initial position
/// alone, both boards start from the initial position.
///
/// # Errors
///
/// [`ReplayError`] naming the first move that fails, or the `[FEN]` tag when it does not
/// read as two positions.
pub fn replay_bughouse(record: &Record, rules: Rules) -> Result<Match, ReplayError> {
    let tc = time_control_of(record);
    let mut game = match record.tag("FEN") {
        // Some writers tag every game with the initial position, as one FEN: the usual start.
        Some(fen) if is_initial(fen, rules) => Match::new(rules, tc),
        // A set-up match: both boards as one text, `FEN_A | FEN_B`.
        Some(fen) => {
            let positions = parse_bughouse_fen(fen, rules).map_err(|e| ReplayError {
                token: String::from("[FEN]"),
                line: record.line,
                message: e.to_string(),
            })?;
            Match::from_positions(rules, tc, positions)
        }
        None => Match::new(rules, tc),
    };
    let start = Duration::ZERO;
    game.start(start).map_err(|e| ReplayError {
        token: String::new(),
        line: record.line,
        message: e.to_string(),
    })?;
    for (i, rm) in record.moves.iter().enumerate() {
        let board = rm
            .board
            .ok_or_else(|| fail(rm, "move without a board letter"))?;
        let seat = Seat::new(board, rm.color);
        let san: SanPlus = rm.san.parse().map_err(|e| fail(rm, format!("{e}")))?;
        // F4.4: the one move the player to move on the other board was making when the match
        // ended counts as made at that same instant (engines playing both boards at once
        // record it after the mate); any later move is refused by the match.
        let now = match game.ended_at() {
            Some(end) if game.is_over() => end,
            _ => start + Duration::from_millis(i as u64 + 1),
        };
        if game
            .game_end(board)
            .is_some_and(|e| e.reason != bughouse_core::EndReason::OtherBoard)
        {
            return Err(fail(rm, "move after the game on this board has ended"));
        }
        if game.position(board).turn() != rm.color {
            return Err(fail(rm, format!("it is not {seat}'s move")));
        }
        let m = san
            .san
            .to_move(game.position(board))
            .map_err(|e| fail(rm, e.to_string()))?;
        match game.play(seat, m, now) {
            Ok(_) => {}
            Err(MatchError::MatchOver | MatchError::GameOver(_)) => {
                return Err(fail(rm, "move after the game or match has ended"))
            }
            Err(e) => return Err(fail(rm, e.to_string())),
        }
        check_suffix(rm, san.suffix, game.position(board))?;
    }
    Ok(game)
}

/// Replays a single-board record under `rules` (crazyhouse by default), returning the final
/// position.
///
/// # Errors
///
/// [`ReplayError`] naming the first move that fails.
pub fn replay_single(record: &Record, rules: Rules) -> Result<Position, ReplayError> {
    replay_single_each(record, rules, |_| {})
}

/// [`replay_single`], calling `each` with the position after every move (the positions before
/// a failing move have been seen when it fails).
///
/// # Errors
///
/// [`ReplayError`] naming the first move that fails.
pub fn replay_single_each(
    record: &Record,
    rules: Rules,
    mut each: impl FnMut(&Position),
) -> Result<Position, ReplayError> {
    let mut pos = match record.tag("FEN") {
        Some(fen) => Position::from_fen(fen, rules).map_err(|e| ReplayError {
            token: String::from("[FEN]"),
            line: record.line,
            message: e.to_string(),
        })?,
        None => Position::new(rules),
    };
    for rm in &record.moves {
        if rm.board.is_some() {
            return Err(fail(rm, "board letter in a single-board game"));
        }
        let san: SanPlus = rm.san.parse().map_err(|e| fail(rm, format!("{e}")))?;
        // A legal move exists exactly when the game has not ended, so a move that resolves
        // also shows that no move came after the end.
        let m = san.san.to_move(&pos).map_err(|e| {
            if pos.legal_moves().is_empty() {
                fail(
                    rm,
                    format!("move after the game has ended ({})", pos.verdict()),
                )
            } else {
                fail(rm, e.to_string())
            }
        })?;
        pos.play_unchecked(m);
        check_suffix(rm, san.suffix, &pos)?;
        each(&pos);
    }
    Ok(pos)
}

/// Replays any record: bughouse under `rules` or fide, single-board under `rules` or crazyhouse.
///
/// # Errors
///
/// [`ReplayError`] naming the first move that fails.
pub fn replay(record: &Record, rules: Option<Rules>) -> Result<ReplayResult, ReplayError> {
    if record.bughouse {
        let rules = rules.unwrap_or_else(Rules::fide);
        let game = replay_bughouse(record, rules)?;
        Ok(if rules.match_ends_with_first_game {
            ReplayResult::Match(game.result())
        } else {
            ReplayResult::Boards(BoardId::ALL.map(|b| {
                game.game_end(b)
                    .filter(|e| e.reason != bughouse_core::EndReason::OtherBoard)
                    .map(|e| e.score)
            }))
        })
    } else {
        let pos = replay_single(record, rules.unwrap_or_else(Rules::crazyhouse))?;
        Ok(ReplayResult::Single(match pos.verdict() {
            Verdict::Checkmate => Some(Score::win(!pos.turn())),
            Verdict::Stalemate => Some(Score::Draw),
            Verdict::Ongoing | Verdict::Waiting => None,
        }))
    }
}
