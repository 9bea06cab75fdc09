//! Level 1 is beatable by a beginner: it hangs pieces sometimes; level 8 does not in the same
//! positions.

use std::time::Duration;

use bughouse_core::{parse_bughouse_fen, Match, Position, Rules, Seat, TimeControl};
use bughouse_engine::{see, Action, Level, Limits, Searcher, TeamBot};

/// Quiet middlegame positions (White to move on board A) where most pieces can be put en prise.
const POSITIONS: [&str; 3] = [
    "r1bqk2r/pppp1ppp/2n2n2/2b1p3/2B1P3/2NP1N2/PPP2PPP/R1BQK2R[] w KQkq - 0 1",
    "r2qkb1r/ppp2ppp/2np1n2/4p3/2B1P1b1/2NP1N2/PPP2PPP/R1BQK2R[] w KQkq - 0 1",
    "rnbq1rk1/ppp1bppp/4pn2/3p4/2PP4/2N2N2/PP2PPPP/R1BQKB1R[] w KQ - 0 1",
];
const QUIET_B: &str = "rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR[] w KQkq - 0 1";

/// The most the side to move wins by one capture (by SEE) in `pos`.
fn best_capture(pos: &Position) -> i32 {
    pos.legal_moves()
        .iter()
        .filter(|m| pos.captured_role(**m).is_some())
        .filter_map(|m| m.from().map(|from| see(pos, from, m.to())))
        .max()
        .unwrap_or(0)
        .max(0)
}

/// How many of `level`'s moves (one per seed and position) leave a knight's worth or more to
/// be won by a capture, and lose at least 250 centipawns by the quiescence search.
fn hung_pieces(level: Level, nodes: u64) -> usize {
    let rules = Rules::fide();
    let mut hung = 0;
    for a in POSITIONS {
        let positions = parse_bughouse_fen(&format!("{a} | {QUIET_B}"), rules).expect("FENs");
        let mut m = Match::from_positions(rules, TimeControl::default(), positions);
        m.start(Duration::ZERO).expect("starts");
        let pos = m.position(Seat::WHITE_A.board).clone();
        for seed in 0..40 {
            let mut bot = TeamBot::with_hash(level, seed, 1);
            let d = bot.decide(&m, Seat::WHITE_A, Duration::ZERO, Limits::nodes(nodes));
            let Action::Move(mv) = d.action else {
                panic!("sat in a quiet position")
            };
            let mut after = pos.clone();
            after.play_unchecked(mv);
            // What the move loses by the quiescence search (captures and checks): a knight's
            // worth or more is a hung piece; an even trade is not.
            let mut searcher = Searcher::new(1);
            let before = searcher.quiesce(&pos);
            let after_score = -searcher.quiesce(&after);
            if best_capture(&after) >= 300 && before - after_score >= 250 {
                hung += 1;
            }
        }
    }
    hung
}

#[test]
fn level_one_hangs_pieces_sometimes_and_level_eight_does_not() {
    let weak = hung_pieces(Level::MIN, 2_000);
    assert!(
        weak >= 2,
        "level 1 hung a piece in only {weak} of 120 moves"
    );
    assert!(weak <= 40, "level 1 hung a piece in {weak} of 120 moves");
    let strong = hung_pieces(Level::MAX, 20_000);
    assert_eq!(strong, 0, "level 8 hung a piece in {strong} of 120 moves");
}
