// What the page draws on the server's board picture: the marks of a person's choice (the
// selected piece, legal-move dots, Isaac's tile rings and placement preview), the hint and the
// engine's line as arrows (Isaac: ghost tiles), numbered and fading, and the short animation of
// the last move. The picture's layers (src/gui/svg/overlay.rs) keep all of it off the pieces'
// colours: spots lie under the pieces, dots, rings and arrows are outlines or drawn apart. How a
// move is drawn depends on its notation (notations.js), named as the state names it.

import { moveCells, notation } from './notations.js';

const SVG_NS = 'http://www.w3.org/2000/svg';
/** The classes the page gives cells; the picture's own layers show them. */
export const MARKS = ['legal', 'selected', 'pv', 'hint', 'preview'];
/** How long the move animation runs, in milliseconds (also in style.css). */
const ANIMATION_MS = 180;

/** Whether the person asked for less motion. */
export function reducedMotion() {
  return matchMedia('(prefers-reduced-motion: reduce)').matches;
}

/** The elements showing cell `name`: its click target and its spot. */
function elementsOf(board, name) {
  const n = CSS.escape(name);
  return board.querySelectorAll(`[data-cell="${n}"], [data-spot="${n}"]`);
}

/**
 * Gives the cells named in `marks` ({ class: [cell names] }) their class, after taking every
 * mark away: the click target and the spot under the pieces; an Isaac cell under a tile marks
 * the tile's ring. The legal-move dots go on the cells of `dots` only (the targets of a selected
 * piece, the points to place on), not on the pieces that may move.
 */
export function applyMarks(board, marks, dots) {
  for (const el of board.querySelectorAll('[data-cell], [data-spot], [data-dot], [data-ring]')) {
    el.classList.remove(...MARKS);
  }
  for (const [cls, names] of Object.entries(marks)) {
    for (const name of new Set(names)) {
      const cell = board.querySelector(`.cell[data-cell="${CSS.escape(name)}"]`);
      const tile = cell?.dataset.coveredBy;
      for (const el of elementsOf(board, name)) el.classList.add(cls);
      if (tile) board.querySelector(`[data-ring="${CSS.escape(tile)}"]`)?.classList.add(cls);
    }
  }
  for (const name of new Set(dots)) {
    board.querySelector(`[data-dot="${CSS.escape(name)}"]`)?.classList.add('legal');
  }
}

/** The centre and size of cell `name` in the picture's units. */
function cellBox(svg, name) {
  const el = svg.querySelector(`.cell[data-cell="${CSS.escape(name)}"]`);
  if (!el) return null;
  const b = el.getBBox();
  return { x: b.x + b.width / 2, y: b.y + b.height / 2, w: b.width, h: b.height, box: b };
}

function make(tag, attrs) {
  const el = document.createElementNS(SVG_NS, tag);
  for (const [k, v] of Object.entries(attrs)) el.setAttribute(k, String(v));
  return el;
}

/** A number at (x, y) saying which move of the line an arrow or ghost is. */
function label(x, y, n) {
  const t = make('text', { class: 'arrow-label', x, y });
  t.textContent = String(n);
  return t;
}

/** An arrow from cell `from` to cell `to`, ending short of the target's centre. */
function arrow(svg, from, to, kind) {
  const a = cellBox(svg, from);
  const b = cellBox(svg, to);
  if (!a || !b) return null;
  const size = Math.min(a.w, a.h);
  const len = Math.hypot(b.x - a.x, b.y - a.y) || 1;
  const back = size * 0.3;
  const end = { x: b.x - ((b.x - a.x) / len) * back, y: b.y - ((b.y - a.y) / len) * back };
  const line = make('line', {
    class: `arrow ${kind}`, x1: a.x, y1: a.y, x2: end.x, y2: end.y,
    'stroke-width': size * 0.16, 'marker-end': `url(#ludus-arrow-${kind})`,
    'data-from': from, 'data-to': to,
  });
  return { el: line, at: { x: (a.x + b.x) / 2, y: (a.y + b.y) / 2 } };
}

/**
 * A translucent tile (a placement, over empty cells) or a dashed outline only (a removal: the
 * tile under it keeps its colour; the picture's style, class `removal`) over Isaac cells.
 */
function ghost(svg, cells, kind, removal) {
  const boxes = cells.map((c) => cellBox(svg, c)).filter(Boolean);
  if (!boxes.length) return null;
  const x0 = Math.min(...boxes.map((b) => b.box.x));
  const y0 = Math.min(...boxes.map((b) => b.box.y));
  const x1 = Math.max(...boxes.map((b) => b.box.x + b.box.width));
  const y1 = Math.max(...boxes.map((b) => b.box.y + b.box.height));
  const rect = make('rect', {
    class: `ghost ${kind}${removal ? ' removal' : ''}`,
    x: x0 + 3, y: y0 + 3, width: x1 - x0 - 6, height: y1 - y0 - 6, rx: 6,
    'data-tile': cells.join(' '),
  });
  return { el: rect, at: { x: (x0 + x1) / 2, y: (y0 + y1) / 2 } };
}

/** A ring round the point a Sight placement would take. */
function ring(svg, cell, kind) {
  const b = cellBox(svg, cell);
  if (!b) return null;
  const el = make('circle', { class: `ghost ${kind}`, cx: b.x, cy: b.y, r: Math.min(b.w, b.h) * 0.36 });
  return { el, at: { x: b.x, y: b.y } };
}

/** The shape showing move `mv` of the notation called `name`. */
function shapeOf(svg, name, mv, kind) {
  const cells = moveCells(name, mv);
  if (!cells.length) return null;
  const ghosted = notation(name).ghost;
  if (ghosted) return ghost(svg, cells, kind, ghosted(mv));
  if (cells.length >= 2) return arrow(svg, cells[0], cells[1], kind);
  return ring(svg, cells[0], kind);
}

/**
 * Draws `items` ([{ mv, kind: 'hint' | 'pv', n }]), moves of the notation called `name`, into
 * the picture's arrow layer: the hint fully, the engine's line numbered and fading move by move.
 */
export function drawArrows(svg, name, items) {
  const layer = svg?.querySelector('.arrows');
  if (!layer) return;
  layer.replaceChildren();
  for (const item of items) {
    const shape = shapeOf(svg, name, item.mv, item.kind);
    if (!shape) continue;
    const group = make('g', { class: `line-move ${item.kind}`, 'data-move': item.mv });
    if (item.kind === 'pv') group.setAttribute('opacity', String(Math.max(0.3, 0.9 - 0.25 * (item.n - 1))));
    group.append(shape.el);
    if (item.n) group.append(label(shape.at.x, shape.at.y, item.n));
    layer.append(group);
  }
}

/**
 * Animates the last move `mv`, of the notation called `name`, in the freshly drawn picture: the
 * piece slides from its origin (Sight steps, Tactigon), or the new piece fades in, or the
 * notation animates it its own way (Isaac's tile fades in). Nothing when the person asked for
 * less motion.
 */
export function animateMove(svg, name, mv) {
  if (!svg || !mv || reducedMotion()) return;
  const cells = moveCells(name, mv);
  if (!cells.length) return;
  const own = notation(name).animate;
  if (own) {
    own(svg, mv);
    return;
  }
  const to = cells[cells.length - 1];
  const piece = svg.querySelector(`.piece[data-at="${CSS.escape(to)}"]`);
  if (!piece) return;
  if (cells.length < 2) {
    piece.classList.add('appear');
    return;
  }
  const a = cellBox(svg, cells[0]);
  const b = cellBox(svg, to);
  if (!a || !b) return;
  piece.style.transition = 'none';
  piece.style.transform = `translate(${a.x - b.x}px, ${a.y - b.y}px)`;
  piece.getBoundingClientRect();
  requestAnimationFrame(() => {
    piece.style.transition = `transform ${ANIMATION_MS}ms ease-out`;
    piece.style.transform = '';
  });
}
