//! Moves: lag compensation from the seat's quota, the move played and announced, ends stored
//! with what caused them (flag falls as events), flags scheduled and fallen.

use super::*;

impl Hub {
    /// The lag compensation this connection's move may get now (see `docs/protocol.md`): its
    /// measured one-way lag, at most what the seat's quota holds.
    pub(super) fn compensation(&self, conn: ConnId, id: &str, seat: Seat) -> Duration {
        let quota = self
            .matches
            .get(id)
            .map_or(Duration::ZERO, |m| m.lag[seat.index()].quota);
        self.conns
            .get(&conn)
            .and_then(|c| c.rtt)
            .map_or(Duration::ZERO, |rtt| (rtt / 2).min(quota))
    }

    /// Records a measured round trip for a connection (the adapter measures pings).
    pub fn observe_rtt(&mut self, conn: ConnId, rtt: Duration) {
        let Some(c) = self.conns.get_mut(&conn) else {
            return;
        };
        let avg = match c.rtt {
            None => rtt,
            // Exponential moving average, weight 1/4 for the new sample.
            Some(old) => (old * 3 + rtt) / 4,
        };
        c.rtt = Some(avg);
        if let (Some(id), Some(seat)) = (c.match_id.as_deref(), c.seat) {
            if let Some(m) = self.matches.get_mut(id) {
                m.lag[seat.index()].estimate = Some(avg / 2);
            }
        }
    }

    pub(super) fn play(
        &mut self,
        conn: ConnId,
        id: &str,
        seat: Seat,
        uci: &str,
        fx: &mut Vec<Effect>,
    ) {
        let compensation = self.compensation(conn, id, seat);
        self.play_as(Some(conn), id, seat, uci, compensation, fx);
    }

    /// Plays `uci` for `seat` now, counted as made up to `compensation` earlier; errors go to
    /// `reply`. Whether the move was played.
    pub(super) fn play_as(
        &mut self,
        reply: Option<ConnId>,
        id: &str,
        seat: Seat,
        uci: &str,
        compensation: Duration,
        fx: &mut Vec<Effect>,
    ) -> bool {
        let now = self.now;
        let action_id = self.action;
        let Some(m) = self.matches.get_mut(id) else {
            return false;
        };
        if m.finished {
            if let Some(conn) = reply {
                fx.push(Effect::Send(
                    vec![conn],
                    error(ErrorCode::GameOver, "the match is over"),
                ));
            }
            return false;
        }
        let t = m.match_time(now);
        // The move counts as made up to `compensation` earlier, but never before the mover's
        // clock started.
        let started = m
            .game
            .record()
            .iter()
            .rev()
            .find(|r| r.seat.board == seat.board)
            .map_or(Duration::ZERO, |r| r.at);
        let at = t.saturating_sub(compensation).max(started);
        let mv = match m.game.position(seat.board).parse_uci(uci) {
            Ok(mv) => mv,
            Err(e) => {
                let (code, msg) = match e {
                    bughouse_core::uci::UciError::Syntax(e) => {
                        (ErrorCode::BadMessage, e.to_string())
                    }
                    bughouse_core::uci::UciError::Illegal(e) => {
                        if m.game.position(seat.board).turn() != seat.color {
                            (ErrorCode::NotYourTurn, format!("it is not {seat}'s move"))
                        } else {
                            (ErrorCode::IllegalMove, e.to_string())
                        }
                    }
                };
                if let Some(conn) = reply {
                    fx.push(Effect::Send(vec![conn], error(code, msg)));
                }
                return false;
            }
        };
        let before = m.progress();
        match m.game.play(seat, mv, at) {
            Ok(_) => {}
            Err(e) => {
                let code = match e {
                    MatchError::NotYourTurn(_) => ErrorCode::NotYourTurn,
                    MatchError::Illegal(_) => ErrorCode::IllegalMove,
                    MatchError::NotStarted => ErrorCode::NotAllowed,
                    _ => ErrorCode::GameOver,
                };
                if let Some(conn) = reply {
                    fx.push(Effect::Send(vec![conn], error(code, e.to_string())));
                }
                // A flag may have fallen while the move was on its way.
                self.after_change(id, before, fx);
                return false;
            }
        }
        let ply = m.game.record().len() - 1;
        m.last_moves[seat.board.index()] = Some(m.game.record()[ply].mv.to_string());
        // The quota pays for the compensation the move got and gains the time control's share.
        let granted = t.saturating_sub(at);
        let (gain, _, max) = lag_quota(m.game.time_control());
        let lag = &mut m.lag[seat.index()];
        if reply.is_some() {
            lag.quota = (lag.quota.saturating_sub(granted) + gain).min(max);
        }
        m.move_lag
            .push(u16::try_from(granted.as_millis()).unwrap_or(u16::MAX));
        let clocks = m.clocks(now);
        fx.push(Effect::Store(Write::RecordMove(
            bughouse_store::StoredMove {
                match_id: id.to_owned(),
                ply: i(ply as u64),
                seat: seat.index() as u8,
                uci: m.game.record()[ply].mv.to_string(),
                san: m.game.record()[ply].san.as_str().to_owned(),
                at_ms: i(ms(at)),
                clock_ms: i(clocks.remaining_ms[seat.index()]),
                remaining_ms: clocks.remaining_ms.map(i),
                action_id: action_id.map(i),
                lag_ms: i(ms(granted)),
            },
        )));
        self.last_lag = Some(granted);
        let seq = m.next_seq();
        self.send_moved(id, ply, seq, fx);
        self.after_change(id, before, fx);
        true
    }

    pub(super) fn send_moved(&mut self, id: &str, ply: usize, seq: u64, fx: &mut Vec<Effect>) {
        let Some(m) = self.matches.get_mut(id) else {
            return;
        };
        let Some(info) = m.move_info(ply) else {
            return;
        };
        let board = m.game.record()[ply].seat.board;
        let clocks = m.clocks(self.now);
        // Both boards as everyone sees them, made once (FEN and all; the other board kept from
        // the last `moved` when nothing of it changed); the players to move get a copy with
        // their legal moves added.
        let boards = [board, board.other()];
        let seen = m.seen_state(board);
        let seen_other = m.seen_state(board.other());
        let seat_of = |w: &ConnId| self.conns.get(w).and_then(|c| c.seat);
        let watched = |m: &LiveMatch, b: BoardId| {
            let to_move = m.game.to_move(b);
            m.watchers.iter().any(|w| seat_of(w) == Some(to_move))
        };
        // The legal moves of each board's player to move, made only if he watches.
        for b in boards {
            if watched(m, b) {
                m.keep_legal(b);
            }
        }
        let m = &*m;
        let with_legal = |state: &BoardState, i: usize, you: Option<Seat>| BoardState {
            legal: m
                .kept_legal(boards[i])
                .filter(|_| you == Some(m.game.to_move(boards[i])))
                .cloned(),
            ..state.clone()
        };
        // Each watcher gets the legal moves of his own board when he is to move.
        let mut plain = Vec::new();
        for &w in &m.watchers {
            let you = seat_of(&w);
            let to_move = BoardId::ALL
                .into_iter()
                .find(|b| you == Some(m.game.to_move(*b)));
            if to_move.is_some() && !m.finished {
                fx.push(Effect::Send(
                    vec![w],
                    ServerMessage::Moved {
                        mv: info.clone(),
                        board: with_legal(&seen, 0, you),
                        other: with_legal(&seen_other, 1, you),
                        clocks: clocks.clone(),
                        seq,
                    },
                ));
            } else {
                plain.push(w);
            }
        }
        if !plain.is_empty() {
            fx.push(Effect::Send(
                plain,
                ServerMessage::Moved {
                    mv: info,
                    board: seen,
                    other: seen_other,
                    clocks,
                    seq,
                },
            ));
        }
    }

    /// What `after_change` compares against: whether the match was over and which games had
    /// ended.
    pub(super) fn snapshot(&self, id: &str) -> (bool, usize) {
        self.matches.get(id).map_or((false, 0), LiveMatch::progress)
    }

    /// After anything that may end a game: store the flag falls that ended games (so that a
    /// restore replays them), store and announce the end, reschedule flags.
    pub(super) fn after_change(&mut self, id: &str, before: (bool, usize), fx: &mut Vec<Effect>) {
        let now = self.now;
        let unix_now = self.unix_ms(now);
        let (was_over, ended_before) = before;
        let Some(m) = self.matches.get_mut(id) else {
            return;
        };
        let ended_now = BoardId::ALL
            .iter()
            .filter(|b| m.game.game_end(**b).is_some())
            .count();
        if ended_now > ended_before {
            // Flag falls are no player's action: kept as events, in the order they fell, in
            // the same transaction as the end they cause.
            let mut flags: Vec<(Duration, Seat)> = BoardId::ALL
                .into_iter()
                .filter_map(|b| m.game.game_end(b))
                .filter(|e| {
                    matches!(
                        e.reason,
                        EndReason::Flag | EndReason::FlagOpponentCannotMate | EndReason::BothFlags
                    )
                })
                .filter_map(|e| Some((e.at, e.seat?)))
                .filter(|(_, seat)| !m.flags_stored.contains(seat))
                .collect();
            flags.sort_by_key(|(at, seat)| (*at, (*seat).index()));
            for (at, seat) in flags {
                m.flags_stored.push(seat);
                m.events += 1;
                fx.push(Effect::Store(Write::RecordEvent(
                    bughouse_store::StoredEvent {
                        match_id: id.to_owned(),
                        seq: i(m.events as u64 - 1),
                        ply: i(m.game.record().len() as u64),
                        seat: seat.index() as u8,
                        kind: EventKind::Flag.as_str().to_owned(),
                        detail: String::new(),
                        at_ms: i(ms(at)),
                        action_id: None,
                    },
                )));
            }
        }
        if m.game.is_over() && !was_over {
            m.finished = true;
            m.end_time = Some(m.game.ended_at().unwrap_or_else(|| m.match_time(now)));
            self.finished.insert(id.to_owned());
            if let Some(result) = m.result_info() {
                fx.push(Effect::Store(Write::FinishMatch {
                    match_id: id.to_owned(),
                    result: result.result.clone(),
                    reason: result.reason.clone(),
                    board_results: result.boards.clone(),
                    bpgn: bpgn_of(m),
                    finished_at_ms: unix_now,
                }));
                // A rated match is rated once its end is stored.
                if let Some(request) = m.rate_request(&result.result, unix_now) {
                    fx.push(Effect::Rate(request));
                }
                let seq = m.next_seq();
                fx.push(Effect::Send(
                    m.watchers.clone(),
                    ServerMessage::Ended {
                        result,
                        clocks: m.clocks(now),
                        seq,
                    },
                ));
            }
        } else if !m.game.is_over() && ended_now > ended_before {
            // knsb-1988: one game ended, the other goes on (K11G).
            let boards = BoardId::ALL.map(|b| {
                m.game
                    .game_end(b)
                    .map_or("*".to_owned(), |e| e.score.pgn().to_owned())
            });
            let reason = BoardId::ALL
                .into_iter()
                .filter_map(|b| {
                    m.game
                        .game_end(b)
                        .map(|e| format!("board {b}: {}", e.reason))
                })
                .collect::<Vec<_>>()
                .join("; ");
            let seq = m.next_seq();
            fx.push(Effect::Send(
                m.watchers.clone(),
                ServerMessage::Ended {
                    result: ResultInfo {
                        result: "*".to_owned(),
                        boards,
                        reason,
                    },
                    clocks: m.clocks(now),
                    seq,
                },
            ));
        }
        self.schedule(id);
        // Everyone gets the new status (finished, or under knsb-1988 one game over).
        if ended_now > ended_before {
            self.broadcast_state(id, fx);
        }
        self.bot_turns(id, fx);
    }

    pub(super) fn schedule(&mut self, id: &str) {
        if let Some(old) = self.deadline_of.remove(id) {
            self.deadlines.remove(&(old, id.to_owned()));
        }
        if let Some(t) = self.matches.get(id).and_then(LiveMatch::deadline) {
            self.deadlines.insert((t, id.to_owned()));
            self.deadline_of.insert(id.to_owned(), t);
        }
    }

    pub(super) fn tick(&mut self, fx: &mut Vec<Effect>) {
        let now = self.now;
        for id in std::mem::take(&mut self.bots_pending) {
            self.bot_turns(&id, fx);
        }
        let due: Vec<String> = self
            .deadlines
            .iter()
            .take_while(|(t, _)| *t <= now)
            .map(|(_, id)| id.clone())
            .collect();
        for id in due {
            let before = self.snapshot(&id);
            if let Some(m) = self.matches.get_mut(&id) {
                // Flags fall on the server, after the grace a move compensated for lag could
                // still claim, so that such a move is not refused by a flag that had not
                // really fallen.
                let t = m.match_time(now).saturating_sub(m.flag_grace());
                m.game.tick(t);
            }
            self.after_change(&id, before, fx);
        }
    }
}
