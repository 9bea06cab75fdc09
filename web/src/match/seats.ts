// The match page's seats panel: who sits where, sit (under the name asked here or the
// account's), stand up, add a bot, and the offer to fill the free seats with bots after a wait.

import { fill, h, playerNameInput, storageGet, storageSet, toast } from '../dom';
import { profileUrl } from '../account';
import { BOT_WAIT_KEY, botLevelFor, botLevelLabel, botWaitMs, cleanName, NAME_KEY } from '../helpers';
import { BOT_LEVELS, type LobbySnapshot, type SeatName } from '../protocol';
import type { MatchContext } from './context';
import { changeText } from './ratings';

declare global {
  interface Window {
    /** A test may shorten the wait before the page offers bots (`BOT_OFFER_MS`). */
    __bughouseBotOfferMs?: number;
  }
}

export class SeatsPanel {
  readonly el = h('section', { class: 'seats' });
  /** The name field of the seats panel. */
  readonly nameInput = playerNameInput();
  private botLevel = 8;
  /** When this page first saw its player seated in a waiting match (for the bot offer). */
  private waitingSince: number | null = null;
  private botOfferTimer: number | undefined;

  constructor(private readonly ctx: MatchContext) {
    this.nameInput.value = storageGet(NAME_KEY) ?? '';
    this.nameInput.addEventListener('change', () => {
      const name = cleanName(this.nameInput.value);
      if (name) storageSet(NAME_KEY, name);
    });
  }

  render(): void {
    const m = this.ctx.model;
    const st = m.state;
    const el = this.el;
    if (!st) {
      fill(el, h('p', { class: 'hint' }, 'Connecting…'));
      return;
    }
    const waiting = st.status === 'waiting';
    const row = (seat: SeatName): HTMLElement => {
      const info = st.seats.find(s => s.seat === seat);
      const taken = !!info && (info.name !== null || info.bot);
      const mine = m.you === seat;
      const change = st.rating_changes?.players.find(p => p.seat === seat);
      const buttons: HTMLElement[] = [];
      if (waiting && !taken && !m.you && (!st.rated || m.account))
        buttons.push(h('button', { type: 'button', class: 'primary', onclick: () => this.sit(seat) }, 'Sit here'));
      if (waiting && !taken && (!st.rated || st.allow_bots))
        buttons.push(
          h(
            'button',
            { type: 'button', onclick: () => this.ctx.act({ type: 'add_bot', seat, level: this.botLevel }) },
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
                this.ctx.act({ type: 'stand' });
                m.standing = true;
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
    const guest = m.account === null;
    const free = st.seats.filter(s => s.name === null && !s.bot).map(s => s.seat);
    // Bots may sit in a casual match, and in a rated one only if its creator allowed them.
    const botsMay = !st.rated || st.allow_bots;
    fill(
      el,
      h('h3', {}, 'Seats'),
      h('ul', { class: 'team' }, row('WhiteA'), row('BlackB')),
      h('ul', { class: 'team' }, row('BlackA'), row('WhiteB')),
      waiting && !m.you && guest && !st.rated
        ? h('p', { class: 'name-field' }, h('label', { for: 'player-name' }, 'Your name '), this.nameInput)
        : null,
      waiting && !m.you && m.account ? h('p', { class: 'hint sit-as' }, `You sit as ${m.account.username}.`) : null,
      waiting && !m.you && guest && st.rated
        ? h('p', { class: 'hint sign-in-to-sit' }, 'This match is rated: sign in (top right) to sit.')
        : null,
      waiting && botsMay && free.length > 0 ? this.botLevelChoice() : null,
      this.botOffer(waiting, botsMay ? free : []),
      m.tokenRefused && !m.you ? h('p', { class: 'hint watching' }, 'You are watching: your saved seat was not valid for this match.') : null,
    );
  }

  /** Sits in `seat` under the name in the field (or the one remembered). */
  sit(seat: SeatName): void {
    const account = this.ctx.model.account;
    if (account) {
      // The server seats a signed-in player under his account's name.
      this.ctx.act({ type: 'sit', seat, name: account.username });
      return;
    }
    const name = cleanName(this.nameInput.value) ?? cleanName(storageGet(NAME_KEY));
    if (!name) {
      toast('Enter your name first.', 'info');
      this.nameInput.focus();
      return;
    }
    storageSet(NAME_KEY, name);
    this.ctx.act({ type: 'sit', seat, name });
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

  /**
   * After a seated player has waited as long as he chose in the lobby (else `BOT_OFFER_MS`),
   * the offer to fill the free seats with bots of about the waiting players' strength: the
   * level the lobby gives the match (its published rating nearest their mean rating); he may
   * pick another level.
   */
  private botOffer(waiting: boolean, free: SeatName[]): HTMLElement | null {
    const m = this.ctx.model;
    if (!waiting || !m.you || free.length === 0) {
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
      this.botLevel = botLevelFor(m.account?.rating?.rating);
    }
    const left = this.waitingSince + wait - now;
    if (left > 0) {
      if (this.botOfferTimer === undefined)
        this.botOfferTimer = window.setTimeout(() => {
          this.botOfferTimer = undefined;
          // The level for the players waiting now, as the lobby rates the match.
          void this.fetchBotLevel().finally(() => this.render());
        }, left + 50);
      return h('p', { class: 'hint waiting-note' }, 'Waiting for players to join…');
    }
    const fillSeats = (): void => {
      for (const seat of free) this.ctx.act({ type: 'add_bot', seat, level: this.botLevel });
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
      const level = snapshot.open.find(mt => mt.match_id === this.ctx.id)?.bot_level;
      if (level !== undefined && level >= 1 && level <= 8) this.botLevel = level;
    } catch {
      // the level chosen from the player's own rating stays
    }
  }
}
