// The pickers that turn clicks into moves: only moves of the legal list are ever proposed.

import { test } from 'node:test';
import assert from 'node:assert/strict';
import { IsaacPicker, SquarePicker, moveCells, tileCells } from '../moves.js';

test('moves name the cells they touch', () => {
  assert.deepEqual(tileCells('3h07'), ['07', '08', '09']);
  assert.deepEqual(tileCells('4v62'), ['62', '72', '82', '92']);
  assert.deepEqual(moveCells('isaac', 'x5h50+5'), ['50', '51', '52', '53', '54']);
  assert.deepEqual(moveCells('isaac', 'pass'), []);
  assert.deepEqual(moveCells('sight', 'b4-c3+d3+d4'), ['b4', 'c3']);
  assert.deepEqual(moveCells('tactigon', 'd6-c13'), ['d6', 'c13']);
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
  assert.match(p.click('e5', legal).message, /b4-e5 is not a legal move/);
  assert.equal(p.from, null, 'an illegal click deselects');
  assert.match(p.click('a1', legal).message, /no legal move starts here/);
});

test('isaac: size and orientation pick the anchors; a tile then an advance', () => {
  const p = new IsaacPicker();
  const legal = ['3h00', '3h01', '3v00', '7v00'];
  const c = p.controls(legal);
  assert.deepEqual([c.sizes, c.size, c.orients, c.orient], [[3, 7], 7, ['v'], 'v']);
  assert.deepEqual(p.marks(legal).legal, ['00']);
  p.size = 3;
  p.orient = 'h';
  assert.deepEqual(p.marks(legal).legal, ['00', '01']);
  assert.deepEqual(p.click('01', legal), { play: '3h01' });
  assert.match(p.click('02', legal).message, /cannot have its lowest cell at 02/);
  assert.deepEqual(p.preview('00', legal), ['00', '01', '02']);

  const removals = ['x5h50+0', 'x5h50+5', 'x3h13+2'];
  assert.deepEqual(p.marks(removals).legal.sort(), ['13', '14', '15', '50', '51', '52', '53', '54']);
  assert.deepEqual(p.click('52', removals), {});
  assert.deepEqual(p.controls(removals).advances, [0, 5]);
  assert.match(p.advance(4, removals).message, /not a legal move/);
  assert.deepEqual(p.advance(5, removals), { play: 'x5h50+5' });
  assert.match(p.click('99', removals).message, /none of your removable tiles/);
  assert.equal(p.controls(['pass']).pass, true);
  assert.match(p.click('00', ['pass']).message, /Pass/);
});

test('isaac seen from Light: the clicked cell is the tile\'s lowest cell in Light\'s frame', () => {
  const p = new IsaacPicker();
  p.flipped = true;
  const legal = ['3h00', '3h01', '3v00', '3v70', '7v00'];
  p.controls(legal);
  p.size = 3;
  p.orient = 'h';
  // 3h00 covers 00 01 02: seen from Light, its first cell is 02 (Light's 97).
  assert.deepEqual(p.marks(legal).legal, ['02', '03']);
  assert.deepEqual(p.click('02', legal), { play: '3h00' });
  assert.deepEqual(p.click('03', legal), { play: '3h01' });
  assert.match(p.click('00', legal).message, /cannot have its lowest cell at 00/);
  assert.deepEqual(p.preview('02', legal), ['00', '01', '02']);
  p.orient = 'v';
  assert.deepEqual(p.marks(legal).legal, ['20', '90']);
  assert.deepEqual(p.click('90', legal), { play: '3v70' });
  assert.match(p.click('10', legal).message, /cannot have its lowest cell/);
});
