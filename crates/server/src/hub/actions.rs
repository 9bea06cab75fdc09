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
        let t = m.match_time(now);
        let ply = m.game.record().len();
        let (kind, detail, result) = match msg {
            ClientMessage::Resign => ("resign", String::new(), m.game.resign(seat, t).map(|_| ())),
            ClientMessage::OfferDraw => (
                "offer_draw",
                String::new(),
                m.game.agree_draw(seat, t).map(|_| ()),
            ),
            ClientMessage::WithdrawDraw => {
                m.game.withdraw_draw(seat);
                ("withdraw_draw", String::new(), Ok(()))
            }
            ClientMessage::ClaimDraw { claim } => {
                let c = match claim {
                    Claim::Repetition => DrawClaim::Repetition,
                    Claim::MoveCount => DrawClaim::MoveCount,
                };
                (
                    "claim_draw",
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
        fx.push(Effect::Store(StoreOp::Event {
            match_id: id.to_owned(),
            seq: m.events - 1,
            ply,
            seat: seat_index(seat) as u8,
            kind: kind.to_owned(),
            detail,
            at_ms: ms(t),
            action_id,
        }));
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
