//! The "Moves, drops, promotion" table of `RULES.md`.

use bughouse_core::fen::FenError;
use bughouse_core::{
    Bitboard, Color, PositionError, PromotionRoles, ReserveVisibility, Role, Rules, Square, Verdict,
};

use crate::{drops, legal, play, play_all, pos, sq};

// ---------------------------------------------------------------------------------------------
// Row "captured piece goes to"
// ---------------------------------------------------------------------------------------------

/// Under bughouse rules a captured piece leaves this board for the partner: `play` returns its
/// role and neither reserve on this board changes.
fn capture_passes_to_partner(rules: Rules) {
    let mut p = pos("4k3/8/8/3r4/8/8/6B1/4K3[Nn] w - - 0 1", rules);
    let before = *p.reserves();
    assert_eq!(play(&mut p, "g2d5"), Some(Role::Rook));
    assert_eq!(p.piece_at(sq("d5")), Some(Color::White.bishop()));
    assert_eq!(
        *p.reserves(),
        before,
        "the capturer's reserve must not change"
    );

    // A pawn taken en passant passes too.
    let mut p = pos("4k3/8/8/3pP3/8/8/8/4K3[Nn] w - d6 0 2", rules);
    assert_eq!(play(&mut p, "e5d6"), Some(Role::Pawn));
    assert_eq!(p.piece_at(sq("d5")), None);
    assert_eq!(*p.reserves(), before);

    // Black's captures pass the same way.
    let mut p = pos("4k3/8/8/3n4/8/8/1Q6/4K3[Nn] b - - 0 1", rules);
    assert_eq!(play(&mut p, "d5b4"), None, "a quiet move passes nothing");
    assert_eq!(play(&mut p, "b2b4"), Some(Role::Knight));
    assert_eq!(*p.reserves(), before);
}

// F3.2: every captured piece is given to the partner, after the move is completed.
#[test]
fn fide_f3_2_captured_piece_goes_to_partner() {
    capture_passes_to_partner(Rules::fide());
}

// M2.1: the capturer may pass the piece to his partner; online it always passes.
#[test]
fn minerva_m2_1_captured_piece_goes_to_partner() {
    capture_passes_to_partner(Rules::minerva_2014());
}

// K3: the capturer may pass the piece to his partner after pressing the clock; it always passes.
#[test]
fn knsb_k3_captured_piece_goes_to_partner() {
    capture_passes_to_partner(Rules::knsb_1988());
}

// U9: the captured piece is passed to the partner after the move is completed.
#[test]
fn uscf_u9_captured_piece_goes_to_partner() {
    capture_passes_to_partner(Rules::uscf_scholastic_2006());
}

// Crazyhouse: the captured piece changes colour and goes into the capturer's own reserve.
#[test]
fn crazyhouse_captured_piece_goes_to_capturer() {
    let mut p = pos("4k3/8/8/3r4/8/8/6B1/4K3[Nn] w - - 0 1", Rules::crazyhouse());
    assert_eq!(play(&mut p, "g2d5"), None);
    assert_eq!(p.reserve(Color::White).count(Role::Rook), 1);
    assert_eq!(p.reserve(Color::White).count(Role::Knight), 1);
    assert_eq!(p.reserve(Color::Black).len(), 1);
    // The rook can be dropped at once by its new owner.
    play(&mut p, "e8d8");
    assert!(legal(&p, "R@a1"));
}

// ---------------------------------------------------------------------------------------------
// Row "a move is": a board move or a drop from the player's own reserve
// ---------------------------------------------------------------------------------------------

fn move_is_board_move_or_own_drop(rules: Rules) {
    let mut p = pos("4k3/8/8/8/8/8/4P3/4K3[Nq] w - - 0 1", rules);
    let moves = p.legal_moves();
    assert!(moves.iter().any(|m| !m.is_drop()), "board moves are moves");
    assert!(moves.iter().any(|m| m.dropped_role() == Some(Role::Knight)));
    assert!(
        !moves.iter().any(|m| m.dropped_role() == Some(Role::Queen)),
        "White may not drop from Black's reserve"
    );
    assert!(
        !legal(&p, "P@d4"),
        "nothing to drop but what is in the reserve"
    );
    play(&mut p, "N@c3");
    assert_eq!(p.reserve(Color::White).count(Role::Knight), 0);
    assert_eq!(p.piece_at(sq("c3")), Some(Color::White.knight()));
    // Black's turn: a drop from his reserve, and only from his.
    assert!(!legal(&p, "N@c6"));
    play(&mut p, "Q@b7");
    assert!(p.reserve(Color::Black).is_empty());
    assert_eq!(p.piece_at(sq("b7")), Some(Color::Black.queen()));
    // The reserve is empty now: no more drops.
    assert!(drops(&p).is_empty());
    play(&mut p, "e2e4");
}

// F3.4: instead of a normal move, a player can drop a piece from his stock.
#[test]
fn fide_f3_4_move_is_board_move_or_drop() {
    move_is_board_move_or_own_drop(Rules::fide());
}

// M2.2: a move is a board move or the placing of a piece received from the partner.
#[test]
fn minerva_m2_2_move_is_board_move_or_drop() {
    move_is_board_move_or_own_drop(Rules::minerva_2014());
}

// K4: a move is a displacement (K4A) or the placing of a passed piece (K4B).
#[test]
fn knsb_k4_move_is_board_move_or_drop() {
    move_is_board_move_or_own_drop(Rules::knsb_1988());
}

// U10: a player either moves on the board or places a piece his partner captured.
#[test]
fn uscf_u10_move_is_board_move_or_drop() {
    move_is_board_move_or_own_drop(Rules::uscf_scholastic_2006());
}

// ---------------------------------------------------------------------------------------------
// Row "drop square": any empty square
// ---------------------------------------------------------------------------------------------

/// A knight may be dropped on every empty square and on no occupied one. Where drops may not
/// give check (`checking_drops_allowed` false) the four squares attacking the black king on e8
/// are left out, and only they.
fn knight_drops_on_any_empty_square(rules: Rules, checking_drops_allowed: bool) {
    let p = pos("r3k2r/pp3ppp/8/3pP3/8/8/PP3PPP/R3K2R[N] w - - 0 1", rules);
    let checking = ["c7", "d6", "f6", "g7"].map(sq);
    let occupied = p.board().occupied();
    let mut expected = Bitboard::EMPTY;
    for s in Square::ALL {
        let uci = format!("N@{s}");
        let is_legal = legal(&p, &uci);
        if occupied.contains(s) {
            assert!(!is_legal, "{uci}: a drop needs an empty square");
        } else if checking.contains(&s) {
            assert_eq!(is_legal, checking_drops_allowed, "{uci} gives check");
        } else {
            assert!(
                is_legal,
                "{uci}: any empty square, in either half of the board"
            );
        }
        if is_legal {
            expected.add(s);
        }
    }
    let dropped: Bitboard = drops(&p).iter().map(|m| m.to()).collect();
    assert_eq!(dropped, expected);
    // c7, d6 and f6 are empty; g7 holds a pawn.
    let n_empty = 64 - occupied.count();
    let n_checking = if checking_drops_allowed { 0 } else { 3 };
    assert_eq!(expected.count(), n_empty - n_checking);
}

// F3.4: a piece may be dropped on any empty square.
#[test]
fn fide_f3_4_drop_on_any_empty_square() {
    knight_drops_on_any_empty_square(Rules::fide(), true);
}

// M2.3: a piece may be placed on any empty square.
#[test]
fn minerva_m2_3_drop_on_any_empty_square() {
    knight_drops_on_any_empty_square(Rules::minerva_2014(), true);
}

// K5A: a passed piece may be placed only on an unoccupied square (and not giving check).
#[test]
fn knsb_k5a_drop_on_any_empty_square() {
    knight_drops_on_any_empty_square(Rules::knsb_1988(), false);
}

// U10a: a piece may be placed on any vacant square.
#[test]
fn uscf_u10a_drop_on_any_empty_square() {
    knight_drops_on_any_empty_square(Rules::uscf_scholastic_2006(), true);
}

#[test]
fn crazyhouse_drop_on_any_empty_square() {
    knight_drops_on_any_empty_square(Rules::crazyhouse(), true);
}

// ---------------------------------------------------------------------------------------------
// Row "pawn drop on 1st/8th rank": forbidden
// ---------------------------------------------------------------------------------------------

fn no_pawn_drop_on_back_rank(rules: Rules) {
    let mut p = pos("4k3/8/8/8/8/8/8/4K3[Pp] w - - 0 1", rules);
    for file in ["a", "b", "c", "d", "f", "g", "h"] {
        assert!(!legal(&p, &format!("P@{file}1")), "White P@{file}1");
        assert!(!legal(&p, &format!("P@{file}8")), "White P@{file}8");
    }
    let pawn_drops: Vec<_> = drops(&p).iter().map(|m| m.to()).collect();
    assert!(pawn_drops.iter().all(|s| !Bitboard::BACKRANKS.contains(*s)));
    // Ranks 2 to 7 are fine, the 7th too.
    assert!(legal(&p, "P@a2"));
    assert!(legal(&p, "P@h7"));
    play(&mut p, "e1d1");
    for file in ["a", "b", "c", "d", "e", "f", "g", "h"] {
        assert!(!legal(&p, &format!("P@{file}1")), "Black P@{file}1");
    }
    for file in ["a", "b", "c", "d", "f", "g", "h"] {
        assert!(!legal(&p, &format!("P@{file}8")), "Black P@{file}8");
    }
    assert!(legal(&p, "P@h2"));
    assert!(legal(&p, "P@a7"));
}

// F3.4: a pawn cannot be dropped on the first or last rank.
#[test]
fn fide_f3_4_no_pawn_drop_on_back_rank() {
    no_pawn_drop_on_back_rank(Rules::fide());
}

// M2.5: a pawn may not be placed on the first or eighth rank.
#[test]
fn minerva_m2_5_no_pawn_drop_on_back_rank() {
    no_pawn_drop_on_back_rank(Rules::minerva_2014());
}

// K5B: a passed pawn may not be placed on the first or eighth rank.
#[test]
fn knsb_k5b_no_pawn_drop_on_back_rank() {
    no_pawn_drop_on_back_rank(Rules::knsb_1988());
}

// U10a: pawns may not be placed on the first or eighth rank.
#[test]
fn uscf_u10a_no_pawn_drop_on_back_rank() {
    no_pawn_drop_on_back_rank(Rules::uscf_scholastic_2006());
}

#[test]
fn crazyhouse_no_pawn_drop_on_back_rank() {
    no_pawn_drop_on_back_rank(Rules::crazyhouse());
}

// ---------------------------------------------------------------------------------------------
// Row "drop that gives check": allowed, mate too; forbidden in knsb-1988
// ---------------------------------------------------------------------------------------------

/// A smothered mate by a dropped knight, and a queen drop mating by contact.
fn mating_drops_allowed(rules: Rules) {
    let mut p = pos("6rk/6pp/8/8/8/8/8/6K1[N] w - - 0 1", rules);
    play(&mut p, "N@f7");
    assert!(p.is_check());
    assert_eq!(p.verdict(), Verdict::Checkmate);

    let mut p = pos("7k/8/6K1/8/8/8/8/8[Q] w - - 0 1", rules);
    play(&mut p, "Q@g7");
    assert_eq!(p.verdict(), Verdict::Checkmate);

    // A plain check by a drop, and a check block by a drop that itself gives check.
    let mut p = pos("4k3/8/8/8/8/8/8/4K3[R] w - - 0 1", rules);
    play(&mut p, "R@a8");
    assert!(p.is_check());
    assert_eq!(p.verdict(), Verdict::Ongoing);
    let mut p = pos("5R1k/7p/5K2/8/8/8/8/8[n] b - - 0 1", rules);
    play(&mut p, "N@g8");
    assert!(
        p.is_check(),
        "the blocking knight checks the white king on f6"
    );
}

// F3.4: a drop may place the opponent's king in check or checkmate.
#[test]
fn fide_f3_4_drop_may_check_and_mate() {
    mating_drops_allowed(Rules::fide());
}

// M2.4: a piece may be placed giving check, and mate.
#[test]
fn minerva_m2_4_drop_may_check_and_mate() {
    mating_drops_allowed(Rules::minerva_2014());
}

// U10b: pieces may be placed to create check or checkmate.
#[test]
fn uscf_u10b_drop_may_check_and_mate() {
    mating_drops_allowed(Rules::uscf_scholastic_2006());
}

#[test]
fn crazyhouse_drop_may_check_and_mate() {
    mating_drops_allowed(Rules::crazyhouse());
}

// K5A: a drop may not give check, not even mate.
#[test]
fn knsb_k5a_mating_drop_forbidden() {
    let mut p = pos("6rk/6pp/8/8/8/8/8/6K1[N] w - - 0 1", Rules::knsb_1988());
    assert!(!legal(&p, "N@f7"), "the smothered mate by a drop");
    let before = p.clone();
    let m = bughouse_core::Move::drop(Role::Knight, sq("f7"));
    assert!(p.play(m).is_err());
    assert_eq!(p, before, "a refused drop changes nothing");

    let mut p = pos("7k/8/6K1/8/8/8/8/8[Q] w - - 0 1", Rules::knsb_1988());
    assert!(!legal(&p, "Q@g7"));
    assert!(!legal(&p, "Q@h7"));
    // Dropping the queen where it gives no check is fine.
    assert!(legal(&p, "Q@a7"));
    play(&mut p, "Q@f1");
    assert!(!p.is_check());
}

// K5A: no drop may give check, whatever piece and whatever line.
#[test]
fn knsb_k5a_no_legal_drop_gives_check() {
    let p = pos("4k3/8/8/8/8/8/8/4K3[QRBNP] w - - 0 1", Rules::knsb_1988());
    let ds = drops(&p);
    assert!(!ds.is_empty());
    for m in ds {
        let mut after = p.clone();
        after.play(m).unwrap();
        assert!(!after.is_check(), "{m} gives check");
    }
    for uci in ["Q@e2", "R@a8", "B@b5", "N@d6", "P@d7", "P@f7"] {
        assert!(!legal(&p, uci), "{uci} gives check");
    }
    for uci in ["Q@a2", "R@a7", "B@b4", "N@d5", "P@d6"] {
        assert!(legal(&p, uci), "{uci} gives no check");
    }
}

// K5A and FIDE base: non-checking drops and checking board moves stay legal; a board move may
// mate.
#[test]
fn knsb_k5a_checking_board_move_allowed() {
    let mut p = pos("6rk/6pp/8/4N3/8/8/8/6K1[N] w - - 0 1", Rules::knsb_1988());
    assert!(!legal(&p, "N@f7"));
    assert!(legal(&p, "N@a1"));
    play(&mut p, "e5f7");
    assert!(p.is_check());
    assert_eq!(p.verdict(), Verdict::Checkmate);
}

// K5A: a drop that blocks a check but checks the enemy king is forbidden too; here it is the
// only defence, so it is mate (under the FIDE base mate of K1E).
#[test]
fn knsb_k5a_checking_block_forbidden() {
    let p = pos("5R1k/7p/5K2/8/8/8/8/8[n] b - - 0 1", Rules::knsb_1988());
    assert!(!legal(&p, "N@g8"));
    assert!(p.legal_moves().is_empty());
    assert_eq!(p.verdict(), Verdict::Checkmate);
    // A knight that does not check the white king may block.
    let p = pos("5R1k/7p/4K3/8/8/8/8/8[n] b - - 0 1", Rules::knsb_1988());
    assert!(legal(&p, "N@g8"));
    assert_eq!(p.verdict(), Verdict::Ongoing);
}

// ---------------------------------------------------------------------------------------------
// Row "own king left in check": illegal
// ---------------------------------------------------------------------------------------------

fn own_king_may_not_be_left_in_check(rules: Rules) {
    // A pinned bishop may not move.
    let mut p = pos("4k3/4r3/8/8/8/8/4B3/4K3[N] w - - 0 1", rules);
    assert!(p.legal_moves().iter().all(|m| m.from() != Some(sq("e2"))));
    let before = p.clone();
    assert!(p
        .play(bughouse_core::Move::normal(sq("e2"), sq("d3")))
        .is_err());
    assert_eq!(p, before);

    // The king may not step into check.
    let p = pos("4k3/8/8/8/8/8/r7/4K3[] w - - 0 1", rules);
    for uci in ["e1d2", "e1e2", "e1f2"] {
        assert!(!legal(&p, uci), "{uci} steps into the rook's rank");
    }
    assert!(legal(&p, "e1d1") && legal(&p, "e1f1"));

    // In check by a rook: a drop must block it; dropping elsewhere leaves the king in check.
    let p = pos("4k3/8/8/8/8/8/8/r3K3[N] w - - 0 1", rules);
    let blocks: Vec<_> = drops(&p).iter().map(|m| m.to()).collect();
    assert_eq!(blocks, ["b1", "c1", "d1"].map(sq));
    assert!(!legal(&p, "N@e4"));
    assert!(!legal(&p, "e1d1") && !legal(&p, "e1f1"));

    // Double check: no drop helps, only the king moves.
    let p = pos("4k3/8/8/8/8/5n2/8/r3K3[QRBN] w - - 0 1", rules);
    let moves = p.legal_moves();
    assert!(!moves.is_empty());
    assert!(
        moves.iter().all(|m| m.from() == Some(sq("e1"))),
        "{moves:?}"
    );
    assert!(drops(&p).is_empty());

    // En passant that would uncover the king along the rank is illegal.
    let p = pos("4k3/8/8/KPp4r/8/8/8/8[] w - c6 0 2", rules);
    assert!(!legal(&p, "b5c6"));
    assert!(legal(&p, "b5b6"));
}

// F3.4: the player dropping a piece must not be in check at the completion of her turn.
#[test]
fn fide_f3_4_own_king_left_in_check_illegal() {
    own_king_may_not_be_left_in_check(Rules::fide());
}

// M1.6, FIDE base: a move leaving one's own king in check is illegal.
#[test]
fn minerva_m1_6_own_king_left_in_check_illegal() {
    own_king_may_not_be_left_in_check(Rules::minerva_2014());
}

// K1E, FIDE base: a move leaving one's own king in check is illegal.
#[test]
fn knsb_k1e_own_king_left_in_check_illegal() {
    own_king_may_not_be_left_in_check(Rules::knsb_1988());
}

// Chess base (U10): a move leaving one's own king in check is illegal.
#[test]
fn uscf_u10_own_king_left_in_check_illegal() {
    own_king_may_not_be_left_in_check(Rules::uscf_scholastic_2006());
}

#[test]
fn crazyhouse_own_king_left_in_check_illegal() {
    own_king_may_not_be_left_in_check(Rules::crazyhouse());
}

// ---------------------------------------------------------------------------------------------
// Row "pawn dropped on its 2nd rank": may advance two squares and be taken en passant
// ---------------------------------------------------------------------------------------------

fn dropped_pawn_double_step_and_en_passant(rules: Rules) {
    // White drops on e2, advances two squares, and Black takes en passant.
    let mut p = pos("4k3/8/8/8/3p4/8/8/K7[P] w - - 0 1", rules);
    play(&mut p, "P@e2");
    play(&mut p, "e8d8");
    assert!(
        legal(&p, "e2e4"),
        "a dropped pawn on its 2nd rank may advance two squares"
    );
    play(&mut p, "e2e4");
    assert_eq!(p.ep_square(), Some(sq("e3")));
    let captured = play(&mut p, "d4e3");
    assert_eq!(p.piece_at(sq("e4")), None, "the pawn was taken en passant");
    assert_eq!(p.piece_at(sq("e3")), Some(Color::Black.pawn()));
    if rules.capture_destination == bughouse_core::CaptureDestination::Partner {
        assert_eq!(captured, Some(Role::Pawn));
    }

    // Black the same way, dropping on d7.
    let mut p = pos("k7/8/8/4P3/8/8/8/4K3[p] b - - 0 1", rules);
    play(&mut p, "P@d7");
    play(&mut p, "e1f1");
    play(&mut p, "d7d5");
    assert!(legal(&p, "e5d6"));
    play(&mut p, "e5d6");
    assert_eq!(p.piece_at(sq("d5")), None);

    // On its 3rd rank a dropped pawn advances one square only.
    let mut p = pos("4k3/8/8/8/8/8/8/K7[P] w - - 0 1", rules);
    play(&mut p, "P@e3");
    play(&mut p, "e8d8");
    assert!(!legal(&p, "e3e5"));
}

// F3.5: dropped pawns may move two squares from their starting rank and be taken en passant.
#[test]
fn fide_f3_5_dropped_pawn_double_step_en_passant() {
    dropped_pawn_double_step_and_en_passant(Rules::fide());
}

// interp. (M1.6, FIDE base): a pawn on its 2nd rank may advance two squares, dropped or not.
#[test]
fn minerva_m1_6_dropped_pawn_double_step_en_passant() {
    dropped_pawn_double_step_and_en_passant(Rules::minerva_2014());
}

// interp. (K1E, FIDE base): a pawn on its 2nd rank may advance two squares, dropped or not.
#[test]
fn knsb_k1e_dropped_pawn_double_step_en_passant() {
    dropped_pawn_double_step_and_en_passant(Rules::knsb_1988());
}

// interp. (U10, chess base): a pawn on its 2nd rank may advance two squares, dropped or not.
#[test]
fn uscf_u10_dropped_pawn_double_step_en_passant() {
    dropped_pawn_double_step_and_en_passant(Rules::uscf_scholastic_2006());
}

#[test]
fn crazyhouse_dropped_pawn_double_step_en_passant() {
    dropped_pawn_double_step_and_en_passant(Rules::crazyhouse());
}

// ---------------------------------------------------------------------------------------------
// Row "rook dropped on its original square": castles in fide only
// ---------------------------------------------------------------------------------------------

// F3.5: a dropped rook may castle just as the original rook could. The castling letter stays
// while the king has not moved, even with the corner empty.
#[test]
fn fide_f3_5_dropped_rook_castles_from_fen_letter() {
    let mut p = pos("r3k3/8/8/8/8/8/8/4K3[R] w K - 0 1", Rules::fide());
    assert!(p.castling_rights().contains(Square::H1));
    play(&mut p, "R@h1");
    play(&mut p, "a8a7");
    assert!(legal(&p, "e1g1"));
    assert_eq!(p.san(p.parse_uci("e1g1").unwrap()), "O-O");
    play(&mut p, "e1g1");
    assert_eq!(p.piece_at(sq("g1")), Some(Color::White.king()));
    assert_eq!(p.piece_at(sq("f1")), Some(Color::White.rook()));
    assert!(!p.castling_rights().contains(Square::H1));
}

// F3.5: the original rook leaves h1; a rook dropped on h1 may castle.
#[test]
fn fide_f3_5_rook_dropped_back_castles() {
    let mut p = pos("k7/8/8/7n/8/8/8/4K2R[] w K - 0 1", Rules::fide());
    play_all(&mut p, &["h1h5", "a8b8"]);
    assert!(
        p.castling_rights().contains(Square::H1),
        "the king has not moved"
    );
    p.add_to_reserve(Color::White, Role::Rook);
    play_all(&mut p, &["R@h1", "b8a8"]);
    assert!(legal(&p, "e1g1"));
    play(&mut p, "e1g1");
    assert_eq!(p.piece_at(sq("f1")), Some(Color::White.rook()));
}

// F3.5: a rook dropped on a8 castles long for Black.
#[test]
fn fide_f3_5_black_dropped_rook_castles_long() {
    let mut p = pos("4k3/8/8/8/8/8/8/K7[r] b q - 0 1", Rules::fide());
    play_all(&mut p, &["R@a8", "a1b1"]);
    assert!(legal(&p, "e8c8"));
    play(&mut p, "e8c8");
    assert_eq!(p.piece_at(sq("c8")), Some(Color::Black.king()));
    assert_eq!(p.piece_at(sq("d8")), Some(Color::Black.rook()));
}

// F3.5: only a dropped rook stands as the original; a rook that returns to its corner by a board
// move may not castle.
#[test]
fn fide_f3_5_rook_returning_by_board_move_cannot_castle() {
    let mut p = pos("k7/8/8/8/8/8/8/4K2R[] w K - 0 1", Rules::fide());
    assert!(legal(&p, "e1g1"), "the original rook castles");
    play_all(&mut p, &["h1h2", "a8b8", "h2h1", "b8a8"]);
    assert!(!legal(&p, "e1g1"));
}

// F3.5: "if the king has not moved": after a king move there is no castling at all, not even
// with a rook dropped later.
#[test]
fn fide_f3_5_no_castling_after_king_moved() {
    let mut p = pos("k7/8/8/8/8/8/8/4K3[R] w K - 0 1", Rules::fide());
    play_all(&mut p, &["e1e2", "a8b8"]);
    assert!(p.castling_rights().is_empty());
    play_all(&mut p, &["e2e1", "b8a8", "R@h1", "a8b8"]);
    assert!(!legal(&p, "e1g1"));
    assert!(!legal(&p, "e1h1"));
}

/// Castling rights, once lost, never return: a FEN letter needs the rook on its corner, and a
/// rook dropped back after the original left cannot castle.
fn dropped_rook_never_castles(rules: Rules) {
    let err = bughouse_core::Position::from_fen("r3k3/8/8/8/8/8/8/4K3[R] w K - 0 1", rules);
    assert_eq!(
        err.unwrap_err(),
        FenError::Illegal(PositionError::BadCastling(Square::H1))
    );

    let mut p = pos("k7/8/8/7n/8/8/8/4K2R[] w K - 0 1", rules);
    assert!(legal(&p, "e1g1"), "the original rook castles");
    play_all(&mut p, &["h1h5", "a8b8"]);
    assert!(!p.castling_rights().contains(Square::H1));
    p.add_to_reserve(Color::White, Role::Rook);
    play_all(&mut p, &["R@h1", "b8a8"]);
    assert!(!legal(&p, "e1g1"));
    assert!(!legal(&p, "e1h1"));

    rook_dropped_on_emptied_corner(rules, false);
}

/// Black's rook is taken on a8 by a knight, which then leaves; Black drops a rook on a8 while
/// his king has not moved. Whether he may castle long is `castles`.
fn rook_dropped_on_emptied_corner(rules: Rules, castles: bool) {
    let mut p = pos("r3k3/7p/1N6/8/8/8/8/4K3[] w q - 0 1", rules);
    assert!(p.castling_rights().contains(Square::A8));
    play_all(&mut p, &["b6a8", "h7h6", "a8b6", "h6h5", "b6d5"]);
    assert_eq!(p.castling_rights().contains(Square::A8), castles);
    p.add_to_reserve(Color::Black, Role::Rook);
    play_all(&mut p, &["R@a8", "e1d1"]);
    assert_eq!(
        legal(&p, "e8c8"),
        castles,
        "castling long with the dropped rook"
    );
    if castles {
        play(&mut p, "e8c8");
        assert_eq!(p.piece_at(sq("d8")), Some(Color::Black.rook()));
    }
}

// F3.5: Black's original rook is captured on a8; a rook dropped there later castles.
#[test]
fn fide_f3_5_rook_dropped_on_emptied_corner_castles() {
    rook_dropped_on_emptied_corner(Rules::fide(), true);
}

// interp. (M1.6, FIDE base): castling rights, once lost, never return.
#[test]
fn minerva_m1_6_dropped_rook_cannot_castle() {
    dropped_rook_never_castles(Rules::minerva_2014());
}

// interp. (K1E, FIDE base): castling rights, once lost, never return.
#[test]
fn knsb_k1e_dropped_rook_cannot_castle() {
    dropped_rook_never_castles(Rules::knsb_1988());
}

// interp. (U21, chess base): castling rights, once lost, never return.
#[test]
fn uscf_u21_dropped_rook_cannot_castle() {
    dropped_rook_never_castles(Rules::uscf_scholastic_2006());
}

#[test]
fn crazyhouse_dropped_rook_cannot_castle() {
    dropped_rook_never_castles(Rules::crazyhouse());
}

// ---------------------------------------------------------------------------------------------
// Row "promotion": to Q, R, B or N; it moves as the chosen piece, marked `~`
// ---------------------------------------------------------------------------------------------

fn promotion_moves_as_chosen_piece(rules: Rules) {
    assert_eq!(rules.promotion_roles, PromotionRoles::STANDARD);
    let p = pos("4k3/P7/8/8/8/8/8/4K3[] w - - 0 1", rules);
    let mut promos: Vec<Role> = p
        .legal_moves()
        .iter()
        .filter(|m| m.from() == Some(sq("a7")))
        .map(|m| m.promotion_role().expect("every a7-a8 move promotes"))
        .collect();
    promos.sort();
    assert_eq!(
        promos,
        [Role::Knight, Role::Bishop, Role::Rook, Role::Queen],
        "Q, R, B or N, and nothing else"
    );
    assert!(!legal(&p, "a7a8"), "the pawn must promote");
    assert!(!legal(&p, "a7a8k"));

    // Promoted to a knight, it stands marked `~` and moves as a knight.
    let mut p = pos("4k3/P7/8/8/8/8/8/4K3[] w - - 0 1", rules);
    play(&mut p, "a7a8n");
    assert_eq!(p.role_at(sq("a8")), Some(Role::Knight));
    assert!(p.promoted().contains(sq("a8")));
    assert_eq!(p.fen(), "N~3k3/8/8/8/8/8/8/4K3[] b - - 0 1");
    play(&mut p, "e8e7");
    let mut from_a8: Vec<_> = p
        .legal_moves()
        .iter()
        .filter(|m| m.from() == Some(sq("a8")))
        .map(|m| m.to())
        .collect();
    from_a8.sort();
    assert_eq!(
        from_a8,
        [sq("b6"), sq("c7")],
        "a knight's moves, no queen's"
    );
    play(&mut p, "a8b6");
    assert!(p.promoted().contains(sq("b6")));
    assert!(!p.promoted().contains(sq("a8")));
    assert_eq!(p.fen(), "8/4k3/1N~6/8/8/8/8/4K3[] b - - 2 2");

    // A promoted queen read from FEN moves as a queen, and keeps its mark.
    let mut p = pos("4k3/8/8/8/8/8/8/Q~3K3[] w - - 0 1", rules);
    play(&mut p, "a1h8");
    assert!(p.promoted().contains(sq("h8")));
    assert!(p.fen().starts_with("4k2Q~/"));
}

// F3.6: a pawn reaching the last rank is promoted; it stays a pawn physically but moves as the
// chosen piece.
#[test]
fn fide_f3_6_promotion() {
    promotion_moves_as_chosen_piece(Rules::fide());
}

// M3.1, M3.2: promotion to queen, rook, bishop or knight; the pawn keeps its shape.
#[test]
fn minerva_m3_1_promotion() {
    promotion_moves_as_chosen_piece(Rules::minerva_2014());
}

// K6A: the pawn takes the value of queen, rook, bishop or knight but keeps the shape of a pawn.
#[test]
fn knsb_k6a_promotion() {
    promotion_moves_as_chosen_piece(Rules::knsb_1988());
}

// U21: the promoted pawn stays on the board, laid on its side, and moves as the declared piece.
#[test]
fn uscf_u21_promotion() {
    promotion_moves_as_chosen_piece(Rules::uscf_scholastic_2006());
}

#[test]
fn crazyhouse_promotion() {
    promotion_moves_as_chosen_piece(Rules::crazyhouse());
}

// ---------------------------------------------------------------------------------------------
// Row "promoted piece captured": passed on as a pawn
// ---------------------------------------------------------------------------------------------

fn promoted_piece_passes_as_pawn(rules: Rules) {
    // Promoted on the board, then taken at once.
    let mut p = pos("1r2k3/P7/8/8/8/8/8/4K3[] w - - 0 1", rules);
    play(&mut p, "a7a8q");
    assert_eq!(play(&mut p, "b8a8"), Some(Role::Pawn));
    assert!(p.reserves().white.is_empty() && p.reserves().black.is_empty());
    assert!(
        p.promoted().is_empty(),
        "the capturing rook is no promoted piece"
    );

    // A promoted queen from FEN.
    let mut p = pos("4k3/8/8/3q~4/8/8/6B1/4K3[] w - - 0 1", rules);
    assert_eq!(play(&mut p, "g2d5"), Some(Role::Pawn));
    // An unpromoted queen passes as a queen.
    let mut p = pos("4k3/8/8/3q4/8/8/6B1/4K3[] w - - 0 1", rules);
    assert_eq!(play(&mut p, "g2d5"), Some(Role::Queen));
    // A promoted piece taking with a promotion: the taker is promoted, the taken a pawn.
    let mut p = pos("1n~2k3/P7/8/8/8/8/8/4K3[] w - - 0 1", rules);
    assert_eq!(play(&mut p, "a7b8r"), Some(Role::Pawn));
    assert!(p.promoted().contains(sq("b8")));
}

// F3.6: a captured promoted pawn is treated as the capture of a pawn.
#[test]
fn fide_f3_6_promoted_piece_captured_as_pawn() {
    promoted_piece_passes_as_pawn(Rules::fide());
}

// M3.3: a captured promoted piece becomes a pawn again.
#[test]
fn minerva_m3_3_promoted_piece_captured_as_pawn() {
    promoted_piece_passes_as_pawn(Rules::minerva_2014());
}

// K6B: a captured promoted pawn regains the value of a pawn.
#[test]
fn knsb_k6b_promoted_piece_captured_as_pawn() {
    promoted_piece_passes_as_pawn(Rules::knsb_1988());
}

// U10c: a captured promoted pawn is passed on as a pawn.
#[test]
fn uscf_u10c_promoted_piece_captured_as_pawn() {
    promoted_piece_passes_as_pawn(Rules::uscf_scholastic_2006());
}

// Crazyhouse: the promoted piece goes into the capturer's reserve as a pawn.
#[test]
fn crazyhouse_promoted_piece_captured_as_pawn() {
    let mut p = pos("1r2k3/P7/8/8/8/8/8/4K3[] w - - 0 1", Rules::crazyhouse());
    play(&mut p, "a7a8q");
    assert_eq!(play(&mut p, "b8a8"), None);
    assert_eq!(p.reserve(Color::Black).count(Role::Pawn), 1);
    assert_eq!(p.reserve(Color::Black).count(Role::Queen), 0);
    assert_eq!(p.reserve(Color::Black).len(), 1);
}

// ---------------------------------------------------------------------------------------------
// Row "reserves are public"
// ---------------------------------------------------------------------------------------------

// F3.3: each player's stock must be visible to the other team.
#[test]
fn fide_f3_3_reserves_public() {
    assert_eq!(Rules::fide().reserves_visible, ReserveVisibility::Always);
}

// M2.6: players keep the pieces passed to them clearly visible in front of them.
#[test]
fn minerva_m2_6_reserves_public() {
    assert_eq!(
        Rules::minerva_2014().reserves_visible,
        ReserveVisibility::Always
    );
}

// K12: a player must show his received pieces when the opponent or his partner asks.
#[test]
fn knsb_k12_reserves_shown_on_request() {
    assert_eq!(
        Rules::knsb_1988().reserves_visible,
        ReserveVisibility::OnRequest
    );
}

// U11: a player may not hide the pieces his partner captured from the opponent.
#[test]
fn uscf_u11_reserves_public() {
    assert_eq!(
        Rules::uscf_scholastic_2006().reserves_visible,
        ReserveVisibility::Always
    );
}
