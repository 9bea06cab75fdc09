//! Seats before the start: sitting, bots, standing up, the start itself; rematches.

use super::*;

impl Hub {
    pub(super) fn add_bot(
        &mut self,
        conn: ConnId,
        id: &str,
        seat: SeatName,
        level: Option<u8>,
        fx: &mut Vec<Effect>,
    ) {
        let seat = parse_seat(seat);
        let level = level.unwrap_or(*BOT_LEVELS.end());
        if !BOT_LEVELS.contains(&level) {
            fx.push(Effect::Send(
                vec![conn],
                error(
                    ErrorCode::BadMessage,
                    format!(
                        "a bot level is {} to {}",
                        BOT_LEVELS.start(),
                        BOT_LEVELS.end()
                    ),
                ),
            ));
            return;
        }
        let Some(m) = self.matches.get_mut(id) else {
            return;
        };
        if let Err((code, message)) = m.seat_free(seat) {
            fx.push(Effect::Send(vec![conn], error(code, message)));
            return;
        }
        if m.rated && !m.allow_bots {
            fx.push(Effect::Send(
                vec![conn],
                error(
                    ErrorCode::NotAllowed,
                    "this rated match was created without bots",
                ),
            ));
            return;
        }
        let name = format!("Bot {level}");
        m.seats[seat.index()] = Some(SeatHolder {
            name: name.clone(),
            token_hash: bot_marker(level),
            bot: Some(level),
            account: None,
        });
        fx.push(Effect::Store(Write::SetSeat {
            match_id: id.to_owned(),
            seat: seat.index() as u8,
            name,
            token_hash: bot_marker(level),
            bot: true,
        }));
        self.maybe_start(id, fx);
        self.broadcast_state(id, fx);
    }

    pub(super) fn sit(
        &mut self,
        conn: ConnId,
        id: &str,
        seat: SeatName,
        name: &str,
        fx: &mut Vec<Effect>,
    ) {
        let seat = parse_seat(seat);
        // A signed-in player sits under his account's name, whatever he typed.
        let account = self.conns.get(&conn).and_then(|c| c.account.clone());
        let name = match &account {
            Some(a) => a.username.as_str(),
            None => name.trim(),
        };
        if !lobby::valid_name(name) {
            fx.push(Effect::Send(
                vec![conn],
                error(
                    ErrorCode::BadMessage,
                    format!("a name has 1 to {MAX_NAME} printable characters"),
                ),
            ));
            return;
        }
        let token = self.random_id(24);
        let Some(m) = self.matches.get_mut(id) else {
            return;
        };
        if let Err((code, message)) = m.seat_free(seat) {
            fx.push(Effect::Send(vec![conn], error(code, message)));
            return;
        }
        if m.rated && account.is_none() {
            fx.push(Effect::Send(
                vec![conn],
                error(
                    ErrorCode::SignInRequired,
                    "this match is rated: sign in to sit",
                ),
            ));
            return;
        }
        let old = self.conns.get(&conn).and_then(|c| c.seat);
        // An account sits once per match (its other seat would be another connection's).
        if let Some(a) = &account {
            let elsewhere = Seat::ALL.into_iter().find(|s| {
                Some(*s) != old
                    && m.seats[(*s).index()]
                        .as_ref()
                        .is_some_and(|h| h.account == Some(a.id))
            });
            if let Some(other) = elsewhere {
                fx.push(Effect::Send(
                    vec![conn],
                    error(
                        ErrorCode::NotAllowed,
                        format!("{} already sits at {other} in this match", a.username),
                    ),
                ));
                return;
            }
        }
        // One seat per connection: leave the old one.
        if let Some(old) = old {
            let had_account = m.seats[old.index()]
                .take()
                .is_some_and(|h| h.account.is_some());
            fx.push(Effect::Store(Write::ClearSeat {
                match_id: id.to_owned(),
                seat: old.index() as u8,
            }));
            if had_account {
                fx.push(Effect::Store(Write::SetSeatAccount {
                    match_id: id.to_owned(),
                    seat: old.index() as u8,
                    account_id: None,
                }));
            }
        }
        let token_hash = hash_token(&token);
        m.seats[seat.index()] = Some(SeatHolder {
            name: name.to_owned(),
            token_hash: token_hash.clone(),
            bot: None,
            account: account.as_ref().map(|a| a.id),
        });
        fx.push(Effect::Store(Write::SetSeat {
            match_id: id.to_owned(),
            seat: seat.index() as u8,
            name: name.to_owned(),
            token_hash,
            bot: false,
        }));
        if let Some(a) = &account {
            fx.push(Effect::Store(Write::SetSeatAccount {
                match_id: id.to_owned(),
                seat: seat.index() as u8,
                account_id: Some(a.id),
            }));
        }
        if let Some(c) = self.conns.get_mut(&conn) {
            c.seat = Some(seat);
        }
        fx.push(Effect::Send(
            vec![conn],
            ServerMessage::Seated {
                seat: seat_name(seat),
                token,
            },
        ));
        self.maybe_start(id, fx);
        self.broadcast_state(id, fx);
    }

    pub(super) fn maybe_start(&mut self, id: &str, fx: &mut Vec<Effect>) {
        let now = self.now;
        let unix_now = self.unix_ms(now);
        let Some(m) = self.matches.get_mut(id) else {
            return;
        };
        if m.game.is_started() || m.seats.iter().any(Option::is_none) {
            return;
        }
        // The match starts when all four seats are filled; all four clocks start together
        // (F3.1, M6.4).
        m.epoch = now;
        m.ahead = Duration::ZERO;
        if m.game.start(Duration::ZERO).is_ok() {
            fx.push(Effect::Store(Write::StartMatch {
                match_id: id.to_owned(),
                started_at_ms: unix_now,
            }));
            fx.push(Effect::Store(Write::SetClockAnchor {
                match_id: id.to_owned(),
                anchor_ms: unix_now,
            }));
            self.schedule(id);
            self.bot_turns(id, fx);
        }
    }

    pub(super) fn stand(&mut self, conn: ConnId, id: &str, seat: Seat, fx: &mut Vec<Effect>) {
        let Some(m) = self.matches.get_mut(id) else {
            return;
        };
        if m.game.is_started() {
            fx.push(Effect::Send(
                vec![conn],
                error(
                    ErrorCode::NotAllowed,
                    "the match has started: resign instead",
                ),
            ));
            return;
        }
        let had_account = m.seats[seat.index()]
            .take()
            .is_some_and(|h| h.account.is_some());
        fx.push(Effect::Store(Write::ClearSeat {
            match_id: id.to_owned(),
            seat: seat.index() as u8,
        }));
        if had_account {
            fx.push(Effect::Store(Write::SetSeatAccount {
                match_id: id.to_owned(),
                seat: seat.index() as u8,
                account_id: None,
            }));
        }
        // Every connection of that seat loses it.
        for c in self.conns.values_mut() {
            if c.match_id.as_deref() == Some(id) && c.seat == Some(seat) {
                c.seat = None;
            }
        }
        self.broadcast_state(id, fx);
    }

    pub(super) fn rematch(&mut self, conn: ConnId, id: &str, swap: bool, fx: &mut Vec<Effect>) {
        let Some(m) = self.matches.get(id) else {
            return;
        };
        if !m.finished {
            fx.push(Effect::Send(
                vec![conn],
                error(ErrorCode::NotAllowed, "the match is not over"),
            ));
            return;
        }
        let slot = usize::from(swap);
        if let Some(existing) = m.rematch[slot].clone() {
            fx.push(Effect::Send(
                vec![conn],
                ServerMessage::Rematch { match_id: existing },
            ));
            return;
        }
        let rules = *m.game.rules();
        let tc = m.game.time_control();
        // Same teams: each team takes the other colours (WhiteA <-> BlackA, WhiteB <-> BlackB),
        // so partners stay partners. Swapped: the players of board B change places, so each
        // player gets a new partner.
        let mapping: [usize; 4] = if swap { [0, 1, 3, 2] } else { [1, 0, 3, 2] };
        let holders: Vec<Option<SeatHolder>> = m.seats.to_vec();
        let watchers = m.watchers.clone();
        let rated = (m.rated, m.allow_bots);
        let (new_id, mut created) = self.create_with(rules, tc, Some(id.to_owned()), rated);
        fx.append(&mut created);
        if let Some(nm) = self.matches.get_mut(&new_id) {
            for (old, holder) in holders.into_iter().enumerate() {
                if let Some(holder) = holder {
                    let new_seat = mapping[old];
                    fx.push(Effect::Store(Write::SetSeat {
                        match_id: new_id.clone(),
                        seat: new_seat as u8,
                        name: holder.name.clone(),
                        // The players keep their secret: the same token opens the new seat.
                        token_hash: holder.token_hash.clone(),
                        bot: holder.bot.is_some(),
                    }));
                    if let Some(account) = holder.account {
                        fx.push(Effect::Store(Write::SetSeatAccount {
                            match_id: new_id.clone(),
                            seat: new_seat as u8,
                            account_id: Some(account),
                        }));
                    }
                    nm.seats[new_seat] = Some(holder);
                }
            }
        }
        if let Some(m) = self.matches.get_mut(id) {
            m.rematch[slot] = Some(new_id.clone());
        }
        self.maybe_start(&new_id, fx);
        fx.push(Effect::Send(
            watchers,
            ServerMessage::Rematch { match_id: new_id },
        ));
    }
}
