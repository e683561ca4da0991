// Isaac on the page, beside the board picture: the panel (the phase, the side to move or the
// result, each player's score, counter, floor, hand and pass state, from the state's `isaac`
// field), the control rows of a person's turn (the tile size, the Turn button, the pass, the
// removal's advance stepper), and the marks of the chosen removal on the board: the cell the
// counter would land on and the cell it may not land on. Every figure comes from the server,
// which works them out with the rules (src/gui/web/isaac.rs); the picker (isaac.js) decides
// which legal move is meant.

import { tileCells } from './isaac.js';

const $ = (id) => document.getElementById(id);
const SVG_NS = 'http://www.w3.org/2000/svg';

function el(tag, attrs = {}, ...children) {
  const e = document.createElement(tag);
  for (const [k, v] of Object.entries(attrs)) {
    if (k === 'class') e.className = v;
    else if (k.startsWith('data-')) e.setAttribute(k, v);
    else e[k] = v;
  }
  e.append(...children);
  return e;
}

/** One player's lines of the panel. */
function playerBox(p, scoring, sizes) {
  const head = el('div', { class: 'isaac-name' }, el('span', { class: `swatch ${p.seat}` }), el('strong', {}, p.name));
  if (p.tag) head.append(el('span', { class: 'tag' }, p.tag));
  const figures = el('div', { class: 'figures' });
  if (scoring) {
    figures.append(
      el('span', { 'data-field': 'score' }, `score ${p.score}`),
      el('span', { 'data-field': 'counter' }, p.counter === null ? 'counter off the board' : `counter on ${p.counter}`),
      el('span', { 'data-field': 'floor' }, `floor ${p.floor}`),
    );
  }
  const hand = el('div', { class: 'hand', 'data-field': 'hand' }, el('span', { class: 'label' }, 'in hand'));
  sizes.forEach((size, i) => hand.append(el('span', { class: 'hand-size', 'data-size': String(size) }, `${size}×${p.hand[i]}`)));
  const plural = (n, word) => `${n} ${word}${n === 1 ? '' : 's'}`;
  hand.append(el('span', { class: 'label' }, `${plural(p.tiles, 'tile')}, ${plural(p.cells, 'cell')}`));
  return el('div', { class: `isaac-player ${p.seat}`, 'data-seat': p.seat }, head, figures, hand);
}

/** The panel under the board (beside it on a wide screen). */
function renderPanel(state, flipped) {
  const box = $('isaac-panel');
  const info = state.game === 'isaac' ? state.isaac : null;
  box.hidden = !info;
  if (!info) return;
  const phase = { placement: 'Placement phase', scoring: 'Scoring phase', ended: 'Game over' }[info.phase];
  const scoring = info.phase !== 'placement';
  const frames = flipped
    ? 'Seen from Light. Cell numbers: Light\'s frame top-left, Dark\'s (99 − n) bottom-right.'
    : 'Cell numbers: Dark\'s frame top-left, Light\'s (99 − n) bottom-right.';
  const values = info.sizes.map((s, i) => `${s}→${info.values[i]}`).join(' ');
  box.replaceChildren(
    el('h2', {}, `${phase} `, el('span', { class: 'status', 'data-field': 'status' }, info.status)),
    ...info.players.map((p) => playerBox(p, scoring, info.sizes)),
    el('p', { class: 'note' }, `${frames} Tile values: ${values}.`),
  );
  box.dataset.phase = info.phase;
}

/** A row of choice buttons. */
function buttons(host, values, current, enabled, onPick, label) {
  host.replaceChildren(...values.map((v) => {
    const b = el('button', { type: 'button', textContent: label(v), 'data-value': String(v) });
    b.disabled = !enabled.includes(v);
    b.classList.toggle('chosen', v === current);
    b.addEventListener('click', () => onPick(v));
    return b;
  }));
}

/** What the server worked out for removing `tile` (null if it did not). */
function preview(state, tile) {
  return state.isaac?.removals?.find((r) => r.tile === tile) ?? null;
}

/** A cell as the board's top-left numbers name it (Light's frame when seen from Light). */
function shownCell(cell, flipped) {
  return flipped ? String(99 - Number(cell)).padStart(2, '0') : cell;
}

/** The lines under the stepper: where the counter lands, the points, the forbidden advance. */
function advanceInfo(state, c, flipped) {
  const r = preview(state, c.tile);
  if (!r || c.advance === null) return [];
  const mover = state.sides[state.p1turn ? 0 : 1];
  const other = state.sides[state.p1turn ? 1 : 0];
  const cell = r.cells[c.advance];
  const lands = cell === null
    ? `${mover}'s counter leaves the board: score ${r.score + c.advance}, ${mover} wins`
    : `${mover}'s counter: score ${r.score} → ${r.score + c.advance}, on cell ${shownCell(cell, flipped)}`;
  const line = c.tile[1] === 'h' ? 'row' : 'column';
  const counters = r.counters_on_line ? ` × ${2 ** r.counters_on_line} (${r.counters_on_line} counter${r.counters_on_line > 1 ? 's' : ''} in it)` : '';
  // The removal earns up to `earned`; the advance chosen takes that many of them, or fewer.
  const taken = c.advance === r.earned ? '' : `; +${c.advance} chosen: ${mover} takes ${c.advance} of them`;
  const earns = `Earns ${r.earned} = ${r.tiles_on_line} tile${r.tiles_on_line === 1 ? '' : 's'} on the ${line} × value ${r.value}${counters}${taken}`;
  const lines = [el('div', { 'data-field': 'landing' }, lands), el('div', { 'data-field': 'earned' }, earns)];
  if (r.collision) {
    lines.push(el('div', { 'data-field': 'collision', class: 'warn' },
      `+${r.collision.advance} is not allowed: it would land on ${other}'s counter (cell ${shownCell(r.collision.cell, flipped)})`));
  }
  return lines;
}

/** The removal row: the tile to click, then the advance stepper and its figures. */
function renderRemoval(state, picker, c, hooks) {
  $('remove-help').textContent = c.tile
    ? `Remove ${c.tile}: choose how far your counter advances`
    : 'Click one of your tiles to remove it';
  $('advance-stepper').hidden = !c.tile;
  if (!c.tile) { $('advance-info').replaceChildren(); return; }
  const range = $('adv-range');
  const top = c.advances[c.advances.length - 1];
  range.min = '0';
  range.max = String(top);
  range.value = String(c.advance);
  range.disabled = c.advances.length < 2;
  $('adv-value').textContent = `+${c.advance}`;
  $('adv-down').disabled = c.advance === c.advances[0];
  $('adv-up').disabled = c.advance === top;
  $('btn-remove').textContent = `Remove ${c.tile} +${c.advance}`;
  $('advance-info').replaceChildren(...advanceInfo(state, c, hooks.flipped()));
}

/**
 * Shows the panel and, on a person's turn, the control rows. `hooks`: `act(outcome)` carries
 * out a picker's decision, `render()` redraws the page, `flipped()` says how the board is seen,
 * `viewing()` gives the earlier position the move list shows (its panel then, and no controls).
 */
export function renderIsaac(state, picker, hooks) {
  const view = hooks.viewing();
  renderPanel(view ? { ...state, isaac: view.isaac } : state, hooks.flipped());
  const box = $('isaac-controls');
  const active = state.game === 'isaac' && state.human_to_move && !view;
  box.hidden = !active;
  if (!active) return;
  picker.followHint(state.hint, state.legal);
  const c = picker.controls(state.legal);
  $('pass-row').hidden = !c.pass;
  $('place-row').hidden = !c.placing;
  $('remove-row').hidden = !c.removing;
  if (c.placing) {
    buttons($('size-buttons'), [3, 4, 5, 6, 7], c.size, c.sizes,
      // A tile a tap showed stays at the cell tapped, in its new size.
      (v) => { picker.size = v; hooks.act(picker.prompt(state.legal)); }, String);
    const turn = $('btn-rotate');
    turn.dataset.orient = c.orient;
    turn.textContent = c.orient === 'h' ? '↔ along a row — turn (r)' : '↕ along a column — turn (r)';
    turn.disabled = c.orients.length < 2;
  }
  if (c.removing) renderRemoval(state, picker, c, hooks);
}

/** Wires the control rows' buttons (once, at start). */
export function initIsaac(getState, picker, hooks) {
  const change = (steps, k = null) => { picker().step(getState().legal, steps, k); hooks.render(); };
  $('btn-rotate').addEventListener('click', () => {
    if (picker().rotate(getState().legal)) hooks.act(picker().prompt(getState().legal));
  });
  $('adv-down').addEventListener('click', () => change(-1));
  $('adv-up').addEventListener('click', () => change(1));
  $('adv-range').addEventListener('input', (e) => change(0, Number(e.target.value)));
  $('btn-remove').addEventListener('click', () => hooks.act(picker().removal(getState().legal)));
}

/** The centre and size of cell `name` in the picture's units. */
function cellBox(svg, name) {
  const r = svg.querySelector(`.cell[data-cell="${CSS.escape(name)}"]`);
  if (!r) return null;
  const [x, y, w, h] = ['x', 'y', 'width', 'height'].map((a) => Number(r.getAttribute(a)));
  return { x: x + w / 2, y: y + h / 2, size: Math.min(w, h) };
}

/** A ring with `text` on cell `cell`, of class `cls`. */
function mark(svg, cell, cls, text) {
  const b = cellBox(svg, cell);
  if (!b) return null;
  const g = document.createElementNS(SVG_NS, 'g');
  g.setAttribute('class', cls);
  g.dataset.cell = cell;
  const ring = document.createElementNS(SVG_NS, 'circle');
  Object.entries({ cx: b.x, cy: b.y, r: b.size * 0.36 }).forEach(([k, v]) => ring.setAttribute(k, String(v)));
  g.append(ring);
  if (text) {
    const label = document.createElementNS(SVG_NS, 'text');
    Object.entries({ x: b.x, y: b.y }).forEach(([k, v]) => label.setAttribute(k, String(v)));
    label.textContent = text;
    g.append(label);
  }
  return g;
}

/**
 * Marks the chosen removal's outcome on the board: a ring with the mover's letter where the
 * counter would land, a red ring round the other counter, where it may not land.
 */
export function drawIsaacMarks(svg, state, picker) {
  svg?.querySelector('.isaac-marks')?.remove();
  if (!svg || state.game !== 'isaac' || !state.human_to_move || !picker.tile) return;
  const r = preview(state, picker.tile);
  if (!r || picker.advance === null) return;
  const layer = document.createElementNS(SVG_NS, 'g');
  layer.setAttribute('class', 'isaac-marks');
  const letter = state.p1turn ? 'D' : 'L';
  const lands = r.cells[picker.advance];
  if (lands !== null && lands !== undefined) layer.append(mark(svg, lands, `landing-mark ${state.p1turn ? 'd' : 'l'}`, letter) ?? '');
  if (r.collision) layer.append(mark(svg, r.collision.cell, 'collision-mark', '') ?? '');
  svg.querySelector('.cells')?.before(layer);
}

/** The last move `mv` fades in: the tile placed (nothing for a removal). */
export function animateTile(svg, mv) {
  if (mv.startsWith('x')) return;
  const code = /^([3-7][hv]\d\d)/.exec(mv)?.[1];
  const tile = code && svg.querySelector(`.tile[data-tile="${code}"]`);
  if (tile && tileCells(code).length) tile.classList.add('appear');
}
