//! `bughouse loadtest` in short, against a real `bughouse serve` on SQLite: two worker processes
//! play four matches for a few seconds; every figure of the summary is there, moves were seen by
//! the opponents, and nothing failed.

use std::net::TcpListener;
use std::process::{Child, Command, Stdio};
use std::time::{Duration, Instant};

/// The server process, killed when dropped (also when the test fails).
struct Server(Child);

impl Drop for Server {
    fn drop(&mut self) {
        let _ = self.0.kill();
        let _ = self.0.wait();
    }
}

/// The number right after `key` on the summary line that starts with `label`.
fn figure(out: &str, label: &str, key: &str) -> f64 {
    let line = out
        .lines()
        .find(|l| l.starts_with(label))
        .unwrap_or_else(|| panic!("no line {label:?} in:\n{out}"));
    let at = line[label.len()..]
        .find(key)
        .unwrap_or_else(|| panic!("no {key:?} in {line:?}"))
        + label.len()
        + key.len();
    line[at..]
        .trim_start()
        .split(|c: char| !(c.is_ascii_digit() || c == '.'))
        .next()
        .and_then(|n| n.parse().ok())
        .unwrap_or_else(|| panic!("no number after {key:?} in {line:?}"))
}

#[test]
fn a_short_load_test_reports_latency_the_tools_own_delay_and_the_servers_cost() {
    let dir = tempfile::tempdir().expect("a temporary directory");
    let port = TcpListener::bind("127.0.0.1:0")
        .and_then(|l| l.local_addr())
        .expect("a free port")
        .port();
    let addr = format!("127.0.0.1:{port}");
    let db = format!("sqlite://{}", dir.path().join("load.db").display());
    let server = Server(
        Command::new(env!("CARGO_BIN_EXE_bughouse"))
            .args(["serve", "--addr", &addr, "--database", &db])
            .stdout(Stdio::null())
            .stderr(Stdio::null())
            .spawn()
            .expect("bughouse serve starts"),
    );
    let waited = Instant::now();
    while std::net::TcpStream::connect(&addr).is_err() {
        assert!(
            waited.elapsed() < Duration::from_secs(30),
            "the server does not listen"
        );
        std::thread::sleep(Duration::from_millis(50));
    }
    let pid = server.0.id().to_string();
    let url = format!("http://{addr}");
    let output = Command::new(env!("CARGO_BIN_EXE_bughouse"))
        .args([
            "loadtest",
            "--server",
            &url,
            "--matches",
            "4",
            "--workers",
            "2",
        ])
        .args(["--move-every", "0.05", "--duration", "5", "--ramp", "200"])
        .args(["--server-pid", &pid])
        .output()
        .expect("bughouse loadtest runs");
    let out = String::from_utf8_lossy(&output.stdout);
    let err = String::from_utf8_lossy(&output.stderr);
    assert!(
        output.status.success(),
        "loadtest failed ({}):\n{out}\n{err}",
        output.status
    );
    // Four matches of four connections, all opened, none failed.
    assert_eq!(figure(&out, "connections", "the end,"), 16.0, "{out}");
    assert_eq!(figure(&out, "connections", "at most,"), 0.0, "{out}");
    let sent = figure(&out, "moves ", "");
    let seen = figure(&out, "moves ", "sent,");
    assert!(seen > 20.0, "moves seen by the opponents: {out}");
    assert!(seen <= sent, "no more seen than sent: {out}");
    // p50 <= p90 <= p99 <= max, for the moves and for the tool's own timer.
    for label in ["latency whole run", "load tool's own delay"] {
        let f = ["p50", "p90", "p99", "max"].map(|q| figure(&out, label, q));
        assert!(
            f[0] <= f[1] && f[1] <= f[2] && f[2] <= f[3],
            "{label}: {out}"
        );
    }
    // The tool's timer fired about every 10 ms in both workers after the ramp.
    assert!(
        figure(&out, "load tool's own delay", "after ramp,") >= 20.0,
        "{out}"
    );
    for what in ["socket", "connect", "create"] {
        let line = out.lines().find(|l| l.starts_with("errors")).unwrap_or("");
        let before = &line[..line.find(&format!(" {what}")).unwrap_or(0)];
        let n = before.rsplit(' ').next().unwrap_or("");
        assert_eq!(n, "0", "{what} errors: {out}");
    }
    assert!(
        figure(&out, &format!("server {pid} RSS"), "before,") > 0.0,
        "{out}"
    );
    assert!(
        figure(&out, &format!("server {pid} CPU"), "") > 0.0,
        "{out}"
    );
    assert!(figure(&out, "load tool CPU", "") > 0.0, "{out}");
}
