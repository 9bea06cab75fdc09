//! The team bot's decision for one seat ([`TeamBot::decide`]), in stages:
//!
//! 1. what is decided at once: our own waiting (F3.7), the opening book, a mate by checks of
//!    our own;
//! 2. the main search, with the piece about to reach our opponent already his, and the mate
//!    check of its move;
//! 3. the probes of what crosses from the other board: (a) every move loses to the incoming
//!    piece, (b) the piece that mates is one our partner can capture now, and the what-if
//!    probes behind `Need` and `DontGive`;
//! 4. the partner asked to sit or go, and the reasons to sit ourselves.

use std::time::{Duration, Instant};

use bughouse_core::{Color, Match, Move, Position, Role, Seat, RESERVE_ROLES};

use super::clock::partner_is_waiting;
use super::{mates, Action, Decision, Talk, TeamBot};
use crate::eval::{see, value};
use crate::level::LevelParams;
use crate::search::{Limits, Options, RootMove, SearchResult, MATE, MATE_BOUND};
use crate::send::SendValues;

/// Sit to play for the partner's board when we stand this much worse and he this much
/// better (centipawns).
const STRATEGIC_SIT: i32 = 150;

/// With `dynamic_time`: the main search may take up to this many times its budget (and at
/// most an eighth of the time left).
const DYNAMIC_MAX: f64 = 4.0;

/// The match as one decision reads it.
struct Turn<'a> {
    m: &'a Match,
    seat: Seat,
    now: Duration,
    started: Instant,
    params: LevelParams,
    pos: &'a Position,
    partner: Seat,
    pboard: &'a Position,
    partner_live: bool,
    /// The piece our partner's best capture would send us (he is to move).
    to_us: Option<Role>,
    /// The piece the opponents' partner's best capture would send our opponent (he is to
    /// move).
    to_them: Option<Role>,
}

impl<'a> Turn<'a> {
    fn read(
        m: &'a Match,
        seat: Seat,
        now: Duration,
        started: Instant,
        params: LevelParams,
    ) -> Turn<'a> {
        let partner = seat.partner();
        let partner_live = m.game_end(partner.board).is_none();
        let pboard = m.position(partner.board);
        let (mut to_us, mut to_them) = (None, None);
        if partner_live {
            if let Some(role) = best_capture(pboard) {
                if pboard.turn() == partner.color {
                    to_us = Some(role);
                } else {
                    to_them = Some(role);
                }
            }
        }
        Turn {
            m,
            seat,
            now,
            started,
            params,
            pos: m.position(seat.board),
            partner,
            pboard,
            partner_live,
            to_us,
            to_them,
        }
    }

    /// Whether the team stages run at all: the level talks and the partner still plays.
    fn team(&self) -> bool {
        self.params.talks && self.partner_live
    }
}

/// A decision in the making: the move so far and what the stages add to it.
struct Plan {
    best: Move,
    /// The score of the move for our side (the main search's, or the real position's when
    /// stage (a) replaced the move).
    score: i32,
    depth: u32,
    nodes: u64,
    talk: Vec<Talk>,
    /// The main search counted the piece about to reach our opponent.
    pessimistic: bool,
    /// The score of our real position, once known.
    real_score: Option<i32>,
    /// The opponents would mate us with a piece they may get.
    danger: bool,
    /// The clock allows a sit now.
    may_sit: bool,
    sit: bool,
}

impl TeamBot {
    /// Decide for `seat` (which must be to move on its board and the match not over).
    pub fn decide(&mut self, m: &Match, seat: Seat, now: Duration, limits: Limits) -> Decision {
        let started = Instant::now();
        let turn = Turn::read(m, seat, now, started, self.level.params());
        // A level's limits apply on top of the caller's.
        let mut limits = turn.params.limits(limits);
        let mut talk = Vec::new();
        if turn.partner_live
            && turn.params.talks
            && m.is_started()
            && m.remaining(turn.partner.opponent(), now).is_zero()
        {
            talk.push(Talk::Flag);
        }
        if let Some(decision) = self.at_once(&turn, &mut talk) {
            return decision;
        }

        let mut plan = self.main_search(&turn, &mut limits, talk);
        if turn.team() {
            plan.may_sit = turn.params.sits && self.may_sit(m, seat, now);
            self.incoming_mate(&turn, &limits, &mut plan);
            self.needed_piece(&turn, &limits, &mut plan);
            if turn.params.full_team && !plan.sit {
                self.what_if(&turn, &limits, &mut plan);
            }
            self.ask_partner(&turn, &mut plan);
            self.reasons_to_sit(&turn, &limits, &mut plan);
        }
        let action = if plan.sit {
            Action::Sit
        } else {
            Action::Move(plan.best)
        };
        self.finish(
            action, plan.talk, plan.nodes, plan.depth, plan.score, now, plan.sit,
        )
    }

    /// Stage 1: a decision that needs no main search.
    fn at_once(&mut self, turn: &Turn, talk: &mut Vec<Talk>) -> Option<Decision> {
        let (pos, params, now) = (turn.pos, turn.params, turn.now);
        if pos.legal_moves().is_empty() {
            // Waiting (F3.7): ask for a piece that could be dropped.
            if let Some(role) = RESERVE_ROLES
                .into_iter()
                .find(|&r| pos.potential_drop_squares(r).any())
            {
                talk.push(Talk::Need(role));
            }
            let talk = std::mem::take(talk);
            return Some(self.finish(Action::Sit, talk, 0, 0, -MATE_BOUND, now, false));
        }

        // The opening book: at once, while our board holds no piece and none is on its way to
        // our opponent (the book's moves were searched without one).
        if self.searcher.config().book && params.exact() && turn.to_them.is_none() {
            if let Some(mv) = crate::Book::builtin().lookup(pos) {
                let talk = std::mem::take(talk);
                return Some(self.finish(Action::Move(mv), talk, 0, 0, 0, now, false));
            }
        }

        // A mate by checks of our own ends the match: played at once (full strength only),
        // with the piece our opponent is about to get already his.
        if self.mate_check(params) {
            let mut probe = pos.clone();
            if let (true, Some(role)) = (params.full_team, turn.to_them) {
                probe.add_to_reserve(!turn.seat.color, role);
            }
            if let Some(line) = mates::own_mate(&probe) {
                let score = MATE - line.plies as i32;
                let talk = std::mem::take(talk);
                let action = Action::Move(line.mv);
                return Some(self.finish(action, talk, 0, line.plies, score, now, false));
            }
        }
        None
    }

    /// Whether this decision checks its moves by a mate search by checks
    /// ([`crate::SearchConfig::mate_check`], full strength only).
    fn mate_check(&self, params: LevelParams) -> bool {
        self.searcher.config().mate_check && params.exact()
    }

    /// Stage 2: the main search, with the piece our opponent is about to get already in his
    /// reserve (full strength only), and the mate check of its move.
    fn main_search(&mut self, turn: &Turn, limits: &mut Limits, talk: Vec<Talk>) -> Plan {
        let (pos, params, started) = (turn.pos, turn.params, turn.started);
        // A partner who cannot move (F3.7 waiting) loses on time unless we capture a piece he
        // can drop: such captures come first.
        let urgent: Vec<Role> =
            if turn.partner_live && partner_is_waiting(turn.pboard, turn.partner) {
                RESERVE_ROLES
                    .into_iter()
                    .filter(|&r| turn.pboard.potential_drop_squares(r).any())
                    .collect()
            } else {
                Vec::new()
            };
        let bias = self.root_bias(pos, &urgent);
        let team = turn.team();

        let mut main_pos = pos.clone();
        let pessimistic = params.full_team && turn.to_them.is_some();
        if let (true, Some(role)) = (pessimistic, turn.to_them) {
            main_pos.add_to_reserve(!turn.seat.color, role);
        }
        let main_share = if team { 0.7 } else { 1.0 };
        let mut main_limits = portion(limits, main_share, 1.0);
        let mut optimum = None;
        if let (true, Some(deadline)) = (self.searcher.config().dynamic_time, limits.deadline) {
            // Stockfish's time use: the budget's share is the optimum, and a search whose best
            // move keeps changing or whose score falls may go on to several times that.
            let budget = deadline.saturating_duration_since(started);
            let left = turn.m.remaining(turn.seat, turn.now);
            let max = budget.mul_f64(DYNAMIC_MAX).min(left / 8).max(budget);
            optimum = Some(budget.mul_f64(main_share));
            main_limits.deadline = Some(started + max.mul_f64(main_share));
        }
        let send = match self.searcher.config().partner_send {
            Some(percent) if team => Some(SendValues::new(
                &main_pos,
                turn.pboard,
                turn.partner.color,
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
                .filter(|&(s, _)| s == turn.seat)
                .map(|(_, score)| score),
            ..Options::default()
        };
        let (result, roots) =
            self.searcher
                .search_with(&main_pos, main_limits, options, &mut |_| {});
        if let Some(optimum) = optimum {
            self.last_score = Some((turn.seat, result.score));
            // The probes below get time even after a main search that ran past the budget.
            let probes = Instant::now() + optimum.mul_f64(0.3);
            limits.deadline = limits.deadline.map(|d| d.max(probes));
        }
        let best = params.choose(result.best.unwrap_or(roots[0].mv), &roots, &mut || {
            self.next_random()
        });
        let mut plan = Plan {
            best,
            score: result.score,
            depth: result.depth,
            nodes: result.nodes,
            talk,
            pessimistic,
            // The score of our real position (the main search may have counted an incoming
            // piece).
            real_score: (!pessimistic).then_some(result.score),
            danger: false,
            may_sit: false,
            sit: false,
        };
        if self.mate_check(params) {
            self.keep_mate_safe(&main_pos, &roots, bias, limits, &mut plan);
        }
        plan
    }

    /// A move after which the opponent mates by checks gives way to a short search among the
    /// moves after which he does not (the main search's scores of its other root moves are
    /// bounds, not an order).
    fn keep_mate_safe(
        &mut self,
        main_pos: &Position,
        roots: &[RootMove],
        bias: Vec<(Move, i32)>,
        limits: &Limits,
        plan: &mut Plan,
    ) {
        let others = roots.iter().map(|r| r.mv);
        let Some(safe) = mates::safe_moves(main_pos, plan.best, others, limits.deadline) else {
            return;
        };
        let options = Options {
            root_bias: bias,
            only: safe,
            ..Options::default()
        };
        let r = self.probe(
            main_pos,
            portion(limits, 0.5, 0.5),
            options,
            &mut plan.nodes,
        );
        if let Some(mv) = r.best {
            plan.best = mv;
        }
    }

    /// A search of a what-if position whose nodes count towards the decision's.
    fn probe(
        &mut self,
        pos: &Position,
        limits: Limits,
        options: Options,
        nodes: &mut u64,
    ) -> SearchResult {
        let (result, _) = self.searcher.search_with(pos, limits, options, &mut |_| {});
        *nodes += result.nodes;
        result
    }

    /// Stage 3 (a): every move loses to the piece the opponents' partner is about to capture,
    /// while without it we stand: sit (clock permitting) or play the real position's move, and
    /// tell the partner not to give that piece.
    fn incoming_mate(&mut self, turn: &Turn, limits: &Limits, plan: &mut Plan) {
        let (true, Some(role)) = (plan.pessimistic, turn.to_them) else {
            return;
        };
        if plan.score > -MATE_BOUND {
            return;
        }
        let real = self.probe(
            turn.pos,
            portion(limits, 0.5, 1.0),
            Options::default(),
            &mut plan.nodes,
        );
        plan.real_score = Some(real.score);
        if real.score > -MATE_BOUND && real.score > plan.score + 300 {
            plan.danger = true;
            plan.talk.push(Talk::DontGive(role));
            if plan.may_sit {
                plan.sit = true;
            } else if let Some(mv) = real.best {
                plan.best = mv;
                plan.score = real.score;
            }
        }
    }

    /// Stage 3 (b): the piece that mates is one our partner can capture now: ask for it, and
    /// sit for it (clock permitting).
    fn needed_piece(&mut self, turn: &Turn, limits: &Limits, plan: &mut Plan) {
        let Some(role) = turn.to_us else {
            return;
        };
        if plan.sit || plan.score >= MATE_BOUND {
            return;
        }
        let mut what_if = turn.pos.clone();
        what_if.add_to_reserve(turn.seat.color, role);
        let limits = probe_limits(limits, 0.4, 5);
        let r = self.probe(&what_if, limits, Options::default(), &mut plan.nodes);
        if r.score >= MATE_BOUND {
            plan.talk.push(Talk::Need(role));
            if plan.may_sit {
                plan.sit = true;
            }
        }
    }

    /// Stage 3, the what-if probes for the talk: the piece that would mate for us (`Need`),
    /// the piece that would get us mated (`DontGive`).
    fn what_if(&mut self, turn: &Turn, limits: &Limits, plan: &mut Plan) {
        let us = turn.seat.color;
        let partner = turn.partner;
        if plan.score < MATE_BOUND && !plan.talk.iter().any(|t| matches!(t, Talk::Need(_))) {
            for role in roles_on(turn.pboard, !partner.color) {
                if Some(role) == turn.to_us {
                    continue;
                }
                let mut what_if = turn.pos.clone();
                what_if.add_to_reserve(us, role);
                let limits = probe_limits(limits, 0.25, 3);
                let r = self.probe(&what_if, limits, Options::default(), &mut plan.nodes);
                if r.score >= MATE_BOUND {
                    plan.talk.push(Talk::Need(role));
                    break;
                }
            }
        }
        if plan.score > -MATE_BOUND && !plan.danger {
            for role in roles_on(turn.pboard, partner.color) {
                if plan.pessimistic && Some(role) == turn.to_them {
                    continue;
                }
                let mut what_if = turn.pos.clone();
                what_if.add_to_reserve(!us, role);
                let limits = probe_limits(limits, 0.25, 3);
                let r = self.probe(&what_if, limits, Options::default(), &mut plan.nodes);
                if r.score <= -MATE_BOUND {
                    plan.talk.push(Talk::DontGive(role));
                    plan.danger = true;
                    break;
                }
            }
        }
    }

    /// Stage 4: ask the partner to sit while his moving would let them capture what mates us,
    /// and (`race`) while we mate by force: the mated opponent sits for his last seconds, and
    /// our partner, given nothing away, can sit him out. `Go` once neither holds.
    fn ask_partner(&mut self, turn: &Turn, plan: &mut Plan) {
        let mating = self.searcher.config().race && plan.score >= MATE_BOUND;
        let hold = plan.danger || mating;
        if hold && turn.pboard.turn() == turn.partner.color {
            plan.talk.push(Talk::Sit);
            self.asked_sit = true;
        } else if !hold && self.asked_sit {
            plan.talk.push(Talk::Go);
            self.asked_sit = false;
        }
    }

    /// Stage 4: the reasons to sit besides the probes' (the partner's request, a sitter to sit
    /// out, a mate whatever we do, the other board standing better).
    fn reasons_to_sit(&mut self, turn: &Turn, limits: &Limits, plan: &mut Plan) {
        let (m, seat, now, params) = (turn.m, turn.seat, turn.now, turn.params);
        let config = self.searcher.config();
        // The partner asked us to sit (with `sit_only_racing`, only while his opponent is to
        // move: with the partner to move himself both our clocks would run and neither of
        // theirs).
        let partner_racing = !config.sit_only_racing || turn.pboard.turn() != turn.partner.color;
        if !plan.sit
            && self.partner_sit
            && plan.may_sit
            && plan.score < MATE_BOUND
            && partner_racing
        {
            plan.sit = true;
        }

        // The opponent across sits and our partner waits on him: with more time than he has,
        // sit him out (`sit_out`): both boards stand still and his clock runs down first.
        if !plan.sit && params.sits && plan.score < MATE_BOUND && self.sits_out(m, seat, now) {
            plan.sit = true;
        }

        // The opponent across waits for a piece only a move of ours could let his partner
        // capture (`starve`): with more time than he has, sit until his flag falls.
        if !plan.sit && params.sits && plan.score < MATE_BOUND && self.starves(m, seat, now) {
            plan.sit = true;
        }

        // Mated whatever we do: a loss on time is no worse than a mate, so sit while there is
        // time to spare and give the partner the chance to win the match first.
        if !plan.sit
            && params.sits
            && m.is_started()
            && plan.real_score.is_some_and(|s| s <= -MATE_BOUND)
            && m.remaining(seat, now) > self.desperate_floor()
        {
            plan.sit = true;
        }

        // Play for the other board: when we stand worse here and the partner stands well
        // there, sit (time permitting) and let him decide the match (F4.3: the first game to
        // end decides it), rather than hasten our own loss.
        if !plan.sit && plan.may_sit && params.full_team && plan.score <= -STRATEGIC_SIT {
            let limits = probe_limits(limits, 0.5, 4);
            let r = self.probe(turn.pboard, limits, Options::default(), &mut plan.nodes);
            let partner_score = if turn.pboard.turn() == turn.partner.color {
                r.score
            } else {
                -r.score
            };
            if partner_score >= STRATEGIC_SIT && partner_score - plan.score >= 3 * STRATEGIC_SIT {
                plan.sit = true;
            }
        }
    }
}

/// `time_frac` of the time still left before the deadline and `node_frac` of the node limit.
fn portion(limits: &Limits, time_frac: f64, node_frac: f64) -> Limits {
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
fn probe_limits(limits: &Limits, time_frac: f64, depth: u32) -> Limits {
    let mut l = portion(limits, time_frac, 0.1);
    l.max_depth = Some(l.max_depth.map_or(depth, |d| d.min(depth)));
    if l.deadline.is_none() && l.max_nodes.is_none() {
        l.max_nodes = Some(200_000);
    }
    l
}

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
