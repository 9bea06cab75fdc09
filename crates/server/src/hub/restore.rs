//! Rebuilding a stored match: replayed moves and events, the result as stored, clocks resumed
//! from the last heartbeat.

use super::*;

impl Hub {
    /// Rebuilds a stored match (after a restart, or a finished match loaded again): the moves
    /// and events (actions, flag falls) are played again at their recorded match times.
    ///
    /// A finished match comes back finished, with its stored result, whatever the replay says.
    /// A match in progress resumes from `alive_at`, the match time at which the server that ran
    /// it was last known alive (its last heartbeat), or from the last recorded move or action
    /// if that is later or unknown: the player to move is charged his thinking up to then, and
    /// the time the server was down is charged to nobody. Flags that fell by then fall at the
    /// next tick. The effects store the match's new clock anchor.
    ///
    /// # Errors
    ///
    /// The first stored record that does not replay.
    pub fn restore(
        &mut self,
        stored: &bughouse_store::StoredMatch,
        now: Duration,
        alive_at: Option<Duration>,
    ) -> Result<Vec<Effect>, RestoreError> {
        self.now = now;
        // The full rule set is stored as JSON (a custom set has no preset to fall back on);
        // rows written before that column was filled name a preset.
        let rules = match serde_json::from_str::<Rules>(&stored.rules_json) {
            Ok(rules) => rules,
            Err(_) => stored.rules_preset.parse::<Preset>()?.rules(),
        };
        let millis = |v: i64| Duration::from_millis(u64::try_from(v).unwrap_or(0));
        let tc = TimeControl {
            base: millis(stored.base_ms),
            increment: millis(stored.increment_ms),
        };
        let mut game =
            Match::from_positions(rules, tc, [Position::new(rules), Position::new(rules)]);
        let mut seats: [Option<SeatHolder>; 4] = [None, None, None, None];
        for (i, s) in stored.seats.iter().enumerate() {
            if let Some(s) = s {
                seats[i] = Some(SeatHolder {
                    name: s.name.clone(),
                    token_hash: s.token_hash.clone(),
                    bot: s.bot.then(|| bot_level_of(&s.token_hash)),
                    account: s.account,
                });
            }
        }
        let seat_of = |seat: u8, what: String| {
            Seat::ALL
                .get(usize::from(seat))
                .copied()
                .ok_or(RestoreError::Seat { what, seat })
        };
        let mut last_at = Duration::ZERO;
        let mut last_moves = [None, None];
        let mut recent: [VecDeque<Recent>; 4] = Default::default();
        let mut move_lag = Vec::with_capacity(stored.moves.len());
        let mut flags_stored = Vec::new();
        if stored.started_at_ms.is_some() {
            game.start(Duration::ZERO)
                .map_err(|e| RestoreError::Replay("start".into(), e))?;
            let mut events = stored.events.iter().peekable();
            let mut replay = |game: &mut Match, ev: &bughouse_store::StoredEvent| {
                let seat = seat_of(ev.seat, format!("event {}", ev.seq))?;
                if EventKind::parse(&ev.kind) == Some(EventKind::Flag) {
                    flags_stored.push(seat);
                }
                replay_event(game, seat, ev)
            };
            for (ply, mv) in stored.moves.iter().enumerate() {
                while let Some(ev) = events.next_if(|e| e.ply as usize <= ply) {
                    replay(&mut game, ev)?;
                }
                let seat = seat_of(mv.seat, format!("move {ply}"))?;
                let at = millis(mv.at_ms);
                let m = game
                    .position(seat.board)
                    .parse_uci(&mv.uci)
                    .map_err(|e| RestoreError::Move(ply, e.to_string()))?;
                game.play(seat, m, at)
                    .map_err(|e| RestoreError::Replay(format!("move {ply}"), e))?;
                last_moves[seat.board.index()] = Some(mv.uci.clone());
                last_at = at;
                move_lag.push(u16::try_from(mv.lag_ms).unwrap_or(u16::MAX));
            }
            for ev in events {
                replay(&mut game, ev)?;
                last_at = last_at.max(millis(ev.at_ms));
            }
        }
        // What each seat had acknowledged, so that a resent action is answered, not applied.
        let acted = stored
            .moves
            .iter()
            .map(|m| (m.seat, m.action_id, Some(m.lag_ms)))
            .chain(stored.events.iter().map(|e| (e.seat, e.action_id, None)))
            .chain(stored.talk.iter().map(|t| (t.seat, t.action_id, None)));
        for (seat, id, lag) in acted {
            if let (Some(r), Some(id)) = (recent.get_mut(usize::from(seat)), id) {
                remember(
                    r,
                    Recent {
                        id: u64::try_from(id).unwrap_or(0),
                        lag_ms: lag.map(|l| u64::try_from(l).unwrap_or(0)),
                        refused: false,
                    },
                );
            }
        }
        let mut talk = Vec::with_capacity(stored.talk.len());
        for t in &stored.talk {
            let from = seat_of(t.seat, format!("talk {}", t.seq))?;
            let Ok(kind) = t.kind.parse::<TalkKind>() else {
                return Err(RestoreError::Talk(t.seq, t.kind.clone()));
            };
            talk.push((
                from,
                TalkEntry {
                    n: talk.len() as u64,
                    from: seat_name(from),
                    kind,
                    piece: t.piece.as_deref().and_then(|p| p.parse().ok()),
                    text: t.text.clone(),
                    at_ms: u64::try_from(t.at_ms).unwrap_or(0),
                },
            ));
        }
        let stored_result = match (&stored.result, &stored.reason, &stored.board_results) {
            (Some(result), Some(reason), Some(boards))
                if stored.status == bughouse_store::MatchStatus::Finished =>
            {
                Some(ResultInfo {
                    result: result.clone(),
                    boards: boards.clone(),
                    reason: reason.clone(),
                })
            }
            _ => None,
        };
        let finished = game.is_over() || stored_result.is_some();
        // A match in progress resumes where its server was last alive: the player to move
        // thought until then.
        let resume_at = if finished || !game.is_started() {
            last_at
        } else {
            last_at.max(alive_at.unwrap_or(Duration::ZERO))
        };
        let end_time = finished.then(|| game.ended_at().unwrap_or(last_at));
        let id = stored.id.clone();
        if finished {
            self.finished.insert(id.clone());
        }
        let (_, quota, _) = lag_quota(tc);
        // Every message numbered before was sent after what caused it was stored, and no stored
        // row causes more than two of them: numbering goes on above anything a client saw.
        let seq = 2 * (stored.moves.len() + stored.events.len() + stored.talk.len()) as u64 + 2;
        let live = LiveMatch {
            id: id.clone(),
            preset: rules_label(&rules),
            game,
            seats,
            watchers: Vec::new(),
            seen: [None, None],
            // Match time `resume_at` is now. Server time starts at 0 when the process starts,
            // so right after a restart `now` may be less than `resume_at`: match time is then
            // ahead of server time.
            epoch: now.saturating_sub(resume_at),
            ahead: resume_at.saturating_sub(now),
            last_moves,
            finished,
            rematch: [None, None],
            events: stored.events.len(),
            bots: Default::default(),
            seq,
            talk,
            recent,
            lag: [LagSeat {
                estimate: None,
                quota,
            }; 4],
            stored_result,
            end_time,
            move_lag,
            flags_stored,
            rated: stored.rated,
            allow_bots: stored.allow_bots,
            rating_changes: None,
        };
        let mut fx = Vec::new();
        if live.game.is_started() && !finished {
            fx.push(Effect::Store(Write::SetClockAnchor {
                match_id: id.clone(),
                anchor_ms: self
                    .unix_zero_ms
                    .saturating_add(signed_ms(live.epoch, live.ahead)),
            }));
        }
        self.matches.insert(id.clone(), live);
        self.schedule(&id);
        self.bots_pending.insert(id);
        Ok(fx)
    }
}

/// Why a stored match could not be rebuilt.
#[derive(Debug, thiserror::Error)]
pub enum RestoreError {
    /// Neither the stored rules nor the preset can be read.
    #[error("rules: {0}")]
    Rules(#[from] bughouse_core::UnknownPreset),
    /// A seat number out of range.
    #[error("{what}: no seat {seat}")]
    Seat {
        /// The record.
        what: String,
        /// The seat number.
        seat: u8,
    },
    /// A stored move cannot be read in its position.
    #[error("move {0}: {1}")]
    Move(usize, String),
    /// A stored move or event does not replay.
    #[error("{0}: {1}")]
    Replay(String, #[source] MatchError),
    /// An event of an unknown kind.
    #[error("event {0}: unknown kind {1:?}")]
    Event(i64, String),
    /// Talk of an unknown kind.
    #[error("talk {0}: unknown kind {1:?}")]
    Talk(i64, String),
}

fn replay_event(
    game: &mut Match,
    seat: Seat,
    ev: &bughouse_store::StoredEvent,
) -> Result<(), RestoreError> {
    let at = Duration::from_millis(u64::try_from(ev.at_ms).unwrap_or(0));
    let Some(kind) = EventKind::parse(&ev.kind) else {
        return Err(RestoreError::Event(ev.seq, ev.kind.clone()));
    };
    let r = match kind {
        EventKind::Flag => {
            // The flag fell at `at`: the clocks say so again.
            game.tick(at);
            Ok(())
        }
        EventKind::Resign => game.resign(seat, at),
        EventKind::OfferDraw => game.agree_draw(seat, at).map(|_| ()),
        EventKind::WithdrawDraw => {
            game.withdraw_draw(seat);
            Ok(())
        }
        EventKind::ClaimDraw => {
            let claim = if ev.detail == "repetition" {
                DrawClaim::Repetition
            } else {
                DrawClaim::MoveCount
            };
            game.claim_draw(seat, claim, at)
        }
    };
    r.map_err(|e| RestoreError::Replay(format!("event {} ({})", ev.seq, ev.kind), e))
}
