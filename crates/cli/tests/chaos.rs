//! `bughouse chaos` in short: six matches, the server killed three times while they play; every
//! acknowledged move and every result must be in the store, once, and the records must replay.

use std::process::Command;
use std::time::Instant;

mod common;

/// The whole number after `after` on the summary line that starts with `label`.
fn figure(out: &str, label: &str, after: &str) -> u64 {
    common::figure(out, label, after) as u64
}

#[test]
fn the_server_survives_kills_without_losing_or_doubling_acknowledged_moves() {
    let start = Instant::now();
    let output = Command::new(env!("CARGO_BIN_EXE_bughouse"))
        .args(["chaos", "--matches", "6", "--kills", "3", "--time", "15s+0"])
        .args(["--seed", "7", "--duration-max", "50"])
        .output()
        .expect("the bughouse binary runs");
    let out = String::from_utf8_lossy(&output.stdout);
    let err = String::from_utf8_lossy(&output.stderr);
    assert!(
        output.status.success(),
        "chaos failed ({}):\n{out}\n{err}",
        output.status
    );
    assert_eq!(figure(&out, "kills survived", "survived"), 3, "{out}");
    assert!(figure(&out, "kills survived", "(") >= 1, "{out}");
    assert_eq!(figure(&out, "matches", "/"), 6, "{out}");
    assert_eq!(figure(&out, "matches", "total,"), 0, "no match lost: {out}");
    let acked = figure(&out, "moves", "moves");
    let stored = figure(&out, "moves", "acknowledged,");
    assert!(acked > 100, "many moves were played: {out}");
    assert!(stored >= acked, "{out}");
    assert_eq!(figure(&out, "moves", "stored,"), 0, "none missing: {out}");
    assert_eq!(figure(&out, "duplicate applications", "applications"), 0);
    assert_eq!(
        figure(&out, "results", "reported,"),
        0,
        "none changed: {out}"
    );
    assert_eq!(figure(&out, "bpgn", "move count,"), 0, "{out}");
    assert!(out.contains("result                 OK"), "{out}");
    eprintln!("{out}chaos test: {:.1} s", start.elapsed().as_secs_f64());
}
