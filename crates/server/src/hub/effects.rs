//! What the hub asks of its adapter: messages to send, writes to store (before any later
//! send), connections to close, bot turns.

use super::*;

/// What the adapter must do, in this order.
// Effects live only from `apply` to their execution, most of them `Send`s: boxing the message
// would add an allocation to nearly every one (as for `ServerMessage` itself).
#[allow(clippy::large_enum_variant)]
#[derive(Debug, Clone, PartialEq)]
pub enum Effect {
    /// Send a message to these connections.
    Send(Vec<ConnId>, ServerMessage),
    /// Close a connection.
    Close(ConnId),
    /// Store this, before any later `Send`.
    Store(StoreOp),
    /// Ask a bot for its move.
    BotTurn(BotTurn),
}

/// A write to the database.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum StoreOp {
    /// A match was created.
    CreateMatch {
        /// The id.
        id: String,
        /// The preset id, or `custom`.
        preset: String,
        /// The rules.
        rules: Rules,
        /// The time control.
        time_control: TimeControl,
        /// The match it is a rematch of.
        rematch_of: Option<String>,
    },
    /// A seat was taken (or given to a bot).
    SetSeat {
        /// The match.
        match_id: String,
        /// 0..4 in the order WhiteA, BlackA, WhiteB, BlackB.
        seat: u8,
        /// The name.
        name: String,
        /// The SHA-256 of the seat token, hex.
        token_hash: String,
        /// Whether a bot plays it.
        bot: bool,
    },
    /// A seat was left.
    ClearSeat {
        /// The match.
        match_id: String,
        /// The seat index.
        seat: u8,
    },
    /// The clocks started.
    Start {
        /// The match.
        match_id: String,
    },
    /// A move was played.
    Move {
        /// The match.
        match_id: String,
        /// Its index in the record.
        ply: usize,
        /// The seat index.
        seat: u8,
        /// UCI.
        uci: String,
        /// SAN.
        san: String,
        /// Match time of the move, in milliseconds since the clocks started.
        at_ms: u64,
        /// All four clocks right after it.
        remaining_ms: [u64; 4],
        /// The client's id of the action.
        action_id: Option<u64>,
        /// The lag compensation it was given, in milliseconds.
        lag_ms: u64,
    },
    /// An action other than a move that the match must replay on restart.
    Event {
        /// The match.
        match_id: String,
        /// Its place among the match's events, from 0.
        seq: usize,
        /// The number of moves played before it.
        ply: usize,
        /// The seat index.
        seat: u8,
        /// `resign`, `offer_draw`, `withdraw_draw`, `claim_draw`, `flag`.
        kind: String,
        /// The claim, for `claim_draw`.
        detail: String,
        /// Match time, in milliseconds.
        at_ms: u64,
        /// The client's id of the action.
        action_id: Option<u64>,
    },
    /// A message of partner talk was delivered.
    Talk {
        /// The match.
        match_id: String,
        /// The seat that spoke.
        seat: u8,
        /// The message.
        entry: TalkEntry,
        /// The client's id of the action.
        action_id: Option<u64>,
    },
    /// The server time (milliseconds since the server started, negative when before) at which
    /// the match's time was 0: set at the start and at each restore, so that after a crash the
    /// last heartbeat tells how far the clocks had run.
    ClockAnchor {
        /// The match.
        match_id: String,
        /// Server milliseconds of match time 0.
        zero_at_ms: i64,
    },
    /// The match is over.
    Finish {
        /// The match.
        match_id: String,
        /// The result.
        result: ResultInfo,
        /// The record as BPGN, for the archive.
        bpgn: String,
    },
}
