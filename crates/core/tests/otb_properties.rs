//! Properties of an over-the-board table (`bughouse_core::otb::Table`) under any sequence of
//! events at any times, in every rulebook: presses, pauses, claims of every kind, arbiters'
//! rulings, forfeits, moves entered on the scoresheet and times that go backwards.
//!
//! Whatever is entered, the table
//! - never panics;
//! - changes nothing when it refuses an event;
//! - never changes a game's end or the match's result once reached;
//! - is a function of the events it accepted: the server stores only those and replays them
//!   on every request, so a fresh table given them again must be the same table.

use std::time::Duration;

use bughouse_core::otb::{CapturedPiece, Claim, Event, Rulebook, Ruling, SetupFault, Table};
use bughouse_core::{BoardId, Color, Role, Seat, TimeControl};
use proptest::prelude::*;
use proptest::test_runner::FileFailurePersistence;

/// One thing entered at the table, `ms` after the one before (backwards when `back`).
#[derive(Debug, Clone)]
struct Op {
    ms: u32,
    back: bool,
    what: What,
}

#[derive(Debug, Clone)]
enum What {
    Start,
    Press(usize),
    Pause,
    Resume,
    Claim {
        kind: u8,
        seat: usize,
        arg: u8,
    },
    Ruling {
        board_b: bool,
        kind: u8,
    },
    Forfeit {
        seat: usize,
        deliberate: bool,
    },
    Observe,
    /// The player to move on a board enters the `pick`-th legal move of his position.
    Move {
        board_b: bool,
        pick: u16,
    },
}

fn what() -> impl Strategy<Value = What> {
    prop_oneof![
        1 => Just(What::Start),
        10 => (0..4usize).prop_map(What::Press),
        1 => Just(What::Pause),
        1 => Just(What::Resume),
        3 => (0..10u8, 0..4usize, any::<u8>())
            .prop_map(|(kind, seat, arg)| What::Claim { kind, seat, arg }),
        1 => (any::<bool>(), 0..4u8).prop_map(|(board_b, kind)| What::Ruling { board_b, kind }),
        1 => (0..4usize, any::<bool>()).prop_map(|(seat, deliberate)| What::Forfeit { seat, deliberate }),
        1 => Just(What::Observe),
        10 => (any::<bool>(), any::<u16>()).prop_map(|(board_b, pick)| What::Move { board_b, pick }),
    ]
}

fn op() -> impl Strategy<Value = Op> {
    (0..4_000u32, prop::bool::weighted(0.05), what()).prop_map(|(ms, back, what)| Op {
        ms,
        back,
        what,
    })
}

fn board(b: bool) -> BoardId {
    BoardId::ALL[usize::from(b)]
}

/// The event `what` stands for at `table` as it is.
fn event(table: &Table, what: &What) -> Option<Event> {
    let role = |arg: u8| {
        [
            Role::Pawn,
            Role::Knight,
            Role::Bishop,
            Role::Rook,
            Role::Queen,
        ][usize::from(arg) % 5]
    };
    Some(match *what {
        What::Start => Event::Start,
        What::Press(seat) => Event::Press(Seat::ALL[seat]),
        What::Pause => Event::Pause,
        What::Resume => Event::Resume,
        What::Claim { kind, seat, arg } => {
            let claimant = Seat::ALL[seat];
            Event::Claim(match kind {
                0 => Claim::Flag { claimant },
                1 => Claim::BothFlags { claimant },
                2 => Claim::IllegalMove {
                    claimant,
                    captured: (!arg.is_multiple_of(3)).then(|| CapturedPiece {
                        role: role(arg),
                        passed: arg.is_multiple_of(2),
                        partner_holds: arg % 4 < 2,
                    }),
                },
                3 => Claim::IllegalMoveWithFlag { claimant },
                4 => Claim::TakeBack { seat: claimant },
                5 => Claim::Repetition { claimant },
                6 => Claim::MoveCount { claimant },
                7 => Claim::OpponentCannotMate { claimant },
                _ => Claim::WrongSetup {
                    board: claimant.board,
                    fault: [
                        SetupFault::Position,
                        SetupFault::ColoursSwapped,
                        SetupFault::ColoursSwappedOnBothBoards,
                    ][usize::from(arg) % 3],
                },
            })
        }
        What::Ruling { board_b, kind } => Event::Ruling {
            board: board(board_b),
            ruling: match kind {
                0 => Ruling::Win(Color::White),
                1 => Ruling::Win(Color::Black),
                2 => Ruling::Draw,
                _ => Ruling::PlayOn,
            },
        },
        What::Forfeit { seat, deliberate } => Event::Forfeit {
            seat: Seat::ALL[seat],
            deliberate,
        },
        What::Observe => Event::Observe,
        What::Move { board_b, pick } => {
            let b = board(board_b);
            let position = table.scoresheet().position(b);
            let moves = position.legal_moves();
            if moves.is_empty() {
                return None;
            }
            let seat = Seat::new(b, position.turn());
            Event::Move(seat, moves[usize::from(pick) % moves.len()])
        }
    })
}

proptest! {
    #![proptest_config(ProptestConfig {
        cases: 256,
        failure_persistence: Some(Box::new(FileFailurePersistence::WithSource("regressions"))),
        ..ProptestConfig::default()
    })]

    #[test]
    fn a_table_refuses_without_change_keeps_its_results_and_replays_the_same(
        book in prop::sample::select(Rulebook::ALL.to_vec()),
        base in prop::sample::select(vec![5u64, 60, 180]),
        ops in proptest::collection::vec(op(), 1..200),
    ) {
        let tc = TimeControl { base: Duration::from_secs(base), increment: Duration::ZERO };
        let mut table = Table::new(book, tc);
        let mut accepted = Vec::new();
        let mut at = Duration::ZERO;
        let mut ends = [None, None];
        let mut result = None;
        for op in &ops {
            let step = Duration::from_millis(u64::from(op.ms));
            let when = if op.back { at.saturating_sub(step) } else { at + step };
            let Some(event) = event(&table, &op.what) else { continue };
            let before = format!("{table:?}");
            match table.apply(event, when) {
                Ok(_) => {
                    accepted.push((event, when));
                    at = when;
                }
                Err(e) => prop_assert_eq!(&format!("{table:?}"), &before, "refused ({}) yet changed", e),
            }
            for (i, b) in BoardId::ALL.into_iter().enumerate() {
                let now = table.game_end(b);
                if ends[i].is_some() {
                    prop_assert_eq!(now, ends[i], "board {:?}'s end changed", b);
                }
                ends[i] = now;
            }
            if result.is_some() {
                prop_assert_eq!(table.result(), result, "the result changed");
            }
            result = table.result();
        }
        let mut again = Table::new(book, tc);
        for (event, when) in &accepted {
            again.apply(*event, *when).expect("accepted the first time");
        }
        prop_assert_eq!(format!("{again:?}"), format!("{table:?}"), "replayed, another table");
    }
}
