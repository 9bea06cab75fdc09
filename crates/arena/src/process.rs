//! An engine in a child process, as both outside-engine clients ([`crate::uci`] and
//! [`crate::xboard`]) drive it: started with its standard input and output piped, its lines read
//! by a thread of their own so that every wait has a deadline, lines written and flushed one at a
//! time, and the process told to `quit` (then killed if it lingers) when dropped.

use std::io::{BufRead, BufReader, Write};
use std::path::Path;
use std::process::{Child, ChildStdin, Command, Stdio};
use std::sync::mpsc::{self, Receiver, RecvTimeoutError};
use std::thread;
use std::time::{Duration, Instant};

use crate::EngineError;

/// How long a process told to `quit` may take to exit before it is killed.
const QUIT_GRACE: Duration = Duration::from_millis(200);

/// A running engine process. Dropping it sends `quit` and kills the process if it lingers.
pub(crate) struct EngineProcess {
    child: Child,
    stdin: ChildStdin,
    lines: Receiver<String>,
}

impl EngineProcess {
    /// Starts the program at `path` with piped standard input and output (its standard error is
    /// dropped).
    pub(crate) fn spawn(path: &Path) -> Result<EngineProcess, EngineError> {
        let mut child = Command::new(path)
            .stdin(Stdio::piped())
            .stdout(Stdio::piped())
            .stderr(Stdio::null())
            .spawn()
            .map_err(|source| EngineError::Start {
                path: path.to_path_buf(),
                source,
            })?;
        let (Some(stdin), Some(stdout)) = (child.stdin.take(), child.stdout.take()) else {
            let _ = child.kill();
            let _ = child.wait();
            return Err(EngineError::NoPipes);
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
        Ok(EngineProcess {
            child,
            stdin,
            lines,
        })
    }

    /// Writes one line and flushes it.
    pub(crate) fn send(&mut self, line: &str) -> Result<(), EngineError> {
        writeln!(self.stdin, "{line}")
            .and_then(|()| self.stdin.flush())
            .map_err(|e| {
                if e.kind() == std::io::ErrorKind::BrokenPipe {
                    EngineError::Died
                } else {
                    EngineError::Io(e)
                }
            })
    }

    /// The next line, waiting until `deadline`; `what` names the wait in a timeout.
    pub(crate) fn recv(
        &mut self,
        deadline: Instant,
        what: &'static str,
    ) -> Result<String, EngineError> {
        let left = deadline.saturating_duration_since(Instant::now());
        self.lines.recv_timeout(left).map_err(|e| match e {
            RecvTimeoutError::Timeout => EngineError::Timeout(what),
            RecvTimeoutError::Disconnected => EngineError::Died,
        })
    }

    /// A line already read, if any, without waiting.
    pub(crate) fn try_recv(&mut self) -> Option<String> {
        self.lines.try_recv().ok()
    }
}

impl Drop for EngineProcess {
    fn drop(&mut self) {
        let _ = self.send("quit");
        let until = Instant::now() + QUIT_GRACE;
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
