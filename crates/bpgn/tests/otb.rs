//! An over-the-board table's scoresheet written as BPGN reads back and replays to the same
//! moves, with the clock times of the table's presses.

use std::time::Duration;

use bughouse_bpgn::{read_games, replay_bughouse, table_record, write_record};
use bughouse_core::otb::{Event, Rulebook, Table};
use bughouse_core::{BoardId, Color, Seat, TimeControl};

/// A move as read: board, side, number, SAN, clock.
type Token<'a> = (Option<BoardId>, Color, u32, &'a str, Option<Duration>);

fn ms(n: u64) -> Duration {
    Duration::from_millis(n)
}

/// Enters `san` for `seat` on the scoresheet at `at`.
fn enter(table: &mut Table, seat: Seat, san: &str, at: u64) {
    let mv = table.scoresheet().parse(seat, san).unwrap();
    table.apply(Event::Move(seat, mv), ms(at)).unwrap();
}

fn table_with_moves() -> Table {
    let tc = TimeControl {
        base: Duration::from_secs(180),
        increment: Duration::ZERO,
    };
    let mut t = Table::new(Rulebook::Fide, tc);
    t.apply(Event::Start, ms(0)).unwrap();
    // Board A: 1. e4 d5 2. exd5, the pawn going to Black on board B.
    t.apply(Event::Press(Seat::WHITE_A), ms(1_500)).unwrap();
    enter(&mut t, Seat::WHITE_A, "e4", 1_600);
    t.apply(Event::Press(Seat::WHITE_B), ms(2_000)).unwrap();
    enter(&mut t, Seat::WHITE_B, "e4", 2_100);
    t.apply(Event::Press(Seat::BLACK_A), ms(3_250)).unwrap();
    enter(&mut t, Seat::BLACK_A, "d5", 3_300);
    t.apply(Event::Press(Seat::WHITE_A), ms(4_000)).unwrap();
    enter(&mut t, Seat::WHITE_A, "exd5", 4_100);
    // Black on board B drops the pawn; the move is entered before his press.
    enter(&mut t, Seat::BLACK_B, "P@d5", 5_000);
    t
}

#[test]
fn the_scoresheet_written_as_bpgn_replays_to_the_same_moves() {
    let t = table_with_moves();
    let tags = vec![("WhiteA".to_owned(), "ann".to_owned())];
    let record = table_record(&t, &tags).unwrap();
    let text = write_record(&record);

    assert!(text.contains("[WhiteA \"ann\"]"), "{text}");
    assert!(text.contains("[TimeControl \"180+0\"]"), "{text}");
    assert!(text.contains("[Result \"*\"]"), "{text}");
    // Each move with the time its mover's clock showed at his press.
    assert!(text.contains("1A. e4 {178.5}"), "{text}");
    assert!(text.contains("1B. e4 {178}"), "{text}");
    assert!(text.contains("1a. d5 {178.25}"), "{text}");
    assert!(text.contains("2A. exd5 {177.75}"), "{text}");
    // Not pressed yet: no clock.
    assert!(
        text.contains("1b. P@d5 *") || text.contains("1b. P@d5\n"),
        "{text}"
    );

    let read = read_games(text.as_bytes()).next().unwrap().unwrap();
    assert!(read.bughouse);
    let tokens: Vec<Token<'_>> = read
        .moves
        .iter()
        .map(|m| (m.board, m.color, m.number, m.san.as_str(), m.clock))
        .collect();
    assert_eq!(
        tokens,
        vec![
            (Some(BoardId::A), Color::White, 1, "e4", Some(ms(178_500))),
            (Some(BoardId::B), Color::White, 1, "e4", Some(ms(178_000))),
            (Some(BoardId::A), Color::Black, 1, "d5", Some(ms(178_250))),
            (Some(BoardId::A), Color::White, 2, "exd5", Some(ms(177_750))),
            (Some(BoardId::B), Color::Black, 1, "P@d5", None),
        ]
    );

    let game = replay_bughouse(&read, Rulebook::Fide.rules()).unwrap();
    let replayed: Vec<(Seat, &str)> = game
        .record()
        .iter()
        .map(|m| (m.seat, m.san.as_str()))
        .collect();
    let entered: Vec<(Seat, &str)> = t
        .scoresheet()
        .moves()
        .iter()
        .map(|m| (m.seat, m.san.as_str()))
        .collect();
    assert_eq!(replayed, entered);
    for board in BoardId::ALL {
        assert_eq!(
            game.position(board).fen(),
            t.scoresheet().position(board).fen()
        );
    }
}

#[test]
fn an_ended_table_writes_its_result_and_how_the_game_ended() {
    let mut t = table_with_moves();
    t.apply(
        Event::Forfeit {
            seat: Seat::WHITE_B,
            deliberate: true,
        },
        ms(6_000),
    )
    .unwrap();
    let result = t.result().expect("the forfeit ends the match");
    let text = write_record(&table_record(&t, &[]).unwrap());
    assert!(
        text.contains(&format!("[Result \"{}\"]", result.pgn())),
        "{text}"
    );
    let end = t.game_end(BoardId::B).unwrap();
    assert!(
        text.contains(&format!(
            "{{board B: 0-1 ({})}} {}",
            end.article,
            result.pgn()
        )),
        "{text}"
    );
    let read = read_games(text.as_bytes()).next().unwrap().unwrap();
    assert_eq!(read.result.as_deref(), Some(result.pgn()));
    assert_eq!(read.moves.len(), 5);
}

#[test]
fn a_table_without_moves_has_no_record() {
    let mut t = Table::new(Rulebook::Knsb1988, TimeControl::default());
    t.apply(Event::Start, ms(0)).unwrap();
    t.apply(Event::Press(Seat::WHITE_A), ms(1_000)).unwrap();
    assert!(table_record(&t, &[]).is_none());
}
