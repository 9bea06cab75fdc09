//! The scoresheet: moves entered and checked by the engine answer F4.1 and K11F exactly.

use super::*;

/// `seat` plays `text` on the scoresheet and presses his clock.
fn play(t: &mut Table, seat: Seat, text: &str, at: u64) {
    let mv = t.scoresheet().parse(seat, text).unwrap();
    t.apply(Event::Move(seat, mv), ms(at)).unwrap();
    press(t, seat, at);
}

/// The knights go out and back on board A, `n` times, from `at` ms on, a move each 100 ms: the
/// start position comes back each time. Returns the time after the last move.
fn knight_shuffle(t: &mut Table, n: u64, mut at: u64) -> u64 {
    for _ in 0..n {
        for (seat, text) in [
            (Seat::WHITE_A, "Nf3"),
            (Seat::BLACK_A, "Nf6"),
            (Seat::WHITE_A, "Ng1"),
            (Seat::BLACK_A, "Ng8"),
        ] {
            play(t, seat, text, at);
            at += 100;
        }
    }
    at
}

#[test]
fn fide_f4_1_repetition_decided_from_the_scoresheet() {
    let mut t = started(Rulebook::Fide, 300);
    let at = knight_shuffle(&mut t, 2, 100);
    let c = claim(Claim::Repetition {
        claimant: Seat::WHITE_A,
    });
    // Three times: not yet.
    assert_eq!(
        go(&mut t, c, at),
        vec![refused(Article::F4_1, Refusal::NotEstablished)]
    );
    let at = knight_shuffle(&mut t, 1, at);
    assert_eq!(
        go(&mut t, c, at)[0],
        d(Article::F4_1, Consequence::Draw { board: BoardId::A })
    );
    assert_eq!(t.scoresheet().moves().len(), 12);
    assert_eq!(t.scoresheet().moves()[0].san, "Nf3");
}

#[test]
fn knsb_k11f_thirty_moves_decided_from_the_scoresheet() {
    let mut t = started(Rulebook::Knsb1988, 600);
    // 14 times: 28 moves each; once more: 30.
    let at = knight_shuffle(&mut t, 14, 100);
    let c = claim(Claim::MoveCount {
        claimant: Seat::BLACK_A,
    });
    assert_eq!(
        go(&mut t, c, at),
        vec![refused(Article::K11F, Refusal::NotEstablished)]
    );
    let at = knight_shuffle(&mut t, 1, at);
    assert_eq!(
        go(&mut t, c, at)[0],
        d(Article::K11F, Consequence::Draw { board: BoardId::A })
    );
}

#[test]
fn all_scoresheet_refuses_moves_out_of_turn_or_illegal_and_passes_captures() {
    let mut t = started(Rulebook::Minerva2014, 300);
    assert!(t.scoresheet().parse(Seat::BLACK_A, "e5").is_err());
    assert!(t.scoresheet().parse(Seat::WHITE_A, "e5").is_err());
    assert!(t.scoresheet().parse(Seat::WHITE_A, "N@f3").is_err());
    for (seat, text) in [
        (Seat::WHITE_A, "e4"),
        (Seat::BLACK_A, "d5"),
        (Seat::WHITE_A, "exd5"),
    ] {
        let mv = t.scoresheet().parse(seat, text).unwrap();
        t.apply(Event::Move(seat, mv), ms(100)).unwrap();
    }
    // The pawn taken on board A goes to White A's partner, Black B.
    assert_eq!(
        t.scoresheet()
            .position(BoardId::B)
            .reserve(Color::Black)
            .count(Role::Pawn),
        1
    );
    // UCI is read too; a drop from the reserve once it is his move.
    let mv = t.scoresheet().parse(Seat::WHITE_B, "g1f3").unwrap();
    t.apply(Event::Move(Seat::WHITE_B, mv), ms(200)).unwrap();
    let drop = t.scoresheet().parse(Seat::BLACK_B, "P@e4").unwrap();
    t.apply(Event::Move(Seat::BLACK_B, drop), ms(300)).unwrap();
    let moves: Vec<&str> = t
        .scoresheet()
        .moves()
        .iter()
        .map(|m| m.san.as_str())
        .collect();
    assert_eq!(moves, ["e4", "d5", "exd5", "Nf3", "P@e4"]);
}
