//! Move ordering: the hash move, good captures by SEE and MVV-LVA, promotions, killers,
//! history (board moves and drops apart), bad captures; the quiescence search's noisy moves; the
//! reward of a quiet move that caused a cutoff.

use bughouse_core::{Color, Move, Position, Role, Square};

use super::{Searcher, MAX_PLY};
use crate::eval::{see, value, BOARD_VALUE};

/// Index into the history table: board moves and drops of each coloured role.
#[inline]
pub(super) fn history_index(color: Color, role: Role, drop: bool, to: Square) -> usize {
    let c = match color {
        Color::White => 0,
        Color::Black => 12,
    };
    ((c + role as usize - 1 + if drop { 6 } else { 0 }) << 6) | to as usize
}

impl Searcher {
    /// An ordering score: hash move, good captures, promotions, killers, history, bad captures.
    #[inline]
    pub(super) fn order_score(
        &self,
        pos: &Position,
        mv: Move,
        tt_move: Option<Move>,
        ply: usize,
    ) -> i32 {
        if Some(mv) == tt_move {
            return 2_000_000;
        }
        let us = pos.turn();
        if let Some(victim) = pos.captured_role(mv) {
            let attacker = pos.moving_role(mv).unwrap_or(Role::Pawn);
            let mvv_lva = BOARD_VALUE[victim as usize] * 16 - attacker as i32;
            let from = mv.from().unwrap_or(mv.to());
            return if mv.is_en_passant() || see(pos, from, mv.to()) >= 0 {
                1_000_000 + mvv_lva
            } else {
                -20_000 + mvv_lva
            };
        }
        if let Some(role) = mv.promotion_role() {
            return 900_000 + value(role);
        }
        if ply < MAX_PLY {
            if self.killers[ply][0] == Some(mv) {
                return 800_000;
            }
            if self.killers[ply][1] == Some(mv) {
                return 799_000;
            }
        }
        let role = pos.moving_role(mv).unwrap_or(Role::Pawn);
        self.history[history_index(us, role, mv.is_drop(), mv.to())]
    }

    /// Fills the buffer of `ply` with the legal moves of `pos` and their ordering scores.
    #[inline(never)]
    pub(super) fn generate(
        &self,
        pos: &Position,
        tt_move: Option<Move>,
        ply: usize,
        list: &mut Vec<(Move, i32)>,
    ) {
        list.clear();
        for mv in pos.legal_moves() {
            list.push((mv, self.order_score(pos, mv, tt_move, ply)));
        }
    }

    /// Moves that the quiescence search tries: captures that do not lose material (by SEE),
    /// queen promotions, and with `checks` the moves and drops that give check. All moves
    /// when in check.
    #[inline(never)]
    pub(super) fn generate_noisy(
        &self,
        pos: &Position,
        in_check: bool,
        checks: bool,
        list: &mut Vec<(Move, i32)>,
    ) {
        list.clear();
        let moves = pos.legal_moves();
        if in_check {
            for mv in moves {
                list.push((mv, self.order_score(pos, mv, None, MAX_PLY)));
            }
            return;
        }
        let us = pos.turn();
        let b = pos.board();
        let occ = b.occupied();
        let ek = pos.king(!us);
        let check_squares = |role: Role| match role {
            Role::Pawn => bughouse_core::attacks::pawn_attacks(!us, ek),
            Role::Knight => bughouse_core::attacks::knight_attacks(ek),
            Role::Bishop => bughouse_core::attacks::bishop_attacks(ek, occ),
            Role::Rook => bughouse_core::attacks::rook_attacks(ek, occ),
            Role::Queen => bughouse_core::attacks::queen_attacks(ek, occ),
            Role::King => bughouse_core::Bitboard::EMPTY,
        };
        let mut squares = [bughouse_core::Bitboard::EMPTY; 7];
        if checks {
            for role in Role::ALL {
                squares[role as usize] = check_squares(role);
            }
        }
        for mv in moves {
            if let Some(victim) = pos.captured_role(mv) {
                let attacker = pos.moving_role(mv).unwrap_or(Role::Pawn);
                let from = mv.from().unwrap_or(mv.to());
                if !mv.is_en_passant() && attacker != Role::Pawn && see(pos, from, mv.to()) < 0 {
                    continue;
                }
                let promo = mv.promotion_role().map_or(0, value);
                list.push((
                    mv,
                    1_000_000 + (BOARD_VALUE[victim as usize] + promo) * 16 - attacker as i32,
                ));
            } else if mv.promotion_role() == Some(Role::Queen) {
                list.push((mv, 900_000));
            } else if checks {
                let role = match (mv.dropped_role(), mv.promotion_role()) {
                    (Some(r), _) => r,
                    (None, Some(r)) => r,
                    _ => pos.moving_role(mv).unwrap_or(Role::King),
                };
                if squares[role as usize].contains(mv.to()) && !mv.is_castle() {
                    let hist = self.history[history_index(us, role, mv.is_drop(), mv.to())];
                    list.push((mv, hist - 100_000));
                }
            }
        }
    }

    #[inline]
    pub(super) fn pick(list: &mut [(Move, i32)], i: usize) -> Move {
        let mut best = i;
        for j in i + 1..list.len() {
            if list[j].1 > list[best].1 {
                best = j;
            }
        }
        list.swap(i, best);
        list[i].0
    }

    /// A quiet move that caused a cutoff: killer and history bonus, history malus for the
    /// quiet moves tried before it.
    pub(super) fn reward(
        &mut self,
        us: Color,
        mv: Move,
        role: Role,
        depth: i32,
        ply: usize,
        tried: &[Option<(Move, Role)>],
    ) {
        if self.killers[ply][0] != Some(mv) {
            self.killers[ply][1] = self.killers[ply][0];
            self.killers[ply][0] = Some(mv);
        }
        let bonus = (depth * depth).min(400);
        let idx = history_index(us, role, mv.is_drop(), mv.to());
        let h = &mut self.history[idx];
        *h += bonus * 32 - *h * bonus / 512;
        for (m, r) in tried.iter().flatten() {
            let idx = history_index(us, *r, m.is_drop(), m.to());
            let h = &mut self.history[idx];
            *h -= bonus * 32 + *h * bonus / 512;
        }
    }
}
