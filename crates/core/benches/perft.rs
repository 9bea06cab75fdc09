//! Perft speed of this crate's move generator against shakmaty's crazyhouse, on the positions
//! of the rules-engine issue. Run with `cargo bench -p bughouse-core --bench perft`; criterion
//! reports leaves per second as "elem/s".

use bughouse_core::{perft, Position, Rules};
use criterion::{criterion_group, criterion_main, BenchmarkId, Criterion, Throughput};
use shakmaty::fen::Fen;
use shakmaty::variant::Crazyhouse;
use shakmaty::CastlingMode;

/// (name, FEN, depth)
const POSITIONS: [(&str, &str, u32); 3] = [
    (
        "start-d6",
        "rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR[] w KQkq - 0 1",
        6,
    ),
    (
        "middlegame-d5",
        "r1bqk2r/pppp1ppp/2n1p3/4P3/1b1Pn3/2NB1N2/PPP2PPP/R1BQK2R[] b KQkq - 0 1",
        5,
    ),
    (
        "drops-d4",
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

fn bench_perft(c: &mut Criterion) {
    let mut group = c.benchmark_group("perft-crazyhouse");
    group.sample_size(10);
    for (name, fen, depth) in POSITIONS {
        let ours = Position::from_fen(fen, Rules::crazyhouse()).expect("valid FEN");
        let theirs = shakmaty_position(fen);
        let nodes = perft(&ours, depth);
        assert_eq!(nodes, shakmaty::perft(&theirs, depth), "{name}");
        group.throughput(Throughput::Elements(nodes));
        group.bench_with_input(BenchmarkId::new("bughouse", name), &ours, |b, pos| {
            b.iter(|| perft(pos, depth))
        });
        group.bench_with_input(BenchmarkId::new("shakmaty", name), &theirs, |b, pos| {
            b.iter(|| shakmaty::perft(pos, depth))
        });
    }
    group.finish();
}

criterion_group!(benches, bench_perft);
criterion_main!(benches);
