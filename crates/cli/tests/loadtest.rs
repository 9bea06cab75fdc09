//! `bughouse loadtest` in short, against a real `bughouse serve` on SQLite: two worker processes
//! play four matches for a few seconds; every figure of the summary is there, moves were seen by
//! the opponents, and nothing failed.

mod common;

// The server process of the cluster tests (here one server on SQLite); what this test does not
// use of the harness is left unused.
#[allow(dead_code)]
#[path = "cluster/harness.rs"]
mod harness;

use common::figure;
use harness::{free_port, Node};

#[tokio::test]
async fn a_short_load_test_reports_latency_the_tools_own_delay_and_the_servers_cost() {
    let dir = tempfile::tempdir().expect("a temporary directory");
    let db = format!("sqlite://{}", dir.path().join("load.db").display());
    let addr = free_port();
    let server = Node::serve(addr, &["--database", &db], &dir.path().join("serve.log")).await;
    let pid = server.pid().to_string();
    let url = format!("http://{addr}");
    let args = [
        "loadtest",
        "--server",
        &url,
        "--matches",
        "4",
        "--workers",
        "2",
        "--move-every",
        "0.05",
        "--duration",
        "5",
        "--ramp",
        "200",
        "--server-pid",
        &pid,
    ];
    let output = common::bughouse(&args);
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
    let sent = figure(&out, "moves ", "moves");
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
    // `errors  N from the server {…}, N socket, N connect, N create`: the last three are 0.
    let errors = out.lines().find(|l| l.starts_with("errors")).unwrap_or("");
    for what in ["socket", "connect", "create"] {
        let before = &errors[..errors.find(&format!(" {what}")).unwrap_or(0)];
        assert_eq!(before.rsplit(' ').next(), Some("0"), "{what} errors: {out}");
    }
    let server_line = format!("server {pid}");
    assert!(
        figure(&out, &format!("{server_line} RSS"), "before,") > 0.0,
        "{out}"
    );
    assert!(
        figure(&out, &format!("{server_line} CPU"), "CPU") > 0.0,
        "{out}"
    );
    assert!(figure(&out, "load tool CPU", "CPU") > 0.0, "{out}");
}
