//! The load tool's cheap reading of the message it receives most: `moved`, four times per move
//! (once per player of the match). Only the fields a simulated player uses are read, borrowed
//! from the frame; the rest is skipped without being built. Every other message is read whole,
//! as [`bughouse_protocol::ServerMessage`].
//!
//! The whole message is an internally tagged enum, which serde reads by first buffering every
//! field of the object (the FENs, the clocks, both boards' states) into a tree of its own and
//! then reading the variant from that: most of the load tool's CPU went there.

use std::borrow::Cow;

use bughouse_protocol::{BoardName, SeatName, UciList};
use serde::Deserialize;

/// How a `moved` message begins: serde writes the tag of an internally tagged enum first.
const MOVED_PREFIX: &str = r#"{"type":"moved","#;

/// What a player needs of a `moved`.
#[derive(Debug, Deserialize)]
pub(super) struct Moved<'a> {
    #[serde(borrow)]
    pub(super) mv: Move<'a>,
    pub(super) board: Board,
    pub(super) other: Board,
}

/// Who moved, and what.
#[derive(Debug, Deserialize)]
pub(super) struct Move<'a> {
    pub(super) seat: SeatName,
    #[serde(borrow)]
    pub(super) uci: Cow<'a, str>,
}

/// A board's name and, for the player to move on it, his legal moves.
#[derive(Debug, Deserialize)]
pub(super) struct Board {
    pub(super) board: BoardName,
    #[serde(default)]
    pub(super) legal: Option<UciList>,
}

/// The frame read as a `moved`, if it is one (and reads as one).
pub(super) fn moved(text: &str) -> Option<Moved<'_>> {
    if !text.starts_with(MOVED_PREFIX) {
        return None;
    }
    serde_json::from_str(text).ok()
}

#[cfg(test)]
mod tests {
    use super::*;
    use bughouse_protocol::{BoardState, Clocks, MoveInfo, ServerMessage, Verdict};

    fn board(name: BoardName, legal: Option<&str>) -> BoardState {
        let mut list = UciList::default();
        for m in legal.unwrap_or("").split_whitespace() {
            list.push(m);
        }
        BoardState {
            board: name,
            fen: "rnbqkbnr/pppppppp/8/8/4P3/8/PPPP1PPP/RNBQKBNR[] b KQkq - 0 1".into(),
            last_move: Some("e2e4".into()),
            check: false,
            verdict: Verdict::Ongoing,
            legal: legal.map(|_| list),
            claims: Vec::new(),
        }
    }

    #[test]
    fn reads_what_the_server_writes() {
        let msg = ServerMessage::Moved {
            mv: MoveInfo {
                ply: 0,
                seat: SeatName::WhiteA,
                uci: "e2e4".into(),
                san: "e4".into(),
                number: 1,
                clock_ms: 1000,
                lag_ms: 0,
            },
            board: board(BoardName::A, Some("e7e5 N@f3")),
            other: board(BoardName::B, None),
            clocks: Clocks {
                remaining_ms: [1, 2, 3, 4],
                running: vec![SeatName::BlackA],
            },
            seq: 7,
        };
        let text = serde_json::to_string(&msg).unwrap();
        let lite = moved(&text).expect("a moved message");
        assert_eq!(lite.mv.seat, SeatName::WhiteA);
        assert_eq!(lite.mv.uci, "e2e4");
        assert_eq!(lite.board.board, BoardName::A);
        let legal: Vec<&str> = lite.board.legal.as_ref().unwrap().iter().collect();
        assert_eq!(legal, ["e7e5", "N@f3"]);
        assert_eq!(lite.other.board, BoardName::B);
        assert!(lite.other.legal.is_none());
        // Anything else is left to the full reading.
        assert!(moved(r#"{"type":"ended","seq":1}"#).is_none());
        assert!(moved(r#"{"type":"moved","mv":1}"#).is_none());
    }
}
