//! Connections: frames read and checked (size, rate, schema), actions acknowledged and resent
//! ones answered again, `hello`, leaving.

use super::*;

impl Hub {
    pub(super) fn refuse(&mut self, conn: ConnId, fx: &mut Vec<Effect>) {
        if let Some(c) = self.conns.get_mut(&conn) {
            c.refusals += 1;
            if c.refusals > MAX_REFUSALS {
                fx.push(Effect::Close(conn));
            }
        }
    }

    pub(super) fn disconnect(&mut self, conn: ConnId, fx: &mut Vec<Effect>) {
        let Some(c) = self.conns.remove(&conn) else {
            return;
        };
        if let Some(id) = c.match_id {
            if let Some(m) = self.matches.get_mut(&id) {
                m.watchers.retain(|w| *w != conn);
                if c.seat.is_some() {
                    self.broadcast_seats(&id, None, fx);
                }
            }
        }
    }

    pub(super) fn frame(
        &mut self,
        conn: ConnId,
        frame: Result<ClientFrame, FrameError>,
        fx: &mut Vec<Effect>,
    ) {
        let now = self.now;
        let Some(c) = self.conns.get_mut(&conn) else {
            return;
        };
        // Token bucket.
        let elapsed = now.saturating_sub(c.last_refill).as_secs_f64();
        c.tokens = (c.tokens + elapsed * RATE_PER_SEC).min(RATE_BURST);
        c.last_refill = now;
        if c.tokens < 1.0 {
            fx.push(Effect::Send(
                vec![conn],
                error(ErrorCode::RateLimited, "too many messages; slow down"),
            ));
            self.refuse(conn, fx);
            return;
        }
        c.tokens -= 1.0;
        let ClientFrame { id, msg } = match frame {
            Ok(frame) => frame,
            Err(FrameError { code, message }) => {
                fx.push(Effect::Send(vec![conn], error(code, message)));
                self.refuse(conn, fx);
                return;
            }
        };
        let acts = !matches!(
            msg,
            ClientMessage::Hello { .. } | ClientMessage::Ping { .. }
        );
        let id = id.filter(|_| acts);
        if let Some(id) = id {
            if self.answer_again(conn, id, fx) {
                return;
            }
        }
        let before = fx.len();
        self.action = id;
        self.last_lag = None;
        self.message(conn, msg, fx);
        self.action = None;
        let mut refused = false;
        for e in &mut fx[before..] {
            if let Effect::Send(to, ServerMessage::Error { id: err_id, .. }) = e {
                if to == &[conn] {
                    refused = true;
                    *err_id = id;
                }
            }
        }
        if let Some(c) = self.conns.get_mut(&conn) {
            if refused {
                c.refusals += 1;
            } else {
                c.refusals = 0;
            }
        }
        if let (Some(id), false) = (id, refused) {
            self.acknowledge(conn, id, fx);
        }
    }

    /// An action id this connection's seat has had acknowledged: the same `ack` again, and
    /// nothing applied.
    pub(super) fn answer_again(&self, conn: ConnId, id: u64, fx: &mut Vec<Effect>) -> bool {
        let Some((m, seat)) = self.conns.get(&conn).and_then(|c| {
            let m = self.matches.get(c.match_id.as_deref()?)?;
            Some((m, c.seat?))
        }) else {
            return false;
        };
        let Some(done) = m.recent[seat.index()].iter().find(|r| r.id == id) else {
            return false;
        };
        if done.refused {
            fx.push(Effect::Send(
                vec![conn],
                ServerMessage::Error {
                    code: ErrorCode::NotStored,
                    message: "the server could not store this action: it was not applied".into(),
                    id: Some(id),
                },
            ));
            return true;
        }
        fx.push(Effect::Send(
            vec![conn],
            ServerMessage::Ack {
                id,
                seq: m.seq,
                lag_ms: done.lag_ms,
            },
        ));
        true
    }

    /// Acknowledges an action that was applied (its effects are stored before the `ack` is
    /// sent) and remembers its id for the seat.
    pub(super) fn acknowledge(&mut self, conn: ConnId, id: u64, fx: &mut Vec<Effect>) {
        let lag_ms = self.last_lag.take().map(ms);
        let seat = self.conns.get(&conn).and_then(|c| c.seat);
        let m = self
            .conns
            .get(&conn)
            .and_then(|c| c.match_id.as_deref())
            .and_then(|mid| self.matches.get_mut(mid));
        let seq = match m {
            Some(m) => {
                if let Some(seat) = seat {
                    remember(
                        &mut m.recent[seat.index()],
                        Recent {
                            id,
                            lag_ms,
                            refused: false,
                        },
                    );
                }
                m.seq
            }
            None => 0,
        };
        fx.push(Effect::Send(
            vec![conn],
            ServerMessage::Ack { id, seq, lag_ms },
        ));
    }

    pub(super) fn message(&mut self, conn: ConnId, msg: ClientMessage, fx: &mut Vec<Effect>) {
        let now = self.now;
        match msg {
            ClientMessage::Ping { t } => {
                let c = self.conns.get(&conn);
                let lag_ms = c.and_then(|c| c.rtt).map(|rtt| ms(rtt / 2));
                let quota_ms = c
                    .and_then(|c| Some((self.matches.get(c.match_id.as_deref()?)?, c.seat?)))
                    .map(|(m, seat)| ms(m.lag[seat.index()].quota));
                fx.push(Effect::Send(
                    vec![conn],
                    ServerMessage::Pong {
                        t,
                        server_ms: ms(now),
                        lag_ms,
                        quota_ms,
                    },
                ));
            }
            ClientMessage::Hello { match_id, token } => self.hello(conn, &match_id, token, fx),
            other => {
                let Some((id, seat)) = self
                    .conns
                    .get(&conn)
                    .and_then(|c| c.match_id.clone().map(|id| (id, c.seat)))
                else {
                    fx.push(Effect::Send(
                        vec![conn],
                        error(ErrorCode::BadMessage, "send hello with a match id first"),
                    ));
                    return;
                };
                match other {
                    ClientMessage::Sit {
                        seat: name,
                        name: player,
                    } => self.sit(conn, &id, name, &player, fx),
                    ClientMessage::AddBot { seat, level } => {
                        self.add_bot(conn, &id, seat, level, fx);
                    }
                    ClientMessage::Hello { .. } | ClientMessage::Ping { .. } => {}
                    // Everything else is a seat's action: checked here once.
                    seated => {
                        let Some(seat) = seat else {
                            fx.push(Effect::Send(
                                vec![conn],
                                error(ErrorCode::NotSeated, "only a seated player can do that"),
                            ));
                            return;
                        };
                        match seated {
                            ClientMessage::Stand => self.stand(conn, &id, seat, fx),
                            ClientMessage::Move { uci } => self.play(conn, &id, seat, &uci, fx),
                            ClientMessage::Talk { kind, piece, text } => {
                                self.talk(conn, &id, seat, kind, piece, text, fx)
                            }
                            ClientMessage::Rematch { swap } => {
                                self.rematch(conn, &id, swap, fx);
                            }
                            action => self.action(conn, &id, seat, action, fx),
                        }
                    }
                }
            }
        }
    }

    pub(super) fn hello(
        &mut self,
        conn: ConnId,
        match_id: &str,
        token: Option<String>,
        fx: &mut Vec<Effect>,
    ) {
        if !self.matches.contains_key(match_id) {
            fx.push(Effect::Send(
                vec![conn],
                error(ErrorCode::NoSuchMatch, format!("no match {match_id:?}")),
            ));
            return;
        }
        // Leave any match this connection watched before.
        let previous = self.conns.get(&conn).and_then(|c| c.match_id.clone());
        if let Some(prev) = previous.filter(|p| p != match_id) {
            if let Some(pm) = self.matches.get_mut(&prev) {
                pm.watchers.retain(|w| *w != conn);
            }
        }
        let Some(m) = self.matches.get_mut(match_id) else {
            return;
        };
        if !m.watchers.contains(&conn) {
            m.watchers.push(conn);
        }
        let seat = token.as_deref().map(hash_token).and_then(|h| {
            Seat::ALL.into_iter().find(|s| {
                m.seats[(*s).index()]
                    .as_ref()
                    .is_some_and(|holder| holder.token_hash == h)
            })
        });
        let bad_token = token.is_some() && seat.is_none();
        if let Some(c) = self.conns.get_mut(&conn) {
            c.match_id = Some(match_id.to_owned());
            c.seat = seat;
        }
        if bad_token {
            fx.push(Effect::Send(
                vec![conn],
                error(
                    ErrorCode::BadToken,
                    format!("the token opens no seat of match {match_id}: you are watching"),
                ),
            ));
        }
        if let (Some(seat), Some(rtt)) = (seat, self.conns.get(&conn).and_then(|c| c.rtt)) {
            if let Some(m) = self.matches.get_mut(match_id) {
                m.lag[seat.index()].estimate = Some(rtt / 2);
            }
        }
        self.send_state(conn, match_id, fx);
        if seat.is_some() {
            // The others see him connected again.
            self.broadcast_seats(match_id, Some(conn), fx);
        }
    }
}
