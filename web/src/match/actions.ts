// The match page's actions panel: resign (asked twice), offer, accept or withdraw a draw, the
// draw claims the server says may be made now, and the draw offers standing.

import { fill, h } from '../dom';
import { claimsNow, seatBoard } from '../helpers';
import type { MatchContext } from './context';
import type { MatchModel } from './model';

/**
 * What the actions panel shows, as a string that changes exactly when the panel must be
 * rebuilt (a button replaced at every move of a fast game could not be clicked).
 */
export function actionsKey(m: MatchModel, resignArmed: boolean): string {
  const st = m.state!;
  const claims = m.you && st.status === 'playing' ? claimsNow(m.boardState(seatBoard(m.you)), m.you) : [];
  return JSON.stringify([m.you, st.status, m.replay !== null, st.draw_offers, claims, resignArmed, m.seatNames()]);
}

export class ActionsPanel {
  readonly el = h('section', { class: 'actions' });
  /** What the panel shows, to rebuild it only when that changes. */
  private key = '';
  /** Resign was clicked once: a second click within 3 s resigns. */
  private resignArmed: number | undefined;

  constructor(private readonly ctx: MatchContext) {}

  render(): void {
    const m = this.ctx.model;
    const st = m.state;
    const el = this.el;
    if (!st) {
      fill(el);
      return;
    }
    const key = actionsKey(m, !!this.resignArmed);
    if (key === this.key) return;
    this.key = key;
    const offers = st.draw_offers;
    const offerText = offers.length
      ? h('p', { class: 'draw-offers' }, `Draw offered by ${offers.map(s => `${m.seatName(s)} (${s})`).join(', ')}`)
      : null;
    if (!m.you || st.status !== 'playing' || m.replay !== null) {
      fill(el, offerText);
      return;
    }
    const you = m.you;
    const iOffer = offers.includes(you);
    const drawButton = iOffer
      ? h('button', { type: 'button', onclick: () => this.ctx.act({ type: 'withdraw_draw' }) }, 'Withdraw draw offer')
      : h('button', { type: 'button', onclick: () => this.ctx.act({ type: 'offer_draw' }) }, offers.length ? 'Accept draw' : 'Offer draw');
    const resign = h('button', { type: 'button', class: 'danger' }, this.resignArmed ? 'Really resign?' : 'Resign');
    resign.addEventListener('click', () => {
      if (this.resignArmed) {
        window.clearTimeout(this.resignArmed);
        this.resignArmed = undefined;
        this.ctx.act({ type: 'resign' });
      } else {
        this.resignArmed = window.setTimeout(() => {
          this.resignArmed = undefined;
          this.render();
        }, 3000);
      }
      this.render();
    });
    // Only the claims the server says may be made now on his board.
    const claims = claimsNow(m.boardState(seatBoard(you)), you).map(claim =>
      h(
        'button',
        { type: 'button', onclick: () => this.ctx.act({ type: 'claim_draw', claim }) },
        claim === 'repetition' ? 'Claim draw: repetition' : 'Claim draw: move count',
      ),
    );
    fill(el, h('div', { class: 'row' }, resign, drawButton, claims), offerText);
  }
}
