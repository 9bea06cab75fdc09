//! One test per rulebook article and preset, for every row of the "Moves, drops, promotion" and
//! "End of a game" tables of `RULES.md`.
//!
//! Article numbers are the rulebooks' own: `F` fide, `M` minerva-2014, `K` knsb-1988, `U`
//! uscf-scholastic-2006. Every test name starts with its preset (`fide_`, `minerva_`, `knsb_`,
//! `uscf_`, `crazyhouse_`), so that
//! `cargo test -p bughouse-core --test rules_articles -- --list | grep -c knsb` counts the
//! tests of one preset. The checks themselves are shared functions that take the rules and,
//! where the rulebooks differ, the expected outcome written out in the test, never read back
//! from the rules under test.

#[path = "rules_articles/end.rs"]
mod end;
#[path = "rules_articles/moves.rs"]
mod moves;

use bughouse_core::{Move, Position, Role, Rules, Square};

/// The position of `fen` under `rules`; panics with the reason when it is rejected.
fn pos(fen: &str, rules: Rules) -> Position {
    Position::from_fen(fen, rules).unwrap_or_else(|e| panic!("{fen}: {e}"))
}

/// Whether the UCI move `uci` is legal in `pos`.
fn legal(pos: &Position, uci: &str) -> bool {
    pos.parse_uci(uci).is_ok()
}

/// Plays the UCI move `uci`, which must be legal; returns the role passed to the partner.
fn play(pos: &mut Position, uci: &str) -> Option<Role> {
    let m = pos
        .parse_uci(uci)
        .unwrap_or_else(|e| panic!("{uci} should be legal in {}: {e}", pos.fen()));
    pos.play(m)
        .expect("a move found among the legal moves plays")
}

/// Plays legal UCI moves one after the other.
fn play_all(pos: &mut Position, ucis: &[&str]) {
    for uci in ucis {
        play(pos, uci);
    }
}

/// The legal drops of the side to move.
fn drops(pos: &Position) -> Vec<Move> {
    pos.legal_moves()
        .into_iter()
        .filter(|m| m.is_drop())
        .collect()
}

/// A square from its name, such as `"e4"`.
fn sq(name: &str) -> Square {
    name.parse().unwrap_or_else(|_| panic!("bad square {name}"))
}
