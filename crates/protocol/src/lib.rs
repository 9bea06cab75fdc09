//! The wire protocol between the bughouse server and its clients (browsers, bots, the load
//! tester): JSON messages over one websocket per client, each an object with a `"type"` field.
//!
//! This module is the single definition; `docs/protocol.md` describes it for client authors and
//! must change with it. Names use bughouse words: a match has boards `A` and `B` and seats
//! `WhiteA`, `BlackA`, `WhiteB`, `BlackB`; teams are WhiteA + BlackB against BlackA + WhiteB.
//! Moves travel in UCI (`e2e4`, `e7e8q`, `e1g1`, `N@f3`), positions as FEN with bracketed
//! reserves, times in milliseconds.
//!
//! The tournament HTTP API's bodies and answers are in [`tournament`]. Every type derives
//! `ts_rs::TS`: [`typescript`] renders them as the front end's TypeScript (`web/src/generated/`),
//! so a type added to the wire is added to [`typescript::bindings`] too.

use std::collections::BTreeMap;

use serde::{Deserialize, Serialize};
use ts_rs::TS;

pub mod accounts;
pub mod lobby;
mod moves;
pub mod typescript;
pub use moves::UciList;

/// The largest message a client may send, in bytes. Larger frames are refused.
pub const MAX_CLIENT_MESSAGE: usize = 4096;

/// The longest chat text, in characters.
pub const MAX_CHAT: usize = 300;

/// The longest player name, in characters.
pub const MAX_NAME: usize = 32;

/// A string that is none of a wire enum's values.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct UnknownValue {
    /// The string that was read.
    pub value: String,
    /// The values the enum is written as.
    pub expected: &'static [&'static str],
}

impl std::fmt::Display for UnknownValue {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        write!(
            f,
            "{:?} is not one of {}",
            self.value,
            self.expected.join(", ")
        )
    }
}

impl std::error::Error for UnknownValue {}

/// Declares a wire enum: each variant written as its string, the string read back (anything
/// else is refused by serde at the edge), `as_str`, `Display`, and comparison with `&str`.
macro_rules! wire_enum {
    ($(#[$meta:meta])* $name:ident { $($(#[$vmeta:meta])* $variant:ident = $text:literal $(| $alias:literal)*),+ $(,)? }) => {
        $(#[$meta])*
        #[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, Serialize, Deserialize, TS)]
        pub enum $name {
            $($(#[$vmeta])* #[serde(rename = $text $(, alias = $alias)*)] $variant),+
        }

        impl $name {
            /// Every value, in order.
            pub const ALL: &'static [$name] = &[$($name::$variant),+];

            /// The value as it is written on the wire.
            pub fn as_str(self) -> &'static str {
                match self {
                    $($name::$variant => $text),+
                }
            }
        }

        impl std::fmt::Display for $name {
            fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
                f.write_str(self.as_str())
            }
        }

        impl std::str::FromStr for $name {
            type Err = $crate::UnknownValue;

            fn from_str(s: &str) -> Result<$name, $crate::UnknownValue> {
                match s {
                    $($text $(| $alias)* => Ok($name::$variant),)+
                    other => Err($crate::UnknownValue {
                        value: other.to_owned(),
                        expected: &[$($text),+],
                    }),
                }
            }
        }

        impl PartialEq<&str> for $name {
            fn eq(&self, other: &&str) -> bool {
                self.as_str() == *other
            }
        }

        impl PartialEq<str> for $name {
            fn eq(&self, other: &str) -> bool {
                self.as_str() == other
            }
        }
    };
}

pub mod otb;
pub mod tournament;

wire_enum!(
    /// A seat: boards `A` and `B`, teams WhiteA + BlackB against BlackA + WhiteB.
    SeatName {
        /// White on board A.
        WhiteA = "WhiteA",
        /// Black on board A.
        BlackA = "BlackA",
        /// White on board B.
        WhiteB = "WhiteB",
        /// Black on board B.
        BlackB = "BlackB",
    }
);

wire_enum!(
    /// One of the two boards.
    BoardName {
        /// Board A.
        A = "A",
        /// Board B.
        B = "B",
    }
);

wire_enum!(
    /// Where a match is in its life.
    Status {
        /// Seats filling; the clocks have not started.
        Waiting = "waiting",
        /// The clocks run.
        Playing = "playing",
        /// Over: the result stands.
        Finished = "finished",
    }
);

wire_enum!(
    /// The verdict of a board for the side to move.
    Verdict {
        /// He has a legal move.
        Ongoing = "ongoing",
        /// Mated.
        Checkmate = "checkmate",
        /// No legal move and none could come: a draw.
        Stalemate = "stalemate",
        /// No legal move now, but a piece from the partner could give one (F3.7).
        Waiting = "waiting",
    }
);

wire_enum!(
    /// A draw claim.
    Claim {
        /// By repetition (F4.1).
        Repetition = "repetition",
        /// Under the move-count rule (K11F).
        MoveCount = "move-count" | "move_count",
    }
);

wire_enum!(
    /// A piece a partner asks for or warns about.
    Piece {
        /// A pawn.
        Pawn = "P",
        /// A knight.
        Knight = "N",
        /// A bishop.
        Bishop = "B",
        /// A rook.
        Rook = "R",
        /// A queen.
        Queen = "Q",
    }
);

/// What a client sends.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize, TS)]
#[serde(tag = "type", rename_all = "snake_case", deny_unknown_fields)]
pub enum ClientMessage {
    /// The first message on a connection: watch `match_id`, and with a seat token, act for that
    /// seat again (after a reload or a lost connection).
    Hello {
        /// The match to join.
        match_id: String,
        /// The secret of a seat taken earlier, if any.
        #[serde(default, skip_serializing_if = "Option::is_none")]
        #[ts(optional)]
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
        #[ts(optional)]
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
        claim: Claim,
    },
    /// A message to one's partner: free text where the rulebook allows it, or one of the
    /// quick messages (see [`TalkKind`]).
    Talk {
        /// The kind of message.
        kind: TalkKind,
        /// The piece it is about, for `need` and `dont_give` (`P`, `N`, `B`, `R`, `Q`).
        #[serde(default, skip_serializing_if = "Option::is_none")]
        #[ts(optional)]
        piece: Option<Piece>,
        /// The text, for `text`.
        #[serde(default, skip_serializing_if = "Option::is_none")]
        #[ts(optional)]
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

/// A client message with the client's own id for it: what travels on the wire.
///
/// A message that changes something (every message but `hello` and `ping`) may carry an `id`,
/// a number the client chooses, unique among its seat's recent actions (the front end takes
/// the time in microseconds). The server answers it with [`ServerMessage::Ack`] (or an
/// [`ServerMessage::Error`] with the same id) once its effect is stored. A message resent with an
/// id the server has already acknowledged for that seat is answered with the same `ack` again and
/// not applied twice, also after a reconnect or a server restart (for moves, match actions and
/// partner talk, whose ids are stored with them).
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize, TS)]
pub struct ClientFrame {
    /// The client's id for this action.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    #[ts(optional)]
    pub id: Option<u64>,
    /// The message.
    #[serde(flatten)]
    pub msg: ClientMessage,
}

impl From<ClientMessage> for ClientFrame {
    fn from(msg: ClientMessage) -> ClientFrame {
        ClientFrame { id: None, msg }
    }
}

/// Why the server refused a request (the `code` of [`ServerMessage::Error`]).
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, Serialize, Deserialize, TS)]
#[serde(rename_all = "snake_case")]
pub enum ErrorCode {
    /// Not JSON, an unknown type or field, a bad value.
    BadMessage,
    /// Larger than [`MAX_CLIENT_MESSAGE`].
    TooLarge,
    /// Too many messages; slow down.
    RateLimited,
    /// No match has that id.
    NoSuchMatch,
    /// The token of `hello` opens no seat of the match (wrong, or of another match): the
    /// connection watches as a spectator.
    BadToken,
    /// The action needs a seat.
    NotSeated,
    /// The seat is taken.
    SeatTaken,
    /// It is not this seat's move.
    NotYourTurn,
    /// The move is not legal.
    IllegalMove,
    /// The game or match is over.
    GameOver,
    /// The rules or the match's state do not allow it now.
    NotAllowed,
    /// Only a signed-in player may do this (sit in a rated match).
    SignInRequired,
    /// The server could not store the action, so it was not applied (sent again, it is refused
    /// the same way).
    NotStored,
}

impl ErrorCode {
    /// The code as it is written on the wire (`bad_message`).
    pub fn as_str(self) -> &'static str {
        match self {
            ErrorCode::BadMessage => "bad_message",
            ErrorCode::TooLarge => "too_large",
            ErrorCode::RateLimited => "rate_limited",
            ErrorCode::NoSuchMatch => "no_such_match",
            ErrorCode::BadToken => "bad_token",
            ErrorCode::NotSeated => "not_seated",
            ErrorCode::SeatTaken => "seat_taken",
            ErrorCode::NotYourTurn => "not_your_turn",
            ErrorCode::IllegalMove => "illegal_move",
            ErrorCode::GameOver => "game_over",
            ErrorCode::NotAllowed => "not_allowed",
            ErrorCode::SignInRequired => "sign_in_required",
            ErrorCode::NotStored => "not_stored",
        }
    }
}

impl std::fmt::Display for ErrorCode {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.write_str(self.as_str())
    }
}

/// One message of a team's partner talk, as kept with the match.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize, TS)]
pub struct TalkEntry {
    /// Its number among the match's talk (both teams), from 0: a client that already shows
    /// number `n` drops a copy.
    pub n: u64,
    /// Who said it.
    pub from: SeatName,
    /// The kind.
    pub kind: TalkKind,
    /// The piece, for `need` and `dont_give`.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    #[ts(optional)]
    pub piece: Option<Piece>,
    /// The text, for `text`.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    #[ts(optional)]
    pub text: Option<String>,
    /// Match time, in milliseconds.
    pub at_ms: u64,
}

wire_enum!(
    /// The kinds of partner talk. Which are allowed depends on the rulebook: knsb-1988 only
    /// `need` (K14); minerva-2014 `need`, `dont_give`, `sit`, `go`, `flag` (M9.2 to M9.5); fide
    /// and uscf everything (F3.10, U12).
    TalkKind {
        /// "I need a piece" (M9.2, K14).
        Need = "need",
        /// "Don't give this piece: it wins for the opponent" (M9.3).
        DontGive = "dont_give",
        /// "Stop moving" (M9.4).
        Sit = "sit",
        /// "Go on moving".
        Go = "go",
        /// "Your opponent's flag is down" (M9.5).
        Flag = "flag",
        /// Free text (F3.10, U12).
        Text = "text",
    }
);

/// A seat as clients see it.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize, TS)]
pub struct SeatInfo {
    /// `WhiteA`, `BlackA`, `WhiteB` or `BlackB`.
    pub seat: SeatName,
    /// The player's name, if the seat is taken.
    pub name: Option<String>,
    /// Whether a bot plays this seat.
    pub bot: bool,
    /// Whether the player is connected now.
    pub connected: bool,
    /// Whether a signed-in player sits here: `name` is then his account's name (his profile is
    /// `/player/{name}`).
    #[serde(default)]
    pub account: bool,
}

/// One board as clients see it.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize, TS)]
pub struct BoardState {
    /// `A` or `B`.
    pub board: BoardName,
    /// The position, FEN with bracketed reserves and `~` for promoted pieces.
    pub fen: String,
    /// The last move on this board in UCI, for highlighting.
    pub last_move: Option<String>,
    /// Whether the side to move is in check.
    pub check: bool,
    /// `ongoing`, `checkmate`, `stalemate` or `waiting` for the side to move.
    pub verdict: Verdict,
    /// The legal moves in UCI, sent only to the player to move on this board.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    #[ts(optional)]
    pub legal: Option<UciList>,
    /// The draws that may be claimed on this board now (left out when none): `move-count` by
    /// either player of the board, `repetition` by the player to move (F4.1).
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub claims: Vec<Claim>,
}

/// The four clocks.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize, TS)]
pub struct Clocks {
    /// Milliseconds left, in seat order WhiteA, BlackA, WhiteB, BlackB, as of the moment the
    /// message was made.
    pub remaining_ms: [u64; 4],
    /// The seats whose clock runs.
    pub running: Vec<SeatName>,
}

/// A move of the record.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize, TS)]
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
    /// The lag compensation the move was given, in milliseconds (see `docs/protocol.md`).
    #[serde(default)]
    pub lag_ms: u64,
}

/// How a finished match ended.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize, TS)]
pub struct ResultInfo {
    /// `1-0` (WhiteA + BlackB won), `0-1` or `1/2-1/2`.
    pub result: String,
    /// Each board's result from its White side, `*` for a board stopped by the other.
    pub boards: [String; 2],
    /// Why, in words: `BlackA checkmated`, `WhiteB forfeits on time`, ...
    pub reason: String,
}

/// The whole state of a match, sent on joining and after a reconnect.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize, TS)]
pub struct MatchState {
    /// The match id.
    pub match_id: String,
    /// The rules preset id, or `custom`.
    pub rules: String,
    /// The time control, `5+0`.
    pub time_control: String,
    /// `waiting` (for players), `playing` or `finished`.
    pub status: Status,
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
    /// The number of the match's last numbered event (`moved`, `ended`, `draw_offers`; seat
    /// changes come as a whole `state` and are not numbered): events numbered up to this one
    /// are in this state.
    #[serde(default)]
    pub seq: u64,
    /// The partner talk of the team of the seat this state is for, oldest first; empty for
    /// spectators and opponents.
    #[serde(default)]
    pub talk_log: Vec<TalkEntry>,
    /// A rated match: only signed-in players (and bots, if `allow_bots`) may sit, and its
    /// result changes their ratings.
    #[serde(default)]
    pub rated: bool,
    /// Bots may sit in this rated match (their ratings are fixed; only the humans' change).
    #[serde(default)]
    pub allow_bots: bool,
    /// What a finished rated match changed, once its ratings are applied.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    #[ts(optional)]
    pub rating_changes: Option<RatingChanges>,
}

/// What a rated match changed: each signed-in player's rating, and each team of two signed-in
/// players' team rating (Glicko-2; bots' ratings are fixed and not listed).
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize, TS)]
pub struct RatingChanges {
    /// The players, in seat order.
    pub players: Vec<PlayerRatingChange>,
    /// The teams of two accounts (none when a bot played).
    pub teams: Vec<TeamRatingChange>,
}

/// One player's rating before and after a rated match.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize, TS)]
pub struct PlayerRatingChange {
    /// His seat.
    pub seat: SeatName,
    /// His account's name.
    pub username: String,
    /// The rating before the match.
    pub before: f64,
    /// The rating after it.
    pub after: f64,
    /// `after - before`.
    pub delta: f64,
    /// The deviation after it.
    pub deviation: f64,
}

/// A team's rating before and after a rated match.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize, TS)]
pub struct TeamRatingChange {
    /// Its seats (WhiteA and BlackB, or BlackA and WhiteB).
    pub seats: [SeatName; 2],
    /// Its players' account names, in the order of `seats`.
    pub usernames: [String; 2],
    /// The team rating before the match.
    pub before: f64,
    /// After it.
    pub after: f64,
    /// `after - before`.
    pub delta: f64,
    /// The deviation after it.
    pub deviation: f64,
}

/// What the server sends.
// A message is built, serialised once and dropped; boxing the large `State` would only add an
// allocation.
#[allow(clippy::large_enum_variant)]
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize, TS)]
#[serde(tag = "type", rename_all = "snake_case")]
pub enum ServerMessage {
    /// The state of the match, after `hello` and whenever seats change.
    State {
        /// The match.
        // Boxed: inline, the largest message by far would make every message (and every effect
        // the hub queues for the store and the sockets) as large as itself, 640 bytes.
        state: Box<MatchState>,
        /// The seat this connection acts for, if any.
        you: Option<SeatName>,
    },
    /// A seated player connected or went away, and nothing else changed: the four seats as they
    /// are now (not numbered, like a `state`). Cheaper than a whole `state`, which carries every
    /// move, for each watcher at each disconnection.
    Seats {
        /// The four seats.
        seats: Vec<SeatInfo>,
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
        /// The event's number in the match.
        seq: u64,
    },
    /// The match (or, under knsb-1988, one game) ended.
    Ended {
        /// The result.
        result: ResultInfo,
        /// The clocks at the end.
        clocks: Clocks,
        /// The event's number in the match.
        seq: u64,
    },
    /// The draw offers changed.
    DrawOffers {
        /// The seats that offer a draw now.
        seats: Vec<SeatName>,
        /// The event's number in the match.
        seq: u64,
    },
    /// A message of one's team's partner talk, one's own included (never sent to opponents or
    /// spectators).
    Talk {
        /// The message.
        #[serde(flatten)]
        entry: TalkEntry,
    },
    /// An action with an `id` was done and stored.
    Ack {
        /// The client's id of the action.
        id: u64,
        /// The number of the match's last event after it.
        seq: u64,
        /// For a move: the lag compensation it was given, in milliseconds.
        #[serde(default, skip_serializing_if = "Option::is_none")]
        #[ts(optional)]
        lag_ms: Option<u64>,
    },
    /// A rematch was created.
    Rematch {
        /// The new match id.
        match_id: String,
    },
    /// The ratings a rated match changed, once applied (after `ended`).
    RatingChanges {
        /// The changes.
        #[serde(flatten)]
        changes: RatingChanges,
    },
    /// The answer to a ping.
    Pong {
        /// The client's `t`, echoed.
        t: f64,
        /// The server's own clock, in milliseconds since it started.
        server_ms: u64,
        /// The server's estimate of this connection's one-way lag, in milliseconds, which
        /// compensates its moves (absent until measured).
        #[serde(default, skip_serializing_if = "Option::is_none")]
        #[ts(optional)]
        lag_ms: Option<u64>,
        /// The lag compensation the seat has left to spend, in milliseconds (for a seat).
        #[serde(default, skip_serializing_if = "Option::is_none")]
        #[ts(optional)]
        quota_ms: Option<u64>,
    },
    /// A request was refused; nothing changed.
    Error {
        /// A stable code.
        code: ErrorCode,
        /// What was wrong, in words.
        message: String,
        /// The client's id of the refused action, if it had one.
        #[serde(default, skip_serializing_if = "Option::is_none")]
        #[ts(optional)]
        id: Option<u64>,
    },
}

/// The body of `POST /api/matches`.
#[derive(Debug, Clone, Default, PartialEq, Eq, Serialize, Deserialize, TS)]
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
    /// A rated match (default casual): only signed-in players may sit, and the result changes
    /// their ratings. Creating one needs a signed-in request.
    #[serde(default, skip_serializing_if = "std::ops::Not::not")]
    pub rated: bool,
    /// In a rated match, bots may sit (with their fixed ratings; only the humans' change).
    #[serde(default, skip_serializing_if = "std::ops::Not::not")]
    pub allow_bots: bool,
}

/// The answer to `GET /api/rules`: the presets with their settings, and what each field takes,
/// to build a custom rule set.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize, TS)]
pub struct RulesCatalog {
    /// Every preset a match can be created with.
    pub presets: Vec<PresetInfo>,
    /// Every field of a rule set, in order.
    pub fields: Vec<RuleField>,
}

/// One preset in [`RulesCatalog`].
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize, TS)]
pub struct PresetInfo {
    /// The id (`fide`).
    pub id: String,
    /// One line about it.
    pub description: String,
    /// Every field with its value under this preset.
    pub settings: Vec<RuleSetting>,
}

/// A field of a rule set and its value.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize, TS)]
pub struct RuleSetting {
    /// The field name (`drop_check`).
    pub field: String,
    /// The value (`Forbidden`).
    pub value: String,
}

/// What one field of a rule set takes.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize, TS)]
pub struct RuleField {
    /// The field name.
    pub name: String,
    /// The values to choose from; `None` for a count (`none` or a number) or a set of piece
    /// letters (`promotion_roles`, e.g. `QRBN`).
    pub options: Option<Vec<String>>,
}

/// The answer to `POST /api/matches`.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize, TS)]
pub struct CreatedMatch {
    /// The new match id.
    pub match_id: String,
}

/// One finished match in the archive list.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize, TS)]
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

/// Every refused HTTP request: a 4xx or 5xx status with this body.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize, TS)]
pub struct ApiError {
    /// A stable code: `invalid` (400), `unauthorized` (401), `forbidden` (403), `not_found`
    /// (404), `conflict` (409), `unavailable` (503) or `storage` (500).
    pub error: String,
    /// What was wrong, in words.
    pub message: String,
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn enum_values_are_checked_at_the_edge() {
        let sit: ClientFrame =
            serde_json::from_str(r#"{"type":"sit","seat":"BlackB","name":"x","id":3}"#).unwrap();
        assert_eq!(sit.id, Some(3));
        assert!(matches!(
            sit.msg,
            ClientMessage::Sit {
                seat: SeatName::BlackB,
                ..
            }
        ));
        for bad in [
            r#"{"type":"sit","seat":"Nowhere","name":"x"}"#,
            r#"{"type":"talk","kind":"need","piece":"K"}"#,
            r#"{"type":"claim_draw","claim":"boredom"}"#,
        ] {
            assert!(serde_json::from_str::<ClientFrame>(bad).is_err(), "{bad}");
        }
        let claim: ClientMessage =
            serde_json::from_str(r#"{"type":"claim_draw","claim":"move_count"}"#).unwrap();
        assert_eq!(
            claim,
            ClientMessage::ClaimDraw {
                claim: Claim::MoveCount
            }
        );
        assert_eq!(
            serde_json::to_string(&Claim::MoveCount).unwrap(),
            "\"move-count\""
        );
        assert_eq!(Status::Finished, "finished");
        assert_eq!("Q".parse::<Piece>(), Ok(Piece::Queen));
        let unknown = "X".parse::<Piece>().unwrap_err();
        assert_eq!(unknown.value, "X");
        assert!(unknown.expected.contains(&"Q"));
        assert_eq!(
            "moved".parse::<Status>().unwrap_err().to_string(),
            format!(
                "\"moved\" is not one of {}",
                Status::ALL
                    .iter()
                    .map(|s| s.as_str())
                    .collect::<Vec<_>>()
                    .join(", ")
            )
        );
        assert_eq!(
            serde_json::to_string(&ErrorCode::BadToken).unwrap(),
            "\"bad_token\""
        );
    }
}
