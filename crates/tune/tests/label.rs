//! Positions for labelling: crazyhouse PGN games, every board of a BPGN, the choice of a
//! sample, the expected score from an engine's score, and labels in a positions file.

use bughouse_arena::EngineScore;
use bughouse_core::{Color, Position, Role, Rules};
use bughouse_tune::{
    expected_score, pick, read_samples, samples_from_bpgn, samples_from_pgn, write_samples, Sample,
};

const GAMES: &[u8] = include_bytes!("data/arena-1m.bpgn");

const PGN: &str = r#"[Event "rated crazyhouse"]
[Result "0-1"]

1. e4 d5 2. exd5 Qxd5 3. Nc3 Qa5 4. Nf3 Nf6 5. Bc4 P@e4 6. Ng5 Bg4 7. f3 exf3 0-1

[Event "a game that goes wrong at its 3rd move"]
[Result "1-0"]

1. e4 e5 2. Nf3 Nc6 3. Ke3 Nf6 1-0
"#;

#[test]
fn crazyhouse_games_give_their_positions_after_the_opening_with_drops_and_reserves() {
    let samples = samples_from_pgn(PGN.as_bytes()).expect("the records read");
    // The first game: 14 plies, the first 6 skipped. The second stops at its illegal move:
    // 4 plies, all within the opening.
    assert_eq!(samples.len(), 8, "{samples:?}");
    assert!(samples.iter().all(|s| s.result == 0.0));
    // After 5... P@e4 (ply 10) the drop is on the board and Black's reserve is empty again.
    let after_drop = &samples[3].fen;
    assert!(after_drop.starts_with("rnb1kb1r/ppp1pppp/5n2/q7/2B1p3/2N2N2/PPPP1PPP/R1BQK2R"));
    // Every position reads back under the bughouse rules the fit uses.
    for s in &samples {
        Position::from_fen(&s.fen, Rules::fide()).expect("a bughouse FEN");
    }
    // The last position: 7... exf3 put the pawn it took in Black's reserve (the one 2... Qxd5
    // took was dropped on e4), and White still holds the pawn 2. exd5 took.
    let last = Position::from_fen(&samples[7].fen, Rules::fide()).expect("reads");
    assert_eq!(last.reserve(Color::Black).count(Role::Pawn), 1);
    assert_eq!(last.reserve(Color::White).count(Role::Pawn), 1);
}

#[test]
fn every_board_takes_the_stopped_boards_positions_too() {
    let deciding = samples_from_bpgn(GAMES, Rules::fide(), false).expect("replays");
    let every = samples_from_bpgn(GAMES, Rules::fide(), true).expect("replays");
    assert!(
        every.len() > deciding.len(),
        "{} {}",
        every.len(),
        deciding.len()
    );
    for s in &deciding {
        assert!(every.contains(s), "{s:?}");
    }
}

#[test]
fn pick_takes_each_position_once_and_depends_on_the_seed_only() {
    let samples = samples_from_bpgn(GAMES, Rules::fide(), true).expect("replays");
    let mut doubled = samples.clone();
    doubled.extend(samples.iter().cloned());
    let all = pick(&doubled, usize::MAX, 1);
    let unique: std::collections::HashSet<&str> = samples.iter().map(|s| s.fen.as_str()).collect();
    assert_eq!(all.len(), unique.len());
    let a = pick(&doubled, 50, 7);
    assert_eq!(a.len(), 50);
    assert_eq!(a, pick(&doubled, 50, 7));
    assert_ne!(a, pick(&doubled, 50, 8));
}

#[test]
fn an_engine_score_becomes_whites_expected_score() {
    assert_eq!(expected_score(EngineScore::Cp(0), true, 400.0), 0.5);
    assert_eq!(expected_score(EngineScore::Cp(400), true, 400.0), 0.9091);
    // Black to move and 400 up: White expects the rest.
    assert_eq!(expected_score(EngineScore::Cp(400), false, 400.0), 0.0909);
    assert_eq!(expected_score(EngineScore::Mate(3), false, 400.0), 0.0);
    assert_eq!(expected_score(EngineScore::Mate(-1), false, 400.0), 1.0);
    assert!(
        expected_score(EngineScore::Cp(100), true, 200.0)
            > expected_score(EngineScore::Cp(100), true, 400.0)
    );
}

#[test]
fn labelled_positions_read_back_and_results_beyond_zero_to_one_do_not() {
    let samples = vec![
        Sample {
            result: 0.8321,
            fen: "rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR[] w KQkq - 0 1".to_owned(),
        },
        Sample {
            result: 0.0909,
            fen: "rnbqkbnr/pppppppp/8/8/4P3/8/PPPP1PPP/RNBQKBNR[] b KQkq - 0 1".to_owned(),
        },
    ];
    let text = write_samples(&samples);
    assert!(text.starts_with("0.8321 rnbqkbnr"), "{text}");
    assert_eq!(read_samples(&text).expect("reads"), samples);
    let err = read_samples("1.2 8/8/8/8/8/8/8/K6k[] w - - 0 1").expect_err("beyond 1");
    assert_eq!(
        err.to_string(),
        "positions line 1: the result must be from 0 to 1"
    );
}
