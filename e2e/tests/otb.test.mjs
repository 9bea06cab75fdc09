// The over-the-board clock page (issue 16) on a tablet (1024 × 768, touch): a table opened from
// /otb, the four clocks pressed by tapping, claims and their decisions with the rulebook's
// article as the server returns them:
//
// - minerva-2014: White A lets his flag fall; on board B White B falls after Black B: one clock
//   of each team is down, and the draw is declared at once (M5.5), with no claim.
// - knsb-1988: White A makes an illegal move and presses; Black A claims it; White A's clock is
//   restarted to replace the move (K8C), also on a second device following the table; he
//   replaces it and presses again; the scorer enters moves, an illegal one refused.
// - uscf-scholastic-2006: Black A's flag falls while White A's own flag is still up; White A
//   claims it and wins (U15a3), and the match is over (U7).
//
// - offline (fide): the table page loaded once, the network goes; the players press on, the page
//   is reloaded without the network (the service worker keeps it, the last answer and the
//   events made since run the clock), a claim waits for the network; when it is back, every
//   event reaches the server once and the claim is decided (F4.2).
//
// Time controls of three seconds keep each table to a few seconds. Screenshots go to
// e2e/artifacts/otb-*.png. Run by e2e/run.sh.

import assert from 'node:assert/strict';
import { mkdirSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { after, before, test } from 'node:test';
import { fileURLToPath } from 'node:url';
import { chromium } from 'playwright-core';

const BASE = process.env.BUGHOUSE_URL ?? 'http://127.0.0.1:8080';
const CHROMIUM = process.env.CHROMIUM ?? '/usr/bin/chromium';
const ARTIFACTS = join(dirname(fileURLToPath(import.meta.url)), '..', 'artifacts');
const TABLET = { viewport: { width: 1024, height: 768 }, hasTouch: true, isMobile: true, deviceScaleFactor: 1 };

let browser;
const pageErrors = [];

before(async () => {
  mkdirSync(ARTIFACTS, { recursive: true });
  browser = await chromium.launch({
    executablePath: CHROMIUM,
    headless: true,
    args: ['--headless', '--no-sandbox', '--disable-gpu', '--no-first-run', '--disable-background-networking'],
  });
});

after(async () => {
  await browser?.close();
  assert.deepEqual(pageErrors, [], 'no script errors in any page');
});

/** A tablet page on a new table of `rulebook` with `seconds` per player. */
async function openTable(rulebook, seconds) {
  const context = await browser.newContext(TABLET);
  const page = await context.newPage();
  page.setDefaultTimeout(15_000);
  page.on('pageerror', err => pageErrors.push(`${rulebook}: ${err.message}`));
  await page.goto(`${BASE}/otb`);
  await page.getByTestId('otb-rulebook').selectOption(rulebook);
  await page.getByTestId('otb-minutes').fill(String(seconds / 60));
  await page.getByTestId('otb-create').tap();
  await page.waitForURL(/\/otb\/[A-Za-z0-9]+#/);
  await page.getByTestId('otb-start').waitFor();
  return page;
}

const face = (page, seat) => page.getByTestId(`otb-face-${seat}`);
const decision = (page, text) => page.locator('[data-testid=otb-decision]', { hasText: text }).waitFor();

async function shot(page, name) {
  await page.screenshot({ path: join(ARTIFACTS, `otb-${name}.png`), fullPage: true });
}

test('minerva-2014: one flag of each team down, the draw is declared at once (M5.5)', async () => {
  const page = await openTable('minerva-2014', 3);
  assert.match(await page.getByTestId('otb-start').innerText(), /Black players.*M6\.4/);
  await page.getByTestId('otb-start').tap();
  await decision(page, 'M6.4');
  // Board B: White B and Black B move; board A: White A thinks until his flag falls.
  await face(page, 'WhiteB').tap();
  await face(page, 'BlackB').tap();
  await page.waitForFunction(() => document.querySelector('[data-testid=otb-face-WhiteA]')?.classList.contains('flag'));
  await shot(page, 'minerva-one-flag');
  // No claim: as soon as White B's flag falls too, the draw is declared.
  await decision(page, 'M5.5');
  const text = await page.getByTestId('otb-decision').innerText();
  assert.match(text, /Both games are drawn/);
  assert.match(text, /Match drawn/);
  await page.getByTestId('otb-result').filter({ hasText: '1/2-1/2' }).waitFor();
  const record = await page.getByTestId('otb-record').innerText();
  assert.match(record, /White A’s flag fell/);
  assert.match(record, /White B’s flag fell/);
  await shot(page, 'minerva-both-teams-flag');
  await page.context().close();
});

test('knsb-1988: an illegal move claimed, the offender’s clock restarted, the move replaced (K8C)', async () => {
  const page = await openTable('knsb-1988', 60);
  // A second device on the same table (the arbiter's phone): it follows without reloading.
  const phone = await (await browser.newContext(TABLET)).newPage();
  phone.on('pageerror', err => pageErrors.push(`phone: ${err.message}`));
  await phone.goto(page.url());
  await page.getByTestId('otb-start').tap();
  await decision(page, 'K1E');
  // White A makes an illegal move and presses his clock.
  await face(page, 'WhiteA').tap();
  await page.waitForFunction(() => document.querySelector('[data-testid=otb-face-BlackA]')?.classList.contains('running'));
  // Black A claims before moving.
  await page.getByTestId('otb-claimant-BlackA').tap();
  await page.getByTestId('otb-claim-illegal_move').tap();
  await decision(page, 'K8C');
  assert.match(await page.getByTestId('otb-decision').innerText(), /White A’s clock is restarted/);
  await phone.locator('[data-testid=otb-decision]', { hasText: 'K8C' }).waitFor();
  await phone.context().close();
  await page.waitForFunction(() => document.querySelector('[data-testid=otb-face-WhiteA]')?.classList.contains('running'));
  assert.equal(await face(page, 'BlackA').isDisabled(), true, 'Black A waits for the replacement');
  await shot(page, 'knsb-illegal-move');
  // White A replaces the move and presses: Black A is on move again.
  await face(page, 'WhiteA').tap();
  await page.waitForFunction(() => document.querySelector('[data-testid=otb-face-BlackA]')?.classList.contains('running'));
  // The scorer enters moves; an illegal one (Black's king onto his own pawn) is refused by the
  // engine and not listed.
  await page.getByTestId('otb-move-A').fill('e4');
  await page.getByTestId('otb-enter-A').tap();
  await page.getByTestId('otb-moves-A').filter({ hasText: '1. e4' }).waitFor();
  await page.getByTestId('otb-move-A').fill('Ke7');
  await page.getByTestId('otb-enter-A').tap();
  await page.getByText(/"Ke7" is not a legal move for BlackA/).waitFor();
  await page.getByTestId('otb-move-A').fill('e5');
  await page.getByTestId('otb-enter-A').tap();
  await page.getByTestId('otb-moves-A').filter({ hasText: '1. e4 e5' }).waitFor();
  // The record so far as BPGN, from the page's download link.
  const bpgn = await page.getByTestId('otb-bpgn').evaluate(async (a) => (await fetch(a.href)).text());
  assert.match(bpgn, /\[Rules "knsb-1988"\]|knsb/i);
  assert.match(bpgn, /1A\. e4 .*1a\. e5/s);
  // A second illegal move: the same decision, and the arbiter may forfeit (K8F).
  await page.getByTestId('otb-claim-illegal_move').tap();
  await decision(page, 'K8F');
  await shot(page, 'knsb-replaced');
  await page.context().close();
});

test('uscf-scholastic-2006: a flag claim while the claimant’s own flag is up wins (U15a3)', async () => {
  const page = await openTable('uscf-scholastic-2006', 3);
  await page.getByTestId('otb-start').tap();
  await decision(page, 'U6');
  await face(page, 'WhiteA').tap();
  // Black A thinks until his flag falls; White A still has time.
  await page.waitForFunction(() => document.querySelector('[data-testid=otb-face-BlackA]')?.classList.contains('flag'));
  assert.equal(await face(page, 'WhiteA').evaluate(el => el.classList.contains('flag')), false);
  await page.getByTestId('otb-claimant-WhiteA').tap();
  await page.getByTestId('otb-claim-flag').tap();
  await decision(page, 'U15a3');
  const text = await page.getByTestId('otb-decision').innerText();
  assert.match(text, /White A wins board A/);
  assert.match(text, /U7/);
  await page.getByTestId('otb-result').filter({ hasText: '1-0' }).waitFor();
  await shot(page, 'uscf-flag-claim');
  await page.context().close();
});

test('offline: the page reloads without the network, events wait and are sent once it is back', async () => {
  const page = await openTable('fide', 60);
  await page.evaluate(() => navigator.serviceWorker.ready);
  // Reload once online so that the service worker, now active, keeps the page.
  await page.reload();
  await page.getByTestId('otb-start').tap();
  await decision(page, 'F3.1');
  const context = page.context();
  await context.setOffline(true);
  await face(page, 'WhiteA').tap();
  await face(page, 'WhiteB').tap();
  await page.reload();
  await page.getByTestId('otb-status').filter({ hasText: 'offline' }).waitFor();
  // The clock runs from what the page kept: Black A and Black B are on move.
  await page.waitForFunction(() => document.querySelector('[data-testid=otb-face-BlackA]')?.classList.contains('running'));
  await page.waitForFunction(() => document.querySelector('[data-testid=otb-face-BlackB]')?.classList.contains('running'));
  await page.getByTestId('otb-claimant-BlackA').tap();
  await page.getByTestId('otb-claim-illegal_move').tap();
  await page.getByTestId('otb-status').filter({ hasText: 'claims need the network' }).waitFor();
  await shot(page, 'offline');
  await context.setOffline(false);
  await decision(page, 'F4.2');
  assert.match(await page.getByTestId('otb-decision').innerText(), /Black A wins board A/);
  const id = new URL(page.url()).pathname.split('/').pop();
  const view = await (await fetch(`${BASE}/api/otb/${id}`)).json();
  const presses = view.record.filter(e => e.event?.type === 'press').map(e => e.event.seat);
  assert.deepEqual(presses, ['WhiteA', 'WhiteB'], 'each press once');
  await shot(page, 'back-online');
  await context.close();
});

test('tournament: the organiser opens a pairing as an over-the-board table; its result lands in the round', async () => {
  // The tournament and its round through the API, as the organiser's page would make them.
  const post = async (path, body, secret) => {
    const headers = { 'content-type': 'application/json' };
    if (secret) headers.authorization = `Bearer ${secret}`;
    const r = await fetch(`${BASE}${path}`, { method: 'POST', headers, body: JSON.stringify(body) });
    const text = await r.text();
    assert.ok(r.ok, `${path}: ${r.status} ${text}`);
    return JSON.parse(text);
  };
  const created = await post('/api/tournaments', { name: 'Club night', preset: 'minerva-2014', format: 'round-robin', time_control: '1+0', seed: 5 });
  const id = created.tournament_id;
  const secret = created.organiser_secret;
  for (const [name, a, b] of [['Rooks', 'Ann', 'Bob'], ['Knights', 'Cas', 'Dirk']]) {
    await post(`/api/tournaments/${id}/teams`, { name, first: { name: a }, second: { name: b } }, secret);
  }
  await post(`/api/tournaments/${id}/rounds`, {}, secret);

  // The organiser's browser holds the secret (as after creating the tournament there).
  const context = await browser.newContext(TABLET);
  const admin = await context.newPage();
  admin.setDefaultTimeout(15_000);
  admin.on('pageerror', err => pageErrors.push(`organiser: ${err.message}`));
  await admin.goto(`${BASE}/`);
  await admin.evaluate(([key, value]) => localStorage.setItem(key, value), [`bughouse.tournament.${id}`, secret]);
  await admin.goto(`${BASE}/t/${id}/admin`);
  await admin.getByTestId('otb-open-1-1').tap();
  const link = admin.locator('a.otb-link');
  await link.waitFor();
  const href = await link.getAttribute('href');

  // The table's clock page: started, then the arbiter rules board A a win for White; under
  // minerva the match ends with its first game (M5.1).
  const page = await context.newPage();
  page.on('pageerror', err => pageErrors.push(`tournament table: ${err.message}`));
  await page.goto(new URL(href, BASE).toString());
  await page.getByTestId('otb-start').tap();
  await decision(page, 'M6.4');
  await page.getByTestId('otb-ruling-board').selectOption('A');
  await page.getByTestId('otb-ruling').selectOption('1-0');
  await page.getByTestId('otb-rule').tap();
  await page.getByTestId('otb-result').filter({ hasText: '1-0' }).waitFor();
  await shot(page, 'tournament-table');

  // The round's pairing carries the result, on the API and on the organiser's page.
  const t = await (await fetch(`${BASE}/api/tournaments/${id}`)).json();
  assert.equal(t.rounds[0].pairings[0].result.board_a, '1-0', JSON.stringify(t.rounds[0].pairings[0]));
  await admin.reload();
  await admin.getByText('1-0').first().waitFor();
  await admin.screenshot({ path: join(ARTIFACTS, 'otb-tournament-admin.png'), fullPage: true });
  await context.close();
});
