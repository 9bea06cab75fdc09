//! The HTTP routes: errors as JSON, custom rules offered, created and kept over a restart.

use super::*;

#[tokio::test]
async fn http_errors_are_json() {
    let server = TestServer::start().await;
    let addr = server.addr;

    let answer = http(
        addr,
        "POST",
        "/api/matches",
        Some(r#"{"rules":"chess960","time_control":"5+0"}"#),
    )
    .await;
    assert_eq!(answer.status, 400, "{}", answer.body);
    let body: serde_json::Value = serde_json::from_str(&answer.body).expect("JSON");
    assert!(body["error"].is_string(), "{body}");

    let answer = http(
        addr,
        "POST",
        "/api/matches",
        Some(r#"{"rules":"fide","time_control":"soon"}"#),
    )
    .await;
    assert_eq!(answer.status, 400, "{}", answer.body);

    let answer = http(addr, "GET", "/api/matches/nonexistent", None).await;
    assert_eq!(answer.status, 404, "{}", answer.body);
    let body: serde_json::Value = serde_json::from_str(&answer.body).expect("JSON");
    assert!(body["error"].is_string(), "{body}");

    let answer = http(addr, "GET", "/api/matches/nonexistent/bpgn", None).await;
    assert_eq!(answer.status, 404, "{}", answer.body);

    let answer = http(addr, "GET", "/api/archive?limit=5", None).await;
    assert_eq!(answer.status, 200);
    assert_eq!(answer.body.trim(), "[]");

    // Every refusal is `{"error": code, "message": text}` with its status.
    for (method, path, body, status, code) in [
        ("POST", "/api/matches", Some("{not json"), 400, "invalid"),
        (
            "POST",
            "/api/matches",
            Some(r#"{"rules":"fide"}"#),
            400,
            "invalid",
        ),
        ("POST", "/api/matches", None, 400, "invalid"),
        ("GET", "/api/archive?limit=-1", None, 400, "invalid"),
        ("GET", "/api/archive?limit=0", None, 400, "invalid"),
        ("GET", "/api/archive?limit=501", None, 400, "invalid"),
        ("GET", "/api/archive?offset=-3", None, 400, "invalid"),
        ("GET", "/api/archive?limit=ten", None, 400, "invalid"),
        ("GET", "/api/archive?page=2", None, 400, "invalid"),
        ("GET", "/api/matches/nonexistent", None, 404, "not_found"),
        ("GET", "/api/nothing-here", None, 404, "not_found"),
        ("DELETE", "/api/matches", None, 405, "invalid"),
    ] {
        let answer = http(addr, method, path, body).await;
        assert_eq!(answer.status, status, "{method} {path}: {}", answer.body);
        let error: bughouse_protocol::ApiError =
            serde_json::from_str(&answer.body).unwrap_or_else(|e| {
                panic!("{method} {path}: not the JSON error ({e}): {}", answer.body)
            });
        assert_eq!(error.error, code, "{method} {path}");
        assert!(!error.message.is_empty());
    }

    // The pages are the embedded front end.
    let answer = http(addr, "GET", "/", None).await;
    assert_eq!(answer.status, 200);
    assert!(answer.body.contains("<div id=\"app\">"), "{}", answer.body);
    let answer = http(addr, "GET", "/m/anything", None).await;
    assert_eq!(answer.status, 200);
}

#[tokio::test]
async fn custom_rules_are_offered_created_and_survive_a_restart() {
    let dir = tempfile::tempdir().expect("a temporary directory");
    let url = format!("sqlite://{}", dir.path().join("bughouse.db").display());
    let start = || async {
        let listener = TcpListener::bind("127.0.0.1:0").await.expect("a free port");
        bughouse_server::serve_on(listener, &url)
            .await
            .expect("the server starts")
    };
    let server = start().await;

    let answer = http(server.addr, "GET", "/api/rules", None).await;
    assert_eq!(answer.status, 200, "{}", answer.body);
    let catalog: bughouse_protocol::RulesCatalog =
        serde_json::from_str(&answer.body).expect("a RulesCatalog");
    let ids: Vec<&str> = catalog.presets.iter().map(|p| p.id.as_str()).collect();
    assert_eq!(
        ids,
        ["fide", "minerva-2014", "knsb-1988", "uscf-scholastic-2006"]
    );
    assert_eq!(catalog.fields.len(), bughouse_core::Rules::FIELDS.len());
    let drop_check = catalog
        .fields
        .iter()
        .find(|f| f.name == "drop_check")
        .expect("drop_check is a field");
    assert_eq!(
        drop_check.options.as_deref(),
        Some(&["Allowed".to_owned(), "Forbidden".to_owned()][..])
    );

    let answer = http(
        server.addr,
        "POST",
        "/api/matches",
        Some(r#"{"rules":"fide","time_control":"5+0","custom":{"drop_check":"maybe"}}"#),
    )
    .await;
    assert_eq!(answer.status, 400, "{}", answer.body);
    assert!(answer.body.contains("drop_check"), "{}", answer.body);

    let answer = http(
        server.addr,
        "POST",
        "/api/matches",
        Some(r#"{"rules":"minerva-2014","time_control":"5+0","custom":{"drop_check":"Forbidden","repetition_claim":"3"}}"#),
    )
    .await;
    assert_eq!(answer.status, 201, "{}", answer.body);
    let id = serde_json::from_str::<bughouse_protocol::CreatedMatch>(&answer.body)
        .expect("a CreatedMatch")
        .match_id;
    server.abort();

    let server = start().await;
    let answer = http(server.addr, "GET", &format!("/api/matches/{id}"), None).await;
    assert_eq!(answer.status, 200, "{}", answer.body);
    let state: MatchState = serde_json::from_str(&answer.body).expect("a MatchState");
    assert_eq!(state.rules, "custom");
    let value = |field: &str| {
        state
            .settings
            .iter()
            .find(|s| s.field == field)
            .map(|s| s.value.clone())
    };
    assert_eq!(value("drop_check").as_deref(), Some("Forbidden"));
    assert_eq!(value("repetition_claim").as_deref(), Some("3"));
    assert_eq!(value("partner_talk").as_deref(), Some("MinervaKinds"));
    server.abort();
}
