// The player pages: a profile (`/player/{name}`: rating, deviation, the rating history as a
// chart, the matches with partners, opponents, results and replay links, best partners, results
// by rulebook) and the leaderboard (`/leaderboard`: players and teams).

import { errorOf, profileUrl, ratingText, siteHeader } from './account';
import type { Leaderboard, MatchPlayer, PlayedMatchView, Profile, RatingPointView } from './accountTypes';
import { chartGeometry } from './chart';
import { fill, h } from './dom';

const SVG = 'http://www.w3.org/2000/svg';

/** The player name of a `/player/{name}` path, or null. */
export function playerFromPath(path: string): string | null {
  const m = /^\/player\/([^/]+)\/?$/.exec(path);
  if (!m) return null;
  try {
    return decodeURIComponent(m[1]!);
  } catch {
    return null;
  }
}

function svg(tag: string, attrs: Record<string, string | number>, ...children: (Node | string)[]): SVGElement {
  const el = document.createElementNS(SVG, tag);
  for (const [k, v] of Object.entries(attrs)) el.setAttribute(k, String(v));
  el.append(...children);
  return el;
}

/** The rating after each rated match, as a line with its points (a title on each). */
function ratingChart(history: RatingPointView[]): Element {
  if (history.length === 0) return h('p', { class: 'hint' }, 'No rated match yet.');
  const width = 640;
  const height = 220;
  const pad = 36;
  // The chart starts at the rating before the first rated match.
  const first = history[0]!;
  const ratings = [first.rating - first.delta, ...history.map(p => p.rating)];
  const g = chartGeometry(ratings, width, height, pad);
  const grid = g.ticks.map(t =>
    svg(
      'g',
      { class: 'tick' },
      svg('line', { x1: pad, x2: width - pad, y1: t.y, y2: t.y }),
      svg('text', { x: pad - 6, y: t.y + 4, 'text-anchor': 'end' }, String(t.rating)),
    ),
  );
  const dots = g.points.map((p, i) => {
    const point = i === 0 ? null : history[i - 1]!;
    const label = point
      ? `${ratingText(p.rating)} after ${new Date(point.at).toLocaleString()} (${signed(point.delta)})`
      : `${ratingText(p.rating)} at the start`;
    return svg('circle', { cx: p.x, cy: p.y, r: 3.5 }, svg('title', {}, label));
  });
  return svg(
    'svg',
    {
      class: 'rating-chart',
      viewBox: `0 0 ${width} ${height}`,
      role: 'img',
      'aria-label': `rating history: ${ratings.map(r => Math.round(r)).join(', ')}`,
    },
    ...grid,
    svg('path', { d: g.path, class: 'line' }),
    ...dots,
  );
}

/** `+15`, `-8`, `±0`. */
export function signed(delta: number): string {
  const d = Math.round(delta);
  return d > 0 ? `+${d}` : d < 0 ? `${d}` : '±0';
}

function playerLink(p: MatchPlayer | null): Node | string {
  if (!p) return '—';
  if (p.account) return h('a', { href: profileUrl(p.account) }, p.account);
  return p.bot ? `${p.name} (bot)` : `${p.name} (guest)`;
}

function matchRow(m: PlayedMatchView): HTMLTableRowElement {
  const when = new Date(m.finished_at);
  const [o1, o2] = m.opponents;
  return h(
    'tr',
    { class: `outcome-${m.outcome}` },
    h('td', {}, h('time', { datetime: when.toISOString() }, when.toLocaleString())),
    h('td', {}, m.rules),
    h('td', {}, playerLink(m.partner)),
    h('td', {}, playerLink(o1), ' & ', playerLink(o2)),
    h('td', { class: 'outcome' }, `${m.outcome} (${m.result})`),
    h('td', {}, m.rating_delta === null ? 'casual' : signed(m.rating_delta)),
    h('td', {}, h('a', { href: `/m/${encodeURIComponent(m.match_id)}` }, 'replay')),
  );
}

function record(r: { wins: number; draws: number; losses: number }): string {
  return `${r.wins} won, ${r.draws} drawn, ${r.losses} lost`;
}

export function renderProfile(root: HTMLElement, name: string): void {
  document.title = `${name} · Bughouse`;
  const main = h('main', { class: 'player-page' }, h('p', { class: 'hint' }, 'Loading…'));
  fill(root, siteHeader(), main);
  void fetch(`/api/players/${encodeURIComponent(name)}?limit=50`)
    .then(async res => {
      if (!res.ok) throw new Error(await errorOf(res));
      return (await res.json()) as Profile;
    })
    .then(p => {
      document.title = `${p.username} · Bughouse`;
      const r = p.rating;
      fill(
        main,
        h('h2', {}, p.username),
        h(
          'section',
          { class: 'rating-summary' },
          r
            ? [
                h('div', { class: 'big-rating' }, ratingText(r.rating, r.provisional)),
                h('div', {}, `rating deviation ${Math.round(r.deviation)}${r.provisional ? ' (provisional)' : ''}`),
                h('div', {}, `${r.games} rated matches: ${record(r)}`),
              ]
            : h('p', { class: 'hint' }, 'Not rated yet: ratings come with the first rated match.'),
          h('div', { class: 'hint' }, `member since ${new Date(p.created_at).toLocaleDateString()}`),
        ),
        h('section', { class: 'history' }, h('h3', {}, 'Rating history'), ratingChart(p.rating_history)),
        h(
          'section',
          { class: 'matches' },
          h('h3', {}, 'Matches'),
          p.matches.length === 0
            ? h('p', { class: 'hint' }, 'No finished match yet.')
            : h(
                'div',
                { class: 'table-scroll' },
                h(
                  'table',
                  {},
                  h(
                    'thead',
                    {},
                    h('tr', {}, ['finished', 'rules', 'partner', 'opponents', 'result', 'rating', ''].map(t => h('th', {}, t))),
                  ),
                  h('tbody', {}, p.matches.map(matchRow)),
                ),
              ),
        ),
        h(
          'div',
          { class: 'columns' },
          h(
            'section',
            { class: 'partners' },
            h('h3', {}, 'Best partners'),
            p.best_partners.length === 0
              ? h('p', { class: 'hint' }, 'No signed-in partner yet.')
              : h(
                  'ul',
                  {},
                  p.best_partners.map(b =>
                    h(
                      'li',
                      {},
                      h('a', { href: profileUrl(b.username) }, b.username),
                      ` · ${b.games} together: ${record(b)}`,
                      b.team_rating ? ` · team rating ${ratingText(b.team_rating.rating)}` : '',
                    ),
                  ),
                ),
          ),
          h(
            'section',
            { class: 'by-rules' },
            h('h3', {}, 'By rulebook'),
            p.by_rules.length === 0
              ? h('p', { class: 'hint' }, 'No finished match yet.')
              : h('ul', {}, p.by_rules.map(b => h('li', {}, h('b', {}, b.rules), ` · ${b.games}: ${record(b)}`))),
          ),
        ),
      );
    })
    .catch((err: unknown) => {
      fill(main, h('h2', {}, name), h('p', { class: 'form-error' }, err instanceof Error ? err.message : String(err)));
    });
}

export function renderLeaderboard(root: HTMLElement): void {
  document.title = 'Leaderboard · Bughouse';
  const main = h('main', { class: 'leaderboard' }, h('h2', {}, 'Leaderboard'), h('p', { class: 'hint' }, 'Loading…'));
  fill(root, siteHeader(), main);
  void fetch('/api/leaderboard?limit=50')
    .then(async res => {
      if (!res.ok) throw new Error(await errorOf(res));
      return (await res.json()) as Leaderboard;
    })
    .then(b => {
      const head = (...cols: string[]): HTMLElement => h('thead', {}, h('tr', {}, cols.map(c => h('th', {}, c))));
      fill(
        main,
        h('h2', {}, 'Leaderboard'),
        h(
          'p',
          { class: 'hint' },
          `Players with at least ${b.min_games} rated matches, teams with ${b.team_min_games}, and a rating deviation of at most ${b.max_deviation}.`,
        ),
        h('div', { class: 'columns' },
          h(
            'section',
            {},
            h('h3', {}, 'Players'),
            b.players.length === 0
              ? h('p', { class: 'hint' }, 'Nobody is ranked yet.')
              : h(
                  'table',
                  {},
                  head('#', 'player', 'rating', 'matches', 'record'),
                  h(
                    'tbody',
                    {},
                    b.players.map(p =>
                      h(
                        'tr',
                        {},
                        h('td', {}, p.rank),
                        h('td', {}, h('a', { href: profileUrl(p.username) }, p.username)),
                        h('td', {}, ratingText(p.rating)),
                        h('td', {}, p.games),
                        h('td', {}, record(p)),
                      ),
                    ),
                  ),
                ),
          ),
          h(
            'section',
            {},
            h('h3', {}, 'Teams'),
            b.teams.length === 0
              ? h('p', { class: 'hint' }, 'No team is ranked yet.')
              : h(
                  'table',
                  {},
                  head('#', 'team', 'rating', 'matches', 'record'),
                  h(
                    'tbody',
                    {},
                    b.teams.map(t =>
                      h(
                        'tr',
                        {},
                        h('td', {}, t.rank),
                        h(
                          'td',
                          {},
                          h('a', { href: profileUrl(t.players[0]) }, t.players[0]),
                          ' & ',
                          h('a', { href: profileUrl(t.players[1]) }, t.players[1]),
                        ),
                        h('td', {}, ratingText(t.rating)),
                        h('td', {}, t.games),
                        h('td', {}, record(t)),
                      ),
                    ),
                  ),
                ),
          ),
        ),
      );
    })
    .catch((err: unknown) => {
      fill(main, h('h2', {}, 'Leaderboard'), h('p', { class: 'form-error' }, err instanceof Error ? err.message : String(err)));
    });
}
