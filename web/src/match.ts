// The match page (`/m/{id}`): seats, both boards, clocks, the record, draw and resign, partner
// talk, result, rematch and replay. Everything comes over the websocket; see docs/protocol.md.

import type { MoveMetadata } from '@lichess-org/chessground/types';
import { onAccount, profileUrl, ratingText, siteHeader } from './account';
import type { AccountView } from './accountTypes';
import { BoardView, pieceEl, type BoardInput, type PlayerLine } from './boardview';
import { copyText, fill, h, storageGet, storageSet, toast } from './dom';
import {
  BOT_OFFER_MS,
  BOT_WAIT_KEY,
  botLevelFor,
  botLevelLabel,
  botWaitMs,
  bothGamesPlayedOut,
  claimsNow,
  cleanName,
  clocksAfter,
  dropSquares,
  dropUci,
  formatClock,
  isPromotion,
  lastMoveKeys,
  layoutFor,
  letterOfRole,
  liveRemaining,
  lowTimeMs,
  moveLabel,
  moveRows,
  NAME_KEY,
  opposite,
  outcomeFor,
  parseFen,
  parseTimeControl,
  partnerOf,
  pieceMap,
  promotionRoles,
  resultText,
  roleOfLetter,
  seatBoard,
  seatColor,
  seatIndex,
  seatOf,
  seatParam,
  talkText,
  TALK_PIECES,
  tokenKey,
  ucisFor,
  uciToDests,
  type Color,
  type PocketRole,
  type Role,
} from './helpers';
import { Connection } from './net';
import type { PendingAction } from './outbox';
import {
  BOT_LEVELS,
  MAX_CHAT,
  MAX_NAME,
  SEATS,
  type BoardName,
  type ActionMessage,
  type BoardState,
  type LobbySnapshot,
  type MatchState,
  type MoveInfo,
  type Piece,
  type RatingChanges,
  type SeatName,
  type ServerMessage,
  type TalkEntry,
  type TalkKind,
} from './protocol';
import { play, setSound, soundOn } from './sound';


/**
 * The route the replay of a finished match reads: `GET /api/matches/{id}/positions`, answering
 * `Positions`, one entry per position, entry k being `[FEN_A, FEN_B]` after the first k moves of
 * the record (entry 0 is the start, so the array has `moves.length + 1` entries).
 */
export const positionsUrl = (id: string): string => `/api/matches/${encodeURIComponent(id)}/positions`;

/** What the e2e tests reach on the page (`window.__bughouseTest`). */
export interface TestHook {
  /** Closes the websocket as a lost network would; the page reconnects by itself. */
  dropSocket(): void;
  /** How many actions wait for the server's answer. */
  pending(): number;
}

declare global {
  interface Window {
    __bughouseTest?: TestHook;
    /** A test may shorten the wait before the page offers bots ({@link BOT_OFFER_MS}). */
    __bughouseBotOfferMs?: number;
  }
}

export function renderMatch(root: HTMLElement, matchId: string): void {
  // A tournament's seat link names the player (`?name=Ann`): "Sit here" takes that name.
  const name = new URLSearchParams(location.search).get('name')?.trim().slice(0, MAX_NAME);
  if (name) storageSet(NAME_KEY, name);
  new MatchPage(root, matchId).start();
}

class MatchPage {
  private state: MatchState | null = null;
  private you: SeatName | null = null;
  private clocksAt = 0;
  private flipped = false;
  /** Positions seen or fetched: after k moves → [FEN_A, FEN_B]. */
  private readonly positions = new Map<number, [string, string]>();
  private positionsFetch: 'no' | 'loading' | 'done' | 'failed' = 'no';
  /** The replayed position (moves played), or null for the live one. */
  private replay: number | null = null;
  /** The team's partner talk shown, by its number in the match. */
  private readonly talkLog = new Map<number, TalkEntry>();
  /** The number of the last numbered event applied (`moved`, `ended`, `draw_offers`). */
  private lastSeq = 0;
  /** A `hello` was sent again after a gap in the numbered events: its `state` is awaited. */
  private resyncing = false;
  /** The one-way lag the server measured for this connection, in ms. */
  private lagMs: number | null = null;
  /** The stored seat token was refused (bad_token): the page watches. */
  private tokenRefused = false;
  private dropRole: PocketRole | null = null;
  private dragRole: PocketRole | null = null;
  private standing = false;
  private botLevel = 8;
  private rematchId: string | null = null;
  private rtt: number | null = null;
  private connStatus = 'connecting';
  private resignArmed: number | undefined;
  /** No `state` has come yet on the current connection. */
  private freshConnection = true;
  /** The signed-in account (its seats take its name), or null for a guest; undefined until
   * known. */
  private account: AccountView | null | undefined = undefined;
  /** The seat a lobby link asked to take (`?sit=WhiteA`), until tried. */
  private autoSit: SeatName | null = seatParam(location.search);
  /** When this page first saw its player seated in a waiting match (for the bot offer). */
  private waitingSince: number | null = null;
  private botOfferTimer: number | undefined;
  /** The seats whose low-time warning has sounded. */
  private readonly lowWarned = new Set<SeatName>();
  /** The name field of the seats panel. */
  private readonly nameInput = h('input', {
    type: 'text',
    id: 'player-name',
    name: 'player-name',
    maxlength: MAX_NAME,
    autocomplete: 'nickname',
    placeholder: 'your name',
    'aria-label': 'your name',
  });

  private readonly conn: Connection;
  private readonly views: { main: BoardView; side: BoardView };
  private readonly els = {
    header: h('div', { class: 'match-info' }),
    conn: h('span', { class: 'conn' }),
    result: h('section', { class: 'result', hidden: true }),
    seats: h('section', { class: 'seats' }),
    actions: h('section', { class: 'actions' }),
    replay: h('section', { class: 'replay', hidden: true }),
    talk: h('section', { class: 'talk', hidden: true }),
    talkControls: h('div', { class: 'talk-controls' }),
    talkLog: h('ul', { class: 'talk-log' }),
    ping: h('span', { class: 'ping', title: 'round trip to the server' }, 'ping –'),
    movesA: h('ol', { class: 'moves board-A', 'aria-label': 'board A moves' }),
    movesB: h('ol', { class: 'moves board-B', 'aria-label': 'board B moves' }),
    talkToggle: h('button', { type: 'button', class: 'talk-toggle', 'aria-expanded': 'false', hidden: true }, 'Talk'),
    flip: h('button', { type: 'button', class: 'flip', title: 'flip the boards', 'aria-label': 'Flip boards' }, '⇅'),
  };
  private talkKey = '';
  /** What the actions panel shows, to rebuild it only when that changes. */
  private actionsKey = '';
  /** A redraw after `moved` messages is waiting for the next frame. */
  private frameQueued = false;

  constructor(
    private readonly root: HTMLElement,
    private readonly id: string,
  ) {
    const handlers = {
      move: (view: BoardView, orig: string, dest: string, meta: MoveMetadata) => this.onUserMove(view, orig, dest, meta),
      drop: (view: BoardView, role: Role, key: string, meta: MoveMetadata) => this.onUserDrop(view, role, key, meta),
      pocketPick: (_view: BoardView, role: PocketRole) => this.onPocketPick(role),
      pocketDragStart: (view: BoardView, role: PocketRole) => this.onPocketDrag(view, role),
      dropModeUsed: () => {
        this.dropRole = null;
        this.renderBoards();
      },
    };
    this.views = { main: new BoardView('main', handlers), side: new BoardView('side', handlers) };
    this.conn = new Connection({
      hello: () => {
        const token = storageGet(tokenKey(this.id));
        return token ? { type: 'hello', match_id: this.id, token } : { type: 'hello', match_id: this.id };
      },
      message: msg => this.onMessage(msg),
      settled: (action, answer) => this.onSettled(action, answer),
      status: (status, retry) => {
        this.connStatus =
          status === 'open' ? '' : status === 'connecting' ? 'connecting…' : `disconnected, retrying in ${Math.ceil((retry ?? 0) / 1000)} s`;
        this.renderConn(status === 'closed');
        if (status === 'open') this.freshConnection = true;
      },
      rtt: ms => {
        this.rtt = this.rtt === null ? ms : this.rtt * 0.7 + ms * 0.3;
        this.els.ping.textContent = `ping ${Math.round(this.rtt)} ms`;
      },
    });
  }

  start(): void {
    document.title = `Bughouse ${this.id}`;
    const soundBox = h('input', { type: 'checkbox', checked: soundOn() });
    soundBox.addEventListener('change', () => setSound(soundBox.checked));
    const share = `${location.origin}/m/${encodeURIComponent(this.id)}`;
    const shareInput = h('input', { type: 'text', readonly: true, value: share, 'aria-label': 'link to this match' });
    shareInput.addEventListener('focus', () => shareInput.select());
    const copyButton = h('button', { type: 'button' }, 'Copy link');
    copyButton.addEventListener('click', () => {
      void copyText(share).then(ok => toast(ok ? 'Link copied' : 'Could not copy the link', ok ? 'info' : 'error'));
    });

    const talkForm = this.els.talk;
    const closeTalk = h('button', { type: 'button', class: 'talk-close', 'aria-label': 'close the talk' }, '×');
    closeTalk.addEventListener('click', () => this.setTalkOpen(false));
    fill(talkForm, h('div', { class: 'talk-head' }, h('h3', {}, 'Partner'), closeTalk), this.els.talkControls, this.els.talkLog);
    this.els.talkToggle.addEventListener('click', () => this.setTalkOpen(!document.body.classList.contains('talk-open')));
    this.els.flip.addEventListener('click', () => {
      this.flipped = !this.flipped;
      this.renderBoards(true);
      this.renderClocks();
    });
    this.nameInput.value = storageGet(NAME_KEY) ?? '';
    this.nameInput.addEventListener('change', () => {
      const name = cleanName(this.nameInput.value);
      if (name) storageSet(NAME_KEY, name);
    });

    const matchHeader = siteHeader(
      this.els.header,
      this.els.conn,
      h('span', { class: 'header-tools' }, this.els.ping, this.els.flip, this.els.talkToggle, h('label', { class: 'sound', title: 'sounds' }, soundBox, h('span', {}, ' Sounds'))),
    );
    matchHeader.classList.add('match-top');

    fill(
      this.root,
      matchHeader,
      h(
        'main',
        { class: 'match' },
        h('div', { class: 'boards' }, this.views.main.el, this.views.side.el),
        h(
          'aside',
          { class: 'panel' },
          this.els.result,
          this.els.seats,
          this.els.actions,
          this.els.talk,
          h(
            'section',
            { class: 'record' },
            h('h3', {}, 'Moves'),
            this.els.replay,
            h(
              'div',
              { class: 'move-lists' },
              h('div', { class: 'move-list' }, h('h4', {}, 'Board A'), this.els.movesA),
              h('div', { class: 'move-list' }, h('h4', {}, 'Board B'), this.els.movesB),
            ),
            h('p', {}, h('a', { href: `/api/matches/${encodeURIComponent(this.id)}/bpgn`, download: `${this.id}.bpgn` }, 'Download BPGN')),
          ),
          h('section', { class: 'share' }, h('h3', {}, 'Invite'), h('div', { class: 'row' }, shareInput, copyButton)),
        ),
      ),
    );
    document.addEventListener('keydown', e => this.onKey(e));
    window.setInterval(() => this.renderClocks(), 100);
    window.__bughouseTest = {
      dropSocket: () => this.conn.drop(),
      pending: () => this.conn.outbox.size,
    };
    onAccount(account => {
      const before = this.account;
      this.account = account;
      // Signed in or out on this page: the websocket says who it is at its handshake, so it
      // opens again.
      if (before !== undefined && (before?.username ?? null) !== (account?.username ?? null)) this.conn.drop();
      this.renderPanels();
    });
    this.conn.start();
    this.renderAll();
  }

  /** A move of ours is on its way to the server (sent or waiting for the connection). */
  private get pending(): boolean {
    return this.conn.outbox.has('move');
  }

  private renderConn(bad = this.els.conn.classList.contains('bad')): void {
    const waiting = this.conn.outbox.size;
    const parts = [this.connStatus];
    if (waiting && !this.conn.open) parts.push(`${waiting} action${waiting > 1 ? 's' : ''} waiting to be sent`);
    this.els.conn.textContent = parts.filter(Boolean).join(' · ');
    this.els.conn.classList.toggle('bad', bad);
  }

  /** Opens or closes the partner talk (a drawer on a phone, always open on a wide screen). */
  private setTalkOpen(open: boolean): void {
    document.body.classList.toggle('talk-open', open);
    this.els.talkToggle.setAttribute('aria-expanded', String(open));
    if (open) this.els.talkToggle.classList.remove('unread');
    if (open) this.els.talkLog.scrollTop = this.els.talkLog.scrollHeight;
  }

  // The server's messages.

  private onMessage(msg: ServerMessage): void {
    switch (msg.type) {
      case 'state':
        this.onState(msg.state, msg.you);
        break;
      case 'seats':
        // Someone connected or went away: only the seats changed.
        if (!this.state) return;
        this.state.seats = msg.seats;
        // The boards' player labels show who is connected too.
        this.renderAll();
        break;
      case 'seated':
        storageSet(tokenKey(this.id), msg.token);
        this.you = msg.seat;
        this.standing = false;
        this.renderAll();
        break;
      case 'moved': {
        const st = this.state;
        if (!st || !this.takeSeq(msg.seq)) return;
        this.setBoard(msg.board);
        this.setBoard(msg.other);
        if (msg.mv.ply >= st.moves.length) st.moves.push(msg.mv);
        st.clocks = msg.clocks;
        this.clocksAt = performance.now();
        if (st.status === 'waiting') st.status = 'playing';
        this.positions.set(msg.mv.ply + 1, this.fens());
        if (msg.mv.seat === this.you) this.dropRole = null;
        play(msg.mv.san.includes('x') ? 'capture' : 'move');
        this.renderNextFrame();
        break;
      }
      case 'ended': {
        const st = this.state;
        if (!st || !this.takeSeq(msg.seq)) return;
        st.result = msg.result;
        st.clocks = msg.clocks;
        this.clocksAt = performance.now();
        // Under knsb-1988 an `ended` may close one game while the other goes on: one board
        // has its result, the other still `*`.
        const oneGameOnly =
          bothGamesPlayedOut(st.settings) && msg.result.boards.filter(b => b !== '*').length === 1;
        if (!oneGameOnly) {
          st.status = 'finished';
          st.draw_offers = [];
          this.dropRole = null;
        }
        play('end');
        this.renderAll();
        this.maybeFetchPositions();
        break;
      }
      case 'draw_offers':
        if (!this.state || !this.takeSeq(msg.seq)) return;
        this.state.draw_offers = msg.seats;
        this.renderPanels();
        break;
      case 'talk': {
        // The server sends our own messages back too: each is shown once, by its number.
        if (this.talkLog.has(msg.n)) return;
        const { type: _type, ...entry } = msg;
        this.talkLog.set(msg.n, entry);
        if (msg.from !== this.you) {
          play('talk');
          if (!document.body.classList.contains('talk-open')) this.els.talkToggle.classList.add('unread');
        }
        this.renderTalkLog();
        break;
      }
      case 'ack':
        if (msg.lag_ms !== undefined) this.setLag(msg.lag_ms);
        break;
      case 'rating_changes': {
        if (!this.state) return;
        const { type: _type, ...changes } = msg;
        this.state.rating_changes = changes;
        this.renderPanels();
        break;
      }
      case 'rematch':
        this.rematchId = msg.match_id;
        // The server opens the rematch seats with the players' old secrets: carry ours over.
        {
          const token = storageGet(tokenKey(this.id));
          if (token) storageSet(tokenKey(msg.match_id), token);
        }
        if (this.you) location.assign(`/m/${encodeURIComponent(msg.match_id)}`);
        else this.renderPanels();
        break;
      case 'pong':
        if (msg.lag_ms !== undefined) this.setLag(msg.lag_ms);
        break;
      case 'error':
        // An error with an id answers one of our actions: `onSettled` has dealt with it.
        if (msg.id === undefined) this.onError(msg.code, msg.message);
        break;
    }
  }

  /**
   * Whether a numbered event is to be applied: not if it is already in the state (its number is
   * at most the last applied); on a gap (a number skipped) the page says hello again, which
   * answers with the whole state, and drops the events until it comes.
   */
  private takeSeq(seq: number): boolean {
    if (this.resyncing) return false;
    if (seq <= this.lastSeq) return false;
    if (seq > this.lastSeq + 1) {
      this.resyncing = true;
      this.conn.resync();
      return false;
    }
    this.lastSeq = seq;
    return true;
  }

  /** The server answered an action of ours: done (`ack`) or refused (`error`). */
  private onSettled(action: PendingAction, answer: ServerMessage): void {
    if (answer.type === 'error') {
      const what = action.msg.type === 'move' ? `Move ${action.msg.uci} refused` : `${action.msg.type.replace('_', ' ')} refused`;
      toast(`${what}: ${answer.message || answer.code}`);
      if (action.msg.type === 'stand') this.standing = false;
    }
    if (action.msg.type === 'move') {
      // Refused: the boards go back to what the server last showed; done: the move is free again.
      this.renderBoards(answer.type === 'error');
    }
    this.renderConn();
  }

  private setLag(ms: number): void {
    this.lagMs = ms;
    const text = this.you ? `lag ${Math.round(ms)} ms` : '';
    this.views.main.setLag(text);
    this.views.side.setLag(text);
  }

  private onState(state: MatchState, you: SeatName | null): void {
    const first = this.state === null;
    this.state = state;
    this.you = you;
    this.clocksAt = performance.now();
    this.positions.set(state.moves.length, this.fens());
    // The state has every numbered event up to `seq`; a later state (after a server restart the
    // numbering jumps forward) replaces the count either way.
    this.lastSeq = state.seq;
    this.resyncing = false;
    // The talk is rebuilt from the team's log, so a reload shows the history.
    this.talkLog.clear();
    for (const entry of state.talk_log ?? []) this.talkLog.set(entry.n, entry);
    // Moves sent before a reconnection stay in the outbox until answered: nothing to forget.
    const fresh = this.freshConnection;
    this.freshConnection = false;
    if (you === null && this.standing) {
      storageSet(tokenKey(this.id), null);
      this.standing = false;
    }
    if (first && state.status === 'finished') this.replay = null;
    this.renderAll(fresh);
    this.renderTalkLog();
    if (this.lagMs !== null) this.setLag(this.lagMs);
    this.maybeFetchPositions();
    this.maybeAutoSit();
  }

  /** Takes the seat a lobby link asked for (`?sit=WhiteA`), once, if it is still free. */
  private maybeAutoSit(): void {
    const seat = this.autoSit;
    const st = this.state;
    if (!seat || !st) return;
    this.autoSit = null;
    history.replaceState(history.state, '', location.pathname);
    if (this.you || st.status !== 'waiting') return;
    const info = st.seats.find(s => s.seat === seat);
    if (info && (info.name !== null || info.bot)) {
      toast(`${seat} was taken meanwhile: choose another seat.`, 'info');
      return;
    }
    this.sit(seat);
  }

  private onError(code: string, message: string): void {
    if (code === 'bad_token') {
      // The stored seat secret opens no seat of this match (stale, or of an older server): it
      // is forgotten and the page watches.
      storageSet(tokenKey(this.id), null);
      this.tokenRefused = true;
      toast('Your saved seat is not valid for this match: you are watching.', 'info');
      this.renderPanels();
      return;
    }
    if (code === 'no_such_match' && !this.state) {
      this.conn.stop();
      fill(
        this.root,
        siteHeader(),
        h('main', { class: 'notfound' }, h('h2', {}, 'No such match'), h('p', {}, message), h('p', {}, h('a', { href: '/' }, 'Back to the lobby'))),
      );
      return;
    }
    toast(message || code);
    // An error without an id answers no action of ours that waits; those that can answer a
    // move put the boards back as the server last showed them.
    if (['illegal_move', 'not_your_turn', 'game_over', 'not_seated', 'rate_limited', 'bad_message', 'too_large'].includes(code)) {
      this.renderBoards(true);
    }
  }

  private setBoard(board: BoardState): void {
    const st = this.state;
    if (!st) return;
    const i = board.board === 'A' ? 0 : 1;
    st.boards[i] = board;
  }

  private boardState(b: BoardName): BoardState {
    return this.state!.boards[b === 'A' ? 0 : 1];
  }

  private fens(): [string, string] {
    return [this.boardState('A').fen, this.boardState('B').fen];
  }

  /** Sends an action (with an id, again until the server answers it). */
  private act(msg: ActionMessage): void {
    this.conn.act(msg);
    if (!this.conn.open) toast('Not connected to the server: it will be sent once the connection is back.', 'info');
    this.renderConn();
  }

  // Moves by the player.

  private onUserMove(view: BoardView, orig: string, dest: string, meta: MoveMetadata): void {
    const b = view.board;
    if (!this.state || !this.you || !b) return;
    const bs = this.boardState(b);
    const legal = bs.legal ?? null;
    const pieces = pieceMap(bs.fen);
    const piece = pieces.get(orig);
    let options: string[];
    if (legal) {
      options = [...new Set(ucisFor(legal, orig, dest, pieces))];
      if (options.length === 0) {
        view.resync();
        return;
      }
    } else {
      // No legal list from the server: let it judge.
      options = isPromotion(piece, dest) ? ['q', 'r', 'b', 'n'].map(p => `${orig}${dest}${p}`) : [`${orig}${dest}`];
    }
    if (options.length === 1) {
      this.sendMove(options[0]!, view);
      return;
    }
    const roles = promotionRoles(options);
    const pick = (role: Role): string | undefined => options.find(u => u[4] === letterOfRole(role));
    if (meta.premove) {
      const uci = pick(roles.includes('queen') ? 'queen' : roles[0]!);
      if (uci) this.sendMove(uci, view);
      else view.resync();
      return;
    }
    view.askPromotion(dest, seatColor(this.you), roles, role => {
      const uci = role ? pick(role) : undefined;
      if (uci) this.sendMove(uci, view);
      else view.resync();
    });
  }

  private onUserDrop(view: BoardView, role: Role, key: string, _meta: MoveMetadata): void {
    const b = view.board;
    this.dropRole = null;
    this.dragRole = null;
    if (!this.state || !b) return;
    const legal = this.boardState(b).legal;
    const uci = dropUci(role, key);
    if (legal && !legal.includes(uci)) {
      view.resync();
      return;
    }
    this.sendMove(uci, view);
  }

  private sendMove(uci: string, view: BoardView): void {
    this.act({ type: 'move', uci });
    this.dropRole = null;
    view.setDropSquares([]);
  }

  private onPocketPick(role: PocketRole): void {
    this.dropRole = this.dropRole === role ? null : role;
    this.renderBoards();
  }

  private onPocketDrag(view: BoardView, role: PocketRole): void {
    this.dragRole = role;
    const legal = view.board ? this.boardState(view.board).legal : null;
    if (legal && view.input?.myTurn) view.setDropSquares(dropSquares(legal, role));
    const end = (): void => {
      document.removeEventListener('mouseup', end);
      document.removeEventListener('touchend', end);
      setTimeout(() => {
        this.dragRole = null;
        const picked = this.dropRole;
        view.setDropSquares(picked && legal && view.input?.myTurn ? dropSquares(legal, picked) : []);
      }, 0);
    };
    document.addEventListener('mouseup', end);
    document.addEventListener('touchend', end);
  }

  // Rendering.

  /**
   * Boards and panels drawn once for all the moves that arrived since the last frame. Bots on
   * the other board may play a hundred moves a second; drawn at each one, the page fell behind
   * and a player's clicks (a resignation) waited seconds for it.
   */
  private renderNextFrame(): void {
    if (this.frameQueued) return;
    this.frameQueued = true;
    requestAnimationFrame(() => {
      this.frameQueued = false;
      this.renderBoards();
      this.renderPanels();
    });
  }

  private renderAll(force = false): void {
    this.renderHeader();
    this.renderBoards(force);
    this.renderPanels();
    this.renderClocks();
  }

  private renderHeader(): void {
    const st = this.state;
    if (!st) {
      fill(this.els.header, h('span', {}, `match ${this.id}`));
      return;
    }
    const seated = st.seats.filter(s => s.name !== null || s.bot).length;
    const status =
      st.status === 'waiting' ? `waiting for players (${seated}/4)` : st.status === 'playing' ? 'playing' : 'finished';
    fill(
      this.els.header,
      h(
        'span',
        {
          class: 'rules',
          title: st.settings.map(r => `${r.field} = ${r.value}`).join('\n'),
        },
        st.rules,
      ),
      h('span', { class: 'tc' }, st.time_control),
      h('span', { class: st.rated ? 'rated-tag rated' : 'rated-tag casual' }, st.rated ? 'rated' : 'casual'),
      h('span', { class: `status ${st.status}` }, status),
    );
  }

  private renderBoards(force = false): void {
    const st = this.state;
    if (!st) return;
    const layout = layoutFor(this.you, this.flipped);
    const pairs: [BoardView, BoardName, Color][] = [
      [this.views.main, layout.main, layout.mainOrientation],
      [this.views.side, layout.side, layout.sideOrientation],
    ];
    for (const [view, b, orientation] of pairs) {
      const input = this.boardInput(b, orientation);
      view.render(input, force || view.board !== b);
      if (input.myColor && input.myTurn) this.playPremoves(view, b);
    }
  }

  /** A premove or predrop stored by chessground goes out when it is legal now. */
  private playPremoves(view: BoardView, b: BoardName): void {
    const legal = this.boardState(b).legal ?? null;
    const s = view.cg.state;
    if (s.premovable.current) view.cg.playPremove();
    else if (s.predroppable.current) view.cg.playPredrop(d => !legal || legal.includes(dropUci(d.role, d.key)));
  }

  private boardInput(b: BoardName, orientation: Color): BoardInput {
    const st = this.state!;
    const i = b === 'A' ? 0 : 1;
    const live = this.replay === null;
    let fen: string;
    let lastMove: string[] | undefined;
    let check: boolean;
    let legal: string[] | null = null;
    if (live) {
      const bs = this.boardState(b);
      fen = bs.fen;
      lastMove = lastMoveKeys(bs.last_move);
      check = bs.check;
      legal = bs.legal ?? null;
    } else {
      const fens = this.positions.get(this.replay!) ?? this.fens();
      fen = fens[i]!;
      const last = st.moves
        .slice(0, this.replay!)
        .filter(m => seatBoard(m.seat) === b)
        .at(-1);
      lastMove = lastMoveKeys(last?.uci);
      check = !!last && /[+#]$/.test(last.san);
    }
    const parsed = parseFen(fen);
    const boardResult = st.result?.boards[i];
    const boardOver = !!boardResult && boardResult !== '*';
    const bs = this.boardState(b);
    const mine =
      live &&
      this.you !== null &&
      seatBoard(this.you) === b &&
      st.status === 'playing' &&
      !boardOver &&
      (bs.verdict === 'ongoing' || bs.verdict === 'waiting');
    const myColor = mine ? seatColor(this.you!) : undefined;
    const myTurn = mine && parsed.turn === myColor && !this.pending;
    const role = this.dropRole ?? this.dragRole;
    const player = (color: Color): PlayerLine => {
      const seat = seatOf(b, color);
      const info = st.seats.find(s => s.seat === seat);
      return {
        seat,
        name: info?.name ?? (info?.bot ? 'bot' : '—'),
        you: this.you === seat,
        connected: !!info?.connected,
        bot: !!info?.bot,
        toMove: st.status === 'playing' && !boardOver && parsed.turn === color,
      };
    };
    let label = '';
    if (live && st.status !== 'waiting') {
      if (bs.verdict === 'checkmate') label = 'checkmate';
      else if (bs.verdict === 'stalemate') label = 'stalemate';
      else if (bs.verdict === 'waiting') label = `${parsed.turn} waits for a piece`;
    }
    if (boardOver) label = `board ${b}: ${boardResult}${label ? ` (${label})` : ''}`;
    return {
      board: b,
      orientation,
      fen,
      lastMove,
      check,
      myColor,
      myTurn,
      dests: legal ? uciToDests(legal, pieceMap(fen)) : 'free',
      dropSquares: myTurn && role && legal ? dropSquares(legal, role) : [],
      selectedRole: mine ? this.dropRole : null,
      players: { top: player(opposite(orientation)), bottom: player(orientation) },
      label,
    };
  }

  private renderClocks(): void {
    const st = this.state;
    if (!st) return;
    let times: number[];
    let running: SeatName[] = [];
    const low = lowTimeMs(parseTimeControl(st.time_control)?.baseMs ?? 0);
    if (this.replay !== null) {
      const base = parseTimeControl(st.time_control)?.baseMs ?? 0;
      times = clocksAfter(st.moves, this.replay, base);
    } else {
      const elapsed = performance.now() - this.clocksAt;
      running = st.status === 'playing' ? st.clocks.running : [];
      times = SEATS.map((seat, i) => liveRemaining(st.clocks.remaining_ms[i] ?? 0, running.includes(seat), elapsed));
    }
    for (const view of [this.views.main, this.views.side]) {
      const input = view.input;
      if (!input) continue;
      for (const side of ['top', 'bottom'] as const) {
        const seat = input.players[side].seat;
        const ms = times[seatIndex(seat)] ?? 0;
        const el = view.clockEls[side];
        const text = formatClock(ms);
        if (el.textContent !== text) el.textContent = text;
        el.classList.toggle('running', running.includes(seat));
        el.classList.toggle('low', ms < low && ms > 0);
        el.classList.toggle('flag', ms <= 0);
        // One short sound the first time one's own clock runs low.
        if (seat === this.you && ms < low && ms > 0 && running.includes(seat) && !this.lowWarned.has(seat)) {
          this.lowWarned.add(seat);
          play('low');
        }
      }
    }
  }

  private renderPanels(): void {
    this.renderHeader();
    this.renderResult();
    this.renderSeats();
    this.renderActions();
    this.renderTalk();
    this.renderMoves();
    this.renderReplay();
  }

  /** The names in seat order (the draw offer names the offering seats). */
  private seatNames(): string {
    return SEATS.map(seat => this.seatName(seat)).join('|');
  }

  private seatName(seat: SeatName): string {
    const info = this.state?.seats.find(s => s.seat === seat);
    return info?.name ?? (info?.bot ? 'bot' : seat);
  }

  private renderResult(): void {
    const st = this.state;
    const el = this.els.result;
    if (!st || st.status !== 'finished' || !st.result) {
      el.hidden = true;
      return;
    }
    el.hidden = false;
    const r = st.result;
    const outcome = this.you ? outcomeFor(r.result, this.you) : null;
    fill(
      el,
      h('div', { class: 'score' }, r.result),
      h('div', { class: 'verdict' }, resultText(r.result)),
      outcome ? h('div', { class: `outcome ${outcome === 'You win' ? 'win' : outcome === 'You lose' ? 'loss' : 'draw'}` }, outcome) : null,
      h('div', { class: 'reason' }, r.reason),
      r.boards.some(b => b !== '*')
        ? h('div', { class: 'boards-result' }, `board A ${r.boards[0]} · board B ${r.boards[1]}`)
        : null,
      this.you
        ? h(
            'div',
            { class: 'row' },
            h('button', { type: 'button', onclick: () => this.act({ type: 'rematch', swap: false }) }, 'Rematch'),
            h('button', { type: 'button', onclick: () => this.act({ type: 'rematch', swap: true }) }, 'Rematch, partners swapped'),
          )
        : null,
      this.rematchId ? h('p', {}, h('a', { href: `/m/${encodeURIComponent(this.rematchId)}` }, 'Watch the rematch')) : null,
      st.rated ? this.ratingChanges(st.rating_changes ?? null) : null,
    );
  }

  /** What a rated match changed: each player's rating and each team's, `1500 → 1662 (+162)`. */
  private ratingChanges(changes: RatingChanges | null): HTMLElement {
    if (!changes) return h('div', { class: 'rating-changes pending' }, h('p', { class: 'hint' }, 'Applying the ratings…'));
    const line = (label: Node | string, before: number, after: number, delta: number, mine: boolean): HTMLElement =>
      h(
        'li',
        { class: mine ? 'mine' : '' },
        h('span', { class: 'who' }, label),
        h('span', { class: 'change' }, changeText(before, after, delta)),
      );
    return h(
      'div',
      { class: 'rating-changes' },
      h('h4', {}, 'Ratings'),
      h(
        'ul',
        { class: 'players' },
        changes.players.map(p =>
          line(h('a', { href: profileUrl(p.username) }, p.username), p.before, p.after, p.delta, p.seat === this.you),
        ),
      ),
      changes.teams.length
        ? h(
            'ul',
            { class: 'teams' },
            changes.teams.map(t =>
              line(`${t.usernames[0]} & ${t.usernames[1]}`, t.before, t.after, t.delta, !!this.you && t.seats.includes(this.you)),
            ),
          )
        : null,
    );
  }

  private botLevelChoice(): HTMLElement {
    const select = h(
      'select',
      { id: 'bot-level', name: 'bot-level' },
      BOT_LEVELS.map(l => h('option', { value: l, selected: l === this.botLevel }, botLevelLabel(l))),
    );
    select.addEventListener('change', () => {
      this.botLevel = Number(select.value);
    });
    return h('p', { class: 'bot-level' }, h('label', { for: 'bot-level' }, 'Bot level '), select);
  }

  private renderSeats(): void {
    const st = this.state;
    const el = this.els.seats;
    if (!st) {
      fill(el, h('p', { class: 'hint' }, 'Connecting…'));
      return;
    }
    const waiting = st.status === 'waiting';
    const row = (seat: SeatName): HTMLElement => {
      const info = st.seats.find(s => s.seat === seat);
      const taken = !!info && (info.name !== null || info.bot);
      const mine = this.you === seat;
      const change = st.rating_changes?.players.find(p => p.seat === seat);
      const buttons: HTMLElement[] = [];
      if (waiting && !taken && !this.you && (!st.rated || this.account))
        buttons.push(h('button', { type: 'button', class: 'primary', onclick: () => this.sit(seat) }, 'Sit here'));
      if (waiting && !taken && (!st.rated || st.allow_bots))
        buttons.push(
          h(
            'button',
            { type: 'button', onclick: () => this.act({ type: 'add_bot', seat, level: this.botLevel }) },
            'Add bot',
          ),
        );
      if (waiting && mine)
        buttons.push(
          h(
            'button',
            {
              type: 'button',
              onclick: () => {
                this.act({ type: 'stand' });
                this.standing = true;
              },
            },
            'Stand up',
          ),
        );
      return h(
        'li',
        { class: `seat-row${mine ? ' mine' : ''}` },
        h('span', { class: `dot${info?.connected || info?.bot ? ' on' : ''}` }),
        h('span', { class: 'seat' }, seat),
        h(
          'span',
          { class: 'player-name' },
          taken && info!.account && info!.name ? h('a', { href: profileUrl(info!.name) }, info!.name) : taken ? (info!.name ?? 'bot') : 'free',
        ),
        change ? h('span', { class: 'rating-change', title: 'rating change' }, changeText(change.before, change.after, change.delta)) : null,
        info?.bot ? h('span', { class: 'tag' }, 'bot') : null,
        mine ? h('span', { class: 'tag you' }, 'you') : null,
        h('span', { class: 'buttons' }, buttons),
      );
    };
    const guest = this.account === null;
    const free = st.seats.filter(s => s.name === null && !s.bot).map(s => s.seat);
    // Bots may sit in a casual match, and in a rated one only if its creator allowed them.
    const botsMay = !st.rated || st.allow_bots;
    fill(
      el,
      h('h3', {}, 'Seats'),
      h('ul', { class: 'team' }, row('WhiteA'), row('BlackB')),
      h('ul', { class: 'team' }, row('BlackA'), row('WhiteB')),
      waiting && !this.you && guest && !st.rated
        ? h('p', { class: 'name-field' }, h('label', { for: 'player-name' }, 'Your name '), this.nameInput)
        : null,
      waiting && !this.you && this.account ? h('p', { class: 'hint sit-as' }, `You sit as ${this.account.username}.`) : null,
      waiting && !this.you && guest && st.rated
        ? h('p', { class: 'hint sign-in-to-sit' }, 'This match is rated: sign in (top right) to sit.')
        : null,
      waiting && botsMay && free.length > 0 ? this.botLevelChoice() : null,
      this.botOffer(waiting, botsMay ? free : []),
      this.tokenRefused && !this.you ? h('p', { class: 'hint watching' }, 'You are watching: your saved seat was not valid for this match.') : null,
    );
  }

  /**
   * After a seated player has waited as long as he chose in the lobby (else
   * {@link BOT_OFFER_MS}), the offer to fill the free seats with bots of about the waiting
   * players' strength: the level the lobby gives the match (its published rating nearest their
   * mean rating); he may pick another level.
   */
  private botOffer(waiting: boolean, free: SeatName[]): HTMLElement | null {
    if (!waiting || !this.you || free.length === 0) {
      this.waitingSince = null;
      window.clearTimeout(this.botOfferTimer);
      this.botOfferTimer = undefined;
      return null;
    }
    const wait = window.__bughouseBotOfferMs ?? botWaitMs(storageGet(BOT_WAIT_KEY));
    // The player chose never to be offered bots (he may still add one by hand).
    if (wait === 0) return h('p', { class: 'hint waiting-note' }, 'Waiting for players to join…');
    const now = performance.now();
    if (this.waitingSince === null) {
      this.waitingSince = now;
      this.botLevel = botLevelFor(this.account?.rating?.rating);
    }
    const left = this.waitingSince + wait - now;
    if (left > 0) {
      if (this.botOfferTimer === undefined)
        this.botOfferTimer = window.setTimeout(() => {
          this.botOfferTimer = undefined;
          // The level for the players waiting now, as the lobby rates the match.
          void this.fetchBotLevel().finally(() => this.renderSeats());
        }, left + 50);
      return h('p', { class: 'hint waiting-note' }, 'Waiting for players to join…');
    }
    const fillSeats = (): void => {
      for (const seat of free) this.act({ type: 'add_bot', seat, level: this.botLevel });
    };
    return h(
      'div',
      { class: 'bot-offer' },
      h('p', {}, `Nobody came yet for ${free.length === 1 ? 'the last seat' : `${free.length} seats`}.`),
      h(
        'button',
        { type: 'button', class: 'primary', onclick: fillSeats },
        `${free.length === 1 ? 'Fill the empty seat with a bot' : 'Fill the empty seats with bots'} (level ${this.botLevel})`,
      ),
    );
  }

  /** The bot level the lobby offers this match (nearest its seated players' mean rating). */
  private async fetchBotLevel(): Promise<void> {
    try {
      const res = await fetch('/api/lobby');
      if (!res.ok) return;
      const snapshot = (await res.json()) as LobbySnapshot;
      const level = snapshot.open.find(m => m.match_id === this.id)?.bot_level;
      if (level !== undefined && level >= 1 && level <= 8) this.botLevel = level;
    } catch {
      // the level chosen from the player's own rating stays
    }
  }

  /** Sits in `seat` under the name in the field (or the one remembered). */
  private sit(seat: SeatName): void {
    if (this.account) {
      // The server seats a signed-in player under his account's name.
      this.act({ type: 'sit', seat, name: this.account.username });
      return;
    }
    const name = cleanName(this.nameInput.value) ?? cleanName(storageGet(NAME_KEY));
    if (!name) {
      toast('Enter your name first.', 'info');
      this.nameInput.focus();
      return;
    }
    storageSet(NAME_KEY, name);
    this.act({ type: 'sit', seat, name });
  }

  private renderActions(): void {
    const st = this.state;
    const el = this.els.actions;
    if (!st) {
      fill(el);
      return;
    }
    // Rebuilt only when what it shows changes: a button replaced at every move of a fast game
    // could not be clicked.
    const claimsKey = this.you && st.status === 'playing' ? claimsNow(this.boardState(seatBoard(this.you)), this.you) : [];
    const key = JSON.stringify([this.you, st.status, this.replay !== null, st.draw_offers, claimsKey, !!this.resignArmed, this.seatNames()]);
    if (key === this.actionsKey) return;
    this.actionsKey = key;
    const offers = st.draw_offers;
    const offerText = offers.length
      ? h('p', { class: 'draw-offers' }, `Draw offered by ${offers.map(s => `${this.seatName(s)} (${s})`).join(', ')}`)
      : null;
    if (!this.you || st.status !== 'playing' || this.replay !== null) {
      fill(el, offerText);
      return;
    }
    const iOffer = offers.includes(this.you);
    const drawButton = iOffer
      ? h('button', { type: 'button', onclick: () => this.act({ type: 'withdraw_draw' }) }, 'Withdraw draw offer')
      : h('button', { type: 'button', onclick: () => this.act({ type: 'offer_draw' }) }, offers.length ? 'Accept draw' : 'Offer draw');
    const resign = h('button', { type: 'button', class: 'danger' }, this.resignArmed ? 'Really resign?' : 'Resign');
    resign.addEventListener('click', () => {
      if (this.resignArmed) {
        window.clearTimeout(this.resignArmed);
        this.resignArmed = undefined;
        this.act({ type: 'resign' });
      } else {
        this.resignArmed = window.setTimeout(() => {
          this.resignArmed = undefined;
          this.renderActions();
        }, 3000);
      }
      this.renderActions();
    });
    // Only the claims the server says may be made now on his board.
    const claims = claimsNow(this.boardState(seatBoard(this.you)), this.you).map(claim =>
      h(
        'button',
        { type: 'button', onclick: () => this.act({ type: 'claim_draw', claim }) },
        claim === 'repetition' ? 'Claim draw: repetition' : 'Claim draw: move count',
      ),
    );
    fill(el, h('div', { class: 'row' }, resign, drawButton, claims), offerText);
  }

  private renderTalk(): void {
    const st = this.state;
    const el = this.els.talk;
    if (!st || !this.you || st.talk.length === 0) {
      el.hidden = true;
      this.els.talkToggle.hidden = true;
      return;
    }
    el.hidden = false;
    this.els.talkToggle.hidden = false;
    const partner = partnerOf(this.you);
    const key = `${this.you} ${this.seatName(partner)} ${st.talk.join(',')}`;
    if (key === this.talkKey) return;
    this.talkKey = key;
    const allowed = new Set(st.talk);
    // No local echo: the server sends the message back to both partners, and the log shows
    // that copy.
    const say = (kind: TalkKind, piece?: Piece, text?: string): void => {
      const msg: ActionMessage = { type: 'talk', kind };
      if (piece) msg.piece = piece;
      if (text) msg.text = text;
      this.act(msg);
    };
    const pieceRow = (kind: 'need' | 'dont_give', label: string): HTMLElement =>
      h(
        'div',
        { class: 'row talk-pieces' },
        h('span', { class: 'talk-label' }, label),
        TALK_PIECES.map(p =>
          h(
            'button',
            { type: 'button', class: 'talk-piece-button', title: `${label}: ${roleOfLetter(p)}`, 'aria-label': `${label} ${p}`, onclick: () => say(kind, p) },
            // The piece as the boards draw it, in the player's own colour.
            h('span', { class: 'talk-piece cg-wrap' }, pieceEl(roleOfLetter(p)!, seatColor(this.you!))),
          ),
        ),
      );
    const quick = (['sit', 'go', 'flag'] as const)
      .filter(k => allowed.has(k))
      .map(k => h('button', { type: 'button', onclick: () => say(k) }, k === 'sit' ? 'Sit!' : k === 'go' ? 'Go!' : 'Flag!'));
    let textForm: HTMLElement | null = null;
    if (allowed.has('text')) {
      const input = h('input', { type: 'text', maxlength: MAX_CHAT, placeholder: 'message to partner', 'aria-label': 'message to partner' });
      textForm = h('form', { class: 'row' }, input, h('button', { type: 'submit' }, 'Send'));
      textForm.addEventListener('submit', e => {
        e.preventDefault();
        const text = input.value.trim().slice(0, MAX_CHAT);
        if (text) {
          say('text', undefined, text);
          input.value = '';
        }
      });
    }
    fill(
      this.els.talkControls,
      h('p', { class: 'hint talk-to' }, `to ${this.seatName(partner)} (${partner})`),
      allowed.has('need') ? pieceRow('need', 'Need') : null,
      allowed.has('dont_give') ? pieceRow('dont_give', "Don't give") : null,
      quick.length ? h('div', { class: 'row' }, quick) : null,
      textForm,
    );
  }

  private renderTalkLog(): void {
    // The speaker by the seat's name now (a partner who sat later is shown by his name).
    const entries = [...this.talkLog.values()].sort((a, b) => a.n - b.n).slice(-50);
    fill(
      this.els.talkLog,
      entries.map(e => {
        const mine = e.from === this.you;
        return h(
          'li',
          { class: mine ? 'mine' : '', 'data-n': e.n },
          h('b', {}, `${mine ? 'you' : this.seatName(e.from)}: `),
          talkText(e.kind, e.piece, e.text),
        );
      }),
    );
    this.els.talkLog.scrollTop = this.els.talkLog.scrollHeight;
  }

  private renderMoves(): void {
    const st = this.state;
    if (!st) return;
    const current = this.replay ?? st.moves.length;
    const finished = st.status === 'finished';
    // One list per board, a line per move number: `1. e4 e5`.
    const cell = (mv: MoveInfo | undefined): HTMLElement => {
      if (!mv) return h('span', { class: 'mv empty' });
      const i = mv.ply;
      const jump = finished && this.positions.has(i + 1);
      const el = h(
        'span',
        {
          class: `mv${finished && i + 1 === current ? ' current' : ''}${jump ? ' jump' : ''}`,
          'data-ply': i,
          'data-label': moveLabel(mv),
          title: moveLabel(mv),
        },
        mv.san,
      );
      if (jump) el.addEventListener('click', () => this.goto(i + 1));
      return el;
    };
    for (const [board, list] of [
      ['A', this.els.movesA],
      ['B', this.els.movesB],
    ] as const) {
      fill(
        list,
        moveRows(st.moves, board).map(row =>
          h('li', { class: 'move-row' }, h('span', { class: 'num' }, `${row.number}.`), cell(row.white), cell(row.black)),
        ),
      );
      if (this.replay === null) list.scrollTop = list.scrollHeight;
    }
    if (this.replay !== null) this.root.querySelector('.moves .current')?.scrollIntoView({ block: 'nearest' });
  }

  // Replay of a finished match.

  private maybeFetchPositions(): void {
    const st = this.state;
    if (!st || st.status !== 'finished' || this.positionsFetch !== 'no') return;
    const n = st.moves.length;
    let complete = true;
    for (let k = 0; k <= n; k++) if (!this.positions.has(k)) complete = false;
    if (complete) {
      this.positionsFetch = 'done';
      this.renderPanels();
      return;
    }
    this.positionsFetch = 'loading';
    fetch(positionsUrl(this.id))
      .then(async res => {
        if (!res.ok) throw new Error(String(res.status));
        const list = (await res.json()) as unknown;
        if (!Array.isArray(list)) throw new Error('not a list');
        list.forEach((entry: unknown, k) => {
          if (Array.isArray(entry) && typeof entry[0] === 'string' && typeof entry[1] === 'string')
            this.positions.set(k, [entry[0], entry[1]]);
        });
        this.positionsFetch = 'done';
      })
      .catch(() => {
        this.positionsFetch = 'failed';
      })
      .finally(() => this.renderPanels());
  }

  private knownPlies(): number[] {
    return [...this.positions.keys()].filter(k => k <= (this.state?.moves.length ?? 0)).sort((a, b) => a - b);
  }

  private goto(k: number | null): void {
    const n = this.state?.moves.length ?? 0;
    this.replay = k === null || k >= n ? null : Math.max(0, k);
    this.dropRole = null;
    this.renderBoards(true);
    this.renderPanels();
    this.renderClocks();
  }

  private step(dir: 'first' | 'prev' | 'next' | 'last'): void {
    const st = this.state;
    if (!st) return;
    const n = st.moves.length;
    const known = this.knownPlies();
    const cur = this.replay ?? n;
    let target: number | undefined;
    if (dir === 'first') target = known[0];
    else if (dir === 'last') target = n;
    else if (dir === 'prev') target = known.filter(k => k < cur).at(-1);
    else target = known.find(k => k > cur);
    if (target !== undefined) this.goto(target);
  }

  private onKey(e: KeyboardEvent): void {
    if (this.state?.status !== 'finished') return;
    const t = e.target as HTMLElement | null;
    if (t && (t.tagName === 'INPUT' || t.tagName === 'TEXTAREA')) return;
    const dir = ({ ArrowLeft: 'prev', ArrowRight: 'next', Home: 'first', End: 'last' } as const)[e.key as 'ArrowLeft'];
    if (dir) {
      e.preventDefault();
      this.step(dir);
    }
  }

  private renderReplay(): void {
    const st = this.state;
    const el = this.els.replay;
    if (!st || st.status !== 'finished') {
      el.hidden = true;
      return;
    }
    el.hidden = false;
    const n = st.moves.length;
    const cur = this.replay ?? n;
    const known = this.knownPlies();
    const hasPrev = known.some(k => k < cur);
    const hasNext = known.some(k => k > cur) || cur < n;
    const button = (label: string, title: string, dir: 'first' | 'prev' | 'next' | 'last', enabled: boolean): HTMLElement =>
      h('button', { type: 'button', title, 'aria-label': title, disabled: !enabled, onclick: () => this.step(dir) }, label);
    const note =
      this.positionsFetch === 'loading'
        ? 'loading positions…'
        : this.positionsFetch === 'failed' && known.length < n + 1
          ? 'Step-by-step replay of the whole match is not available from this server; the BPGN download has the full record.'
          : '';
    fill(
      el,
      h(
        'div',
        { class: 'row' },
        button('«', 'first position', 'first', hasPrev),
        button('‹', 'previous move', 'prev', hasPrev),
        h('span', { class: 'ply' }, `${cur} / ${n}`),
        button('›', 'next move', 'next', hasNext),
        button('»', 'final position', 'last', cur < n),
      ),
      note ? h('p', { class: 'hint' }, note) : null,
    );
  }
}

/** `1500 → 1662 (+162)`. */
function changeText(before: number, after: number, delta: number): string {
  const d = Math.round(delta);
  return `${ratingText(before)} → ${ratingText(after)} (${d > 0 ? '+' : d < 0 ? '' : '±'}${d})`;
}
