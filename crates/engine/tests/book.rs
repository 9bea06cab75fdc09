//! The opening book in the team bot (`SearchConfig::book`): a book position is played at once,
//! with the book's move, only at the levels without noise and only while no piece is on its
//! way to our opponent.

use std::time::Duration;

use bughouse_core::{parse_bughouse_fen, Match, Position, Rules, Seat, TimeControl};
use bughouse_engine::{Action, Book, Decision, Level, Limits, SearchConfig, TeamBot};

const START: &str = "rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR[] w KQkq - 0 1";

fn started(a: &str, b: &str) -> Match {
    let rules = Rules::fide();
    let positions = parse_bughouse_fen(&format!("{a} | {b}"), rules).expect("valid FENs");
    let mut m = Match::from_positions(rules, TimeControl::default(), positions);
    m.start(Duration::ZERO).unwrap();
    m
}

/// The decision of a fresh bot of `level` with `config` for White on board A.
fn decide(level: u8, config: SearchConfig, m: &Match) -> Decision {
    let mut bot = TeamBot::new(Level::new(level).unwrap(), 1);
    bot.set_search_config(config);
    bot.decide(m, Seat::WHITE_A, Duration::ZERO, Limits::nodes(50_000))
}

#[test]
fn the_builtin_book_holds_the_start_and_the_bot_plays_it_at_once() {
    let start = Position::new(Rules::fide());
    let book_move = Book::builtin()
        .lookup(&start)
        .expect("the start is in the book");
    let m = started(START, START);
    let d = decide(8, SearchConfig::GUARD_BOOK, &m);
    assert_eq!(d.action, Action::Move(book_move));
    assert_eq!(d.nodes, 0, "no search: {d:?}");
    // Without the switch, or at a level with noise, it searches.
    let d = decide(8, SearchConfig::GUARD, &m);
    assert!(d.nodes > 0, "{d:?}");
    let d = decide(5, SearchConfig::GUARD_BOOK, &m);
    assert!(d.nodes > 0, "{d:?}");
}

#[test]
fn no_book_while_a_piece_is_on_its_way_to_our_opponent() {
    // Board B, White (the opponents' partner) to move: Nf3xg5 takes Black's queen, which would
    // go to our opponent on board A. The book's moves were searched without it.
    let queen_en_prise = "rnb1kbnr/pppp1ppp/8/4p1q1/4P3/5N2/PPPP1PPP/RNBQKB1R[] w KQkq - 0 1";
    let m = started(START, queen_en_prise);
    let d = decide(8, SearchConfig::GUARD_BOOK, &m);
    assert!(d.nodes > 0, "{d:?}");
}
