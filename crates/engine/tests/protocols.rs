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
    let lines = uci_run(
        "flibbertigibbet\nposition startpos moves e2e4 e7e4\ngo wtime soon\n\
         setoption name Hash value 0\nquit\nuci\n",
    );
    let errors: Vec<&str> = lines
        .iter()
        .filter_map(|l| l.strip_prefix("info string error: "))
        .collect();
    // Each says what it could not take, and where.
    assert_eq!(errors.len(), 4, "{lines:?}");
    assert_eq!(errors[0], "unknown command \"flibbertigibbet\"");
    assert!(
        errors[1].starts_with("position: move 2 (e7e4): "),
        "{errors:?}"
    );
    assert_eq!(errors[2], "go wtime: \"soon\" is not a number");
    assert_eq!(errors[3], "setoption Hash: \"0\" is not 1-4096");
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

/// After `post` the engine writes a thinking line (depth, score, centiseconds, nodes, principal
/// variation) for each iteration before its move; after `nopost`, none.
#[test]
fn xboard_post_shows_the_thinking() {
    let game = "force\nusermove e2e4\nsd 3\ngo\n";
    let lines = xboard_run(&format!("new\nvariant bughouse\npost\n{game}"));
    let thinking: Vec<Vec<&str>> = lines
        .iter()
        .map(|l| l.split_whitespace().collect::<Vec<_>>())
        .filter(|w| w.len() >= 5 && w[..4].iter().all(|n| n.parse::<i64>().is_ok()))
        .collect();
    let depths: Vec<&str> = thinking.iter().map(|w| w[0]).collect();
    assert_eq!(depths, ["1", "2", "3"], "{lines:?}");
    let pos = after_e4();
    assert!(pos.parse_uci(thinking[2][4]).is_ok(), "{lines:?}");
    let last = lines.last().expect("a move");
    assert!(last.starts_with("move "), "{lines:?}");
    let quiet = xboard_run(&format!("new\nvariant bughouse\npost\nnopost\n{game}"));
    assert_eq!(quiet.len(), 1, "{quiet:?}");
}

/// Clocks, increments and move times beyond any game (or negative, or not numbers) are read
/// as a year or as nothing: the engine answers instead of overflowing a deadline.
#[test]
fn absurd_clocks_are_answered_not_overflowed() {
    let max = i64::MAX;
    for go in [
        format!("go wtime {max} btime {max} winc {max} binc {max} depth 1"),
        format!("go movetime {max} depth 1"),
        format!("go wtime {max} movestogo 1 nodes 500"),
        "go wtime -5 btime -5 winc -1 depth 1".to_owned(),
    ] {
        let lines = uci_run(&format!("position startpos\n{go}\n"));
        assert!(
            lines.iter().any(|l| l.starts_with("bestmove ")),
            "{go}: {lines:?}"
        );
    }
    for clocks in [
        format!("level 40 {max} {max}\ntime {max}\notim {max}\n"),
        "level 40 1e300:1e300 NaN\ntime -100\notim x\n".to_owned(),
        format!("st {max}\n"),
        "st 1e309\n".to_owned(),
    ] {
        let lines = xboard_run(&format!("new\nsd 1\n{clocks}usermove e2e4\n"));
        assert!(
            lines.iter().any(|l| l.starts_with("move ")),
            "{clocks}: {lines:?}"
        );
    }
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

/// The greatest depth of the `info` lines of a UCI run.
fn max_depth(lines: &[String]) -> u32 {
    lines
        .iter()
        .filter_map(|l| l.strip_prefix("info depth "))
        .filter_map(|rest| rest.split_whitespace().next()?.parse().ok())
        .max()
        .expect("an info line")
}

/// The depth, score, nodes and principal variation of each `info` line of a UCI run (not its
/// time).
fn searched(lines: &[String]) -> Vec<String> {
    lines
        .iter()
        .filter(|l| l.starts_with("info depth"))
        .map(|l| {
            let words: Vec<&str> = l.split_whitespace().collect();
            let nps = words.iter().position(|w| *w == "nps").expect("nps");
            [&words[..nps], &words[nps + 4..]].concat().join(" ")
        })
        .collect()
}

/// The `bestmove` of a UCI run.
fn bestmove(lines: &[String]) -> String {
    lines
        .iter()
        .rev()
        .find_map(|l| l.strip_prefix("bestmove "))
        .expect("a bestmove")
        .to_owned()
}

#[test]
fn uci_levels_and_uci_elo_limit_the_search_as_the_bot_levels_do() {
    let fen = "r1bqk2r/pppp1ppp/2n1p3/4P3/1b1Pn3/2NB1N2/PPP2PPP/R1BQK2R[Np] b KQkq - 0 1";
    // `movetime` makes the search one piece, which ends at the depth whatever the machine's
    // speed (at the end of the script a search in pieces is stopped after its current one).
    let go = format!("position fen {fen}\ngo depth 5 movetime 60000\n");
    let options = uci_run("uci\n");
    for line in [
        "option name Level type spin default 8 min 1 max 8",
        "option name UCI_LimitStrength type check default false",
        "option name UCI_Elo type spin default 2357 min 800 max 2357",
    ] {
        assert!(options.iter().any(|l| l == line), "{line}: {options:?}");
    }
    let legal = |lines: &[String]| {
        let pos = Position::from_fen(fen, Rules::fide()).expect("valid");
        let mv = pos.parse_uci(&bestmove(lines)).expect("a move");
        assert!(pos.legal_moves().contains(&mv), "{lines:?}");
    };
    // Full strength goes to the depth asked; level 1 stops at its own depth of 1, level 3 at 3.
    let full = uci_run(&go);
    assert_eq!(max_depth(&full), 5);
    let level1 = uci_run(&format!("setoption name Level value 1\n{go}"));
    assert_eq!(max_depth(&level1), 1, "{level1:?}");
    legal(&level1);
    let level3 = uci_run(&format!("setoption name Level value 3\n{go}"));
    assert!((2..=3).contains(&max_depth(&level3)), "{level3:?}");
    assert!(last_nodes(&level3) <= 25_000, "{level3:?}");
    legal(&level3);
    // UCI_Elo picks the level of the nearest published rating, only with UCI_LimitStrength.
    let weakest = uci_run(&format!(
        "setoption name UCI_Elo value 800\nsetoption name UCI_LimitStrength value true\n{go}"
    ));
    assert_eq!(max_depth(&weakest), 1, "{weakest:?}");
    let unlimited = uci_run(&format!(
        "setoption name UCI_Elo value 1400\nsetoption name UCI_LimitStrength value false\n{go}"
    ));
    assert_eq!(max_depth(&unlimited), 5, "{unlimited:?}");
    let near_level3 = uci_run(&format!(
        "setoption name UCI_LimitStrength value true\nsetoption name UCI_Elo value 1400\n{go}"
    ));
    assert_eq!(searched(&near_level3), searched(&level3));
    // Bad values are refused by name, and the level stays what it was.
    let bad = uci_run(&format!(
        "setoption name Level value 9\nsetoption name UCI_Elo value 3000\n\
         setoption name UCI_LimitStrength value maybe\n{go}"
    ));
    let errors: Vec<&String> = bad.iter().filter(|l| l.contains("error")).collect();
    assert_eq!(errors.len(), 3, "{bad:?}");
    assert!(errors[0].starts_with("info string error: setoption Level: invalid level \"9\""));
    assert!(
        errors[1].contains("UCI_Elo: \"3000\" is not 800-2357"),
        "{errors:?}"
    );
    assert!(
        errors[2].contains("UCI_LimitStrength: \"maybe\""),
        "{errors:?}"
    );
    assert_eq!(max_depth(&bad), 5);
}

#[test]
fn uci_level_one_varies_its_moves_where_full_strength_does_not() {
    let go = "position startpos moves e2e4 e7e5\ngo depth 3 movetime 60000\n".repeat(12);
    let moves = |script: &str| -> std::collections::HashSet<String> {
        uci_run(script)
            .iter()
            .filter_map(|l| l.strip_prefix("bestmove "))
            .map(str::to_owned)
            .collect()
    };
    let full = moves(&go);
    assert_eq!(full.len(), 1, "{full:?}");
    let beginner = moves(&format!("setoption name Level value 1\n{go}"));
    assert!(beginner.len() > 2, "{beginner:?}");
}

#[test]
fn xboard_takes_moves_back_with_undo_and_remove() {
    let lines = xboard_run(
        "new\nforce\nusermove e2e4\nusermove e7e5\nremove\nusermove e7e5\nusermove d2d4\n\
         undo\nusermove d7d5\nusermove e2e4\nusermove N@f3\nundo\nundo\nrating 1500 1600\n\
         usermove e2e4\nremove\nusermove e2e4\nnew\nforce\nundo\negtpath syzygy /tb\nping 1\n",
    );
    assert_eq!(
        lines,
        [
            // `remove` took both moves back: White is to move again.
            "Illegal move: e7e5",
            // `undo` took d2d4 back: White is still to move.
            "Illegal move: d7d5",
            // A drop needs a piece in hand; nothing was played, so the second undo has nothing.
            "Illegal move: N@f3",
            "Error (no move to take back): undo",
            // `remove` needs two moves; with one it takes back none.
            "Error (no move to take back): remove",
            // That move stands: e2e4 again is illegal. `new` forgets the moves.
            "Illegal move: e2e4",
            "Error (no move to take back): undo",
            "pong 1",
        ]
    );
}

#[test]
fn uci_go_infinite_at_a_weak_level_answers_once_and_only_after_stop() {
    let live = Live::start(uci::run);
    live.send("setoption name Level value 2\nposition startpos\ngo infinite\n");
    // Level 2 is done within its 5,000 nodes at once; `go infinite` still waits for `stop`.
    live.wait_for("info depth 2", 1);
    std::thread::sleep(std::time::Duration::from_millis(200));
    let before = live.out.lines();
    assert!(
        !before.iter().any(|l| l.starts_with("bestmove")),
        "{before:?}"
    );
    let out = live.out.clone();
    live.quit("stop\nquit\n");
    let after = out.lines();
    let answers: Vec<&String> = after.iter().filter(|l| l.starts_with("bestmove")).collect();
    assert_eq!(answers.len(), 1, "{after:?}");
    assert!(max_depth(&after) <= 2, "{after:?}");
}

/// Input fed line by line from a channel, as a GUI writes to the engine's pipe.
struct ChannelReader(std::sync::mpsc::Receiver<String>, Vec<u8>);

impl std::io::Read for ChannelReader {
    fn read(&mut self, buf: &mut [u8]) -> std::io::Result<usize> {
        if self.1.is_empty() {
            match self.0.recv() {
                Ok(text) => self.1 = text.into_bytes(),
                Err(_) => return Ok(0),
            }
        }
        let n = buf.len().min(self.1.len());
        buf[..n].copy_from_slice(&self.1[..n]);
        self.1.drain(..n);
        Ok(n)
    }
}

/// The position after 1. e4, Black to move.
fn after_e4() -> Position {
    Position::from_fen(
        "rnbqkbnr/pppppppp/8/8/4P3/8/PPPP1PPP/RNBQKBNR[] b KQkq - 0 1",
        Rules::fide(),
    )
    .expect("a FEN")
}

/// A front end fed line by line while it runs, as from a GUI's pipe.
struct Live {
    tx: std::sync::mpsc::Sender<String>,
    out: Memory,
    done: std::thread::JoinHandle<()>,
}

type Input = std::io::BufReader<ChannelReader>;

impl Live {
    fn start(run: fn(Input, Memory)) -> Live {
        let (tx, rx) = std::sync::mpsc::channel::<String>();
        let out = Memory::default();
        let done = {
            let out = out.clone();
            std::thread::spawn(move || {
                run(std::io::BufReader::new(ChannelReader(rx, Vec::new())), out)
            })
        };
        Live { tx, out, done }
    }

    fn send(&self, text: &str) {
        self.tx.send(text.to_owned()).expect("the front end reads");
    }

    /// Waits (a minute at most) until `count` lines start with `prefix`; returns the last.
    fn wait_for(&self, prefix: &str, count: usize) -> String {
        let started = std::time::Instant::now();
        loop {
            let lines = self.out.lines();
            let found: Vec<&String> = lines.iter().filter(|l| l.starts_with(prefix)).collect();
            if found.len() >= count {
                return found[count - 1].clone();
            }
            assert!(
                started.elapsed() < std::time::Duration::from_secs(60),
                "no {prefix:?} number {count} in {lines:?}"
            );
            std::thread::sleep(std::time::Duration::from_millis(2));
        }
    }

    /// Sends `text` and waits for the `count`th line starting with `prefix`, which must come
    /// within 3 s (the search it ends had seconds left); returns that line.
    fn answered_soon(&self, text: &str, prefix: &str, count: usize) -> String {
        let asked = std::time::Instant::now();
        self.send(text);
        let line = self.wait_for(prefix, count);
        let waited = asked.elapsed();
        assert!(
            waited < std::time::Duration::from_secs(3),
            "{prefix:?} came {waited:?} after {text:?}"
        );
        line
    }

    fn count(&self, prefix: &str) -> usize {
        self.out
            .lines()
            .iter()
            .filter(|l| l.starts_with(prefix))
            .count()
    }

    fn quit(self, command: &str) {
        self.send(command);
        drop(self.tx);
        self.done.join().expect("the loop ends");
    }
}

/// `stop` ends the search under way whatever its limits: a `movetime` of nine seconds (which
/// the search would otherwise use, at least half of it), an endless search, a deep one, a weak
/// level's. The answer is a legal move of the position searched.
#[test]
fn uci_stop_ends_the_search_under_way_whatever_its_limits() {
    let after_e4 = after_e4();
    for (setup, go) in [
        ("", "go movetime 9000"),
        ("", "go wtime 900000 btime 900000"),
        ("", "go infinite"),
        ("", "go depth 60"),
        ("setoption name Level value 7\n", "go movetime 9000"),
    ] {
        let live = Live::start(uci::run);
        live.send(&format!("{setup}position startpos moves e2e4\n{go}\n"));
        live.wait_for("info depth 3", 1);
        let answer = live.answered_soon("stop\n", "bestmove ", 1);
        let mv = answer.strip_prefix("bestmove ").expect("a move");
        assert!(after_e4.parse_uci(mv).is_ok(), "{go}: {mv} is legal");
        live.quit("quit\n");
    }
}

/// `go searchmoves` searches only the moves named (an illegal one is reported and left out),
/// and `go mate N` searches at most `2N + 1` plies, stopping at a mate found.
#[test]
fn uci_searchmoves_and_mate_limit_the_search() {
    let lines =
        uci_run("position startpos moves e2e4 e7e5\ngo depth 5 searchmoves a2a3 h2h3 e4e5\n");
    let answer = bestmove(&lines);
    assert!(["a2a3", "h2h3"].contains(&answer.as_str()), "{lines:?}");
    assert!(
        lines
            .iter()
            .any(|l| l.starts_with("info string error: go searchmoves e4e5")),
        "{lines:?}"
    );
    // No mate within reach: the search goes exactly as deep as `mate 1` allows.
    let lines = uci_run("position startpos\ngo mate 1\n");
    assert_eq!(max_depth(&lines), 3, "{lines:?}");
    let lines = uci_run("position fen 6rk/6pp/8/8/8/8/8/K7[N] w - - 0 1\ngo mate 2\n");
    assert_eq!(bestmove(&lines), "N@f7", "{lines:?}");
    assert!(
        lines.iter().any(|l| l.contains("score mate 1")),
        "{lines:?}"
    );
}

/// With the `Ponder` option set, `bestmove` names the reply to ponder on; `go ponder` thinks
/// until `ponderhit` (then searches afresh as the clocks say) or `stop` (then answers at once),
/// never before.
#[test]
fn uci_ponders_until_ponderhit_or_stop() {
    let after = |fen: &str| Position::from_fen(fen, Rules::fide()).expect("a FEN");
    let lines = uci_run("setoption name Ponder value true\nposition startpos\ngo depth 4\n");
    let last = lines.last().expect("a bestmove");
    let words: Vec<&str> = last.split_whitespace().collect();
    assert_eq!(
        (words.len(), words[0], words[2]),
        (4, "bestmove", "ponder"),
        "{lines:?}"
    );
    let mut pos = Position::new(Rules::fide());
    let ours = pos.parse_uci(words[1]).expect("legal");
    pos.play_unchecked(ours);
    assert!(pos.parse_uci(words[3]).is_ok(), "{lines:?}");
    let without = uci_run("position startpos\ngo depth 4\n");
    assert!(!without.iter().any(|l| l.contains("ponder")), "{without:?}");
    for end in ["ponderhit", "stop"] {
        let live = Live::start(uci::run);
        live.send(
            "uci\nsetoption name Ponder value true\nposition startpos moves e2e4 e7e5 g1f3\n",
        );
        live.send("go ponder wtime 2000 btime 2000\n");
        live.wait_for("info depth 4", 1);
        std::thread::sleep(std::time::Duration::from_millis(300));
        let before = live.out.lines();
        assert!(
            !before.iter().any(|l| l.starts_with("bestmove")),
            "{end}: {before:?}"
        );
        assert!(
            before
                .iter()
                .any(|l| l == "option name Ponder type check default false"),
            "{before:?}"
        );
        assert!(!before.iter().any(|l| l.contains("error")), "{before:?}");
        live.send(&format!("{end}\n"));
        let answer = live.wait_for("bestmove ", 1);
        let pos = after("rnbqkbnr/pppp1ppp/8/4p3/4P3/5N2/PPPP1PPP/RNBQKB1R[] b KQkq - 1 2");
        let mv = answer.split_whitespace().nth(1).expect("a move");
        assert!(pos.parse_uci(mv).is_ok(), "{end}: {mv} is legal");
        let out = live.out.clone();
        live.quit("quit\n");
        let lines = out.lines();
        assert_eq!(
            lines.iter().filter(|l| l.starts_with("bestmove")).count(),
            1
        );
        // After `ponderhit` a search of its own, from depth 1; after `stop`, none.
        let searches = lines
            .iter()
            .filter(|l| l.starts_with("info depth 1 "))
            .count();
        assert_eq!(
            searches,
            if end == "ponderhit" { 2 } else { 1 },
            "{end}: {lines:?}"
        );
    }
    // `go ponder infinite` after `ponderhit` is still endless: the next `go` stops it.
    let lines = uci_run(
        "position startpos\ngo ponder infinite nodes 500\nponderhit\nposition startpos\n\
         go nodes 300\n",
    );
    let answers = lines.iter().filter(|l| l.starts_with("bestmove")).count();
    assert_eq!(answers, 2, "{lines:?}");
}

/// `?` makes the engine move at once while it thinks, and only that search is hurried: the next
/// one takes its time again, until the next `?`.
#[test]
fn xboard_question_mark_moves_now_and_only_once() {
    let live = Live::start(xboard::run);
    live.send("xboard\nprotover 2\nnew\nvariant bughouse\nst 9\nforce\nusermove e2e4\ngo\n");
    std::thread::sleep(std::time::Duration::from_millis(300));
    assert_eq!(live.count("move "), 0, "{:?}", live.out.lines());
    let first = live.answered_soon("?\n", "move ", 1);
    let mut pos = after_e4();
    let ours = pos
        .parse_uci(first.strip_prefix("move ").expect("a move"))
        .expect("a legal move");
    pos.play_unchecked(ours);
    // White answers; the `?` is spent, so the engine thinks again (st 9: seconds).
    let reply = pos.legal_moves()[0];
    live.send(&format!("usermove {reply}\n"));
    std::thread::sleep(std::time::Duration::from_millis(1000));
    assert_eq!(live.count("move "), 1, "{:?}", live.out.lines());
    live.answered_soon("?\n", "move ", 2);
    live.quit("quit\n");
}

/// `force` or `result` while the engine thinks (in bughouse, the other board's end often comes
/// so) ends the search with no move, and the engine goes on to the next command.
#[test]
fn xboard_force_and_result_end_a_search_without_a_move() {
    for stop in ["force", "result 1-0 {White mates on the other board}"] {
        let live = Live::start(xboard::run);
        live.send("xboard\nprotover 2\nnew\nvariant bughouse\nst 9\nforce\nusermove e2e4\ngo\n");
        std::thread::sleep(std::time::Duration::from_millis(300));
        live.answered_soon(&format!("{stop}\nping 7\n"), "pong 7", 1);
        let out = live.out.clone();
        live.quit("quit\n");
        assert_eq!(
            out.lines()
                .iter()
                .filter(|l| l.starts_with("move "))
                .count(),
            0,
            "{stop}: {:?}",
            out.lines()
        );
    }
    // The arena's way when an engine's time is up: `?`, then `force`. Whether a move came in
    // between or not, the next `go` thinks as long as usual (a thirtieth of 300 s: seconds),
    // not hurried.
    let live = Live::start(xboard::run);
    live.send(
        "xboard\nprotover 2\nnew\nvariant bughouse\nforce\nusermove e2e4\ntime 30000\n\
         otim 30000\ngo\n",
    );
    std::thread::sleep(std::time::Duration::from_millis(300));
    live.send("?\nforce\nping 8\n");
    live.wait_for("pong 8", 1);
    let moves = live.count("move ");
    live.send("go\n");
    std::thread::sleep(std::time::Duration::from_millis(1000));
    assert_eq!(live.count("move "), moves, "{:?}", live.out.lines());
    live.quit("quit\n");
}

/// Words of both protocols (commands, arguments, moves, positions, absurd numbers) that the
/// random scripts below are made of.
const WORDS: &[&str] = &[
    "uci",
    "isready",
    "ucinewgame",
    "position",
    "startpos",
    "fen",
    "moves",
    "go",
    "nodes",
    "depth",
    "movetime",
    "wtime",
    "btime",
    "winc",
    "binc",
    "movestogo",
    "mate",
    "searchmoves",
    "ponder",
    "ponderhit",
    "Ponder",
    "stop",
    "setoption",
    "name",
    "value",
    "UCI_Variant",
    "bughouse",
    "crazyhouse",
    "chess",
    "Level",
    "UCI_Elo",
    "UCI_LimitStrength",
    "true",
    "Hash",
    "Search",
    "EvalFile",
    "-1",
    "0",
    "1",
    "2",
    "9223372036854775807",
    "99999999999999999999",
    "1e309",
    "NaN",
    "e2e4",
    "e7e5",
    "g1f3",
    "P@e4",
    "Q@h7",
    "n@f2",
    "e7e8q",
    "a1a1",
    "rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR[]",
    "8/8/8/8/8/8/8/8[Pp]",
    "7k/8/5K2/8/8/8/8/8[Q]",
    "w",
    "b",
    "-",
    "KQkq",
    "xboard",
    "protover",
    "new",
    "variant",
    "holding",
    "[P]",
    "[Qn]",
    "[]",
    "partner",
    "ptell",
    "sit",
    "fast",
    "slow",
    "dead",
    "x",
    "force",
    "setboard",
    "usermove",
    "undo",
    "remove",
    "time",
    "otim",
    "level",
    "40",
    "5",
    "0:30",
    "st",
    "sd",
    "?",
    "result",
    "1-0",
    "hard",
    "post",
    "white",
    "black",
    "playother",
    "ping",
    "memory",
    "cores",
    "analyze",
    ".",
    "P@",
    "@@",
    "\u{e9}",
    "\u{0}",
];

/// A script of `len` random words, a third of them ending a line.
fn random_script(rng: &mut u64, len: usize) -> String {
    let mut next = || {
        // splitmix64
        *rng = rng.wrapping_add(0x9E37_79B9_7F4A_7C15);
        let mut z = *rng;
        z = (z ^ (z >> 30)).wrapping_mul(0xBF58_476D_1CE4_E5B9);
        z = (z ^ (z >> 27)).wrapping_mul(0x94D0_49BB_1331_11EB);
        z ^ (z >> 31)
    };
    let mut script = String::new();
    for _ in 0..len {
        script.push_str(WORDS[(next() % WORDS.len() as u64) as usize]);
        script.push(if next() % 3 == 0 { '\n' } else { ' ' });
    }
    script
}

/// Random scripts of both protocols' words never panic a front end, nor its search thread:
/// each line is answered or refused and the loop goes on. Searches are kept short (`go`
/// always with a node limit, XBoard at depth 2), so the scripts end quickly.
#[test]
fn random_command_scripts_never_panic_either_front_end() {
    for seed in 0..400u64 {
        let mut rng = seed;
        let script = random_script(&mut rng, 5 + (seed % 60) as usize);
        if seed % 2 == 0 {
            let script = script
                .replace("go ", "go nodes 300 ")
                .replace("go\n", "go nodes 300\n");
            let lines = uci_run(&script);
            assert!(
                !lines.iter().any(|l| l.contains("the search failed")),
                "seed {seed}: {script:?} {lines:?}"
            );
        } else {
            // `sd 2` again after every `new`, and an `st` in hundredths of a second at most.
            let script = format!("sd 2\n{script}")
                .replace("new", "new\nsd 2\n")
                .replace("sd\n", "sd 2\n")
                .replace("st ", "st 0.01 ");
            xboard_run(&script);
        }
    }
}
