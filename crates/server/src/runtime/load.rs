//! Loading a match that is not in memory from the store: a finished one (evicted), or, in a
//! cluster, one this node has just taken over; and a view of a match another node runs.

use std::time::Duration;

use bughouse_store::Store;
use tokio::sync::mpsc;

use super::*;
use crate::app::ServerClock;
use crate::cluster::Cluster;
use crate::hub::{Effect, Hub};

/// What loading a match needs: the store, the committer (to wait for what it holds), the
/// cluster (who owns what) and where server time stands.
pub(crate) struct Loader<'a> {
    pub(crate) store: &'a Store,
    /// The way to the database (whose matches held after a refused write are released on
    /// reload).
    pub(crate) writer: &'a Writer,
    pub(crate) commit_tx: &'a mpsc::Sender<Commit>,
    pub(crate) cluster: Option<&'a Cluster>,
    pub(crate) clock: ServerClock,
}

/// A match loaded from the store.
#[derive(Default)]
pub(crate) struct Loaded {
    /// The effects of its restore.
    pub(crate) fx: Vec<Effect>,
    /// In a cluster, a match in progress that another node owns: read, not restored here.
    pub(crate) elsewhere: Option<Box<bughouse_store::StoredMatch>>,
    /// It was restored here and is in progress.
    pub(crate) live: bool,
}

/// A view of a stored match computed on a hub of its own, thrown away after (a match in
/// progress on another node: every acknowledged move is in the store).
pub(super) fn scratch<T>(
    stored: &bughouse_store::StoredMatch,
    clock: ServerClock,
    now: Duration,
    view: impl FnOnce(&Hub) -> Option<T>,
) -> Option<T> {
    let mut hub = Hub::new([0; 32]).with_unix_zero(clock.unix_ms);
    hub.restore(stored, now, None).ok()?;
    view(&hub)
}

impl Loader<'_> {
    /// Loads a match that is not in memory from the store: a finished one (evicted), or, in a
    /// cluster, one this node has just taken over, whose clocks resume from its last owner's
    /// last heartbeat.
    pub(crate) async fn load(&self, hub: &mut Hub, id: &str, now: Duration) -> Loaded {
        if hub.has_match(id) || id.len() > 64 {
            return Loaded::default();
        }
        // The database must first have what the hub handed over (the end of an evicted match).
        stored(self.commit_tx).await;
        let stored = match self.store.load_match(id).await {
            Ok(Some(stored)) => stored,
            Ok(None) => return Loaded::default(),
            Err(e) => {
                tracing::error!(match_id = %id, "cannot load: {e}");
                return Loaded::default();
            }
        };
        let live = stored.status != bughouse_store::MatchStatus::Finished;
        let mut alive_at = None;
        if let (true, Some(cluster)) = (live, self.cluster) {
            if !cluster.owns(id) {
                return Loaded {
                    elsewhere: Some(Box::new(stored)),
                    ..Loaded::default()
                };
            }
            if let Some(previous) = cluster.previous_owner(id) {
                // This node id's own predecessor: its heartbeat as read before this process
                // wrote one.
                let last = match cluster.own_last_alive(&previous) {
                    Some(last) => Ok(last),
                    None => self.store.last_alive(&previous).await,
                };
                match last {
                    Ok(last) => alive_at = self.clock.alive_at(last, stored.clock_anchor_ms),
                    Err(e) => tracing::error!(%previous, "cannot read the heartbeat: {e}"),
                }
            }
        }
        let fx = load_match(hub, self.store, &stored, now, alive_at).await;
        Loaded {
            fx,
            elsewhere: None,
            live: live && hub.has_match(id),
        }
    }
}

/// Restores a match read from the store (resuming at `alive_at`, or its last record); the
/// effects of its restore.
pub(crate) async fn load_match(
    hub: &mut Hub,
    store: &Store,
    stored: &bughouse_store::StoredMatch,
    now: Duration,
    alive_at: Option<Duration>,
) -> Vec<Effect> {
    let id = stored.id.as_str();
    match hub.restore(stored, now, alive_at) {
        Ok(fx) => {
            if hub.wants_rating_changes(id) {
                // A rated match shows what it changed, after a reload too.
                let players = store.match_rating_changes(id).await;
                let teams = store.match_team_rating_changes(id).await;
                match (players, teams) {
                    (Ok(players), Ok(teams)) => {
                        hub.set_stored_rating_changes(id, &players, &teams);
                    }
                    (Err(e), _) | (_, Err(e)) => {
                        tracing::error!(match_id = %id, "cannot read the rating changes: {e}");
                    }
                }
            }
            fx
        }
        Err(e) => {
            tracing::error!(match_id = %id, "cannot load: {e}");
            Vec::new()
        }
    }
}
