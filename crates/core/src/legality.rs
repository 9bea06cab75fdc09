//! Checking one move, and finding the moves that go to one square, without generating the whole
//! move list. Replaying records (SAN and UCI) uses these; the full generator stays the single
//! definition of legality, and the tests check both agree.

use shakmaty::{attacks, Bitboard, Color, Rank, Role, Square};

use arrayvec::ArrayVec;

use crate::position::{MoveList, Position};
use crate::types::Move;

impl Position {
    /// Whether `m` is legal here.
    ///
    /// # Examples
    ///
    /// ```
    /// use bughouse_core::{Move, Position, Role, Rules, Square};
    ///
    /// let pos = Position::new(Rules::fide());
    /// assert!(pos.is_legal(Move::normal(Square::E2, Square::E4)));
    /// assert!(!pos.is_legal(Move::normal(Square::E2, Square::E5)));
    /// assert!(!pos.is_legal(Move::drop(Role::Knight, Square::F3))); // empty reserve
    /// ```
    pub fn is_legal(&self, m: Move) -> bool {
        let us = self.turn();
        let b = self.board();
        let king = self.our_king_of(us);
        let occ = b.occupied();
        let checkers = self.attackers_to(king, !us, occ);

        if let Some(role) = m.dropped_role() {
            if !self.rules().drops || self.reserve(us).count(role) == 0 {
                return false;
            }
            let allowed = if checkers.is_empty() {
                !occ
            } else if let Some(checker) = checkers.single_square() {
                attacks::between(king, checker)
            } else {
                Bitboard::EMPTY
            };
            return self.drop_squares(role, allowed).contains(m.to());
        }

        let from = m.raw_from();
        let to = m.to();
        if b.piece_at(from).is_none_or(|p| p.color != us) {
            return false;
        }

        if m.is_castle() {
            if checkers.any() || from != king {
                return false;
            }
            let mut moves = MoveList::new();
            self.gen_castling(king, &mut moves);
            return moves.contains(&m);
        }

        if m.is_en_passant() {
            return self.ep_square() == Some(to)
                && b.role_at(from) == Some(Role::Pawn)
                && attacks::pawn_attacks(us, from).contains(to)
                && self.en_passant_is_safe(king, from, to);
        }

        let Some(role) = b.role_at(from) else {
            return false;
        };
        if b.by_color(us).contains(to) {
            return false;
        }
        let promotes = role == Role::Pawn && Bitboard::BACKRANKS.contains(to);
        match m.promotion_role() {
            Some(p) if !promotes || !self.rules().promotion_roles.contains(p) => return false,
            None if promotes => return false,
            _ => {}
        }
        let reach = match role {
            Role::Pawn => pawn_reach(self, us, from),
            Role::King => attacks::king_attacks(from),
            other => piece_attacks(other, from, occ),
        };
        if !reach.contains(to) {
            return false;
        }
        if role == Role::King {
            return self
                .attackers_to(to, !us, occ ^ Bitboard::from_square(king))
                .is_empty();
        }
        if checkers.more_than_one() {
            return false;
        }
        let pinned = self.pinned(king);
        if let Some(checker) = checkers.single_square() {
            if pinned.contains(from) {
                return false;
            }
            return attacks::between(king, checker).with(checker).contains(to);
        }
        !pinned.contains(from) || attacks::ray(king, from).contains(to)
    }

    /// The legal moves of `role` (or drops of it) that reach `to`: the candidates for a SAN
    /// move. Faster than filtering [`Position::legal_moves`].
    pub fn moves_to(&self, role: Role, to: Square, drops: bool) -> Candidates {
        let mut out = Candidates::new();
        let us = self.turn();
        let b = self.board();
        if drops {
            let m = Move::drop(role, to);
            if self.is_legal(m) {
                out.push(m);
            }
            return out;
        }
        let ours = b.by_color(us) & b.by_role(role);
        let froms = match role {
            Role::Pawn => {
                let back = match us {
                    Color::White => -8,
                    Color::Black => 8,
                };
                let mut f = attacks::pawn_attacks(!us, to) & ours;
                if let Some(one) = to.offset(back) {
                    f |= Bitboard::from_square(one) & ours;
                    if let Some(two) = one.offset(back) {
                        f |= Bitboard::from_square(two) & ours;
                    }
                }
                f
            }
            Role::King => attacks::king_attacks(to) & ours,
            other => piece_attacks(other, to, b.occupied()) & ours,
        };
        for from in froms {
            if role == Role::Pawn && Bitboard::BACKRANKS.contains(to) {
                for p in [Role::Queen, Role::Rook, Role::Bishop, Role::Knight] {
                    let m = Move::promotion(from, to, p);
                    if self.is_legal(m) {
                        out.push(m);
                    }
                }
            } else if role == Role::Pawn && self.ep_square() == Some(to) && from.file() != to.file()
            {
                let m = Move::en_passant(from, to);
                if self.is_legal(m) {
                    out.push(m);
                }
            } else {
                let m = Move::normal(from, to);
                if self.is_legal(m) {
                    out.push(m);
                }
            }
        }
        out
    }
}

/// The moves of one role to one square: at most one slider per ray (8), 8 knights, or 3 pawns
/// with 4 promotions each.
pub type Candidates = ArrayVec<Move, 16>;

fn piece_attacks(role: Role, from: Square, occ: Bitboard) -> Bitboard {
    match role {
        Role::Knight => attacks::knight_attacks(from),
        Role::Bishop => attacks::bishop_attacks(from, occ),
        Role::Rook => attacks::rook_attacks(from, occ),
        Role::Queen => attacks::queen_attacks(from, occ),
        Role::King => attacks::king_attacks(from),
        Role::Pawn => Bitboard::EMPTY,
    }
}

/// The squares a pawn on `from` may move to by a normal move (not en passant).
fn pawn_reach(pos: &Position, us: Color, from: Square) -> Bitboard {
    let b = pos.board();
    let occ = b.occupied();
    let mut reach = attacks::pawn_attacks(us, from) & b.by_color(!us);
    let fwd = match us {
        Color::White => 8,
        Color::Black => -8,
    };
    if let Some(one) = from.offset(fwd) {
        if !occ.contains(one) {
            reach.add(one);
            // A pawn on its own second rank may advance two squares, dropped or not (F3.5).
            if from.rank() == us.relative_rank(Rank::Second) {
                if let Some(two) = one.offset(fwd) {
                    if !occ.contains(two) {
                        reach.add(two);
                    }
                }
            }
        }
    }
    reach
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::rules::Rules;

    /// Every pseudo-move (all from/to pairs, promotions, drops) is legal exactly when the
    /// generator lists it, along random games under several rule sets.
    #[test]
    fn is_legal_agrees_with_generator() {
        let mut seed = 0x2545_f491_4f6c_dd1du64;
        let mut next = move || {
            seed ^= seed << 13;
            seed ^= seed >> 7;
            seed ^= seed << 17;
            seed
        };
        for rules in [Rules::crazyhouse(), Rules::fide(), Rules::knsb_1988()] {
            for _ in 0..6 {
                let mut pos = Position::new(rules);
                for role in [
                    Role::Pawn,
                    Role::Knight,
                    Role::Bishop,
                    Role::Rook,
                    Role::Queen,
                ] {
                    pos.add_to_reserve(Color::White, role);
                    pos.add_to_reserve(Color::Black, role);
                }
                for _ in 0..80 {
                    let legal = pos.legal_moves();
                    for from in Square::ALL {
                        for to in Square::ALL {
                            let mut candidates = vec![
                                Move::normal(from, to),
                                Move::en_passant(from, to),
                                Move::castle(from, to),
                            ];
                            for p in [Role::Queen, Role::Rook, Role::Bishop, Role::Knight] {
                                candidates.push(Move::promotion(from, to, p));
                            }
                            for m in candidates {
                                assert_eq!(
                                    pos.is_legal(m),
                                    legal.contains(&m),
                                    "{m} in {}",
                                    pos.fen()
                                );
                            }
                        }
                    }
                    for role in [
                        Role::Pawn,
                        Role::Knight,
                        Role::Bishop,
                        Role::Rook,
                        Role::Queen,
                    ] {
                        for to in Square::ALL {
                            let m = Move::drop(role, to);
                            assert_eq!(pos.is_legal(m), legal.contains(&m), "{m} in {}", pos.fen());
                            let by_sq = pos.moves_to(role, to, true);
                            assert_eq!(by_sq.contains(&m), legal.contains(&m));
                        }
                    }
                    for &m in &legal {
                        if let Some(role) = pos
                            .moving_role(m)
                            .filter(|_| !m.is_castle() && !m.is_drop())
                        {
                            assert!(
                                pos.moves_to(role, m.to(), false).contains(&m),
                                "{m} in {}",
                                pos.fen()
                            );
                        }
                    }
                    if legal.is_empty() {
                        break;
                    }
                    let m = legal[(next() % legal.len() as u64) as usize];
                    pos.play_unchecked(m);
                }
            }
        }
    }
}
