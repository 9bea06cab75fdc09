//! What the store keeps: matches, seats, moves, events, talk.

use std::fmt;
use std::str::FromStr;

use crate::StoreError;

/// Where a match is in its life.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub enum MatchStatus {
    /// Created, seats filling; no move yet.
    Waiting,
    /// Started: clocks run, moves are recorded.
    Playing,
    /// Over: the result and the BPGN are stored; nothing changes any more.
    Finished,
}

impl MatchStatus {
    /// `waiting`, `playing` or `finished`, as in the protocol's `state.status`.
    pub fn as_str(self) -> &'static str {
        match self {
            MatchStatus::Waiting => "waiting",
            MatchStatus::Playing => "playing",
            MatchStatus::Finished => "finished",
        }
    }
}

impl fmt::Display for MatchStatus {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(self.as_str())
    }
}

impl FromStr for MatchStatus {
    type Err = StoreError;

    fn from_str(s: &str) -> Result<Self, Self::Err> {
        match s {
            "waiting" => Ok(MatchStatus::Waiting),
            "playing" => Ok(MatchStatus::Playing),
            "finished" => Ok(MatchStatus::Finished),
            _ => Err(StoreError::Corrupt(format!("unknown match status {s:?}"))),
        }
    }
}

/// So that `m.status == "playing"` reads as it would with a string.
impl PartialEq<str> for MatchStatus {
    fn eq(&self, other: &str) -> bool {
        self.as_str() == other
    }
}

/// So that `m.status == "playing"` reads as it would with a string.
impl PartialEq<&str> for MatchStatus {
    fn eq(&self, other: &&str) -> bool {
        self.as_str() == *other
    }
}

/// A match as created, before anyone sits.
#[derive(Debug, Clone, PartialEq, Eq, Default)]
pub struct NewMatch {
    /// The match id (non-empty; the server makes it up).
    pub id: String,
    /// The rules preset id (`fide`, `minerva-2014`, `knsb-1988`, `uscf-scholastic-2006`) or
    /// `custom`.
    pub rules_preset: String,
    /// The full rules as JSON, as the server serialises them; stored as given.
    pub rules_json: String,
    /// Each player's initial time, in milliseconds (at least 0).
    pub base_ms: i64,
    /// The increment per move, in milliseconds (at least 0).
    pub increment_ms: i64,
    /// When the match was created, Unix milliseconds.
    pub created_at_ms: i64,
    /// The match this one is a rematch of, if any.
    pub rematch_of: Option<String>,
    /// A rated match (only signed-in players sit; the result changes ratings).
    pub rated: bool,
    /// In a rated match, bots may sit.
    pub allow_bots: bool,
}

/// A taken seat.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct StoredSeat {
    /// The player's name.
    pub name: String,
    /// A hash of the seat's secret token (the store never sees the token).
    pub token_hash: String,
    /// Whether a bot plays the seat.
    pub bot: bool,
    /// The account of the signed-in player who sits here ([`Write::SetSeatAccount`]), if any.
    ///
    /// [`Write::SetSeatAccount`]: crate::Write::SetSeatAccount
    pub account: Option<i64>,
}

/// One move of a match record.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct StoredMove {
    /// The match.
    pub match_id: String,
    /// The index in the match record (both boards, in the order played), from 0. Unique per
    /// match.
    pub ply: i64,
    /// The seat that moved, 0..4 (WhiteA, BlackA, WhiteB, BlackB).
    pub seat: u8,
    /// The move in UCI (`e2e4`, `N@f3`).
    pub uci: String,
    /// The move in SAN with `+`/`#`.
    pub san: String,
    /// Server time of the move, in milliseconds since the match started.
    pub at_ms: i64,
    /// The mover's time left after the move (increment included), in milliseconds.
    pub clock_ms: i64,
    /// All four clocks right after the move, in seat order, in milliseconds.
    pub remaining_ms: [i64; 4],
    /// The client's id of the action, if it sent one.
    pub action_id: Option<i64>,
    /// The lag compensation the move was given, in milliseconds.
    pub lag_ms: i64,
}

/// Something besides a move that changes a match's course: a resignation, a draw offer or its
/// withdrawal, a draw claim, a flag fall. Stored in order with the ply it happened at, so that a
/// restarted server replays moves and events exactly as they happened.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct StoredEvent {
    /// The match.
    pub match_id: String,
    /// The event's place among the match's events, from 0. Unique per match; events are read
    /// back in this order.
    pub seq: i64,
    /// How many moves the record held when the event happened (so it comes after the move with
    /// ply `ply - 1` and before the move with ply `ply`).
    pub ply: i64,
    /// The seat that acted (or whose flag fell), 0..4.
    pub seat: u8,
    /// What happened, chosen by the server: `resign`, `offer_draw`, `withdraw_draw`,
    /// `claim_draw`, `flag`, ...
    pub kind: String,
    /// Details for the kind, free text chosen by the server (`repetition` for a claim, or empty).
    pub detail: String,
    /// Server time of the event, in milliseconds since the match started.
    pub at_ms: i64,
    /// The client's id of the action, if it sent one.
    pub action_id: Option<i64>,
}

/// One message of partner talk.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct StoredTalk {
    /// The match.
    pub match_id: String,
    /// Its place among the match's talk (both teams), from 0. Unique per match.
    pub seq: i64,
    /// The seat that spoke, 0..4.
    pub seat: u8,
    /// `need`, `dont_give`, `sit`, `go`, `flag` or `text`.
    pub kind: String,
    /// The piece letter, for `need` and `dont_give`.
    pub piece: Option<String>,
    /// The text, for `text`.
    pub text: Option<String>,
    /// Match time, in milliseconds.
    pub at_ms: i64,
    /// The client's id of the action, if it sent one.
    pub action_id: Option<i64>,
}

/// A match as stored: what it was created with, its seats, its record, and how it ended.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct StoredMatch {
    /// The match id.
    pub id: String,
    /// The rules preset id, or `custom`.
    pub rules_preset: String,
    /// The full rules as JSON.
    pub rules_json: String,
    /// Each player's initial time, in milliseconds.
    pub base_ms: i64,
    /// The increment per move, in milliseconds.
    pub increment_ms: i64,
    /// When the match was created, Unix milliseconds.
    pub created_at_ms: i64,
    /// The match this one is a rematch of, if any.
    pub rematch_of: Option<String>,
    /// A rated match.
    pub rated: bool,
    /// In a rated match, bots may sit.
    pub allow_bots: bool,
    /// When play started, Unix milliseconds; `None` while waiting (and for a match that ended
    /// before it started).
    pub started_at_ms: Option<i64>,
    /// Waiting, playing or finished. Compares with strings: `m.status == "playing"`.
    pub status: MatchStatus,
    /// The seats, in order WhiteA, BlackA, WhiteB, BlackB; `None` for a free seat.
    pub seats: [Option<StoredSeat>; 4],
    /// Every move, ordered by ply.
    pub moves: Vec<StoredMove>,
    /// Every event, ordered by seq.
    pub events: Vec<StoredEvent>,
    /// The partner talk, ordered by seq.
    pub talk: Vec<StoredTalk>,
    /// Unix milliseconds at which the match's time was 0, as last set
    /// ([`Store::set_clock_anchor`]).
    pub clock_anchor_ms: Option<i64>,
    /// `1-0`, `0-1` or `1/2-1/2` once finished.
    pub result: Option<String>,
    /// Why it ended, in words, once finished.
    pub reason: Option<String>,
    /// Each board's result from its White side (`*` for a board stopped by the other), once
    /// finished.
    pub board_results: Option<[String; 2]>,
    /// When it ended, Unix milliseconds, once finished.
    pub finished_at_ms: Option<i64>,
}

impl StoredMatch {
    /// What the match was created with (for a rematch with the same settings, say).
    pub fn to_new_match(&self) -> NewMatch {
        NewMatch {
            id: self.id.clone(),
            rules_preset: self.rules_preset.clone(),
            rules_json: self.rules_json.clone(),
            base_ms: self.base_ms,
            increment_ms: self.increment_ms,
            created_at_ms: self.created_at_ms,
            rematch_of: self.rematch_of.clone(),
            rated: self.rated,
            allow_bots: self.allow_bots,
        }
    }
}
