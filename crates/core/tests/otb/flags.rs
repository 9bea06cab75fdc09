//! Flags: M5.5/M10.2 (declared at once), M5.2, K11A2, K11D, K11E, U15a3, U16b, FIDE 6.9.

use super::*;

/// WhiteB (team Two) falls at 2 s; WhiteA (team One), having pressed at 0.5 s and got the
/// move back at 1 s, falls at 2.5 s.
pub(super) fn one_flag_of_each_team(book: Rulebook) -> Table {
    let mut t = started(book, 2);
    press(&mut t, Seat::WHITE_A, 500);
    press(&mut t, Seat::BLACK_A, 1000);
    t
}

#[test]
fn minerva_m5_5_draw_declared_at_once_when_each_team_has_a_flag_down() {
    let mut t = one_flag_of_each_team(Rulebook::Minerva2014);
    assert_eq!(go(&mut t, Event::Observe, 2200), vec![]);
    assert_eq!(t.result(), None);
    let entries = t.apply(Event::Observe, ms(3000)).unwrap();
    assert_eq!(entries.len(), 1);
    let flag_entry = &entries[0];
    assert_eq!(flag_entry.at, ms(2500));
    assert_eq!(
        flag_entry.decisions,
        vec![
            d(Article::M5_5, Consequence::DrawBoth),
            d(Article::M5_1, Consequence::MatchOver(MatchResult::Draw)),
        ]
    );
    assert_eq!(t.result(), Some(MatchResult::Draw));
    assert_eq!(t.points(Team::One), Some(0.5));
    assert_eq!(
        t.apply(flag(Seat::BLACK_A), ms(4000)).unwrap_err(),
        TableError::MatchOver
    );
}

#[test]
fn knsb_k11a2_flags_of_each_team_need_a_claim() {
    let mut t = one_flag_of_each_team(Rulebook::Knsb1988);
    go(&mut t, Event::Observe, 3000);
    assert_eq!(t.result(), None);
    assert_eq!(t.game_end(BoardId::A), None);
    // The flagged player plays on until his opponent notices (K11A2).
    assert_eq!(
        go(&mut t, flag(Seat::BLACK_A), 3500),
        vec![d(
            Article::K11A2,
            Consequence::Win {
                seat: Seat::BLACK_A
            }
        )]
    );
    // K11G: the match goes on on board B.
    assert_eq!(t.result(), None);
    // Board A is over, so whether White B's opponent could still mate is for the arbiter
    // (K11E); he finds Black B could.
    assert_eq!(
        go(&mut t, flag(Seat::BLACK_B), 4000),
        vec![d(Article::K11E, Consequence::ArbiterDecides)]
    );
    let ruling = Event::Ruling {
        board: BoardId::B,
        ruling: Ruling::Win(Color::Black),
    };
    assert_eq!(
        go(&mut t, ruling, 5000)[1],
        d(Article::K11G, Consequence::MatchOver(MatchResult::Draw))
    );
    assert_eq!(t.points(Team::One), Some(1.0));
}

#[test]
fn minerva_m5_2_flag_claim_wins_while_the_other_game_goes_on() {
    let mut t = started(Rulebook::Minerva2014, 2);
    press(&mut t, Seat::WHITE_B, 100);
    assert_eq!(
        go(&mut t, flag(Seat::BLACK_A), 1000),
        vec![refused(Article::M5_2, Refusal::FlagNotDown)]
    );
    assert_eq!(
        go(&mut t, flag(Seat::BLACK_A), 2000),
        vec![
            d(
                Article::M5_2,
                Consequence::Win {
                    seat: Seat::BLACK_A
                }
            ),
            d(
                Article::M5_1,
                Consequence::MatchOver(MatchResult::Win(Team::Two))
            ),
        ]
    );
    // M5.1: the other board stops at once.
    assert!(t.clock().is_stopped(BoardId::B));
}

#[test]
fn fide_6_9_flag_claim_wins() {
    let mut t = started(Rulebook::Fide, 2);
    assert_eq!(
        go(&mut t, flag(Seat::BLACK_B), 2500),
        vec![
            d(
                Article::FideLaws6_9,
                Consequence::Win {
                    seat: Seat::BLACK_B
                }
            ),
            d(
                Article::F4_3,
                Consequence::MatchOver(MatchResult::Win(Team::One))
            ),
        ]
    );
}

#[test]
fn uscf_u15a3_flag_claim_while_own_flag_is_up_wins() {
    let mut t = started(Rulebook::UscfScholastic2006, 2);
    press(&mut t, Seat::WHITE_A, 1500);
    // White A's flag is up (0.5 s left); Black A's falls at 3.5 s.
    assert_eq!(
        go(&mut t, flag(Seat::WHITE_A), 3600),
        vec![
            d(
                Article::U15a3,
                Consequence::Win {
                    seat: Seat::WHITE_A
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
fn uscf_u16b_second_flag_before_a_claim_draws() {
    let mut t = started(Rulebook::UscfScholastic2006, 2);
    press(&mut t, Seat::WHITE_A, 1500);
    press(&mut t, Seat::BLACK_A, 3000);
    // Black A used 1.5 s and kept 0.5 s; White A runs from 3 s with 0.5 s and falls at 3.5 s.
    // Black A's flag is up: his claim wins.
    assert_eq!(
        go(&mut t, flag(Seat::BLACK_A), 3600)[0],
        d(
            Article::U15a3,
            Consequence::Win {
                seat: Seat::BLACK_A
            }
        )
    );
    let mut t = started(Rulebook::UscfScholastic2006, 2);
    press(&mut t, Seat::WHITE_A, 1500);
    // Black A's flag falls at 3.5 s, nobody claims; he presses with his flag down; White A's
    // flag falls at 4.5 s. Then a flag claim by either is a draw (U16b).
    press(&mut t, Seat::BLACK_A, 4000);
    assert_eq!(
        go(&mut t, flag(Seat::BLACK_A), 5000)[0],
        d(Article::U16b, Consequence::Draw { board: BoardId::A })
    );
}

#[test]
fn knsb_k11d_both_flags_of_a_game_down_draw() {
    let mut t = started(Rulebook::Knsb1988, 2);
    press(&mut t, Seat::WHITE_A, 1500);
    assert_eq!(
        go(
            &mut t,
            claim(Claim::BothFlags {
                claimant: Seat::WHITE_A
            }),
            3600
        ),
        vec![refused(Article::K11D, Refusal::FlagNotDown)]
    );
    press(&mut t, Seat::BLACK_A, 4000);
    assert_eq!(
        go(
            &mut t,
            claim(Claim::BothFlags {
                claimant: Seat::WHITE_A
            }),
            5000
        ),
        vec![d(Article::K11D, Consequence::Draw { board: BoardId::A })]
    );
}

#[test]
fn minerva_m5_5_two_flags_of_one_team_are_no_draw() {
    let mut t = started(Rulebook::Minerva2014, 2);
    press(&mut t, Seat::WHITE_A, 1500);
    press(&mut t, Seat::WHITE_B, 1500);
    press(&mut t, Seat::BLACK_B, 1600);
    // Black A (team Two) falls at 3.5 s, White B (team Two) at 3.1 s; White A and Black B
    // (team One) have time left but their clocks do not run. Two flags of one team: no draw.
    go(&mut t, Event::Observe, 3600);
    assert_eq!(t.result(), None);
    // White A claims Black A's flag: a win (M5.2).
    assert_eq!(
        go(&mut t, flag(Seat::WHITE_A), 3700)[0],
        d(
            Article::M5_2,
            Consequence::Win {
                seat: Seat::WHITE_A
            }
        )
    );
}

fn knsb_after_board_b_resigned() -> Table {
    let mut t = started(Rulebook::Knsb1988, 2);
    let ruling = Event::Ruling {
        board: BoardId::B,
        ruling: Ruling::Win(Color::Black),
    };
    assert_eq!(
        go(&mut t, ruling, 500),
        vec![d(
            Article::K15,
            Consequence::Win {
                seat: Seat::BLACK_B
            }
        )]
    );
    t
}

#[test]
fn knsb_k11e_flag_when_the_other_game_is_over_needs_the_material() {
    // Nothing entered: the arbiter hears the flagged player (K11E).
    let mut t = knsb_after_board_b_resigned();
    assert_eq!(
        go(&mut t, flag(Seat::BLACK_A), 2500),
        vec![d(Article::K11E, Consequence::ArbiterDecides)]
    );
    let ruling = Event::Ruling {
        board: BoardId::A,
        ruling: Ruling::Draw,
    };
    assert_eq!(
        go(&mut t, ruling, 3000)[1],
        d(
            Article::K11G,
            Consequence::MatchOver(MatchResult::Win(Team::One))
        )
    );
    // With the moves entered the engine answers.
    let mut t = knsb_after_board_b_resigned();
    let bare = EngineFacts {
        could_mate: [true, false, true, true],
        ..EngineFacts::default()
    };
    assert_eq!(
        go_with(&mut t, flag(Seat::BLACK_A), 2500, &bare)[0],
        d(Article::K11E, Consequence::Draw { board: BoardId::A })
    );
    let mut t = knsb_after_board_b_resigned();
    let armed = EngineFacts {
        could_mate: [true; 4],
        ..EngineFacts::default()
    };
    assert_eq!(
        go_with(
            &mut t,
            claim(Claim::OpponentCannotMate {
                claimant: Seat::WHITE_A
            }),
            2500,
            &armed
        ),
        vec![refused(Article::K11E, Refusal::OpponentCouldMate)]
    );
    assert_eq!(
        go_with(&mut t, flag(Seat::BLACK_A), 2600, &armed)[0],
        d(
            Article::K11A2,
            Consequence::Win {
                seat: Seat::BLACK_A
            }
        )
    );
}

#[test]
fn all_opponent_cannot_mate_claims_by_rulebook() {
    for (book, expected) in [
        (
            Rulebook::Fide,
            refused(Article::F3_7, Refusal::NotInRulebook),
        ),
        (
            Rulebook::UscfScholastic2006,
            refused(Article::U24, Refusal::NotInRulebook),
        ),
        // M5.2, interp.: the partner's game goes on, so any piece could still come.
        (
            Rulebook::Minerva2014,
            refused(Article::M5_2, Refusal::OpponentCouldMate),
        ),
        (
            Rulebook::Knsb1988,
            refused(Article::K11E, Refusal::OpponentCouldMate),
        ),
    ] {
        let mut t = started(book, 2);
        press(&mut t, Seat::WHITE_B, 100);
        let c = claim(Claim::OpponentCannotMate {
            claimant: Seat::WHITE_A,
        });
        assert_eq!(go(&mut t, c, 2500), vec![expected], "{book}");
    }
    let mut t = started(Rulebook::Knsb1988, 2);
    let c = claim(Claim::OpponentCannotMate {
        claimant: Seat::BLACK_A,
    });
    assert_eq!(
        go(&mut t, c, 2500),
        vec![refused(Article::K11E, Refusal::OwnFlagNotDown)]
    );
}
