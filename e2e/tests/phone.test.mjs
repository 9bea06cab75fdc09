// Accounts and ratings through the lobby, on a phone (390 × 844, touch) and on a desktop
// (1400 × 900), with no shared link:
//
// 1. Two players sign up, two stay guests; all four press Play now (casual, same rulebook and
//    time control) and are seated in one match (all count as 1500, so "play now" groups them).
//    The signed-in players sit as their accounts. On the phone the match page's header shows a
//    signed-in player's initial; its menu names him and leads to his profile. WhiteA plays 1. e4
//    by tapping, BlackA resigns.
// 2. The two guests sign up too; all four tick "Rated" and press Play now: one rated match.
//    WhiteA plays 1. e4, BlackA resigns; each sees his rating change, and WhiteA's profile shows
//    the rated match with its rating change, the casual one, and the chart.
//
// Every page (lobby as guest and signed in, the sign-in form, the match page as player and as
// spectator, the profile, the leaderboard) is checked for sideways scroll and for header items
// overlapping. Screenshots go to e2e/artifacts/phone-*.png and accounts-desktop-*.png.
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

const DESKTOP = { viewport: { width: 1400, height: 900 } };
const PHONE = { viewport: { width: 390, height: 844 }, hasTouch: true, isMobile: true, deviceScaleFactor: 2 };
const SEATS = ['WhiteA', 'BlackA', 'WhiteB', 'BlackB'];

let browser;
const pageErrors = [];
const contexts = [];

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

async function newPage(who, options) {
  const context = await browser.newContext(options);
  contexts.push(context);
  const page = await context.newPage();
  page.setDefaultTimeout(15_000);
  page.on('pageerror', err => pageErrors.push(`${who}: ${err.message}`));
  page.on('console', msg => {
    // A guest's `GET /api/account/me` after signing out is answered 401: expected.
    if (msg.type() === 'error' && !/status of 401/.test(msg.text())) pageErrors.push(`${who}: console: ${msg.text()}`);
  });
  return page;
}

async function closeAll() {
  for (const c of contexts.splice(0)) await c.close();
}

const matchIdOf = page => decodeURIComponent(new URL(page.url()).pathname.split('/').pop());

/** Taps on a touch page, clicks on a desktop one. */
async function press(locator, touch) {
  if (touch) await locator.tap();
  else await locator.click();
}

/** Nothing wider than the viewport (a mobile browser widens `innerWidth` to what overflows),
 * and no two items of the header on top of each other. */
async function pageFits(page, what) {
  const width = page.viewportSize().width;
  const { scroll, inner, overlaps } = await page.evaluate(() => {
    const header = document.querySelector('header.top');
    const items = header
      ? [...header.children].filter(e => e.getClientRects().length > 0 && getComputedStyle(e).visibility !== 'hidden')
      : [];
    const boxes = items.map(e => [e.className || e.tagName, e.getBoundingClientRect()]);
    const hit = (a, b) => a.left < b.right - 0.5 && b.left < a.right - 0.5 && a.top < b.bottom - 0.5 && b.top < a.bottom - 0.5;
    const overlaps = [];
    for (let i = 0; i < boxes.length; i++)
      for (let j = i + 1; j < boxes.length; j++) if (hit(boxes[i][1], boxes[j][1])) overlaps.push(`${boxes[i][0]} / ${boxes[j][0]}`);
    for (const [name, r] of boxes) if (r.right > window.innerWidth + 0.5 || r.left < -0.5) overlaps.push(`${name} outside the header`);
    return { scroll: document.documentElement.scrollWidth, inner: window.innerWidth, overlaps };
  });
  assert.ok(scroll <= width && inner <= width, `${what}: scrollWidth ${scroll}, innerWidth ${inner} > ${width}`);
  assert.deepEqual(overlaps, [], `${what}: header items overlap`);
}

/** The header says where the match is, whole: not cut off ("playi…" beside the tools) nor
 * clipped away by the header. */
async function statusShown(page, what) {
  const { text, cut, inside } = await page.evaluate(() => {
    const status = document.querySelector('header.top .match-info .status');
    const info = status?.closest('.match-info');
    if (!status || !info) return { text: null, cut: true, inside: false };
    const s = status.getBoundingClientRect();
    const i = info.getBoundingClientRect();
    return {
      text: status.innerText,
      cut: status.scrollWidth > status.clientWidth + 0.5,
      inside: s.width > 0 && s.top >= i.top - 0.5 && s.bottom <= i.bottom + 0.5 && s.right <= i.right + 0.5,
    };
  });
  assert.equal(text, 'playing', `${what}: the status shown`);
  assert.ok(!cut && inside, `${what}: the status "${text}" is cut off`);
}

/** Signs up through the header's form in the lobby. */
async function signUp(page, name, touch) {
  await page.goto(`${BASE}/`);
  await press(page.locator('header .account').getByRole('button', { name: 'Sign up' }), touch);
  await page.locator('#account-username').fill(name);
  await page.locator('#account-password').fill('correct horse battery');
  await press(page.getByRole('button', { name: 'Create account' }), touch);
  await page.locator('header .account a.me', { hasText: name }).waitFor();
}

/** Presses Play now in the lobby (rated or not) and waits for the seat; the match id. */
async function playNow(page, { name, rules, tc, rated, touch }) {
  await page.goto(`${BASE}/`);
  await page.locator('#lobby-counts', { hasText: /online/ }).waitFor();
  if (name) await page.locator('#player-name').fill(name);
  await page.locator('#play-rules').selectOption(rules);
  await press(page.locator(`label.chip:has(input[value="${tc}"])`), touch);
  if (rated) await page.locator('#play-rated').check();
  await press(page.locator('#play-now'), touch);
  await page.waitForURL(/\/m\/[^/?]+$/);
  await page.locator('.seat-row.mine .tag.you').waitFor();
  return matchIdOf(page);
}

/** Plays `from`-`to` on the page's own board (White's view) by tapping or clicking. */
async function playMove(page, from, to, touch) {
  await page.locator('.board-col.main.mine .player.bottom.to-move').waitFor();
  const box = await page.locator('.board-col.main cg-board').boundingBox();
  for (const sq of [from, to]) {
    const x = box.x + ((sq.charCodeAt(0) - 97 + 0.5) * box.width) / 8;
    const y = box.y + ((8 - Number(sq[1]) + 0.5) * box.height) / 8;
    if (touch) await page.touchscreen.tap(x, y);
    else await page.mouse.click(x, y);
  }
}

async function resign(page, touch) {
  await page.locator('ol.moves li').first().waitFor();
  await press(page.getByRole('button', { name: 'Resign' }), touch);
  await press(page.getByRole('button', { name: 'Really resign?' }), touch);
}

const seatRow = (page, seat) =>
  page.locator('li.seat-row').filter({ has: page.locator('span.seat', { hasText: new RegExp(`^${seat}$`) }) });

/**
 * The whole story on one kind of screen. `kinds`: the casual and the rated "play now" kinds
 * (rulebook and time control) this run uses, apart from the other test files' (which run at
 * the same time on the same server).
 */
async function story(label, options, kinds) {
  const touch = !!options.hasTouch;
  const phone = options.viewport.width < 600;
  const shot = name => join(ARTIFACTS, `${label}-${name}.png`);
  const run = `${label.slice(0, 1)}${Date.now().toString(36).slice(-5)}`;
  const names = { ann: `ann_${run}`, bob: `bob_${run}`, gus: `gus_${run}`, hal: `hal_${run}` };

  // A spectator (a guest) sees the lobby and the sign-in form fit.
  const spectator = await newPage(`${label} spectator`, options);
  await spectator.goto(`${BASE}/`);
  await spectator.locator('#lobby-counts', { hasText: /online/ }).waitFor();
  await pageFits(spectator, `${label} lobby, guest`);
  await press(spectator.locator('header .account').getByRole('button', { name: 'Sign in' }), touch);
  await spectator.locator('#account-username').waitFor();
  await pageFits(spectator, `${label} sign-in form`);
  await spectator.screenshot({ path: shot('sign-in'), fullPage: true });

  const pages = {};
  for (const who of ['ann', 'bob', 'gus', 'hal']) pages[who] = await newPage(`${label} ${who}`, options);
  await signUp(pages.ann, names.ann, touch);
  await signUp(pages.bob, names.bob, touch);
  // Signed in, the play form names him and offers "Rated"; a guest has a name field instead.
  await pages.ann.locator('.playing-as', { hasText: names.ann }).waitFor();
  assert.equal(await pages.ann.locator('#play-rated').isVisible(), true);
  await pageFits(pages.ann, `${label} lobby, signed in`);
  await pages.ann.screenshot({ path: shot('lobby-signed-in'), fullPage: true });

  // 1. Casual: Ann, Gus, Bob, Hal press Play now in turn and meet in one match.
  const order = ['ann', 'gus', 'bob', 'hal'];
  let casual = null;
  for (const who of order) {
    const guest = who === 'gus' || who === 'hal';
    const id = await playNow(pages[who], { name: guest ? names[who] : null, ...kinds.casual, rated: false, touch });
    casual ??= id;
    assert.equal(id, casual, `${who} is placed in the same match`);
  }
  const seatOf = {};
  for (const who of order) seatOf[who] = (await pages[who].locator('.seat-row.mine .seat').textContent()) ?? '';
  assert.deepEqual(order.map(w => seatOf[w]), SEATS, 'seated in arrival order');
  for (const who of order) await pages[who].locator('.match-info .status.playing').waitFor();
  await statusShown(pages.ann, `${label} match page`);
  if (phone) {
    // The phone held sideways: the header on one screen's width, the status whole.
    const upright = pages.ann.viewportSize();
    await pages.ann.setViewportSize({ width: upright.height, height: upright.width });
    await pageFits(pages.ann, `${label} match page held sideways`);
    await statusShown(pages.ann, `${label} match page held sideways`);
    await pages.ann.setViewportSize(upright);
  }
  // The signed-in players sit as their accounts (their names link to their profiles).
  await seatRow(pages.gus, 'WhiteA').locator('.player-name a', { hasText: names.ann }).waitFor();
  await seatRow(pages.gus, 'WhiteB').locator('.player-name a', { hasText: names.bob }).waitFor();

  const ann = pages.ann;
  if (phone) {
    // The header's account box gives way to the menu, which says who is signed in.
    assert.equal(await ann.locator('header .account').isVisible(), false);
    const toggle = ann.locator('header .account-menu .menu-toggle');
    assert.equal(await toggle.textContent(), names.ann.slice(0, 1).toUpperCase());
    await toggle.tap();
    await ann.locator('.account-menu .menu-list a.me', { hasText: names.ann }).waitFor();
    await pageFits(ann, `${label} match page, menu open`);
    await ann.screenshot({ path: shot('match-menu') });
    await toggle.tap();
    await ann.locator('.account-menu .menu-list').waitFor({ state: 'hidden' });
  } else {
    await ann.locator('header .account a.me', { hasText: names.ann }).waitFor();
    assert.equal(await ann.locator('header .account-menu').isVisible(), false);
  }
  for (const who of order) await pageFits(pages[who], `${label} match page (${who})`);

  // The spectator opens it from the lobby's live list.
  await spectator.goto(`${BASE}/`);
  const card = spectator.locator(`.live-card[data-match="${casual}"]`);
  await card.waitFor();
  await press(card, touch);
  await spectator.waitForURL(new RegExp(`/m/${casual}$`));
  await spectator.locator('.match-info .status.playing').waitFor();
  await pageFits(spectator, `${label} match page, spectator`);

  await playMove(ann, 'e2', 'e4', touch);
  await resign(pages.gus, touch);
  for (const page of [...Object.values(pages), spectator]) await page.locator('section.result .score', { hasText: '1-0' }).waitFor();
  assert.equal(await ann.locator('section.result .outcome').textContent(), 'You win');
  for (const who of order) await pageFits(pages[who], `${label} finished match page (${who})`);
  await ann.screenshot({ path: shot('casual-finished'), fullPage: true });
  await spectator.screenshot({ path: shot('spectator'), fullPage: true });

  // 2. The guests sign up; all four ask for a rated match and meet in one.
  await signUp(pages.gus, names.gus, touch);
  await signUp(pages.hal, names.hal, touch);
  let rated = null;
  for (const who of order) {
    const id = await playNow(pages[who], { ...kinds.rated, rated: true, touch });
    rated ??= id;
    assert.equal(id, rated, `${who} is placed in the same rated match`);
    if (who === 'ann') {
      // The lobby lists it as rated, with its players' mean rating (Ann's first: 1500).
      await spectator.goto(`${BASE}/`);
      const open = spectator.locator(`.open-match[data-match="${id}"]`);
      await open.locator('.open-head .rated-tag.rated').waitFor();
      assert.match((await open.locator('.open-head').textContent()) ?? '', /≈1500/);
      await pageFits(spectator, `${label} lobby with an open rated match`);
      await spectator.screenshot({ path: shot('open-rated'), fullPage: true });
    }
  }
  assert.notEqual(rated, casual);
  for (const who of order) {
    await pages[who].locator('.match-info .rated-tag.rated').waitFor();
    await pages[who].locator('.match-info .status.playing').waitFor();
  }
  await ann.screenshot({ path: shot('rated-playing') });
  await playMove(ann, 'e2', 'e4', touch);
  await resign(pages.gus, touch);
  const winners = new Set(['ann', 'hal']);
  for (const who of order) {
    const page = pages[who];
    await page.locator('section.result .score', { hasText: '1-0' }).waitFor();
    const mine = page.locator('section.result .rating-changes:not(.pending) ul.players li.mine');
    await mine.waitFor();
    const text = (await mine.textContent()) ?? '';
    assert.match(text, new RegExp(`${names[who]}1500 → \\d+ \\([+-]\\d+\\)`), `${who}: ${text}`);
    const delta = Number(/\(([+-]\d+)\)/.exec(text)[1]);
    assert.ok(winners.has(who) ? delta > 0 : delta < 0, `${who}: ${text}`);
    await pageFits(page, `${label} rated match finished (${who})`);
  }
  await ann.screenshot({ path: shot('rated-finished'), fullPage: true });

  // Ann's profile, from the match page: the rating change and both matches in the history.
  if (phone) {
    await ann.locator('header .account-menu .menu-toggle').tap();
    await ann.locator('.account-menu .menu-list a.me').tap();
  } else {
    await ann.locator('header .account a.me').click();
  }
  await ann.waitForURL(/\/player\//);
  await ann.locator('.rating-summary .big-rating').waitFor();
  const big = Number(((await ann.locator('.rating-summary .big-rating').textContent()) ?? '').replace('?', ''));
  assert.ok(big > 1500, `her rating went up: ${big}`);
  await ann.locator('svg.rating-chart path.line').waitFor();
  const row = id => ann.locator('section.matches tbody tr').filter({ has: ann.locator(`a[href="/m/${encodeURIComponent(id)}"]`) });
  await row(rated).waitFor();
  const ratedText = (await row(rated).textContent()) ?? '';
  assert.match(ratedText, /win \(1-0\)/);
  assert.match(ratedText, /\+\d+/, 'the rating change');
  assert.match(ratedText, new RegExp(names.hal), 'the partner');
  const casualText = (await row(casual).textContent()) ?? '';
  assert.match(casualText, /win \(1-0\)/);
  assert.match(casualText, /casual/, 'a casual match changes no rating');
  assert.match(casualText, new RegExp(`${names.hal} \\(guest\\)`), 'the partner, a guest then');
  await pageFits(ann, `${label} profile`);
  await ann.screenshot({ path: shot('profile'), fullPage: true });

  // The leaderboard fits too.
  await ann.goto(`${BASE}/leaderboard`);
  await ann.locator('main.leaderboard h3', { hasText: 'Players' }).waitFor();
  await pageFits(ann, `${label} leaderboard`);
  await ann.screenshot({ path: shot('leaderboard'), fullPage: true });

  // The lobby's finished matches fit their card (or scroll inside it), the page never sideways.
  await spectator.goto(`${BASE}/`);
  await spectator.locator('section.archive tbody tr').first().waitFor();
  await pageFits(spectator, `${label} lobby with finished matches`);
  const table = await spectator.locator('section.archive .table-scroll').evaluate(e => ({ scroll: e.scrollWidth, client: e.clientWidth }));
  if (phone) assert.ok(table.scroll <= table.client, `the finished matches fit: ${table.scroll} > ${table.client}`);
  await spectator.locator('section.archive').screenshot({ path: shot('finished-matches') });
  await closeAll();
}

test('phone: two signed-in players and two guests meet through the lobby, then play rated', { timeout: 240_000 }, async () => {
  await story('phone', PHONE, {
    casual: { rules: 'fide', tc: '5+0' },
    rated: { rules: 'fide', tc: '5+0' },
  });
});

test('desktop: the same through the lobby at 1400 × 900', { timeout: 240_000 }, async () => {
  await story('accounts-desktop', DESKTOP, {
    casual: { rules: 'minerva-2014', tc: '5+0' },
    rated: { rules: 'fide', tc: '3+0' },
  });
});
