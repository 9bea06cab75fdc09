// An organiser runs a 6-team, 5-round round robin start to finish in the browser, under
// minerva-2014 and under knsb-1988: creates the tournament, registers six teams through the
// form, pairs each round, enters every result by hand (one correction), and then the public
// page must show the final table computed here independently from the seats and results on the
// page, and the printable page must render without its controls.
//
// Run by e2e/run.sh, which starts the server and sets BUGHOUSE_URL.

import assert from 'node:assert/strict';
import { mkdirSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { after, before, test } from 'node:test';
import { fileURLToPath } from 'node:url';
import { chromium } from 'playwright-core';

const BASE = process.env.BUGHOUSE_URL ?? 'http://127.0.0.1:8080';
const CHROMIUM = process.env.CHROMIUM ?? '/usr/bin/chromium';
const ARTIFACTS = join(dirname(fileURLToPath(import.meta.url)), '..', 'artifacts');

const TEAMS = [
  { name: 'Rooks', p1: 'Ann', r1: '1900', p2: 'Bob', r2: '' },
  { name: 'Knights', p1: 'Cas', r1: '', p2: 'Dirk', r2: '' },
  { name: 'Bishops', p1: 'Eva', r1: '1700', p2: 'Fem', r2: '1650', firstIsTwo: true },
  { name: 'Queens', p1: 'Gus', r1: '', p2: 'Hal', r2: '' },
  { name: 'Kings', p1: 'Ivo', r1: '2100', p2: 'Jan', r2: '2000' },
  { name: 'Pawns', p1: 'Kim', r1: '', p2: 'Lot', r2: '' },
];

const GAMES = ['1-0', '0-1', '1/2-1/2'];

/** The results entered: board A and B of `table` in `round`, varied by round and table. */
function resultsFor(preset, round, table) {
  const a = GAMES[(round + table) % 3];
  const b = preset === 'knsb-1988' ? GAMES[(round * 2 + table) % 3] : '*';
  return { a, b };
}

const score = r => (r === '1-0' ? [1, 0] : r === '0-1' ? [0, 1] : r === '1/2-1/2' ? [0.5, 0.5] : [0, 0]);

let browser;
const pageErrors = [];

before(async () => {
  mkdirSync(ARTIFACTS, { recursive: true });
  browser = await chromium.launch({
    executablePath: CHROMIUM,
    headless: true,
    args: ['--headless', '--no-sandbox', '--disable-gpu', '--no-first-run', '--disable-background-networking', '--disable-component-update', '--disable-sync'],
  });
});

after(async () => {
  await browser?.close();
});

async function newPage() {
  const context = await browser.newContext({ viewport: { width: 1400, height: 1000 } });
  const page = await context.newPage();
  page.setDefaultTimeout(15_000);
  page.on('pageerror', err => pageErrors.push(err.message));
  page.on('console', msg => {
    if (msg.type() === 'error') pageErrors.push(`console: ${msg.text()}`);
  });
  return page;
}

/** The seats of a pairing row: team name per seat, read from "Player (Team)". */
async function seatTeams(row) {
  const out = {};
  for (const seat of ['WhiteA', 'BlackA', 'WhiteB', 'BlackB']) {
    const text = (await row.locator(`td[data-seat=${seat}]`).textContent()).trim();
    out[seat] = /\(([^)]*)\)$/.exec(text)[1];
  }
  return out;
}

async function runTournament(preset) {
  const page = await newPage();
  await page.goto(`${BASE}/`);
  await page.getByRole('link', { name: 'Organise a team tournament' }).click();
  await page.waitForURL(/\/t\/new$/);
  await page.locator('#t-name').fill(`Cup ${preset}`);
  await page.locator('#t-preset').selectOption(preset);
  await page.locator('#t-format').selectOption('round-robin');
  await page.locator('#t-tc').fill('3+2');
  await page.locator('#t-seed').fill('2026');
  await page.getByRole('button', { name: 'Create tournament' }).click();
  await page.waitForURL(/\/t\/[^/]+\/admin$/);
  const adminUrl = page.url();
  const publicUrl = adminUrl.replace(/\/admin$/, '');

  // Six teams through the registration form.
  for (const [i, t] of TEAMS.entries()) {
    await page.locator('#team-name').fill(t.name);
    await page.locator('#team-p1').fill(t.p1);
    await page.locator('#team-r1').fill(t.r1);
    await page.locator('#team-p2').fill(t.p2);
    await page.locator('#team-r2').fill(t.r2);
    if (t.firstIsTwo) await page.locator('#team-first-2').check();
    await page.locator('#team-add').click();
    await page.locator('table.teams tbody tr').nth(i).waitFor();
  }
  assert.equal(await page.locator('table.teams tbody tr').count(), 6);
  // Bishops registered Fem (player 2) as first-board player.
  assert.match(await page.locator('table.teams tbody tr').nth(2).textContent(), /Bishops\s*Fem \(1650\)\s*Eva \(1700\)/);

  const points = Object.fromEntries(TEAMS.map(t => [t.name, { mp: 0, gp: 0 }]));
  const firstGame = preset !== 'knsb-1988';
  const record = (seats, a, b, sign = 1) => {
    // Side one is WhiteA + BlackB, side two BlackA + WhiteB.
    const one = seats.WhiteA;
    const two = seats.BlackA;
    const [a1, a2] = score(a);
    const [b2, b1] = score(b); // board B's White is side two
    let g1, g2, m1, m2;
    if (firstGame) {
      [g1, g2] = [a1, a2];
      [m1, m2] = [a1, a2];
    } else {
      [g1, g2] = [a1 + b1, a2 + b2];
      [m1, m2] = g1 > g2 ? [2, 0] : g1 < g2 ? [0, 2] : [1, 1];
    }
    points[one].mp += sign * m1;
    points[one].gp += sign * g1;
    points[two].mp += sign * m2;
    points[two].gp += sign * g2;
  };

  let correction;
  for (let round = 1; round <= 5; round++) {
    await page.locator('#pair-round').click();
    const section = page.locator(`section.round[data-round="${round}"]`);
    await section.waitFor();
    const rows = section.locator('table.pairings tbody tr[data-table]');
    assert.equal(await rows.count(), 3, `round ${round} has three tables`);
    for (let table = 1; table <= 3; table++) {
      const row = page.locator(`section.round[data-round="${round}"] tr[data-table="${table}"]`);
      const seats = await seatTeams(row);
      const { a, b } = resultsFor(preset, round, table);
      await row.locator('select.result-a').selectOption(a);
      await row.locator('select.result-b').selectOption(b);
      await row.locator('button.save-result').click();
      await page.locator(`section.round[data-round="${round}"] tr[data-table="${table}"] td.result`).filter({ hasText: /\S/ }).waitFor();
      record(seats, a, b);
      if (round === 5 && table === 1) correction = { seats, a, b };
    }
    await page.locator(`section.round[data-round="${round}"] h3`, { hasText: 'finished' }).waitFor();
  }
  // A correction: round 5 table 1, board A the other way round (and B too under knsb).
  {
    const { seats, a, b } = correction;
    record(seats, a, b, -1);
    const fixedA = a === '1-0' ? '0-1' : '1-0';
    const fixedB = firstGame ? '*' : fixedA === '1-0' ? '0-1' : '1-0';
    const row = page.locator('section.round[data-round="5"] tr[data-table="1"]');
    await row.locator('select.result-a').selectOption(fixedA);
    await row.locator('select.result-b').selectOption(fixedB);
    await row.getByRole('button', { name: 'Correct' }).click();
    await page.locator('section.round[data-round="5"] tr[data-table="1"] td.games', { hasText: `A ${fixedA}` }).waitFor();
    record(seats, fixedA, fixedB);
  }
  await page.locator('.pair-next', { hasText: 'The tournament is finished.' }).waitFor();

  // The public page, in another browser (no secret): the final table.
  const viewer = await newPage();
  await viewer.goto(publicUrl);
  await viewer.locator('h3', { hasText: 'Final standings' }).waitFor();
  const rows = viewer.locator('table.standings tbody tr');
  assert.equal(await rows.count(), 6);
  const shown = [];
  for (let i = 0; i < 6; i++) {
    const r = rows.nth(i);
    shown.push({
      team: (await r.locator('td.team').textContent()).trim(),
      mp: Number(await r.locator('td.mp').textContent()),
      gp: Number(await r.locator('td.gp').textContent()),
    });
  }
  for (const s of shown) {
    assert.deepEqual({ mp: s.mp, gp: s.gp }, points[s.team], `${preset}: ${s.team}'s points`);
  }
  for (let i = 1; i < shown.length; i++) {
    const [p, q] = [shown[i - 1], shown[i]];
    assert.ok(p.mp > q.mp || (p.mp === q.mp && p.gp >= q.gp), `${preset}: ranked by match then game points`);
  }
  const total = shown.reduce((sum, s) => sum + s.mp, 0);
  assert.equal(total, firstGame ? 15 : 30, `${preset}: every match hands out its points`);
  assert.equal(await viewer.locator('#pair-round').count(), 0, 'no organiser controls in public');
  await viewer.screenshot({ path: join(ARTIFACTS, `tournament-${preset}-public.png`), fullPage: true });

  // The printable page: standings and the five rounds, the controls hidden when printed.
  const print = await newPage();
  await print.goto(`${publicUrl}/print`);
  await print.locator('main.print-view h3', { hasText: 'Final standings' }).waitFor();
  assert.equal(await print.locator('section.round').count(), 5);
  await print.emulateMedia({ media: 'print' });
  assert.equal(await print.getByRole('button', { name: 'Print' }).isVisible(), false, 'no print button on paper');
  assert.equal(await print.locator('header.top').isVisible(), false);
  assert.equal(await print.locator('table.standings').isVisible(), true);
  const pdf = await print.pdf({ path: join(ARTIFACTS, `tournament-${preset}.pdf`) });
  assert.ok(pdf.length > 1000, 'the printable page prints');

  // The CSV export holds the final table.
  const csv = await viewer.evaluate(async url => (await fetch(url)).text(), `${publicUrl.replace('/t/', '/api/tournaments/')}/standings.csv`);
  for (const t of TEAMS) assert.ok(csv.includes(t.name), `the CSV lists ${t.name}`);
  await page.screenshot({ path: join(ARTIFACTS, `tournament-${preset}-admin.png`), fullPage: true });
  await Promise.all([page.context().close(), viewer.context().close(), print.context().close()]);
}

test('an organiser runs a 6-team, 5-round minerva-2014 round robin in the browser', { timeout: 120_000 }, async () => {
  await runTournament('minerva-2014');
  assert.deepEqual(pageErrors, []);
});

test('an organiser runs a 6-team, 5-round knsb-1988 round robin in the browser', { timeout: 120_000 }, async () => {
  await runTournament('knsb-1988');
  assert.deepEqual(pageErrors, []);
});
