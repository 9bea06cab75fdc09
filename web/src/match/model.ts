// The match page's state, and how the server's messages change it: pure, no DOM, no socket
// (the page's other modules read it and draw; `socket.ts` feeds it).

import type { AccountView } from '../accountTypes';
import { bothGamesPlayedOut, type PocketRole } from '../helpers';
import {
  SEATS,
  type BoardName,
  type BoardState,
  type MatchState,
  type SeatName,
  type ServerMessage,
  type TalkEntry,
} from '../protocol';

/** One of the server's messages, by its type. */
export type Msg<T extends ServerMessage['type']> = Extract<ServerMessage, { type: T }>;

/**
 * What to do with a numbered event (`moved`, `ended`, `draw_offers`): `apply` it; `skip` it
 * (already in the state, no state yet, or a whole state is awaited); or, on a gap (a number
 * skipped), say `hello` again (`gap`): its `state` replaces everything.
 */
export type SeqVerdict = 'apply' | 'skip' | 'gap';

/** A step through the replay of a finished match. */
export type ReplayStep = 'first' | 'prev' | 'next' | 'last';

export class MatchModel {
  state: MatchState | null = null;
  you: SeatName | null = null;
  /** When the clocks of the state were last set (`performance.now()`). */
  clocksAt = 0;
  flipped = false;
  /** Positions seen or fetched: after k moves → [FEN_A, FEN_B]. */
  readonly positions = new Map<number, [string, string]>();
  positionsFetch: 'no' | 'loading' | 'done' | 'failed' = 'no';
  /** The replayed position (moves played), or null for the live one. */
  replay: number | null = null;
  /** The team's partner talk shown, by its number in the match. */
  readonly talkLog = new Map<number, TalkEntry>();
  /** The number of the last numbered event applied (`moved`, `ended`, `draw_offers`). */
  lastSeq = 0;
  /** A `hello` was sent again after a gap in the numbered events: its `state` is awaited. */
  resyncing = false;
  /** The one-way lag the server measured for this connection, in ms. */
  lagMs: number | null = null;
  /** The stored seat token was refused (bad_token): the page watches. */
  tokenRefused = false;
  /** The reserve piece picked to drop (tap then square), and the one being dragged. */
  dropRole: PocketRole | null = null;
  dragRole: PocketRole | null = null;
  /** The player asked to stand up: his seat token goes when the state says he has no seat. */
  standing = false;
  rematchId: string | null = null;
  /** No `state` has come yet on the current connection. */
  freshConnection = true;
  /** The signed-in account (its seats take its name), or null for a guest; undefined until
   * known. */
  account: AccountView | null | undefined = undefined;

  /**
   * Whether a numbered event is to be applied: not if it is already in the state (its number is
   * at most the last applied); a gap (a number skipped) marks the model as resyncing, and the
   * events are dropped until the next `state`.
   */
  takeSeq(seq: number): SeqVerdict {
    if (this.resyncing) return 'skip';
    if (seq <= this.lastSeq) return 'skip';
    if (seq > this.lastSeq + 1) {
      this.resyncing = true;
      return 'gap';
    }
    this.lastSeq = seq;
    return 'apply';
  }

  /**
   * A whole `state` (after each hello): replaces the match, the event count and the talk.
   * `fresh` says whether it is the first state of this connection (the boards are then redrawn
   * from scratch); `stoodUp`, that the player who asked to stand has no seat now (his token is
   * to be forgotten).
   */
  applyState(state: MatchState, you: SeatName | null, now: number): { fresh: boolean; stoodUp: boolean } {
    const first = this.state === null;
    this.state = state;
    this.you = you;
    this.clocksAt = now;
    this.positions.set(state.moves.length, this.fens());
    // The state has every numbered event up to `seq`; a later state (after a server restart the
    // numbering jumps forward) replaces the count either way.
    this.lastSeq = state.seq;
    this.resyncing = false;
    // The talk is rebuilt from the team's log, so a reload shows the history.
    this.talkLog.clear();
    for (const entry of state.talk_log ?? []) this.talkLog.set(entry.n, entry);
    const fresh = this.freshConnection;
    this.freshConnection = false;
    const stoodUp = you === null && this.standing;
    if (stoodUp) this.standing = false;
    if (first && state.status === 'finished') this.replay = null;
    return { fresh, stoodUp };
  }

  /** A move on either board: both boards, the record, the clocks and the position. */
  applyMoved(msg: Msg<'moved'>, now: number): SeqVerdict {
    const st = this.state;
    if (!st) return 'skip';
    const verdict = this.takeSeq(msg.seq);
    if (verdict !== 'apply') return verdict;
    this.setBoard(msg.board);
    this.setBoard(msg.other);
    if (msg.mv.ply >= st.moves.length) st.moves.push(msg.mv);
    st.clocks = msg.clocks;
    this.clocksAt = now;
    if (st.status === 'waiting') st.status = 'playing';
    this.positions.set(msg.mv.ply + 1, this.fens());
    if (msg.mv.seat === this.you) this.dropRole = null;
    return 'apply';
  }

  /**
   * The match, or under knsb-1988 one of its games, ended: an `ended` may close one game while
   * the other goes on (one board has its result, the other still `*`).
   */
  applyEnded(msg: Msg<'ended'>, now: number): SeqVerdict {
    const st = this.state;
    if (!st) return 'skip';
    const verdict = this.takeSeq(msg.seq);
    if (verdict !== 'apply') return verdict;
    st.result = msg.result;
    st.clocks = msg.clocks;
    this.clocksAt = now;
    const oneGameOnly = bothGamesPlayedOut(st.settings) && msg.result.boards.filter(b => b !== '*').length === 1;
    if (!oneGameOnly) {
      st.status = 'finished';
      st.draw_offers = [];
      this.dropRole = null;
    }
    return 'apply';
  }

  applyDrawOffers(msg: Msg<'draw_offers'>): SeqVerdict {
    const st = this.state;
    if (!st) return 'skip';
    const verdict = this.takeSeq(msg.seq);
    if (verdict === 'apply') st.draw_offers = msg.seats;
    return verdict;
  }

  /** A talk message; false if it is shown already (the server sends our own back too). */
  addTalk(msg: Msg<'talk'>): boolean {
    if (this.talkLog.has(msg.n)) return false;
    const { type: _type, ...entry } = msg;
    this.talkLog.set(msg.n, entry);
    return true;
  }

  /** The talk to show, oldest first: the last 50. */
  talkEntries(): TalkEntry[] {
    return [...this.talkLog.values()].sort((a, b) => a.n - b.n).slice(-50);
  }

  setBoard(board: BoardState): void {
    const st = this.state;
    if (!st) return;
    st.boards[board.board === 'A' ? 0 : 1] = board;
  }

  /** A board of the state (there must be one). */
  boardState(b: BoardName): BoardState {
    return this.state!.boards[b === 'A' ? 0 : 1];
  }

  fens(): [string, string] {
    return [this.boardState('A').fen, this.boardState('B').fen];
  }

  /** A seat's player: his name, `bot`, or the seat when free. */
  seatName(seat: SeatName): string {
    const info = this.state?.seats.find(s => s.seat === seat);
    return info?.name ?? (info?.bot ? 'bot' : seat);
  }

  /** The names in seat order (the draw offer names the offering seats). */
  seatNames(): string {
    return SEATS.map(seat => this.seatName(seat)).join('|');
  }

  /** Whether every position of the record is known (no fetch needed for the replay). */
  positionsComplete(): boolean {
    const n = this.state?.moves.length ?? 0;
    for (let k = 0; k <= n; k++) if (!this.positions.has(k)) return false;
    return true;
  }

  /**
   * Takes the answer of `GET /api/matches/{id}/positions` (entry k: `[FEN_A, FEN_B]` after k
   * moves); entries that are not a pair of strings are left out. False if it is no list.
   */
  addPositions(list: unknown): boolean {
    if (!Array.isArray(list)) return false;
    list.forEach((entry: unknown, k) => {
      if (Array.isArray(entry) && typeof entry[0] === 'string' && typeof entry[1] === 'string')
        this.positions.set(k, [entry[0], entry[1]]);
    });
    return true;
  }

  /** The plies whose position is known, in order. */
  knownPlies(): number[] {
    return [...this.positions.keys()].filter(k => k <= (this.state?.moves.length ?? 0)).sort((a, b) => a - b);
  }

  /** Shows the position after `k` moves (null or the last: the live one). */
  goto(k: number | null): void {
    const n = this.state?.moves.length ?? 0;
    this.replay = k === null || k >= n ? null : Math.max(0, k);
    this.dropRole = null;
  }

  /** Where a step of the replay leads, or undefined when it leads nowhere. */
  stepTarget(dir: ReplayStep): number | undefined {
    const st = this.state;
    if (!st) return undefined;
    const n = st.moves.length;
    const known = this.knownPlies();
    const cur = this.replay ?? n;
    if (dir === 'first') return known[0];
    if (dir === 'last') return n;
    if (dir === 'prev') return known.filter(k => k < cur).at(-1);
    return known.find(k => k > cur);
  }
}
