// What a rated match changed, as the match page shows it (the result panel and the seats).

import { profileUrl, ratingText } from '../account';
import { h } from '../dom';
import type { RatingChanges, SeatName } from '../protocol';

/** `1500 → 1662 (+162)`. */
export function changeText(before: number, after: number, delta: number): string {
  const d = Math.round(delta);
  return `${ratingText(before)} → ${ratingText(after)} (${d > 0 ? '+' : d < 0 ? '' : '±'}${d})`;
}

/** Each player's rating and each team's, `1500 → 1662 (+162)`; `you`'s lines marked. */
export function ratingChangesEl(changes: RatingChanges | null, you: SeatName | null): HTMLElement {
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
      changes.players.map(p => line(h('a', { href: profileUrl(p.username) }, p.username), p.before, p.after, p.delta, p.seat === you)),
    ),
    changes.teams.length
      ? h(
          'ul',
          { class: 'teams' },
          changes.teams.map(t => line(`${t.usernames[0]} & ${t.usernames[1]}`, t.before, t.after, t.delta, !!you && t.seats.includes(you))),
        )
      : null,
  );
}
