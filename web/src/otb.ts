// The over-the-board clock page, `/otb` (a new table) and `/otb/{id}#key` (one table): one
// tablet between two boards shows the four clocks, a player presses his side after moving, and
// claims and the arbiter's rulings go to the server, which answers each with the rulebook's
// article and its consequence (crates/core/src/otb). The clock runs here between answers;
// events made offline wait in localStorage and are sent when the network is back.

import './otb.css';
import { fill, h, storageGet, storageSet, toast } from './dom';
import { siteHeader } from './account';
import type {
  CreatedOtbTable,
  OtbClaim,
  OtbEvent,
  OtbEventItem,
  OtbRuling,
  OtbTableView,
  SetupFault,
} from './generated/otb';
import type { Piece, SeatName } from './generated/protocol';
import { type LocalClock, localClock } from './otbClock';
import { ARTICLE_TEXT, RULEBOOKS, SEATS, clockText, consequenceText, eventText, seatLabel } from './otbText';

/** The table id of `/otb/{id}`, `''` for `/otb`, `null` for other paths. */
export function otbRoute(path: string): string | null {
  const m = /^\/otb(?:\/([A-Za-z0-9]+))?\/?$/.exec(path);
  return m ? (m[1] ?? '') : null;
}

export function renderOtb(root: HTMLElement, id: string): void {
  if (id === '') renderNewTable(root);
  else new TablePage(root, id).begin();
}

function renderNewTable(root: HTMLElement): void {
  const book = h('select', { 'data-testid': 'otb-rulebook' }, RULEBOOKS.map(([v, label]) => h('option', { value: v }, label)));
  const minutes = h('input', { type: 'number', min: '0.1', step: 'any', value: '5', 'data-testid': 'otb-minutes' });
  const inc = h('input', { type: 'number', min: '0', step: '1', value: '0', 'data-testid': 'otb-increment' });
  const go = async (): Promise<void> => {
    const base = Math.round(Number(minutes.value) * 60);
    const r = await fetch('/api/otb', {
      method: 'POST',
      headers: { 'Content-Type': 'application/json' },
      body: JSON.stringify({ rulebook: book.value, base_seconds: base, increment_seconds: Number(inc.value) }),
    });
    const body = await r.json();
    if (!r.ok) return toast(body.message ?? 'cannot create the table');
    location.assign((body as CreatedOtbTable).url);
  };
  fill(
    root,
    siteHeader(),
    h(
      'main',
      { class: 'otb-new' },
      h('h2', {}, 'Over-the-board table'),
      h('p', {}, 'One tablet between two boards: four clocks, the claims and the arbiter’s decisions by rulebook.'),
      h('label', {}, 'Rulebook', book),
      h('label', {}, 'Minutes per player', minutes),
      h('label', {}, 'Increment (seconds)', inc),
      h('button', { class: 'otb-big primary', 'data-testid': 'otb-create', onclick: () => void go() }, 'Open the table'),
    ),
  );
}

const CLAIMS: readonly [OtbClaim['kind'], string][] = [
  ['flag', 'Flag'],
  ['both_flags', 'Both flags'],
  ['illegal_move', 'Illegal move'],
  ['illegal_move_with_flag', 'Illegal move + flag at once'],
  ['take_back', 'Take back (not pressed)'],
  ['repetition', 'Repetition'],
  ['move_count', '30 moves'],
  ['opponent_cannot_mate', 'Opponent could never mate'],
];

class TablePage {
  private view: OtbTableView | null = null;
  private pending: OtbEventItem[];
  private readonly key: string;
  private claimant: SeatName = 'WhiteA';
  private sending = false;
  private offline = false;
  private observed = new Set<SeatName>();
  private faces = new Map<SeatName, HTMLButtonElement>();
  private panels: Record<string, HTMLElement> = {};

  constructor(
    private readonly root: HTMLElement,
    private readonly id: string,
  ) {
    const fromHash = location.hash.slice(1);
    if (fromHash) storageSet(`otb-key-${id}`, fromHash);
    this.key = fromHash || storageGet(`otb-key-${id}`) || '';
    this.pending = JSON.parse(storageGet(`otb-outbox-${id}`) ?? '[]') as OtbEventItem[];
  }

  begin(): void {
    // The page opens again offline once loaded (web/public/otb-sw.js).
    if ('serviceWorker' in navigator) {
      navigator.serviceWorker.register('/otb-sw.js', { scope: '/otb' }).catch(() => undefined);
    }
    this.layout();
    void this.refresh();
    setInterval(() => this.tick(), 100);
    setInterval(() => void this.flush(), 3000);
    window.addEventListener('online', () => void this.flush());
  }

  private async refresh(): Promise<void> {
    try {
      const r = await fetch(`/api/otb/${this.id}`);
      const body = await r.json();
      if (!r.ok) return toast(body.message ?? 'no such table');
      this.setView(body as OtbTableView);
      this.offline = false;
      this.draw();
      void this.flush();
    } catch {
      // Offline: the last answer kept here, with the events made since, runs the clock.
      const kept = storageGet(`otb-view-${this.id}`);
      if (kept && !this.view) this.view = JSON.parse(kept) as OtbTableView;
      this.offline = true;
      this.draw();
    }
  }

  private setView(view: OtbTableView): void {
    this.view = view;
    storageSet(`otb-view-${this.id}`, JSON.stringify(view));
  }

  private send(event: OtbEvent): void {
    const item: OtbEventItem = { id: Math.floor(Math.random() * 2 ** 52), at_ms: Date.now(), event };
    this.pending.push(item);
    storageSet(`otb-outbox-${this.id}`, JSON.stringify(this.pending));
    this.draw();
    void this.flush();
  }

  /** With nothing to send, asks for the table again, so that a second device (a phone per
   * board, the arbiter's) sees the other's presses and claims; redraws only on a change. */
  private async poll(): Promise<void> {
    if (this.sending || this.pending.length > 0 || !this.view) return;
    try {
      const r = await fetch(`/api/otb/${this.id}`);
      if (!r.ok) return;
      const view = (await r.json()) as OtbTableView;
      this.offline = false;
      const old = this.view;
      // The record and the scoresheet only grow: an answer with no more than the view has is
      // not newer (an answer to a post may have come in between).
      if (this.pending.length > 0 || view.record.length + view.moves.length <= old.record.length + old.moves.length) return;
      this.setView(view);
      this.draw();
    } catch {
      this.offline = true;
    }
  }

  private async flush(): Promise<void> {
    if (this.pending.length === 0) return this.poll();
    if (this.sending) return;
    this.sending = true;
    const batch = this.pending.slice();
    try {
      const r = await fetch(`/api/otb/${this.id}/events`, {
        method: 'POST',
        headers: { 'Content-Type': 'application/json' },
        body: JSON.stringify({ key: this.key, events: batch }),
      });
      const body = await r.json();
      this.offline = false;
      if (!r.ok) {
        toast(body.message ?? 'refused');
        if (r.status === 400 || r.status === 403) this.pending = [];
      } else {
        const view = body as OtbTableView;
        const done = new Set<number>([...view.applied, ...view.rejected.map((x) => x.id)]);
        for (const x of view.rejected) toast(x.error);
        this.pending = this.pending.filter((p) => !done.has(p.id));
        this.setView(view);
      }
      storageSet(`otb-outbox-${this.id}`, JSON.stringify(this.pending));
    } catch {
      this.offline = true;
    } finally {
      this.sending = false;
      this.draw();
    }
  }

  private clock(): LocalClock | null {
    return this.view ? localClock(this.view, this.pending, Date.now()) : null;
  }

  private tick(): void {
    const c = this.clock();
    if (!c) return;
    for (const f of c.faces) {
      const el = this.faces.get(f.seat);
      if (!el) continue;
      const time = el.querySelector('.otb-time');
      if (time) time.textContent = f.flag ? `0:00 ⚑` : clockText(f.remaining);
      el.classList.toggle('running', f.running);
      el.classList.toggle('flag', f.flag);
      el.disabled = !f.running || c.paused;
      // A flag fell here: let the server see it (M5.5 is declared at once).
      if (f.flag && f.running && !this.observed.has(f.seat)) {
        this.observed.add(f.seat);
        this.send({ type: 'observe' });
      }
    }
  }

  private layout(): void {
    const board = (b: 'A' | 'B') => {
      const face = (seat: SeatName) => {
        const el = h(
          'button',
          { class: 'otb-face', 'data-testid': `otb-face-${seat}`, onclick: () => this.send({ type: 'press', seat }) },
          h('span', { class: 'otb-seat' }, seatLabel(seat)),
          h('span', { class: 'otb-time' }, '–'),
        );
        this.faces.set(seat, el);
        return el;
      };
      return h('section', { class: 'otb-board' }, h('h3', {}, `Board ${b}`), face(`Black${b}`), face(`White${b}`));
    };
    this.panels = {
      status: h('div', { class: 'otb-status', 'data-testid': 'otb-status' }),
      decision: h('div', { class: 'otb-decision', 'data-testid': 'otb-decision', 'aria-live': 'polite' }),
      controls: h('div', { class: 'otb-controls' }),
      claims: h('div', { class: 'otb-claims' }),
      sheet: h('div', { class: 'otb-sheet' }),
      record: h('ol', { class: 'otb-record', 'data-testid': 'otb-record' }),
    };
    fill(
      this.root,
      siteHeader(),
      h(
        'main',
        { class: 'otb' },
        this.panels.status,
        h('div', { class: 'otb-boards' }, board('A'), board('B')),
        this.panels.decision,
        this.panels.controls,
        this.panels.claims,
        h('h3', {}, 'Scoresheet (optional)'),
        this.panels.sheet,
        h('h3', {}, 'Record'),
        this.panels.record,
      ),
    );
  }

  private draw(): void {
    const v = this.view;
    if (!v) {
      fill(this.panels.status!, this.offline ? 'Offline: the table will load when the network is back.' : 'Loading…');
      return;
    }
    const c = this.clock()!;
    const book = RULEBOOKS.find(([r]) => r === v.rulebook)?.[1] ?? v.rulebook;
    const waiting = this.pending.filter((p) => p.event.type === 'claim' || p.event.type === 'ruling' || p.event.type === 'forfeit').length;
    fill(
      this.panels.status!,
      h('strong', {}, book),
      ` · ${v.base_ms % 60_000 === 0 ? v.base_ms / 60_000 : `${v.base_ms / 1000}s`}+${v.increment_ms / 1000}`,
      v.pairing ? ` · round ${v.pairing.round}, table ${v.pairing.table}` : '',
      v.result ? h('span', { class: 'otb-result', 'data-testid': 'otb-result' }, ` · result ${v.result}`) : '',
      this.offline ? h('span', { class: 'otb-offline' }, ` · offline: ${this.pending.length} event(s) kept, sent when the network is back`) : '',
      waiting && !this.offline ? ` · ${waiting} claim(s) sent, waiting for the answer` : '',
      waiting && this.offline ? h('span', { class: 'otb-offline' }, ' · claims need the network to be decided') : '',
    );
    this.drawDecision(v);
    this.drawControls(v, c);
    this.drawClaims(v);
    this.drawSheet(v);
    this.drawRecord(v);
    this.tick();
  }

  private drawDecision(v: OtbTableView): void {
    const last = [...v.record].reverse().find((e) => e.decisions.length > 0 && e.event?.type !== 'press');
    if (!last) return fill(this.panels.decision!);
    fill(
      this.panels.decision!,
      last.decisions.map((d) =>
        h(
          'p',
          { class: d.consequence.kind === 'refused' ? 'refused' : '' },
          h('span', { class: 'otb-article', title: ARTICLE_TEXT[d.article] }, d.article),
          ' ',
          consequenceText(d.consequence),
          h('small', {}, ` ${ARTICLE_TEXT[d.article]}`),
        ),
      ),
    );
  }

  private drawControls(v: OtbTableView, c: LocalClock): void {
    const over = v.result !== undefined;
    const startLabel = v.rulebook === 'minerva-2014' ? 'Black players: start both clocks (M6.4)' : 'Start both clocks';
    fill(
      this.panels.controls!,
      !c.started && !over
        ? h('button', { class: 'otb-big otb-start', 'data-testid': 'otb-start', onclick: () => this.send({ type: 'start' }) }, startLabel)
        : '',
      c.started && !c.paused && !over
        ? h('button', { class: 'otb-big', 'data-testid': 'otb-pause', onclick: () => this.send({ type: 'pause' }) }, 'Pause for the arbiter')
        : '',
      c.paused && !over
        ? h('button', { class: 'otb-big', 'data-testid': 'otb-resume', onclick: () => this.send({ type: 'resume' }) }, 'Resume')
        : '',
    );
  }

  private drawClaims(v: OtbTableView): void {
    if (v.result !== undefined) return fill(this.panels.claims!);
    const who = h(
      'div',
      { class: 'otb-who' },
      'Claim by ',
      SEATS.map((s) =>
        h(
          'button',
          {
            class: s === this.claimant ? 'selected' : '',
            'data-testid': `otb-claimant-${s}`,
            onclick: () => {
              this.claimant = s;
              this.drawClaims(v);
            },
          },
          seatLabel(s),
        ),
      ),
    );
    const captured = h('select', { 'data-testid': 'otb-captured' }, h('option', { value: '' }, 'nothing captured'), (['P', 'N', 'B', 'R', 'Q'] as Piece[]).map((p) => h('option', { value: p }, `captured ${p}`)));
    const passed = h('input', { type: 'checkbox', 'data-testid': 'otb-passed' });
    const holds = h('input', { type: 'checkbox', checked: true, 'data-testid': 'otb-holds' });
    const claimButton = ([kind, label]: [OtbClaim['kind'], string]) =>
      h('button', { 'data-testid': `otb-claim-${kind}`, onclick: () => this.claim(kind, captured.value as Piece | '', passed.checked, holds.checked) }, label);
    const setupBoard = h('select', {}, h('option', { value: 'A' }, 'board A'), h('option', { value: 'B' }, 'board B'));
    const fault = h(
      'select',
      {},
      h('option', { value: 'position' }, 'pieces set up wrongly'),
      h('option', { value: 'colours-swapped' }, 'colours swapped'),
      h('option', { value: 'colours-swapped-both' }, 'colours swapped on both boards'),
    );
    const rulingBoard = h('select', { 'data-testid': 'otb-ruling-board' }, h('option', { value: 'A' }, 'board A'), h('option', { value: 'B' }, 'board B'));
    const ruling = h(
      'select',
      { 'data-testid': 'otb-ruling' },
      h('option', { value: '1-0' }, 'White wins'),
      h('option', { value: '0-1' }, 'Black wins'),
      h('option', { value: '1/2-1/2' }, 'draw'),
      h('option', { value: 'play-on' }, 'play on'),
    );
    const deliberate = h('input', { type: 'checkbox' });
    fill(
      this.panels.claims!,
      who,
      h('div', { class: 'otb-buttons' }, CLAIMS.map(claimButton)),
      h('div', { class: 'otb-row' }, 'Illegal move: ', captured, h('label', {}, passed, ' already passed'), h('label', {}, holds, ' partner still holds it')),
      h(
        'div',
        { class: 'otb-row' },
        'Wrong set-up: ',
        setupBoard,
        fault,
        h('button', { 'data-testid': 'otb-claim-setup', onclick: () => this.send({ type: 'claim', claim: { kind: 'wrong_setup', board: setupBoard.value as 'A' | 'B', fault: fault.value as SetupFault } }) }, 'Claim'),
      ),
      h(
        'div',
        { class: 'otb-row otb-arbiter' },
        'Arbiter: ',
        rulingBoard,
        ruling,
        h('button', { 'data-testid': 'otb-rule', onclick: () => this.send({ type: 'ruling', board: rulingBoard.value as 'A' | 'B', ruling: ruling.value as OtbRuling }) }, 'Rule'),
        h('button', { 'data-testid': 'otb-forfeit', onclick: () => this.send({ type: 'forfeit', seat: this.claimant, deliberate: deliberate.checked }) }, `Forfeit ${seatLabel(this.claimant)}`),
        h('label', {}, deliberate, ' deliberate'),
      ),
    );
  }

  private claim(kind: OtbClaim['kind'], piece: Piece | '', passed: boolean, holds: boolean): void {
    const claimant = this.claimant;
    let claim: OtbClaim;
    switch (kind) {
      case 'illegal_move':
        claim = piece ? { kind, claimant, captured: { piece, passed, partner_holds: holds } } : { kind, claimant };
        break;
      case 'take_back':
        claim = { kind, seat: claimant };
        break;
      case 'wrong_setup':
        return;
      default:
        claim = { kind, claimant };
    }
    this.send({ type: 'claim', claim });
  }

  /** Both boards' moves, and a field per board for the next one (SAN or UCI, drops `N@f3`):
   * the server checks it with the rules engine and refuses an illegal one. */
  private drawSheet(v: OtbTableView): void {
    const sheet = this.panels.sheet!;
    const active = document.activeElement;
    // Do not disturb a scorer typing; give the field back its focus after the redraw.
    if (active instanceof HTMLInputElement && sheet.contains(active) && active.value !== '') return;
    const refocus = active instanceof HTMLElement && sheet.contains(active) ? active.dataset.testid?.replace('enter', 'move') : undefined;
    // The side to move on a board: from the moves the server has and those still on their way.
    const toMove = (b: 'A' | 'B'): SeatName => {
      const known = (this.view ?? v).moves.filter((m) => m.seat.endsWith(b)).length;
      const queued = this.pending.filter((p) => p.event.type === 'move' && p.event.seat.endsWith(b)).length;
      return `${(known + queued) % 2 === 0 ? 'White' : 'Black'}${b}` as SeatName;
    };
    const boards = (['A', 'B'] as const).map((b) => {
      const moves = v.moves.filter((m) => m.seat.endsWith(b));
      const seat = toMove(b);
      const text = moves.map((m) => (m.seat.startsWith('White') ? `${m.number}. ${m.san}` : m.san)).join(' ');
      const input = h('input', { type: 'text', maxlength: 12, size: 8, autocomplete: 'off', 'aria-label': `board ${b} move`, 'data-testid': `otb-move-${b}`, placeholder: `${seatLabel(seat)}…` });
      const enter = (): void => {
        const t = input.value.trim();
        if (!t) return;
        input.value = '';
        this.send({ type: 'move', seat: toMove(b), text: t });
      };
      input.addEventListener('keydown', (e) => {
        if ((e as KeyboardEvent).key === 'Enter') enter();
      });
      return h(
        'div',
        { class: 'otb-sheet-board' },
        h('strong', {}, `Board ${b}: `),
        h('span', { 'data-testid': `otb-moves-${b}` }, text || '—'),
        h('div', {}, input, h('button', { 'data-testid': `otb-enter-${b}`, onclick: enter }, 'Enter move')),
      );
    });
    // Once moves are entered, the record as BPGN with the table's clock times (GET /api/otb/{id}/bpgn).
    const download =
      v.moves.length > 0
        ? h('p', {}, h('a', { href: `/api/otb/${this.id}/bpgn`, download: `otb-${this.id}.bpgn`, 'data-testid': 'otb-bpgn' }, 'Download the record (BPGN)'))
        : '';
    fill(sheet, boards, download);
    if (refocus) sheet.querySelector<HTMLInputElement>(`[data-testid=${refocus}]`)?.focus();
  }

  private drawRecord(v: OtbTableView): void {
    const t0 = v.record[0]?.at_ms ?? 0;
    const rows = v.record
      .filter((e) => (e.event?.type !== 'press' && e.event?.type !== 'move') || e.decisions.length > 0)
      .map((e) =>
        h(
          'li',
          {},
          h('span', { class: 'otb-at' }, clockText(e.at_ms - t0)),
          ' ',
          e.flag ? `${seatLabel(e.flag)}’s flag fell` : e.event ? eventText(e.event) : '',
          e.decisions.map((d) => h('div', { class: 'otb-line' }, h('span', { class: 'otb-article' }, d.article), ' ', consequenceText(d.consequence))),
        ),
      );
    fill(this.panels.record!, rows.reverse());
  }
}
