//! The tournament API speaks the types of `bughouse_protocol::tournament`: requests built from
//! them are taken, answers read back into them, and a value outside one of their enums is
//! refused with a 400 that names the field.

use std::net::SocketAddr;

use bughouse_protocol::tournament::{
    AddTeam, CreateTournament, CreatedTournament, GameResult, MatchResult, PairRound, PlayerEntry,
    SetResult, TournamentFormat, TournamentView,
};
use bughouse_protocol::ApiError;
use serde::de::DeserializeOwned;
use serde::Serialize;
use tokio::io::{AsyncReadExt, AsyncWriteExt};
use tokio::net::{TcpListener, TcpStream};

/// One HTTP/1.1 request with a JSON body: the status and the body.
async fn call(
    addr: SocketAddr,
    method: &str,
    path: &str,
    secret: Option<&str>,
    body: &str,
) -> (u16, String) {
    let mut stream = TcpStream::connect(addr).await.expect("the server accepts");
    let auth = secret.map_or_else(String::new, |s| format!("Authorization: Bearer {s}\r\n"));
    let request = format!(
        "{method} {path} HTTP/1.1\r\nHost: {addr}\r\nConnection: close\r\n{auth}\
         Content-Type: application/json\r\nContent-Length: {}\r\n\r\n{body}",
        body.len()
    );
    stream.write_all(request.as_bytes()).await.unwrap();
    let mut raw = String::new();
    stream.read_to_string(&mut raw).await.unwrap();
    let (head, body) = raw.split_once("\r\n\r\n").expect("a header and a body");
    assert!(
        !head.to_ascii_lowercase().contains("chunked"),
        "a JSON answer comes whole"
    );
    let status = head.split_whitespace().nth(1).unwrap().parse().unwrap();
    (status, body.to_owned())
}

/// A request of protocol type `Q` answered with protocol type `A`.
async fn typed<Q: Serialize, A: DeserializeOwned>(
    addr: SocketAddr,
    method: &str,
    path: &str,
    secret: Option<&str>,
    request: &Q,
) -> A {
    let (status, body) = call(
        addr,
        method,
        path,
        secret,
        &serde_json::to_string(request).unwrap(),
    )
    .await;
    assert!((200..300).contains(&status), "{path}: {status} {body}");
    serde_json::from_str(&body).unwrap_or_else(|e| panic!("{path}: {e}: {body}"))
}

/// A refused request: its status and error.
async fn refused(
    addr: SocketAddr,
    method: &str,
    path: &str,
    secret: Option<&str>,
    body: &str,
) -> (u16, ApiError) {
    let (status, text) = call(addr, method, path, secret, body).await;
    let error = serde_json::from_str(&text).unwrap_or_else(|e| panic!("{e}: {text}"));
    (status, error)
}

fn player(name: &str) -> PlayerEntry {
    PlayerEntry {
        name: name.to_owned(),
        rating: None,
    }
}

#[tokio::test]
async fn requests_and_answers_are_the_protocol_types() {
    let dir = tempfile::tempdir().unwrap();
    let url = format!("sqlite://{}?mode=rwc", dir.path().join("b.db").display());
    let listener = TcpListener::bind("127.0.0.1:0").await.unwrap();
    let server = bughouse_server::serve_on(listener, &url).await.unwrap();
    let addr = server.addr;

    let create = CreateTournament {
        name: "Typed".to_owned(),
        preset: "minerva-2014".to_owned(),
        format: TournamentFormat::RoundRobin,
        rounds: None,
        time_control: Some("3+2".to_owned()),
        seed: Some(7),
    };
    let created: CreatedTournament = typed(addr, "POST", "/api/tournaments", None, &create).await;
    assert_eq!(created.tournament.format, TournamentFormat::RoundRobin);
    let base = format!("/api/tournaments/{}", created.tournament_id);
    let secret = Some(created.organiser_secret.as_str());
    for (team, a, b) in [("Ajax", "Ann", "Al"), ("Bree", "Bea", "Bo")] {
        let add = AddTeam {
            name: team.to_owned(),
            first: PlayerEntry {
                rating: Some(1800),
                ..player(a)
            },
            second: player(b),
        };
        let _: TournamentView = typed(addr, "POST", &format!("{base}/teams"), secret, &add).await;
    }
    let t: TournamentView = typed(
        addr,
        "POST",
        &format!("{base}/rounds"),
        secret,
        &PairRound::default(),
    )
    .await;
    assert_eq!(t.teams[0].first.rating, Some(1800));
    assert_eq!(t.rounds[0].pairings[0].seats.len(), 4);
    let result = format!("{base}/rounds/1/tables/1/result");
    let games = SetResult {
        board_a: Some(GameResult::Draw),
        board_b: Some(GameResult::Stopped),
        result: None,
    };
    let t: TournamentView = typed(addr, "PUT", &result, secret, &games).await;
    let r = t.rounds[0].pairings[0].result.clone().expect("a result");
    assert_eq!(
        (r.board_a, r.board_b),
        (Some(GameResult::Draw), Some(GameResult::Stopped))
    );
    // The library's other spellings of a draw are still taken.
    let t: TournamentView = typed(
        addr,
        "PUT",
        &result,
        secret,
        &serde_json::json!({"result": "½-½"}),
    )
    .await;
    assert_eq!(
        t.rounds[0].pairings[0]
            .result
            .as_ref()
            .unwrap()
            .match_result,
        "1/2-1/2"
    );
    let home_wins = SetResult {
        result: Some(MatchResult::HomeWins),
        ..SetResult::default()
    };
    let t: TournamentView = typed(addr, "PUT", &result, secret, &home_wins).await;
    assert_eq!(
        t.rounds[0].pairings[0]
            .result
            .as_ref()
            .unwrap()
            .match_result,
        "1-0"
    );

    // A value outside an enum: 400, naming the field and the value.
    for (path, body, field, value) in [
        (
            "/api/tournaments".to_owned(),
            r#"{"name": "X", "preset": "fide", "format": "knockout"}"#,
            "format",
            "knockout",
        ),
        (
            result.clone(),
            r#"{"board_a": "2-0", "board_b": "*"}"#,
            "board_a",
            "2-0",
        ),
        (result.clone(), r#"{"result": "1-1"}"#, "result", "1-1"),
        (
            format!("{base}/rounds/1/tables/1/colours"),
            r#"{"team": "visitors", "white": "first"}"#,
            "team",
            "visitors",
        ),
        (
            format!("{base}/rounds/1/tables/1/colours"),
            r#"{"team": "home", "white": "third"}"#,
            "white",
            "third",
        ),
    ] {
        let method = if path == "/api/tournaments" {
            "POST"
        } else {
            "PUT"
        };
        let (status, e) = refused(addr, method, &path, secret, body).await;
        assert_eq!(status, 400, "{body}: {e:?}");
        assert_eq!(e.error, "invalid");
        assert!(
            e.message.contains(field) && e.message.contains(value),
            "{body}: {}",
            e.message
        );
    }
}
