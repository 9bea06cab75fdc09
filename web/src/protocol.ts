// The wire protocol, mirrored from crates/protocol/src/lib.rs (the single definition) and
// docs/protocol.md. Keep the two in step.

export type SeatName = 'WhiteA' | 'BlackA' | 'WhiteB' | 'BlackB';
export const SEATS: readonly SeatName[] = ['WhiteA', 'BlackA', 'WhiteB', 'BlackB'];

export type BoardName = 'A' | 'B';

export type TalkKind = 'need' | 'dont_give' | 'sit' | 'go' | 'flag' | 'text';

export interface SeatInfo {
  seat: SeatName;
  name: string | null;
  bot: boolean;
  connected: boolean;
}

export interface BoardState {
  board: BoardName;
  fen: string;
  last_move: string | null;
  check: boolean;
  /** `ongoing`, `checkmate`, `stalemate` or `waiting`. */
  verdict: string;
  /** Sent only to the player to move on this board. */
  legal?: string[] | null;
}

export interface Clocks {
  /** WhiteA, BlackA, WhiteB, BlackB. */
  remaining_ms: [number, number, number, number];
  running: SeatName[];
}

export interface MoveInfo {
  ply: number;
  seat: SeatName;
  uci: string;
  san: string;
  number: number;
  clock_ms: number;
  /** The lag compensation the move was given, in ms. */
  lag_ms: number;
}

export interface ResultInfo {
  result: string;
  boards: [string, string];
  reason: string;
}

export type MatchStatus = 'waiting' | 'playing' | 'finished';

export interface MatchState {
  match_id: string;
  rules: string;
  time_control: string;
  status: MatchStatus;
  seats: SeatInfo[];
  boards: [BoardState, BoardState];
  clocks: Clocks;
  moves: MoveInfo[];
  /** Every field of the match's rule set. */
  settings: RuleSetting[];
  result: ResultInfo | null;
  draw_offers: SeatName[];
  talk: TalkKind[];
  /** The number of the match's last event (`moved`, `ended`, `draw_offers`, a seat change)
   * included in this state. */
  seq: number;
  /** The partner talk of the team of the seat this state is for, oldest first; empty for
   * spectators. */
  talk_log: TalkEntry[];
}

/** One message of a team's partner talk. */
export interface TalkEntry {
  /** Its number among the match's talk (both teams), from 0. */
  n: number;
  from: SeatName;
  kind: TalkKind;
  /** For `need` and `dont_give`. */
  piece?: string;
  /** For `text`. */
  text?: string;
  /** Match time, in ms. */
  at_ms: number;
}

/** Why the server refused a request. */
export type ErrorCode =
  | 'bad_message'
  | 'too_large'
  | 'rate_limited'
  | 'no_such_match'
  | 'bad_token'
  | 'not_seated'
  | 'seat_taken'
  | 'not_your_turn'
  | 'illegal_move'
  | 'game_over'
  | 'not_allowed';

/** What a client sends: `hello` and `ping` as they are, and every other message (an action)
 * with an optional `id` the server answers with `ack` (or an `error` with the same id). */
export type ClientMessage =
  | { type: 'hello'; match_id: string; token?: string }
  | { type: 'sit'; seat: SeatName; name: string }
  | { type: 'add_bot'; seat: SeatName; level?: number }
  | { type: 'stand' }
  | { type: 'move'; uci: string }
  | { type: 'resign' }
  | { type: 'offer_draw' }
  | { type: 'withdraw_draw' }
  | { type: 'claim_draw'; claim: 'repetition' | 'move-count' }
  | { type: 'talk'; kind: TalkKind; piece?: string; text?: string }
  | { type: 'rematch'; swap: boolean }
  | { type: 'ping'; t: number };

/** The messages that act (all but `hello` and `ping`). */
export type ActionMessage = Exclude<ClientMessage, { type: 'hello' } | { type: 'ping' }>;

/** What travels on the wire: an action may carry the client's id for it (below 2^53). */
export type ClientFrame = ClientMessage | (ActionMessage & { id?: number });

export type ServerMessage =
  | { type: 'state'; state: MatchState; you: SeatName | null }
  | { type: 'seated'; seat: SeatName; token: string }
  | { type: 'moved'; mv: MoveInfo; board: BoardState; other: BoardState; clocks: Clocks; seq: number }
  | { type: 'ended'; result: ResultInfo; clocks: Clocks; seq: number }
  | { type: 'draw_offers'; seats: SeatName[]; seq: number }
  | ({ type: 'talk' } & TalkEntry)
  /** An action with an `id` was done and stored (`lag_ms` for a move: its compensation). */
  | { type: 'ack'; id: number; seq: number; lag_ms?: number }
  // `token` and `seat` are not in the protocol (yet): if the server ever sends them, the
  // front end keeps the token for the new match.
  | { type: 'rematch'; match_id: string; token?: string; seat?: SeatName }
  /** `lag_ms`: the server's estimate of this connection's one-way lag (absent until measured);
   * `quota_ms`: the lag compensation the seat has left. */
  | { type: 'pong'; t: number; server_ms: number; lag_ms?: number; quota_ms?: number }
  | { type: 'error'; code: ErrorCode; message: string; id?: number };

/** The body of `POST /api/matches`. */
export interface CreateMatch {
  rules: string;
  time_control: string;
  /** Fields of the preset to change (a custom rule set). */
  custom?: Record<string, string>;
}

export interface RuleSetting {
  field: string;
  value: string;
}

/** The answer to `GET /api/rules`. */
export interface RulesCatalog {
  presets: { id: string; description: string; settings: RuleSetting[] }[];
  /** `options` is null for a count (`none` or a number) or piece letters (`QRBN`). */
  fields: { name: string; options: string[] | null }[];
}

export interface CreatedMatch {
  match_id: string;
}

/** Every refused HTTP request: a 4xx or 5xx status with this body. */
export interface ApiError {
  /** `invalid` (400), `unauthorized` (401), `forbidden` (403), `not_found` (404), `conflict`
   * (409), `unavailable` (503) or `storage` (500). */
  error: string;
  /** What was wrong, in words. */
  message: string;
}

export interface ArchiveEntry {
  match_id: string;
  rules: string;
  players: [string | null, string | null, string | null, string | null];
  result: string;
  finished_at: number;
}

/** Limits from the protocol. */
export const MAX_CHAT = 300;
export const MAX_NAME = 32;
/** Bot strength: 1 (weakest) to 8 (full strength). */
export const BOT_LEVELS = [1, 2, 3, 4, 5, 6, 7, 8] as const;

export const PRESETS: readonly { id: string; description: string }[] = [
  {
    id: 'fide',
    description:
      'Bughouse extension to the FIDE Laws: drops may mate, dropped rooks castle, mate only if no drop could ever block',
  },
  {
    id: 'minerva-2014',
    description:
      'JSV Minerva reglement 2014: FIDE base mate and stalemate, flag fall drawn if the opponent could never mate',
  },
  {
    id: 'knsb-1988',
    description: 'KNSB reglement 1988: no checking drops, 30-move rule, both games played out and scored apart',
  },
  {
    id: 'uscf-scholastic-2006',
    description:
      'US National Scholastic rules 2006: players wait for blocking pieces, the first win ends the match',
  },
];
