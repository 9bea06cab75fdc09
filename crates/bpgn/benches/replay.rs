//! Replay speed on the real archives: games per second. Run with
//! `cargo bench -p bughouse-bpgn --bench replay`; criterion reports games per second as
//! "elem/s".

use bughouse_bpgn::{read_games, replay};
use criterion::{criterion_group, criterion_main, Criterion, Throughput};

fn data(name: &str) -> Vec<u8> {
    let path = format!("{}/../../../shared/data/{name}", env!("CARGO_MANIFEST_DIR"));
    std::fs::read(&path).unwrap_or_else(|e| panic!("{path}: {e}"))
}

fn bench_replay(c: &mut Criterion) {
    let mut group = c.benchmark_group("replay");
    group.sample_size(20);
    for name in ["crazyhouse/fics-2001-2200plus.pgn", "bpgn/fics-2005.bpgn"] {
        let bytes = data(name);
        let games = read_games(&bytes).count() as u64;
        group.throughput(Throughput::Elements(games));
        group.bench_function(name, |b| {
            b.iter(|| {
                read_games(&bytes)
                    .filter_map(Result::ok)
                    .filter(|g| replay(g, None).is_ok())
                    .count()
            })
        });
    }
    group.finish();
}

criterion_group!(benches, bench_replay);
criterion_main!(benches);
