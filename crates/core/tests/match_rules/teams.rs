//! "Seating, teams, colours" and the rows of "Moves, drops, promotion" that cross boards: which
//! seats are partners, where a captured piece goes, and the single record of both boards.

use bughouse_core::{BoardId, Color, MatchError, MatchResult, Role, Rules, Score, Seat, Team};

use crate::{at, play, started, started_from, try_play, START};

// ---------------------------------------------------------------------------------------------
// Row "team": WhiteA + BlackB against BlackA + WhiteB
// ---------------------------------------------------------------------------------------------

/// The seats of each team, and a game won by BlackB (on board B) counting for WhiteA's team.
fn teams(rules: Rules, first_game_ends_match: bool) {
    assert_eq!(Team::One.seats(), [Seat::WHITE_A, Seat::BLACK_B]);
    assert_eq!(Team::Two.seats(), [Seat::BLACK_A, Seat::WHITE_B]);
    for seat in Seat::ALL {
        let partner = seat.partner();
        assert_eq!(partner.team(), seat.team(), "{seat} and {partner}");
        assert_ne!(partner.board, seat.board, "partners play on two boards");
        assert_ne!(
            partner.color, seat.color,
            "White on one board, Black on the other"
        );
        assert_ne!(seat.opponent().team(), seat.team());
        assert_eq!(seat.opponent().board, seat.board);
    }
    assert_eq!(Seat::WHITE_A.partner(), Seat::BLACK_B);
    assert_eq!(Seat::BLACK_A.partner(), Seat::WHITE_B);

    // WhiteB resigns on move: BlackB's win counts for Team One (WhiteA + BlackB).
    let mut m = started(rules);
    assert_eq!(m.to_move(BoardId::B), Seat::WHITE_B);
    m.resign(Seat::WHITE_B, at(1)).unwrap();
    assert_eq!(m.game_end(BoardId::B).unwrap().score, Score::BlackWins);
    if first_game_ends_match {
        assert_eq!(m.result(), Some(MatchResult::Win(Team::One)));
    } else {
        // knsb-1988 plays board A out: BlackA resigns too, on move.
        assert_eq!(m.result(), None);
        play(&mut m, Seat::WHITE_A, "e2e4", at(2));
        m.resign(Seat::BLACK_A, at(3)).unwrap();
        assert_eq!(m.result(), Some(MatchResult::Win(Team::One)));
        // K11G: each game scores on its own.
        assert_eq!(m.points(Team::One), Some(2.0));
        assert_eq!(m.points(Team::Two), Some(0.0));
        return;
    }
    assert_eq!(m.points(Team::One), Some(1.0));
    assert_eq!(m.points(Team::Two), Some(0.0));
}

// F2.1: each team has White on one board and Black on the other.
#[test]
fn fide_f2_1_teams_white_a_black_b_against_black_a_white_b() {
    teams(Rules::fide(), true);
}

// M1.2: two players side by side, one at each board.
#[test]
fn minerva_m1_2_teams_white_a_black_b_against_black_a_white_b() {
    teams(Rules::minerva_2014(), true);
}

// K1B, K1D: two players, one at each board; the partner has the other colour.
#[test]
fn knsb_k1d_teams_white_a_black_b_against_black_a_white_b() {
    teams(Rules::knsb_1988(), false);
}

// U1, U3: two players; the team decides who plays White and who Black.
#[test]
fn uscf_u3_teams_white_a_black_b_against_black_a_white_b() {
    teams(Rules::uscf_scholastic_2006(), true);
}

// ---------------------------------------------------------------------------------------------
// Row "captured piece goes to": the partner's reserve, in the partner's colour
// ---------------------------------------------------------------------------------------------

/// Captures on either board go into the partner's reserve on the other board, of his colour,
/// and he can drop them.
fn capture_goes_to_partner(rules: Rules) {
    let mut m = started(rules);
    play(&mut m, Seat::WHITE_A, "e2e4", at(1));
    play(&mut m, Seat::BLACK_A, "d7d5", at(2));
    // WhiteA takes a black pawn: it goes to BlackB, not to anyone on board A.
    play(&mut m, Seat::WHITE_A, "e4d5", at(3));
    assert_eq!(
        m.position(BoardId::B)
            .reserve(Color::Black)
            .count(Role::Pawn),
        1
    );
    assert!(m.position(BoardId::B).reserve(Color::White).is_empty());
    assert!(m.position(BoardId::A).reserve(Color::White).is_empty());
    assert!(m.position(BoardId::A).reserve(Color::Black).is_empty());

    // BlackA takes back with the queen: the white pawn goes to WhiteB.
    play(&mut m, Seat::BLACK_A, "d8d5", at(4));
    assert_eq!(
        m.position(BoardId::B)
            .reserve(Color::White)
            .count(Role::Pawn),
        1
    );
    assert!(m.position(BoardId::A).reserve(Color::White).is_empty());

    // On board B: WhiteB takes a black pawn, which goes to BlackA on board A.
    play(&mut m, Seat::WHITE_B, "e2e4", at(5));
    play(&mut m, Seat::BLACK_B, "d7d5", at(6));
    play(&mut m, Seat::WHITE_B, "e4d5", at(7));
    assert_eq!(
        m.position(BoardId::A)
            .reserve(Color::Black)
            .count(Role::Pawn),
        1
    );
    assert_eq!(
        m.position(BoardId::B)
            .reserve(Color::Black)
            .count(Role::Pawn),
        1
    );

    // BlackB drops the pawn his partner took on board A.
    let r = play(&mut m, Seat::BLACK_B, "P@d6", at(8));
    assert!(r.mv.is_drop());
    assert!(m.position(BoardId::B).reserve(Color::Black).is_empty());
    assert_eq!(
        m.position(BoardId::B).piece_at("d6".parse().unwrap()),
        Some(Color::Black.pawn())
    );
}

// F3.2: every captured piece is given to the partner, of his colour.
#[test]
fn fide_f3_2_capture_goes_to_partner_reserve() {
    capture_goes_to_partner(Rules::fide());
}

// M2.1, M2.2: the captured piece is passed to the partner, who may drop it.
#[test]
fn minerva_m2_1_capture_goes_to_partner_reserve() {
    capture_goes_to_partner(Rules::minerva_2014());
}

// K3, K4B: the captured piece is passed to the partner, who may drop it.
#[test]
fn knsb_k3_capture_goes_to_partner_reserve() {
    capture_goes_to_partner(Rules::knsb_1988());
}

// U9, U10: the captured piece is passed to the partner, who may drop it.
#[test]
fn uscf_u9_capture_goes_to_partner_reserve() {
    capture_goes_to_partner(Rules::uscf_scholastic_2006());
}

// ---------------------------------------------------------------------------------------------
// Row "promoted piece captured": passed on as a pawn
// ---------------------------------------------------------------------------------------------

/// WhiteA promotes to a queen with check; BlackA's rook takes it: WhiteB receives a pawn. A
/// real queen taken on board B reaches BlackA as a queen.
fn promoted_piece_passes_as_pawn(rules: Rules) {
    let mut m = started_from(
        rules,
        "r5k1/4P3/8/8/8/8/8/6K1[] w - - 0 1",
        "4k3/8/8/8/8/8/1q6/1R2K3[] w - - 0 1",
    );
    play(&mut m, Seat::WHITE_A, "e7e8q", at(1));
    assert!(m
        .position(BoardId::A)
        .promoted()
        .contains("e8".parse().unwrap()));
    play(&mut m, Seat::BLACK_A, "a8e8", at(2));
    let white_b = m.position(BoardId::B).reserve(Color::White);
    assert_eq!(
        white_b.count(Role::Pawn),
        1,
        "the promoted queen passes as a pawn"
    );
    assert_eq!(white_b.count(Role::Queen), 0);

    // An unpromoted queen passes as a queen: WhiteB takes one, BlackA receives it.
    play(&mut m, Seat::WHITE_B, "b1b2", at(3));
    let black_a = m.position(BoardId::A).reserve(Color::Black);
    assert_eq!(black_a.count(Role::Queen), 1);
    assert_eq!(black_a.count(Role::Pawn), 0);
}

// F3.6: a captured promoted pawn is handed over as a pawn.
#[test]
fn fide_f3_6_promoted_piece_passes_as_pawn() {
    promoted_piece_passes_as_pawn(Rules::fide());
}

// M3.3: a captured promoted pawn gets the value of a pawn again.
#[test]
fn minerva_m3_3_promoted_piece_passes_as_pawn() {
    promoted_piece_passes_as_pawn(Rules::minerva_2014());
}

// K6B: a captured promoted pawn gets the value of a pawn again.
#[test]
fn knsb_k6b_promoted_piece_passes_as_pawn() {
    promoted_piece_passes_as_pawn(Rules::knsb_1988());
}

// U10c: a captured promoted pawn reverts to a pawn.
#[test]
fn uscf_u10c_promoted_piece_passes_as_pawn() {
    promoted_piece_passes_as_pawn(Rules::uscf_scholastic_2006());
}

// ---------------------------------------------------------------------------------------------
// Row "match": the two games of one pairing, one record in the order moves were made
// ---------------------------------------------------------------------------------------------

/// Moves on both boards keep the one order in which they were made; refused moves leave no
/// trace.
fn record_keeps_one_order(rules: Rules) {
    let mut m = started_from(rules, START, START);
    play(&mut m, Seat::WHITE_A, "e2e4", at(1));
    play(&mut m, Seat::WHITE_B, "d2d4", at(2));
    play(&mut m, Seat::BLACK_B, "d7d5", at(4));
    // Refused: not BlackB's move, and an illegal move.
    assert_eq!(
        try_play(&mut m, Seat::BLACK_B, "e7e5", at(5)),
        Err(MatchError::NotYourTurn(Seat::BLACK_B))
    );
    assert!(matches!(
        try_play(&mut m, Seat::BLACK_A, "e7e4", at(5)),
        Err(MatchError::Illegal(_))
    ));
    play(&mut m, Seat::BLACK_A, "e7e5", at(7));
    play(&mut m, Seat::WHITE_A, "g1f3", at(8));

    let rec = m.record();
    let seats: Vec<Seat> = rec.iter().map(|r| r.seat).collect();
    assert_eq!(
        seats,
        [
            Seat::WHITE_A,
            Seat::WHITE_B,
            Seat::BLACK_B,
            Seat::BLACK_A,
            Seat::WHITE_A
        ]
    );
    let sans: Vec<&str> = rec.iter().map(|r| r.san.as_str()).collect();
    assert_eq!(sans, ["e4", "d4", "d5", "e5", "Nf3"]);
    let numbers: Vec<u32> = rec.iter().map(|r| r.number).collect();
    assert_eq!(numbers, [1, 1, 1, 1, 2]);
    let times: Vec<_> = rec.iter().map(|r| r.at).collect();
    assert_eq!(times, [at(1), at(2), at(4), at(7), at(8)]);
    // Time left after each move: WhiteB used 2 s, BlackB 2 s, BlackA 6 s.
    assert_eq!(rec[1].clock_left, crate::secs(298));
    assert_eq!(rec[2].clock_left, crate::secs(298));
    assert_eq!(rec[3].clock_left, crate::secs(294));
    assert_eq!(m.game_end(BoardId::A), None);
    assert!(!m.is_over());
}

// F2.2: a match is the two games played on the two boards.
#[test]
fn fide_f2_2_record_keeps_one_order() {
    record_keeps_one_order(Rules::fide());
}

// M1.1: bughouse is played on two boards side by side.
#[test]
fn minerva_m1_1_record_keeps_one_order() {
    record_keeps_one_order(Rules::minerva_2014());
}

// K1A: bughouse is played on two boards side by side.
#[test]
fn knsb_k1a_record_keeps_one_order() {
    record_keeps_one_order(Rules::knsb_1988());
}

// U2: each team plays two games, one per player.
#[test]
fn uscf_u2_record_keeps_one_order() {
    record_keeps_one_order(Rules::uscf_scholastic_2006());
}
