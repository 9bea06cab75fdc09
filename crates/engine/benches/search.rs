//! Search speed on a fixed set of positions at fixed depth. Run with
//! `cargo bench -p bughouse-engine --bench search`; criterion reports the time per search.
//! For nodes per second, `cargo run --release -p bughouse-engine --example nps`.

use bughouse_core::{Position, Rules};
use bughouse_engine::{Limits, Searcher};
use criterion::{criterion_group, criterion_main, BenchmarkId, Criterion};

/// (name, FEN, rules, depth)
const POSITIONS: [(&str, &str, bool, u32); 3] = [
    (
        "start",
        "rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR[] w KQkq - 0 1",
        false,
        6,
    ),
    (
        "bughouse-middlegame",
        "r1bqk2r/pppp1ppp/2n1p3/4P3/1b1Pn3/2NB1N2/PPP2PPP/R1BQK2R[Np] b KQkq - 0 1",
        false,
        5,
    ),
    (
        "crazyhouse-drops",
        "r2q1rk1/ppp2ppp/2np1n2/2b1p3/2B1P1b1/2NP1N2/PPP2PPP/R1BQ1RK1[Pp] w - - 0 8",
        true,
        5,
    ),
];

fn bench_search(c: &mut Criterion) {
    let mut group = c.benchmark_group("search");
    group.sample_size(10);
    for (name, fen, zh, depth) in POSITIONS {
        let rules = if zh {
            Rules::crazyhouse()
        } else {
            Rules::fide()
        };
        let pos = Position::from_fen(fen, rules).expect("valid FEN");
        group.bench_with_input(BenchmarkId::new(name, depth), &pos, |b, pos| {
            b.iter(|| {
                let mut searcher = Searcher::new(16);
                searcher.search(pos, Limits::depth(depth), &mut |_| {})
            })
        });
    }
    group.finish();
}

criterion_group!(benches, bench_search);
criterion_main!(benches);
