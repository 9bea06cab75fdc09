//! FEN parsing under every preset: no panic; what parses writes a FEN that re-parses to the same
//! FEN; move generation and the verdict do not panic on any position FEN accepts.
#![no_main]

use bughouse_core::{Position, Preset};
use libfuzzer_sys::fuzz_target;

fuzz_target!(|data: &[u8]| {
    let Ok(text) = std::str::from_utf8(data) else {
        return;
    };
    for preset in Preset::ALL {
        let rules = preset.rules();
        let Ok(pos) = Position::from_fen(text, rules) else {
            continue;
        };
        let fen = pos.fen();
        let again = Position::from_fen(&fen, rules)
            .unwrap_or_else(|e| panic!("{preset}: written FEN {fen:?} does not re-parse: {e}"));
        assert_eq!(again.fen(), fen, "{preset}: FEN does not round-trip");
        let moves = pos.legal_moves();
        for &m in moves.iter() {
            assert!(
                pos.is_legal(m),
                "{preset}: generated move {m} not is_legal in {fen}"
            );
        }
        let _ = pos.verdict();
    }
});
