//! The two-board [`Match`] against the game-level rows of `RULES.md` ("Seating, teams, colours",
//! "End of a game", "End of a match, scoring", "Clocks"), under each rulebook preset.
//!
//! Time is a fake clock: plain [`Duration`]s since [`EPOCH`], passed to every call. Article
//! numbers are the rulebooks' own: `F` fide, `M` minerva-2014, `K` knsb-1988, `U`
//! uscf-scholastic-2006. Every test name starts with its preset (`fide_`, `minerva_`, `knsb_`,
//! `uscf_`), so that `cargo test -p bughouse-core --test match_rules -- --list | grep -c knsb`
//! counts the tests of one preset. The checks are shared functions that take the rules and,
//! where the rulebooks differ, the expected outcome written out in the test, never read back
//! from the rules under test.

#[path = "match_rules/clocks.rs"]
mod clocks;
#[path = "match_rules/game_end.rs"]
mod game_end;
#[path = "match_rules/match_end.rs"]
mod match_end;
#[path = "match_rules/teams.rs"]
mod teams;

use std::time::Duration;

use bughouse_core::{
    BoardId, Match, MatchError, Move, Position, RecordedMove, Rules, Seat, Square, TimeControl,
};

/// The fake clock's epoch. Any fixed instant would do: core never reads the system clock.
const EPOCH: Duration = Duration::from_secs(100_000);

/// The start position with empty reserves.
const START: &str = "rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR[] w KQkq - 0 1";

/// `s` seconds after the epoch.
fn at(s: u64) -> Duration {
    EPOCH + Duration::from_secs(s)
}

/// `ms` milliseconds after the epoch.
fn at_ms(ms: u64) -> Duration {
    EPOCH + Duration::from_millis(ms)
}

/// `s` seconds.
fn secs(s: u64) -> Duration {
    Duration::from_secs(s)
}

/// The position of `fen` under `rules`; panics with the reason when it is rejected.
fn pos(fen: &str, rules: Rules) -> Position {
    Position::from_fen(fen, rules).unwrap_or_else(|e| panic!("{fen}: {e}"))
}

/// A match from the start position on both boards, 5+0, clocks started at [`EPOCH`].
fn started(rules: Rules) -> Match {
    started_from(rules, START, START)
}

/// A match from `fen_a` and `fen_b`, 5+0, clocks started at [`EPOCH`].
fn started_from(rules: Rules, fen_a: &str, fen_b: &str) -> Match {
    let mut m = Match::from_positions(
        rules,
        TimeControl::default(),
        [pos(fen_a, rules), pos(fen_b, rules)],
    );
    m.start(EPOCH).expect("a new match starts");
    m
}

/// The move `uci` on `board` as its position reads it, or, when the position does not accept it
/// (not legal, or not that side's move), the plain board move between its two squares, so that
/// the match itself decides what to answer.
fn mv(m: &Match, board: BoardId, uci: &str) -> Move {
    m.position(board).parse_uci(uci).unwrap_or_else(|_| {
        let from: Square = uci[0..2].parse().expect("a from square");
        let to: Square = uci[2..4].parse().expect("a to square");
        Move::normal(from, to)
    })
}

/// `seat` plays `uci` at `now`; what the match answers.
fn try_play(
    m: &mut Match,
    seat: Seat,
    uci: &str,
    now: Duration,
) -> Result<RecordedMove, MatchError> {
    let mv = mv(m, seat.board, uci);
    m.play(seat, mv, now).cloned()
}

/// `seat` plays `uci` at `now`, which the match must accept.
fn play(m: &mut Match, seat: Seat, uci: &str, now: Duration) -> RecordedMove {
    try_play(m, seat, uci, now).unwrap_or_else(|e| panic!("{seat} {uci}: {e}"))
}

/// Plays `e2e4` and `e7e5` on board B at 1 s and 2 s, so that White's clock there falls at
/// 301 s, one second after White's on board A (which runs from the start).
fn desync_board_b(m: &mut Match) {
    play(m, Seat::WHITE_B, "e2e4", at(1));
    play(m, Seat::BLACK_B, "e7e5", at(2));
}
