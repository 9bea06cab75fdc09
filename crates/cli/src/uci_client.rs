//! A UCI engine in a child process, as `bughouse arena` drives it: start and handshake, one
//! `position fen` + `go` per move, and every way the engine can misbehave (it cannot be started,
//! it dies, it answers garbage or nothing) turned into an [`EngineError`] instead of a panic or a
//! hang.

use std::fmt;
use std::io::{BufRead, BufReader, Write};
use std::path::{Path, PathBuf};
use std::process::{Child, ChildStdin, Command, Stdio};
use std::sync::mpsc::{self, Receiver, RecvTimeoutError};
use std::thread;
use std::time::{Duration, Instant};

/// How long an engine may take to answer `uci` and `isready`.
const HANDSHAKE_TIMEOUT: Duration = Duration::from_secs(10);
/// How long an engine may take to answer `stop` once its time is up.
const STOP_GRACE: Duration = Duration::from_secs(1);

/// What went wrong with an engine.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum EngineError {
    /// The process could not be started.
    Start(String),
    /// The process ended or closed its output.
    Died,
    /// No answer in time: what we waited for.
    Timeout(&'static str),
    /// The engine does not know the variant we need.
    Variant(String),
    /// Writing to the engine failed.
    Io(String),
    /// The engine answered this line instead of a move.
    Answer(String),
}

impl fmt::Display for EngineError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            EngineError::Start(e) => write!(f, "cannot start the engine: {e}"),
            EngineError::Died => f.write_str("the engine died (its output closed)"),
            EngineError::Timeout(what) => write!(f, "the engine did not answer {what} in time"),
            EngineError::Variant(v) => write!(
                f,
                "the engine does not offer the variant {v} (it must be a bughouse engine, e.g. Fairy-Stockfish)"
            ),
            EngineError::Io(e) => write!(f, "cannot write to the engine: {e}"),
            EngineError::Answer(line) => write!(f, "the engine answered {line:?} instead of a move"),
        }
    }
}

/// The answer to one `go`.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct BestMove {
    /// The move token after `bestmove`, as the engine wrote it (`e2e4`, `N@f3`, `(none)`).
    pub token: String,
    /// Whether it came only after we sent `stop` because the time was up.
    pub late: bool,
}

/// A running UCI engine. Dropping it sends `quit` and kills the process if it lingers.
pub struct UciEngine {
    child: Child,
    stdin: ChildStdin,
    lines: Receiver<String>,
}

impl UciEngine {
    /// Starts the engine at `path`, runs the `uci` handshake, checks that it offers
    /// `UCI_Variant variant`, selects it and waits for `readyok`.
    ///
    /// # Errors
    ///
    /// [`EngineError`]: it cannot be started, dies, does not answer, or lacks the variant.
    pub fn start(path: &Path, variant: &str) -> Result<UciEngine, EngineError> {
        let mut child = Command::new(path)
            .stdin(Stdio::piped())
            .stdout(Stdio::piped())
            .stderr(Stdio::null())
            .spawn()
            .map_err(|e| EngineError::Start(format!("{}: {e}", path.display())))?;
        let (Some(stdin), Some(stdout)) = (child.stdin.take(), child.stdout.take()) else {
            let _ = child.kill();
            let _ = child.wait();
            return Err(EngineError::Start("no pipes to the process".into()));
        };
        let (tx, lines) = mpsc::channel();
        thread::spawn(move || {
            // Lines are read as bytes: an engine writing something that is not UTF-8 gets its
            // line read lossily instead of ending the conversation.
            let mut reader = BufReader::new(stdout);
            let mut buf = Vec::new();
            loop {
                buf.clear();
                match reader.read_until(b'\n', &mut buf) {
                    Ok(0) | Err(_) => break,
                    Ok(_) => {
                        let line = String::from_utf8_lossy(&buf).trim().to_owned();
                        if tx.send(line).is_err() {
                            break;
                        }
                    }
                }
            }
        });
        let mut engine = UciEngine {
            child,
            stdin,
            lines,
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
        // Anything left over from an earlier exchange (late info lines) is stale.
        while self.lines.try_recv().is_ok() {}
        self.send(&format!("position fen {fen}"))?;
        self.send(&format!(
            "go wtime {} btime {} winc {} binc {}",
            clocks[0].as_millis(),
            clocks[1].as_millis(),
            increments[0].as_millis(),
            increments[1].as_millis()
        ))?;
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
        writeln!(self.stdin, "{line}")
            .and_then(|()| self.stdin.flush())
            .map_err(|e| {
                if e.kind() == std::io::ErrorKind::BrokenPipe {
                    EngineError::Died
                } else {
                    EngineError::Io(e.to_string())
                }
            })
    }

    fn recv(&mut self, deadline: Instant, what: &'static str) -> Result<String, EngineError> {
        let left = deadline.saturating_duration_since(Instant::now());
        self.lines.recv_timeout(left).map_err(|e| match e {
            RecvTimeoutError::Timeout => EngineError::Timeout(what),
            RecvTimeoutError::Disconnected => EngineError::Died,
        })
    }
}

impl Drop for UciEngine {
    fn drop(&mut self) {
        let _ = self.send("quit");
        let until = Instant::now() + Duration::from_millis(200);
        while Instant::now() < until {
            match self.child.try_wait() {
                Ok(Some(_)) => return,
                Ok(None) => thread::sleep(Duration::from_millis(5)),
                Err(_) => break,
            }
        }
        let _ = self.child.kill();
        let _ = self.child.wait();
    }
}

/// The path the `fairy-stockfish` shorthand stands for: Debian's `/usr/games/fairy-stockfish`
/// when it exists, else the name looked up on `PATH`.
pub fn fairy_stockfish_path() -> PathBuf {
    let debian = Path::new("/usr/games/fairy-stockfish");
    if debian.exists() {
        debian.to_path_buf()
    } else {
        PathBuf::from("fairy-stockfish")
    }
}
