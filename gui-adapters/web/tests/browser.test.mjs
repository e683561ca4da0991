// Browser tests of the ludus web GUI, in Debian's headless Chromium driven by playwright-core.
// run.sh starts `ludus web --port 0` and passes its address as BASE_URL.

import { after, before, test } from 'node:test';
import assert from 'node:assert/strict';
import { spawn } from 'node:child_process';
import { mkdirSync, mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { chromium } from 'playwright-core';

const BASE_URL = process.env.BASE_URL;
const LUDUS = process.env.LUDUS;
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

/** A fresh page on the GUI (at `url`), with the moves it POSTs recorded. */
async function openPage(url = BASE_URL) {
  const page = await context.newPage();
  page.posted = [];
  page.on('request', (r) => {
    if (r.method() === 'POST' && new URL(r.url()).pathname === '/api/move') page.posted.push(r.postDataJSON().move);
  });
  page.on('pageerror', (e) => { throw e; });
  await page.goto(url);
  await page.waitForSelector('body[data-ready="true"]');
  return page;
}

/** The session id in a page's URL. */
const sessionOf = (page) => new URL(page.url()).searchParams.get('s');

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
  // The hint is drawn over the board (a Sight placement: a ring on its point), and the last
  // move stays highlighted under the pieces.
  await page.waitForSelector('#board .arrows .line-move.hint', { state: 'attached' });
  assert.equal(await page.$$eval('#board .last-move .last.to', (l) => l.length), 1);
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

test('two tabs play two different games at once without interfering', async () => {
  const [a, b] = [await openPage(), await openPage()];
  assert.notEqual(sessionOf(a), sessionOf(b));
  await newGame(a, { game: 'sight', mode: 'hh' });
  await newGame(b, { game: 'tactigon', mode: 'hh' });
  // Moves in both tabs at the same time.
  await Promise.all([
    (async () => { await clickCell(a, 'c3'); await waitPly(a, 1); await clickCell(a, 'c4'); await waitPly(a, 2); })(),
    (async () => { await clickCell(b, 'd6'); await clickCell(b, 'c11'); await waitPly(b, 1); })(),
  ]);
  const seqA = await a.evaluate(() => document.body.dataset.seq);
  await b.click('#btn-undo');
  await b.waitForFunction(() => document.body.dataset.ply === '0');
  await b.waitForTimeout(300);
  assert.equal(await a.evaluate(() => document.body.dataset.seq), seqA, 'B\'s undo did not reach A');
  assert.equal(await a.evaluate(() => document.body.dataset.game), 'sight');
  assert.equal(await ply(a), 2);
  assert.equal(await a.$eval('#fen', (f) => f.textContent), '5:x5/x2,b,x2/x2,w,x2/x5/x5 w');
  assert.deepEqual(a.posted, ['c3', 'c4']);
  assert.equal(await b.evaluate(() => document.body.dataset.game), 'tactigon');
  assert.deepEqual(b.posted, ['d6-c11']);
  await shot(a, 'two-tabs-sight');
  await shot(b, 'two-tabs-tactigon');
  await a.close();
  await b.close();
});

test('eight tabs all load, share one event stream and each play a move', async () => {
  const streams = [];
  const onRequest = (r) => { if (new URL(r.url()).pathname === '/api/events') streams.push(r.url()); };
  context.on('request', onRequest);
  const pages = [];
  for (let i = 0; i < 8; i++) pages.push(await openPage());
  assert.equal(new Set(pages.map(sessionOf)).size, 8, 'a session per tab');
  for (const page of pages) {
    assert.equal(await page.$$eval('#board .cell', (c) => c.length), 25, 'the board is shown');
  }
  // Two people in each tab (no engine searches: eight at once crawl on a busy machine).
  const first = ['a1', 'b2', 'c3', 'd4', 'e5', 'a5', 'e1', 'c1'];
  const second = ['b1', 'c2', 'd3', 'e4', 'd5', 'b5', 'd1', 'c5'];
  for (const page of pages) await newGame(page, { game: 'sight', mode: 'hh' });
  for (const [i, page] of pages.entries()) {
    await clickCell(page, first[i]);
    await waitPly(page, 1);
  }
  // Each tab's second move is sent by its neighbour tab: a tab sees it only through the
  // browser's one event stream, passed on by the leading tab.
  for (const [i, page] of pages.entries()) {
    const status = await pages[(i + 1) % 8].evaluate(async ([s, move]) => {
      const r = await fetch(`/api/move?s=${s}`, {
        method: 'POST', headers: { 'Content-Type': 'application/json' }, body: JSON.stringify({ move, ply: 1 }),
      });
      return r.status;
    }, [sessionOf(page), second[i]]);
    assert.equal(status, 200);
  }
  for (const page of pages) await waitPly(page, 2);
  for (const [i, page] of pages.entries()) {
    assert.deepEqual(await page.$$eval('#moves li', (l) => l.map((e) => e.textContent)), [`${first[i]}  ${second[i]}`]);
  }
  const leaders = await Promise.all(pages.map((p) => p.evaluate(() => document.body.dataset.events)));
  assert.equal(leaders.filter((l) => l === 'leader').length, 1, `one leader: ${leaders}`);
  assert.equal(streams.length, 1, `one event stream for the browser: ${streams}`);
  await shot(pages[7], 'eighth-tab');
  // The leader closes: another tab takes over the stream and events still arrive.
  const leader = pages.findIndex((_, i) => leaders[i] === 'leader');
  await pages[leader].close();
  const rest = pages.filter((_, i) => i !== leader);
  const leading = async () => (await Promise.all(rest.map((p) => p.evaluate(() => document.body.dataset.events))))
    .filter((e) => e === 'leader').length;
  for (let i = 0; i < 100 && (await leading()) !== 1; i++) await rest[0].waitForTimeout(100);
  assert.equal(await leading(), 1, 'the next tab leads');
  const [poster, follower] = [rest[0], rest[rest.length - 1]];
  const status = await poster.evaluate(async (s) => {
    const r = await fetch(`/api/undo?s=${s}`, { method: 'POST', headers: { 'Content-Type': 'application/json' }, body: '{}' });
    return r.status;
  }, sessionOf(follower));
  assert.equal(status, 200);
  await follower.waitForFunction(() => document.body.dataset.ply === '1');
  assert.equal(streams.length, 2, `the new leader's stream: ${streams}`);
  context.off('request', onRequest);
  for (const page of rest) await page.close();
});

test('a reload shows the same game', async () => {
  const page = await openPage();
  await newGame(page, { game: 'sight', mode: 'hh' });
  await clickCell(page, 'b2');
  await waitPly(page, 1);
  await clickCell(page, 'd4');
  await waitPly(page, 2);
  const url = page.url();
  const fen = await page.$eval('#fen', (f) => f.textContent);
  await page.reload();
  await page.waitForSelector('body[data-ready="true"]');
  assert.equal(page.url(), url);
  assert.equal(await ply(page), 2);
  assert.equal(await page.$eval('#fen', (f) => f.textContent), fen);
  assert.deepEqual(await page.$$eval('#moves li', (l) => l.map((e) => e.textContent)), ['b2  d4']);
  await page.close();
});

test('a link to a session the server no longer knows starts a new game and says so', async () => {
  const gone = '0123456789abcdef0123456789abcdef';
  const page = await openPage(`${BASE_URL}/?s=${gone}`);
  assert.match(await page.$eval('#message', (m) => m.textContent), /has ended on the server/);
  assert.notEqual(sessionOf(page), gone);
  assert.equal(await page.$$eval('#board .cell', (c) => c.length), 25);
  await page.close();
});

/** Loads a position of the current game (`fen …`) and waits until it is shown. */
async function load(page, text) {
  await page.fill('#load-text', text);
  const seq = await page.evaluate(() => Number(document.body.dataset.seq));
  await page.click('#btn-load');
  await page.waitForFunction((before) => Number(document.body.dataset.seq) > before, seq);
}

/** The screen centre of cell `name` on the board. */
async function cellCentre(page, name) {
  const box = await (await page.$(`#board .cell[data-cell="${name}"]`)).boundingBox();
  return { x: box.x + box.width / 2, y: box.y + box.height / 2 };
}

test('flip turns the board; clicks after it still play the intended moves', async () => {
  const page = await openPage();
  await newGame(page, { game: 'tactigon', mode: 'hh' });
  const red = await cellCentre(page, 'd4');
  const blue = await cellCentre(page, 'd16');
  assert.ok(red.y > blue.y, 'Red below at first');
  await page.click('#btn-flip');
  await page.waitForFunction(() => document.body.dataset.flipped === 'true');
  const [red2, blue2] = [await cellCentre(page, 'd4'), await cellCentre(page, 'd16')];
  assert.ok(red2.y < blue2.y, 'Blue below when flipped');
  assert.ok((await cellCentre(page, 'a9')).x > (await cellCentre(page, 'g9')).x, 'g on the left');
  await shot(page, 'tactigon-flipped');
  await clickCell(page, 'd6');
  await clickCell(page, 'c11');
  await waitPly(page, 1);
  assert.deepEqual(page.posted, ['d6-c11']);
  assert.equal(await page.$eval('#board .piece[data-at="c11"]', (p) => p.dataset.piece), 'square');
  // The key f turns it back (not while typing).
  await page.focus('#load-text');
  await page.keyboard.press('f');
  assert.equal(await page.evaluate(() => document.body.dataset.flipped), 'true');
  await page.click('#board', { position: { x: 2, y: 2 } });
  await page.keyboard.press('f');
  await page.waitForFunction(() => document.body.dataset.flipped === 'false');

  // Isaac seen from Light: the clicked cell is the tile's lowest cell in Light's frame.
  await newGame(page, { game: 'isaac', mode: 'hh' });
  await page.keyboard.press('f');
  await page.waitForFunction(() => document.body.dataset.flipped === 'true');
  assert.ok((await cellCentre(page, '99')).y > (await cellCentre(page, '00')).y, 'Dark 99 (Light 00) below');
  assert.ok((await cellCentre(page, '99')).x < (await cellCentre(page, '90')).x, 'Light 00 on the left');
  await page.click('#size-buttons button[data-value="3"]');
  await page.click('#orient-buttons button[data-value="h"]');
  await clickCell(page, '02');
  await waitPly(page, 1);
  assert.deepEqual(page.posted, ['d6-c11', '3h00']);
  assert.equal(await page.$$eval('#board .tile[data-tile="3h00"]', (t) => t.length), 1);
  await shot(page, 'isaac-flipped');
  await page.keyboard.press('f');
  await page.close();
});

test('a person resigns against the engine: the engine wins, in the banner and the export', async () => {
  const page = await openPage();
  await newGame(page, { game: 'sight' });
  await clickCell(page, 'c3');
  await waitPly(page, 2);
  await waitHumanTurn(page);
  assert.equal(await page.$eval('#btn-resign', (b) => b.hidden), false);
  await page.click('#btn-resign');
  assert.equal(await page.$eval('#btn-resign', (b) => b.textContent), 'Really resign?');
  await page.click('#btn-resign');
  await page.waitForSelector('#banner', { state: 'visible' });
  assert.equal(await page.$eval('#banner', (b) => b.textContent),
    'Black (player two) wins: White resigns — you lose.');
  assert.equal(await page.$eval('#btn-resign', (b) => b.hidden), true);
  assert.equal(await page.$$eval('#board .dot.legal', (d) => d.length), 0);
  await page.click('#btn-export');
  await page.waitForSelector('#export-box', { state: 'visible' });
  const record = await page.inputValue('#export-text');
  assert.match(record, /^\[Result "0-1"\]$/m);
  assert.match(record, /^\[Termination "resign"\]$/m);
  assert.match(record, /\{Black \(player two\) wins: White resigns\}\s+0-1/);
  await shot(page, 'sight-resigned');
  await page.close();
});

test('tactigon: a capture is marked on the board, listed with ×, and trayed', async () => {
  const page = await openPage();
  await newGame(page, { game: 'tactigon', mode: 'hh' });
  await load(page, 'fen 2/9/10/2P2Cs1p2/10/9/2 r 0');
  assert.equal(await page.$eval('#tray-bottom', (t) => t.dataset.count), '0');
  await clickCell(page, 'd10');
  await clickCell(page, 'd12');
  await waitPly(page, 1);
  assert.deepEqual(page.posted, ['d10-d12']);
  assert.equal(await page.$$eval('#board .badge.capture[data-capture="d12"]', (b) => b.length), 1);
  assert.deepEqual(await page.$$eval('#moves li', (l) => l.map((e) => e.textContent)), ['d10×d12']);
  assert.equal(await page.$eval('#tray-bottom', (t) => t.dataset.side), 'p1');
  assert.deepEqual(await page.$$eval('#tray-bottom [data-piece]', (p) => p.map((e) => `${e.dataset.piece}:${e.getAttribute('class')}`)),
    ['square:icon p2']);
  assert.equal(await page.$eval('#tray-top', (t) => t.dataset.count), '0');
  await shot(page, 'tactigon-capture');
  // A gold pair is warned about, on the board and above it (docs/rules/tactigon.md TV13 after e9-f10).
  await load(page, 'fen 2/4C4/10/2P5p1c/10/4C4/2 b 1');
  assert.match(await page.$eval('#alert', (a) => (a.hidden ? '' : a.textContent)),
    /^Red holds both gold tiles \(b10 and f10\): Blue must break the pair/);
  assert.equal(await page.$$eval('#board .gold-alert', (g) => g.length), 2);
  await page.close();
});

test('the last move is highlighted under the pieces, never on their colour', async () => {
  const page = await openPage();
  await newGame(page, { game: 'tactigon', mode: 'hh' });
  const fill = (cell) => page.$eval(`#board .piece[data-at="${cell}"]`, (p) => getComputedStyle(p).fill);
  const before = await fill('d6');
  const other = await fill('c3');
  await clickCell(page, 'd6');
  // Selected: a spot under the piece, and the piece keeps its colour.
  assert.equal(await fill('d6'), before);
  await clickCell(page, 'c11');
  await waitPly(page, 1);
  assert.equal(await fill('c11'), before, 'the moved piece keeps its fill');
  assert.equal(await fill('c3'), other);
  const order = await page.evaluate(() => {
    const last = document.querySelector('#board .last.to[data-last="c11"]');
    const piece = document.querySelector('#board .piece[data-at="c11"]');
    return last && piece ? last.compareDocumentPosition(piece) & Node.DOCUMENT_POSITION_FOLLOWING : -1;
  });
  assert.ok(order > 0, 'the last-move highlight is drawn before (under) the piece');
  assert.equal(await page.$$eval('#board .last.from[data-last="d6"]', (l) => l.length), 1);
  await page.close();
});

test('a move slides in within 200 ms, and not at all with reduced motion', async () => {
  const page = await openPage();
  await newGame(page, { game: 'tactigon', mode: 'hh' });
  await clickCell(page, 'd6');
  await clickCell(page, 'c11');
  await waitPly(page, 1);
  await page.waitForFunction(() => document.querySelector('#board .piece[data-at="c11"]')?.style.transition);
  assert.equal(await page.$eval('#board .piece[data-at="c11"]', (p) => p.style.transition), 'transform 180ms ease-out');
  await page.emulateMedia({ reducedMotion: 'reduce' });
  await clickCell(page, 'd14');
  await clickCell(page, 'b12');
  await waitPly(page, 2);
  await page.waitForTimeout(100);
  assert.deepEqual(await page.$eval('#board .piece[data-at="b12"]', (p) => [p.style.transition, p.style.transform]), ['', '']);
  await page.emulateMedia({ reducedMotion: null });
  await page.close();
});

test('selecting a piece shows dots on its legal targets', async () => {
  const page = await openPage();
  await newGame(page, { game: 'tactigon', mode: 'hh' });
  assert.equal(await page.$$eval('#board .dot.legal', (d) => d.length), 0);
  await clickCell(page, 'd6');
  const dots = await page.$$eval('#board .dot.legal', (d) => d.map((e) => e.dataset.dot).sort());
  assert.deepEqual(dots, ['a11', 'a9', 'b10', 'b12', 'b8', 'c11', 'c13', 'c7', 'c9', 'd10', 'e11',
    'e13', 'e7', 'e9', 'f10', 'f12', 'f8', 'g11', 'g9']);
  assert.equal(await page.$eval('#board .dot.legal[data-dot="c13"]', (d) => getComputedStyle(d).visibility), 'visible');
  assert.equal(await page.$eval('#board .dot[data-dot="d2"]', (d) => getComputedStyle(d).visibility), 'hidden');
  assert.equal(await page.$$eval('#board .spot.selected', (s) => s.map((e) => e.dataset.spot).join()), 'd6');
  await shot(page, 'tactigon-dots');
  await page.close();
});

test('dark mode follows the toggle, and sounds are off until turned on', async () => {
  const page = await openPage();
  const colour = () => page.evaluate(() => getComputedStyle(document.body).backgroundColor);
  const light = await colour();
  assert.equal(await page.evaluate(() => document.body.dataset.theme), 'light');
  await page.click('#btn-theme');
  assert.equal(await page.evaluate(() => document.documentElement.dataset.theme), 'dark');
  assert.equal(await page.evaluate(() => document.body.dataset.theme), 'dark');
  assert.notEqual(await colour(), light);
  await shot(page, 'dark-mode');
  await page.click('#btn-theme');
  assert.equal(await colour(), light);
  assert.equal(await page.evaluate(() => document.body.dataset.sound), 'off');
  await page.click('#btn-sound');
  assert.equal(await page.evaluate(() => document.body.dataset.sound), 'on');
  await page.click('#btn-sound');
  assert.equal(await page.evaluate(() => document.body.dataset.sound), 'off');
  const icon = await page.evaluate(async () => (await fetch('/favicon.svg')).headers.get('content-type'));
  assert.equal(icon, 'image/svg+xml');
  await page.close();
});

/** Starts `ludus web --port 0` with `args`; resolves to { url, stop }. */
function startServer(args) {
  return new Promise((resolveStart, reject) => {
    const child = spawn(LUDUS, ['web', '--port', '0', ...args], { stdio: ['ignore', 'pipe', 'ignore'] });
    let out = '';
    child.on('error', reject);
    child.stdout.on('data', (chunk) => {
      out += chunk;
      const found = out.match(/^listening on (\S+)$/m);
      if (found) resolveStart({ url: found[1], stop: () => child.kill() });
    });
  });
}

test('a server running its most sessions says so on the page', async () => {
  assert.ok(LUDUS, 'LUDUS must name the ludus binary');
  const server = await startServer(['--max-sessions', '1']);
  try {
    const first = await openPage(server.url);
    const second = await context.newPage();
    await second.goto(server.url);
    await second.waitForSelector('body[data-failed="true"]');
    const message = await second.$eval('#message', (m) => m.textContent);
    assert.match(message, /most games at once \(1,/);
    assert.ok(await second.$eval('#message', (m) => m.checkVisibility()), 'the message is shown');
    await shot(second, 'server-full');
    await second.close();
    await first.close();
  } finally {
    server.stop();
  }
});
