//! `bughouse xboard`, driven over its standard input and output like a FICS-style interface:
//! the `protover 2` features, moves with `usermove`, reserves with `holding`, `go`, and the
//! partner protocol (`sit` holds the move until `go`).

use std::time::Duration;

use bughouse_core::{Position, Rules};

mod common;

use common::Piped;

#[test]
fn a_fics_style_interface_plays_bughouse_with_it() {
    let mut x = Piped::start("xboard");
    x.send("xboard");
    x.send("protover 2");
    let mut features = String::new();
    loop {
        let line = x.expect("feature");
        features.push_str(&line);
        if line.contains("done=1") {
            break;
        }
    }
    for f in [
        "variants=\"bughouse,crazyhouse\"",
        "usermove=1",
        "setboard=1",
        "ping=1",
    ] {
        assert!(features.contains(f), "{f} in {features}");
    }
    x.send("new");
    x.send("variant bughouse");
    x.send("partner someone");
    assert!(x.expect("tellics ptell ").contains("partner bughouse"));
    x.send("force");
    x.send("usermove e2e4");
    x.send("usermove e7e5");
    x.send("usermove g1f3");
    // The partner's capture gives Black a knight.
    x.send("holding [] [N]");
    x.send("time 1000");
    x.send("otim 1000");
    x.send("go");
    let answer = x.expect("move ");
    let token = answer.split_whitespace().nth(1).expect("a move");
    let rules = Rules::fide();
    let mut pos = Position::from_fen(
        "rnbqkbnr/pppp1ppp/8/4p3/4P3/5N2/PPPP1PPP/RNBQKB1R[n] b KQkq - 1 2",
        rules,
    )
    .expect("a FEN");
    let mv = pos
        .parse_uci(token)
        .expect("a legal move for Black, the knight included");
    pos.play(mv).expect("legal");

    // An illegal move is refused by name; ping is answered in order.
    x.send("usermove e2e5");
    assert_eq!(x.expect("Illegal move"), "Illegal move: e2e5");
    x.send("ping 3");
    assert_eq!(x.expect("pong"), "pong 3");

    // Told to sit, it holds its move until told to go.
    x.send("force");
    x.send("setboard rnbqkbnr/pppp1ppp/8/4p3/4P3/5N2/PPPP1PPP/RNBQKB1R[n] b KQkq - 1 2");
    x.send("ptell sit");
    x.send("time 3000");
    x.send("otim 3000");
    x.send("go");
    assert!(!x.sees("move ", Duration::from_millis(700)), "it sits");
    x.send("ptell go");
    x.expect("move ");
    x.send("ptell help");
    assert!(x.expect("tellics ptell ").contains("sit"));
}

#[test]
fn a_sitting_engine_moves_when_its_clock_runs_low() {
    let mut x = Piped::start("xboard");
    x.send("protover 2");
    x.expect("feature done=1");
    x.send("new");
    x.send("variant bughouse");
    x.send("ptell sit");
    x.send("time 150");
    x.send("otim 3000");
    x.send("go");
    // 1.5 s left: it sits for half a second and moves at one second.
    assert!(
        x.sees("move ", Duration::from_secs(5)),
        "it moves in the end"
    );
}
