//! A match leaving this hub while it is in progress: in a cluster, the node that runs it lost its
//! lease (another node owns it now), so it forgets the match at once and closes its watchers'
//! connections, whose clients reconnect and reach the new owner.

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
}
