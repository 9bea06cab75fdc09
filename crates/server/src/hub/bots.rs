//! Bot seats: asking a bot for its move, taking its answer and its talk.

use super::*;

impl Hub {
    /// Asks every bot of the match whose move it is: on a new turn, and, when it sat, once
    /// something changed (a move on the other board, a word from its partner).
    pub(super) fn bot_turns(&mut self, id: &str, fx: &mut Vec<Effect>) {
        let now = self.now;
        let Some(m) = self.matches.get_mut(id) else {
            return;
        };
        if m.finished || !m.game.is_started() || m.game.is_over() {
            return;
        }
        let at = m.match_time(now);
        let total = m.game.record().len();
        for seat in Seat::ALL {
            let i = seat.index();
            let Some(level) = m.seats[i].as_ref().and_then(|h| h.bot) else {
                continue;
            };
            if m.game.game_end(seat.board).is_some() || m.game.to_move(seat.board) != seat {
                m.bots[i].sitting = false;
                continue;
            }
            let ply = board_plies(&m.game, seat.board);
            let b = &mut m.bots[i];
            let due = match b.asked {
                None => true,
                Some((p, t)) => p != ply || (b.sitting && (t != total || !b.heard.is_empty())),
            };
            if !due {
                continue;
            }
            b.asked = Some((ply, total));
            b.sitting = false;
            fx.push(Effect::BotTurn(BotTurn {
                match_id: id.to_owned(),
                seat,
                level,
                ply,
                game: Box::new(m.game.clone()),
                at,
                heard: std::mem::take(&mut b.heard),
            }));
        }
    }

    /// A bot answered: what it says goes to its partner, then its move is played (or it sits).
    /// An answer to a turn that has passed is dropped.
    pub(super) fn bot_reply(&mut self, reply: BotReply, fx: &mut Vec<Effect>) {
        let BotReply {
            match_id: id,
            seat,
            ply,
            uci,
            talk,
        } = reply;
        let i = seat.index();
        let Some(m) = self.matches.get(&id) else {
            return;
        };
        if m.seats[i].as_ref().and_then(|h| h.bot).is_none() || m.finished {
            return;
        }
        let allowed = talk_kinds(m.game.rules());
        for (kind, piece) in talk {
            if allowed.contains(&kind) && kind != TalkKind::Text {
                self.deliver_talk(&id, seat, kind, piece, None, fx);
            }
        }
        let Some(m) = self.matches.get_mut(&id) else {
            return;
        };
        if m.game.to_move(seat.board) != seat
            || board_plies(&m.game, seat.board) != ply
            || m.game.game_end(seat.board).is_some()
        {
            return;
        }
        match uci {
            Some(uci) => {
                if !self.play_as(None, &id, seat, &uci, Duration::ZERO, fx) {
                    // Not playable (it should never happen): look again when anything changes.
                    if let Some(m) = self.matches.get_mut(&id) {
                        m.bots[i].sitting = true;
                    }
                }
            }
            None => m.bots[i].sitting = true,
        }
    }
}
