//! What storing moves costs, without a server: `N` live matches, moves stored in batches of `B`
//! (one transaction each, as the server's writer stores what its shards queued), SQLite's
//! checkpoints run beside them as the server runs them. Prints moves per second, the process's
//! CPU time per move, and the commits' wall time.
//!
//! ```sh
//! cargo run --release -p bughouse-loadtest --example write_load -- \
//!     [--db sqlite:///tmp/wl.db] [--matches 4900] [--moves 300000] [--batch 170] [--checkpoint-ms 50]
//! ```

use std::time::{Duration, Instant};

use bughouse_loadtest::procfs;
use bughouse_store::{NewMatch, Store, StoredMove, Write};

struct Args {
    db: String,
    matches: usize,
    moves: usize,
    batch: usize,
    checkpoint_ms: u64,
}

fn args() -> Args {
    let mut a = Args {
        db: "sqlite:///tmp/write_load.db".into(),
        matches: 4900,
        moves: 300_000,
        batch: 170,
        checkpoint_ms: 50,
    };
    let mut it = std::env::args().skip(1);
    while let Some(flag) = it.next() {
        let value = it.next().unwrap_or_else(|| panic!("{flag} needs a value"));
        let number = || {
            value
                .parse::<u64>()
                .unwrap_or_else(|_| panic!("{flag}: not a number"))
        };
        match flag.as_str() {
            "--db" => a.db = value.clone(),
            "--matches" => a.matches = number() as usize,
            "--moves" => a.moves = number() as usize,
            "--batch" => a.batch = number() as usize,
            "--checkpoint-ms" => a.checkpoint_ms = number(),
            other => panic!("unknown option {other}"),
        }
    }
    a
}

/// The process's CPU time so far (user + system).
fn cpu() -> Duration {
    let ticks = procfs::cpu_ticks("self", false).unwrap_or(0);
    Duration::from_secs_f64(ticks as f64 / procfs::USER_HZ)
}

/// A match id like the server's: eight letters that do not sort in creation order.
fn match_id(i: usize) -> String {
    let mut x = (i as u64 + 1).wrapping_mul(0x9e37_79b9_7f4a_7c15);
    (0..8)
        .map(|_| {
            x ^= x >> 29;
            x = x.wrapping_mul(0xbf58_476d_1ce4_e5b9);
            char::from(b'a' + (x % 26) as u8)
        })
        .collect()
}

#[tokio::main]
async fn main() {
    let a = args();
    if let Some(path) = a.db.strip_prefix("sqlite://") {
        for suffix in ["", "-wal", "-shm"] {
            let _ = std::fs::remove_file(format!("{path}{suffix}"));
        }
    }
    let store = Store::connect(&a.db).await.expect("connect");
    let ids: Vec<String> = (0..a.matches).map(match_id).collect();
    let mut setup = Vec::new();
    for id in &ids {
        setup.push(Write::CreateMatch(NewMatch {
            id: id.clone(),
            rules_preset: "fide".into(),
            rules_json: "{}".into(),
            base_ms: 300_000,
            increment_ms: 0,
            created_at_ms: 0,
            rematch_of: None,
            rated: false,
            allow_bots: false,
        }));
        setup.push(Write::StartMatch {
            match_id: id.clone(),
            started_at_ms: 0,
        });
    }
    for chunk in setup.chunks(1000) {
        for r in store.apply_batch(chunk).await {
            r.expect("setup");
        }
    }
    let checkpointer = {
        let store = store.clone();
        let every = Duration::from_millis(a.checkpoint_ms.max(1));
        tokio::spawn(async move {
            let mut tick = tokio::time::interval(every);
            loop {
                tick.tick().await;
                let _ = store.checkpoint().await;
            }
        })
    };
    let mut plies = vec![0i64; a.matches];
    let mut commits = Vec::new();
    let (cpu0, t0) = (cpu(), Instant::now());
    let mut next = 0usize;
    let mut done = 0usize;
    while done < a.moves {
        let n = a.batch.min(a.moves - done);
        let batch: Vec<Write> = (0..n)
            .map(|k| {
                // Matches take turns in a scrambled order, as moves arrive on a server.
                let m = (next + k * 7919) % a.matches;
                let ply = plies[m];
                plies[m] += 1;
                Write::RecordMove(StoredMove {
                    match_id: ids[m].clone(),
                    ply,
                    seat: (ply % 4) as u8,
                    uci: "e2e4".into(),
                    san: "e4".into(),
                    at_ms: ply * 500,
                    clock_ms: 290_000,
                    remaining_ms: [290_000; 4],
                    action_id: Some(ply),
                    lag_ms: 0,
                })
            })
            .collect();
        next += 1;
        let start = Instant::now();
        for r in store.apply_batch(&batch).await {
            r.expect("move");
        }
        commits.push(start.elapsed());
        done += n;
    }
    let (cpu1, wall) = (cpu(), t0.elapsed());
    checkpointer.abort();
    commits.sort();
    let q = |p: f64| commits[((commits.len() as f64 - 1.0) * p) as usize];
    println!(
        "{} moves of {} matches in batches of {}, checkpoint every {} ms: {:.0} moves/s, \
         CPU {:.1} µs a move, commit p50 {:.2} ms p99 {:.2} ms",
        done,
        a.matches,
        a.batch,
        a.checkpoint_ms,
        done as f64 / wall.as_secs_f64(),
        (cpu1 - cpu0).as_secs_f64() * 1e6 / done as f64,
        q(0.5).as_secs_f64() * 1e3,
        q(0.99).as_secs_f64() * 1e3,
    );
}
