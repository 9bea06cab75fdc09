//! The team bot's clock: how long to think (`TeamBot::budget`, from both boards' clocks) and
//! when sitting is safe on the clock (`may_sit`, `desperate_floor`), whether the opponent
//! across sits against us (`sitter_across`, `sits_out`), and whether he waits for a piece we
//! can starve him of (`starves`).

use std::time::Duration;

use bughouse_core::{Color, Match, Position, Seat, Verdict};

use super::TeamBot;

/// Sit only with at least this much more time than the opponent.
const SIT_LEAD: Duration = Duration::from_secs(3);
/// Sit only with at least this much time left.
const SIT_FLOOR: Duration = Duration::from_secs(8);
/// Never sit longer than this in one go.
const SIT_MAX: Duration = Duration::from_secs(30);
/// A bot that is mated whatever it does sits until it has this much time left.
const DESPERATE_FLOOR: Duration = Duration::from_secs(2);
/// With [`crate::SearchConfig::long_time`]: the share of the time left a move gets (1/20).
const LONG_SHARE: f64 = 20.0;
/// With [`crate::SearchConfig::short_long_time`]: bases below this think [`LONG_SHARE`].
const SHORT_BASE: Duration = Duration::from_secs(60);
/// With [`crate::SearchConfig::race`] or `lean_time`: the share of the time left a move gets
/// (1/50)...
const RACE_SHARE: f64 = 50.0;
/// ... times this in the first moves of the board ...
const RACE_OPENING: f64 = 0.7;
/// ... up to this full move.
const RACE_OPENING_MOVES: u32 = 8;
/// With [`crate::SearchConfig::race`], a bot mated whatever it does sits until this much time
/// is left.
const RACE_DESPERATE_FLOOR: Duration = Duration::from_millis(500);
/// With [`crate::SearchConfig::low_floor`], a bot mated whatever it does sits until this much
/// time is left.
const LOW_DESPERATE_FLOOR: Duration = Duration::from_millis(300);
/// With [`crate::SearchConfig::sit_out`]: the opponent across sits once he has held his move
/// this share of the base time (1/20: 3 s at 1+0) ...
const SITTER_SHARE: u32 = 20;
/// ... and at least this long (a think of 0.5 s at 10s+0 is no sit).
const SITTER_MIN: Duration = Duration::from_secs(1);
/// While he sits, a move's budget is cut to this share of itself.
const HASTE: f64 = 0.2;
/// We sit him out with at least this share of the base time more than he has (1/60: 1 s at
/// 1+0) ...
const SIT_OUT_SHARE: u32 = 60;
/// ... and at least this much more.
const SIT_OUT_MIN_LEAD: Duration = Duration::from_millis(500);
/// With [`crate::SearchConfig::quick_open`]: the share of the budget a move gets in the
/// opening ...
const QUICK_OPEN: f64 = 0.25;
/// ... up to this full move of our board, while neither side there has a piece in hand.
const QUICK_OPEN_MOVES: u32 = 8;

impl TeamBot {
    /// How long to think now for this seat (from both boards' clocks); `now` is match time.
    ///
    /// About a thirtieth of the time left plus most of the increment; less when behind the
    /// opponent on the clock (time is material in bughouse: the side with more time can sit),
    /// or when the partner is short of time; never more than a sixth of the time left, and
    /// always leaving a safety margin for the round trip of the move. With
    /// [`crate::SearchConfig::team_clock`]: catching up harder, with the faster of both
    /// opponents, and the partner's clock read relative to the base time. With
    /// [`crate::SearchConfig::race`] or [`crate::SearchConfig::lean_time`]: a fiftieth of the
    /// time left, and less in the opening; with [`crate::SearchConfig::long_time`] (or
    /// [`crate::SearchConfig::short_long_time`] below a one-minute base), a twentieth. With
    /// [`crate::SearchConfig::pace`]: read from at most its base (8 s for `pace`) plus our lead
    /// on the faster of both opponents instead of from all our time left (with
    /// [`crate::SearchConfig::pace_sitters`], so only while the opponents can sit). With
    /// [`crate::SearchConfig::quick_open`]: a quarter in the first eight moves while neither
    /// side of our board has a piece in hand.
    pub fn budget(&self, m: &Match, seat: Seat, now: Duration) -> Duration {
        let config = self.searcher.config();
        let team_clock = config.team_clock;
        let lean = config.race || config.lean_time;
        let ours = m.remaining(seat, now);
        let partner = seat.partner();
        let mut theirs = m.remaining(seat.opponent(), now);
        let pace = config.pace.or(config
            .pace_sitters
            .filter(|_| self.searcher.opponents_sit())
            // Measured at one minute; longer games keep the same share of the base.
            .map(|p| p.max(p.mul_f64(m.time_control().base.as_secs_f64() / 60.0))));
        if (team_clock || pace.is_some()) && m.game_end(partner.board).is_none() {
            // The opponent across can sit against us: the faster of both counts.
            theirs = theirs.max(m.remaining(partner.opponent(), now));
        }
        let inc = m.time_control().increment;
        // Ahead on our clock, the partner short of time or behind on his: fixed amounts, or
        // (`relative_clock`, part of the team's clocks) a sixth, a quarter and a third of the
        // base time (the same at one minute; at ten seconds a partner is no longer always
        // "short of time").
        let (ahead, short, behind) = if config.relative_clock {
            let base = m.time_control().base;
            (base / 6, base / 4, base / 3)
        } else {
            (
                Duration::from_secs(10),
                Duration::from_secs(15),
                Duration::from_secs(20),
            )
        };
        let share = if lean {
            RACE_SHARE
        } else if config.long_time || (config.short_long_time && m.time_control().base < SHORT_BASE)
        {
            LONG_SHARE
        } else {
            30.0
        };
        let (o, th) = (ours.as_secs_f64(), theirs.as_secs_f64());
        // Keeping pace: the time ahead of the faster opponent is ours to spend, the rest is
        // read as if only a few seconds were left.
        let left = match pace {
            Some(base) => o.min(base.as_secs_f64() + (o - th).max(0.0)),
            None => o,
        };
        let mut t = left / share + inc.as_secs_f64() * 0.75;
        if lean && m.position(seat.board).fullmoves() <= RACE_OPENING_MOVES {
            t *= RACE_OPENING;
        }
        if o < th && th > 0.0 {
            // Behind on the clock: catch up (with the team's clocks, hard: a tenth behind
            // thinks a third less).
            let ratio = if team_clock {
                (o / th).powi(4).max(0.1)
            } else {
                (o / th).powi(2).max(0.2)
            };
            t *= ratio;
        } else if o > th + ahead.as_secs_f64() {
            t *= 1.2;
        }
        if m.game_end(partner.board).is_none() {
            let partner_left = m.remaining(partner, now);
            let partner_opp = m.remaining(partner.opponent(), now);
            if partner_left < short || partner_left + behind < partner_opp {
                t *= 0.6;
            }
        }
        if m.game_end(partner.board).is_none()
            && partner_is_waiting(m.position(partner.board), partner)
        {
            // The partner's clock runs while he waits for a piece from us.
            t *= 0.3;
        }
        if config.quick_open && quiet_opening(m.position(seat.board)) {
            // Ten plies of a quiet opening cost a quarter of the clock a middlegame move gets.
            t *= QUICK_OPEN;
        }
        if config.sit_out && self.sitter_across(m, seat, now).is_some() {
            // The sitter's clock runs all the while, ours only while we think: move fast and
            // the race turns our way.
            t *= HASTE;
        }
        let margin = 0.05 + o * 0.02;
        let t = t.min(o / 6.0).min((o - margin).max(0.0)).max(0.005);
        Duration::from_secs_f64(t)
    }

    /// A bot mated whatever it does sits until it has this much time left.
    pub(super) fn desperate_floor(&self) -> Duration {
        let config = self.searcher.config();
        if config.low_floor {
            LOW_DESPERATE_FLOOR
        } else if config.race {
            RACE_DESPERATE_FLOOR
        } else if config.team_clock {
            DESPERATE_FLOOR / 2
        } else {
            DESPERATE_FLOOR
        }
    }

    /// Whether sitting is safe on the clock: comfortably more time than the opponent, enough
    /// time left, and not sitting too long already. With [`crate::SearchConfig::race`]: more
    /// time than both opponents (the one across may be sitting against us), the lead and the
    /// floor at most a twentieth and an eighth of the base time.
    pub(super) fn may_sit(&self, m: &Match, seat: Seat, now: Duration) -> bool {
        if !m.is_started() || m.game_end(seat.partner().board).is_some() {
            return false;
        }
        let ours = m.remaining(seat, now);
        let mut theirs = m.remaining(seat.opponent(), now);
        let (lead, floor) = if self.searcher.config().race {
            theirs = theirs.max(m.remaining(seat.partner().opponent(), now));
            let base = m.time_control().base;
            (SIT_LEAD.min(base / 20), SIT_FLOOR.min(base / 8))
        } else {
            (SIT_LEAD, SIT_FLOOR)
        };
        let sat = self
            .sit_since
            .map_or(Duration::ZERO, |s| now.saturating_sub(s));
        let lead_at_start = (ours + sat).saturating_sub(theirs);
        ours > theirs + lead && ours > floor && sat < SIT_MAX.min(lead_at_start / 2)
    }
}

impl TeamBot {
    /// With [`crate::SearchConfig::sit_out`]: the time left of the opponent across if he sits
    /// against us: our partner's game goes on, he is to move there and has held his move for a
    /// twentieth of the base time (at least a second) since the last move on that board.
    pub(super) fn sitter_across(&self, m: &Match, seat: Seat, now: Duration) -> Option<Duration> {
        if !self.searcher.config().sit_out || !m.is_started() {
            return None;
        }
        let across = seat.partner().opponent();
        if m.game_end(across.board).is_some() || m.to_move(across.board) != across {
            return None;
        }
        let last = m
            .record()
            .iter()
            .rev()
            .find(|r| r.seat.board == across.board)?;
        let held = now.saturating_sub(last.at);
        let sits = (m.time_control().base / SITTER_SHARE).max(SITTER_MIN);
        (held >= sits).then(|| m.remaining(across, now))
    }

    /// With [`crate::SearchConfig::sit_out`]: whether to sit the sitter across out: he sits
    /// ([`TeamBot::sitter_across`]) and we have more time than he has, by a sixtieth of the
    /// base time (at least half a second). Our board stands still meanwhile and his clock
    /// runs down first: he must move (Fairy-Stockfish sits to its last second) or lose on time.
    pub(super) fn sits_out(&self, m: &Match, seat: Seat, now: Duration) -> bool {
        let Some(his) = self.sitter_across(m, seat, now) else {
            return false;
        };
        m.remaining(seat, now) > his + sit_out_lead(m)
    }

    /// With [`crate::SearchConfig::starve`]: whether to sit while the opponent across waits
    /// for a piece (F3.7: he is to move there and has no legal move). His partner, our
    /// opponent, can capture a piece to pass him only after a move of ours; we sit with more
    /// time than he has (by the lead of [`TeamBot::sits_out`]), our board stands still, and his
    /// clock runs out first, as Fairy-Stockfish's partner does to a waiting bot of ours.
    pub(super) fn starves(&self, m: &Match, seat: Seat, now: Duration) -> bool {
        if !self.searcher.config().starve || !m.is_started() {
            return false;
        }
        let across = seat.partner().opponent();
        m.game_end(across.board).is_none()
            && m.to_move(across.board) == across
            && m.remaining(seat, now) > m.remaining(across, now) + sit_out_lead(m)
            && m.verdict(across.board) == Verdict::Waiting
    }
}

/// The lead on the clock with which we sit out an opponent across who sits or waits: a
/// sixtieth of the base time, at least [`SIT_OUT_MIN_LEAD`].
fn sit_out_lead(m: &Match) -> Duration {
    (m.time_control().base / SIT_OUT_SHARE).max(SIT_OUT_MIN_LEAD)
}

/// Whether the board is in its first [`QUICK_OPEN_MOVES`] moves with both reserves empty.
fn quiet_opening(pos: &Position) -> bool {
    pos.fullmoves() <= QUICK_OPEN_MOVES
        && pos.reserve(Color::White).is_empty()
        && pos.reserve(Color::Black).is_empty()
}

/// Whether `partner` is to move on his board and has no legal move: he waits for a piece.
pub(super) fn partner_is_waiting(pboard: &Position, partner: Seat) -> bool {
    pboard.turn() == partner.color && !pboard.has_legal_moves()
}
