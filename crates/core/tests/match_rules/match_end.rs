//! The "End of a match, scoring" table: when the match ends, what the other board does, the
//! result, points, and games ending at the same instant (F4.3, F4.4).

use bughouse_core::{
    BoardId, Color, EndReason, GameEnd, Match, MatchError, MatchResult, Role, Rules, Score, Seat,
    Team,
};

use crate::{at, at_ms, play, secs, started_from, try_play, START};

/// WhiteA mates with Qa1-g7#.
const MATE_IN_ONE_A: &str = "6k1/8/7K/8/8/8/8/Q7[] w - - 0 1";

/// Board B plays 1.e4 e5 (1 s, 2 s); WhiteA mates on board A at 10 s. Returns the match.
fn mate_on_a_at_ten(rules: Rules) -> Match {
    let mut m = started_from(rules, MATE_IN_ONE_A, START);
    play(&mut m, Seat::WHITE_B, "e2e4", at(1));
    play(&mut m, Seat::BLACK_B, "e7e5", at(2));
    play(&mut m, Seat::WHITE_A, "a1g7", at(10));
    assert_eq!(
        m.game_end(BoardId::A).map(|e| (e.score, e.reason)),
        Some((Score::WhiteWins, EndReason::Checkmate))
    );
    m
}

/// The first game to end ends the match: board B stops at once, its clock stands, no move is
/// accepted there and no flag falls; the match takes the result of board A; 1 / 0 points.
fn first_game_ends_match(rules: Rules) {
    let mut m = mate_on_a_at_ten(rules);
    assert!(m.is_over());
    assert_eq!(m.result(), Some(MatchResult::Win(Team::One)));
    assert_eq!(m.ended_at(), Some(at(10)));
    assert_eq!(
        m.game_end(BoardId::B),
        Some(GameEnd {
            score: Score::Draw,
            reason: EndReason::OtherBoard,
            seat: None,
            at: at(10),
        })
    );
    // WhiteB had 299 s after 1.e4 and ran from 2 s to 10 s: 291 s, frozen.
    assert_eq!(m.clock(BoardId::B).running(), None);
    assert_eq!(m.remaining(Seat::WHITE_B, at(10)), secs(291));
    assert_eq!(m.remaining(Seat::WHITE_B, at(1_000)), secs(291));
    assert_eq!(
        try_play(&mut m, Seat::WHITE_B, "g1f3", at(11)),
        Err(MatchError::MatchOver)
    );
    assert_eq!(m.resign(Seat::WHITE_B, at(11)), Err(MatchError::MatchOver));
    assert_eq!(
        m.agree_draw(Seat::WHITE_B, at(11)),
        Err(MatchError::MatchOver)
    );
    assert!(m.tick(at(1_000)).is_empty());
    assert_eq!(
        m.game_end(BoardId::B).unwrap().reason,
        EndReason::OtherBoard
    );
    assert_eq!(m.record().len(), 3);
    assert_eq!(m.points(Team::One), Some(1.0));
    assert_eq!(m.points(Team::Two), Some(0.0));
}

// F4.3: as soon as one game ends the match is over; the other board stops at once.
#[test]
fn fide_f4_3_first_game_to_end_ends_match() {
    first_game_ends_match(Rules::fide());
}

// M5.1, M8.1, M8.2: the match ends as soon as one game ends; it scores the first finished game.
#[test]
fn minerva_m5_1_first_game_to_end_ends_match() {
    first_game_ends_match(Rules::minerva_2014());
}

// U7: the match is over as soon as one player wins.
#[test]
fn uscf_u7_first_game_to_end_ends_match() {
    first_game_ends_match(Rules::uscf_scholastic_2006());
}

// K11G: the match is over when both games have ended; each game scores on its own.
#[test]
fn knsb_k11g_both_games_played_out() {
    let mut m = mate_on_a_at_ten(Rules::knsb_1988());
    assert!(!m.is_over());
    assert_eq!(m.result(), None);
    assert_eq!(m.ended_at(), None);
    assert_eq!(m.points(Team::One), None);
    assert_eq!(m.game_end(BoardId::B), None);
    // Board B's clock runs on: WhiteB from 2 s.
    assert_eq!(m.clock(BoardId::B).running(), Some(Color::White));
    assert_eq!(m.remaining(Seat::WHITE_B, at(20)), secs(281));
    assert_eq!(
        try_play(&mut m, Seat::BLACK_A, "g8h8", at(11)),
        Err(MatchError::GameOver(BoardId::A))
    );
    play(&mut m, Seat::WHITE_B, "g1f3", at(20));
    play(&mut m, Seat::BLACK_B, "b8c6", at(21));
    // Game B drawn by its two players (K11C).
    assert_eq!(m.agree_draw(Seat::WHITE_B, at(22)), Ok(false));
    assert_eq!(m.agree_draw(Seat::BLACK_B, at(23)), Ok(true));
    assert!(m.is_over());
    assert_eq!(m.ended_at(), Some(at(23)));
    // Team One: 1 (won A) + 1/2 (drew B); Team Two: 0 + 1/2.
    assert_eq!(m.points(Team::One), Some(1.5));
    assert_eq!(m.points(Team::Two), Some(0.5));
    assert_eq!(m.result(), Some(MatchResult::Win(Team::One)));
    assert_eq!(
        try_play(&mut m, Seat::WHITE_B, "f1c4", at(24)),
        Err(MatchError::MatchOver)
    );
}

// K11G, K11A: each game scores 1 / 1/2 / 0 on its own: 2 - 0 when one team wins both, 1 - 1
// when each wins one.
#[test]
fn knsb_k11g_points_per_game() {
    let mut m = mate_on_a_at_ten(Rules::knsb_1988());
    // WhiteB (Team Two) resigns on move: BlackB (Team One) wins B too.
    m.resign(Seat::WHITE_B, at(20)).unwrap();
    assert_eq!(m.result(), Some(MatchResult::Win(Team::One)));
    assert_eq!(m.points(Team::One), Some(2.0));
    assert_eq!(m.points(Team::Two), Some(0.0));

    let mut m = mate_on_a_at_ten(Rules::knsb_1988());
    play(&mut m, Seat::WHITE_B, "g1f3", at(20));
    m.resign(Seat::BLACK_B, at(21)).unwrap();
    assert_eq!(m.game_end(BoardId::B).unwrap().score, Score::WhiteWins);
    assert_eq!(m.points(Team::One), Some(1.0));
    assert_eq!(m.points(Team::Two), Some(1.0));
    assert_eq!(m.result(), Some(MatchResult::Draw));
}

// ---------------------------------------------------------------------------------------------
// Games ending at the same instant (F4.3, F4.4)
// ---------------------------------------------------------------------------------------------

/// Board A: WhiteA takes the knight on a5 with b4xa5 (it goes to BlackB); then BlackA mates
/// with the smothered Ne4-f2#.
const TAKE_THEN_MATED_A: &str = "6k1/5ppp/8/n7/1P2n3/8/6PP/6RK[] w - - 0 1";
/// Board B: BlackB to move, waiting for the knight to mate with N@f2# (smothered).
const SMOTHER_B: &str = "6k1/5ppp/8/8/8/8/6PP/6RK[] b - - 0 1";
/// Board B: WhiteB to move with Qa1-g7#.
const MATE_IN_ONE_B: &str = "6k1/8/7K/8/8/8/8/Q7[] w - - 0 1";

// F4.4: WhiteA takes a piece that lets his partner mate at once, but is mated himself at the
// same instant: both games end simultaneously, won by different teams: F4.3 a draw.
#[test]
fn fide_f4_4_mates_at_the_same_instant_draw() {
    let mut m = started_from(Rules::fide(), TAKE_THEN_MATED_A, SMOTHER_B);
    play(&mut m, Seat::WHITE_A, "b4a5", at(1));
    assert_eq!(
        m.position(BoardId::B)
            .reserve(Color::Black)
            .count(Role::Knight),
        1
    );
    let r = play(&mut m, Seat::BLACK_A, "e4f2", at(3));
    assert_eq!(r.san, "Nf2#");
    assert_eq!(m.result(), Some(MatchResult::Win(Team::Two)));
    // BlackB completes his move at the instant the match ended: it counts.
    let r = play(&mut m, Seat::BLACK_B, "N@f2", at(3));
    assert_eq!(r.san, "N@f2#");
    assert_eq!(r.clock_left, secs(297), "board B's clock stopped at 3 s");
    let b = m.game_end(BoardId::B).unwrap();
    assert_eq!(
        (b.score, b.reason, b.at),
        (Score::BlackWins, EndReason::Checkmate, at(3))
    );
    assert_eq!(m.result(), Some(MatchResult::Draw));
    assert_eq!(m.points(Team::One), Some(0.5));
    assert_eq!(m.ended_at(), Some(at(3)));
}

// F4.3: both games end simultaneously and the same team won both: it wins the match.
#[test]
fn fide_f4_3_mates_at_the_same_instant_same_team_wins() {
    let mut m = started_from(Rules::fide(), TAKE_THEN_MATED_A, MATE_IN_ONE_B);
    play(&mut m, Seat::WHITE_A, "b4a5", at(1));
    play(&mut m, Seat::BLACK_A, "e4f2", at(3));
    play(&mut m, Seat::WHITE_B, "a1g7", at(3));
    assert_eq!(
        m.game_end(BoardId::B).map(|e| (e.score, e.reason)),
        Some((Score::WhiteWins, EndReason::Checkmate))
    );
    // BlackA and WhiteB: Team Two.
    assert_eq!(m.result(), Some(MatchResult::Win(Team::Two)));
    assert_eq!(m.points(Team::Two), Some(1.0));
}

// F4.3: the match is over "even if after that his opponent's partner finds a mate in one move":
// a moment later the mate no longer counts.
#[test]
fn fide_f4_3_mate_after_the_match_ended_is_refused() {
    let mut m = started_from(Rules::fide(), TAKE_THEN_MATED_A, SMOTHER_B);
    play(&mut m, Seat::WHITE_A, "b4a5", at(1));
    play(&mut m, Seat::BLACK_A, "e4f2", at(3));
    assert_eq!(
        try_play(&mut m, Seat::BLACK_B, "N@f2", at_ms(3_001)),
        Err(MatchError::MatchOver)
    );
    assert_eq!(m.result(), Some(MatchResult::Win(Team::Two)));
    assert_eq!(
        m.game_end(BoardId::B).unwrap().reason,
        EndReason::OtherBoard
    );
}

// F4.3, F4.4: only the one move being made at that instant may be completed; if it does not end
// the game, the result stands and nothing more is played.
#[test]
fn fide_f4_4_only_one_move_at_the_instant_the_match_ended() {
    let mut m = started_from(Rules::fide(), TAKE_THEN_MATED_A, SMOTHER_B);
    play(&mut m, Seat::WHITE_A, "b4a5", at(1));
    play(&mut m, Seat::BLACK_A, "e4f2", at(3));
    // A quiet drop, not mate.
    play(&mut m, Seat::BLACK_B, "N@c6", at(3));
    assert_eq!(
        m.game_end(BoardId::B).unwrap().reason,
        EndReason::OtherBoard
    );
    assert_eq!(m.result(), Some(MatchResult::Win(Team::Two)));
    assert_eq!(
        try_play(&mut m, Seat::WHITE_B, "g1f1", at(3)),
        Err(MatchError::MatchOver)
    );
    assert_eq!(m.record().len(), 3);
}

// F4.3: a flag fall and a mate at the same instant on the two boards, won by different teams: a
// draw.
#[test]
fn fide_f4_3_flag_and_mate_at_the_same_instant_draw() {
    // Board A from the start: WhiteA's flag falls at 300 s, Team Two wins A. Board B: WhiteB
    // plays Rf1-g1 at 1 s; BlackB (Team One), whose flag would fall at 301 s, holds a knight.
    let mut m = started_from(
        Rules::fide(),
        START,
        "6k1/5ppp/8/8/8/8/6PP/5R1K[n] w - - 0 1",
    );
    play(&mut m, Seat::WHITE_B, "f1g1", at(1));
    assert_eq!(m.tick(at(300)), vec![BoardId::A]);
    assert_eq!(m.result(), Some(MatchResult::Win(Team::Two)));
    let r = play(&mut m, Seat::BLACK_B, "N@f2", at(300));
    assert_eq!(r.san, "N@f2#");
    let a = m.game_end(BoardId::A).unwrap();
    let b = m.game_end(BoardId::B).unwrap();
    assert_eq!((a.reason, a.at), (EndReason::Flag, at(300)));
    assert_eq!((b.reason, b.at), (EndReason::Checkmate, at(300)));
    assert_eq!(m.result(), Some(MatchResult::Draw));
}
