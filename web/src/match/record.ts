// The match page's record: one move list per board, and the replay of a finished match (its
// positions fetched from the server, stepped through with the buttons, the arrow keys or a
// click on a move).

import { fill, h } from '../dom';
import { moveLabel, moveRows } from '../helpers';
import type { MoveInfo } from '../protocol';
import type { MatchContext } from './context';
import type { ReplayStep } from './model';

/**
 * The route the replay of a finished match reads: `GET /api/matches/{id}/positions`, answering
 * `Positions`, one entry per position, entry k being `[FEN_A, FEN_B]` after the first k moves of
 * the record (entry 0 is the start, so the array has `moves.length + 1` entries).
 */
export const positionsUrl = (id: string): string => `/api/matches/${encodeURIComponent(id)}/positions`;

export class MoveRecord {
  readonly movesA = h('ol', { class: 'moves board-A', 'aria-label': 'board A moves' });
  readonly movesB = h('ol', { class: 'moves board-B', 'aria-label': 'board B moves' });
  /** The replay's buttons, over the move lists. */
  readonly replayEl = h('section', { class: 'replay', hidden: true });

  constructor(private readonly ctx: MatchContext) {}

  /** The move lists: `1. e4 e5`, a line per move number; in a finished match a move whose
   * position is known is a link to it. */
  renderMoves(): void {
    const m = this.ctx.model;
    const st = m.state;
    if (!st) return;
    const current = m.replay ?? st.moves.length;
    const finished = st.status === 'finished';
    const cell = (mv: MoveInfo | undefined): HTMLElement => {
      if (!mv) return h('span', { class: 'mv empty' });
      const i = mv.ply;
      const jump = finished && m.positions.has(i + 1);
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
      ['A', this.movesA],
      ['B', this.movesB],
    ] as const) {
      fill(
        list,
        moveRows(st.moves, board).map(row =>
          h('li', { class: 'move-row' }, h('span', { class: 'num' }, `${row.number}.`), cell(row.white), cell(row.black)),
        ),
      );
      if (m.replay === null) list.scrollTop = list.scrollHeight;
    }
    if (m.replay !== null) this.ctx.root.querySelector('.moves .current')?.scrollIntoView({ block: 'nearest' });
  }

  /** The replay's buttons and the position shown, `12 / 40`, in a finished match. */
  renderReplay(): void {
    const m = this.ctx.model;
    const st = m.state;
    const el = this.replayEl;
    if (!st || st.status !== 'finished') {
      el.hidden = true;
      return;
    }
    el.hidden = false;
    const n = st.moves.length;
    const cur = m.replay ?? n;
    const known = m.knownPlies();
    const hasPrev = known.some(k => k < cur);
    const hasNext = known.some(k => k > cur) || cur < n;
    const button = (label: string, title: string, dir: ReplayStep, enabled: boolean): HTMLElement =>
      h('button', { type: 'button', title, 'aria-label': title, disabled: !enabled, onclick: () => this.step(dir) }, label);
    const note =
      m.positionsFetch === 'loading'
        ? 'loading positions…'
        : m.positionsFetch === 'failed' && known.length < n + 1
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

  /** Once the match is finished, fetches the positions the page has not seen (once). */
  maybeFetchPositions(): void {
    const m = this.ctx.model;
    const st = m.state;
    if (!st || st.status !== 'finished' || m.positionsFetch !== 'no') return;
    if (m.positionsComplete()) {
      m.positionsFetch = 'done';
      this.ctx.renderPanels();
      return;
    }
    m.positionsFetch = 'loading';
    fetch(positionsUrl(this.ctx.id))
      .then(async res => {
        if (!res.ok) throw new Error(String(res.status));
        if (!m.addPositions((await res.json()) as unknown)) throw new Error('not a list');
        m.positionsFetch = 'done';
      })
      .catch(() => {
        m.positionsFetch = 'failed';
      })
      .finally(() => this.ctx.renderPanels());
  }

  /** The arrow keys, Home and End step through a finished match (not while typing). */
  onKey(e: KeyboardEvent): void {
    if (this.ctx.model.state?.status !== 'finished') return;
    const t = e.target as HTMLElement | null;
    if (t && (t.tagName === 'INPUT' || t.tagName === 'TEXTAREA')) return;
    const dir = ({ ArrowLeft: 'prev', ArrowRight: 'next', Home: 'first', End: 'last' } as const)[e.key as 'ArrowLeft'];
    if (dir) {
      e.preventDefault();
      this.step(dir);
    }
  }

  private goto(k: number | null): void {
    this.ctx.model.goto(k);
    this.ctx.renderBoards(true);
    this.ctx.renderPanels();
    this.ctx.renderClocks();
  }

  private step(dir: ReplayStep): void {
    const target = this.ctx.model.stepTarget(dir);
    if (target !== undefined) this.goto(target);
  }
}
