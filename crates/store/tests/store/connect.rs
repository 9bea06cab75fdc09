//! Connecting: bad URLs, PostgreSQL's refusals, SQLite in memory.

use super::*;

#[tokio::test]
async fn bad_urls_give_clear_errors() {
    for url in [
        "mysql://u:p@localhost/db",
        "bughouse.db",
        "",
        "http://example.invalid/",
    ] {
        let err = Store::connect(url).await.unwrap_err();
        assert!(
            matches!(err, StoreError::UnsupportedUrl(_)),
            "{url}: {err:?}"
        );
        let msg = err.to_string();
        assert!(
            msg.contains("sqlite:") && msg.contains("postgres://"),
            "{msg}"
        );
    }
    // The password never shows in a message.
    let err = Store::connect("mysql://user:hunter2@localhost/db")
        .await
        .unwrap_err();
    assert!(!err.to_string().contains("hunter2"), "{err}");

    // A SQLite file in a directory that does not exist.
    let dir = tempfile::tempdir().unwrap();
    let path = dir.path().join("no/such/dir/bughouse.db");
    let err = Store::connect(&format!("sqlite://{}?mode=rwc", path.display()))
        .await
        .unwrap_err();
    assert!(matches!(err, StoreError::Connect { .. }), "{err:?}");
    let msg = err.to_string();
    assert!(msg.contains("no/such/dir/bughouse.db"), "{msg}");
    assert!(msg.starts_with("cannot open the database"), "{msg}");

    // A SQLite URL with a bad parameter.
    let err = Store::connect("sqlite://x.db?mode=sideways")
        .await
        .unwrap_err();
    assert!(matches!(err, StoreError::Connect { .. }), "{err:?}");
    assert!(err.to_string().contains("sideways"), "{err}");

    // PostgreSQL where none listens: an error at once, not after the pool's retries.
    let started = Instant::now();
    let err = Store::connect("postgres://bughouse:hunter2@127.0.0.1:1/bughouse")
        .await
        .unwrap_err();
    assert!(started.elapsed() < Duration::from_secs(10));
    assert!(matches!(err, StoreError::Connect { .. }), "{err:?}");
    let msg = err.to_string();
    assert!(
        msg.contains("postgres://bughouse:***@127.0.0.1:1/bughouse"),
        "{msg}"
    );
    assert!(!msg.contains("hunter2"), "{msg}");

    // A malformed PostgreSQL URL.
    let err = Store::connect("postgres://[::1/x").await.unwrap_err();
    assert!(matches!(err, StoreError::Connect { .. }), "{err:?}");
}

/// A database that does not exist on a real server, and a wrong password.
#[tokio::test]
async fn postgres_connect_errors() {
    let Some(base) = postgres_url() else { return };
    let (head, tail) = base.rsplit_once('/').expect("a URL with a database name");
    let query = tail.find('?').map_or("", |i| &tail[i..]);
    let err = Store::connect(&format!("{head}/no_such_bughouse_db{query}"))
        .await
        .unwrap_err();
    assert!(matches!(err, StoreError::Connect { .. }), "{err:?}");
    assert!(err.to_string().contains("no_such_bughouse_db"), "{err}");

    // postgres://USER:PASSWORD@HOST...: the same with another password.
    let (scheme, authority) = head.split_once("://").expect("a URL");
    if let Some((user, host)) = authority
        .split_once('@')
        .and_then(|(userinfo, host)| Some((userinfo.split_once(':')?.0, host)))
    {
        let err = Store::connect(&format!("{scheme}://{user}:wrong-password@{host}/{tail}"))
            .await
            .unwrap_err();
        assert!(matches!(err, StoreError::Connect { .. }), "{err:?}");
        assert!(!err.to_string().contains("wrong-password"), "{err}");
    }
}

/// `sqlite::memory:`: a working store (for the server's tests), private to each connect.
#[tokio::test]
async fn sqlite_in_memory() {
    let one = Store::connect("sqlite::memory:").await.unwrap();
    let two = Store::connect("sqlite::memory:").await.unwrap();
    assert_eq!(one.backend(), Backend::Sqlite);
    one.create_match(&new_match("mem", T0)).await.unwrap();
    one.start_match("mem", T0).await.unwrap();
    let clone = one.clone();
    clone
        .record_move(&mv("mem", 0, 0, "e2e4", "e4"))
        .await
        .unwrap();
    assert_eq!(one.live_matches().await.unwrap()[0].moves.len(), 1);
    assert_eq!(two.live_matches().await.unwrap(), vec![]);
}
