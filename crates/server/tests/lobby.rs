//! The lobby's part of the hub with a fake clock: each shard's summary (open matches, matches in
//! progress with both boards, connections, players), the change flag, seats taken by "play
//! now", the rating groups it forms (a spread widening with the wait) and the order in which
//! open matches are offered, the bot level offered; and the claims a board offers.

mod common;
use common::{error_code, to};

use std::time::Duration;

use bughouse_engine::{Level, PUBLISHED_RATINGS};
use bughouse_protocol::lobby::{LiveGame, LobbyBoard, OpenMatch, LOBBY_LIVE_MAX};
use bughouse_protocol::{
    Claim, ClientMessage, Clocks, CreateMatch, SeatInfo, SeatName, ServerMessage,
};
use bughouse_server::hub::{
    accepted_spread, lobby_snapshot, placement_order, rate_open_match, AccountInfo, Asker, Effect,
    Hub, Input, LobbyPart, PlaceError, Write, DEFAULT_RATING, SPREAD_PER_SECOND, SPREAD_START,
};

const START: &str = "rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR[] w KQkq - 0 1";

struct Harness {
    hub: Hub,
    now: Duration,
}

impl Harness {
    fn new() -> Harness {
        Harness {
            hub: Hub::new([3; 32]).with_unix_zero(1_700_000_000_000),
            now: Duration::from_secs(1),
        }
    }

    fn create(&mut self, rules: &str, tc: &str) -> String {
        self.hub.create_match(rules, tc, self.now).expect("valid").0
    }

    fn send(&mut self, conn: u64, msg: &ClientMessage) -> Vec<Effect> {
        let text = serde_json::to_string(msg).expect("serializable");
        self.hub.apply(Input::Text(conn, text), self.now)
    }

    fn hello(&mut self, conn: u64, id: &str, token: Option<String>) -> Vec<Effect> {
        self.hub.apply(Input::Connected(conn), self.now);
        self.send(
            conn,
            &ClientMessage::Hello {
                match_id: id.to_owned(),
                token,
            },
        )
    }

    fn sit(&mut self, conn: u64, id: &str, seat: SeatName, name: &str) {
        self.hello(conn, id, None);
        let fx = self.send(
            conn,
            &ClientMessage::Sit {
                seat,
                name: name.to_owned(),
            },
        );
        assert_eq!(error_code(&fx, conn), None);
    }

    fn play(&mut self, conn: u64, uci: &str) -> Vec<Effect> {
        self.now += Duration::from_millis(300);
        let fx = self.send(conn, &ClientMessage::Move { uci: uci.into() });
        assert_eq!(error_code(&fx, conn), None, "{uci}");
        fx
    }

    fn part(&self) -> LobbyPart {
        self.hub.lobby_part(self.now)
    }
}

fn names(seats: &[SeatInfo]) -> Vec<Option<&str>> {
    seats.iter().map(|s| s.name.as_deref()).collect()
}

#[test]
fn a_shard_lists_its_open_matches_then_its_games_in_progress() {
    let mut h = Harness::new();
    let id = h.create("fide", "3+0");
    let part = h.part();
    assert_eq!(part.open.len(), 1);
    assert!(part.live.is_empty());
    let open = &part.open[0];
    assert_eq!(
        (
            open.match_id.as_str(),
            open.rules.as_str(),
            open.time_control.as_str()
        ),
        (id.as_str(), "fide", "3+0")
    );
    assert_eq!(open.free, 4);
    assert_eq!(open.created_at, 1_700_000_001_000);
    assert_eq!(names(&open.seats), [None, None, None, None]);

    h.sit(1, &id, SeatName::WhiteA, "Ann");
    h.sit(2, &id, SeatName::BlackB, "Dan");
    h.hello(9, &id, None);
    let part = h.part();
    assert_eq!(part.open[0].free, 2);
    assert_eq!(
        names(&part.open[0].seats),
        [Some("Ann"), None, None, Some("Dan")]
    );
    assert!(part.open[0].seats[0].connected);
    assert_eq!(part.connections, 3);
    assert_eq!(part.playing, 0, "nobody plays before the start");

    // A bot and a player fill it: it starts and leaves the open list for the live one.
    let fx = h.send(
        9,
        &ClientMessage::AddBot {
            seat: SeatName::BlackA,
            level: Some(2),
        },
    );
    assert_eq!(error_code(&fx, 9), None);
    h.now += Duration::from_secs(2);
    h.sit(3, &id, SeatName::WhiteB, "Cy");
    let part = h.part();
    assert!(part.open.is_empty());
    assert_eq!(part.playing, 3, "three players; the bot does not count");
    let live = &part.live[0];
    assert_eq!(live.match_id, id);
    assert_eq!(live.started_at, 1_700_000_003_000);
    assert_eq!(
        live.boards[0],
        LobbyBoard {
            fen: START.into(),
            last_move: None
        }
    );
    assert_eq!(live.clocks.remaining_ms, [180_000; 4]);
    assert_eq!(live.clocks.running, [SeatName::WhiteA, SeatName::WhiteB]);
    assert!(live.seats[1].bot);

    // A move shows on its board, and the clocks run on.
    h.play(1, "e2e4");
    h.now += Duration::from_secs(1);
    let part = h.part();
    let live = &part.live[0];
    assert_eq!(live.boards[0].last_move.as_deref(), Some("e2e4"));
    assert!(live.boards[0]
        .fen
        .starts_with("rnbqkbnr/pppppppp/8/8/4P3/8/PPPP1PPP/RNBQKBNR[] b"));
    assert_eq!(live.boards[1].fen, START);
    assert_eq!(live.clocks.remaining_ms[0], 180_000 - 300);
    assert_eq!(live.clocks.remaining_ms[2], 180_000 - 1_300);

    // Finished: gone from the lobby.
    let fx = h.send(3, &ClientMessage::Resign);
    assert!(fx
        .iter()
        .any(|e| matches!(e, Effect::Send(_, ServerMessage::Ended { .. }))));
    let part = h.part();
    assert!(part.live.is_empty() && part.open.is_empty());
    assert_eq!(part.playing, 0);
}

#[test]
fn the_lobby_flag_marks_what_the_lobby_shows_and_nothing_else() {
    let mut h = Harness::new();
    assert!(!h.hub.take_lobby_changed(), "a new hub has nothing to show");
    let id = h.create("fide", "5+0");
    assert!(h.hub.take_lobby_changed(), "a match created");
    assert!(!h.hub.take_lobby_changed(), "taking the flag clears it");
    h.hello(1, &id, None);
    assert!(h.hub.take_lobby_changed(), "a connection");
    h.send(1, &ClientMessage::Ping { t: 1.0 });
    h.now += Duration::from_secs(3);
    h.hub.apply(Input::Tick, h.now);
    assert!(
        !h.hub.take_lobby_changed(),
        "a ping or a tick changes nothing shown"
    );
    h.send(
        1,
        &ClientMessage::Sit {
            seat: SeatName::WhiteA,
            name: "Ann".into(),
        },
    );
    assert!(h.hub.take_lobby_changed(), "a seat taken");
    for (conn, seat, name) in [
        (2, SeatName::BlackA, "Bo"),
        (3, SeatName::WhiteB, "Cy"),
        (4, SeatName::BlackB, "Dan"),
    ] {
        h.sit(conn, &id, seat, name);
    }
    h.hub.take_lobby_changed();
    h.play(1, "e2e4");
    assert!(h.hub.take_lobby_changed(), "a move");
    // The runtime reads the same flag.
    let flag = h.hub.lobby_flag();
    h.play(2, "e7e5");
    assert!(flag.load(std::sync::atomic::Ordering::Relaxed));
}

#[test]
fn play_now_takes_the_first_free_seat_and_its_token_opens_it() {
    let mut h = Harness::new();
    let id = h.create("fide", "3+0");
    h.sit(1, &id, SeatName::WhiteA, "Ann");
    h.hello(9, &id, None);
    let (seat, token, fx) = h.hub.place(&id, "Bo", None, h.now).expect("a free seat");
    assert_eq!(seat, SeatName::BlackA);
    assert!(fx.iter().any(|e| matches!(
        e,
        Effect::Store(Write::SetSeat { seat: 1, name, bot: false, .. }) if name == "Bo"
    )));
    // Everyone watching sees the seat taken.
    assert!(to(&fx, 9).iter().any(|m| matches!(
        m,
        ServerMessage::State { state, .. } if state.seats[1].name.as_deref() == Some("Bo")
    )));
    // The token opens the seat on a connection of its own.
    let fx = h.hello(5, &id, Some(token));
    assert!(to(&fx, 5).iter().any(|m| matches!(
        m,
        ServerMessage::State {
            you: Some(SeatName::BlackA),
            ..
        }
    )));

    assert_eq!(
        h.hub.place(&id, " ann ", None, h.now).map(|p| p.0),
        Err(PlaceError::NameTaken("ann".into())),
        "a name sits once in a match, in any case"
    );
    assert_eq!(
        h.hub.place(&id, "", None, h.now).map(|p| p.0),
        Err(PlaceError::BadName)
    );
    assert_eq!(
        h.hub.place("nope", "Cy", None, h.now).map(|p| p.0),
        Err(PlaceError::NoSuchMatch)
    );
    let (seat, _, _) = h.hub.place(&id, "Cy", None, h.now).expect("a free seat");
    assert_eq!(seat, SeatName::WhiteB);
    // The fourth starts the match.
    let (seat, _, fx) = h.hub.place(&id, "Dan", None, h.now).expect("a free seat");
    assert_eq!(seat, SeatName::BlackB);
    assert!(fx
        .iter()
        .any(|e| matches!(e, Effect::Store(Write::StartMatch { .. }))));
    assert_eq!(
        h.hub.place(&id, "Eve", None, h.now).map(|p| p.0),
        Err(PlaceError::Full)
    );
}

fn open(id: &str, rules: &str, tc: &str, free: u8, created_at: i64) -> OpenMatch {
    OpenMatch {
        match_id: id.into(),
        rules: rules.into(),
        time_control: tc.into(),
        seats: Vec::new(),
        free,
        rated: false,
        seat_ratings: Vec::new(),
        rating: None,
        bot_level: 0,
        created_at,
    }
}

/// A seat taken by `name`: an account's with `rating`, a guest's (`account` false), or a bot
/// of published rating `rating`.
fn seat(m: &mut OpenMatch, name: &str, account: bool, bot: bool, rating: Option<u32>) {
    let seat = [
        SeatName::WhiteA,
        SeatName::BlackA,
        SeatName::WhiteB,
        SeatName::BlackB,
    ][m.seats.len()];
    m.seats.push(SeatInfo {
        seat,
        name: Some(name.into()),
        bot,
        connected: !bot,
        account,
    });
    m.seat_ratings.push(rating);
}

fn asker(name: &str, rating: f64) -> Asker<'_> {
    Asker {
        name,
        rating,
        rated: false,
    }
}

#[test]
fn play_now_offers_the_fullest_match_of_the_kind_then_the_oldest() {
    let mut list = vec![
        open("new-3", "fide", "3+0", 3, 30),
        open("old-3", "fide", "3+0", 3, 10),
        open("one-left", "fide", "3+0", 1, 50),
        open("other-tc", "fide", "5+0", 1, 0),
        open("other-rules", "knsb-1988", "3+0", 1, 0),
        open("full", "fide", "3+0", 0, 0),
    ];
    let mut rated = open("rated", "fide", "3+0", 1, 0);
    rated.rated = true;
    list.push(rated);
    assert_eq!(
        placement_order(&list, "fide", "3+0", &asker("Ann", 1500.0), 60),
        ["one-left", "old-3", "new-3"]
    );
    // Not where his name already sits.
    seat(&mut list[2], "ANN", false, false, None);
    assert_eq!(
        placement_order(&list, "fide", "3+0", &asker("ann", 1500.0), 60),
        ["old-3", "new-3"]
    );
    // A rated request sees only the rated match.
    let rated = Asker {
        rated: true,
        ..asker("Ann", 1500.0)
    };
    assert_eq!(placement_order(&list, "fide", "3+0", &rated, 60), ["rated"]);
}

#[test]
fn play_now_places_players_at_similar_ratings_widening_with_the_wait() {
    const T: i64 = 1_700_000_000_000;
    let second = 1_000;
    // A match opened at T by a guest (1500 by default), another by a 2300 player.
    let mut guest = open("guest", "fide", "3+0", 3, T);
    seat(&mut guest, "Gus", false, false, None);
    let mut strong = open("strong", "fide", "3+0", 3, T);
    seat(&mut strong, "Kasparov", true, false, Some(2300));
    let list = [guest.clone(), strong.clone()];
    let order =
        |rating: f64, now: i64| placement_order(&list, "fide", "3+0", &asker("Ann", rating), now);

    // At once, only within 200.
    assert_eq!(accepted_spread(0), SPREAD_START);
    assert_eq!(order(1650.0, T), ["guest"]);
    assert_eq!(order(2150.0, T), ["strong"]);
    assert_eq!(
        order(1900.0, T),
        Vec::<String>::new(),
        "400 from both: a match of his own"
    );
    // The spread widens with the time the match has waited: 400 after 10 s.
    assert_eq!(
        accepted_spread(10 * second),
        SPREAD_START + 10.0 * SPREAD_PER_SECOND
    );
    assert_eq!(order(1900.0, T + 9 * second), Vec::<String>::new());
    assert_eq!(order(1900.0, T + 10 * second), ["guest", "strong"]);
    // After a minute 1,400: a 1000 player fits with the 2300 one, an 800 not yet.
    assert_eq!(order(1000.0, T + 60 * second), ["guest", "strong"]);
    assert_eq!(order(800.0, T + 60 * second), ["guest"]);
    assert_eq!(
        accepted_spread(-5),
        SPREAD_START,
        "a clock gone back is no wait"
    );

    // The spread is that of everyone in the match: 1400 and 1600 take 1500 at once, not 1650.
    let mut wide = open("wide", "fide", "3+0", 2, T);
    seat(&mut wide, "Lo", true, false, Some(1400));
    seat(&mut wide, "Hi", true, false, Some(1600));
    let list = [wide];
    let order = |rating: f64| placement_order(&list, "fide", "3+0", &asker("Ann", rating), T);
    assert_eq!(order(1500.0), ["wide"]);
    assert_eq!(order(1650.0), Vec::<String>::new());
    // A seated bot counts at its published rating.
    let mut with_bot = open("bot", "fide", "3+0", 2, T);
    seat(&mut with_bot, "Ann", true, false, Some(1500));
    let level = Level::new(1).expect("level 1");
    let published = level.published_rating().round() as u32;
    seat(&mut with_bot, "bot 1", false, true, Some(published));
    let list = [with_bot];
    let fits = !placement_order(&list, "fide", "3+0", &asker("Bea", 1500.0), T).is_empty();
    assert_eq!(fits, (1500.0 - f64::from(published)).abs() <= SPREAD_START);
}

#[test]
fn the_bots_offered_are_of_the_level_nearest_the_waiting_players() {
    assert_eq!(Level::nearest(0.0), Level::MIN);
    assert_eq!(Level::nearest(4000.0), Level::MAX);
    for n in 1..=8 {
        let level = Level::new(n).expect("a level");
        let near = Level::nearest(level.published_rating());
        assert_eq!(near.published_rating(), level.published_rating());
        // Levels sharing a rating: the stronger is offered.
        assert!(near >= level);
    }
    // An account at 1900 and a guest (1500): the mean 1700; a bot seated is not counted.
    let mut m = open("m", "fide", "3+0", 1, 0);
    seat(&mut m, "Ann", true, false, Some(1900));
    seat(&mut m, "Gus", false, false, None);
    seat(&mut m, "bot 8", false, true, Some(3000));
    rate_open_match(&mut m);
    assert_eq!(m.bot_level, Level::nearest(1700.0).get());
    let nearest = PUBLISHED_RATINGS
        .iter()
        .map(|r| (r - 1700.0).abs())
        .fold(f64::INFINITY, f64::min);
    let offered = Level::new(m.bot_level).expect("a level").published_rating();
    assert_eq!((offered - 1700.0).abs(), nearest);
    // The mean of everyone seated, the bot included.
    assert_eq!(
        m.rating,
        Some(((1900 + 1500 + 3000) as f64 / 3.0).round() as u32)
    );
    // Nobody seated: the default rating's level, and no mean.
    let mut empty = open("e", "fide", "3+0", 4, 0);
    rate_open_match(&mut empty);
    assert_eq!(empty.rating, None);
    assert_eq!(empty.bot_level, Level::nearest(DEFAULT_RATING).get());
}

#[test]
fn play_now_seats_a_signed_in_player_as_his_account_and_only_him_in_a_rated_match() {
    let mut h = Harness::new();
    let request = CreateMatch {
        rules: "fide".into(),
        time_control: "3+0".into(),
        rated: true,
        ..Default::default()
    };
    let (id, _) = h.hub.create_from(&request, h.now).expect("valid");
    let ann = AccountInfo {
        id: 7,
        username: "Ann".into(),
    };
    assert_eq!(
        h.hub.place(&id, "Gus", None, h.now).map(|p| p.0),
        Err(PlaceError::SignInRequired)
    );
    // The name asked is ignored: the account's is taken.
    let (seat, _, fx) = h
        .hub
        .place(&id, "whatever", Some(&ann), h.now)
        .expect("a free seat");
    assert_eq!(seat, SeatName::WhiteA);
    assert!(fx.iter().any(|e| matches!(
        e,
        Effect::Store(Write::SetSeat { seat: 0, name, .. }) if name == "Ann"
    )));
    assert!(fx.iter().any(|e| matches!(
        e,
        Effect::Store(Write::SetSeatAccount {
            seat: 0,
            account_id: Some(7),
            ..
        })
    )));
    assert_eq!(
        h.hub.place(&id, "x", Some(&ann), h.now).map(|p| p.0),
        Err(PlaceError::NameTaken("Ann".into())),
        "an account sits once"
    );
    let part = h.part();
    assert!(part.open[0].rated);
    assert!(part.open[0].seats[0].account);
}

fn live(id: &str, started_at: i64) -> LiveGame {
    LiveGame {
        match_id: id.into(),
        rules: "fide".into(),
        time_control: "1+0".into(),
        seats: Vec::new(),
        boards: [
            LobbyBoard {
                fen: START.into(),
                last_move: None,
            },
            LobbyBoard {
                fen: START.into(),
                last_move: None,
            },
        ],
        clocks: Clocks {
            remaining_ms: [60_000; 4],
            running: Vec::new(),
        },
        started_at,
    }
}

#[test]
fn the_snapshot_merges_the_shards_newest_games_first_and_bounded() {
    let a = LobbyPart {
        open: vec![
            open("a1", "fide", "3+0", 3, 5),
            open("a2", "fide", "3+0", 1, 9),
        ],
        live: (0..20).map(|i| live(&format!("a{i}"), i * 2)).collect(),
        connections: 7,
        playing: 40,
    };
    let b = LobbyPart {
        open: vec![open("b1", "fide", "3+0", 3, 1)],
        live: (0..20).map(|i| live(&format!("b{i}"), i * 2 + 1)).collect(),
        connections: 5,
        playing: 36,
    };
    let snapshot = lobby_snapshot(vec![a, b], 2);
    assert_eq!((snapshot.online, snapshot.playing), (14, 76));
    let open: Vec<&str> = snapshot.open.iter().map(|m| m.match_id.as_str()).collect();
    assert_eq!(open, ["a2", "b1", "a1"]);
    assert_eq!(snapshot.live.len(), LOBBY_LIVE_MAX);
    assert_eq!(snapshot.live[0].match_id, "b19");
    assert_eq!(snapshot.live[1].match_id, "a19");
    assert!(snapshot
        .live
        .windows(2)
        .all(|w| w[0].started_at > w[1].started_at));
}

#[test]
fn a_board_offers_a_claim_only_when_it_may_be_made() {
    let mut h = Harness::new();
    let id = h
        .hub
        .create_custom(
            "fide",
            &[("repetition_claim".to_owned(), "3".to_owned())].into(),
            "5+0",
            h.now,
        )
        .expect("valid")
        .0;
    for (conn, seat, name) in [
        (1, SeatName::WhiteA, "Ann"),
        (2, SeatName::BlackA, "Bo"),
        (3, SeatName::WhiteB, "Cy"),
        (4, SeatName::BlackB, "Dan"),
    ] {
        h.sit(conn, &id, seat, name);
    }
    let claims_after = |fx: &[Effect]| -> Vec<Claim> {
        to(fx, 1)
            .into_iter()
            .find_map(|m| match m {
                ServerMessage::Moved { board, .. } => Some(board.claims),
                _ => None,
            })
            .expect("a move")
    };
    let mut fx = Vec::new();
    for round in 0..2 {
        for (conn, uci) in [(1, "g1f3"), (2, "g8f6"), (1, "f3g1"), (2, "f6g8")] {
            fx = h.play(conn, uci);
            if round == 0 {
                assert!(claims_after(&fx).is_empty(), "{uci}");
            }
        }
    }
    // The start position a third time: WhiteA, on move, may claim.
    assert_eq!(claims_after(&fx), [Claim::Repetition]);
    let state = h.hub.public_state(&id, h.now).expect("a state");
    assert_eq!(state.boards[0].claims, [Claim::Repetition]);
    assert!(state.boards[1].claims.is_empty());
    // Claimed: the game is over, and no claim is offered any more.
    let fx = h.send(
        1,
        &ClientMessage::ClaimDraw {
            claim: Claim::Repetition,
        },
    );
    assert_eq!(error_code(&fx, 1), None);
    let state = h.hub.public_state(&id, h.now).expect("a state");
    assert!(state.boards[0].claims.is_empty());
}
