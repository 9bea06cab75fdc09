//! What clients see of a match: boards, legal moves, the record, the result, the whole state,
//! the positions and the BPGN.

use super::*;

impl LiveMatch {
    pub(super) fn board_state(&self, board: BoardId, for_seat: Option<Seat>) -> BoardState {
        let pos = self.game.position(board);
        BoardState {
            board: board_name(board),
            fen: pos.fen(),
            last_move: self.last_moves[board.index()].clone(),
            check: pos.is_check(),
            verdict: verdict_name(pos.verdict()),
            legal: self.legal(board, for_seat),
            claims: self.claims(board),
        }
    }

    /// The draws that may be claimed on a board now: none before the start, after its game or
    /// the match ended; else what the board's game allows (repetition for the player to move,
    /// the move count for either).
    pub(super) fn claims(&self, board: BoardId) -> Vec<Claim> {
        if !self.game.is_started() || self.finished || self.game.game_end(board).is_some() {
            return Vec::new();
        }
        self.game
            .board_game(board)
            .claims()
            .into_iter()
            .map(|c| match c {
                DrawClaim::Repetition => Claim::Repetition,
                DrawClaim::MoveCount => Claim::MoveCount,
            })
            .collect()
    }

    /// The legal moves of a board in UCI, for the seat to move on it only.
    pub(super) fn legal(&self, board: BoardId, for_seat: Option<Seat>) -> Option<UciList> {
        let pos = self.game.position(board);
        let to_move = Seat::new(board, pos.turn());
        (for_seat == Some(to_move)
            && self.game.is_started()
            && !self.finished
            && self.game.game_end(board).is_none())
        .then(|| {
            let moves = pos.legal_moves();
            let mut list = UciList::with_capacity(moves.len());
            for m in moves.iter() {
                list.push_str(m.uci().as_str());
            }
            list
        })
    }

    pub(super) fn move_info(&self, ply: usize) -> Option<MoveInfo> {
        let r = self.game.record().get(ply)?;
        Some(MoveInfo {
            ply,
            seat: seat_name(r.seat),
            uci: r.mv.uci().as_str().to_owned(),
            san: r.san.as_str().to_owned(),
            number: r.number,
            clock_ms: ms(r.clock_left),
            lag_ms: self.move_lag.get(ply).map_or(0, |l| u64::from(*l)),
        })
    }

    pub(super) fn result_info(&self) -> Option<ResultInfo> {
        if let Some(stored) = &self.stored_result {
            return Some(stored.clone());
        }
        // Under knsb-1988 a game may end while the other goes on (K11G): the match result is
        // `*` until both have.
        let result = match self.game.result() {
            Some(result) => result.pgn(),
            None if BoardId::ALL
                .iter()
                .any(|b| self.game.game_end(*b).is_some()) =>
            {
                "*"
            }
            None => return None,
        };
        let boards = BoardId::ALL.map(|b| match self.game.game_end(b) {
            Some(e) if e.reason != EndReason::OtherBoard => e.score.pgn().to_owned(),
            _ => "*".to_owned(),
        });
        let tags: Vec<(String, String)> = Seat::ALL
            .into_iter()
            .filter_map(|s| {
                self.seats[s.index()]
                    .as_ref()
                    .map(|h| (s.to_string(), h.name.clone()))
            })
            .collect();
        let reason = if self.game.rules().match_ends_with_first_game && self.game.is_over() {
            bughouse_bpgn::termination(&self.game, &tags).unwrap_or_else(|| "game over".into())
        } else {
            // Both games were played out (K11G): each has its own reason.
            BoardId::ALL
                .into_iter()
                .filter_map(|b| {
                    self.game
                        .game_end(b)
                        .map(|e| format!("board {b}: {}", e.reason))
                })
                .collect::<Vec<_>>()
                .join("; ")
        };
        Some(ResultInfo {
            result: result.to_owned(),
            boards,
            reason,
        })
    }

    /// The four seats, with who is connected.
    pub(super) fn seat_infos(&self, connected: &[bool; 4]) -> Vec<SeatInfo> {
        Seat::ALL
            .into_iter()
            .enumerate()
            .map(|(i, s)| SeatInfo {
                seat: seat_name(s),
                name: self.seats[i].as_ref().map(|h| h.name.clone()),
                bot: self.seats[i].as_ref().is_some_and(|h| h.bot.is_some()),
                connected: connected[i],
                account: self.seats[i].as_ref().is_some_and(|h| h.account.is_some()),
            })
            .collect()
    }

    pub(super) fn state(
        &self,
        now: Duration,
        you: Option<Seat>,
        connected: &[bool; 4],
    ) -> MatchState {
        MatchState {
            match_id: self.id.clone(),
            rules: self.preset.clone(),
            time_control: self.game.time_control().to_string(),
            status: self.status().to_owned(),
            seats: self.seat_infos(connected),
            boards: BoardId::ALL.map(|b| self.board_state(b, you)),
            clocks: self.clocks(now),
            moves: (0..self.game.record().len())
                .filter_map(|i| self.move_info(i))
                .collect(),
            result: self.result_info(),
            draw_offers: Seat::ALL
                .into_iter()
                .filter(|s| self.game.draw_offered(*s))
                .map(seat_name)
                .collect(),
            talk: talk_kinds(self.game.rules()),
            settings: rule_settings(self.game.rules()),
            seq: self.seq,
            talk_log: self.talk_log(you),
            rated: self.rated,
            allow_bots: self.allow_bots,
            rating_changes: self.rating_changes.clone(),
        }
    }
}

impl Hub {
    /// The state of a match as anyone may see it (no legal moves), for `GET /api/matches/{id}`.
    pub fn public_state(&self, match_id: &str, now: Duration) -> Option<MatchState> {
        let m = self.matches.get(match_id)?;
        Some(m.state(now, None, &self.connected(m)))
    }

    pub(super) fn connected(&self, m: &LiveMatch) -> [bool; 4] {
        let mut c = [false; 4];
        for conn in &m.watchers {
            if let Some(seat) = self.conns.get(conn).and_then(|c| c.seat) {
                c[seat.index()] = true;
            }
        }
        for (i, s) in m.seats.iter().enumerate() {
            if s.as_ref().is_some_and(|h| h.bot.is_some()) {
                c[i] = true;
            }
        }
        c
    }

    pub(super) fn send_state(&self, conn: ConnId, match_id: &str, fx: &mut Vec<Effect>) {
        let Some(m) = self.matches.get(match_id) else {
            return;
        };
        let you = self.conns.get(&conn).and_then(|c| c.seat);
        let connected = self.connected(m);
        fx.push(Effect::Send(
            vec![conn],
            ServerMessage::State {
                state: Box::new(m.state(self.now, you, &connected)),
                you: you.map(seat_name),
            },
        ));
    }

    /// The seats (who is connected) to every watcher of a match but `except`.
    pub(super) fn broadcast_seats(
        &self,
        match_id: &str,
        except: Option<ConnId>,
        fx: &mut Vec<Effect>,
    ) {
        let Some(m) = self.matches.get(match_id) else {
            return;
        };
        let to: Vec<ConnId> = m
            .watchers
            .iter()
            .copied()
            .filter(|&w| Some(w) != except)
            .collect();
        if !to.is_empty() {
            fx.push(Effect::Send(
                to,
                ServerMessage::Seats {
                    seats: self.seat_infos(m),
                },
            ));
        }
    }

    pub(super) fn broadcast_state(&self, match_id: &str, fx: &mut Vec<Effect>) {
        let Some(m) = self.matches.get(match_id) else {
            return;
        };
        for &w in &m.watchers {
            self.send_state(w, match_id, fx);
        }
    }

    /// Both boards' FEN before the first move and after each move, for replaying a match move
    /// by move (`GET /api/matches/{id}/positions`).
    pub fn positions(&self, match_id: &str) -> Option<Vec<[String; 2]>> {
        let m = self.matches.get(match_id)?;
        let rules = *m.game.rules();
        let mut replay = Match::new(rules, m.game.time_control());
        let _ = replay.start(Duration::ZERO);
        let mut out = vec![[
            replay.position(BoardId::A).fen(),
            replay.position(BoardId::B).fen(),
        ]];
        for (i, r) in m.game.record().iter().enumerate() {
            // Replayed at the recorded times; a move that fails to replay ends the list.
            if replay.play(r.seat, r.mv, r.at).is_err() {
                tracing::error!(match_id, ply = i, "record does not replay");
                break;
            }
            out.push([
                replay.position(BoardId::A).fen(),
                replay.position(BoardId::B).fen(),
            ]);
        }
        Some(out)
    }

    /// The BPGN of a match, if it is in memory.
    pub fn bpgn(&self, match_id: &str) -> Option<String> {
        let m = self.matches.get(match_id)?;
        // A match loaded finished: the archive's record is the one.
        if m.stored_result.is_some() {
            return None;
        }
        Some(bpgn_of(m))
    }
}

/// The BPGN text of a match.
pub(super) fn bpgn_of(m: &LiveMatch) -> String {
    let mut tags: Vec<(String, String)> = vec![
        ("Event".into(), "bughouse match".into()),
        ("Site".into(), "bughouse server".into()),
        ("Variant".into(), "bughouse".into()),
        ("Rules".into(), m.preset.clone()),
    ];
    for (i, s) in Seat::ALL.into_iter().enumerate() {
        if let Some(h) = &m.seats[i] {
            tags.push((s.to_string(), h.name.clone()));
        }
    }
    let tc = m.game.time_control();
    tags.push((
        "TimeControl".into(),
        format!("{}+{}", tc.base.as_secs(), tc.increment.as_secs()),
    ));
    bughouse_bpgn::write_bpgn(&m.game, &tags)
}
