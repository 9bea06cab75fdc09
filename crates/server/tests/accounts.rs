//! Accounts on the real server over HTTP (a SQLite file): sign up, log in, wrong passwords,
//! taken names, log out, `me`; the CSRF check of signed-in requests on every route; the log-in
//! rate limits; and the shapes of a profile and of the leaderboard (ratings written through the
//! store, as the match code will).

use std::net::SocketAddr;

use bughouse_store::rating::Config;
use bughouse_store::{NewMatch, RatedMatch, Store};
use serde_json::{json, Value};

mod http;
use http::*;

fn credentials(username: &str, password: &str) -> String {
    json!({"username": username, "password": password}).to_string()
}

async fn me(addr: SocketAddr, cookie: &str) -> Answer {
    http(addr, "GET", "/api/account/me", &[("Cookie", cookie)], None).await
}

#[tokio::test]
async fn sign_up_log_in_log_out() {
    let dir = tempfile::tempdir().unwrap();
    let server = start(dir.path()).await;
    let addr = server.addr;

    let a = http(
        addr,
        "POST",
        "/api/account/signup",
        &[],
        Some(&credentials("Ann_1", "correct horse")),
    )
    .await;
    assert_eq!(a.status, 201, "{}", a.body);
    let body = a.json();
    assert_eq!(body["username"], "Ann_1");
    assert!(body["created_at"].as_i64().unwrap() > 1_700_000_000_000);
    assert_eq!(body["rating"], Value::Null);
    // The cookie: a 256-bit token, HttpOnly, SameSite=Lax, the whole site, 30 days; not Secure
    // unless BUGHOUSE_SECURE_COOKIES says the site is behind TLS.
    let set = a.header("set-cookie").unwrap();
    let attributes: Vec<&str> = set.split(';').map(str::trim).collect();
    let token = attributes[0].strip_prefix("bughouse_session=").unwrap();
    assert_eq!(token.len(), 64);
    assert!(token.bytes().all(|b| b.is_ascii_hexdigit()));
    for wanted in ["HttpOnly", "SameSite=Lax", "Path=/", "Max-Age=2592000"] {
        assert!(attributes.contains(&wanted), "{set}");
    }
    assert!(!set.contains("Secure"), "{set}");
    let cookie = a.cookie().unwrap();

    let a = me(addr, &cookie).await;
    assert_eq!(a.status, 200, "{}", a.body);
    assert_eq!(a.json()["username"], "Ann_1");
    // Without a cookie, or with a made-up one: not signed in.
    let a = http(addr, "GET", "/api/account/me", &[], None).await;
    assert_eq!((a.status, a.code().as_str()), (401, "not_signed_in"));
    let forged = format!("bughouse_session={}", "0".repeat(64));
    let a = me(addr, &forged).await;
    assert_eq!((a.status, a.code().as_str()), (401, "not_signed_in"));
    assert!(a.header("set-cookie").unwrap().contains("Max-Age=0"));

    // Log out (from our own page): the session ends and the cookie is deleted.
    let a = http(
        addr,
        "POST",
        "/api/account/logout",
        &[("Cookie", &cookie), ("Origin", &origin(addr))],
        None,
    )
    .await;
    assert_eq!(a.status, 204, "{}", a.body);
    assert!(a.header("set-cookie").unwrap().contains("Max-Age=0"));
    assert_eq!(me(addr, &cookie).await.status, 401);

    // Log in again, the name in any case.
    let a = http(
        addr,
        "POST",
        "/api/account/login",
        &[],
        Some(&credentials("ann_1", "correct horse")),
    )
    .await;
    assert_eq!(a.status, 200, "{}", a.body);
    assert_eq!(a.json()["username"], "Ann_1");
    let second = a.cookie().unwrap();
    assert_ne!(second, cookie);
    assert_eq!(me(addr, &second).await.status, 200);
    // Logging out without a session is no error.
    let a = http(addr, "POST", "/api/account/logout", &[], None).await;
    assert_eq!(a.status, 204);

    // The account outlives the server.
    server.abort();
    let server = start(dir.path()).await;
    let a = me(server.addr, &second).await;
    assert_eq!(a.status, 200, "{}", a.body);
    server.abort();
}

#[tokio::test]
async fn refusals_of_sign_up_and_log_in() {
    let dir = tempfile::tempdir().unwrap();
    let server = start(dir.path()).await;
    let addr = server.addr;
    sign_up(addr, "bob", "password1").await;

    let signup = |body: String| async move {
        http(addr, "POST", "/api/account/signup", &[], Some(&body)).await
    };
    for taken in ["bob", "BOB", "Bob"] {
        let a = signup(credentials(taken, "password2")).await;
        assert_eq!(
            (a.status, a.code().as_str()),
            (409, "username_taken"),
            "{taken}"
        );
    }
    for bad in ["ab", "a b c", "x".repeat(21).as_str(), "über", "bob!"] {
        let a = signup(credentials(bad, "password2")).await;
        assert_eq!(
            (a.status, a.code().as_str()),
            (400, "invalid_username"),
            "{bad}"
        );
        assert!(a.json()["message"].as_str().unwrap().contains("3 to 20"));
    }
    let a = signup(credentials("carol", "short")).await;
    assert_eq!((a.status, a.code().as_str()), (400, "invalid_password"));
    assert!(a.json()["message"].as_str().unwrap().contains("at least 8"));
    for body in [
        "not json".to_owned(),
        r#"{"username":"carol"}"#.to_owned(),
        r#"{"username":"carol","password":"password1","admin":true}"#.to_owned(),
    ] {
        let a = signup(body.clone()).await;
        assert_eq!((a.status, a.code().as_str()), (400, "invalid"), "{body}");
    }

    // A wrong password and an unknown name get the same answer.
    let login = |body: String| async move {
        http(addr, "POST", "/api/account/login", &[], Some(&body)).await
    };
    let wrong = login(credentials("bob", "password2")).await;
    assert_eq!(
        (wrong.status, wrong.code().as_str()),
        (401, "bad_credentials")
    );
    assert!(wrong.header("set-cookie").is_none());
    let unknown = login(credentials("nobody", "password1")).await;
    assert_eq!(unknown.status, 401);
    assert_eq!(unknown.body, wrong.body);
    // A name no account can have is the same failure.
    let a = login(credentials(&"x".repeat(5000), "password1")).await;
    assert_eq!(a.body, wrong.body);
    let a = login(credentials("bob", "password1")).await;
    assert_eq!(a.status, 200);
    server.abort();
}

#[tokio::test]
async fn signed_in_requests_must_come_from_our_pages() {
    let dir = tempfile::tempdir().unwrap();
    let server = start(dir.path()).await;
    let addr = server.addr;
    let ours = origin(addr);
    let cookie = sign_up(addr, "dan", "password1").await;
    let create = r#"{"rules":"fide","time_control":"5+0"}"#;
    let post = |headers: Vec<(&'static str, String)>| {
        let create = create.to_owned();
        async move {
            let headers: Vec<(&str, &str)> =
                headers.iter().map(|(k, v)| (*k, v.as_str())).collect();
            http(addr, "POST", "/api/matches", &headers, Some(&create)).await
        }
    };

    // Signed in, from another site: refused, whatever the route.
    for headers in [
        vec![
            ("Cookie", cookie.clone()),
            ("Origin", "http://evil.example".into()),
        ],
        vec![("Cookie", cookie.clone()), ("Origin", "null".into())],
        vec![
            ("Cookie", cookie.clone()),
            ("Sec-Fetch-Site", "cross-site".into()),
        ],
        vec![
            ("Cookie", cookie.clone()),
            ("Sec-Fetch-Site", "same-site".into()),
            ("Origin", ours.clone()),
        ],
        // No proof at all.
        vec![("Cookie", cookie.clone())],
    ] {
        let a = post(headers.clone()).await;
        assert_eq!(
            (a.status, a.code().as_str()),
            (403, "cross_origin"),
            "{headers:?}"
        );
        assert!(a.json()["message"].as_str().unwrap().contains("this site"));
    }
    let a = http(
        addr,
        "POST",
        "/api/account/logout",
        &[("Cookie", &cookie), ("Origin", "http://evil.example")],
        None,
    )
    .await;
    assert_eq!(a.status, 403);
    assert_eq!(
        me(addr, &cookie).await.status,
        200,
        "the session still stands"
    );
    let a = http(
        addr,
        "POST",
        "/api/tournaments",
        &[("Cookie", &cookie), ("Origin", "http://evil.example")],
        Some(r#"{"name":"x","preset":"fide","format":"round-robin"}"#),
    )
    .await;
    assert_eq!(a.status, 403);
    // A websocket handshake is a signed-in request that changes things too.
    let a = http(
        addr,
        "GET",
        "/ws",
        &[
            ("Cookie", &cookie),
            ("Origin", "http://evil.example"),
            ("Upgrade", "websocket"),
            ("Connection", "Upgrade"),
            ("Sec-WebSocket-Version", "13"),
            ("Sec-WebSocket-Key", "dGhlIHNhbXBsZSBub25jZQ=="),
        ],
        None,
    )
    .await;
    assert_eq!(a.status, 403);

    // From our own page: accepted, by Origin or by Sec-Fetch-Site.
    let a = post(vec![("Cookie", cookie.clone()), ("Origin", ours.clone())]).await;
    assert_eq!(a.status, 201, "{}", a.body);
    let a = post(vec![
        ("Cookie", cookie.clone()),
        ("Sec-Fetch-Site", "same-origin".into()),
    ])
    .await;
    assert_eq!(a.status, 201, "{}", a.body);
    // Reading needs no proof.
    let a = http(
        addr,
        "GET",
        "/api/archive",
        &[("Cookie", &cookie), ("Origin", "http://evil.example")],
        None,
    )
    .await;
    assert_eq!(a.status, 200);

    // Guests and API clients (no cookie) work as before, from anywhere.
    let a = post(vec![]).await;
    assert_eq!(a.status, 201, "{}", a.body);
    let a = post(vec![("Origin", "http://evil.example".into())]).await;
    assert_eq!(a.status, 201, "{}", a.body);
    server.abort();
}

#[tokio::test]
async fn failed_log_ins_are_limited() {
    let dir = tempfile::tempdir().unwrap();
    let server = start(dir.path()).await;
    let addr = server.addr;
    sign_up(addr, "eve", "password1").await;
    sign_up(addr, "fay", "password1").await;
    let login = |name: &str, password: &str| {
        let body = credentials(name, password);
        async move { http(addr, "POST", "/api/account/login", &[], Some(&body)).await }
    };

    // Five failures per name a minute, then 429 with Retry-After, even for the right password.
    for _ in 0..5 {
        assert_eq!(login("eve", "wrong-password").await.status, 401);
    }
    let a = login("EVE", "password1").await;
    assert_eq!((a.status, a.code().as_str()), (429, "too_many_attempts"));
    let retry: u64 = a.header("retry-after").unwrap().parse().unwrap();
    assert!((1..=60).contains(&retry), "{retry}");
    assert!(a.header("set-cookie").is_none());
    // Another name from the same address is not held up by eve's failures.
    assert_eq!(login("fay", "password1").await.status, 200);

    // Twenty failures per address a minute, whatever the names (eve's five count).
    for i in 0..15 {
        let a = login(&format!("nobody{i}"), "wrong-password").await;
        assert_eq!(a.status, 401, "{i}");
    }
    let a = login("fay", "password1").await;
    assert_eq!((a.status, a.code().as_str()), (429, "too_many_attempts"));
    assert!(a.header("retry-after").is_some());
    server.abort();
}

/// A finished match in the store, seated by accounts.
async fn finished_match(
    store: &Store,
    id: &str,
    rules: &str,
    seats: [(&str, i64); 4],
    result: &str,
    at: i64,
) {
    store
        .create_match(&NewMatch {
            id: id.into(),
            rules_preset: rules.into(),
            rules_json: "{}".into(),
            base_ms: 300_000,
            increment_ms: 0,
            created_at_ms: at - 60_000,
            rematch_of: None,
            rated: false,
            allow_bots: false,
        })
        .await
        .unwrap();
    for (seat, (name, account)) in seats.into_iter().enumerate() {
        store
            .set_seat(id, seat as u8, name, "h", false)
            .await
            .unwrap();
        store
            .set_seat_account(id, seat as u8, Some(account))
            .await
            .unwrap();
    }
    store.start_match(id, at - 50_000).await.unwrap();
    store
        .finish_match(id, result, "checkmate", ["1-0", "*"], "[Event \"x\"]", at)
        .await
        .unwrap();
}

#[tokio::test]
async fn profiles_and_the_leaderboard() {
    let dir = tempfile::tempdir().unwrap();
    let server = start(dir.path()).await;
    let addr = server.addr;
    let names = ["gus", "hal", "ivy", "jon"];
    for name in names {
        sign_up(addr, name, "password1").await;
    }
    // Twelve rated matches (gus and jon win eight) and a casual one, written through the store
    // as the match code will.
    let store = Store::connect(&database(dir.path())).await.unwrap();
    let mut ids = [0; 4];
    for (i, name) in names.iter().enumerate() {
        ids[i] = store.account_by_username(name).await.unwrap().unwrap().id;
    }
    let seats = [0, 1, 2, 3].map(|i| (names[i], ids[i]));
    let t0 = 1_763_700_000_000;
    for n in 0..12 {
        let result = if n % 3 == 2 { "0-1" } else { "1-0" };
        let id = format!("r{n:02}");
        finished_match(&store, &id, "fide", seats, result, t0 + n * 60_000).await;
        store
            .rate_match(
                &RatedMatch {
                    match_id: id,
                    accounts: ids,
                    score: bughouse_store::rating::score_of_result(result).unwrap(),
                    at_ms: t0 + n * 60_000,
                },
                &Config::default(),
            )
            .await
            .unwrap();
    }
    finished_match(
        &store,
        "casual",
        "knsb-1988",
        seats,
        "1/2-1/2",
        t0 + 13 * 60_000,
    )
    .await;

    let a = http(addr, "GET", "/api/players/GUS?limit=5", &[], None).await;
    assert_eq!(a.status, 200, "{}", a.body);
    let p = a.json();
    assert_eq!(p["username"], "gus");
    let rating = &p["rating"];
    assert_eq!(rating["games"], 12);
    assert_eq!(
        (rating["wins"].as_i64(), rating["losses"].as_i64()),
        (Some(8), Some(4))
    );
    assert!(rating["rating"].as_f64().unwrap() > 1500.0);
    assert!(rating["deviation"].as_f64().unwrap() < 350.0);
    assert!(rating["volatility"].as_f64().unwrap() > 0.0);
    assert!(rating["provisional"].is_boolean());
    let history = p["rating_history"].as_array().unwrap();
    assert_eq!(history.len(), 12);
    assert_eq!(history[0]["match_id"], "r00");
    for key in ["at", "rating", "deviation", "delta"] {
        assert!(history[11][key].is_number(), "{key}");
    }
    let matches = p["matches"].as_array().unwrap();
    assert_eq!(matches.len(), 5);
    let casual = &matches[0];
    assert_eq!(casual["match_id"], "casual");
    assert_eq!(casual["rules"], "knsb-1988");
    assert_eq!(casual["seat"], "WhiteA");
    assert_eq!(
        (casual["result"].as_str(), casual["outcome"].as_str()),
        (Some("1/2-1/2"), Some("draw"))
    );
    assert_eq!(casual["rating_delta"], Value::Null);
    assert_eq!(casual["partner"]["name"], "jon");
    assert_eq!(casual["partner"]["account"], "jon");
    assert_eq!(casual["partner"]["bot"], false);
    assert_eq!(casual["opponents"][0]["name"], "hal");
    assert_eq!(casual["opponents"][1]["name"], "ivy");
    assert_eq!(casual["players"].as_array().unwrap().len(), 4);
    let rated = &matches[1];
    assert_eq!(
        (rated["match_id"].as_str(), rated["outcome"].as_str()),
        (Some("r11"), Some("loss"))
    );
    assert!(rated["rating_delta"].as_f64().unwrap() < 0.0);
    let page = http(addr, "GET", "/api/players/gus?limit=5&offset=5", &[], None).await;
    assert_eq!(page.json()["matches"][0]["match_id"], "r07");
    let partners = p["best_partners"].as_array().unwrap();
    assert_eq!(partners.len(), 1);
    assert_eq!(partners[0]["username"], "jon");
    assert_eq!(partners[0]["games"], 13);
    assert_eq!(
        (partners[0]["wins"].as_i64(), partners[0]["draws"].as_i64()),
        (Some(8), Some(1))
    );
    assert!(partners[0]["team_rating"]["rating"].as_f64().unwrap() > 1500.0);
    let by_rules = p["by_rules"].as_array().unwrap();
    assert_eq!(by_rules[0]["rules"], "fide");
    assert_eq!(by_rules[0]["games"], 12);
    assert_eq!(by_rules[1]["rules"], "knsb-1988");
    assert_eq!(by_rules[1]["draws"], 1);

    let a = http(addr, "GET", "/api/players/nobody", &[], None).await;
    assert_eq!((a.status, a.code().as_str()), (404, "not_found"));
    let a = http(addr, "GET", "/api/players/gus?limit=0", &[], None).await;
    assert_eq!((a.status, a.code().as_str()), (400, "invalid"));
    // A player without rated matches: rating null, lists empty.
    sign_up(addr, "kim", "password1").await;
    let k = http(addr, "GET", "/api/players/kim", &[], None)
        .await
        .json();
    assert_eq!(k["rating"], Value::Null);
    assert_eq!(k["matches"], json!([]));
    assert_eq!(k["rating_history"], json!([]));

    let a = http(addr, "GET", "/api/leaderboard", &[], None).await;
    assert_eq!(a.status, 200, "{}", a.body);
    let board = a.json();
    assert_eq!(board["min_games"], 10);
    assert_eq!(board["team_min_games"], 5);
    assert!(board["max_deviation"].as_f64().unwrap() > 0.0);
    let players = board["players"].as_array().unwrap();
    assert_eq!(players.len(), 4, "{board}");
    assert_eq!(players[0]["rank"], 1);
    assert_eq!(players[0]["username"], "gus");
    assert_eq!(players[1]["username"], "jon");
    assert_eq!(players[0]["games"], 12);
    assert!(players[0]["rating"].as_f64() > players[3]["rating"].as_f64());
    let teams = board["teams"].as_array().unwrap();
    assert_eq!(teams.len(), 2);
    assert_eq!(teams[0]["players"], json!(["gus", "jon"]));
    assert_eq!(teams[0]["rank"], 1);
    assert_eq!(teams[0]["wins"], 8);
    let a = http(addr, "GET", "/api/leaderboard?limit=1", &[], None).await;
    assert_eq!(a.json()["players"].as_array().unwrap().len(), 1);
    let a = http(addr, "GET", "/api/leaderboard?limit=1000", &[], None).await;
    assert_eq!(a.status, 400);
    server.abort();
}
