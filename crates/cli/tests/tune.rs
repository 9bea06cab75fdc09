//! `bughouse tune`, end to end with the built binary: self-play positions from the arena, a
//! fit on them, and an arena match of the tuned bot; and the errors for bad inputs.

mod common;

use common::{bughouse, text};

#[test]
fn tune_collects_positions_fits_weights_and_the_arena_plays_them() {
    let dir = tempfile::tempdir().expect("a temporary directory");
    let positions = dir.path().join("positions.txt");
    let games = dir.path().join("games.bpgn");
    let weights = dir.path().join("weights.txt");
    let p = positions.to_str().expect("UTF-8 path");
    let out = bughouse(&[
        "tune",
        "positions",
        "--selfplay",
        "2",
        "--team1",
        "bot:2",
        "--team2",
        "bot:1",
        "--time",
        "2s+0",
        "--seed",
        "3",
        "--games-out",
        games.to_str().expect("UTF-8"),
        "--out",
        p,
    ]);
    assert!(out.status.success(), "{}", text(&out.stderr));
    let lines = std::fs::read_to_string(&positions).expect("positions written");
    assert!(lines.lines().count() > 20, "too few positions: {lines}");
    for line in lines.lines() {
        let (result, fen) = line.split_once(' ').expect("RESULT FEN");
        assert!(["0", "0.5", "1"].contains(&result), "{line}");
        assert!(fen.contains('['), "{line}");
    }
    // The games file holds the same matches, so reading it gives the same positions.
    let again = dir.path().join("again.txt");
    let out = bughouse(&[
        "tune",
        "positions",
        "--bpgn",
        games.to_str().expect("UTF-8"),
        "--out",
        again.to_str().expect("UTF-8"),
    ]);
    assert!(out.status.success(), "{}", text(&out.stderr));
    assert_eq!(std::fs::read_to_string(&again).expect("written"), lines);

    let out = bughouse(&[
        "tune",
        "fit",
        "--positions",
        p,
        "--iterations",
        "2",
        "--seed",
        "5",
        "--out",
        weights.to_str().expect("UTF-8"),
    ]);
    assert!(out.status.success(), "{}", text(&out.stderr));
    let said = text(&out.stdout);
    assert!(said.contains("training error"), "{said}");
    let tuned = std::fs::read_to_string(&weights).expect("weights written");
    assert!(tuned.contains("board_value = "), "{tuned}");

    let spec = format!("bot:1?eval={}", weights.display());
    let out = bughouse(&[
        "arena",
        "--team1",
        &spec,
        "--team2",
        "bot:1",
        "--matches",
        "1",
        "--time",
        "2s+0",
    ]);
    assert!(out.status.success(), "{}", text(&out.stderr));
    assert!(text(&out.stdout).contains("eval="), "{}", text(&out.stdout));
}

#[test]
fn tune_refuses_bad_inputs() {
    let dir = tempfile::tempdir().expect("a temporary directory");
    let bad = dir.path().join("bad.txt");
    std::fs::write(
        &bad,
        "2 rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR[] w KQkq - 0 1\n",
    )
    .expect("written");
    let out = bughouse(&[
        "tune",
        "fit",
        "--positions",
        bad.to_str().expect("UTF-8"),
        "--out",
        dir.path().join("w.txt").to_str().expect("UTF-8"),
    ]);
    assert_eq!(out.status.code(), Some(2));
    assert!(
        text(&out.stderr).contains("positions line 1: the result must be 0, 0.5 or 1"),
        "{}",
        text(&out.stderr)
    );
    let out = bughouse(&[
        "arena",
        "--team1",
        "bot?eval=/nonexistent/w.txt",
        "--team2",
        "bot",
    ]);
    assert_eq!(out.status.code(), Some(2));
    assert!(
        text(&out.stderr).contains("eval=/nonexistent/w.txt"),
        "{}",
        text(&out.stderr)
    );
}
