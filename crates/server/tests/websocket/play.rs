//! Matches played over websockets: a mate and the archive, both boards and the partner's
//! reserve, bots to the end with a spectator, one connection watching matches of every shard.

use super::*;

#[tokio::test]
async fn four_players_play_scholars_mate_and_the_archive_has_it() {
    let server = TestServer::start().await;
    let addr = server.addr;
    let id = create_match(addr, "fide", "5+0").await;

    // The match is there over HTTP before anyone sits.
    let answer = http(addr, "GET", &format!("/api/matches/{id}"), None).await;
    assert_eq!(answer.status, 200, "{}", answer.body);
    let state: MatchState = serde_json::from_str(&answer.body).expect("a MatchState");
    assert_eq!(state.status, "waiting");
    assert_eq!(state.rules, "fide");

    let mut clients = seat_four(addr, &id).await;
    // WhiteA = 0, BlackA = 1.
    for (seat, uci) in [
        (0, "e2e4"),
        (1, "e7e5"),
        (0, "f1c4"),
        (1, "b8c6"),
        (0, "d1h5"),
        (1, "g8f6"),
        (0, "h5f7"),
    ] {
        play(&mut clients, seat, uci).await;
    }
    for c in &mut clients {
        let name = c.name.clone();
        let (result, clocks) = c
            .until(|m| match m {
                ServerMessage::Ended { result, clocks, .. } => {
                    Some((result.clone(), clocks.clone()))
                }
                _ => None,
            })
            .await;
        assert_eq!(result.result, "1-0", "{name}: WhiteA and BlackB win");
        assert_eq!(result.boards[0], "1-0", "{name}: board A");
        assert!(
            result.reason.to_lowercase().contains("mate"),
            "{name}: {}",
            result.reason
        );
        assert!(clocks.running.is_empty(), "{name}: the clocks stopped");
        let (state, _) = c.state().await;
        assert_eq!(state.status, "finished");
        assert_eq!(state.moves.len(), 7);
        assert_eq!(state.moves[6].san, "Qxf7#");
    }

    // A move after the end is refused, even a legal one on the other board.
    clients[2]
        .send(&ClientMessage::Move {
            uci: "d2d4".to_owned(),
        })
        .await;
    let (code, _) = clients[2].error().await;
    assert_eq!(code, "game_over");

    let answer = http(addr, "GET", &format!("/api/matches/{id}/bpgn"), None).await;
    assert_eq!(answer.status, 200);
    assert!(answer.body.contains("1A. e4"), "{}", answer.body);
    assert!(answer.body.contains("Qxf7#"), "{}", answer.body);
    assert!(
        answer.body.contains("[WhiteA \"player WhiteA\"]"),
        "{}",
        answer.body
    );
    assert!(answer.body.trim_end().ends_with("1-0"), "{}", answer.body);

    let answer = http(addr, "GET", "/api/archive", None).await;
    assert_eq!(answer.status, 200, "{}", answer.body);
    let archive: Vec<ArchiveEntry> = serde_json::from_str(&answer.body).expect("archive entries");
    let entry = archive
        .iter()
        .find(|e| e.match_id == id)
        .unwrap_or_else(|| panic!("the archive lists {id}: {archive:?}"));
    assert_eq!(entry.result, "1-0");
    assert_eq!(entry.rules, "fide");
    assert_eq!(entry.players[0].as_deref(), Some("player WhiteA"));
    assert_eq!(entry.players[3].as_deref(), Some("player BlackB"));

    // Once everyone has left, the finished match is still there from the archive.
    drop(clients);
    let mut late = Client::connect(addr, "late").await;
    late.send(&ClientMessage::Hello {
        match_id: id.clone(),
        token: None,
    })
    .await;
    let (state, you) = late.state().await;
    assert_eq!(state.status, "finished");
    assert_eq!(state.moves.len(), 7);
    assert_eq!(you, None);
    let answer = http(addr, "GET", &format!("/api/matches/{id}/bpgn"), None).await;
    assert_eq!(answer.status, 200);
    assert!(answer.body.contains("1A. e4"), "{}", answer.body);
}

#[tokio::test]
async fn connections_named_for_one_match_play_in_another() {
    let server = TestServer::start().await;
    // Matches are created by the shards in turn: of three, two are on different shards.
    let named = create_match(server.addr, "fide", "5+0").await;
    for _ in 0..2 {
        let id = create_match(server.addr, "fide", "5+0").await;
        let mut clients = Vec::new();
        for seat in SEATS {
            let mut c = Client::connect_for(server.addr, &named, seat).await;
            c.sit(&id, seat).await;
            clients.push(c);
        }
        // Every move reaches all four, on both boards.
        play(&mut clients, 0, "e2e4").await;
        play(&mut clients, 2, "d2d4").await;
        play(&mut clients, 1, "e7e5").await;
        play(&mut clients, 3, "d7d5").await;
    }
}

#[tokio::test]
async fn both_boards_move_and_the_partner_gets_the_capture() {
    let server = TestServer::start().await;
    let id = create_match(server.addr, "fide", "5+0").await;
    let mut clients = seat_four(server.addr, &id).await;
    // Board A: 1. e4 d5 2. exd5: WhiteA takes a pawn, his partner BlackB gets it.
    play(&mut clients, 0, "e2e4").await;
    play(&mut clients, 2, "g1f3").await;
    play(&mut clients, 1, "d7d5").await;
    clients[0]
        .send(&ClientMessage::Move {
            uci: "e4d5".to_owned(),
        })
        .await;
    for (i, c) in clients.iter_mut().enumerate() {
        let (board, other) = c
            .until(|m| match m {
                ServerMessage::Moved { board, other, .. } => Some((board.clone(), other.clone())),
                _ => None,
            })
            .await;
        assert_eq!(board.board, "A");
        assert_eq!(other.board, "B");
        assert!(other.fen.contains("[p]"), "{}: {}", c.name, other.fen);
        // BlackB, to move on board B, gets his legal moves with the new drops; nobody else
        // gets any for board B.
        if i == 3 {
            let legal = other.legal.expect("BlackB's legal moves");
            assert!(legal.iter().any(|m| m == "P@e5"), "{legal:?}");
        } else {
            assert_eq!(other.legal, None, "{}", c.name);
        }
    }
    clients[3]
        .send(&ClientMessage::Hello {
            match_id: id.clone(),
            token: None,
        })
        .await;
    let (state, you) = clients[3].state().await;
    assert_eq!(you, None, "a hello without the token watches only");
    assert!(state.boards.iter().all(|b| b.legal.is_none()));
    // Not seated any more on this connection: moving is refused.
    clients[3]
        .send(&ClientMessage::Move {
            uci: "P@e5".to_owned(),
        })
        .await;
    let (code, _) = clients[3].error().await;
    assert_eq!(code, "not_seated");
    // Moving out of turn is refused too.
    clients[0]
        .send(&ClientMessage::Move {
            uci: "d2d4".to_owned(),
        })
        .await;
    let (code, _) = clients[0].error().await;
    assert_eq!(code, "not_your_turn");
    clients[1]
        .send(&ClientMessage::Move {
            uci: "e8e6".to_owned(),
        })
        .await;
    let (code, _) = clients[1].error().await;
    assert_eq!(code, "illegal_move");
}

#[tokio::test]
async fn four_bots_play_a_match_to_its_end_while_a_spectator_watches() {
    let server = TestServer::start().await;
    // Ten seconds a player: the bots think in proportion, and the match ends soon.
    let (id, mut watcher) = four_bots(server.addr, "10s+0", [1, 2, 1, 2]).await;
    let mut moves = 0;
    let result = loop {
        match watcher.recv().await {
            ServerMessage::Moved { .. } => moves += 1,
            ServerMessage::Ended { result, .. } if result.result != "*" => break result,
            _ => {}
        }
    };
    assert!(moves >= 2, "the bots played {moves} moves");
    assert!(
        ["1-0", "0-1", "1/2-1/2"].contains(&result.result.as_str()),
        "{result:?}"
    );
    // The finished match is in the archive with the bots' names.
    let answer = http(server.addr, "GET", &format!("/api/matches/{id}/bpgn"), None).await;
    assert_eq!(answer.status, 200);
    assert!(
        answer.body.contains("[WhiteA \"Bot 1\"]"),
        "{}",
        answer.body
    );
}

/// Bots move at a pace a person can follow: at `1+0` no sooner than 300 ms after their turn
/// began, so two boards of weak bots play a few plies a second, not thousands (which they did,
/// deciding a lone player's match before he moved and flooding his page).
#[tokio::test]
async fn bots_move_at_a_pace_people_can_follow() {
    let server = TestServer::start().await;
    let (_, mut watcher) = four_bots(server.addr, "1+0", [1; 4]).await;
    // Each bot's clock, as the server charged it, shows at least 300 ms a move (the wait is on
    // its clock; read from the server's figures, whatever the test's own delays).
    let mut left = [60_000u64; 4];
    let mut moves = 0;
    while moves < 8 {
        let ServerMessage::Moved { mv, .. } = watcher.recv().await else {
            continue;
        };
        let i = SEATS.iter().position(|s| mv.seat == *s).expect("a seat");
        let spent = left[i] - mv.clock_ms;
        assert!(
            spent >= 299,
            "{} moved {} after {spent} ms",
            mv.seat,
            mv.uci
        );
        left[i] = mv.clock_ms;
        moves += 1;
    }
}

/// A fide match at `tc` whose four seats a watcher gave to bots of `levels` (WhiteA, BlackA,
/// WhiteB, BlackB): its id and the watcher, once the match has started.
async fn four_bots(addr: SocketAddr, tc: &str, levels: [u8; 4]) -> (String, Client) {
    let id = create_match(addr, "fide", tc).await;
    let (mut watcher, _) = Client::watch(addr, &id, "watcher").await;
    for (i, (seat, level)) in SEATS.iter().zip(levels).enumerate() {
        watcher
            .send(&ClientMessage::AddBot {
                seat: seat.parse().unwrap(),
                level: Some(level),
            })
            .await;
        let (state, _) = watcher.state().await;
        assert!(state.seats[i].bot, "{seat} is a bot");
    }
    (id, watcher)
}

/// One connection watches match after match: each `hello` answers with that match's state,
/// whichever hub shard runs it (matches are spread over the shards).
#[tokio::test]
async fn one_connection_watches_matches_of_every_shard() {
    let server = TestServer::start().await;
    let addr = server.addr;
    let mut ids = Vec::new();
    for _ in 0..6 {
        ids.push(create_match(addr, "fide", "5+0").await);
    }
    let mut c = Client::connect(addr, "watcher").await;
    for round in 0..2 {
        for id in &ids {
            c.send(&ClientMessage::Hello {
                match_id: id.clone(),
                token: None,
            })
            .await;
            let (state, you) = c.state().await;
            assert_eq!(&state.match_id, id, "round {round}");
            assert_eq!(you, None);
        }
    }
    // Seated players of a match on any shard play on after the watcher has moved on.
    let mut clients = seat_four(addr, &ids[3]).await;
    play(&mut clients, 0, "e2e4").await;
}
