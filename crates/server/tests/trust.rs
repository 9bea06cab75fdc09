//! Results that stand: the hub with a fake clock and a real SQLite store (in memory), its store
//! effects written as the server writes them. Every kind of ending is played to its end, the
//! match is evicted from memory, the server "restarts" (a new hub restored from the store), the
//! match is reopened and every seat tries to change it: nothing changes. Also: acknowledgements
//! and resent actions, partner talk kept for the team, the clocks after a crash, the lag quota.

mod common;
use common::{error_code, to};

use std::time::Duration;

use bughouse_protocol::{
    ClientFrame, ClientMessage, MatchState, ResultInfo, ServerMessage, TalkKind,
};
use bughouse_server::hub::{ConnId, Effect, Hub, Input};
use bughouse_store::{MatchStatus, Store};

/// Unix milliseconds of the first server's time 0.
const UNIX_ZERO: i64 = 1_763_900_000_000;

/// A server: the hub, its store, and its clock.
struct Node {
    hub: Hub,
    store: Store,
    now: Duration,
    /// Unix milliseconds of this server's time 0.
    unix_zero: i64,
}

impl Node {
    async fn new() -> Node {
        Node {
            hub: Hub::new([3; 32]).with_unix_zero(UNIX_ZERO),
            store: Store::connect("sqlite::memory:")
                .await
                .expect("SQLite in memory"),
            now: Duration::from_secs(1),
            unix_zero: UNIX_ZERO,
        }
    }

    /// Stores the effects' writes (one transaction, as the committer does) and returns them.
    async fn commit(&mut self, fx: Vec<Effect>) -> Vec<Effect> {
        let writes: Vec<_> = fx
            .iter()
            .filter_map(|e| match e {
                Effect::Store(write) => Some(write.clone()),
                _ => None,
            })
            .collect();
        for result in self.store.apply_batch(&writes).await {
            result.expect("the write is stored");
        }
        fx
    }

    async fn apply(&mut self, input: Input) -> Vec<Effect> {
        let fx = self.hub.apply(input, self.now);
        self.commit(fx).await
    }

    async fn create(&mut self, rules: &str, tc: &str) -> String {
        let (id, fx) = self.hub.create_match(rules, tc, self.now).expect("valid");
        self.commit(fx).await;
        id
    }

    async fn send(&mut self, conn: ConnId, msg: ClientMessage) -> Vec<Effect> {
        self.frame(conn, ClientFrame { id: None, msg }).await
    }

    async fn frame(&mut self, conn: ConnId, frame: ClientFrame) -> Vec<Effect> {
        let text = serde_json::to_string(&frame).expect("serializable");
        self.apply(Input::Text(conn, text)).await
    }

    async fn hello(&mut self, conn: ConnId, id: &str, token: Option<&str>) -> Vec<Effect> {
        self.apply(Input::Connected(conn)).await;
        self.send(
            conn,
            ClientMessage::Hello {
                match_id: id.to_owned(),
                token: token.map(str::to_owned),
            },
        )
        .await
    }

    /// Four players on connections 1 to 4 (WhiteA, BlackA, WhiteB, BlackB); their tokens.
    async fn seat_four(&mut self, id: &str) -> Vec<String> {
        let mut tokens = Vec::new();
        for (conn, seat) in [(1, "WhiteA"), (2, "BlackA"), (3, "WhiteB"), (4, "BlackB")] {
            self.hello(conn, id, None).await;
            let fx = self
                .send(
                    conn,
                    ClientMessage::Sit {
                        seat: seat.parse().unwrap(),
                        name: format!("p{conn}"),
                    },
                )
                .await;
            tokens.push(
                to(&fx, conn)
                    .into_iter()
                    .find_map(|m| match m {
                        ServerMessage::Seated { token, .. } => Some(token),
                        _ => None,
                    })
                    .expect("seated"),
            );
        }
        tokens
    }

    async fn play(&mut self, conn: ConnId, uci: &str) -> Vec<Effect> {
        self.now += Duration::from_millis(300);
        let fx = self
            .send(conn, ClientMessage::Move { uci: uci.into() })
            .await;
        assert_eq!(error_code(&fx, conn), None, "{uci}");
        fx
    }

    async fn advance(&mut self, d: Duration) -> Vec<Effect> {
        self.now += d;
        self.apply(Input::Tick).await
    }

    /// The server dies (or its memory is cleared) `down` after now and another starts on the
    /// same database: the matches in progress are restored, each from the last heartbeat.
    async fn restart(&mut self, down: Duration, last_alive: Option<Duration>) {
        let unix_now = self.unix_zero + ms(self.now + down);
        let alive_unix = last_alive.map(|t| self.unix_zero + ms(t));
        self.hub = Hub::new([4; 32]).with_unix_zero(unix_now - 10);
        self.now = Duration::from_millis(10);
        self.unix_zero = unix_now - 10;
        for stored in self.store.live_matches().await.expect("live matches") {
            let alive_at = alive_unix
                .zip(stored.clock_anchor_ms)
                .map(|(alive, anchor)| Duration::from_millis((alive - anchor).max(0) as u64));
            let fx = self
                .hub
                .restore(&stored, self.now, alive_at)
                .expect("restores");
            self.commit(fx).await;
        }
    }

    /// Loads a match from the store as the server does for one not in memory.
    async fn load(&mut self, id: &str) {
        if self.hub.has_match(id) {
            return;
        }
        let stored = self.store.load_match(id).await.unwrap().expect("stored");
        let fx = self.hub.restore(&stored, self.now, None).expect("restores");
        self.commit(fx).await;
    }

    async fn state(&mut self, conn: ConnId, id: &str, token: Option<&str>) -> MatchState {
        self.load(id).await;
        let fx = self.hello(conn, id, token).await;
        to(&fx, conn)
            .into_iter()
            .find_map(|m| match m {
                ServerMessage::State { state, .. } => Some(*state),
                _ => None,
            })
            .expect("a state")
    }
}

fn ms(d: Duration) -> i64 {
    d.as_millis() as i64
}

fn ended(fx: &[Effect]) -> Option<ResultInfo> {
    fx.iter().find_map(|e| match e {
        Effect::Send(_, ServerMessage::Ended { result, .. }) if result.result != "*" => {
            Some(result.clone())
        }
        _ => None,
    })
}

fn stores(fx: &[Effect]) -> usize {
    fx.iter().filter(|e| matches!(e, Effect::Store(_))).count()
}

/// How a match is brought to its end.
#[derive(Debug, Clone, Copy)]
enum Ending {
    Mate,
    Flag,
    SimultaneousFlags,
    Resignation,
    AgreedDraw,
    RepetitionClaim,
    /// knsb-1988: board A ends on time, board B by resignation (K11G: both games count).
    KnsbGamesEndApart,
}

/// Plays `ending` on a new match; the match's id, the seat tokens and the result reported.
async fn play_to_the_end(node: &mut Node, ending: Ending) -> (String, Vec<String>, ResultInfo) {
    let (rules, tc) = match ending {
        Ending::KnsbGamesEndApart => ("knsb-1988", "1+0"),
        Ending::Flag | Ending::SimultaneousFlags => ("fide", "1+0"),
        _ => ("fide", "5+0"),
    };
    let id = node.create(rules, tc).await;
    let tokens = node.seat_four(&id).await;
    let mut fx = Vec::new();
    match ending {
        Ending::Mate => {
            for (conn, uci) in [
                (1, "e2e4"),
                (2, "e7e5"),
                (1, "f1c4"),
                (2, "b8c6"),
                (1, "d1h5"),
                (2, "g8f6"),
                (1, "h5f7"),
            ] {
                fx = node.play(conn, uci).await;
            }
        }
        Ending::Flag => {
            node.play(1, "e2e4").await;
            node.play(3, "d2d4").await;
            // BlackA and BlackB think for a minute: the first flag decides.
            node.play(4, "d7d5").await;
            fx = node.advance(Duration::from_secs(61)).await;
        }
        Ending::SimultaneousFlags => {
            // Nobody moves: both White clocks fall at the same instant (F4.3).
            fx = node.advance(Duration::from_secs(62)).await;
        }
        Ending::Resignation => {
            node.play(1, "e2e4").await;
            fx = node.send(2, ClientMessage::Resign).await;
        }
        Ending::AgreedDraw => {
            node.play(1, "e2e4").await;
            for conn in 1..=4 {
                fx = node.send(conn, ClientMessage::OfferDraw).await;
            }
        }
        Ending::RepetitionClaim => {
            for _ in 0..3 {
                for (conn, uci) in [(1, "g1f3"), (2, "g8f6"), (1, "f3g1"), (2, "f6g8")] {
                    node.play(conn, uci).await;
                }
            }
            fx = node
                .send(
                    1,
                    ClientMessage::ClaimDraw {
                        claim: "repetition".parse().unwrap(),
                    },
                )
                .await;
        }
        Ending::KnsbGamesEndApart => {
            node.play(1, "e2e4").await;
            node.play(2, "e7e5").await;
            // Board B keeps moving; WhiteA's flag falls: game A is over, game B goes on.
            for _ in 0..2 {
                node.now += Duration::from_secs(20);
                node.play(3, "g1f3").await;
                node.now += Duration::from_secs(1);
                node.play(4, "g8f6").await;
                node.play(3, "f3g1").await;
                node.play(4, "f6g8").await;
            }
            node.now += Duration::from_secs(15);
            node.play(3, "g1f3").await;
            let fx_flag = node.advance(Duration::from_secs(2)).await;
            assert!(ended(&fx_flag).is_none(), "board B goes on");
            let state = node.state(9, &id, None).await;
            assert_eq!(state.status, "playing");
            assert_ne!(state.result, None, "board A's end is shown");
            fx = node.send(4, ClientMessage::Resign).await;
        }
    }
    let result = ended(&fx).unwrap_or_else(|| panic!("{ending:?}: the match ended"));
    (id, tokens, result)
}

/// After the end: time passes, everyone leaves, the match leaves memory, the server restarts,
/// the match is reopened; every seat tries to move, resign, offer and claim a draw. The result,
/// the record and the store never change.
#[tokio::test]
async fn every_ending_stands_after_eviction_and_restart() {
    for ending in [
        Ending::Mate,
        Ending::Flag,
        Ending::SimultaneousFlags,
        Ending::Resignation,
        Ending::AgreedDraw,
        Ending::RepetitionClaim,
        Ending::KnsbGamesEndApart,
    ] {
        let mut node = Node::new().await;
        let (id, tokens, result) = play_to_the_end(&mut node, ending).await;
        let stored = node.store.load_match(&id).await.unwrap().unwrap();
        assert_eq!(stored.status, MatchStatus::Finished, "{ending:?}");
        assert_eq!(stored.result.as_deref(), Some(result.result.as_str()));
        assert_eq!(stored.reason.as_deref(), Some(result.reason.as_str()));
        let record = stored.moves.len();
        let bpgn = node.store.bpgn(&id).await.unwrap().expect("a record");

        // Time passes: nothing more happens to it.
        let fx = node.advance(Duration::from_secs(600)).await;
        assert_eq!(stores(&fx), 0, "{ending:?}: {fx:?}");
        for conn in [1, 2, 3, 4, 9] {
            node.apply(Input::Disconnected(conn)).await;
        }
        node.hub.evict_finished();
        assert!(!node.hub.has_match(&id), "{ending:?}: evicted");

        for round in 0..2 {
            if round == 1 {
                node.restart(Duration::from_secs(30), Some(node.now)).await;
            }
            let state = node.state(20, &id, Some(&tokens[0])).await;
            assert_eq!(state.status, "finished", "{ending:?} round {round}");
            assert_eq!(state.result.as_ref(), Some(&result), "{ending:?}");
            assert!(state.clocks.running.is_empty(), "{ending:?}");
            assert_eq!(state.moves.len(), record);
            for (seat, token) in tokens.iter().enumerate() {
                let conn = 30 + seat as ConnId;
                node.hello(conn, &id, Some(token)).await;
                // A legal move on each board, whoever is to move there.
                for uci in ["a2a3", "a7a6", "h2h3", "h7h6"] {
                    let fx = node
                        .send(conn, ClientMessage::Move { uci: uci.into() })
                        .await;
                    assert_eq!(stores(&fx), 0, "{ending:?}: {uci} by seat {seat}: {fx:?}");
                    assert!(error_code(&fx, conn).is_some());
                }
                for msg in [
                    ClientMessage::Resign,
                    ClientMessage::OfferDraw,
                    ClientMessage::ClaimDraw {
                        claim: "repetition".parse().unwrap(),
                    },
                ] {
                    let fx = node.send(conn, msg).await;
                    assert_eq!(error_code(&fx, conn).as_deref(), Some("game_over"));
                    assert_eq!(stores(&fx), 0);
                }
            }
            let fx = node.advance(Duration::from_secs(600)).await;
            assert_eq!(stores(&fx), 0, "{ending:?}");
            assert!(ended(&fx).is_none());
            // The BPGN served is the archive's.
            assert_eq!(node.hub.bpgn(&id), None);
            let after = node.store.load_match(&id).await.unwrap().unwrap();
            assert_eq!(after.result, stored.result);
            assert_eq!(after.moves.len(), record);
            assert_eq!(node.store.bpgn(&id).await.unwrap().unwrap(), bpgn);
            for conn in [20, 30, 31, 32, 33] {
                node.apply(Input::Disconnected(conn)).await;
            }
            node.hub.evict_finished();
        }
    }
}

/// A flag fall that a restart finds already past (the server died before it could announce it)
/// falls at once after the restart, once, and then stands.
#[tokio::test]
async fn a_flag_due_during_the_downtime_falls_once_after_the_restart() {
    let mut node = Node::new().await;
    let id = node.create("fide", "1+0").await;
    let tokens = node.seat_four(&id).await;
    node.play(1, "e2e4").await;
    node.play(3, "e2e4").await;
    // BlackA and BlackB think; the server dies 70 s later, last alive at 65 s.
    let alive = node.now + Duration::from_secs(65);
    node.now += Duration::from_secs(70);
    node.restart(Duration::ZERO, Some(alive)).await;
    let fx = node.advance(Duration::from_millis(1)).await;
    let result = ended(&fx).expect("the flag falls at the first tick");
    assert_eq!(
        result.reason, "p2 forfeits on time",
        "BlackA's clock started first"
    );
    let state = node.state(21, &id, Some(&tokens[1])).await;
    assert_eq!(state.status, "finished");
    node.restart(Duration::from_secs(5), None).await;
    let state = node.state(22, &id, None).await;
    assert_eq!(state.result, Some(result));
}

/// After a crash the player to move is charged his thinking up to the last heartbeat, not the
/// time the server was down, and not less.
#[tokio::test]
async fn a_crash_charges_the_thinking_not_the_downtime() {
    let mut node = Node::new().await;
    let id = node.create("fide", "5+0").await;
    let tokens = node.seat_four(&id).await;
    node.play(1, "e2e4").await;
    let before = node.state(9, &id, None).await.clocks.remaining_ms[1];
    // BlackA thinks 22.6 s; the last heartbeat was then; the server stays down 40 s.
    node.now += Duration::from_millis(22_600);
    node.restart(Duration::from_secs(40), Some(node.now)).await;
    let state = node.state(21, &id, Some(&tokens[1])).await;
    let left = state.clocks.remaining_ms[1];
    assert_eq!(
        before - left,
        22_600,
        "charged his thinking, not the downtime"
    );
    assert_eq!(state.clocks.running, ["BlackA", "WhiteB"]);
    // He moves on; the record shows the move at 22.6 s after his clock started.
    node.now += Duration::from_millis(400);
    let fx = node.play(21, "e7e5").await;
    let clock = fx
        .iter()
        .find_map(|e| match e {
            Effect::Send(_, ServerMessage::Moved { mv, .. }) => Some(mv.clock_ms),
            _ => None,
        })
        .unwrap();
    assert_eq!(before - clock, 23_300);
    // Without a heartbeat (an old database), the clocks go on from the last move.
    node.now += Duration::from_secs(5);
    node.restart(Duration::from_secs(40), None).await;
    let state = node.state(22, &id, None).await;
    // WhiteB's clock has run since the start; the last move was at 0.3 + 23.3 s.
    assert_eq!(state.clocks.remaining_ms[2], 300_000 - 23_600);
}

/// An action resent with an id already acknowledged is answered with the same `ack` and not
/// applied again: on the same connection, after a reconnect, and after a restart. Refused
/// actions carry their id.
#[tokio::test]
async fn a_resent_action_is_acknowledged_again_not_applied_twice() {
    let mut node = Node::new().await;
    let id = node.create("fide", "5+0").await;
    let tokens = node.seat_four(&id).await;
    let mv = |uci: &str, id: u64| ClientFrame {
        id: Some(id),
        msg: ClientMessage::Move { uci: uci.into() },
    };
    let fx = node.frame(1, mv("e2e4", 77)).await;
    let ack = to(&fx, 1)
        .into_iter()
        .find_map(|m| match m {
            ServerMessage::Ack { id, seq, lag_ms } => Some((id, seq, lag_ms)),
            _ => None,
        })
        .expect("acknowledged");
    assert_eq!(ack.0, 77);
    assert_eq!(ack.2, Some(0));
    // The ack comes after the move is stored and after the `moved` it answers.
    let acked_at = fx
        .iter()
        .position(|e| matches!(e, Effect::Send(_, ServerMessage::Ack { .. })))
        .unwrap();
    let moved_at = fx
        .iter()
        .position(
            |e| matches!(e, Effect::Send(_, ServerMessage::Moved { seq, .. }) if *seq == ack.1),
        )
        .expect("the numbered move");
    assert!(moved_at < acked_at);

    // Resent: same ack, nothing stored, nothing sent to others.
    let fx = node.frame(1, mv("e2e4", 77)).await;
    assert_eq!(stores(&fx), 0);
    assert!(matches!(
        &to(&fx, 1)[..],
        [ServerMessage::Ack { id: 77, .. }]
    ));
    assert!(to(&fx, 2).is_empty());

    // A refused action carries its id.
    let fx = node.frame(2, mv("e2e4", 5)).await;
    assert!(matches!(
        &to(&fx, 2)[..],
        [ServerMessage::Error { id: Some(5), .. }]
    ));

    // Talk with an id, resent after a reconnect: one message.
    let talk = ClientFrame {
        id: Some(78),
        msg: ClientMessage::Talk {
            kind: TalkKind::Text,
            piece: None,
            text: Some("knight coming".into()),
        },
    };
    node.frame(1, talk.clone()).await;
    node.apply(Input::Disconnected(1)).await;
    node.hello(11, &id, Some(&tokens[0])).await;
    let fx = node.frame(11, talk.clone()).await;
    assert_eq!(stores(&fx), 0);

    // After a restart the ids are known from the store.
    node.restart(Duration::from_secs(3), Some(node.now)).await;
    node.hello(12, &id, Some(&tokens[0])).await;
    for frame in [mv("e2e4", 77), talk] {
        let fx = node.frame(12, frame).await;
        assert_eq!(stores(&fx), 0, "{fx:?}");
        assert!(matches!(&to(&fx, 12)[..], [ServerMessage::Ack { .. }]));
    }
    let stored = node.store.load_match(&id).await.unwrap().unwrap();
    assert_eq!(stored.moves.len(), 1);
    assert_eq!(stored.moves[0].action_id, Some(77));
    assert_eq!(stored.talk.len(), 1);
    // A new id is a new action.
    node.hello(13, &id, Some(&tokens[1])).await;
    let fx = node.frame(13, mv("e7e5", 77)).await;
    assert_eq!(error_code(&fx, 13), None, "ids are per seat");
}

/// Partner talk is stored with the match and comes back, after a restart, to the team only:
/// each message once, in order, numbered.
#[tokio::test]
async fn partner_talk_is_kept_for_the_team_only() {
    let mut node = Node::new().await;
    let id = node.create("fide", "5+0").await;
    let tokens = node.seat_four(&id).await;
    node.send(
        1,
        ClientMessage::Talk {
            kind: TalkKind::Need,
            piece: Some("N".parse().unwrap()),
            text: None,
        },
    )
    .await;
    node.send(
        2,
        ClientMessage::Talk {
            kind: TalkKind::Sit,
            piece: None,
            text: None,
        },
    )
    .await;
    let fx = node
        .send(
            4,
            ClientMessage::Talk {
                kind: TalkKind::Text,
                piece: None,
                text: Some("on its way".into()),
            },
        )
        .await;
    // Both partners get the server's copy, once.
    for conn in [1, 4] {
        let talk: Vec<_> = to(&fx, conn)
            .into_iter()
            .filter(|m| matches!(m, ServerMessage::Talk { .. }))
            .collect();
        assert_eq!(talk.len(), 1, "conn {conn}");
    }
    node.restart(Duration::from_secs(2), Some(node.now)).await;
    let mine = node.state(21, &id, Some(&tokens[0])).await.talk_log;
    let partner = node.state(24, &id, Some(&tokens[3])).await.talk_log;
    let opponent = node.state(22, &id, Some(&tokens[1])).await.talk_log;
    let spectator = node.state(29, &id, None).await.talk_log;
    assert_eq!(mine, partner);
    let seen: Vec<_> = mine
        .iter()
        .map(|e| (e.n, e.from.as_str(), e.kind))
        .collect();
    assert_eq!(
        seen,
        [(0, "WhiteA", TalkKind::Need), (2, "BlackB", TalkKind::Text)]
    );
    assert_eq!(mine[0].piece.map(|p| p.as_str()), Some("N"));
    assert_eq!(mine[1].text.as_deref(), Some("on its way"));
    assert_eq!(opponent.len(), 1, "BlackA sees his own team's talk only");
    assert_eq!(opponent[0].from, "BlackA");
    assert!(spectator.is_empty());
}

/// A wrong token in `hello` is an error, and the connection watches.
#[tokio::test]
async fn a_bad_token_is_refused_and_the_connection_watches() {
    let mut node = Node::new().await;
    let id = node.create("fide", "5+0").await;
    node.seat_four(&id).await;
    let fx = node.hello(20, &id, Some("not-a-token")).await;
    let msgs = to(&fx, 20);
    assert!(
        matches!(&msgs[0], ServerMessage::Error { code, .. } if code.as_str() == "bad_token"),
        "{msgs:?}"
    );
    assert!(matches!(&msgs[1], ServerMessage::State { you: None, .. }));
}

/// The lag quota: a connection with a steady lag is compensated, but a client cannot claim more
/// than the quota gives (the time control's share per move, capped).
#[tokio::test]
async fn lag_compensation_is_bounded_by_the_quota() {
    let mut node = Node::new().await;
    // 1+0: a share of 333 ms per move, starting at 999 ms, at most 2331 ms.
    let id = node.create("fide", "1+0").await;
    node.seat_four(&id).await;
    // WhiteA's connection has a steady 200 ms round trip: 100 ms one way, always compensated.
    node.hub.observe_rtt(1, Duration::from_millis(200));
    // BlackA's claims 6 s.
    node.hub.observe_rtt(2, Duration::from_secs(6));
    let lags = |fx: &[Effect]| {
        fx.iter()
            .find_map(|e| match e {
                Effect::Send(_, ServerMessage::Moved { mv, .. }) => Some(mv.lag_ms),
                _ => None,
            })
            .unwrap()
    };
    let mut black = Vec::new();
    for (white, blackm) in [("g1f3", "g8f6"), ("f3g1", "f6g8"), ("g1f3", "g8f6")] {
        node.now += Duration::from_secs(4);
        let fx = node.play(1, white).await;
        assert_eq!(lags(&fx), 100);
        node.now += Duration::from_secs(4);
        let fx = node.play(2, blackm).await;
        black.push(lags(&fx));
    }
    // The start quota, then what each move adds.
    assert_eq!(black, [999, 333, 333]);
    let state = node.state(9, &id, None).await;
    assert_eq!(state.moves[1].lag_ms, 999);
    // The pong tells each player his measured lag and what is left.
    let fx = node.send(2, ClientMessage::Ping { t: 1.0 }).await;
    assert!(matches!(
        &to(&fx, 2)[..],
        [ServerMessage::Pong {
            lag_ms: Some(3000),
            quota_ms: Some(333),
            ..
        }]
    ));
}
