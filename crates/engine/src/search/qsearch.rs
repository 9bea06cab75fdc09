//! The quiescence search: captures that do not lose material, queen promotions, and at its
//! first ply the moves and drops that give check (all moves when in check), with delta pruning.

use bughouse_core::Position;

use super::{terminal, Searcher, INF, MATE_BOUND, MAX_PLY, QS_CHECK_PLIES, QS_MAX};
use crate::eval::value;
use crate::zobrist;

impl Searcher {
    pub(super) fn qsearch(
        &mut self,
        pos: &Position,
        key: u64,
        mut alpha: i32,
        beta: i32,
        ply: usize,
        qply: u32,
    ) -> i32 {
        self.nodes += 1;
        if self.out_of_budget() {
            return 0;
        }
        self.pv_len[ply.min(MAX_PLY - 1)] = 0;
        let in_check = pos.is_check();
        if ply >= MAX_PLY - 2 || (qply >= QS_MAX && !in_check) {
            return self.eval(pos, key);
        }
        let mut best = -INF;
        let mut stand = -INF;
        if !in_check {
            stand = self.eval(pos, key);
            if stand >= beta {
                return stand;
            }
            alpha = alpha.max(stand);
            best = stand;
        }
        let mut list = std::mem::take(&mut self.buffers[ply]);
        self.generate_noisy(pos, in_check, qply < QS_CHECK_PLIES, &mut list);
        if in_check && list.is_empty() {
            self.buffers[ply] = list;
            return terminal(pos, ply);
        }
        for i in 0..list.len() {
            let mv = Self::pick(&mut list, i);
            if !in_check {
                if let Some(victim) = pos.captured_role(mv) {
                    // Delta pruning.
                    if mv.promotion_role().is_none()
                        && stand + value(victim) + 200 <= alpha
                        && beta.abs() < MATE_BOUND
                    {
                        continue;
                    }
                }
            }
            let mut child = pos.clone();
            child.play_unchecked(mv);
            let child_key = zobrist::update(pos, &child, key);
            let score = -self.qsearch(&child, child_key, -beta, -alpha, ply + 1, qply + 1);
            if self.stop {
                self.buffers[ply] = list;
                return 0;
            }
            if score > best {
                best = score;
                if score > alpha {
                    alpha = score;
                    if score >= beta {
                        break;
                    }
                }
            }
        }
        self.buffers[ply] = list;
        if !in_check && best == -INF {
            return stand;
        }
        best
    }
}
