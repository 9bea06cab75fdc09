//! The "End of a game" table of `RULES.md`.

use bughouse_core::{
    BoardGame, BothFlagsRule, Color, DrawAgreement, DrawClaim, FlagRule, IllegalMoveRule, Position,
    ResignRule, Role, Rules, Verdict,
};

use crate::{drops, legal, play, pos, sq};

// ---------------------------------------------------------------------------------------------
// Row "checkmate"
// ---------------------------------------------------------------------------------------------

/// Contact check: the queen on g7, guarded by the king, touches the black king. Black holds a
/// piece of every kind, and none can help.
const CONTACT_MATE: &str = "6k1/6Q1/6K1/8/8/8/8/8[qrbnp] b - - 0 1";
/// Knight check: the smothered mate.
const KNIGHT_MATE: &str = "6rk/5Npp/8/8/8/8/8/6K1[qrbnp] b - - 0 1";
/// Double check by the rook on a8 and the bishop on a1: each alone could be blocked.
const DOUBLE_CHECK_MATE: &str = "R6k/7p/8/8/8/8/8/B5K1[qrbnp] b - - 0 1";
/// A rook checks along the back rank with f8, e8, ... between: Black has no piece to block
/// with now, but a piece dropped there would block.
const DISTANT_CHECK: &str = "R5k1/5ppp/8/8/8/8/8/6K1[] b - - 0 1";
/// The same check when Black holds a knight to block with.
const DISTANT_CHECK_WITH_BLOCKER: &str = "R5k1/5ppp/8/8/8/8/8/6K1[n] b - - 0 1";
/// A rook checks along the back rank. All four black knights, bishops and rooks and both queens
/// of the two sets stand on Black's board, so only pawns could ever come, and pawns cannot be
/// dropped on the 8th rank: no piece Black could ever receive blocks.
const BACK_RANK_ALL_BLOCKERS_ON_BOARD: &str = "R6k/pppppppp/rrrrbbbb/nnnnqq2/8/8/8/7K[] b - - 0 1";
/// The same, but one of the knights on Black's board is a promoted pawn (`n~`): it counts as a
/// pawn, so one knight of the two sets is off the board and could still come to block.
const BACK_RANK_PROMOTED_KNIGHT: &str = "R6k/pppppppp/rrrrbbbb/nnnn~qq2/8/8/8/7K[] b - - 0 1";

/// The verdict of `fen` under `rules`, checking that the side to move is in check.
fn check_verdict(fen: &str, rules: Rules) -> Verdict {
    let p = pos(fen, rules);
    assert!(p.is_check(), "{fen}: no check");
    p.verdict()
}

/// Mate needs a check no piece could ever block: contact, knight or double check, or a check
/// whose every blocker is on the defender's board. A blockable check with nothing to block with
/// now is a wait.
fn mate_only_if_unblockable(rules: Rules) {
    assert_eq!(
        check_verdict(CONTACT_MATE, rules),
        Verdict::Checkmate,
        "contact check"
    );
    assert_eq!(
        check_verdict(KNIGHT_MATE, rules),
        Verdict::Checkmate,
        "knight check"
    );
    assert_eq!(
        check_verdict(DOUBLE_CHECK_MATE, rules),
        Verdict::Checkmate,
        "double check"
    );
    assert!(pos(DOUBLE_CHECK_MATE, rules).checkers().more_than_one());

    let p = pos(DISTANT_CHECK, rules);
    assert!(p.legal_moves().is_empty());
    assert_eq!(
        p.verdict(),
        Verdict::Waiting,
        "a dropped piece could block on b8-f8"
    );
    assert!(!p.is_checkmate());
    // Once the partner sends a piece, it blocks.
    let mut p = p;
    p.add_to_reserve(Color::Black, Role::Bishop);
    assert_eq!(p.verdict(), Verdict::Ongoing);
    play(&mut p, "B@f8");
    assert_eq!(p.piece_at(sq("f8")), Some(Color::Black.bishop()));

    assert_eq!(
        check_verdict(BACK_RANK_ALL_BLOCKERS_ON_BOARD, rules),
        Verdict::Checkmate,
        "only pawns could come, and pawns cannot block on the 8th rank"
    );
    let p = pos(BACK_RANK_ALL_BLOCKERS_ON_BOARD, rules);
    assert_eq!(p.potential_reserve(Color::Black).count(Role::Pawn), 8);
    assert_eq!(p.potential_reserve(Color::Black).len(), 8);
    assert_eq!(
        check_verdict(BACK_RANK_PROMOTED_KNIGHT, rules),
        Verdict::Waiting,
        "a promoted knight counts as a pawn: a knight could still come"
    );
    // A pawn in the reserve does not block a back-rank check either.
    let mut p = pos(BACK_RANK_ALL_BLOCKERS_ON_BOARD, rules);
    p.add_to_reserve(Color::Black, Role::Pawn);
    assert!(drops(&p).is_empty());
    assert_eq!(p.verdict(), Verdict::Checkmate);
}

// F3.7: a checkmate must be given with a contact check, a knight check or a double check,
// unless all pieces that could block are on the player's board; pawns cannot block on rank 8.
#[test]
fn fide_f3_7_mate_only_if_no_drop_could_ever_block() {
    mate_only_if_unblockable(Rules::fide());
}

// U15a1a: if the check is not by a knight or in contact and the defender has no material to
// block, he may wait for his partner to supply a piece.
#[test]
fn uscf_u15a1a_mate_only_if_no_drop_could_ever_block() {
    mate_only_if_unblockable(Rules::uscf_scholastic_2006());
}

/// FIDE base: in check with no legal move with the reserve he has now is mate, even where a
/// piece from the partner could block later.
fn mate_with_reserve_now(rules: Rules) {
    assert_eq!(check_verdict(CONTACT_MATE, rules), Verdict::Checkmate);
    assert_eq!(check_verdict(KNIGHT_MATE, rules), Verdict::Checkmate);
    assert_eq!(check_verdict(DOUBLE_CHECK_MATE, rules), Verdict::Checkmate);
    assert_eq!(
        check_verdict(DISTANT_CHECK, rules),
        Verdict::Checkmate,
        "no waiting for a blocker from the partner"
    );
    assert!(pos(DISTANT_CHECK, rules).is_checkmate());
    assert_eq!(
        check_verdict(BACK_RANK_ALL_BLOCKERS_ON_BOARD, rules),
        Verdict::Checkmate
    );
    assert_eq!(
        check_verdict(BACK_RANK_PROMOTED_KNIGHT, rules),
        Verdict::Checkmate
    );
    // With a blocker in the reserve now, it is no mate.
    let p = pos(DISTANT_CHECK_WITH_BLOCKER, rules);
    assert_eq!(p.verdict(), Verdict::Ongoing);
    assert!(legal(&p, "N@f8"));
}

// interp. (M5, FIDE base of M1.6): in check and no legal move with the reserve he has now is
// mate.
#[test]
fn minerva_m5_classic_checkmate() {
    mate_with_reserve_now(Rules::minerva_2014());
}

// interp. (K11A1, FIDE base of K1E): in check and no legal move with the reserve he has now.
#[test]
fn knsb_k11a1_classic_checkmate() {
    mate_with_reserve_now(Rules::knsb_1988());
}

#[test]
fn crazyhouse_classic_checkmate() {
    mate_with_reserve_now(Rules::crazyhouse());
}

// ---------------------------------------------------------------------------------------------
// Row "no legal move, not in check"
// ---------------------------------------------------------------------------------------------

/// The classic stalemate: king on h8, queen on f7, king on g6.
const STALEMATE: &str = "7k/5Q2/6K1/8/8/8/8/8[] b - - 0 1";
/// Black's whole army of two sets is on his board and none of it can move: 16 pawns (two of them
/// promoted queens), 4 knights, 4 bishops, 4 rooks, 2 queens and the king. No piece could ever
/// come to be dropped.
const FORTRESS: &str = "qbbnnnq~q~/kqbbnppp/prprprpr/PpPpPpPp/1P1p1p1p/3P1P1P/8/4K3[] b - - 0 1";
/// The same, but the knight on d8 is a promoted pawn: a knight of the two sets is off the board.
const FORTRESS_PROMOTED_KNIGHT: &str =
    "qbbn~nnq~q~/kqbbnppp/prprprpr/PpPpPpPp/1P1p1p1p/3P1P1P/8/4K3[] b - - 0 1";

fn no_move_verdict(fen: &str, rules: Rules) -> Verdict {
    let p = pos(fen, rules);
    assert!(!p.is_check(), "{fen}: check");
    assert!(p.legal_moves().is_empty(), "{fen}: has moves");
    p.verdict()
}

/// Not stalemate: the player waits for a piece, unless every piece of his colour is on his board.
fn no_move_waits(rules: Rules) {
    assert_eq!(no_move_verdict(STALEMATE, rules), Verdict::Waiting);
    assert_eq!(
        no_move_verdict(FORTRESS, rules),
        Verdict::Stalemate,
        "all his pieces are on his board"
    );
    assert!(pos(FORTRESS, rules)
        .potential_reserve(Color::Black)
        .is_empty());
    assert_eq!(
        no_move_verdict(FORTRESS_PROMOTED_KNIGHT, rules),
        Verdict::Waiting
    );
    // The piece comes: he plays on.
    let mut p = pos(STALEMATE, rules);
    p.add_to_reserve(Color::Black, Role::Pawn);
    assert_eq!(p.verdict(), Verdict::Ongoing);
    play(&mut p, "P@a5");
}

// F3.7: the player is not considered stalemated, since he can get a piece to drop, unless all
// his pieces are on his board.
#[test]
fn fide_f3_7_no_move_is_no_stalemate() {
    no_move_waits(Rules::fide());
}

// interp. (U15a1a by analogy): a player with no move waits for a piece, as in fide.
#[test]
fn uscf_u15a1a_no_move_is_no_stalemate() {
    no_move_waits(Rules::uscf_scholastic_2006());
}

/// FIDE base: no legal move and no check is stalemate, a draw, whatever could come later.
fn no_move_is_stalemate(rules: Rules) {
    assert_eq!(no_move_verdict(STALEMATE, rules), Verdict::Stalemate);
    assert_eq!(no_move_verdict(FORTRESS, rules), Verdict::Stalemate);
    assert_eq!(
        no_move_verdict(FORTRESS_PROMOTED_KNIGHT, rules),
        Verdict::Stalemate
    );
    // A piece in the reserve is a move.
    let mut p = pos(STALEMATE, rules);
    p.add_to_reserve(Color::Black, Role::Pawn);
    assert_eq!(p.verdict(), Verdict::Ongoing);
}

// interp. (M5, FIDE base of M1.6): stalemate, a draw.
#[test]
fn minerva_m5_no_move_is_stalemate() {
    no_move_is_stalemate(Rules::minerva_2014());
}

// interp. (K1E, FIDE base): stalemate, a draw.
#[test]
fn knsb_k1e_no_move_is_stalemate() {
    no_move_is_stalemate(Rules::knsb_1988());
}

#[test]
fn crazyhouse_no_move_is_stalemate() {
    no_move_is_stalemate(Rules::crazyhouse());
}

// ---------------------------------------------------------------------------------------------
// Row "repetition"
// ---------------------------------------------------------------------------------------------

/// Plays the knight shuffle g1f3 g8f6 f3g1 f6g8 `cycles` times; the start position comes back
/// after each cycle.
fn knight_shuffle(game: &mut BoardGame, cycles: usize) {
    for _ in 0..cycles {
        for uci in ["g1f3", "g8f6", "f3g1", "f6g8"] {
            let m = game.position().parse_uci(uci).unwrap();
            game.play(m).unwrap();
        }
    }
}

// F4.1: a draw may be claimed when the same position has occurred 4 times on one board.
#[test]
fn fide_f4_1_repetition_claim_at_fourth_occurrence() {
    let mut game = BoardGame::new(Position::new(Rules::fide()));
    knight_shuffle(&mut game, 2);
    assert_eq!(game.repetitions(), 3);
    assert!(game.claims().is_empty(), "3 occurrences are not enough");
    let m = game.position().parse_uci("g1f3").unwrap();
    game.play(m).unwrap();
    assert!(game.claims().is_empty());
    let mut game2 = game.clone();
    for uci in ["g8f6", "f3g1", "f6g8"] {
        let m = game2.position().parse_uci(uci).unwrap();
        game2.play(m).unwrap();
    }
    assert_eq!(game2.repetitions(), 4);
    assert_eq!(game2.claims(), [DrawClaim::Repetition]);
}

// F4.1: the position does not include the players' stocks of pieces.
#[test]
fn fide_f4_1_repetition_ignores_reserves() {
    let mut game = BoardGame::new(Position::new(Rules::fide()));
    for (cycle, role) in [Role::Pawn, Role::Knight, Role::Queen]
        .into_iter()
        .enumerate()
    {
        knight_shuffle(&mut game, 1);
        // The partners capture on the other board: the reserves differ each time.
        game.position_mut().add_to_reserve(Color::White, role);
        game.position_mut().add_to_reserve(Color::Black, Role::Rook);
        assert_eq!(game.repetitions(), cycle + 2);
    }
    assert_eq!(game.position().reserve(Color::White).len(), 3);
    assert_eq!(game.claims(), [DrawClaim::Repetition]);
}

/// No repetition claim, however often the position comes back.
fn no_repetition_claim(rules: Rules) {
    let mut game = BoardGame::new(Position::new(rules));
    knight_shuffle(&mut game, 5);
    assert_eq!(game.repetitions(), 6);
    assert!(!game.claims().contains(&DrawClaim::Repetition));
    assert!(game.claims().is_empty());
}

// M5.4: draw claims under FIDE 9.2 to 9.6 are not allowed.
#[test]
fn minerva_m5_4_no_repetition_claim() {
    no_repetition_claim(Rules::minerva_2014());
}

// K11: replaces FIDE's article on the completed game and has no repetition rule.
#[test]
fn knsb_k11_no_repetition_claim() {
    no_repetition_claim(Rules::knsb_1988());
}

// U16: a game is drawn only by agreement or by flags.
#[test]
fn uscf_u16_no_repetition_claim() {
    no_repetition_claim(Rules::uscf_scholastic_2006());
}

// ---------------------------------------------------------------------------------------------
// Row "move-count rule"
// ---------------------------------------------------------------------------------------------

/// Kings and a knight each; the knights shuffle b1-c3 and b8-c6.
const KNIGHTS: &str = "1n2k3/8/8/8/8/8/8/1N2K3[] w - - 0 1";

fn play_game(game: &mut BoardGame, uci: &str) {
    let m = game
        .position()
        .parse_uci(uci)
        .unwrap_or_else(|e| panic!("{uci}: {e}"));
    game.play(m).unwrap();
}

// K11F: a draw after at least 30 moves by each side without a capture, a new piece placed on
// the board or a move of an unpromoted pawn.
#[test]
fn knsb_k11f_move_count_claim_after_30_moves() {
    let mut game = BoardGame::new(pos(KNIGHTS, Rules::knsb_1988()));
    let shuffle = ["b1c3", "b8c6", "c3b1", "c6b8"];
    for ply in 0..60 {
        assert!(game.claims().is_empty(), "no claim after {ply} plies");
        play_game(&mut game, shuffle[ply % 4]);
    }
    assert_eq!(game.position().halfmoves(), 60);
    assert_eq!(game.claims(), [DrawClaim::MoveCount]);
}

/// Under knsb-1988, `board` with `reserve` after 59 plies without capture, drop or pawn move,
/// White to move: plays `uci` and says whether a move-count draw may then be claimed.
fn knsb_claim_after(board: &str, reserve: &str, uci: &str) -> bool {
    let fen = format!("{board}[{reserve}] w - - 59 40");
    let mut game = BoardGame::new(pos(&fen, Rules::knsb_1988()));
    assert!(game.claims().is_empty());
    play_game(&mut game, uci);
    game.claims().contains(&DrawClaim::MoveCount)
}

// K11F: a drop ("a new piece placed on the board") starts the count again.
#[test]
fn knsb_k11f_drop_resets_move_count() {
    let board = "1n2k3/8/8/8/8/8/8/1N2K3";
    assert!(
        knsb_claim_after(board, "N", "b1c3"),
        "the 60th ply without a drop"
    );
    assert!(!knsb_claim_after(board, "N", "N@a3"));
}

// K11F: a capture starts the count again.
#[test]
fn knsb_k11f_capture_resets_move_count() {
    assert!(!knsb_claim_after("1n2k3/8/8/8/8/2p5/8/1N2K3", "", "b1c3"));
    assert!(knsb_claim_after("1n2k3/8/8/8/8/2p5/8/1N2K3", "", "b1a3"));
}

// K11F: a move of an unpromoted pawn starts the count again, a promotion too.
#[test]
fn knsb_k11f_pawn_move_resets_move_count() {
    assert!(!knsb_claim_after("1n2k3/8/8/8/8/8/P7/1N2K3", "", "a2a3"));
    assert!(!knsb_claim_after("1n2k3/P7/8/8/8/8/8/1N2K3", "", "a7a8q"));
}

// K11F: only an *unpromoted* pawn's move counts: a promoted pawn moving as its piece does not
// start the count again.
#[test]
fn knsb_k11f_promoted_piece_move_does_not_reset() {
    assert!(knsb_claim_after("1n2k3/8/8/8/8/8/8/1N~2K3", "", "b1c3"));
    assert!(knsb_claim_after("1n2k3/8/8/8/8/8/8/1Q~2K3", "", "b1b2"));
}

/// No move-count claim: 60 plies of knight moves, and a counter far past any limit.
fn no_move_count_claim(rules: Rules) {
    let mut game = BoardGame::new(pos(KNIGHTS, rules));
    let shuffle = ["b1c3", "b8c6", "c3b1", "c6b8"];
    for ply in 0..60 {
        play_game(&mut game, shuffle[ply % 4]);
    }
    assert_eq!(game.position().halfmoves(), 60);
    assert!(!game.claims().contains(&DrawClaim::MoveCount));

    let mut game = BoardGame::new(pos("1n2k3/8/8/8/8/8/8/1N2K3[] w - - 150 100", rules));
    play_game(&mut game, "b1c3");
    assert_eq!(game.position().halfmoves(), 151);
    assert!(game.claims().is_empty());
}

// FIDE bughouse extension: no move-count rule.
#[test]
fn fide_f4_no_move_count_claim() {
    no_move_count_claim(Rules::fide());
}

// M5.4: draw claims under FIDE 9.2 to 9.6 (the 50-move rule among them) are not allowed.
#[test]
fn minerva_m5_4_no_move_count_claim() {
    no_move_count_claim(Rules::minerva_2014());
}

// U16: a game is drawn only by agreement or by flags.
#[test]
fn uscf_u16_no_move_count_claim() {
    no_move_count_claim(Rules::uscf_scholastic_2006());
}

// ---------------------------------------------------------------------------------------------
// Row "insufficient material"
// ---------------------------------------------------------------------------------------------

/// Bare kings are no draw by themselves: pieces can still come from the partner.
fn no_insufficient_material_draw(rules: Rules) {
    assert!(!rules.insufficient_material_draw);
    let game = BoardGame::new(pos("4k3/8/8/8/8/8/8/4K3[] w - - 0 1", rules));
    assert_eq!(game.position().verdict(), Verdict::Ongoing);
    assert!(game.claims().is_empty());
}

// F3.7: there are no situations in which a player has insufficient material to mate.
#[test]
fn fide_f3_7_no_insufficient_material_draw() {
    no_insufficient_material_draw(Rules::fide());
}

// M5.4: no draw claims; insufficient material only matters at a flag fall (M5.2).
#[test]
fn minerva_m5_4_no_insufficient_material_draw() {
    no_insufficient_material_draw(Rules::minerva_2014());
}

// K11E: insufficient material only matters at a flag fall.
#[test]
fn knsb_k11e_no_insufficient_material_draw() {
    no_insufficient_material_draw(Rules::knsb_1988());
}

// U24: insufficient losing chances claims cannot be made in bughouse.
#[test]
fn uscf_u24_no_insufficient_material_draw() {
    no_insufficient_material_draw(Rules::uscf_scholastic_2006());
}

// ---------------------------------------------------------------------------------------------
// Row "flag fall"
// ---------------------------------------------------------------------------------------------

// F1: FIDE blitz base: the flagged player loses.
#[test]
fn fide_f1_flag_fall_loses() {
    assert_eq!(Rules::fide().flag, FlagRule::Loss);
}

// M5.2: a loss, unless the opponent cannot win by any sequence of legal moves, counting his
// reserve and what he could still receive: then a draw.
#[test]
fn minerva_m5_2_flag_fall_loses_unless_opponent_cannot_mate() {
    assert_eq!(
        Rules::minerva_2014().flag,
        FlagRule::LossUnlessOpponentCannotMate
    );
}

// K11A2, K11E: a loss once the direct opponent notices it, unless the opponent could never mate
// with the material on or off the board or still to come from his partner: then a draw.
#[test]
fn knsb_k11e_flag_fall_loses_unless_opponent_cannot_mate() {
    assert_eq!(
        Rules::knsb_1988().flag,
        FlagRule::LossUnlessOpponentCannotMate
    );
}

// U15a3: a loss, if claimed while the claimant's own flag is up.
#[test]
fn uscf_u15a3_flag_fall_loses() {
    assert_eq!(Rules::uscf_scholastic_2006().flag, FlagRule::Loss);
}

// ---------------------------------------------------------------------------------------------
// Row "both flags down"
// ---------------------------------------------------------------------------------------------

// F1: FIDE blitz base: both flags of one game down is a draw of that game.
#[test]
fn fide_f1_both_flags_draw() {
    assert_eq!(Rules::fide().both_flags, BothFlagsRule::DrawOnSameBoard);
}

// M5.5, M10.2: a draw as soon as at least one clock of each team is down, on either board.
#[test]
fn minerva_m5_5_draw_when_each_team_flagged() {
    assert_eq!(
        Rules::minerva_2014().both_flags,
        BothFlagsRule::DrawWhenEachTeamFlagged
    );
}

// K11D: a draw once either player notices both flags of that game down.
#[test]
fn knsb_k11d_both_flags_draw() {
    assert_eq!(
        Rules::knsb_1988().both_flags,
        BothFlagsRule::DrawOnSameBoard
    );
}

// U16b: a draw if the second flag falls before a win is claimed.
#[test]
fn uscf_u16b_both_flags_draw() {
    assert_eq!(
        Rules::uscf_scholastic_2006().both_flags,
        BothFlagsRule::DrawOnSameBoard
    );
}

// ---------------------------------------------------------------------------------------------
// Row "resignation"
// ---------------------------------------------------------------------------------------------

// FIDE base: a player may resign at any time.
#[test]
fn fide_f1_resign_any_time() {
    assert_eq!(Rules::fide().resign, ResignRule::AnyTime);
}

// M1.6, FIDE base: a player may resign at any time.
#[test]
fn minerva_m1_6_resign_any_time() {
    assert_eq!(Rules::minerva_2014().resign, ResignRule::AnyTime);
}

// K11B: a player may resign only when it is his move.
#[test]
fn knsb_k11b_resign_only_on_move() {
    assert_eq!(Rules::knsb_1988().resign, ResignRule::OnMove);
}

// U15a2: a player may resign at any time.
#[test]
fn uscf_u15a2_resign_any_time() {
    assert_eq!(Rules::uscf_scholastic_2006().resign, ResignRule::AnyTime);
}

// ---------------------------------------------------------------------------------------------
// Row "draw by agreement"
// ---------------------------------------------------------------------------------------------

// F4.5: both players of a team offer, both of the other accept; it decides the match.
#[test]
fn fide_f4_5_draw_agreed_between_teams() {
    assert_eq!(
        Rules::fide().draw_agreement,
        DrawAgreement::TeamOffersOpponentsAccept
    );
}

// M5.3: only if all four players agree.
#[test]
fn minerva_m5_3_draw_agreed_by_all_four() {
    assert_eq!(Rules::minerva_2014().draw_agreement, DrawAgreement::AllFour);
}

// K11C: the two players of the game agree; it ends that game at once.
#[test]
fn knsb_k11c_draw_agreed_in_one_game() {
    assert_eq!(Rules::knsb_1988().draw_agreement, DrawAgreement::SameGame);
}

// U16a: a draw agreed between the teams.
#[test]
fn uscf_u16a_draw_agreed_between_teams() {
    assert_eq!(
        Rules::uscf_scholastic_2006().draw_agreement,
        DrawAgreement::TeamAgainstTeam
    );
}

// ---------------------------------------------------------------------------------------------
// Row "illegal move"
// ---------------------------------------------------------------------------------------------

/// Online, an illegal move is refused and changes nothing, under every preset.
fn illegal_move_refused(rules: Rules) {
    let mut game = BoardGame::new(pos("4k3/4r3/8/8/8/8/4B3/4K3[N] w - - 0 1", rules));
    let before = game.position().clone();
    let pinned = bughouse_core::Move::normal(sq("e2"), sq("d3"));
    assert!(game.play(pinned).is_err());
    let drop_on_piece = bughouse_core::Move::drop(Role::Knight, sq("e7"));
    assert!(game.play(drop_on_piece).is_err());
    assert_eq!(game.position(), &before);
    assert_eq!(game.repetitions(), 1);
}

// F4.2: the opponent may claim a win for an illegal move before completing his own move.
#[test]
fn fide_f4_2_illegal_move_opponent_may_claim_win() {
    assert_eq!(
        Rules::fide().illegal_move,
        IllegalMoveRule::OpponentMayClaimWin
    );
    illegal_move_refused(Rules::fide());
}

// M7.3-M7.6: the opponent may accept the move or demand a legal replacement before his own
// next move.
#[test]
fn minerva_m7_4_illegal_move_replaced_on_demand() {
    assert_eq!(
        Rules::minerva_2014().illegal_move,
        IllegalMoveRule::OpponentMayDemandReplacement
    );
    illegal_move_refused(Rules::minerva_2014());
}

// K8C-K8E: the opponent may restart the offender's clock and demand a legal replacement.
#[test]
fn knsb_k8c_illegal_move_replaced_on_demand() {
    assert_eq!(
        Rules::knsb_1988().illegal_move,
        IllegalMoveRule::OpponentMayDemandReplacement
    );
    illegal_move_refused(Rules::knsb_1988());
}

// U8, U15a4: an illegal move loses, if claimed before the claimant moves.
#[test]
fn uscf_u15a4_illegal_move_opponent_may_claim_win() {
    assert_eq!(
        Rules::uscf_scholastic_2006().illegal_move,
        IllegalMoveRule::OpponentMayClaimWin
    );
    illegal_move_refused(Rules::uscf_scholastic_2006());
}
