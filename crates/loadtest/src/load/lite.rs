//! The load tool's cheap reading of the message it receives most: `moved`, four times per move
//! (once per player of the match). Only the fields a simulated player uses are read, borrowed
//! from the frame; the rest is skipped without being built. Every other message is read whole,
//! as [`bughouse_protocol::ServerMessage`].
//!
//! The whole message is an internally tagged enum, which serde reads by first buffering every
//! field of the object (the FENs, the clocks, both boards' states) into a tree of its own and
//! then reading the variant from that: most of the load tool's CPU went there. Reading only
//! these fields with serde still scanned every string of the frame (the legal moves are an
//! array of a hundred short strings once pieces are in hand), a fifth of the tool's CPU at
//! 4,900 matches; so the fields are found by their keys ([`scan`]), and serde reads the frame
//! only when that fails (a string with an escape, a field out of its usual order).

use std::borrow::Cow;
use std::sync::OnceLock;

use bughouse_protocol::{BoardName, SeatName, UciList};
use memchr::memmem::Finder;
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
    scan(text).or_else(|| serde_json::from_str(text).ok())
}

/// A substring searcher built once (building `memchr`'s searcher for each call cost as much
/// as the search in these short frames).
struct Key {
    pattern: &'static str,
    finder: OnceLock<Finder<'static>>,
}

impl Key {
    const fn new(pattern: &'static str) -> Key {
        Key {
            pattern,
            finder: OnceLock::new(),
        }
    }

    /// `text` around the first occurrence of the key.
    fn split<'a>(&self, text: &'a str) -> Option<(&'a str, &'a str)> {
        let finder = self.finder.get_or_init(|| Finder::new(self.pattern));
        let at = finder.find(text.as_bytes())?;
        // The keys are ASCII: both ends of the match are character boundaries.
        Some((text.get(..at)?, text.get(at + self.pattern.len()..)?))
    }
}

static BOARD: Key = Key::new(r#","board":{"#);
static OTHER: Key = Key::new(r#","other":{"#);
static CLOCKS: Key = Key::new(r#"},"clocks":"#);
static SEAT: Key = Key::new(r#""seat":""#);
static UCI: Key = Key::new(r#""uci":""#);
static LEGAL: Key = Key::new(r#""legal":"#);
static BOARD_NAME: Key = Key::new(r#""board":""#);
/// What separates two items of a list of plain strings.
static SEPARATOR: Key = Key::new(r#"",""#);

/// The fields of a `moved` found by their keys, in the order the server writes them: `mv`,
/// then `board`, then `other` (each a board state, whose own fields come in any order), then
/// the rest. `None` when a key is missing, a value is not a plain string (an escape) or not a
/// known name; the caller then lets serde read the frame. The keys are found with `memchr`'s
/// substring search (the standard library's `str::find` built a searcher for each call: with
/// the list's per-item checks, a quarter of the tool's own CPU at 2,000 matches).
fn scan(text: &str) -> Option<Moved<'_>> {
    let rest = &text[MOVED_PREFIX.len()..];
    let (mv, boards) = BOARD.split(rest)?;
    let (board, other) = OTHER.split(boards)?;
    // The other board's object ends before the clocks.
    let other = CLOCKS.split(other).map_or(other, |(o, _)| o);
    Some(Moved {
        mv: Move {
            seat: string_field(mv, &SEAT)?.parse().ok()?,
            uci: Cow::Borrowed(string_field(mv, &UCI)?),
        },
        board: scan_board(board)?,
        other: scan_board(other)?,
    })
}

/// A board state's name and legal moves (`board` is the object's text, from its first key).
fn scan_board(board: &str) -> Option<Board> {
    let legal = match LEGAL.split(board) {
        Some((_, value)) if !value.starts_with("null") => Some(scan_list(value)?),
        _ => None,
    };
    Some(Board {
        board: string_field(board, &BOARD_NAME)?.parse().ok()?,
        legal,
    })
}

/// The array of plain strings `value` begins with, as a move list: `"…","…",…` with no
/// escape, no quote, no comma and no space inside an item, and no empty item. The items are
/// found by their separators and copied whole (a pass over each character, pushed one by one,
/// was a tenth of the tool's CPU at 4,900 matches).
fn scan_list(value: &str) -> Option<UciList> {
    let value = value.strip_prefix('[')?;
    let end = memchr::memchr(b']', value.as_bytes())?;
    let list = &value[..end];
    if list.is_empty() {
        return Some(UciList::default());
    }
    let inner = list.strip_prefix('"')?.strip_suffix('"')?;
    let mut joined = String::with_capacity(inner.len());
    let mut rest = inner;
    loop {
        let (item, next) = match SEPARATOR.split(rest) {
            Some((item, next)) => (item, Some(next)),
            None => (rest, None),
        };
        let plain = !item.is_empty()
            && !item
                .bytes()
                .any(|b| matches!(b, b'"' | b'\\' | b' ' | b','));
        if !plain {
            return None;
        }
        if !joined.is_empty() {
            joined.push(' ');
        }
        joined.push_str(item);
        match next {
            Some(next) => rest = next,
            None => break,
        }
    }
    Some(UciList::from_joined(joined))
}

/// The value of the string field whose key and opening quote are `key` (`"seat":"`) in
/// `object` (a JSON object's text, nested objects included), if it is a plain string (no
/// escape).
fn string_field<'a>(object: &'a str, key: &Key) -> Option<&'a str> {
    let (_, rest) = key.split(object)?;
    let end = memchr::memchr(b'"', rest.as_bytes())?;
    let value = &rest[..end];
    (!value.as_bytes().contains(&b'\\')).then_some(value)
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
        // The keys found it, without serde.
        let scanned = scan(&text).expect("found by its keys");
        assert_eq!(scanned.mv.seat, lite.mv.seat);
        assert_eq!(scanned.mv.uci, lite.mv.uci);
        assert_eq!(scanned.board.legal, lite.board.legal);
        assert_eq!(scanned.other.board, BoardName::B);
        assert_eq!(scanned.other.legal, None);
        // Anything else is left to the full reading.
        assert!(moved(r#"{"type":"ended","seq":1}"#).is_none());
        assert!(moved(r#"{"type":"moved","mv":1}"#).is_none());
    }

    #[test]
    fn a_list_is_read_only_in_its_plain_form() {
        let joined = |v: &str| scan_list(v).map(|l| l.iter().collect::<Vec<_>>().join(" "));
        assert_eq!(
            joined(r#"["e2e4","N@f3"],"claims""#).as_deref(),
            Some("e2e4 N@f3")
        );
        assert_eq!(joined("[]").as_deref(), Some(""));
        for broken in [
            r#"["e2e4",]"#,
            r#"[,"e2e4"]"#,
            r#"["e2e4""N@f3"]"#,
            r#"[""]"#,
            r#"["e2 e4"]"#,
            r#"["e2\u0065"]"#,
            r#"["e2e4", "e7e5"]"#,
            r#"["e2,e4"]"#,
            r#"["]"#,
            r#"["e2e4"#,
        ] {
            assert_eq!(joined(broken), None, "{broken}");
        }
    }

    #[test]
    fn the_legal_moves_of_either_board_and_the_fallback_to_serde() {
        let msg = ServerMessage::Moved {
            mv: MoveInfo {
                ply: 3,
                seat: SeatName::BlackB,
                uci: "d7d5".into(),
                san: "d5".into(),
                number: 2,
                clock_ms: 1000,
                lag_ms: 0,
            },
            board: board(BoardName::B, None),
            other: board(BoardName::A, Some("a2a3 Q@h7 e7e8q")),
            clocks: Clocks {
                remaining_ms: [1, 2, 3, 4],
                running: vec![SeatName::WhiteA, SeatName::WhiteB],
            },
            seq: 9,
        };
        let text = serde_json::to_string(&msg).unwrap();
        let m = scan(&text).expect("found by its keys");
        assert_eq!(m.mv.seat, SeatName::BlackB);
        assert_eq!(m.board.board, BoardName::B);
        assert!(m.board.legal.is_none());
        let legal: Vec<&str> = m.other.legal.as_ref().unwrap().iter().collect();
        assert_eq!(legal, ["a2a3", "Q@h7", "e7e8q"]);
        // An escaped string is not read by the keys; serde reads it.
        let escaped = text.replace(r#""uci":"d7d5""#, r#""uci":"d7\u00645""#);
        assert!(scan(&escaped).is_none());
        assert_eq!(moved(&escaped).expect("read by serde").mv.uci, "d7d5");
        // A frame cut short reads as nothing.
        assert!(moved(&text[..text.len() / 2]).is_none());
    }
}
