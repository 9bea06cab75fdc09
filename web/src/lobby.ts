// The lobby (`/`): create a match, list finished ones.

import { onAccount, siteHeader } from './account';
import { fill, h } from './dom';
import { parseTimeControl, resultText } from './helpers';
import { PRESETS, type ApiError, type ArchiveEntry, type CreateMatch, type CreatedMatch, type RulesCatalog } from './protocol';

const TIME_CONTROLS = ['5+0', '3+0', '2+12', '1+0'];
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
    { class: 'create', novalidate: true },
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

  fill(
    root,
    siteHeader(),
    h(
      'main',
      { class: 'lobby' },
      form,
      h('p', { class: 'tournament-link' }, h('a', { href: '/t/new' }, 'Organise a team tournament')),
      h(
        'section',
        { class: 'archive' },
        h('h2', {}, 'Finished matches'),
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
        archiveStatus,
        more,
      ),
    ),
  );
  load();
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
