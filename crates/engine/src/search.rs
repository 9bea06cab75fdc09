//! Single-board search: iterative deepening, principal variation search (negamax alpha-beta),
//! a transposition table keyed by Zobrist hashes that include both reserves, move ordering
//! (hash move, captures by SEE and MVV-LVA, promotions, killers, history), null-move pruning,
//! late-move reductions and pruning, check extensions, and a quiescence search over captures,
//! promotions and (at its first ply, and with `SearchConfig::check_chains` along a chain of
//! checks) checking moves and checking drops.
//!
//! Terminal positions follow the rules of the position (`Position::verdict`): checkmate,
//! stalemate, or waiting (F3.7, U15a1a), which the search scores as a heavy but not decisive
//! loss: the waiting side's partner may still send a piece.
//!
//! The hot path allocates nothing: moves are generated into core's stack `MoveList` and copied
//! into per-ply buffers owned by the searcher, which keep their capacity.

use std::sync::atomic::{AtomicBool, Ordering};
use std::sync::Arc;
use std::time::{Duration, Instant};

use bughouse_core::{Move, Position, Role, Verdict};

use crate::eval::evaluate_with;
use crate::params::{EngineParams, EvalParams};
use crate::send::SendValues;
use crate::zobrist;

mod config;
mod margins;
mod mate;
mod negamax;
mod ordering;
mod pruning;
mod qsearch;
mod time;
mod tt;

use time::time_factor;

pub use config::SearchConfig;
pub(crate) use config::MATE_CHECK_PLIES;
pub(crate) use margins::SEARCH_GROUPS;
pub use margins::{SearchParams, SEARCH_PARAM_COUNT};
pub use mate::{find_mate, MateLine, MateSearch};
use pruning::lost_there;
use tt::Tt;

/// The score of giving mate now; mate in `n` plies scores `MATE - n`.
pub const MATE: i32 = 30_000;
/// Scores at least this large (in absolute value) are mates.
pub const MATE_BOUND: i32 = MATE - 1_000;
const INF: i32 = 32_000;
/// A player in check who cannot move but waits for a piece (F3.7, U15a1a).
const WAITING_IN_CHECK: i32 = 1_500;
/// The same with [`SearchConfig::waiting_lost`]: nearly lost, beyond any material but short of
/// a mate ([`MATE_BOUND`]).
pub const WAITING_IN_CHECK_LOST: i32 = 10_000;
const _: () = assert!(WAITING_IN_CHECK_LOST < MATE_BOUND);
/// A player who cannot move, not in check, and waits for a piece.
const WAITING: i32 = 600;

/// Plies the search may reach, extensions and quiescence included.
pub const MAX_PLY: usize = 96;
/// Quiescence plies after which only the static evaluation counts.
const QS_MAX: u32 = 10;
/// Quiescence plies (from its start) that also try checking moves and drops.
const QS_CHECK_PLIES: u32 = 1;
/// With `SearchConfig::check_chains`: quiescence plies below which the side that just gave
/// check may check again (at plies 0 and 2 of a chain started at the first): one more check.
const QS_CHAIN_PLIES: u32 = 3;
const MAX_DEPTH: u32 = 64;

/// Mate in moves for a mate score: `Some(n)` with `n > 0` when the side to move mates in `n`
/// moves, `n <= 0` when it is mated in `-n` moves; `None` for an ordinary score. Helps UCI print
/// `score mate N`.
///
/// # Examples
///
/// ```
/// use bughouse_engine::{mate_in, MATE};
///
/// assert_eq!(mate_in(MATE - 1), Some(1));
/// assert_eq!(mate_in(MATE - 3), Some(2));
/// assert_eq!(mate_in(-MATE + 2), Some(-1));
/// assert_eq!(mate_in(35), None);
/// ```
pub fn mate_in(score: i32) -> Option<i32> {
    if score >= MATE_BOUND {
        Some((MATE - score + 1) / 2)
    } else if score <= -MATE_BOUND {
        Some(-((MATE + score) / 2))
    } else {
        None
    }
}

/// When to stop searching. Every limit that is set applies; with none set the search stops at
/// the depth limit of the engine (64 plies).
#[derive(Debug, Clone, Copy, Default, PartialEq, Eq)]
pub struct Limits {
    /// Stop at this instant (the last complete iteration's move is played).
    pub deadline: Option<Instant>,
    /// Stop after this many nodes. A search with only node and depth limits is deterministic.
    pub max_nodes: Option<u64>,
    /// Stop after this depth (in plies).
    pub max_depth: Option<u32>,
}

impl Limits {
    /// A search of at most `nodes` nodes.
    pub fn nodes(nodes: u64) -> Limits {
        Limits {
            max_nodes: Some(nodes),
            ..Limits::default()
        }
    }

    /// A search to `depth` plies.
    pub fn depth(depth: u32) -> Limits {
        Limits {
            max_depth: Some(depth),
            ..Limits::default()
        }
    }

    /// A search that stops after `time` from now (no deadline if that is beyond what the
    /// clock can count).
    pub fn time(time: Duration) -> Limits {
        Limits {
            deadline: Instant::now().checked_add(time),
            ..Limits::default()
        }
    }
}

/// What the search reports after each completed iteration.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct SearchInfo {
    /// The depth completed, in plies.
    pub depth: u32,
    /// The score for the side to move, in centipawns, or a mate score (see [`mate_in`]).
    pub score: i32,
    /// Nodes searched so far.
    pub nodes: u64,
    /// The principal variation.
    pub pv: Vec<Move>,
    /// Time since the search started.
    pub elapsed: Duration,
}

/// The result of a search.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct SearchResult {
    /// The best move; `None` when the side to move has no legal move.
    pub best: Option<Move>,
    /// Its score for the side to move (see [`mate_in`]).
    pub score: i32,
    /// The last depth completed.
    pub depth: u32,
    /// Nodes searched.
    pub nodes: u64,
    /// The principal variation, starting with `best`.
    pub pv: Vec<Move>,
}

/// Options of one search beyond its limits, for the team bot and the strength levels.
#[derive(Debug, Clone, Default)]
pub(crate) struct Options {
    /// Evaluation noise, in centipawns either way (weak levels).
    pub noise: i32,
    /// Score every root move exactly (full window), to choose among near-best moves.
    pub exact_root: bool,
    /// Added to the score of these root moves (partner requests).
    pub root_bias: Vec<(Move, i32)>,
    /// Only these root moves are searched (UCI's `go searchmoves`), those of them that are
    /// legal; empty, or none legal: every legal move.
    pub only: Vec<Move>,
    /// Time use as Stockfish's (`SearchConfig::dynamic_time`): the time this search should
    /// take (its optimum), with the deadline of the limits as its hard maximum. A new
    /// iteration starts while the time used is below the optimum times a factor, from half
    /// when the best move and the score hold to several times when the best move keeps
    /// changing or the score falls. Without it, no iteration starts past half the time to the
    /// deadline.
    pub optimum: Option<Duration>,
    /// The score of the previous search for this seat (from the side to move's point of view),
    /// for the falling score of `optimum`.
    pub previous_score: Option<i32>,
    /// What captures send to the other board (`SearchConfig::partner_send`), for this search's
    /// root.
    pub send: Option<SendValues>,
}

/// One root move with its latest score.
#[derive(Debug, Clone, Copy)]
pub(crate) struct RootMove {
    pub mv: Move,
    pub score: i32,
    /// The score from the previous iteration, for ordering.
    prev: i32,
    bias: i32,
}

/// The score of a position whose side to move has no legal move (`waiting_in_check`: the
/// score of waiting in check, by [`SearchConfig::waiting_lost`]).
fn terminal(pos: &Position, ply: usize, waiting_in_check: i32) -> i32 {
    let ply = ply as i32;
    match pos.verdict() {
        Verdict::Checkmate => -MATE + ply,
        Verdict::Stalemate | Verdict::Ongoing => 0,
        Verdict::Waiting if pos.is_check() => -waiting_in_check,
        Verdict::Waiting => -WAITING,
    }
}

/// Single-board searcher with its own transposition table, for UCI and for the team bot.
///
/// # Examples
///
/// ```
/// use bughouse_core::{Position, Rules};
/// use bughouse_engine::{mate_in, Limits, Searcher};
///
/// // White mates with a knight drop.
/// let pos = Position::from_fen("6rk/6pp/8/8/8/8/8/K7[N] w - - 0 1", Rules::crazyhouse()).unwrap();
/// let mut searcher = Searcher::new(1);
/// let result = searcher.search(&pos, Limits::depth(3), &mut |_| {});
/// assert_eq!(result.best.unwrap().to_string(), "N@f7");
/// assert_eq!(mate_in(result.score), Some(1));
/// ```
pub struct Searcher {
    tt: Tt,
    history: Vec<i32>,
    /// With [`SearchConfig::cont_history`]: the history of each quiet move after each move
    /// (both as [`ordering::history_index`]es); empty until the switch is first used.
    cont: Vec<i16>,
    /// The history index of the move that led to each ply (`NO_MOVE` at the root and after a
    /// null move).
    came_by: [u16; MAX_PLY + 1],
    killers: [[Option<Move>; 2]; MAX_PLY],
    buffers: Vec<Vec<(Move, i32)>>,
    pv: Vec<[Option<Move>; MAX_PLY]>,
    pv_len: [usize; MAX_PLY],
    keys: [u64; MAX_PLY + 1],
    /// The static evaluation at each ply of the current line (`-INF` in check), for the
    /// "improving" of [`SearchConfig::count_pruning`].
    evals: [i32; MAX_PLY + 1],
    lmr: Vec<[u8; 64]>,
    nodes: u64,
    stop: bool,
    /// Set by another thread to stop the search (UCI `stop`, XBoard `?`); see
    /// [`Searcher::set_stop_flag`].
    stop_flag: Option<Arc<AtomicBool>>,
    limits: Limits,
    noise: i32,
    root_depth: i32,
    params: EvalParams,
    margins: SearchParams,
    config: SearchConfig,
    /// What captures send to the other board, for the current search (`Options::send`).
    send: Option<SendValues>,
    /// The opponents can sit ([`Searcher::set_opponents_sit`]).
    opponents_sit: bool,
}

impl Searcher {
    /// A searcher with a transposition table of about `tt_mb` megabytes.
    pub fn new(tt_mb: usize) -> Searcher {
        let lmr = SearchParams::DEFAULT.lmr_table();
        Searcher {
            tt: Tt::new(tt_mb),
            history: vec![0; 24 * 64],
            cont: Vec::new(),
            came_by: [ordering::NO_MOVE; MAX_PLY + 1],
            killers: [[None; 2]; MAX_PLY],
            buffers: (0..MAX_PLY).map(|_| Vec::with_capacity(256)).collect(),
            pv: vec![[None; MAX_PLY]; MAX_PLY],
            pv_len: [0; MAX_PLY],
            keys: [0; MAX_PLY + 1],
            evals: [0; MAX_PLY + 1],
            lmr,
            nodes: 0,
            stop: false,
            stop_flag: None,
            limits: Limits::default(),
            noise: 0,
            root_depth: 0,
            params: EvalParams::DEFAULT,
            margins: SearchParams::DEFAULT,
            config: SearchConfig::DEFAULT,
            send: None,
            opponents_sit: true,
        }
    }

    /// A flag another thread sets to stop this searcher's searches, as a deadline does: once it
    /// is set, a running search stops within about a thousand nodes (the last complete
    /// iteration's move is played, as at a deadline), and every search started while it stays
    /// set stops as soon as it checks. The searcher never clears it; `None` (the default)
    /// removes it.
    pub fn set_stop_flag(&mut self, flag: Option<Arc<AtomicBool>>) {
        self.stop_flag = flag;
    }

    /// The evaluation weights the search uses from now on (default: [`EvalParams::DEFAULT`]).
    /// The transposition table is cleared, since its scores came from the old weights.
    pub fn set_eval_params(&mut self, params: EvalParams) {
        if params != self.params {
            self.params = params;
            self.tt.clear();
        }
    }

    /// The search's margins and thresholds from now on (default: [`SearchParams::DEFAULT`]).
    /// The transposition table is cleared, since its bounds came from the old ones.
    pub fn set_search_params(&mut self, margins: SearchParams) {
        if margins != self.margins {
            self.margins = margins;
            self.lmr = margins.lmr_table();
            self.tt.clear();
        }
    }

    /// The evaluation's weights and the search's margins from now on
    /// ([`Searcher::set_eval_params`], [`Searcher::set_search_params`]).
    pub fn set_params(&mut self, params: EngineParams) {
        self.set_eval_params(params.eval);
        self.set_search_params(params.search);
    }

    /// The search's margins in use.
    pub fn search_params(&self) -> &SearchParams {
        &self.margins
    }

    /// The search's switches from now on (default: [`SearchConfig::DEFAULT`]).
    pub fn set_config(&mut self, config: SearchConfig) {
        self.config = config;
        if config.cont_history && self.cont.is_empty() {
            self.cont = vec![0; ordering::HISTORY_LEN * ordering::HISTORY_LEN];
        }
    }

    /// The search's switches in use.
    pub fn config(&self) -> SearchConfig {
        self.config
    }

    /// Whether the opponents can sit (default: they can); told they cannot, waiting in check
    /// keeps its ordinary score whatever [`SearchConfig::waiting_lost`] says: no one starves
    /// the waiting player of his piece.
    pub(crate) fn set_opponents_sit(&mut self, sit: bool) {
        self.opponents_sit = sit;
    }

    /// Whether the opponents can sit ([`Searcher::set_opponents_sit`]).
    pub(crate) fn opponents_sit(&self) -> bool {
        self.opponents_sit
    }

    /// The score of a position whose side to move has no legal move, with this search's
    /// score of waiting in check.
    fn terminal(&self, pos: &Position, ply: usize) -> i32 {
        let waiting_in_check = if self.config.waiting_lost && self.opponents_sit {
            WAITING_IN_CHECK_LOST
        } else {
            WAITING_IN_CHECK
        };
        terminal(pos, ply, waiting_in_check)
    }

    /// The evaluation weights in use.
    pub fn eval_params(&self) -> &EvalParams {
        &self.params
    }

    /// The quiescence search's score of `pos` for the side to move (captures, promotions,
    /// checks at its first ply; all moves in check), with a full window: what the tuner fits
    /// results to. Deterministic.
    pub fn quiesce(&mut self, pos: &Position) -> i32 {
        self.nodes = 0;
        self.stop = false;
        self.limits = Limits::default();
        self.noise = 0;
        let key = zobrist::key(pos);
        self.keys[0] = key;
        self.qsearch(pos, key, -INF, INF, 0, 0, false)
    }

    /// Forgets everything learnt: the transposition table, killers and history.
    pub fn clear(&mut self) {
        self.tt.clear();
        self.history.fill(0);
        self.cont.fill(0);
        self.killers = [[None; 2]; MAX_PLY];
    }

    /// Searches `pos` within `limits`, calling `info` after each completed iteration.
    pub fn search(
        &mut self,
        pos: &Position,
        limits: Limits,
        info: &mut dyn FnMut(&SearchInfo),
    ) -> SearchResult {
        let (result, _) = self.search_with(pos, limits, Options::default(), info);
        result
    }

    /// The search with options; also returns the root moves with their last scores (exact
    /// ones under `exact_root`).
    pub(crate) fn search_with(
        &mut self,
        pos: &Position,
        limits: Limits,
        options: Options,
        info: &mut dyn FnMut(&SearchInfo),
    ) -> (SearchResult, Vec<RootMove>) {
        let start = Instant::now();
        self.nodes = 0;
        self.stop = false;
        self.limits = limits;
        self.noise = options.noise;
        self.send = options.send;
        self.tt.generation = (self.tt.generation + 1) & 63;
        self.killers = [[None; 2]; MAX_PLY];
        for h in &mut self.history {
            *h /= 4;
        }
        let root_key = zobrist::key(pos);
        self.keys[0] = root_key;
        self.came_by[0] = ordering::NO_MOVE;

        let mut legal = pos.legal_moves();
        if options.only.iter().any(|m| legal.contains(m)) {
            legal.retain(|m| options.only.contains(m));
        }
        if legal.is_empty() {
            let score = self.terminal(pos, 0);
            return (
                SearchResult {
                    best: None,
                    score,
                    depth: 0,
                    nodes: 0,
                    pv: Vec::new(),
                },
                Vec::new(),
            );
        }
        let mut roots: Vec<RootMove> = legal
            .iter()
            .map(|&mv| {
                let bias = options
                    .root_bias
                    .iter()
                    .filter(|(m, _)| *m == mv)
                    .map(|(_, b)| *b)
                    .sum();
                RootMove {
                    mv,
                    score: -INF,
                    prev: self.order_score(pos, mv, None, 0),
                    bias,
                }
            })
            .collect();
        roots.sort_by_key(|r| std::cmp::Reverse(r.prev));

        let max_depth = limits.max_depth.unwrap_or(MAX_DEPTH).clamp(1, MAX_DEPTH);
        let mut best = SearchResult {
            best: Some(roots[0].mv),
            score: 0,
            depth: 0,
            nodes: 0,
            pv: vec![roots[0].mv],
        };
        let mut prev_score = 0;
        let mut best_changes = 0.0f64;
        for depth in 1..=max_depth {
            self.root_depth = depth as i32;
            let mut delta = 40;
            let (mut alpha, mut beta) = if depth >= 5 && !options.exact_root {
                (prev_score - delta, prev_score + delta)
            } else {
                (-INF, INF)
            };
            let score = loop {
                let s = self.root(
                    pos,
                    root_key,
                    &mut roots,
                    depth as i32,
                    alpha,
                    beta,
                    &options,
                );
                if self.stop {
                    break s;
                }
                if s <= alpha && alpha > -INF {
                    alpha = (alpha - delta).max(-INF);
                    delta *= 4;
                } else if s >= beta && beta < INF {
                    beta = (beta + delta).min(INF);
                    delta *= 4;
                } else {
                    break s;
                }
                if delta > 2000 {
                    alpha = -INF;
                    beta = INF;
                }
            };
            if self.stop {
                // A partial iteration: a move that was searched in full and beat the first
                // (the previous best, searched first) replaces it.
                if depth > 1 && roots[0].score > -INF && Some(roots[0].mv) != best.best {
                    best.best = Some(roots[0].mv);
                    best.score = roots[0].score;
                    best.pv = vec![roots[0].mv];
                }
                break;
            }
            let last_score = prev_score;
            prev_score = score;
            best_changes /= 2.0;
            if depth > 1 && best.best != Some(roots[0].mv) {
                best_changes += 1.0;
            }
            let pv: Vec<Move> = self.pv[0][..self.pv_len[0]]
                .iter()
                .flatten()
                .copied()
                .collect();
            best = SearchResult {
                best: Some(roots[0].mv),
                score,
                depth,
                nodes: self.nodes,
                pv: if pv.first() == Some(&roots[0].mv) {
                    pv
                } else {
                    vec![roots[0].mv]
                },
            };
            info(&SearchInfo {
                depth,
                score,
                nodes: self.nodes,
                pv: best.pv.clone(),
                elapsed: start.elapsed(),
            });
            if score.abs() >= MATE_BOUND && depth as i32 >= 2 * (MATE - score.abs()) + 2 {
                break;
            }
            if let Some(deadline) = limits.deadline {
                let now = Instant::now();
                let total = deadline.saturating_duration_since(start);
                let used = now.saturating_duration_since(start);
                let soft = match options.optimum {
                    Some(optimum) => optimum.mul_f64(time_factor(
                        &options,
                        depth,
                        last_score,
                        score,
                        best_changes,
                    )),
                    None => total / 2,
                };
                if roots.len() == 1 || used >= soft {
                    break;
                }
            }
            for r in roots.iter_mut() {
                r.prev = r.score;
            }
        }
        best.nodes = self.nodes;
        (best, roots)
    }

    #[inline]
    fn out_of_budget(&mut self) -> bool {
        if self.stop {
            return true;
        }
        if let Some(max) = self.limits.max_nodes {
            if self.nodes >= max {
                self.stop = true;
            }
        }
        if self.nodes & 1023 == 0 {
            if self
                .stop_flag
                .as_ref()
                .is_some_and(|flag| flag.load(Ordering::Relaxed))
            {
                self.stop = true;
            }
            if let Some(deadline) = self.limits.deadline {
                if Instant::now() >= deadline {
                    self.stop = true;
                }
            }
        }
        self.stop
    }

    /// One iteration at the root: the moves ordered by their previous scores.
    #[allow(clippy::too_many_arguments)]
    fn root(
        &mut self,
        pos: &Position,
        key: u64,
        roots: &mut [RootMove],
        depth: i32,
        mut alpha: i32,
        beta: i32,
        options: &Options,
    ) -> i32 {
        // Stable: the best move of the last iteration first, then by score.
        roots.sort_by_key(|r| std::cmp::Reverse(r.prev));
        for r in roots.iter_mut() {
            r.score = -INF;
        }
        self.pv_len[0] = 0;
        let mut best = -INF;
        for i in 0..roots.len() {
            let RootMove { mv, bias, .. } = roots[i];
            let mut child = pos.clone();
            child.play_unchecked(mv);
            let child_key = zobrist::update(pos, &child, key);
            self.keys[1] = child_key;
            self.came_by[1] = came_by(pos, mv);
            let gives_check = child.is_check();
            let ext = i32::from(
                gives_check && !(self.config.safe_check_ext && lost_there(&child, mv.to())),
            );
            let score = if options.exact_root {
                bias - self.negamax(&child, child_key, depth - 1 + ext, 1, -INF, INF, true)
            } else if i == 0 {
                bias - self.negamax(
                    &child,
                    child_key,
                    depth - 1 + ext,
                    1,
                    -beta + bias,
                    -alpha + bias,
                    true,
                )
            } else {
                let a = alpha - bias;
                let mut s = -self.negamax(&child, child_key, depth - 1 + ext, 1, -a - 1, -a, true);
                if s > a && !self.stop {
                    s = -self.negamax(
                        &child,
                        child_key,
                        depth - 1 + ext,
                        1,
                        -beta + bias,
                        -a,
                        true,
                    );
                }
                s + bias
            };
            if self.stop {
                break;
            }
            roots[i].score = score;
            if score > best {
                best = score;
                if score > alpha {
                    self.update_pv(0, mv);
                    // Keep the best move first.
                    roots[..=i].rotate_right(1);
                    if score >= beta {
                        return score;
                    }
                    if !options.exact_root {
                        alpha = score;
                    }
                }
            }
        }
        if options.exact_root {
            roots.sort_by_key(|r| std::cmp::Reverse(r.score));
        }
        best
    }

    #[inline]
    fn update_pv(&mut self, ply: usize, mv: Move) {
        let child_len = if ply + 1 < MAX_PLY {
            self.pv_len[ply + 1]
        } else {
            0
        };
        let (head, tail) = self.pv.split_at_mut(ply + 1);
        head[ply][0] = Some(mv);
        let n = child_len.min(MAX_PLY - 1);
        if n > 0 {
            head[ply][1..=n].copy_from_slice(&tail[0][..n]);
        }
        self.pv_len[ply] = n + 1;
    }

    /// The static evaluation, with what the captures since the root send to the other board
    /// (`Options::send`) and the noise of weak levels.
    #[inline]
    fn eval(&self, pos: &Position, key: u64) -> i32 {
        let mut e = evaluate_with(pos, &self.params);
        if let Some(send) = &self.send {
            e += send.score(pos);
        }
        if self.noise > 0 {
            let h = key.wrapping_mul(0x2545_f491_4f6c_dd1d) >> 40;
            e + (h % (2 * self.noise as u64 + 1)) as i32 - self.noise
        } else {
            e
        }
    }

    /// Whether the position at `ply` repeats one earlier on the search path since the last
    /// irreversible move.
    #[inline]
    fn repeats(&self, pos: &Position, key: u64, ply: usize) -> bool {
        let back = (pos.halfmoves() as usize).min(ply);
        let mut i = 2;
        while i <= back {
            if self.keys[ply - i] == key {
                return true;
            }
            i += 2;
        }
        false
    }
}

/// The history index of `mv` in `pos` (before it is played), as `Searcher::came_by` keeps it.
#[inline]
fn came_by(pos: &Position, mv: Move) -> u16 {
    let role = pos.moving_role(mv).unwrap_or(Role::Pawn);
    ordering::history_index(pos.turn(), role, mv.is_drop(), mv.to()) as u16
}

#[cfg(test)]
mod tests {
    use super::*;
    use bughouse_core::Rules;

    #[test]
    fn mate_scores() {
        assert_eq!(mate_in(MATE - 1), Some(1));
        assert_eq!(mate_in(-MATE), Some(0));
        assert_eq!(mate_in(-MATE + 4), Some(-2));
        assert_eq!(mate_in(0), None);
    }

    #[test]
    fn waiting_in_check_scores_by_the_switch() {
        // The rook checks along the first rank; only a drop on b1..g1 would block it and White
        // holds nothing: White waits for a piece (F3.7).
        let pos = Position::from_fen("6k1/8/8/8/8/8/6PP/r6K[] w - - 0 1", Rules::fide()).unwrap();
        assert_eq!(pos.verdict(), Verdict::Waiting);
        let mut s = Searcher::new(1);
        let r = s.search(&pos, Limits::depth(3), &mut |_| {});
        assert_eq!((r.best, r.score), (None, -WAITING_IN_CHECK));
        s.set_config(SearchConfig {
            waiting_lost: true,
            ..SearchConfig::DEFAULT
        });
        let r = s.search(&pos, Limits::depth(3), &mut |_| {});
        assert_eq!((r.best, r.score), (None, -WAITING_IN_CHECK_LOST));
        // Against opponents who never sit, no one starves the waiting player: the old score.
        s.set_opponents_sit(false);
        let r = s.search(&pos, Limits::depth(3), &mut |_| {});
        assert_eq!((r.best, r.score), (None, -WAITING_IN_CHECK));
    }

    #[test]
    fn finds_a_capture() {
        let pos = Position::from_fen("4k3/8/8/3q4/8/8/8/3RK3[] w - - 0 1", Rules::fide()).unwrap();
        let mut s = Searcher::new(1);
        let r = s.search(&pos, Limits::depth(4), &mut |_| {});
        assert_eq!(r.best.unwrap().to_string(), "d1d5");
    }
}
