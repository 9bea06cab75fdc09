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
        // Four matches: one may end in a draw by repetition that gives no position, another
        // after a few dozen plies (CI once saw 18 positions from two).
        "--selfplay",
        "4",
        "--team1",
        "bot:2",
        "--team2",
        "bot:1",
        // Levels 1 and 2 stop at a few thousand nodes, so a match takes about a second
        // whatever the clock; a long clock keeps a bot slowed by the tests beside it (a debug
        // build, two cores) from losing on time in its first moves, which leaves no position.
        "--time",
        "20s+0",
        "--seed",
        "3",
        "--games-out",
        games.to_str().expect("UTF-8"),
        "--out",
        p,
    ]);
    assert!(out.status.success(), "{}", text(&out.stderr));
    let lines = std::fs::read_to_string(&positions).expect("positions written");
    assert!(
        lines.lines().count() >= 10,
        "too few positions: {lines}\n{}{}\n{}",
        text(&out.stdout),
        text(&out.stderr),
        std::fs::read_to_string(&games).unwrap_or_default()
    );
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
        text(&out.stderr).contains("positions line 1: the result must be from 0 to 1"),
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

const FAIRY_STOCKFISH: &str = "/usr/games/fairy-stockfish";

/// `tune positions --pgn --every-board`, then `tune label` with the real Fairy-Stockfish, then
/// a fit to the labels.
#[test]
fn tune_labels_positions_with_fairy_stockfish_and_fits_to_the_labels() {
    if !std::path::Path::new(FAIRY_STOCKFISH).exists() {
        assert!(
            std::env::var_os("CI").is_none(),
            "{FAIRY_STOCKFISH} is missing: install the Debian package fairy-stockfish"
        );
        eprintln!("note: {FAIRY_STOCKFISH} is not installed; skipping the labelling test");
        return;
    }
    let dir = tempfile::tempdir().expect("a temporary directory");
    let path = |name: &str| dir.path().join(name).to_str().expect("UTF-8").to_owned();
    let data = concat!(env!("CARGO_MANIFEST_DIR"), "/../../../shared/data");
    let out = bughouse(&[
        "tune",
        "positions",
        "--pgn",
        &format!("{data}/crazyhouse/lichess.pgn"),
        "--bpgn",
        &format!("{data}/bpgn/bughousedb-2020.bpgn"),
        "--every-board",
        "--out",
        &path("all.txt"),
    ]);
    assert!(out.status.success(), "{}", text(&out.stderr));
    // 120 positions chosen by seed 4, 2,000 nodes each, with `jobs` engines.
    let label = |jobs: &str, out: &str| {
        bughouse(&[
            "tune",
            "label",
            "--positions",
            &path("all.txt"),
            "--count",
            "120",
            "--seed",
            "4",
            "--nodes",
            "2000",
            "--jobs",
            jobs,
            "--out",
            &path(out),
        ])
    };
    let out = label("2", "labelled.txt");
    assert!(out.status.success(), "{}", text(&out.stderr));
    assert!(
        text(&out.stdout).contains("quiet positions of 120 labelled"),
        "{}",
        text(&out.stdout)
    );
    let labelled = std::fs::read_to_string(path("labelled.txt")).expect("written");
    let mut lines = labelled.lines();
    assert!(lines
        .next()
        .expect("a header")
        .starts_with("# bughouse tune label"));
    let results: Vec<f32> = lines
        .map(|l| {
            l.split_once(' ')
                .expect("RESULT FEN")
                .0
                .parse()
                .expect("a number")
        })
        .collect();
    assert!(results.len() >= 20, "{labelled}");
    assert!(results.iter().all(|r| (0.0..=1.0).contains(r)));
    // Scores, not results: most labels are neither 0, ½ nor 1.
    let soft = results
        .iter()
        .filter(|r| ![0.0, 0.5, 1.0].contains(*r))
        .count();
    assert!(soft * 2 > results.len(), "{labelled}");
    // One engine instead of two: the same labels (each position searched from a fresh table).
    let out = label("1", "labelled1.txt");
    assert!(out.status.success(), "{}", text(&out.stderr));
    assert_eq!(
        std::fs::read_to_string(path("labelled1.txt")).expect("written"),
        labelled
    );
    let out = bughouse(&[
        "tune",
        "fit",
        "--positions",
        &path("labelled.txt"),
        "--iterations",
        "1",
        "--out",
        &path("w.txt"),
    ]);
    assert!(out.status.success(), "{}", text(&out.stderr));
    assert!(
        text(&out.stdout).contains("training error"),
        "{}",
        text(&out.stdout)
    );

    // An engine that is not there: a clear error, exit status 2.
    let out = bughouse(&[
        "tune",
        "label",
        "--positions",
        &path("all.txt"),
        "--count",
        "5",
        "--engine",
        "/nonexistent/engine",
        "--out",
        &path("none.txt"),
    ]);
    assert_eq!(out.status.code(), Some(2));
    assert!(
        text(&out.stderr).contains("labelling engine: cannot start the engine"),
        "{}",
        text(&out.stderr)
    );
}

/// `tune spsa`: a few iterations of self-play and one against another team, the weights file
/// rewritten each iteration (it reads back and plays in the arena), the matches written as BPGN;
/// bad weight names and levels refused.
#[test]
fn tune_spsa_tunes_weights_through_play() {
    let dir = tempfile::tempdir().expect("a temporary directory");
    let weights = dir.path().join("spsa.txt");
    let games = dir.path().join("spsa.bpgn");
    let out = bughouse(&[
        "tune",
        "spsa",
        "--weights",
        "tempo,reserve_value[1],rfp_margin",
        "--iterations",
        "3",
        "--time",
        "1s+0",
        "--level",
        "2",
        "--jobs",
        "2",
        "--seed",
        "4",
        "--games-out",
        games.to_str().expect("UTF-8"),
        "--out",
        weights.to_str().expect("UTF-8"),
    ]);
    assert!(out.status.success(), "{}", text(&out.stderr));
    let said = text(&out.stdout);
    assert!(said.contains("3 iterations"), "{said}");
    assert!(said.contains("tempo "), "{said}");
    let log = text(&out.stderr);
    for k in 1..=3 {
        assert!(log.contains(&format!("iteration {k}: ")), "{log}");
    }
    let tuned = std::fs::read_to_string(&weights).expect("weights written");
    assert!(
        tuned.contains("# after 3 of 3 iterations: tempo "),
        "{tuned}"
    );
    assert!(tuned.contains("\nreserve_value = "), "{tuned}");
    assert!(tuned.contains(", rfp_margin "), "{tuned}");
    // The search's margins are written after the evaluation's weights; those not tuned keep
    // their values.
    assert!(tuned.contains("\nrfp_margin = "), "{tuned}");
    assert!(tuned.contains("\nqs_delta = 200\n"), "{tuned}");
    // A weight not tuned keeps its value.
    assert!(
        tuned.contains("\nboard_value = 100 310 320 470 850\n"),
        "{tuned}"
    );
    // Two matches an iteration, every one recorded.
    let record = std::fs::read_to_string(&games).expect("games written");
    assert_eq!(record.matches("[Event ").count(), 6, "{record}");
    assert!(
        record.contains("spsa+") && record.contains("spsa-"),
        "{record}"
    );

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
        "1s+0",
    ]);
    assert!(out.status.success(), "{}", text(&out.stderr));

    // Against an opponent: each side plays it once an iteration.
    let out = bughouse(&[
        "tune",
        "spsa",
        "--weights",
        "danger_divisor",
        "--iterations",
        "1",
        "--time",
        "1s+0",
        "--level",
        "1",
        "--opponent",
        "bot:1",
        "--games-out",
        games.to_str().expect("UTF-8"),
        "--out",
        weights.to_str().expect("UTF-8"),
    ]);
    assert!(out.status.success(), "{}", text(&out.stderr));
    let record = std::fs::read_to_string(&games).expect("games written");
    assert_eq!(record.matches("[Event ").count(), 2, "{record}");

    for (args, message) in [
        (
            &["--weights", "tempi"][..],
            "--weights: no weight \"tempi\"",
        ),
        (
            &["--weights", "tempo", "--level", "9"][..],
            "--level: 9 is not a level",
        ),
        (
            &["--weights", "tempo", "--search", "nosuch"][..],
            "no search configuration",
        ),
    ] {
        let mut all = vec!["tune", "spsa", "--out", "/nonexistent/w.txt"];
        all.extend_from_slice(args);
        let out = bughouse(&all);
        assert_eq!(out.status.code(), Some(2), "{args:?}");
        assert!(text(&out.stderr).contains(message), "{}", text(&out.stderr));
    }
}

/// `tune book`: a small book with our own replies only, then one following Fairy-Stockfish's
/// two best replies too; each reads as the engine's book, and bad inputs are refused.
#[test]
fn tune_book_writes_a_book_the_engine_reads() {
    let dir = tempfile::tempdir().expect("a temporary directory");
    let path = |name: &str| dir.path().join(name).to_str().expect("UTF-8").to_owned();
    let read_book = |name: &str| {
        let written = std::fs::read_to_string(path(name)).expect("written");
        assert!(written.starts_with("# The opening book"), "{written}");
        bughouse_engine::Book::parse(&written, bughouse_core::Rules::fide()).expect("a book")
    };
    let out = bughouse(&[
        "tune",
        "book",
        "--plies",
        "3",
        "--nodes",
        "3000",
        "--no-reply-engine",
        "--out",
        &path("own.txt"),
    ]);
    assert!(out.status.success(), "{}", text(&out.stderr));
    assert!(
        text(&out.stdout).contains("3 positions written"),
        "{}",
        text(&out.stdout)
    );
    // Our line from the start, three half-moves: the same for either colour.
    let own = read_book("own.txt");
    assert_eq!(own.len(), 3);
    let start = bughouse_core::Position::new(bughouse_core::Rules::fide());
    assert!(own.lookup(&start).is_some());

    let out = bughouse(&[
        "tune",
        "book",
        "--plies",
        "3",
        "--nodes",
        "3000",
        "--reply-engine",
        "/nonexistent/engine",
        "--out",
        &path("bad.txt"),
    ]);
    assert_eq!(out.status.code(), Some(2));
    assert!(
        text(&out.stderr).contains("/nonexistent/engine"),
        "{}",
        text(&out.stderr)
    );
    assert!(!std::path::Path::new(&path("bad.txt")).exists());

    if !std::path::Path::new(FAIRY_STOCKFISH).exists() {
        assert!(
            std::env::var_os("CI").is_none(),
            "{FAIRY_STOCKFISH} is missing: install the Debian package fairy-stockfish"
        );
        eprintln!("note: {FAIRY_STOCKFISH} is not installed; skipping the book with its replies");
        return;
    }
    let out = bughouse(&[
        "tune",
        "book",
        "--plies",
        "3",
        "--nodes",
        "3000",
        "--reply-lines",
        "2",
        "--reply-nodes",
        "2000",
        "--jobs",
        "2",
        "--out",
        &path("fsf.txt"),
    ]);
    assert!(out.status.success(), "{}", text(&out.stderr));
    // Two replies of Fairy-Stockfish's at least one of which is not ours: the trees branch.
    let fsf = read_book("fsf.txt");
    assert!(fsf.len() > 3, "{}", fsf.to_text());
    assert_eq!(fsf.lookup(&start), own.lookup(&start));
}
