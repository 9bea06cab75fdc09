//! Over-the-board decisions (`bughouse_core::otb`), one scenario per article, under each
//! rulebook where they differ. Time is a fake clock: milliseconds since the table's start,
//! passed with every event. Every test name starts with its rulebook (`fide_`, `minerva_`,
//! `knsb_`, `uscf_`) or `all_`, then the article.

use std::time::Duration;

use bughouse_core::otb::{
    Article, CapturedPiece, Claim, ClockError, Consequence, Decision, EngineFacts, Event,
    PieceBack, Refusal, Rulebook, Ruling, SetupFault, Table, TableError,
};
use bughouse_core::{BoardId, Color, DrawClaim, MatchResult, Role, Score, Seat, Team, TimeControl};

fn ms(n: u64) -> Duration {
    Duration::from_millis(n)
}

/// A table with `secs` seconds per player, started at 0.
fn started(book: Rulebook, secs: u64) -> Table {
    let tc = TimeControl {
        base: Duration::from_secs(secs),
        increment: Duration::ZERO,
    };
    let mut t = Table::new(book, tc);
    t.apply(Event::Start, ms(0)).unwrap();
    t
}

/// The decisions taken on the new entries (flags fallen, then the event).
fn go(t: &mut Table, event: Event, at: u64) -> Vec<Decision> {
    let entries = t.apply(event, ms(at)).unwrap();
    entries.into_iter().flat_map(|e| e.decisions).collect()
}

fn go_with(t: &mut Table, event: Event, at: u64, engine: &EngineFacts) -> Vec<Decision> {
    let entries = t.apply_with(event, ms(at), Some(engine)).unwrap();
    entries.into_iter().flat_map(|e| e.decisions).collect()
}

fn press(t: &mut Table, seat: Seat, at: u64) {
    t.apply(Event::Press(seat), ms(at)).unwrap();
}

fn claim(c: Claim) -> Event {
    Event::Claim(c)
}

fn d(article: Article, consequence: Consequence) -> Decision {
    Decision::new(article, consequence)
}

fn refused(article: Article, why: Refusal) -> Decision {
    Decision::refused(article, why)
}

fn flag(claimant: Seat) -> Event {
    claim(Claim::Flag { claimant })
}

fn illegal(claimant: Seat) -> Event {
    claim(Claim::IllegalMove {
        claimant,
        captured: None,
    })
}

// ---------------------------------------------------------------------------------------------
// Start: M6.4 (the Black players start both clocks), F3.1; interp. K1E, U6
// ---------------------------------------------------------------------------------------------

fn start_runs_both_white_clocks(book: Rulebook, article: Article) {
    let mut t = Table::new(book, TimeControl::default());
    assert_eq!(
        t.apply(Event::Press(Seat::WHITE_A), ms(0)).unwrap_err(),
        TableError::Clock(ClockError::NotStarted)
    );
    assert_eq!(
        go(&mut t, Event::Start, 100),
        vec![d(article, Consequence::Started)]
    );
    for board in BoardId::ALL {
        assert_eq!(
            t.clock().running(board),
            Some(Seat::new(board, Color::White))
        );
    }
    assert_eq!(t.clock().remaining(Seat::WHITE_A, ms(1100)), ms(299_000));
    assert_eq!(t.clock().remaining(Seat::BLACK_B, ms(1100)), ms(300_000));
    assert_eq!(
        t.apply(Event::Start, ms(200)).unwrap_err(),
        TableError::Clock(ClockError::AlreadyStarted)
    );
}

#[test]
fn minerva_m6_4_black_players_start_both_clocks() {
    start_runs_both_white_clocks(Rulebook::Minerva2014, Article::M6_4);
}

#[test]
fn fide_f3_1_both_games_start_together() {
    start_runs_both_white_clocks(Rulebook::Fide, Article::F3_1);
}

#[test]
fn knsb_k1e_both_games_start_together() {
    start_runs_both_white_clocks(Rulebook::Knsb1988, Article::K1E);
}

#[test]
fn uscf_u6_both_games_start_together() {
    start_runs_both_white_clocks(Rulebook::UscfScholastic2006, Article::U6);
}

#[test]
fn all_press_only_by_the_player_on_move_and_time_forward() {
    let mut t = started(Rulebook::Fide, 300);
    assert_eq!(
        t.apply(Event::Press(Seat::BLACK_A), ms(10)).unwrap_err(),
        TableError::Clock(ClockError::NotRunning(Seat::BLACK_A))
    );
    press(&mut t, Seat::WHITE_A, 1000);
    assert_eq!(t.clock().running(BoardId::A), Some(Seat::BLACK_A));
    assert_eq!(t.clock().remaining(Seat::WHITE_A, ms(5000)), ms(299_000));
    assert!(matches!(
        t.apply(Event::Press(Seat::BLACK_A), ms(500)).unwrap_err(),
        TableError::Clock(ClockError::Backwards { .. })
    ));
}

// ---------------------------------------------------------------------------------------------
// Pause for the arbiter: F3.12, M10.1, K15, U18
// ---------------------------------------------------------------------------------------------

fn pause_stops_all_four(book: Rulebook, article: Article) {
    let mut t = started(book, 300);
    press(&mut t, Seat::WHITE_A, 1000);
    assert_eq!(
        go(&mut t, Event::Pause, 2000),
        vec![d(article, Consequence::Paused)]
    );
    assert_eq!(t.clock().running(BoardId::A), None);
    assert_eq!(
        t.apply(Event::Press(Seat::BLACK_A), ms(3000)).unwrap_err(),
        TableError::Clock(ClockError::Paused)
    );
    // A minute of dispute costs nobody anything.
    assert_eq!(t.clock().remaining(Seat::BLACK_A, ms(62_000)), ms(299_000));
    assert_eq!(t.clock().remaining(Seat::WHITE_B, ms(62_000)), ms(298_000));
    assert_eq!(
        go(&mut t, Event::Resume, 62_000),
        vec![d(article, Consequence::Resumed)]
    );
    assert_eq!(t.clock().running(BoardId::A), Some(Seat::BLACK_A));
    assert_eq!(t.clock().running(BoardId::B), Some(Seat::WHITE_B));
    assert_eq!(t.clock().remaining(Seat::BLACK_A, ms(63_000)), ms(298_000));
}

#[test]
fn fide_f3_12_pause_neutralises_both_clocks() {
    pause_stops_all_four(Rulebook::Fide, Article::F3_12);
}

#[test]
fn minerva_m10_1_pause_on_request() {
    pause_stops_all_four(Rulebook::Minerva2014, Article::M10_1);
}

#[test]
fn knsb_k15_pause_for_the_arbiter() {
    pause_stops_all_four(Rulebook::Knsb1988, Article::K15);
}

#[test]
fn uscf_u18_either_player_stops_both_clocks() {
    pause_stops_all_four(Rulebook::UscfScholastic2006, Article::U18);
}

// ---------------------------------------------------------------------------------------------
// Flags: M5.5/M10.2 (declared at once), M5.2, K11A2, K11D, K11E, U15a3, U16b, FIDE 6.9
// ---------------------------------------------------------------------------------------------

/// WhiteB (team Two) falls at 2 s; WhiteA (team One), having pressed at 0.5 s and got the
/// move back at 1 s, falls at 2.5 s.
fn one_flag_of_each_team(book: Rulebook) -> Table {
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

// ---------------------------------------------------------------------------------------------
// Illegal moves: F4.2, M7.3-M7.7, K8C-K8F, U8, U8a, U15a4, U15a5
// ---------------------------------------------------------------------------------------------

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

// ---------------------------------------------------------------------------------------------
// Set-up: M7.1, M7.2, U8b, U8c; fide and knsb leave it to the arbiter
// ---------------------------------------------------------------------------------------------

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

// ---------------------------------------------------------------------------------------------
// Draw claims: F4.1 repetition, K11F 30 moves; refused where the rulebook has none
// ---------------------------------------------------------------------------------------------

#[test]
fn fide_f4_1_repetition_by_the_arbiter_or_the_moves() {
    let mut t = started(Rulebook::Fide, 300);
    let c = claim(Claim::Repetition {
        claimant: Seat::WHITE_A,
    });
    assert_eq!(
        go(&mut t, c, 500),
        vec![d(Article::F4_1, Consequence::ArbiterDecides)]
    );
    let none = EngineFacts::default();
    assert_eq!(
        go_with(&mut t, c, 600, &none),
        vec![refused(Article::F4_1, Refusal::NotEstablished)]
    );
    let fourfold = EngineFacts {
        draw_claims: [vec![DrawClaim::Repetition], vec![]],
        ..EngineFacts::default()
    };
    // Only the player on move claims (as FIDE 9.2).
    let off_move = claim(Claim::Repetition {
        claimant: Seat::BLACK_A,
    });
    assert_eq!(
        go_with(&mut t, off_move, 700, &fourfold),
        vec![refused(Article::F4_1, Refusal::NotEstablished)]
    );
    assert_eq!(
        go_with(&mut t, c, 800, &fourfold)[0],
        d(Article::F4_1, Consequence::Draw { board: BoardId::A })
    );
}

#[test]
fn knsb_k11f_thirty_moves_by_the_arbiter_or_the_moves() {
    let mut t = started(Rulebook::Knsb1988, 300);
    let c = claim(Claim::MoveCount {
        claimant: Seat::BLACK_B,
    });
    assert_eq!(
        go(&mut t, c, 500),
        vec![d(Article::K11F, Consequence::ArbiterDecides)]
    );
    let thirty = EngineFacts {
        draw_claims: [vec![], vec![DrawClaim::MoveCount]],
        ..EngineFacts::default()
    };
    // Either player of the game claims (K11F).
    assert_eq!(
        go_with(&mut t, c, 600, &thirty)[0],
        d(Article::K11F, Consequence::Draw { board: BoardId::B })
    );
}

#[test]
fn all_draw_claims_refused_where_the_rulebook_has_none() {
    let rep = claim(Claim::Repetition {
        claimant: Seat::WHITE_A,
    });
    let count = claim(Claim::MoveCount {
        claimant: Seat::WHITE_A,
    });
    for (book, event, article) in [
        (Rulebook::Minerva2014, rep, Article::M5_4),
        (Rulebook::Knsb1988, rep, Article::K11),
        (Rulebook::UscfScholastic2006, rep, Article::U16),
        (Rulebook::Fide, count, Article::F4),
        (Rulebook::Minerva2014, count, Article::M5_4),
        (Rulebook::UscfScholastic2006, count, Article::U16),
    ] {
        let mut t = started(book, 300);
        assert_eq!(
            go(&mut t, event, 500),
            vec![refused(article, Refusal::NotInRulebook)],
            "{book}"
        );
    }
}

// ---------------------------------------------------------------------------------------------
// The arbiter's ruling and the end of the match: M10.3, K15, U18, F3.12; F4.3, M5.1, U7, K11G
// ---------------------------------------------------------------------------------------------

#[test]
fn all_arbiter_ruling_names_the_arbiter_article_and_ends_the_match_by_rulebook() {
    for (book, article, end) in [
        (Rulebook::Fide, Article::F3_12, Some(Article::F4_3)),
        (Rulebook::Minerva2014, Article::M10_3, Some(Article::M5_1)),
        (Rulebook::Knsb1988, Article::K15, None),
        (
            Rulebook::UscfScholastic2006,
            Article::U18,
            Some(Article::U7),
        ),
    ] {
        let mut t = started(book, 300);
        let ruling = Event::Ruling {
            board: BoardId::A,
            ruling: Ruling::Draw,
        };
        let got = go(&mut t, ruling, 1000);
        assert_eq!(
            got[0],
            d(article, Consequence::Draw { board: BoardId::A }),
            "{book}"
        );
        assert_eq!(
            got.get(1).map(|x| x.article),
            end,
            "{book}: the match ends with the first game unless K11G"
        );
        if end.is_none() {
            assert_eq!(
                go(&mut t, ruling, 1100),
                vec![refused(Article::K15, Refusal::GameOver)]
            );
        }
    }
}

#[test]
fn all_every_claim_and_flag_is_in_the_record_with_its_time() {
    let mut t = one_flag_of_each_team(Rulebook::Knsb1988);
    go(&mut t, flag(Seat::BLACK_A), 3000);
    let kinds: Vec<(Duration, String)> = t
        .record()
        .iter()
        .map(|e| (e.at, format!("{:?}", e.kind)))
        .collect();
    assert_eq!(kinds.len(), 6, "{kinds:?}");
    assert_eq!(kinds[3].0, ms(2000), "White B's flag: {kinds:?}");
    assert_eq!(kinds[4].0, ms(2500), "White A's flag: {kinds:?}");
    assert_eq!(kinds[5].0, ms(3000), "the claim: {kinds:?}");
    assert_eq!(Article::from_code("K11A2"), Some(Article::K11A2));
    for a in Article::ALL {
        assert_eq!(Article::from_code(a.code()), Some(a));
    }
}

// ---------------------------------------------------------------------------------------------
// The scoresheet: moves entered and checked by the engine answer F4.1 and K11F exactly
// ---------------------------------------------------------------------------------------------

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
