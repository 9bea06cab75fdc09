//! Illegal moves: F4.2, M7.3-M7.7, K8C-K8F, U8, U8a, U15a4, U15a5.

use super::*;

#[test]
fn fide_f4_2_illegal_move_claimed_before_moving_wins() {
    let mut t = started(Rulebook::Fide, 300);
    assert_eq!(
        go(&mut t, illegal(Seat::BLACK_A), 500),
        vec![refused(Article::F4_2, Refusal::NoMoveToClaim)]
    );
    press(&mut t, Seat::WHITE_A, 1000);
    assert_eq!(
        go(&mut t, illegal(Seat::BLACK_A), 2000),
        vec![
            d(
                Article::F4_2,
                Consequence::Win {
                    seat: Seat::BLACK_A
                }
            ),
            d(
                Article::F4_3,
                Consequence::MatchOver(MatchResult::Win(Team::Two))
            ),
        ]
    );
}

fn late_illegal_move_claim(book: Rulebook, article: Article) {
    let mut t = started(book, 300);
    press(&mut t, Seat::WHITE_A, 1000);
    press(&mut t, Seat::BLACK_A, 2000);
    assert_eq!(
        go(&mut t, illegal(Seat::BLACK_A), 2500),
        vec![refused(article, Refusal::AlreadyMoved)]
    );
    assert_eq!(t.result(), None);
}

#[test]
fn fide_f4_2_too_late_after_own_move() {
    late_illegal_move_claim(Rulebook::Fide, Article::F4_2);
}

#[test]
fn minerva_m7_5_too_late_after_own_move() {
    late_illegal_move_claim(Rulebook::Minerva2014, Article::M7_5);
}

#[test]
fn knsb_k8c_too_late_after_own_move() {
    late_illegal_move_claim(Rulebook::Knsb1988, Article::K8C);
}

#[test]
fn uscf_u8a_too_late_after_own_move() {
    late_illegal_move_claim(Rulebook::UscfScholastic2006, Article::U8a);
}

#[test]
fn uscf_u8_illegal_move_claimed_in_time_wins() {
    let mut t = started(Rulebook::UscfScholastic2006, 300);
    press(&mut t, Seat::WHITE_B, 1000);
    assert_eq!(
        go(&mut t, illegal(Seat::BLACK_B), 1500),
        vec![
            d(
                Article::U8,
                Consequence::Win {
                    seat: Seat::BLACK_B
                }
            ),
            d(
                Article::U7,
                Consequence::MatchOver(MatchResult::Win(Team::One))
            ),
        ]
    );
}

#[test]
fn uscf_u15a5_simultaneous_claims_the_illegal_mover_loses() {
    let mut t = started(Rulebook::UscfScholastic2006, 2);
    press(&mut t, Seat::WHITE_A, 1000);
    // Black A's flag is down (U15a5: the claims coincide); White A's move was illegal.
    let c = claim(Claim::IllegalMoveWithFlag {
        claimant: Seat::BLACK_A,
    });
    assert_eq!(
        go(&mut t, c, 3500)[0],
        d(
            Article::U15a5,
            Consequence::Win {
                seat: Seat::BLACK_A
            }
        )
    );
    let mut t = started(Rulebook::Fide, 2);
    press(&mut t, Seat::WHITE_A, 1000);
    assert_eq!(
        go(&mut t, c, 3500),
        vec![d(Article::F3_12, Consequence::ArbiterDecides)]
    );
}

#[test]
fn minerva_m7_4_m7_6_replacement_demanded_and_offender_clock_restarted() {
    let mut t = started(Rulebook::Minerva2014, 300);
    press(&mut t, Seat::WHITE_A, 1000);
    assert_eq!(
        go(&mut t, illegal(Seat::BLACK_A), 3000),
        vec![d(
            Article::M7_4,
            Consequence::ReplaceMove {
                offender: Seat::WHITE_A,
                piece_back: None
            }
        )]
    );
    // M7.6: the claimant starts the offender's clock without moving.
    assert_eq!(t.clock().running(BoardId::A), Some(Seat::WHITE_A));
    assert_eq!(t.clock().remaining(Seat::BLACK_A, ms(10_000)), ms(298_000));
    assert_eq!(t.illegal_moves(Seat::WHITE_A), 1);
    press(&mut t, Seat::WHITE_A, 4000);
    assert_eq!(t.clock().running(BoardId::A), Some(Seat::BLACK_A));
}

fn captured(passed: bool, partner_holds: bool) -> Event {
    claim(Claim::IllegalMove {
        claimant: Seat::BLACK_A,
        captured: Some(CapturedPiece {
            role: Role::Knight,
            passed,
            partner_holds,
        }),
    })
}

fn piece_back(book: Rulebook, event: Event) -> Decision {
    let mut t = started(book, 300);
    press(&mut t, Seat::WHITE_A, 1000);
    go(&mut t, event, 2000)[0]
}

fn replace(piece_back: PieceBack) -> Consequence {
    Consequence::ReplaceMove {
        offender: Seat::WHITE_A,
        piece_back: Some(piece_back),
    }
}

#[test]
fn minerva_m7_7_captured_piece_comes_back_from_the_partners_reserve() {
    let book = Rulebook::Minerva2014;
    assert_eq!(
        piece_back(book, captured(true, true)),
        d(
            Article::M7_7,
            replace(PieceBack::FromPartnerReserve(Role::Knight))
        )
    );
    assert_eq!(
        piece_back(book, captured(true, false)),
        d(
            Article::M7_7,
            replace(PieceBack::FromOtherBoard(Role::Knight))
        )
    );
    assert_eq!(
        piece_back(book, captured(false, false)),
        d(Article::M7_4, replace(PieceBack::NotPassed(Role::Knight)))
    );
}

#[test]
fn knsb_k8e_captured_piece_comes_back_from_the_partners_reserve() {
    let book = Rulebook::Knsb1988;
    assert_eq!(
        piece_back(book, captured(true, true)),
        d(
            Article::K8E,
            replace(PieceBack::FromPartnerReserve(Role::Knight))
        )
    );
    assert_eq!(
        piece_back(book, captured(true, false)),
        d(
            Article::K8E,
            replace(PieceBack::FromOtherBoard(Role::Knight))
        )
    );
}

#[test]
fn knsb_k8c_k8f_replacement_then_forfeit_for_repeated_illegal_moves() {
    let mut t = started(Rulebook::Knsb1988, 300);
    press(&mut t, Seat::WHITE_A, 1000);
    assert_eq!(
        go(&mut t, illegal(Seat::BLACK_A), 1500),
        vec![d(
            Article::K8C,
            Consequence::ReplaceMove {
                offender: Seat::WHITE_A,
                piece_back: None
            }
        )]
    );
    assert_eq!(t.clock().running(BoardId::A), Some(Seat::WHITE_A));
    let forfeit = Event::Forfeit {
        seat: Seat::WHITE_A,
        deliberate: false,
    };
    assert_eq!(
        go(&mut t, forfeit, 1600),
        vec![refused(Article::K8F, Refusal::NotRepeated)]
    );
    press(&mut t, Seat::WHITE_A, 2000);
    // A second illegal move: the arbiter may forfeit (K8F).
    assert_eq!(
        go(&mut t, illegal(Seat::BLACK_A), 2500),
        vec![
            d(
                Article::K8C,
                Consequence::ReplaceMove {
                    offender: Seat::WHITE_A,
                    piece_back: None
                }
            ),
            d(
                Article::K8F,
                Consequence::ForfeitPossible {
                    seat: Seat::WHITE_A
                }
            ),
        ]
    );
    assert_eq!(
        go(&mut t, forfeit, 3000)[0],
        d(
            Article::K8F,
            Consequence::Forfeit {
                seat: Seat::WHITE_A
            }
        )
    );
    assert_eq!(
        t.game_end(BoardId::A).map(|e| (e.score, e.article)),
        Some((Score::BlackWins, Article::K8F))
    );
    // K11G: board B goes on.
    assert_eq!(t.result(), None);
    press(&mut t, Seat::WHITE_B, 3500);
}

#[test]
fn knsb_k8f_a_deliberate_illegal_move_may_forfeit_at_once() {
    let mut t = started(Rulebook::Knsb1988, 300);
    let forfeit = Event::Forfeit {
        seat: Seat::BLACK_B,
        deliberate: true,
    };
    assert_eq!(
        go(&mut t, forfeit, 1000),
        vec![d(
            Article::K8F,
            Consequence::Forfeit {
                seat: Seat::BLACK_B
            }
        )]
    );
}

fn take_back(book: Rulebook, before: Decision, after: Decision) {
    let mut t = started(book, 300);
    let c = claim(Claim::TakeBack {
        seat: Seat::WHITE_A,
    });
    assert_eq!(go(&mut t, c, 500), vec![before], "{book}");
    press(&mut t, Seat::WHITE_A, 1000);
    assert_eq!(go(&mut t, c, 1500), vec![after], "{book}");
}

#[test]
fn minerva_m7_3_take_back_before_pressing() {
    take_back(
        Rulebook::Minerva2014,
        d(
            Article::M7_3,
            Consequence::TakeBack {
                seat: Seat::WHITE_A,
            },
        ),
        refused(Article::M7_4, Refusal::AlreadyPressed),
    );
}

#[test]
fn fide_f3_11_move_not_final_until_the_clock_is_pressed() {
    take_back(
        Rulebook::Fide,
        d(
            Article::F3_11,
            Consequence::TakeBack {
                seat: Seat::WHITE_A,
            },
        ),
        refused(Article::F4_2, Refusal::AlreadyPressed),
    );
}

#[test]
fn uscf_u6_move_not_completed_until_the_clock_is_started() {
    take_back(
        Rulebook::UscfScholastic2006,
        d(
            Article::U6,
            Consequence::TakeBack {
                seat: Seat::WHITE_A,
            },
        ),
        refused(Article::U8, Refusal::AlreadyPressed),
    );
}

#[test]
fn knsb_k8d_no_take_back_without_consent() {
    take_back(
        Rulebook::Knsb1988,
        d(Article::K8D, Consequence::ArbiterDecides),
        refused(Article::K8D, Refusal::AlreadyPressed),
    );
}
