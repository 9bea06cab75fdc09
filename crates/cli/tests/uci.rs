//! `bughouse uci`, driven over its standard input and output like a GUI would.

use std::thread;
use std::time::Duration;

use bughouse_core::{Position, Rules};

mod common;

use common::Piped;

/// `bughouse uci`, with the answer to `go`.
struct Uci(Piped);

impl Uci {
    fn start() -> Uci {
        Uci(Piped::start("uci"))
    }

    fn send(&mut self, line: &str) {
        self.0.send(line);
    }

    /// Reads lines until one starts with `prefix`; returns all lines read, that one last.
    fn until(&mut self, prefix: &str) -> Vec<String> {
        self.0.until(prefix)
    }

    fn bestmove(&mut self) -> (Vec<String>, String) {
        let lines = self.until("bestmove");
        let last = lines.last().expect("a bestmove line");
        let m = last
            .split_whitespace()
            .nth(1)
            .expect("bestmove MOVE")
            .to_owned();
        (lines, m)
    }
}

#[test]
fn handshake_options_and_isready() {
    let mut uci = Uci::start();
    uci.send("uci");
    let lines = uci.until("uciok");
    assert!(lines.iter().any(|l| l == "id name bughouse"), "{lines:?}");
    assert!(
        lines
            .iter()
            .any(|l| l.starts_with("option name UCI_Variant type combo")
                && l.contains("var bughouse")
                && l.contains("var crazyhouse")),
        "{lines:?}"
    );
    assert!(
        lines.iter().any(|l| l.starts_with("option name Hash")),
        "{lines:?}"
    );
    uci.send("isready");
    assert_eq!(uci.until("readyok"), vec!["readyok".to_owned()]);
}

#[test]
fn a_fen_with_reserves_and_promoted_pieces_gets_a_legal_move() {
    let fen = "r1bqkb1r/pppp1ppp/2n2n2/4p3/4P3/2N2N2/PPPP1PPP/R1BQKB1R[Pp] w KQkq - 4 4";
    let mut uci = Uci::start();
    uci.send("uci");
    uci.until("uciok");
    uci.send("setoption name UCI_Variant value bughouse");
    uci.send("ucinewgame");
    uci.send(&format!("position fen {fen} moves P@d5"));
    uci.send("go depth 3");
    let (lines, m) = uci.bestmove();
    assert!(
        lines.iter().any(|l| l.starts_with("info depth ")
            && l.contains(" score ")
            && l.contains(" nodes ")),
        "{lines:?}"
    );
    let mut pos = Position::from_fen(fen, Rules::fide()).expect("a legal FEN");
    let d5 = pos.parse_uci("P@d5").expect("P@d5 is legal");
    pos.play(d5).expect("P@d5 plays");
    assert!(pos.parse_uci(&m).is_ok(), "{m} is legal in {}", pos.fen());

    // A promoted queen (`Q~`), in Fairy-Stockfish's notation, and clocks.
    let promoted = "4k3/8/8/8/8/8/8/Q~3K3[Nn] w - - 0 30";
    uci.send(&format!("position fen {promoted}"));
    uci.send("go wtime 3000 btime 3000 winc 0 binc 0");
    let (_, m) = uci.bestmove();
    let pos = Position::from_fen(promoted, Rules::fide()).expect("a legal FEN");
    assert!(pos.parse_uci(&m).is_ok(), "{m} is legal in {promoted}");
}

#[test]
fn finds_a_drop_mate_in_one() {
    // White to move with a queen in reserve; Q@g7 is a contact mate guarded by the king on f6.
    for variant in ["bughouse", "crazyhouse"] {
        let mut uci = Uci::start();
        uci.send(&format!("setoption name UCI_Variant value {variant}"));
        uci.send("position fen 7k/8/5K2/8/8/8/8/8[Q] w - - 0 1");
        uci.send("go depth 3");
        let (lines, m) = uci.bestmove();
        assert_eq!(m, "Q@g7", "{variant}: {lines:?}");
        assert!(
            lines.iter().any(|l| l.contains(" score mate 1")),
            "{variant}: {lines:?}"
        );
    }
}

#[test]
fn no_legal_move_answers_none() {
    let mut uci = Uci::start();
    // Black is stalemated with nothing in reserve.
    uci.send("position fen 7k/5Q2/6K1/8/8/8/8/8[] b - - 0 1");
    uci.send("go depth 2");
    let (_, m) = uci.bestmove();
    assert_eq!(m, "(none)");
}

#[test]
fn infinite_search_stops_on_stop() {
    let mut uci = Uci::start();
    uci.send("position startpos moves e2e4 e7e5");
    uci.send("go infinite");
    thread::sleep(Duration::from_millis(300));
    uci.send("isready");
    uci.until("readyok");
    uci.send("stop");
    let (_, m) = uci.bestmove();
    let mut pos = Position::new(Rules::fide());
    for token in ["e2e4", "e7e5"] {
        let mv = pos.parse_uci(token).expect("legal");
        pos.play(mv).expect("plays");
    }
    assert!(pos.parse_uci(&m).is_ok(), "{m}");
}

#[test]
fn garbage_gets_an_error_and_the_engine_goes_on() {
    let mut uci = Uci::start();
    for bad in [
        "flibbertigibbet",
        "position fen not/a/fen w - - 0 1",
        "position startpos moves e2e5",
        "go depth many",
        "setoption name UCI_Variant value atomic",
        "setoption name Hash value lots",
    ] {
        uci.send(bad);
        uci.send("isready");
        let lines = uci.until("readyok");
        assert!(
            lines.iter().any(|l| l.starts_with("info string error: ")),
            "{bad:?}: {lines:?}"
        );
    }
    uci.send("position startpos");
    uci.send("go depth 1");
    let (_, m) = uci.bestmove();
    assert!(Position::new(Rules::fide()).parse_uci(&m).is_ok(), "{m}");
}
