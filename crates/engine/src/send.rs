//! What a capture on our board sends to the other board ([`crate::SearchConfig::partner_send`]).
//!
//! In bughouse a captured piece goes to the capturer's partner. A piece we take goes into our
//! partner's reserve; a piece the opponent takes goes into the reserve of our partner's
//! opponent. What such a piece is worth there depends on the other board: in hand against an
//! exposed king it is worth much more than its usual value, against a safe king about that. The
//! single-board evaluation counts only what the capture does on our board, so an even trade
//! counts as even whatever it hands to the other board.
//!
//! [`SendValues`] holds, for each role, what a piece of it would add on the partner's board
//! beyond its usual reserve value: the king danger it adds there (the static evaluation of the
//! partner's board with the piece in hand, less without it, less the reserve value), once for
//! our partner and once for his opponent. The search adds, at every evaluated position, these
//! values for the pieces captured since the root: HiveMind decides for both boards of a team;
//! this is the part of that a single-board search can see.

use bughouse_core::{Color, Position, RESERVE_ROLES};

use crate::eval::evaluate_with;
use crate::params::EvalParams;

/// The extra values of captures on our board, for one search (see the module).
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(crate) struct SendValues {
    /// The side the values are for (the root's side to move).
    us: Color,
    /// Per role (pawn to queen): what a piece of the opponent's, captured by us, adds on our
    /// partner's board beyond its reserve value.
    to_partner: [i32; 5],
    /// Per role: what a piece of ours, captured by the opponent, adds for our partner's
    /// opponent beyond its reserve value.
    to_them: [i32; 5],
    /// Each side's pieces at the root, by role as they would be taken (a promoted piece counts
    /// as the pawn it goes back to), board and reserve together.
    root: [[i32; 5]; 2],
}

impl SendValues {
    /// The values for the side to move of `root`, read from the partner's board `partner`
    /// (on which our partner plays `partner_color`), scaled by `percent`.
    pub(crate) fn new(
        root: &Position,
        partner: &Position,
        partner_color: Color,
        percent: i32,
        p: &EvalParams,
    ) -> SendValues {
        let gains = |color: Color| -> [i32; 5] {
            let base = side_eval(partner, color, p);
            let mut out = [0; 5];
            for (ri, role) in RESERVE_ROLES.into_iter().enumerate() {
                let mut with = partner.clone();
                if with.add_to_reserve(color, role) {
                    let extra = side_eval(&with, color, p) - base - p.reserve_value[ri];
                    out[ri] = (extra.max(0) * percent) / 100;
                }
            }
            out
        };
        SendValues {
            us: root.turn(),
            to_partner: gains(partner_color),
            to_them: gains(!partner_color),
            root: counts(root),
        }
    }

    /// What the captures between the root and `pos` add or take away on the other board, for
    /// the side to move of `pos`.
    #[inline]
    pub(crate) fn score(&self, pos: &Position) -> i32 {
        let now = counts(pos);
        let us = self.us as usize;
        let them = 1 - us;
        let mut total = 0;
        for (ri, (&partner, &them_value)) in self.to_partner.iter().zip(&self.to_them).enumerate() {
            let by_us = (self.root[them][ri] - now[them][ri]).max(0);
            let by_them = (self.root[us][ri] - now[us][ri]).max(0);
            total += partner * by_us - them_value * by_them;
        }
        if pos.turn() == self.us {
            total
        } else {
            -total
        }
    }

    /// The values per role (pawn to queen): for our partner, and for his opponent.
    #[cfg(test)]
    pub(crate) fn values(&self) -> ([i32; 5], [i32; 5]) {
        (self.to_partner, self.to_them)
    }
}

/// The static evaluation of `pos` for `color`.
fn side_eval(pos: &Position, color: Color, p: &EvalParams) -> i32 {
    let e = evaluate_with(pos, p);
    if pos.turn() == color {
        e
    } else {
        -e
    }
}

/// Each side's pieces (index `Color as usize`) by role as they would be taken, pawn to queen:
/// on the board (a promoted piece as a pawn) and in reserve.
#[inline]
fn counts(pos: &Position) -> [[i32; 5]; 2] {
    let b = pos.board();
    let promoted = pos.promoted();
    let mut out = [[0; 5]; 2];
    for color in Color::ALL {
        let ours = b.by_color(color);
        let reserve = pos.reserve(color);
        let c = &mut out[color as usize];
        for (ri, role) in RESERVE_ROLES.into_iter().enumerate() {
            c[ri] = (ours & b.by_role(role) & !promoted).count() as i32
                + i32::from(reserve.count(role));
        }
        c[0] += (ours & promoted).count() as i32;
    }
    out
}

#[cfg(test)]
mod tests {
    use super::*;
    use bughouse_core::Rules;

    fn pos(fen: &str) -> Position {
        Position::from_fen(fen, Rules::fide()).unwrap()
    }

    fn play(pos: &mut Position, uci: &str) {
        let m = pos.parse_uci(uci).unwrap();
        pos.play(m).unwrap();
    }

    #[test]
    fn a_piece_in_hand_is_worth_more_against_an_open_king() {
        // Black's king stands in the open, White's behind its pawns: a piece in White's hand
        // adds more danger than one in Black's.
        let partner = pos("8/8/3k4/8/8/8/5PPP/6K1[] w - - 0 1");
        let root = pos("rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR[] w KQkq - 0 1");
        let s = SendValues::new(&root, &partner, Color::White, 100, &EvalParams::DEFAULT);
        let (to_partner, to_them) = s.values();
        assert!(to_partner[1] > to_them[1], "{to_partner:?} {to_them:?}");
        assert!(to_partner.iter().all(|&v| v >= 0) && to_them.iter().all(|&v| v >= 0));
        // Half the weight, half the values (rounded down).
        let half = SendValues::new(&root, &partner, Color::White, 50, &EvalParams::DEFAULT);
        assert_eq!(half.values().0[1], to_partner[1] / 2);
    }

    #[test]
    fn captures_since_the_root_count_for_the_side_to_move() {
        let partner = pos("8/8/3k4/8/8/8/5PPP/6K1[] w - - 0 1");
        // White (us, to move) takes the knight on e5.
        let root = pos("4k3/8/8/4n3/8/8/8/3QK3[] w - - 0 1");
        let s = SendValues::new(&root, &partner, Color::Black, 100, &EvalParams::DEFAULT);
        assert_eq!(s.score(&root), 0);
        let mut after = root.clone();
        play(&mut after, "d1e2");
        assert_eq!(s.score(&after), 0, "no capture");
        let mut taken = root.clone();
        play(&mut taken, "d1d4");
        play(&mut taken, "e8f8");
        play(&mut taken, "d4e5");
        // Black to move: our gain is his loss.
        let (to_partner, _) = s.values();
        assert_eq!(s.score(&taken), -to_partner[1]);
        // Drops move a piece from the reserve to the board: nothing is taken.
        let dropped = pos("4k3/8/8/4n3/8/8/8/3QK3[N] w - - 0 1");
        let s = SendValues::new(&dropped, &partner, Color::Black, 100, &EvalParams::DEFAULT);
        let mut d = dropped.clone();
        play(&mut d, "N@c3");
        assert_eq!(s.score(&d), 0);
    }

    #[test]
    fn a_promotion_is_not_a_capture() {
        let partner = pos("8/8/3k4/8/8/8/5PPP/6K1[] w - - 0 1");
        let root = pos("4k3/1P6/8/8/8/8/8/4K3[] w - - 0 1");
        let s = SendValues::new(&root, &partner, Color::Black, 100, &EvalParams::DEFAULT);
        let mut q = root.clone();
        play(&mut q, "b7b8q");
        assert_eq!(s.score(&q), 0);
    }
}
