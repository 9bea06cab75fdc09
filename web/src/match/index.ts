// The match page (`/m/{id}`): seats, both boards, clocks, the record, draw and resign, partner
// talk, result, rematch and replay. Everything comes over the websocket; see docs/protocol.md.
// This file only wires the parts (the directory's other files) and lays them out.

import { onAccount, siteHeader } from '../account';
import { copyText, fill, h, storageGet, storageSet, toast } from '../dom';
import { NAME_KEY, seatParam, tokenKey } from '../helpers';
import { Connection } from '../net';
import { MAX_NAME, type ActionMessage } from '../protocol';
import { setSound, soundOn } from '../sound';
import { ActionsPanel } from './actions';
import { Boards } from './boards';
import { ClockFaces, clockTimes } from './clocks';
import type { MatchContext } from './context';
import { MatchHeader } from './header';
import { MatchModel } from './model';
import { MoveRecord } from './record';
import { ResultPanel } from './result';
import { SeatsPanel } from './seats';
import { MatchSocket } from './socket';
import { TalkPanel } from './talk';

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
  }
}

export function renderMatch(root: HTMLElement, matchId: string): void {
  // A tournament's seat link names the player (`?name=Ann`): "Sit here" takes that name.
  const name = new URLSearchParams(location.search).get('name')?.trim().slice(0, MAX_NAME);
  if (name) storageSet(NAME_KEY, name);
  new MatchPage(root, matchId).start();
}

class MatchPage implements MatchContext {
  readonly model = new MatchModel();
  readonly conn: Connection;
  private readonly header: MatchHeader;
  private readonly boards: Boards;
  private readonly clocks = new ClockFaces();
  private readonly result: ResultPanel;
  private readonly seats: SeatsPanel;
  private readonly actions: ActionsPanel;
  private readonly talk: TalkPanel;
  private readonly record: MoveRecord;
  private readonly socket: MatchSocket;
  private readonly flip = h('button', { type: 'button', class: 'flip', title: 'flip the boards', 'aria-label': 'Flip boards' }, '⇅');
  /** A redraw after `moved` messages is waiting for the next frame. */
  private frameQueued = false;

  constructor(
    readonly root: HTMLElement,
    readonly id: string,
  ) {
    this.header = new MatchHeader(this);
    this.boards = new Boards(this);
    this.result = new ResultPanel(this);
    this.seats = new SeatsPanel(this);
    this.actions = new ActionsPanel(this);
    this.talk = new TalkPanel(this);
    this.record = new MoveRecord(this);
    this.socket = new MatchSocket(
      this,
      { boards: this.boards, seats: this.seats, talk: this.talk, record: this.record },
      seatParam(location.search),
    );
    this.conn = new Connection({
      hello: () => {
        const token = storageGet(tokenKey(this.id));
        return token ? { type: 'hello', match_id: this.id, token } : { type: 'hello', match_id: this.id };
      },
      message: msg => this.socket.onMessage(msg),
      settled: (action, answer) => this.socket.onSettled(action, answer),
      status: (status, retry) => {
        this.header.setStatus(status, retry);
        if (status === 'open') this.model.freshConnection = true;
      },
      rtt: ms => this.header.addRtt(ms),
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
    this.flip.addEventListener('click', () => {
      this.model.flipped = !this.model.flipped;
      this.renderBoards(true);
      this.renderClocks();
    });

    const matchHeader = siteHeader(
      this.header.info,
      this.header.conn,
      h(
        'span',
        { class: 'header-tools' },
        this.header.ping,
        this.flip,
        this.talk.toggle,
        h('label', { class: 'sound', title: 'sounds' }, soundBox, h('span', {}, ' Sounds')),
      ),
    );
    matchHeader.classList.add('match-top');

    fill(
      this.root,
      matchHeader,
      h(
        'main',
        { class: 'match' },
        h('div', { class: 'boards' }, this.boards.main.el, this.boards.side.el),
        h(
          'aside',
          { class: 'panel' },
          this.result.el,
          this.seats.el,
          this.actions.el,
          this.talk.el,
          h(
            'section',
            { class: 'record' },
            h('h3', {}, 'Moves'),
            this.record.replayEl,
            h(
              'div',
              { class: 'move-lists' },
              h('div', { class: 'move-list' }, h('h4', {}, 'Board A'), this.record.movesA),
              h('div', { class: 'move-list' }, h('h4', {}, 'Board B'), this.record.movesB),
            ),
            h('p', {}, h('a', { href: `/api/matches/${encodeURIComponent(this.id)}/bpgn`, download: `${this.id}.bpgn` }, 'Download BPGN')),
          ),
          h('section', { class: 'share' }, h('h3', {}, 'Invite'), h('div', { class: 'row' }, shareInput, copyButton)),
        ),
      ),
    );
    document.addEventListener('keydown', e => this.record.onKey(e));
    window.setInterval(() => this.renderClocks(), 100);
    window.__bughouseTest = {
      dropSocket: () => this.conn.drop(),
      pending: () => this.conn.outbox.size,
    };
    onAccount(account => {
      const before = this.model.account;
      this.model.account = account;
      // Signed in or out on this page: the websocket says who it is at its handshake, so it
      // opens again.
      if (before !== undefined && (before?.username ?? null) !== (account?.username ?? null)) this.conn.drop();
      this.renderPanels();
    });
    this.conn.start();
    this.renderAll();
  }

  act(msg: ActionMessage): void {
    this.conn.act(msg);
    if (!this.conn.open) toast('Not connected to the server: it will be sent once the connection is back.', 'info');
    this.renderConn();
  }

  renderAll(force = false): void {
    this.header.render();
    this.renderBoards(force);
    this.renderPanels();
    this.renderClocks();
  }

  renderBoards(force = false): void {
    this.boards.render(force);
  }

  /**
   * Boards and panels drawn once for all the moves that arrived since the last frame. Bots on
   * the other board may play a hundred moves a second; drawn at each one, the page fell behind
   * and a player's clicks (a resignation) waited seconds for it.
   */
  renderNextFrame(): void {
    if (this.frameQueued) return;
    this.frameQueued = true;
    requestAnimationFrame(() => {
      this.frameQueued = false;
      this.renderBoards();
      this.renderPanels();
    });
  }

  renderPanels(): void {
    this.header.render();
    this.result.render();
    this.seats.render();
    this.actions.render();
    this.talk.render();
    this.record.renderMoves();
    this.record.renderReplay();
  }

  renderClocks(): void {
    const m = this.model;
    if (!m.state) return;
    this.clocks.render(this.boards.views, clockTimes(m.state, m.replay, performance.now() - m.clocksAt), m.you);
  }

  renderConn(bad?: boolean): void {
    this.header.renderConn(bad);
  }
}
