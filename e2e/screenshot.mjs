// Screenshots of a live match page as its players see it, to look at by eye (not a test: the
// browser tests are in tests/). Starts the release server (`serve`, a free port, a temporary
// SQLite file), creates a match with the HTTP API, seats four players through the page (WhiteA
// on a phone, 390 × 844 with touch; the others on a desktop, 1400 × 900), plays eight moves
// (BlackB's Bxg4 puts a white queen in WhiteA's reserve), has BlackB send his partner a message,
// and writes PNGs of WhiteA's phone, BlackB's and a spectator's desktop; then WhiteA drops the
// queen on f7 (mate) and the spectator steps the replay two moves back: PNGs of the finished
// match. Each page's markup is written beside (`.html`, run-to-run changes masked, to diff two
// builds).
//
//   node e2e/screenshot.mjs [OUT_DIR]
//
// OUT_DIR defaults to e2e/artifacts/screens. BUGHOUSE_BIN names another binary (to compare with
// an older build), CHROMIUM another browser. Needs `cargo build --release -p bughouse-cli` and
// e2e's npm packages (e2e/run.sh installs both).

import { spawn } from 'node:child_process';
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { createServer } from 'node:net';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { chromium } from 'playwright-core';

const HERE = dirname(fileURLToPath(import.meta.url));
const BIN = process.env.BUGHOUSE_BIN ?? join(HERE, '..', process.env.CARGO_TARGET_DIR ?? 'target', 'release', 'bughouse');
const CHROMIUM = process.env.CHROMIUM ?? '/usr/bin/chromium';
const OUT = process.argv[2] ?? join(HERE, 'artifacts', 'screens');

const SEATS = ['WhiteA', 'BlackA', 'WhiteB', 'BlackB'];
const NAMES = { WhiteA: 'Alice', BlackA: 'Bob', WhiteB: 'Carol', BlackB: 'Dave' };
const DESKTOP = { viewport: { width: 1400, height: 900 } };
const PHONE = { viewport: { width: 390, height: 844 }, hasTouch: true, isMobile: true, deviceScaleFactor: 2 };
const MOVES = [
  ['WhiteA', 'e2', 'e4'],
  ['WhiteB', 'e2', 'e4'],
  ['BlackA', 'e7', 'e5'],
  ['BlackB', 'd7', 'd5'],
  ['WhiteA', 'f1', 'c4'],
  ['WhiteB', 'd1', 'g4'],
  ['BlackA', 'f7', 'f6'],
  ['BlackB', 'c8', 'g4'],
];

const freePort = () =>
  new Promise((resolve, reject) => {
    const s = createServer();
    s.on('error', reject);
    s.listen(0, '127.0.0.1', () => {
      const { port } = s.address();
      s.close(() => resolve(port));
    });
  });

const sleep = ms => new Promise(resolve => setTimeout(resolve, ms));

async function startServer() {
  const dir = mkdtempSync(join(tmpdir(), 'bughouse-shot-'));
  const port = await freePort();
  const url = `http://127.0.0.1:${port}`;
  const server = spawn(BIN, ['serve', '--addr', `127.0.0.1:${port}`, '--database', `sqlite://${dir}/shot.db`], {
    stdio: ['ignore', 'ignore', 'inherit'],
  });
  const stop = () => {
    server.kill();
    rmSync(dir, { recursive: true, force: true });
  };
  for (let i = 0; i < 300; i++) {
    if (server.exitCode !== null) break;
    try {
      if ((await fetch(`${url}/api/archive?limit=1`)).ok) return { url, stop };
    } catch {
      // not listening yet
    }
    await sleep(100);
  }
  stop();
  throw new Error(`the server at ${url} does not answer`);
}

/** Plays `from`-`to` on the page's own (main) board by clicking, or tapping on a phone. */
async function play(page, seat, from, to, touch) {
  await page.locator('.board-col.main.mine .player.bottom.to-move').waitFor();
  const box = await page.locator('.board-col.main cg-board').boundingBox();
  const white = seat.startsWith('White');
  for (const sq of [from, to]) {
    const file = sq.charCodeAt(0) - 97;
    const rank = Number(sq[1]) - 1;
    const x = box.x + (((white ? file : 7 - file) + 0.5) * box.width) / 8;
    const y = box.y + (((white ? 7 - rank : rank) + 0.5) * box.height) / 8;
    if (touch) await page.touchscreen.tap(x, y);
    else await page.mouse.click(x, y);
  }
}

const { url, stop } = await startServer();
let browser;
try {
  mkdirSync(OUT, { recursive: true });
  const res = await fetch(`${url}/api/matches`, {
    method: 'POST',
    headers: { 'content-type': 'application/json', origin: url },
    body: JSON.stringify({ rules: 'fide', time_control: '5+0' }),
  });
  if (!res.ok) throw new Error(`creating the match: ${res.status} ${await res.text()}`);
  const { match_id: id } = await res.json();
  const matchUrl = `${url}/m/${encodeURIComponent(id)}`;

  browser = await chromium.launch({ executablePath: CHROMIUM, headless: true, args: ['--no-sandbox', '--disable-gpu'] });
  const errors = [];
  const pages = {};
  for (const who of [...SEATS, 'spectator']) {
    const context = await browser.newContext(who === 'WhiteA' ? PHONE : DESKTOP);
    const page = await context.newPage();
    page.setDefaultTimeout(15_000);
    page.on('pageerror', err => errors.push(`${who}: ${err.message}`));
    await page.goto(matchUrl);
    pages[who] = page;
  }
  for (const seat of SEATS) {
    const page = pages[seat];
    await page.locator('#player-name').fill(NAMES[seat]);
    const row = page.locator('li.seat-row').filter({ has: page.locator('span.seat', { hasText: new RegExp(`^${seat}$`) }) });
    await row.getByRole('button', { name: 'Sit here' }).click();
    await row.locator('.tag.you').waitFor();
  }
  for (const [n, [seat, from, to]] of MOVES.entries()) {
    await play(pages[seat], seat, from, to, seat === 'WhiteA');
    for (const page of Object.values(pages)) await page.locator(`.moves .mv[data-ply="${n}"]`).waitFor();
  }
  // BlackB asks his partner for the queen's drop; WhiteA's phone marks the talk unread.
  const dave = pages.BlackB;
  await dave.getByRole('textbox', { name: 'message to partner' }).fill('drop the queen on f7!');
  await dave.getByRole('button', { name: 'Send' }).click();
  await pages.WhiteA.locator('.talk-toggle.unread').waitFor();
  // Sitting scrolled the phone down to the seats panel: back to the top, as the page opens.
  for (const page of Object.values(pages)) await page.evaluate(() => window.scrollTo(0, 0));
  await sleep(500);

  const shots = [
    ['phone-WhiteA', pages.WhiteA, false],
    ['phone-WhiteA-full', pages.WhiteA, true],
    ['desktop-BlackB', dave, false],
    ['desktop-spectator-full', pages.spectator, true],
  ];
  const snap = async (name, page, fullPage) => {
    await page.screenshot({ path: join(OUT, `${name}.png`), fullPage });
    // The page's markup too, one element a line, with what changes from run to run (the match
    // id, the clocks, the round trip) masked: two builds' files can be compared with diff.
    const html = await page.evaluate(() => document.body.outerHTML);
    const masked = html
      .replaceAll(id, 'MATCH')
      .replaceAll(encodeURIComponent(id), 'MATCH')
      .replace(/127\.0\.0\.1:\d+/g, 'HOST')
      .replace(/\d+:\d\d(\.\d)?(?=<)/g, 'CLOCK')
      .replace(/ping \d+ ms/g, 'ping N ms')
      .replace(/lag \d+ ms/g, 'lag N ms')
      .replace(/></g, '>\n<');
    writeFileSync(join(OUT, `${name}.html`), masked);
  };
  for (const [name, page, fullPage] of shots) await snap(name, page, fullPage);
  // The phone's talk drawer, opened.
  const alice = pages.WhiteA;
  await alice.locator('.talk-toggle').tap();
  await sleep(300);
  await alice.screenshot({ path: join(OUT, 'phone-WhiteA-talk.png') });
  await alice.locator('.talk-close').tap();

  // WhiteA drops the queen on f7: mate, the match is over. The spectator steps the replay two
  // moves back.
  await alice.locator('.board-col.main .pocket.bottom .pocket-piece.usable:has(piece.queen)').tap();
  await alice.locator('.board-col.main .pocket.bottom .pocket-piece.selected').waitFor();
  const box = await alice.locator('.board-col.main cg-board').boundingBox();
  await alice.touchscreen.tap(box.x + (5.5 * box.width) / 8, box.y + (1.5 * box.height) / 8);
  for (const page of Object.values(pages)) await page.locator('section.result .score').waitFor();
  const spectator = pages.spectator;
  await spectator.locator('.replay .ply', { hasText: '9 / 9' }).waitFor();
  await spectator.getByRole('button', { name: 'previous move' }).click();
  await spectator.getByRole('button', { name: 'previous move' }).click();
  await spectator.locator('.replay .ply', { hasText: '7 / 9' }).waitFor();
  for (const page of Object.values(pages)) await page.evaluate(() => window.scrollTo(0, 0));
  await sleep(500);
  await snap('phone-WhiteA-finished-full', alice, true);
  await snap('desktop-BlackB-finished', dave, false);
  await snap('desktop-spectator-replay-full', spectator, true);
  if (errors.length) throw new Error(`script errors in the pages:\n${errors.join('\n')}`);
  console.log(`screenshots in ${OUT}`);
} finally {
  await browser?.close();
  stop();
}
