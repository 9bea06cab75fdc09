//! `bughouse arena`, checked by running the built binary: the table, the last line, the BPGN
//! it writes (which must replay), outside UCI engines (Fairy-Stockfish when installed) and the
//! errors for bad engines, players and time controls.

use std::path::Path;

mod common;

use common::{bughouse, text};
#[cfg(unix)]
use common::{engine_logs, fake_uci, fake_xboard, logged_xboard};

const FAIRY_STOCKFISH: &str = "/usr/games/fairy-stockfish";

/// Runs an arena that must succeed; returns standard output.
fn arena(args: &[&str]) -> String {
    let mut all = vec!["arena"];
    all.extend_from_slice(args);
    let out = bughouse(&all);
    assert!(
        out.status.success(),
        "bughouse {all:?} failed with {}: {}{}",
        out.status,
        text(&out.stdout),
        text(&out.stderr)
    );
    text(&out.stdout)
}

/// Checks the last line `team1 S1 - S2 team2 (P%)` and returns (S1, S2).
fn last_line_scores(stdout: &str, matches: f64) -> (f64, f64) {
    let last = stdout.lines().last().expect("some output");
    let words: Vec<&str> = last.split_whitespace().collect();
    assert_eq!(words.len(), 6, "last line {last:?}");
    assert_eq!(words[0], "team1", "{last:?}");
    assert_eq!(words[2], "-", "{last:?}");
    assert_eq!(words[4], "team2", "{last:?}");
    let s1: f64 = words[1].parse().expect("team1's score is a number");
    let s2: f64 = words[3].parse().expect("team2's score is a number");
    assert!((s1 + s2 - matches).abs() < 1e-9, "{last:?}");
    let pct = words[5]
        .strip_prefix('(')
        .and_then(|p| p.strip_suffix("%)"))
        .expect("(P%)");
    let pct: f64 = pct.parse().expect("a percentage");
    assert!((pct - 100.0 * s1 / matches).abs() < 0.051, "{last:?}");
    assert!(
        pct.to_string().contains('.') || words[5].contains(".0%"),
        "{last:?}"
    );
    (s1, s2)
}

fn match_rows(stdout: &str) -> Vec<Vec<String>> {
    stdout
        .lines()
        .filter(|l| {
            l.split_whitespace()
                .next()
                .is_some_and(|w| w.parse::<u32>().is_ok())
        })
        .map(|l| l.split_whitespace().map(str::to_owned).collect())
        .collect()
}

#[test]
fn bots_play_two_matches_with_alternating_seats_and_replayable_bpgn() {
    let dir = tempfile::tempdir().expect("a temporary directory");
    let bpgn = dir.path().join("arena.bpgn");
    let stdout = arena(&[
        "--team1",
        "bot:1",
        "--team2",
        "bot:1",
        "--matches",
        "2",
        "--time",
        "10s+0",
        "--out",
        bpgn.to_str().expect("a UTF-8 path"),
    ]);
    let rows = match_rows(&stdout);
    assert_eq!(rows.len(), 2, "{stdout}");
    assert_eq!(rows[0][0], "1");
    assert_eq!(rows[0][1], "WhiteA+BlackB", "{stdout}");
    assert_eq!(rows[0][2], "BlackA+WhiteB", "{stdout}");
    assert_eq!(rows[1][1], "BlackA+WhiteB", "{stdout}");
    assert_eq!(rows[1][2], "WhiteA+BlackB", "{stdout}");
    for row in &rows {
        assert!(
            ["1-0", "0-1", "1/2-1/2"].contains(&row[3].as_str()),
            "{row:?}"
        );
        assert!(
            ["team1", "team2", "draw"].contains(&row[4].as_str()),
            "{row:?}"
        );
        assert!(row[5].parse::<u32>().is_ok(), "{row:?}");
    }
    assert!(stdout.contains("team1 bot:1: "), "{stdout}");
    last_line_scores(&stdout, 2.0);

    let written = std::fs::read_to_string(&bpgn).expect("the BPGN file");
    assert_eq!(written.matches("[Event \"bughouse arena\"]").count(), 2);
    assert!(written.contains("[WhiteA \"bot:1\"]"));
    assert!(written.contains("[TimeControl \"10+0\"]"));
    let out = bughouse(&["replay", bpgn.to_str().expect("a UTF-8 path")]);
    let replayed = text(&out.stdout);
    assert!(out.status.success(), "{replayed}{}", text(&out.stderr));
    assert_eq!(replayed.lines().last(), Some("2 passed, 0 failed"));
}

#[test]
fn fairy_stockfish_plays_when_installed() {
    if !Path::new(FAIRY_STOCKFISH).exists() {
        if std::env::var_os("CI").is_some() {
            panic!(
                "{FAIRY_STOCKFISH} is missing: install the Debian package fairy-stockfish \
                 (.ci/test installs it)"
            );
        }
        eprintln!("note: {FAIRY_STOCKFISH} is not installed; skipping the UCI arena test");
        return;
    }
    let dir = tempfile::tempdir().expect("a temporary directory");
    let bpgn = dir.path().join("fsf.bpgn");
    let spec = format!("uci:{FAIRY_STOCKFISH}");
    let stdout = arena(&[
        "--team1",
        "bot:1",
        "--team2",
        &spec,
        "--matches",
        "2",
        "--time",
        "5s+0",
        "--out",
        bpgn.to_str().expect("a UTF-8 path"),
    ]);
    assert_eq!(match_rows(&stdout).len(), 2, "{stdout}");
    assert!(!stdout.contains("loses:"), "no engine failure: {stdout}");
    last_line_scores(&stdout, 2.0);
    let out = bughouse(&["replay", bpgn.to_str().expect("a UTF-8 path")]);
    assert!(out.status.success(), "{}", text(&out.stdout));
}

#[test]
fn a_missing_engine_is_a_clear_error() {
    let out = bughouse(&[
        "arena",
        "--team1",
        "bot",
        "--team2",
        "uci:/nonexistent/engine",
        "--matches",
        "1",
    ]);
    assert_eq!(out.status.code(), Some(2));
    let err = text(&out.stderr);
    assert!(err.starts_with("error: team2 (uci:/nonexistent/engine): cannot start the engine: /nonexistent/engine: "), "{err}");
    assert!(text(&out.stdout).is_empty());
}

#[test]
fn an_engine_without_bughouse_is_a_clear_error() {
    // `true` starts, answers nothing and exits: the handshake sees it die.
    let Some(path) = ["/bin/true", "/usr/bin/true"]
        .into_iter()
        .find(|p| Path::new(p).exists())
    else {
        return;
    };
    let spec = format!("uci:{path}");
    let out = bughouse(&[
        "arena",
        "--team1",
        &spec,
        "--team2",
        "bot",
        "--matches",
        "1",
    ]);
    assert_eq!(out.status.code(), Some(2));
    let err = text(&out.stderr);
    assert!(
        err.starts_with(&format!("error: team1 ({spec}): the engine died")),
        "{err}"
    );
}

#[cfg(unix)]
#[test]
fn an_engine_that_plays_illegal_moves_or_dies_loses_and_the_arena_goes_on() {
    let dir = tempfile::tempdir().expect("a temporary directory");
    for (name, on_go, message) in [
        (
            "illegal",
            "echo 'bestmove e2e5'",
            "illegal bestmove \"e2e5\"",
        ),
        (
            "none",
            "echo 'bestmove (none)'",
            "answered bestmove \"(none)\"",
        ),
        ("dies", "exit 3", "the engine died"),
    ] {
        let spec = fake_uci(dir.path(), name, on_go);
        let out = bughouse(&[
            "arena",
            "--team1",
            "bot:1",
            "--team2",
            &spec,
            "--matches",
            "2",
            "--time",
            "10s+0",
        ]);
        let stdout = text(&out.stdout);
        assert!(
            out.status.success(),
            "{name}: {stdout}{}",
            text(&out.stderr)
        );
        let rows = match_rows(&stdout);
        assert_eq!(rows.len(), 2, "{name}: {stdout}");
        for row in &rows {
            assert_eq!(row[4], "team1", "{name}: {row:?}");
        }
        assert!(
            stdout.contains(&format!("({spec}) loses: ")),
            "{name}: {stdout}"
        );
        assert!(stdout.contains(message), "{name}: {stdout}");
        assert!(text(&out.stderr).contains("match 2: "), "{name}");
        assert_eq!(last_line_scores(&stdout, 2.0), (2.0, 0.0));
    }
}

#[test]
fn malformed_players_and_time_controls_are_clap_errors() {
    for (args, expected) in [
        (
            ["--team1", "robot", "--team2", "bot", "--time", "1+0"],
            "invalid player \"robot\"",
        ),
        (
            ["--team1", "uci:", "--team2", "bot", "--time", "1+0"],
            "uci: needs the engine's path",
        ),
        (
            ["--team1", "bot", "--team2", "bot:xyz", "--time", "1+0"],
            "invalid level \"xyz\"",
        ),
        (
            ["--team1", "bot", "--team2", "bot", "--time", "fast"],
            "invalid time control \"fast\"",
        ),
        (
            ["--team1", "bot", "--team2", "bot", "--rules", "crazyhouse"],
            "crazyhouse is a one-board game",
        ),
    ] {
        let mut all = vec!["arena"];
        all.extend_from_slice(&args);
        let out = bughouse(&all);
        assert_eq!(out.status.code(), Some(2), "{all:?}");
        let err = text(&out.stderr);
        assert!(err.contains("error: invalid value"), "{all:?}: {err}");
        assert!(err.contains(expected), "{all:?}: {err}");
    }
}

#[test]
fn fairy_stockfish_plays_through_xboard_when_installed() {
    if !Path::new(FAIRY_STOCKFISH).exists() {
        if std::env::var_os("CI").is_some() {
            panic!(
                "{FAIRY_STOCKFISH} is missing: install the Debian package fairy-stockfish \
                 (.ci/test installs it)"
            );
        }
        eprintln!("note: {FAIRY_STOCKFISH} is not installed; skipping the XBoard arena test");
        return;
    }
    let dir = tempfile::tempdir().expect("a temporary directory");
    let bpgn = dir.path().join("fsf-xboard.bpgn");
    let spec = format!("xboard:{FAIRY_STOCKFISH}");
    let stdout = arena(&[
        "--team1",
        "bot:1",
        "--team2",
        &spec,
        "--matches",
        "2",
        "--time",
        "5s+0",
        "--out",
        bpgn.to_str().expect("a UTF-8 path"),
    ]);
    assert_eq!(match_rows(&stdout).len(), 2, "{stdout}");
    assert!(!stdout.contains("loses:"), "no engine failure: {stdout}");
    last_line_scores(&stdout, 2.0);
    let out = bughouse(&["replay", bpgn.to_str().expect("a UTF-8 path")]);
    assert!(out.status.success(), "{}", text(&out.stdout));
}

#[cfg(unix)]
#[test]
fn xboard_engines_that_fail_lose_and_partners_hear_each_other() {
    for (name, on_go, message) in [
        ("illegal", "echo 'move e2e5'", "illegal move \"e2e5\""),
        (
            "resigns",
            "echo resign",
            "answered \"resign\" instead of a move",
        ),
        ("dies", "exit 3", "the engine died"),
    ] {
        let dir = tempfile::tempdir().expect("a temporary directory");
        let spec = fake_xboard(dir.path(), name, on_go);
        let out = bughouse(&[
            "arena",
            "--team1",
            "bot:1",
            "--team2",
            &spec,
            "--matches",
            "1",
            "--time",
            "10s+0",
        ]);
        let stdout = text(&out.stdout);
        assert!(
            out.status.success(),
            "{name}: {stdout}{}",
            text(&out.stderr)
        );
        let rows = match_rows(&stdout);
        assert_eq!(rows.len(), 1, "{name}: {stdout}");
        assert_eq!(rows[0][4], "team1", "{name}: {stdout}");
        assert!(stdout.contains(message), "{name}: {stdout}");
        // The start-up check runs one engine alone; the match, one per board.
        let logs = engine_logs(dir.path());
        let players: Vec<&String> = logs.iter().filter(|l| l.contains("partner ")).collect();
        assert_eq!(players.len(), 2, "{name}: {logs:?}");
        for log in &players {
            assert!(log.starts_with("xboard\nprotover 2\n"), "{name}: {log}");
            assert!(log.contains("variant bughouse\n"), "{name}: {log}");
            // Each hears its partner's greeting, not its own.
            let heard: Vec<&str> = log
                .lines()
                .filter_map(|l| l.strip_prefix("ptell hello "))
                .collect();
            assert_eq!(heard.len(), 1, "{name}: {log}");
        }
        let heard: Vec<&str> = players
            .iter()
            .flat_map(|l| l.lines().filter_map(|l| l.strip_prefix("ptell hello ")))
            .collect();
        assert_ne!(
            heard[0], heard[1],
            "{name}: each greeting went to the other engine"
        );
    }
}

#[cfg(unix)]
#[test]
fn a_team_of_our_xboard_engines_plays_the_bot_with_partner_talk_relayed() {
    let dir = tempfile::tempdir().expect("a temporary directory");
    let spec = logged_xboard(dir.path(), "ours", "");
    let bpgn = dir.path().join("xb.bpgn");
    let stdout = arena(&[
        "--team1",
        "bot:1",
        "--team2",
        &spec,
        "--matches",
        "2",
        "--time",
        "5s+0",
        "--out",
        bpgn.to_str().expect("a UTF-8 path"),
    ]);
    assert_eq!(match_rows(&stdout).len(), 2, "{stdout}");
    assert!(!stdout.contains("loses:"), "no engine failure: {stdout}");
    last_line_scores(&stdout, 2.0);
    let logs = engine_logs(dir.path());
    let players: Vec<&String> = logs.iter().filter(|l| l.contains("partner ")).collect();
    assert_eq!(players.len(), 4, "two matches, two engines each");
    for log in &players {
        for expected in [
            "variant bughouse\n",
            "level 0 0:05 0\n",
            "force\n",
            "time ",
            "otim ",
            "\ngo\n",
        ] {
            assert!(log.contains(expected), "{expected:?} in {log}");
        }
        assert!(
            log.contains("ptell partner bughouse is an engine"),
            "the partner's greeting is relayed: {log}"
        );
    }
    assert!(
        players.iter().any(|l| l.contains("usermove ")),
        "moves go as usermove"
    );
    assert!(
        players.iter().any(|l| l.contains("holding [")),
        "the partner's captures go as holding"
    );
    let out = bughouse(&["replay", bpgn.to_str().expect("a UTF-8 path")]);
    assert!(out.status.success(), "{}", text(&out.stdout));
}

#[cfg(unix)]
#[test]
fn an_xboard_engine_told_to_sit_holds_its_move_and_the_arena_goes_on() {
    // The first engine of the match (the start-up check runs one before) asks its partner to
    // sit from the start and never says go: the partner sits until its clock is down to about
    // a second, then plays on.
    let dir = tempfile::tempdir().expect("a temporary directory");
    let d = dir.path().display().to_string();
    let spec = logged_xboard(
        dir.path(),
        "sitter",
        &format!(
            "if mkdir {d}/a 2>/dev/null; then :; elif mkdir {d}/b 2>/dev/null; then \
             echo 'tellics ptell sit'; fi\n"
        ),
    );
    let bpgn = dir.path().join("sit.bpgn");
    let stdout = arena(&[
        "--team1",
        &spec,
        "--team2",
        "bot:1",
        "--matches",
        "1",
        "--time",
        "5s+0",
        "--out",
        bpgn.to_str().expect("a UTF-8 path"),
    ]);
    assert_eq!(match_rows(&stdout).len(), 1, "{stdout}");
    assert!(!stdout.contains("loses:"), "no engine failure: {stdout}");
    let logs = engine_logs(dir.path());
    let players: Vec<&String> = logs.iter().filter(|l| l.contains("partner ")).collect();
    assert_eq!(players.len(), 2);
    // Told to sit before its first move (later in the match our engine may ask its partner to
    // sit by itself, when its own position calls for it).
    let sitters: Vec<&&String> = players
        .iter()
        .filter(|l| {
            l.split("\ngo\n")
                .next()
                .is_some_and(|h| h.contains("ptell sit\n"))
        })
        .collect();
    assert_eq!(sitters.len(), 1, "one engine is told to sit: {players:?}");
    assert!(
        sitters[0].contains("\n?\n"),
        "its held move is asked for with ?: {}",
        sitters[0]
    );
    // Its first move was held: it was asked again (the partner's captures changed its
    // reserve: it searches again, as Fairy-Stockfish does on `holding`) before its first move
    // was played and its opponent's reply came as a `usermove`.
    let log = sitters[0].as_str();
    let first_go = log.find("\ngo\n").expect("a go");
    let first_reply = log.find("usermove ").unwrap_or(log.len());
    // Without a capture there meanwhile, it moved at about a second left.
    let times: Vec<u64> = log
        .lines()
        .filter_map(|l| l.strip_prefix("time ")?.parse().ok())
        .collect();
    assert!(
        log[first_go + 1..first_reply].contains("\ngo\n") || times.get(1) <= Some(&130),
        "it sat: {log}"
    );
    let written = std::fs::read_to_string(&bpgn).expect("the BPGN file");
    assert!(written.contains("[WhiteA \"xboard:"), "{written}");
    let out = bughouse(&["replay", bpgn.to_str().expect("a UTF-8 path")]);
    assert!(out.status.success(), "{}", text(&out.stdout));
}

/// `uci:PATH?NAME=VALUE&...` sends the options after `UCI_Variant`: our own engine through
/// `bughouse uci`, every line it is sent logged.
#[cfg(unix)]
#[test]
fn uci_engine_options_are_sent_with_setoption() {
    let dir = tempfile::tempdir().expect("a temporary directory");
    let log = dir.path().join("in").display().to_string();
    let path = common::script(
        dir.path(),
        "logged-uci",
        &format!("tee -a {log}.$$ | {} uci\n", env!("CARGO_BIN_EXE_bughouse")),
    );
    let spec = format!("uci:{path}?Hash=8");
    let stdout = arena(&[
        "--team1",
        &spec,
        "--team2",
        "bot:1",
        "--matches",
        "1",
        "--time",
        "3s+0",
    ]);
    assert!(stdout.contains("?Hash=8"), "{stdout}");
    let logs = engine_logs(dir.path());
    assert!(!logs.is_empty());
    for log in logs {
        let variant = log.find("setoption name UCI_Variant value bughouse");
        let hash = log.find("setoption name Hash value 8");
        assert!(variant.is_some() && hash > variant, "{log}");
    }
}
