//! Zobrist keys for the transposition table: pieces, promoted squares, side to move, castling,
//! en passant and both reserves (a reserve is part of a crazyhouse/bughouse position for the
//! search, unlike the repetition key of core's `board_key`).
//!
//! Keys are updated incrementally from the position before and after a move ([`update`]), by
//! comparing the piece bitboards, reserves and rights of the two; this is exact for every kind
//! of move and needs no knowledge of the move itself.

use bughouse_core::{Bitboard, Color, Position, Role, RESERVE_ROLES};

/// Reserve counts above this share one key (they never occur in real games).
const MAX_COUNT: usize = 32;

const fn splitmix(index: u64) -> u64 {
    let mut z = index
        .wrapping_add(0x5151_7a3c_0f1e_2d3b)
        .wrapping_mul(0x9e37_79b9_7f4a_7c15);
    z = (z ^ (z >> 30)).wrapping_mul(0xbf58_476d_1ce4_e5b9);
    z = (z ^ (z >> 27)).wrapping_mul(0x94d0_49bb_1331_11eb);
    z ^ (z >> 31)
}

const fn table<const N: usize>(offset: u64) -> [u64; N] {
    let mut t = [0u64; N];
    let mut i = 0;
    while i < N {
        t[i] = splitmix(offset + i as u64);
        i += 1;
    }
    t
}

static PIECE: [u64; 768] = table(0);
static PROMOTED: [u64; 64] = table(1000);
static CASTLE: [u64; 64] = table(2000);
static EP: [u64; 64] = table(3000);
static RESERVE: [u64; 2 * 5 * MAX_COUNT] = table(4000);
const SIDE: u64 = splitmix(9999);

#[inline]
fn color_index(color: Color) -> usize {
    match color {
        Color::White => 0,
        Color::Black => 1,
    }
}

#[inline]
fn piece_key(color: Color, role: Role, sq: usize) -> u64 {
    PIECE[(color_index(color) * 6 + role as usize - 1) * 64 + sq]
}

#[inline]
fn reserve_key(color: Color, role: Role, count: u8) -> u64 {
    if count == 0 {
        0
    } else {
        let c = (usize::from(count) - 1).min(MAX_COUNT - 1);
        RESERVE[(color_index(color) * 5 + role as usize - 1) * MAX_COUNT + c]
    }
}

#[inline]
fn squares_key(bb: Bitboard, keys: &[u64; 64]) -> u64 {
    bb.into_iter().fold(0, |k, sq| k ^ keys[sq as usize])
}

/// The key of a position, computed from scratch.
pub fn key(pos: &Position) -> u64 {
    let b = pos.board();
    let mut k = 0;
    for color in Color::ALL {
        for role in Role::ALL {
            for sq in b.by_color(color) & b.by_role(role) {
                k ^= piece_key(color, role, sq as usize);
            }
        }
        for role in RESERVE_ROLES {
            k ^= reserve_key(color, role, pos.reserve(color).count(role));
        }
    }
    k ^= squares_key(pos.promoted(), &PROMOTED);
    k ^= squares_key(pos.castling_rights(), &CASTLE);
    if let Some(ep) = pos.ep_square() {
        k ^= EP[ep as usize];
    }
    if pos.turn() == Color::Black {
        k ^= SIDE;
    }
    k
}

/// The key of `after`, a position one move (or one pass) after `before` whose key is
/// `before_key`.
#[inline]
pub fn update(before: &Position, after: &Position, before_key: u64) -> u64 {
    let (b, a) = (before.board(), after.board());
    let mut k = before_key ^ SIDE;
    let changed = (b.occupied() ^ a.occupied())
        | (b.by_color(Color::White) ^ a.by_color(Color::White))
        | (b.pawns() ^ a.pawns())
        | (b.knights() ^ a.knights())
        | (b.bishops() ^ a.bishops())
        | (b.rooks() ^ a.rooks())
        | (b.queens() ^ a.queens())
        | (b.kings() ^ a.kings());
    for sq in changed {
        if let Some(p) = b.piece_at(sq) {
            k ^= piece_key(p.color, p.role, sq as usize);
        }
        if let Some(p) = a.piece_at(sq) {
            k ^= piece_key(p.color, p.role, sq as usize);
        }
    }
    for color in Color::ALL {
        let (rb, ra) = (before.reserve(color), after.reserve(color));
        if rb != ra {
            for role in RESERVE_ROLES {
                let (cb, ca) = (rb.count(role), ra.count(role));
                if cb != ca {
                    k ^= reserve_key(color, role, cb) ^ reserve_key(color, role, ca);
                }
            }
        }
    }
    k ^= squares_key(before.promoted() ^ after.promoted(), &PROMOTED);
    k ^= squares_key(before.castling_rights() ^ after.castling_rights(), &CASTLE);
    if let Some(ep) = before.ep_square() {
        k ^= EP[ep as usize];
    }
    if let Some(ep) = after.ep_square() {
        k ^= EP[ep as usize];
    }
    k
}

#[cfg(test)]
mod tests {
    use super::*;
    use bughouse_core::Rules;

    #[test]
    fn incremental_matches_scratch() {
        for rules in [Rules::fide(), Rules::crazyhouse()] {
            let mut pos = Position::from_fen(
                "r3k2r/pPppqpb1/bn2pnp1/3PN3/1p2P3/2N2Q1p/PPPBBPPP/R3K2R[QNpp] w KQkq - 0 1",
                rules,
            )
            .unwrap();
            let mut k = key(&pos);
            let mut seed = 7u64;
            for _ in 0..200 {
                let moves = pos.legal_moves();
                if moves.is_empty() {
                    break;
                }
                seed = splitmix(seed);
                let m = moves[(seed % moves.len() as u64) as usize];
                let before = pos.clone();
                pos.play_unchecked(m);
                k = update(&before, &pos, k);
                assert_eq!(k, key(&pos), "after {m} in {}", before.fen());
            }
        }
    }
}
