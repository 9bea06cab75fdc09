//! The database harness of the store's tests: a SQLite file in a temporary directory, and a
//! schema of its own in the test PostgreSQL at `BUGHOUSE_TEST_POSTGRES_URL` (skipped with a note
//! when unset, a failure when `CI` is set), shared by every test file of the store.

#![allow(dead_code)]

use std::io::Write as _;
use std::sync::atomic::{AtomicU32, Ordering};
use std::sync::Once;
use std::time::{SystemTime, UNIX_EPOCH};

use bughouse_store::{Backend, Store};
use sqlx::Connection;

const POSTGRES_URL_VAR: &str = "BUGHOUSE_TEST_POSTGRES_URL";

/// A database for one test.
pub struct TestDb {
    pub url: String,
    pub backend: Backend,
    /// Keeps the SQLite file's directory until the test ends.
    _dir: Option<tempfile::TempDir>,
    /// PostgreSQL: the URL without the schema option, and the schema, dropped at the end.
    schema: Option<(String, String)>,
}

impl TestDb {
    pub async fn sqlite() -> TestDb {
        let dir = tempfile::tempdir().expect("a temporary directory");
        let url = format!(
            "sqlite://{}?mode=rwc",
            dir.path().join("bughouse.db").display()
        );
        TestDb {
            url,
            backend: Backend::Sqlite,
            _dir: Some(dir),
            schema: None,
        }
    }

    /// A fresh schema in the test PostgreSQL, or `None` (after a note) when there is none.
    pub async fn postgres() -> Option<TestDb> {
        let base = postgres_url()?;
        static COUNTER: AtomicU32 = AtomicU32::new(0);
        let nanos = SystemTime::now()
            .duration_since(UNIX_EPOCH)
            .unwrap()
            .subsec_nanos();
        let schema = format!(
            "bughouse_test_{}_{}_{nanos}",
            std::process::id(),
            COUNTER.fetch_add(1, Ordering::Relaxed)
        );
        let mut conn = sqlx::PgConnection::connect(&base)
            .await
            .unwrap_or_else(|e| {
                panic!("cannot reach the test PostgreSQL ({POSTGRES_URL_VAR}): {e}")
            });
        sqlx::query(&format!("CREATE SCHEMA {schema}"))
            .execute(&mut conn)
            .await
            .expect("CREATE SCHEMA");
        conn.close().await.unwrap();
        let sep = if base.contains('?') { '&' } else { '?' };
        let url = format!("{base}{sep}options=-c%20search_path%3D{schema}");
        Some(TestDb {
            url,
            backend: Backend::Postgres,
            _dir: None,
            schema: Some((base, schema)),
        })
    }

    pub async fn store(&self) -> Store {
        let store = Store::connect(&self.url)
            .await
            .unwrap_or_else(|e| panic!("connect: {e}"));
        assert_eq!(store.backend(), self.backend);
        store
    }

    /// Drops the test's PostgreSQL schema (after a failed test it stays, for a look).
    pub async fn cleanup(self) {
        if let Some((base, schema)) = self.schema {
            let mut conn = sqlx::PgConnection::connect(&base).await.unwrap();
            sqlx::query(&format!("DROP SCHEMA {schema} CASCADE"))
                .execute(&mut conn)
                .await
                .unwrap();
            conn.close().await.unwrap();
        }
    }
}

/// The test PostgreSQL's URL; `None` after a note when it is unset (a failure under CI).
pub fn postgres_url() -> Option<String> {
    match std::env::var(POSTGRES_URL_VAR) {
        Ok(url) if !url.is_empty() => Some(url),
        _ => {
            let ci = std::env::var("CI").unwrap_or_default();
            if !ci.is_empty() && ci != "false" && ci != "0" {
                panic!(
                    "{POSTGRES_URL_VAR} is unset but CI is set: the PostgreSQL tests must run \
                     in CI (start one with `pg_env=$(bash .ci/postgres.sh) && eval \"$pg_env\"`)"
                );
            }
            static NOTE: Once = Once::new();
            NOTE.call_once(|| {
                // Straight to stderr: the test harness would swallow eprintln! of a passing test.
                let _ = writeln!(
                    std::io::stderr(),
                    "note: {POSTGRES_URL_VAR} is unset, skipping the PostgreSQL tests \
                     (start one with `pg_env=$(bash .ci/postgres.sh) && eval \"$pg_env\"`)"
                );
            });
            None
        }
    }
}

/// One test function per name, run as `NAME::sqlite` and `NAME::postgres`.
macro_rules! suite {
    ($($name:ident),* $(,)?) => {$(
        mod $name {
            #[tokio::test(flavor = "multi_thread", worker_threads = 2)]
            async fn sqlite() {
                let db = super::TestDb::sqlite().await;
                super::$name(&db).await;
                db.cleanup().await;
            }

            #[tokio::test(flavor = "multi_thread", worker_threads = 2)]
            async fn postgres() {
                if let Some(db) = super::TestDb::postgres().await {
                    super::$name(&db).await;
                    db.cleanup().await;
                }
            }
        }
    )*};
}
