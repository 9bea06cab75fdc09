//! A match leaving this hub while it is in progress: in a cluster, the node that runs it lost its
//! lease (another node owns it now), so it forgets the match at once and closes its watchers'
//! connections, whose clients reconnect and reach the new owner. Also a match the store refused
//! a write of: forgotten the same way, and restored from the store (the runtime's
//! `Command::Reload`), its refused actions remembered as such.

use super::*;

impl Hub {
    /// Forgets a match without ending it (nothing is stored): its watchers' connections are
    /// closed and its flags and bots are no longer looked at.
    pub fn drop_match(&mut self, match_id: &str) -> Vec<Effect> {
        let Some(m) = self.matches.remove(match_id) else {
            return Vec::new();
        };
        if let Some(t) = self.deadline_of.remove(match_id) {
            self.deadlines.remove(&(t, match_id.to_owned()));
        }
        self.finished.remove(match_id);
        self.bots_pending.remove(match_id);
        let mut fx = Vec::with_capacity(m.watchers.len());
        for conn in m.watchers {
            if let Some(c) = self.conns.get_mut(&conn) {
                c.match_id = None;
                c.seat = None;
            }
            fx.push(Effect::Close(conn));
        }
        self.lobby_changed();
        fx
    }

    /// The connections watching a match in memory (none if it is not in memory).
    pub fn watchers_of(&self, match_id: &str) -> &[ConnId] {
        self.matches
            .get(match_id)
            .map_or(&[][..], |m| m.watchers.as_slice())
    }

    /// The match a connection watches, if any.
    pub fn match_of(&self, conn: ConnId) -> Option<&str> {
        self.conns.get(&conn)?.match_id.as_deref()
    }

    /// Forgets the rematch `rematch_id` wherever it was offered: the store refused its
    /// creation, so there is no such match to send players to.
    pub fn forget_rematch(&mut self, rematch_id: &str) {
        for m in self.matches.values_mut() {
            for slot in &mut m.rematch {
                if slot.as_deref() == Some(rematch_id) {
                    *slot = None;
                }
            }
        }
    }

    /// The match time of a match in memory at server time `now`.
    pub fn match_time_of(&self, match_id: &str, now: Duration) -> Option<Duration> {
        Some(self.matches.get(match_id)?.match_time(now))
    }

    /// Remembers actions (seat index and client id) the store refused: sent again, each is
    /// answered with `not_stored` and not applied (it would be refused again).
    pub fn refuse_actions(&mut self, match_id: &str, refused: &[(u8, u64)]) {
        let Some(m) = self.matches.get_mut(match_id) else {
            return;
        };
        for &(seat, id) in refused {
            if let Some(recent) = m.recent.get_mut(usize::from(seat)) {
                remember(
                    recent,
                    Recent {
                        id,
                        lag_ms: None,
                        refused: true,
                    },
                );
            }
        }
    }
}
