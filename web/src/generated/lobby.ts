// Generated from crates/protocol by ts-rs: do not edit. After changing the Rust types, run
// `cargo run -p bughouse-protocol --example gen-ts` (the test `ts_bindings_are_fresh` checks this file).

import type { Clocks, SeatInfo, SeatName } from './protocol';

/**
 * What the lobby shows: open matches with free seats, matches in progress, and how many are
 * online and playing.
 */
export type LobbySnapshot = {
  /** Matches waiting for players, fullest first, then oldest (at most [`LOBBY_OPEN_MAX`]). */
  open: Array<OpenMatch>,
  /** Matches being played, the most recently started first (at most [`LOBBY_LIVE_MAX`]). */
  live: Array<LiveGame>,
  /** Connections to the server: match pages and lobby pages. */
  online: number,
  /** Players (not bots) seated in matches being played. */
  playing: number,
};

/** A match waiting for players. */
export type OpenMatch = {
  /** The match id. */
  match_id: string,
  /** The rules preset id, or `custom`. */
  rules: string,
  /** The time control, `5+0`. */
  time_control: string,
  /** The four seats in seat order, as the match page shows them. */
  seats: Array<SeatInfo>,
  /** How many seats are free. */
  free: number,
  /** Whether the match is rated (only signed-in players sit in it). */
  rated: boolean,
  /**
   * The rating of each seat's player in seat order: a signed-in player's (his player
   * rating), a bot's published rating; null for a free seat, a guest, or an account not yet
   * rated.
   */
  seat_ratings: Array<number | null>,
  /**
   * The mean rating of its seated players (a guest or an unrated account counts as 1500);
   * null when nobody sits.
   */
  rating: number | null,
  /**
   * The bot level whose published rating is nearest the mean rating of its seated players
   * (not bots): what the match page offers to fill its free seats with.
   */
  bot_level: number,
  /** When it was created, Unix milliseconds. */
  created_at: number,
};

/** A match being played, as the lobby's miniature boards show it. */
export type LiveGame = {
  /** The match id. */
  match_id: string,
  /** The rules preset id, or `custom`. */
  rules: string,
  /** The time control. */
  time_control: string,
  /** The four seats in seat order. */
  seats: Array<SeatInfo>,
  /** Boards A and B. */
  boards: [LobbyBoard, LobbyBoard],
  /** The four clocks as of the snapshot (a client counts the running ones down). */
  clocks: Clocks,
  /** When its clocks started, Unix milliseconds. */
  started_at: number,
};

/** One board in miniature. */
export type LobbyBoard = {
  /** The position, FEN with bracketed reserves. */
  fen: string,
  /** The last move in UCI, for highlighting. */
  last_move: string | null,
};

/** The body of `POST /api/lobby/play`: a seat in an open match of this kind, or a new one. */
export type PlayNow = {
  /** A preset id (`fide`, `minerva-2014`, `knsb-1988`, `uscf-scholastic-2006`). */
  rules: string,
  /** The time control, `3+0`. */
  time_control: string,
  /**
   * The name to sit as (1 to 32 printable characters); a signed-in player sits under his
   * account's name instead.
   */
  name: string,
  /**
   * A rated match (default casual): only for a signed-in player, placed among signed-in
   * players.
   */
  rated?: boolean,
};

/** The answer to `POST /api/lobby/play`: the seat taken for the player. */
export type PlacedSeat = {
  /** The match. */
  match_id: string,
  /** The seat. */
  seat: SeatName,
  /** The seat's secret, as `seated` gives it: the match page says `hello` with it. */
  token: string,
  /** Whether the match was created for this request (no open match of the kind had room). */
  created: boolean,
};
