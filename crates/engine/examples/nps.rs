//! Nodes per second of the search on a fixed set of positions:
//! `cargo run --release -p bughouse-engine --example nps [SECONDS_PER_POSITION | dDEPTH] [CONFIG]`
//! (`d9`: every position to depth 9, to compare the nodes a depth costs; `CONFIG`: a search
//! configuration by name, `SearchConfig::named`, e.g. `base`, the search without drop-aware
//! pruning, for comparison).

use std::time::{Duration, Instant};

use bughouse_core::{Position, Rules};
use bughouse_engine::{Limits, SearchConfig, Searcher};

const POSITIONS: [(&str, bool); 5] = [
    (
        "rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR[] w KQkq - 0 1",
        false,
    ),
    (
        "r1bqk2r/pppp1ppp/2n1p3/4P3/1b1Pn3/2NB1N2/PPP2PPP/R1BQK2R[Np] b KQkq - 0 1",
        false,
    ),
    (
        "r2q1rk1/ppp2ppp/2np1n2/2b1p3/2B1P1b1/2NP1N2/PPP2PPP/R1BQ1RK1[Pp] w - - 0 8",
        true,
    ),
    (
        "r1b2rk1/pp1nqppp/2p1p3/3pP3/3P4/2PB1N2/PP3PPP/R2Q1RK1[BNPbp] w - - 0 12",
        false,
    ),
    (
        "5R2/2p1Nb2/2B4k/6p1/8/P3PP2/1PPqR3/3R1BKn[QBNPPPPrrrnppp] b - - 1 1",
        false,
    ),
];

fn main() {
    let arg = std::env::args().nth(1).unwrap_or_default();
    let depth: Option<u32> = arg.strip_prefix('d').and_then(|d| d.parse().ok());
    let secs: f64 = arg.parse().unwrap_or(2.0);
    let config = std::env::args()
        .nth(2)
        .and_then(|name| SearchConfig::named(&name))
        .unwrap_or(SearchConfig::DEFAULT);
    let mut total_nodes = 0u64;
    let mut total_time = Duration::ZERO;
    for (fen, zh) in POSITIONS {
        let rules = if zh {
            Rules::crazyhouse()
        } else {
            Rules::fide()
        };
        let pos = Position::from_fen(fen, rules).expect("valid FEN");
        let mut searcher = Searcher::new(64);
        searcher.set_config(config);
        let start = Instant::now();
        let limits = match depth {
            Some(d) => Limits::depth(d),
            None => Limits::time(Duration::from_secs_f64(secs)),
        };
        let result = searcher.search(&pos, limits, &mut |_| {});
        let elapsed = start.elapsed();
        total_nodes += result.nodes;
        total_time += elapsed;
        println!(
            "depth {:2}  score {:6}  nodes {:9}  nps {:9.0}  best {}  {}",
            result.depth,
            result.score,
            result.nodes,
            result.nodes as f64 / elapsed.as_secs_f64(),
            result.best.map_or("-".to_string(), |m| m.to_string()),
            fen
        );
    }
    println!(
        "total: {} nodes in {:.2} s: {:.0} nodes per second",
        total_nodes,
        total_time.as_secs_f64(),
        total_nodes as f64 / total_time.as_secs_f64()
    );
}
