//! The transposition table: one entry per slot, replaced by deeper or newer results; mate
//! scores stored relative to the node.

use bughouse_core::Move;

use super::{INF, MATE_BOUND};

#[derive(Clone, Copy, Default)]
pub(super) struct Entry {
    pub(super) key: u64,
    pub(super) mv: Option<Move>,
    pub(super) score: i16,
    pub(super) depth: u8,
    /// Bound in the low 2 bits, generation above.
    pub(super) flags: u8,
}

pub(super) const BOUND_EXACT: u8 = 1;
pub(super) const BOUND_LOWER: u8 = 2;
pub(super) const BOUND_UPPER: u8 = 3;

impl Entry {
    /// The stored score, when its bound settles a node at `ply` searched with `alpha` and
    /// `beta`: exact, a lower bound at or above beta, or an upper bound at or below alpha.
    #[inline]
    pub(super) fn cutoff(&self, ply: usize, alpha: i32, beta: i32) -> Option<i32> {
        let s = from_tt(i32::from(self.score), ply);
        let bound = self.flags & 3;
        (bound == BOUND_EXACT
            || (bound == BOUND_LOWER && s >= beta)
            || (bound == BOUND_UPPER && s <= alpha))
            .then_some(s)
    }
}

/// The bound a search result `best` is, for a node searched with `alpha` (before it rose) and
/// `beta`.
#[inline]
pub(super) fn bound(best: i32, alpha: i32, beta: i32) -> u8 {
    if best >= beta {
        BOUND_LOWER
    } else if best > alpha {
        BOUND_EXACT
    } else {
        BOUND_UPPER
    }
}

/// The transposition table: one entry per slot, replaced by deeper or newer results.
pub(super) struct Tt {
    entries: Vec<Entry>,
    mask: usize,
    pub(super) generation: u8,
}

impl Tt {
    pub(super) fn new(mb: usize) -> Tt {
        let want = (mb.max(1) << 20) / std::mem::size_of::<Entry>();
        let size = want.next_power_of_two() / if want.is_power_of_two() { 1 } else { 2 };
        Tt {
            entries: vec![Entry::default(); size.max(1024)],
            mask: size.max(1024) - 1,
            generation: 0,
        }
    }

    #[inline]
    pub(super) fn probe(&self, key: u64) -> Option<Entry> {
        let e = self.entries[(key as usize) & self.mask];
        (e.key == key && e.flags != 0).then_some(e)
    }

    #[inline]
    pub(super) fn store(&mut self, key: u64, mv: Option<Move>, score: i32, depth: i32, bound: u8) {
        let slot = &mut self.entries[(key as usize) & self.mask];
        let depth = depth.clamp(0, 255) as u8;
        let old_gen = slot.flags >> 2;
        if slot.key == key || old_gen != self.generation || depth >= slot.depth.saturating_sub(2) {
            let mv = if mv.is_none() && slot.key == key {
                slot.mv
            } else {
                mv
            };
            *slot = Entry {
                key,
                mv,
                score: score.clamp(-INF, INF) as i16,
                depth,
                flags: bound | (self.generation << 2),
            };
        }
    }

    /// Stores a result of the quiescence search (depth 0): only over an entry of depth 2 or
    /// less, or of an older search, so that it never takes the place of a deeper result of
    /// the same position or of another.
    #[inline]
    pub(super) fn store_quiescence(&mut self, key: u64, mv: Option<Move>, score: i32, bound: u8) {
        let slot = &self.entries[(key as usize) & self.mask];
        if slot.depth <= 2 || slot.flags >> 2 != self.generation {
            self.store(key, mv, score, 0, bound);
        }
    }

    pub(super) fn clear(&mut self) {
        self.entries.fill(Entry::default());
        self.generation = 0;
    }
}

/// A mate score relative to the root, made relative to the node at `ply` for storing.
#[inline]
pub(super) fn to_tt(score: i32, ply: usize) -> i32 {
    if score >= MATE_BOUND {
        score + ply as i32
    } else if score <= -MATE_BOUND {
        score - ply as i32
    } else {
        score
    }
}

#[inline]
pub(super) fn from_tt(score: i32, ply: usize) -> i32 {
    if score >= MATE_BOUND {
        score - ply as i32
    } else if score <= -MATE_BOUND {
        score + ply as i32
    } else {
        score
    }
}
