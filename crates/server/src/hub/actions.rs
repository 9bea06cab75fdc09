//! Resignation, draw offers and their withdrawal, draw claims: stored as events.

use super::*;

impl Hub {
    pub(super) fn action(
        &mut self,
        conn: ConnId,
        id: &str,
        seat: Seat,
        msg: ClientMessage,
        fx: &mut Vec<Effect>,
    ) {
        let before = self.snapshot(id);
        let now = self.now;
        let action_id = self.action;
        let Some(m) = self.matches.get_mut(id) else {
            return;
        };
        if m.finished {
            fx.push(Effect::Send(
                vec![conn],
                error(ErrorCode::GameOver, "the match is over"),
            ));
            return;
        }
        if !m.game.is_started() {
            // Nothing to resign, offer, withdraw or claim yet (and the store takes events of
            // playing matches only).
            fx.push(Effect::Send(
                vec![conn],
                error(ErrorCode::NotAllowed, "the match has not started"),
            ));
            return;
        }
        let t = m.match_time(now);
        let ply = m.game.record().len();
        let (kind, detail, result) = match msg {
            ClientMessage::Resign => (
                EventKind::Resign,
                String::new(),
                m.game.resign(seat, t).map(|_| ()),
            ),
            ClientMessage::OfferDraw => (
                EventKind::OfferDraw,
                String::new(),
                m.game.agree_draw(seat, t).map(|_| ()),
            ),
            ClientMessage::WithdrawDraw => {
                m.game.withdraw_draw(seat);
                (EventKind::WithdrawDraw, String::new(), Ok(()))
            }
            ClientMessage::ClaimDraw { claim } => {
                let c = match claim {
                    Claim::Repetition => DrawClaim::Repetition,
                    Claim::MoveCount => DrawClaim::MoveCount,
                };
                (
                    EventKind::ClaimDraw,
                    claim.as_str().to_owned(),
                    m.game.claim_draw(seat, c, t),
                )
            }
            _ => return,
        };
        if let Err(e) = result {
            let code = match e {
                MatchError::MatchOver | MatchError::GameOver(_) => ErrorCode::GameOver,
                _ => ErrorCode::NotAllowed,
            };
            fx.push(Effect::Send(vec![conn], error(code, e.to_string())));
            self.after_change(id, before, fx);
            return;
        }
        m.events += 1;
        fx.push(Effect::Store(Write::RecordEvent(
            bughouse_store::StoredEvent {
                match_id: id.to_owned(),
                seq: i(m.events as u64 - 1),
                ply: i(ply as u64),
                seat: seat.index() as u8,
                kind: kind.as_str().to_owned(),
                detail,
                at_ms: i(ms(t)),
                action_id: action_id.map(i),
            },
        )));
        let offers: Vec<SeatName> = Seat::ALL
            .into_iter()
            .filter(|s| m.game.draw_offered(*s))
            .map(seat_name)
            .collect();
        let seq = m.next_seq();
        fx.push(Effect::Send(
            m.watchers.clone(),
            ServerMessage::DrawOffers { seats: offers, seq },
        ));
        self.after_change(id, before, fx);
    }
}
