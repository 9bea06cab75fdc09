//! Static evaluation made for bughouse, from the side to move's point of view, in centipawns.
//!
//! - **Material** on the board and in the reserve, with bughouse values (knights as good as
//!   bishops, rooks and queens worth less than in chess because drops make minor pieces and
//!   pawns strong), and a bonus for a piece in the reserve: it can go anywhere at once.
//! - **King safety against drops**: the empty squares around the king the enemy may drop on
//!   (worse when we do not defend them), knight-check squares when the enemy holds a knight,
//!   enemy pieces attacking the king's surroundings, the pawn shield; all weighted by what the
//!   enemy holds in reserve, and counted quadratically because attacks combine.
//! - **Mobility** of the pieces and central knights.
//! - **Pawns** close to promotion (the 6th and 7th ranks).
//! - **Tempo**: the side to move has the initiative, which counts for a lot with drops.

use bughouse_core::{attacks, Bitboard, Color, Position, Rank, Role, Square, RESERVE_ROLES};

use crate::params::EvalParams;

/// Value of a piece on the board, by role (index `role as usize`; 0 unused, king 0).
pub const BOARD_VALUE: [i32; 7] = [0, 100, 310, 320, 470, 850, 0];
/// Value of a piece in the reserve.
pub const RESERVE_VALUE: [i32; 7] = [0, 130, 350, 340, 500, 900, 0];

/// The board value of `role`.
#[inline]
pub fn value(role: Role) -> i32 {
    BOARD_VALUE[role as usize]
}

/// Relative rank of `sq` for `color` (0..=7).
#[inline]
fn rel_rank(sq: Square, color: Color) -> usize {
    let r = sq.rank() as usize;
    match color {
        Color::White => r,
        Color::Black => 7 - r,
    }
}

#[inline]
fn centre_bonus(sq: Square) -> i32 {
    let f = sq.file() as i32;
    let r = sq.rank() as i32;
    let df = (2 * f - 7).abs(); // 1, 3, 5, 7
    let dr = (2 * r - 7).abs();
    (14 - df - dr) * 2
}

/// Per-side totals gathered in one pass over the pieces.
#[derive(Default, Clone, Copy)]
struct Side {
    material: i32,
    positional: i32,
    /// Squares attacked by the pieces other than the king (all of `by_role`, once gathered).
    attacks: Bitboard,
    /// Squares attacked by the pieces of each role, pawn to queen (pawns: their captures).
    by_role: [Bitboard; 5],
    /// Squares attacked twice or more by the pieces other than the king (gathered only when
    /// [`EvalParams::flank_attack`] is used).
    attacks2: Bitboard,
    /// Attack units against the enemy king's ring.
    king_attack: i32,
    attackers: i32,
}

/// Evaluates `pos` for the side to move, with the default weights ([`EvalParams::DEFAULT`]).
pub fn evaluate(pos: &Position) -> i32 {
    evaluate_with(pos, &EvalParams::DEFAULT)
}

/// Evaluates `pos` for the side to move with the weights `p`.
pub fn evaluate_with(pos: &Position, p: &EvalParams) -> i32 {
    let kings = [pos.king(Color::White), pos.king(Color::Black)];
    let sides = gather(pos, p, kings);

    let mut score = [0i32; 2];
    for (ci, color) in Color::ALL.into_iter().enumerate() {
        let s = sides[ci];
        let e = sides[1 - ci];
        score[ci] = s.material + s.positional - king_danger(pos, p, color, kings[ci], &s, &e);
        if p.flank_attack != 0 {
            score[ci] -= p.flank_attack * flank_attacks(color, kings[ci], &e);
        }
        if p.boxed_king != 0 {
            score[ci] -= p.boxed_king * boxed_checks(pos, color, kings[ci], kings[1 - ci], &s, &e);
        }
    }
    let white = score[0] - score[1];
    let stm = match pos.turn() {
        Color::White => white,
        Color::Black => -white,
    };
    stm + p.tempo
}

/// Material, positional terms and attacks of both sides (White, Black) in one pass over the
/// pieces.
fn gather(pos: &Position, p: &EvalParams, kings: [Square; 2]) -> [Side; 2] {
    let b = pos.board();
    let occ = b.occupied();
    let rings = [
        attacks::king_attacks(kings[0]),
        attacks::king_attacks(kings[1]),
    ];
    let mut sides = [Side::default(), Side::default()];
    for (ci, color) in Color::ALL.into_iter().enumerate() {
        let ours = b.by_color(color);
        let enemy_ring = rings[1 - ci];
        let s = &mut sides[ci];
        let reserve = pos.reserve(color);
        for (role, n) in reserve.iter() {
            s.material += p.reserve_value[role as usize - 1] * i32::from(n.min(8));
        }
        for sq in ours & b.pawns() {
            s.material += p.board_value[0];
            let rr = rel_rank(sq, color);
            let mut bonus = if (1..=6).contains(&rr) {
                p.pawn_rank[rr - 1]
            } else {
                0
            };
            if rr == 6 {
                let ahead = sq.offset(if color == Color::White { 8 } else { -8 });
                if ahead.is_some_and(|a| !occ.contains(a)) {
                    bonus += p.pawn_free_seventh;
                }
            }
            s.positional += bonus;
            let att = attacks::pawn_attacks(color, sq);
            if p.flank_attack != 0 {
                s.attacks2 |= s.by_role[0] & att;
            }
            s.by_role[0] |= att;
            let hit = (att & enemy_ring).count() as i32;
            if hit > 0 {
                s.king_attack += hit * p.attack_weight[0];
                s.attackers += 1;
            }
        }
        let mut seen = s.by_role[0];
        let mut proximity = 0;
        for role in [Role::Knight, Role::Bishop, Role::Rook, Role::Queen] {
            for sq in ours & b.by_role(role) {
                let ri = role as usize - 1;
                s.material += p.board_value[ri];
                let att = match role {
                    Role::Knight => attacks::knight_attacks(sq),
                    Role::Bishop => attacks::bishop_attacks(sq, occ),
                    Role::Rook => attacks::rook_attacks(sq, occ),
                    _ => attacks::queen_attacks(sq, occ),
                };
                s.by_role[ri] |= att;
                if p.flank_attack != 0 {
                    s.attacks2 |= seen & att;
                }
                seen |= att;
                if p.king_proximity != 0 {
                    proximity += (sq.distance(kings[ci]) * sq.distance(kings[1 - ci])) as i32;
                }
                s.positional += p.mobility[ri - 1] * (att & !ours).count() as i32;
                if role == Role::Knight {
                    s.positional += centre_bonus(sq) * p.knight_centre;
                }
                let hit = (att & enemy_ring).count() as i32;
                if hit > 0 {
                    s.king_attack += hit * p.attack_weight[ri];
                    s.attackers += 1;
                }
            }
        }
        s.positional -= p.king_proximity * proximity / 8;
        s.attacks = seen;
    }
    sides
}

/// The squares of the flank of the king of `color` on `king` (three or four files around it,
/// our half of the board and one rank beyond) that the enemy attacks, those attacked twice
/// counted twice ([`EvalParams::flank_attack`]).
fn flank_attacks(color: Color, king: Square, theirs: &Side) -> i32 {
    let files = match king.file() as u32 {
        0 => 0b0000_0111u64,
        1 | 2 => 0b0000_1111,
        3 | 4 => 0b0011_1100,
        5 | 6 => 0b1111_0000,
        _ => 0b1110_0000,
    };
    // Each rank's byte holds the files of the flank.
    let flank = Bitboard(files * 0x0101_0101_0101_0101);
    let camp = match color {
        Color::White => Bitboard(0x0000_00FF_FFFF_FFFF),
        Color::Black => Bitboard(0xFFFF_FFFF_FF00_0000),
    };
    let zone = flank & camp;
    ((theirs.attacks & zone).count() + (theirs.attacks2 & zone).count()) as i32
}

/// For the king of `color` on `king` when it has no square to flee to (each square next to it
/// holds one of our pieces or is attacked by the enemy, his king on `enemy_king` included): the
/// number of roles, pawn to queen, that could check it from an empty square where the piece
/// would be safe ([`EvalParams::boxed_king`]). A role counts if the enemy holds it, or, in
/// bughouse, if its partner may still send it. 0 when the king can flee.
fn boxed_checks(
    pos: &Position,
    color: Color,
    king: Square,
    enemy_king: Square,
    ours: &Side,
    theirs: &Side,
) -> i32 {
    let b = pos.board();
    let ring = attacks::king_attacks(king);
    let flight = ring & !b.by_color(color) & !theirs.attacks & !attacks::king_attacks(enemy_king);
    if flight.any() {
        return 0;
    }
    let occ = b.occupied();
    // Safe: not attacked by our pieces other than the king, and, next to the king, defended by
    // the enemy (else the king takes it).
    let safe = !occ & !ours.attacks & !(ring & !theirs.attacks);
    let mut from = check_squares(color, king, occ);
    from[0] &= pawn_drop_squares(pos);
    let reserve = pos.reserve(!color);
    let bughouse = pos.rules().sets() == 2;
    let mut roles = 0;
    for (ri, role) in RESERVE_ROLES.into_iter().enumerate() {
        if (bughouse || reserve.count(role) > 0) && (from[ri] & safe).any() {
            roles += 1;
        }
    }
    roles
}

/// The squares from which an enemy piece of each reserve role, pawn to queen, would check the
/// king of `color` on `king` with the board occupied as `occ`.
fn check_squares(color: Color, king: Square, occ: Bitboard) -> [Bitboard; 5] {
    let rook = attacks::rook_attacks(king, occ);
    let bishop = attacks::bishop_attacks(king, occ);
    [
        // An enemy pawn checks from where our pawn on the king's square would capture.
        attacks::pawn_attacks(color, king),
        attacks::knight_attacks(king),
        bishop,
        rook,
        rook | bishop,
    ]
}

/// The squares a pawn may be dropped on, occupancy aside: not the first and last ranks unless
/// the rules allow it (`Rules::pawn_drop_on_back_rank`: forbidden by F3.4, M2.5, K5B, U10a).
fn pawn_drop_squares(pos: &Position) -> Bitboard {
    if pos.rules().pawn_drop_on_back_rank {
        Bitboard::FULL
    } else {
        !(Bitboard::from_rank(Rank::First) | Bitboard::from_rank(Rank::Eighth))
    }
}

/// The penalty for the dangers around the king of `color` on `king`.
fn king_danger(
    pos: &Position,
    p: &EvalParams,
    color: Color,
    king: Square,
    ours: &Side,
    theirs: &Side,
) -> i32 {
    let b = pos.board();
    let occ = b.occupied();
    let ring = attacks::king_attacks(king);
    let enemy_reserve = pos.reserve(!color);
    let mut drop_weight = 0;
    for (role, n) in enemy_reserve.iter() {
        drop_weight += p.drop_weight[role as usize - 1] * i32::from(n.min(3));
    }
    let drop_weight = drop_weight.min(p.drop_weight_cap);

    let empty_ring = ring & !occ;
    let undefended = empty_ring & !ours.attacks;
    let enemy_controlled = empty_ring & theirs.attacks;
    let mut danger = 0;
    // Every empty square next to the king is a drop square for the enemy.
    danger += (undefended.count() as i32) * (p.danger_undefended + drop_weight) / 2;
    danger += (enemy_controlled.count() as i32) * (p.danger_controlled + drop_weight / 2);
    // Knight checks by drop: with a knight in hand, or one that may still come from the
    // enemy's partner (in bughouse a knight can arrive at any time).
    let checks = (attacks::knight_attacks(king) & !occ & !ours.by_role[0]).count() as i32;
    if enemy_reserve.count(Role::Knight) > 0 {
        danger += p.danger_knight_in_hand * checks;
    } else if pos.rules().sets() == 2 {
        danger += p.danger_knight_possible * checks;
    }
    if p.danger_safe_check != [0; 5] {
        danger += safe_checks(pos, p, color, king, ours, theirs);
    }
    // Contact with enemy pieces.
    danger += theirs.king_attack;
    if theirs.attackers >= 2 {
        danger += p.danger_attackers * theirs.attackers;
    }
    // The pawn shield: own pawns in front of the king.
    let home = match color {
        Color::White => king.rank() <= Rank::Second,
        Color::Black => king.rank() >= Rank::Seventh,
    };
    if home {
        let front = ring
            & match color {
                Color::White => Bitboard::from_rank(Rank::new(king.rank() as u32 + 1)),
                Color::Black => Bitboard::from_rank(Rank::new(king.rank() as u32 - 1)),
            };
        let shield = (front & b.pawns() & b.by_color(color)).count() as i32;
        danger += (3 - shield).max(0) * (p.danger_shield + drop_weight / 4);
    } else {
        // A king out in the open.
        danger += p.danger_open_king + drop_weight / 2;
    }
    // Defenders next to the king help.
    danger -= p.danger_defender * ((ring & b.by_color(color) & !b.pawns()).count() as i32).min(3);
    let danger = danger.max(0);
    (danger * danger / p.danger_divisor.max(1)).min(1500)
}

/// The danger of the enemy's safe checks against the king of `color` on `king`
/// ([`EvalParams::danger_safe_check`]): for each role, the squares from which a piece of that
/// role would check, that the enemy can reach next move (a drop of a piece in its reserve onto
/// an empty square, a pawn's capture, a piece's move) and where the piece is safe (not
/// attacked by our pieces other than the king, and, next to the king, defended by the enemy).
fn safe_checks(
    pos: &Position,
    p: &EvalParams,
    color: Color,
    king: Square,
    ours: &Side,
    theirs: &Side,
) -> i32 {
    let b = pos.board();
    let occ = b.occupied();
    let ring = attacks::king_attacks(king);
    let enemy_reserve = pos.reserve(!color);
    let safe = !b.by_color(!color) & !ours.attacks & !(ring & !theirs.attacks);
    let from = check_squares(color, king, occ);
    let pawn_drops = pawn_drop_squares(pos);
    let mut danger = 0;
    for (ri, role) in RESERVE_ROLES.into_iter().enumerate() {
        let mut reach = theirs.by_role[ri];
        if ri == 0 {
            // A pawn's attack is a move only onto one of our pieces.
            reach &= b.by_color(color);
        }
        if enemy_reserve.count(role) > 0 {
            let mut drops = !occ;
            if ri == 0 {
                drops &= pawn_drops;
            }
            reach |= drops;
        }
        let checks = (from[ri] & reach & safe).count() as i32;
        danger += p.danger_safe_check[ri] * checks.min(2);
    }
    danger
}

/// Static exchange evaluation of the board move `from` to `to` for the side to move, in
/// centipawns: what the exchange on `to` wins (negative: loses). Drops never recapture (the
/// square is occupied), so the board pieces decide.
pub fn see(pos: &Position, from: Square, to: Square) -> i32 {
    let b = pos.board();
    let Some(mut attacker_role) = b.role_at(from) else {
        return 0;
    };
    let mut gain = [0i32; 32];
    let mut depth = 0;
    gain[0] = b.role_at(to).map_or(0, value);
    let mut occ = b.occupied() ^ Bitboard::from_square(from);
    let mut side = !pos.turn();
    loop {
        depth += 1;
        gain[depth] = value_or_king(attacker_role) - gain[depth - 1];
        if gain[depth].max(-gain[depth - 1]) < 0 || depth >= 31 {
            break;
        }
        let attackers = pos.attackers_to(to, side, occ) & occ;
        // The least valuable attacker.
        let mut next = None;
        for role in Role::ALL {
            if let Some(sq) = (attackers & b.by_role(role)).first() {
                next = Some((sq, role));
                break;
            }
        }
        let Some((sq, role)) = next else { break };
        if role == Role::King && (pos.attackers_to(to, !side, occ) & occ).any() {
            // The king may not capture into a defended square.
            break;
        }
        occ ^= Bitboard::from_square(sq);
        attacker_role = role;
        side = !side;
    }
    while depth > 1 {
        depth -= 1;
        gain[depth - 1] = -(-gain[depth - 1]).max(gain[depth]);
    }
    gain[0]
}

#[inline]
fn value_or_king(role: Role) -> i32 {
    if role == Role::King {
        5000
    } else {
        value(role)
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use bughouse_core::Rules;

    #[test]
    fn start_is_balanced() {
        let pos = Position::new(Rules::fide());
        assert_eq!(evaluate(&pos), EvalParams::DEFAULT.tempo);
    }

    #[test]
    fn reserve_counts() {
        let pos = Position::from_fen(
            "rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR[N] w KQkq - 0 1",
            Rules::fide(),
        )
        .unwrap();
        assert!(evaluate(&pos) > 250);
    }

    /// The safe-check danger of the side to move's king, with weights 1 to 5 by role.
    fn safe_check_danger(fen: &str) -> i32 {
        let pos = Position::from_fen(fen, Rules::fide()).unwrap();
        let p = EvalParams {
            danger_safe_check: [1, 2, 3, 4, 5],
            ..EvalParams::DEFAULT
        };
        let color = pos.turn();
        let kings = [pos.king(Color::White), pos.king(Color::Black)];
        let [white, black] = gather(&pos, &p, kings);
        let (ours, theirs) = match color {
            Color::White => (white, black),
            Color::Black => (black, white),
        };
        safe_checks(&pos, &p, color, pos.king(color), &ours, &theirs)
    }

    #[test]
    fn a_boxed_king_counts_the_roles_that_could_check_it_safely() {
        let boxed = EvalParams {
            boxed_king: 100,
            ..EvalParams::DEFAULT
        };
        let open = EvalParams {
            boxed_king: 0,
            ..EvalParams::DEFAULT
        };
        let gap = |fen: &str, rules: Rules| {
            let pos = Position::from_fen(fen, rules).unwrap();
            evaluate_with(&pos, &boxed) - evaluate_with(&pos, &open)
        };
        // Black's king on h8 behind its rook and pawns: no square to flee to. A knight on f7
        // would check it safely (g6 is the h-pawn's); no line reaches it. In bughouse White's
        // partner may send a knight: one role, 100 for White to move. White's king can flee.
        let fen = "6rk/6pp/8/8/8/8/8/4K3[] w - - 0 1";
        assert_eq!(gap(fen, Rules::fide()), 100);
        // Without the h-pawn the king flees to h7: nothing.
        assert_eq!(gap("6rk/6p1/8/8/8/8/8/4K3[] w - - 0 1", Rules::fide()), 0);
        // When White's bishop on d3 holds h7 the king is boxed again, and now a knight (f7 or
        // g6), a rook and a queen (h7, defended by the bishop, or lower on the h-file) check.
        assert_eq!(
            gap("6rk/6p1/8/8/8/3B4/8/4K3[] w - - 0 1", Rules::fide()),
            300
        );
        // In crazyhouse a role counts only in White's reserve.
        assert_eq!(gap(fen, Rules::crazyhouse()), 0);
        assert_eq!(
            gap("6rk/6pp/8/8/8/8/8/4K3[N] w - - 0 1", Rules::crazyhouse()),
            100
        );
        // A square our piece defends is no check square: a knight on d6 guards f7.
        assert_eq!(gap("6rk/6pp/3n4/8/8/8/8/4K3[] w - - 0 1", Rules::fide()), 0);
        // From Black's side to move the sign turns.
        assert_eq!(
            gap("6rk/6pp/8/8/8/8/8/4K3[] b - - 0 1", Rules::fide()),
            -100
        );
    }

    #[test]
    fn flank_attacks_count_the_enemy_attacks_near_our_king() {
        let pos = Position::from_fen("4r1k1/8/5n2/8/8/8/8/6K1 w - - 0 1", Rules::fide()).unwrap();
        let kings = [pos.king(Color::White), pos.king(Color::Black)];
        let p = EvalParams {
            flank_attack: 1,
            ..EvalParams::DEFAULT
        };
        let [_, black] = gather(&pos, &p, kings);
        // The rook: e1 to e5; the knight: g4, h5 and e4, which the rook attacks too (twice).
        assert_eq!(flank_attacks(Color::White, kings[0], &black), 5 + 2 + 1);
        // In centipawns by the weight, for White to move (Black's flank is not attacked).
        let weighted = EvalParams {
            flank_attack: 10,
            ..EvalParams::DEFAULT
        };
        let gap = evaluate(&pos) - evaluate_with(&pos, &weighted);
        assert_eq!(gap, 80);
        // Of the same attacks only the knight's d5 is on the flank of a king on b1 (a to d).
        assert_eq!(flank_attacks(Color::White, Square::B1, &black), 1);
        // Mirrored, for Black's king.
        let pos = Position::from_fen("6k1/8/8/8/8/5N2/8/4R1K1 b - - 0 1", Rules::fide()).unwrap();
        let kings = [pos.king(Color::White), pos.king(Color::Black)];
        let [white, _] = gather(&pos, &p, kings);
        assert_eq!(flank_attacks(Color::Black, kings[1], &white), 8);
    }

    #[test]
    fn pieces_far_from_both_kings_count_less_with_king_proximity() {
        let p = EvalParams {
            king_proximity: 8,
            ..EvalParams::DEFAULT
        };
        let eval = |fen: &str, p: &EvalParams| {
            evaluate_with(&Position::from_fen(fen, Rules::fide()).unwrap(), p)
        };
        // A knight on a1, far from both kings, against one on f2, next to ours and six from theirs.
        let far = "6k1/8/8/8/8/8/8/N5K1 w - - 0 1";
        let near = "6k1/8/8/8/8/8/5N2/6K1 w - - 0 1";
        let default = EvalParams::DEFAULT;
        let (far_gap, near_gap) = (
            eval(far, &default) - eval(far, &p),
            eval(near, &default) - eval(near, &p),
        );
        // a1: 6 from g1, 7 from g8: 42 eighths of 8 centipawns; f2: 1 and 6.
        assert_eq!((far_gap, near_gap), (42, 6));
    }

    #[test]
    fn safe_checks_by_drops() {
        // A queen in hand: checks from a1 to e1 are safe (f1 and h1 are next to the king and
        // not defended by Black), two or more count twice.
        assert_eq!(
            safe_check_danger("6k1/8/8/8/8/8/5PPP/6K1[q] w - - 0 1"),
            2 * 5
        );
        // A rook on a1 guards the first rank: no safe queen check is left.
        assert_eq!(safe_check_danger("6k1/8/8/8/8/8/5PPP/R5K1[q] w - - 0 1"), 0);
        // A knight in hand: e2 is the one knight check square off the pawns' guard (f3 and h3
        // are guarded by g2, e2 is empty and not attacked by White).
        assert_eq!(safe_check_danger("6k1/8/8/8/8/8/5PPP/6K1[n] w - - 0 1"), 2);
        // No reserve and no pieces: nothing.
        assert_eq!(safe_check_danger("6k1/8/8/8/8/8/5PPP/6K1[] w - - 0 1"), 0);
        // A pawn in hand checks from f2 or h2 only when those are empty and defended by Black
        // (next to the king): without a black piece on f2's lines, no safe pawn check.
        assert_eq!(safe_check_danger("6k1/8/8/8/8/8/6PP/6K1[p] w - - 0 1"), 0);
        // A black bishop on h4 guards f2 (a safe pawn drop check) and checks from there
        // itself (its one safe check square: e3 and d4 are off its diagonals).
        assert_eq!(safe_check_danger("6k1/8/8/8/7b/8/6PP/6K1[] w - - 0 1"), 3);
        assert_eq!(
            safe_check_danger("6k1/8/8/8/7b/8/6PP/6K1[p] w - - 0 1"),
            3 + 1
        );
    }

    #[test]
    fn see_values() {
        let pos =
            Position::from_fen("4k3/8/3p4/4p3/3P4/8/8/4K3[] w - - 0 1", Rules::fide()).unwrap();
        // dxe5 dxe5: pawn for pawn.
        assert_eq!(see(&pos, Square::D4, Square::E5), 0);
        let pos =
            Position::from_fen("4k3/8/3p4/4n3/3P4/8/8/4K3[] w - - 0 1", Rules::fide()).unwrap();
        assert_eq!(see(&pos, Square::D4, Square::E5), 310);
        let pos =
            Position::from_fen("4k3/8/3p4/4p3/8/8/4Q3/4K3[] w - - 0 1", Rules::fide()).unwrap();
        assert_eq!(see(&pos, Square::E2, Square::E5), 100 - 850);
    }
}
