//! The server's state machine in process, with a fake clock: no sockets, no database.

mod common;
use common::{error_code, to};

use std::time::Duration;

use bughouse_protocol::{ClientMessage, ServerMessage, TalkKind, UciList};
use bughouse_server::hub::{ConnId, Effect, Hub, Input, Write};

struct Harness {
    hub: Hub,
    now: Duration,
}

impl Harness {
    fn new() -> Harness {
        Harness {
            hub: Hub::new([7; 32]),
            now: Duration::from_secs(1),
        }
    }

    fn create(&mut self, rules: &str, tc: &str) -> String {
        let (id, fx) = self.hub.create_match(rules, tc, self.now).expect("valid");
        assert!(matches!(fx[0], Effect::Store(Write::CreateMatch(_))));
        id
    }

    fn connect(&mut self, conn: ConnId, match_id: &str, token: Option<String>) -> Vec<Effect> {
        self.hub.apply(Input::Connected(conn), self.now);
        self.send(
            conn,
            &ClientMessage::Hello {
                match_id: match_id.to_owned(),
                token,
            },
        )
    }

    fn send(&mut self, conn: ConnId, msg: &ClientMessage) -> Vec<Effect> {
        let text = serde_json::to_string(msg).expect("serializable");
        self.hub.apply(Input::Text(conn, text), self.now)
    }

    fn raw(&mut self, conn: ConnId, text: &str) -> Vec<Effect> {
        self.hub.apply(Input::Text(conn, text.to_owned()), self.now)
    }

    fn advance(&mut self, d: Duration) -> Vec<Effect> {
        self.now += d;
        self.hub.apply(Input::Tick, self.now)
    }

    /// Four players sit at WhiteA, BlackA, WhiteB, BlackB on connections 1 to 4; returns their
    /// tokens.
    fn seat_four(&mut self, id: &str) -> Vec<String> {
        let mut tokens = Vec::new();
        for (conn, seat) in [(1, "WhiteA"), (2, "BlackA"), (3, "WhiteB"), (4, "BlackB")] {
            self.connect(conn, id, None);
            let fx = self.sit(conn, seat, &format!("player{conn}"));
            let token = to(&fx, conn)
                .into_iter()
                .find_map(|m| match m {
                    ServerMessage::Seated { token, .. } => Some(token),
                    _ => None,
                })
                .expect("seated");
            tokens.push(token);
        }
        tokens
    }

    /// `conn` takes `seat` under `name`.
    fn sit(&mut self, conn: ConnId, seat: &str, name: &str) -> Vec<Effect> {
        self.send(
            conn,
            &ClientMessage::Sit {
                seat: seat.parse().unwrap(),
                name: name.into(),
            },
        )
    }

    fn play(&mut self, conn: ConnId, uci: &str) -> Vec<Effect> {
        self.now += Duration::from_millis(200);
        self.send(conn, &ClientMessage::Move { uci: uci.into() })
    }
}

fn ended(fx: &[Effect]) -> Option<(String, String)> {
    fx.iter().find_map(|e| match e {
        Effect::Send(_, ServerMessage::Ended { result, .. }) => {
            Some((result.result.clone(), result.reason.clone()))
        }
        _ => None,
    })
}

#[test]
fn four_clients_play_a_match_to_mate() {
    let mut h = Harness::new();
    let id = h.create("fide", "5+0");
    h.seat_four(&id);
    // A spectator.
    h.connect(9, &id, None);
    // Scholar's mate on board A: Qxf7 is a contact check a drop cannot block (F3.7).
    let mut last = Vec::new();
    for (conn, uci) in [
        (1, "e2e4"),
        (2, "e7e5"),
        (1, "f1c4"),
        (2, "b8c6"),
        (1, "d1h5"),
        (2, "g8f6"),
        (1, "h5f7"),
    ] {
        last = h.play(conn, uci);
        assert_eq!(error_code(&last, conn), None, "{uci}");
        // Everyone, the spectator too, sees every move.
        assert!(to(&last, 9)
            .iter()
            .any(|m| matches!(m, ServerMessage::Moved { mv, .. } if mv.uci == uci)));
    }
    let (result, reason) = ended(&last).expect("the match ended");
    assert_eq!(result, "1-0"); // WhiteA + BlackB won
    assert_eq!(reason, "player2 checkmated");
    // The move and the end are stored before anything is sent about them.
    let first_send = last
        .iter()
        .position(|e| matches!(e, Effect::Send(..)))
        .unwrap();
    let finish = last
        .iter()
        .position(|e| matches!(e, Effect::Store(Write::FinishMatch { .. })))
        .unwrap();
    assert!(matches!(last[0], Effect::Store(Write::RecordMove(_))));
    assert!(finish < first_send || finish < last.len());
    // Board B stopped: a move there is refused (F4.3).
    let fx = h.play(3, "e2e4");
    assert_eq!(error_code(&fx, 3).as_deref(), Some("game_over"));
}

#[test]
fn the_player_to_move_gets_the_legal_moves() {
    let mut h = Harness::new();
    let id = h.create("minerva-2014", "5+0");
    h.seat_four(&id);
    let fx = h.play(1, "e2e4");
    let for_black = to(&fx, 2);
    let ServerMessage::Moved { board, .. } = &for_black[0] else {
        panic!("{for_black:?}")
    };
    assert_eq!(board.legal.as_ref().map(UciList::len), Some(20));
    // The mover and the spectators get no legal moves for that board.
    let ServerMessage::Moved { board, .. } = &to(&fx, 1)[0] else {
        panic!()
    };
    assert_eq!(board.legal, None);
}

#[test]
fn a_flag_falls_on_the_server() {
    let mut h = Harness::new();
    let id = h.create("fide", "1+0");
    h.seat_four(&id);
    // The clocks start when the fourth player sits; nobody has flagged after 59 s.
    let fx = h.advance(Duration::from_secs(59));
    assert!(ended(&fx).is_none());
    h.play(3, "e2e4");
    // WhiteB moved; only WhiteA's flag falls at 60 s (plus the lag grace).
    let fx = h.advance(Duration::from_millis(1500));
    let (result, reason) = ended(&fx).expect("flag");
    assert_eq!(result, "0-1");
    assert_eq!(reason, "player1 forfeits on time");
}

#[test]
fn a_player_comes_back_to_his_seat_after_a_reconnect() {
    let mut h = Harness::new();
    let id = h.create("fide", "5+0");
    let tokens = h.seat_four(&id);
    h.play(1, "e2e4");
    h.hub.apply(Input::Disconnected(2), h.now);
    // Without the token, a new connection is a spectator and cannot move.
    let fx = h.connect(20, &id, None);
    let state = to(&fx, 20);
    assert!(matches!(&state[0], ServerMessage::State { you: None, .. }));
    let fx = h.play(20, "e7e5");
    assert_eq!(error_code(&fx, 20).as_deref(), Some("not_seated"));
    // With it, he is BlackA again and sees his legal moves.
    let fx = h.connect(21, &id, Some(tokens[1].clone()));
    let state = to(&fx, 21);
    let ServerMessage::State { you, state } = &state[0] else {
        panic!("{state:?}")
    };
    assert_eq!(you.map(|s| s.as_str()), Some("BlackA"));
    assert_eq!(state.boards[0].legal.as_ref().map(UciList::len), Some(20));
    let fx = h.play(21, "e7e5");
    assert_eq!(error_code(&fx, 21), None);
}

#[test]
fn a_player_leaving_or_coming_back_sends_the_others_only_the_seats() {
    let mut h = Harness::new();
    let id = h.create("fide", "5+0");
    let tokens = h.seat_four(&id);
    h.connect(9, &id, None);
    h.play(1, "e2e4");
    let connected = |msgs: &[ServerMessage]| -> Vec<bool> {
        match msgs {
            [ServerMessage::Seats { seats }] => seats.iter().map(|s| s.connected).collect(),
            other => panic!("expected only the seats, got {other:?}"),
        }
    };
    // BlackA goes: every other watcher, the spectator too, gets the seats with him away (and
    // not the whole state, which carries every move).
    let fx = h.hub.apply(Input::Disconnected(2), h.now);
    for conn in [1, 3, 4, 9] {
        assert_eq!(
            connected(&to(&fx, conn)),
            [true, false, true, true],
            "conn {conn}"
        );
    }
    // He comes back: he gets the whole state, the others the seats with him there again.
    let fx = h.connect(22, &id, Some(tokens[1].clone()));
    assert!(matches!(
        &to(&fx, 22)[..],
        [ServerMessage::State { you: Some(_), .. }]
    ));
    for conn in [1, 3, 4, 9] {
        assert_eq!(connected(&to(&fx, conn)), [true; 4], "conn {conn}");
    }
    // A spectator coming and going changes no seat: nobody else hears of it.
    let fx = h.hub.apply(Input::Disconnected(9), h.now);
    assert!(fx.iter().all(|e| !matches!(e, Effect::Send(..))), "{fx:?}");
}

#[test]
fn moves_from_the_wrong_seat_are_refused() {
    let mut h = Harness::new();
    let id = h.create("fide", "5+0");
    h.seat_four(&id);
    // BlackA before White has moved.
    let fx = h.play(2, "e7e5");
    assert_eq!(error_code(&fx, 2).as_deref(), Some("not_your_turn"));
    // An illegal move.
    let fx = h.play(1, "e2e5");
    assert_eq!(error_code(&fx, 1).as_deref(), Some("illegal_move"));
    // Garbage.
    let fx = h.raw(1, "{\"type\":\"move\"}");
    assert_eq!(error_code(&fx, 1).as_deref(), Some("bad_message"));
    let fx = h.raw(1, "not json");
    assert_eq!(error_code(&fx, 1).as_deref(), Some("bad_message"));
    let big = format!("{{\"type\":\"move\",\"uci\":\"{}\"}}", "x".repeat(5000));
    let fx = h.raw(1, &big);
    assert_eq!(error_code(&fx, 1).as_deref(), Some("too_large"));
    // Nothing changed: White can still play.
    let fx = h.play(1, "e2e4");
    assert_eq!(error_code(&fx, 1), None);
}

#[test]
fn flooding_is_rate_limited() {
    let mut h = Harness::new();
    let id = h.create("fide", "5+0");
    h.connect(1, &id, None);
    let mut limited = false;
    for _ in 0..100 {
        let fx = h.send(1, &ClientMessage::Ping { t: 1.0 });
        if error_code(&fx, 1).as_deref() == Some("rate_limited") {
            limited = true;
        }
    }
    assert!(limited);
}

#[test]
fn partner_talk_reaches_only_the_partner() {
    let mut h = Harness::new();
    let id = h.create("fide", "5+0");
    h.seat_four(&id);
    h.connect(9, &id, None);
    let fx = h.send(
        1,
        &ClientMessage::Talk {
            kind: TalkKind::Need,
            piece: Some("N".parse().unwrap()),
            text: None,
        },
    );
    // WhiteA's partner is BlackB (connection 4).
    assert!(to(&fx, 4)
        .iter()
        .any(|m| matches!(m, ServerMessage::Talk { entry } if entry.from == "WhiteA")));
    // The sender gets the server's copy (one, with its number): nothing else shows it.
    assert!(to(&fx, 1)
        .iter()
        .any(|m| matches!(m, ServerMessage::Talk { entry } if entry.n == 0)));
    for other in [2, 3, 9] {
        assert!(
            to(&fx, other).is_empty(),
            "conn {other} got {:?}",
            to(&fx, other)
        );
    }
}

#[test]
fn knsb_allows_only_piece_requests() {
    // K14: only asking for pieces.
    let mut h = Harness::new();
    let id = h.create("knsb-1988", "5+0");
    h.seat_four(&id);
    let fx = h.send(
        1,
        &ClientMessage::Talk {
            kind: TalkKind::Text,
            piece: None,
            text: Some("take his queen".into()),
        },
    );
    assert_eq!(error_code(&fx, 1).as_deref(), Some("not_allowed"));
    assert!(to(&fx, 4).is_empty());
    let fx = h.send(
        1,
        &ClientMessage::Talk {
            kind: TalkKind::Sit,
            piece: None,
            text: None,
        },
    );
    assert_eq!(error_code(&fx, 1).as_deref(), Some("not_allowed"));
}

#[test]
fn minerva_allows_its_four_kinds_but_no_free_text() {
    // M9.2 to M9.5.
    let mut h = Harness::new();
    let id = h.create("minerva-2014", "5+0");
    h.seat_four(&id);
    for kind in [TalkKind::Sit, TalkKind::Go, TalkKind::Flag] {
        let fx = h.send(
            2,
            &ClientMessage::Talk {
                kind,
                piece: None,
                text: None,
            },
        );
        assert_eq!(error_code(&fx, 2), None);
        assert_eq!(to(&fx, 3).len(), 1); // BlackA's partner is WhiteB
    }
    let fx = h.send(
        2,
        &ClientMessage::Talk {
            kind: TalkKind::Text,
            piece: None,
            text: Some("hi".into()),
        },
    );
    assert_eq!(error_code(&fx, 2).as_deref(), Some("not_allowed"));
}

#[test]
fn a_seat_is_taken_once_and_spectators_cannot_act() {
    let mut h = Harness::new();
    let id = h.create("fide", "5+0");
    h.connect(1, &id, None);
    h.sit(1, "WhiteA", "ann");
    h.connect(2, &id, None);
    let fx = h.send(
        2,
        &ClientMessage::Sit {
            seat: "WhiteA".parse().unwrap(),
            name: "bob".into(),
        },
    );
    assert_eq!(error_code(&fx, 2).as_deref(), Some("seat_taken"));
    let fx = h.send(2, &ClientMessage::Resign);
    assert_eq!(error_code(&fx, 2).as_deref(), Some("not_seated"));
    // A taken seat cannot be given to a bot.
    let fx = h.send(
        2,
        &ClientMessage::AddBot {
            seat: "WhiteA".parse().unwrap(),
            level: None,
        },
    );
    assert_eq!(error_code(&fx, 2).as_deref(), Some("seat_taken"));
}

/// Before the start there is nothing to resign, offer, withdraw or claim: each is refused and
/// nothing is stored (the store takes events of playing matches only).
#[test]
fn match_actions_before_the_start_are_refused_and_not_stored() {
    let mut h = Harness::new();
    let id = h.create("fide", "5+0");
    h.connect(1, &id, None);
    h.sit(1, "WhiteA", "ann");
    for msg in [
        ClientMessage::Resign,
        ClientMessage::OfferDraw,
        ClientMessage::WithdrawDraw,
        ClientMessage::ClaimDraw {
            claim: bughouse_protocol::Claim::Repetition,
        },
    ] {
        let fx = h.send(1, &msg);
        assert_eq!(
            error_code(&fx, 1).as_deref(),
            Some("not_allowed"),
            "{msg:?}"
        );
        assert!(
            !fx.iter().any(|e| matches!(e, Effect::Store(_))),
            "{msg:?}: {fx:?}"
        );
    }
}

#[test]
fn resignation_ends_the_match() {
    let mut h = Harness::new();
    let id = h.create("uscf-scholastic-2006", "5+0");
    h.seat_four(&id);
    h.play(1, "e2e4");
    // U15a2: any time, also when it is not his move.
    let fx = h.send(4, &ClientMessage::Resign);
    let (result, reason) = ended(&fx).expect("ended");
    assert_eq!(result, "0-1");
    assert_eq!(reason, "player4 resigns");
}

#[test]
fn rematch_keeps_the_teams_and_the_tokens() {
    let mut h = Harness::new();
    let id = h.create("fide", "5+0");
    let tokens = h.seat_four(&id);
    h.send(1, &ClientMessage::Resign);
    let fx = h.send(1, &ClientMessage::Rematch { swap: false });
    let new_id = to(&fx, 2)
        .into_iter()
        .find_map(|m| match m {
            ServerMessage::Rematch { match_id } => Some(match_id),
            _ => None,
        })
        .expect("rematch announced to everyone");
    // The former WhiteA now plays BlackA with the same token; the match has started.
    let fx = h.connect(30, &new_id, Some(tokens[0].clone()));
    let ServerMessage::State { you, state } = &to(&fx, 30)[0] else {
        panic!()
    };
    assert_eq!(you.map(|s| s.as_str()), Some("BlackA"));
    assert_eq!(state.status, "playing");
    assert_eq!(state.seats[1].name.as_deref(), Some("player1"));
    // His partner is still player4, now WhiteB.
    assert_eq!(state.seats[2].name.as_deref(), Some("player4"));
}

#[test]
fn a_custom_rule_set_is_played_and_stored_as_it_was_chosen() {
    let mut h = Harness::new();
    let custom = [
        ("drop_check".to_owned(), "Forbidden".to_owned()),
        ("partner_talk".to_owned(), "PieceRequestsOnly".to_owned()),
    ]
    .into_iter()
    .collect();
    let (id, fx) = h
        .hub
        .create_custom("fide", &custom, "3+2", h.now)
        .expect("valid");
    match &fx[0] {
        Effect::Store(Write::CreateMatch(m)) => {
            assert_eq!(m.rules_preset, "custom");
            let rules: bughouse_core::Rules =
                serde_json::from_str(&m.rules_json).expect("the rules are stored as JSON");
            assert_eq!(rules.drop_check, bughouse_core::DropCheck::Forbidden);
        }
        other => panic!("expected the match to be stored first, got {other:?}"),
    }
    let state = h.hub.public_state(&id, h.now).expect("exists");
    assert_eq!(state.rules, "custom");
    assert_eq!(state.talk, vec![TalkKind::Need]);
    assert!(state
        .settings
        .iter()
        .any(|s| s.field == "drop_check" && s.value == "Forbidden"));
    h.seat_four(&id);
    h.play(1, "e2e4");
    h.play(2, "d7d5");
    h.play(1, "e4d5"); // BlackB receives the pawn
    h.play(3, "d2d4");
    // P@d2 would check the king on e1: refused under the custom set, allowed under fide.
    let fx = h.play(4, "P@d2");
    assert!(error_code(&fx, 4).is_some(), "{fx:?}");
    let fx = h.play(4, "P@d3");
    assert_eq!(error_code(&fx, 4), None, "{fx:?}");
}

#[test]
fn a_custom_rule_set_with_a_bad_field_is_refused_with_its_name() {
    let mut h = Harness::new();
    for (field, value) in [("drop_check", "Sometimes"), ("no_such_rule", "true")] {
        let custom = [(field.to_owned(), value.to_owned())].into_iter().collect();
        let e = h
            .hub
            .create_custom("fide", &custom, "3+2", h.now)
            .expect_err("refused");
        assert!(e.to_string().contains(field), "{e}");
    }
    // Changing nothing, or changing a field to its preset value, keeps the preset's name.
    let custom = [("drop_check".to_owned(), "Forbidden".to_owned())]
        .into_iter()
        .collect();
    let (id, _) = h
        .hub
        .create_custom("knsb-1988", &custom, "5+0", h.now)
        .expect("valid");
    let state = h.hub.public_state(&id, h.now).expect("exists");
    assert_eq!(state.rules, "knsb-1988");
    assert_eq!(
        state.settings,
        bughouse_server::hub::rule_settings(&bughouse_core::Rules::knsb_1988())
    );
}

fn bot_turns(fx: &[Effect]) -> Vec<bughouse_server::hub::BotTurn> {
    fx.iter()
        .filter_map(|e| match e {
            Effect::BotTurn(t) => Some(t.clone()),
            _ => None,
        })
        .collect()
}

#[test]
fn a_bot_takes_a_seat_is_asked_for_its_moves_and_talks_with_its_partner() {
    use bughouse_core::Seat;
    use bughouse_server::hub::BotReply;

    let mut h = Harness::new();
    let id = h.create("fide", "5+0");
    // Three people sit; the fourth seat, BlackB (WhiteA's partner), gets a level-3 bot.
    for (conn, seat) in [(1, "WhiteA"), (2, "BlackA"), (3, "WhiteB")] {
        h.connect(conn, &id, None);
        h.send(
            conn,
            &ClientMessage::Sit {
                seat: seat.parse().unwrap(),
                name: format!("player{conn}"),
            },
        );
    }
    let fx = h.send(
        1,
        &ClientMessage::AddBot {
            seat: "BlackB".parse().unwrap(),
            level: Some(9),
        },
    );
    assert_eq!(error_code(&fx, 1).as_deref(), Some("bad_message"));
    let fx = h.send(
        1,
        &ClientMessage::AddBot {
            seat: "BlackB".parse().unwrap(),
            level: Some(3),
        },
    );
    assert!(fx.iter().any(|e| matches!(
        e,
        Effect::Store(Write::SetSeat {
            bot: true,
            seat: 3,
            ..
        })
    )));
    let state = h.hub.public_state(&id, h.now).expect("exists");
    assert_eq!(state.status, "playing");
    assert!(state.seats[3].bot);
    assert_eq!(state.seats[3].name.as_deref(), Some("Bot 3"));
    // White moves first on both boards: the bot is not asked yet.
    assert!(bot_turns(&fx).is_empty());

    let fx = h.play(3, "e2e4");
    let turns = bot_turns(&fx);
    assert_eq!(turns.len(), 1, "{fx:?}");
    let turn = &turns[0];
    assert_eq!((turn.seat, turn.level, turn.ply), (Seat::BLACK_B, 3, 1));

    // WhiteA asks his partner, the bot, for a knight: it hears it on its turn.
    h.send(
        1,
        &ClientMessage::Talk {
            kind: TalkKind::Need,
            piece: Some("N".parse().unwrap()),
            text: None,
        },
    );
    // A move on board A does not ask the thinking bot again.
    let fx = h.play(1, "d2d4");
    assert!(bot_turns(&fx).is_empty(), "{fx:?}");

    // The bot sits and asks for a pawn: WhiteA hears it, the opponents do not.
    let fx = h.hub.apply(
        Input::Bot(BotReply {
            match_id: id.clone(),
            seat: Seat::BLACK_B,
            ply: 1,
            uci: None,
            talk: vec![(TalkKind::Need, Some("P".parse().unwrap()))],
        }),
        h.now,
    );
    let heard: Vec<_> = to(&fx, 1)
        .into_iter()
        .filter(|m| matches!(m, ServerMessage::Talk { .. }))
        .collect();
    assert_eq!(heard.len(), 1, "{fx:?}");
    assert!(to(&fx, 2).is_empty() && to(&fx, 3).is_empty(), "{fx:?}");
    // Sitting, it is asked again when board A changes, with what its partner said.
    let fx = h.play(2, "d7d5");
    let turns = bot_turns(&fx);
    assert_eq!(turns.len(), 1, "{fx:?}");
    assert_eq!(
        turns[0].heard,
        vec![(TalkKind::Need, Some("N".parse().unwrap()))]
    );

    // A stale answer (for another turn) is dropped; the right one is played for BlackB.
    let stale = h.hub.apply(
        Input::Bot(BotReply {
            match_id: id.clone(),
            seat: Seat::BLACK_B,
            ply: 0,
            uci: Some("e7e5".into()),
            talk: vec![],
        }),
        h.now,
    );
    assert!(stale.is_empty(), "{stale:?}");
    h.now += Duration::from_millis(700);
    let fx = h.hub.apply(
        Input::Bot(BotReply {
            match_id: id.clone(),
            seat: Seat::BLACK_B,
            ply: 1,
            uci: Some("e7e5".into()),
            talk: vec![],
        }),
        h.now,
    );
    assert!(
        fx.iter().any(|e| matches!(
            e,
            Effect::Store(Write::RecordMove(mv)) if mv.seat == 3 && mv.uci == "e7e5"
        )),
        "{fx:?}"
    );
    // A person cannot take the bot's seat.
    h.connect(5, &id, None);
    let fx = h.send(
        5,
        &ClientMessage::Sit {
            seat: "BlackB".parse().unwrap(),
            name: "intruder".into(),
        },
    );
    assert!(error_code(&fx, 5).is_some());
}

#[test]
fn a_shard_makes_up_ids_of_its_own_matches_and_rematches() {
    use bughouse_server::hub::shard_of;
    for index in 0..3 {
        let mut hub = Hub::shard([9; 32], index, 3);
        let now = Duration::from_secs(1);
        for _ in 0..20 {
            let (id, _) = hub.create_match("fide", "5+0", now).expect("valid");
            assert_eq!(shard_of(&id, 3), index, "{id}");
        }
    }
    // The hash is stable (stored ids keep their shard across restarts) and spreads ids.
    assert_eq!(shard_of("abc", 1), 0);
    let spread: Vec<usize> =
        (0..200)
            .map(|i| shard_of(&format!("m{i}"), 4))
            .fold(vec![0; 4], |mut n, s| {
                n[s] += 1;
                n
            });
    assert!(spread.iter().all(|&n| n > 30), "{spread:?}");
}

/// Seats follow accounts: a signed-in connection sits under its account's name and the link is
/// stored with the seat; in a rated match a guest is refused; the end of a rated match asks
/// for its rating (accounts by seat, the score), a casual one does not.
#[test]
fn signed_in_seats_and_rated_matches() {
    use bughouse_protocol::CreateMatch;
    use bughouse_server::hub::AccountInfo;
    use bughouse_store::RatedSeat;

    let mut h = Harness::new();
    let request = CreateMatch {
        rules: "fide".into(),
        time_control: "5+0".into(),
        rated: true,
        ..Default::default()
    };
    let (id, _) = h.hub.create_from(&request, h.now).expect("valid");
    // A guest may not sit.
    h.connect(9, &id, None);
    let fx = h.send(
        9,
        &ClientMessage::Sit {
            seat: "WhiteA".parse().unwrap(),
            name: "guest".into(),
        },
    );
    assert_eq!(error_code(&fx, 9).as_deref(), Some("sign_in_required"));
    let mut last = Vec::new();
    for (conn, seat) in [
        (1u64, "WhiteA"),
        (2, "BlackA"),
        (3, "WhiteB"),
        (4, "BlackB"),
    ] {
        h.hub.apply(Input::Connected(conn), h.now);
        h.hub.apply(
            Input::SignedIn(
                conn,
                AccountInfo {
                    id: 10 + conn as i64,
                    username: format!("user{conn}"),
                },
            ),
            h.now,
        );
        h.send(
            conn,
            &ClientMessage::Hello {
                match_id: id.clone(),
                token: None,
            },
        );
        last = h.send(
            conn,
            &ClientMessage::Sit {
                seat: seat.parse().unwrap(),
                name: "typed".into(),
            },
        );
        assert!(last.iter().any(|e| matches!(
            e,
            Effect::Store(Write::SetSeat { name, .. }) if *name == format!("user{conn}")
        )));
        assert!(last.iter().any(|e| matches!(
            e,
            Effect::Store(Write::SetSeatAccount { account_id: Some(a), .. })
                if *a == 10 + conn as i64
        )));
    }
    let state = to(&last, 1)
        .into_iter()
        .find_map(|m| match m {
            ServerMessage::State { state, .. } => Some(state),
            _ => None,
        })
        .expect("a state");
    assert!(state.rated && state.seats.iter().all(|s| s.account));
    assert_eq!(state.status, "playing");
    h.play(1, "e2e4");
    let fx = h.send(2, &ClientMessage::Resign);
    let request = fx
        .iter()
        .find_map(|e| match e {
            Effect::Rate(r) => Some(r.clone()),
            _ => None,
        })
        .expect("the rated match is to be rated");
    assert_eq!(request.seats.score, 1.0);
    assert_eq!(
        request.seats.seats,
        [11, 12, 13, 14].map(RatedSeat::Account),
        "the accounts by seat"
    );
    // The store's FinishMatch comes first in the same effects.
    let finish = fx
        .iter()
        .position(|e| matches!(e, Effect::Store(Write::FinishMatch { .. })));
    let rate = fx.iter().position(|e| matches!(e, Effect::Rate(_)));
    assert!(finish < rate);

    // A casual match ends without a rating.
    let mut h = Harness::new();
    let id = h.create("fide", "5+0");
    h.seat_four(&id);
    h.play(1, "e2e4");
    let fx = h.send(2, &ClientMessage::Resign);
    assert!(fx
        .iter()
        .any(|e| matches!(e, Effect::Store(Write::FinishMatch { .. }))));
    assert!(!fx.iter().any(|e| matches!(e, Effect::Rate(_))));
}

/// Every `moved` of a long random match carries both boards as they stand and, to the player to
/// move on each, exactly his legal moves: checked against the rules engine replaying the same
/// moves. A board the move did not touch is sent as kept from before, unless a capture sent a
/// piece to its reserves (then its drops must be there).
#[test]
fn every_moved_shows_both_boards_as_they_stand() {
    use bughouse_core::{BoardId, Color, Match, Preset, Seat};
    use rand::rngs::StdRng;
    use rand::{Rng, SeedableRng};
    let mut h = Harness::new();
    let id = h.create("fide", "5+0");
    h.seat_four(&id);
    let mut oracle = Match::new(Preset::Fide.rules(), "5+0".parse().expect("a time control"));
    oracle.start(Duration::ZERO).expect("starts");
    let conn_of =
        |seat: Seat| 1 + 2 * seat.board.index() as u64 + u64::from(seat.color == Color::Black);
    let legal_of = |m: &Match, b: BoardId| -> Vec<String> {
        m.position(b)
            .legal_moves()
            .iter()
            .map(|mv| mv.uci().as_str().to_owned())
            .collect()
    };
    let mut rng = StdRng::seed_from_u64(47);
    let mut drops_seen = 0;
    for ply in 0..400u64 {
        let open: Vec<BoardId> = BoardId::ALL
            .into_iter()
            .filter(|b| oracle.game_end(*b).is_none() && !legal_of(&oracle, *b).is_empty())
            .collect();
        if open.is_empty() || oracle.result().is_some() {
            break;
        }
        let board = open[rng.gen_range(0..open.len())];
        let moves = legal_of(&oracle, board);
        let uci = moves[rng.gen_range(0..moves.len())].clone();
        let seat = oracle.to_move(board);
        let mv = oracle.position(board).parse_uci(&uci).expect("legal");
        h.now += Duration::from_millis(100);
        oracle
            .play(seat, mv, Duration::from_millis(100 * (ply + 1)))
            .expect("legal in the oracle");
        let fx = h.play(conn_of(seat), &uci);
        assert_eq!(error_code(&fx, conn_of(seat)), None, "{uci}");
        for seat in Seat::ALL {
            let conn = conn_of(seat);
            let moved = to(&fx, conn).into_iter().find_map(|m| match m {
                ServerMessage::Moved { board, other, .. } => Some([board, other]),
                _ => None,
            });
            let Some(states) = moved else {
                panic!("no moved for {conn} at ply {ply}")
            };
            for state in states {
                let b = BoardId::ALL[usize::from(state.board == bughouse_protocol::BoardName::B)];
                assert_eq!(state.fen, oracle.position(b).fen(), "ply {ply}");
                let expected = (oracle.result().is_none()
                    && oracle.game_end(b).is_none()
                    && oracle.to_move(b) == seat)
                    .then(|| legal_of(&oracle, b));
                let got = state.legal.map(|l| l.iter().map(str::to_owned).collect());
                assert_eq!(got, expected, "ply {ply}, board {b:?}, seat {seat:?}");
                if let Some(list) = &got {
                    drops_seen += list.iter().filter(|m| m.contains('@')).count();
                }
            }
        }
    }
    // The match went through captures: drops were offered.
    assert!(drops_seen > 0);
}
