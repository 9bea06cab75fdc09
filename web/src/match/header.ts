// The match page's header line: the rules, the time control, rated or casual and where the
// match is; the connection's state (and the actions waiting for it); the round trip.

import { fill, h } from '../dom';
import type { MatchState } from '../protocol';
import type { MatchContext } from './context';

/** Where the match is, in three parts: `waiting`, ` for players`, ` (2/4)`; `playing` or
 * `finished` alone. A phone leaves out the middle part. */
function statusParts(st: MatchState): [string, string, string] {
  if (st.status !== 'waiting') return [st.status === 'playing' ? 'playing' : 'finished', '', ''];
  const seated = st.seats.filter(s => s.name !== null || s.bot).length;
  return ['waiting', ' for players', ` (${seated}/4)`];
}

/** Where the match is: `waiting for players (2/4)`, `playing` or `finished`. */
export function statusText(st: MatchState): string {
  return statusParts(st).join('');
}

/** The connection as the header says it: nothing when open, else connecting or the retry. */
export function connText(status: 'open' | 'connecting' | 'closed', retryMs?: number): string {
  return status === 'open' ? '' : status === 'connecting' ? 'connecting…' : `disconnected, retrying in ${Math.ceil((retryMs ?? 0) / 1000)} s`;
}

/** {@link statusText} as shown: on a phone the words in `.wordy` are hidden from sight (screen
 * readers still read them, and the element's text stays whole). */
function statusEl(st: MatchState): HTMLElement {
  const [head, wordy, tail] = statusParts(st);
  return h('span', { class: `status ${st.status}` }, head, wordy ? h('span', { class: 'wordy' }, wordy) : null, tail);
}

export class MatchHeader {
  readonly info = h('div', { class: 'match-info' });
  readonly conn = h('span', { class: 'conn' });
  readonly ping = h('span', { class: 'ping', title: 'round trip to the server' }, 'ping –');
  /** The connection's state, as {@link connText} says it. */
  private connStatus = 'connecting';
  /** The round trip to the server, smoothed, in ms. */
  private rtt: number | null = null;

  constructor(private readonly ctx: MatchContext) {}

  render(): void {
    const st = this.ctx.model.state;
    if (!st) {
      fill(this.info, h('span', {}, `match ${this.ctx.id}`));
      return;
    }
    fill(
      this.info,
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
      statusEl(st),
    );
  }

  /** The connection's state changed. */
  setStatus(status: 'open' | 'connecting' | 'closed', retryMs?: number): void {
    this.connStatus = connText(status, retryMs);
    this.renderConn(status === 'closed');
  }

  /** The connection's state and the actions waiting for it; `bad` shows it in red. */
  renderConn(bad = this.conn.classList.contains('bad')): void {
    const conn = this.ctx.conn;
    const waiting = conn.outbox.size;
    const parts = [this.connStatus];
    if (waiting && !conn.open) parts.push(`${waiting} action${waiting > 1 ? 's' : ''} waiting to be sent`);
    this.conn.textContent = parts.filter(Boolean).join(' · ');
    this.conn.classList.toggle('bad', bad);
  }

  /** A round trip measured: shown smoothed. */
  addRtt(ms: number): void {
    this.rtt = this.rtt === null ? ms : this.rtt * 0.7 + ms * 0.3;
    this.ping.textContent = `ping ${Math.round(this.rtt)} ms`;
  }
}
