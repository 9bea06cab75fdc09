//! Properties of the server's state machine under any sequence of client messages, with a
//! fake clock: legal moves, stale and hostile frames, retries of the same action, reconnects,
//! resignations, draw offers and claims, talk, bots answering the turns they were asked (stale
//! ones too) and time running out, in every rulebook's preset.
//!
//! Whatever the clients send, the hub
//! - never panics;
//! - stores each move once (one row a ply, one a client action) and never a move after the end;
//! - acknowledges a move only once it has handed its row to the store (stores before sends);
//! - ends a match once: a result reached (of the match, or of one board under knsb-1988) never
//!   changes, and the end is stored once;
//! - numbers what it tells a watcher without gaps or repeats, and tells each ply once;
//! - and what it stored, read back from a real SQLite database into a fresh hub, is the match
//!   as the players saw it: the same moves, positions and result.
//!
//! A step's writes are stored and its messages delivered when the next step begins, as the
//! server sends only what is stored. A crash at any moment replaces the hub by one restored
//! from the database (resuming from a heartbeat or from the last record), perhaps losing the
//! last step's writes with its messages, and everyone connects again: the match is the one the
//! clients were last shown, no clock lost time to the stop, an action retried after its ack is
//! acked again (not refused, not done twice), one whose ack was lost is done once, the watcher's
//! numbering goes on above what it was told, and every rule above still holds.

#[path = "hub_properties/checks.rs"]
mod checks;
mod common;
#[path = "hub_properties/steps.rs"]
mod steps;
#[path = "hub_properties/world.rs"]
mod world;

use std::collections::HashSet;
use std::time::Duration;

use bughouse_core::otb::Rulebook;
use bughouse_protocol::{BoardState, MatchState, Piece, ServerMessage, TalkKind};
use bughouse_server::hub::{BotReply, BotTurn, ConnId, Effect, Hub, Input, Write};
use bughouse_store::Store;
use common::to;
use proptest::prelude::*;
use proptest::test_runner::FileFailurePersistence;
use serde_json::json;

use checks::restarted;
use steps::{action, step, Step};
use world::World;

const SEATS: [&str; 4] = ["WhiteA", "BlackA", "WhiteB", "BlackB"];
const SPECTATOR: ConnId = 9;
/// Unix time of server time 0, in milliseconds.
const UNIX_ZERO: i64 = 1_800_000_000_000;

proptest! {
    #![proptest_config(ProptestConfig {
        cases: 128,
        failure_persistence: Some(Box::new(FileFailurePersistence::WithSource("regressions"))),
        ..ProptestConfig::default()
    })]

    #[test]
    fn whatever_clients_send_results_stand_and_moves_are_stored_once(
        book in prop::sample::select(Rulebook::ALL.to_vec()),
        bots in prop::array::uniform4(prop::bool::weighted(0.3)),
        steps in proptest::collection::vec(step(), 1..160),
    ) {
        let mut w = World::new(book.preset().id(), bots);
        for step in &steps {
            w.run(step);
        }
        w.deliver();
        restarted(&mut w, None);
    }
}

/// The property's world itself: legal moves from the lists are taken, and a retried move is
/// acknowledged without a second row.
#[test]
fn the_world_plays_legal_moves_and_a_retry_is_not_stored_again() {
    let mut w = World::new("fide", [false; 4]);
    for _ in 0..6 {
        w.run(&Step::Move {
            board_b: false,
            pick: 3,
        });
        w.run(&Step::Again { player: 0 });
        w.run(&Step::Again { player: 1 });
    }
    assert_eq!(w.plies.len(), 6, "six moves on board A, each stored once");
    assert_eq!(w.told_plies.len(), 6);
    // After a restart the retries are still known: acknowledged, not stored again.
    w.run(&Step::Crash {
        ms: 100,
        lose: false,
        heartbeat: None,
    });
    w.run(&Step::Again { player: 0 });
    w.run(&Step::Again { player: 1 });
    w.deliver();
    assert_eq!(w.plies.len(), 6, "no move stored twice across a restart");
    w.run(&Step::Move {
        board_b: false,
        pick: 3,
    });
    w.deliver();
    assert_eq!(w.plies.len(), 7, "play goes on after the restart");
    // A move whose write was not committed when the server stopped is lost with its ack; sent
    // again, it is played once.
    w.run(&Step::Move {
        board_b: false,
        pick: 3,
    });
    w.run(&Step::Crash {
        ms: 100,
        lose: true,
        heartbeat: Some(50),
    });
    assert_eq!(w.hub.public_state(&w.id, w.now).unwrap().moves.len(), 7);
    w.run(&Step::Again { player: 1 });
    w.deliver();
    assert_eq!(w.plies.len(), 8, "the move sent again is played once");
    w.deliver();
    restarted(&mut w, None);
}
