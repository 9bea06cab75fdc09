//! "Play now" on the real server over HTTP (a SQLite file), with accounts: a signed-in player
//! is placed at his account's rating under his account's name, a guest at the default rating;
//! players far apart in rating open matches of their own, near ones are grouped; a rated
//! request is a signed-in player's only and is placed among signed-in players; the lobby shows
//! each open match's seat ratings, its mean and the bot level it would be offered.

use std::net::SocketAddr;

use bughouse_protocol::lobby::{LobbySnapshot, PlacedSeat};
use bughouse_store::rating::Rating;
use bughouse_store::{RatingRecord, Store};
use serde_json::json;

mod http;
use http::*;

/// "Play now" at `fide` `3+0`, signed in with `cookie` or as a guest.
async fn play(addr: SocketAddr, name: &str, cookie: Option<&str>, rated: bool) -> Answer {
    let body =
        json!({"rules": "fide", "time_control": "3+0", "name": name, "rated": rated}).to_string();
    let origin = origin(addr);
    let mut headers = vec![("Origin", origin.as_str())];
    if let Some(cookie) = cookie {
        headers.push(("Cookie", cookie));
    }
    http(addr, "POST", "/api/lobby/play", &headers, Some(&body)).await
}

fn placed(a: &Answer) -> PlacedSeat {
    assert_eq!(a.status, 200, "{}", a.body);
    serde_json::from_str(&a.body).expect("a placed seat")
}

#[tokio::test]
async fn play_now_groups_players_by_rating() {
    let dir = tempfile::tempdir().unwrap();
    let server = start(dir.path()).await;
    let addr = server.addr;
    let ann = sign_up(addr, "ann", "password1").await;
    let kim = sign_up(addr, "kim", "password1").await;
    let lou = sign_up(addr, "lou", "password1").await;
    // Kim is rated 2300 (written through the store, as rated matches would).
    let store = Store::connect(&database(dir.path())).await.unwrap();
    let kim_id = store.account_by_username("kim").await.unwrap().unwrap().id;
    let record = RatingRecord {
        rating: Rating::new(2300.0, 60.0, 0.06),
        games: 40,
        wins: 30,
        draws: 2,
        losses: 8,
        updated_at_ms: 1_763_700_000_000,
    };
    store.set_player_rating(kim_id, &record).await.unwrap();

    // Ann (unrated: 1500) opens a match; she sits as her account, whatever name she sent.
    let first = placed(&play(addr, "not-ann", Some(&ann), false).await);
    assert!(first.created);
    // Kim, 800 above, is not placed with her at once: a match of his own.
    let second = placed(&play(addr, "x", Some(&kim), false).await);
    assert!(second.created && second.match_id != first.match_id);
    // A guest (1500) joins Ann, not Kim.
    let guest = placed(&play(addr, "Gus", None, false).await);
    assert_eq!(guest.match_id, first.match_id);
    assert!(!guest.created);

    let lobby = http(addr, "GET", "/api/lobby", &[], None).await;
    let lobby: LobbySnapshot = serde_json::from_str(&lobby.body).expect("a snapshot");
    let of = |id: &str| {
        lobby
            .open
            .iter()
            .find(|m| m.match_id == id)
            .expect("listed")
            .clone()
    };
    let kims = of(&second.match_id);
    assert_eq!(kims.seats[0].name.as_deref(), Some("kim"));
    assert!(kims.seats[0].account);
    assert_eq!(kims.seat_ratings[0], Some(2300));
    assert_eq!(kims.rating, Some(2300));
    assert_eq!(
        kims.bot_level,
        bughouse_engine::Level::nearest(2300.0).get()
    );
    let anns = of(&first.match_id);
    assert_eq!(anns.seats[0].name.as_deref(), Some("ann"));
    assert_eq!(
        anns.seat_ratings[..2],
        [None, None],
        "unrated and guest: no rating shown"
    );
    assert_eq!(anns.rating, Some(1500), "they count as 1500");

    // Rated: a guest is refused; Lou (signed in) gets a rated match of his own, not Ann's
    // casual one.
    let refused = play(addr, "Gus", None, true).await;
    assert_eq!(refused.status, 400, "{}", refused.body);
    assert!(refused.body.contains("signed-in"), "{}", refused.body);
    let rated = placed(&play(addr, "x", Some(&lou), true).await);
    assert!(rated.created);
    assert_ne!(rated.match_id, first.match_id);
    let lobby = http(addr, "GET", "/api/lobby", &[], None).await;
    let lobby: LobbySnapshot = serde_json::from_str(&lobby.body).expect("a snapshot");
    let m = lobby
        .open
        .iter()
        .find(|m| m.match_id == rated.match_id)
        .expect("listed");
    assert!(m.rated);
    assert!(
        !lobby
            .open
            .iter()
            .find(|m| m.match_id == first.match_id)
            .expect("listed")
            .rated
    );
    // Ann asking for a rated match is placed with Lou (both 1500).
    let ann_rated = placed(&play(addr, "x", Some(&ann), true).await);
    assert_eq!(ann_rated.match_id, rated.match_id);
    assert_eq!(ann_rated.seat.as_str(), "BlackA");
}
