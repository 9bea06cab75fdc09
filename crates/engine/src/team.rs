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

use std::time::{Duration, Instant};

use bughouse_core::{Color, Match, Move, Position, Role, Seat, RESERVE_ROLES};

use crate::eval::{see, value};
use crate::level::{split_mix, Level};
use crate::search::{Limits, Options, Searcher, MATE, MATE_BOUND};
use crate::send::SendValues;

mod clock;
mod mates;

use clock::partner_is_waiting;

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
/// Sit to play for the partner's board when we stand this much worse and he this much
/// better (centipawns).
const STRATEGIC_SIT: i32 = 150;
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
    /// The opponents can sit ([`TeamBot::set_opponents_sit`]).
    opponents_sit: bool,
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
            opponents_sit: true,
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
    /// ([`crate::SearchConfig::pace_sitters`]).
    pub fn set_opponents_sit(&mut self, sit: bool) {
        self.opponents_sit = sit;
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

    /// Decide for `seat` (which must be to move on its board and the match not over).
    pub fn decide(&mut self, m: &Match, seat: Seat, now: Duration, limits: Limits) -> Decision {
        let started = Instant::now();
        let params = self.level.params();
        let pos = m.position(seat.board);
        let us = seat.color;
        let partner = seat.partner();
        let partner_live = m.game_end(partner.board).is_none();
        let pboard = m.position(partner.board);
        let mut talk = Vec::new();
        let mut nodes = 0;

        // A level's limits apply on top of the caller's.
        let mut limits = params.limits(limits);

        if partner_live
            && params.talks
            && m.is_started()
            && m.remaining(partner.opponent(), now).is_zero()
        {
            talk.push(Talk::Flag);
        }

        if pos.legal_moves().is_empty() {
            // Waiting (F3.7): ask for a piece that could be dropped.
            if let Some(role) = RESERVE_ROLES
                .into_iter()
                .find(|&r| pos.potential_drop_squares(r).any())
            {
                talk.push(Talk::Need(role));
            }
            return self.finish(Action::Sit, talk, nodes, 0, -MATE_BOUND, now, false);
        }

        // The pieces about to cross from the partner's board.
        let mut to_us = None;
        let mut to_them = None;
        if partner_live {
            if let Some(role) = best_capture(pboard) {
                if pboard.turn() == partner.color {
                    to_us = Some(role);
                } else {
                    to_them = Some(role);
                }
            }
        }

        // The opening book: at once, while our board holds no piece and none is on its way to
        // our opponent (the book's moves were searched without one).
        if self.searcher.config().book && params.exact() && to_them.is_none() {
            if let Some(mv) = crate::Book::builtin().lookup(pos) {
                return self.finish(Action::Move(mv), talk, 0, 0, 0, now, false);
            }
        }

        // A mate by checks of our own ends the match: played at once (full strength only),
        // with the piece our opponent is about to get already his.
        let mate_check = self.searcher.config().mate_check && params.exact();
        if mate_check {
            let mut probe = pos.clone();
            if let (true, Some(role)) = (params.full_team, to_them) {
                probe.add_to_reserve(!us, role);
            }
            if let Some(line) = mates::own_mate(&probe) {
                let score = MATE - line.plies as i32;
                return self.finish(
                    Action::Move(line.mv),
                    talk,
                    nodes,
                    line.plies,
                    score,
                    now,
                    false,
                );
            }
        }

        // A partner who cannot move (F3.7 waiting) loses on time unless we capture a piece he
        // can drop: such captures come first.
        let urgent: Vec<Role> = if partner_live && partner_is_waiting(pboard, partner) {
            [
                Role::Pawn,
                Role::Knight,
                Role::Bishop,
                Role::Rook,
                Role::Queen,
            ]
            .into_iter()
            .filter(|&r| pboard.potential_drop_squares(r).any())
            .collect()
        } else {
            Vec::new()
        };
        let bias = self.root_bias(pos, &urgent);
        let team = params.talks && partner_live;

        // The main search: with the piece our opponent is about to get already in his
        // reserve (full strength only).
        let mut main_pos = pos.clone();
        let pessimistic = params.full_team && to_them.is_some();
        if let (true, Some(role)) = (pessimistic, to_them) {
            main_pos.add_to_reserve(!us, role);
        }
        let main_share = if team { 0.7 } else { 1.0 };
        let mut main_limits = portion(&limits, started, main_share, 1.0);
        let mut optimum = None;
        if let (true, Some(deadline)) = (self.searcher.config().dynamic_time, limits.deadline) {
            // Stockfish's time use: the budget's share is the optimum, and a search whose best
            // move keeps changing or whose score falls may go on to several times that.
            let budget = deadline.saturating_duration_since(started);
            let left = m.remaining(seat, now);
            let max = budget.mul_f64(DYNAMIC_MAX).min(left / 8).max(budget);
            optimum = Some(budget.mul_f64(main_share));
            main_limits.deadline = Some(started + max.mul_f64(main_share));
        }
        let send = match self.searcher.config().partner_send {
            Some(percent) if team => Some(SendValues::new(
                &main_pos,
                pboard,
                partner.color,
                percent,
                self.searcher.eval_params(),
            )),
            _ => None,
        };
        let options = Options {
            noise: params.noise,
            exact_root: params.margin > 0,
            root_bias: bias.clone(),
            send,
            optimum,
            previous_score: self
                .last_score
                .filter(|&(s, _)| s == seat)
                .map(|(_, score)| score),
            ..Options::default()
        };
        let (result, roots) =
            self.searcher
                .search_with(&main_pos, main_limits, options, &mut |_| {});
        nodes += result.nodes;
        if let Some(optimum) = optimum {
            self.last_score = Some((seat, result.score));
            // The probes below get time even after a main search that ran past the budget.
            let probes = Instant::now() + optimum.mul_f64(0.3);
            limits.deadline = limits.deadline.map(|d| d.max(probes));
        }
        let mut best = params.choose(result.best.unwrap_or(roots[0].mv), &roots, &mut || {
            self.next_random()
        });
        // A move after which the opponent mates by checks gives way to a short search among
        // the moves after which he does not (the main search's scores of its other root moves
        // are bounds, not an order).
        if mate_check {
            let others = roots.iter().map(|r| r.mv);
            if let Some(safe) = mates::safe_moves(&main_pos, best, others, limits.deadline) {
                let options = Options {
                    root_bias: bias.clone(),
                    only: safe,
                    ..Options::default()
                };
                let again = portion(&limits, started, 0.5, 0.5);
                let (r, _) = self
                    .searcher
                    .search_with(&main_pos, again, options, &mut |_| {});
                nodes += r.nodes;
                if let Some(mv) = r.best {
                    best = mv;
                }
            }
        }
        let mut score = result.score;
        let depth = result.depth;

        if !team {
            return self.finish(Action::Move(best), talk, nodes, depth, score, now, false);
        }

        let may_sit = params.sits && self.may_sit(m, seat, now);
        let mut sit = false;
        let mut danger = false;
        // The score of our real position (the main search may have counted an incoming piece).
        let mut real_score = (!pessimistic).then_some(result.score);

        // (a) Every move loses to the piece the opponents' partner is about to capture.
        if let (true, Some(role)) = (pessimistic, to_them) {
            if result.score <= -MATE_BOUND {
                let probe_limits = portion(&limits, started, 0.5, 1.0);
                let real =
                    self.searcher
                        .search_with(pos, probe_limits, Options::default(), &mut |_| {});
                nodes += real.0.nodes;
                real_score = Some(real.0.score);
                if real.0.score > -MATE_BOUND && real.0.score > result.score + 300 {
                    danger = true;
                    talk.push(Talk::DontGive(role));
                    if may_sit {
                        sit = true;
                    } else if let Some(mv) = real.0.best {
                        best = mv;
                        score = real.0.score;
                    }
                }
            }
        }

        // (b) The piece that mates is one our partner can capture now.
        if !sit && score < MATE_BOUND {
            if let Some(role) = to_us {
                let mut what_if = pos.clone();
                what_if.add_to_reserve(us, role);
                let probe = probe_limits(&limits, started, 0.4, 5);
                let r = self
                    .searcher
                    .search_with(&what_if, probe, Options::default(), &mut |_| {});
                nodes += r.0.nodes;
                if r.0.score >= MATE_BOUND {
                    talk.push(Talk::Need(role));
                    if may_sit {
                        sit = true;
                    }
                }
            }
        }

        // What-if probes for the talk: the piece that would mate for us, the piece that would
        // get us mated.
        if params.full_team && !sit {
            if score < MATE_BOUND && !talk.iter().any(|t| matches!(t, Talk::Need(_))) {
                for role in roles_on(pboard, !partner.color) {
                    if Some(role) == to_us {
                        continue;
                    }
                    let mut what_if = pos.clone();
                    what_if.add_to_reserve(us, role);
                    let probe = probe_limits(&limits, started, 0.25, 3);
                    let r =
                        self.searcher
                            .search_with(&what_if, probe, Options::default(), &mut |_| {});
                    nodes += r.0.nodes;
                    if r.0.score >= MATE_BOUND {
                        talk.push(Talk::Need(role));
                        break;
                    }
                }
            }
            if score > -MATE_BOUND && !danger {
                for role in roles_on(pboard, partner.color) {
                    if pessimistic && Some(role) == to_them {
                        continue;
                    }
                    let mut what_if = pos.clone();
                    what_if.add_to_reserve(!us, role);
                    let probe = probe_limits(&limits, started, 0.25, 3);
                    let r =
                        self.searcher
                            .search_with(&what_if, probe, Options::default(), &mut |_| {});
                    nodes += r.0.nodes;
                    if r.0.score <= -MATE_BOUND {
                        talk.push(Talk::DontGive(role));
                        danger = true;
                        break;
                    }
                }
            }
        }

        // Ask the partner to sit while his moving would let them capture what mates us, and
        // (race) while we mate by force: the mated opponent sits for his last seconds, and our
        // partner, given nothing away, can sit him out.
        let mating = self.searcher.config().race && score >= MATE_BOUND;
        let hold = danger || mating;
        if hold && pboard.turn() == partner.color {
            talk.push(Talk::Sit);
            self.asked_sit = true;
        } else if !hold && self.asked_sit {
            talk.push(Talk::Go);
            self.asked_sit = false;
        }

        // The partner asked us to sit (with `sit_only_racing`, only while his opponent is to
        // move: with the partner to move himself both our clocks would run and neither of
        // theirs).
        let partner_racing =
            !self.searcher.config().sit_only_racing || pboard.turn() != partner.color;
        if !sit && self.partner_sit && may_sit && score < MATE_BOUND && partner_racing {
            sit = true;
        }

        // The opponent across sits and our partner waits on him: with more time than he has,
        // sit him out (`sit_out`): both boards stand still and his clock runs down first.
        if !sit && params.sits && score < MATE_BOUND && self.sits_out(m, seat, now) {
            sit = true;
        }

        // Mated whatever we do: a loss on time is no worse than a mate, so sit while there is
        // time to spare and give the partner the chance to win the match first.
        if !sit
            && params.sits
            && m.is_started()
            && real_score.is_some_and(|s| s <= -MATE_BOUND)
            && m.remaining(seat, now) > self.desperate_floor()
        {
            sit = true;
        }

        // Play for the other board: when we stand worse here and the partner stands well
        // there, sit (time permitting) and let him decide the match (F4.3: the first game to
        // end decides it), rather than hasten our own loss.
        if !sit && may_sit && params.full_team && score <= -STRATEGIC_SIT {
            let probe = probe_limits(&limits, started, 0.5, 4);
            let r = self
                .searcher
                .search_with(pboard, probe, Options::default(), &mut |_| {});
            nodes += r.0.nodes;
            let partner_score = if pboard.turn() == partner.color {
                r.0.score
            } else {
                -r.0.score
            };
            if partner_score >= STRATEGIC_SIT && partner_score - score >= 3 * STRATEGIC_SIT {
                sit = true;
            }
        }

        let action = if sit { Action::Sit } else { Action::Move(best) };
        self.finish(action, talk, nodes, depth, score, now, sit)
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

/// `time_frac` of the time still left before the deadline and `node_frac` of the node limit.
fn portion(limits: &Limits, _started: Instant, time_frac: f64, node_frac: f64) -> Limits {
    let now = Instant::now();
    Limits {
        deadline: limits
            .deadline
            .map(|d| now + d.saturating_duration_since(now).mul_f64(time_frac)),
        max_nodes: limits
            .max_nodes
            .map(|n| ((n as f64 * node_frac) as u64).max(1)),
        max_depth: limits.max_depth,
    }
}

/// A what-if probe: a share of what is left, a small node share, at most `depth` plies.
fn probe_limits(limits: &Limits, started: Instant, time_frac: f64, depth: u32) -> Limits {
    let mut l = portion(limits, started, time_frac, 0.1);
    l.max_depth = Some(l.max_depth.map_or(depth, |d| d.min(depth)));
    if l.deadline.is_none() && l.max_nodes.is_none() {
        l.max_nodes = Some(200_000);
    }
    l
}

/// With `dynamic_time`: the main search may take up to this many times its budget (and at
/// most an eighth of the time left).
const DYNAMIC_MAX: f64 = 4.0;

/// The role passed on by the best capture of the side to move (the most valuable victim that
/// does not lose material by SEE), as it would arrive (a promoted piece as a pawn).
fn best_capture(pos: &Position) -> Option<Role> {
    let mut best: Option<(i32, Role)> = None;
    for mv in pos.legal_moves() {
        let Some(victim) = pos.captured_role(mv) else {
            continue;
        };
        let gain = if mv.is_en_passant() {
            100
        } else {
            see(pos, mv.from().unwrap_or(mv.to()), mv.to())
        };
        if gain < 0 {
            continue;
        }
        let passed = if pos.promoted().contains(mv.to()) {
            Role::Pawn
        } else {
            victim
        };
        let key = value(passed) * 4 + gain;
        if best.is_none_or(|(k, _)| key > k) {
            best = Some((key, passed));
        }
    }
    best.map(|(_, r)| r)
}

/// The roles of `color`'s pieces on the board (what could be captured and passed on),
/// strongest first.
fn roles_on(pos: &Position, color: Color) -> Vec<Role> {
    let b = pos.board();
    [
        Role::Queen,
        Role::Rook,
        Role::Bishop,
        Role::Knight,
        Role::Pawn,
    ]
    .into_iter()
    .filter(|&r| (b.by_color(color) & b.by_role(r)).any())
    .collect()
}
