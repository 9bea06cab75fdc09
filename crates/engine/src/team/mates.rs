//! The team bot's check of its move by a mate search by checks
//! ([`crate::SearchConfig::mate_check`]): a mate of its own is played at once, and a move that
//! lets the opponent mate by checks gives way to a search among the moves that do not.

use std::time::Instant;

use bughouse_core::{Move, Position};

use crate::search::{find_mate, MateLine, MateSearch, MATE_CHECK_PLIES};

/// The positions one mate search may visit: about half a millisecond on average, tens of
/// milliseconds at worst (measured over 20,000 searches in arena positions).
const MATE_NODES: u64 = 20_000;

/// At most this many of the main search's other moves are tried in place of one that lets the
/// opponent mate.
const ALTERNATIVES: usize = 24;

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

/// When after `best` the opponent mates by checks: the moves among `others` (the main search's
/// root moves, in its order) after which he does not, in the same order (at most
/// [`ALTERNATIVES`] tried, and no more once `deadline` has passed, though always the first
/// four). `None` when `best` holds, or when none of those tried does (then `best` stays).
pub(super) fn safe_moves(
    pos: &Position,
    best: Move,
    others: impl IntoIterator<Item = Move>,
    deadline: Option<Instant>,
) -> Option<Vec<Move>> {
    if allows_mate(pos, best) != Some(true) {
        return None;
    }
    let safe: Vec<Move> = others
        .into_iter()
        .filter(|&m| m != best)
        .take(ALTERNATIVES)
        .enumerate()
        .take_while(|&(i, _)| i < 4 || deadline.is_none_or(|d| Instant::now() < d))
        .filter(|&(_, m)| allows_mate(pos, m) == Some(false))
        .map(|(_, m)| m)
        .collect();
    (!safe.is_empty()).then_some(safe)
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
        // The losing move gives way to the holding ones, in their order (at most
        // ALTERNATIVES of them tried).
        let others = losing[1..].iter().take(2).chain(holding.iter()).copied();
        let expected: Vec<Move> = holding.iter().copied().take(ALTERNATIVES - 2).collect();
        assert_eq!(safe_moves(&pos, losing[0], others, None), Some(expected));
        // A holding move stays.
        assert_eq!(safe_moves(&pos, holding[0], [losing[0]], None), None);
        // With nothing that holds among the others, the move stays.
        assert_eq!(safe_moves(&pos, losing[0], losing.clone(), None), None);
    }
}
