// Players find each other through the lobby, without a shared link, and play to a result, on a
// desktop (1400 × 900) and on a phone (390 × 844, touch):
//
// - desktop: Alice presses Play now (minerva-2014, 3+0) and is seated in a new match; Bob sees
//   it among the open matches and joins BlackA with its Join button; Carol presses Play now for
//   the same kind and lands in the same match; a spectator's lobby shows it waiting, then (with
//   no reload: the live feed) among the matches being played once Dave joins the last seat,
//   with its moves on the miniature boards; the spectator opens it from there; Alice resigns.
// - phone: four players press Play now (uscf-scholastic-2006, 2+12) one after the other and are
//   seated in one match; they play by tapping squares, WhiteA drags a pawn from his reserve
//   with his finger, BlackB asks for a queen through the talk drawer, and WhiteA mates with a
//   queen dropped by tapping the reserve, then the square. No page scrolls sideways; all four
//   clocks are on the screen; every reserve piece is at least 44 px; no label covers a board.
//
// - bots: a lone player who pressed Play now is offered, after the wait (shortened here through
//   the page's `__bughouseBotOfferMs`), to fill the empty seats with bots of the level the lobby
//   gives the match (published rating nearest his); he does, and plays.
//
// Screenshots go to e2e/artifacts/ (lobby-*.png, match-*.png). Run by e2e/run.sh.

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
});

after(() => {
  assert.deepEqual(pageErrors, [], 'no script errors in any page');
});

async function newPage(who, options) {
  const context = await browser.newContext(options);
  contexts.push(context);
  const page = await context.newPage();
  page.setDefaultTimeout(15_000);
  page.on('pageerror', err => pageErrors.push(`${who}: ${err.message}`));
  page.on('console', msg => {
    if (msg.type() === 'error') pageErrors.push(`${who}: console: ${msg.text()}`);
  });
  return page;
}

async function closeAll() {
  for (const c of contexts.splice(0)) await c.close();
}

const matchIdOf = page => decodeURIComponent(new URL(page.url()).pathname.split('/').pop());

/**
 * Asserts the page does not scroll sideways: nothing is wider than the viewport set for the
 * context (a mobile browser widens its layout viewport, `innerWidth`, to content that overflows).
 */
async function noSidewaysScroll(page, what) {
  const width = page.viewportSize().width;
  const { scroll, inner } = await page.evaluate(() => ({
    scroll: document.documentElement.scrollWidth,
    inner: window.innerWidth,
  }));
  assert.ok(scroll <= width && inner <= width, `${what}: scrollWidth ${scroll}, innerWidth ${inner} > ${width}`);
}

/**
 * Keeps what went over the page's websockets that answers or ends a match (our actions, their
 * answers, `ended`, `state`, closes), in ms since the watch began, to say why a result did not
 * show. Called before the page opens the match, so the socket and the toasts are seen from the
 * start.
 */
async function watchFrames(page) {
  const log = [];
  const t0 = Date.now();
  const keep = (dir, payload) => {
    const text = String(payload);
    if (dir === 'got' && !/^\{"type":"(ack|error|ended|state)"/.test(text)) return;
    if (dir === 'sent' && text.includes('"type":"ping"')) return;
    log.push(`${Date.now() - t0} ms ${dir} ${text.slice(0, 160)}`);
  };
  // Toasts (a refused action says so there) go away after 5 s: each is kept as it appears.
  await page.context().addInitScript(() => {
    window.__toastLog = [];
    document.addEventListener('DOMContentLoaded', () => {
      const box = document.getElementById('toasts');
      if (!box) return;
      new MutationObserver(records => {
        for (const r of records) for (const n of r.addedNodes) window.__toastLog.push(n.textContent);
      }).observe(box, { childList: true });
    });
  });
  page.on('websocket', ws => {
    log.push(`${Date.now() - t0} ms open ${ws.url()}`);
    ws.on('framesent', f => keep('sent', f.payload));
    ws.on('framereceived', f => keep('got', f.payload));
    ws.on('close', () => log.push(`${Date.now() - t0} ms closed`));
  });
  return log;
}

/**
 * A result that should be on the page is not: fails with what the page, its socket and the
 * server knew then (and a screenshot), rather than a bare timeout.
 */
async function explainNoResult(page, id, frames, err) {
  await page.screenshot({ path: join(ARTIFACTS, 'no-result.png'), fullPage: true }).catch(() => {});
  const seen = await page
    .evaluate(() => ({
      pending: window.__bughouseTest?.pending(),
      status: document.querySelector('.match-info .status')?.textContent,
      actions: document.querySelector('section.actions')?.textContent,
      toasts: window.__toastLog,
    }))
    .catch(e => ({ evaluate: String(e) }));
  const server = await page.request
    .get(`${BASE}/api/matches/${encodeURIComponent(id)}`)
    .then(r => r.json())
    .then(st => ({ status: st.status, result: st.result, moves: st.moves?.length }))
    .catch(e => ({ request: String(e) }));
  throw new Error(
    `no result on the page: ${err.message}\npage: ${JSON.stringify(seen)}\nserver: ${JSON.stringify(server)}\n` +
      `socket (last 40):\n${frames.slice(-40).join('\n')}`,
  );
}

/** Presses Play now in the lobby and waits for the match page; returns the match id. */
async function playNow(page, name, rules, tc) {
  await page.goto(`${BASE}/`);
  await page.locator('#player-name').fill(name);
  await page.locator('#play-rules').selectOption(rules);
  await page.locator(`label.chip:has(input[value="${tc}"])`).click();
  await page.locator('#play-now').click();
  await page.waitForURL(/\/m\/[^/?]+$/);
  await page.locator('.seat-row.mine .tag.you').waitFor();
  return matchIdOf(page);
}

function seatRow(page, seat) {
  return page.locator('li.seat-row').filter({ has: page.locator('span.seat', { hasText: new RegExp(`^${seat}$`) }) });
}

/** The centre of `square` on the page's own (main) board. */
async function squareCentre(page, square, color) {
  const box = await page.locator('.board-col.main cg-board').boundingBox();
  assert.ok(box, 'the main board is on the page');
  const file = square.charCodeAt(0) - 97;
  const rank = Number(square[1]) - 1;
  const col = color === 'white' ? file : 7 - file;
  const row = color === 'white' ? 7 - rank : rank;
  return { x: box.x + ((col + 0.5) * box.width) / 8, y: box.y + ((row + 0.5) * box.height) / 8 };
}

const colorOf = seat => (seat.startsWith('White') ? 'white' : 'black');

test('desktop: players meet through the lobby, a spectator finds the match live', { timeout: 180_000 }, async () => {
  const rules = 'minerva-2014';
  const tc = '3+0';
  const spectator = await newPage('spectator', DESKTOP);
  await spectator.goto(`${BASE}/`);
  await spectator.locator('#lobby-counts', { hasText: /online/ }).waitFor();

  // Alice: Play now, in a new match, first seat.
  const alice = await newPage('Alice', DESKTOP);
  const id = await playNow(alice, 'Alice', rules, tc);
  assert.equal(await alice.locator('.seat-row.mine .seat').textContent(), 'WhiteA');

  // Bob finds it among the open matches and joins BlackA in one click.
  const bob = await newPage('Bob', DESKTOP);
  await bob.goto(`${BASE}/`);
  await bob.locator('#player-name').fill('Bob');
  const openCard = bob.locator(`.open-match[data-match="${id}"]`);
  await openCard.locator('.open-seat[data-seat="WhiteA"] .player-name', { hasText: 'Alice' }).waitFor();
  assert.match((await openCard.locator('.open-head').textContent()) ?? '', new RegExp(`${rules}.*${tc.replace('+', '\\+')}`));
  await openCard.getByRole('button', { name: 'Join BlackA' }).click();
  await bob.waitForURL(new RegExp(`/m/${id}$`));
  await bob.locator('.seat-row.mine .tag.you').waitFor();
  assert.equal(await bob.locator('.seat-row.mine .seat').textContent(), 'BlackA');

  // Carol presses Play now for the same kind: the same match, the next free seat.
  const carol = await newPage('Carol', DESKTOP);
  assert.equal(await playNow(carol, 'Carol', rules, tc), id, 'Play now joins the open match');
  assert.equal(await carol.locator('.seat-row.mine .seat').textContent(), 'WhiteB');

  // The spectator's lobby follows without a reload: three seated, one free.
  const waiting = spectator.locator(`.open-match[data-match="${id}"]`);
  await waiting.locator('.open-seat[data-seat="WhiteB"] .player-name', { hasText: 'Carol' }).waitFor();
  assert.equal(await waiting.getByRole('button', { name: /^Join/ }).count(), 1);

  // Dave takes the last seat from the lobby: the match starts.
  const dave = await newPage('Dave', DESKTOP);
  await dave.goto(`${BASE}/`);
  await dave.locator('#player-name').fill('Dave');
  await dave.locator(`.open-match[data-match="${id}"]`).getByRole('button', { name: 'Join BlackB' }).click();
  await dave.waitForURL(new RegExp(`/m/${id}$`));
  for (const page of [alice, bob, carol, dave]) await page.locator('.match-info .status.playing').waitFor();

  // In the spectator's lobby it moves from the open list to the live one, with all four names.
  const card = spectator.locator(`.live-card[data-match="${id}"]`);
  await card.waitFor();
  await waiting.waitFor({ state: 'detached' });
  for (const name of ['Alice', 'Bob', 'Carol', 'Dave']) await card.locator('.mini-name', { hasText: name }).waitFor();

  // A move shows on the miniature board A within the feed's second.
  await alice.locator('.board-col.main.mine .player.bottom.to-move').waitFor();
  for (const sq of ['e2', 'e4']) {
    const { x, y } = await squareCentre(alice, sq, 'white');
    await alice.mouse.click(x, y);
  }
  await card.locator('.board-A cg-board square.last-move').nth(1).waitFor();
  await card.locator('.board-A .mini-clock.running').waitFor();
  await noSidewaysScroll(spectator, 'desktop lobby');
  await spectator.screenshot({ path: join(ARTIFACTS, 'lobby-desktop.png'), fullPage: true });

  // The spectator opens it from the lobby and watches: the move is there, no seat is his.
  await card.click();
  await spectator.waitForURL(new RegExp(`/m/${id}$`));
  await spectator.locator('.moves .mv[data-ply="0"][data-label="1A. e4"]').waitFor();
  assert.equal(await spectator.locator('.seat-row.mine').count(), 0);

  // A second move, then the flip button turns Bob's view (a seated player may flip too).
  await bob.locator('.board-col.main.mine .player.bottom.to-move').waitFor();
  for (const sq of ['e7', 'e5']) {
    const { x, y } = await squareCentre(bob, sq, 'black');
    await bob.mouse.click(x, y);
  }
  await alice.locator('.moves .mv[data-ply="1"]').waitFor();
  await bob.getByRole('button', { name: 'Flip boards' }).click();
  assert.equal(await bob.locator('.board-col.main .player.bottom .seat').textContent(), 'WhiteA');
  await bob.getByRole('button', { name: 'Flip boards' }).click();
  assert.equal(await bob.locator('.board-col.main .player.bottom .seat').textContent(), 'BlackA');
  // Piece images on the partner talk buttons; no claim button when no claim may be made.
  assert.equal(await alice.locator('.talk-pieces button.talk-piece-button piece.queen.white').count(), 2);
  assert.equal(await alice.getByRole('button', { name: /^Claim draw/ }).count(), 0);
  await noSidewaysScroll(alice, 'desktop match page');
  await alice.screenshot({ path: join(ARTIFACTS, 'match-desktop.png'), fullPage: true });

  // Alice resigns: BlackA and WhiteB win, everyone sees it, the spectator too.
  await alice.getByRole('button', { name: 'Resign' }).click();
  await alice.getByRole('button', { name: 'Really resign?' }).click();
  for (const page of [alice, bob, carol, dave, spectator]) {
    await page.locator('section.result .score', { hasText: '0-1' }).waitFor();
  }
  assert.equal(await alice.locator('section.result .outcome').textContent(), 'You lose');
  assert.equal(await bob.locator('section.result .outcome').textContent(), 'You win');
  await spectator.screenshot({ path: join(ARTIFACTS, 'match-desktop-finished.png'), fullPage: true });

  // Gone from the lobby's live list.
  await spectator.goto(`${BASE}/`);
  await spectator.locator('#lobby-counts', { hasText: /online/ }).waitFor();
  assert.equal(await spectator.locator(`.live-card[data-match="${id}"]`).count(), 0);
  await closeAll();
});

test('phone: four players find each other with Play now and play with touch', { timeout: 240_000 }, async () => {
  const rules = 'uscf-scholastic-2006';
  const tc = '2+12';
  const NAMES = { WhiteA: 'Ann', BlackA: 'Ben', WhiteB: 'Cleo', BlackB: 'Dirk' };
  const pages = {};
  let id = null;
  for (const seat of ['WhiteA', 'BlackA', 'WhiteB', 'BlackB']) {
    const page = await newPage(NAMES[seat], PHONE);
    pages[seat] = page;
    if (seat === 'WhiteA') {
      await page.goto(`${BASE}/`);
      await page.locator('#lobby-counts', { hasText: /online/ }).waitFor();
      await noSidewaysScroll(page, 'phone lobby');
    }
    const got = await playNow(page, NAMES[seat], rules, tc);
    id ??= got;
    assert.equal(got, id, `${seat} is placed in the same match`);
    assert.equal(await page.locator('.seat-row.mine .seat').textContent(), seat);
  }
  for (const page of Object.values(pages)) await page.locator('.match-info .status.playing').waitFor();

  // A spectator on a phone finds it in the lobby and taps it open.
  const spectator = await newPage('spectator', PHONE);
  await spectator.goto(`${BASE}/`);
  const card = spectator.locator(`.live-card[data-match="${id}"]`);
  await card.locator('.mini-name', { hasText: 'Dirk' }).waitFor();
  await noSidewaysScroll(spectator, 'phone lobby with a live match');
  await spectator.screenshot({ path: join(ARTIFACTS, 'lobby-phone.png'), fullPage: true });
  await card.tap();
  await spectator.waitForURL(new RegExp(`/m/${id}$`));
  await spectator.locator('.match-info .status.playing').waitFor();
  await noSidewaysScroll(spectator, 'phone match page, watching');

  // The layout: every clock on the screen, the partner's board above one's own, which is the
  // full width; reserve pieces at least 44 px; no label over a board; no sideways scroll.
  const ann = pages.WhiteA;
  for (const page of Object.values(pages)) {
    await noSidewaysScroll(page, 'phone match page');
    const clocks = await page.locator('.clock').evaluateAll(els => els.map(e => e.getBoundingClientRect().toJSON()));
    assert.equal(clocks.length, 4);
    for (const c of clocks) assert.ok(c.top >= 0 && c.bottom <= 844 && c.left >= 0 && c.right <= 390, `a clock off screen: ${JSON.stringify(c)}`);
    const main = await page.locator('.board-col.main .board-wrap').boundingBox();
    const side = await page.locator('.board-col.side .board-wrap').boundingBox();
    assert.ok(main.width >= 388, `own board full width (${main.width})`);
    assert.ok(side.y + side.height <= main.y, 'the partner board above');
    assert.ok(side.width < main.width, 'the partner board smaller');
    const pieces = await page.locator('.pocket-piece').evaluateAll(els => els.map(e => e.getBoundingClientRect().toJSON()));
    assert.equal(pieces.length, 20);
    for (const p of pieces) assert.ok(p.width >= 44 && p.height >= 44, `a reserve piece of ${p.width}×${p.height}`);
    const overlaps = await page.evaluate(() => {
      const boards = [...document.querySelectorAll('.board-wrap')].map(e => e.getBoundingClientRect());
      const labels = [...document.querySelectorAll('.player, .pocket, .board-label, .ping, header, .panel > section:not(.talk)')]
        .filter(e => e.getClientRects().length > 0)
        .map(e => [e.className, e.getBoundingClientRect()]);
      const hit = (a, b) => a.left < b.right - 0.5 && b.left < a.right - 0.5 && a.top < b.bottom - 0.5 && b.top < a.bottom - 0.5;
      return labels.filter(([, r]) => boards.some(b => hit(r, b))).map(([c]) => c);
    });
    assert.deepEqual(overlaps, [], 'nothing covers a board');
  }
  await ann.screenshot({ path: join(ARTIFACTS, 'match-phone.png') });

  const tapSquare = async (seat, square) => {
    const { x, y } = await squareCentre(pages[seat], square, colorOf(seat));
    await pages[seat].touchscreen.tap(x, y);
  };
  let plies = 0;
  const everyoneSees = async () => {
    plies += 1;
    for (const page of Object.values(pages)) await page.locator(`.moves .mv[data-ply="${plies - 1}"]`).waitFor();
  };
  const move = async (seat, from, to) => {
    await pages[seat].locator('.board-col.main.mine .player.bottom.to-move').waitFor();
    await tapSquare(seat, from);
    await tapSquare(seat, to);
    await everyoneSees();
  };
  await move('WhiteA', 'e2', 'e4');
  await move('WhiteB', 'e2', 'e4');
  await move('BlackA', 'e7', 'e5');
  await move('BlackB', 'd7', 'd5');
  await move('WhiteB', 'e4', 'd5'); // WhiteB takes a pawn: BlackA's reserve
  await move('BlackB', 'd8', 'd5'); // BlackB takes it back: a pawn for WhiteA

  // WhiteA drags the pawn from his reserve to a3 with his finger.
  await ann.locator('.board-col.main.mine .player.bottom.to-move').waitFor();
  const pawn = await ann.locator('.board-col.main .pocket.bottom .pocket-piece.usable:has(piece.pawn)').boundingBox();
  const a3 = await squareCentre(ann, 'a3', 'white');
  const cdp = await ann.context().newCDPSession(ann);
  const touch = (type, x, y) => cdp.send('Input.dispatchTouchEvent', { type, touchPoints: type === 'touchEnd' ? [] : [{ x, y }] });
  const from = { x: pawn.x + pawn.width / 2, y: pawn.y + pawn.height / 2 };
  await touch('touchStart', from.x, from.y);
  for (let i = 1; i <= 8; i++) await touch('touchMove', from.x + ((a3.x - from.x) * i) / 8, from.y + ((a3.y - from.y) * i) / 8);
  await touch('touchEnd');
  await everyoneSees();
  assert.equal(await ann.locator('.moves .mv[data-ply="6"]').getAttribute('data-label'), '2A. P@a3');

  await move('BlackA', 'f7', 'f6');
  await move('WhiteA', 'f1', 'c4');
  await move('WhiteB', 'd1', 'g4');
  await move('BlackB', 'c8', 'g4'); // the queen goes to WhiteA
  await move('BlackA', 'h7', 'h6'); // (WhiteA's pawn drop cost a tempo)

  // BlackB asks his partner for the queen, through the talk drawer.
  const dirk = pages.BlackB;
  await dirk.getByRole('button', { name: 'Talk', exact: true }).tap();
  await dirk.getByRole('button', { name: 'Need Q' }).tap();
  await ann.locator('button.talk-toggle.unread').waitFor();
  await ann.getByRole('button', { name: 'Talk', exact: true }).tap();
  await ann.locator('.talk-log li', { hasText: 'I need a queen' }).waitFor();
  await noSidewaysScroll(ann, 'phone talk drawer');
  await ann.screenshot({ path: join(ARTIFACTS, 'match-phone-talk.png') });
  await ann.getByRole('button', { name: 'close the talk' }).tap();

  // WhiteA taps the queen in his reserve, then f7: mate.
  await ann.locator('.board-col.main.mine .player.bottom.to-move').waitFor();
  await ann.locator('.board-col.main .pocket.bottom .pocket-piece.usable:has(piece.queen)').tap();
  await ann.locator('.board-col.main .pocket.bottom .pocket-piece.selected').waitFor();
  await tapSquare('WhiteA', 'f7');
  for (const page of [...Object.values(pages), spectator]) {
    await page.locator('section.result .score', { hasText: '1-0' }).waitFor();
  }
  assert.equal(await ann.locator('section.result .outcome').textContent(), 'You win');
  assert.equal(await pages.BlackA.locator('section.result .outcome').textContent(), 'You lose');
  for (const page of Object.values(pages)) await noSidewaysScroll(page, 'phone match page, finished');
  await ann.screenshot({ path: join(ARTIFACTS, 'match-phone-finished.png'), fullPage: true });
  await spectator.screenshot({ path: join(ARTIFACTS, 'match-phone-spectator.png'), fullPage: true });
  await closeAll();
});

test('a lone player fills the empty seats with bots after the wait', { timeout: 60_000 }, async () => {
  const page = await newPage('Solo', DESKTOP);
  await page.context().addInitScript(() => {
    window.__bughouseBotOfferMs = 1500;
  });
  const frames = await watchFrames(page);
  const id = await playNow(page, 'Solo', 'fide', '1+0');
  await page.locator('.waiting-note').waitFor();
  // The level offered is the one the lobby gives the match: the published rating nearest the
  // waiting player's (a guest counts as 1500).
  const offer = page.getByRole('button', { name: /^Fill the empty seats with bots \(level \d\)$/ });
  await offer.waitFor();
  const level = Number(/level (\d)/.exec((await offer.textContent()) ?? '')[1]);
  const lobby = await (await page.request.get(`${BASE}/api/lobby`)).json();
  assert.equal(lobby.open.find(m => m.match_id === id)?.bot_level, level, 'the lobby\'s level for the match');
  await offer.click();
  // The match starts (and may end soon: the bots on board B play each other, each move at least
  // 300 ms at 1+0, and weak ones may mate there early).
  await page.locator('.match-info .status:is(.playing, .finished)').waitFor();
  const seats = await page.locator('li.seat-row .tag:not(.you)').allTextContents();
  assert.deepEqual(seats, ['bot', 'bot', 'bot']);
  assert.equal(await page.locator('li.seat-row .player-name', { hasText: `Bot ${level}` }).count(), 3, 'bots of the level offered');
  await page.screenshot({ path: join(ARTIFACTS, 'match-desktop-bots.png'), fullPage: true });
  // Solo resigns, unless board B has already decided the match; the page must answer his clicks
  // at once while board B's bots play (it draws once a frame).
  const resign = page.getByRole('button', { name: 'Resign' });
  const score = page.locator('section.result .score');
  await page.locator('button:text-is("Resign"), section.result .score').first().waitFor();
  const ended = score.waitFor().then(() => 'ended');
  const clicked = (async () => {
    await resign.click({ timeout: 3000 });
    await page.getByRole('button', { name: 'Really resign?' }).click({ timeout: 2000 });
    return 'resigned';
  })().catch(async err => {
    // A click may only miss because the match ended under it.
    if (await score.isVisible()) return 'ended';
    throw err;
  });
  const how = await Promise.race([clicked, ended]);
  await score.waitFor().catch(err => explainNoResult(page, id, frames, err));
  const result = await page.locator('section.result').innerText();
  assert.match((await score.textContent()) ?? '', /^(1-0|0-1|1\/2-1\/2)$/);
  if (how === 'resigned' && !/Bot \d checkmated|flag/i.test(result)) assert.match(result, /Solo resigns/);
  assert.ok(id);
  await closeAll();
});
