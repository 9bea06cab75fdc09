//! Prints leaves per second of this crate's perft and shakmaty's crazyhouse perft on the three
//! positions of the rules-engine issue, measured in the same run (best of 3).
//!
//! `cargo run --release -p bughouse-core --example perft_vs_shakmaty`

use std::time::{Duration, Instant};

use bughouse_core::{perft, Position, Rules};
use shakmaty::fen::Fen;
use shakmaty::variant::Crazyhouse;
use shakmaty::CastlingMode;

const POSITIONS: [(&str, u32); 3] = [
    (
        "rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR[] w KQkq - 0 1",
        6,
    ),
    (
        "r1bqk2r/pppp1ppp/2n1p3/4P3/1b1Pn3/2NB1N2/PPP2PPP/R1BQK2R[] b KQkq - 0 1",
        5,
    ),
    (
        "5R2/2p1Nb2/2B4k/6p1/8/P3PP2/1PPqR3/3R1BKn[QBNPPPPrrrnppp] b - - 1 1",
        4,
    ),
];

fn shakmaty_position(fen: &str) -> Crazyhouse {
    let setup = fen.parse::<Fen>().expect("valid FEN");
    match setup.into_position(CastlingMode::Standard) {
        Ok(pos) => pos,
        // shakmaty counts a ninth pawn (board and reserve together) as too much material.
        Err(e) => e.ignore_too_much_material().expect("legal position"),
    }
}

fn best_of_3(mut f: impl FnMut() -> u64) -> (u64, Duration) {
    let mut best = Duration::MAX;
    let mut nodes = 0;
    for _ in 0..3 {
        let start = Instant::now();
        nodes = f();
        best = best.min(start.elapsed());
    }
    (nodes, best)
}

fn main() {
    println!(
        "| position | depth | leaves | bughouse (M leaves/s) | shakmaty 0.30.1 (M leaves/s) |"
    );
    println!("|---|---|---|---|---|");
    for (fen, depth) in POSITIONS {
        let ours = Position::from_fen(fen, Rules::crazyhouse()).expect("valid FEN");
        let theirs = shakmaty_position(fen);
        let (n1, t1) = best_of_3(|| perft(&ours, depth));
        let (n2, t2) = best_of_3(|| shakmaty::perft(&theirs, depth));
        assert_eq!(n1, n2, "node counts differ for {fen}");
        let rate = |n: u64, t: Duration| n as f64 / t.as_secs_f64() / 1e6;
        println!(
            "| `{fen}` | {depth} | {n1} | {:.1} | {:.1} |",
            rate(n1, t1),
            rate(n2, t2)
        );
    }
}
