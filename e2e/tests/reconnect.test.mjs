// Partner talk, a reload and a lost connection, in the browser against the real server: four
// players (WhiteA + BlackB partners against BlackA + WhiteB) and a spectator.
//
// 1. WhiteA writes to his partner and BlackB answers with a quick message: each partner sees
//    each message once (the server's copy, no local echo), the opponents and the spectator none.
// 2. BlackB reloads: he is still seated and his talk shows the history once, rebuilt from the
//    state's talk_log.
// 3. WhiteA loses his connection for about five seconds (the browser offline and the socket
//    closed). Meanwhile board B goes on, and WhiteA moves on his own board. Back online, he sees
//    every move (his record is the same as an opponent's), and his move was played exactly once
//    (the server's record says so).
// 4. A page with a stale seat secret is told it watches, and forgets the secret.
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
const NAMES = { WhiteA: 'Alice', BlackA: 'Bob', WhiteB: 'Carol', BlackB: 'Dave' };

let browser;
const pages = {};
const pageErrors = [];

before(async () => {
  mkdirSync(ARTIFACTS, { recursive: true });
  browser = await chromium.launch({
    executablePath: CHROMIUM,
    headless: true,
    args: [
      '--headless',
      '--no-sandbox',
      '--disable-gpu',
      '--disable-quic',
      '--no-first-run',
      '--disable-background-networking',
      '--disable-component-update',
      '--disable-sync',
    ],
  });
});

after(async () => {
  await browser?.close();
});

after(() => {
  assert.deepEqual(pageErrors, [], 'no script errors in any page');
});

async function newPage(who, init) {
  const context = await browser.newContext({ viewport: { width: 1400, height: 900 } });
  if (init) await context.addInitScript(init.script, init.arg);
  const page = await context.newPage();
  page.setDefaultTimeout(15_000);
  page.on('pageerror', err => pageErrors.push(`${who}: ${err.message}`));
  page.on('console', msg => {
    // A reconnection attempt while the browser is offline fails with a console error: expected.
    if (msg.type() === 'error' && !/WebSocket connection to .* failed/.test(msg.text()))
      pageErrors.push(`${who}: console: ${msg.text()}`);
  });
  pages[who] = page;
  return page;
}

const colorOf = seat => (seat.startsWith('White') ? 'white' : 'black');

async function clickSquare(page, square, color) {
  const box = await page.locator('.board-col.main cg-board').boundingBox();
  assert.ok(box, 'the main board is on the page');
  const file = square.charCodeAt(0) - 'a'.charCodeAt(0);
  const rank = Number(square[1]) - 1;
  const col = color === 'white' ? file : 7 - file;
  const row = color === 'white' ? 7 - rank : rank;
  await page.mouse.click(box.x + ((col + 0.5) * box.width) / 8, box.y + ((row + 0.5) * box.height) / 8);
}

/** `seat` plays from-to on his board, once it is his move. */
async function play(seat, from, to) {
  const page = pages[seat];
  await page.locator('.board-col.main.mine .player.bottom.to-move').waitFor();
  await clickSquare(page, from, colorOf(seat));
  await clickSquare(page, to, colorOf(seat));
}

/** The page's record in the order played (each board has its own list). */
const recordOf = async page =>
  page
    .locator('.moves .mv[data-ply]')
    .evaluateAll(els => els.map(e => [Number(e.dataset.ply), e.dataset.label]).sort((a, b) => a[0] - b[0]).map(x => x[1]));

/** The page's record has `n` moves. */
async function seesMoves(page, n) {
  await page.locator(`.moves .mv[data-ply="${n - 1}"]`).waitFor();
  assert.equal(await page.locator('.moves .mv[data-ply]').count(), n);
}

const talkLines = async page => (await page.locator('.talk-log li').allTextContents()).map(t => t.trim());

const sleep = ms => new Promise(resolve => setTimeout(resolve, ms));

async function apiState(id) {
  const res = await fetch(`${BASE}/api/matches/${encodeURIComponent(id)}`);
  assert.equal(res.status, 200);
  const body = await res.json();
  return body.state ?? body;
}

test('partner talk, a reload and a dropped connection lose and double nothing', { timeout: 180_000 }, async () => {
  const res = await fetch(`${BASE}/api/matches`, {
    method: 'POST',
    headers: { 'content-type': 'application/json' },
    body: JSON.stringify({ rules: 'fide', time_control: '5+0' }),
  });
  assert.ok(res.ok, `the match is created (${res.status})`);
  const { match_id: id } = await res.json();
  const url = `${BASE}/m/${encodeURIComponent(id)}`;

  for (const seat of SEATS) await (await newPage(seat)).goto(url);
  const spectator = await newPage('spectator');
  await spectator.goto(url);

  for (const seat of SEATS) {
    const page = pages[seat];
    await page.locator('#player-name').fill(NAMES[seat]);
    const row = page.locator('li.seat-row').filter({ has: page.locator('span.seat', { hasText: new RegExp(`^${seat}$`) }) });
    // The name is asked in the page (no browser prompt).
    await page.locator('#player-name').fill(NAMES[seat]);
    await row.getByRole('button', { name: 'Sit here' }).click();
    await row.locator('.tag.you').waitFor();
  }
  for (const page of Object.values(pages)) await page.locator('.match-info .status.playing').waitFor();

  // 1. Partner talk. WhiteA's partner is BlackB, by his current name.
  const alice = pages.WhiteA;
  const dave = pages.BlackB;
  assert.equal(await alice.locator('.talk .talk-to').textContent(), 'to Dave (BlackB)');
  assert.equal(await dave.locator('.talk .talk-to').textContent(), 'to Alice (WhiteA)');
  await alice.getByRole('textbox', { name: 'message to partner' }).fill('hello partner');
  await alice.getByRole('button', { name: 'Send' }).click();
  await dave.getByRole('button', { name: 'Need N' }).click();
  const expectedAlice = ['you: hello partner', 'Dave: I need a knight'];
  const expectedDave = ['Alice: hello partner', 'you: I need a knight'];
  await alice.locator('.talk-log li', { hasText: 'I need a knight' }).waitFor();
  await dave.locator('.talk-log li', { hasText: 'I need a knight' }).waitFor();
  // Time for a duplicate (a local echo, a second copy) to show up if there were one.
  await sleep(1000);
  assert.deepEqual(await talkLines(alice), expectedAlice, 'WhiteA sees each message once');
  assert.deepEqual(await talkLines(dave), expectedDave, 'BlackB sees each message once');
  for (const who of ['BlackA', 'WhiteB', 'spectator']) {
    assert.deepEqual(await talkLines(pages[who]), [], `${who} sees none of the other team's talk`);
    assert.equal(await pages[who].locator('.talk-log li', { hasText: 'hello partner' }).count(), 0);
  }
  assert.equal(await spectator.locator('section.talk').isHidden(), true, 'no talk pane for a spectator');

  // 2. BlackB reloads: still seated, the talk history shown once.
  await dave.reload();
  await dave.locator('li.seat-row.mine .seat', { hasText: 'BlackB' }).waitFor();
  await dave.locator('.talk-log li', { hasText: 'I need a knight' }).waitFor();
  await sleep(500);
  assert.deepEqual(await talkLines(dave), expectedDave, 'the history after a reload, once per message');
  assert.equal(await dave.locator('.talk .talk-to').textContent(), 'to Alice (WhiteA)');
  assert.equal(await dave.locator('.board-col.main .player.bottom .seat').textContent(), 'BlackB');
  await dave.screenshot({ path: join(ARTIFACTS, 'reconnect-BlackB-after-reload.png'), fullPage: true });

  // The measured lag shows by one's own name (after a ping or two).
  await alice.locator('.board-col.main .player.bottom .lag', { hasText: /^lag \d+ ms$/ }).waitFor({ timeout: 15_000 });

  // 3. WhiteA loses his connection for about five seconds.
  await play('WhiteA', 'e2', 'e4');
  await play('BlackA', 'e7', 'e5');
  await seesMoves(alice, 2);
  const offlineAt = Date.now();
  await alice.context().setOffline(true);
  // Chromium's offline emulation may leave an open websocket alone: close it as a lost network
  // would; the page's reconnection attempts fail while offline.
  await alice.evaluate(() => window.__bughouseTest.dropSocket());
  await alice.locator('header .conn.bad').waitFor();
  // The others see her away (the server sends them the seats), and back later.
  const whiteADot = (page, state) =>
    page.locator('li.seat-row', { has: page.locator('.seat', { hasText: /^WhiteA$/ }) }).locator(`.dot${state}`);
  await whiteADot(spectator, ':not(.on)').waitFor();
  await whiteADot(pages.BlackA, ':not(.on)').waitFor();
  // He moves while offline: the move waits in the page.
  await play('WhiteA', 'g1', 'f3');
  await alice.locator('header .conn', { hasText: '1 action waiting to be sent' }).waitFor();
  assert.equal(await alice.evaluate(() => window.__bughouseTest.pending()), 1);
  // Board B goes on meanwhile.
  await play('WhiteB', 'e2', 'e4');
  await play('BlackB', 'd7', 'd5');
  await play('WhiteB', 'e4', 'd5');
  await seesMoves(pages.BlackA, 5);
  await alice.screenshot({ path: join(ARTIFACTS, 'reconnect-WhiteA-offline.png'), fullPage: true });
  await sleep(Math.max(0, 5000 - (Date.now() - offlineAt)));
  await alice.context().setOffline(false);

  // Back: he sees every move, his own played once.
  await seesMoves(alice, 6);
  await alice.locator('header .conn:not(.bad)').waitFor({ state: 'attached' });
  await whiteADot(spectator, '.on').waitFor();
  await whiteADot(pages.BlackA, '.on').waitFor();
  await seesMoves(pages.BlackA, 6);
  const aliceRecord = await recordOf(alice);
  assert.deepEqual(aliceRecord, await recordOf(pages.BlackA), "WhiteA's record is an opponent's");
  assert.deepEqual(aliceRecord, await recordOf(spectator), "WhiteA's record is the spectator's");
  assert.equal(aliceRecord.filter(m => m === '2A. Nf3').length, 1, 'Nf3 once in the record');
  await alice.waitForFunction(() => window.__bughouseTest.pending() === 0);
  const state = await apiState(id);
  const mine = state.moves.filter(m => m.seat === 'WhiteA' && m.uci === 'g1f3');
  assert.equal(mine.length, 1, 'the server played Nf3 once');
  assert.equal(state.moves.length, 6);
  // The talk is still there after the reconnection, once.
  assert.deepEqual(await talkLines(alice), expectedAlice);

  // The game goes on for him.
  await play('BlackA', 'b8', 'c6');
  await seesMoves(alice, 7);
  await play('WhiteA', 'f1', 'c4');
  await seesMoves(pages.BlackA, 8);
  await alice.screenshot({ path: join(ARTIFACTS, 'reconnect-WhiteA-back.png'), fullPage: true });
  await spectator.screenshot({ path: join(ARTIFACTS, 'reconnect-spectator.png'), fullPage: true });

  // 4. A stale seat secret: told he watches, the secret forgotten.
  const key = `bughouse.token.${id}`;
  const stale = await newPage('stale', {
    script: ([k]) => {
      if (!sessionStorage.getItem('seeded')) {
        localStorage.setItem(k, 'not-a-token');
        sessionStorage.setItem('seeded', '1');
      }
    },
    arg: [key],
  });
  await stale.goto(url);
  await stale.locator('.seats .hint.watching').waitFor();
  assert.equal(await stale.evaluate(k => localStorage.getItem(k), key), null, 'the stale secret is forgotten');
  assert.equal(await stale.locator('li.seat-row.mine').count(), 0);
  await seesMoves(stale, 8);
  await stale.screenshot({ path: join(ARTIFACTS, 'reconnect-stale-token.png'), fullPage: true });

  for (const page of Object.values(pages)) await page.context().close();
});
