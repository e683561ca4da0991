// Browser tests of Isaac's input (isaac.js, isaac-ui.js): a tile covers any cell pointed at or
// tapped (centred on it if it fits), hover shows the tile a click places, a phone's first tap
// shows it, a second tap on the same cell places it and a tap on any other cell (one of the
// tile's own too) moves it there, the key r and the Turn button turn it, a hint chooses its
// size and orientation, and the advance stepper shows where the counter lands and plays the
// removal chosen. The panel's figures come from the server. run.sh starts `ludus web --port 0`.

import { test } from 'node:test';
import assert from 'node:assert/strict';
import {
  ISAAC_SCORING, SCREENS, cellCentre, clickCell, load, newContext, newGame, openPage, shot, waitPly,
} from './helpers.mjs';

/** The cells of the tile shown as a preview, sorted. */
const preview = (page) => page.$$eval('#board .cell.preview', (c) => c.map((e) => e.dataset.cell).sort());
const orient = (page) => page.$eval('#btn-rotate', (b) => b.dataset.orient);

/** Chooses the tile size and orientation with the buttons. */
async function choose(page, size, way, touch = false) {
  const press = (s) => (touch ? page.tap(s) : page.click(s));
  await press(`#size-buttons button[data-value="${size}"]`);
  if (await orient(page) !== way) await press('#btn-rotate');
  assert.equal(await orient(page), way);
}

test('isaac on a phone: a tap shows the tile, a tap on the same cell places it, any other cell moves it', async () => {
  const context = await newContext(SCREENS.phone);
  const page = await openPage(undefined, context);
  try {
    await newGame(page, { game: 'isaac', mode: 'hh' });
    await choose(page, 3, 'h', true);
    await page.tap('#board .cell[data-cell="45"]');
    assert.deepEqual(await preview(page), ['44', '45', '46'], 'centred on the tapped cell');
    assert.match(await page.$eval('#message', (m) => m.textContent), /Tap 45 again to place 3h44/);
    // A tap on another cell of the tile shown nudges it by one cell; nothing is placed.
    await page.tap('#board .cell[data-cell="46"]');
    assert.deepEqual(await preview(page), ['45', '46', '47'], 'moved one cell on');
    await page.tap('#board .cell[data-cell="44"]');
    assert.deepEqual(await preview(page), ['43', '44', '45'], 'and back');
    await page.tap('#board .cell[data-cell="09"]');
    assert.deepEqual(await preview(page), ['07', '08', '09'], 'moved, and kept on the board');
    assert.deepEqual(await page.$$eval('#board .dot.legal', (d) => d.map((e) => e.dataset.dot)), ['09'],
      'a dot on the cell to tap again');
    assert.deepEqual(page.posted, [], 'nothing played yet');
    await page.tap('#btn-rotate');
    assert.deepEqual(await preview(page), ['09', '19', '29'], 'turned round the cell tapped');
    await page.tap('#size-buttons button[data-value="4"]');
    assert.deepEqual(await preview(page), ['09', '19', '29', '39'], 'a new size at the same cell');
    assert.match(await page.$eval('#message', (m) => m.textContent), /Tap 09 again to place 4v09/);
    assert.deepEqual(page.posted, [], 'still nothing played');
    await page.tap('#board .cell[data-cell="09"]');
    await page.waitForFunction(() => document.body.dataset.ply === '1');
    assert.deepEqual(page.posted, ['4v09']);
    await shot(page, 'isaac-phone-placed');
  } finally {
    await context.close();
  }
});

test('isaac with a mouse: the tile under the pointer is the one a click places; r turns it', async () => {
  const page = await openPage();
  await newGame(page, { game: 'isaac', mode: 'hh' });
  await choose(page, 5, 'h');
  await page.hover('#board .cell[data-cell="55"]');
  await page.waitForFunction(() => document.querySelectorAll('#board .cell.preview').length === 5);
  assert.deepEqual(await preview(page), ['53', '54', '55', '56', '57']);
  assert.deepEqual(await page.$$eval('#board .spot.preview', (s) => s.map((e) => e.dataset.spot).sort()),
    ['53', '54', '55', '56', '57'], 'drawn under the board\'s tiles');
  await page.keyboard.press('r');
  assert.equal(await orient(page), 'v');
  assert.deepEqual(await preview(page), ['35', '45', '55', '65', '75'], 'turned round the cell');
  await page.hover('#board .cell[data-cell="95"]');
  assert.deepEqual(await preview(page), ['55', '65', '75', '85', '95'], 'kept on the board');
  await clickCell(page, '95');
  await waitPly(page, 1);
  assert.deepEqual(page.posted, ['5v55']);
  // Light's turn: a click on a cell the tile cannot cover says why and plays nothing.
  await choose(page, 7, 'h');
  await clickCell(page, '57');
  assert.match(await page.$eval('#message', (m) => m.textContent), /No 7h tile fits over 57/);
  await page.click('#btn-rotate');
  assert.equal(await orient(page), 'v');
  await clickCell(page, '40');
  await waitPly(page, 2);
  assert.deepEqual(page.posted, ['5v55', '7v10']);
  // Seen from Light, an even tile centred on a cell reaches to the right as seen.
  await page.keyboard.press('f');
  await page.waitForFunction(() => document.body.dataset.flipped === 'true');
  await choose(page, 4, 'h');
  await page.hover('#board .cell[data-cell="33"]');
  assert.deepEqual(await preview(page), ['31', '32', '33', '34']);
  assert.ok((await cellCentre(page, '31')).x > (await cellCentre(page, '34')).x, 'Dark\'s 31 on the right');
  await page.keyboard.press('f');
  await page.close();
});

test('isaac: a hint chooses its tile size and orientation', async () => {
  const page = await openPage();
  await newGame(page, { game: 'isaac', mode: 'hh' });
  await choose(page, 3, 'h');
  await page.click('#btn-hint');
  await page.waitForFunction(() => /hint: \S+/.test(document.getElementById('status').textContent));
  const hint = (await page.$eval('#status', (s) => s.textContent)).match(/hint: (\S+)/)[1];
  assert.match(hint, /^[3-7][hv]\d\d$/);
  await page.waitForFunction((size) => document.querySelector('#size-buttons .chosen')?.dataset.value === size, hint[0]);
  assert.equal(await orient(page), hint[1]);
  // A placement's ghost is a translucent tile over the empty cells it would cover.
  assert.match(await page.$eval('#board .arrows .line-move.hint .ghost', (g) => getComputedStyle(g).fill), /^rgba\(230, 110, 0, 0\.3\)$/);
  await page.close();
});

test('isaac: the advance stepper shows where the counter lands and plays the removal chosen', async () => {
  const page = await openPage();
  await newGame(page, { game: 'isaac', mode: 'hh' });
  // docs/rules/isaac.md TV5: x5h50 earns 9 from Dark's 10; +4 would land on Light's 14.
  await load(page, 'fen D3h13,D3v39,D5h50,L3h55,L3v58 00000/00000 d S - 10/85 0/0');
  assert.equal(await page.$eval('#isaac-panel [data-seat="l"] [data-field="counter"]', (e) => e.textContent), 'counter on 14');
  await clickCell(page, '52');
  await page.waitForSelector('#advance-stepper', { state: 'visible' });
  const value = () => page.$eval('#adv-value', (v) => v.textContent);
  const landing = () => page.$eval('#board .landing-mark', (m) => m.dataset.cell);
  assert.equal(await value(), '+9', 'the most it earns first');
  assert.equal(await landing(), '19');
  assert.match(await page.$eval('#advance-info [data-field="earned"]', (e) => e.textContent),
    /^Earns 9 = 3 tiles on the row × value 3$/);
  assert.match(await page.$eval('#advance-info [data-field="collision"]', (e) => e.textContent),
    /\+4 is not allowed: it would land on Light's counter \(cell 14\)/);
  assert.equal(await page.$eval('#board .collision-mark', (m) => m.dataset.cell), '14');
  for (let i = 0; i < 4; i++) await page.click('#adv-down');
  assert.equal(await value(), '+5');
  await page.click('#adv-down');
  assert.equal(await value(), '+3', '+4 skipped');
  assert.equal(await landing(), '13');
  assert.match(await page.$eval('#advance-info [data-field="landing"]', (e) => e.textContent), /score 10 → 13, on cell 13/);
  // Issue 59 item 10: what it earns and what the advance chosen takes, both.
  assert.equal(await page.$eval('#advance-info [data-field="earned"]', (e) => e.textContent),
    'Earns 9 = 3 tiles on the row × value 3; +3 chosen: Dark takes 3 of them');
  await page.$eval('#adv-range', (r) => { r.value = '7'; r.dispatchEvent(new Event('input', { bubbles: true })); });
  assert.equal(await value(), '+7');
  await page.click('#adv-up');
  assert.equal(await value(), '+8');
  await shot(page, 'isaac-stepper');
  await page.click('#btn-remove');
  await waitPly(page, 1);
  assert.deepEqual(page.posted, ['x5h50+8']);
  assert.equal(await page.$eval('#isaac-panel [data-seat="d"] [data-field="score"]', (e) => e.textContent), 'score 18');
  assert.equal(await page.$$eval('#board .landing-mark', (m) => m.length), 0);
  // A bigger position, in which a hint's removal sets the stepper.
  await load(page, ISAAC_SCORING);
  await page.click('#btn-hint');
  await page.waitForFunction(() => /hint: x/.test(document.getElementById('status').textContent));
  const hint = (await page.$eval('#status', (s) => s.textContent)).match(/hint: x(\S+)\+(\d+)/);
  await page.waitForFunction((k) => document.getElementById('adv-value').textContent === `+${k}`, hint[2]);
  assert.deepEqual(await page.$$eval('#board .cell.selected', (c) => c.map((e) => e.dataset.cell).length), hint[1][0] * 1);
  // The hint's ghost round the tile to remove is an outline: the tile keeps its own colour.
  const ghost = await page.$eval('#board .arrows .line-move.hint .ghost', (g) => getComputedStyle(g).fill);
  assert.equal(ghost, 'none');
  await shot(page, 'isaac-hint-removal');
  // As drawn: inside the tile (off its size label), the same with the ghost as without it.
  const clip = await page.$eval(`#board .tile[data-tile="${hint[1]}"]`, (t) => {
    const r = t.getBoundingClientRect();
    const [x, y] = r.width > r.height ? [r.left + r.width / 4, r.top + r.height / 2]
      : [r.left + r.width / 2, r.top + r.height / 4];
    return { x: Math.round(x) - 4, y: Math.round(y) - 4, width: 8, height: 8 };
  });
  const withGhost = await page.screenshot({ clip });
  await page.$eval('#board .arrows .line-move.hint', (g) => { g.style.display = 'none'; });
  const without = await page.screenshot({ clip });
  await page.$eval('#board .arrows .line-move.hint', (g) => { g.style.display = ''; });
  assert.ok(withGhost.equals(without), 'the hint does not tint the tile');
  await page.close();
});
