// Bots fill the seats of a match through the match page: a spectator creates a short match in
// the lobby, gives all four seats to bots with the "Add bot" buttons, and watches them play
// both boards to a result, which the page shows.
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

let browser;

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

test('four bots added on the match page play a match to its end', { timeout: 120_000 }, async () => {
  const context = await browser.newContext({ viewport: { width: 1400, height: 900 } });
  const page = await context.newPage();
  page.setDefaultTimeout(15_000);
  const errors = [];
  page.on('pageerror', err => errors.push(err.message));

  await page.goto(`${BASE}/`);
  await page.locator('#rules').selectOption('fide');
  // 12 seconds a player: the bots think in proportion and the match ends soon.
  await page.locator('input[name=custom]').fill('0.2+0');
  await page.locator('input[name=tc][value=custom]').check();
  await page.getByRole('button', { name: 'Create match' }).click();
  await page.waitForURL(/\/m\/[^/]+$/);

  // A weak level for one team, the strongest for the other.
  for (const [seat, level] of [
    ['WhiteA', '2'],
    ['BlackB', '2'],
    ['BlackA', '8'],
    ['WhiteB', '8'],
  ]) {
    await page.locator('#bot-level').selectOption(level);
    const row = page.locator('li.seat-row').filter({ has: page.locator('span.seat', { hasText: new RegExp(`^${seat}$`) }) });
    await row.getByRole('button', { name: 'Add bot' }).click();
    await row.locator('.player-name', { hasText: `Bot ${level}` }).waitFor();
  }
  await page.locator('.match-info .status.playing, .match-info .status.finished').first().waitFor();

  // The bots play; the match ends by mate, flag or resignation within the clocks' 24 seconds.
  const result = page.locator('section.result .score');
  await result.waitFor({ timeout: 90_000 });
  assert.match((await result.textContent()) ?? '', /^(1-0|0-1|1\/2-1\/2)$/);
  const moves = await page.locator('.moves .mv[data-ply]').count();
  assert.ok(moves >= 2, `the bots played (${moves} moves)`);
  await page.screenshot({ path: join(ARTIFACTS, 'bots.png'), fullPage: true });
  assert.deepEqual(errors, [], 'no script errors');
  await context.close();
});
