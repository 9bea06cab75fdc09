//! The quirks of real BPGN files, read as they are (shared/data/README.md), and replay errors
//! that name the move token.

use std::time::Duration;

use bughouse_bpgn::{read_games, replay, replay_bughouse, ReplayResult};
use bughouse_core::{BoardId, Color, Match, Rules, TimeControl};

fn one(text: &[u8]) -> bughouse_bpgn::Record {
    let games: Vec<_> = read_games(text).collect();
    assert_eq!(games.len(), 1, "{games:?}");
    games.into_iter().next().unwrap().expect("readable")
}

#[test]
fn glued_comments_and_two_tags_on_one_line() {
    let g = one(b"[WhiteA \"Gnejs\"][WhiteAElo \"2051\"]\n[BlackA \"x\"]\n1A. e4{120}{C: hello} 1a. e5{119.5} *\n");
    assert_eq!(g.tag("WhiteA"), Some("Gnejs"));
    assert_eq!(g.tag("WhiteAElo"), Some("2051"));
    assert_eq!(g.moves[0].clock, Some(Duration::from_secs(120)));
    assert_eq!(g.moves[1].clock, Some(Duration::from_millis(119_500)));
    assert!(g.bughouse);
}

#[test]
fn clocks_with_zero_to_three_decimals() {
    let g =
        one(b"[WhiteA \"a\"]\n1A. e4 {179} 1a. e5 {179.5} 2A. Nf3 {118.58} 2a. Nc6 {118.585} *");
    let clocks: Vec<_> = g
        .moves
        .iter()
        .map(|m| m.clock.unwrap().as_millis())
        .collect();
    assert_eq!(clocks, [179_000, 179_500, 118_580, 118_585]);
}

#[test]
fn bytes_that_are_not_utf8_are_read_as_latin1() {
    let g = one(
        b"[WhiteA \"Jos\xe9\"]\n1A. e4 {179} {C: \xfe} 1a. e5 {178} {caf\xe9 checkmated} 0-1\n",
    );
    assert_eq!(g.tag("WhiteA"), Some("Jos\u{e9}"));
    assert_eq!(g.termination.as_deref(), Some("caf\u{e9} checkmated"));
    assert_eq!(g.result.as_deref(), Some("0-1"));
}

#[test]
fn dates_with_dots_or_dashes() {
    assert_eq!(
        one(b"[Date \"2005.01.03\"]\n*").date(),
        Some((2005, Some(1), Some(3)))
    );
    assert_eq!(
        one(b"[Date \"2014-07-18\"]\n*").date(),
        Some((2014, Some(7), Some(18)))
    );
    assert_eq!(
        one(b"[Date \"2001.??.??\"]\n*").date(),
        Some((2001, None, None))
    );
}

#[test]
fn result_tag_may_disagree_with_the_final_token() {
    // engine-selfplay.bpgn: [Result "1-0"] but the record ends with `*`; the replay result is
    // what the moves reach.
    let g = one(b"[Result \"1-0\"]\n[WhiteA \"a\"]\n1A. e4 {180} {Alice won by checkmate} *\n");
    assert_eq!(g.tag("Result"), Some("1-0"));
    assert_eq!(g.result.as_deref(), Some("*"));
    assert_eq!(replay(&g, None).unwrap(), ReplayResult::Match(None));
}

#[test]
fn board_letters_and_case_give_board_and_side() {
    let g = one(b"[WhiteA \"a\"]\n1B. e4 {1} 1A. d4 {1} 1b. e5 {1} 1a. d5 {1} *");
    let seats: Vec<_> = g.moves.iter().map(|m| (m.board, m.color)).collect();
    assert_eq!(
        seats,
        [
            (Some(BoardId::B), Color::White),
            (Some(BoardId::A), Color::White),
            (Some(BoardId::B), Color::Black),
            (Some(BoardId::A), Color::Black),
        ]
    );
    assert_eq!(g.moves[2].token(), "1b. e5");
}

#[test]
fn pgn_with_variations_nags_and_clk_comments() {
    let g = one(b"[Variant \"Crazyhouse\"]\n1. d4 { [%clk 0:01:00] } d5 $1 (1... Nf6 2. c4) 2. Nc3?! { [%clk 0:00:59.5] } Bf5 0-1\n");
    assert!(!g.bughouse);
    let sans: Vec<_> = g.moves.iter().map(|m| m.san.as_str()).collect();
    assert_eq!(sans, ["d4", "d5", "Nc3?!", "Bf5"]);
    assert_eq!(g.moves[0].clock, Some(Duration::from_secs(60)));
    assert_eq!(g.moves[2].clock, Some(Duration::from_millis(59_500)));
    assert_eq!(g.moves[3].token(), "2... Bf5");
}

#[test]
fn an_unreadable_game_is_reported_with_its_line_and_reading_goes_on() {
    let text = b"[WhiteA \"a\"]\n1A. e4 {unclosed\n\n[WhiteA \"b\"]\n1A. d4 {1} *\n";
    let games: Vec<_> = read_games(text).collect();
    assert_eq!(games.len(), 2);
    let err = games[0].as_ref().unwrap_err();
    assert_eq!(err.line, 2);
    assert!(err.to_string().contains("not closed"), "{err}");
    assert_eq!(games[1].as_ref().unwrap().moves[0].san, "d4");
}

#[test]
fn replay_error_names_the_move_token() {
    // A queen drop with no queen in the reserve.
    let g = one(b"[WhiteA \"a\"]\n1A. e4 {1} 1a. e5 {1} 2A. Q@d5 {1} *");
    let err = replay(&g, None).unwrap_err();
    assert_eq!(err.token, "2A. Q@d5");
    assert!(err.to_string().starts_with("2A. Q@d5 (line 2)"), "{err}");
}

#[test]
fn replay_checks_check_and_mate_marks() {
    // Fool's mate on board A: the queen checks along h4-e1 across the empty f2 and g3, so a
    // piece White could still receive could block it: under fide it is not mate (F3.7).
    let g = one(b"[WhiteA \"a\"]\n1A. f3 {1} 1a. e5 {1} 2A. g4 {1} 2a. Qh4# {1} *");
    let err = replay(&g, None).unwrap_err();
    assert_eq!(err.token, "2a. Qh4#");
    assert!(err.message.contains("waiting"), "{err}");
    // Under minerva-2014 (FIDE base mate) it is mate, and the match is won by BlackA + WhiteB.
    assert_eq!(
        replay(&g, Some(Rules::minerva_2014())).unwrap().to_string(),
        "0-1"
    );
    // A missing check mark is an error too.
    let g = one(b"[WhiteA \"a\"]\n1A. e4 {1} 1a. f5 {1} 2A. Qh5 {1} *");
    assert_eq!(replay(&g, None).unwrap_err().token, "2A. Qh5");
}

#[test]
fn knsb_scores_each_board() {
    // K11G: both games count; the result names each board from its White side.
    let g = one(b"[WhiteA \"a\"]\n1A. f3 {1} 1a. e5 {1} 2A. g4 {1} 2a. Qh4# {1} 1B. e4 {1} *");
    assert_eq!(
        replay(&g, Some(Rules::knsb_1988())).unwrap().to_string(),
        "A:0-1 B:*"
    );
}

#[test]
fn a_fen_tag_sets_both_boards_up() {
    // Board A set up with a knight in White's hand: the drop checks at once; board B starts as
    // usual.
    let g = one(b"[WhiteA \"a\"]\n[FEN \"4k3/8/8/8/8/8/8/4K3[N] w - - 0 1 | rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR[] w KQkq - 0 1\"]\n1A. N@d6+ {1} 1a. Ke7 {1} 1B. e4 {1} *");
    let m = replay_bughouse(&g, Rules::fide()).expect("replays from the set-up boards");
    let fen = m.position(BoardId::A).fen();
    assert_eq!(
        fen.split(' ').next(),
        Some("8/4k3/3N4/8/8/8/8/4K3[]"),
        "board A after the drop and the king's step: {fen}"
    );
    assert_eq!(m.position(BoardId::A).reserve(Color::White).len(), 0);
    // Written out again, the record carries the set-up boards and replays to the same match.
    let text = bughouse_bpgn::write_bpgn(&m, &[]);
    assert!(
        text.contains("[FEN \"4k3/8/8/8/8/8/8/4K3[N] w - - 0 1 | "),
        "{text}"
    );
    let again = replay_bughouse(&one(text.as_bytes()), Rules::fide()).expect("replays");
    assert_eq!(again.fen(), m.fen());
    // A match from the initial positions writes no FEN tag.
    let plain = Match::new(Rules::fide(), TimeControl::default());
    assert_eq!(plain.setup_fen(), None);
    assert!(!bughouse_bpgn::write_bpgn(&plain, &[]).contains("[FEN"));
    // Without the tag the drop has no knight to drop.
    let g = one(b"[WhiteA \"a\"]\n1A. N@d6+ {1} *");
    assert_eq!(replay(&g, None).unwrap_err().token, "1A. N@d6+");
}

#[test]
fn a_fen_tag_of_the_initial_position_alone_is_the_usual_start() {
    for fen in [
        "rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - 0 1",
        "rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR[] w KQkq - 0 1",
    ] {
        let text =
            format!("[WhiteA \"a\"]\n[SetUp \"1\"]\n[FEN \"{fen}\"]\n1A. e4 {{1}} 1a. e5 {{1}} *");
        let g = one(text.as_bytes());
        assert_eq!(replay(&g, None).unwrap(), ReplayResult::Match(None));
    }
    // Any other single position is not enough for two boards.
    let g = one(b"[WhiteA \"a\"]\n[FEN \"4k3/8/8/8/8/8/8/4K3[N] w - - 0 1\"]\n1A. N@d6+ {1} *");
    assert_eq!(replay(&g, None).unwrap_err().token, "[FEN]");
}

#[test]
fn an_unreadable_fen_tag_is_an_error_naming_the_tag() {
    let g = one(b"[WhiteA \"a\"]\n[FEN \"bad\"]\n1A. e4 {1} *");
    let err = replay(&g, None).unwrap_err();
    assert_eq!(err.token, "[FEN]");
    assert!(err.message.contains("two FENs"), "{err}");
    let g = one(b"[WhiteA \"a\"]\n[FEN \"rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR[] w KQkq - 0 1 | 8/8/8 w - - 0 1\"]\n1A. e4 {1} *");
    let err = replay(&g, None).unwrap_err();
    assert_eq!(err.token, "[FEN]");
    assert!(err.message.starts_with("board B"), "{err}");
}
