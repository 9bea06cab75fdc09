//! The team bot: one seat of a bughouse match, seeing both boards.
//!
//! On top of the single-board search it
//! - reads the partner's board for the pieces about to cross: the best capture (by SEE) of the
//!   side to move there goes to us (our partner moves) or to our opponent (the opponents'
//!   partner moves);
//! - searches its own board with the piece our opponent is about to receive already in his
//!   reserve (full strength), so it guards the drop squares in time;
//! - **sits** (a) when every move loses to that incoming piece while without it we stand,
//!   and (b) when the piece it needs for a mate is one our partner can capture now; only while
//!   its clock is comfortably ahead of its opponent's, and never longer than a bound; and
//!   (with [`crate::SearchConfig::sit_out`]) when the opponent across sits while it has more
//!   time than he has;
//! - **talks**: `Need(role)` for the piece that would mate, `DontGive(role)` for the piece that
//!   would get us mated, `Sit` to the partner when his moving would hand that piece over, `Go`
//!   when the danger is gone, `Flag` when the partner's opponent is out of time;
//! - obeys the partner: sits on `Sit` until `Go` (time permitting), prefers capturing a `Need`
//!   piece, avoids leaving a `DontGive` piece en prise;
//! - allocates its thinking time from both boards' clocks.

use std::time::Duration;

use bughouse_core::{Move, Position, Role, Seat};

use crate::eval::value;
use crate::level::{split_mix, Level};
use crate::search::Searcher;

mod clock;
mod decide;
mod mates;

/// A message between partners. The server maps it to its protocol.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub enum Talk {
    /// "I need this piece": capturing it helps me (it would mate or win big).
    Need(Role),
    /// "Don't give them this piece": our opponents would mate me with it; avoid trades and
    /// captures that hand it to them.
    DontGive(Role),
    /// "Stop moving" (M9.4): every move of yours lets them capture what mates me.
    Sit,
    /// "Move again": the reason to sit is gone.
    Go,
    /// "Your opponent's flag fell" (M9.5).
    Flag,
}

/// What the bot does now.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Action {
    /// Play this move.
    Move(Move),
    /// Do not move; let the clock run and ask again later.
    Sit,
}

/// The bot's decision for one seat.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Decision {
    /// Move or sit.
    pub action: Action,
    /// Messages for the partner (only new ones: a message is not repeated while it holds).
    pub talk: Vec<Talk>,
    /// When sitting: ask again after at most this long.
    pub recheck: Option<Duration>,
    /// Nodes searched, all searches of this decision together.
    pub nodes: u64,
    /// Depth of the main search.
    pub depth: u32,
    /// Score of the main search for the bot's side, centipawns or a mate score.
    pub score: i32,
}

/// How long a sitting bot waits before asking again.
const RECHECK: Duration = Duration::from_millis(300);
/// How many of our own moves a partner's `Need`/`DontGive` holds.
const REQUEST_MOVES: u8 = 4;

/// A bughouse bot for one seat: search, sitting, partner talk and time use.
///
/// # Examples
///
/// ```
/// use std::time::Duration;
/// use bughouse_core::{Match, Rules, Seat, TimeControl};
/// use bughouse_engine::{Action, Level, Limits, TeamBot};
///
/// let mut m = Match::new(Rules::fide(), TimeControl::default());
/// m.start(Duration::ZERO).unwrap();
/// let mut bot = TeamBot::new(Level::new(3).unwrap(), 1);
/// let d = bot.decide(&m, Seat::WHITE_A, Duration::ZERO, Limits::nodes(5_000));
/// let Action::Move(mv) = d.action else { panic!("sat at the start") };
/// assert!(m.position(Seat::WHITE_A.board).legal_moves().contains(&mv));
/// ```
pub struct TeamBot {
    level: Level,
    searcher: Searcher,
    rng: u64,
    /// The partner asked us to sit and has not said `Go`.
    partner_sit: bool,
    /// Pieces the partner needs, with how many of our moves the request still holds.
    partner_need: Vec<(Role, u8)>,
    /// Pieces the partner does not want the opponents to get.
    partner_dont_give: Vec<(Role, u8)>,
    /// Match time at which the current sit began.
    sit_since: Option<Duration>,
    /// What we said at the last decision, so as not to repeat it.
    said: Vec<Talk>,
    /// We asked the partner to sit.
    asked_sit: bool,
    /// The main search's score at our last decision, and for which seat (`dynamic_time`).
    last_score: Option<(Seat, i32)>,
}

impl TeamBot {
    /// A bot of `level`; `seed` drives its random choices (weak levels), so that a search with
    /// node limits only is deterministic.
    pub fn new(level: Level, seed: u64) -> TeamBot {
        TeamBot::with_hash(level, seed, 16)
    }

    /// A bot with a transposition table of `tt_mb` megabytes.
    pub fn with_hash(level: Level, seed: u64, tt_mb: usize) -> TeamBot {
        TeamBot {
            level,
            searcher: Searcher::new(tt_mb),
            rng: seed ^ 0x6a09_e667_f3bc_c908,
            partner_sit: false,
            partner_need: Vec::new(),
            partner_dont_give: Vec::new(),
            sit_since: None,
            said: Vec::new(),
            asked_sit: false,
            last_score: None,
        }
    }

    /// Plays with the evaluation weights `params` (default: [`crate::EvalParams::DEFAULT`]).
    pub fn set_eval_params(&mut self, params: crate::EvalParams) {
        self.searcher.set_eval_params(params);
    }

    /// Plays with the evaluation weights and search margins `params` (default:
    /// [`crate::EngineParams::DEFAULT`]).
    pub fn set_params(&mut self, params: crate::EngineParams) {
        self.searcher.set_params(params);
    }

    /// The search's switches (default: [`crate::SearchConfig::DEFAULT`]).
    pub fn set_search_config(&mut self, config: crate::SearchConfig) {
        self.searcher.set_config(config);
    }

    /// Whether the opponents can sit (default: they can, as every human team and any engine
    /// team that talks can). A pair of engines that never hold a move to wait for a piece (two
    /// UCI engines) cannot; told so, the bot does not keep pace with their clocks
    /// ([`crate::SearchConfig::pace_sitters`]) and does not count waiting in check as nearly
    /// lost ([`crate::SearchConfig::waiting_lost`]).
    pub fn set_opponents_sit(&mut self, sit: bool) {
        self.searcher.set_opponents_sit(sit);
    }

    /// The level.
    pub fn level(&self) -> Level {
        self.level
    }

    /// A message from the partner.
    pub fn hear(&mut self, talk: Talk) {
        match talk {
            Talk::Sit => self.partner_sit = true,
            Talk::Go => self.partner_sit = false,
            Talk::Need(role) => {
                self.partner_need.retain(|&(r, _)| r != role);
                self.partner_need.push((role, REQUEST_MOVES));
            }
            Talk::DontGive(role) => {
                self.partner_dont_give.retain(|&(r, _)| r != role);
                self.partner_dont_give.push((role, REQUEST_MOVES));
            }
            Talk::Flag => {}
        }
    }

    /// Records the decision: sitting time, expiring requests, talk not said before.
    #[allow(clippy::too_many_arguments)]
    fn finish(
        &mut self,
        action: Action,
        talk: Vec<Talk>,
        nodes: u64,
        depth: u32,
        score: i32,
        now: Duration,
        sitting: bool,
    ) -> Decision {
        let sitting = sitting || action == Action::Sit;
        if sitting {
            self.sit_since.get_or_insert(now);
        } else {
            self.sit_since = None;
            for list in [&mut self.partner_need, &mut self.partner_dont_give] {
                for (_, n) in list.iter_mut() {
                    *n = n.saturating_sub(1);
                }
                list.retain(|&(_, n)| n > 0);
            }
        }
        let new: Vec<Talk> = talk
            .iter()
            .copied()
            .filter(|t| !self.said.contains(t) || matches!(t, Talk::Sit | Talk::Go))
            .collect();
        self.said = talk;
        Decision {
            action,
            talk: new,
            recheck: sitting.then_some(RECHECK),
            nodes,
            depth,
            score,
        }
    }

    /// Bonuses and penalties for root moves from the partner's requests.
    fn root_bias(&self, pos: &Position, urgent: &[Role]) -> Vec<(Move, i32)> {
        if self.partner_need.is_empty() && self.partner_dont_give.is_empty() && urgent.is_empty() {
            return Vec::new();
        }
        let us = pos.turn();
        let mut bias = Vec::new();
        for mv in pos.legal_moves() {
            let mut b = 0;
            if let Some(victim) = pos.captured_role(mv) {
                let passed = if pos.promoted().contains(mv.to()) {
                    Role::Pawn
                } else {
                    victim
                };
                if self.partner_need.iter().any(|&(r, _)| r == passed) {
                    b += value(passed) / 2 + 50;
                }
                if urgent.contains(&passed) {
                    b += 600;
                }
            }
            if !self.partner_dont_give.is_empty() {
                let mut child = pos.clone();
                child.play_unchecked(mv);
                let b2 = child.board();
                let occ = b2.occupied();
                for &(role, _) in &self.partner_dont_give {
                    let exposed = (b2.by_color(us) & b2.by_role(role))
                        .into_iter()
                        .any(|sq| child.attackers_to(sq, !us, occ).any());
                    if exposed {
                        b -= value(role) / 2 + 50;
                    }
                }
            }
            if b != 0 {
                bias.push((mv, b));
            }
        }
        bias
    }

    fn next_random(&mut self) -> u64 {
        split_mix(&mut self.rng)
    }
}
