//! The team bot's check of its move by a mate search by checks
//! ([`crate::SearchConfig::mate_check`]): a mate of its own is played at once, and a move that
//! lets the opponent mate by checks gives way to the best move that does not.

use std::time::Instant;

use bughouse_core::{Move, Position};

use crate::search::{find_mate, MateLine, MateSearch, MATE_CHECK_PLIES};

/// The positions one mate search may visit: about half a millisecond on average, tens of
/// milliseconds at worst (measured over 20,000 searches in arena positions).
const MATE_NODES: u64 = 20_000;

/// At most this many of the main search's next best moves are checked in place of one that
/// lets the opponent mate.
const ALTERNATIVES: usize = 8;

/// A forced mate by checks for the side to move of `pos`.
pub(super) fn own_mate(pos: &Position) -> Option<MateLine> {
    match find_mate(pos, MATE_CHECK_PLIES, MATE_NODES) {
        MateSearch::Mate(line) => Some(line),
        MateSearch::None | MateSearch::Unknown => None,
    }
}

/// Whether after `mv` the opponent mates by checks (`None`: the search ran out of nodes).
fn allows_mate(pos: &Position, mv: Move) -> Option<bool> {
    let mut child = pos.clone();
    child.play_unchecked(mv);
    if child.legal_moves().is_empty() {
        return Some(false);
    }
    match find_mate(&child, MATE_CHECK_PLIES, MATE_NODES) {
        MateSearch::Mate(_) => Some(true),
        MateSearch::None => Some(false),
        MateSearch::Unknown => None,
    }
}

/// The move to play instead of `best` when after `best` the opponent mates by checks: the
/// first of the main search's other moves (`scored`, with their scores: the best score first)
/// after which he does not, or `None` to keep `best` (no such move among the next
/// [`ALTERNATIVES`], or no time left before `deadline`).
pub(super) fn avoid_mate(
    pos: &Position,
    best: Move,
    scored: impl IntoIterator<Item = (Move, i32)>,
    deadline: Option<Instant>,
) -> Option<Move> {
    if allows_mate(pos, best) != Some(true) {
        return None;
    }
    let mut order: Vec<(Move, i32)> = scored.into_iter().filter(|&(m, _)| m != best).collect();
    order.sort_by_key(|&(_, score)| std::cmp::Reverse(score));
    order
        .into_iter()
        .take(ALTERNATIVES)
        .take_while(|_| deadline.is_none_or(|d| Instant::now() < d))
        .find(|&(m, _)| allows_mate(pos, m) == Some(false))
        .map(|(m, _)| m)
}

#[cfg(test)]
mod tests {
    use super::*;
    use bughouse_core::Rules;

    #[test]
    fn a_mate_of_its_own() {
        let pos =
            Position::from_fen("5rk1/5ppp/8/8/8/8/8/K7[QRN] w - - 0 1", Rules::fide()).unwrap();
        assert_eq!(
            own_mate(&pos).map(|l| l.mv.to_string()),
            Some("N@h6".into())
        );
    }

    #[test]
    fn a_move_that_lets_the_opponent_mate_gives_way() {
        // Black, with a queen, a rook and a knight in hand, mates by checks after most of
        // White's moves (N@h3+ first); some moves stop it.
        let pos =
            Position::from_fen("k7/ppp5/8/8/8/8/5PPP/5RK1[qrn] w - - 0 1", Rules::fide()).unwrap();
        let moves: Vec<Move> = pos.legal_moves().iter().copied().collect();
        let losing: Vec<Move> = moves
            .iter()
            .copied()
            .filter(|&m| allows_mate(&pos, m) == Some(true))
            .collect();
        let holding: Vec<Move> = moves
            .iter()
            .copied()
            .filter(|&m| allows_mate(&pos, m) == Some(false))
            .collect();
        assert!(
            !losing.is_empty() && !holding.is_empty(),
            "{losing:?} {holding:?}"
        );
        // The losing move ranked best gives way to the best-ranked holding one.
        let scored = losing
            .iter()
            .map(|&m| (m, 50))
            .chain(holding.iter().enumerate().map(|(i, &m)| (m, -(i as i32))));
        assert_eq!(avoid_mate(&pos, losing[0], scored, None), Some(holding[0]));
        // A holding move stays.
        assert_eq!(avoid_mate(&pos, holding[0], [(losing[0], 50)], None), None);
        // With nothing that holds among the others, the move stays.
        let only_losing = losing.iter().map(|&m| (m, 0));
        assert_eq!(avoid_mate(&pos, losing[0], only_losing, None), None);
    }
}
