//! The over-the-board API of the real server on a SQLite file: a table created, its events
//! posted with ids (a resend is applied once), decisions with their articles, the key, bad
//! input, and the table surviving a restart.

use serde_json::{json, Value};

mod http;
use http::*;

async fn post_events(addr: std::net::SocketAddr, id: &str, key: &str, events: Value) -> Answer {
    let body = json!({"key": key, "events": events}).to_string();
    http(
        addr,
        "POST",
        &format!("/api/otb/{id}/events"),
        &[],
        Some(&body),
    )
    .await
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_knsb_table_with_an_illegal_move_claim_and_a_flag() {
    let dir = tempfile::tempdir().unwrap();
    let server = start(dir.path()).await;
    let addr = server.addr;
    let created = http(
        addr,
        "POST",
        "/api/otb",
        &[],
        Some(r#"{"rulebook": "knsb-1988", "base_seconds": 60}"#),
    )
    .await;
    assert_eq!(created.status, 201, "{}", created.body);
    let c = created.json();
    let id = c["id"].as_str().unwrap().to_owned();
    let key = c["key"].as_str().unwrap().to_owned();
    assert_eq!(c["url"], format!("/otb/{id}#{key}"));

    let events = json!([
        {"id": 1, "at_ms": 1000, "event": {"type": "start"}},
        {"id": 2, "at_ms": 3000, "event": {"type": "press", "seat": "WhiteA"}},
        {"id": 3, "at_ms": 4000, "event": {"type": "claim",
            "claim": {"kind": "illegal_move", "claimant": "BlackA"}}},
        // Out of turn: Black A's clock does not run after the claim (White A replaces).
        {"id": 4, "at_ms": 4500, "event": {"type": "press", "seat": "BlackA"}},
    ]);
    let a = post_events(addr, &id, &key, events.clone()).await;
    assert_eq!(a.status, 200, "{}", a.body);
    let v = a.json();
    assert_eq!(v["applied"], json!([1, 2, 3]));
    assert_eq!(v["rejected"][0]["id"], 4);
    assert_eq!(v["record"][0]["decisions"][0]["article"], "K1E");
    let claim = &v["record"][2]["decisions"][0];
    assert_eq!(claim["article"], "K8C");
    assert_eq!(claim["consequence"]["kind"], "replace_move");
    assert_eq!(claim["consequence"]["offender"], "WhiteA");
    assert_eq!(v["clocks"][0]["running"], true, "{}", v["clocks"]);
    assert_eq!(v["illegal_moves"], json!([1, 0, 0, 0]));

    // The scoresheet: moves checked by the rules engine; an illegal one is refused.
    let sheet = post_events(
        addr,
        &id,
        &key,
        json!([
            {"id": 40, "at_ms": 4600, "event": {"type": "move", "seat": "WhiteA", "text": "e4"}},
            {"id": 41, "at_ms": 4700, "event": {"type": "move", "seat": "BlackA", "text": "e5"}},
            {"id": 42, "at_ms": 4800, "event": {"type": "move", "seat": "WhiteA", "text": "Ke3"}},
            {"id": 43, "at_ms": 4900, "event": {"type": "move", "seat": "WhiteA", "text": "g1f3"}},
        ]),
    )
    .await
    .json();
    assert_eq!(sheet["applied"], json!([40, 41, 43]), "{sheet}");
    assert_eq!(sheet["rejected"][0]["id"], 42);
    let sans: Vec<&str> = sheet["moves"]
        .as_array()
        .unwrap()
        .iter()
        .map(|m| m["san"].as_str().unwrap())
        .collect();
    assert_eq!(sans, ["e4", "e5", "Nf3"]);

    // The same events again (a page that lost the answer): nothing applied twice.
    let again = post_events(addr, &id, &key, events).await.json();
    assert_eq!(again["record"].as_array().unwrap().len(), 6);
    assert_eq!(again["applied"], json!([1, 2, 3]));

    // A wrong key, a bad body, an unknown table.
    let wrong = post_events(addr, &id, "nope", json!([])).await;
    assert_eq!((wrong.status, wrong.code()), (403, "forbidden".to_owned()));
    let bad = post_events(
        addr,
        &id,
        &key,
        json!([{"id": 9, "at_ms": 1, "event": {"type": "jump"}}]),
    )
    .await;
    assert_eq!(bad.status, 400, "{}", bad.body);
    // A time past what the store keeps is refused, naming the event and the field.
    let late = post_events(
        addr,
        &id,
        &key,
        json!([
            {"id": 10, "at_ms": 1, "event": {"type": "observe"}},
            {"id": 11, "at_ms": u64::MAX, "event": {"type": "observe"}}
        ]),
    )
    .await;
    assert_eq!(late.status, 400, "{}", late.body);
    assert!(
        late.body
            .contains("event 2 of 2: at_ms 18446744073709551615"),
        "{}",
        late.body
    );
    let missing = http(addr, "GET", "/api/otb/nothing", &[], None).await;
    assert_eq!(missing.status, 404);
    let bad_time = http(
        addr,
        "POST",
        "/api/otb",
        &[],
        Some(r#"{"rulebook": "knsb-1988", "base_seconds": 0}"#),
    )
    .await;
    assert_eq!(bad_time.status, 400);
    let crazy = http(
        addr,
        "POST",
        "/api/otb",
        &[],
        Some(r#"{"rulebook": "crazyhouse", "base_seconds": 60}"#),
    )
    .await;
    assert_eq!(crazy.status, 400);

    // White A's flag falls (60 s from 4 s, less his 2 s); Black A claims it (K11A2), and the
    // arbiter rules board B a draw: both games over, the match ends (K11G), 1½-½.
    let v = post_events(
        addr,
        &id,
        &key,
        json!([
            {"id": 5, "at_ms": 70_000, "event": {"type": "claim",
                "claim": {"kind": "flag", "claimant": "BlackA"}}},
            {"id": 6, "at_ms": 71_000, "event": {"type": "ruling", "board": "B",
                "ruling": "1/2-1/2"}},
        ]),
    )
    .await
    .json();
    let record = v["record"].as_array().unwrap();
    let flag = record.iter().find(|e| e["flag"] == "WhiteA").expect("flag");
    assert_eq!(flag["at_ms"], 62_000);
    let claim = record
        .iter()
        .find(|e| e["event"]["type"] == "claim" && e["at_ms"] == 70_000);
    assert_eq!(claim.unwrap()["decisions"][0]["article"], "K11A2");
    assert_eq!(v["result"], "0-1", "team two: 1½ points of 2, {v}");
    assert_eq!(v["games"][0]["result"], "0-1");

    // After a restart the table is the same.
    server.abort();
    let server = start(dir.path()).await;
    let shown = http(server.addr, "GET", &format!("/api/otb/{id}"), &[], None)
        .await
        .json();
    assert_eq!(shown["record"], v["record"]);
    assert_eq!(shown["result"], "0-1");
    let page = http(server.addr, "GET", &format!("/otb/{id}"), &[], None).await;
    assert_eq!(page.status, 200);
    let worker = http(server.addr, "GET", "/otb-sw.js", &[], None).await;
    assert_eq!(worker.status, 200);
    assert!(worker
        .header("content-type")
        .unwrap_or_default()
        .contains("javascript"));
    assert!(worker.body.contains("addEventListener('fetch'"));
    server.abort();
}

/// A round of a knsb-1988 tournament played over the board: the organiser opens the table of
/// the pairing (again: the same table and key), the table's match ends, and its games' results
/// land in the pairing and the standings.
#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_tournament_pairing_played_over_the_board() {
    let dir = tempfile::tempdir().unwrap();
    let server = start(dir.path()).await;
    let addr = server.addr;
    let body = json!({"name": "Club cup", "preset": "knsb-1988", "format": "round-robin",
                      "time_control": "1+0", "seed": 3})
    .to_string();
    let created = http(addr, "POST", "/api/tournaments", &[], Some(&body))
        .await
        .json();
    let tid = created["tournament_id"].as_str().unwrap().to_owned();
    let auth = format!("Bearer {}", created["organiser_secret"].as_str().unwrap());
    let org = |method: &'static str, path: String, body: Value| {
        let auth = auth.clone();
        let path = format!("/api/tournaments/{tid}{path}");
        async move {
            let headers = [("Authorization", auth.as_str())];
            http(addr, method, &path, &headers, Some(&body.to_string())).await
        }
    };
    for (name, a, b) in [("Rooks", "Ann", "Bob"), ("Knights", "Cas", "Dirk")] {
        let team = json!({"name": name, "first": {"name": a}, "second": {"name": b}});
        assert_eq!(org("POST", "/teams".into(), team).await.status, 201);
    }
    assert_eq!(org("POST", "/rounds".into(), json!({})).await.status, 201);

    // Without the secret, no table; a table that does not exist, 404.
    let path = "/rounds/1/tables/1/otb".to_owned();
    let anonymous = http(
        addr,
        "POST",
        &format!("/api/tournaments/{tid}{path}"),
        &[],
        None,
    )
    .await;
    assert_eq!(anonymous.status, 401, "{}", anonymous.body);
    let missing = org("POST", "/rounds/1/tables/9/otb".into(), json!({})).await;
    assert_eq!(missing.status, 404, "{}", missing.body);

    let opened = org("POST", path.clone(), json!({})).await;
    assert_eq!(opened.status, 200, "{}", opened.body);
    let table = opened.json();
    let again = org("POST", path, json!({})).await.json();
    assert_eq!(again, table, "the same table and key when asked again");
    let (id, key) = (
        table["id"].as_str().unwrap(),
        table["key"].as_str().unwrap(),
    );
    let view = http(addr, "GET", &format!("/api/otb/{id}"), &[], None)
        .await
        .json();
    assert_eq!(view["rulebook"], "knsb-1988");
    assert_eq!(view["base_ms"], 60_000);
    assert_eq!(view["pairing"]["round"], 1);

    // Board A: the arbiter rules a win for Black; board B: both flags, a draw claimed (K11D).
    let v = post_events(
        addr,
        id,
        key,
        json!([
            {"id": 1, "at_ms": 0, "event": {"type": "start"}},
            {"id": 2, "at_ms": 1000, "event": {"type": "ruling", "board": "A", "ruling": "0-1"}},
            {"id": 3, "at_ms": 2000, "event": {"type": "press", "seat": "WhiteB"}},
            {"id": 30, "at_ms": 2100, "event": {"type": "move", "seat": "WhiteB", "text": "d4"}},
            // Black B's flag falls at 62 s; he moves on with it down; White B's at 121 s.
            {"id": 4, "at_ms": 63_000, "event": {"type": "press", "seat": "BlackB"}},
            {"id": 40, "at_ms": 63_100, "event": {"type": "move", "seat": "BlackB", "text": "d5"}},
            {"id": 5, "at_ms": 122_000, "event": {"type": "claim",
                "claim": {"kind": "both_flags", "claimant": "WhiteB"}}},
        ]),
    )
    .await
    .json();
    assert_eq!(v["rejected"], json!([]), "{v}");
    assert_eq!(v["result"], "0-1", "{v}");

    let t = http(addr, "GET", &format!("/api/tournaments/{tid}"), &[], None)
        .await
        .json();
    let result = &t["rounds"][0]["pairings"][0]["result"];
    assert_eq!(result["board_a"], "0-1", "{t}");
    assert_eq!(result["board_b"], "1/2-1/2", "{t}");

    // The scoresheet's BPGN comes with the tournament's records.
    let bpgn = http(
        addr,
        "GET",
        &format!("/api/tournaments/{tid}/matches.bpgn?round=1"),
        &[],
        None,
    )
    .await;
    assert_eq!(bpgn.status, 200, "{}", bpgn.body);
    assert!(bpgn.body.contains("[Round \"1\"]"), "{}", bpgn.body);
    assert!(
        bpgn.body.contains("1B. d4 {58} 1b. d5 {0}"),
        "{}",
        bpgn.body
    );
    assert!(bpgn.body.contains("[Result \"0-1\"]"), "{}", bpgn.body);
    server.abort();
}

/// The scoresheet of a table as BPGN: 404 before any move, then the moves of both boards with
/// the clock times of the presses, the result and how the game ended, readable by the BPGN
/// reader and replaying to the same moves.
#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn the_scoresheet_as_bpgn() {
    let dir = tempfile::tempdir().unwrap();
    let server = start(dir.path()).await;
    let addr = server.addr;
    let created = http(
        addr,
        "POST",
        "/api/otb",
        &[],
        Some(r#"{"rulebook": "fide", "base_seconds": 180}"#),
    )
    .await
    .json();
    let id = created["id"].as_str().unwrap().to_owned();
    let key = created["key"].as_str().unwrap().to_owned();
    let path = format!("/api/otb/{id}/bpgn");
    let missing = http(addr, "GET", "/api/otb/nosuchtable/bpgn", &[], None).await;
    assert_eq!(missing.status, 404, "{}", missing.body);

    let started = post_events(
        addr,
        &id,
        &key,
        json!([{"id": 1, "at_ms": 0, "event": {"type": "start"}}]),
    )
    .await;
    assert_eq!(started.status, 200, "{}", started.body);
    let empty = http(addr, "GET", &path, &[], None).await;
    assert_eq!(empty.status, 404, "no moves yet: {}", empty.body);

    let v = post_events(
        addr,
        &id,
        &key,
        json!([
            {"id": 2, "at_ms": 1500, "event": {"type": "press", "seat": "WhiteA"}},
            {"id": 3, "at_ms": 1600, "event": {"type": "move", "seat": "WhiteA", "text": "e4"}},
            {"id": 4, "at_ms": 2000, "event": {"type": "press", "seat": "WhiteB"}},
            {"id": 5, "at_ms": 2100, "event": {"type": "move", "seat": "WhiteB", "text": "e4"}},
            {"id": 6, "at_ms": 3250, "event": {"type": "press", "seat": "BlackA"}},
            {"id": 7, "at_ms": 3300, "event": {"type": "move", "seat": "BlackA", "text": "d5"}},
            {"id": 8, "at_ms": 4000, "event": {"type": "press", "seat": "WhiteA"}},
            {"id": 9, "at_ms": 4100, "event": {"type": "move", "seat": "WhiteA", "text": "exd5"}},
            {"id": 10, "at_ms": 5000, "event": {"type": "press", "seat": "BlackB"}},
            {"id": 11, "at_ms": 5100, "event": {"type": "move", "seat": "BlackB", "text": "P@d5"}},
            {"id": 12, "at_ms": 6000, "event": {"type": "forfeit", "seat": "WhiteB",
                "deliberate": true}},
        ]),
    )
    .await;
    assert_eq!(v.status, 200, "{}", v.body);
    let v = v.json();
    assert_eq!(v["rejected"], json!([]), "{v}");
    // White B loses: Black B and his partner White A win the match.
    assert_eq!(v["result"], "1-0", "{v}");

    let bpgn = http(addr, "GET", &path, &[], None).await;
    assert_eq!(bpgn.status, 200, "{}", bpgn.body);
    let text = bpgn.body;
    assert!(text.contains("[Variant \"bughouse\"]"), "{text}");
    assert!(text.contains("[Rules \"fide\"]"), "{text}");
    assert!(text.contains("[TimeControl \"180+0\"]"), "{text}");
    assert!(text.contains("[Result \"1-0\"]"), "{text}");
    assert!(
        text.contains(
            "1A. e4 {178.5} 1B. e4 {178} 1a. d5 {178.25} 2A. exd5 {177.75} 1b. P@d5 {177}"
        ),
        "{text}"
    );
    assert!(text.contains("{board B: 0-1 (F3.12)} 1-0"), "{text}");

    let read = bughouse_bpgn::read_games(text.as_bytes())
        .next()
        .unwrap()
        .unwrap();
    let game = bughouse_bpgn::replay_bughouse(&read, bughouse_core::Rules::fide()).unwrap();
    let sans: Vec<String> = game.record().iter().map(|m| m.san.to_string()).collect();
    assert_eq!(sans, ["e4", "e4", "d5", "exd5", "P@d5"]);
    server.abort();
}
