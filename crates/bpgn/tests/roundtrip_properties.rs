//! BPGN written from any match reads back as that match, in every bughouse rulebook.
//!
//! A match is played at random: moves on both boards in any order, drops, captures, promotions
//! (a promoted piece captured goes to the partner as the rulebook says), castling and en passant
//! as they come, at random times, with resignations and flags now and then. Its BPGN
//! (`write_bpgn`) is read back (`read_games`) and replayed (`replay_bughouse`) under the same
//! rules, and must give
//! - the same moves, boards, colours, move numbers and remaining clocks, to the millisecond;
//! - the same positions on both boards, reserves included;
//! - the same result and termination comment;
//! - for a match that a move ended (mate, stalemate), the same result from the moves alone.
//!
//! The real archives of `../shared/data` are checked the same way under fide (`archives.rs`);
//! these matches reach what those games seldom do (several promotions, every preset, a game of
//! knsb-1988 going on after the other ended).

use std::time::Duration;

use bughouse_bpgn::{read_games, replay_bughouse, termination, write_bpgn};
use bughouse_core::otb::Rulebook;
use bughouse_core::{BoardId, EndReason, Match, Move, Preset, Seat, TimeControl, Verdict};
use proptest::prelude::*;
use proptest::test_runner::FileFailurePersistence;

/// One step of the match: a move on a board (which one, which move), a resignation, or a long
/// wait that lets a flag fall; `ms` of thought before it.
#[derive(Debug, Clone)]
enum Step {
    Move { board: u8, pick: u16, ms: u16 },
    Resign { seat: u8 },
    Wait { secs: u16 },
}

fn step() -> impl Strategy<Value = Step> {
    prop_oneof![
        200 => (any::<u8>(), any::<u16>(), prop_oneof![4 => 0u16..400, 1 => 0u16..4_000]).prop_map(|(board, pick, ms)| Step::Move { board, pick, ms }),
        1 => any::<u8>().prop_map(|seat| Step::Resign { seat }),
        1 => (1u16..200).prop_map(|secs| Step::Wait { secs }),
    ]
}

/// A legal move of `pos`'s player chosen by `pick`: half of the time among the drops,
/// promotions and captures when there are any (the moves whose notation has the most to get
/// right), else among all.
fn choose(game: &Match, board: BoardId, pick: u16) -> Option<Move> {
    let pos = game.position(board);
    let moves = pos.legal_moves();
    if moves.is_empty() {
        return None;
    }
    let them = pos.board().by_color(!pos.turn());
    let special: Vec<Move> = moves
        .iter()
        .copied()
        .filter(|m| {
            m.is_drop()
                || m.promotion_role().is_some()
                || m.is_en_passant()
                || m.is_castle()
                || them.contains(m.to())
        })
        .collect();
    let pick = usize::from(pick);
    if pick % 2 == 0 && !special.is_empty() {
        Some(special[(pick / 2) % special.len()])
    } else {
        Some(moves[(pick / 2) % moves.len()])
    }
}

/// Plays `steps` from the start of a match under `book` at `base`+`inc`.
fn play(book: Preset, base: u64, inc: u64, steps: &[Step]) -> Match {
    let tc = TimeControl {
        base: Duration::from_secs(base),
        increment: Duration::from_secs(inc),
    };
    let mut game = Match::new(book.rules(), tc);
    game.start(Duration::ZERO).expect("a new match starts");
    let mut now = Duration::ZERO;
    for step in steps {
        if game.is_over() {
            break;
        }
        match *step {
            Step::Move { board, pick, ms } => {
                now += Duration::from_millis(u64::from(ms));
                game.tick(now);
                // The board asked for, or the other one when this one cannot move now.
                let first = BoardId::ALL[usize::from(board % 2)];
                for b in [first, first.other()] {
                    if game.is_over() || game.game_end(b).is_some() {
                        continue;
                    }
                    let Some(m) = choose(&game, b, pick) else {
                        continue;
                    };
                    let seat = game.to_move(b);
                    game.play(seat, m, now).expect("a legal move is played");
                    break;
                }
            }
            Step::Resign { seat } => {
                // Refused when not allowed (knsb-1988: only on the move; a game over): fine.
                let _ = game.resign(Seat::ALL[usize::from(seat % 4)], now);
            }
            Step::Wait { secs } => {
                now += Duration::from_secs(u64::from(secs));
                game.tick(now);
            }
        }
    }
    game
}

fn tags(book: Preset) -> Vec<(String, String)> {
    vec![
        ("Event".into(), "roundtrip".into()),
        ("WhiteA".into(), "Ann \"the\" Analyst".into()),
        ("BlackA".into(), "Bob".into()),
        ("WhiteB".into(), "Cas".into()),
        ("BlackB".into(), "Dee\\Dum".into()),
        ("Rules".into(), book.id().into()),
    ]
}

fn check(book: Preset, game: &Match) -> Result<(), TestCaseError> {
    let tags = tags(book);
    let text = write_bpgn(game, &tags);
    let back: Vec<_> = read_games(text.as_bytes()).collect();
    prop_assert_eq!(back.len(), 1, "one game read back from\n{}", text);
    let record = match &back[0] {
        Ok(record) => record,
        Err(e) => return Err(TestCaseError::fail(format!("{e}\n{text}"))),
    };
    prop_assert!(record.bughouse);
    for (k, v) in &tags {
        prop_assert_eq!(record.tag(k), Some(v.as_str()), "tag {}", k);
    }
    prop_assert_eq!(
        record.result.as_deref(),
        Some(game.result().map_or("*", |r| r.pgn()))
    );
    prop_assert_eq!(&record.termination, &termination(game, &tags), "{}", text);

    // The moves as written.
    prop_assert_eq!(record.moves.len(), game.record().len(), "{}", text);
    for (read, played) in record.moves.iter().zip(game.record()) {
        prop_assert_eq!(read.board, Some(played.seat.board), "{}", text);
        prop_assert_eq!(read.color, played.seat.color);
        prop_assert_eq!(read.number, played.number);
        prop_assert_eq!(&read.san, played.san.as_str());
        prop_assert_eq!(read.clock, Some(played.clock_left), "{}", read.token());
    }

    // The moves replayed.
    let again = match replay_bughouse(record, book.rules()) {
        Ok(again) => again,
        Err(e) => return Err(TestCaseError::fail(format!("replay: {e}\n{text}"))),
    };
    prop_assert_eq!(again.record().len(), game.record().len());
    for (x, y) in again.record().iter().zip(game.record()) {
        prop_assert_eq!((x.seat, x.mv, &x.san), (y.seat, y.mv, &y.san));
    }
    // Both boards' positions and reserves.
    prop_assert_eq!(again.fen(), game.fen(), "{}", text);
    // What the moves alone decide comes back from them: a mate or stalemate ends the same
    // games with the same scores (resignations and flags are in the comment and the result).
    // The first game to end (not stopped by the other's end) decides the match.
    let first = BoardId::ALL
        .into_iter()
        .filter_map(|b| game.game_end(b))
        .filter(|e| e.reason != EndReason::OtherBoard)
        .map(|e| e.at)
        .min();
    for board in BoardId::ALL {
        let by_move = |m: &Match| {
            m.game_end(board)
                .filter(|e| matches!(e.reason, EndReason::Checkmate | EndReason::Stalemate))
                .map(|e| (e.reason, e.score))
        };
        let played = by_move(game);
        let decided_by_it = game
            .game_end(board)
            .is_some_and(|e| Some(e.at) == first || !book.rules().match_ends_with_first_game);
        if played.is_some() && decided_by_it {
            prop_assert_eq!(by_move(&again), played, "board {:?}\n{}", board, text);
        }
        if game.game_end(board).is_none() {
            prop_assert_eq!(again.verdict(board), game.verdict(board));
            prop_assert!(again.verdict(board) != Verdict::Checkmate);
        }
    }
    // A match that moves alone ended (no resignation, flag or agreement in it) has the same
    // result from the moves replayed.
    let ended_by_moves = BoardId::ALL.into_iter().all(|b| {
        game.game_end(b).is_none_or(|e| {
            matches!(
                e.reason,
                EndReason::Checkmate | EndReason::Stalemate | EndReason::OtherBoard
            )
        })
    });
    if game.result().is_some() && ended_by_moves {
        prop_assert_eq!(again.result(), game.result(), "{}", text);
    }
    Ok(())
}

proptest! {
    #![proptest_config(ProptestConfig {
        cases: 512,
        failure_persistence: Some(Box::new(FileFailurePersistence::WithSource("regressions"))),
        ..ProptestConfig::default()
    })]

    /// Any match, written and read back, is the same match.
    #[test]
    fn written_bpgn_reads_back_as_the_match(
        book in prop::sample::select(Rulebook::ALL.map(Rulebook::preset).to_vec()),
        base in prop_oneof![Just(60u64), Just(180), Just(300), 1u64..1_000],
        inc in prop_oneof![3 => Just(0u64), 1 => 0u64..30],
        steps in prop::collection::vec(step(), 0..600),
    ) {
        let game = play(book, base, inc, &steps);
        check(book, &game)?;
    }
}
