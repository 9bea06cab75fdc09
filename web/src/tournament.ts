// The tournament pages: `/t/new` (create), `/t/{id}/admin` (the organiser: teams, rounds,
// results), `/t/{id}` (public, live: pairings, results, standings) and `/t/{id}/print` (the same
// for paper, without controls). The organiser secret lives in localStorage and goes with every
// organiser request as `Authorization: Bearer ...`.

import type { CreatedOtbTable } from './generated/otb';
import './tournament.css';
import { fill, h, storageGet, storageSet, toast } from './dom';
import {
  FORMATS,
  GAME_RESULTS,
  MATCH_RESULTS,
  TOURNAMENT_PRESETS,
  gamesLabel,
  playerLabel,
  resultLabel,
  roundsLabel,
  secretKey,
  seatLink,
  validTimeControl,
  type AddTeam,
  type CreateTournament,
  type CreatedTournament,
  type GameResult,
  type MatchResult,
  type PairRound,
  type PairingView,
  type PlayerEntry,
  type RoundView,
  type SetColours,
  type SetResult,
  type Slot,
  type TournamentFormat,
  type TournamentRoute,
  type TournamentView,
} from './tournamentTypes';

/** The bodies of the organiser's changes. */
type Change = AddTeam | PairRound | SetResult | SetColours;

/** How often the public and organiser pages look for changes (results of server matches). */
const POLL_MS = 3000;

export function renderTournament(root: HTMLElement, route: TournamentRoute): void {
  if (route.page === 'new') renderNew(root);
  else if (route.page === 'admin') new AdminPage(root, route.id).start();
  else new PublicPage(root, route.id, route.page === 'print').start();
}

function top(...extra: (Node | string)[]): HTMLElement {
  return h('header', { class: 'top no-print' }, h('h1', {}, h('a', { href: '/' }, 'Bughouse')), ...extra);
}

async function errorOf(res: Response): Promise<string> {
  try {
    const body = (await res.json()) as { error?: string; message?: string };
    if (body.message) return body.message;
    if (body.error) return body.error;
  } catch {
    // not JSON
  }
  return `${res.status} ${res.statusText}`;
}

async function api<T>(method: string, path: string, body?: unknown, secret?: string | null): Promise<T> {
  const headers: Record<string, string> = {};
  if (body !== undefined) headers['content-type'] = 'application/json';
  if (secret) headers.authorization = `Bearer ${secret}`;
  const res = await fetch(path, { method, headers, body: body === undefined ? undefined : JSON.stringify(body) });
  if (!res.ok) throw new Error(await errorOf(res));
  if (res.status === 204) return undefined as T;
  return (await res.json()) as T;
}

function message(err: unknown): string {
  return err instanceof Error ? err.message : String(err);
}

// ---------------------------------------------------------------------------------------------
// Create

function renderNew(root: HTMLElement): void {
  document.title = 'New tournament · Bughouse';
  const name = h('input', { type: 'text', id: 't-name', name: 'name', maxlength: 80, required: true });
  const preset = h('select', { id: 't-preset', name: 'preset' }, TOURNAMENT_PRESETS.map(p => h('option', { value: p }, p)));
  const format = h('select', { id: 't-format', name: 'format' }, FORMATS.map(f => h('option', { value: f.id }, f.label)));
  const rounds = h('input', { type: 'number', id: 't-rounds', name: 'rounds', min: 1, max: 64, placeholder: 'all' });
  const tc = h('input', { type: 'text', id: 't-tc', name: 'time_control', value: '5+0', size: 6 });
  const seed = h('input', { type: 'number', id: 't-seed', name: 'seed', min: 0, placeholder: 'random' });
  const status = h('p', { class: 'form-error', role: 'alert' });
  const submit = h('button', { type: 'submit', class: 'primary' }, 'Create tournament');
  const roundsHint = h('span', { class: 'hint' });
  const showHint = (): void => {
    roundsHint.textContent = format.value === 'swiss' ? ' required for a Swiss' : ' empty: every round of the table';
  };
  format.addEventListener('change', showHint);
  showHint();
  const row = (label: string, id: string, input: HTMLElement, hint?: Node): HTMLElement =>
    h('div', { class: 'form-row' }, h('label', { for: id }, label), input, hint ?? null);
  const form = h(
    'form',
    { class: 'create tournament-form', novalidate: true },
    h('h2', {}, 'New tournament'),
    row('Name', 't-name', name),
    row('Rulebook', 't-preset', preset),
    row('Format', 't-format', format),
    row('Rounds', 't-rounds', rounds, roundsHint),
    row('Time control (minutes + seconds)', 't-tc', tc),
    row('Seed of the draws of lots', 't-seed', seed),
    submit,
    status,
  );
  form.addEventListener('submit', e => {
    e.preventDefault();
    if (!name.value.trim()) {
      status.textContent = 'The tournament needs a name.';
      return;
    }
    if (!validTimeControl(tc.value)) {
      status.textContent = 'The time control is minutes + seconds, e.g. 3+2.';
      return;
    }
    const body: CreateTournament = {
      name: name.value.trim(),
      preset: preset.value,
      format: format.value as TournamentFormat,
      time_control: tc.value.trim(),
    };
    if (rounds.value) body.rounds = Number(rounds.value);
    if (seed.value) body.seed = Number(seed.value);
    submit.disabled = true;
    status.textContent = '';
    void api<CreatedTournament>('POST', '/api/tournaments', body)
      .then(created => {
        storageSet(secretKey(created.tournament_id), created.organiser_secret);
        location.assign(`/t/${encodeURIComponent(created.tournament_id)}/admin`);
      })
      .catch((err: unknown) => {
        status.textContent = message(err);
        submit.disabled = false;
      });
  });
  fill(root, top(), h('main', { class: 'tournament' }, form));
}

// ---------------------------------------------------------------------------------------------
// Shared views

/** Follows a tournament: fetches it every few seconds with If-None-Match. */
class Follower {
  private etag: string | null = null;
  private timer: number | undefined;
  constructor(
    private readonly id: string,
    private readonly onChange: (t: TournamentView) => void,
    private readonly onError: (message: string) => void,
  ) {}

  async fetchNow(): Promise<void> {
    try {
      const headers: Record<string, string> = {};
      if (this.etag) headers['if-none-match'] = this.etag;
      const res = await fetch(`/api/tournaments/${encodeURIComponent(this.id)}`, { headers, cache: 'no-cache' });
      if (res.status === 304) return;
      if (!res.ok) throw new Error(await errorOf(res));
      this.etag = res.headers.get('etag');
      this.onChange((await res.json()) as TournamentView);
    } catch (err) {
      this.onError(message(err));
    }
  }

  /** Takes a tournament the page got from an organiser request. */
  set(t: TournamentView): void {
    this.etag = `"${t.updated_at}"`;
    this.onChange(t);
  }

  start(poll: boolean): void {
    void this.fetchNow();
    if (poll) this.timer = window.setInterval(() => void this.fetchNow(), POLL_MS);
  }

  stop(): void {
    window.clearInterval(this.timer);
  }
}

function summary(t: TournamentView): HTMLElement {
  return h(
    'p',
    { class: 'tournament-summary' },
    `${t.preset} · ${FORMATS.find(f => f.id === t.format)?.label ?? t.format} · ${t.time_control} · ${t.teams.length} teams · ${roundsLabel(t)}`,
    t.scoring.first_game_decides ? ' · the first game decides the match' : ' · both games count',
  );
}

function seatCell(p: PairingView, i: number, links: boolean): HTMLElement {
  const s = p.seats[i]!;
  const text = `${s.player} (${s.team_name})`;
  return h(
    'td',
    { class: `seat seat-${s.seat}`, 'data-seat': s.seat },
    links && p.match_id && !p.result ? h('a', { href: seatLink(p.match_id, s.player), title: `play ${s.seat} as ${s.player}` }, text) : text,
  );
}

function pairingsTable(r: RoundView, extra?: (p: PairingView) => HTMLElement[], links = false): HTMLElement {
  const head = ['Table', 'Home', 'Away', 'WhiteA', 'BlackA', 'WhiteB', 'BlackB', 'Result', 'Games'];
  return h(
    'table',
    { class: 'pairings', 'data-round': r.number },
    h('thead', {}, h('tr', {}, head.map(c => h('th', {}, c)), extra ? h('th', { class: 'no-print' }, '') : null)),
    h(
      'tbody',
      {},
      r.pairings.map(p =>
        h(
          'tr',
          { 'data-table': p.table },
          h('td', {}, p.table),
          h('td', {}, p.home_name),
          h('td', {}, p.away_name),
          [0, 1, 2, 3].map(i => seatCell(p, i, links)),
          h('td', { class: 'result' }, resultLabel(p)),
          h('td', { class: 'games' }, gamesLabel(p)),
          extra ? h('td', { class: 'no-print' }, extra(p)) : null,
        ),
      ),
      r.bye ? h('tr', { class: 'bye' }, h('td', {}, ''), h('td', {}, r.bye.name), h('td', { colspan: 9 }, 'bye')) : null,
    ),
  );
}

function roundSection(t: TournamentView, r: RoundView, extra?: (p: PairingView) => HTMLElement[], links = false): HTMLElement {
  const online = r.pairings.some(p => p.match_id);
  return h(
    'section',
    { class: 'round', 'data-round': r.number },
    h(
      'h3',
      {},
      `Round ${r.number}`,
      r.finished ? h('span', { class: 'hint' }, ' · finished') : null,
      h(
        'span',
        { class: 'no-print exports' },
        ' ',
        h('a', { href: `/api/tournaments/${encodeURIComponent(t.id)}/pairings.csv?round=${r.number}` }, 'CSV'),
        online ? [' ', h('a', { href: `/api/tournaments/${encodeURIComponent(t.id)}/matches.bpgn?round=${r.number}` }, 'BPGN')] : null,
      ),
    ),
    pairingsTable(r, extra, links),
    h('p', { class: 'hint colours' }, r.pairings.map(p => `Table ${p.table}: ${p.colours}. `)),
  );
}

function standingsTable(t: TournamentView): HTMLElement {
  const head = ['Rank', 'Team', 'Played', 'W', 'D', 'L', 'Byes', 'Match points', 'Game points', 'Buchholz', 'S-B'];
  return h(
    'table',
    { class: 'standings' },
    h('thead', {}, h('tr', {}, head.map(c => h('th', {}, c)))),
    h(
      'tbody',
      {},
      t.standings.map(s =>
        h(
          'tr',
          { 'data-team': s.name },
          h('td', { class: 'rank' }, s.rank),
          h('td', { class: 'team' }, s.name),
          h('td', {}, s.played),
          h('td', {}, s.won),
          h('td', {}, s.drawn),
          h('td', {}, s.lost),
          h('td', {}, s.byes),
          h('td', { class: 'mp' }, s.match_points),
          h('td', { class: 'gp' }, s.game_points),
          h('td', {}, s.buchholz),
          h('td', {}, s.sonneborn_berger),
        ),
      ),
    ),
  );
}

function teamsTable(t: TournamentView): HTMLElement {
  return h(
    'table',
    { class: 'teams' },
    h('thead', {}, h('tr', {}, ['No.', 'Team', 'First board', 'Partner', 'Rating'].map(c => h('th', {}, c)))),
    h(
      'tbody',
      {},
      t.teams.map(tm =>
        h('tr', {}, h('td', {}, tm.id + 1), h('td', {}, tm.name), h('td', {}, playerLabel(tm.first)), h('td', {}, playerLabel(tm.second)), h('td', {}, tm.rating ?? '')),
      ),
    ),
  );
}

function exportsLine(t: TournamentView): HTMLElement {
  const base = `/api/tournaments/${encodeURIComponent(t.id)}`;
  const online = t.rounds.some(r => r.pairings.some(p => p.match_id));
  return h(
    'p',
    { class: 'exports no-print' },
    'Export: ',
    h('a', { href: `${base}/standings.csv` }, 'standings CSV'),
    ' · ',
    h('a', { href: `${base}/pairings.csv` }, 'pairings CSV'),
    online ? [' · ', h('a', { href: `${base}/matches.bpgn` }, 'all games BPGN')] : null,
  );
}

// ---------------------------------------------------------------------------------------------
// Public and print

class PublicPage {
  private readonly follower: Follower;
  private readonly status = h('p', { class: 'hint no-print', role: 'status' }, 'Loading…');
  private readonly body = h('div', { class: 'tournament-body' });

  constructor(
    private readonly root: HTMLElement,
    private readonly id: string,
    private readonly print: boolean,
  ) {
    this.follower = new Follower(id, t => this.render(t), m => (this.status.textContent = `Could not load the tournament: ${m}`));
  }

  start(): void {
    const links = this.print
      ? h('nav', { class: 'no-print' }, h('button', { type: 'button', class: 'primary', onclick: () => window.print() }, 'Print'), ' ', h('a', { href: `/t/${encodeURIComponent(this.id)}` }, 'Back to the live page'))
      : h('nav', {}, h('a', { href: `/t/${encodeURIComponent(this.id)}/print` }, 'Printable page'), ' · ', h('a', { href: `/t/${encodeURIComponent(this.id)}/admin` }, 'Organiser'));
    fill(this.root, top(), h('main', { class: `tournament${this.print ? ' print-view' : ''}` }, links, this.status, this.body));
    this.follower.start(!this.print);
  }

  private render(t: TournamentView): void {
    document.title = `${t.name} · Bughouse`;
    this.status.textContent = this.print ? '' : 'Live: updated every few seconds.';
    const rounds = [...t.rounds].reverse();
    fill(
      this.body,
      h('h2', { class: 'tournament-name' }, t.name),
      summary(t),
      h('section', { class: 'standings-section' }, h('h3', {}, t.finished ? 'Final standings' : 'Standings'), standingsTable(t)),
      this.print ? null : exportsLine(t),
      rounds.map(r => roundSection(t, r, undefined, false)),
      this.print ? this.tableClocks(t) : null,
      h('section', { class: 'teams-section' }, h('h3', {}, 'Teams'), teamsTable(t)),
    );
  }

  /** On the organiser's printed pairings (this browser holds the secret): a QR code per open
   * table of the last round, for the arbiter to run that table's clock over the board. */
  private tableClocks(t: TournamentView): HTMLElement | null {
    const secret = storageGet(secretKey(this.id));
    const last = t.rounds[t.rounds.length - 1];
    if (!secret || !last) return null;
    const open = last.pairings.filter(p => !p.result && !p.match_id);
    if (open.length === 0) return null;
    const cells = open.map(p => {
      const holder = h('div', { class: 'otb-qr' }, '…');
      const path = `/api/tournaments/${encodeURIComponent(this.id)}/rounds/${last.number}/tables/${p.table}/otb.svg`;
      void fetch(path, { headers: { authorization: `Bearer ${secret}` } })
        .then(async res => {
          if (!res.ok) throw new Error(await errorOf(res));
          const svg = new DOMParser().parseFromString(await res.text(), 'image/svg+xml').documentElement;
          holder.replaceChildren(document.importNode(svg, true));
        })
        .catch(err => holder.replaceChildren(message(err)));
      return h('figure', { class: 'otb-table-clock' }, holder, h('figcaption', {}, `Round ${last.number}, table ${p.table}: ${p.home_name} – ${p.away_name}`));
    });
    return h('section', { class: 'otb-clocks' }, h('h3', {}, 'Table clocks (over the board)'), h('div', { class: 'otb-qr-grid' }, cells));
  }
}

// ---------------------------------------------------------------------------------------------
// Organiser

class AdminPage {
  private secret: string | null;
  private t: TournamentView | null = null;
  private readonly follower: Follower;
  private readonly status = h('p', { class: 'hint', role: 'status' });
  private readonly body = h('div', { class: 'tournament-body' });
  private busy = false;

  constructor(
    private readonly root: HTMLElement,
    private readonly id: string,
  ) {
    this.secret = storageGet(secretKey(id));
    this.follower = new Follower(id, t => this.onTournament(t), m => (this.status.textContent = `Could not load the tournament: ${m}`));
  }

  start(): void {
    const pub = `/t/${encodeURIComponent(this.id)}`;
    fill(
      this.root,
      top(),
      h(
        'main',
        { class: 'tournament admin' },
        h('nav', {}, h('a', { href: pub }, 'Public page'), ' · ', h('a', { href: `${pub}/print` }, 'Printable page')),
        this.status,
        this.body,
      ),
    );
    if (!this.secret) this.askSecret();
    else this.follower.start(true);
  }

  private askSecret(problem?: string): void {
    const input = h('input', { type: 'text', id: 't-secret', size: 50, 'aria-label': 'organiser secret' });
    const form = h(
      'form',
      { class: 'secret' },
      h('h2', {}, 'Organiser secret'),
      h('p', {}, problem ?? 'This browser does not hold the organiser secret of this tournament. Paste it here:'),
      input,
      ' ',
      h('button', { type: 'submit', class: 'primary' }, 'Use'),
    );
    form.addEventListener('submit', e => {
      e.preventDefault();
      const secret = input.value.trim();
      void api('GET', `/api/tournaments/${encodeURIComponent(this.id)}/auth`, undefined, secret)
        .then(() => {
          this.secret = secret;
          storageSet(secretKey(this.id), secret);
          this.follower.start(true);
        })
        .catch((err: unknown) => toast(message(err)));
    });
    fill(this.body, form);
  }

  private onTournament(t: TournamentView): void {
    this.t = t;
    document.title = `${t.name} · organiser · Bughouse`;
    this.status.textContent = '';
    // Do not pull the form from under the organiser's hands; the next poll renders it.
    const active = document.activeElement;
    if (this.busy || (active && this.body.contains(active) && active.matches('input, select, textarea'))) return;
    this.render(t);
  }

  private async act(method: string, path: string, body: Change, done?: string): Promise<boolean> {
    this.busy = true;
    try {
      const t = await api<TournamentView>(method, `/api/tournaments/${encodeURIComponent(this.id)}${path}`, body, this.secret);
      this.busy = false;
      (document.activeElement as HTMLElement | null)?.blur?.();
      this.follower.set(t);
      if (done) toast(done, 'info');
      return true;
    } catch (err) {
      this.busy = false;
      toast(message(err));
      return false;
    }
  }

  private render(t: TournamentView): void {
    const nextRound = t.rounds.length + 1;
    const online = h('input', { type: 'checkbox', id: 'pair-online' });
    const pair = h(
      'div',
      { class: 'pair-next' },
      t.cannot_pair === null
        ? [
            h('button', { type: 'button', class: 'primary', id: 'pair-round', onclick: () => void this.act('POST', '/rounds', { online: online.checked }, `Round ${nextRound} paired`) }, `Pair round ${nextRound}`),
            ' ',
            h('label', { for: 'pair-online' }, online, ' play online (one server match per pairing)'),
          ]
        : h('p', { class: 'hint' }, t.finished ? 'The tournament is finished.' : `Next round: ${t.cannot_pair}`),
    );
    const rounds = [...t.rounds].reverse();
    const lastRound = t.rounds.length;
    fill(
      this.body,
      h('h2', { class: 'tournament-name' }, t.name),
      summary(t),
      h('p', { class: 'hint' }, 'Share the public page with players and spectators; this page needs the organiser secret, which this browser keeps.'),
      exportsLine(t),
      t.teams_fixed ? null : this.teamForm(t),
      h('section', { class: 'teams-section' }, h('h3', {}, `Teams (${t.teams.length})`), teamsTable(t)),
      h('section', { class: 'pairing-section' }, h('h3', {}, 'Rounds'), pair),
      rounds.map(r =>
        roundSection(t, r, p => this.resultControls(t, r, p, t.format !== 'swiss' || r.number === lastRound), true),
      ),
      h('section', { class: 'standings-section' }, h('h3', {}, 'Standings'), standingsTable(t)),
    );
  }

  private teamForm(t: TournamentView): HTMLElement {
    const name = h('input', { type: 'text', id: 'team-name', maxlength: 80 });
    const p1 = h('input', { type: 'text', id: 'team-p1', maxlength: 32 });
    const r1 = h('input', { type: 'number', id: 'team-r1', min: 0, max: 4000, placeholder: 'rating', class: 'rating' });
    const p2 = h('input', { type: 'text', id: 'team-p2', maxlength: 32 });
    const r2 = h('input', { type: 'number', id: 'team-r2', min: 0, max: 4000, placeholder: 'rating', class: 'rating' });
    const firstIs1 = h('input', { type: 'radio', name: 'first-board', id: 'team-first-1', value: '1', checked: true });
    const firstIs2 = h('input', { type: 'radio', name: 'first-board', id: 'team-first-2', value: '2' });
    const submit = h('button', { type: 'submit', class: 'primary', id: 'team-add' }, 'Register team');
    const form = h(
      'form',
      { class: 'team-form', novalidate: true },
      h('h3', {}, `Register a team (${t.teams.length} so far)`),
      h('div', { class: 'form-row' }, h('label', { for: 'team-name' }, 'Team'), name),
      h('div', { class: 'form-row' }, h('label', { for: 'team-p1' }, 'Player 1'), p1, r1, h('label', { class: 'inline' }, firstIs1, ' first board')),
      h('div', { class: 'form-row' }, h('label', { for: 'team-p2' }, 'Player 2'), p2, r2, h('label', { class: 'inline' }, firstIs2, ' first board')),
      submit,
    );
    form.addEventListener('submit', e => {
      e.preventDefault();
      const player = (n: HTMLInputElement, r: HTMLInputElement): PlayerEntry =>
        r.value ? { name: n.value.trim(), rating: Number(r.value) } : { name: n.value.trim() };
      const a = player(p1, r1);
      const b = player(p2, r2);
      if (!name.value.trim() || !a.name || !b.name) {
        toast('A team needs a name and two players.');
        return;
      }
      const [first, second] = firstIs2.checked ? [b, a] : [a, b];
      submit.disabled = true;
      void this.act('POST', '/teams', { name: name.value.trim(), first, second }, `Team ${name.value.trim()} registered`).then(ok => {
        submit.disabled = false;
        if (ok) document.getElementById('team-name')?.focus();
      });
    });
    return form;
  }

  private resultControls(t: TournamentView, r: RoundView, p: PairingView, open: boolean): HTMLElement[] {
    if (!open) return [];
    const path = `/rounds/${r.number}/tables/${p.table}`;
    const sel = (cls: string, label: string, options: readonly { value: string; label: string }[], current: string | null): HTMLSelectElement =>
      h('select', { class: cls, 'aria-label': label }, h('option', { value: '' }, '—'), options.map(o => h('option', { value: o.value, selected: o.value === current }, o.label)));
    const games = GAME_RESULTS.map(g => ({ value: g, label: g === '1/2-1/2' ? '½-½' : g }));
    const a = sel('result-a', `round ${r.number} table ${p.table} board A`, games, p.result?.board_a ?? null);
    const b = sel('result-b', `round ${r.number} table ${p.table} board B`, games, p.result?.board_b ?? null);
    // First-game scoring takes a bare match result too; under knsb only a forfeit (both games
    // count, so a match result would not say what the games were).
    const matchOptions = t.scoring.first_game_decides ? MATCH_RESULTS : MATCH_RESULTS.filter(o => !o.value.includes('1'));
    const current = p.result && p.result.board_a === null ? p.result.match : null;
    const m = sel('result-match', `round ${r.number} table ${p.table} ${t.scoring.first_game_decides ? 'match result' : 'forfeit'}`, matchOptions, current);
    const save = h('button', { type: 'button', class: 'save-result' }, p.result ? 'Correct' : 'Save');
    save.addEventListener('click', () => {
      if (m.value) void this.act('PUT', `${path}/result`, { result: m.value as MatchResult }, `Round ${r.number} table ${p.table}: result saved`);
      else if (a.value && b.value) void this.act('PUT', `${path}/result`, { board_a: a.value as GameResult, board_b: b.value as GameResult }, `Round ${r.number} table ${p.table}: result saved`);
      else toast('Choose both boards’ results, or a match result.');
    });
    const out: HTMLElement[] = [
      h('span', { class: 'result-entry' }, 'A ', a, ' B ', b, t.scoring.first_game_decides ? ' or ' : ' forfeit ', m, ' ', save),
    ];
    if (p.match_id) {
      out.push(h('a', { class: 'match-link', href: `/m/${encodeURIComponent(p.match_id)}` }, p.result ? 'match record' : 'match link'));
    } else if (!p.result) {
      // Played on physical boards: the table's clock page, with its key, for the arbiter (issue 16).
      const otb = h('button', { type: 'button', class: 'otb-open', 'data-testid': `otb-open-${r.number}-${p.table}` }, 'Over the board');
      otb.addEventListener('click', () => {
        void api<CreatedOtbTable>('POST', `/api/tournaments/${encodeURIComponent(this.id)}${path}/otb`, undefined, this.secret)
          .then(created => {
            otb.replaceWith(h('a', { class: 'otb-link', href: created.url, target: '_blank' }, `table clock ${created.id}`));
          })
          .catch(err => toast(message(err)));
      });
      out.push(otb);
    }
    if (t.preset === 'uscf-scholastic-2006' && !p.result && !p.match_id) {
      for (const side of ['home', 'away'] as const) {
        const teamName = side === 'home' ? p.home_name : p.away_name;
        const choice = h(
          'select',
          { class: `colour-${side}`, 'aria-label': `${teamName}: who has White` },
          h('option', { value: '' }, `${teamName}: White is…`),
          h('option', { value: 'first' }, 'first-board player'),
          h('option', { value: 'second' }, 'partner'),
        );
        choice.addEventListener('change', () => {
          if (choice.value) void this.act('PUT', `${path}/colours`, { team: side, white: choice.value as Slot }, `${teamName}: colours saved (U3)`);
        });
        out.push(h('span', { class: 'colour-choice' }, choice));
      }
    }
    return out;
  }
}
