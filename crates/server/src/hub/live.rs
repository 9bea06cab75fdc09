//! One live match's state: its game, seats, watchers, clocks in match time, event numbers,
//! talk, acknowledged actions and lag quotas; and the small helpers the hub's files share.

use super::*;

#[derive(Clone)]
pub(super) struct SeatHolder {
    pub(super) name: String,
    pub(super) token_hash: String,
    /// The level of the bot that plays the seat.
    pub(super) bot: Option<u8>,
    /// The account of the signed-in player who sits here (`name` is its name).
    pub(super) account: Option<i64>,
}

/// What the hub knows of a bot seat between its turns.
#[derive(Default)]
pub(super) struct BotSeat {
    /// The moves on its board, and in the whole match, when it was last asked.
    pub(super) asked: Option<(usize, usize)>,
    /// Whether its last answer was to sit.
    pub(super) sitting: bool,
    /// Partner messages not yet handed over.
    pub(super) heard: Vec<BotTalk>,
}

pub(super) struct LiveMatch {
    pub(super) id: String,
    pub(super) preset: String,
    pub(super) game: Match,
    pub(super) seats: [Option<SeatHolder>; 4],
    /// Every connection watching, seated or not.
    pub(super) watchers: Vec<ConnId>,
    /// Server time minus match time: the match's clock readings are `now + ahead - epoch`.
    pub(super) epoch: Duration,
    /// Match time minus server time, when match time is ahead (a match restored soon after the
    /// server started, whose last move came later in match time than the server's uptime).
    pub(super) ahead: Duration,
    pub(super) last_moves: [Option<String>; 2],
    pub(super) finished: bool,
    pub(super) rematch: [Option<String>; 2],
    /// Events stored so far (their sequence numbers).
    pub(super) events: usize,
    /// The bots' turns, by seat index.
    pub(super) bots: [BotSeat; 4],
    /// The number of the last numbered message (`moved`, `ended`, `draw_offers`).
    pub(super) seq: u64,
    /// The partner talk of both teams, in order (`TalkEntry::n` is the index).
    pub(super) talk: Vec<(Seat, TalkEntry)>,
    /// Each seat's recently acknowledged action ids, by seat index.
    pub(super) recent: [VecDeque<Recent>; 4],
    /// Each seat's lag estimate and compensation quota, by seat index.
    pub(super) lag: [LagSeat; 4],
    /// The result as stored, for a finished match loaded from the store (it wins over what the
    /// replayed record says, which for records stored before flags were kept may be less).
    pub(super) stored_result: Option<ResultInfo>,
    /// Match time at which the clocks stopped for good, once finished.
    pub(super) end_time: Option<Duration>,
    /// The lag compensation of each move of the record, in milliseconds.
    pub(super) move_lag: Vec<u16>,
    /// The seats whose flag fall is stored as an event.
    pub(super) flags_stored: Vec<Seat>,
    /// Rated (only signed-in players sit; the result changes ratings) or casual.
    pub(super) rated: bool,
    /// In a rated match, bots may sit.
    pub(super) allow_bots: bool,
    /// What the rated match changed, once its ratings are applied.
    pub(super) rating_changes: Option<RatingChanges>,
    /// Each board as last shown in a `moved`, by board index (see [`SeenBoard`]).
    pub(super) seen: [Option<SeenBoard>; 2],
}

/// An acknowledged action, or one the store refused (answered `not_stored` when it is sent
/// again).
#[derive(Debug, Clone, Copy)]
pub(super) struct Recent {
    pub(super) id: u64,
    pub(super) lag_ms: Option<u64>,
    pub(super) refused: bool,
}

/// A seat's lag compensation (see `docs/protocol.md`): the one-way lag of its connection as
/// measured, and the compensation it has left to spend.
#[derive(Debug, Clone, Copy, Default)]
pub(super) struct LagSeat {
    pub(super) estimate: Option<Duration>,
    pub(super) quota: Duration,
}

pub(super) struct Conn {
    pub(super) match_id: Option<String>,
    pub(super) seat: Option<Seat>,
    pub(super) tokens: f64,
    pub(super) last_refill: Duration,
    pub(super) refusals: u32,
    /// Moving average of the round trip.
    pub(super) rtt: Option<Duration>,
    /// The account the connection is signed in as.
    pub(super) account: Option<AccountInfo>,
}

/// The lag quota of a time control: what each move adds, where it starts, its cap.
pub(super) fn lag_quota(tc: TimeControl) -> (Duration, Duration, Duration) {
    // lichess's estimate of a game's length: the base time and 40 increments.
    let estimate = tc.base + tc.increment * 40;
    let gain = Duration::from_millis(u64::try_from(estimate.as_millis() / 180).unwrap_or(u64::MAX))
        .clamp(Duration::from_millis(200), Duration::from_millis(1000));
    (gain, gain * 3, gain * 7)
}

/// The number of moves played on `board`.
pub(super) fn board_plies(game: &Match, board: BoardId) -> usize {
    game.record()
        .iter()
        .filter(|r| r.seat.board == board)
        .count()
}

/// What a bot seat stores in place of a token hash: `bot:LEVEL`. No token hashes to it (a
/// hash is 64 hex digits), so no client can take a bot's seat.
pub(super) fn bot_marker(level: u8) -> String {
    format!("bot:{level}")
}

/// The level in a bot seat's marker; the strongest level for a marker that has none.
pub(super) fn bot_level_of(marker: &str) -> u8 {
    marker
        .strip_prefix("bot:")
        .and_then(|l| l.parse().ok())
        .filter(|l| BOT_LEVELS.contains(l))
        .unwrap_or(*BOT_LEVELS.end())
}

/// The id of the preset `rules` are, or `custom`.
pub(super) fn rules_label(rules: &Rules) -> String {
    rules.preset().map_or("custom", Preset::id).to_owned()
}

/// A core seat as the protocol names it.
pub(super) fn seat_name(seat: Seat) -> SeatName {
    SeatName::ALL[seat.index()]
}

/// The core seat a protocol seat name stands for.
pub(super) fn parse_seat(name: SeatName) -> Seat {
    let i = SeatName::ALL.iter().position(|s| *s == name).unwrap_or(0);
    Seat::ALL[i]
}

/// A core board as the protocol names it.
pub(super) fn board_name(board: BoardId) -> BoardName {
    match board {
        BoardId::A => BoardName::A,
        BoardId::B => BoardName::B,
    }
}

/// A core verdict as the protocol names it.
pub(super) fn verdict_name(verdict: bughouse_core::Verdict) -> Verdict {
    match verdict {
        bughouse_core::Verdict::Ongoing => Verdict::Ongoing,
        bughouse_core::Verdict::Checkmate => Verdict::Checkmate,
        bughouse_core::Verdict::Stalemate => Verdict::Stalemate,
        bughouse_core::Verdict::Waiting => Verdict::Waiting,
    }
}

pub(super) fn hash_token(token: &str) -> String {
    let digest = Sha256::digest(token.as_bytes());
    digest.iter().map(|b| format!("{b:02x}")).collect()
}

pub(super) fn error(code: ErrorCode, message: impl Into<String>) -> ServerMessage {
    ServerMessage::Error {
        code,
        message: message.into(),
        id: None,
    }
}

pub(super) fn talk_kinds(rules: &Rules) -> Vec<TalkKind> {
    match rules.partner_talk {
        PartnerTalk::Anything => vec![
            TalkKind::Need,
            TalkKind::DontGive,
            TalkKind::Sit,
            TalkKind::Go,
            TalkKind::Flag,
            TalkKind::Text,
        ],
        PartnerTalk::MinervaKinds => vec![
            TalkKind::Need,
            TalkKind::DontGive,
            TalkKind::Sit,
            TalkKind::Go,
            TalkKind::Flag,
        ],
        PartnerTalk::PieceRequestsOnly => vec![TalkKind::Need],
    }
}

pub(super) fn ms(d: Duration) -> u64 {
    u64::try_from(d.as_millis()).unwrap_or(u64::MAX)
}

/// A count or a number of milliseconds as the store keeps it (saturating).
pub(super) fn i(n: u64) -> i64 {
    i64::try_from(n).unwrap_or(i64::MAX)
}

/// Keeps an acknowledged action among a seat's recent ones.
pub(super) fn remember(recent: &mut VecDeque<Recent>, action: Recent) {
    if recent.len() == RECENT_ACTIONS {
        recent.pop_front();
    }
    recent.push_back(action);
}

/// Server milliseconds of match time 0: `epoch - ahead`, negative when match time is ahead.
pub(super) fn signed_ms(epoch: Duration, ahead: Duration) -> i64 {
    let ms = |d: Duration| i64::try_from(d.as_millis()).unwrap_or(i64::MAX);
    ms(epoch) - ms(ahead)
}

/// Every field of a rule set with its value.
pub fn rule_settings(rules: &Rules) -> Vec<RuleSetting> {
    rules
        .describe()
        .into_iter()
        .map(|(field, value)| RuleSetting {
            field: field.to_owned(),
            value,
        })
        .collect()
}

impl LiveMatch {
    /// Whether the match is over and how many of its games have ended: what `after_change`
    /// compares against.
    pub(super) fn progress(&self) -> (bool, usize) {
        let ended = BoardId::ALL
            .iter()
            .filter(|b| self.game.game_end(**b).is_some())
            .count();
        (self.game.is_over(), ended)
    }

    pub(super) fn status(&self) -> Status {
        if self.finished {
            Status::Finished
        } else if self.game.is_started() {
            Status::Playing
        } else {
            Status::Waiting
        }
    }

    /// Whether `seat` can be taken now (before the start, and empty); the error to send if not.
    pub(super) fn seat_free(&self, seat: Seat) -> Result<(), (ErrorCode, String)> {
        if self.game.is_started() {
            return Err((ErrorCode::NotAllowed, "the match has started".to_owned()));
        }
        if self.seats[seat.index()].is_some() {
            return Err((ErrorCode::SeatTaken, format!("{seat} is taken")));
        }
        Ok(())
    }

    pub(super) fn match_time(&self, now: Duration) -> Duration {
        (now + self.ahead).saturating_sub(self.epoch)
    }

    /// The next number of a numbered message.
    pub(super) fn next_seq(&mut self) -> u64 {
        self.seq += 1;
        self.seq
    }

    /// How long a flag fall waits for a move compensated for lag: as much as the next move of a
    /// seat whose clock runs could be compensated, at most [`MAX_FLAG_GRACE`].
    pub(super) fn flag_grace(&self) -> Duration {
        BoardId::ALL
            .into_iter()
            .filter(|b| self.game.game_end(*b).is_none())
            .filter_map(|b| self.game.clock(b).running().map(|c| Seat::new(b, c)))
            .map(|seat| {
                let lag = self.lag[seat.index()];
                lag.estimate.unwrap_or(Duration::ZERO).min(lag.quota)
            })
            .max()
            .unwrap_or(Duration::ZERO)
            .min(MAX_FLAG_GRACE)
    }

    /// The team's talk as `seat` may see it: his team's only.
    pub(super) fn talk_log(&self, seat: Option<Seat>) -> Vec<TalkEntry> {
        let Some(seat) = seat else {
            return Vec::new();
        };
        self.talk
            .iter()
            .filter(|(from, _)| *from == seat || *from == seat.partner())
            .map(|(_, e)| e.clone())
            .collect()
    }

    pub(super) fn clocks(&self, now: Duration) -> Clocks {
        // A finished match's clocks stay as they stopped.
        let t = match (self.finished, self.end_time) {
            (true, Some(end)) => end,
            _ => self.match_time(now),
        };
        let mut remaining_ms = [0; 4];
        let mut running = Vec::new();
        for (i, seat) in Seat::ALL.into_iter().enumerate() {
            remaining_ms[i] = ms(self.game.remaining(seat, t));
            if self.game.clock(seat.board).running() == Some(seat.color) && !self.finished {
                running.push(seat_name(seat));
            }
        }
        Clocks {
            remaining_ms,
            running,
        }
    }

    /// The next moment a flag can fall, in server time, with the grace for a compensated move.
    pub(super) fn deadline(&self) -> Option<Duration> {
        if self.finished || !self.game.is_started() {
            return None;
        }
        let grace = self.flag_grace();
        BoardId::ALL
            .into_iter()
            .filter(|b| self.game.game_end(*b).is_none())
            .filter_map(|b| {
                self.game
                    .clock(b)
                    .flag_time()
                    .map(|(_, t)| (t + self.epoch + grace).saturating_sub(self.ahead))
            })
            .min()
    }
}
