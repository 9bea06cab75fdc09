//! `bughouse serve` killed in the middle of a match (SIGKILL, as a crash) and started again on
//! the same database and port: the players come back with their seat tokens, the moves are all
//! there, the downtime is charged to nobody, and the match goes on to mate.

// The server processes and websocket players of the cluster tests (here without a bus: one
// server on SQLite); what this test does not use of the harness is left unused.
#[allow(dead_code)]
#[path = "cluster/harness.rs"]
mod harness;

use std::net::SocketAddr;
use std::path::Path;
use std::time::Duration;

use bughouse_protocol::{
    ArchiveEntry, ClientMessage, Clocks, CreateMatch, MatchState, ServerMessage,
};
use harness::{free_port, get, target, Client, Node, PATIENCE, SEATS};

/// `bughouse serve` on `addr` with the SQLite `database`, its log in `log`.
async fn start(addr: SocketAddr, database: &str, log: &Path) -> Node {
    Node::serve(addr, &["--database", database], log).await
}

/// `seat` plays `uci`; every client gets the `moved`. Returns the clocks it carried.
async fn play(clients: &mut [Client], seat: usize, uci: &str) -> Clocks {
    clients[seat]
        .send(ClientMessage::Move {
            uci: uci.to_owned(),
        })
        .await;
    let mut clocks = None;
    for c in clients.iter_mut() {
        let (mv, cl) = c
            .until(|m| match m {
                ServerMessage::Moved { mv, clocks, .. } => Some((mv.clone(), clocks.clone())),
                _ => None,
            })
            .await;
        assert_eq!(mv.uci, uci);
        assert_eq!(mv.seat, SEATS[seat]);
        clocks.get_or_insert(cl);
    }
    clocks.expect("four clients")
}

fn remaining(state: &MatchState, seat: usize) -> i64 {
    i64::try_from(state.clocks.remaining_ms[seat]).expect("a sane clock")
}

#[tokio::test]
async fn a_killed_server_resumes_the_match_with_the_same_moves_and_clocks() {
    let dir = Path::new(env!("CARGO_TARGET_TMPDIR")).join(format!(
        "restart-{}-{}",
        std::process::id(),
        std::time::SystemTime::now()
            .duration_since(std::time::UNIX_EPOCH)
            .expect("after 1970")
            .as_nanos()
    ));
    std::fs::create_dir_all(&dir).expect("a test directory");
    let database = format!("sqlite://{}", dir.join("bughouse.db").display());
    let addr = free_port();

    let mut server = start(addr, &database, &dir.join("first.log")).await;
    let create = CreateMatch {
        rules: "fide".into(),
        time_control: "5+0".into(),
        custom: Default::default(),
        ..Default::default()
    };
    let answer = tokio::time::timeout(PATIENCE, target(addr).post("/api/matches", &create))
        .await
        .expect("the server answers in time")
        .expect("the HTTP request succeeds");
    assert_eq!(answer.status, 201, "{}", answer.body);
    let id: bughouse_protocol::CreatedMatch =
        serde_json::from_str(&answer.body).expect("a match id");
    let id = id.match_id;

    let mut clients = Vec::new();
    let mut tokens = Vec::new();
    for (i, seat) in SEATS.iter().enumerate() {
        let mut c = Client::connect(addr, SEATS[i]).await;
        c.hello(&id, None).await;
        c.send(ClientMessage::Sit {
            seat: seat.parse().expect("a seat name"),
            name: format!("{seat} player"),
        })
        .await;
        let token = c
            .until(|m| match m {
                ServerMessage::Seated { token, .. } => Some(token.clone()),
                _ => None,
            })
            .await;
        tokens.push(token);
        clients.push(c);
    }
    for c in &mut clients {
        c.until(|m| match m {
            ServerMessage::State { state, .. } if state.status == "playing" => Some(()),
            _ => None,
        })
        .await;
    }

    // Both boards move; then WhiteA thinks for a while, so that the match time of the last
    // move is well past the time the restarted server takes to come back.
    let mut played = Vec::new();
    for (seat, uci) in [(0, "e2e4"), (2, "d2d4"), (1, "e7e5"), (3, "d7d5")] {
        play(&mut clients, seat, uci).await;
        played.push(uci);
    }
    tokio::time::sleep(Duration::from_secs(3)).await;
    let before = play(&mut clients, 0, "f1c4").await;
    played.push("f1c4");
    assert_eq!(before.running, ["BlackA", "WhiteB"]);
    // WhiteA was charged his thinking time.
    assert!(before.remaining_ms[0] <= 297_000, "{before:?}");

    // BlackA and WhiteB think 2.5 s; then a crash, down for a while, back on the same database
    // and port.
    let thinking = Duration::from_millis(2500);
    tokio::time::sleep(thinking).await;
    drop(clients);
    server.kill();
    let down = Duration::from_secs(3);
    tokio::time::sleep(down).await;
    let mut server = start(addr, &database, &dir.join("second.log")).await;

    let mut clients = Vec::new();
    let mut states = Vec::new();
    for (i, token) in tokens.iter().enumerate() {
        let mut c = Client::connect(addr, SEATS[i]).await;
        let (state, you) = c.hello(&id, Some(token.clone())).await;
        assert_eq!(
            you.as_deref(),
            Some(SEATS[i]),
            "the token opens the seat again"
        );
        clients.push(c);
        states.push(state);
    }
    let state = states.last().expect("four states").clone();
    assert_eq!(state.status, "playing");
    let ucis: Vec<&str> = state.moves.iter().map(|m| m.uci.as_str()).collect();
    assert_eq!(ucis, played, "the same moves after the restart");
    assert_eq!(state.seats[0].name.as_deref(), Some("WhiteA player"));
    assert_eq!(state.clocks.running, ["BlackA", "WhiteB"]);
    // BlackA (to move on board A) has his legal moves again.
    let a = &states[1].boards[0];
    assert!(
        a.legal
            .as_ref()
            .is_some_and(|l| l.iter().any(|m| m == "b8c6")),
        "{a:?}"
    );

    // The players to move are charged their thinking up to the server's last heartbeat (one a
    // second: between 1.5 and 2.5 s of the 2.5 s, plus the moments of the restart), the downtime
    // (3 s) to nobody; the others' clocks are as they were (the store keeps whole
    // milliseconds, hence a little slack).
    for (seat, name) in SEATS.iter().enumerate() {
        let was = i64::try_from(before.remaining_ms[seat]).expect("a sane clock");
        let now = remaining(&state, seat);
        let charged = was - now;
        if before.running.iter().any(|s| s == name) {
            assert!(
                (1400..2900).contains(&charged),
                "{name}: {was} ms at the last move, {now} ms after the restart"
            );
        } else {
            assert!(
                (-2..=2).contains(&charged),
                "{name}: {was} ms at the last move, {now} ms after the restart"
            );
        }
    }

    // And the clocks run again: the players to move are charged from now on.
    let pause = Duration::from_millis(1500);
    tokio::time::sleep(pause).await;
    let answer = get(addr, &format!("/api/matches/{id}")).await;
    assert_eq!(answer.status, 200, "{}", answer.body);
    let later: MatchState = serde_json::from_str(&answer.body).expect("a match state");
    for (seat, name) in SEATS.iter().enumerate() {
        let spent = remaining(&state, seat) - remaining(&later, seat);
        if later.clocks.running.iter().any(|s| s == name) {
            assert!(
                (1400..4000).contains(&spent),
                "{name}'s clock runs after the restart: {spent} ms spent in a pause of {pause:?}"
            );
        } else {
            assert_eq!(spent, 0, "{name}'s clock is stopped");
        }
    }

    // The match goes on to mate.
    for (seat, uci) in [(1, "b8c6"), (0, "d1h5"), (1, "g8f6"), (0, "h5f7")] {
        play(&mut clients, seat, uci).await;
    }
    for c in &mut clients {
        let result = c
            .until(|m| match m {
                ServerMessage::Ended { result, .. } => Some(result.clone()),
                _ => None,
            })
            .await;
        assert_eq!(result.result, "1-0");
    }
    let answer = get(addr, &format!("/api/matches/{id}/bpgn")).await;
    assert!(answer.body.contains("1A. e4"), "{}", answer.body);
    assert!(answer.body.contains("Qxf7#"), "{}", answer.body);

    // The record survives a second crash, in the archive.
    drop(clients);
    server.kill();
    let mut server = start(addr, &database, &dir.join("third.log")).await;
    let answer = get(addr, "/api/archive").await;
    let archive: Vec<ArchiveEntry> = serde_json::from_str(&answer.body).expect("the archive");
    assert!(
        archive
            .iter()
            .any(|e| e.match_id == id && e.result == "1-0"),
        "{archive:?}"
    );
    let answer = get(addr, &format!("/api/matches/{id}/bpgn")).await;
    assert!(answer.body.contains("Qxf7#"), "{}", answer.body);
    server.kill();
    let _ = std::fs::remove_dir_all(&dir);
}
