//! A UCI engine in a child process, as `bughouse arena` drives it: start and handshake, one
//! `position fen` + `go` per move, and every way the engine can misbehave (it cannot be started,
//! it dies, it answers garbage or nothing) turned into an [`EngineError`] instead of a panic or a
//! hang.

use std::path::Path;
use std::time::{Duration, Instant};

use crate::process::EngineProcess;
use crate::EngineError;

/// How long an engine may take to answer `uci` and `isready`.
const HANDSHAKE_TIMEOUT: Duration = Duration::from_secs(10);
/// How long an engine may take to answer `stop` once its time is up.
const STOP_GRACE: Duration = Duration::from_secs(1);

/// The answer to one `go`.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct BestMove {
    /// The move token after `bestmove`, as the engine wrote it (`e2e4`, `N@f3`, `(none)`).
    pub token: String,
    /// Whether it came only after we sent `stop` because the time was up.
    pub late: bool,
}

/// An engine's score of a position, for the side to move, as its last `info ... score` said.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum EngineScore {
    /// `score cp N`: in the engine's own units (Fairy-Stockfish's are about 2.1 a centipawn).
    Cp(i32),
    /// `score mate N`: mate in N moves, negative when the side to move is mated.
    Mate(i32),
}

impl EngineScore {
    /// Reads the score out of an `info` line (`None` when it has none, or a bound:
    /// `lowerbound`/`upperbound` scores are not the search's answer).
    pub fn from_info(line: &str) -> Option<EngineScore> {
        let words: Vec<&str> = line.split_whitespace().collect();
        if words.first() != Some(&"info") {
            return None;
        }
        let at = words.iter().position(|w| *w == "score")?;
        if words
            .get(at + 3)
            .is_some_and(|w| *w == "lowerbound" || *w == "upperbound")
        {
            return None;
        }
        let value: i32 = words.get(at + 2)?.parse().ok()?;
        match *words.get(at + 1)? {
            "cp" => Some(EngineScore::Cp(value)),
            "mate" => Some(EngineScore::Mate(value)),
            _ => None,
        }
    }
}

/// A running UCI engine. Dropping it sends `quit` and kills the process if it lingers.
pub struct UciEngine {
    process: EngineProcess,
}

impl UciEngine {
    /// Starts the engine at `path`, runs the `uci` handshake, checks that it offers
    /// `UCI_Variant variant`, selects it and waits for `readyok`.
    ///
    /// # Errors
    ///
    /// [`EngineError`]: it cannot be started, dies, does not answer, or lacks the variant.
    pub fn start(path: &Path, variant: &str) -> Result<UciEngine, EngineError> {
        let mut engine = UciEngine {
            process: EngineProcess::spawn(path)?,
        };
        engine.send("uci")?;
        let deadline = Instant::now() + HANDSHAKE_TIMEOUT;
        let mut variants: Option<String> = None;
        loop {
            let line = engine.recv(deadline, "uci")?;
            if line == "uciok" {
                break;
            }
            let words: Vec<&str> = line.split_whitespace().collect();
            if words.len() > 2
                && words[0] == "option"
                && words[1] == "name"
                && words[2].eq_ignore_ascii_case("UCI_Variant")
            {
                variants = Some(line.clone());
            }
        }
        let offered = variants.is_some_and(|line| {
            line.split_whitespace()
                .collect::<Vec<_>>()
                .windows(2)
                .any(|w| w[0] == "var" && w[1] == variant)
        });
        if !offered {
            return Err(EngineError::Variant(variant.to_owned()));
        }
        engine.send(&format!("setoption name UCI_Variant value {variant}"))?;
        engine.sync()?;
        Ok(engine)
    }

    /// Sends `setoption name NAME value VALUE` for each option and waits until the engine is
    /// ready.
    ///
    /// # Errors
    ///
    /// [`EngineError`] when it died or does not answer.
    pub fn set_options(&mut self, options: &[(String, String)]) -> Result<(), EngineError> {
        if options.is_empty() {
            return Ok(());
        }
        for (name, value) in options {
            self.send(&format!("setoption name {name} value {value}"))?;
        }
        self.sync()
    }

    /// Sends `ucinewgame` and waits until the engine is ready.
    ///
    /// # Errors
    ///
    /// [`EngineError`] when it died or does not answer.
    pub fn new_game(&mut self) -> Result<(), EngineError> {
        self.send("ucinewgame")?;
        self.sync()
    }

    /// `isready` until `readyok`.
    fn sync(&mut self) -> Result<(), EngineError> {
        self.send("isready")?;
        let deadline = Instant::now() + HANDSHAKE_TIMEOUT;
        while self.recv(deadline, "isready")? != "readyok" {}
        Ok(())
    }

    /// Sends `position fen FEN` and `go wtime .. btime .. winc .. binc ..` and waits for
    /// `bestmove`. After `timeout` it sends `stop` and waits [`STOP_GRACE`] more; the answer is
    /// then marked late.
    ///
    /// # Errors
    ///
    /// [`EngineError`] when the engine dies, or answers neither in time nor after `stop`.
    pub fn go(
        &mut self,
        fen: &str,
        clocks: [Duration; 2],
        increments: [Duration; 2],
        timeout: Duration,
    ) -> Result<BestMove, EngineError> {
        self.start_search(
            fen,
            &format!(
                "go wtime {} btime {} winc {} binc {}",
                clocks[0].as_millis(),
                clocks[1].as_millis(),
                increments[0].as_millis(),
                increments[1].as_millis()
            ),
        )?;
        let deadline = Instant::now() + timeout;
        match self.wait_bestmove(deadline) {
            Ok(token) => Ok(BestMove { token, late: false }),
            Err(EngineError::Timeout(_)) => {
                self.send("stop")?;
                let token = self.wait_bestmove(Instant::now() + STOP_GRACE)?;
                Ok(BestMove { token, late: true })
            }
            Err(e) => Err(e),
        }
    }

    /// Sends `position fen FEN` and `go nodes NODES` and returns the last score the engine gave
    /// before its `bestmove` (`None` when it gave none: no legal move, or no `info` lines).
    ///
    /// # Errors
    ///
    /// [`EngineError`] when the engine dies, or does not answer within `timeout`.
    pub fn analyse(
        &mut self,
        fen: &str,
        nodes: u64,
        timeout: Duration,
    ) -> Result<Option<EngineScore>, EngineError> {
        self.start_search(fen, &format!("go nodes {nodes}"))?;
        let deadline = Instant::now() + timeout;
        let mut score = None;
        loop {
            let line = self.recv(deadline, "go nodes with bestmove")?;
            if line.split_whitespace().next() == Some("bestmove") {
                return Ok(score);
            }
            if let Some(s) = EngineScore::from_info(&line) {
                score = Some(s);
            }
        }
    }

    /// Sends `position fen FEN` and the `go` line, after dropping anything left over from an
    /// earlier exchange (late info lines are stale).
    /// Sends `position fen FEN` and `go nodes NODES` and returns the move token of its
    /// `bestmove` (`(none)` when it has no move).
    ///
    /// # Errors
    ///
    /// [`EngineError`] when the engine dies, or does not answer within `timeout`.
    pub fn best_move_in_nodes(
        &mut self,
        fen: &str,
        nodes: u64,
        timeout: Duration,
    ) -> Result<String, EngineError> {
        self.start_search(fen, &format!("go nodes {nodes}"))?;
        self.wait_bestmove(Instant::now() + timeout)
    }

    /// Sends `position fen FEN` and `go nodes NODES` with `MultiPV` set to `lines`, and
    /// returns the first move of each line, best first, as the engine's last `info ... multipv
    /// N ... pv MOVE` for each `N` said (the best move alone when it gives no lines).
    ///
    /// # Errors
    ///
    /// [`EngineError`] when the engine dies, or does not answer within `timeout`.
    pub fn top_moves_in_nodes(
        &mut self,
        fen: &str,
        nodes: u64,
        lines: usize,
        timeout: Duration,
    ) -> Result<Vec<String>, EngineError> {
        self.send(&format!("setoption name MultiPV value {}", lines.max(1)))?;
        self.start_search(fen, &format!("go nodes {nodes}"))?;
        let deadline = Instant::now() + timeout;
        let mut firsts: Vec<Option<String>> = vec![None; lines.max(1)];
        loop {
            let line = self.recv(deadline, "go nodes with bestmove")?;
            let words: Vec<&str> = line.split_whitespace().collect();
            if words.first() == Some(&"bestmove") {
                let mut moves: Vec<String> = firsts.into_iter().flatten().collect();
                if moves.is_empty() {
                    moves.extend(words.get(1).map(|w| (*w).to_owned()));
                }
                return Ok(moves);
            }
            if words.first() != Some(&"info") {
                continue;
            }
            let after = |key: &str| {
                words
                    .iter()
                    .position(|w| *w == key)
                    .and_then(|i| words.get(i + 1))
            };
            let index = after("multipv")
                .and_then(|n| n.parse::<usize>().ok())
                .unwrap_or(1);
            if let (Some(slot), Some(mv)) = (firsts.get_mut(index.wrapping_sub(1)), after("pv")) {
                *slot = Some((*mv).to_owned());
            }
        }
    }

    fn start_search(&mut self, fen: &str, go: &str) -> Result<(), EngineError> {
        while self.process.try_recv().is_some() {}
        self.send(&format!("position fen {fen}"))?;
        self.send(go)
    }

    fn wait_bestmove(&mut self, deadline: Instant) -> Result<String, EngineError> {
        loop {
            let line = self.recv(deadline, "go with bestmove")?;
            let mut words = line.split_whitespace();
            if words.next() == Some("bestmove") {
                return Ok(words.next().unwrap_or("").to_owned());
            }
        }
    }

    fn send(&mut self, line: &str) -> Result<(), EngineError> {
        self.process.send(line)
    }

    fn recv(&mut self, deadline: Instant, what: &'static str) -> Result<String, EngineError> {
        self.process.recv(deadline, what)
    }
}

#[cfg(test)]
mod tests {
    use super::EngineScore;

    #[test]
    fn a_score_is_read_from_info_lines_and_bounds_are_not() {
        let cp = "info depth 9 seldepth 14 multipv 1 score cp -57 nodes 10021 nps 1 pv e2e4";
        assert_eq!(EngineScore::from_info(cp), Some(EngineScore::Cp(-57)));
        let mate = "info depth 3 score mate -2 nodes 80 pv P@f7";
        assert_eq!(EngineScore::from_info(mate), Some(EngineScore::Mate(-2)));
        let bound = "info depth 12 score cp 31 lowerbound nodes 9000";
        assert_eq!(EngineScore::from_info(bound), None);
        assert_eq!(EngineScore::from_info("info string NNUE disabled"), None);
        assert_eq!(EngineScore::from_info("info depth 4 score cp"), None);
        assert_eq!(EngineScore::from_info("info depth 4 score wdl 1 2 3"), None);
        assert_eq!(EngineScore::from_info("bestmove e2e4 score cp 5"), None);
    }
}
