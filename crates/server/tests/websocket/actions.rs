//! What players send and the server answers: bad frames and refusals, acknowledged actions
//! resent after a reconnect, partner talk, a move held until the database takes it, a move the
//! database refuses.

use super::*;

#[tokio::test]
async fn bad_frames_get_errors_and_the_connection_stays_usable() {
    let server = TestServer::start().await;
    let id = create_match(server.addr, "minerva-2014", "3+0").await;
    let mut c = Client::connect(server.addr, "prober").await;

    c.send_raw("this is not JSON").await;
    let (code, _) = c.error().await;
    assert_eq!(code, "bad_message");

    c.send_raw(r#"{"type":"teleport","to":"h8"}"#).await;
    let (code, _) = c.error().await;
    assert_eq!(code, "bad_message");

    c.send_raw(r#"{"type":"hello","match_id":"x","extra":1}"#)
        .await;
    let (code, _) = c.error().await;
    assert_eq!(code, "bad_message", "unknown fields are refused");

    c.ws.send(Message::Binary(vec![1u8, 2, 3].into()))
        .await
        .expect("the binary frame is sent");
    let (code, message) = c.error().await;
    assert_eq!(code, "bad_message");
    assert!(message.contains("binary"), "{message}");

    // Too large for the protocol, though small enough for the socket.
    c.send_raw(&format!(
        r#"{{"type":"ping","t":1,"pad":"{}"}}"#,
        "x".repeat(5000)
    ))
    .await;
    let (code, _) = c.error().await;
    assert_eq!(code, "too_large");

    // Anything but hello and ping needs a match first.
    c.send(&ClientMessage::Move {
        uci: "e2e4".to_owned(),
    })
    .await;
    let (code, _) = c.error().await;
    assert_eq!(code, "bad_message");

    c.send(&ClientMessage::Hello {
        match_id: "no-such-match".to_owned(),
        token: None,
    })
    .await;
    let (code, _) = c.error().await;
    assert_eq!(code, "no_such_match");

    // Still usable: ping, then watch and sit.
    c.send(&ClientMessage::Ping { t: 42.5 }).await;
    match c.recv().await {
        ServerMessage::Pong { t, .. } => assert_eq!(t, 42.5),
        other => panic!("expected pong, got {other:?}"),
    }
    c.send(&ClientMessage::Hello {
        match_id: id.clone(),
        token: None,
    })
    .await;
    let (state, _) = c.state().await;
    assert_eq!(state.rules, "minerva-2014");
    assert_eq!(state.time_control, "3+0");

    // A seat that does not exist is refused by the schema at the edge.
    c.send_raw(r#"{"type":"sit","seat":"Nowhere","name":"x"}"#)
        .await;
    let (code, _) = c.error().await;
    assert_eq!(code, "bad_message");
    c.send(&ClientMessage::Sit {
        seat: "BlackB".parse().unwrap(),
        name: "prober".to_owned(),
    })
    .await;
    let seat = c
        .until(|m| match m {
            ServerMessage::Seated { seat, .. } => Some(*seat),
            ServerMessage::Error { code, message, .. } => panic!("sit refused: {code}: {message}"),
            _ => None,
        })
        .await;
    assert_eq!(seat, "BlackB");

    // A second client cannot take the same seat.
    let mut other = Client::connect(server.addr, "other").await;
    other
        .send(&ClientMessage::Hello {
            match_id: id.clone(),
            token: None,
        })
        .await;
    other.state().await;
    other
        .send(&ClientMessage::Sit {
            seat: "BlackB".parse().unwrap(),
            name: "other".to_owned(),
        })
        .await;
    let (code, _) = other.error().await;
    assert_eq!(code, "seat_taken");
}

/// Over real sockets: an action with an id is acknowledged after its `moved`; resent from a new
/// connection of the same seat (a reconnect) it is acknowledged again and not applied twice;
/// partner talk reaches both partners once and comes back in `talk_log` after a reconnect, to
/// the team only; a wrong token gets `bad_token` and the connection watches.
#[tokio::test]
async fn actions_are_acknowledged_once_and_talk_is_kept_over_websockets() {
    let server = TestServer::start().await;
    let addr = server.addr;
    let id = create_match(addr, "fide", "5+0").await;
    let (mut clients, tokens) = seat_four_with_tokens(addr, &id).await;
    let frame = |msg: ClientMessage, action: u64| {
        serde_json::to_string(&bughouse_protocol::ClientFrame {
            id: Some(action),
            msg,
        })
        .expect("serializable")
    };
    let e4 = frame(ClientMessage::Move { uci: "e2e4".into() }, 41);
    let talk = frame(
        ClientMessage::Talk {
            kind: bughouse_protocol::TalkKind::Text,
            piece: None,
            text: Some("gl partner".into()),
        },
        42,
    );
    clients[0].send_raw(&e4).await;
    let mut order = Vec::new();
    while order.len() < 2 {
        match clients[0].recv().await {
            ServerMessage::Moved { seq, .. } => order.push(("moved", seq)),
            ServerMessage::Ack { id, seq, lag_ms } => {
                assert_eq!((id, lag_ms.is_some()), (41, true));
                order.push(("ack", seq));
            }
            _ => {}
        }
    }
    assert_eq!(order[0].0, "moved");
    assert_eq!(order[1], ("ack", order[0].1));
    clients[0].send_raw(&talk).await;
    // The sender gets the server's copy, and so does his partner (BlackB).
    for seat in [0, 3] {
        let entry = clients[seat]
            .until(|m| match m {
                ServerMessage::Talk { entry } => Some(entry.clone()),
                _ => None,
            })
            .await;
        assert_eq!((entry.n, entry.text.as_deref()), (0, Some("gl partner")));
    }

    // WhiteA's connection drops; he comes back and resends both: acknowledged, not applied.
    drop(clients.remove(0));
    let mut again = Client::connect(addr, "WhiteA again").await;
    again
        .send(&ClientMessage::Hello {
            match_id: id.clone(),
            token: Some(tokens[0].clone()),
        })
        .await;
    let (state, you) = again.state().await;
    assert_eq!(you.as_deref(), Some("WhiteA"));
    assert_eq!(state.moves.len(), 1);
    assert_eq!(state.talk_log.len(), 1, "the team's talk comes back");
    for (text, action) in [(&e4, 41), (&talk, 42)] {
        again.send_raw(text).await;
        let ack = again
            .until(|m| match m {
                ServerMessage::Ack { id, .. } => Some(*id),
                ServerMessage::Moved { .. } | ServerMessage::Talk { .. } => {
                    panic!("a resent action was applied again: {m:?}")
                }
                _ => None,
            })
            .await;
        assert_eq!(ack, action);
    }
    let answer = http(addr, "GET", &format!("/api/matches/{id}"), None).await;
    let public: MatchState = serde_json::from_str(&answer.body).expect("a MatchState");
    assert_eq!(public.moves.len(), 1);
    assert!(public.talk_log.is_empty(), "the public state has no talk");

    // An opponent's reconnect shows his own team's talk only (none); a bad token watches.
    let mut opponent = Client::connect(addr, "BlackA again").await;
    opponent
        .send(&ClientMessage::Hello {
            match_id: id.clone(),
            token: Some(tokens[1].clone()),
        })
        .await;
    let (state, _) = opponent.state().await;
    assert!(state.talk_log.is_empty());
    let mut spectator = Client::connect(addr, "spectator").await;
    spectator
        .send(&ClientMessage::Hello {
            match_id: id.clone(),
            token: Some("not-a-token".into()),
        })
        .await;
    let (code, _) = spectator.error().await;
    assert_eq!(code, "bad_token");
    let (state, you) = spectator.state().await;
    assert_eq!(you, None);
    assert!(state.talk_log.is_empty(), "spectators see no talk");
}

/// A move the database cannot take yet (SQLite locked by another writer for longer than the
/// store's 10 s busy timeout) is held: nobody hears of it, until it is stored; then it goes out
/// and it is in the record. (It used to go out, unstored, when the write failed.)
#[tokio::test]
async fn a_move_the_database_cannot_take_yet_is_held_until_it_is_stored() {
    let server = TestServer::start().await;
    let addr = server.addr;
    let id = create_match(addr, "fide", "5+0").await;
    let mut clients = seat_four(addr, &id).await;
    play(&mut clients, 0, "e2e4").await;

    let mut lock = server.database().await;
    sqlx::query("BEGIN EXCLUSIVE")
        .execute(&mut lock)
        .await
        .expect("the database locked");
    clients[1]
        .send(&ClientMessage::Move {
            uci: "e7e5".to_owned(),
        })
        .await;
    // Past the busy timeout (10 s) the first write fails; the move must not go out unstored.
    let moved = |m: &ServerMessage| matches!(m, ServerMessage::Moved { .. }).then_some(());
    let early = tokio::time::timeout(Duration::from_secs(13), clients[0].until(moved)).await;
    assert!(
        early.is_err(),
        "the move went out while it could not be stored"
    );
    sqlx::query("COMMIT")
        .execute(&mut lock)
        .await
        .expect("the lock released");
    sqlx::Connection::close(lock).await.expect("closed");

    // Tried again, stored, sent.
    for c in clients.iter_mut() {
        let mv = c
            .until(|m| match m {
                ServerMessage::Moved { mv, .. } => Some(mv.uci.clone()),
                _ => None,
            })
            .await;
        assert_eq!(mv, "e7e5");
    }
    let mut read = server.database().await;
    let stored: i64 = sqlx::query_scalar("SELECT COUNT(*) FROM moves WHERE match_id = ?")
        .bind(&id)
        .fetch_one(&mut read)
        .await
        .expect("the moves counted");
    assert_eq!(stored, 2, "both moves are stored");
}

/// A move the database refuses for good (a trigger refuses it here) is never acknowledged:
/// nobody hears of it, every connection to the match is closed, and the match comes back as
/// stored, without it. Sent again, it is answered `not_stored`; play goes on, on both boards.
#[tokio::test]
async fn a_move_the_database_refuses_is_never_acknowledged_and_play_goes_on() {
    let server = TestServer::start().await;
    let addr = server.addr;
    let id = create_match(addr, "fide", "5+0").await;
    let (mut clients, tokens) = seat_four_with_tokens(addr, &id).await;
    play(&mut clients, 0, "e2e4").await;

    let mut db = server.database().await;
    refuse(&mut db, "INSERT ON moves WHEN NEW.uci = 'e7e5'").await;
    let e5 = serde_json::to_string(&bughouse_protocol::ClientFrame {
        id: Some(7),
        msg: ClientMessage::Move { uci: "e7e5".into() },
    })
    .expect("serializable");
    clients[1].send_raw(&e5).await;
    closed_unacknowledged(&mut clients).await;

    let mut clients = Vec::new();
    for (seat, token) in SEATS.iter().zip(&tokens) {
        let (c, state) = Client::rejoin(addr, &id, token, seat).await;
        let moves: Vec<&str> = state.moves.iter().map(|m| m.uci.as_str()).collect();
        assert_eq!(moves, ["e2e4"], "{seat}: the match as stored");
        assert_eq!(state.status, "playing");
        clients.push(c);
    }
    clients[1].send_raw(&e5).await;
    let refused = clients[1]
        .until(|m| match m {
            ServerMessage::Error { code, id, .. } => Some((code.to_string(), *id)),
            ServerMessage::Moved { .. } | ServerMessage::Ack { .. } => {
                panic!("the refused move was applied when sent again: {m:?}")
            }
            _ => None,
        })
        .await;
    assert_eq!(refused, ("not_stored".to_owned(), Some(7)));

    play(&mut clients, 1, "c7c5").await;
    play(&mut clients, 2, "d2d4").await;
    let stored: Vec<String> =
        sqlx::query_scalar("SELECT uci FROM moves WHERE match_id = ? ORDER BY ply")
            .bind(&id)
            .fetch_all(&mut db)
            .await
            .expect("the moves read");
    assert_eq!(stored, ["e2e4", "c7c5", "d2d4"]);
}

/// Has the server's database refuse, for good, the statements `what` names (e.g. `INSERT ON
/// moves WHEN NEW.uci = 'e7e5'`), through a trigger named `refuse`.
async fn refuse(db: &mut sqlx::SqliteConnection, what: &str) {
    sqlx::query(&format!(
        "CREATE TRIGGER refuse BEFORE {what} BEGIN SELECT RAISE(ABORT, 'refused by the test'); END"
    ))
    .execute(db)
    .await
    .expect("the trigger created");
}

/// Each client's connection is closed, and no `moved` or `ack` came before the close.
async fn closed_unacknowledged(clients: &mut [Client]) {
    for c in clients.iter_mut() {
        for m in c.until_closed().await {
            assert!(
                !matches!(m, ServerMessage::Moved { .. } | ServerMessage::Ack { .. }),
                "{}: a refused move was acknowledged: {m:?}",
                c.name
            );
        }
    }
}

/// A write the database refuses touches its own match only: the players of a match whose move
/// goes to the store with it (on the same shard, most often in the same batch) get their move
/// and play on, never disconnected, while the refused match's players are closed and find it
/// as stored when they come back.
#[tokio::test]
async fn a_refused_write_leaves_the_other_matches_players_connected() {
    let server = TestServer::start().await;
    let addr = server.addr;
    let a = create_match(addr, "fide", "5+0").await;
    // Matches go to the shards in turn: with one or two shards, `b` shares `a`'s.
    create_match(addr, "fide", "5+0").await;
    let b = create_match(addr, "fide", "5+0").await;
    let mut in_a = seat_four(addr, &a).await;
    let mut in_b = seat_four(addr, &b).await;
    play(&mut in_a, 0, "e2e4").await;
    play(&mut in_b, 0, "e2e4").await;

    let mut db = server.database().await;
    refuse(&mut db, "INSERT ON moves WHEN NEW.uci = 'e7e5'").await;
    // The refused move in `a` and a move in `b`, sent together.
    in_a[1]
        .send(&ClientMessage::Move { uci: "e7e5".into() })
        .await;
    play(&mut in_b, 1, "c7c5").await;
    closed_unacknowledged(&mut in_a).await;
    // `b` goes on on both boards (`play` panics on a closed connection).
    play(&mut in_b, 2, "d2d4").await;
    play(&mut in_b, 0, "g1f3").await;
    let moves_of = |id: &str| {
        sqlx::query_scalar::<_, String>("SELECT uci FROM moves WHERE match_id = ? ORDER BY ply")
            .bind(id.to_owned())
    };
    let stored = moves_of(&b).fetch_all(&mut db).await.expect("read");
    assert_eq!(stored, ["e2e4", "c7c5", "d2d4", "g1f3"]);
    let stored = moves_of(&a).fetch_all(&mut db).await.expect("read");
    assert_eq!(stored, ["e2e4"]);
    let (_back, state) = Client::watch(addr, &a, "watcher").await;
    let moves: Vec<&str> = state.moves.iter().map(|m| m.uci.as_str()).collect();
    assert_eq!(moves, ["e2e4"], "the refused match as stored");
}

/// A rematch whose creation the database refuses is not offered: its announcement is withheld
/// (the old match's watchers are closed and reconnect), and asked for again it is made anew,
/// a match that exists, not the refused one.
#[tokio::test]
async fn a_rematch_the_database_refuses_is_not_offered() {
    let server = TestServer::start().await;
    let addr = server.addr;
    let id = create_match(addr, "fide", "5+0").await;
    let (mut clients, tokens) = seat_four_with_tokens(addr, &id).await;
    clients[0].send(&ClientMessage::Resign).await;
    for c in clients.iter_mut() {
        c.until(|m| matches!(m, ServerMessage::Ended { .. }).then_some(()))
            .await;
    }
    let mut db = server.database().await;
    refuse(&mut db, "INSERT ON matches WHEN NEW.rematch_of IS NOT NULL").await;
    clients[0]
        .send(&ClientMessage::Rematch { swap: false })
        .await;
    for c in clients.iter_mut() {
        for m in c.until_closed().await {
            assert!(
                !matches!(m, ServerMessage::Rematch { .. }),
                "{}: a refused rematch was offered: {m:?}",
                c.name
            );
        }
    }
    sqlx::query("DROP TRIGGER refuse")
        .execute(&mut db)
        .await
        .expect("the trigger dropped");
    let (mut c, state) = Client::rejoin(addr, &id, &tokens[0], SEATS[0]).await;
    assert_eq!(state.status, "finished");
    c.send(&ClientMessage::Rematch { swap: false }).await;
    let rematch = c
        .until(|m| match m {
            ServerMessage::Rematch { match_id } => Some(match_id.clone()),
            _ => None,
        })
        .await;
    let stored: i64 = sqlx::query_scalar("SELECT COUNT(*) FROM matches WHERE id = ?")
        .bind(&rematch)
        .fetch_one(&mut db)
        .await
        .expect("read");
    assert_eq!(stored, 1, "the rematch offered is stored");
    let (_, state) = Client::rejoin(addr, &rematch, &tokens[0], "rematch").await;
    assert_eq!(state.match_id, rematch);
}
