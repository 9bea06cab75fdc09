//! A match one of whose writes the store refused (see `commit.rs`): the shard forgets it
//! (closing its watchers' connections), waits until everything handed over before is stored,
//! releases its held writes and restores it from the store. The hub then holds what the store
//! holds: the refused action and whatever followed it are gone, and were never acknowledged.

use std::time::Duration;

use crate::hub::{Effect, Hub};

use super::{load_match, stored, Loader};

impl Loader<'_> {
    /// Reloads a match from the store after a refused write; `refused` are the refused actions
    /// (seat index and client id). The player to move is charged his thinking up to `now`.
    pub(crate) async fn reload(
        &self,
        hub: &mut Hub,
        id: &str,
        refused: &[(u8, u64)],
        now: Duration,
    ) -> Vec<Effect> {
        let resume_at = hub.match_time_of(id, now);
        let mut fx = hub.drop_match(id);
        // The match's writes handed over after the refused one are refused too (held) before
        // it is released: its record has no gap.
        stored(self.commit_tx).await;
        self.writer.release(id);
        if self.cluster.is_some_and(|cluster| !cluster.owns(id)) {
            return fx;
        }
        match self.store.load_match(id).await {
            Ok(Some(stored)) => {
                fx.extend(load_match(hub, self.store, &stored, now, resume_at).await);
                hub.refuse_actions(id, refused);
                tracing::warn!(
                    match_id = %id,
                    moves = stored.moves.len(),
                    "reloaded from the store after a refused write"
                );
            }
            Ok(None) => {
                tracing::warn!(match_id = %id, "a refused write: the match is not stored");
                // A rematch whose creation was refused is offered no longer.
                hub.forget_rematch(id);
                // Its creation was refused: nobody owns it.
                if let Some(cluster) = self.cluster {
                    cluster.release_later(id.to_owned());
                }
            }
            Err(e) => {
                tracing::error!(match_id = %id, "a refused write, and the match cannot be read: {e}");
            }
        }
        fx
    }
}
