//! Set-up: M7.1, M7.2, U8b, U8c; fide and knsb leave it to the arbiter.

use super::*;

fn setup(board: BoardId, fault: SetupFault) -> Event {
    claim(Claim::WrongSetup { board, fault })
}

#[test]
fn minerva_m7_1_wrong_setup_before_blacks_third_move_restarts_both() {
    let mut t = started(Rulebook::Minerva2014, 300);
    for i in 0..2 {
        press(&mut t, Seat::WHITE_B, 1000 + i * 1000);
        press(&mut t, Seat::BLACK_B, 1500 + i * 1000);
    }
    assert_eq!(
        go(&mut t, setup(BoardId::B, SetupFault::Position), 3000),
        vec![d(Article::M7_1, Consequence::RestartBoth)]
    );
    // Both games restart: clocks back to 5 minutes, not running; the Black players start again.
    assert!(!t.clock().is_started());
    assert_eq!(t.clock().remaining(Seat::WHITE_A, ms(9000)), ms(300_000));
    go(&mut t, Event::Start, 10_000);
    for i in 0..3 {
        press(&mut t, Seat::WHITE_B, 11_000 + i * 1000);
        press(&mut t, Seat::BLACK_B, 11_500 + i * 1000);
    }
    assert_eq!(
        go(&mut t, setup(BoardId::B, SetupFault::Position), 14_000),
        vec![refused(Article::M7_1, Refusal::SetupTooLate)]
    );
}

#[test]
fn minerva_m7_2_swapped_colours_restart_both_unless_on_both_boards() {
    let mut t = started(Rulebook::Minerva2014, 300);
    assert_eq!(
        go(
            &mut t,
            setup(BoardId::A, SetupFault::ColoursSwappedOnBothBoards),
            500
        ),
        vec![d(Article::M7_2, Consequence::PlayOn)]
    );
    assert!(t.clock().is_started());
    assert_eq!(
        go(&mut t, setup(BoardId::A, SetupFault::ColoursSwapped), 600),
        vec![d(Article::M7_2, Consequence::RestartBoth)]
    );
    assert!(!t.clock().is_started());
}

#[test]
fn uscf_u8b_u8c_setup_claims_void_once_each_side_has_moved() {
    let mut t = started(Rulebook::UscfScholastic2006, 300);
    press(&mut t, Seat::WHITE_A, 1000);
    press(&mut t, Seat::WHITE_B, 1000);
    assert_eq!(
        go(&mut t, setup(BoardId::A, SetupFault::Position), 1500),
        vec![d(
            Article::U8b,
            Consequence::RestartGame { board: BoardId::A }
        )]
    );
    // Board A starts again; board B goes on.
    assert_eq!(t.clock().running(BoardId::A), Some(Seat::WHITE_A));
    assert_eq!(t.clock().remaining(Seat::WHITE_A, ms(1500)), ms(300_000));
    assert_eq!(t.clock().running(BoardId::B), Some(Seat::BLACK_B));
    press(&mut t, Seat::BLACK_B, 2000);
    assert_eq!(
        go(&mut t, setup(BoardId::B, SetupFault::ColoursSwapped), 2500),
        vec![refused(Article::U8c, Refusal::SetupTooLate)]
    );
}

#[test]
fn fide_and_knsb_setup_left_to_the_arbiter() {
    for (book, article) in [
        (Rulebook::Fide, Article::F3_12),
        (Rulebook::Knsb1988, Article::K15),
    ] {
        let mut t = started(book, 300);
        assert_eq!(
            go(&mut t, setup(BoardId::A, SetupFault::Position), 500),
            vec![d(article, Consequence::ArbiterDecides)]
        );
    }
}
