// The lobby (`/`): play now, open matches to join, matches in progress to watch (both boards in
// miniature), kept up to date by the server's live feed; create a match; the finished ones.

import { onAccount, siteHeader } from './account';
import { fill, h, playerNameInput, storageGet, storageSet } from './dom';
import { BOT_WAIT_KEY, BOT_WAITS, botWaitMs, cleanName, NAME_KEY, parseTimeControl, resultText, tokenKey } from './helpers';
import { LiveGames } from './livegames';
import {
  PRESETS,
  type ApiError,
  type ArchiveEntry,
  type CreateMatch,
  type CreatedMatch,
  type LobbySnapshot,
  type OpenMatch,
  type PlacedSeat,
  type PlayNow,
  type RulesCatalog,
  type SeatName,
} from './protocol';

const TIME_CONTROLS = ['5+0', '3+0', '2+12', '1+0'];
/** The time controls "play now" offers. */
const PLAY_TIME_CONTROLS = ['1+0', '3+0', '5+0', '2+12'];
const PAGE = 50;

export function renderLobby(root: HTMLElement): void {
  document.title = 'Bughouse';
  const rules = h(
    'select',
    { id: 'rules', name: 'rules' },
    PRESETS.map(p => h('option', { value: p.id, title: p.description }, p.id)),
  );
  const description = h('p', { class: 'hint', id: 'rules-description' });
  const showDescription = (): void => {
    description.textContent = PRESETS.find(p => p.id === rules.value)?.description ?? '';
  };
  rules.addEventListener('change', showDescription);
  showDescription();

  // Custom rules: every field of the chosen preset, changeable; only changed fields are sent.
  let catalog: RulesCatalog | null = null;
  const ruleInputs = new Map<string, HTMLInputElement | HTMLSelectElement>();
  const fieldRows = h('div', { class: 'rule-fields' }, h('p', { class: 'hint' }, 'Loading the rules…'));
  const customRules = h(
    'details',
    { class: 'custom-rules', id: 'custom-rules' },
    h('summary', {}, 'Custom rules'),
    h('p', { class: 'hint' }, 'Start from the rulebook above and change any decision point (see RULES.md).'),
    fieldRows,
  );
  const presetValues = (): Map<string, string> =>
    new Map((catalog?.presets.find(p => p.id === rules.value)?.settings ?? []).map(s => [s.field, s.value]));
  const resetFields = (): void => {
    const values = presetValues();
    for (const [name, input] of ruleInputs) input.value = values.get(name) ?? '';
  };
  const changedFields = (): Record<string, string> => {
    const values = presetValues();
    const changed: Record<string, string> = {};
    for (const [name, input] of ruleInputs) {
      const value = input.value.trim();
      if (value !== values.get(name)) changed[name] = value;
    }
    return changed;
  };
  rules.addEventListener('change', resetFields);
  void fetchRules()
    .then(c => {
      catalog = c;
      fill(
        fieldRows,
        c.fields.map(f => {
          const id = `rule-${f.name}`;
          const input = f.options
            ? h('select', { id, name: f.name }, f.options.map(o => h('option', { value: o }, o)))
            : h('input', {
                id,
                name: f.name,
                type: 'text',
                size: 6,
                title: f.name === 'promotion_roles' ? 'letters of Q, R, B, N' : 'none, or a number',
              });
          ruleInputs.set(f.name, input);
          return h('div', { class: 'rule-field' }, h('label', { for: id }, f.name.replaceAll('_', ' ')), input);
        }),
      );
      resetFields();
    })
    .catch((err: unknown) => {
      fill(fieldRows, h('p', { class: 'form-error' }, `Could not load the rules: ${err instanceof Error ? err.message : String(err)}`));
    });

  const custom = h('input', {
    type: 'text',
    name: 'custom',
    placeholder: 'M+S',
    size: 6,
    pattern: '\\d+(\\.\\d+)?\\+\\d+',
    title: 'minutes + seconds of increment, e.g. 4+2',
    'aria-label': 'custom time control',
  });
  const tcRadios = [...TIME_CONTROLS, 'custom'].map((tc, i) =>
    h(
      'label',
      { class: 'tc' },
      h('input', { type: 'radio', name: 'tc', value: tc, checked: i === 0 }),
      tc === 'custom' ? ['custom ', custom] : tc,
    ),
  );
  custom.addEventListener('focus', () => {
    const radio = tcRadios.at(-1)?.querySelector('input');
    if (radio) radio.checked = true;
  });

  // Rated or casual: offered to a signed-in player only.
  const rated = h('input', { type: 'checkbox', id: 'rated', name: 'rated' });
  const allowBots = h('input', { type: 'checkbox', id: 'allow-bots', name: 'allow_bots' });
  const ratedBox = h(
    'fieldset',
    { class: 'rated', hidden: true },
    h('legend', {}, 'Rating'),
    h('label', {}, rated, ' Rated: only signed-in players sit, the result changes their ratings'),
    h('label', { class: 'allow-bots' }, allowBots, ' Bots may sit (their ratings are fixed)'),
  );
  const guestHint = h('p', { class: 'hint rated-hint' }, 'Sign in to create a rated match.');
  onAccount(account => {
    ratedBox.hidden = !account;
    guestHint.hidden = !!account;
    if (!account) rated.checked = false;
  });
  const status = h('p', { class: 'form-error', role: 'alert' });
  const submit = h('button', { type: 'submit', class: 'primary' }, 'Create match');
  const form = h(
    'form',
    { class: 'card create', novalidate: true },
    h('h2', {}, 'New match'),
    h('label', { for: 'rules' }, 'Rulebook '),
    rules,
    description,
    customRules,
    h('fieldset', {}, h('legend', {}, 'Time control (minutes + seconds increment)'), tcRadios),
    ratedBox,
    guestHint,
    submit,
    status,
  );
  form.addEventListener('submit', e => {
    e.preventDefault();
    const chosen = (form.querySelector('input[name=tc]:checked') as HTMLInputElement | null)?.value ?? '5+0';
    const tc = chosen === 'custom' ? custom.value.replace(/\s+/g, '') : chosen;
    if (!parseTimeControl(tc)) {
      status.textContent = 'The time control is minutes + seconds, e.g. 3+2.';
      return;
    }
    status.textContent = '';
    submit.disabled = true;
    const rating = { rated: rated.checked, allowBots: rated.checked && allowBots.checked };
    void createMatch(rules.value, tc, customRules.open ? changedFields() : {}, rating)
      .then(id => location.assign(`/m/${encodeURIComponent(id)}`))
      .catch((err: unknown) => {
        status.textContent = err instanceof Error ? err.message : String(err);
        submit.disabled = false;
      });
  });

  const archive = h('tbody');
  const more = h('button', { type: 'button' }, 'More');
  const archiveStatus = h('p', { class: 'hint' }, 'Loading…');
  let offset = 0;
  const load = (): void => {
    more.disabled = true;
    void fetchArchive(offset)
      .then(entries => {
        archiveStatus.textContent = offset === 0 && entries.length === 0 ? 'No finished matches yet.' : '';
        archive.append(...entries.map(archiveRow));
        offset += entries.length;
        more.hidden = entries.length < PAGE;
        more.disabled = false;
      })
      .catch((err: unknown) => {
        archiveStatus.textContent = `Could not load the archive: ${err instanceof Error ? err.message : String(err)}`;
        more.hidden = true;
      });
  };
  more.addEventListener('click', load);
  more.hidden = true;

  // The player's name, asked here once and remembered: Play now, Join and the match page use it.
  const nameInput = playerNameInput(storageGet(NAME_KEY) ?? '');
  const nameError = h('span', { class: 'form-error', role: 'alert' });
  nameInput.addEventListener('change', () => {
    const name = cleanName(nameInput.value);
    if (name) storageSet(NAME_KEY, name);
    nameError.textContent = '';
  });
  /** The name, saved; or null, with the field asking for one. */
  const playerName = (): string | null => {
    const name = cleanName(nameInput.value);
    if (!name) {
      nameError.textContent = 'Enter a name first (1 to 32 characters).';
      nameInput.focus();
      return null;
    }
    storageSet(NAME_KEY, name);
    nameError.textContent = '';
    return name;
  };

  // Play now: a seat in an open match of this kind, or a new match.
  const playRules = h(
    'select',
    { id: 'play-rules', name: 'play-rules', 'aria-label': 'rulebook' },
    PRESETS.map(p => h('option', { value: p.id, title: p.description }, p.id)),
  );
  const playTcs = PLAY_TIME_CONTROLS.map((tc, i) =>
    h('label', { class: 'chip' }, h('input', { type: 'radio', name: 'play-tc', value: tc, checked: i === 1 }), h('span', {}, tc)),
  );
  // A signed-in player plays under his account's name, and may ask for a rated match.
  let signedIn: string | null = null;
  const playRated = h('input', { type: 'checkbox', id: 'play-rated', name: 'play-rated' });
  const playRatedField = h(
    'label',
    { class: 'field play-rated', hidden: true },
    playRated,
    ' Rated (among signed-in players; no bots)',
  );
  const nameField = h('div', { class: 'field' }, h('label', { for: 'player-name' }, 'Your name'), nameInput, nameError);
  const playingAs = h('p', { class: 'field playing-as', hidden: true });
  onAccount(account => {
    signedIn = account?.username ?? null;
    nameField.hidden = !!account;
    playingAs.hidden = !account;
    playingAs.textContent = account ? `Playing as ${account.username}${account.rating ? ` (${Math.round(account.rating.rating)})` : ''}` : '';
    playRatedField.hidden = !account;
    if (!account) playRated.checked = false;
  });
  // How long to wait for people before the match page offers bots (remembered).
  const botWait = h(
    'select',
    { id: 'bot-wait', name: 'bot-wait', 'aria-label': 'offer bots after' },
    BOT_WAITS.map(([ms, label]) => h('option', { value: String(ms), selected: ms === botWaitMs(storageGet(BOT_WAIT_KEY)) }, label)),
  );
  botWait.addEventListener('change', () => storageSet(BOT_WAIT_KEY, botWait.value));
  const playButton = h('button', { type: 'submit', class: 'primary big', id: 'play-now' }, 'Play now');
  const playStatus = h('p', { class: 'form-error', role: 'alert' });
  const playForm = h(
    'form',
    { class: 'card play', novalidate: true },
    h('h2', {}, 'Play'),
    nameField,
    playingAs,
    h('div', { class: 'field' }, h('label', { for: 'play-rules' }, 'Rulebook'), playRules),
    h('div', { class: 'field' }, h('span', { class: 'label' }, 'Time control'), h('div', { class: 'chips', role: 'radiogroup', 'aria-label': 'time control' }, playTcs)),
    playRatedField,
    h('div', { class: 'field' }, h('label', { for: 'bot-wait' }, 'Offer bots after'), botWait),
    playButton,
    h(
      'p',
      { class: 'hint' },
      'Seats you with players of about your rating (the range widens the longer a match waits), or opens a new match. If nobody comes, you can fill the seats with bots of about your strength.',
    ),
    playStatus,
  );
  playForm.addEventListener('submit', e => {
    e.preventDefault();
    const name = signedIn ?? playerName();
    if (!name) return;
    const tc = (playForm.querySelector('input[name=play-tc]:checked') as HTMLInputElement | null)?.value ?? '3+0';
    playButton.disabled = true;
    playStatus.textContent = '';
    const request: PlayNow = { rules: playRules.value, time_control: tc, name };
    if (playRated.checked) request.rated = true;
    void playNow(request)
      .then(placed => {
        storageSet(tokenKey(placed.match_id), placed.token);
        location.assign(`/m/${encodeURIComponent(placed.match_id)}`);
      })
      .catch((err: unknown) => {
        playStatus.textContent = err instanceof Error ? err.message : String(err);
        playButton.disabled = false;
      });
  });

  // The lists the feed keeps up to date.
  const counts = h('span', { class: 'counts', id: 'lobby-counts' });
  const openList = h('div', { class: 'open-list' }, h('p', { class: 'hint' }, 'Loading…'));
  const live = new LiveGames();
  const liveEmpty = h('p', { class: 'hint' }, 'No match is being played right now.');
  const join = (id: string, seat: SeatName): void => {
    if (!playerName()) return;
    location.assign(`/m/${encodeURIComponent(id)}?sit=${seat}`);
  };
  const show = (snapshot: LobbySnapshot): void => {
    counts.textContent = `${snapshot.online} online · ${snapshot.playing} playing`;
    fill(
      openList,
      snapshot.open.length === 0
        ? h('p', { class: 'hint' }, 'No match is waiting for players: press Play now, or create one.')
        : snapshot.open.map(m => openRow(m, join)),
    );
    live.update(snapshot.live);
    liveEmpty.hidden = snapshot.live.length > 0;
  };
  followLobby(show, counts);

  fill(
    root,
    siteHeader(counts),
    h(
      'main',
      { class: 'lobby' },
      h(
        'div',
        { class: 'lobby-side' },
        playForm,
        form,
        h('p', { class: 'tournament-link' }, h('a', { href: '/t/new' }, 'Organise a team tournament')),
        h('p', { class: 'tournament-link' }, h('a', { href: '/otb' }, 'Clock for over-the-board play')),
      ),
      h(
        'div',
        { class: 'lobby-main' },
        h('section', { class: 'card open-matches' }, h('h2', {}, 'Open matches'), openList),
        h('section', { class: 'card live-matches' }, h('h2', {}, 'Playing now'), liveEmpty, live.el),
        h(
          'section',
          { class: 'card archive' },
          h('h2', {}, 'Finished matches'),
          h(
            'div',
            { class: 'table-scroll' },
            h(
              'table',
              {},
              h(
                'thead',
                {},
                h('tr', {}, h('th', {}, 'finished'), h('th', {}, 'rules'), h('th', {}, 'WhiteA + BlackB'), h('th', {}, 'BlackA + WhiteB'), h('th', {}, 'result'), h('th', {})),
              ),
              archive,
            ),
          ),
          archiveStatus,
          more,
        ),
      ),
    ),
  );
  load();
}

/** One open match: rulebook, time control, the seats by team, a Join button on each free one. */
function openRow(m: OpenMatch, join: (id: string, seat: SeatName) => void): HTMLElement {
  const rating = (s: SeatName): number | null => m.seat_ratings[m.seats.findIndex(x => x.seat === s)] ?? null;
  const seat = (s: SeatName): HTMLElement => {
    const info = m.seats.find(x => x.seat === s);
    const taken = !!info && (info.name !== null || info.bot);
    return h(
      'li',
      { class: `open-seat${taken ? ' taken' : ''}`, 'data-seat': s },
      h('span', { class: 'seat' }, s),
      taken
        ? h(
            'span',
            { class: 'player-name' },
            info!.name ?? 'bot',
            info!.bot ? h('span', { class: 'tag' }, 'bot') : null,
            rating(s) !== null ? h('span', { class: 'seat-rating' }, ` ${rating(s)}`) : null,
          )
        : h('button', { type: 'button', class: 'join', 'aria-label': `Join ${s}`, onclick: () => join(m.match_id, s) }, 'Join'),
    );
  };
  return h(
    'div',
    { class: 'open-match', 'data-match': m.match_id },
    h(
      'div',
      { class: 'open-head' },
      h('span', { class: 'rules' }, m.rules),
      h('span', { class: 'tc' }, m.time_control),
      m.rated ? h('span', { class: 'rated-tag rated' }, 'rated') : null,
      m.rating !== null ? h('span', { class: 'hint mean-rating', title: 'mean rating of the seated players' }, `≈${m.rating}`) : null,
      h('span', { class: 'hint' }, `${m.free} free`),
      h('a', { href: `/m/${encodeURIComponent(m.match_id)}`, class: 'watch' }, 'open'),
    ),
    h('ul', { class: 'team' }, seat('WhiteA'), seat('BlackB')),
    h('ul', { class: 'team' }, seat('BlackA'), seat('WhiteB')),
  );
}

/**
 * Follows the lobby's live feed (server-sent events, a snapshot each); the browser reconnects
 * by itself. The counts say when the feed is lost.
 */
function followLobby(show: (s: LobbySnapshot) => void, counts: HTMLElement): void {
  if (typeof EventSource === 'undefined') {
    const poll = (): void => {
      void fetch('/api/lobby')
        .then(async res => (res.ok ? show((await res.json()) as LobbySnapshot) : undefined))
        .finally(() => window.setTimeout(poll, 3000));
    };
    poll();
    return;
  }
  const feed = new EventSource('/api/lobby/events');
  feed.onmessage = e => {
    try {
      show(JSON.parse(String(e.data)) as LobbySnapshot);
    } catch {
      // a snapshot that cannot be read: the next one will do
    }
  };
  feed.onerror = () => {
    counts.textContent = 'reconnecting…';
  };
}

function archiveRow(e: ArchiveEntry): HTMLTableRowElement {
  const name = (i: number): string => e.players[i] ?? '?';
  const when = new Date(e.finished_at);
  const href = `/m/${encodeURIComponent(e.match_id)}`;
  return h(
    'tr',
    {},
    h('td', {}, h('time', { datetime: when.toISOString() }, when.toLocaleString())),
    h('td', {}, e.rules),
    h('td', {}, `${name(0)} & ${name(3)}`),
    h('td', {}, `${name(1)} & ${name(2)}`),
    h('td', { title: resultText(e.result) }, e.result),
    h('td', {}, h('a', { href }, 'view')),
  );
}

async function errorOf(res: Response): Promise<string> {
  try {
    // Every refused request answers an ApiError: a code (`invalid`) and what was wrong.
    const body = (await res.json()) as Partial<ApiError>;
    if (body.message) return body.message;
    if (body.error) return body.error;
  } catch {
    // not JSON
  }
  return `${res.status} ${res.statusText}`;
}

async function createMatch(
  rules: string,
  timeControl: string,
  custom: Record<string, string>,
  rating: { rated: boolean; allowBots: boolean },
): Promise<string> {
  const request: CreateMatch = { rules, time_control: timeControl };
  if (Object.keys(custom).length > 0) request.custom = custom;
  if (rating.rated) request.rated = true;
  if (rating.allowBots) request.allow_bots = true;
  const res = await fetch('/api/matches', {
    method: 'POST',
    headers: { 'content-type': 'application/json' },
    body: JSON.stringify(request),
  });
  if (!res.ok) throw new Error(await errorOf(res));
  const body = (await res.json()) as CreatedMatch;
  if (!body.match_id) throw new Error('the server did not answer with a match id');
  return body.match_id;
}

async function fetchRules(): Promise<RulesCatalog> {
  const res = await fetch('/api/rules');
  if (!res.ok) throw new Error(await errorOf(res));
  return (await res.json()) as RulesCatalog;
}

async function fetchArchive(offset: number): Promise<ArchiveEntry[]> {
  const res = await fetch(`/api/archive?limit=${PAGE}&offset=${offset}`);
  if (!res.ok) throw new Error(await errorOf(res));
  return (await res.json()) as ArchiveEntry[];
}

async function playNow(request: PlayNow): Promise<PlacedSeat> {
  const res = await fetch('/api/lobby/play', {
    method: 'POST',
    headers: { 'content-type': 'application/json' },
    body: JSON.stringify(request),
  });
  if (!res.ok) throw new Error(await errorOf(res));
  return (await res.json()) as PlacedSeat;
}
