//! Legal move generation: board moves, castling, en passant and drops, all of them or only
//! those to given squares, and the drop squares the rules allow.

use shakmaty::{attacks, Bitboard, Color, File, Rank, Role, Square};

use super::{
    backrank_corners, drop_zone, forward, king_home, offset, push_promotions, MoveList, Position,
};
use crate::rules::DropCheck;
use crate::types::{castle_king_to, castle_rook_to, Move, RESERVE_ROLES};

impl Position {
    /// All legal moves: board moves and drops.
    pub fn legal_moves(&self) -> MoveList {
        let mut moves = MoveList::new();
        self.legal_moves_into(&mut moves);
        moves
    }

    /// All legal moves into `moves`, cleared first. For hot loops: returned by value
    /// ([`Position::legal_moves`]), the list of `MAX_MOVES` slots may be copied whole on the
    /// way out.
    pub fn legal_moves_into(&self, moves: &mut MoveList) {
        self.legal_moves_to_into(Bitboard::FULL, Bitboard::FULL, moves);
    }

    /// The legal board moves whose [`Move::to`] is in `board_to` (for castling that is the
    /// rook's square) and the legal drops onto `drop_to`, into `moves`, cleared first, in the
    /// order of [`Position::legal_moves`]. With both masks full this is
    /// [`Position::legal_moves_into`]; narrower masks skip generating the rest, e.g. the
    /// captures only (the enemy's pieces, the en passant square, no drops) for a quiescence
    /// search.
    pub fn legal_moves_to_into(&self, board_to: Bitboard, drop_to: Bitboard, moves: &mut MoveList) {
        moves.clear();
        self.gen_legal_to(board_to, drop_to, moves);
    }

    #[inline]
    fn gen_legal_to(&self, board_to: Bitboard, drop_to: Bitboard, moves: &mut MoveList) {
        let us = self.turn;
        let b = &self.board;
        let our = b.by_color(us);
        let occ = b.occupied();
        let king = self.our_king_of(us);
        let checkers = self.attackers_to(king, !us, occ);
        let pinned = self.pinned(king);

        if checkers.is_empty() {
            let target = !our & board_to;
            self.gen_pieces(king, target, pinned, true, moves);
            self.gen_king(king, target, moves);
            self.gen_castling_to(king, board_to, moves);
            self.gen_drops(!occ & drop_to, moves);
        } else {
            if let Some(checker) = checkers.single_square() {
                let block = attacks::between(king, checker);
                // Pinned pieces can never resolve a check: the pin line and the check line
                // meet only at the king.
                self.gen_pieces(king, block.with(checker) & board_to, pinned, false, moves);
                self.gen_drops(block & drop_to, moves);
            }
            self.gen_king(king, !our & board_to, moves);
        }
        if self.ep_square.is_some_and(|ep| board_to.contains(ep)) {
            self.gen_en_passant(king, moves);
        }
    }

    /// Moves of pawns, knights, bishops, rooks and queens to `target`. A pinned piece moves only
    /// along its pin line, and not at all when `pinned_can_move` is false (in check).
    #[inline]
    fn gen_pieces(
        &self,
        king: Square,
        target: Bitboard,
        pinned: Bitboard,
        pinned_can_move: bool,
        moves: &mut MoveList,
    ) {
        let b = &self.board;
        let our = b.by_color(self.turn);
        let occ = b.occupied();
        let free = !pinned;
        let pinned_movable = if pinned_can_move {
            pinned
        } else {
            Bitboard::EMPTY
        };

        // Knights: a pinned knight never moves.
        for from in b.knights() & our & free {
            for to in attacks::knight_attacks(from) & target {
                moves.push(Move::normal(from, to));
            }
        }
        // Bishops, rooks and queens: a pinned one slides along its pin line only.
        let mut slide = |pieces: Bitboard, slider_attacks: fn(Square, Bitboard) -> Bitboard| {
            for from in pieces & our {
                let t = if free.contains(from) {
                    target
                } else if pinned_movable.contains(from) {
                    target & attacks::ray(king, from)
                } else {
                    continue;
                };
                for to in slider_attacks(from, occ) & t {
                    moves.push(Move::normal(from, to));
                }
            }
        };
        slide(b.bishops(), attacks::bishop_attacks);
        slide(b.rooks(), attacks::rook_attacks);
        slide(b.queens(), attacks::queen_attacks);

        let pawns = b.pawns() & our;
        self.gen_pawns(pawns & free, target, moves);
        for from in pawns & pinned_movable {
            self.gen_pawns(
                Bitboard::from_square(from),
                target & attacks::ray(king, from),
                moves,
            );
        }
    }

    #[inline]
    fn gen_pawns(&self, pawns: Bitboard, target: Bitboard, moves: &mut MoveList) {
        if pawns.is_empty() {
            return;
        }
        let b = &self.board;
        let us = self.turn;
        let them = b.by_color(!us);
        let empty = !b.occupied();
        let fwd = forward(us);
        let promo = self.rules.promotion_roles;

        // Captures, west and east. Shifting by 7/9 wraps around the board edge, so mask the
        // file the pawn cannot come from.
        let (west, east) = match us {
            Color::White => (7, 9),
            Color::Black => (-9, -7),
        };
        let not_a = !Bitboard::from_file(File::A);
        let not_h = !Bitboard::from_file(File::H);
        for (dir, mask) in [(west, not_a), (east, not_h)] {
            let caps = (pawns & mask).shift(dir) & them & target;
            for to in caps & !Bitboard::BACKRANKS {
                moves.push(Move::normal(offset(to, -dir), to));
            }
            for to in caps & Bitboard::BACKRANKS {
                push_promotions(moves, offset(to, -dir), to, promo);
            }
        }

        let single = pawns.shift(fwd) & empty;
        for to in single & target & !Bitboard::BACKRANKS {
            moves.push(Move::normal(offset(to, -fwd), to));
        }
        for to in single & target & Bitboard::BACKRANKS {
            push_promotions(moves, offset(to, -fwd), to, promo);
        }
        // A pawn on its own second rank may advance two squares, dropped or not (F3.5).
        let third = Bitboard::from_rank(us.fold_wb(Rank::Third, Rank::Sixth));
        let double = (single & third).shift(fwd) & empty & target;
        for to in double {
            moves.push(Move::normal(offset(to, -2 * fwd), to));
        }
    }

    #[inline]
    fn gen_king(&self, king: Square, target: Bitboard, moves: &mut MoveList) {
        let occ = self.board.occupied() ^ Bitboard::from_square(king);
        for to in attacks::king_attacks(king) & target {
            if self.attackers_to(to, !self.turn, occ).is_empty() {
                moves.push(Move::normal(king, to));
            }
        }
    }

    pub(crate) fn gen_castling(&self, king: Square, moves: &mut MoveList) {
        self.gen_castling_to(king, Bitboard::FULL, moves);
    }

    /// Castling with the rooks on `rooks`.
    fn gen_castling_to(&self, king: Square, rooks: Bitboard, moves: &mut MoveList) {
        let us = self.turn;
        let rights = self.castling & backrank_corners(us) & !self.arrived & rooks;
        if rights.is_empty() || king != king_home(us) {
            return;
        }
        let b = &self.board;
        let occ = b.occupied();
        for rook in rights {
            if b.piece_at(rook) != Some(us.rook()) || self.promoted.contains(rook) {
                continue;
            }
            if (attacks::between(king, rook) & occ).any() {
                continue;
            }
            let king_to = castle_king_to(king, rook);
            let rook_to = castle_rook_to(king, rook);
            let after = (occ ^ Bitboard::from_square(king) ^ Bitboard::from_square(rook))
                | Bitboard::from_square(rook_to)
                | Bitboard::from_square(king_to);
            if self.attackers_to(king_to, !us, after).any() {
                continue;
            }
            let path = attacks::between(king, king_to);
            let occ_no_king = occ ^ Bitboard::from_square(king);
            if path
                .into_iter()
                .any(|sq| self.attackers_to(sq, !us, occ_no_king).any())
            {
                continue;
            }
            moves.push(Move::castle(king, rook));
        }
    }

    /// Squares from which a piece of `role` and of the side to move would attack the enemy king.
    #[inline]
    fn checking_squares(&self, role: Role) -> Bitboard {
        let us = self.turn;
        let ek = self.our_king_of(!us);
        let occ = self.board.occupied();
        match role {
            Role::Pawn => attacks::pawn_attacks(!us, ek),
            Role::Knight => attacks::knight_attacks(ek),
            Role::Bishop => attacks::bishop_attacks(ek, occ),
            Role::Rook => attacks::rook_attacks(ek, occ),
            Role::Queen => attacks::queen_attacks(ek, occ),
            Role::King => attacks::king_attacks(ek),
        }
    }

    /// The squares where the side to move may drop `role` now, given the squares that would
    /// resolve any check (`allowed`: all empty squares when not in check).
    #[inline]
    pub(crate) fn drop_squares(&self, role: Role, allowed: Bitboard) -> Bitboard {
        let mut squares = allowed & drop_zone(&self.rules, self.turn);
        if role == Role::Pawn && !self.rules.pawn_drop_on_back_rank {
            squares &= !Bitboard::BACKRANKS;
        }
        if self.rules.drop_check == DropCheck::Forbidden {
            // K5A: a drop may not put the enemy king in check.
            squares &= !self.checking_squares(role);
        }
        squares
    }

    #[inline]
    fn gen_drops(&self, allowed: Bitboard, moves: &mut MoveList) {
        if !self.rules.drops || allowed.is_empty() {
            return;
        }
        let reserve = self.reserves.get(self.turn);
        if reserve.is_empty() {
            return;
        }
        for role in RESERVE_ROLES {
            if reserve.count(role) > 0 {
                for to in self.drop_squares(role, allowed) {
                    moves.push(Move::drop(role, to));
                }
            }
        }
    }

    fn gen_en_passant(&self, king: Square, moves: &mut MoveList) {
        let Some(ep) = self.ep_square else { return };
        let us = self.turn;
        let b = &self.board;
        let capturers = b.pawns() & b.by_color(us) & attacks::pawn_attacks(!us, ep);
        for from in capturers {
            if self.en_passant_is_safe(king, from, ep) {
                moves.push(Move::en_passant(from, ep));
            }
        }
    }

    pub(crate) fn en_passant_is_safe(&self, king: Square, from: Square, ep: Square) -> bool {
        let captured = Square::from_coords(ep.file(), from.rank());
        let occ =
            (self.board.occupied() ^ Bitboard::from_square(from) ^ Bitboard::from_square(captured))
                | Bitboard::from_square(ep);
        (self.attackers_to(king, !self.turn, occ) & !Bitboard::from_square(captured)).is_empty()
    }

    pub(super) fn has_legal_en_passant(&self) -> bool {
        let Some(ep) = self.ep_square else {
            return false;
        };
        let us = self.turn;
        let king = self.our_king_of(us);
        let b = &self.board;
        (b.pawns() & b.by_color(us) & attacks::pawn_attacks(!us, ep))
            .into_iter()
            .any(|from| self.en_passant_is_safe(king, from, ep))
    }

    /// Whether the side to move has any legal move.
    pub fn has_legal_moves(&self) -> bool {
        let mut moves = MoveList::new();
        let king = self.our_king_of(self.turn);
        // King moves are the cheapest and most often there.
        self.gen_king(king, !self.board.by_color(self.turn), &mut moves);
        if !moves.is_empty() {
            return true;
        }
        self.gen_legal_to(Bitboard::FULL, Bitboard::FULL, &mut moves);
        !moves.is_empty()
    }

    /// The squares where the side to move could drop a piece of `role` now, were it in his
    /// reserve: every rule applies (drop zone, back ranks, drop check, resolving a check).
    pub fn potential_drop_squares(&self, role: Role) -> Bitboard {
        if !self.rules.drops || role == Role::King {
            return Bitboard::EMPTY;
        }
        let king = self.our_king_of(self.turn);
        let checkers = self.checkers();
        let allowed = if checkers.is_empty() {
            !self.board.occupied()
        } else if let Some(checker) = checkers.single_square() {
            attacks::between(king, checker)
        } else {
            Bitboard::EMPTY
        };
        self.drop_squares(role, allowed)
    }
}
