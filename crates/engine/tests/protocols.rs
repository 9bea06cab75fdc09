//! The UCI and XBoard front ends in process: a script of commands in, the answers read from
//! memory (the `bughouse uci` and `bughouse xboard` tests of crates/cli drive the same code over
//! pipes).

use std::io::{Cursor, Write};
use std::sync::{Arc, Mutex};

use bughouse_core::{Position, Rules};
use bughouse_engine::{uci, xboard};

/// A writer into memory that the test reads after the run (the UCI search thread writes too).
#[derive(Clone, Default)]
struct Memory(Arc<Mutex<Vec<u8>>>);

impl Write for Memory {
    fn write(&mut self, buf: &[u8]) -> std::io::Result<usize> {
        self.0
            .lock()
            .map_err(|_| std::io::Error::other("poisoned"))?
            .write(buf)
    }

    fn flush(&mut self) -> std::io::Result<()> {
        Ok(())
    }
}

impl Memory {
    fn lines(&self) -> Vec<String> {
        let bytes = self.0.lock().expect("not poisoned").clone();
        String::from_utf8(bytes)
            .expect("UTF-8")
            .lines()
            .map(str::to_owned)
            .collect()
    }
}

/// Runs the UCI loop on `script` to its end; returns what it wrote.
fn uci_run(script: &str) -> Vec<String> {
    let out = Memory::default();
    uci::run(Cursor::new(script.to_owned()), out.clone());
    out.lines()
}

/// Runs the XBoard loop on `script` to its end; returns what it wrote.
fn xboard_run(script: &str) -> Vec<String> {
    let out = Memory::default();
    xboard::run(Cursor::new(script.to_owned()), out.clone());
    out.lines()
}

#[test]
fn uci_handshake_and_a_drop_mate_found_within_a_node_limit() {
    let lines = uci_run(
        "uci\nisready\nsetoption name UCI_Variant value crazyhouse\n\
         position fen 7k/8/5K2/8/8/8/8/8[Q] w - - 0 1\ngo nodes 20000\n",
    );
    assert!(lines.iter().any(|l| l == "id name bughouse"), "{lines:?}");
    assert!(lines.iter().any(|l| l == "uciok"), "{lines:?}");
    assert!(lines.iter().any(|l| l == "readyok"), "{lines:?}");
    assert_eq!(lines.last().map(String::as_str), Some("bestmove Q@g7"));
    assert!(
        lines.iter().any(|l| l.contains(" score mate 1")),
        "{lines:?}"
    );
}

#[test]
fn uci_answers_garbage_with_an_error_line_and_goes_on() {
    let lines = uci_run("flibbertigibbet\nposition startpos moves e2e5\nquit\nuci\n");
    let errors = lines
        .iter()
        .filter(|l| l.starts_with("info string error: "))
        .count();
    assert_eq!(errors, 2, "{lines:?}");
    assert!(
        !lines.iter().any(|l| l == "uciok"),
        "nothing is read after quit: {lines:?}"
    );
}

#[test]
fn uci_without_a_legal_move_answers_none() {
    let lines = uci_run("position fen 7k/5Q2/6K1/8/8/8/8/8[] b - - 0 1\ngo nodes 1000\n");
    assert_eq!(lines.last().map(String::as_str), Some("bestmove (none)"));
}

#[test]
fn xboard_plays_a_legal_move_with_the_holding_it_was_told() {
    let lines = xboard_run(
        "xboard\nprotover 2\nnew\nvariant bughouse\npartner someone\nforce\n\
         usermove e2e4\nusermove e7e5\nusermove g1f3\nholding [] [N]\n\
         time 100\notim 100\ngo\n",
    );
    assert!(
        lines
            .iter()
            .any(|l| l.starts_with("feature ") && l.contains("variants=\"bughouse,crazyhouse\"")),
        "{lines:?}"
    );
    assert!(
        lines
            .iter()
            .any(|l| l.starts_with("tellics ptell partner bughouse")),
        "{lines:?}"
    );
    let answer = lines
        .iter()
        .find_map(|l| l.strip_prefix("move "))
        .unwrap_or_else(|| panic!("a move in {lines:?}"));
    let pos = Position::from_fen(
        "rnbqkbnr/pppp1ppp/8/4p3/4P3/5N2/PPPP1PPP/RNBQKB1R[n] b KQkq - 1 2",
        Rules::fide(),
    )
    .expect("a FEN");
    assert!(pos.parse_uci(answer).is_ok(), "{answer} is legal for Black");
}

#[test]
fn xboard_refuses_illegal_moves_by_name_and_answers_ping_in_order() {
    let lines = xboard_run("new\nforce\nusermove e2e5\nping 3\nflibbertigibbet\n");
    assert_eq!(
        lines,
        [
            "Illegal move: e2e5",
            "pong 3",
            "Error (unknown command): flibbertigibbet"
        ]
    );
}

/// The nodes of the last `info` line of a UCI run.
fn last_nodes(lines: &[String]) -> u64 {
    let info = lines
        .iter()
        .rev()
        .find(|l| l.starts_with("info depth"))
        .expect("an info line");
    let words: Vec<&str> = info.split_whitespace().collect();
    let at = words.iter().position(|w| *w == "nodes").expect("nodes");
    words[at + 1].parse().expect("a number")
}

#[test]
fn uci_search_option_picks_a_named_configuration_and_refuses_unknown_names() {
    let go =
        "position fen r1bqk2r/pppp1ppp/2n1p3/4P3/1b1Pn3/2NB1N2/PPP2PPP/R1BQK2R[Np] b KQkq - 0 1\n\
              go depth 5\n";
    let default = uci_run(&format!("uci\n{go}"));
    assert!(
        default.iter().any(
            |l| l.starts_with("option name Search type combo default default")
                && l.contains(" var guard ")
                && l.contains(" var base ")
        ),
        "{default:?}"
    );
    let named_default = uci_run(&format!("setoption name Search value default\n{go}"));
    let base = uci_run(&format!("setoption name Search value base\n{go}"));
    assert_eq!(last_nodes(&named_default), last_nodes(&default));
    assert_ne!(last_nodes(&base), last_nodes(&default));
    let bad = uci_run("setoption name Search value fastest\n");
    assert_eq!(bad.len(), 1, "{bad:?}");
    assert!(
        bad[0]
            .starts_with("info string error: setoption Search: unknown search \"fastest\" (base|"),
        "{bad:?}"
    );
}

#[test]
fn uci_evalfile_option_plays_with_a_weights_file_and_refuses_a_bad_one() {
    let go =
        "position fen r1bqk2r/pppp1ppp/2n1p3/4P3/1b1Pn3/2NB1N2/PPP2PPP/R1BQK2R[Np] b KQkq - 0 1\n\
              go depth 4\n";
    let default = uci_run(&format!("uci\n{go}"));
    assert!(
        default
            .iter()
            .any(|l| l == "option name EvalFile type string default <empty>"),
        "{default:?}"
    );
    let dir = tempfile::tempdir().expect("a temporary directory");
    let weights = dir.path().join("w.txt");
    let mut params = bughouse_engine::EvalParams::DEFAULT;
    params.tempo += 40;
    params.mobility = [9, 9, 9, 9];
    std::fs::write(&weights, params.to_text()).expect("written");
    let tuned = uci_run(&format!(
        "setoption name EvalFile value {}\n{go}",
        weights.display()
    ));
    assert_ne!(last_nodes(&tuned), last_nodes(&default));
    // Back to the defaults.
    let reset = uci_run(&format!(
        "setoption name EvalFile value {}\nsetoption name EvalFile value <empty>\n{go}",
        weights.display()
    ));
    assert_eq!(last_nodes(&reset), last_nodes(&default));
    std::fs::write(&weights, "tempo = many\n").expect("written");
    let bad = uci_run(&format!(
        "setoption name EvalFile value {}\n",
        weights.display()
    ));
    assert_eq!(bad.len(), 1, "{bad:?}");
    assert!(
        bad[0].starts_with("info string error: setoption EvalFile: ") && bad[0].contains("tempo"),
        "{bad:?}"
    );
}
