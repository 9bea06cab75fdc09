//! A mate search by checks: the side to move gives check at every one of its plies, the
//! defender tries every legal reply (all of them evasions), deepened two plies at a time. It
//! answers one question, whether the side to move mates by force within a number of plies,
//! and sees the long chains of checking drops that decide most bughouse games, which the main
//! search's reductions and pruning can hide.
//!
//! Only a real checkmate counts (F3.7: a check a drop could block, with the defender's reserve
//! empty, leaves him waiting, which is no mate). The reserves are those of the position: a
//! piece the defender receives from the other board while the line is played can block a
//! distant check (the caller may put an expected piece in the defender's reserve first).

use std::collections::HashMap;

use bughouse_core::{Bitboard, Move, MoveList, Position, Verdict};

use super::ordering::CheckSquares;
use crate::zobrist;

/// A forced mate by checks.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct MateLine {
    /// The first move of the mate.
    pub mv: Move,
    /// The mate's length in plies, the mating move included (1 for a mate in one).
    pub plies: u32,
}

/// The outcome of a mate search.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum MateSearch {
    /// The side to move mates by force.
    Mate(MateLine),
    /// No mate by checks within the plies searched, all of them searched.
    None,
    /// The node budget ran out first.
    Unknown,
}

/// Whether the side to move of `pos` mates by force with checks within `max_plies` plies,
/// searching at most `max_nodes` positions. The shortest such mate is found first.
///
/// # Examples
///
/// ```
/// use bughouse_core::{Position, Rules};
/// use bughouse_engine::{find_mate, MateSearch};
///
/// // A knight's drop begins a mate in five plies.
/// let pos = Position::from_fen("5rk1/5ppp/8/8/8/8/8/K7[QRN] w - - 0 1", Rules::fide()).unwrap();
/// let MateSearch::Mate(line) = find_mate(&pos, 7, 100_000) else { panic!() };
/// assert_eq!((line.mv.to_string().as_str(), line.plies), ("N@h6", 5));
/// ```
pub fn find_mate(pos: &Position, max_plies: u32, max_nodes: u64) -> MateSearch {
    let mut s = Solver {
        nodes: 0,
        max_nodes,
        out: false,
        no_mate: HashMap::new(),
    };
    let key = zobrist::key(pos);
    let mut plies = 1;
    while plies <= max_plies {
        match s.attack(pos, key, plies) {
            Some(mv) => return MateSearch::Mate(MateLine { mv, plies }),
            None if s.out => return MateSearch::Unknown,
            None => plies += 2,
        }
    }
    MateSearch::None
}

struct Solver {
    nodes: u64,
    max_nodes: u64,
    /// The budget ran out: every answer since is void.
    out: bool,
    /// Attacking positions shown to have no mate within so many plies.
    no_mate: HashMap<u64, u32>,
}

impl Solver {
    /// Counts one position; `false` (and every answer void from now on) once the budget is
    /// spent.
    fn spend(&mut self) -> bool {
        self.nodes += 1;
        self.out |= self.nodes > self.max_nodes;
        !self.out
    }

    /// The first move of a mate within `plies` (odd) for the side to move, if any.
    fn attack(&mut self, pos: &Position, key: u64, plies: u32) -> Option<Move> {
        if self.no_mate.get(&key).is_some_and(|&p| p >= plies) {
            return None;
        }
        let checks = checking_moves(pos);
        // Each check with its replies: a mate at once is played, the others are tried with
        // the fewest replies first (the proof number's order).
        let mut tries: Vec<(usize, Move, Position, MoveList)> = Vec::with_capacity(checks.len());
        for mv in checks {
            if !self.spend() {
                return None;
            }
            let mut child = pos.clone();
            child.play_unchecked(mv);
            if !child.is_check() {
                continue;
            }
            let replies = child.legal_moves();
            if replies.is_empty() {
                if child.verdict() == Verdict::Checkmate {
                    return Some(mv);
                }
                continue;
            }
            if plies >= 3 {
                tries.push((replies.len(), mv, child, replies));
            }
        }
        tries.sort_by_key(|t| t.0);
        for (_, mv, child, replies) in tries {
            let child_key = zobrist::update(pos, &child, key);
            if self.defend(&child, child_key, &replies, plies - 1) {
                return Some(mv);
            }
            if self.out {
                return None;
            }
        }
        if !self.out {
            self.no_mate.insert(key, plies);
        }
        None
    }

    /// Whether every one of the defender's `replies` (he is in check) is met by a mate within
    /// `plies - 1`.
    fn defend(&mut self, pos: &Position, key: u64, replies: &MoveList, plies: u32) -> bool {
        for &reply in replies {
            if !self.spend() {
                return false;
            }
            let mut child = pos.clone();
            child.play_unchecked(reply);
            let child_key = zobrist::update(pos, &child, key);
            if self.attack(&child, child_key, plies - 1).is_none() {
                return false;
            }
        }
        true
    }
}

/// The legal moves of the side to move that give check: onto a square from which the piece
/// (dropped, moved or promoted) attacks the enemy king, or off a line between the enemy king
/// and one of our sliders. Some of them may not check (a piece moving along the line it
/// uncovers); the caller plays each and looks.
fn checking_moves(pos: &Position) -> MoveList {
    let squares = CheckSquares::new(pos);
    let uncovering = discoverers(pos);
    let mut moves = MoveList::new();
    if uncovering.is_empty() {
        let to = squares.any();
        pos.legal_moves_to_into(to, to, &mut moves);
    } else {
        pos.legal_moves_into(&mut moves);
    }
    let mut out = MoveList::new();
    for &mv in &moves {
        let uncovers = mv.from().is_some_and(|from| uncovering.contains(from));
        if uncovers || squares.gives_check(pos, mv) {
            out.push(mv);
        }
    }
    out
}

/// The side to move's pieces that alone stand between the enemy king and one of our sliders.
fn discoverers(pos: &Position) -> Bitboard {
    let us = pos.turn();
    pos.slider_blockers(pos.king(!us), us) & pos.board().by_color(us)
}

#[cfg(test)]
mod tests {
    use super::*;
    use bughouse_core::Rules;

    fn pos(fen: &str) -> Position {
        Position::from_fen(fen, Rules::fide()).unwrap()
    }

    fn mate(fen: &str, plies: u32) -> Option<(String, u32)> {
        match find_mate(&pos(fen), plies, 1_000_000) {
            MateSearch::Mate(line) => Some((line.mv.to_string(), line.plies)),
            _ => None,
        }
    }

    #[test]
    fn mate_in_one_by_a_drop() {
        assert_eq!(
            mate("6rk/6pp/8/8/8/8/8/K7[N] w - - 0 1", 1),
            Some(("N@f7".into(), 1))
        );
    }

    #[test]
    fn a_blockable_check_is_no_mate() {
        // Back rank: Ra8+ would mate in chess, but Black may wait for a piece to block (F3.7).
        assert_eq!(mate("6k1/5ppp/8/8/8/8/8/R5K1[] w - - 0 1", 5), None);
    }

    #[test]
    fn a_chain_of_drops() {
        // No mate in two plies; the knight's drop begins one in five.
        assert_eq!(mate("5rk1/5ppp/8/8/8/8/8/K7[QRN] w - - 0 1", 3), None);
        assert_eq!(
            mate("5rk1/5ppp/8/8/8/8/8/K7[QRN] w - - 0 1", 7),
            Some(("N@h6".into(), 5))
        );
    }

    #[test]
    fn a_discovered_check_is_seen() {
        // The knight leaves the bishop's diagonal with check from the bishop, and mates on f7.
        let moves: Vec<String> = checking_moves(&pos("6rk/7p/8/4N3/8/8/1B6/K7[] w - - 0 1"))
            .iter()
            .map(|m| m.to_string())
            .collect();
        assert!(moves.contains(&"e5f7".to_string()), "{moves:?}");
        assert!(moves.contains(&"e5d3".to_string()), "{moves:?}");
        // Double check: no drop blocks it.
        let found = mate("6rk/7p/8/4N3/8/8/1B6/K7[] w - - 0 1", 1);
        assert!(
            ["e5f7", "e5g6"]
                .map(|m| Some((m.to_string(), 1)))
                .contains(&found),
            "{found:?}"
        );
    }

    #[test]
    fn the_budget_is_kept() {
        let start =
            pos("r1bqkbnr/pppp1ppp/2n5/4p3/4P3/5N2/PPPP1PPP/RNBQKB1R[QQRRBBNN] w KQkq - 0 1");
        assert_eq!(find_mate(&start, 9, 50), MateSearch::Unknown);
    }
}
