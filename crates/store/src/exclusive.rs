//! A lock shared by every process on the database, for changes that read, decide and write
//! (a tournament's next round, an over-the-board table's events): in PostgreSQL a transaction
//! holding `pg_advisory_xact_lock` on the name's hash, released when the transaction ends; in
//! SQLite nothing (one process owns the file, and its callers keep their own locks).

use crate::{Pool, Store, StoreError};

/// Held while the change is made; dropping it (or [`Exclusive::release`]) lets the next one in.
#[must_use = "the lock is released when dropped"]
pub struct Exclusive {
    tx: Option<sqlx::Transaction<'static, sqlx::Postgres>>,
}

impl std::fmt::Debug for Exclusive {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("Exclusive")
            .field("held", &self.tx.is_some())
            .finish()
    }
}

impl Store {
    /// Waits until no other holder of `name` (in any process on this database) is left, and
    /// holds it. Keep it short: it holds a connection of the pool.
    ///
    /// Errors: the database cannot be reached ([`StoreError::Database`]).
    pub async fn exclusive(&self, name: &str) -> Result<Exclusive, StoreError> {
        match &self.pool {
            Pool::Sqlite(_) => Ok(Exclusive { tx: None }),
            Pool::Postgres(pool) => {
                let mut tx = pool.begin().await?;
                sqlx::query("SELECT pg_advisory_xact_lock(hashtextextended($1, 0))")
                    .bind(name)
                    .execute(&mut *tx)
                    .await?;
                Ok(Exclusive { tx: Some(tx) })
            }
        }
    }
}

impl Exclusive {
    /// Lets the next holder in now (dropping the lock does too, a moment later).
    pub async fn release(self) {
        if let Some(tx) = self.tx {
            // A failure means the connection is gone: so is its lock.
            let _ = tx.commit().await;
        }
    }
}
