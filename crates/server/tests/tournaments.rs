//! The tournament API of the real server on a SQLite file: organiser and public routes, the
//! organiser secret, input validation, persistence across a restart, and a round played as
//! server matches whose result is entered when the match ends.

use std::net::SocketAddr;
use std::time::Duration;

use bughouse_core::Preset;
use bughouse_protocol::{ClientMessage, ServerMessage};
use bughouse_tournament::{Format, MatchRecord, Player, Team, Tournament};
use futures_util::{SinkExt, StreamExt};
use serde_json::{json, Value};
use tokio::net::TcpStream;
use tokio_tungstenite::tungstenite::Message;

mod http;
use http::*;

const SEATS: [&str; 4] = ["WhiteA", "BlackA", "WhiteB", "BlackB"];

/// An organiser: the server, the tournament and its secret.
struct Organiser {
    addr: SocketAddr,
    id: String,
    secret: String,
}

impl Organiser {
    async fn create(addr: SocketAddr, body: Value) -> Organiser {
        let a = http(
            addr,
            "POST",
            "/api/tournaments",
            &[],
            Some(&body.to_string()),
        )
        .await;
        assert_eq!(a.status, 201, "{}", a.body);
        let v = a.json();
        Organiser {
            addr,
            id: v["tournament_id"].as_str().unwrap().to_owned(),
            secret: v["organiser_secret"].as_str().unwrap().to_owned(),
        }
    }

    async fn send(&self, method: &str, path: &str, body: Value) -> Answer {
        let auth = format!("Bearer {}", self.secret);
        http(
            self.addr,
            method,
            &format!("/api/tournaments/{}{path}", self.id),
            &[("Authorization", &auth)],
            Some(&body.to_string()),
        )
        .await
    }

    async fn ok(&self, method: &str, path: &str, body: Value) -> Value {
        let a = self.send(method, path, body).await;
        assert!(
            a.status == 200 || a.status == 201,
            "{method} {path}: {} {}",
            a.status,
            a.body
        );
        a.json()
    }

    async fn public(&self) -> Value {
        let a = http(
            self.addr,
            "GET",
            &format!("/api/tournaments/{}", self.id),
            &[],
            None,
        )
        .await;
        assert_eq!(a.status, 200, "{}", a.body);
        a.json()
    }
}

const TEAMS: [(&str, &str, &str, Option<u32>); 6] = [
    ("Rooks", "Ann", "Bob", Some(1900)),
    ("Knights", "Cas", "Dirk", None),
    ("Bishops", "Eva", "Fem", Some(1700)),
    ("Queens", "Gus", "Hal", None),
    ("Kings", "Ivo", "Jan", Some(2100)),
    ("Pawns", "Kim", "Lot", None),
];

/// The result entered at `table` of `round`: varied so that the standings are not trivial.
fn hand_result(preset: Preset, round: u32, table: u32) -> (Value, MatchRecord) {
    let games = ["1-0", "0-1", "1/2-1/2"];
    let a = games[((round + table) % 3) as usize];
    if preset == Preset::Knsb1988 {
        let b = games[((round * 2 + table) % 3) as usize];
        (
            json!({"board_a": a, "board_b": b}),
            MatchRecord::Games {
                a: a.parse().unwrap(),
                b: b.parse().unwrap(),
            },
        )
    } else {
        // First-game scoring: board A decided first, board B stopped.
        (
            json!({"board_a": a, "board_b": "*"}),
            MatchRecord::Games {
                a: a.parse().unwrap(),
                b: "*".parse().unwrap(),
            },
        )
    }
}

/// The standings as the API lists them: (rank, team, match points, game points).
fn api_standings(v: &Value) -> Vec<(String, String, String, String)> {
    v["standings"]
        .as_array()
        .unwrap()
        .iter()
        .map(|s| {
            (
                s["rank"].as_str().unwrap().to_owned(),
                s["name"].as_str().unwrap().to_owned(),
                s["match_points"].as_str().unwrap().to_owned(),
                s["game_points"].as_str().unwrap().to_owned(),
            )
        })
        .collect()
}

fn lib_standings(t: &Tournament) -> Vec<(String, String, String, String)> {
    t.standings()
        .iter()
        .map(|s| {
            (
                s.rank_label(),
                t.team(s.team).unwrap().name.clone(),
                s.match_points.to_string(),
                s.game_points.to_string(),
            )
        })
        .collect()
}

/// Six teams, five rounds of round robin with results by hand; the public view's standings are
/// the library's for the same results; the tournament survives a restart.
async fn six_teams_five_rounds(preset: Preset) {
    let dir = tempfile::tempdir().unwrap();
    let server = start(dir.path()).await;
    let org = Organiser::create(
        server.addr,
        json!({"name": "Club cup", "preset": preset.id(), "format": "round-robin",
               "time_control": "3+2", "seed": 11}),
    )
    .await;
    let mut mirror = Tournament::new("Club cup", preset, Format::RoundRobin, None, 11).unwrap();
    for (name, first, second, rating) in TEAMS {
        let v = org
            .ok(
                "POST",
                "/teams",
                json!({"name": name, "first": {"name": first, "rating": rating},
                       "second": {"name": second}}),
            )
            .await;
        let player = |n: &str| match rating {
            Some(r) if n == first => Player::rated(n, r),
            _ => Player::new(n),
        };
        mirror
            .add_team(Team::new(name, player(first), player(second)))
            .unwrap();
        assert_eq!(v["teams"].as_array().unwrap().len(), mirror.teams().len());
    }
    for round in 1..=5u32 {
        let v = org.ok("POST", "/rounds", json!({})).await;
        let paired = mirror.pair_next_round().unwrap().clone();
        let r = &v["rounds"][round as usize - 1];
        assert_eq!(r["number"], round);
        let pairings = r["pairings"].as_array().unwrap();
        assert_eq!(pairings.len(), 3);
        for (p, lib) in pairings.iter().zip(&paired.pairings) {
            assert_eq!(p["home"], lib.home.0);
            assert_eq!(p["away"], lib.away.0);
            assert_eq!(p["match_id"], Value::Null, "paired without online play");
            let seats: Vec<&str> = p["seats"]
                .as_array()
                .unwrap()
                .iter()
                .map(|s| s["seat"].as_str().unwrap())
                .collect();
            assert_eq!(seats, SEATS);
            for (s, ls) in p["seats"].as_array().unwrap().iter().zip(lib.seats()) {
                assert_eq!(s["team"], ls.team.0);
                assert_eq!(s["slot"], ls.slot.to_string());
            }
        }
        for table in 1..=3 {
            let (body, record) = hand_result(preset, round, table);
            org.ok(
                "PUT",
                &format!("/rounds/{round}/tables/{table}/result"),
                body,
            )
            .await;
            mirror.set_result(round, table, record).unwrap();
        }
    }
    // A correction: round 5 table 1 the other way round.
    let (body, record) = match preset {
        Preset::Knsb1988 => (
            json!({"board_a": "0-1", "board_b": "0-1"}),
            MatchRecord::Games {
                a: "0-1".parse().unwrap(),
                b: "0-1".parse().unwrap(),
            },
        ),
        _ => (
            json!({"result": "0-1"}),
            MatchRecord::parse_match("0-1").unwrap(),
        ),
    };
    org.ok("PUT", "/rounds/5/tables/1/result", body).await;
    mirror.set_result(5, 1, record).unwrap();

    let v = org.public().await;
    assert_eq!(v["finished"], true);
    assert_eq!(api_standings(&v), lib_standings(&mirror));
    assert!(v["cannot_pair"].as_str().unwrap().contains("all 5 rounds"));
    // One more round is refused, with a message.
    let a = org.send("POST", "/rounds", json!({})).await;
    assert_eq!(a.status, 409, "{}", a.body);
    assert_eq!(a.json()["error"], "conflict");

    // CSV exports.
    let csv = http(
        server.addr,
        "GET",
        &format!("/api/tournaments/{}/standings.csv", org.id),
        &[],
        None,
    )
    .await;
    assert_eq!(csv.status, 200);
    assert!(csv.header("content-type").unwrap().starts_with("text/csv"));
    assert_eq!(csv.body, bughouse_tournament::csv::standings_csv(&mirror));
    let csv = http(
        server.addr,
        "GET",
        &format!("/api/tournaments/{}/pairings.csv?round=2", org.id),
        &[],
        None,
    )
    .await;
    assert_eq!(
        csv.body,
        bughouse_tournament::csv::pairings_csv(&mirror, Some(2))
    );
    let csv = http(
        server.addr,
        "GET",
        &format!("/api/tournaments/{}/pairings.csv?round=9", org.id),
        &[],
        None,
    )
    .await;
    assert_eq!(csv.status, 404);

    // A restart keeps everything.
    server.abort();
    tokio::time::sleep(Duration::from_millis(50)).await;
    let server = start(dir.path()).await;
    let again = Organiser {
        addr: server.addr,
        id: org.id.clone(),
        secret: org.secret.clone(),
    };
    let w = again.public().await;
    assert_eq!(w["rounds"], v["rounds"]);
    assert_eq!(w["standings"], v["standings"]);
    // And the secret still works.
    let a = again.send("GET", "/auth", Value::Null).await;
    assert_eq!(a.status, 204);
    server.abort();
}

#[tokio::test]
async fn minerva_six_teams_five_rounds_by_hand() {
    six_teams_five_rounds(Preset::Minerva2014).await;
}

#[tokio::test]
async fn knsb_six_teams_five_rounds_by_hand() {
    six_teams_five_rounds(Preset::Knsb1988).await;
}

/// Organiser routes need the secret (401 without, 403 with another); reading needs none; bad
/// input gets 4xx with `{error, message}`; the ETag saves a poll.
#[tokio::test]
async fn secret_and_validation() {
    let dir = tempfile::tempdir().unwrap();
    let server = start(dir.path()).await;
    let addr = server.addr;
    let org = Organiser::create(
        addr,
        json!({"name": "Open", "preset": "uscf-scholastic-2006", "format": "swiss", "rounds": 3}),
    )
    .await;
    let other = Organiser::create(
        addr,
        json!({"name": "Other", "preset": "fide", "format": "round-robin"}),
    )
    .await;
    let team = json!({"name": "A", "first": {"name": "Ann"}, "second": {"name": "Al"}});
    let path = format!("/api/tournaments/{}/teams", org.id);
    let a = http(addr, "POST", &path, &[], Some(&team.to_string())).await;
    assert_eq!(a.status, 401, "{}", a.body);
    assert_eq!(a.json()["error"], "unauthorized");
    assert!(a.json()["message"].as_str().unwrap().contains("Bearer"));
    let wrong = format!("Bearer {}", other.secret);
    let a = http(
        addr,
        "POST",
        &path,
        &[("Authorization", &wrong)],
        Some(&team.to_string()),
    )
    .await;
    assert_eq!(a.status, 403, "{}", a.body);
    assert_eq!(a.json()["error"], "forbidden");
    let a = http(
        addr,
        "GET",
        &format!("/api/tournaments/{}/auth", org.id),
        &[("Authorization", &wrong)],
        None,
    )
    .await;
    assert_eq!(a.status, 403);
    assert_eq!(
        org.public().await["teams"].as_array().unwrap().len(),
        0,
        "nothing changed"
    );

    // Bad creations.
    for (body, needle) in [
        (
            json!({"name": "", "preset": "fide", "format": "swiss", "rounds": 3}),
            "name",
        ),
        (
            json!({"name": "X", "preset": "chess960", "format": "swiss", "rounds": 3}),
            "chess960",
        ),
        (
            json!({"name": "X", "preset": "crazyhouse", "format": "round-robin"}),
            "single-board",
        ),
        (
            json!({"name": "X", "preset": "fide", "format": "knockout"}),
            "knockout",
        ),
        (
            json!({"name": "X", "preset": "fide", "format": "swiss"}),
            "rounds",
        ),
        (
            json!({"name": "X", "preset": "fide", "format": "swiss", "rounds": 0}),
            "at least 1",
        ),
        (
            json!({"name": "X", "preset": "fide", "format": "round-robin", "time_control": "fast"}),
            "fast",
        ),
        (
            json!({"name": "X", "preset": "fide", "format": "round-robin", "colour": "red"}),
            "colour",
        ),
        (
            json!({"name": "X".repeat(200), "preset": "fide", "format": "round-robin"}),
            "longer",
        ),
    ] {
        let a = http(
            addr,
            "POST",
            "/api/tournaments",
            &[],
            Some(&body.to_string()),
        )
        .await;
        assert_eq!(a.status, 400, "{body}: {}", a.body);
        let v = a.json();
        assert_eq!(v["error"], "invalid");
        let message = v["message"].as_str().unwrap();
        assert!(message.contains(needle), "{body}: {message}");
    }
    let a = http(addr, "POST", "/api/tournaments", &[], Some("{not json")).await;
    assert_eq!(a.status, 400);
    assert!(a.json()["message"].as_str().is_some());

    // Bad teams.
    for body in [
        json!({"name": "B", "first": {"name": ""}, "second": {"name": "x"}}),
        json!({"name": "B", "first": {"name": "x", "rating": 99999}, "second": {"name": "y"}}),
        json!({"name": "B", "first": {"name": "x"}}),
        json!({"name": "B", "first": {"name": "a very long name that does not fit a seat"}, "second": {"name": "y"}}),
    ] {
        let a = org.send("POST", "/teams", body.clone()).await;
        assert_eq!(a.status, 400, "{body}: {}", a.body);
    }
    org.ok("POST", "/teams", team.clone()).await;
    let a = org
        .send(
            "POST",
            "/teams",
            json!({"name": "a", "first": {"name": "x"}, "second": {"name": "y"}}),
        )
        .await;
    assert_eq!(a.status, 409, "a duplicate name: {}", a.body);
    let a = org.send("POST", "/rounds", json!({})).await;
    assert_eq!(a.status, 409, "one team: {}", a.body);
    assert!(a.json()["message"]
        .as_str()
        .unwrap()
        .contains("at least 2 teams"));
    for (name, a, b) in [("B", "Bea", "Bo"), ("C", "Cy", "Cid"), ("D", "Di", "Dan")] {
        org.ok(
            "POST",
            "/teams",
            json!({"name": name, "first": {"name": a}, "second": {"name": b}}),
        )
        .await;
    }
    let v = org.ok("POST", "/rounds", json!({"online": false})).await;
    assert_eq!(v["rounds"][0]["pairings"].as_array().unwrap().len(), 2);
    let a = org
        .send(
            "POST",
            "/teams",
            json!({"name": "E", "first": {"name": "e"}, "second": {"name": "f"}}),
        )
        .await;
    assert_eq!(a.status, 409, "teams are fixed: {}", a.body);
    // A Swiss round before the last one is finished.
    let a = org.send("POST", "/rounds", json!({})).await;
    assert_eq!(a.status, 409);
    assert!(a.json()["message"]
        .as_str()
        .unwrap()
        .contains("not finished"));
    // uscf: a team chooses who has White (U3).
    let v = org
        .ok(
            "PUT",
            "/rounds/1/tables/1/colours",
            json!({"team": "home", "white": "second"}),
        )
        .await;
    assert!(v["rounds"][0]["pairings"][0]["colours"]
        .as_str()
        .unwrap()
        .contains("home entered"));
    let a = org
        .send(
            "PUT",
            "/rounds/1/tables/1/colours",
            json!({"team": "visitors", "white": "second"}),
        )
        .await;
    assert_eq!(a.status, 400);
    // Bad results.
    for (path, body, status) in [
        (
            "/rounds/1/tables/1/result",
            json!({"board_a": "2-0", "board_b": "*"}),
            400,
        ),
        ("/rounds/1/tables/1/result", json!({}), 400),
        (
            "/rounds/1/tables/1/result",
            json!({"result": "1-0", "board_a": "1-0"}),
            400,
        ),
        (
            "/rounds/1/tables/1/result",
            json!({"board_a": "*", "board_b": "*"}),
            400,
        ),
        ("/rounds/1/tables/7/result", json!({"result": "1-0"}), 404),
        ("/rounds/4/tables/1/result", json!({"result": "1-0"}), 404),
    ] {
        let a = org.send("PUT", path, body.clone()).await;
        assert_eq!(a.status, status, "{path} {body}: {}", a.body);
        assert!(a.json()["message"].as_str().is_some());
    }
    let a = http(
        addr,
        "PUT",
        &format!("/api/tournaments/{}/rounds/x/tables/1/result", org.id),
        &[],
        None,
    )
    .await;
    assert!((400..500).contains(&a.status));
    let a = org
        .send("PUT", "/rounds/x/tables/1/result", json!({"result": "1-0"}))
        .await;
    assert_eq!(a.status, 404, "{}", a.body);
    assert!(a.json()["message"].as_str().is_some());
    let a = http(
        addr,
        "GET",
        &format!("/api/tournaments/{}/pairings.csv?round=x", org.id),
        &[],
        None,
    )
    .await;
    assert_eq!(a.status, 400, "{}", a.body);
    assert_eq!(a.json()["error"], "invalid");
    let a = org.send("POST", "/rounds", json!({"online": "yes"})).await;
    assert_eq!(a.status, 400, "{}", a.body);
    assert_eq!(a.json()["error"], "invalid");
    let a = http(addr, "GET", "/api/tournaments/nope", &[], None).await;
    assert_eq!(a.status, 404);
    assert_eq!(a.json()["error"], "not_found");

    // ETag: an unchanged tournament answers 304.
    let a = http(
        addr,
        "GET",
        &format!("/api/tournaments/{}", org.id),
        &[],
        None,
    )
    .await;
    let tag = a.header("etag").expect("an ETag");
    let b = http(
        addr,
        "GET",
        &format!("/api/tournaments/{}", org.id),
        &[("If-None-Match", &tag)],
        None,
    )
    .await;
    assert_eq!(b.status, 304);
    org.ok("PUT", "/rounds/1/tables/1/result", json!({"result": "1-0"}))
        .await;
    let c = http(
        addr,
        "GET",
        &format!("/api/tournaments/{}", org.id),
        &[("If-None-Match", &tag)],
        None,
    )
    .await;
    assert_eq!(c.status, 200);
    // The pages are served.
    for page in [
        "/t/new",
        &format!("/t/{}", org.id),
        &format!("/t/{}/admin", org.id),
        &format!("/t/{}/print", org.id),
    ] {
        let a = http(addr, "GET", page, &[], None).await;
        assert_eq!(a.status, 200, "{page}");
        assert!(a.body.contains("<div id=\"app\""), "{page}");
    }
    server.abort();
}

type Ws = tokio_tungstenite::WebSocketStream<tokio_tungstenite::MaybeTlsStream<TcpStream>>;

async fn recv(ws: &mut Ws) -> ServerMessage {
    loop {
        let frame = tokio::time::timeout(PATIENCE, ws.next())
            .await
            .expect("a message in time")
            .expect("the socket is open")
            .expect("no websocket error");
        if let Message::Text(text) = frame {
            return serde_json::from_str(text.as_str()).expect("a server message");
        }
    }
}

/// A round paired with online play creates a match per pairing, with the preset and the time
/// control; the match played to a mate fills in the pairing's result, and the round's BPGN has
/// the game. A hand entry can then correct it.
#[tokio::test]
async fn online_round_result_from_the_server_match() {
    let dir = tempfile::tempdir().unwrap();
    let server = start(dir.path()).await;
    let addr = server.addr;
    let org = Organiser::create(
        addr,
        json!({"name": "Online", "preset": "minerva-2014", "format": "round-robin", "time_control": "2+1"}),
    )
    .await;
    for (name, a, b) in [("Home", "Hanna", "Henk"), ("Away", "Anna", "Arie")] {
        org.ok(
            "POST",
            "/teams",
            json!({"name": name, "first": {"name": a}, "second": {"name": b}}),
        )
        .await;
    }
    let v = org.ok("POST", "/rounds", json!({"online": true})).await;
    let p = &v["rounds"][0]["pairings"][0];
    let match_id = p["match_id"]
        .as_str()
        .expect("a match for the pairing")
        .to_owned();
    // minerva-2014 (M1.5): the home first-board player is Black on board A.
    let players: Vec<&str> = p["seats"]
        .as_array()
        .unwrap()
        .iter()
        .map(|s| s["player"].as_str().unwrap())
        .collect();
    assert_eq!(players, ["Anna", "Hanna", "Henk", "Arie"]);
    let m = http(addr, "GET", &format!("/api/matches/{match_id}"), &[], None).await;
    assert_eq!(m.status, 200, "{}", m.body);
    let m = m.json();
    assert_eq!(m["rules"], "minerva-2014");
    assert_eq!(m["time_control"], "2+1");
    // The match is linked across a restart too.
    server.abort();
    tokio::time::sleep(Duration::from_millis(50)).await;
    let server = start(dir.path()).await;
    let addr = server.addr;
    let org = Organiser {
        addr,
        id: org.id,
        secret: org.secret,
    };

    // Four players sit as the pairing says and play a drop mate on board A.
    let mut clients = Vec::new();
    for (seat, name) in SEATS.iter().zip(&players) {
        let (mut ws, _) = tokio_tungstenite::connect_async(format!("ws://{addr}/ws"))
            .await
            .unwrap();
        let hello = ClientMessage::Hello {
            match_id: match_id.clone(),
            token: None,
        };
        ws.send(Message::Text(serde_json::to_string(&hello).unwrap().into()))
            .await
            .unwrap();
        let sit = ClientMessage::Sit {
            seat: seat.parse().unwrap(),
            name: (*name).to_owned(),
        };
        ws.send(Message::Text(serde_json::to_string(&sit).unwrap().into()))
            .await
            .unwrap();
        loop {
            if let ServerMessage::Seated { .. } = recv(&mut ws).await {
                break;
            }
        }
        clients.push(ws);
    }
    for (seat, uci) in [
        (0, "e2e4"),
        (2, "e2e4"),
        (1, "e7e5"),
        (3, "d7d5"),
        (0, "f1c4"),
        (2, "d1g4"),
        (1, "f7f6"),
        (3, "c8g4"),
        (0, "Q@f7"),
    ] {
        let mv = ClientMessage::Move {
            uci: uci.to_owned(),
        };
        clients[seat]
            .send(Message::Text(serde_json::to_string(&mv).unwrap().into()))
            .await
            .unwrap();
        loop {
            match recv(&mut clients[seat]).await {
                ServerMessage::Moved { mv, .. } if mv.uci == uci => break,
                ServerMessage::Error { code, message, .. } => panic!("{uci}: {code} {message}"),
                _ => {}
            }
        }
    }
    // The result reaches the tournament (stored first, then entered).
    let mut v = org.public().await;
    for _ in 0..100 {
        if !v["rounds"][0]["pairings"][0]["result"].is_null() {
            break;
        }
        tokio::time::sleep(Duration::from_millis(50)).await;
        v = org.public().await;
    }
    let p = &v["rounds"][0]["pairings"][0];
    assert_eq!(p["result"]["board_a"], "1-0", "{p}");
    assert_eq!(p["result"]["board_b"], "*");
    assert_eq!(
        p["result"]["match"], "0-1",
        "WhiteA + BlackB is the away team"
    );
    assert_eq!(p["away_points"]["match_points"], "1");
    assert_eq!(v["standings"][0]["name"], "Away");
    assert_eq!(v["finished"], true);
    let bpgn = http(
        addr,
        "GET",
        &format!("/api/tournaments/{}/matches.bpgn?round=1", org.id),
        &[],
        None,
    )
    .await;
    assert_eq!(bpgn.status, 200, "{}", bpgn.body);
    assert!(bpgn.body.contains("Q@f7#"), "{}", bpgn.body);
    assert!(bpgn.body.contains("Anna"), "{}", bpgn.body);
    // A hand correction overrides it.
    let v = org
        .ok(
            "PUT",
            "/rounds/1/tables/1/result",
            json!({"result": "1/2-1/2"}),
        )
        .await;
    assert_eq!(v["rounds"][0]["pairings"][0]["result"]["match"], "1/2-1/2");
    server.abort();
}
