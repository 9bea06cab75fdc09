//! What the property test checks: each delivered effect against everything before, and a
//! restarted hub against the match its clients were last shown.

use super::*;

impl World {
    /// Checks the effects of one input against everything before.
    pub(super) fn check(&mut self, fx: Vec<Effect>) {
        for effect in fx {
            match effect {
                Effect::Store(write) => {
                    match &write {
                        // A rematch's writes are stored with the others, not checked.
                        Write::RecordMove(mv) if mv.match_id == self.id => {
                            assert!(self.finishes == 0, "a move stored after the end: {mv:?}");
                            assert!(self.plies.insert(mv.ply), "ply {} stored twice", mv.ply);
                            if let Some(action) = mv.action_id {
                                assert!(
                                    self.actions.insert((mv.seat, action)),
                                    "action {action} of seat {} stored twice",
                                    mv.seat
                                );
                            }
                        }
                        Write::FinishMatch { match_id, .. } if *match_id == self.id => {
                            self.finishes += 1;
                            assert_eq!(self.finishes, 1, "the end stored twice");
                        }
                        _ => {}
                    }
                    self.writes.push(write);
                }
                Effect::Send(to, msg) => self.seen(to.contains(&SPECTATOR), msg),
                Effect::BotTurn(turn) => self.turns.push(turn),
                _ => {}
            }
        }
    }

    /// A message sent (`spectator`: to the spectator among others).
    fn seen(&mut self, spectator: bool, msg: ServerMessage) {
        if let ServerMessage::Ack { id, .. } = &msg {
            self.acked.insert(*id);
        }
        match msg {
            ServerMessage::Ack { id, .. } if self.move_ids.contains(&id) => {
                let stored = self.writes.iter().any(|w| {
                    matches!(w, Write::RecordMove(mv) if mv.action_id == i64::try_from(id).ok())
                });
                assert!(
                    stored,
                    "move {id} acknowledged before its row went to the store"
                );
            }
            ServerMessage::State { state, .. } => {
                if state.match_id != self.id {
                    return;
                }
                let [a, b] = state.boards;
                self.shown(0, a);
                self.shown(1, b);
                if spectator {
                    // A state is the whole match: its number is where the next event follows,
                    // above anything the watcher was told before (after a restart too).
                    assert!(
                        state.seq >= self.seq,
                        "a state numbered {} after event {}",
                        state.seq,
                        self.seq
                    );
                    self.seq = state.seq;
                }
                if let Some(result) = state.result {
                    self.reached(&result.result, &result.boards);
                }
            }
            ServerMessage::Moved {
                mv,
                board,
                other,
                seq,
                ..
            } => {
                let (b, o) = if board.board == "A" { (0, 1) } else { (1, 0) };
                self.shown(b, board);
                self.shown(o, other);
                if spectator {
                    assert!(self.told_plies.insert(mv.ply), "ply {} told twice", mv.ply);
                    self.numbered(seq);
                }
            }
            ServerMessage::Ended { result, seq, .. } if spectator => {
                self.numbered(seq);
                self.reached(&result.result, &result.boards);
            }
            ServerMessage::DrawOffers { seq, .. } if spectator => self.numbered(seq),
            _ => {}
        }
    }

    /// A board as a message showed it: the legal moves, which only the player to move is
    /// sent, are kept while the position stays.
    fn shown(&mut self, b: usize, board: BoardState) {
        let kept = self.boards[b]
            .as_ref()
            .is_some_and(|old| old.fen == board.fen && board.legal.is_none());
        if !kept {
            self.boards[b] = Some(board);
        }
    }

    fn numbered(&mut self, seq: u64) {
        assert_eq!(
            seq,
            self.seq + 1,
            "the spectator's events numbered without a gap"
        );
        self.seq = seq;
    }

    /// A result told: what was reached before stands.
    fn reached(&mut self, result: &str, boards: &[String; 2]) {
        if let Some(before) = &self.result {
            assert_eq!(before, result, "the match's result changed");
        } else if result != "*" {
            self.result = Some(result.to_owned());
        }
        for (i, r) in boards.iter().enumerate() {
            if let Some(before) = &self.board_results[i] {
                assert_eq!(before, r, "board {i}'s result changed");
            } else if r != "*" {
                self.board_results[i] = Some(r.clone());
            }
        }
    }
}

/// A server restarted at this moment, last known alive at server time `alive` (if known): the
/// match it restores from the store is the one the clients were last shown, and no clock lost
/// time to the stop.
pub(super) fn restarted(w: &mut World, alive: Option<Duration>) -> Hub {
    let stored = w.db.store_and_load(&w.writes, &w.id);
    let (shown_at, shown) = w.confirmed.clone().expect("a match shown");
    // Match time 0 as Unix time, from the clock anchor last stored.
    let anchor = w.writes.iter().rev().find_map(|write| match write {
        Write::SetClockAnchor {
            match_id,
            anchor_ms,
        } if *match_id == w.id => Some(*anchor_ms),
        _ => None,
    });
    let alive_at = match (alive, anchor) {
        (Some(t), Some(anchor)) => {
            let unix = UNIX_ZERO + i64::try_from(t.as_millis()).expect("small");
            u64::try_from(unix - anchor).ok().map(Duration::from_millis)
        }
        _ => None,
    };
    // A new process draws new randomness (for the ids of the matches it creates).
    w.restarts += 1;
    let mut fresh = Hub::new([w.restarts; 32]).with_unix_zero(UNIX_ZERO);
    let fx = fresh.restore(&stored, w.now, alive_at).expect("restored");
    w.pending.extend(fx);
    let back = fresh.public_state(&w.id, w.now).expect("restored");
    same_match(&back, &shown);
    assert_eq!(
        back.clocks.running, shown.clocks.running,
        "the clocks running"
    );
    let down = w.now.saturating_sub(shown_at).as_millis();
    for (i, seat) in SEATS.iter().enumerate() {
        let name: bughouse_protocol::SeatName = seat.parse().expect("a seat");
        let (before, after) = (shown.clocks.remaining_ms[i], back.clocks.remaining_ms[i]);
        if shown.clocks.running.contains(&name) {
            // Charged at most the time up to the stop.
            let least = before.saturating_sub(u64::try_from(down).expect("small"));
            assert!(after >= least, "{seat}'s clock: {after} ms after the restart, {before} ms {down} ms before the stop");
        } else {
            assert_eq!(after, before, "{seat}'s stopped clock");
        }
    }
    fresh
}

/// The same match: moves, positions, result and status.
fn same_match(back: &MatchState, seen: &MatchState) {
    let ucis = |s: &MatchState| -> Vec<String> { s.moves.iter().map(|m| m.uci.clone()).collect() };
    assert_eq!(ucis(back), ucis(seen), "the moves");
    for b in 0..2 {
        assert_eq!(back.boards[b].fen, seen.boards[b].fen, "board {b}");
    }
    assert_eq!(back.result, seen.result, "the result");
    assert_eq!(back.status, seen.status, "the status");
}
