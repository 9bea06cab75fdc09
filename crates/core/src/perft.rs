//! Perft: counting the leaves of the legal move tree, to check and time the move generator.

use crate::position::Position;
use crate::types::Move;

/// The number of legal move paths of length `depth` from `pos`.
///
/// The last ply is counted in bulk, as the length of the move list (as shakmaty and Stockfish
/// do). Under bughouse rules a captured piece leaves the board (it would go to the partner);
/// under crazyhouse rules it goes into the capturer's reserve.
///
/// # Examples
///
/// ```
/// use bughouse_core::{perft, Position, Rules};
///
/// let pos = Position::new(Rules::crazyhouse());
/// assert_eq!(perft(&pos, 3), 8902);
/// ```
pub fn perft(pos: &Position, depth: u32) -> u64 {
    match depth {
        0 => 1,
        1 => pos.legal_moves().len() as u64,
        // By reference: moved into an iterator, the list is copied whole (`MAX_MOVES` slots).
        _ => pos
            .legal_moves()
            .iter()
            .map(|&m| {
                let mut child = pos.clone();
                child.play_unchecked(m);
                perft(&child, depth - 1)
            })
            .sum(),
    }
}

/// Perft split by the first move: each legal move with the leaves below it.
pub fn divide(pos: &Position, depth: u32) -> Vec<(Move, u64)> {
    if depth == 0 {
        return Vec::new();
    }
    pos.legal_moves()
        .iter()
        .map(|&m| {
            let mut child = pos.clone();
            child.play_unchecked(m);
            (m, perft(&child, depth - 1))
        })
        .collect()
}
