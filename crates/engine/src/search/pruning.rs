//! The tests the search's drop-aware pruning makes: whether a piece is lost where it went, how
//! far a drop is from a king.

use bughouse_core::{Bitboard, Position, Role, Square};

use crate::eval::value;

/// Whether the piece that just moved or was dropped to `to` in `child` (the opponent to move)
/// is lost there: attacked, and undefended or attacked by a cheaper piece.
#[inline]
pub(super) fn lost_there(child: &Position, to: Square) -> bool {
    let b = child.board();
    let occ = b.occupied();
    let them = child.turn();
    let attackers = child.attackers_to(to, them, occ) & occ;
    if attackers.is_empty() {
        return false;
    }
    let Some(role) = b.role_at(to) else {
        return false;
    };
    if role == Role::King {
        return false;
    }
    let defenders = child.attackers_to(to, !them, occ) & occ;
    if defenders.is_empty() {
        return true;
    }
    let mine = value(role);
    Role::ALL
        .into_iter()
        .filter(|&r| r != Role::King && value(r) < mine)
        .any(|r| (attackers & b.by_role(r)).any())
}

/// Whether the move to `to` that led to `child` gives check by that piece alone (not a
/// discovered or double check, which the king must answer whatever happens to the piece) and
/// the piece is simply lost there (`lost_there`): a check that gives its piece away.
#[inline]
pub(super) fn hanging_check(child: &Position, to: Square) -> bool {
    child.checkers() == Bitboard::from_square(to) && lost_there(child, to)
}

/// Chebyshev distance between two squares.
#[inline]
pub(super) fn distance(a: Square, b: Square) -> i32 {
    let df = (a.file() as i32 - b.file() as i32).abs();
    let dr = (a.rank() as i32 - b.rank() as i32).abs();
    df.max(dr)
}
