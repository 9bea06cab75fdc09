//! Starting and pausing the clocks: M6.4 (the Black players start both clocks), F3.1, K1E,
//! U6; the pause for the arbiter: F3.12, M10.1, K15, U18.

use super::*;

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
