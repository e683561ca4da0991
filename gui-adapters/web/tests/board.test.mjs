// Browser tests of the board (board.js, prefs.js and the server's drawings): flip, resign,
// captures and trays, the last move under the pieces, legal-move dots, the move animation, dark
// mode, sounds and moves by keyboard. run.sh starts `ludus web --port 0` and passes its address as BASE_URL.

import { test } from 'node:test';
import assert from 'node:assert/strict';
import {
  cellCentre, clickCell, load, newGame, openPage, shot, waitHumanTurn, waitPly,
} from './helpers.mjs';

test('flip turns the board; clicks after it still play the intended moves', async () => {
  const page = await openPage();
  await newGame(page, { game: 'tactigon', mode: 'hh' });
  // A desktop's window is wide: Tactigon's board lies on its side, Red on the left.
  assert.equal(await page.evaluate(() => document.body.dataset.landscape), 'true');
  const red = await cellCentre(page, 'd4');
  const blue = await cellCentre(page, 'd16');
  assert.ok(red.x < blue.x, 'Red on the left at first');
  assert.ok((await cellCentre(page, 'a9')).y < (await cellCentre(page, 'g9')).y, 'a on top');
  await page.click('#btn-flip');
  await page.waitForFunction(() => document.body.dataset.flipped === 'true');
  const [red2, blue2] = [await cellCentre(page, 'd4'), await cellCentre(page, 'd16')];
  assert.ok(red2.x > blue2.x, 'Blue on the left when flipped');
  assert.ok((await cellCentre(page, 'a9')).y > (await cellCentre(page, 'g9')).y, 'g on top');
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

  // Isaac seen from Light: the tile covers the clicked cell, as everywhere.
  await newGame(page, { game: 'isaac', mode: 'hh' });
  await page.keyboard.press('f');
  await page.waitForFunction(() => document.body.dataset.flipped === 'true');
  assert.ok((await cellCentre(page, '99')).y > (await cellCentre(page, '00')).y, 'Dark 99 (Light 00) below');
  assert.ok((await cellCentre(page, '99')).x < (await cellCentre(page, '90')).x, 'Light 00 on the left');
  assert.match(await page.$eval('#isaac-panel .note', (n) => n.textContent), /^Seen from Light\./);
  await page.click('#size-buttons button[data-value="3"]');
  if (await page.$eval('#btn-rotate', (b) => b.dataset.orient) !== 'h') await page.click('#btn-rotate');
  await clickCell(page, '01');
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
  // Undo takes the resignation back.
  await page.click('#btn-undo');
  await page.waitForSelector('#banner', { state: 'hidden' });
  assert.equal(await page.evaluate(() => document.body.dataset.ply), '2');
  await page.close();
});

test('a resignation before the first move is taken back like any other', async () => {
  const page = await openPage();
  await newGame(page, { game: 'sight' });
  assert.equal(await page.$eval('#btn-undo', (b) => b.disabled), true, 'nothing to undo yet');
  await page.click('#btn-resign');
  await page.click('#btn-resign');
  await page.waitForSelector('#banner', { state: 'visible' });
  assert.equal(await page.$eval('#btn-undo', (b) => b.disabled), false, 'the resignation can be undone');
  await page.click('#btn-undo');
  await page.waitForSelector('#banner', { state: 'hidden' });
  assert.equal(await page.$eval('#btn-undo', (b) => b.disabled), true);
  assert.equal(await page.$eval('#btn-resign', (b) => b.hidden), false);
  // The game goes on: the person moves, the engine replies.
  await clickCell(page, 'c3');
  await waitPly(page, 2);
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
  assert.deepEqual(await page.$$eval('#moves .mv', (l) => l.map((e) => e.textContent)), ['d10×d12']);
  assert.equal(await page.$eval('#tray-bottom', (t) => t.dataset.side), 'p1');
  assert.deepEqual(await page.$$eval('#tray-bottom [data-piece]', (p) => p.map((e) => `${e.dataset.piece}:${e.getAttribute('class')}`)),
    ['square:icon p2']);
  assert.equal(await page.$eval('#tray-top', (t) => t.dataset.count), '0');
  // The badge leaves the cell's name readable, on the board lying or upright.
  const apart = () => page.evaluate(() => {
    const badge = document.querySelector('#board .badge.capture circle').getBoundingClientRect();
    const name = document.querySelector('#board .name[data-name="d12"]').getBoundingClientRect();
    return badge.right <= name.left || name.right <= badge.left
      || badge.bottom <= name.top || name.bottom <= badge.top;
  });
  assert.equal(await apart(), true, 'the × badge beside the name d12, on the board on its side');
  await shot(page, 'tactigon-capture');
  await page.setViewportSize({ width: 600, height: 900 });
  await page.waitForFunction(() => document.body.dataset.landscape === 'false');
  assert.equal(await apart(), true, 'the × badge beside the name d12, on the upright board');
  await shot(page, 'tactigon-capture-upright');
  await page.setViewportSize({ width: 1280, height: 900 });
  await page.waitForFunction(() => document.body.dataset.landscape === 'true');
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


test('a move by keyboard: the board is a Tab stop, the arrows move its cursor, Enter plays', async () => {
  const page = await openPage();
  await newGame(page, { game: 'sight', mode: 'hh' });
  assert.equal(await page.$eval('#board', (b) => b.tabIndex), 0, 'the board is in the Tab order');
  await page.focus('#board');
  const cursor = () => page.$eval('#board', (b) => b.dataset.cursor);
  const first = await cursor();
  assert.match(first, /^[a-e][1-5]$/, 'a cursor on a point');
  assert.equal(await page.$$eval('#board .kbd-cursor', (c) => c.length), 1, 'outlined');
  await page.keyboard.press('ArrowRight');
  const second = await cursor();
  await page.keyboard.press('ArrowLeft');
  const third = await cursor();
  assert.ok(second !== first ? third === first : true, `${first} → ${second} → ${third}`);
  await page.keyboard.press(second === first ? 'ArrowLeft' : 'ArrowRight');
  const chosen = await cursor();
  assert.notEqual(chosen, first, 'the cursor moved');
  // The arrows moved the cursor, not the move list.
  assert.equal(await page.evaluate(() => document.body.dataset.view), 'live');
  await page.keyboard.press('Enter');
  await waitPly(page, 1);
  assert.deepEqual(page.posted, [chosen]);
  // Escape leaves the board: the arrows step through the game again.
  await page.focus('#board');
  await page.keyboard.press('Escape');
  await page.keyboard.press('ArrowLeft');
  await page.waitForFunction(() => document.body.dataset.view === '0');
  await page.close();
});
