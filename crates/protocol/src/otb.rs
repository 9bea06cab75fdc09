//! The over-the-board API (`/api/otb...`, served by `crates/server/src/http/otb.rs`): a table
//! of two physical boards whose clock runs in a browser. The page sends the table's events
//! (presses, pauses, claims, the arbiter's rulings) with its own ids, so that a resent event is
//! applied once; the server runs them through `bughouse_core::otb` and answers the table with
//! every decision and the article it names. Times are the table clock's milliseconds (the
//! page's `Date.now()`), so that events recorded offline keep their moments.

use serde::{Deserialize, Serialize};
use ts_rs::TS;

use crate::{BoardName, Piece, SeatName};

wire_enum!(
    /// The rulebook of a table: one of the four bughouse presets.
    OtbRulebook {
        /// Bughouse extension to the FIDE Laws of Chess.
        Fide = "fide",
        /// JSV Minerva Bughouse reglement, 2014.
        Minerva2014 = "minerva-2014",
        /// Nederlands Doorgeefschaakreglement, 1988 (KNSB).
        Knsb1988 = "knsb-1988",
        /// National Scholastic Bughouse Rules, 2006 (US).
        UscfScholastic2006 = "uscf-scholastic-2006",
    }
);

wire_enum!(
    /// An article of a rulebook, as it numbers it (`F` fide, `M` minerva-2014, `K` knsb-1988,
    /// `U` uscf-scholastic-2006; `FIDE 6.9` the FIDE Laws' flag article, blitz base).
    #[allow(non_camel_case_types)]
    OtbArticle {
        /// F3.1.
        F3_1 = "F3.1",
        /// F3.7.
        F3_7 = "F3.7",
        /// F3.11.
        F3_11 = "F3.11",
        /// F3.12.
        F3_12 = "F3.12",
        /// F4.
        F4 = "F4",
        /// F4.1.
        F4_1 = "F4.1",
        /// F4.2.
        F4_2 = "F4.2",
        /// F4.3.
        F4_3 = "F4.3",
        /// FIDE 6.9.
        FideLaws6_9 = "FIDE 6.9",
        /// M5.1.
        M5_1 = "M5.1",
        /// M5.2.
        M5_2 = "M5.2",
        /// M5.4.
        M5_4 = "M5.4",
        /// M5.5.
        M5_5 = "M5.5",
        /// M6.4.
        M6_4 = "M6.4",
        /// M7.1.
        M7_1 = "M7.1",
        /// M7.2.
        M7_2 = "M7.2",
        /// M7.3.
        M7_3 = "M7.3",
        /// M7.4.
        M7_4 = "M7.4",
        /// M7.5.
        M7_5 = "M7.5",
        /// M7.6.
        M7_6 = "M7.6",
        /// M7.7.
        M7_7 = "M7.7",
        /// M10.1.
        M10_1 = "M10.1",
        /// M10.2.
        M10_2 = "M10.2",
        /// M10.3.
        M10_3 = "M10.3",
        /// K1E.
        K1E = "K1E",
        /// K8C.
        K8C = "K8C",
        /// K8D.
        K8D = "K8D",
        /// K8E.
        K8E = "K8E",
        /// K8F.
        K8F = "K8F",
        /// K11.
        K11 = "K11",
        /// K11A2.
        K11A2 = "K11A2",
        /// K11D.
        K11D = "K11D",
        /// K11E.
        K11E = "K11E",
        /// K11F.
        K11F = "K11F",
        /// K11G.
        K11G = "K11G",
        /// K15.
        K15 = "K15",
        /// U6.
        U6 = "U6",
        /// U7.
        U7 = "U7",
        /// U8.
        U8 = "U8",
        /// U8a.
        U8a = "U8a",
        /// U8b.
        U8b = "U8b",
        /// U8c.
        U8c = "U8c",
        /// U15a3.
        U15a3 = "U15a3",
        /// U15a4.
        U15a4 = "U15a4",
        /// U15a5.
        U15a5 = "U15a5",
        /// U16.
        U16 = "U16",
        /// U16b.
        U16b = "U16b",
        /// U18.
        U18 = "U18",
        /// U24.
        U24 = "U24",
    }
);

wire_enum!(
    /// What is wrong with the set-up.
    SetupFault {
        /// The pieces were set up wrongly on this board.
        Position = "position",
        /// This board was started with the colours swapped.
        ColoursSwapped = "colours-swapped",
        /// Both boards were started with the colours swapped.
        ColoursSwappedOnBothBoards = "colours-swapped-both",
    }
);

wire_enum!(
    /// Why a claim does not stand.
    OtbRefusal {
        /// The claimant completed a move since.
        AlreadyMoved = "already-moved",
        /// The opponent has not completed a move.
        NoMoveToClaim = "no-move-to-claim",
        /// The flag is not down.
        FlagNotDown = "flag-not-down",
        /// The claimant's own flag is not down.
        OwnFlagNotDown = "own-flag-not-down",
        /// The rulebook has no such claim.
        NotInRulebook = "not-in-rulebook",
        /// Too late for a set-up claim.
        SetupTooLate = "setup-too-late",
        /// The move was already completed by pressing the clock.
        AlreadyPressed = "already-pressed",
        /// The game is over.
        GameOver = "game-over",
        /// The moves entered do not establish the claim.
        NotEstablished = "not-established",
        /// The opponent could still mate.
        OpponentCouldMate = "opponent-could-mate",
        /// One illegal move, not deliberate: no forfeit.
        NotRepeated = "not-repeated",
    }
);

wire_enum!(
    /// Where the piece to take back an illegal capture comes from (M7.7, K8E).
    PieceBackFrom {
        /// It was not passed yet.
        NotPassed = "not-passed",
        /// From the offender's partner's reserve.
        PartnerReserve = "partner-reserve",
        /// From the other board (the partner has none left).
        OtherBoard = "other-board",
    }
);

wire_enum!(
    /// The result of one game, from its board's White side.
    OtbGameResult {
        /// White won.
        WhiteWins = "1-0",
        /// Black won.
        BlackWins = "0-1",
        /// A draw.
        Draw = "1/2-1/2",
        /// Stopped because the match ended on the other board.
        Stopped = "*",
    }
);

wire_enum!(
    /// A match result: `1-0` WhiteA + BlackB won, `0-1` BlackA + WhiteB won.
    OtbMatchResult {
        /// WhiteA and BlackB won.
        TeamOne = "1-0",
        /// BlackA and WhiteB won.
        TeamTwo = "0-1",
        /// A draw.
        Draw = "1/2-1/2",
    }
);

/// A piece captured by the illegal move to be replaced.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize, TS)]
#[serde(deny_unknown_fields)]
pub struct CapturedInfo {
    /// What was captured.
    pub piece: Piece,
    /// Whether it was passed to the offender's partner already.
    pub passed: bool,
    /// Whether the partner still holds it off the board.
    pub partner_holds: bool,
}

/// A player's claim or declaration.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize, TS)]
#[serde(tag = "kind", rename_all = "snake_case", deny_unknown_fields)]
pub enum OtbClaim {
    /// The opponent's flag is down.
    Flag {
        /// Who claims.
        claimant: SeatName,
    },
    /// Both flags of the claimant's game are down.
    BothFlags {
        /// Who claims.
        claimant: SeatName,
    },
    /// The opponent's last move was illegal.
    IllegalMove {
        /// Who claims.
        claimant: SeatName,
        /// What it captured, if anything.
        #[serde(default, skip_serializing_if = "Option::is_none")]
        #[ts(optional)]
        captured: Option<CapturedInfo>,
    },
    /// An illegal-move claim at the same moment as the offender's flag claim (U15a5).
    IllegalMoveWithFlag {
        /// Who claims the illegal move.
        claimant: SeatName,
    },
    /// Taking back a move before pressing the clock.
    TakeBack {
        /// Who takes back.
        seat: SeatName,
    },
    /// A draw by repetition (F4.1).
    Repetition {
        /// Who claims.
        claimant: SeatName,
    },
    /// A draw after 30 moves without capture, drop or pawn move (K11F).
    MoveCount {
        /// Who claims.
        claimant: SeatName,
    },
    /// The flagged claimant's opponent could never have mated (K11E, M5.2).
    OpponentCannotMate {
        /// Who claims (the flagged player).
        claimant: SeatName,
    },
    /// The set-up was wrong.
    WrongSetup {
        /// The board.
        board: BoardName,
        /// What was wrong.
        fault: SetupFault,
    },
}

wire_enum!(
    /// The arbiter's ruling on a board.
    OtbRuling {
        /// White wins that game.
        WhiteWins = "1-0",
        /// Black wins that game.
        BlackWins = "0-1",
        /// The game is drawn.
        Draw = "1/2-1/2",
        /// The claim is rejected: play on.
        PlayOn = "play-on",
    }
);

/// Something that happened at the table.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize, TS)]
#[serde(tag = "type", rename_all = "snake_case", deny_unknown_fields)]
pub enum OtbEvent {
    /// The Black players start both clocks.
    Start,
    /// A player completed his move and pressed his side.
    Press {
        /// Who pressed.
        seat: SeatName,
    },
    /// The clocks stop for the arbiter.
    Pause,
    /// The clocks run again.
    Resume,
    /// Nothing but the time: lets the server see flags fall (M5.5 is declared at once).
    Observe,
    /// A claim.
    Claim {
        /// The claim.
        claim: OtbClaim,
    },
    /// The arbiter's ruling.
    Ruling {
        /// The board.
        board: BoardName,
        /// What he rules.
        ruling: OtbRuling,
    },
    /// The arbiter declares a game lost (K8F, or where the rulebook is silent).
    Forfeit {
        /// The loser.
        seat: SeatName,
        /// Whether he finds the illegal move deliberate.
        deliberate: bool,
    },
    /// The scorer enters a move on the scoresheet: SAN (`Nf3`, `N@f3`, `exd5`) or UCI (`g1f3`);
    /// in the record, the move's UCI. At most 12 characters.
    Move {
        /// Who moved.
        seat: SeatName,
        /// The move as entered.
        text: String,
    },
}

/// One event as the page sends it.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize, TS)]
#[serde(deny_unknown_fields)]
pub struct OtbEventItem {
    /// The page's id of the event (a random integer below 2^53): the same id sent again is not
    /// applied again.
    pub id: u64,
    /// The table clock's time, milliseconds.
    pub at_ms: u64,
    /// The event.
    pub event: OtbEvent,
}

/// The body of `POST /api/otb/{id}/events`: events in the order they happened.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize, TS)]
#[serde(deny_unknown_fields)]
pub struct OtbEvents {
    /// The table's key.
    pub key: String,
    /// The events, at most 500.
    pub events: Vec<OtbEventItem>,
}

/// The body of `POST /api/otb`: a new table.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize, TS)]
#[serde(deny_unknown_fields)]
pub struct CreateOtbTable {
    /// The rulebook.
    pub rulebook: OtbRulebook,
    /// Base time per player, seconds (1 to 36000).
    pub base_seconds: u32,
    /// Increment per move, seconds (0 to 3600).
    #[serde(default)]
    pub increment_seconds: u32,
}

/// The answer to `POST /api/otb`.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize, TS)]
pub struct CreatedOtbTable {
    /// The table id.
    pub id: String,
    /// The table's key: whoever holds it runs the clock and records claims.
    pub key: String,
    /// The page of the table, key included (`/otb/{id}#key`).
    pub url: String,
}

/// What a decision does.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize, TS)]
#[serde(tag = "kind", rename_all = "snake_case")]
pub enum OtbConsequence {
    /// Both games start.
    Started,
    /// The seat wins his game.
    Win {
        /// The winner.
        seat: SeatName,
    },
    /// The game on the board is drawn.
    Draw {
        /// The board.
        board: BoardName,
    },
    /// Both games are drawn (M5.5).
    DrawBoth,
    /// The seat loses his game by forfeit.
    Forfeit {
        /// The loser.
        seat: SeatName,
    },
    /// The arbiter may declare the seat's game lost (K8F).
    ForfeitPossible {
        /// The offender.
        seat: SeatName,
    },
    /// The offender's clock is restarted and he replaces his illegal move.
    ReplaceMove {
        /// Who made the illegal move.
        offender: SeatName,
        /// The piece to put back, if the move captured one.
        #[serde(default, skip_serializing_if = "Option::is_none")]
        #[ts(optional)]
        piece_back: Option<Piece>,
        /// Where it comes from.
        #[serde(default, skip_serializing_if = "Option::is_none")]
        #[ts(optional)]
        piece_from: Option<PieceBackFrom>,
    },
    /// The move may be taken back.
    TakeBack {
        /// Who takes back.
        seat: SeatName,
    },
    /// Both games start again.
    RestartBoth,
    /// The game on the board starts again.
    RestartGame {
        /// The board.
        board: BoardName,
    },
    /// Play on.
    PlayOn,
    /// The clocks stop.
    Paused,
    /// The clocks run again.
    Resumed,
    /// The arbiter hears the players and rules.
    ArbiterDecides,
    /// The match is over.
    MatchOver {
        /// Its result.
        result: OtbMatchResult,
    },
    /// The claim does not stand.
    Refused {
        /// Why.
        why: OtbRefusal,
    },
}

/// A decision: the article and its consequence.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize, TS)]
pub struct OtbDecision {
    /// The article that applies.
    pub article: OtbArticle,
    /// What happens.
    pub consequence: OtbConsequence,
}

/// One entry of the table's record.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize, TS)]
pub struct OtbEntry {
    /// The table clock's time, milliseconds.
    pub at_ms: u64,
    /// The event, or `None` for a flag fall seen by the clock.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    #[ts(optional)]
    pub event: Option<OtbEvent>,
    /// The seat whose flag fell, for a flag fall.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    #[ts(optional)]
    pub flag: Option<SeatName>,
    /// The decisions taken.
    pub decisions: Vec<OtbDecision>,
}

/// One of the four clock faces.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize, TS)]
pub struct OtbClockFace {
    /// The seat.
    pub seat: SeatName,
    /// Time left at `as_of_ms`, milliseconds.
    pub remaining_ms: u64,
    /// Whether it runs.
    pub running: bool,
    /// When his flag fell, if it did.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    #[ts(optional)]
    pub flag_ms: Option<u64>,
}

/// The state of one game.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize, TS)]
pub struct OtbGame {
    /// The board.
    pub board: BoardName,
    /// Its result once over.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    #[ts(optional)]
    pub result: Option<OtbGameResult>,
    /// The article that ended it.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    #[ts(optional)]
    pub article: Option<OtbArticle>,
}

/// The tournament pairing a table plays.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize, TS)]
pub struct OtbPairing {
    /// The tournament id.
    pub tournament: String,
    /// The round, from 1.
    pub round: u32,
    /// The table, from 1.
    pub table: u32,
}

/// A table: the answer to `GET /api/otb/{id}` and to posted events.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize, TS)]
pub struct OtbTableView {
    /// The table id.
    pub id: String,
    /// The rulebook.
    pub rulebook: OtbRulebook,
    /// Base time, milliseconds.
    pub base_ms: u64,
    /// Increment, milliseconds.
    pub increment_ms: u64,
    /// The tournament pairing, if any.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    #[ts(optional)]
    pub pairing: Option<OtbPairing>,
    /// Whether the clocks were started.
    pub started: bool,
    /// Whether they are paused.
    pub paused: bool,
    /// The table clock's time the faces are given at (the last event's).
    pub as_of_ms: u64,
    /// The four faces: WhiteA, BlackA, WhiteB, BlackB.
    pub clocks: Vec<OtbClockFace>,
    /// Both games.
    pub games: Vec<OtbGame>,
    /// The match result once over.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    #[ts(optional)]
    pub result: Option<OtbMatchResult>,
    /// Upheld illegal moves per seat (WhiteA, BlackA, WhiteB, BlackB).
    pub illegal_moves: Vec<u32>,
    /// Every event and flag fall with its decisions, in order.
    pub record: Vec<OtbEntry>,
    /// The ids of the posted events that were applied now or before (resends included).
    pub applied: Vec<u64>,
    /// Posted events the table refused (a press out of turn, a time before the last), with why.
    pub rejected: Vec<OtbRejected>,
    /// The scoresheet's moves, in the order entered (empty when nobody keeps one).
    pub moves: Vec<OtbSheetMove>,
}

/// A move on the scoresheet.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize, TS)]
pub struct OtbSheetMove {
    /// Who moved.
    pub seat: SeatName,
    /// That board's move number.
    pub number: u32,
    /// The move in SAN, with `+` or `#`.
    pub san: String,
    /// The table clock's time it was entered.
    pub at_ms: u64,
}

/// A posted event the table refused.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize, TS)]
pub struct OtbRejected {
    /// The page's id of the event.
    pub id: u64,
    /// Why, in words.
    pub error: String,
}
