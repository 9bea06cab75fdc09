//! Keeping and taking matches: the renewal of this node's leases (and the self-fence when it
//! cannot renew), the search for matches in progress that nobody owns, and the takeover of one:
//! its lease taken with `NX` (of several nodes trying, exactly one wins), then the match restored
//! from the store by its shard, through the same restore as after a restart.

use std::time::Instant;

use crate::runtime::ask;

use super::lease::{self, RENEW_EVERY, SCAN_EVERY, SELF_FENCE};
use super::{lock, Cluster};
use crate::runtime::Command;

/// Takes a match over if nobody owns it: true if this node now runs it. A match that is not in
/// progress (finished, unknown) is not kept: its lease is given back at once.
pub(crate) async fn take_over(cluster: &Cluster, match_id: &str) -> bool {
    if cluster.stopping() {
        return false;
    }
    let Some(app) = cluster.app() else {
        return false;
    };
    let previous = match lease::acquire(&mut cluster.redis(), cluster.node(), match_id).await {
        Ok(Some(previous)) => previous,
        Ok(None) => return false,
        Err(e) => {
            tracing::warn!(%match_id, "cannot take the lease: {e}");
            return false;
        }
    };
    adopt(cluster, app, match_id, previous).await
}

/// Takes back a match whose lease is in this node's name but that this process does not run:
/// its predecessor under the same node id died (a crash and a restart within a lease). It is
/// restored from the predecessor's last heartbeat, as a takeover is.
pub(crate) async fn take_back(cluster: &Cluster, match_id: &str) -> bool {
    if cluster.stopping() {
        return false;
    }
    let Some(app) = cluster.app() else {
        return false;
    };
    // Only the predecessor's (found at start), once.
    if !lock(&cluster.0.inherited).remove(match_id) {
        return false;
    }
    tracing::info!(%match_id, "taking back a match of this node id's predecessor");
    adopt(cluster, app, match_id, cluster.node().to_owned()).await
}

/// This node holds the lease of `match_id`: its shard restores the match.
async fn adopt(
    cluster: &Cluster,
    app: &crate::http::App,
    match_id: &str,
    previous: String,
) -> bool {
    let started = Instant::now();
    lock(&cluster.0.previous).insert(match_id.to_owned(), previous.clone());
    lock(&cluster.0.owned).insert(match_id.to_owned());
    let restored = ask(app.shards.of(match_id), |reply| Command::Adopt {
        id: match_id.to_owned(),
        reply,
    })
    .await
    .unwrap_or(false);
    lock(&cluster.0.previous).remove(match_id);
    if restored {
        tracing::info!(
            %match_id,
            previous = %previous,
            took_ms = started.elapsed().as_millis(),
            "match taken over"
        );
    } else {
        // Not in progress after all (it ended meanwhile), or it cannot be restored (logged by
        // its shard): the scan leaves it alone from now on.
        lock(&cluster.0.unrestorable).insert(match_id.to_owned());
        cluster.release_later(match_id.to_owned());
    }
    restored
}

/// Renews this node's leases every [`RENEW_EVERY`]; a lease found lost stops its match here at
/// once, and if no renewal succeeded for [`SELF_FENCE`] every match of this node stops.
pub(crate) async fn renewals(cluster: Cluster) {
    let mut every = tokio::time::interval(RENEW_EVERY);
    every.set_missed_tick_behavior(tokio::time::MissedTickBehavior::Delay);
    let mut last_ok = Instant::now();
    loop {
        every.tick().await;
        if cluster.stopping() {
            return;
        }
        let ids: Vec<String> = lock(&cluster.0.owned).iter().cloned().collect();
        let sent = Instant::now();
        let renewed = tokio::time::timeout(
            RENEW_EVERY,
            lease::renew(&mut cluster.redis(), cluster.node(), &ids),
        )
        .await;
        let lost = match renewed {
            Ok(Ok(lost)) => {
                last_ok = sent;
                lost
            }
            Ok(Err(e)) => {
                tracing::warn!("cannot renew the leases: {e}");
                Vec::new()
            }
            Err(_) => {
                tracing::warn!("the lease renewal timed out");
                Vec::new()
            }
        };
        let lost = if last_ok.elapsed() > SELF_FENCE {
            tracing::error!(
                matches = ids.len(),
                "no lease renewed for {} ms: stopping every match of this node",
                last_ok.elapsed().as_millis()
            );
            ids
        } else {
            lost
        };
        for id in lost {
            stop_match(&cluster, id).await;
        }
    }
}

/// This node lost a match's lease: its shard drops the match (closing its connections) and
/// never writes for it again.
async fn stop_match(cluster: &Cluster, match_id: String) {
    if !lock(&cluster.0.owned).remove(&match_id) {
        return;
    }
    tracing::warn!(%match_id, "lease lost: the match stops here");
    if let Some(app) = cluster.app() {
        let _ = app
            .shards
            .of(&match_id)
            .send(Command::Drop { id: match_id })
            .await;
    }
}

/// Every [`SCAN_EVERY`]: the matches waiting or in progress whose lease nobody holds are taken
/// over (the nodes race for each; one wins), and those whose lease is in this node's name but
/// not in its memory are taken back (a restart under the same id).
pub(crate) async fn scan(cluster: Cluster) {
    let mut every = tokio::time::interval(SCAN_EVERY);
    every.set_missed_tick_behavior(tokio::time::MissedTickBehavior::Delay);
    loop {
        every.tick().await;
        if cluster.stopping() {
            return;
        }
        let Some(app) = cluster.app() else {
            continue;
        };
        let ids = match app.store.live_match_ids().await {
            Ok(ids) => ids,
            Err(e) => {
                tracing::warn!("cannot list the matches in progress: {e}");
                continue;
            }
        };
        let ids: Vec<String> = {
            let skip = lock(&cluster.0.unrestorable);
            ids.into_iter()
                .filter(|id| !cluster.owns(id) && !skip.contains(id))
                .collect()
        };
        let holders = match lease::holders(&mut cluster.redis(), &ids).await {
            Ok(h) => h,
            Err(e) => {
                tracing::warn!("cannot read the leases: {e}");
                continue;
            }
        };
        for (id, holder) in ids.iter().zip(holders) {
            match holder {
                None => {
                    take_over(&cluster, id).await;
                }
                Some(h) if h == cluster.node() => {
                    take_back(&cluster, id).await;
                }
                Some(_) => {}
            }
        }
    }
}
