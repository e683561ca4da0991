// The move list and stepping through the game: numbered moves, each a button that shows the
// position after it; the keys ← → Home End (not while typing or with a dialog open) and the
// buttons under the list step through the game. An earlier position comes from the server
// (GET /api/view?ply=N: its drawings from both sides, its FEN) and is kept while the game's
// moves up to it stay the same. While one is shown the page says so and offers the way back;
// moves are made only on the current position.

import { describeChances, describeFor, p1View } from './evaluation.js';
import { request } from './session.js';

const $ = (id) => document.getElementById(id);
/** Most earlier positions kept. */
const KEPT = 200;

/** The position shown when it is not the current one: the server's view, else null. */
let view = null;
/** The ply asked for (null: the current position), and the views fetched, by key. */
let wanted = null;
const views = new Map();
let hooks = null;
let state = null;

/** The position after `ply` moves of the game as a key. */
function keyOf(s, ply) {
  return `${s.session}|${s.game}|${s.start}|${s.moves.slice(0, ply).join(' ')}`;
}

/** The earlier position shown, or null when the board shows the current one. */
export function viewing() { return view; }

/** The number of moves played in the position on the board. */
export function shownPly() { return view ? view.ply : (state?.moves.length ?? 0); }

/** Shows the position after `ply` moves (null or the last ply: the current position). */
export async function goTo(ply) {
  if (!state) return;
  const count = state.moves.length;
  if (ply === null || ply >= count) {
    wanted = null;
    view = null;
    hooks.render();
    return;
  }
  const target = Math.max(0, ply);
  wanted = target;
  const key = keyOf(state, target);
  let found = views.get(key);
  if (!found) {
    try {
      found = await request(`/api/view?ply=${target}`);
    } catch (e) {
      hooks.say(e.message, 'error');
      return;
    }
    if (views.size >= KEPT) views.clear();
    views.set(key, found);
  }
  // A later step (or a change of the game) has overtaken this one.
  if (wanted !== target || keyOf(state, target) !== key) return;
  view = found;
  hooks.render();
}

/** A new state: an earlier position that is no longer part of the game is left. */
export function syncNavigation(next) {
  state = next;
  if (view && (view.ply >= next.moves.length || !views.has(keyOf(next, view.ply)))) {
    view = null;
    wanted = null;
  }
}

/**
 * The move list's rows, from who made each move (`movers`: `p1` or `p2` per move, as the
 * server says): a numbered row per player one's turn and player two's after it. A turn a
 * player did not have (the other moved twice in a row, after a pass or once out; or the game
 * began with player two) is a gap. Each row is `{ num, p1, p2 }`, each side a move's index,
 * `'gap'`, or null while it is still to come. A move played later never changes a number.
 */
export function moveRows(movers) {
  const rows = [];
  movers.forEach((who, i) => {
    const row = rows[rows.length - 1];
    if (who === 'p2' && row && row.p2 === null) {
      row.p2 = i;
      return;
    }
    if (who === 'p2') {
      rows.push({ num: rows.length + 1, p1: 'gap', p2: i });
      return;
    }
    if (row && row.p2 === null) row.p2 = 'gap';
    rows.push({ num: rows.length + 1, p1: i, p2: null });
  });
  return rows;
}

/** How the list numbers move `i` (0-based): `7.` for player one's, `7...` for player two's. */
export function moveNumber(movers, i) {
  const row = moveRows(movers.slice(0, i + 1)).pop();
  return `${row.num}.${row.p2 === i ? '..' : ''}`;
}

/**
 * A review's score of a move (`+35`, `-M4`: from the mover's side, as `ludus analyse` writes
 * it; `cp 35`, `mate -4` too) in the game's words, for the mover (`p1`: player one), with
 * player one's chances when the review has them (`wdl`, from the mover's side), or '' if
 * unknown.
 */
function reviewWords(s, text, p1, wdl) {
  const m = /^(?:(cp|mate) (-?\d+)|([+-])(M?)(\d+))$/.exec(text ?? '');
  if (!m) return text ?? '';
  const score = m[1] ? { [m[1]]: Number(m[2]) }
    : { [m[4] ? 'mate' : 'cp']: (m[3] === '-' ? -1 : 1) * Number(m[5]) };
  const view = p1View(score, p1, wdl);
  const chances = describeChances(view, s.sides);
  return `${describeFor(view, s.sides, p1, s.score_words)}${chances ? `; ${chances}` : ''}`;
}

function moveButton(s, i, marks) {
  const b = document.createElement('button');
  b.type = 'button';
  b.className = 'mv';
  b.dataset.ply = String(i + 1);
  b.textContent = s.moves_shown?.[i] || s.moves[i];
  const mark = marks?.[i]?.mark;
  if (mark) {
    b.dataset.mark = mark;
    const best = reviewWords(s, marks[i].best_score, s.movers[i] === 'p1', marks[i].best_wdl);
    b.title = `${marks[i].verdict}: best ${marks[i].best}${best ? ` (${best})` : ''}`;
  }
  return b;
}

/** The numbered move list, the move on the board highlighted, review marks (`marks`). */
export function renderMoves(s, marks) {
  const list = $('moves');
  const items = moveRows(s.movers).map((row) => {
    const li = document.createElement('li');
    const num = document.createElement('span');
    num.className = 'num';
    num.textContent = `${row.num}.`;
    li.append(num);
    for (const j of [row.p1, row.p2]) {
      if (j === 'gap') {
        const gap = document.createElement('span');
        gap.className = 'mv gap';
        gap.textContent = '…';
        li.append(gap);
      } else if (j !== null) li.append(moveButton(s, j, marks));
    }
    return li;
  });
  list.replaceChildren(...items);
  list.dataset.count = String(s.moves.length);
  const ply = shownPly();
  const current = list.querySelector(`.mv[data-ply="${ply}"]`);
  current?.classList.add('current');
  if (!view) list.scrollTop = list.scrollHeight;
  else if (current) {
    const top = current.offsetTop - list.offsetTop;
    if (top < list.scrollTop || top > list.scrollTop + list.clientHeight - current.offsetHeight) {
      list.scrollTop = top - list.clientHeight / 2;
    }
  }
  renderViewing(s);
}

/** The note under the move list while an earlier position is shown, with the way back. */
function renderViewing(s) {
  const box = $('viewing');
  box.hidden = !view;
  document.body.dataset.view = view ? String(view.ply) : 'live';
  if (!view) return;
  const n = view.ply;
  const what = n === 0 ? 'the start position'
    : `the position after ${moveNumber(s.movers, n - 1)} ${view.shown ?? view.move}`;
  $('viewing-text').textContent = `Viewing ${what} (move ${n} of ${s.moves.length}) — the game goes on from its last move`;
}

/** Fields whose keys are their own: text, numbers, lists (not checkboxes or buttons). */
const FIELDS = 'textarea, select, [contenteditable], input:not([type="checkbox"]):not([type="radio"]):not([type="button"]):not([type="submit"])';

/** Whether a key press is for the page (not typed into a field, no dialog open). */
function forPage(event) {
  if (event.ctrlKey || event.metaKey || event.altKey || event.shiftKey) return false;
  if (event.target.closest?.(FIELDS)) return false;
  return !document.querySelector('dialog[open]');
}

function onKey(event) {
  if (!state || !forPage(event)) return;
  const ply = shownPly();
  const to = {
    ArrowLeft: () => Math.max(0, ply - 1),
    ArrowRight: () => ply + 1,
    Home: () => 0,
    End: () => null,
  }[event.key];
  if (!to) return;
  event.preventDefault();
  goTo(to());
}

/**
 * Sets up the list's clicks, the keys and the step buttons. `h.render()` redraws the page,
 * `h.say(text, kind)` tells the person something.
 */
export function initNavigation(h) {
  hooks = h;
  $('moves').addEventListener('click', (event) => {
    const b = event.target.closest('.mv[data-ply]');
    if (b) goTo(Number(b.dataset.ply));
  });
  addEventListener('keydown', onKey);
  $('nav-start').addEventListener('click', () => goTo(0));
  $('nav-back').addEventListener('click', () => goTo(Math.max(0, shownPly() - 1)));
  $('nav-forward').addEventListener('click', () => goTo(shownPly() + 1));
  $('nav-end').addEventListener('click', () => goTo(null));
  $('btn-live').addEventListener('click', () => goTo(null));
}
