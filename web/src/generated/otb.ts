// Generated from crates/protocol by ts-rs: do not edit. After changing the Rust types, run
// `cargo run -p bughouse-protocol --example gen-ts` (the test `ts_bindings_are_fresh` checks this file).

import type { BoardName, Piece, SeatName } from './protocol';

/** The rulebook of a table: one of the four bughouse presets. */
export type OtbRulebook = "fide" | "minerva-2014" | "knsb-1988" | "uscf-scholastic-2006";

/**
 * An article of a rulebook, as it numbers it (`F` fide, `M` minerva-2014, `K` knsb-1988,
 * `U` uscf-scholastic-2006; `FIDE 6.9` the FIDE Laws' flag article, blitz base).
 */
export type OtbArticle =
  | "F3.1"
  | "F3.7"
  | "F3.11"
  | "F3.12"
  | "F4"
  | "F4.1"
  | "F4.2"
  | "F4.3"
  | "FIDE 6.9"
  | "M5.1"
  | "M5.2"
  | "M5.4"
  | "M5.5"
  | "M6.4"
  | "M7.1"
  | "M7.2"
  | "M7.3"
  | "M7.4"
  | "M7.5"
  | "M7.6"
  | "M7.7"
  | "M10.1"
  | "M10.2"
  | "M10.3"
  | "K1E"
  | "K8C"
  | "K8D"
  | "K8E"
  | "K8F"
  | "K11"
  | "K11A2"
  | "K11D"
  | "K11E"
  | "K11F"
  | "K11G"
  | "K15"
  | "U6"
  | "U7"
  | "U8"
  | "U8a"
  | "U8b"
  | "U8c"
  | "U15a3"
  | "U15a4"
  | "U15a5"
  | "U16"
  | "U16b"
  | "U18"
  | "U24";

/** What is wrong with the set-up. */
export type SetupFault = "position" | "colours-swapped" | "colours-swapped-both";

/** Why a claim does not stand. */
export type OtbRefusal =
  | "already-moved"
  | "no-move-to-claim"
  | "flag-not-down"
  | "own-flag-not-down"
  | "not-in-rulebook"
  | "setup-too-late"
  | "already-pressed"
  | "game-over"
  | "not-established"
  | "opponent-could-mate"
  | "not-repeated";

/** Where the piece to take back an illegal capture comes from (M7.7, K8E). */
export type PieceBackFrom = "not-passed" | "partner-reserve" | "other-board";

/** The result of one game, from its board's White side. */
export type OtbGameResult = "1-0" | "0-1" | "1/2-1/2" | "*";

/** A match result: `1-0` WhiteA + BlackB won, `0-1` BlackA + WhiteB won. */
export type OtbMatchResult = "1-0" | "0-1" | "1/2-1/2";

/** A piece captured by the illegal move to be replaced. */
export type CapturedInfo = {
  /** What was captured. */
  piece: Piece,
  /** Whether it was passed to the offender's partner already. */
  passed: boolean,
  /** Whether the partner still holds it off the board. */
  partner_holds: boolean,
};

/** A player's claim or declaration. */
export type OtbClaim =
  | {
    "kind": "flag",
    /** Who claims. */
    claimant: SeatName,
  }
  | {
    "kind": "both_flags",
    /** Who claims. */
    claimant: SeatName,
  }
  | {
    "kind": "illegal_move",
    /** Who claims. */
    claimant: SeatName,
    /** What it captured, if anything. */
    captured?: CapturedInfo,
  }
  | {
    "kind": "illegal_move_with_flag",
    /** Who claims the illegal move. */
    claimant: SeatName,
  }
  | {
    "kind": "take_back",
    /** Who takes back. */
    seat: SeatName,
  }
  | {
    "kind": "repetition",
    /** Who claims. */
    claimant: SeatName,
  }
  | {
    "kind": "move_count",
    /** Who claims. */
    claimant: SeatName,
  }
  | {
    "kind": "opponent_cannot_mate",
    /** Who claims (the flagged player). */
    claimant: SeatName,
  }
  | {
    "kind": "wrong_setup",
    /** The board. */
    board: BoardName,
    /** What was wrong. */
    fault: SetupFault,
  };

/** The arbiter's ruling on a board. */
export type OtbRuling = "1-0" | "0-1" | "1/2-1/2" | "play-on";

/** Something that happened at the table. */
export type OtbEvent =
  | { "type": "start" }
  | {
    "type": "press",
    /** Who pressed. */
    seat: SeatName,
  }
  | { "type": "pause" }
  | { "type": "resume" }
  | { "type": "observe" }
  | {
    "type": "claim",
    /** The claim. */
    claim: OtbClaim,
  }
  | {
    "type": "ruling",
    /** The board. */
    board: BoardName,
    /** What he rules. */
    ruling: OtbRuling,
  }
  | {
    "type": "forfeit",
    /** The loser. */
    seat: SeatName,
    /** Whether he finds the illegal move deliberate. */
    deliberate: boolean,
  }
  | {
    "type": "move",
    /** Who moved. */
    seat: SeatName,
    /** The move as entered. */
    text: string,
  };

/** One event as the page sends it. */
export type OtbEventItem = {
  /**
   * The page's id of the event (a random integer below 2^53): the same id sent again is not
   * applied again.
   */
  id: number,
  /** The table clock's time, milliseconds. */
  at_ms: number,
  /** The event. */
  event: OtbEvent,
};

/** The body of `POST /api/otb/{id}/events`: events in the order they happened. */
export type OtbEvents = {
  /** The table's key. */
  key: string,
  /** The events, at most 500. */
  events: Array<OtbEventItem>,
};

/** The body of `POST /api/otb`: a new table. */
export type CreateOtbTable = {
  /** The rulebook. */
  rulebook: OtbRulebook,
  /** Base time per player, seconds (1 to 36000). */
  base_seconds: number,
  /** Increment per move, seconds (0 to 3600). */
  increment_seconds: number,
};

/** The answer to `POST /api/otb`. */
export type CreatedOtbTable = {
  /** The table id. */
  id: string,
  /** The table's key: whoever holds it runs the clock and records claims. */
  key: string,
  /** The page of the table, key included (`/otb/{id}#key`). */
  url: string,
};

/** What a decision does. */
export type OtbConsequence =
  | { "kind": "started" }
  | {
    "kind": "win",
    /** The winner. */
    seat: SeatName,
  }
  | {
    "kind": "draw",
    /** The board. */
    board: BoardName,
  }
  | { "kind": "draw_both" }
  | {
    "kind": "forfeit",
    /** The loser. */
    seat: SeatName,
  }
  | {
    "kind": "forfeit_possible",
    /** The offender. */
    seat: SeatName,
  }
  | {
    "kind": "replace_move",
    /** Who made the illegal move. */
    offender: SeatName,
    /** The piece to put back, if the move captured one. */
    piece_back?: Piece,
    /** Where it comes from. */
    piece_from?: PieceBackFrom,
  }
  | {
    "kind": "take_back",
    /** Who takes back. */
    seat: SeatName,
  }
  | { "kind": "restart_both" }
  | {
    "kind": "restart_game",
    /** The board. */
    board: BoardName,
  }
  | { "kind": "play_on" }
  | { "kind": "paused" }
  | { "kind": "resumed" }
  | { "kind": "arbiter_decides" }
  | {
    "kind": "match_over",
    /** Its result. */
    result: OtbMatchResult,
  }
  | {
    "kind": "refused",
    /** Why. */
    why: OtbRefusal,
  };

/** A decision: the article and its consequence. */
export type OtbDecision = {
  /** The article that applies. */
  article: OtbArticle,
  /** What happens. */
  consequence: OtbConsequence,
};

/** One entry of the table's record. */
export type OtbEntry = {
  /** The table clock's time, milliseconds. */
  at_ms: number,
  /** The event, or `None` for a flag fall seen by the clock. */
  event?: OtbEvent,
  /** The seat whose flag fell, for a flag fall. */
  flag?: SeatName,
  /** The decisions taken. */
  decisions: Array<OtbDecision>,
};

/** One of the four clock faces. */
export type OtbClockFace = {
  /** The seat. */
  seat: SeatName,
  /** Time left at `as_of_ms`, milliseconds. */
  remaining_ms: number,
  /** Whether it runs. */
  running: boolean,
  /** When his flag fell, if it did. */
  flag_ms?: number,
};

/** The state of one game. */
export type OtbGame = {
  /** The board. */
  board: BoardName,
  /** Its result once over. */
  result?: OtbGameResult,
  /** The article that ended it. */
  article?: OtbArticle,
};

/** The tournament pairing a table plays. */
export type OtbPairing = {
  /** The tournament id. */
  tournament: string,
  /** The round, from 1. */
  round: number,
  /** The table, from 1. */
  table: number,
};

/** A table: the answer to `GET /api/otb/{id}` and to posted events. */
export type OtbTableView = {
  /** The table id. */
  id: string,
  /** The rulebook. */
  rulebook: OtbRulebook,
  /** Base time, milliseconds. */
  base_ms: number,
  /** Increment, milliseconds. */
  increment_ms: number,
  /** The tournament pairing, if any. */
  pairing?: OtbPairing,
  /** Whether the clocks were started. */
  started: boolean,
  /** Whether they are paused. */
  paused: boolean,
  /** The table clock's time the faces are given at (the last event's). */
  as_of_ms: number,
  /** The four faces: WhiteA, BlackA, WhiteB, BlackB. */
  clocks: Array<OtbClockFace>,
  /** Both games. */
  games: Array<OtbGame>,
  /** The match result once over. */
  result?: OtbMatchResult,
  /** Upheld illegal moves per seat (WhiteA, BlackA, WhiteB, BlackB). */
  illegal_moves: Array<number>,
  /** Every event and flag fall with its decisions, in order. */
  record: Array<OtbEntry>,
  /** The ids of the posted events that were applied now or before (resends included). */
  applied: Array<number>,
  /** Posted events the table refused (a press out of turn, a time before the last), with why. */
  rejected: Array<OtbRejected>,
  /** The scoresheet's moves, in the order entered (empty when nobody keeps one). */
  moves: Array<OtbSheetMove>,
};

/** A posted event the table refused. */
export type OtbRejected = {
  /** The page's id of the event. */
  id: number,
  /** Why, in words. */
  error: string,
};

/** A move on the scoresheet. */
export type OtbSheetMove = {
  /** Who moved. */
  seat: SeatName,
  /** That board's move number. */
  number: number,
  /** The move in SAN, with `+` or `#`. */
  san: string,
  /** The table clock's time it was entered. */
  at_ms: number,
};
