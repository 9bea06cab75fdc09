//! Move ordering: the hash move, good captures by SEE and MVV-LVA, promotions, killers,
//! (with `SearchConfig::order_checks`) quiet moves and drops that give check, history (board
//! moves and drops apart), bad captures; the quiescence search's noisy moves; the reward of a
//! quiet move that caused a cutoff.

use bughouse_core::{attacks, Bitboard, Color, Move, MoveList, Position, Role, Square};

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

/// The number of history indexes ([`history_index`]).
pub(super) const HISTORY_LEN: usize = 24 * 64;
/// No move led to this ply (the root, a null move) in `Searcher::came_by`.
pub(super) const NO_MOVE: u16 = u16::MAX;

/// The ordering score of the second killer; quiet moves score below it.
const KILLER_2: i32 = 799_000;
/// With `SearchConfig::order_checks`: the ordering score of a quiet check, plus its history
/// (clamped to the span, so that it stays between the killers and the other quiet moves).
const QUIET_CHECK: i32 = 700_000;
const QUIET_CHECK_SPAN: i32 = 90_000;

/// The squares from which each role gives a direct check to the king of the side not to move
/// (discovered checks are not seen).
pub(super) struct CheckSquares([Bitboard; 7]);

impl CheckSquares {
    /// No square checks: the test is always false.
    pub(super) const NONE: CheckSquares = CheckSquares([Bitboard::EMPTY; 7]);

    pub(super) fn new(pos: &Position) -> CheckSquares {
        let us = pos.turn();
        let occ = pos.board().occupied();
        let ek = pos.king(!us);
        let mut squares = [Bitboard::EMPTY; 7];
        squares[Role::Pawn as usize] = attacks::pawn_attacks(!us, ek);
        squares[Role::Knight as usize] = attacks::knight_attacks(ek);
        squares[Role::Bishop as usize] = attacks::bishop_attacks(ek, occ);
        squares[Role::Rook as usize] = attacks::rook_attacks(ek, occ);
        squares[Role::Queen as usize] = attacks::queen_attacks(ek, occ);
        CheckSquares(squares)
    }

    /// The role `mv` puts on its destination (the dropped or promoted piece).
    #[inline]
    pub(super) fn role(&self, pos: &Position, mv: Move) -> Role {
        match (mv.dropped_role(), mv.promotion_role()) {
            (Some(r), _) => r,
            (None, Some(r)) => r,
            _ => pos.moving_role(mv).unwrap_or(Role::King),
        }
    }

    /// Every square from which some piece would give check.
    #[inline]
    pub(super) fn any(&self) -> Bitboard {
        self.0.iter().fold(Bitboard::EMPTY, |all, &s| all | s)
    }

    /// Whether `mv` gives a direct check (castling never counts).
    #[inline]
    pub(super) fn gives_check(&self, pos: &Position, mv: Move) -> bool {
        !mv.is_castle() && self.0[self.role(pos, mv) as usize].contains(mv.to())
    }
}

/// Whether the capture `mv` by `attacker` loses material by the static exchange (a pawn's
/// capture, en passant included, never): the quiescence search leaves it out.
#[inline]
pub(super) fn losing_capture(pos: &Position, mv: Move, attacker: Role) -> bool {
    let from = mv.from().unwrap_or(mv.to());
    attacker != Role::Pawn && see(pos, from, mv.to()) < 0
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
                return KILLER_2;
            }
        }
        let role = pos.moving_role(mv).unwrap_or(Role::Pawn);
        let idx = history_index(us, role, mv.is_drop(), mv.to());
        let cont = self
            .cont_slot(ply, idx)
            .map_or(0, |i| i32::from(self.cont[i]));
        self.history[idx] + cont
    }

    /// The place in the continuation history of the quiet move `idx` after the move that led
    /// to `ply`, if the switch is on and a move led there.
    #[inline]
    pub(super) fn cont_slot(&self, ply: usize, idx: usize) -> Option<usize> {
        if !self.config.cont_history || self.cont.is_empty() || ply >= MAX_PLY {
            return None;
        }
        let prev = self.came_by[ply];
        (prev != NO_MOVE).then(|| usize::from(prev) * HISTORY_LEN + idx)
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
        let checks = self.config.order_checks.then(|| CheckSquares::new(pos));
        // Filled in place and read by reference: a list returned by value or moved into an
        // iterator was copied whole (its `MAX_MOVES` slots, 4 KB), a fifth of the search's time.
        let mut moves = MoveList::new();
        pos.legal_moves_into(&mut moves);
        for &mv in &moves {
            let mut score = self.order_score(pos, mv, tt_move, ply);
            if let Some(checks) = &checks {
                let quiet = pos.captured_role(mv).is_none() && mv.promotion_role().is_none();
                if quiet && score < KILLER_2 && checks.gives_check(pos, mv) {
                    // A quiet direct check: after the killers, before the other quiet moves.
                    score = QUIET_CHECK + score.clamp(-QUIET_CHECK_SPAN, QUIET_CHECK_SPAN);
                }
            }
            list.push((mv, score));
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
        let mut moves = MoveList::new();
        if in_check {
            pos.legal_moves_into(&mut moves);
            for &mv in &moves {
                list.push((mv, self.order_score(pos, mv, None, MAX_PLY)));
            }
            return;
        }
        let us = pos.turn();
        let squares = if checks {
            CheckSquares::new(pos)
        } else {
            CheckSquares::NONE
        };
        // Only the moves that can pass the filter below are generated: captures (en passant
        // too), moves to the last ranks (promotions), and with `checks` the moves and drops
        // onto a checking square. Most drops and quiet moves are never made.
        let checking = squares.any();
        let mut board_to = pos.board().by_color(!us) | Bitboard::BACKRANKS | checking;
        if let Some(ep) = pos.ep_square() {
            board_to.add(ep);
        }
        pos.legal_moves_to_into(board_to, checking, &mut moves);
        for &mv in &moves {
            if let Some(victim) = pos.captured_role(mv) {
                let attacker = pos.moving_role(mv).unwrap_or(Role::Pawn);
                if losing_capture(pos, mv, attacker) {
                    continue;
                }
                let promo = mv.promotion_role().map_or(0, value);
                list.push((
                    mv,
                    1_000_000 + (BOARD_VALUE[victim as usize] + promo) * 16 - attacker as i32,
                ));
            } else if mv.promotion_role() == Some(Role::Queen) {
                list.push((mv, 900_000));
            } else if checks && squares.gives_check(pos, mv) {
                let role = squares.role(pos, mv);
                let hist = self.history[history_index(us, role, mv.is_drop(), mv.to())];
                list.push((mv, hist - 100_000));
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
        // Below 512: the gravity keeps every counter within ±16,384 (the continuation
        // history stores them as i16).
        let bonus = (depth * depth).min(400);
        let idx = history_index(us, role, mv.is_drop(), mv.to());
        let h = &mut self.history[idx];
        *h += bonus * 32 - *h * bonus / 512;
        if let Some(i) = self.cont_slot(ply, idx) {
            let c = i32::from(self.cont[i]);
            self.cont[i] = (c + bonus * 32 - c * bonus / 512) as i16;
        }
        for (m, r) in tried.iter().flatten() {
            let idx = history_index(us, *r, m.is_drop(), m.to());
            let h = &mut self.history[idx];
            *h -= bonus * 32 + *h * bonus / 512;
            if let Some(i) = self.cont_slot(ply, idx) {
                let c = i32::from(self.cont[i]);
                self.cont[i] = (c - bonus * 32 - c * bonus / 512) as i16;
            }
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::SearchConfig;
    use bughouse_core::Rules;

    fn ordered(config: SearchConfig, fen: &str) -> Vec<String> {
        let pos = Position::from_fen(fen, Rules::fide()).unwrap();
        let mut s = Searcher::new(1);
        s.set_config(config);
        let mut list = Vec::new();
        s.generate(&pos, None, 0, &mut list);
        list.sort_by_key(|&(_, score)| std::cmp::Reverse(score));
        list.iter().map(|(m, _)| m.to_string()).collect()
    }

    #[test]
    fn quiet_checks_come_first_with_order_checks() {
        // A knight in hand: three drops check the king on g8 (e7, f6, h6).
        let fen = "6k1/8/8/8/8/8/8/K7[N] w - - 0 1";
        let mut first: Vec<String> = ordered(SearchConfig::GUARD, fen)[..3].to_vec();
        first.sort();
        assert_eq!(first, ["N@e7", "N@f6", "N@h6"]);
        // A good capture still comes before the checks (here four: a rook move too).
        let fen = "6k1/8/8/3p4/8/8/8/K2R4[N] w - - 0 1";
        let list = ordered(SearchConfig::GUARD, fen);
        assert_eq!(list[0], "d1d5");
        let mut next: Vec<String> = list[1..5].to_vec();
        next.sort();
        assert_eq!(next, ["N@e7", "N@f6", "N@h6", "d1g1"]);
    }

    #[test]
    fn check_squares_see_pawn_and_slider_checks() {
        let pos = Position::from_fen("4k3/8/8/8/8/8/8/4K3[QP] w - - 0 1", Rules::fide()).unwrap();
        let squares = CheckSquares::new(&pos);
        let checks: Vec<String> = pos
            .legal_moves()
            .into_iter()
            .filter(|&m| squares.gives_check(&pos, m))
            .map(|m| m.to_string())
            .collect();
        assert!(checks.contains(&"P@d7".to_string()));
        assert!(checks.contains(&"Q@e2".to_string()));
        assert!(!checks.contains(&"Q@a2".to_string()));
        // Every listed move really checks.
        for uci in &checks {
            let mut p = pos.clone();
            p.play(p.parse_uci(uci).unwrap()).unwrap();
            assert!(p.is_check(), "{uci}");
        }
    }

    #[test]
    fn the_continuation_history_orders_a_move_by_the_move_before_it() {
        let pos = Position::from_fen("6k1/8/8/8/8/8/8/K7[N] w - - 0 1", Rules::fide()).unwrap();
        let drop = pos.parse_uci("N@d4").unwrap();
        let idx = |uci: &str| {
            let mv = pos.parse_uci(uci).unwrap();
            history_index(Color::Black, Role::Knight, mv.is_drop(), mv.to()) as u16
        };
        let (after_c6, after_e6) = (idx("N@c6"), idx("N@e6"));
        for (config, learns) in [
            (SearchConfig::GUARD_CONT, true),
            (SearchConfig::GUARD, false),
        ] {
            let mut s = Searcher::new(1);
            s.set_config(config);
            // N@d4 refuted something after Black's N@c6, at ply 1.
            s.came_by[1] = after_c6;
            s.reward(Color::White, drop, Role::Knight, 6, 1, &[]);
            // Not as a killer: by the histories alone.
            s.killers[1] = [None; 2];
            let c6 = s.order_score(&pos, drop, None, 1);
            s.came_by[1] = after_e6;
            let e6 = s.order_score(&pos, drop, None, 1);
            // Its own history rose either way; after N@c6 it rose more with the switch.
            assert!(e6 > 0, "{config:?}");
            assert_eq!(c6 > e6, learns, "{config:?}: {c6} against {e6}");
        }
    }
}
