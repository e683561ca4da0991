// Browser tests of the ludus web GUI, in Debian's headless Chromium driven by playwright-core.
// run.sh starts `ludus web --port 0` and passes its address as BASE_URL.

import { after, before, test } from 'node:test';
import assert from 'node:assert/strict';
import { mkdirSync, mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { chromium } from 'playwright-core';

const BASE_URL = process.env.BASE_URL;
const CHROMIUM = process.env.CHROMIUM || '/usr/bin/chromium';
const SHOTS = resolve(process.env.SCREENSHOT_DIR || '../../../target/browser-screenshots');
const TIMEOUT = 30_000;

let context;
let profile;

before(async () => {
  assert.ok(BASE_URL, 'BASE_URL must name the running `ludus web` server');
  mkdirSync(SHOTS, { recursive: true });
  profile = mkdtempSync(join(tmpdir(), 'ludus-chromium-'));
  context = await chromium.launchPersistentContext(profile, {
    executablePath: CHROMIUM,
    headless: true,
    args: ['--headless', '--no-sandbox', '--disable-gpu', '--disable-quic', '--no-first-run',
      '--disable-background-networking', '--disable-component-update', '--disable-sync'],
    viewport: { width: 1280, height: 900 },
  });
  context.setDefaultTimeout(TIMEOUT);
});

after(async () => {
  await context?.close();
  if (profile) rmSync(profile, { recursive: true, force: true });
});

/** A fresh page on the GUI, with the moves it POSTs recorded. */
async function openPage() {
  const page = await context.newPage();
  page.posted = [];
  page.on('request', (r) => {
    if (r.method() === 'POST' && r.url().endsWith('/api/move')) page.posted.push(r.postDataJSON().move);
  });
  page.on('pageerror', (e) => { throw e; });
  await page.goto(BASE_URL);
  await page.waitForSelector('body[data-ready="true"]');
  return page;
}

async function newGame(page, { game, mode = 'he', movetime = 200 }) {
  await page.click('#btn-new');
  await page.selectOption('#ng-game', game);
  await page.selectOption('#ng-mode', mode);
  if (mode !== 'hh') await page.fill('#ng-movetime', String(movetime));
  const seq = await page.evaluate(() => Number(document.body.dataset.seq));
  await page.click('#ng-start');
  // Engine seats may have moved already by the time the page shows the new game.
  await page.waitForFunction(
    ([g, before, engineFirst]) => document.body.dataset.game === g
      && Number(document.body.dataset.seq) > before
      && (engineFirst || document.body.dataset.ply === '0')
      && !document.getElementById('new-dialog').open,
    [game, seq, mode === 'ee' || mode === 'eh'],
  );
}

const ply = (page) => page.evaluate(() => Number(document.body.dataset.ply));

async function waitPly(page, n) {
  await page.waitForFunction((k) => Number(document.body.dataset.ply) >= k, n);
}

/** Waits until a person may click (or the game is over); returns false once it is over. */
async function waitHumanTurn(page) {
  await page.waitForFunction(() => {
    const banner = document.getElementById('banner');
    return !banner.hidden || document.querySelector('#board .cell.legal') !== null
      || !document.getElementById('pass-row').hidden;
  });
  return page.evaluate(() => document.getElementById('banner').hidden);
}

const legalCells = (page) => page.$$eval('#board .cell.legal', (els) => els.map((e) => e.dataset.cell));
const clickCell = (page, name) => page.click(`#board .cell[data-cell="${name}"]`);
const boardSvg = (page) => page.$eval('#board', (b) => b.innerHTML);

/** Sight or Tactigon: a point to place, or a piece then its first target. */
async function clickSomeMove(page) {
  const before = await ply(page);
  const [first] = await legalCells(page);
  await clickCell(page, first);
  const selected = await page.$$('#board .cell.selected');
  if (selected.length) {
    const [target] = await legalCells(page);
    await clickCell(page, target);
  }
  await waitPly(page, before + 1);
}

async function shot(page, name) {
  await page.screenshot({ path: join(SHOTS, `${name}.png`), fullPage: true });
}

test('the new-game dialog offers the engine\'s rule options of the chosen game', async () => {
  const page = await openPage();
  await page.click('#btn-new');
  await page.selectOption('#ng-game', 'tactigon');
  const fields = await page.$$eval('#ng-options [data-option]',
    (els) => els.map((e) => `${e.dataset.option}:${e.tagName.toLowerCase()}:${e.type}`));
  assert.deepEqual(fields, [
    'Tactigon_PlyCap:input:number', 'Tactigon_NoMoveResult:select:select-one',
    'Tactigon_Repetition:input:checkbox', 'Tactigon_JumpingSquares:input:checkbox',
    'Tactigon_GoldBonus:input:checkbox',
  ]);
  assert.deepEqual(await page.$$eval('#ng-level option', (o) => o.map((e) => e.value)),
    ['random', 'greedy', 'full']);
  await shot(page, 'new-game-dialog');
  await page.click('#ng-cancel');
  await page.close();
});

test('sight: clicks play moves, the engine replies and the board updates', async () => {
  const page = await openPage();
  await newGame(page, { game: 'sight' });
  const empty = await boardSvg(page);
  await clickCell(page, 'c3');
  await waitPly(page, 2);
  assert.notEqual(await boardSvg(page), empty);
  assert.equal(await page.$$eval('#board .piece', (p) => p.length), 2);
  assert.equal(await page.$eval('#moves', (m) => m.dataset.count), '2');
  assert.deepEqual(page.posted, ['c3']);
  await waitHumanTurn(page);
  await clickSomeMove(page);
  await waitPly(page, 4);
  await waitHumanTurn(page);
  assert.notEqual(await page.$eval('#an-depth', (d) => d.textContent), '–');
  await shot(page, 'sight');
  await page.close();
});

test('tactigon: a piece then a highlighted cell; the engine replies', async () => {
  const page = await openPage();
  await newGame(page, { game: 'tactigon' });
  const start = await boardSvg(page);
  const origins = await legalCells(page);
  assert.ok(origins.includes('d6'), `d6 can move: ${origins}`);
  await clickCell(page, 'd6');
  assert.deepEqual(await page.$$eval('#board .cell.selected', (s) => s.map((e) => e.dataset.cell)), ['d6']);
  const targets = await legalCells(page);
  assert.ok(targets.includes('c11'), `d6 reaches c11: ${targets}`);
  await clickCell(page, 'c11');
  await waitPly(page, 2);
  assert.equal(page.posted[0], 'd6-c11');
  assert.notEqual(await boardSvg(page), start);
  await waitHumanTurn(page);
  await clickSomeMove(page);
  await waitPly(page, 4);
  await waitHumanTurn(page);
  await shot(page, 'tactigon');
  await page.close();
});

test('isaac: size, orientation and anchor place a tile; the engine replies', async () => {
  const page = await openPage();
  await newGame(page, { game: 'isaac' });
  await page.click('#size-buttons button[data-value="7"]');
  await page.click('#orient-buttons button[data-value="v"]');
  const anchors = await legalCells(page);
  assert.ok(anchors.includes('00') && !anchors.includes('90'), 'a 7v tile fits only low');
  await clickCell(page, '00');
  await waitPly(page, 2);
  assert.equal(page.posted[0], '7v00');
  assert.equal(await page.$$eval('#board .tile', (t) => t.length), 2);
  await waitHumanTurn(page);
  await page.click('#size-buttons button[data-value="3"]');
  await page.click('#orient-buttons button[data-value="h"]');
  const [anchor] = await legalCells(page);
  await clickCell(page, anchor);
  await waitPly(page, 4);
  await waitHumanTurn(page);
  await shot(page, 'isaac');
  await page.close();
});

test('a complete sight game against the engine ends with the result banner', async () => {
  const page = await openPage();
  await newGame(page, { game: 'sight', movetime: 50 });
  for (let i = 0; i < 30 && (await waitHumanTurn(page)); i++) {
    const n = await ply(page);
    await clickSomeMove(page);
    assert.equal(await ply(page) > n, true);
  }
  const banner = await page.$eval('#banner', (b) => (b.hidden ? '' : b.textContent));
  assert.match(banner, /(White|Black) \(player (one|two)\) wins: (White|Black) has no legal move — you (win!|lose\.)/);
  assert.equal(await page.$$eval('#board .cell.legal', (c) => c.length), 0);
  await shot(page, 'sight-finished');
  await page.close();
});

test('an illegal click is refused and the game goes on', async () => {
  const page = await openPage();
  await newGame(page, { game: 'sight' });
  await clickCell(page, 'c3');
  await waitPly(page, 2);
  await waitHumanTurn(page);
  await clickCell(page, 'c3');
  await page.waitForFunction(() => document.getElementById('message').textContent.includes('no legal move'));
  assert.equal(await ply(page), 2);
  assert.deepEqual(page.posted, ['c3']);
  await clickSomeMove(page);
  await waitPly(page, 4);
  await page.close();
});

test('undo goes back to the person, redo forward, export writes the record', async () => {
  const page = await openPage();
  await newGame(page, { game: 'sight' });
  await clickCell(page, 'b2');
  await waitPly(page, 2);
  await waitHumanTurn(page);
  await page.click('#btn-undo');
  await page.waitForFunction(() => document.body.dataset.ply === '0');
  await page.click('#btn-redo');
  await page.waitForFunction(() => document.body.dataset.ply === '2');
  await page.click('#btn-copy');
  assert.match(await page.inputValue('#load-text'), /^startpos moves b2 \S+$/);
  await page.click('#btn-export');
  await page.waitForSelector('#export-box', { state: 'visible' });
  const record = await page.inputValue('#export-text');
  assert.match(record, /^\[Event "ludus web"\]$/m);
  assert.match(record, /^\[Result "\*"\]$/m);
  assert.match(record, /1\. b2 \{\?\/\? [\d.]+s\} \S+ \{[^}]+\} \*/);
  await page.close();
});

test('hint and PV highlight cells; a bad position is refused with the engine message', async () => {
  const page = await openPage();
  await newGame(page, { game: 'sight' });
  await clickCell(page, 'c3');
  await waitPly(page, 2);
  await waitHumanTurn(page);
  await page.click('#btn-hint');
  await page.waitForSelector('#board .cell.hint');
  assert.match(await page.$eval('#status', (s) => s.textContent), /hint: \S+/);
  await page.check('#show-pv');
  await shot(page, 'sight-hint');
  const fen = await page.$eval('#fen', (f) => f.textContent);
  await page.fill('#load-text', 'fen 5:x5 w');
  await page.click('#btn-load');
  await page.waitForFunction(() => document.getElementById('message').className === 'error');
  assert.match(await page.$eval('#message', (m) => m.textContent), /invalid-position/);
  assert.equal(await page.$eval('#fen', (f) => f.textContent), fen);
  await clickSomeMove(page);
  await page.close();
});

test('isaac: a forced pass, then a removal with its advance', async () => {
  const page = await openPage();
  await newGame(page, { game: 'isaac', mode: 'hh' });
  await page.fill('#load-text', 'fen D6h00,D4h06,D6h10,L4h16,L6h20,D4h26,L5h30,L5h35,L5h40,D5h45,'
    + 'D3h50,D3h53,L4h56,D3h60,D3h63,D4h66,L3h70,L3h73,L4h76,L3h80,L3h83,L4h86,L3h90,D4h93 '
    + '10201/00011 l P - 0/0 0/0');
  await page.click('#btn-load');
  await page.waitForSelector('#btn-pass', { state: 'visible' });
  await clickCell(page, '97');
  assert.match(await page.$eval('#message', (m) => m.textContent), /Pass/);
  await page.click('#btn-pass');
  await waitPly(page, 1);
  assert.deepEqual(page.posted, ['pass']);
  await page.fill('#load-text', 'fen D3h13,D3v39,D5h50,L3h55,L3v58 00000/00000 d S - 10/85 0/0');
  await page.click('#btn-load');
  await page.waitForFunction(() => document.body.dataset.ply === '0');
  await clickCell(page, '52');
  assert.deepEqual(
    await page.$$eval('#board .cell.selected', (s) => s.map((e) => e.dataset.cell).sort()),
    ['50', '51', '52', '53', '54'],
  );
  const advances = await page.$$eval('#advance-buttons button', (b) => b.map((e) => e.dataset.value));
  assert.ok(advances.includes('5') && !advances.includes('4'), `advances ${advances}`);
  await shot(page, 'isaac-removal');
  await page.click('#advance-buttons button[data-value="5"]');
  await waitPly(page, 1);
  assert.deepEqual(page.posted, ['pass', 'x5h50+5']);
  await page.close();
});

test('engine against engine plays on its own and pauses', async () => {
  const page = await openPage();
  await newGame(page, { game: 'tactigon', mode: 'ee', movetime: 50 });
  await waitPly(page, 3);
  await page.click('#btn-pause');
  await page.waitForFunction(() => document.body.dataset.thinking === 'false');
  const stopped = await ply(page);
  await page.waitForTimeout(400);
  assert.equal(await ply(page), stopped);
  assert.equal(page.posted.length, 0);
  await page.close();
});
