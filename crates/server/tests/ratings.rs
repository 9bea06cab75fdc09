//! Rated matches on the real server (a SQLite file), over HTTP and websockets: four signed-in
//! players play a rated match to a result and their four ratings and two team ratings change
//! exactly as `bughouse_rating::Config::rate_match` computes; a guest may not sit in a rated
//! match, nor a bot unless the creator allowed bots; a casual match changes no rating but is in
//! each account's history; a rated match whose end was stored but not rated is rated when the
//! server starts, once.

use std::net::SocketAddr;
use std::time::Duration;

use bughouse_protocol::{ClientMessage, MatchState, RatingChanges, SeatName, ServerMessage};
use bughouse_store::rating::{Config, MatchRatings};
use bughouse_store::{NewMatch, Store};
use futures_util::{SinkExt, StreamExt};
use serde_json::{json, Value};
use tokio::net::TcpStream;
use tokio_tungstenite::tungstenite::client::IntoClientRequest;
use tokio_tungstenite::tungstenite::http::HeaderValue;
use tokio_tungstenite::tungstenite::Message;
use tokio_tungstenite::{MaybeTlsStream, WebSocketStream};

mod http;
use http::*;

const SEATS: [SeatName; 4] = [
    SeatName::WhiteA,
    SeatName::BlackA,
    SeatName::WhiteB,
    SeatName::BlackB,
];

const NAMES: [&str; 4] = ["ann", "bob", "cid", "dan"];

/// Creates a match as a signed-in player; the answer.
async fn create(addr: SocketAddr, cookie: Option<&str>, body: Value) -> Answer {
    let origin = origin(addr);
    let mut headers = vec![("Origin", origin.as_str())];
    if let Some(cookie) = cookie {
        headers.push(("Cookie", cookie));
    }
    http(
        addr,
        "POST",
        "/api/matches",
        &headers,
        Some(&body.to_string()),
    )
    .await
}

async fn created(addr: SocketAddr, cookie: &str, body: Value) -> String {
    let a = create(addr, Some(cookie), body).await;
    assert_eq!(a.status, 201, "{}", a.body);
    a.json()["match_id"].as_str().unwrap().to_owned()
}

struct Client {
    ws: WebSocketStream<MaybeTlsStream<TcpStream>>,
    name: String,
}

impl Client {
    /// A websocket as a browser on our pages opens it: with `Origin`, and the session cookie
    /// when signed in.
    async fn connect(addr: SocketAddr, name: &str, cookie: Option<&str>) -> Client {
        let mut request = format!("ws://{addr}/ws").into_client_request().unwrap();
        let headers = request.headers_mut();
        headers.insert("Origin", HeaderValue::from_str(&origin(addr)).unwrap());
        if let Some(cookie) = cookie {
            headers.insert("Cookie", HeaderValue::from_str(cookie).unwrap());
        }
        let (ws, _) = tokio_tungstenite::connect_async(request)
            .await
            .expect("the websocket opens");
        Client {
            ws,
            name: name.to_owned(),
        }
    }

    async fn send(&mut self, msg: &ClientMessage) {
        let text = serde_json::to_string(msg).unwrap();
        self.ws.send(Message::Text(text.into())).await.unwrap();
    }

    async fn recv(&mut self) -> ServerMessage {
        loop {
            let name = &self.name;
            let frame = match tokio::time::timeout(PATIENCE, self.ws.next()).await {
                Err(_) => panic!("{name}: no message from the server in time"),
                Ok(None) => panic!("{name}: the server closed the websocket"),
                Ok(Some(Err(e))) => panic!("{name}: websocket error: {e}"),
                Ok(Some(Ok(frame))) => frame,
            };
            match frame {
                Message::Text(text) => {
                    return serde_json::from_str(text.as_str())
                        .unwrap_or_else(|e| panic!("{name}: not a server message ({e}): {text}"))
                }
                Message::Ping(_) | Message::Pong(_) => continue,
                other => panic!("{name}: unexpected frame {other:?}"),
            }
        }
    }

    async fn until<T>(&mut self, mut pick: impl FnMut(&ServerMessage) -> Option<T>) -> T {
        loop {
            let msg = self.recv().await;
            if let Some(t) = pick(&msg) {
                return t;
            }
        }
    }

    async fn state(&mut self) -> MatchState {
        self.until(|m| match m {
            ServerMessage::State { state, .. } => Some((**state).clone()),
            _ => None,
        })
        .await
    }

    async fn hello(&mut self, id: &str) -> MatchState {
        self.send(&ClientMessage::Hello {
            match_id: id.to_owned(),
            token: None,
        })
        .await;
        self.state().await
    }

    /// The code of the next error.
    async fn error(&mut self) -> String {
        self.until(|m| match m {
            ServerMessage::Error { code, .. } => Some(code.to_string()),
            _ => None,
        })
        .await
    }
}

/// Four signed-in players (cookies in seat order) sit in `id`, typing names that are not their
/// accounts'; the match starts. Each seat shows its account's name.
async fn seat_four(addr: SocketAddr, id: &str, cookies: &[String]) -> Vec<Client> {
    let mut clients = Vec::new();
    for (i, seat) in SEATS.into_iter().enumerate() {
        let mut c = Client::connect(addr, NAMES[i], Some(&cookies[i])).await;
        c.hello(id).await;
        c.send(&ClientMessage::Sit {
            seat,
            name: format!("typed {i}"),
        })
        .await;
        c.until(|m| match m {
            ServerMessage::Seated { .. } => Some(()),
            ServerMessage::Error { code, message, .. } => {
                panic!("{}: sit refused: {code}: {message}", NAMES[i])
            }
            _ => None,
        })
        .await;
        clients.push(c);
    }
    for c in &mut clients {
        let state = c
            .until(|m| match m {
                ServerMessage::State { state, .. } if state.status == "playing" => {
                    Some(state.clone())
                }
                _ => None,
            })
            .await;
        for (i, seat) in state.seats.iter().enumerate() {
            assert_eq!(seat.name.as_deref(), Some(NAMES[i]), "the account's name");
            assert!(seat.account, "a signed-in player's seat");
        }
    }
    clients
}

/// WhiteA plays e4, BlackA resigns: `1-0`, team one (ann and dan) wins.
async fn play_to_result(clients: &mut [Client]) {
    clients[0]
        .send(&ClientMessage::Move { uci: "e2e4".into() })
        .await;
    for c in clients.iter_mut() {
        c.until(|m| matches!(m, ServerMessage::Moved { .. }).then_some(()))
            .await;
    }
    clients[1].send(&ClientMessage::Resign).await;
    for c in clients.iter_mut() {
        let result = c
            .until(|m| match m {
                ServerMessage::Ended { result, .. } => Some(result.result.clone()),
                _ => None,
            })
            .await;
        assert_eq!(result, "1-0");
    }
}

fn close(a: f64, b: f64) -> bool {
    (a - b).abs() < 1e-6
}

/// The changes are exactly what the rating crate computes for four newcomers, team one winning.
fn check_changes(changes: &RatingChanges) {
    let config = Config::default();
    let new = config.initial;
    let expected = config
        .rate_match(
            &MatchRatings {
                players: [new; 4],
                teams: [new; 2],
            },
            1.0,
        )
        .unwrap();
    assert_eq!(changes.players.len(), 4);
    for (i, p) in changes.players.iter().enumerate() {
        assert_eq!(p.seat, SEATS[i]);
        assert_eq!(p.username, NAMES[i]);
        let e = expected.players[i];
        assert!(close(p.before, e.before.rating), "{p:?}");
        assert!(close(p.after, e.after.rating), "{p:?} against {e:?}");
        assert!(close(p.delta, e.delta()), "{p:?}");
        assert!(close(p.deviation, e.after.deviation), "{p:?}");
    }
    assert!(changes.players[0].delta > 0.0 && changes.players[1].delta < 0.0);
    assert_eq!(changes.teams.len(), 2);
    assert_eq!(changes.teams[0].usernames, ["ann", "dan"]);
    assert_eq!(changes.teams[1].usernames, ["bob", "cid"]);
    for (t, team) in changes.teams.iter().enumerate() {
        let e = expected.teams[t];
        assert!(close(team.before, e.before.rating), "{team:?}");
        assert!(close(team.after, e.after.rating), "{team:?}");
        assert!(close(team.delta, e.delta()), "{team:?}");
    }
}

#[tokio::test]
async fn a_rated_match_changes_four_ratings_and_two_team_ratings() {
    let dir = tempfile::tempdir().unwrap();
    let server = start(dir.path()).await;
    let addr = server.addr;
    let mut cookies = Vec::new();
    for name in NAMES {
        cookies.push(sign_up(addr, name, "password1").await);
    }
    // Only a signed-in request creates a rated match.
    let refused = create(
        addr,
        None,
        json!({"rules": "fide", "time_control": "5+0", "rated": true}),
    )
    .await;
    assert_eq!(refused.status, 401, "{}", refused.body);
    assert_eq!(refused.json()["error"], "sign_in_required");
    let id = created(
        addr,
        &cookies[0],
        json!({"rules": "fide", "time_control": "5+0", "rated": true}),
    )
    .await;

    // A guest may not sit; nobody may add a bot (the creator did not allow bots).
    let mut guest = Client::connect(addr, "guest", None).await;
    let state = guest.hello(&id).await;
    assert!(state.rated && !state.allow_bots);
    guest
        .send(&ClientMessage::Sit {
            seat: SeatName::WhiteA,
            name: "guest".into(),
        })
        .await;
    assert_eq!(guest.error().await, "sign_in_required");
    guest
        .send(&ClientMessage::AddBot {
            seat: SeatName::WhiteA,
            level: Some(3),
        })
        .await;
    assert_eq!(guest.error().await, "not_allowed");

    // An account sits once per match, even from another connection; standing up frees it.
    let mut twice = Client::connect(addr, "ann again", Some(&cookies[0])).await;
    twice.hello(&id).await;
    twice
        .send(&ClientMessage::Sit {
            seat: SeatName::BlackB,
            name: "x".into(),
        })
        .await;
    twice
        .until(|m| matches!(m, ServerMessage::Seated { .. }).then_some(()))
        .await;
    let mut thrice = Client::connect(addr, "ann thrice", Some(&cookies[0])).await;
    thrice.hello(&id).await;
    thrice
        .send(&ClientMessage::Sit {
            seat: SeatName::BlackA,
            name: "y".into(),
        })
        .await;
    assert_eq!(thrice.error().await, "not_allowed");
    twice.send(&ClientMessage::Stand).await;
    twice
        .until(|m| match m {
            ServerMessage::State { you: None, state } if state.seats[3].name.is_none() => Some(()),
            _ => None,
        })
        .await;

    let mut clients = seat_four(addr, &id, &cookies).await;
    play_to_result(&mut clients).await;
    // Every player and the spectator hear the changes after the end.
    for c in clients.iter_mut().chain([&mut guest]) {
        let changes = c
            .until(|m| match m {
                ServerMessage::RatingChanges { changes } => Some(changes.clone()),
                _ => None,
            })
            .await;
        check_changes(&changes);
    }

    // The state shows them (a reload), and the profiles and the store have the new ratings.
    let answer = http(addr, "GET", &format!("/api/matches/{id}"), &[], None).await;
    let state: MatchState = serde_json::from_str(&answer.body).unwrap();
    assert!(state.rated);
    check_changes(
        state
            .rating_changes
            .as_ref()
            .expect("the changes in the state"),
    );
    let mut late = Client::connect(addr, "late", None).await;
    let state = late.hello(&id).await;
    check_changes(state.rating_changes.as_ref().expect("the changes on hello"));
    for (i, name) in NAMES.into_iter().enumerate() {
        let profile = http(addr, "GET", &format!("/api/players/{name}"), &[], None).await;
        assert_eq!(profile.status, 200, "{}", profile.body);
        let profile = profile.json();
        let rating = profile["rating"]["rating"].as_f64().expect("a rating");
        let changes = state.rating_changes.as_ref().unwrap();
        assert!(close(rating, changes.players[i].after), "{name}: {rating}");
        assert_eq!(profile["rating"]["games"], 1);
        assert_eq!(profile["matches"][0]["match_id"], id.as_str());
        assert!(profile["matches"][0]["rating_delta"].is_number());
        assert_eq!(profile["rating_history"].as_array().unwrap().len(), 1);
    }
    server.abort();

    // After a restart the match is loaded from the store with its changes, and not rated again.
    let server = start(dir.path()).await;
    let mut reload = Client::connect(server.addr, "reload", None).await;
    let state = reload.hello(&id).await;
    check_changes(
        state
            .rating_changes
            .as_ref()
            .expect("the changes after a restart"),
    );
    let profile = http(server.addr, "GET", "/api/players/ann", &[], None).await;
    assert_eq!(profile.json()["rating"]["games"], 1);
    server.abort();
}

#[tokio::test]
async fn a_casual_match_changes_no_rating_but_follows_the_accounts() {
    let dir = tempfile::tempdir().unwrap();
    let server = start(dir.path()).await;
    let addr = server.addr;
    let mut cookies = Vec::new();
    for name in NAMES {
        cookies.push(sign_up(addr, name, "password1").await);
    }
    let id = created(
        addr,
        &cookies[0],
        json!({"rules": "fide", "time_control": "5+0"}),
    )
    .await;
    let mut clients = seat_four(addr, &id, &cookies).await;
    play_to_result(&mut clients).await;
    let answer = http(addr, "GET", &format!("/api/matches/{id}"), &[], None).await;
    let state: MatchState = serde_json::from_str(&answer.body).unwrap();
    assert!(!state.rated);
    assert!(state.rating_changes.is_none());
    // Give the server the time a rating would have taken.
    tokio::time::sleep(Duration::from_millis(300)).await;
    for name in NAMES {
        let profile = http(addr, "GET", &format!("/api/players/{name}"), &[], None).await;
        let profile = profile.json();
        assert!(profile["rating"].is_null(), "{name}: {profile}");
        assert_eq!(profile["matches"][0]["match_id"], id.as_str(), "{name}");
        assert!(profile["matches"][0]["rating_delta"].is_null());
    }
    // Guests still sit in casual matches under the name they type.
    let id = created(
        addr,
        &cookies[0],
        json!({"rules": "fide", "time_control": "5+0"}),
    )
    .await;
    let mut guest = Client::connect(addr, "guest", None).await;
    guest.hello(&id).await;
    guest
        .send(&ClientMessage::Sit {
            seat: SeatName::BlackB,
            name: "Guest Gus".into(),
        })
        .await;
    let state = guest
        .until(|m| match m {
            ServerMessage::State {
                state,
                you: Some(_),
            } => Some(state.clone()),
            _ => None,
        })
        .await;
    assert_eq!(state.seats[3].name.as_deref(), Some("Guest Gus"));
    assert!(!state.seats[3].account);
    server.abort();
}

#[tokio::test]
async fn bots_allowed_in_a_rated_match_keep_their_ratings() {
    let dir = tempfile::tempdir().unwrap();
    let server = start(dir.path()).await;
    let addr = server.addr;
    let ann = sign_up(addr, "ann", "password1").await;
    let id = created(
        addr,
        &ann,
        json!({"rules": "fide", "time_control": "5+0", "rated": true, "allow_bots": true}),
    )
    .await;
    let mut c = Client::connect(addr, "ann", Some(&ann)).await;
    c.hello(&id).await;
    for seat in &SEATS[1..] {
        c.send(&ClientMessage::AddBot {
            seat: *seat,
            level: Some(1),
        })
        .await;
    }
    c.send(&ClientMessage::Sit {
        seat: SeatName::WhiteA,
        name: "ann".into(),
    })
    .await;
    c.until(|m| match m {
        ServerMessage::State { state, .. } if state.status == "playing" => Some(()),
        _ => None,
    })
    .await;
    c.send(&ClientMessage::Resign).await;
    let changes = c
        .until(|m| match m {
            ServerMessage::RatingChanges { changes } => Some(changes.clone()),
            _ => None,
        })
        .await;
    // Only ann's rating changed, against bots of level 1 (800): a loss costs little.
    assert_eq!(changes.players.len(), 1);
    assert_eq!(changes.players[0].username, "ann");
    assert!(changes.players[0].delta < 0.0);
    assert!(changes.teams.is_empty());
    server.abort();
}

#[tokio::test]
async fn a_rated_match_not_rated_before_a_stop_is_rated_at_start_once() {
    let dir = tempfile::tempdir().unwrap();
    // The server stored the end of a rated match and stopped before rating it.
    let store = Store::connect(&database(dir.path())).await.unwrap();
    let mut accounts = Vec::new();
    for name in NAMES {
        accounts.push(store.create_account(name, "hash", 1).await.unwrap().id);
    }
    store
        .create_match(&NewMatch {
            id: "rated-1".into(),
            rules_preset: "fide".into(),
            rules_json: "{}".into(),
            base_ms: 300_000,
            increment_ms: 0,
            created_at_ms: 1_000,
            rematch_of: None,
            rated: true,
            allow_bots: false,
        })
        .await
        .unwrap();
    for (seat, account) in accounts.iter().enumerate() {
        store
            .set_seat("rated-1", seat as u8, NAMES[seat], "h", false)
            .await
            .unwrap();
        store
            .set_seat_account("rated-1", seat as u8, Some(*account))
            .await
            .unwrap();
    }
    store.start_match("rated-1", 2_000).await.unwrap();
    store
        .finish_match(
            "rated-1",
            "0-1",
            "WhiteA resigns",
            ["0-1", "*"],
            "*\n",
            3_000,
        )
        .await
        .unwrap();
    assert_eq!(store.unrated_matches().await.unwrap(), ["rated-1"]);
    store.close().await;

    let server = start(dir.path()).await;
    let profile = http(server.addr, "GET", "/api/players/bob", &[], None).await;
    let profile = profile.json();
    assert_eq!(profile["rating"]["games"], 1, "{profile}");
    assert!(profile["rating"]["rating"].as_f64().unwrap() > 1500.0);
    let state = http(server.addr, "GET", "/api/matches/rated-1", &[], None)
        .await
        .json();
    assert_eq!(
        state["rating_changes"]["players"].as_array().unwrap().len(),
        4
    );
    server.abort();

    // Started again: nothing is left to rate, nothing is rated twice.
    let server = start(dir.path()).await;
    let profile = http(server.addr, "GET", "/api/players/bob", &[], None).await;
    assert_eq!(profile.json()["rating"]["games"], 1);
    server.abort();
    let store = Store::connect(&database(dir.path())).await.unwrap();
    assert!(store.unrated_matches().await.unwrap().is_empty());
}
