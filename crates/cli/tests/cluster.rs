//! Three `bughouse serve --bus` nodes on one PostgreSQL and one Redis (loopback, started by
//! .ci/postgres.sh and .ci/redis.sh): a match played by players on different nodes and watched
//! from a third; the owner killed mid-match and the match going on through the others with
//! every acknowledged move; a node stopped politely handing its match over. Tournaments and
//! "play now" across the nodes: `cluster/site.rs`; a node restarted under its id:
//! `cluster/restart.rs`.

#[path = "cluster/harness.rs"]
mod harness;
#[path = "cluster/restart.rs"]
mod restart;
#[path = "cluster/site.rs"]
mod site;

use std::time::{Duration, Instant};

use bughouse_protocol::{ClientMessage, ServerMessage, TalkKind};
use harness::*;

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn four_players_on_different_nodes_and_a_spectator_play_a_match_to_its_end() {
    let Some((database, bus)) = backends("cluster_play").await else {
        return;
    };
    let dir = log_dir("cluster-play");
    let tag = unique() % 1_000_000;
    let n1 = Node::start(&database, &bus, &format!("p1-{tag}"), &dir).await;
    let n2 = Node::start(&database, &bus, &format!("p2-{tag}"), &dir).await;
    let n3 = Node::start(&database, &bus, &format!("p3-{tag}"), &dir).await;

    // Created on n1, which owns it; the players sit through n1, n2, n3 and n2.
    let id = create_match(n1.addr).await;
    let (mut clients, _tokens) = seat_four([n1.addr, n2.addr, n3.addr, n2.addr], &id).await;
    let (spectator, state) = {
        let mut c = Client::connect(n3.addr, "spectator").await;
        let (state, you) = c.hello(&id, None).await;
        assert_eq!(you, None);
        (c, state)
    };
    assert_eq!(state.status, "playing");
    clients.push(spectator);

    // Every node's lobby lists the match in progress, which n1 owns (each node's part is in
    // Redis, written every second).
    for node in [&n2, &n3] {
        let deadline = Instant::now() + Duration::from_secs(5);
        loop {
            let answer = get(node.addr, "/api/lobby").await;
            assert_eq!(answer.status, 200, "{}", answer.body);
            let lobby: bughouse_protocol::lobby::LobbySnapshot =
                serde_json::from_str(&answer.body).expect("a lobby");
            if lobby.live.iter().any(|g| g.match_id == id) {
                assert!(lobby.playing >= 4, "{}", answer.body);
                break;
            }
            assert!(
                Instant::now() < deadline,
                "not in the lobby: {}",
                answer.body
            );
            tokio::time::sleep(Duration::from_millis(200)).await;
        }
    }

    // Partner talk reaches the partner (BlackB, on n2) and nobody else: WhiteA (n1) tells
    // BlackB; the next message the others get is the next move.
    clients[0]
        .act(ClientMessage::Talk {
            kind: TalkKind::Text,
            piece: None,
            text: Some("hold your knight".into()),
        })
        .await;
    let heard = clients[3]
        .until(|m| match m {
            ServerMessage::Talk { entry } => entry.text.clone(),
            _ => None,
        })
        .await;
    assert_eq!(heard, "hold your knight");

    let mut played = Vec::new();
    for (seat, uci) in [
        (0, "e2e4"),
        (2, "d2d4"),
        (1, "e7e5"),
        (3, "d7d5"),
        (0, "f1c4"),
        (1, "b8c6"),
        (0, "d1h5"),
        (1, "g8f6"),
    ] {
        if played.is_empty() {
            // Nobody but BlackB heard the talk: BlackA's, WhiteB's and the spectator's next
            // message is the first move.
            clients[seat]
                .act(ClientMessage::Move {
                    uci: uci.to_owned(),
                })
                .await;
            for who in [1, 2, 4] {
                let next = loop {
                    match clients[who].recv().await {
                        ServerMessage::Talk { .. } => panic!("{} heard the talk", clients[who].who),
                        m @ ServerMessage::Moved { .. } => break m,
                        _ => {}
                    }
                };
                assert!(matches!(next, ServerMessage::Moved { .. }));
            }
            for who in [0, 3] {
                clients[who]
                    .until(|m| matches!(m, ServerMessage::Moved { .. }).then_some(()))
                    .await;
            }
        } else {
            play(&mut clients, seat, uci).await;
        }
        played.push(uci);
    }
    // A node that does not own the match serves its state from the store.
    let seen = state_of(n3.addr, &id).await;
    let ucis: Vec<&str> = seen.moves.iter().map(|m| m.uci.as_str()).collect();
    assert_eq!(ucis, played);

    play(&mut clients, 0, "h5f7").await;
    all_see_result(&mut clients, "1-0").await;
    let answer = get(n2.addr, &format!("/api/matches/{id}/bpgn")).await;
    assert!(answer.body.contains("Qxf7#"), "{}", answer.body);
    drop(clients);
    drop((n1, n2, n3));
    let _ = std::fs::remove_dir_all(&dir);
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn the_owner_killed_mid_match_the_match_goes_on_through_the_others() {
    let Some((database, bus)) = backends("cluster_kill").await else {
        return;
    };
    let dir = log_dir("cluster-kill");
    let tag = unique() % 1_000_000;
    let mut n1 = Node::start(&database, &bus, &format!("k1-{tag}"), &dir).await;
    let n2 = Node::start(&database, &bus, &format!("k2-{tag}"), &dir).await;
    let n3 = Node::start(&database, &bus, &format!("k3-{tag}"), &dir).await;

    // Owned by n1; every player is on n2 or n3, so the match is relayed to n1.
    let id = create_match(n1.addr).await;
    let at = [n2.addr, n3.addr, n2.addr, n3.addr];
    let (mut clients, tokens) = seat_four(at, &id).await;
    let mut played = Vec::new();
    for (seat, uci) in [
        (0, "e2e4"),
        (2, "d2d4"),
        (1, "e7e5"),
        (3, "d7d5"),
        (0, "f1c4"),
    ] {
        play(&mut clients, seat, uci).await;
        played.push(uci);
    }
    let before = state_of(n2.addr, &id).await;
    assert_eq!(before.clocks.running, ["BlackA", "WhiteB"]);

    n1.kill();
    let killed = Instant::now();
    // The sockets relayed to the dead owner are closed once its node key lapses.
    for c in &mut clients {
        assert!(
            c.closed_within(Duration::from_secs(15)).await,
            "{}: the relayed socket stays open after its owner died",
            c.who
        );
    }
    let closed = killed.elapsed();
    // Everyone comes back, to n2 or n3 (swapped), with the seat tokens.
    let swapped = at.map(|a| if a == n2.addr { n3.addr } else { n2.addr });
    let (mut clients, states) = rejoin_four(swapped, &id, &tokens, Duration::from_secs(20)).await;
    for state in &states {
        let ucis: Vec<&str> = state.moves.iter().map(|m| m.uci.as_str()).collect();
        assert_eq!(ucis, played, "every acknowledged move after the takeover");
        assert_eq!(state.status, "playing");
    }
    // The takeover (some seconds) is not charged to the players to move: only up to the dead
    // owner's last heartbeat (at most a second) and the moments around.
    let after = &states[1];
    for (seat, name) in SEATS.iter().enumerate() {
        let was = i64::try_from(before.clocks.remaining_ms[seat]).expect("a sane clock");
        let now = i64::try_from(after.clocks.remaining_ms[seat]).expect("a sane clock");
        if before.clocks.running.iter().any(|s| s == name) {
            assert!(
                was - now < 3000,
                "{name}: charged {} ms across a takeover of {:?}",
                was - now,
                killed.elapsed()
            );
        } else {
            assert!((-2..=2).contains(&(was - now)), "{name}: {was} -> {now}");
        }
    }
    play(&mut clients, 1, "b8c6").await;
    let first_move = killed.elapsed();
    eprintln!(
        "takeover: sockets closed {} ms after the kill, first move accepted again after {} ms",
        closed.as_millis(),
        first_move.as_millis()
    );
    for (seat, uci) in [(0, "d1h5"), (1, "g8f6"), (0, "h5f7")] {
        play(&mut clients, seat, uci).await;
    }
    played.extend(["b8c6", "d1h5", "g8f6", "h5f7"]);
    all_see_result(&mut clients, "1-0").await;
    // The record holds every move, once.
    let done = state_of(n3.addr, &id).await;
    let ucis: Vec<&str> = done.moves.iter().map(|m| m.uci.as_str()).collect();
    assert_eq!(ucis, played);
    let answer = get(n2.addr, &format!("/api/matches/{id}/bpgn")).await;
    for san in ["1A. e4", "d4", "Bc4", "Qxf7#"] {
        assert!(answer.body.contains(san), "{san} in {}", answer.body);
    }
    drop(clients);
    drop((n1, n2, n3));
    let _ = std::fs::remove_dir_all(&dir);
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_node_stopped_politely_hands_its_match_over_at_once() {
    let Some((database, bus)) = backends("cluster_stop").await else {
        return;
    };
    let dir = log_dir("cluster-stop");
    let tag = unique() % 1_000_000;
    let n1 = Node::start(&database, &bus, &format!("s1-{tag}"), &dir).await;
    let n2 = Node::start(&database, &bus, &format!("s2-{tag}"), &dir).await;

    let id = create_match(n1.addr).await;
    let (mut clients, tokens) = seat_four([n2.addr; 4], &id).await;
    for (seat, uci) in [(0, "e2e4"), (1, "e7e5")] {
        play(&mut clients, seat, uci).await;
    }
    n1.terminate();
    let stopped = Instant::now();
    for c in &mut clients {
        assert!(c.closed_within(Duration::from_secs(5)).await, "{}", c.who);
    }
    let (mut back, states) = rejoin_four([n2.addr; 4], &id, &tokens, Duration::from_secs(10)).await;
    assert!(states.iter().all(|s| s.moves.len() == 2));
    play(&mut back, 0, "f1c4").await;
    let handed = stopped.elapsed();
    eprintln!(
        "polite stop: first move accepted again {} ms after SIGTERM",
        handed.as_millis()
    );
    // Well within a lease's lapse (5 s): the leases were released, not left to expire.
    assert!(handed < Duration::from_secs(4), "{handed:?}");
    drop(back);
    drop((n1, n2));
    let _ = std::fs::remove_dir_all(&dir);
}

#[test]
fn a_bus_with_sqlite_is_refused_with_a_clear_error() {
    let out = std::process::Command::new(env!("CARGO_BIN_EXE_bughouse"))
        .args([
            "serve",
            "--addr",
            "127.0.0.1:0",
            "--database",
            "sqlite::memory:",
            "--bus",
            "redis://127.0.0.1:1",
        ])
        .output()
        .expect("the bughouse binary runs");
    assert!(!out.status.success());
    let stderr = String::from_utf8_lossy(&out.stderr);
    assert!(
        stderr.contains("--bus needs a PostgreSQL database"),
        "{stderr}"
    );
}
