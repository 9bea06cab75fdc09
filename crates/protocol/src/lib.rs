//! The wire protocol between the bughouse server and its clients (browsers, bots, the load
//! tester): JSON messages over one websocket per client, each an object with a `"type"` field.
//!
//! This module is the single definition; `docs/protocol.md` describes it for client authors and
//! must change with it. Names use bughouse words: a match has boards `A` and `B` and seats
//! `WhiteA`, `BlackA`, `WhiteB`, `BlackB`; teams are WhiteA + BlackB against BlackA + WhiteB.
//! Moves travel in UCI (`e2e4`, `e7e8q`, `e1g1`, `N@f3`), positions as FEN with bracketed
//! reserves, times in milliseconds.

use std::collections::BTreeMap;

use serde::{Deserialize, Serialize};

/// The largest message a client may send, in bytes. Larger frames are refused.
pub const MAX_CLIENT_MESSAGE: usize = 4096;

/// The longest chat text, in characters.
pub const MAX_CHAT: usize = 300;

/// The longest player name, in characters.
pub const MAX_NAME: usize = 32;

/// A seat name: `WhiteA`, `BlackA`, `WhiteB` or `BlackB`.
pub type SeatName = String;

/// What a client sends.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
#[serde(tag = "type", rename_all = "snake_case", deny_unknown_fields)]
pub enum ClientMessage {
    /// The first message on a connection: watch `match_id`, and with a seat token, act for that
    /// seat again (after a reload or a lost connection).
    Hello {
        /// The match to join.
        match_id: String,
        /// The secret of a seat taken earlier, if any.
        #[serde(default, skip_serializing_if = "Option::is_none")]
        token: Option<String>,
    },
    /// Take a free seat before the match starts.
    Sit {
        /// The seat.
        seat: SeatName,
        /// The name to show.
        name: String,
    },
    /// Give a free seat to a bot before the match starts.
    AddBot {
        /// The seat.
        seat: SeatName,
        /// Its strength, 1 (weakest) to 8 (full strength, the default).
        #[serde(default, skip_serializing_if = "Option::is_none")]
        level: Option<u8>,
    },
    /// Leave one's seat before the match starts.
    Stand,
    /// Play a move on one's own board.
    Move {
        /// The move in UCI.
        uci: String,
    },
    /// Resign one's game (and, where the rulebook says so, the match).
    Resign,
    /// Offer or accept a draw.
    OfferDraw,
    /// Withdraw one's draw offer.
    WithdrawDraw,
    /// Claim a draw: `repetition` or `move-count`.
    ClaimDraw {
        /// The claim.
        claim: String,
    },
    /// A message to one's partner: free text where the rulebook allows it, or one of the
    /// quick messages (see [`TalkKind`]).
    Talk {
        /// The kind of message.
        kind: TalkKind,
        /// The piece it is about, for `need` and `dont_give` (`P`, `N`, `B`, `R`, `Q`).
        #[serde(default, skip_serializing_if = "Option::is_none")]
        piece: Option<String>,
        /// The text, for `text`.
        #[serde(default, skip_serializing_if = "Option::is_none")]
        text: Option<String>,
    },
    /// Ask for a new match with the same teams, or with partners swapped.
    Rematch {
        /// Swap partners.
        swap: bool,
    },
    /// Measure the round trip: the server answers [`ServerMessage::Pong`] with the same `t`.
    Ping {
        /// The client's own clock, echoed back.
        t: f64,
    },
}

/// The kinds of partner talk. Which are allowed depends on the rulebook: knsb-1988 only
/// `need` (K14); minerva-2014 `need`, `dont_give`, `sit`, `go`, `flag` (M9.2 to M9.5); fide and
/// uscf everything (F3.10, U12).
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum TalkKind {
    /// "I need a piece" (M9.2, K14).
    Need,
    /// "Don't give this piece: it wins for the opponent" (M9.3).
    DontGive,
    /// "Stop moving" (M9.4).
    Sit,
    /// "Go on moving".
    Go,
    /// "Your opponent's flag is down" (M9.5).
    Flag,
    /// Free text (F3.10, U12).
    Text,
}

/// A seat as clients see it.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
pub struct SeatInfo {
    /// `WhiteA`, `BlackA`, `WhiteB` or `BlackB`.
    pub seat: SeatName,
    /// The player's name, if the seat is taken.
    pub name: Option<String>,
    /// Whether a bot plays this seat.
    pub bot: bool,
    /// Whether the player is connected now.
    pub connected: bool,
}

/// One board as clients see it.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
pub struct BoardState {
    /// `A` or `B`.
    pub board: String,
    /// The position, FEN with bracketed reserves and `~` for promoted pieces.
    pub fen: String,
    /// The last move on this board in UCI, for highlighting.
    pub last_move: Option<String>,
    /// Whether the side to move is in check.
    pub check: bool,
    /// `ongoing`, `checkmate`, `stalemate` or `waiting` for the side to move.
    pub verdict: String,
    /// The legal moves in UCI, sent only to the player to move on this board.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub legal: Option<Vec<String>>,
}

/// The four clocks.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
pub struct Clocks {
    /// Milliseconds left, in seat order WhiteA, BlackA, WhiteB, BlackB, as of the moment the
    /// message was made.
    pub remaining_ms: [u64; 4],
    /// The seats whose clock runs.
    pub running: Vec<SeatName>,
}

/// A move of the record.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
pub struct MoveInfo {
    /// The index in the match record, from 0.
    pub ply: usize,
    /// The seat that moved.
    pub seat: SeatName,
    /// The move in UCI.
    pub uci: String,
    /// The move in SAN with `+`/`#`.
    pub san: String,
    /// That board's move number, as in `12A.`.
    pub number: u32,
    /// The mover's time left after the move, in milliseconds.
    pub clock_ms: u64,
}

/// How a finished match ended.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
pub struct ResultInfo {
    /// `1-0` (WhiteA + BlackB won), `0-1` or `1/2-1/2`.
    pub result: String,
    /// Each board's result from its White side, `*` for a board stopped by the other.
    pub boards: [String; 2],
    /// Why, in words: `BlackA checkmated`, `WhiteB forfeits on time`, ...
    pub reason: String,
}

/// The whole state of a match, sent on joining and after a reconnect.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
pub struct MatchState {
    /// The match id.
    pub match_id: String,
    /// The rules preset id, or `custom`.
    pub rules: String,
    /// The time control, `5+0`.
    pub time_control: String,
    /// `waiting` (for players), `playing` or `finished`.
    pub status: String,
    /// The four seats.
    pub seats: Vec<SeatInfo>,
    /// Both boards.
    pub boards: [BoardState; 2],
    /// The clocks.
    pub clocks: Clocks,
    /// Every move so far, both boards in the order they were made.
    pub moves: Vec<MoveInfo>,
    /// The result, once finished.
    pub result: Option<ResultInfo>,
    /// The seats that offer a draw now.
    pub draw_offers: Vec<SeatName>,
    /// The partner-talk kinds this match's rulebook allows.
    pub talk: Vec<TalkKind>,
    /// Every field of the match's rule set (clients read the draw claims and whether both
    /// games are played out from here, whatever the preset).
    #[serde(default)]
    pub settings: Vec<RuleSetting>,
}

/// What the server sends.
// A message is built, serialised once and dropped; boxing the large `State` would only add an
// allocation.
#[allow(clippy::large_enum_variant)]
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
#[serde(tag = "type", rename_all = "snake_case")]
pub enum ServerMessage {
    /// The state of the match, after `hello` and whenever seats change.
    State {
        /// The match.
        state: MatchState,
        /// The seat this connection acts for, if any.
        you: Option<SeatName>,
    },
    /// You took a seat: keep the token to come back to it.
    Seated {
        /// The seat.
        seat: SeatName,
        /// The secret that proves it is yours.
        token: String,
    },
    /// A move was played (sent to everyone watching the match).
    Moved {
        /// The move.
        mv: MoveInfo,
        /// The board it was played on, after the move.
        board: BoardState,
        /// The other board (its reserves changed if the move captured).
        other: BoardState,
        /// The clocks after the move.
        clocks: Clocks,
    },
    /// The match (or, under knsb-1988, one game) ended.
    Ended {
        /// The result.
        result: ResultInfo,
        /// The clocks at the end.
        clocks: Clocks,
    },
    /// The draw offers changed.
    DrawOffers {
        /// The seats that offer a draw now.
        seats: Vec<SeatName>,
    },
    /// A message from one's partner (never sent to opponents or spectators).
    Talk {
        /// Who said it.
        from: SeatName,
        /// The kind.
        kind: TalkKind,
        /// The piece, for `need` and `dont_give`.
        #[serde(default, skip_serializing_if = "Option::is_none")]
        piece: Option<String>,
        /// The text, for `text`.
        #[serde(default, skip_serializing_if = "Option::is_none")]
        text: Option<String>,
    },
    /// A rematch was created.
    Rematch {
        /// The new match id.
        match_id: String,
    },
    /// The answer to a ping.
    Pong {
        /// The client's `t`, echoed.
        t: f64,
        /// The server's own clock, in milliseconds since it started.
        server_ms: u64,
    },
    /// A request was refused; nothing changed.
    Error {
        /// A stable code: `bad_message`, `too_large`, `rate_limited`, `no_such_match`,
        /// `not_seated`, `seat_taken`, `not_your_turn`, `illegal_move`, `game_over`,
        /// `not_allowed`.
        code: String,
        /// What was wrong, in words.
        message: String,
    },
}

/// The body of `POST /api/matches`.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct CreateMatch {
    /// A preset id (`fide`, `minerva-2014`, `knsb-1988`, `uscf-scholastic-2006`): the rules,
    /// or the base of a custom rule set.
    pub rules: String,
    /// The time control, `5+0` (minutes + seconds of increment).
    pub time_control: String,
    /// Fields of the preset to change, by name, with values as `GET /api/rules` lists them
    /// (`{"drop_check": "Forbidden", "repetition_claim": "none"}`). A set that differs from
    /// every preset is called `custom`.
    #[serde(default, skip_serializing_if = "BTreeMap::is_empty")]
    pub custom: BTreeMap<String, String>,
}

/// The answer to `GET /api/rules`: the presets with their settings, and what each field takes,
/// to build a custom rule set.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
pub struct RulesCatalog {
    /// Every preset a match can be created with.
    pub presets: Vec<PresetInfo>,
    /// Every field of a rule set, in order.
    pub fields: Vec<RuleField>,
}

/// One preset in [`RulesCatalog`].
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
pub struct PresetInfo {
    /// The id (`fide`).
    pub id: String,
    /// One line about it.
    pub description: String,
    /// Every field with its value under this preset.
    pub settings: Vec<RuleSetting>,
}

/// A field of a rule set and its value.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
pub struct RuleSetting {
    /// The field name (`drop_check`).
    pub field: String,
    /// The value (`Forbidden`).
    pub value: String,
}

/// What one field of a rule set takes.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
pub struct RuleField {
    /// The field name.
    pub name: String,
    /// The values to choose from; `None` for a count (`none` or a number) or a set of piece
    /// letters (`promotion_roles`, e.g. `QRBN`).
    pub options: Option<Vec<String>>,
}

/// The answer to `POST /api/matches`.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
pub struct CreatedMatch {
    /// The new match id.
    pub match_id: String,
}

/// One finished match in the archive list.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
pub struct ArchiveEntry {
    /// The match id.
    pub match_id: String,
    /// The rules preset id.
    pub rules: String,
    /// The names in seat order.
    pub players: [Option<String>; 4],
    /// The result, `1-0`, `0-1` or `1/2-1/2`.
    pub result: String,
    /// When it finished, Unix milliseconds.
    pub finished_at: i64,
}
