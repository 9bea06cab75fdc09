//! The "Clocks" table, and the clock side of "End of a game": flag falls seen from the time
//! passed in, and a waiting player's clock.

use std::time::Duration;

use bughouse_core::{
    BoardId, Color, DrawClaim, EndReason, GameEnd, Match, MatchError, MatchResult, Role, Rules,
    Score, Seat, Team, TimeControl, Verdict,
};

use crate::{at, at_ms, desync_board_b, play, secs, started, started_from, try_play, EPOCH};

// ---------------------------------------------------------------------------------------------
// Row "time control": 5 minutes, no increment
// ---------------------------------------------------------------------------------------------

/// The default time control is 5+0, and every one of the four clocks gets 5 minutes.
fn default_five_minutes(rules: Rules) {
    let tc = TimeControl::default();
    assert_eq!(tc.base, secs(300));
    assert_eq!(tc.increment, Duration::ZERO);
    assert_eq!(tc.to_string(), "5+0");
    assert_eq!("5+0".parse::<TimeControl>(), Ok(tc));
    let mut m = Match::new(rules, tc);
    assert_eq!(m.time_control(), tc);
    m.start(EPOCH).unwrap();
    for seat in Seat::ALL {
        assert_eq!(m.remaining(seat, EPOCH), secs(300), "{seat}");
    }
}

/// Time controls are read in minutes or seconds; nothing longer than 10,000 minutes of base or
/// an hour of increment, no zero base, and no number that is not one.
#[test]
fn time_controls_out_of_range_are_refused() {
    assert_eq!("90s+2".parse::<TimeControl>().map(|t| t.base), Ok(secs(90)));
    assert_eq!("0.5+1".parse::<TimeControl>().map(|t| t.base), Ok(secs(30)));
    assert_eq!(
        "10000+0".parse::<TimeControl>().map(|t| t.base),
        Ok(secs(600_000))
    );
    assert_eq!(
        "600000s+0".parse::<TimeControl>().map(|t| t.base),
        Ok(secs(600_000))
    );
    for bad in [
        "10001+0",
        "600001s+0",
        "18446744073709551615s+0",
        "99999999999999999999s+0",
        "0+0",
        "0s+5",
        "5+3601",
        "NaN+0",
        "inf+0",
        "-1+0",
        "5+-1",
        "5+x",
        "",
    ] {
        assert!(bad.parse::<TimeControl>().is_err(), "{bad:?} was read");
    }
}

// F1: FIDE blitz base; the project's default is 5 minutes.
#[test]
fn fide_f1_default_time_control_5_plus_0() {
    default_five_minutes(Rules::fide());
}

// M6.3: all four players get 5 minutes unless the organiser decides otherwise.
#[test]
fn minerva_m6_3_default_time_control_5_plus_0() {
    default_five_minutes(Rules::minerva_2014());
}

// K (interp.): 5 minutes.
#[test]
fn knsb_interp_default_time_control_5_plus_0() {
    default_five_minutes(Rules::knsb_1988());
}

// U4: game in 5 minutes.
#[test]
fn uscf_u4_default_time_control_5_plus_0() {
    default_five_minutes(Rules::uscf_scholastic_2006());
}

// ---------------------------------------------------------------------------------------------
// Row "start": all four clocks start together; nothing happens before
// ---------------------------------------------------------------------------------------------

/// Before the start nothing runs and every action is refused; the start runs White's clock on
/// both boards at the same instant.
fn all_clocks_start_together(rules: Rules) {
    let mut m = Match::new(rules, TimeControl::default());
    assert!(!m.is_started());
    assert_eq!(
        try_play(&mut m, Seat::WHITE_A, "e2e4", at(1)),
        Err(MatchError::NotStarted)
    );
    assert_eq!(
        try_play(&mut m, Seat::WHITE_B, "e2e4", at(1)),
        Err(MatchError::NotStarted)
    );
    assert_eq!(m.resign(Seat::BLACK_A, at(1)), Err(MatchError::NotStarted));
    assert_eq!(
        m.agree_draw(Seat::BLACK_A, at(1)),
        Err(MatchError::NotStarted)
    );
    assert_eq!(
        m.claim_draw(Seat::WHITE_A, DrawClaim::Repetition, at(1)),
        Err(MatchError::NotStarted)
    );
    // No clock runs: no flag can fall, however much time passes.
    assert!(m.tick(at(10_000)).is_empty());
    for seat in Seat::ALL {
        assert_eq!(m.remaining(seat, at(10_000)), secs(300));
    }
    assert!(m.record().is_empty());

    m.start(at(10)).unwrap();
    assert!(m.is_started());
    assert_eq!(m.start(at(11)), Err(MatchError::AlreadyStarted));
    assert_eq!(m.clock(BoardId::A).running(), Some(Color::White));
    assert_eq!(m.clock(BoardId::B).running(), Some(Color::White));
    assert_eq!(m.remaining(Seat::WHITE_A, at(25)), secs(285));
    assert_eq!(m.remaining(Seat::WHITE_B, at(25)), secs(285));
    assert_eq!(m.remaining(Seat::BLACK_A, at(25)), secs(300));
    assert_eq!(m.remaining(Seat::BLACK_B, at(25)), secs(300));
    play(&mut m, Seat::WHITE_A, "e2e4", at(25));
}

// F3.1: both games start simultaneously.
#[test]
fn fide_f3_1_all_four_clocks_start_together() {
    all_clocks_start_together(Rules::fide());
}

// M6.4: both clocks are started at the same moment by the two Black players.
#[test]
fn minerva_m6_4_all_four_clocks_start_together() {
    all_clocks_start_together(Rules::minerva_2014());
}

// K (interp., as M6.4): both clocks start together.
#[test]
fn knsb_interp_all_four_clocks_start_together() {
    all_clocks_start_together(Rules::knsb_1988());
}

// U (interp., as M6.4): both clocks start together.
#[test]
fn uscf_interp_all_four_clocks_start_together() {
    all_clocks_start_together(Rules::uscf_scholastic_2006());
}

// ---------------------------------------------------------------------------------------------
// Only the mover's clock runs; the increment is added after his move
// ---------------------------------------------------------------------------------------------

/// 3+2: each move charges the time used and adds 2 s; only the clock of the player to move on
/// each board runs.
fn movers_clock_runs_increment_added(rules: Rules) {
    let tc = TimeControl {
        base: secs(180),
        increment: secs(2),
    };
    assert_eq!("3+2".parse::<TimeControl>(), Ok(tc));
    let mut m = Match::new(rules, tc);
    m.start(EPOCH).unwrap();

    let r = play(&mut m, Seat::WHITE_A, "e2e4", at(5));
    assert_eq!(r.clock_left, secs(177), "180 - 5 + 2");
    assert_eq!(m.clock(BoardId::A).running(), Some(Color::Black));
    // White's clock on A stands; Black's runs.
    assert_eq!(m.remaining(Seat::WHITE_A, at(50)), secs(177));
    assert_eq!(m.remaining(Seat::BLACK_A, at(15)), secs(170));
    let r = play(&mut m, Seat::BLACK_A, "e7e5", at(15));
    assert_eq!(r.clock_left, secs(172), "180 - 10 + 2");
    assert_eq!(m.remaining(Seat::BLACK_A, at(40)), secs(172));
    assert_eq!(m.remaining(Seat::WHITE_A, at(20)), secs(172), "177 - 5");

    // Board B has seen no move: White's clock there has run since the start, Black's not.
    assert_eq!(m.remaining(Seat::WHITE_B, at(20)), secs(160));
    assert_eq!(m.remaining(Seat::BLACK_B, at(20)), secs(180));
    let r = play(&mut m, Seat::WHITE_B, "d2d4", at(30));
    assert_eq!(r.clock_left, secs(152), "180 - 30 + 2");
    assert_eq!(m.remaining(Seat::BLACK_B, at(31)), secs(179));
}

// F1 (FIDE blitz base), F3.1: each board's clock runs for the player to move.
#[test]
fn fide_f3_1_movers_clock_runs_increment_added() {
    movers_clock_runs_increment_added(Rules::fide());
}

// M6.3: the organiser may choose another time control; only the mover's clock runs.
#[test]
fn minerva_m6_3_movers_clock_runs_increment_added() {
    movers_clock_runs_increment_added(Rules::minerva_2014());
}

// K2: each board has its clock; only the mover's runs.
#[test]
fn knsb_k2_movers_clock_runs_increment_added() {
    movers_clock_runs_increment_added(Rules::knsb_1988());
}

// U6: a move is completed when the opponent's clock is started.
#[test]
fn uscf_u6_movers_clock_runs_increment_added() {
    movers_clock_runs_increment_added(Rules::uscf_scholastic_2006());
}

// ---------------------------------------------------------------------------------------------
// Flag fall seen from the time passed in: `tick(now)` and at the next action
// ---------------------------------------------------------------------------------------------

/// WhiteA's clock runs from the start and falls at 300 s; WhiteB's, at 301 s. `tick` sees
/// WhiteA's flag exactly at 300 s, not a moment before.
fn flag_seen_by_tick(rules: Rules, first_game_ends_match: bool) {
    let mut m = started(rules);
    desync_board_b(&mut m);
    assert!(m.tick(at_ms(299_999)).is_empty());
    assert_eq!(m.game_end(BoardId::A), None);
    assert_eq!(
        m.remaining(Seat::WHITE_A, at_ms(299_999)),
        Duration::from_millis(1)
    );

    assert_eq!(m.tick(at(300)), vec![BoardId::A]);
    assert_eq!(
        m.game_end(BoardId::A),
        Some(GameEnd {
            score: Score::BlackWins,
            reason: EndReason::Flag,
            seat: Some(Seat::WHITE_A),
            at: at(300),
        })
    );
    assert_eq!(m.remaining(Seat::WHITE_A, at(400)), Duration::ZERO);
    // The flag stopped that board's clock: BlackA's time stands.
    assert_eq!(m.remaining(Seat::BLACK_A, at(400)), secs(300));

    if first_game_ends_match {
        assert_eq!(m.result(), Some(MatchResult::Win(Team::Two)));
        assert_eq!(
            m.game_end(BoardId::B).unwrap().reason,
            EndReason::OtherBoard
        );
        // Board B stopped at 300 s with WhiteB one second from his flag; it never falls.
        assert_eq!(m.remaining(Seat::WHITE_B, at(400)), secs(1));
        assert!(m.tick(at(400)).is_empty());
    } else {
        // K11G: board B plays on; WhiteB's flag falls at 301 s.
        assert_eq!(m.result(), None);
        assert!(m.tick(at_ms(300_999)).is_empty());
        assert_eq!(m.tick(at(301)), vec![BoardId::B]);
        let b = m.game_end(BoardId::B).unwrap();
        assert_eq!(
            (b.score, b.reason, b.at),
            (Score::BlackWins, EndReason::Flag, at(301))
        );
        assert_eq!(m.result(), Some(MatchResult::Draw), "one game each");
    }
}

/// Nobody calls `tick`: the next action, half a second after WhiteA's flag fell, finds it and
/// dates the end to the instant it fell.
fn flag_seen_at_next_action(rules: Rules, first_game_ends_match: bool) {
    let mut m = started(rules);
    desync_board_b(&mut m);
    let late = at_ms(300_500);
    if first_game_ends_match {
        assert_eq!(
            try_play(&mut m, Seat::WHITE_B, "g1f3", late),
            Err(MatchError::MatchOver)
        );
        assert_eq!(m.result(), Some(MatchResult::Win(Team::Two)));
    } else {
        // K11G: WhiteB, whose flag falls only at 301 s, plays on.
        play(&mut m, Seat::WHITE_B, "g1f3", late);
        assert_eq!(
            try_play(&mut m, Seat::WHITE_A, "e2e4", late),
            Err(MatchError::GameOver(BoardId::A))
        );
        assert_eq!(m.result(), None);
    }
    let a = m.game_end(BoardId::A).unwrap();
    assert_eq!(a.reason, EndReason::Flag);
    assert_eq!(a.seat, Some(Seat::WHITE_A));
    assert_eq!(a.at, at(300), "dated to the fall, not to when it was seen");
}

// F1 (FIDE blitz base): a flag fall loses; F4.3: it ends the match.
#[test]
fn fide_f1_flag_fall_seen_by_tick() {
    flag_seen_by_tick(Rules::fide(), true);
}

// F1, F4.3: the flag fall is found at the next action.
#[test]
fn fide_f1_flag_fall_seen_at_next_action() {
    flag_seen_at_next_action(Rules::fide(), true);
}

// M5.2, M5.1: a flag fall loses (the opponent can still receive pieces) and ends the match.
#[test]
fn minerva_m5_2_flag_fall_seen_by_tick() {
    flag_seen_by_tick(Rules::minerva_2014(), true);
}

// M5.2, M5.1: the flag fall is found at the next action.
#[test]
fn minerva_m5_2_flag_fall_seen_at_next_action() {
    flag_seen_at_next_action(Rules::minerva_2014(), true);
}

// K11A2, K11G: a flag fall loses that game; the other is played out.
#[test]
fn knsb_k11a2_flag_fall_seen_by_tick() {
    flag_seen_by_tick(Rules::knsb_1988(), false);
}

// K11A2, K11G: the flag fall is found at the next action; the other game goes on.
#[test]
fn knsb_k11a2_flag_fall_seen_at_next_action() {
    flag_seen_at_next_action(Rules::knsb_1988(), false);
}

// U15a3, U7: a flag fall loses and ends the match.
#[test]
fn uscf_u15a3_flag_fall_seen_by_tick() {
    flag_seen_by_tick(Rules::uscf_scholastic_2006(), true);
}

// U15a3, U7: the flag fall is found at the next action.
#[test]
fn uscf_u15a3_flag_fall_seen_at_next_action() {
    flag_seen_at_next_action(Rules::uscf_scholastic_2006(), true);
}

// ---------------------------------------------------------------------------------------------
// A waiting player's clock runs until a piece arrives or his flag falls (F3.7, U15a1a)
// ---------------------------------------------------------------------------------------------

/// Board A: BlackA is in a distant rook check that only a dropped piece could block, with an
/// empty reserve: he waits (F3.7, U15a1a).
const WAITING_A: &str = "R5k1/5ppp/8/8/8/8/8/6K1[] b - - 0 1";
/// Board B: WhiteB can take a black knight, which goes to BlackA.
const KNIGHT_FOR_BLACK_A: &str = "4k3/8/8/3n4/4P3/8/8/4K3[] w - - 0 1";

/// BlackA waits with his clock running; the game on board B goes on; the knight WhiteB takes
/// arrives and BlackA blocks with it.
fn waiting_until_piece_arrives(rules: Rules) {
    let mut m = started_from(rules, WAITING_A, KNIGHT_FOR_BLACK_A);
    assert_eq!(m.verdict(BoardId::A), Verdict::Waiting);
    assert_eq!(m.game_end(BoardId::A), None);
    assert_eq!(m.clock(BoardId::A).running(), Some(Color::Black));
    // He has no legal move now.
    assert!(matches!(
        try_play(&mut m, Seat::BLACK_A, "g8h8", at(5)),
        Err(MatchError::Illegal(_))
    ));
    assert!(m.tick(at(19)).is_empty());

    play(&mut m, Seat::WHITE_B, "e4d5", at(20));
    assert_eq!(
        m.position(BoardId::A)
            .reserve(Color::Black)
            .count(Role::Knight),
        1
    );
    assert_eq!(m.verdict(BoardId::A), Verdict::Ongoing);
    assert_eq!(
        m.remaining(Seat::BLACK_A, at(20)),
        secs(280),
        "his clock ran while he waited"
    );

    let r = play(&mut m, Seat::BLACK_A, "N@f8", at(30));
    assert_eq!(r.clock_left, secs(270));
    assert_eq!(m.game_end(BoardId::A), None);
    assert_eq!(m.clock(BoardId::A).running(), Some(Color::White));
    assert!(!m.is_over());
}

/// BlackA waits; nothing arrives; his flag falls at 300 s and he loses.
fn waiting_until_flag_falls(rules: Rules) {
    let mut m = started_from(rules, WAITING_A, KNIGHT_FOR_BLACK_A);
    // Quiet moves on board B, so that WhiteB's flag would fall only at 301 s.
    play(&mut m, Seat::WHITE_B, "e1d2", at(1));
    play(&mut m, Seat::BLACK_B, "e8d7", at(2));
    assert!(m.tick(at_ms(299_999)).is_empty());
    assert_eq!(m.verdict(BoardId::A), Verdict::Waiting);
    assert_eq!(m.game_end(BoardId::A), None);
    assert_eq!(m.remaining(Seat::BLACK_A, at(299)), secs(1));

    assert_eq!(m.tick(at(300)), vec![BoardId::A]);
    assert_eq!(
        m.game_end(BoardId::A),
        Some(GameEnd {
            score: Score::WhiteWins,
            reason: EndReason::Flag,
            seat: Some(Seat::BLACK_A),
            at: at(300),
        })
    );
    assert_eq!(m.result(), Some(MatchResult::Win(Team::One)));
}

// F3.7: a player in a check a piece could block is not mated; he waits, on his own time.
#[test]
fn fide_f3_7_waiting_players_clock_runs_until_piece_arrives() {
    waiting_until_piece_arrives(Rules::fide());
}

// F3.7, F1: a waiting player whose flag falls loses.
#[test]
fn fide_f3_7_waiting_players_flag_falls() {
    waiting_until_flag_falls(Rules::fide());
}

// U15a1a: the defender may wait for a piece from his partner "provided their time does not run
// out".
#[test]
fn uscf_u15a1a_waiting_players_clock_runs_until_piece_arrives() {
    waiting_until_piece_arrives(Rules::uscf_scholastic_2006());
}

// U15a1a, U15a3: a waiting player whose flag falls loses.
#[test]
fn uscf_u15a1a_waiting_players_flag_falls() {
    waiting_until_flag_falls(Rules::uscf_scholastic_2006());
}
