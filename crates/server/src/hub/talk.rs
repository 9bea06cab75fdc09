//! Partner talk: checked against the rulebook's kinds, stored, sent to the team only.

use super::*;

impl Hub {
    #[allow(clippy::too_many_arguments)]
    pub(super) fn talk(
        &mut self,
        conn: ConnId,
        id: &str,
        seat: Seat,
        kind: TalkKind,
        piece: Option<Piece>,
        text: Option<String>,
        fx: &mut Vec<Effect>,
    ) {
        let Some(m) = self.matches.get(id) else {
            return;
        };
        if !talk_kinds(m.game.rules()).contains(&kind) {
            fx.push(Effect::Send(
                vec![conn],
                error(
                    ErrorCode::NotAllowed,
                    format!("{kind:?} is not allowed under {}", m.preset),
                ),
            ));
            return;
        }
        let piece = match (kind, piece) {
            (TalkKind::Need | TalkKind::DontGive, Some(p)) => Some(p),
            (TalkKind::Need | TalkKind::DontGive, _) => {
                fx.push(Effect::Send(
                    vec![conn],
                    error(ErrorCode::BadMessage, "name the piece: P, N, B, R or Q"),
                ));
                return;
            }
            _ => None,
        };
        let text = match (kind, text) {
            (TalkKind::Text, Some(t)) => {
                let t = t.trim().to_owned();
                if t.is_empty() || t.chars().count() > MAX_CHAT {
                    fx.push(Effect::Send(
                        vec![conn],
                        error(
                            ErrorCode::BadMessage,
                            format!("a message has 1 to {MAX_CHAT} characters"),
                        ),
                    ));
                    return;
                }
                Some(t)
            }
            (TalkKind::Text, None) => {
                fx.push(Effect::Send(
                    vec![conn],
                    error(ErrorCode::BadMessage, "text is missing"),
                ));
                return;
            }
            _ => None,
        };
        self.deliver_talk(id, seat, kind, piece, text, fx);
    }

    /// Sends a partner message from `from` to its partner: to the partner's connections, or
    /// into the partner bot's ears (and the bot looks again if it sat).
    pub(super) fn deliver_talk(
        &mut self,
        id: &str,
        from: Seat,
        kind: TalkKind,
        piece: Option<Piece>,
        text: Option<String>,
        fx: &mut Vec<Effect>,
    ) {
        let now = self.now;
        let action_id = self.action;
        let Some(m) = self.matches.get_mut(id) else {
            return;
        };
        let partner = from.partner();
        let is_bot = |s: Seat| m.seats[s.index()].as_ref().is_some_and(|h| h.bot.is_some());
        let (partner_is_bot, both_bots) = (is_bot(partner), is_bot(partner) && is_bot(from));
        if partner_is_bot && kind != TalkKind::Text {
            m.bots[partner.index()].heard.push((kind, piece));
        }
        if both_bots {
            // Nobody reads two bots' talk (spectators never see a team's talk): not kept.
            self.bot_turns(id, fx);
            return;
        }
        let entry = TalkEntry {
            n: m.talk.len() as u64,
            from: seat_name(from),
            kind,
            piece,
            text,
            at_ms: ms(m.match_time(now)),
        };
        m.talk.push((from, entry.clone()));
        fx.push(Effect::Store(Write::RecordTalk(
            bughouse_store::StoredTalk {
                match_id: id.to_owned(),
                seq: i(entry.n),
                seat: from.index() as u8,
                kind: entry.kind.as_str().to_owned(),
                piece: entry.piece.map(|p| p.as_str().to_owned()),
                text: entry.text.clone(),
                at_ms: i(entry.at_ms),
                action_id: action_id.map(i),
            },
        )));
        // Only the two partners: never the opponents, never spectators.
        let team = [from, partner];
        let to: Vec<ConnId> = m
            .watchers
            .iter()
            .copied()
            .filter(|w| {
                self.conns
                    .get(w)
                    .and_then(|c| c.seat)
                    .is_some_and(|s| team.contains(&s))
            })
            .collect();
        if !to.is_empty() {
            fx.push(Effect::Send(to, ServerMessage::Talk { entry }));
        }
        self.bot_turns(id, fx);
    }
}
