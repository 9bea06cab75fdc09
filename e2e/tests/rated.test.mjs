// A rated match in the browser: four players sign up through the header's form, the first
// creates a rated match in the lobby (the "Rated" box shows only when signed in), all four sit
// (each under his account's name, no name asked), WhiteA plays 1. e4 and BlackA resigns. Each
// player then sees the ratings change ("1500 → 1662 (+162)") by the names and in the result,
// and the winner's profile page shows the match, his rating and the chart. A guest on the same
// match is told to sign in to sit.
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

const SEATS = ['WhiteA', 'BlackA', 'WhiteB', 'BlackB'];
// Names unique per run: the server of e2e/run.sh is fresh, another one may not be.
const RUN = Date.now().toString(36).slice(-5);
const NAMES = Object.fromEntries(SEATS.map((s, i) => [s, `${['ann', 'bob', 'cid', 'dan'][i]}_${RUN}`]));

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

async function newPage(who) {
  const context = await browser.newContext({ viewport: { width: 1400, height: 900 } });
  const page = await context.newPage();
  page.setDefaultTimeout(15_000);
  page.on('pageerror', err => pageErrors.push(`${who}: ${err.message}`));
  page.on('console', msg => {
    // A guest's `GET /api/account/me` is answered 401: the browser logs it, it is expected.
    if (msg.type() === 'error' && !/status of 401/.test(msg.text())) pageErrors.push(`${who}: console: ${msg.text()}`);
  });
  return page;
}

/** Signs up through the header's form. */
async function signUp(page, name) {
  await page.locator('header .account').getByRole('button', { name: 'Sign up' }).click();
  await page.locator('#account-username').fill(name);
  await page.locator('#account-password').fill('correct horse battery');
  await page.getByRole('button', { name: 'Create account' }).click();
  await page.locator('header .account a.me', { hasText: name }).waitFor();
}

const seatRow = (page, seat) =>
  page.locator('li.seat-row').filter({ has: page.locator('span.seat', { hasText: new RegExp(`^${seat}$`) }) });

test('four signed-up players play a rated match and see their ratings change', { timeout: 120_000 }, async () => {
  const players = {};
  const host = await newPage('WhiteA');
  players.WhiteA = host;
  await host.goto(`${BASE}/`);
  // A guest has no "Rated" box; a wrong password length is refused inline.
  assert.equal(await host.locator('fieldset.rated').isVisible(), false);
  await host.locator('header .account').getByRole('button', { name: 'Sign up' }).click();
  await host.locator('#account-username').fill(NAMES.WhiteA);
  await host.locator('#account-password').fill('short');
  await host.getByRole('button', { name: 'Create account' }).click();
  await host.locator('.account-form .form-error', { hasText: 'at least 8 characters' }).waitFor();
  await host.screenshot({ path: join(ARTIFACTS, 'rated-signup-error.png') });
  // That refusal (a 400) is the one console error the page may show.
  const refused = pageErrors.findIndex(e => e.includes('status of 400'));
  assert.ok(refused >= 0, 'the short password was a 400');
  pageErrors.splice(refused, 1);
  await host.locator('#account-password').fill('correct horse battery');
  await host.getByRole('button', { name: 'Create account' }).click();
  await host.locator('header .account a.me', { hasText: NAMES.WhiteA }).waitFor();
  await host.screenshot({ path: join(ARTIFACTS, 'rated-lobby-signed-in.png') });

  await host.locator('#rules').selectOption('fide');
  await host.locator('#rated').check();
  await host.getByRole('button', { name: 'Create match' }).click();
  await host.waitForURL(/\/m\/[^/]+$/);
  const matchUrl = host.url();
  await host.locator('.match-info .rated-tag.rated').waitFor();

  for (const seat of SEATS.slice(1)) {
    const page = await newPage(seat);
    players[seat] = page;
    await page.goto(`${BASE}/`);
    await signUp(page, NAMES[seat]);
    await page.goto(matchUrl);
  }
  // A guest is told to sign in, and has no "Sit here".
  const guest = await newPage('guest');
  await guest.goto(matchUrl);
  await guest.locator('.sign-in-to-sit').waitFor();
  assert.equal(await guest.getByRole('button', { name: 'Sit here' }).count(), 0);
  await guest.screenshot({ path: join(ARTIFACTS, 'rated-guest.png') });

  for (const seat of SEATS) {
    const page = players[seat];
    await page.locator('.sit-as').waitFor();
    const row = seatRow(page, seat);
    await row.getByRole('button', { name: 'Sit here' }).click();
    await row.locator('.tag.you').waitFor();
    await row.locator('.player-name a', { hasText: NAMES[seat] }).waitFor();
  }
  for (const seat of SEATS) await players[seat].locator('.match-info .status.playing').waitFor();

  // 1A. e4, then BlackA resigns: WhiteA and BlackB win.
  const a = players.WhiteA;
  await a.locator('.board-col.main.mine .player.bottom.to-move').waitFor();
  const box = await a.locator('.board-col.main cg-board').boundingBox();
  const at = sq => ({
    x: box.x + ((sq.charCodeAt(0) - 97 + 0.5) * box.width) / 8,
    y: box.y + ((8 - Number(sq[1]) + 0.5) * box.height) / 8,
  });
  for (const sq of ['e2', 'e4']) {
    const p = at(sq);
    await a.mouse.click(p.x, p.y);
  }
  await players.BlackA.locator('ol.moves li').first().waitFor();
  await players.BlackA.getByRole('button', { name: 'Resign' }).click();
  await players.BlackA.getByRole('button', { name: 'Really resign?' }).click();

  const winners = new Set(['WhiteA', 'BlackB']);
  for (const seat of SEATS) {
    const page = players[seat];
    await page.locator('section.result .score', { hasText: '1-0' }).waitFor();
    const changes = page.locator('section.result .rating-changes:not(.pending)');
    await changes.waitFor();
    const mine = changes.locator('ul.players li.mine');
    const text = (await mine.textContent()) ?? '';
    assert.match(text, new RegExp(`${NAMES[seat]}1500 → \\d+ \\([+-]\\d+\\)`), `${seat}: ${text}`);
    const delta = Number(/\(([+-]\d+)\)/.exec(text)[1]);
    assert.ok(winners.has(seat) ? delta > 0 : delta < 0, `${seat}: ${text}`);
    assert.equal(await changes.locator('ul.teams li').count(), 2, `${seat}: the two team ratings`);
    // By the names in the seats list too.
    assert.match((await seatRow(page, seat).locator('.rating-change').textContent()) ?? '', /^1500 → \d+ \([+-]\d+\)$/);
    await page.screenshot({ path: join(ARTIFACTS, `rated-final-${seat}.png`), fullPage: true });
  }

  // The winner's profile: his rating, the chart, the match with partner and opponents.
  await a.locator('header .account a.me').click();
  await a.waitForURL(/\/player\//);
  await a.locator('.rating-summary .big-rating').waitFor();
  assert.match((await a.locator('.rating-summary .big-rating').textContent()) ?? '', /^1\d{3}\??$/);
  await a.locator('svg.rating-chart path.line').waitFor();
  assert.equal(await a.locator('svg.rating-chart circle').count(), 2, 'the start and after the match');
  const id = decodeURIComponent(new URL(matchUrl).pathname.split('/').pop());
  const row = a.locator('section.matches tbody tr').filter({ has: a.locator(`a[href="/m/${encodeURIComponent(id)}"]`) });
  await row.waitFor();
  const rowText = (await row.textContent()) ?? '';
  assert.match(rowText, new RegExp(NAMES.BlackB), 'the partner');
  assert.match(rowText, new RegExp(`${NAMES.BlackA} & ${NAMES.WhiteB}`), 'the opponents');
  assert.match(rowText, /win \(1-0\)/);
  assert.match(rowText, /\+\d+/);
  await a.locator('section.partners a', { hasText: NAMES.BlackB }).waitFor();
  await a.screenshot({ path: join(ARTIFACTS, 'rated-profile.png'), fullPage: true });

  // The leaderboard page loads (nobody has the ten matches to be ranked yet).
  await a.locator('header .site-links a', { hasText: 'Leaderboard' }).click();
  await a.waitForURL(/\/leaderboard$/);
  await a.locator('main.leaderboard h3', { hasText: 'Players' }).waitFor();
  await a.screenshot({ path: join(ARTIFACTS, 'rated-leaderboard.png'), fullPage: true });

  for (const page of [...Object.values(players), guest]) await page.context().close();
});
