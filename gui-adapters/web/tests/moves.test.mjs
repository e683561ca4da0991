// The pickers that turn clicks into moves: only moves of the legal list are ever proposed.

import { test } from 'node:test';
import assert from 'node:assert/strict';
import { SquarePicker } from '../moves.js';
import { IsaacPicker, tileCells } from '../isaac.js';
import { moveCells, notation } from '../notations.js';
import { moveNumber, moveRows } from '../navigate.js';

test('moves name the cells they touch', () => {
  assert.deepEqual(tileCells('3h07'), ['07', '08', '09']);
  assert.deepEqual(tileCells('4v62'), ['62', '72', '82', '92']);
  assert.deepEqual(moveCells('tiles', 'x5h50+5'), ['50', '51', '52', '53', '54']);
  assert.deepEqual(moveCells('tiles', 'pass'), []);
  assert.deepEqual(moveCells('squares', 'b4-c3+d3+d4'), ['b4', 'c3']);
  assert.deepEqual(moveCells('squares', 'd6-c13'), ['d6', 'c13']);
  assert.equal(notation('tiles').Picker, IsaacPicker);
  assert.equal(notation('squares').Picker, SquarePicker);
  assert.equal(notation('unknown').Picker, SquarePicker, 'squares by default');
});

test('sight and tactigon: a point, or a piece then a target', () => {
  const p = new SquarePicker();
  assert.deepEqual(p.click('c3', ['a1', 'c3']), { play: 'c3' });
  assert.deepEqual(p.marks(['a1', 'c3']).dots, ['a1', 'c3'], 'dots on the points to place on');
  const legal = ['b4-c4', 'b4-c5', 'd2-d1'];
  assert.deepEqual(p.marks(legal), { legal: ['b4', 'd2'], selected: [], dots: [] });
  assert.deepEqual(p.click('b4', legal), {});
  assert.deepEqual(p.marks(legal), { legal: ['c4', 'c5'], selected: ['b4'], dots: ['c4', 'c5'] });
  assert.deepEqual(p.click('d2', legal), {}, 'another piece is selected instead');
  assert.deepEqual(p.click('d1', legal), { play: 'd2-d1' });
  p.click('b4', legal);
  assert.deepEqual(p.click('e5', legal), { refused: { from: 'b4', cell: 'e5' } }, 'the page asks why');
  assert.equal(p.from, null, 'an illegal click deselects');
  assert.deepEqual(p.click('a1', legal), { refused: { from: null, cell: 'a1' } });
});

/** Every legal placement of `size` and `orient` on an empty board. */
function emptyBoard(size, orient) {
  const out = [];
  for (let a = 0; a < 100; a++) {
    const fits = orient === 'h' ? a % 10 <= 10 - size : Math.floor(a / 10) <= 10 - size;
    if (fits) out.push(`${size}${orient}${String(a).padStart(2, '0')}`);
  }
  return out;
}

test('isaac: any cell places the tile centred on it, else the nearest that fits', () => {
  const p = new IsaacPicker();
  const legal = [...emptyBoard(3, 'h'), ...emptyBoard(3, 'v'), ...emptyBoard(4, 'h')];
  const c = p.controls(legal);
  assert.deepEqual([c.sizes, c.size, c.orients, c.orient], [[3, 4], 4, ['h'], 'h']);
  p.size = 3;
  assert.equal(p.placementAt('45', legal), '3h44', 'centred on 45');
  assert.equal(p.placementAt('40', legal), '3h40', 'at the edge: the nearest that fits');
  assert.equal(p.placementAt('09', legal), '3h07');
  p.size = 4;
  assert.equal(p.placementAt('45', legal), '4h44', 'an even tile reaches to the right');
  p.flipped = true;
  assert.equal(p.placementAt('45', legal), '4h43', 'seen from Light, right is down the numbers');
  p.flipped = false;
  // Cells taken: only placements that are legal, still covering the cell.
  const gap = ['3h41', '3h42', '3v45'];
  p.size = 3;
  p.orient = 'h';
  assert.equal(p.placementAt('42', gap), '3h41');
  assert.equal(p.placementAt('44', gap), '3h42');
  assert.equal(p.placementAt('47', gap), null);
  assert.deepEqual(p.click('47', gap), { message: 'No 3h tile fits over 47: choose another size, or turn it (r)' });
  // The mouse shows the tile a click places; a click places it.
  assert.equal(p.hover('44', gap), true);
  assert.deepEqual(p.marks(gap).preview, ['42', '43', '44']);
  assert.deepEqual(p.click('44', gap), { play: '3h42' });
  assert.deepEqual(p.marks(gap).legal.sort(), ['41', '42', '43', '44']);
});

test('isaac on a touch screen: a tap shows the tile, a second tap on the same cell places it', () => {
  const p = new IsaacPicker();
  const legal = emptyBoard(3, 'h').concat(emptyBoard(3, 'v'));
  p.controls(legal);
  assert.match(p.click('45', legal, true).message, /Tap 45 again to place 3h44/);
  assert.deepEqual(p.marks(legal).preview, ['44', '45', '46']);
  assert.deepEqual(p.marks(legal).dots, ['45'], 'the cell to tap again');
  // A tap on another cell of the tile moves it there: nudged by one cell.
  assert.match(p.click('46', legal, true).message, /Tap 46 again to place 3h45/);
  assert.deepEqual(p.marks(legal).preview, ['45', '46', '47']);
  assert.match(p.click('60', legal, true).message, /3h60/, 'a tap elsewhere moves it');
  assert.deepEqual(p.marks(legal).preview, ['60', '61', '62']);
  assert.equal(p.rotate(legal), true);
  assert.equal(p.orient, 'v');
  assert.deepEqual(p.marks(legal).preview, ['50', '60', '70'], 'turned round the cell tapped');
  assert.match(p.prompt(legal).message, /Tap 60 again to place 3v50/);
  assert.deepEqual(p.click('60', legal, true), { play: '3v50' });
  assert.deepEqual(p.marks(legal).preview, []);
  assert.deepEqual(p.click('70', legal, true).play, undefined, 'a first tap never places');
  assert.equal(p.rotate(['3h00']), false, 'no other way to turn');
});

test('isaac: a hint chooses its size and orientation, or its tile and advance', () => {
  const p = new IsaacPicker();
  const legal = [...emptyBoard(3, 'h'), ...emptyBoard(5, 'h'), ...emptyBoard(5, 'v')];
  p.controls(legal);
  assert.equal(p.followHint('5v23', legal), true);
  assert.deepEqual([p.size, p.orient], [5, 'v']);
  assert.equal(p.followHint('5v23', legal), false, 'only once');
  const removals = ['x5h50+0', 'x5h50+1', 'x5h50+2', 'x5h50+3', 'x5h50+5', 'x3h13+2'];
  assert.equal(p.followHint('x5h50+3', removals), true);
  assert.deepEqual([p.tile, p.advance], ['5h50', 3]);
});

test('isaac removals: a tile, then a legal advance on the stepper', () => {
  const p = new IsaacPicker();
  const legal = ['x5h50+0', 'x5h50+1', 'x5h50+2', 'x5h50+3', 'x5h50+5', 'x3h13+2'];
  assert.deepEqual(p.marks(legal).legal.sort(), ['13', '14', '15', '50', '51', '52', '53', '54']);
  assert.deepEqual(p.click('52', legal), {});
  const c = p.controls(legal);
  assert.deepEqual([c.tile, c.advances, c.advance], ['5h50', [0, 1, 2, 3, 5], 5], 'the largest first');
  p.step(legal, -1);
  assert.equal(p.advance, 3, '4 is skipped (it would land on the other counter)');
  p.step(legal, 0, 4);
  assert.equal(p.advance, 5, 'a slider on 4 snaps to the nearer, larger legal advance');
  p.step(legal, -10);
  assert.equal(p.advance, 0);
  p.step(legal, 1);
  assert.deepEqual(p.removal(legal), { play: 'x5h50+1' });
  assert.equal(p.tile, null);
  assert.match(p.click('99', legal).message, /none of your removable tiles/);
  assert.equal(p.controls(['pass']).pass, true);
  assert.match(p.click('00', ['pass']).message, /Pass/);
});

test('the move list: rows from who moved, a gap only for a turn not had', () => {
  assert.deepEqual(moveRows([]), []);
  assert.deepEqual(moveRows(['p1', 'p2', 'p1']), [
    { num: 1, p1: 0, p2: 1 },
    { num: 2, p1: 2, p2: null },
  ]);
  // Player two starts (a loaded position), player one moves twice (player two passed), then
  // player two alone.
  const movers = ['p2', 'p1', 'p1', 'p2', 'p2', 'p2'];
  assert.deepEqual(moveRows(movers), [
    { num: 1, p1: 'gap', p2: 0 },
    { num: 2, p1: 1, p2: 'gap' },
    { num: 3, p1: 2, p2: 3 },
    { num: 4, p1: 'gap', p2: 4 },
    { num: 5, p1: 'gap', p2: 5 },
  ]);
  assert.deepEqual(movers.map((_, i) => moveNumber(movers, i)), ['1...', '2.', '3.', '3...', '4...', '5...']);
  // A move played later changes no earlier row.
  for (let n = 1; n < movers.length; n++) {
    const before = moveRows(movers.slice(0, n));
    const after = moveRows(movers.slice(0, n + 1));
    before.forEach((row, i) => {
      assert.equal(after[i].num, row.num);
      for (const side of ['p1', 'p2']) if (row[side] !== null) assert.equal(after[i][side], row[side]);
    });
  }
});
