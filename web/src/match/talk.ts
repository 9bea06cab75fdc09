// The match page's partner talk: the controls the rulebook allows (need / don't give a piece,
// sit, go, flag, text), the team's log, and the drawer it is on a phone.

import { pieceEl } from '../boardview';
import { fill, h } from '../dom';
import { partnerOf, roleOfLetter, seatColor, talkText, TALK_PIECES } from '../helpers';
import { MAX_CHAT, type ActionMessage, type Piece, type TalkKind } from '../protocol';
import { play } from '../sound';
import type { MatchContext } from './context';
import type { Msg } from './model';

export class TalkPanel {
  readonly el = h('section', { class: 'talk', hidden: true });
  /** The header's button that opens the drawer on a phone. */
  readonly toggle = h('button', { type: 'button', class: 'talk-toggle', 'aria-expanded': 'false', hidden: true }, 'Talk');
  private readonly controls = h('div', { class: 'talk-controls' });
  private readonly log = h('ul', { class: 'talk-log' });
  /** What the controls show, to rebuild them only when that changes. */
  private key = '';

  constructor(private readonly ctx: MatchContext) {
    const close = h('button', { type: 'button', class: 'talk-close', 'aria-label': 'close the talk' }, '×');
    close.addEventListener('click', () => this.setOpen(false));
    fill(this.el, h('div', { class: 'talk-head' }, h('h3', {}, 'Partner'), close), this.controls, this.log);
    this.toggle.addEventListener('click', () => this.setOpen(!document.body.classList.contains('talk-open')));
  }

  /** Opens or closes the partner talk (a drawer on a phone, always open on a wide screen). */
  setOpen(open: boolean): void {
    document.body.classList.toggle('talk-open', open);
    this.toggle.setAttribute('aria-expanded', String(open));
    if (open) this.toggle.classList.remove('unread');
    if (open) this.log.scrollTop = this.log.scrollHeight;
  }

  /** A talk message came: shown once (the server sends our own back too), with a sound and
   * the unread mark when it is the partner's. */
  received(msg: Msg<'talk'>): void {
    const m = this.ctx.model;
    if (!m.addTalk(msg)) return;
    if (msg.from !== m.you) {
      play('talk');
      if (!document.body.classList.contains('talk-open')) this.toggle.classList.add('unread');
    }
    this.renderLog();
  }

  /** The controls, shown to a seated player when the rulebook allows some talk. */
  render(): void {
    const m = this.ctx.model;
    const st = m.state;
    const you = m.you;
    if (!st || !you || st.talk.length === 0) {
      this.el.hidden = true;
      this.toggle.hidden = true;
      return;
    }
    this.el.hidden = false;
    this.toggle.hidden = false;
    const partner = partnerOf(you);
    const key = `${you} ${m.seatName(partner)} ${st.talk.join(',')}`;
    if (key === this.key) return;
    this.key = key;
    const allowed = new Set(st.talk);
    // No local echo: the server sends the message back to both partners, and the log shows
    // that copy.
    const say = (kind: TalkKind, piece?: Piece, text?: string): void => {
      const msg: ActionMessage = { type: 'talk', kind };
      if (piece) msg.piece = piece;
      if (text) msg.text = text;
      this.ctx.act(msg);
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
            h('span', { class: 'talk-piece cg-wrap' }, pieceEl(roleOfLetter(p)!, seatColor(you))),
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
      this.controls,
      h('p', { class: 'hint talk-to' }, `to ${m.seatName(partner)} (${partner})`),
      allowed.has('need') ? pieceRow('need', 'Need') : null,
      allowed.has('dont_give') ? pieceRow('dont_give', "Don't give") : null,
      quick.length ? h('div', { class: 'row' }, quick) : null,
      textForm,
    );
  }

  /** The team's log, the last 50 messages. */
  renderLog(): void {
    const m = this.ctx.model;
    // The speaker by the seat's name now (a partner who sat later is shown by his name).
    fill(
      this.log,
      m.talkEntries().map(e => {
        const mine = e.from === m.you;
        return h(
          'li',
          { class: mine ? 'mine' : '', 'data-n': e.n },
          h('b', {}, `${mine ? 'you' : m.seatName(e.from)}: `),
          talkText(e.kind, e.piece, e.text),
        );
      }),
    );
    this.log.scrollTop = this.log.scrollHeight;
  }
}
