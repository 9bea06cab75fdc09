//! A match one of whose writes the store refused (see `commit.rs`): the shard forgets it
//! (closing its watchers' connections), waits until everything handed over before is stored,
//! releases its held writes and restores it from the store. The hub then holds what the store
//! holds: the refused action and whatever followed it are gone, and were never acknowledged.

use std::collections::HashMap;
use std::time::Duration;

use tokio::sync::mpsc;

use crate::hub::{Effect, Hub};

use super::{load_match, stored, Command, Loader};

/// Reloads of one match closer together than this count as one run.
const RELOAD_RUN: Duration = Duration::from_secs(10);
/// The most reloads of a run that restore the match at once. A restore writes too (the clock
/// anchor, a flag that fell meanwhile), and a store that keeps refusing that write would have
/// the shard reload the match again and again; past this the match is forgotten and restored
/// only when someone asks for it (a `hello`, from a client that reconnects).
const RELOADS_IN_A_RUN: u32 = 3;

/// How often each match was reloaded lately: whether a reload restores it at once.
#[derive(Default)]
pub(crate) struct Reloads(HashMap<String, (u32, Duration)>);

impl Reloads {
    /// Counts a reload of `id` at server time `now`; whether it restores the match at once.
    pub(crate) fn restore_now(&mut self, id: &str, now: Duration) -> bool {
        self.0
            .retain(|_, (_, last)| now.saturating_sub(*last) < RELOAD_RUN);
        let (count, last) = self.0.entry(id.to_owned()).or_insert((0, now));
        *count += 1;
        *last = now;
        *count <= RELOADS_IN_A_RUN
    }
}

/// Puts the reloads waiting (`first`, then those still in `reloads`) ahead of the batch taken
/// from the shard's inbox. Each was queued before its match's watchers were closed, so before
/// the `hello` of any of them that reconnected, however full the inbox was: that `hello` finds
/// the match reloaded.
pub(crate) fn first(
    batch: &mut Vec<Command>,
    mut first: Vec<Command>,
    reloads: &mut mpsc::UnboundedReceiver<Command>,
) {
    while let Ok(reload) = reloads.try_recv() {
        first.push(reload);
    }
    if !first.is_empty() {
        batch.splice(0..0, first);
    }
}

impl Loader<'_> {
    /// Reloads a match from the store after a refused write; `refused` are the refused actions
    /// (seat index and client id). The player to move is charged his thinking up to `now`.
    /// Without `restore`, the match is only forgotten and released (see [`Reloads`]): a later
    /// `hello` loads it.
    pub(crate) async fn reload(
        &self,
        hub: &mut Hub,
        id: &str,
        refused: &[(u8, u64)],
        now: Duration,
        restore: bool,
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
        if !restore {
            tracing::error!(
                match_id = %id,
                "writes refused again and again: the match is restored when asked for"
            );
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

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_match_reloaded_again_and_again_waits_to_be_asked_for() {
        let mut reloads = Reloads::default();
        let s = Duration::from_secs;
        // Three in a run restore at once; the fourth does not, nor the ones close after it.
        assert!(reloads.restore_now("a", s(0)));
        assert!(reloads.restore_now("a", s(1)));
        assert!(reloads.restore_now("b", s(1)));
        assert!(reloads.restore_now("a", s(2)));
        assert!(!reloads.restore_now("a", s(3)));
        assert!(!reloads.restore_now("a", s(12)));
        // Another match counts on its own; a pause as long as a run starts afresh.
        assert!(reloads.restore_now("b", s(13)));
        assert!(reloads.restore_now("a", s(22)));
        assert_eq!(reloads.0.len(), 2);
        assert!(reloads.restore_now("c", s(40)));
        assert_eq!(reloads.0.len(), 1, "the old runs are forgotten");
    }

    #[test]
    fn reloads_go_ahead_of_the_batch_in_the_order_they_came() {
        let reload = |id: &str| Command::Reload {
            match_id: id.to_owned(),
            refused: Vec::new(),
        };
        let (tx, mut reloads) = mpsc::unbounded_channel();
        tx.send(reload("b")).expect("open");
        tx.send(reload("c")).expect("open");
        // A reconnected client's first words, in the inbox's batch.
        let mut batch = vec![
            Command::Rtt(7, Duration::ZERO),
            Command::Drop { id: "x".into() },
        ];
        first(&mut batch, vec![reload("a")], &mut reloads);
        let order: Vec<String> = batch
            .iter()
            .map(|c| match c {
                Command::Reload { match_id, .. } => format!("reload {match_id}"),
                Command::Rtt(conn, _) => format!("rtt {conn}"),
                Command::Drop { id } => format!("drop {id}"),
                _ => "other".to_owned(),
            })
            .collect();
        assert_eq!(
            order,
            ["reload a", "reload b", "reload c", "rtt 7", "drop x"]
        );
        // Nothing waiting: the batch stays as it is.
        first(&mut batch, Vec::new(), &mut reloads);
        assert_eq!(batch.len(), 5);
    }
}
