// The match page's result panel: the score, the reason, each board's result, the player's
// outcome, rematch, the link to the rematch, and a rated match's rating changes.

import { fill, h } from '../dom';
import { outcomeFor, resultText } from '../helpers';
import type { MatchContext } from './context';
import { ratingChangesEl } from './ratings';

export class ResultPanel {
  readonly el = h('section', { class: 'result', hidden: true });

  constructor(private readonly ctx: MatchContext) {}

  render(): void {
    const m = this.ctx.model;
    const st = m.state;
    const el = this.el;
    if (!st || st.status !== 'finished' || !st.result) {
      el.hidden = true;
      return;
    }
    el.hidden = false;
    const r = st.result;
    const outcome = m.you ? outcomeFor(r.result, m.you) : null;
    fill(
      el,
      h('div', { class: 'score' }, r.result),
      h('div', { class: 'verdict' }, resultText(r.result)),
      outcome ? h('div', { class: `outcome ${outcome === 'You win' ? 'win' : outcome === 'You lose' ? 'loss' : 'draw'}` }, outcome) : null,
      h('div', { class: 'reason' }, r.reason),
      r.boards.some(b => b !== '*')
        ? h('div', { class: 'boards-result' }, `board A ${r.boards[0]} · board B ${r.boards[1]}`)
        : null,
      m.you
        ? h(
            'div',
            { class: 'row' },
            h('button', { type: 'button', onclick: () => this.ctx.act({ type: 'rematch', swap: false }) }, 'Rematch'),
            h('button', { type: 'button', onclick: () => this.ctx.act({ type: 'rematch', swap: true }) }, 'Rematch, partners swapped'),
          )
        : null,
      m.rematchId ? h('p', {}, h('a', { href: `/m/${encodeURIComponent(m.rematchId)}` }, 'Watch the rematch')) : null,
      st.rated ? ratingChangesEl(st.rating_changes ?? null, m.you) : null,
    );
  }
}
