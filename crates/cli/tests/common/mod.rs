//! What the tests that run the built `bughouse` binary share: running it, a subcommand driven
//! over pipes line by line (`bughouse uci`, `bughouse xboard`), and fake outside engines (shell
//! scripts) for the arena.
//!
//! Each test file uses only some of these.
#![allow(dead_code)]

use std::io::{BufRead, BufReader, Write};
use std::path::Path;
use std::process::{Child, ChildStdin, Command, Output, Stdio};
use std::sync::mpsc::{self, Receiver};
use std::thread;
use std::time::Duration;

/// How long any single answer of a piped subcommand may take.
pub const TIMEOUT: Duration = Duration::from_secs(20);

/// Runs `bughouse ARGS` to its end.
pub fn bughouse(args: &[&str]) -> Output {
    Command::new(env!("CARGO_BIN_EXE_bughouse"))
        .args(args)
        .output()
        .expect("the bughouse binary runs")
}

/// The number right after `after` on the first line of a command's summary that starts with
/// `label` (`figure(out, "moves", "sent,")` on `moves  12 sent, 10 seen` is 10).
pub fn figure(out: &str, label: &str, after: &str) -> f64 {
    let line = out
        .lines()
        .find(|l| l.starts_with(label))
        .unwrap_or_else(|| panic!("no line {label:?} in:\n{out}"));
    let rest = &line[line.find(after).unwrap_or_else(|| panic!("{line}")) + after.len()..];
    rest.trim_start()
        .split(|c: char| !(c.is_ascii_digit() || c == '.'))
        .next()
        .and_then(|n| n.parse().ok())
        .unwrap_or_else(|| panic!("no number after {after:?} in {line:?}"))
}

/// Output as text.
pub fn text(bytes: &[u8]) -> String {
    String::from_utf8(bytes.to_vec()).expect("output is UTF-8")
}

/// A `bughouse` subcommand driven over its standard input and output, as a GUI or an
/// interface would. Dropping it sends `quit` and kills the process if it lingers.
pub struct Piped {
    child: Child,
    stdin: ChildStdin,
    lines: Receiver<String>,
}

impl Piped {
    /// Starts `bughouse SUBCOMMAND`.
    pub fn start(subcommand: &str) -> Piped {
        let mut child = Command::new(env!("CARGO_BIN_EXE_bughouse"))
            .arg(subcommand)
            .stdin(Stdio::piped())
            .stdout(Stdio::piped())
            .spawn()
            .unwrap_or_else(|e| panic!("bughouse {subcommand} starts: {e}"));
        let stdin = child.stdin.take().expect("piped stdin");
        let stdout = child.stdout.take().expect("piped stdout");
        let (tx, lines) = mpsc::channel();
        thread::spawn(move || {
            for line in BufReader::new(stdout).lines() {
                let Ok(line) = line else { break };
                if tx.send(line).is_err() {
                    break;
                }
            }
        });
        Piped {
            child,
            stdin,
            lines,
        }
    }

    /// Writes one line.
    pub fn send(&mut self, line: &str) {
        writeln!(self.stdin, "{line}").expect("the engine reads its input");
        self.stdin.flush().expect("the engine reads its input");
    }

    /// Reads lines until one starts with `prefix`; returns all lines read, that one last.
    pub fn until(&mut self, prefix: &str) -> Vec<String> {
        let mut seen = Vec::new();
        loop {
            let line = self
                .lines
                .recv_timeout(TIMEOUT)
                .unwrap_or_else(|_| panic!("no {prefix:?} line in time; saw {seen:?}"));
            let done = line.starts_with(prefix);
            seen.push(line);
            if done {
                return seen;
            }
        }
    }

    /// Reads lines until one starts with `prefix`; returns it.
    pub fn expect(&mut self, prefix: &str) -> String {
        self.until(prefix)
            .pop()
            .expect("the line that ended the wait")
    }

    /// Whether a line starting with `prefix` comes within `wait` (of silence).
    pub fn sees(&mut self, prefix: &str, wait: Duration) -> bool {
        while let Ok(line) = self.lines.recv_timeout(wait) {
            if line.starts_with(prefix) {
                return true;
            }
        }
        false
    }
}

impl Drop for Piped {
    fn drop(&mut self) {
        let _ = writeln!(self.stdin, "quit");
        let _ = self.stdin.flush();
        for _ in 0..200 {
            if let Ok(Some(_)) = self.child.try_wait() {
                return;
            }
            thread::sleep(Duration::from_millis(10));
        }
        let _ = self.child.kill();
        let _ = self.child.wait();
    }
}

/// Writes an executable shell script `dir/name` running `body`; returns its path.
#[cfg(unix)]
pub fn script(dir: &Path, name: &str, body: &str) -> String {
    use std::os::unix::fs::PermissionsExt;
    let path = dir.join(name);
    std::fs::write(&path, format!("#!/bin/sh\n{body}")).expect("the script is written");
    std::fs::set_permissions(&path, std::fs::Permissions::from_mode(0o755))
        .expect("the script is executable");
    path.display().to_string()
}

/// Writes a fake UCI engine that knows bughouse and answers `go` with `on_go` (shell code);
/// returns its arena spec `uci:PATH`.
#[cfg(unix)]
pub fn fake_uci(dir: &Path, name: &str, on_go: &str) -> String {
    let body = format!(
        "while read -r line; do\n\
         case \"$line\" in\n\
         uci) echo 'id name fake'; \
              echo 'option name UCI_Variant type combo default bughouse var bughouse'; \
              echo uciok;;\n\
         isready) echo readyok;;\n\
         go*) {on_go};;\n\
         quit) exit 0;;\n\
         esac\n\
         done\n"
    );
    format!("uci:{}", script(dir, name, &body))
}

/// Writes a fake XBoard engine that knows bughouse, greets its partner with `tellics ptell
/// hello PID`, logs every line it is sent to `DIR/in.PID` and answers `go` with `on_go`;
/// returns its arena spec `xboard:PATH`.
#[cfg(unix)]
pub fn fake_xboard(dir: &Path, name: &str, on_go: &str) -> String {
    let log = dir.join("in").display().to_string();
    let body = format!(
        "while read -r line; do\n\
         echo \"$line\" >> {log}.$$\n\
         case \"$line\" in\n\
         protover*) echo 'feature usermove=1 setboard=1 ping=1 variants=\"bughouse\"'; \
                    echo 'feature done=1';;\n\
         ping*) echo \"pong ${{line#ping }}\";;\n\
         partner*) echo \"tellics ptell hello $$\";;\n\
         go) {on_go};;\n\
         quit) exit 0;;\n\
         esac\n\
         done\n"
    );
    format!("xboard:{}", script(dir, name, &body))
}

/// Writes an XBoard engine that is our own `bughouse xboard`, first running `before` (shell
/// code) and logging every line it is sent to `DIR/in.PID`; returns its arena spec.
#[cfg(unix)]
pub fn logged_xboard(dir: &Path, name: &str, before: &str) -> String {
    let log = dir.join("in").display().to_string();
    let body = format!(
        "{before}tee -a {log}.$$ | {} xboard\n",
        env!("CARGO_BIN_EXE_bughouse")
    );
    format!("xboard:{}", script(dir, name, &body))
}

/// The logs the logged XBoard engines wrote, one string per process.
pub fn engine_logs(dir: &Path) -> Vec<String> {
    let mut logs = Vec::new();
    for entry in std::fs::read_dir(dir).expect("the directory") {
        let path = entry.expect("an entry").path();
        let name = path.file_name().and_then(|n| n.to_str()).unwrap_or("");
        if name.starts_with("in.") {
            logs.push(std::fs::read_to_string(&path).expect("a log"));
        }
    }
    logs
}
