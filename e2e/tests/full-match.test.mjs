// Four players in four browser contexts create a match in the lobby, sit through the match page
// and play, by clicking on the chessground boards and pockets, a full match in each rulebook
// preset: under fide, minerva-2014 and uscf-scholastic-2006 a queen drop mate the partner's
// capture made possible ends it; under knsb-1988 (no checking drops, K5A; both games played out,
// K11G) a mate by a move ends board A and a resignation on move (K11B) board B. Each player is
// then shown his team's result. A last test creates a custom rule set in the lobby.
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

// Under fide (mate only when no drop could ever block): on board B, WhiteB's queen sortie is
// taken by BlackB's bishop; the queen goes to BlackB's partner WhiteA, who drops it on f7, a
// contact check guarded by the bishop on c4: mate, and WhiteA + BlackB win (checked beforehand
// with `bughouse replay --rules fide` on the same moves as BPGN).
const DROP_MATE = [
  { seat: 'WhiteA', from: 'e2', to: 'e4', label: '1A. e4' },
  { seat: 'WhiteB', from: 'e2', to: 'e4', label: '1B. e4' },
  { seat: 'BlackA', from: 'e7', to: 'e5', label: '1a. e5' },
  { seat: 'BlackB', from: 'd7', to: 'd5', label: '1b. d5' },
  { seat: 'WhiteA', from: 'f1', to: 'c4', label: '2A. Bc4' },
  { seat: 'WhiteB', from: 'd1', to: 'g4', label: '2B. Qg4' },
  { seat: 'BlackA', from: 'f7', to: 'f6', label: '2a. f6' },
  { seat: 'BlackB', from: 'c8', to: 'g4', label: '2b. Bxg4' },
  { seat: 'WhiteA', drop: 'queen', to: 'f7', label: '3A. Q@f7#' },
];

// Under knsb-1988 the drop Q@f7 would check, which K5A forbids: WhiteA mates with a move
// (Qxf7#), which ends board A only (K11G); WhiteB then resigns board B on move (K11B), and
// WhiteA + BlackB win both games.
const KNSB = [
  { seat: 'WhiteA', from: 'e2', to: 'e4', label: '1A. e4' },
  { seat: 'BlackA', from: 'e7', to: 'e5', label: '1a. e5' },
  { seat: 'WhiteA', from: 'f1', to: 'c4', label: '2A. Bc4' },
  { seat: 'BlackA', from: 'b8', to: 'c6', label: '2a. Nc6' },
  { seat: 'WhiteA', from: 'd1', to: 'h5', label: '3A. Qh5' },
  { seat: 'BlackA', from: 'g8', to: 'f6', label: '3a. Nf6' },
  { seat: 'WhiteA', from: 'h5', to: 'f7', label: '4A. Qxf7#' },
  { seat: 'WhiteB', resign: true },
];

const PRESETS = [
  { rules: 'fide', script: DROP_MATE, score: '1-0', boardLabel: 'board A: 1-0 (checkmate)' },
  { rules: 'minerva-2014', script: DROP_MATE, score: '1-0', boardLabel: 'board A: 1-0 (checkmate)' },
  { rules: 'uscf-scholastic-2006', script: DROP_MATE, score: '1-0', boardLabel: 'board A: 1-0 (checkmate)' },
  { rules: 'knsb-1988', script: KNSB, score: '1-0', boardLabel: 'board A: 1-0 (checkmate)', boards: 'board A 1-0 · board B 0-1', reason: /^board A: checkmate; board B: resignation$/ },
];

const WINNERS = new Set(['WhiteA', 'BlackB']);

let browser;
const players = {};
const pageErrors = [];

before(async () => {
  mkdirSync(ARTIFACTS, { recursive: true });
  // playwright gives the browser a fresh temporary user-data-dir, and each context below its
  // own storage (the seat tokens live in localStorage).
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

async function newPlayer(seat) {
  const context = await browser.newContext({ viewport: { width: 1400, height: 900 } });
  const page = await context.newPage();
  page.setDefaultTimeout(15_000);
  page.on('pageerror', err => pageErrors.push(`${seat}: ${err.message}`));
  page.on('console', msg => {
    if (msg.type() === 'error') pageErrors.push(`${seat}: console: ${msg.text()}`);
  });
  players[seat] = page;
  return page;
}

/** The centre of `square` on the player's own (main) board, in page coordinates. */
async function squareCentre(page, square, color) {
  const box = await page.locator('.board-col.main cg-board').boundingBox();
  assert.ok(box, 'the main board is on the page');
  const file = square.charCodeAt(0) - 'a'.charCodeAt(0);
  const rank = Number(square[1]) - 1;
  const col = color === 'white' ? file : 7 - file;
  const row = color === 'white' ? 7 - rank : rank;
  return { x: box.x + ((col + 0.5) * box.width) / 8, y: box.y + ((row + 0.5) * box.height) / 8 };
}

const colorOf = seat => (seat.startsWith('White') ? 'white' : 'black');

async function clickSquare(page, square, color) {
  const { x, y } = await squareCentre(page, square, color);
  await page.mouse.click(x, y);
}

/** Every player's record shows `n` moves, the last labelled `label` (each board has its list). */
async function everyoneSees(n, label) {
  for (const seat of SEATS) {
    const last = players[seat].locator(`.moves .mv[data-ply="${n - 1}"]`);
    await last.waitFor();
    assert.equal(await players[seat].locator('.moves .mv[data-ply]').count(), n, `${seat} sees ${n} moves`);
    assert.equal(await last.getAttribute('data-label'), label, `${seat} sees ${label}`);
  }
}

for (const preset of PRESETS) {
  test(`four players in the browser play a full match under ${preset.rules}`, { timeout: 180_000 }, async () => {
    await playMatch(preset);
  });
}

async function playMatch({ rules, script, score, boardLabel, boards, reason = /mate/i }) {
  // WhiteA creates the match in the lobby.
  const host = await newPlayer('WhiteA');
  await host.goto(`${BASE}/`);
  await host.locator('#rules').selectOption(rules);
  await host.locator('input[name=tc][value="5+0"]').check();
  await host.getByRole('button', { name: 'Create match' }).click();
  await host.waitForURL(/\/m\/[^/]+$/);
  const matchUrl = host.url();

  for (const seat of SEATS.slice(1)) {
    const page = await newPlayer(seat);
    await page.goto(matchUrl);
  }

  // Each sits in his seat through the seats panel, under the name typed in its field.
  for (const seat of SEATS) {
    const page = players[seat];
    await page.locator('#player-name').fill(NAMES[seat]);
    const row = page.locator('li.seat-row').filter({ has: page.locator('span.seat', { hasText: new RegExp(`^${seat}$`) }) });
    // The name is asked in the page (no browser prompt).
    await page.locator('#player-name').fill(NAMES[seat]);
    await row.getByRole('button', { name: 'Sit here' }).click();
    await row.locator('.tag.you').waitFor();
    await row.locator('.player-name', { hasText: NAMES[seat] }).waitFor();
  }
  for (const seat of SEATS) {
    await players[seat].locator('.match-info .status.playing').waitFor();
    // Each has his own board big, his colour at the bottom.
    const bottom = players[seat].locator('.board-col.main .player.bottom .seat');
    assert.equal(await bottom.textContent(), seat);
  }

  await host.locator('.match-info .rules', { hasText: rules }).waitFor();
  let moves = 0;
  for (const step of script) {
    const page = players[step.seat];
    const color = colorOf(step.seat);
    // His move: his name at the bottom of his board is marked to move.
    await page.locator('.board-col.main.mine .player.bottom.to-move').waitFor();
    if (step.resign) {
      // Resign asks for a second click to confirm.
      await page.getByRole('button', { name: 'Resign' }).click();
      await page.getByRole('button', { name: 'Really resign?' }).click();
      continue;
    }
    if (step.drop) {
      const piece = page.locator(`.board-col.main .pocket.bottom .pocket-piece.usable:has(piece.${step.drop})`);
      await piece.click();
      await page.locator('.board-col.main .pocket.bottom .pocket-piece.selected').waitFor();
      await clickSquare(page, step.to, color);
    } else {
      await clickSquare(page, step.from, color);
      await clickSquare(page, step.to, color);
    }
    moves += 1;
    await everyoneSees(moves, step.label);
  }

  // The queen WhiteA dropped came from BlackB's capture on board B.
  for (const seat of SEATS) {
    const page = players[seat];
    const result = page.locator('section.result');
    await result.locator('.score').waitFor();
    await result.locator('.score', { hasText: score }).waitFor();
    assert.equal(await result.locator('.score').textContent(), score, seat);
    if (boards) assert.equal(await result.locator('.boards-result').textContent(), boards, seat);
    assert.equal(await result.locator('.verdict').textContent(), 'WhiteA and BlackB win', seat);
    assert.match((await result.locator('.reason').textContent()) ?? '', reason, seat);
    assert.equal(await result.locator('.outcome').textContent(), WINNERS.has(seat) ? 'You win' : 'You lose', seat);
    assert.equal(await page.locator('.match-info .status').textContent(), 'finished', seat);
  }
  // Board A shows the mate: the black king on e8 in check, the white queen on f7.
  const boardA = players.BlackA.locator('.board-col.main');
  assert.equal(await boardA.locator('.board-label').textContent(), boardLabel);
  await boardA.locator('cg-board square.check').waitFor();
  if (script === DROP_MATE) {
    assert.equal(await boardA.locator('cg-board piece.white.queen').count(), 2, 'the d1 queen and the dropped one');
    const pocketQueen = players.WhiteA.locator('.board-col.main .pocket.bottom .pocket-piece:has(piece.queen)');
    assert.equal(await pocketQueen.getAttribute('data-count'), '0', "WhiteA's pocket is empty again");
  }

  for (const seat of SEATS) {
    await players[seat].screenshot({ path: join(ARTIFACTS, `final-${rules}-${seat}.png`), fullPage: true });
  }

  // The lobby's archive lists the finished match.
  const lobby = await newPlayer('spectator');
  await lobby.goto(`${BASE}/`);
  const id = decodeURIComponent(new URL(matchUrl).pathname.split('/').pop());
  const row = lobby.locator('.archive tbody tr').filter({ has: lobby.locator(`a[href="/m/${encodeURIComponent(id)}"]`) });
  await row.waitFor();
  assert.match((await row.textContent()) ?? '', new RegExp(`${rules}.*Alice & Dave.*Bob & Carol.*${score}`));
  await lobby.screenshot({ path: join(ARTIFACTS, `lobby-${rules}.png`), fullPage: true });

  for (const page of Object.values(players)) await page.context().close();
  for (const key of Object.keys(players)) delete players[key];
}

test('a custom rule set is chosen in the lobby and shown on the match page', { timeout: 60_000 }, async () => {
  const host = await newPlayer('WhiteA');
  await host.goto(`${BASE}/`);
  await host.locator('#rules').selectOption('fide');
  await host.locator('#custom-rules summary').click();
  // The fields start at the preset's values.
  await host.locator('#rule-drop_check').waitFor();
  assert.equal(await host.locator('#rule-drop_check').inputValue(), 'Allowed');
  await host.locator('#rule-drop_check').selectOption('Forbidden');
  await host.locator('#rule-move_count_claim').fill('40');
  await host.getByRole('button', { name: 'Create match' }).click();
  await host.waitForURL(/\/m\/[^/]+$/);
  const rulesTag = host.locator('.match-info .rules', { hasText: 'custom' });
  await rulesTag.waitFor();
  const title = (await rulesTag.getAttribute('title')) ?? '';
  assert.match(title, /drop_check = Forbidden/);
  assert.match(title, /move_count_claim = 40/);

  // A bad value is refused with the field's name, and nothing is created.
  await host.goto(`${BASE}/`);
  await host.locator('#custom-rules summary').click();
  await host.locator('#rule-repetition_claim').fill('1');
  await host.getByRole('button', { name: 'Create match' }).click();
  await host.locator('.form-error', { hasText: 'repetition_claim' }).waitFor();
  assert.match(host.url(), /\/$/);
  // That refusal is the one console error the page may show.
  const refused = pageErrors.findIndex(e => e.includes('status of 400'));
  assert.ok(refused >= 0, 'the refused creation was a 400');
  pageErrors.splice(refused, 1);
  await host.context().close();
  delete players.WhiteA;
});
