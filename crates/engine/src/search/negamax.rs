//! The principal variation search below the root (`Searcher::negamax`): transposition table
//! cut-offs, reverse futility and null-move pruning, internal iterative reduction, and per move
//! the drop-aware reductions and pruning of `SearchConfig`, check extensions, late-move
//! reductions and the history updates of a cut-off.

use bughouse_core::{Move, Position, Role};

use super::pruning::{distance, hanging_check, lost_there};
use super::tt::{bound, to_tt};
use super::{ordering, Searcher, INF, MATE, MATE_BOUND, MAX_PLY};
use crate::eval::{see, value};
use crate::zobrist;

impl Searcher {
    #[allow(clippy::too_many_arguments)]
    pub(super) fn negamax(
        &mut self,
        pos: &Position,
        key: u64,
        mut depth: i32,
        ply: usize,
        mut alpha: i32,
        mut beta: i32,
        can_null: bool,
    ) -> i32 {
        self.pv_len[ply.min(MAX_PLY - 1)] = 0;
        if depth <= 0 {
            return self.qsearch(pos, key, alpha, beta, ply, 0, false);
        }
        self.nodes += 1;
        if self.out_of_budget() {
            return 0;
        }
        if ply >= MAX_PLY - 2 {
            return self.eval(pos, key);
        }
        if self.repeats(pos, key, ply) {
            return 0;
        }
        // Mate distance pruning.
        alpha = alpha.max(-MATE + ply as i32);
        beta = beta.min(MATE - ply as i32 - 1);
        if alpha >= beta {
            return alpha;
        }
        let pv_node = beta - alpha > 1;
        let m = self.margins;

        let entry = self.tt.probe(key);
        let tt_move = entry.and_then(|e| e.mv);
        if let Some(e) = entry {
            if !pv_node && i32::from(e.depth) >= depth {
                if let Some(s) = e.cutoff(ply, alpha, beta) {
                    return s;
                }
            }
        }

        let in_check = pos.is_check();
        let static_eval = if in_check { -INF } else { self.eval(pos, key) };
        self.evals[ply] = static_eval;
        let count_pruning = self.config.count_pruning && ply > 0;
        // Improving: better than two plies before (or no evaluation there, in check).
        let improving = count_pruning
            && (ply < 2 || self.evals[ply - 2] == -INF || static_eval > self.evals[ply - 2]);

        let mut threat = false;
        if !pv_node && !in_check && beta.abs() < MATE_BOUND {
            // Reverse futility pruning.
            let rfp_depth = if self.config.deep_prune {
                6
            } else {
                m.rfp_depth
            };
            if depth <= rfp_depth && static_eval - m.rfp_margin * depth >= beta {
                return static_eval;
            }
            // Null move: passing still holds beta.
            if can_null && depth >= 3 && static_eval >= beta && has_pieces(pos) {
                if let Some(null) = null_position(pos) {
                    let null_key = zobrist::update(pos, &null, key);
                    self.keys[ply + 1] = null_key;
                    self.came_by[ply + 1] = ordering::NO_MOVE;
                    let mut r = m.null_base + depth / m.null_divisor.max(1);
                    if self.config.deep_prune {
                        r += ((static_eval - beta) / 200).min(3);
                    }
                    let s = -self.negamax(
                        &null,
                        null_key,
                        depth - 1 - r,
                        ply + 1,
                        -beta,
                        -beta + 1,
                        false,
                    );
                    if self.stop {
                        return 0;
                    }
                    if s >= beta {
                        return if s >= MATE_BOUND { beta } else { s };
                    }
                    threat = self.config.mate_threat && s <= -MATE_BOUND;
                }
            }
        }

        // Internal iterative reduction: no move to try first, so a shallower search.
        if self.config.iir && depth >= 4 && tt_move.is_none() {
            depth -= 1;
        }
        // A mate threat: one ply more, as for a check (and within the same bound).
        if threat && ply < 2 * self.root_depth as usize {
            depth += 1;
        }

        let mut list = std::mem::take(&mut self.buffers[ply]);
        self.generate(pos, tt_move, ply, &mut list);
        if list.is_empty() {
            self.buffers[ply] = list;
            return self.terminal(pos, ply);
        }

        let us = pos.turn();
        let mut best = -INF;
        let mut best_move = None;
        let orig_alpha = alpha;
        let mut searched = 0usize;
        let mut quiets_tried: [Option<(Move, Role)>; 32] = [None; 32];
        let mut n_quiets = 0usize;
        let mut far_drops = 0i32;
        let kings = [pos.king(us), pos.king(!us)];
        for i in 0..list.len() {
            let mv = Self::pick(&mut list, i);
            let capture = pos.captured_role(mv).is_some();
            let quiet = !capture && mv.promotion_role().is_none();
            let role = pos.moving_role(mv).unwrap_or(Role::Pawn);
            let mut child = pos.clone();
            child.play_unchecked(mv);
            // With `check_pruning` a quiet check that gives its piece away counts as no check:
            // it is pruned and reduced like a quiet move, and not extended.
            let gives_check = child.is_check()
                && !(self.config.check_pruning && quiet && hanging_check(&child, mv.to()));
            let far_drop = self.config.drop_pruning
                && quiet
                && mv.is_drop()
                && !gives_check
                && distance(mv.to(), kings[0]) > 2
                && distance(mv.to(), kings[1]) > 2;

            let lost = self.config.lost_quiet_pruning
                && quiet
                && !gives_check
                && !mv.is_castle()
                && lost_there(&child, mv.to());
            // A king move, or a move or drop next to our king (plugging a hole a drop would
            // check through): never pruned, only reduced.
            let near_king = self.config.guard_king
                && quiet
                && (role == Role::King || distance(mv.to(), kings[0]) <= 1);

            if quiet
                && !in_check
                && !gives_check
                && !near_king
                && !threat
                && searched > 0
                && best > -MATE_BOUND
            {
                if lost && !pv_node && depth <= m.lost_depth {
                    continue;
                }
                if far_drop
                    && !pv_node
                    && depth <= 3
                    && (far_drops >= m.far_drops + depth
                        || static_eval + m.far_drop_margin * depth <= alpha)
                {
                    continue;
                }
                // Late move pruning and futility pruning of quiet moves near the leaves.
                let keep = if self.config.strong_reductions {
                    3 + (depth * depth) as usize * 2
                } else {
                    (m.lmp_base + depth * depth * m.lmp_factor).max(0) as usize
                };
                if !pv_node && depth <= 4 && searched >= keep {
                    continue;
                }
                if !pv_node
                    && depth <= 2
                    && static_eval + m.futility_margin * depth + m.futility_base <= alpha
                {
                    continue;
                }
                if count_pruning {
                    let d = depth as usize;
                    let count = (5 + d * d) * (1 + usize::from(improving)) / 2 - 1;
                    if searched >= count {
                        continue;
                    }
                }
            }
            // Evasions: once the king is out of mate, a blocking move or drop that loses its
            // piece, near the leaves.
            let king_move = role == Role::King;
            if self.config.evasion_pruning
                && in_check
                && quiet
                && !king_move
                && !pv_node
                && searched > 0
                && best > -MATE_BOUND
                && depth <= 4
                && !gives_check
                && lost_there(&child, mv.to())
            {
                continue;
            }
            // Captures and checks that lose material in the exchange, near the leaves.
            if count_pruning
                && (capture || gives_check)
                && !pv_node
                && !in_check
                && searched > 0
                && best > -MATE_BOUND
                && depth <= 6
            {
                let loss = match mv.from() {
                    Some(from) if capture => -see(pos, from, mv.to()),
                    _ if lost_there(&child, mv.to()) => value(role),
                    _ => 0,
                };
                if loss > 90 * depth {
                    continue;
                }
            }

            let child_key = zobrist::update(pos, &child, key);
            self.keys[ply + 1] = child_key;
            self.came_by[ply + 1] = ordering::history_index(us, role, mv.is_drop(), mv.to()) as u16;
            let ext = i32::from(
                gives_check
                    && ply < 2 * self.root_depth as usize
                    && !(self.config.safe_check_ext && lost_there(&child, mv.to())),
            );
            let new_depth = depth - 1 + ext;

            let mut score;
            if searched == 0 {
                score = -self.negamax(&child, child_key, new_depth, ply + 1, -beta, -alpha, true);
            } else {
                let mut r = 0;
                let first_reduced = if self.config.strong_reductions && !pv_node {
                    1
                } else {
                    2
                };
                let evasion = self.config.evasion_pruning && in_check && !king_move;
                if depth >= 3
                    && quiet
                    && (!in_check || evasion)
                    && !gives_check
                    && searched >= first_reduced
                {
                    r = i32::from(self.lmr[(depth as usize).min(63)][searched.min(63)]);
                    if pv_node {
                        r -= 1;
                    }
                    if list[i].1 >= 799_000 {
                        r -= 1;
                    }
                    if far_drop {
                        r += 1;
                    }
                    if lost {
                        r += 1;
                    }
                    if self.config.strong_reductions && list[i].1 < 799_000 {
                        // The ordering score of a quiet move below the killers is its history.
                        let h = list[i].1;
                        if h < -4_000 {
                            r += 1;
                        } else if h > 8_000 {
                            r -= 1;
                        }
                    }
                    r = r.clamp(0, new_depth - 1);
                } else if (far_drop || lost) && depth >= 2 && !in_check {
                    r = 1.min(new_depth - 1).max(0);
                }
                score = -self.negamax(
                    &child,
                    child_key,
                    new_depth - r,
                    ply + 1,
                    -alpha - 1,
                    -alpha,
                    true,
                );
                if score > alpha && r > 0 && !self.stop {
                    score = -self.negamax(
                        &child,
                        child_key,
                        new_depth,
                        ply + 1,
                        -alpha - 1,
                        -alpha,
                        true,
                    );
                }
                if score > alpha && score < beta && !self.stop {
                    score =
                        -self.negamax(&child, child_key, new_depth, ply + 1, -beta, -alpha, true);
                }
            }
            if self.stop {
                self.buffers[ply] = list;
                return 0;
            }
            searched += 1;
            if far_drop {
                far_drops += 1;
            }
            if score > best {
                best = score;
                if score > alpha {
                    best_move = Some(mv);
                    alpha = score;
                    if pv_node {
                        self.update_pv(ply, mv);
                    }
                    if score >= beta {
                        if quiet {
                            self.reward(us, mv, role, depth, ply, &quiets_tried[..n_quiets]);
                        }
                        break;
                    }
                }
            }
            if quiet && n_quiets < quiets_tried.len() {
                quiets_tried[n_quiets] = Some((mv, role));
                n_quiets += 1;
            }
        }
        self.buffers[ply] = list;
        if searched == 0 {
            // Everything was pruned (cannot happen: the first move is always searched).
            return static_eval;
        }
        let bound = bound(best, orig_alpha, beta);
        self.tt
            .store(key, best_move, to_tt(best, ply), depth, bound);
        best
    }
}

/// Whether the side to move has something besides pawns and king (null move is unsafe in
/// pawn endings); pieces in the reserve count.
fn has_pieces(pos: &Position) -> bool {
    let b = pos.board();
    let us = pos.turn();
    let pieces = b.by_color(us) & !b.pawns() & !b.kings();
    pieces.any() || !pos.reserve(us).is_empty()
}

/// The position with the other side to move (a null move); `None` if it cannot be built.
fn null_position(pos: &Position) -> Option<Position> {
    let mut setup = pos.to_setup();
    setup.turn = !setup.turn;
    setup.ep_square = None;
    Position::from_setup(setup, *pos.rules()).ok()
}
