//! The hub alone, no sockets, no database: moves per second through `Hub::apply` with the four
//! players and four spectators watching, every effect (messages for eight connections, the
//! store write) built as the server builds it and each message serialised once, as the sender
//! does. The ceiling of one shard.
//!
//! `cargo bench -p bughouse-server --bench hub`

use std::time::Duration;

use bughouse_protocol::{ClientFrame, ClientMessage};
use bughouse_server::hub::{Effect, Hub, Input};
use criterion::{criterion_group, criterion_main, Criterion, Throughput};

/// A seated match with four spectators; the players' connections are 1..=4.
fn seated(hub: &mut Hub, now: Duration) -> String {
    let (id, _) = hub.create_match("fide", "90+0", now).expect("valid");
    for (conn, seat) in [(1, "WhiteA"), (2, "BlackA"), (3, "WhiteB"), (4, "BlackB")] {
        hub.apply(Input::Connected(conn), now);
        hello(hub, conn, &id, now);
        let sit = ClientMessage::Sit {
            seat: seat.parse().expect("a seat"),
            name: format!("p{conn}"),
        };
        hub.apply(Input::Text(conn, serde_json::to_string(&sit).unwrap()), now);
    }
    for conn in 5..=8 {
        hub.apply(Input::Connected(conn), now);
        hello(hub, conn, &id, now);
    }
    id
}

fn hello(hub: &mut Hub, conn: u64, id: &str, now: Duration) {
    let msg = ClientMessage::Hello {
        match_id: id.into(),
        token: None,
    };
    hub.apply(Input::Text(conn, serde_json::to_string(&msg).unwrap()), now);
}

fn moves(c: &mut Criterion) {
    // Knights out and back on both boards: a cycle of eight moves that never ends the match.
    let cycle: [(u64, &str); 8] = [
        (1, "g1f3"),
        (3, "g1f3"),
        (2, "g8f6"),
        (4, "g8f6"),
        (1, "f3g1"),
        (3, "f3g1"),
        (2, "f6g8"),
        (4, "f6g8"),
    ];
    let mut group = c.benchmark_group("hub");
    group.throughput(Throughput::Elements(1));
    group.bench_function("move with 8 watchers", |b| {
        let mut hub = Hub::new([1; 32]);
        let mut now = Duration::from_secs(1);
        seated(&mut hub, now);
        let mut played = 0usize;
        let mut next_id = 1_000u64;
        b.iter(|| {
            let (conn, uci) = cycle[played % cycle.len()];
            // Unique action ids, as a client sends them.
            next_id += 1;
            let frame = ClientFrame {
                id: Some(next_id),
                msg: ClientMessage::Move { uci: uci.into() },
            };
            let text = serde_json::to_string(&frame).unwrap();
            // 20 ms apart: each connection moves every 160 ms, within its rate limit.
            now += Duration::from_millis(20);
            let fx = hub.apply(Input::Text(conn, text), now);
            debug_assert!(fx.iter().any(|e| matches!(e, Effect::Store(_))));
            // Each message serialised once, as the sender does.
            let bytes: usize = fx
                .iter()
                .map(|e| match e {
                    Effect::Send(_, msg) => serde_json::to_string(msg).map_or(0, |t| t.len()),
                    _ => 0,
                })
                .sum();
            played += 1;
            // A fresh match now and then, so the record does not grow without bound.
            if played.is_multiple_of(400) {
                seated(&mut hub, now);
            }
            (fx, bytes)
        });
    });
    group.finish();
}

criterion_group!(benches, moves);
criterion_main!(benches);
