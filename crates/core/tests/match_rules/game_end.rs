//! The "End of a game" table, played through the two-board match: checkmate, no legal move,
//! flag fall, both flags, resignation, draw by agreement, draw claims.

use bughouse_core::{
    BoardId, Color, DrawClaim, EndReason, GameEnd, Match, MatchError, MatchResult, Rules, Score,
    Seat, Team, Verdict,
};

use crate::{at, desync_board_b, play, secs, started, started_from, try_play, START};

// ---------------------------------------------------------------------------------------------
// Row "checkmate"
// ---------------------------------------------------------------------------------------------

/// WhiteA mates with a contact check: Qa1-g7#, the queen guarded by the king on h6.
const CONTACT_MATE_A: &str = "6k1/8/7K/8/8/8/8/Q7[] w - - 0 1";
/// WhiteA checks along the back rank with Ra1-a8: blockable by a dropped piece on b8-f8, but
/// Black has nothing to drop now.
const BACK_RANK_A: &str = "6k1/5ppp/8/8/8/8/8/R5K1[] w - - 0 1";

/// A contact mate ends the game on board A, won by WhiteA, at the instant of the move.
fn checkmate_ends_game(rules: Rules, first_game_ends_match: bool) {
    let mut m = started_from(rules, CONTACT_MATE_A, START);
    let r = play(&mut m, Seat::WHITE_A, "a1g7", at(10));
    assert_eq!(r.san, "Qg7#");
    assert_eq!(m.verdict(BoardId::A), Verdict::Checkmate);
    assert_eq!(
        m.game_end(BoardId::A),
        Some(GameEnd {
            score: Score::WhiteWins,
            reason: EndReason::Checkmate,
            seat: Some(Seat::BLACK_A),
            at: at(10),
        })
    );
    assert_eq!(m.clock(BoardId::A).running(), None);
    if first_game_ends_match {
        assert_eq!(m.result(), Some(MatchResult::Win(Team::One)));
    } else {
        assert_eq!(m.result(), None);
        assert_eq!(m.game_end(BoardId::B), None);
    }
}

// F3.7: a contact check that no piece can answer is mate.
#[test]
fn fide_f3_7_contact_checkmate_ends_game() {
    checkmate_ends_game(Rules::fide(), true);
}

// M1.6 (FIDE base): checkmate wins; M5.1 it ends the match.
#[test]
fn minerva_m1_6_checkmate_ends_game() {
    checkmate_ends_game(Rules::minerva_2014(), true);
}

// K11A1: the player who is mated loses; K11G the other game goes on.
#[test]
fn knsb_k11a1_checkmate_ends_game() {
    checkmate_ends_game(Rules::knsb_1988(), false);
}

// U15a1: mate wins; U7 it ends the match.
#[test]
fn uscf_u15a1_checkmate_ends_game() {
    checkmate_ends_game(Rules::uscf_scholastic_2006(), true);
}

/// The back-rank check Ra8: under F3.7 and U15a1a BlackA waits for a piece (the game goes on,
/// his clock runs); under the FIDE base of M and K it is mate.
fn distant_check(rules: Rules, is_mate: bool) {
    let mut m = started_from(rules, BACK_RANK_A, START);
    let r = play(&mut m, Seat::WHITE_A, "a1a8", at(10));
    if is_mate {
        assert_eq!(r.san, "Ra8#");
        let end = m.game_end(BoardId::A).expect("mate ends the game");
        assert_eq!(
            (end.score, end.reason),
            (Score::WhiteWins, EndReason::Checkmate)
        );
    } else {
        assert_eq!(r.san, "Ra8+");
        assert_eq!(m.verdict(BoardId::A), Verdict::Waiting);
        assert_eq!(m.game_end(BoardId::A), None);
        assert_eq!(m.result(), None);
        // The game goes on: BlackA's clock runs, board B plays.
        assert_eq!(m.remaining(Seat::BLACK_A, at(40)), secs(270));
        play(&mut m, Seat::WHITE_B, "e2e4", at(41));
        assert_eq!(m.game_end(BoardId::A), None);
    }
}

// F3.7: not mate if a piece he could ever receive could block: he waits.
#[test]
fn fide_f3_7_distant_check_is_waiting_not_mate() {
    distant_check(Rules::fide(), false);
}

// M1.6 (interp., FIDE base): in check with no legal move with the reserve he has now is mate.
#[test]
fn minerva_m1_6_distant_check_without_blocker_is_mate() {
    distant_check(Rules::minerva_2014(), true);
}

// K1E (interp., FIDE base): in check with no legal move with the reserve he has now is mate.
#[test]
fn knsb_k1e_distant_check_without_blocker_is_mate() {
    distant_check(Rules::knsb_1988(), true);
}

// U15a1a: a check by a piece that is not a knight and not in contact, with no material to
// block: the defender may wait for his partner.
#[test]
fn uscf_u15a1a_distant_check_is_waiting_not_mate() {
    distant_check(Rules::uscf_scholastic_2006(), false);
}

// ---------------------------------------------------------------------------------------------
// Row "no legal move, not in check"
// ---------------------------------------------------------------------------------------------

/// Qf1-f7 leaves BlackA (king h8) with no legal move and no check.
const STALEMATE_A: &str = "7k/8/6K1/8/8/8/8/5Q2[] w - - 0 1";

/// Under the FIDE base (M, K): stalemate, a draw of that game.
fn no_move_is_stalemate(rules: Rules, first_game_ends_match: bool) {
    let mut m = started_from(rules, STALEMATE_A, START);
    play(&mut m, Seat::WHITE_A, "f1f7", at(10));
    let end = m.game_end(BoardId::A).expect("stalemate ends the game");
    assert_eq!(
        (end.score, end.reason, end.at),
        (Score::Draw, EndReason::Stalemate, at(10))
    );
    if first_game_ends_match {
        assert_eq!(m.result(), Some(MatchResult::Draw));
        assert_eq!(m.points(Team::One), Some(0.5));
        assert_eq!(m.points(Team::Two), Some(0.5));
    } else {
        assert_eq!(m.result(), None);
        play(&mut m, Seat::WHITE_B, "e2e4", at(11));
    }
}

/// Under F3.7 (and U by analogy): he waits for a piece, on his own time.
fn no_move_waits(rules: Rules) {
    let mut m = started_from(rules, STALEMATE_A, START);
    play(&mut m, Seat::WHITE_A, "f1f7", at(10));
    assert_eq!(m.verdict(BoardId::A), Verdict::Waiting);
    assert_eq!(m.game_end(BoardId::A), None);
    assert_eq!(m.clock(BoardId::A).running(), Some(Color::Black));
    play(&mut m, Seat::WHITE_B, "e2e4", at(11));
    assert!(!m.is_over());
}

// F3.7: not stalemate, since a piece could come: he waits.
#[test]
fn fide_f3_7_no_move_is_not_stalemate() {
    no_move_waits(Rules::fide());
}

// M1.6 (interp., FIDE base): stalemate is a draw, and M5.1 ends the match.
#[test]
fn minerva_m1_6_no_move_is_stalemate() {
    no_move_is_stalemate(Rules::minerva_2014(), true);
}

// K1E (interp., FIDE base): stalemate is a draw of that game; K11G the other goes on.
#[test]
fn knsb_k1e_no_move_is_stalemate() {
    no_move_is_stalemate(Rules::knsb_1988(), false);
}

// U15a1a (interp., by analogy): he waits for a piece.
#[test]
fn uscf_u15a1a_no_move_is_not_stalemate() {
    no_move_waits(Rules::uscf_scholastic_2006());
}

// ---------------------------------------------------------------------------------------------
// Rows "flag fall" and "insufficient material"
// ---------------------------------------------------------------------------------------------

/// Board A with BlackA to move and his clock running: WhiteA has a bare king, BlackA plenty.
const WHITE_BARE_KING: &str = "4k3/pppppppp/8/8/8/8/8/4K3[] b - - 0 1";

/// BlackA's flag falls at 300 s while board B is still being played (WhiteB's flag would fall
/// at 301 s). WhiteA has a bare king, but his partner can still pass him pieces: a loss.
fn flag_against_bare_king_while_other_game_goes_on(rules: Rules, first_game_ends_match: bool) {
    let mut m = started_from(rules, WHITE_BARE_KING, START);
    desync_board_b(&mut m);
    // No insufficient-material draw of its own (F3.7, M5.4, K11E, U24): the game goes on.
    assert_eq!(m.verdict(BoardId::A), Verdict::Ongoing);
    assert!(
        m.could_ever_mate(Seat::WHITE_A),
        "BlackB can still pass him pieces"
    );
    assert_eq!(m.tick(at(300)), vec![BoardId::A]);
    let end = m.game_end(BoardId::A).unwrap();
    assert_eq!(
        (end.score, end.reason, end.seat),
        (Score::WhiteWins, EndReason::Flag, Some(Seat::BLACK_A))
    );
    if first_game_ends_match {
        assert_eq!(m.result(), Some(MatchResult::Win(Team::One)));
    } else {
        assert_eq!(m.result(), None);
    }
}

// F1 (blitz base), F3.7: a flag fall loses, even against a bare king: no insufficient material.
#[test]
fn fide_f3_7_flag_fall_loses_even_against_bare_king() {
    flag_against_bare_king_while_other_game_goes_on(Rules::fide(), true);
}

// M5.2: a loss unless the opponent could never win counting what he could still receive from
// his partner; while the other game goes on he always could: a loss.
#[test]
fn minerva_m5_2_flag_fall_loses_while_other_game_goes_on() {
    flag_against_bare_king_while_other_game_goes_on(Rules::minerva_2014(), true);
}

// K11E: while the partner's game goes on, pieces may still come: a loss.
#[test]
fn knsb_k11e_flag_fall_loses_while_other_game_goes_on() {
    flag_against_bare_king_while_other_game_goes_on(Rules::knsb_1988(), false);
}

// U15a3, U24: a flag fall loses; no insufficient-losing-chances claims.
#[test]
fn uscf_u24_flag_fall_loses_even_against_bare_king() {
    flag_against_bare_king_while_other_game_goes_on(Rules::uscf_scholastic_2006(), true);
}

/// knsb-1988: WhiteB resigns on move at 1 s, ending board B (BlackB, Team One, wins it); then
/// BlackA's flag falls at 300 s on board A set up as `fen_a` (Black to move). Returns the
/// match.
fn knsb_flag_after_other_game_ended(fen_a: &str) -> Match {
    let mut m = started_from(Rules::knsb_1988(), fen_a, START);
    m.resign(Seat::WHITE_B, at(1)).unwrap();
    assert_eq!(m.game_end(BoardId::B).unwrap().score, Score::BlackWins);
    assert_eq!(m.result(), None);
    assert!(m.tick(at(299)).is_empty());
    assert_eq!(m.tick(at(300)), vec![BoardId::A]);
    assert!(m.is_over());
    m
}

// K11E: the other game is over, so nothing more can come; WhiteA has a bare king and could never
// mate: BlackA's flag fall is a draw.
#[test]
fn knsb_k11e_flag_fall_draw_against_bare_king_after_other_game_ended() {
    let m = knsb_flag_after_other_game_ended(WHITE_BARE_KING);
    assert!(!m.could_ever_mate(Seat::WHITE_A));
    assert_eq!(
        m.game_end(BoardId::A),
        Some(GameEnd {
            score: Score::Draw,
            reason: EndReason::FlagOpponentCannotMate,
            seat: Some(Seat::BLACK_A),
            at: at(300),
        })
    );
    // K11G: each game on its own: Team One won B and drew A.
    assert_eq!(m.points(Team::One), Some(1.5));
    assert_eq!(m.points(Team::Two), Some(0.5));
    assert_eq!(m.result(), Some(MatchResult::Win(Team::One)));
}

// K11E: king and one minor piece against a bare king can never mate: a draw.
#[test]
fn knsb_k11e_flag_fall_draw_king_and_minor_against_bare_king() {
    for fen in [
        "4k3/8/8/8/8/8/8/2N1K3[] b - - 0 1",
        "4k3/8/8/8/8/8/8/2B1K3[] b - - 0 1",
    ] {
        let m = knsb_flag_after_other_game_ended(fen);
        let end = m.game_end(BoardId::A).unwrap();
        assert_eq!(
            (end.score, end.reason),
            (Score::Draw, EndReason::FlagOpponentCannotMate),
            "{fen}"
        );
    }
}

// K11E: with a pawn (or a rook in reserve, or a knight against a king with a pawn) the opponent
// could mate by some sequence of moves: the flag fall loses.
#[test]
fn knsb_k11e_flag_fall_loses_when_opponent_could_mate() {
    for fen in [
        "4k3/8/8/8/8/8/4P3/4K3[] b - - 0 1",
        "4k3/8/8/8/8/8/8/4K3[R] b - - 0 1",
        "4k3/4p3/8/8/8/8/8/2N1K3[] b - - 0 1",
    ] {
        let m = knsb_flag_after_other_game_ended(fen);
        assert!(m.could_ever_mate(Seat::WHITE_A), "{fen}");
        let end = m.game_end(BoardId::A).unwrap();
        assert_eq!(
            (end.score, end.reason),
            (Score::WhiteWins, EndReason::Flag),
            "{fen}"
        );
        // Team One won both: WhiteA on time, BlackB by resignation.
        assert_eq!(m.points(Team::One), Some(2.0), "{fen}");
        assert_eq!(m.result(), Some(MatchResult::Win(Team::One)), "{fen}");
    }
}

// ---------------------------------------------------------------------------------------------
// Row "both flags down"
// ---------------------------------------------------------------------------------------------

/// Both boards from the start: WhiteA (Team One) and WhiteB (Team Two) both run out at 300 s,
/// the same instant: a clock of each team is down.
fn flags_of_each_team_at_once(rules: Rules, reason: EndReason) {
    let mut m = started(rules);
    let mut ended = m.tick(at(300));
    ended.sort();
    assert_eq!(ended, vec![BoardId::A, BoardId::B]);
    for board in BoardId::ALL {
        let end = m.game_end(board).unwrap();
        assert_eq!((end.reason, end.at), (reason, at(300)), "{board}");
    }
    assert_eq!(m.result(), Some(MatchResult::Draw));
    assert_eq!(m.points(Team::One), m.points(Team::Two));
}

/// Board A from the start, board B after 1.e4: WhiteA and BlackB, both of Team One, run out at
/// 300 s. Team Two wins, under every preset.
fn flags_of_one_team_at_once(rules: Rules, team_two_points: f32) {
    let mut m = started_from(
        rules,
        START,
        "rnbqkbnr/pppppppp/8/8/4P3/8/PPPP1PPP/RNBQKBNR[] b KQkq - 0 1",
    );
    let mut ended = m.tick(at(300));
    ended.sort();
    assert_eq!(ended, vec![BoardId::A, BoardId::B]);
    let a = m.game_end(BoardId::A).unwrap();
    let b = m.game_end(BoardId::B).unwrap();
    assert_eq!((a.score, a.reason), (Score::BlackWins, EndReason::Flag));
    assert_eq!((b.score, b.reason), (Score::WhiteWins, EndReason::Flag));
    assert_eq!(m.result(), Some(MatchResult::Win(Team::Two)));
    assert_eq!(m.points(Team::Two), Some(team_two_points));
}

/// WhiteA runs out at 300 s, WhiteB (the other team) would at 301 s. Not both flags of one game:
/// the first flag decides (or, under K11G, each game on its own), never a both-flags draw. The
/// flagged player's opponent's clock stopped with the game: his flag never falls.
fn flags_of_each_team_one_after_the_other(rules: Rules, first_game_ends_match: bool) {
    let mut m = started(rules);
    desync_board_b(&mut m);
    m.tick(at(10_000));
    let a = m.game_end(BoardId::A).unwrap();
    assert_eq!(
        (a.score, a.reason, a.at),
        (Score::BlackWins, EndReason::Flag, at(300))
    );
    assert_eq!(m.remaining(Seat::BLACK_A, at(10_000)), secs(300));
    let b = m.game_end(BoardId::B).unwrap();
    if first_game_ends_match {
        assert_eq!(b.reason, EndReason::OtherBoard);
        assert_eq!(m.remaining(Seat::WHITE_B, at(10_000)), secs(1));
        assert_eq!(m.result(), Some(MatchResult::Win(Team::Two)));
    } else {
        assert_eq!(
            (b.score, b.reason, b.at),
            (Score::BlackWins, EndReason::Flag, at(301))
        );
        assert_eq!(m.points(Team::One), Some(1.0));
        assert_eq!(m.result(), Some(MatchResult::Draw));
    }
}

// F4.3: two flags at the same instant on both boards, won by different teams: a draw.
#[test]
fn fide_f4_3_flags_of_each_team_at_once_draw() {
    flags_of_each_team_at_once(Rules::fide(), EndReason::Flag);
}

// F4.3: two flags at the same instant, the same team won both: it wins.
#[test]
fn fide_f4_3_flags_of_one_team_at_once_other_team_wins() {
    flags_of_one_team_at_once(Rules::fide(), 1.0);
}

// F1 (blitz base: both flags of one game), F4.3: flags of each team one after the other are not
// a both-flags draw; the first decides.
#[test]
fn fide_f4_3_flags_one_after_the_other_first_decides() {
    flags_of_each_team_one_after_the_other(Rules::fide(), true);
}

// M5.5, M10.2: a clock of each team down, on either board, at once: a draw, declared at once.
#[test]
fn minerva_m5_5_flags_of_each_team_at_once_draw() {
    flags_of_each_team_at_once(Rules::minerva_2014(), EndReason::BothFlags);
}

// M5.5: two flags of one team are not "at least one clock of each team": the other team wins.
#[test]
fn minerva_m5_5_flags_of_one_team_at_once_not_a_draw() {
    flags_of_one_team_at_once(Rules::minerva_2014(), 1.0);
}

// M5.1: the first flag ends the match before the other team's flag can fall.
#[test]
fn minerva_m5_1_flags_one_after_the_other_first_decides() {
    flags_of_each_team_one_after_the_other(Rules::minerva_2014(), true);
}

// K11D concerns the two flags of one game; K11G: flags on the two boards at once score each
// game on its own, one each.
#[test]
fn knsb_k11g_flags_of_each_team_at_once_each_game_scored() {
    flags_of_each_team_at_once(Rules::knsb_1988(), EndReason::Flag);
}

// K11G: both games lost on time by Team One: Team Two scores 2.
#[test]
fn knsb_k11g_flags_of_one_team_at_once_each_game_scored() {
    flags_of_one_team_at_once(Rules::knsb_1988(), 2.0);
}

// K11D: only both flags of one game draw it; flags on different boards lose each game.
#[test]
fn knsb_k11d_flags_one_after_the_other_each_game_lost() {
    flags_of_each_team_one_after_the_other(Rules::knsb_1988(), false);
}

// U7 (interp., U16b): flags at the same instant on both boards, different teams: a draw.
#[test]
fn uscf_u7_flags_of_each_team_at_once_draw() {
    flags_of_each_team_at_once(Rules::uscf_scholastic_2006(), EndReason::Flag);
}

// U15a3, U7: both flags of one team at once: the other team wins.
#[test]
fn uscf_u15a3_flags_of_one_team_at_once_other_team_wins() {
    flags_of_one_team_at_once(Rules::uscf_scholastic_2006(), 1.0);
}

// U16b concerns both flags of one game; U7: the first win ends the match.
#[test]
fn uscf_u16b_flags_one_after_the_other_first_decides() {
    flags_of_each_team_one_after_the_other(Rules::uscf_scholastic_2006(), true);
}

// ---------------------------------------------------------------------------------------------
// Row "resignation"
// ---------------------------------------------------------------------------------------------

/// WhiteA resigns after his own move, not on move: his game is lost and the match is over.
/// BlackB resigning on board B off move does the same for his team.
fn resign_any_time_ends_match(rules: Rules) {
    let mut m = started(rules);
    play(&mut m, Seat::WHITE_A, "e2e4", at(1));
    assert_eq!(m.to_move(BoardId::A), Seat::BLACK_A);
    m.resign(Seat::WHITE_A, at(5)).unwrap();
    assert_eq!(
        m.game_end(BoardId::A),
        Some(GameEnd {
            score: Score::BlackWins,
            reason: EndReason::Resignation,
            seat: Some(Seat::WHITE_A),
            at: at(5),
        })
    );
    assert_eq!(m.result(), Some(MatchResult::Win(Team::Two)));
    assert_eq!(
        m.game_end(BoardId::B).unwrap().reason,
        EndReason::OtherBoard
    );
    assert_eq!(
        try_play(&mut m, Seat::WHITE_B, "e2e4", at(6)),
        Err(MatchError::MatchOver)
    );
    assert_eq!(m.resign(Seat::BLACK_B, at(6)), Err(MatchError::MatchOver));
    assert_eq!(m.points(Team::Two), Some(1.0));
    assert_eq!(m.points(Team::One), Some(0.0));

    let mut m = started(rules);
    m.resign(Seat::BLACK_B, at(1)).unwrap();
    assert_eq!(m.game_end(BoardId::B).unwrap().score, Score::WhiteWins);
    assert_eq!(m.result(), Some(MatchResult::Win(Team::Two)));
}

// F1 (FIDE base): a player may resign at any time; F4.3 it ends the match.
#[test]
fn fide_f1_resign_any_time_ends_match() {
    resign_any_time_ends_match(Rules::fide());
}

// M1.6 (FIDE base): a player may resign at any time; M5.1 it ends the match.
#[test]
fn minerva_m1_6_resign_any_time_ends_match() {
    resign_any_time_ends_match(Rules::minerva_2014());
}

// U15a2: a game is won by the player whose opponent resigns, at any time; U7 ends the match.
#[test]
fn uscf_u15a2_resign_any_time_ends_match() {
    resign_any_time_ends_match(Rules::uscf_scholastic_2006());
}

// K11B: a player may resign only when it is his move.
#[test]
fn knsb_k11b_resign_only_on_move() {
    let mut m = started(Rules::knsb_1988());
    play(&mut m, Seat::WHITE_A, "e2e4", at(1));
    assert_eq!(
        m.resign(Seat::WHITE_A, at(2)),
        Err(MatchError::ResignNotOnMove(Seat::WHITE_A))
    );
    assert_eq!(
        m.resign(Seat::BLACK_B, at(2)),
        Err(MatchError::ResignNotOnMove(Seat::BLACK_B))
    );
    assert_eq!(m.game_end(BoardId::A), None);
    assert_eq!(m.game_end(BoardId::B), None);
    m.resign(Seat::BLACK_A, at(3)).unwrap();
    assert_eq!(
        m.game_end(BoardId::A).map(|e| (e.score, e.reason)),
        Some((Score::WhiteWins, EndReason::Resignation))
    );
}

// K11B, K11G: a resignation ends only that game; the other is played to its end.
#[test]
fn knsb_k11g_resignation_ends_only_that_game() {
    let mut m = started(Rules::knsb_1988());
    m.resign(Seat::WHITE_A, at(1)).unwrap();
    assert_eq!(m.result(), None);
    assert_eq!(m.game_end(BoardId::B), None);
    assert_eq!(
        m.resign(Seat::WHITE_A, at(2)),
        Err(MatchError::GameOver(BoardId::A))
    );
    assert_eq!(
        try_play(&mut m, Seat::WHITE_A, "e2e4", at(2)),
        Err(MatchError::GameOver(BoardId::A))
    );
    play(&mut m, Seat::WHITE_B, "e2e4", at(3));
    m.resign(Seat::BLACK_B, at(4)).unwrap();
    // BlackA (Team Two) won A, WhiteB (Team Two) won B.
    assert_eq!(m.result(), Some(MatchResult::Win(Team::Two)));
    assert_eq!(m.points(Team::Two), Some(2.0));
    assert_eq!(m.points(Team::One), Some(0.0));
    assert_eq!(m.ended_at(), Some(at(4)));
}

// ---------------------------------------------------------------------------------------------
// Row "draw by agreement"
// ---------------------------------------------------------------------------------------------

/// All four must agree (F4.5: both of one team offer, both of the other accept; M5.3); the draw
/// decides the match. A move by a player who has not agreed lapses the offer; a move by one who
/// has does not.
fn draw_needs_all_four(rules: Rules) {
    let mut m = started(rules);
    assert_eq!(m.agree_draw(Seat::WHITE_A, at(1)), Ok(false));
    assert_eq!(m.agree_draw(Seat::BLACK_B, at(2)), Ok(false));
    assert_eq!(m.agree_draw(Seat::BLACK_A, at(3)), Ok(false));
    assert!(m.game_end(BoardId::A).is_none());
    assert_eq!(m.agree_draw(Seat::WHITE_B, at(4)), Ok(true));
    for board in BoardId::ALL {
        let end = m.game_end(board).unwrap();
        assert_eq!(
            (end.score, end.reason, end.at),
            (Score::Draw, EndReason::Agreement, at(4))
        );
    }
    assert_eq!(m.result(), Some(MatchResult::Draw));
    assert_eq!(m.points(Team::One), Some(0.5));
    assert_eq!(m.points(Team::Two), Some(0.5));
    assert_eq!(
        m.agree_draw(Seat::WHITE_A, at(5)),
        Err(MatchError::MatchOver)
    );

    // Lapse: WhiteA and BlackB offer; WhiteA moves (he has agreed: the offer stands); WhiteB
    // moves instead of accepting: the offer lapses.
    let mut m = started(rules);
    m.agree_draw(Seat::WHITE_A, at(1)).unwrap();
    m.agree_draw(Seat::BLACK_B, at(1)).unwrap();
    play(&mut m, Seat::WHITE_A, "e2e4", at(2));
    assert!(m.draw_offered(Seat::WHITE_A));
    play(&mut m, Seat::WHITE_B, "e2e4", at(3));
    assert!(!m.draw_offered(Seat::WHITE_A));
    assert!(!m.draw_offered(Seat::BLACK_B));
    assert_eq!(m.agree_draw(Seat::BLACK_A, at(4)), Ok(false));
    assert_eq!(m.agree_draw(Seat::WHITE_B, at(5)), Ok(false));
    assert!(!m.is_over());
}

// F4.5: both players of one team offer, both of the other accept; it decides the match.
#[test]
fn fide_f4_5_draw_needs_all_four_and_decides_match() {
    draw_needs_all_four(Rules::fide());
}

// M5.3: a draw may be agreed only if all four players agree.
#[test]
fn minerva_m5_3_draw_needs_all_four_and_decides_match() {
    draw_needs_all_four(Rules::minerva_2014());
}

// K11C: the two players of one game agree; it ends that game at once; K11G the other goes on.
#[test]
fn knsb_k11c_draw_between_the_two_players_of_that_game() {
    let mut m = started(Rules::knsb_1988());
    assert_eq!(m.agree_draw(Seat::WHITE_A, at(1)), Ok(false));
    // The players of board B have no say in game A.
    assert_eq!(m.agree_draw(Seat::WHITE_B, at(2)), Ok(false));
    assert_eq!(m.game_end(BoardId::A), None);
    assert_eq!(m.agree_draw(Seat::BLACK_A, at(3)), Ok(true));
    let a = m.game_end(BoardId::A).unwrap();
    assert_eq!(
        (a.score, a.reason, a.at),
        (Score::Draw, EndReason::Agreement, at(3))
    );
    assert_eq!(m.game_end(BoardId::B), None);
    assert_eq!(m.result(), None);
    // WhiteB's offer in game B still stands; BlackB accepts.
    assert!(m.draw_offered(Seat::WHITE_B));
    assert_eq!(m.agree_draw(Seat::BLACK_B, at(4)), Ok(true));
    assert_eq!(m.result(), Some(MatchResult::Draw));
    assert_eq!(m.points(Team::One), Some(1.0));
    assert_eq!(m.points(Team::Two), Some(1.0));
}

// K11C: an offer lapses when the opponent in that game moves instead of accepting; moves in the
// other game do not touch it.
#[test]
fn knsb_k11c_draw_offer_lapses_only_by_a_move_in_that_game() {
    let mut m = started(Rules::knsb_1988());
    play(&mut m, Seat::WHITE_A, "e2e4", at(1));
    m.agree_draw(Seat::WHITE_A, at(2)).unwrap();
    // Moves on board B: the offer in game A stands.
    play(&mut m, Seat::WHITE_B, "e2e4", at(3));
    play(&mut m, Seat::BLACK_B, "e7e5", at(4));
    assert!(m.draw_offered(Seat::WHITE_A));
    // BlackA moves instead of accepting: it lapses.
    play(&mut m, Seat::BLACK_A, "e7e5", at(5));
    assert!(!m.draw_offered(Seat::WHITE_A));
    assert_eq!(m.agree_draw(Seat::BLACK_A, at(6)), Ok(false));

    // A new offer on A survives a move on B and is accepted.
    let mut m = started(Rules::knsb_1988());
    m.agree_draw(Seat::WHITE_A, at(1)).unwrap();
    play(&mut m, Seat::WHITE_B, "e2e4", at(2));
    assert_eq!(m.agree_draw(Seat::BLACK_A, at(3)), Ok(true));
    assert_eq!(m.game_end(BoardId::A).unwrap().reason, EndReason::Agreement);
}

// K11C: a draw agreed in game B does not withdraw an offer pending in game A.
#[test]
fn knsb_k11c_draw_in_one_game_keeps_offer_in_other() {
    let mut m = started(Rules::knsb_1988());
    m.agree_draw(Seat::WHITE_A, at(1)).unwrap();
    m.agree_draw(Seat::WHITE_B, at(2)).unwrap();
    assert_eq!(m.agree_draw(Seat::BLACK_B, at(3)), Ok(true));
    assert_eq!(m.game_end(BoardId::B).unwrap().reason, EndReason::Agreement);
    assert!(m.draw_offered(Seat::WHITE_A));
    assert_eq!(m.agree_draw(Seat::BLACK_A, at(4)), Ok(true));
    assert_eq!(m.result(), Some(MatchResult::Draw));
}

// U16a: a draw by agreement between the teams; interp.: one player speaks for each team.
#[test]
fn uscf_u16a_draw_between_the_teams() {
    let rules = Rules::uscf_scholastic_2006();
    // WhiteA offers for Team One; his partner need not; WhiteB accepts for Team Two.
    let mut m = started(rules);
    assert_eq!(m.agree_draw(Seat::WHITE_A, at(1)), Ok(false));
    assert_eq!(m.agree_draw(Seat::BLACK_B, at(2)), Ok(false), "same team");
    assert_eq!(m.agree_draw(Seat::WHITE_B, at(3)), Ok(true));
    for board in BoardId::ALL {
        assert_eq!(m.game_end(board).unwrap().reason, EndReason::Agreement);
    }
    assert_eq!(m.result(), Some(MatchResult::Draw));
    assert_eq!(m.points(Team::One), Some(0.5));

    // BlackA answers on board A just as well.
    let mut m = started(rules);
    m.agree_draw(Seat::WHITE_A, at(1)).unwrap();
    assert_eq!(m.agree_draw(Seat::BLACK_A, at(2)), Ok(true));
    assert_eq!(m.result(), Some(MatchResult::Draw));
}

// U16a: the offer lapses when a player of the team asked moves instead of accepting; the
// offering player's partner moving on does not withdraw his team's offer.
#[test]
fn uscf_u16a_draw_offer_lapses_by_a_move_of_the_other_team() {
    let rules = Rules::uscf_scholastic_2006();
    let mut m = started(rules);
    play(&mut m, Seat::WHITE_B, "e2e4", at(1));
    m.agree_draw(Seat::WHITE_A, at(2)).unwrap();
    // BlackB, WhiteA's partner, moves: Team One's offer stands.
    play(&mut m, Seat::BLACK_B, "e7e5", at(3));
    assert!(m.draw_offered(Seat::WHITE_A));
    // WhiteB, of the team asked, moves instead of accepting: it lapses.
    play(&mut m, Seat::WHITE_B, "g1f3", at(4));
    assert!(!m.draw_offered(Seat::WHITE_A));
    assert_eq!(m.agree_draw(Seat::BLACK_A, at(5)), Ok(false));
    assert!(!m.is_over());

    // Offer, partner moves, the other team accepts: a draw.
    let mut m = started(rules);
    play(&mut m, Seat::WHITE_B, "e2e4", at(1));
    m.agree_draw(Seat::WHITE_A, at(2)).unwrap();
    play(&mut m, Seat::BLACK_B, "e7e5", at(3));
    assert_eq!(m.agree_draw(Seat::WHITE_B, at(4)), Ok(true));
    assert_eq!(m.result(), Some(MatchResult::Draw));
}

// ---------------------------------------------------------------------------------------------
// Rows "repetition" and "move-count rule": draw claims
// ---------------------------------------------------------------------------------------------

/// Plays plies `plies` of the knight shuffle Nf3 Nf6 Ng1 Ng8 ... on board A, ply `i` at
/// `i + 1` seconds.
fn knight_shuffle(m: &mut Match, plies: std::ops::Range<usize>) {
    const CYCLE: [(Seat, &str); 4] = [
        (Seat::WHITE_A, "g1f3"),
        (Seat::BLACK_A, "g8f6"),
        (Seat::WHITE_A, "f3g1"),
        (Seat::BLACK_A, "f6g8"),
    ];
    for i in plies {
        let (seat, uci) = CYCLE[i % CYCLE.len()];
        play(m, seat, uci, at(i as u64 + 1));
    }
}

/// `seat` claims `claim` at `now`, which must be refused as not available.
fn claim_refused(m: &mut Match, seat: Seat, claim: DrawClaim, now: std::time::Duration) {
    assert_eq!(
        m.claim_draw(seat, claim, now),
        Err(MatchError::NoSuchClaim { seat, claim })
    );
    assert_eq!(m.game_end(seat.board), None);
}

// F4.1: a draw may be claimed when the same position has occurred 4 times on one board; the
// player on move claims; the match is drawn (F4.3).
#[test]
fn fide_f4_1_repetition_claim() {
    let mut m = started(Rules::fide());
    knight_shuffle(&mut m, 0..8);
    // The start position has occurred 3 times: not yet.
    claim_refused(&mut m, Seat::WHITE_A, DrawClaim::Repetition, at(9));
    knight_shuffle(&mut m, 8..12);
    // 4 times now; only the player on move claims.
    claim_refused(&mut m, Seat::BLACK_A, DrawClaim::Repetition, at(13));
    claim_refused(&mut m, Seat::WHITE_A, DrawClaim::MoveCount, at(13));
    m.claim_draw(Seat::WHITE_A, DrawClaim::Repetition, at(13))
        .unwrap();
    assert_eq!(
        m.game_end(BoardId::A),
        Some(GameEnd {
            score: Score::Draw,
            reason: EndReason::Repetition,
            seat: Some(Seat::WHITE_A),
            at: at(13),
        })
    );
    assert_eq!(m.result(), Some(MatchResult::Draw));
    assert_eq!(
        m.game_end(BoardId::B).unwrap().reason,
        EndReason::OtherBoard
    );
}

// F (none listed): no move-count claim, even after 30 quiet moves each.
#[test]
fn fide_f4_no_move_count_claim() {
    let mut m = started(Rules::fide());
    knight_shuffle(&mut m, 0..60);
    claim_refused(&mut m, Seat::WHITE_A, DrawClaim::MoveCount, at(61));
}

/// No draw claim of either kind: repetition after 16 occurrences, 30 quiet moves each.
fn no_draw_claims(rules: Rules) {
    let mut m = started(rules);
    knight_shuffle(&mut m, 0..60);
    claim_refused(&mut m, Seat::WHITE_A, DrawClaim::Repetition, at(61));
    claim_refused(&mut m, Seat::WHITE_A, DrawClaim::MoveCount, at(61));
    assert!(!m.is_over());
}

// M5.4: no draw claims under FIDE 9.2-9.6.
#[test]
fn minerva_m5_4_no_draw_claims() {
    no_draw_claims(Rules::minerva_2014());
}

// U16: draws only by agreement or flags: no claims.
#[test]
fn uscf_u16_no_draw_claims() {
    no_draw_claims(Rules::uscf_scholastic_2006());
}

// K11 replaces FIDE's completed-game article: no repetition claim.
#[test]
fn knsb_k11_no_repetition_claim() {
    let mut m = started(Rules::knsb_1988());
    knight_shuffle(&mut m, 0..12);
    claim_refused(&mut m, Seat::WHITE_A, DrawClaim::Repetition, at(13));
}

// K11F: a draw after 30 moves by each side with no capture, no drop and no move of an
// unpromoted pawn; it ends only that game (K11G).
#[test]
fn knsb_k11f_move_count_claim() {
    let mut m = started(Rules::knsb_1988());
    knight_shuffle(&mut m, 0..58);
    claim_refused(&mut m, Seat::WHITE_A, DrawClaim::MoveCount, at(59));
    knight_shuffle(&mut m, 58..60);
    m.claim_draw(Seat::WHITE_A, DrawClaim::MoveCount, at(61))
        .unwrap();
    let a = m.game_end(BoardId::A).unwrap();
    assert_eq!(
        (a.score, a.reason, a.seat),
        (Score::Draw, EndReason::MoveCount, Some(Seat::WHITE_A))
    );
    assert_eq!(m.result(), None);
    assert_eq!(m.game_end(BoardId::B), None);
    play(&mut m, Seat::WHITE_B, "e2e4", at(62));
}

// K11F: either of the two players of the game may claim the 30-move draw, also off move.
#[test]
fn knsb_k11f_move_count_claim_by_either_player() {
    use bughouse_core::{DrawClaim, Match, MatchError, Position, Rules, Seat, TimeControl};
    use std::time::Duration;
    let rules = Rules::knsb_1988();
    let a = Position::from_fen("4k3/8/8/8/8/8/8/4K2R[] w - - 60 80", rules).unwrap();
    let mut m = Match::from_positions(rules, TimeControl::default(), [a, Position::new(rules)]);
    m.start(Duration::ZERO).unwrap();
    // Black is not on move on board A, but may claim.
    m.claim_draw(Seat::BLACK_A, DrawClaim::MoveCount, Duration::from_secs(1))
        .unwrap();
    assert!(m.game_end(bughouse_core::BoardId::A).is_some());
    // The other board plays on (K11G) and has no claim.
    assert!(matches!(
        m.claim_draw(Seat::WHITE_B, DrawClaim::MoveCount, Duration::from_secs(2)),
        Err(MatchError::NoSuchClaim { .. })
    ));
}
