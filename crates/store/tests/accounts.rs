//! Accounts, sessions, seats' accounts, ratings, leaderboards and profiles, on SQLite and on
//! PostgreSQL (each test runs as `NAME::sqlite` and `NAME::postgres`, see tests/common).

// Seats are indices into several arrays at once.
#![allow(clippy::needless_range_loop)]

#[macro_use]
mod common;

use bughouse_store::rating::{Config, MatchRatings, Rating};
use bughouse_store::{
    Account, AccountError, NewMatch, Outcome, RatedMatch, RatedSeat, RatedSeats, RatingRecord,
    Store, StoreError, Write,
};
use common::TestDb;

suite!(
    accounts_and_names,
    concurrent_sign_ups,
    sessions,
    seat_accounts,
    rating_a_match,
    rating_refusals,
    idle_time_widens_the_deviation,
    concurrent_rated_matches,
    leaderboards_and_history,
    profiles,
    seat_account_writes_in_a_batch,
    rating_with_bots,
);

const T0: i64 = 1_763_700_000_000;
const DAY: i64 = 86_400_000;

async fn account(store: &Store, name: &str) -> Account {
    store
        .create_account(name, &format!("$argon2id$hash-of-{name}"), T0)
        .await
        .unwrap_or_else(|e| panic!("create {name}: {e}"))
}

/// A finished match with the given seat names (an account name seats its account too) and
/// result.
async fn finished_match(
    store: &Store,
    id: &str,
    rules: &str,
    seats: [(&str, Option<i64>); 4],
    result: &str,
    at_ms: i64,
) {
    store
        .create_match(&NewMatch {
            id: id.into(),
            rules_preset: rules.into(),
            rules_json: "{}".into(),
            base_ms: 300_000,
            increment_ms: 0,
            created_at_ms: at_ms - 60_000,
            rematch_of: None,
            rated: false,
            allow_bots: false,
        })
        .await
        .unwrap();
    for (seat, (name, account)) in seats.into_iter().enumerate() {
        let seat = seat as u8;
        store
            .set_seat(id, seat, name, "token-hash", name.starts_with("bot"))
            .await
            .unwrap();
        store.set_seat_account(id, seat, account).await.unwrap();
    }
    store.start_match(id, at_ms - 50_000).await.unwrap();
    store
        .finish_match(
            id,
            result,
            "checkmate",
            ["1-0", "*"],
            "[Event \"x\"]",
            at_ms,
        )
        .await
        .unwrap();
}

fn close(a: f64, b: f64) -> bool {
    (a - b).abs() < 1e-9
}

async fn accounts_and_names(db: &TestDb) {
    let store = db.store().await;
    let ann = account(&store, "Ann").await;
    let bob = account(&store, "bob_2").await;
    assert_eq!(ann.id, 1);
    assert_eq!(bob.id, 2);
    assert_eq!(ann.username, "Ann");
    // Names are unique regardless of case, and found in any case.
    for taken in ["Ann", "ann", "ANN"] {
        match store.create_account(taken, "h", T0).await {
            Err(AccountError::UsernameTaken(name)) => assert_eq!(name, taken),
            other => panic!("{taken}: {other:?}"),
        }
    }
    assert_eq!(
        store.account_by_username("aNN").await.unwrap(),
        Some(ann.clone())
    );
    assert_eq!(store.account_by_username("nobody").await.unwrap(), None);
    assert_eq!(store.account_by_id(2).await.unwrap(), Some(bob.clone()));
    assert_eq!(store.account_by_id(99).await.unwrap(), None);
    let (found, hash) = store.login_credentials("BOB_2").await.unwrap().unwrap();
    assert_eq!(
        (found, hash.as_str()),
        (bob.clone(), "$argon2id$hash-of-bob_2")
    );
    store.set_password_hash(bob.id, "new-hash").await.unwrap();
    let (_, hash) = store.login_credentials("bob_2").await.unwrap().unwrap();
    assert_eq!(hash, "new-hash");
    assert!(matches!(
        store.set_password_hash(99, "x").await,
        Err(AccountError::NoSuchAccount(_))
    ));
    assert!(matches!(
        store.create_account("", "h", T0).await,
        Err(AccountError::Invalid(_))
    ));
    // The next id follows the highest.
    assert_eq!(account(&store, "cid").await.id, 3);
    // Everything is still there for a second connection.
    let again = db.store().await;
    assert_eq!(again.account_by_username("ann").await.unwrap(), Some(ann));
}

async fn concurrent_sign_ups(db: &TestDb) {
    let store = db.store().await;
    let mut tasks = Vec::new();
    for i in 0..8 {
        let store = store.clone();
        tasks.push(tokio::spawn(async move {
            store.create_account(&format!("p{i}"), "h", T0).await
        }));
    }
    let mut ids = Vec::new();
    for task in tasks {
        ids.push(task.await.unwrap().expect("each sign-up succeeds").id);
    }
    ids.sort_unstable();
    assert_eq!(ids, (1..=8).collect::<Vec<i64>>());
    // The same name at once: exactly one wins.
    let mut tasks = Vec::new();
    for i in 0..6 {
        let store = store.clone();
        let name = if i % 2 == 0 { "Same" } else { "same" };
        tasks.push(tokio::spawn(async move {
            store.create_account(name, "h", T0).await
        }));
    }
    let mut won = 0;
    for task in tasks {
        match task.await.unwrap() {
            Ok(_) => won += 1,
            Err(AccountError::UsernameTaken(_)) => {}
            Err(e) => panic!("{e}"),
        }
    }
    assert_eq!(won, 1);
}

async fn sessions(db: &TestDb) {
    let store = db.store().await;
    let ann = account(&store, "ann").await;
    let bob = account(&store, "bob").await;
    store
        .create_session("hash-a", ann.id, T0, T0 + DAY)
        .await
        .unwrap();
    store
        .create_session("hash-a2", ann.id, T0, T0 + 2 * DAY)
        .await
        .unwrap();
    store
        .create_session("hash-b", bob.id, T0, T0 + 10)
        .await
        .unwrap();
    assert!(matches!(
        store.create_session("hash-x", 99, T0, T0 + DAY).await,
        Err(AccountError::NoSuchAccount(_))
    ));
    assert!(matches!(
        store.create_session("hash-a", bob.id, T0, T0 + DAY).await,
        Err(AccountError::Invalid(_))
    ));
    assert_eq!(
        store.session_account("hash-a", T0 + 1).await.unwrap(),
        Some(ann.clone())
    );
    // Expired sessions are not found, then forgotten.
    assert_eq!(
        store.session_account("hash-b", T0 + 10).await.unwrap(),
        None
    );
    assert_eq!(
        store.session_account("hash-b", T0 + 9).await.unwrap(),
        Some(bob.clone())
    );
    assert_eq!(store.delete_expired_sessions(T0 + 10).await.unwrap(), 1);
    assert_eq!(store.session_account("unknown", T0).await.unwrap(), None);
    // Signing out ends one session.
    assert!(store.delete_session("hash-a").await.unwrap());
    assert!(!store.delete_session("hash-a").await.unwrap());
    assert_eq!(store.session_account("hash-a", T0).await.unwrap(), None);
    assert_eq!(
        store.session_account("hash-a2", T0).await.unwrap(),
        Some(ann.clone())
    );
    assert_eq!(store.delete_sessions_of(ann.id).await.unwrap(), 1);
    assert_eq!(store.session_account("hash-a2", T0).await.unwrap(), None);
}

async fn seat_accounts(db: &TestDb) {
    let store = db.store().await;
    let ann = account(&store, "ann").await;
    let bob = account(&store, "bob").await;
    store
        .create_match(&NewMatch {
            id: "m1".into(),
            rules_preset: "fide".into(),
            rules_json: "{}".into(),
            base_ms: 60_000,
            increment_ms: 0,
            created_at_ms: T0,
            rematch_of: None,
            rated: false,
            allow_bots: false,
        })
        .await
        .unwrap();
    assert_eq!(store.seat_accounts("m1").await.unwrap(), [None; 4]);
    store.set_seat_account("m1", 0, Some(ann.id)).await.unwrap();
    store.set_seat_account("m1", 3, Some(ann.id)).await.unwrap();
    store.set_seat_account("m1", 3, Some(bob.id)).await.unwrap();
    assert_eq!(
        store.seat_accounts("m1").await.unwrap(),
        [Some(ann.id), None, None, Some(bob.id)]
    );
    store.set_seat_account("m1", 0, None).await.unwrap();
    store.set_seat_account("m1", 1, None).await.unwrap();
    assert_eq!(
        store.seat_accounts("m1").await.unwrap(),
        [None, None, None, Some(bob.id)]
    );
    assert!(matches!(
        store.set_seat_account("nope", 0, Some(ann.id)).await,
        Err(AccountError::NoSuchMatch(_))
    ));
    assert!(matches!(
        store.set_seat_account("m1", 0, Some(99)).await,
        Err(AccountError::NoSuchAccount(_))
    ));
    assert!(matches!(
        store.set_seat_account("m1", 4, Some(ann.id)).await,
        Err(AccountError::Invalid(_))
    ));
}

/// Four accounts and a finished match between them, named m{n}.
async fn four(store: &Store) -> [Account; 4] {
    [
        account(store, "ann").await,
        account(store, "bob").await,
        account(store, "cid").await,
        account(store, "dan").await,
    ]
}

async fn seated(store: &Store, id: &str, players: &[Account; 4], result: &str, at_ms: i64) {
    let seats = [0, 1, 2, 3].map(|i| (players[i].username.as_str(), Some(players[i].id)));
    finished_match(store, id, "fide", seats, result, at_ms).await;
}

async fn rating_a_match(db: &TestDb) {
    let store = db.store().await;
    let players = four(&store).await;
    let ids = [0, 1, 2, 3].map(|i| players[i].id);
    seated(&store, "m1", &players, "1-0", T0).await;
    assert!(!store.is_rated("m1").await.unwrap());
    assert_eq!(store.player_rating(ids[0]).await.unwrap(), None);
    let upper = players[0].username.to_uppercase();
    assert_eq!(store.player_rating_by_name(&upper).await.unwrap(), None);
    let config = Config::default();
    let rated = RatedMatch {
        match_id: "m1".into(),
        accounts: ids,
        score: 1.0,
        at_ms: T0,
    };
    let changes = store.rate_match(&rated, &config).await.unwrap();
    // Exactly what the rating crate says for four newcomers and two new teams.
    let expected = config
        .rate_match(
            &MatchRatings {
                players: [config.initial; 4],
                teams: [config.initial; 2],
            },
            1.0,
        )
        .unwrap();
    for seat in 0..4 {
        assert_eq!(changes.players[seat].0, ids[seat]);
        assert_eq!(changes.players[seat].1, expected.players[seat]);
        let stored = store.player_rating(ids[seat]).await.unwrap().unwrap();
        assert_eq!(stored.rating, expected.players[seat].after);
        let won = seat == 0 || seat == 3;
        assert_eq!(
            (stored.games, stored.wins, stored.draws, stored.losses),
            (1, i64::from(won), 0, i64::from(!won))
        );
        assert_eq!(stored.updated_at_ms, T0);
    }
    // By name, in any case: the rating "play now" places a player at.
    assert_eq!(
        store.player_rating_by_name(&upper).await.unwrap(),
        Some(expected.players[0].after.rating)
    );
    assert_eq!(store.player_rating_by_name("nobody").await.unwrap(), None);
    assert_eq!(changes.teams[0].0, (ids[0], ids[3]));
    assert_eq!(changes.teams[1].0, (ids[1], ids[2]));
    for team in 0..2 {
        assert_eq!(changes.teams[team].1, expected.teams[team]);
    }
    let team_one = store.team_rating(ids[3], ids[0]).await.unwrap().unwrap();
    assert_eq!(team_one.rating, expected.teams[0].after);
    assert_eq!((team_one.games, team_one.wins), (1, 1));
    assert!(store.team_rating(ids[0], ids[1]).await.unwrap().is_none());
    assert!(store.is_rated("m1").await.unwrap());
    // The changes, as the match page reads them back.
    let shown = store.match_rating_changes("m1").await.unwrap();
    assert_eq!(shown.len(), 4);
    for change in &shown {
        let seat = ids.iter().position(|&id| id == change.account_id).unwrap();
        assert_eq!(change.username, players[seat].username);
        assert!(close(change.delta, expected.players[seat].delta()));
        assert!(close(change.rating, expected.players[seat].after.rating));
    }
    assert!(store.match_rating_changes("nope").await.unwrap().is_empty());
    // A second time changes nothing.
    match store.rate_match(&rated, &config).await {
        Err(AccountError::AlreadyRated(id)) => assert_eq!(id, "m1"),
        other => panic!("{other:?}"),
    }
    let stored = store.player_rating(ids[0]).await.unwrap().unwrap();
    assert_eq!(stored.games, 1);
    assert_eq!(store.rating_history(ids[0], 10).await.unwrap().len(), 1);

    // A draw next: the second match starts from the stored ratings.
    seated(&store, "m2", &players, "1/2-1/2", T0 + 1_000).await;
    let before = MatchRatings {
        players: expected.after().players,
        teams: expected.after().teams,
    };
    let draw = store
        .rate_match(
            &RatedMatch {
                match_id: "m2".into(),
                accounts: ids,
                score: 0.5,
                at_ms: T0 + 1_000,
            },
            &config,
        )
        .await
        .unwrap();
    // (A second of idle time widens the deviations by a hair.)
    let idle = |r: Rating| config.idle(r, 1_000.0 / DAY as f64).unwrap();
    let expected = config
        .rate_match(
            &MatchRatings {
                players: before.players.map(idle),
                teams: before.teams.map(idle),
            },
            0.5,
        )
        .unwrap();
    for seat in 0..4 {
        let got = draw.players[seat].1.after;
        let want = expected.players[seat].after;
        assert!(close(got.rating, want.rating) && close(got.deviation, want.deviation));
    }
    let stored = store.player_rating(ids[1]).await.unwrap().unwrap();
    assert_eq!(
        (stored.games, stored.wins, stored.draws, stored.losses),
        (2, 0, 1, 1)
    );
}

async fn rating_refusals(db: &TestDb) {
    let store = db.store().await;
    let players = four(&store).await;
    let ids = [0, 1, 2, 3].map(|i| players[i].id);
    seated(&store, "m1", &players, "0-1", T0).await;
    let config = Config::default();
    let rated = |match_id: &str, accounts: [i64; 4], score: f64| RatedMatch {
        match_id: match_id.into(),
        accounts,
        score,
        at_ms: T0,
    };
    assert!(matches!(
        store
            .rate_match(&rated("m1", [ids[0], ids[1], ids[2], ids[0]], 0.0), &config)
            .await,
        Err(AccountError::Invalid(_))
    ));
    assert!(matches!(
        store.rate_match(&rated("m1", ids, 2.0), &config).await,
        Err(AccountError::Invalid(_))
    ));
    assert!(matches!(
        store.rate_match(&rated("nope", ids, 0.0), &config).await,
        Err(AccountError::NoSuchMatch(_))
    ));
    assert!(matches!(
        store
            .rate_match(&rated("m1", [ids[0], ids[1], ids[2], 99], 0.0), &config)
            .await,
        Err(AccountError::NoSuchAccount(_))
    ));
    // Nothing of the refused attempts stayed: the match can still be rated, once.
    assert!(!store.is_rated("m1").await.unwrap());
    assert_eq!(store.player_rating(ids[0]).await.unwrap(), None);
    store
        .rate_match(&rated("m1", ids, 0.0), &config)
        .await
        .unwrap();
    assert!(store.is_rated("m1").await.unwrap());
    // Reads with bad pages are refused.
    assert!(matches!(
        store.leaderboard(-1, 0, 350.0).await,
        Err(StoreError::Invalid(_))
    ));
    assert!(matches!(
        store.player_matches(ids[0], 10, -1).await,
        Err(StoreError::Invalid(_))
    ));
}

async fn idle_time_widens_the_deviation(db: &TestDb) {
    let store = db.store().await;
    let players = four(&store).await;
    let ids = [0, 1, 2, 3].map(|i| players[i].id);
    let config = Config::default();
    let settled = RatingRecord {
        rating: Rating::new(1700.0, 60.0, 0.06),
        games: 40,
        wins: 25,
        draws: 0,
        losses: 15,
        updated_at_ms: T0,
    };
    store.set_player_rating(ids[0], &settled).await.unwrap();
    assert_eq!(store.player_rating(ids[0]).await.unwrap(), Some(settled));
    assert!(matches!(
        store.set_player_rating(99, &settled).await,
        Err(AccountError::NoSuchAccount(_))
    ));
    seated(&store, "m1", &players, "1-0", T0 + 100 * DAY).await;
    let changes = store
        .rate_match(
            &RatedMatch {
                match_id: "m1".into(),
                accounts: ids,
                score: 1.0,
                at_ms: T0 + 100 * DAY,
            },
            &config,
        )
        .await
        .unwrap();
    let before = changes.players[0].1.before;
    let widened = config.idle(settled.rating, 100.0).unwrap();
    assert!(close(before.deviation, widened.deviation));
    assert!(before.deviation > 60.0);
    assert_eq!(before.rating, 1700.0);
    // Newcomers are not widened (they start at the newcomer's deviation).
    assert_eq!(changes.players[1].1.before, config.initial);
}

async fn concurrent_rated_matches(db: &TestDb) {
    let store = db.store().await;
    let mut players = Vec::new();
    for name in ["a1", "a2", "a3", "a4", "a5", "a6"] {
        players.push(account(&store, name).await.id);
    }
    // Ten matches among six players (four of six in each, seats rotated), rated all at once:
    // every two share players.
    let mut lineups: Vec<[i64; 4]> = Vec::new();
    for a in 0..6 {
        for b in a + 1..6 {
            for c in b + 1..6 {
                for d in c + 1..6 {
                    let mut l = [players[a], players[b], players[c], players[d]];
                    l.rotate_left(lineups.len() % 4);
                    lineups.push(l);
                }
            }
        }
    }
    lineups.truncate(10);
    for (i, lineup) in lineups.iter().enumerate() {
        let seats = lineup.map(|id| ("x", Some(id)));
        finished_match(&store, &format!("m{i}"), "fide", seats, "1-0", T0).await;
    }
    let config = Config::default();
    let mut tasks = Vec::new();
    for (i, lineup) in lineups.iter().enumerate() {
        let store = store.clone();
        let rated = RatedMatch {
            match_id: format!("m{i}"),
            accounts: *lineup,
            score: 1.0,
            at_ms: T0,
        };
        tasks.push(tokio::spawn(async move {
            store.rate_match(&rated, &config).await
        }));
    }
    for task in tasks {
        task.await.unwrap().expect("every match is rated");
    }
    // No update was lost: each player's games are his matches.
    for &id in &players {
        let played = lineups.iter().filter(|l| l.contains(&id)).count() as i64;
        let games = store
            .player_rating(id)
            .await
            .unwrap()
            .map_or(0, |r| r.games);
        assert_eq!(games, played, "account {id}");
        assert_eq!(
            store.rating_history(id, 100).await.unwrap().len() as i64,
            played
        );
    }
}

async fn leaderboards_and_history(db: &TestDb) {
    let store = db.store().await;
    let players = four(&store).await;
    let ids = [0, 1, 2, 3].map(|i| players[i].id);
    let config = Config::default();
    // Team one (ann and dan) wins three, then loses one.
    for (n, result) in ["1-0", "1-0", "1-0", "0-1"].into_iter().enumerate() {
        let id = format!("m{n}");
        let at = T0 + n as i64 * 1_000;
        seated(&store, &id, &players, result, at).await;
        store
            .rate_match(
                &RatedMatch {
                    match_id: id,
                    accounts: ids,
                    score: bughouse_store::rating::score_of_result(result).unwrap(),
                    at_ms: at,
                },
                &config,
            )
            .await
            .unwrap();
    }
    let board = store.leaderboard(10, 0, 350.0).await.unwrap();
    let names: Vec<&str> = board.iter().map(|e| e.username.as_str()).collect();
    // Symmetric seats end equal; ties go by name.
    assert_eq!(names, ["ann", "dan", "bob", "cid"]);
    assert_eq!(board[0].record.games, 4);
    assert_eq!((board[0].record.wins, board[0].record.losses), (3, 1));
    assert!(board[0].record.rating.rating > board[2].record.rating.rating);
    assert_eq!(store.leaderboard(2, 0, 350.0).await.unwrap().len(), 2);
    assert!(store.leaderboard(10, 5, 350.0).await.unwrap().is_empty());
    assert!(store.leaderboard(10, 0, 100.0).await.unwrap().is_empty());
    let teams = store.team_leaderboard(10, 4, 350.0).await.unwrap();
    assert_eq!(teams.len(), 2);
    assert_eq!(
        teams[0].players,
        [(ids[0], "ann".to_owned()), (ids[3], "dan".to_owned())]
    );
    assert_eq!((teams[0].record.wins, teams[0].record.losses), (3, 1));
    // History, oldest first; the last `limit` points.
    let history = store.rating_history(ids[0], 10).await.unwrap();
    let matches: Vec<&str> = history.iter().map(|p| p.match_id.as_str()).collect();
    assert_eq!(matches, ["m0", "m1", "m2", "m3"]);
    assert!(history[0].delta > 0.0 && history[3].delta < 0.0);
    assert!(close(history[3].rating, board[0].record.rating.rating));
    let last_two = store.rating_history(ids[0], 2).await.unwrap();
    assert_eq!(last_two, history[2..].to_vec());
    let team = store.team_rating_history(ids[3], ids[0], 10).await.unwrap();
    assert_eq!(team.len(), 4);
    assert!(close(team[3].rating, teams[0].record.rating.rating));
}

async fn profiles(db: &TestDb) {
    let store = db.store().await;
    let [ann, bob, cid, dan] = four(&store).await;
    let config = Config::default();
    // m1, rated: ann + dan beat bob + cid.
    finished_match(
        &store,
        "m1",
        "fide",
        [
            ("ann", Some(ann.id)),
            ("bob", Some(bob.id)),
            ("cid", Some(cid.id)),
            ("dan", Some(dan.id)),
        ],
        "1-0",
        T0,
    )
    .await;
    store
        .rate_match(
            &RatedMatch {
                match_id: "m1".into(),
                accounts: [ann.id, bob.id, cid.id, dan.id],
                score: 1.0,
                at_ms: T0,
            },
            &config,
        )
        .await
        .unwrap();
    // m2, casual: ann (seat 2) with bob (seat 1) against a guest and a bot; drawn.
    finished_match(
        &store,
        "m2",
        "knsb-1988",
        [
            ("guest", None),
            ("bob", Some(bob.id)),
            ("ann", Some(ann.id)),
            ("bot 3", None),
        ],
        "1/2-1/2",
        T0 + 1_000,
    )
    .await;
    // m3, casual: ann (seat 3) with cid (seat 0) loses.
    finished_match(
        &store,
        "m3",
        "fide",
        [
            ("cid", Some(cid.id)),
            ("bob", Some(bob.id)),
            ("guest", None),
            ("ann", Some(ann.id)),
        ],
        "0-1",
        T0 + 2_000,
    )
    .await;
    // A match still running does not count.
    store
        .create_match(&NewMatch {
            id: "live".into(),
            rules_preset: "fide".into(),
            rules_json: "{}".into(),
            base_ms: 60_000,
            increment_ms: 0,
            created_at_ms: T0,
            rematch_of: None,
            rated: false,
            allow_bots: false,
        })
        .await
        .unwrap();
    store
        .set_seat_account("live", 0, Some(ann.id))
        .await
        .unwrap();

    let played = store.player_matches(ann.id, 10, 0).await.unwrap();
    let ids: Vec<&str> = played.iter().map(|m| m.match_id.as_str()).collect();
    assert_eq!(ids, ["m3", "m2", "m1"]);
    let m3 = &played[0];
    assert_eq!(
        (m3.seat, m3.outcome, m3.result.as_str()),
        (3, Outcome::Loss, "0-1")
    );
    assert_eq!(m3.rating_delta, None);
    assert_eq!(m3.finished_at_ms, T0 + 2_000);
    let partner = m3.players[0].as_ref().unwrap();
    assert_eq!(
        (partner.name.as_str(), partner.account.as_deref()),
        ("cid", Some("cid"))
    );
    let guest = m3.players[2].as_ref().unwrap();
    assert_eq!(
        (guest.name.as_str(), guest.account.as_deref()),
        ("guest", None)
    );
    let m2 = &played[1];
    assert_eq!(
        (m2.seat, m2.outcome, m2.rules_preset.as_str()),
        (2, Outcome::Draw, "knsb-1988")
    );
    assert!(m2.players[3].as_ref().unwrap().bot);
    let m1 = &played[2];
    assert_eq!((m1.seat, m1.outcome), (0, Outcome::Win));
    let delta = m1.rating_delta.expect("m1 was rated");
    assert!(delta > 0.0);
    assert_eq!(
        store.player_matches(ann.id, 1, 1).await.unwrap()[0].match_id,
        "m2"
    );
    assert!(store.player_matches(99, 10, 0).await.unwrap().is_empty());

    // Partners: dan (a win, rated as a team), then bob (a draw), then cid (a loss).
    let partners = store.best_partners(ann.id, 10).await.unwrap();
    let names: Vec<&str> = partners.iter().map(|p| p.username.as_str()).collect();
    assert_eq!(names, ["dan", "bob", "cid"]);
    assert_eq!(
        (
            partners[0].games,
            partners[0].wins,
            partners[0].draws,
            partners[0].losses
        ),
        (1, 1, 0, 0)
    );
    let team = store.team_rating(ann.id, dan.id).await.unwrap().unwrap();
    assert_eq!(partners[0].team_rating, Some(team.rating));
    assert_eq!((partners[1].draws, partners[1].team_rating), (1, None));
    assert_eq!(partners[2].losses, 1);
    assert_eq!(store.best_partners(ann.id, 1).await.unwrap().len(), 1);

    // By rulebook: fide twice (a win, a loss), knsb-1988 once (a draw).
    let by_rules = store.results_by_rules(ann.id).await.unwrap();
    assert_eq!(by_rules.len(), 2);
    assert_eq!(by_rules[0].rules_preset, "fide");
    assert_eq!(
        (
            by_rules[0].games,
            by_rules[0].wins,
            by_rules[0].draws,
            by_rules[0].losses
        ),
        (2, 1, 0, 1)
    );
    assert_eq!(
        (by_rules[1].rules_preset.as_str(), by_rules[1].draws),
        ("knsb-1988", 1)
    );
    // Bob's view of m3 is a win (seat 1, team two, 0-1).
    let bobs = store.player_matches(bob.id, 10, 0).await.unwrap();
    assert_eq!(
        (bobs[0].match_id.as_str(), bobs[0].outcome),
        ("m3", Outcome::Win)
    );
}

/// The hub's writes of seats and their accounts, in one batch as the committer stores them: a
/// player sits with his account, another stands up (his link goes), a rated match's columns are
/// kept, and the finished rated match waits for its rating.
async fn seat_account_writes_in_a_batch(db: &TestDb) {
    let store = db.store().await;
    let [ann, bob, ..] = four(&store).await;
    let id = "batch";
    let mut writes = vec![Write::CreateMatch(NewMatch {
        id: id.into(),
        rules_preset: "fide".into(),
        rules_json: "{}".into(),
        base_ms: 300_000,
        increment_ms: 0,
        created_at_ms: T0,
        rematch_of: None,
        rated: true,
        allow_bots: true,
    })];
    for (seat, account) in [(0u8, ann.id), (1, bob.id)] {
        writes.push(Write::SetSeat {
            match_id: id.into(),
            seat,
            name: format!("p{seat}"),
            token_hash: "h".into(),
            bot: false,
        });
        writes.push(Write::SetSeatAccount {
            match_id: id.into(),
            seat,
            account_id: Some(account),
        });
    }
    // Bob stands up; removing a link that is not there is no refusal.
    writes.push(Write::ClearSeat {
        match_id: id.into(),
        seat: 1,
    });
    writes.push(Write::SetSeatAccount {
        match_id: id.into(),
        seat: 1,
        account_id: None,
    });
    writes.push(Write::SetSeatAccount {
        match_id: id.into(),
        seat: 2,
        account_id: None,
    });
    let results = store.apply_batch(&writes).await;
    assert!(results.iter().all(Result::is_ok), "{results:?}");
    assert_eq!(
        store.seat_accounts(id).await.unwrap(),
        [Some(ann.id), None, None, None]
    );
    let loaded = store.load_match(id).await.unwrap().unwrap();
    assert!(loaded.rated && loaded.allow_bots);
    assert_eq!(loaded.seats[0].as_ref().unwrap().account, Some(ann.id));
    assert!(loaded.seats[1].is_none());
    // A link to an unknown account is refused alone.
    assert!(store
        .apply(&Write::SetSeatAccount {
            match_id: id.into(),
            seat: 3,
            account_id: Some(999),
        })
        .await
        .is_err());
    assert!(store.unrated_matches().await.unwrap().is_empty());
    store
        .finish_match(id, "1-0", "x", ["1-0", "*"], "*", T0 + 1)
        .await
        .unwrap();
    assert_eq!(store.unrated_matches().await.unwrap(), [id]);
}

/// Bots have fixed ratings: only the accounts' ratings change, no team rating.
async fn rating_with_bots(db: &TestDb) {
    let store = db.store().await;
    let [ann, bob, ..] = four(&store).await;
    finished_match(
        &store,
        "bots",
        "fide",
        [
            ("ann", Some(ann.id)),
            ("bot 1", None),
            ("bot 2", None),
            ("bob", Some(bob.id)),
        ],
        "1-0",
        T0,
    )
    .await;
    let config = Config::default();
    let bot = Rating::new(1200.0, 100.0, 0.06);
    let rated = RatedSeats {
        match_id: "bots".into(),
        seats: [
            RatedSeat::Account(ann.id),
            RatedSeat::Bot(bot),
            RatedSeat::Bot(bot),
            RatedSeat::Account(bob.id),
        ],
        score: 1.0,
        at_ms: T0,
    };
    let changes = store.rate_seats(&rated, &config).await.unwrap();
    let expected = config
        .rate_match(
            &MatchRatings {
                players: [config.initial, bot, bot, config.initial],
                teams: [config.initial; 2],
            },
            1.0,
        )
        .unwrap();
    assert_eq!(changes.players[0], Some((ann.id, expected.players[0])));
    assert_eq!(changes.players[3], Some((bob.id, expected.players[3])));
    assert_eq!(changes.players[1], None);
    assert_eq!(changes.teams, [None, None]);
    let ann_rating = store.player_rating(ann.id).await.unwrap().unwrap();
    assert_eq!(ann_rating.rating, expected.players[0].after);
    assert_eq!(ann_rating.games, 1);
    assert_eq!(store.team_rating(ann.id, bob.id).await.unwrap(), None);
    assert!(store
        .match_team_rating_changes("bots")
        .await
        .unwrap()
        .is_empty());
    assert_eq!(store.match_rating_changes("bots").await.unwrap().len(), 2);
    assert!(matches!(
        store.rate_seats(&rated, &config).await,
        Err(AccountError::AlreadyRated(_))
    ));
    // No account: nothing to rate.
    let bots_only = RatedSeats {
        seats: [RatedSeat::Bot(bot); 4],
        ..rated
    };
    assert!(matches!(
        store.rate_seats(&bots_only, &config).await,
        Err(AccountError::Invalid(_))
    ));
}
