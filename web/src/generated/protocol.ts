// Generated from crates/protocol by ts-rs: do not edit. After changing the Rust types, run
// `cargo run -p bughouse-protocol --example gen-ts` (the test `ts_bindings_are_fresh` checks this file).

/** A seat: boards `A` and `B`, teams WhiteA + BlackB against BlackA + WhiteB. */
export type SeatName = "WhiteA" | "BlackA" | "WhiteB" | "BlackB";

/** One of the two boards. */
export type BoardName = "A" | "B";

/** Where a match is in its life. */
export type Status = "waiting" | "playing" | "finished";

/** The verdict of a board for the side to move. */
export type Verdict = "ongoing" | "checkmate" | "stalemate" | "waiting";

/** A draw claim. */
export type Claim = "repetition" | "move-count";

/** A piece a partner asks for or warns about. */
export type Piece = "P" | "N" | "B" | "R" | "Q";

/**
 * The kinds of partner talk. Which are allowed depends on the rulebook: knsb-1988 only
 * `need` (K14); minerva-2014 `need`, `dont_give`, `sit`, `go`, `flag` (M9.2 to M9.5); fide
 * and uscf everything (F3.10, U12).
 */
export type TalkKind = "need" | "dont_give" | "sit" | "go" | "flag" | "text";

/** Why the server refused a request (the `code` of [`ServerMessage::Error`]). */
export type ErrorCode =
  | "bad_message"
  | "too_large"
  | "rate_limited"
  | "no_such_match"
  | "bad_token"
  | "not_seated"
  | "seat_taken"
  | "not_your_turn"
  | "illegal_move"
  | "game_over"
  | "not_allowed"
  | "sign_in_required"
  | "not_stored";

/** What a client sends. */
export type ClientMessage =
  | {
    "type": "hello",
    /** The match to join. */
    match_id: string,
    /** The secret of a seat taken earlier, if any. */
    token?: string,
  }
  | {
    "type": "sit",
    /** The seat. */
    seat: SeatName,
    /** The name to show. */
    name: string,
  }
  | {
    "type": "add_bot",
    /** The seat. */
    seat: SeatName,
    /** Its strength, 1 (weakest) to 8 (full strength, the default). */
    level?: number,
  }
  | { "type": "stand" }
  | {
    "type": "move",
    /** The move in UCI. */
    uci: string,
  }
  | { "type": "resign" }
  | { "type": "offer_draw" }
  | { "type": "withdraw_draw" }
  | {
    "type": "claim_draw",
    /** The claim. */
    claim: Claim,
  }
  | {
    "type": "talk",
    /** The kind of message. */
    kind: TalkKind,
    /** The piece it is about, for `need` and `dont_give` (`P`, `N`, `B`, `R`, `Q`). */
    piece?: Piece,
    /** The text, for `text`. */
    text?: string,
  }
  | {
    "type": "rematch",
    /** Swap partners. */
    swap: boolean,
  }
  | {
    "type": "ping",
    /** The client's own clock, echoed back. */
    t: number,
  };

/**
 * A client message with the client's own id for it: what travels on the wire.
 *
 * A message that changes something (every message but `hello` and `ping`) may carry an `id`,
 * a number the client chooses, unique among its seat's recent actions (the front end takes
 * the time in microseconds). The server answers it with [`ServerMessage::Ack`] (or an
 * [`ServerMessage::Error`] with the same id) once its effect is stored. A message resent with an
 * id the server has already acknowledged for that seat is answered with the same `ack` again and
 * not applied twice, also after a reconnect or a server restart (for moves, match actions and
 * partner talk, whose ids are stored with them).
 */
export type ClientFrame = {
  /** The client's id for this action. */
  id?: number,
} & (
  | {
    "type": "hello",
    /** The match to join. */
    match_id: string,
    /** The secret of a seat taken earlier, if any. */
    token?: string,
  }
  | {
    "type": "sit",
    /** The seat. */
    seat: SeatName,
    /** The name to show. */
    name: string,
  }
  | {
    "type": "add_bot",
    /** The seat. */
    seat: SeatName,
    /** Its strength, 1 (weakest) to 8 (full strength, the default). */
    level?: number,
  }
  | { "type": "stand" }
  | {
    "type": "move",
    /** The move in UCI. */
    uci: string,
  }
  | { "type": "resign" }
  | { "type": "offer_draw" }
  | { "type": "withdraw_draw" }
  | {
    "type": "claim_draw",
    /** The claim. */
    claim: Claim,
  }
  | {
    "type": "talk",
    /** The kind of message. */
    kind: TalkKind,
    /** The piece it is about, for `need` and `dont_give` (`P`, `N`, `B`, `R`, `Q`). */
    piece?: Piece,
    /** The text, for `text`. */
    text?: string,
  }
  | {
    "type": "rematch",
    /** Swap partners. */
    swap: boolean,
  }
  | {
    "type": "ping",
    /** The client's own clock, echoed back. */
    t: number,
  }
);

/** What the server sends. */
export type ServerMessage =
  | {
    "type": "state",
    /** The match. */
    state: MatchState,
    /** The seat this connection acts for, if any. */
    you: SeatName | null,
  }
  | {
    "type": "seats",
    /** The four seats. */
    seats: Array<SeatInfo>,
  }
  | {
    "type": "seated",
    /** The seat. */
    seat: SeatName,
    /** The secret that proves it is yours. */
    token: string,
  }
  | {
    "type": "moved",
    /** The move. */
    mv: MoveInfo,
    /** The board it was played on, after the move. */
    board: BoardState,
    /** The other board (its reserves changed if the move captured). */
    other: BoardState,
    /** The clocks after the move. */
    clocks: Clocks,
    /** The event's number in the match. */
    seq: number,
  }
  | {
    "type": "ended",
    /** The result. */
    result: ResultInfo,
    /** The clocks at the end. */
    clocks: Clocks,
    /** The event's number in the match. */
    seq: number,
  }
  | {
    "type": "draw_offers",
    /** The seats that offer a draw now. */
    seats: Array<SeatName>,
    /** The event's number in the match. */
    seq: number,
  }
  | {
    "type": "talk",
    /**
     * Its number among the match's talk (both teams), from 0: a client that already shows
     * number `n` drops a copy.
     */
    n: number,
    /** Who said it. */
    from: SeatName,
    /** The kind. */
    kind: TalkKind,
    /** The piece, for `need` and `dont_give`. */
    piece?: Piece,
    /** The text, for `text`. */
    text?: string,
    /** Match time, in milliseconds. */
    at_ms: number,
  }
  | {
    "type": "ack",
    /** The client's id of the action. */
    id: number,
    /** The number of the match's last event after it. */
    seq: number,
    /** For a move: the lag compensation it was given, in milliseconds. */
    lag_ms?: number,
  }
  | {
    "type": "rematch",
    /** The new match id. */
    match_id: string,
  }
  | {
    "type": "rating_changes",
    /** The players, in seat order. */
    players: Array<PlayerRatingChange>,
    /** The teams of two accounts (none when a bot played). */
    teams: Array<TeamRatingChange>,
  }
  | {
    "type": "pong",
    /** The client's `t`, echoed. */
    t: number,
    /** The server's own clock, in milliseconds since it started. */
    server_ms: number,
    /**
     * The server's estimate of this connection's one-way lag, in milliseconds, which
     * compensates its moves (absent until measured).
     */
    lag_ms?: number,
    /** The lag compensation the seat has left to spend, in milliseconds (for a seat). */
    quota_ms?: number,
  }
  | {
    "type": "error",
    /** A stable code. */
    code: ErrorCode,
    /** What was wrong, in words. */
    message: string,
    /** The client's id of the refused action, if it had one. */
    id?: number,
  };

/** The whole state of a match, sent on joining and after a reconnect. */
export type MatchState = {
  /** The match id. */
  match_id: string,
  /** The rules preset id, or `custom`. */
  rules: string,
  /** The time control, `5+0`. */
  time_control: string,
  /** `waiting` (for players), `playing` or `finished`. */
  status: Status,
  /** The four seats. */
  seats: Array<SeatInfo>,
  /** Both boards. */
  boards: [BoardState, BoardState],
  /** The clocks. */
  clocks: Clocks,
  /** Every move so far, both boards in the order they were made. */
  moves: Array<MoveInfo>,
  /** The result, once finished. */
  result: ResultInfo | null,
  /** The seats that offer a draw now. */
  draw_offers: Array<SeatName>,
  /** The partner-talk kinds this match's rulebook allows. */
  talk: Array<TalkKind>,
  /**
   * Every field of the match's rule set (clients read the draw claims and whether both
   * games are played out from here, whatever the preset).
   */
  settings: Array<RuleSetting>,
  /**
   * The number of the match's last numbered event (`moved`, `ended`, `draw_offers`; seat
   * changes come as a whole `state` and are not numbered): events numbered up to this one
   * are in this state.
   */
  seq: number,
  /**
   * The partner talk of the team of the seat this state is for, oldest first; empty for
   * spectators and opponents.
   */
  talk_log: Array<TalkEntry>,
  /**
   * A rated match: only signed-in players (and bots, if `allow_bots`) may sit, and its
   * result changes their ratings.
   */
  rated: boolean,
  /** Bots may sit in this rated match (their ratings are fixed; only the humans' change). */
  allow_bots: boolean,
  /** What a finished rated match changed, once its ratings are applied. */
  rating_changes?: RatingChanges,
};

/**
 * What a rated match changed: each signed-in player's rating, and each team of two signed-in
 * players' team rating (Glicko-2; bots' ratings are fixed and not listed).
 */
export type RatingChanges = {
  /** The players, in seat order. */
  players: Array<PlayerRatingChange>,
  /** The teams of two accounts (none when a bot played). */
  teams: Array<TeamRatingChange>,
};

/** One player's rating before and after a rated match. */
export type PlayerRatingChange = {
  /** His seat. */
  seat: SeatName,
  /** His account's name. */
  username: string,
  /** The rating before the match. */
  before: number,
  /** The rating after it. */
  after: number,
  /** `after - before`. */
  delta: number,
  /** The deviation after it. */
  deviation: number,
};

/** A team's rating before and after a rated match. */
export type TeamRatingChange = {
  /** Its seats (WhiteA and BlackB, or BlackA and WhiteB). */
  seats: [SeatName, SeatName],
  /** Its players' account names, in the order of `seats`. */
  usernames: [string, string],
  /** The team rating before the match. */
  before: number,
  /** After it. */
  after: number,
  /** `after - before`. */
  delta: number,
  /** The deviation after it. */
  deviation: number,
};

/** A seat as clients see it. */
export type SeatInfo = {
  /** `WhiteA`, `BlackA`, `WhiteB` or `BlackB`. */
  seat: SeatName,
  /** The player's name, if the seat is taken. */
  name: string | null,
  /** Whether a bot plays this seat. */
  bot: boolean,
  /** Whether the player is connected now. */
  connected: boolean,
  /**
   * Whether a signed-in player sits here: `name` is then his account's name (his profile is
   * `/player/{name}`).
   */
  account: boolean,
};

/**
 * Moves in UCI (`e2e4`, `N@f3`): on the wire a JSON array of strings, in memory one string of
 * moves separated by spaces.
 */
export type UciList = Array<string>;

/** One board as clients see it. */
export type BoardState = {
  /** `A` or `B`. */
  board: BoardName,
  /** The position, FEN with bracketed reserves and `~` for promoted pieces. */
  fen: string,
  /** The last move on this board in UCI, for highlighting. */
  last_move: string | null,
  /** Whether the side to move is in check. */
  check: boolean,
  /** `ongoing`, `checkmate`, `stalemate` or `waiting` for the side to move. */
  verdict: Verdict,
  /** The legal moves in UCI, sent only to the player to move on this board. */
  legal?: UciList,
  /**
   * The draws that may be claimed on this board now (left out when none): `move-count` by
   * either player of the board, `repetition` by the player to move (F4.1).
   */
  claims?: Array<Claim>,
};

/** The four clocks. */
export type Clocks = {
  /**
   * Milliseconds left, in seat order WhiteA, BlackA, WhiteB, BlackB, as of the moment the
   * message was made.
   */
  remaining_ms: [number, number, number, number],
  /** The seats whose clock runs. */
  running: Array<SeatName>,
};

/** A move of the record. */
export type MoveInfo = {
  /** The index in the match record, from 0. */
  ply: number,
  /** The seat that moved. */
  seat: SeatName,
  /** The move in UCI. */
  uci: string,
  /** The move in SAN with `+`/`#`. */
  san: string,
  /** That board's move number, as in `12A.`. */
  number: number,
  /** The mover's time left after the move, in milliseconds. */
  clock_ms: number,
  /** The lag compensation the move was given, in milliseconds (see `docs/protocol.md`). */
  lag_ms: number,
};

/** How a finished match ended. */
export type ResultInfo = {
  /** `1-0` (WhiteA + BlackB won), `0-1` or `1/2-1/2`. */
  result: string,
  /** Each board's result from its White side, `*` for a board stopped by the other. */
  boards: [string, string],
  /** Why, in words: `BlackA checkmated`, `WhiteB forfeits on time`, ... */
  reason: string,
};

/** One message of a team's partner talk, as kept with the match. */
export type TalkEntry = {
  /**
   * Its number among the match's talk (both teams), from 0: a client that already shows
   * number `n` drops a copy.
   */
  n: number,
  /** Who said it. */
  from: SeatName,
  /** The kind. */
  kind: TalkKind,
  /** The piece, for `need` and `dont_give`. */
  piece?: Piece,
  /** The text, for `text`. */
  text?: string,
  /** Match time, in milliseconds. */
  at_ms: number,
};

/** The body of `POST /api/matches`. */
export type CreateMatch = {
  /**
   * A preset id (`fide`, `minerva-2014`, `knsb-1988`, `uscf-scholastic-2006`): the rules,
   * or the base of a custom rule set.
   */
  rules: string,
  /** The time control, `5+0` (minutes + seconds of increment). */
  time_control: string,
  /**
   * Fields of the preset to change, by name, with values as `GET /api/rules` lists them
   * (`{"drop_check": "Forbidden", "repetition_claim": "none"}`). A set that differs from
   * every preset is called `custom`.
   */
  custom?: { [key in string]: string },
  /**
   * A rated match (default casual): only signed-in players may sit, and the result changes
   * their ratings. Creating one needs a signed-in request.
   */
  rated?: boolean,
  /** In a rated match, bots may sit (with their fixed ratings; only the humans' change). */
  allow_bots?: boolean,
};

/** The answer to `POST /api/matches`. */
export type CreatedMatch = {
  /** The new match id. */
  match_id: string,
};

/**
 * The answer to `GET /api/rules`: the presets with their settings, and what each field takes,
 * to build a custom rule set.
 */
export type RulesCatalog = {
  /** Every preset a match can be created with. */
  presets: Array<PresetInfo>,
  /** Every field of a rule set, in order. */
  fields: Array<RuleField>,
};

/** One preset in [`RulesCatalog`]. */
export type PresetInfo = {
  /** The id (`fide`). */
  id: string,
  /** One line about it. */
  description: string,
  /** Every field with its value under this preset. */
  settings: Array<RuleSetting>,
};

/** A field of a rule set and its value. */
export type RuleSetting = {
  /** The field name (`drop_check`). */
  field: string,
  /** The value (`Forbidden`). */
  value: string,
};

/** What one field of a rule set takes. */
export type RuleField = {
  /** The field name. */
  name: string,
  /**
   * The values to choose from; `None` for a count (`none` or a number) or a set of piece
   * letters (`promotion_roles`, e.g. `QRBN`).
   */
  options: Array<string> | null,
};

/** One finished match in the archive list. */
export type ArchiveEntry = {
  /** The match id. */
  match_id: string,
  /** The rules preset id. */
  rules: string,
  /** The names in seat order. */
  players: [string | null, string | null, string | null, string | null],
  /** The result, `1-0`, `0-1` or `1/2-1/2`. */
  result: string,
  /** When it finished, Unix milliseconds. */
  finished_at: number,
};

/** The answer to `GET /api/archive`: finished matches, newest first. */
export type Archive = Array<ArchiveEntry>;

/** The answer to `GET /api/matches/{id}/positions`: the FEN of boards A and B before the first move and after each move. */
export type Positions = Array<[string, string]>;

/** Every refused HTTP request: a 4xx or 5xx status with this body. */
export type ApiError = {
  /**
   * A stable code: `invalid` (400), `unauthorized` (401), `forbidden` (403), `not_found`
   * (404), `conflict` (409), `unavailable` (503) or `storage` (500).
   */
  error: string,
  /** What was wrong, in words. */
  message: string,
};
