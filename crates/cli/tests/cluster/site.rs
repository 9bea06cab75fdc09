//! The rest of the site across nodes: a tournament created on one node, its teams registered
//! through the others, its round paired by exactly one of two nodes asked at once, its match
//! played by players on other nodes (and taken over when its owner dies), its result and
//! standings the same on every node; "play now" seating players who ask different nodes in
//! one match, also once a node died.

use std::net::SocketAddr;
use std::time::{Duration, Instant};

use bughouse_protocol::lobby::PlacedSeat;
use bughouse_protocol::{ClientMessage, ServerMessage};
use serde_json::{json, Value};

use super::harness::*;

/// An HTTP answer: the status and the body read as JSON (`Null` if it is not JSON).
struct Reply {
    status: u16,
    body: String,
}

impl Reply {
    fn json(&self) -> Value {
        serde_json::from_str(&self.body).unwrap_or(Value::Null)
    }
}

/// `METHOD PATH` on the node at `addr`, with the organiser's secret if given.
async fn call(
    addr: SocketAddr,
    method: &str,
    path: &str,
    secret: Option<&str>,
    body: Option<Value>,
) -> Reply {
    let client = reqwest::Client::builder()
        .no_proxy()
        .timeout(PATIENCE)
        .build()
        .expect("an HTTP client");
    let method: reqwest::Method = method.parse().expect("a method");
    let mut request = client.request(method, format!("http://{addr}{path}"));
    if let Some(secret) = secret {
        request = request.bearer_auth(secret);
    }
    if let Some(body) = body {
        request = request.json(&body);
    }
    let response = request.send().await.expect("the node answers");
    let status = response.status().as_u16();
    let body = response.text().await.expect("a body");
    Reply { status, body }
}

/// The tournament as the node at `addr` shows it.
async fn tournament(addr: SocketAddr, id: &str) -> Value {
    let reply = call(addr, "GET", &format!("/api/tournaments/{id}"), None, None).await;
    assert_eq!(reply.status, 200, "{addr}: {}", reply.body);
    reply.json()
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_tournament_is_served_paired_played_and_scored_across_nodes() {
    let Some((database, bus)) = backends("cluster_tournament").await else {
        return;
    };
    let dir = log_dir("cluster-tournament");
    let tag = unique() % 1_000_000;
    let mut nodes = Vec::new();
    for n in 1..=3 {
        nodes.push(Node::start(&database, &bus, &format!("t{n}-{tag}"), &dir).await);
    }
    let addrs: Vec<SocketAddr> = nodes.iter().map(|n| n.addr).collect();

    // Created on the first node (after every node started: none loaded it at start).
    let created = call(
        addrs[0],
        "POST",
        "/api/tournaments",
        None,
        Some(json!({"name": "Cluster cup", "preset": "minerva-2014",
                    "format": "round-robin", "time_control": "2+1"})),
    )
    .await;
    assert_eq!(created.status, 201, "{}", created.body);
    let created = created.json();
    let id = created["tournament_id"].as_str().expect("an id").to_owned();
    let secret = created["organiser_secret"]
        .as_str()
        .expect("a secret")
        .to_owned();
    let path = |p: &str| format!("/api/tournaments/{id}{p}");
    // Teams registered through the second and the third node.
    for (addr, name, a, b) in [
        (addrs[1], "Home", "Hanna", "Henk"),
        (addrs[2], "Away", "Anna", "Arie"),
    ] {
        let reply = call(
            addr,
            "POST",
            &path("/teams"),
            Some(&secret),
            Some(json!({"name": name, "first": {"name": a}, "second": {"name": b}})),
        )
        .await;
        assert_eq!(reply.status, 201, "{}", reply.body);
    }
    // A wrong secret is refused on any node.
    let refused = call(addrs[0], "POST", &path("/rounds"), Some("nope"), None).await;
    assert_eq!(refused.status, 403, "{}", refused.body);
    for &addr in &addrs {
        let t = tournament(addr, &id).await;
        assert_eq!(t["teams"].as_array().map(Vec::len), Some(2), "{addr}: {t}");
    }

    // The round asked of two nodes at once: exactly one pairs it.
    let pair = |addr| {
        let (path, secret) = (path("/rounds"), secret.clone());
        async move {
            call(
                addr,
                "POST",
                &path,
                Some(&secret),
                Some(json!({"online": true})),
            )
            .await
        }
    };
    let (a, b) = tokio::join!(pair(addrs[1]), pair(addrs[2]));
    let paired: Vec<usize> = [(1, &a), (2, &b)]
        .iter()
        .filter(|(_, r)| r.status == 201)
        .map(|(i, _)| *i)
        .collect();
    assert_eq!(
        paired.len(),
        1,
        "{} {}\n{} {}",
        a.status,
        a.body,
        b.status,
        b.body
    );
    let refused = if paired[0] == 1 { &b } else { &a };
    assert_eq!(refused.status, 409, "{}", refused.body);
    let owner = paired[0];
    let t = tournament(addrs[0], &id).await;
    assert_eq!(t["rounds"].as_array().map(Vec::len), Some(1), "{t}");
    let pairing = &t["rounds"][0]["pairings"][0];
    let match_id = pairing["match_id"].as_str().expect("a match").to_owned();
    let players: Vec<String> = pairing["seats"]
        .as_array()
        .expect("seats")
        .iter()
        .map(|s| s["player"].as_str().expect("a name").to_owned())
        .collect();

    // The pairing's over-the-board table is the same whichever node opens it.
    let otb = path("/rounds/1/tables/1/otb");
    let one = call(addrs[0], "POST", &otb, Some(&secret), None).await;
    let two = call(addrs[2], "POST", &otb, Some(&secret), None).await;
    assert!(
        one.status < 300 && two.status < 300,
        "{} {}",
        one.body,
        two.body
    );
    assert_eq!(one.json()["id"], two.json()["id"]);

    // The match is owned by the node that paired it; its players sit through the other two.
    let others: Vec<usize> = (0..3).filter(|&i| i != owner).collect();
    let at = [others[0], others[1], others[0], others[1]];
    let mut clients = Vec::new();
    let mut tokens = Vec::new();
    for (i, seat) in SEATS.iter().enumerate() {
        let mut c = Client::connect(addrs[at[i]], seat).await;
        c.hello(&match_id, None).await;
        c.send(ClientMessage::Sit {
            seat: seat.parse().expect("a seat"),
            name: players[i].clone(),
        })
        .await;
        tokens.push(
            c.until(|m| match m {
                ServerMessage::Seated { token, .. } => Some(token.clone()),
                _ => None,
            })
            .await,
        );
        clients.push(c);
    }
    for (seat, uci) in [(0, "e2e4"), (2, "e2e4"), (1, "e7e5"), (3, "d7d5")] {
        play(&mut clients, seat, uci).await;
    }
    // Its owner dies: another node takes the match over and runs its end.
    nodes[owner].kill();
    drop(clients);
    let (mut clients, _) = rejoin_four(
        at.map(|i| addrs[i]),
        &match_id,
        &tokens,
        Duration::from_secs(20),
    )
    .await;
    for (seat, uci) in [
        (0, "f1c4"),
        (2, "d1g4"),
        (1, "f7f6"),
        (3, "c8g4"),
        (0, "Q@f7"),
    ] {
        play(&mut clients, seat, uci).await;
    }

    // The result lands in the pairing, and every live node shows the same tournament.
    let deadline = Instant::now() + Duration::from_secs(30);
    let seen = loop {
        let views = [
            tournament(addrs[others[0]], &id).await,
            tournament(addrs[others[1]], &id).await,
        ];
        if views
            .iter()
            .all(|v| !v["rounds"][0]["pairings"][0]["result"].is_null())
        {
            break views;
        }
        assert!(Instant::now() < deadline, "no result: {}", views[0]);
        tokio::time::sleep(Duration::from_millis(200)).await;
    };
    assert_eq!(seen[0], seen[1], "two nodes show the same tournament");
    let p = &seen[0]["rounds"][0]["pairings"][0];
    assert_eq!(p["result"]["board_a"], "1-0", "{p}");
    assert_eq!(p["result"]["match"], "0-1", "{p}");
    assert_eq!(seen[0]["standings"][0]["name"], "Away");
    assert_eq!(seen[0]["finished"], true);
    let csv = |addr| {
        let path = path("/standings.csv");
        async move { call(addr, "GET", &path, None, None).await.body }
    };
    assert_eq!(csv(addrs[others[0]]).await, csv(addrs[others[1]]).await);
    let bpgn = call(addrs[others[1]], "GET", &path("/matches.bpgn"), None, None).await;
    assert!(bpgn.body.contains("Q@f7#"), "{}", bpgn.body);
    drop(clients);
    drop(nodes);
    let _ = std::fs::remove_dir_all(&dir);
}

/// `POST /api/lobby/play` on the node at `addr`, for `time_control`.
async fn play_now(addr: SocketAddr, time_control: &str, name: &str) -> PlacedSeat {
    let reply = call(
        addr,
        "POST",
        "/api/lobby/play",
        None,
        Some(json!({"rules": "fide", "time_control": time_control, "name": name})),
    )
    .await;
    assert!(
        reply.status < 300,
        "{name}: {} {}",
        reply.status,
        reply.body
    );
    serde_json::from_str(&reply.body).expect("a seat")
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn play_now_seats_players_of_different_nodes_together_also_after_a_kill() {
    let Some((database, bus)) = backends("cluster_play_now").await else {
        return;
    };
    let dir = log_dir("cluster-play-now");
    let tag = unique() % 1_000_000;
    let n1 = Node::start(&database, &bus, &format!("q1-{tag}"), &dir).await;
    let mut n2 = Node::start(&database, &bus, &format!("q2-{tag}"), &dir).await;
    let n3 = Node::start(&database, &bus, &format!("q3-{tag}"), &dir).await;
    // The lobby parts of every node on this Redis are merged (other tests' too): a time control
    // of this run's own keeps its players among themselves.
    let tc = format!("{}+{}", 1 + tag % 30, tag % 30);
    let play_now = |addr: SocketAddr, name: &'static str| {
        let tc = tc.clone();
        async move { play_now(addr, &tc, name).await }
    };

    // One after the other, then two at once: four players asking three nodes, one match.
    let first = play_now(n1.addr, "Ann").await;
    assert!(first.created);
    let second = play_now(n2.addr, "Bob").await;
    let (third, fourth) = tokio::join!(play_now(n2.addr, "Cid"), play_now(n3.addr, "Dee"));
    let seats = [&first, &second, &third, &fourth];
    for s in &seats[1..] {
        assert_eq!(s.match_id, first.match_id, "{seats:?}");
        assert!(!s.created);
    }
    let mut taken: Vec<String> = seats.iter().map(|s| s.seat.to_string()).collect();
    taken.sort();
    taken.dedup();
    assert_eq!(taken.len(), 4, "{seats:?}");
    // Each token opens its seat, through any node: the match has started (four seated).
    let mut clients = Vec::new();
    for (s, addr) in seats.iter().zip([n3.addr, n1.addr, n3.addr, n2.addr]) {
        let mut c = Client::connect(addr, &s.seat.to_string()).await;
        let (state, you) = c.hello(&s.match_id, Some(s.token.clone())).await;
        assert_eq!(you, Some(s.seat.to_string()));
        assert_eq!(state.status, "playing");
        clients.push(c);
    }

    // A match opened on n2, which then dies: a player asking another node at once still gets
    // a seat (once n2 does not answer, in a new match), and two asking two nodes at once after
    // that sit together.
    let waiting = play_now(n2.addr, "Eve").await;
    assert!(waiting.created);
    n2.kill();
    let killed = Instant::now();
    let fifth = play_now(n3.addr, "Fay").await;
    eprintln!(
        "play now after a kill: seated {} ms after it",
        killed.elapsed().as_millis()
    );
    let (sixth, seventh) = tokio::join!(play_now(n1.addr, "Gus"), play_now(n3.addr, "Hal"));
    assert_eq!(
        sixth.match_id, seventh.match_id,
        "{fifth:?} {sixth:?} {seventh:?}"
    );
    assert_ne!(sixth.seat, seventh.seat);
    drop(clients);
    drop((n1, n2, n3));
    let _ = std::fs::remove_dir_all(&dir);
}
