//! SAN and UCI parsing on a few fixed positions (reserves, promoted pieces, castling, en
//! passant, promotions). Input: byte 0 picks the position and the preset, the rest is UTF-8
//! text whose whitespace-separated tokens are tried as SAN and as UCI, one after the other; the
//! first reading that gives a move is played, so later tokens see later positions.
//!
//! A move that parses must be legal, be in the generated move list, and its SAN and UCI must
//! parse back to the same move.
#![no_main]

use bughouse_core::{Move, Position, Preset};
use libfuzzer_sys::fuzz_target;

const POSITIONS: &[&str] = &[
    "rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR[] w KQkq - 0 1",
    "2k5/8/8/8/8/8/8/4K3[QRBNPqrbnp] w - - 0 1",
    "r1bqk2r/pppp1ppp/2n1p3/4P3/1b1Pn3/2NB1N2/PPP2PPP/R1BQK2R[] b KQkq - 0 1",
    "4k3/1Q~6/8/8/4b3/8/Kpp5/8[] b - - 0 1",
    "2rn1b1r/1pp2n1p/B1PBk1pP/5p1P/P5p1/2P2RP1/RP1QNP2/1NBK4[QPp] w - - 0 1",
    "r3k2r/1P4P1/8/3pP3/8/8/1p4p1/R3K2R[NBnb] w KQkq d6 0 1",
    "r3k2r/6P1/2N~5/8/3pP3/2Q~5/1p6/R3K2R[PPnnr] b KQkq e3 0 1",
    "4k3/8/8/8/8/8/8/4K3[N] w - - 0 1",
];

fn check(pos: &Position, m: Move, how: &str, token: &str) {
    let fen = pos.fen();
    assert!(
        pos.is_legal(m),
        "{how} {token:?} gave {m}, not legal in {fen}"
    );
    assert!(
        pos.legal_moves().contains(&m),
        "{how} {token:?} gave {m}, not generated in {fen}"
    );
    let san = pos.san(m);
    match pos.parse_san(&san) {
        Ok(back) => assert_eq!(back, m, "SAN {san:?} of {m} reads back as {back} in {fen}"),
        Err(e) => panic!("SAN {san:?} of {m} does not read back in {fen}: {e}"),
    }
    let uci = m.to_string();
    match pos.parse_uci(&uci) {
        Ok(back) => assert_eq!(back, m, "UCI {uci:?} of {m} reads back as {back} in {fen}"),
        Err(e) => panic!("UCI {uci:?} of {m} does not read back in {fen}: {e}"),
    }
}

fuzz_target!(|data: &[u8]| {
    let Some((&choice, rest)) = data.split_first() else {
        return;
    };
    let Ok(text) = std::str::from_utf8(rest) else {
        return;
    };
    let n = POSITIONS.len();
    let fen = POSITIONS[usize::from(choice) % n];
    let preset = Preset::ALL[(usize::from(choice) / n) % Preset::ALL.len()];
    let Ok(mut pos) = Position::from_fen(fen, preset.rules()) else {
        return;
    };
    // The whole text as one move, then token by token.
    for (i, token) in std::iter::once(text)
        .chain(text.split_whitespace())
        .take(65)
        .enumerate()
    {
        let san = pos.parse_san(token);
        let uci = pos.parse_uci(token);
        if let Ok(m) = san {
            check(&pos, m, "SAN", token);
        }
        if let Ok(m) = uci {
            check(&pos, m, "UCI", token);
        }
        if i > 0 {
            if let Some(m) = san.ok().or(uci.ok()) {
                pos.play(m).expect("a parsed move plays");
            }
        }
    }
});
