//! The command-line contract of the `bughouse` binary, checked by running it.

use std::io::Write;
use std::process::{Command, Output, Stdio};

const START: &str = "rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR[] w KQkq - 0 1";
/// Black is in check from a rook on the back rank; a drop on b8-f8 could block it, but Black's
/// reserve is empty.
const DISTANT_ROOK_CHECK: &str = "R5k1/5ppp/8/8/8/8/8/6K1[] b - - 0 1";
/// White to move with a queen in reserve; `Q@g7` is a contact mate, guarded by the king on f6.
const QUEEN_DROP_MATES: &str = "7k/8/5K2/8/8/8/8/8[Q] w - - 0 1";

/// Runs `bughouse ARGS` with `stdin` as standard input.
fn run(args: &[&str], stdin: &str) -> Output {
    let mut child = Command::new(env!("CARGO_BIN_EXE_bughouse"))
        .args(args)
        .stdin(Stdio::piped())
        .stdout(Stdio::piped())
        .stderr(Stdio::piped())
        .spawn()
        .expect("the bughouse binary starts");
    child
        .stdin
        .take()
        .expect("stdin is piped")
        .write_all(stdin.as_bytes())
        .expect("stdin takes the input");
    child.wait_with_output().expect("the bughouse binary ends")
}

fn stdout(out: &Output) -> String {
    String::from_utf8(out.stdout.clone()).expect("stdout is UTF-8")
}

fn stderr(out: &Output) -> String {
    String::from_utf8(out.stderr.clone()).expect("stderr is UTF-8")
}

/// Runs a command that must succeed and returns its standard output.
fn ok(args: &[&str], stdin: &str) -> String {
    let out = run(args, stdin);
    assert!(
        out.status.success(),
        "bughouse {args:?} failed with {}: {}",
        out.status,
        stderr(&out)
    );
    stdout(&out)
}

fn words(line: &str) -> Vec<&str> {
    line.split_whitespace().collect()
}

// --- perft ---

#[test]
fn perft_start_position_depth_1() {
    let text = ok(&["perft", "--rules", "fide", "1"], "");
    assert_eq!(text.lines().last(), Some("nodes 20"));
}

#[test]
fn perft_depth_3_equals_chess() {
    // No drop is possible within 3 plies from the start, so the count is that of chess.
    let text = ok(&["perft", "--rules", "fide", "3"], "");
    assert_eq!(text, "nodes 8902\n");
}

#[test]
fn perft_divide_lists_each_first_move() {
    let text = ok(&["perft", "--rules", "fide", "--divide", "2"], "");
    let lines: Vec<&str> = text.lines().collect();
    assert_eq!(lines.len(), 21, "20 first moves and the total: {text}");
    assert_eq!(lines.last(), Some(&"nodes 400"));
    let mut sum = 0;
    for line in &lines[..20] {
        let [m, n] = words(line)[..] else {
            panic!("expected `MOVE N`, got {line:?}");
        };
        assert_eq!(n, "20", "{m}: every reply count at depth 2 is 20");
        sum += n.parse::<u64>().unwrap();
    }
    assert_eq!(sum, 400);
    assert!(lines.contains(&"e2e4 20"));
    assert!(lines.contains(&"g1f3 20"));
}

#[test]
fn perft_divide_depth_0_counts_one() {
    let text = ok(&["perft", "--rules", "fide", "--divide", "0"], "");
    assert_eq!(text, "nodes 1\n");
}

#[test]
fn perft_fen_with_reserves() {
    // 5 king moves, 62 queen drops on the empty squares; a black knight in reserve changes nothing
    // for White.
    let fen = "2k5/8/8/8/8/8/8/4K3[Qn] w - - 0 1";
    let text = ok(&["perft", "--rules", "crazyhouse", "--fen", fen, "1"], "");
    assert_eq!(text.lines().last(), Some("nodes 67"));
    // The ninth-rank form of the same reserve.
    let ninth = "2k5/8/8/8/8/8/8/4K3/Qn w - - 0 1";
    let text = ok(&["perft", "--rules", "crazyhouse", "--fen", ninth, "1"], "");
    assert_eq!(text.lines().last(), Some("nodes 67"));
}

#[test]
fn perft_time_goes_to_stderr() {
    let out = run(&["perft", "--rules", "fide", "--time", "2"], "");
    assert!(out.status.success());
    assert_eq!(stdout(&out), "nodes 400\n");
    assert!(stderr(&out).contains("per second"), "{}", stderr(&out));
}

#[test]
fn perft_bad_fen_fails() {
    let out = run(&["perft", "--rules", "fide", "--fen", "not a fen", "1"], "");
    assert!(!out.status.success());
    assert!(stderr(&out).starts_with("error: "), "{}", stderr(&out));
    assert!(stdout(&out).is_empty());
}

// --- moves ---

#[test]
fn moves_with_fen() {
    let fen = "4k3/8/8/8/8/8/8/4K2R[] w K - 0 1";
    let text = ok(&["moves", "--rules", "fide", "--fen", fen], "");
    assert_eq!(text.lines().count(), 1);
    let mut moves = words(&text);
    moves.sort_unstable();
    let mut expected = vec![
        "e1d1", "e1d2", "e1e2", "e1f1", "e1f2", "e1g1", "h1f1", "h1g1", "h1h2", "h1h3", "h1h4",
        "h1h5", "h1h6", "h1h7", "h1h8",
    ];
    expected.sort_unstable();
    assert_eq!(moves, expected);
}

#[test]
fn moves_lists_drops() {
    let text = ok(&["moves", "--rules", "fide", "--fen", QUEEN_DROP_MATES], "");
    let moves = words(&text);
    assert!(moves.contains(&"Q@g7"), "{text}");
    assert!(moves.contains(&"Q@a1"), "{text}");
}

#[test]
fn moves_from_stdin_one_answer_per_line() {
    let input = format!("{START}\n{START} moves e2e4 e7e5\n");
    let text = ok(&["moves", "--rules", "fide"], &input);
    let lines: Vec<&str> = text.lines().collect();
    assert_eq!(lines.len(), 2, "{text}");
    assert_eq!(words(lines[0]).len(), 20);
    let after = words(lines[1]);
    // 29 moves after 1.e4 e5 (the queen and bishop have opened, the king may go to e2).
    assert_eq!(after.len(), 29, "{}", lines[1]);
    assert!(after.contains(&"g1f3"));
    assert!(after.contains(&"d1h5"));
    assert!(after.contains(&"e1e2"));
    assert!(!after.contains(&"e2e4"));
}

#[test]
fn moves_invalid_line_answers_error_and_continues() {
    let input = format!("{START}\nthis is no fen\n{START} moves e2e5\n{START} moves e2e4\n");
    let out = run(&["moves", "--rules", "fide"], &input);
    assert_eq!(out.status.code(), Some(1), "exit 1 when any line failed");
    let text = stdout(&out);
    let lines: Vec<&str> = text.lines().collect();
    assert_eq!(lines.len(), 4, "{text}");
    assert_eq!(words(lines[0]).len(), 20);
    assert!(lines[1].starts_with("error: "), "{}", lines[1]);
    assert!(
        lines[2].starts_with("error: "),
        "an illegal move: {}",
        lines[2]
    );
    assert!(lines[2].contains("e2e5"), "{}", lines[2]);
    assert_eq!(
        words(lines[3]).len(),
        20,
        "processing continued: {}",
        lines[3]
    );
    assert!(words(lines[3]).contains(&"e7e5"));
}

#[test]
fn moves_empty_line_when_there_is_no_move() {
    // A rook check on the back rank with an empty reserve: checkmate under minerva-2014
    // (interp. M5, FIDE base), so no legal move at all.
    let input = format!("{DISTANT_ROOK_CHECK}\n{START}\n");
    let text = ok(&["moves", "--rules", "minerva-2014"], &input);
    let lines: Vec<&str> = text.lines().collect();
    assert_eq!(lines.len(), 2, "{text:?}");
    assert_eq!(lines[0], "");
    assert_eq!(words(lines[1]).len(), 20);
}

#[test]
fn moves_bad_rules_fails() {
    let out = run(&["moves", "--rules", "nonsense", "--fen", START], "");
    assert!(!out.status.success());
    assert!(stderr(&out).contains("nonsense"), "{}", stderr(&out));
    assert!(stdout(&out).is_empty());
}

// --- status ---

#[test]
fn status_ongoing() {
    let text = ok(&["status", "--rules", "fide", "--fen", START], "");
    assert_eq!(text, "ongoing\n");
}

#[test]
fn status_distant_check_waits_under_fide() {
    // F3.7: not mate while a piece Black could still receive could block the check.
    let text = ok(
        &["status", "--rules", "fide"],
        &format!("{DISTANT_ROOK_CHECK}\n"),
    );
    assert_eq!(text, "waiting\n");
}

#[test]
fn status_distant_check_is_mate_under_minerva() {
    // interp. (M5, FIDE base): in check with no legal move with the reserve he has now.
    let text = ok(
        &[
            "status",
            "--rules",
            "minerva-2014",
            "--fen",
            DISTANT_ROOK_CHECK,
        ],
        "",
    );
    assert_eq!(text, "checkmate\n");
}

#[test]
fn status_repetition_claim_under_fide() {
    // F4.1: the start position occurs for the fourth time.
    let moves = ["g1f3 g8f6 f3g1 f6g8"; 3].join(" ");
    let line = format!("{START} moves {moves}\n");
    let text = ok(&["status", "--rules", "fide"], &line);
    assert_eq!(text, "ongoing claim:repetition\n");
    // Only three occurrences: no claim yet.
    let moves = ["g1f3 g8f6 f3g1 f6g8"; 2].join(" ");
    let line = format!("{START} moves {moves}\n");
    assert_eq!(ok(&["status", "--rules", "fide"], &line), "ongoing\n");
    // M5.4: no repetition claims under minerva-2014.
    let moves = ["g1f3 g8f6 f3g1 f6g8"; 3].join(" ");
    let line = format!("{START} moves {moves}\n");
    assert_eq!(
        ok(&["status", "--rules", "minerva-2014"], &line),
        "ongoing\n"
    );
}

#[test]
fn status_move_count_claim_under_knsb() {
    // K11F: 30 moves by each side with no capture, drop or pawn move.
    let input = "4k3/8/8/8/8/8/8/4K2R[] w - - 60 80\n4k3/8/8/8/8/8/8/4K2R[] w - - 59 80\n";
    let text = ok(&["status", "--rules", "knsb-1988"], input);
    assert_eq!(text, "ongoing claim:move-count\nongoing\n");
    // fide has no move-count rule.
    let text = ok(&["status", "--rules", "fide"], input);
    assert_eq!(text, "ongoing\nongoing\n");
}

#[test]
fn status_mating_drop_allowed_under_fide() {
    // F3.4: a drop may give mate.
    let line = format!("{QUEEN_DROP_MATES} moves Q@g7\n");
    let text = ok(&["status", "--rules", "fide"], &line);
    assert_eq!(text, "checkmate\n");
}

#[test]
fn status_mating_drop_forbidden_under_knsb() {
    // K5A: a drop may not give check, so not mate either.
    let text = ok(
        &["status", "--rules", "knsb-1988", "--fen", QUEEN_DROP_MATES],
        "",
    );
    assert_eq!(text, "ongoing\n");
    let moves = ok(
        &["moves", "--rules", "knsb-1988", "--fen", QUEEN_DROP_MATES],
        "",
    );
    assert!(!words(&moves).contains(&"Q@g7"), "{moves}");
    assert!(
        words(&moves).contains(&"Q@a1"),
        "a quiet drop is fine: {moves}"
    );
    let line = format!("{QUEEN_DROP_MATES} moves Q@g7\n");
    let out = run(&["status", "--rules", "knsb-1988"], &line);
    assert_eq!(out.status.code(), Some(1));
    let text = stdout(&out);
    assert!(text.starts_with("error: "), "{text}");
    assert!(text.contains("Q@g7"), "{text}");
}

// --- rules ---

#[test]
fn rules_lists_the_presets() {
    let text = ok(&["rules"], "");
    let ids: Vec<&str> = text
        .lines()
        .filter_map(|l| l.split_whitespace().next())
        .collect();
    assert_eq!(
        ids,
        [
            "fide",
            "minerva-2014",
            "knsb-1988",
            "uscf-scholastic-2006",
            "crazyhouse"
        ]
    );
}

#[test]
fn rules_prints_every_field_of_a_preset() {
    let text = ok(&["rules", "knsb-1988"], "");
    let lines: Vec<&str> = text.lines().collect();
    assert_eq!(lines[0], "preset = knsb-1988");
    assert!(lines.contains(&"drop_check = Forbidden"), "{text}"); // K5A
    assert!(lines.contains(&"move_count_claim = 30"), "{text}"); // K11F
    assert!(lines.iter().all(|l| l.contains(" = ")), "{text}");
}

#[test]
fn rules_unknown_preset_fails() {
    let out = run(&["rules", "blitz-9000"], "");
    assert!(!out.status.success());
    let err = stderr(&out);
    assert!(err.contains("blitz-9000"), "{err}");
    assert!(
        err.contains("fide"),
        "the message names the valid presets: {err}"
    );
}
