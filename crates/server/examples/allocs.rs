//! Allocations per relayed move: a seated match with four spectators (eight watchers), moves
//! through `Hub::apply` with every effect built as the server builds it, then each message
//! serialised once, as the sender does. Counts heap blocks with dhat's allocator.
//!
//! `cargo run --release -p bughouse-server --example allocs`

use std::time::Duration;

use bughouse_protocol::{ClientFrame, ClientMessage};
use bughouse_server::hub::{encode, Effect, Hub, Input};

#[global_allocator]
static ALLOC: dhat::Alloc = dhat::Alloc;

/// A seated match with four spectators; the players' connections are `first..first + 4`.
fn seated(hub: &mut Hub, first: u64, now: Duration) -> String {
    let (id, _) = hub.create_match("fide", "90+0", now).expect("valid");
    for (i, seat) in ["WhiteA", "BlackA", "WhiteB", "BlackB"]
        .into_iter()
        .enumerate()
    {
        let conn = first + i as u64;
        hub.apply(Input::Connected(conn), now);
        hello(hub, conn, &id, now);
        let sit = ClientMessage::Sit {
            seat: seat.parse().expect("a seat"),
            name: format!("p{conn}"),
        };
        hub.apply(Input::Text(conn, serde_json::to_string(&sit).unwrap()), now);
    }
    for conn in first + 4..first + 8 {
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

/// Blocks and bytes allocated so far.
fn allocated() -> (u64, u64) {
    let stats = dhat::HeapStats::get();
    (stats.total_blocks, stats.total_bytes)
}

fn main() {
    let _profiler = dhat::Profiler::builder().testing().build();
    // Knights out and back on both boards: a cycle of eight moves that never ends the match.
    let cycle: [(u64, &str); 8] = [
        (0, "g1f3"),
        (2, "g1f3"),
        (1, "g8f6"),
        (3, "g8f6"),
        (0, "f3g1"),
        (2, "f3g1"),
        (1, "f6g8"),
        (3, "f6g8"),
    ];
    let mut hub = Hub::new([1; 32]);
    let mut now = Duration::from_secs(1);
    // Other matches live beside it, as on a busy shard.
    for m in 0..100 {
        seated(&mut hub, 1_000 + 8 * m, now);
    }
    seated(&mut hub, 1, now);
    let moves = 4_000u64;
    let (mut frame_blocks, mut apply_blocks, mut send_blocks) = (0, 0, 0);
    let (mut apply_bytes, mut send_bytes, mut messages) = (0, 0, 0);
    for played in 0..moves {
        let (seat, uci) = cycle[(played % 8) as usize];
        let before = allocated();
        // What the websocket adapter hands the hub: the frame's text.
        let frame = ClientFrame {
            id: Some(played + 1),
            msg: ClientMessage::Move { uci: uci.into() },
        };
        let text = serde_json::to_string(&frame).unwrap();
        let framed = allocated();
        // 20 ms apart: each connection moves every 160 ms, within its rate limit.
        now += Duration::from_millis(20);
        let fx = hub.apply(Input::Text(1 + seat, text), now);
        let applied = allocated();
        // Each message serialised once, as the sender does.
        let mut out = Vec::new();
        for e in &fx {
            if let Effect::Send(_, msg) = e {
                let json = encode(msg).unwrap();
                let text = std::str::from_utf8(json.bytes()).expect("UTF-8");
                assert!(!text.contains(r#""type":"error""#), "{text}");
                out.push(json);
                messages += 1;
            }
        }
        let sent = allocated();
        drop((fx, out));
        frame_blocks += framed.0 - before.0;
        apply_blocks += applied.0 - framed.0;
        apply_bytes += applied.1 - framed.1;
        send_blocks += sent.0 - applied.0;
        send_bytes += sent.1 - applied.1;
    }
    let per = |n: u64| n as f64 / moves as f64;
    println!(
        "{moves} moves, 8 watchers each, {:.1} messages per move",
        per(messages)
    );
    println!(
        "  the client's frame (test input, not the server's):  {:>6.1} allocations",
        per(frame_blocks)
    );
    println!(
        "  Hub::apply (parse, play, effects, store write):     {:>6.1} allocations, {:>7.0} bytes",
        per(apply_blocks),
        per(apply_bytes)
    );
    println!(
        "  serialising each message once:                      {:>6.1} allocations, {:>7.0} bytes",
        per(send_blocks),
        per(send_bytes)
    );
    println!(
        "  per relayed move (apply + serialise):               {:>6.1} allocations, {:>7.0} bytes",
        per(apply_blocks + send_blocks),
        per(apply_bytes + send_bytes)
    );
}
