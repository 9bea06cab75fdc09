//! The steps of the property test: what clients, bots and time do, and the frames a hostile
//! or broken client sends.

use super::*;

/// One thing a client (or time) does.
#[derive(Debug, Clone)]
pub(super) enum Step {
    /// The player to move on a board (A if false) plays the `pick`-th move of the legal list he
    /// was last shown.
    Move { board_b: bool, pick: u16 },
    /// A player sends one of the actions, well formed.
    Action { player: usize, kind: u8, arg: u8 },
    /// A player sends text that is no valid frame.
    Junk { player: usize, text: String },
    /// A player sends his last frame again, with its id (a retry after a lost answer).
    Again { player: usize },
    /// A player's connection drops; he comes back with his seat's token.
    Reconnect { player: usize },
    /// Time passes.
    Wait { ms: u32 },
    /// A bot answers one of the turns it was asked for (perhaps one that has passed): the
    /// `pick`-th legal move of the position it was given, or it sits; and it may talk.
    Bot { pick: u16, sits: bool, talk: u8 },
    /// A sitting bot is woken.
    Wake { seat: usize },
    /// The server stops at once after time passes: a fresh hub restores the match from what
    /// was stored, and everyone connects again. With `lose`, the writes of the last step had
    /// not been committed: they are lost, and so are its messages (the server sends only what
    /// is stored). With `heartbeat`, the server was last known alive that many milliseconds
    /// (up to a second) before it stopped.
    Crash {
        ms: u32,
        lose: bool,
        heartbeat: Option<u16>,
    },
}

pub(super) fn step() -> impl Strategy<Value = Step> {
    prop_oneof![
        12 => (any::<bool>(), any::<u16>()).prop_map(|(board_b, pick)| Step::Move { board_b, pick }),
        3 => (0..4usize, 0..14u8, any::<u8>())
            .prop_map(|(player, kind, arg)| Step::Action { player, kind, arg }),
        1 => (0..5usize, junk()).prop_map(|(player, text)| Step::Junk { player, text }),
        2 => (0..4usize).prop_map(|player| Step::Again { player }),
        1 => (0..4usize).prop_map(|player| Step::Reconnect { player }),
        2 => (0..20_000u32).prop_map(|ms| Step::Wait { ms }),
        1 => (0..5_000u32, any::<bool>(), prop::option::of(0..1_000u16))
            .prop_map(|(ms, lose, heartbeat)| Step::Crash { ms, lose, heartbeat }),
        6 => (any::<u16>(), prop::bool::weighted(0.1), any::<u8>())
            .prop_map(|(pick, sits, talk)| Step::Bot { pick, sits, talk }),
        1 => (0..4usize).prop_map(|seat| Step::Wake { seat }),
    ]
}

/// Frames a hostile or broken client may send.
fn junk() -> impl Strategy<Value = String> {
    prop_oneof![
        ".{0,40}",
        Just(String::new()),
        Just("{}".to_owned()),
        Just(r#"{"type":"move"}"#.to_owned()),
        Just(r#"{"type":"move","uci":"e2e4","id":-1}"#.to_owned()),
        Just(r#"{"type":"move","uci":"Q@h9","id":1e99}"#.to_owned()),
        Just(r#"{"type":"sit","seat":"RedC","name":"x"}"#.to_owned()),
        Just(r#"{"type":"talk","kind":"need"}"#.to_owned()),
        Just(r#"{"type":"claim_draw","claim":"boredom"}"#.to_owned()),
        Just(r#"{"type":"hello","match_id":"nope"}"#.to_owned()),
        Just(r#"{"type":"resign","extra":1}"#.to_owned()),
        "[a-z_]{1,12}".prop_map(|t| format!(r#"{{"type":"{t}"}}"#)),
        "[a-h][1-8][a-h][1-8][qrbnk]?"
            .prop_map(|uci| json!({"type": "move", "uci": uci}).to_string()),
    ]
}

/// A well-formed action of the kinds clients send, `arg` choosing its details.
pub(super) fn action(kind: u8, arg: u8, match_id: &str) -> serde_json::Value {
    let seat = SEATS[usize::from(arg) % 4];
    let piece = ["P", "N", "B", "R", "Q"][usize::from(arg) % 5];
    let asks = ["need", "dont_give"][usize::from(arg) % 2];
    let says = ["sit", "go", "flag"][usize::from(arg) % 3];
    match kind {
        0 => json!({"type": "resign"}),
        1 | 2 => json!({"type": "offer_draw"}),
        3 => json!({"type": "withdraw_draw"}),
        4 => {
            json!({"type": "claim_draw", "claim": if arg.is_multiple_of(2) { "repetition" } else { "move-count" }})
        }
        5 => json!({"type": "talk", "kind": asks, "piece": piece}),
        6 => json!({"type": "talk", "kind": says}),
        7 => json!({"type": "talk", "kind": "text", "text": "x".repeat(usize::from(arg))}),
        8 => json!({"type": "stand"}),
        9 => json!({"type": "sit", "seat": seat, "name": format!("p{arg}")}),
        10 => json!({"type": "add_bot", "seat": seat, "level": arg % 10}),
        11 => json!({"type": "rematch", "swap": arg.is_multiple_of(2)}),
        12 => json!({"type": "ping", "t": f64::from(arg)}),
        _ => json!({"type": "hello", "match_id": match_id}),
    }
}
