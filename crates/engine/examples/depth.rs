//! The depth the search reaches in a fixed number of nodes, per search configuration, over the
//! positions of a file as `bughouse tune positions` writes them (`RESULT FEN` lines, bughouse
//! rules): `cargo run --release -p bughouse-engine --example depth FILE NODES EVERY CONFIG...`
//! (every `EVERY`th position). How much deeper a change of the search sees for the same work.

use bughouse_core::{Position, Rules};
use bughouse_engine::{Limits, SearchConfig, Searcher};

fn main() {
    let args: Vec<String> = std::env::args().skip(1).collect();
    let [file, nodes, every, configs @ ..] = args.as_slice() else {
        eprintln!("usage: depth FILE NODES EVERY CONFIG...");
        std::process::exit(2);
    };
    let nodes: u64 = nodes.parse().expect("NODES is a number");
    let every: usize = every.parse().expect("EVERY is a number");
    let text = std::fs::read_to_string(file).expect("readable positions file");
    let positions: Vec<Position> = text
        .lines()
        .step_by(every.max(1))
        .filter_map(|line| line.split_once(' '))
        .filter_map(|(_, fen)| Position::from_fen(fen, Rules::fide()).ok())
        .filter(|pos| pos.legal_moves().len() > 1)
        .collect();
    for name in configs {
        let config = SearchConfig::named(name).expect("a configuration name");
        let mut depths = 0u64;
        let mut hist = [0u32; 32];
        for pos in &positions {
            let mut searcher = Searcher::new(16);
            searcher.set_config(config);
            let r = searcher.search(pos, Limits::nodes(nodes), &mut |_| {});
            depths += u64::from(r.depth);
            hist[(r.depth as usize).min(31)] += 1;
        }
        let shown: Vec<String> = hist
            .iter()
            .enumerate()
            .filter(|(_, &n)| n > 0)
            .map(|(d, n)| format!("d{d}:{n}"))
            .collect();
        println!(
            "{name:12} mean depth {:.2} over {} positions at {nodes} nodes  {}",
            depths as f64 / positions.len() as f64,
            positions.len(),
            shown.join(" ")
        );
    }
}
