//! The quiescence search: captures that do not lose material, queen promotions, and at its
//! first ply the moves and drops that give check (all moves when in check), with delta pruning.
//! With `SearchConfig::check_chains` the side that just gave check may check again at the
//! later plies too (up to `QS_CHAIN_PLIES`; those later checks only a knight's or a contact
//! check, the shapes of a mate under bughouse rules, whose piece is not simply lost where it
//! lands), so a mate by a chain of checking drops is seen.

use bughouse_core::{Move, Position, Role};

use super::ordering::losing_capture;
use super::pruning::{distance, hanging_check, lost_there};
use super::tt::{bound, to_tt};
use super::{Searcher, INF, MATE_BOUND, MAX_PLY, QS_CHAIN_PLIES, QS_CHECK_PLIES, QS_MAX};
use crate::eval::value;
use crate::zobrist;

impl Searcher {
    /// `chain`: the side to move gave check with its last move (the parent node was in check).
    #[allow(clippy::too_many_arguments)]
    pub(super) fn qsearch(
        &mut self,
        pos: &Position,
        key: u64,
        mut alpha: i32,
        beta: i32,
        ply: usize,
        qply: u32,
        chain: bool,
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
        let use_tt = self.config.qs_tt;
        let mut tt_move = None;
        if use_tt {
            if let Some(e) = self.tt.probe(key) {
                tt_move = e.mv;
                if let Some(s) = e.cutoff(ply, alpha, beta).filter(|_| beta - alpha == 1) {
                    return s;
                }
            }
        }
        let orig_alpha = alpha;
        let mut best_move = None;
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
        // Past the first ply, checks only along a chain, and only those that could mate (a
        // knight's or a contact check) and do not simply lose the checking piece (a drop the
        // king or a cheaper piece takes for free).
        let chain_checks = self.config.check_chains
            && chain
            && !in_check
            && (QS_CHECK_PLIES..QS_CHAIN_PLIES).contains(&qply);
        let checks = qply < QS_CHECK_PLIES || chain_checks;
        self.generate_noisy(pos, in_check, checks, &mut list);
        if let Some(m) = tt_move {
            // The stored move first, if it is among these.
            if let Some(at) = list.iter().position(|&(mv, _)| mv == m) {
                list[at].1 = i32::MAX;
            }
        }
        if in_check && list.is_empty() {
            self.buffers[ply] = list;
            return self.terminal(pos, ply);
        }
        let mut quiet_evasions = 0u32;
        for i in 0..list.len() {
            let mv = Self::pick(&mut list, i);
            let victim = pos.captured_role(mv);
            let quiet = victim.is_none() && mv.promotion_role().is_none();
            if in_check && self.config.qs_evasions && best > -MATE_BOUND {
                // The king is out of mate: few more quiet evasions, no losing capture.
                let pruned = match victim {
                    None => quiet && quiet_evasions >= QS_QUIET_EVASIONS,
                    Some(_) => losing_capture(pos, mv, pos.moving_role(mv).unwrap_or(Role::Pawn)),
                };
                if pruned {
                    continue;
                }
            }
            if in_check && quiet {
                quiet_evasions += 1;
            }
            if let Some(victim) = victim.filter(|_| !in_check) {
                // Delta pruning.
                if mv.promotion_role().is_none()
                    && stand + value(victim) + self.margins.qs_delta <= alpha
                    && beta.abs() < MATE_BOUND
                {
                    continue;
                }
            }
            let mut child = pos.clone();
            child.play_unchecked(mv);
            if chain_checks
                && quiet
                && (!mate_shaped(pos, &child, mv) || lost_there(&child, mv.to()))
            {
                continue;
            }
            if self.config.qs_safe_checks
                && !in_check
                && !chain_checks
                && quiet
                && hanging_check(&child, mv.to())
            {
                // A check by the piece alone: a discovered or double check is searched even
                // if the piece hangs, since the king must answer the other checker first.
                continue;
            }
            let child_key = zobrist::update(pos, &child, key);
            let score = -self.qsearch(
                &child,
                child_key,
                -beta,
                -alpha,
                ply + 1,
                qply + 1,
                in_check,
            );
            if self.stop {
                self.buffers[ply] = list;
                return 0;
            }
            if score > best {
                best = score;
                if score > alpha {
                    alpha = score;
                    best_move = Some(mv);
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
        if use_tt {
            let bound = bound(best, orig_alpha, beta);
            self.tt
                .store_quiescence(key, best_move, to_tt(best, ply), bound);
        }
        best
    }
}

/// Quiet evasions searched in check once the king is out of mate (`SearchConfig::qs_evasions`).
const QS_QUIET_EVASIONS: u32 = 2;

/// Whether the check `mv` (quiet) could mate under bughouse rules, where a check a drop could
/// block is no mate (F3.7): a knight's check or a contact check (next to the king). Only those
/// continue a chain of checks past its first: they leave the king no drop to block with, so the
/// evasions are few, while every distant check would be met by every drop in between.
fn mate_shaped(pos: &Position, child: &Position, mv: Move) -> bool {
    let role = mv
        .dropped_role()
        .or_else(|| pos.moving_role(mv))
        .unwrap_or(Role::Pawn);
    role == Role::Knight || distance(mv.to(), child.king(child.turn())) <= 1
}
