// Moves by keyboard: the board is one stop of the Tab order (`tabindex="0"`), and while it has
// the focus a cursor cell is outlined. The arrow keys move the cursor to the nearest cell in
// that direction on the board as drawn (flipped, on its side or not), Enter or Space
// chooses the cell as a click does (a point to place on, a piece, then its target), Escape
// leaves the board. The page's own keys (the arrows step through the game) are left to the
// page while the board does not have the focus.

const $ = (id) => document.getElementById(id);

/** The cell under the cursor, by name, kept while the board is redrawn. */
let cursor = null;
let chooseCell = null;

/** Every cell of the drawn board, with its centre on the screen. */
function cells() {
  return [...$('board').querySelectorAll('.cell[data-cell]')].map((e) => {
    const b = e.getBoundingClientRect();
    return { name: e.dataset.cell, el: e, x: b.left + b.width / 2, y: b.top + b.height / 2 };
  });
}

/**
 * The cell the cursor goes to from `from` on key `key`: among the cells lying in that
 * direction (within 60° of it), the nearest, a cell straight ahead counting nearer than one
 * as far off to the side. `from` itself when there is none.
 */
export function step(all, from, key) {
  const [dx, dy] = { ArrowLeft: [-1, 0], ArrowRight: [1, 0], ArrowUp: [0, -1], ArrowDown: [0, 1] }[key];
  let best = from;
  let bestCost = Infinity;
  for (const c of all) {
    if (c === from) continue;
    const along = (c.x - from.x) * dx + (c.y - from.y) * dy;
    const aside = Math.abs((c.x - from.x) * dy - (c.y - from.y) * dx);
    if (along <= 1 || aside > along * Math.tan(Math.PI / 3)) continue;
    const cost = along + 2 * aside;
    if (cost < bestCost) { best = c; bestCost = cost; }
  }
  return best;
}

/** Outlines the cursor cell while the board has the focus (after every redraw too). */
export function markCursor() {
  const board = $('board');
  for (const e of board.querySelectorAll('.kbd-cursor')) e.classList.remove('kbd-cursor');
  if (document.activeElement !== board) return;
  const all = cells();
  let here = all.find((c) => c.name === cursor);
  if (!here) {
    // A cell to start from: a legal one where the page marks some, else the first.
    here = all.find((c) => c.el.classList.contains('legal')) ?? all[0];
    cursor = here?.name ?? null;
  }
  here?.el.classList.add('kbd-cursor');
  board.dataset.cursor = cursor ?? '';
}

function onKey(event) {
  if (event.ctrlKey || event.metaKey || event.altKey) return;
  if (event.key === 'Escape') { $('board').blur(); return; }
  const all = cells();
  const here = all.find((c) => c.name === cursor) ?? all[0];
  if (!here) return;
  if (event.key.startsWith('Arrow')) {
    cursor = step(all, here, event.key).name;
  } else if (event.key === 'Enter' || event.key === ' ') {
    chooseCell(here.name);
  } else {
    return;
  }
  // The page's arrows (stepping through the game) are not for a focused board.
  event.preventDefault();
  event.stopPropagation();
  markCursor();
}

/** Makes the board a keyboard stop; `choose(cell)` does what a click on the cell does. */
export function initBoardKeys(choose) {
  chooseCell = choose;
  const board = $('board');
  board.tabIndex = 0;
  board.setAttribute('aria-label', 'board: arrow keys move the cursor, Enter chooses the cell, Escape leaves');
  board.addEventListener('keydown', onKey);
  board.addEventListener('focus', markCursor);
  board.addEventListener('blur', markCursor);
}
