//! Server liveness: each node writes the time it is alive every second, so that after a crash
//! the clocks are charged up to its last sign of life, not for the downtime.

use crate::{Pool, Store, StoreError};

impl Store {
    /// Records that server `node` is alive at `alive_at_ms` (Unix milliseconds).
    pub async fn heartbeat(&self, node: &str, alive_at_ms: i64) -> Result<(), StoreError> {
        with_pool!(self, pool => {
            sqlx::query(
                "INSERT INTO heartbeats (node, alive_at_ms) VALUES ($1, $2) \
                 ON CONFLICT (node) DO UPDATE SET alive_at_ms = excluded.alive_at_ms",
            )
            .bind(node)
            .bind(alive_at_ms)
            .execute(pool)
            .await
            .map(drop)?
        });
        Ok(())
    }

    /// When server `node` was last alive (Unix milliseconds), if it ever wrote a heartbeat.
    pub async fn last_alive(&self, node: &str) -> Result<Option<i64>, StoreError> {
        Ok(with_pool!(self, pool => {
            sqlx::query_scalar("SELECT alive_at_ms FROM heartbeats WHERE node = $1")
                .bind(node)
                .fetch_optional(pool)
                .await?
        }))
    }
}
