//! Our static evaluation, quiescence score and search score (at NODES nodes) of every EVERY-th
//! position of a file as `bughouse tune positions` writes them (`RESULT FEN` lines, bughouse
//! rules), one line per position: `FEN<TAB>static<TAB>quiesce<TAB>search`, centipawns for the
//! side to move. What `scripts/eval-sight.py` holds against Fairy-Stockfish's.
//! `cargo run --release -p bughouse-engine --example evals FILE NODES EVERY [WEIGHTS]`, with
//! the weights of a `bughouse tune` file if given; NODES 0 leaves the search out (its column 0).

use bughouse_core::{Position, Rules};
use bughouse_engine::{evaluate_with, EngineParams, EvalParams, Limits, Searcher};

fn main() {
    let args: Vec<String> = std::env::args().skip(1).collect();
    let (file, nodes, every, weights) = match args.as_slice() {
        [file, nodes, every] => (file, nodes, every, None),
        [file, nodes, every, weights] => (file, nodes, every, Some(weights)),
        _ => {
            eprintln!("usage: evals FILE NODES EVERY [WEIGHTS]");
            std::process::exit(2);
        }
    };
    let params = match weights {
        Some(path) => EngineParams::from_file(std::path::Path::new(path)).expect("a weights file"),
        None => EngineParams::DEFAULT,
    };
    let eval: EvalParams = params.eval;
    let nodes: u64 = nodes.parse().expect("NODES is a number");
    let every: usize = every.parse().expect("EVERY is a number");
    let text = std::fs::read_to_string(file).expect("readable positions file");
    // One searcher, its table and histories forgotten before each position.
    let mut searcher = Searcher::new(16);
    searcher.set_params(params);
    for line in text.lines().step_by(every.max(1)) {
        let Some((_, fen)) = line.split_once(' ') else {
            continue;
        };
        let Ok(pos) = Position::from_fen(fen, Rules::fide()) else {
            continue;
        };
        if pos.legal_moves().len() < 2 {
            continue;
        }
        searcher.clear();
        let quiet = searcher.quiesce(&pos);
        let score = if nodes == 0 {
            0
        } else {
            searcher.clear();
            searcher
                .search(&pos, Limits::nodes(nodes), &mut |_| {})
                .score
        };
        println!("{fen}\t{}\t{quiet}\t{score}", evaluate_with(&pos, &eval));
    }
}
