// The ludus web page: draws the server's state, turns clicks into legal moves, streams the
// engine's analysis. Everything about the game comes from the server, which asks the engine.
// Each tab has a session of its own on the server (session.js). The board picture comes from
// the server, drawn from both sides; the page marks a person's choices and the engine's ideas
// on it (board.js) and keeps the person's preferences (prefs.js). The move list steps
// through the game (navigate.js); scores are shown from player one's side (evaluation.js);
// the analysis mode and the game review have modules of their own (analysis.js, review.js).

import {
  drawControlMarks, initControls, moveCells, notation, renderControls,
} from './notations.js';
import { openNewGame, initNewGame } from './dialog.js';
import {
  adoptAnalysis, clearAnalysis, initAnalysisMode, pvMoves, showEvaluation, showInfo, syncAnalysis,
  syncPanel,
} from './analysis.js';
import {
  goTo, initNavigation, renderMoves, shownPly, syncNavigation, viewing,
} from './navigate.js';
import {
  initReview, renderReview, reviewEvent, reviewMarks, reviewScore, syncReview,
} from './review.js';
import { animateMove, applyMarks, drawArrows } from './board.js';
import { initBoardKeys, markCursor } from './board-keys.js';
import {
  initSound, initTheme, playSound, storeFlip, storedFlip,
} from './prefs.js';
import {
  listen, leaveOnClose, openSession, reopenSession, request, requestText,
} from './session.js';

const $ = (id) => document.getElementById(id);
/** How many moves of the engine's line are drawn as arrows. */
const PV_SHOWN = 3;
const SVG_NS = 'http://www.w3.org/2000/svg';
/** How long a page that could not get a game waits before it asks again, in milliseconds. */
const RETRY_MS = 5000;
/** How long the resign button waits for its second click, in milliseconds. */
const RESIGN_CONFIRM_MS = 4000;

let state = null;
let picker = null;
let drawnSvg = null;
let showPv = false;
let flipped = storedFlip();
let resignArmed = null;
/** How the last press on the board was made: `mouse`, `touch` or `pen`. */
let pointer = 'mouse';

/** POSTs a JSON action; the answer is the new state, or an error shown to the person. */
async function post(path, body = {}) {
  try {
    const data = await request(path, body);
    apply(data);
    return data;
  } catch (e) {
    if (e.status === 404 && path !== '/api/session') await reopen();
    else say(e.message, 'error');
    return null;
  }
}

/** Asks for this session's state (an event may have been missed, or the session ended). */
async function check() {
  try {
    apply(await request('/api/state'));
  } catch (e) {
    if (e.status === 404) await reopen();
  }
}

let reopening = null;

/** The server forgot this tab's session: the same game again, in a new session. */
function reopen() {
  reopening ??= (async () => {
    try {
      apply(await reopenSession(state), true);
      say('This game had ended on the server (unused for a while, or the server restarted): '
        + 'it goes on in a new session', 'warn');
    } catch (e) {
      say(e.message, 'error');
    } finally {
      reopening = null;
    }
  })();
  return reopening;
}

/**
 * Tells the person something beside the board. `about: 'view'` marks a message about the
 * earlier position shown: it goes when the board shows the current position again.
 */
function say(text, kind = 'info', about = '') {
  const m = $('message');
  m.textContent = text || '';
  m.className = text ? kind : '';
  m.dataset.about = text ? about : '';
}

/** Takes a state from an answer or an event, unless a newer one is already shown. */
function apply(next, force = false) {
  if (state && next.seq < state.seq && next.session === state.session && !force) return;
  const moved = !state || next.game !== state.game || next.position !== state.position;
  if (!state || next.game !== state.game || next.notation !== state.notation) {
    picker = new (notation(next.notation).Picker)();
    picker.flipped = flipped;
  }
  if (moved) picker.reset();
  if (!state || next.game !== state.game || next.start !== state.start
    || next.moves.length < state.moves.length) clearAnalysis();
  const before = state;
  state = next;
  syncNavigation(next);
  syncReview(next);
  render();
  sounds(before, next);
}

/** The sounds of what changed: a move (or capture), a new warning, the end of the game. */
function sounds(before, next) {
  if (!before || before.session !== next.session || before.game !== next.game) return;
  if (next.gameover && !before.gameover) playSound('end');
  else if (next.moves.length === before.moves.length + 1) {
    const shown = next.moves_shown?.[next.moves_shown.length - 1] ?? '';
    playSound(shown.includes('×') ? 'capture' : 'move');
    if (next.alert && next.alert !== before.alert) setTimeout(() => playSound('alert'), 250);
  }
}

function sideName(p1) { return state.sides[p1 ? 0 : 1]; }

function render() {
  const s = state;
  document.body.dataset.game = s.game;
  document.body.dataset.ply = String(s.moves.length);
  document.body.dataset.seq = String(s.seq);
  document.body.dataset.thinking = String(s.thinking);
  document.body.dataset.evaluating = String(Boolean(s.evaluating));
  const level = s.level ? ` (${s.level.replace(/^elo /, 'rating ')})` : '';
  const who = ['human', 'human'].map((_, i) => (s.humans[i] ? 'human' : `${s.engine}${level}`));
  $('title').textContent = `${s.game[0].toUpperCase()}${s.game.slice(1)} — ${s.sides[0]}: ${who[0]} · ${s.sides[1]}: ${who[1]}`;
  if (!viewing() && $('message').dataset.about === 'view') say('');
  // What stands above and below the board first: the board fills the room they leave.
  renderStatus();
  renderBanner();
  renderTrays();
  $('alert').textContent = s.alert || '';
  $('alert').hidden = !s.alert;
  renderBoard();
  renderControls(s, picker, { act, render, flipped: () => flipped, viewing });
  renderMarks();
  renderMoves(s, reviewMarks());
  renderAnalysis();
  $('btn-resign').hidden = !s.can_resign;
  $('fen').textContent = viewing()?.fen ?? s.fen;
  const engines = !s.humans[0] || !s.humans[1];
  $('btn-pause').hidden = !engines || (s.mode !== 'ee' && !s.paused);
  $('btn-pause').textContent = s.paused ? 'Resume' : 'Pause';
  // A resignation is taken back like a move, also before the first move.
  $('btn-undo').disabled = s.moves.length === 0 && !s.resigned;
  $('btn-redo').disabled = s.redo === 0;
  $('btn-hint').disabled = !s.human_to_move || s.hinting;
  $('error').textContent = s.error || '';
  $('error').hidden = !s.error;
}

/** The width and height of a drawing, from its viewBox. */
function drawingSize(svg) {
  const m = /viewBox="0 0 ([\d.]+) ([\d.]+)"/.exec(svg ?? '');
  return m ? [Number(m[1]), Number(m[2])] : null;
}

/**
 * Whether the board is drawn on its side (`shown` has such a drawing: Tactigon's): where the
 * board's box is the window's height (a desktop's layout) and the drawing on its side is the
 * bigger of the two in it. On a narrow screen the board takes the width and the page scrolls,
 * so the upright board is always the bigger there.
 */
function lying(shown) {
  const upright = drawingSize(shown.svg);
  const wide = drawingSize(shown.svg_wide);
  if (!upright || !wide) return false;
  const box = $('board');
  const style = getComputedStyle(box);
  const width = box.clientWidth - parseFloat(style.paddingLeft) - parseFloat(style.paddingRight);
  const height = matchMedia('(min-width: 901px)').matches
    ? box.clientHeight - parseFloat(style.paddingTop) - parseFloat(style.paddingBottom)
    : Infinity;
  const scale = ([w, h]) => Math.min(width / w, height / h);
  return scale(wide) > scale(upright);
}

/**
 * The picture from the side the board is turned to (of the earlier position viewed, if
 * any), on its side where that fills the window better; a move just made, or stepped to,
 * slides into place.
 */
function renderBoard() {
  const s = state;
  const view = viewing();
  const shown = view ?? s;
  const side = lying(shown);
  const svg = (side ? (flipped ? shown.svg_wide_flipped : shown.svg_wide)
    : (flipped ? shown.svg_flipped : shown.svg)) ?? s.svg;
  const ply = shownPly();
  document.body.dataset.flipped = String(flipped);
  document.body.dataset.landscape = String(side);
  if (svg === drawnSvg) return;
  const drawn = $('board').dataset;
  const oneMore = drawn.session === s.session && drawn.game === s.game
    && drawn.flipped === String(flipped) && drawn.landscape === String(side) && Number(drawn.ply) + 1 === ply;
  $('board').innerHTML = svg;
  drawnSvg = svg;
  Object.assign(drawn, {
    session: s.session, game: s.game, flipped: String(flipped), landscape: String(side), ply: String(ply),
  });
  if (oneMore) animateMove($('board').querySelector('svg'), s.notation, s.moves[ply - 1]);
}

/** The evaluation bar, the analysis mode and the review, for the position on the board. */
function renderAnalysis() {
  const s = state;
  const ply = shownPly();
  syncPanel(ply);
  showEvaluation(s, ply, reviewScore(ply));
  renderReview(s, ply, s.sides, (p) => goTo(p));
  syncAnalysis(s, ply, (next) => apply(next));
}

/** Turns the board to the other side (the button, or the key `f`). */
function flip() {
  flipped = !flipped;
  storeFlip(flipped);
  picker.flipped = flipped;
  if (state) render();
}

function renderStatus() {
  const s = state;
  let text;
  if (s.gameover) text = 'Game over';
  else {
    const humanTurn = s.humans[s.p1turn ? 0 : 1];
    text = `${sideName(s.p1turn)} to move`;
    if (humanTurn) text += s.humans[0] && s.humans[1] ? '' : ' (you)';
    else if (s.thinking) text += ` — ${s.engine} is thinking…`;
    else if (s.paused) text += ' — paused';
  }
  if (s.hinting) text += ' — looking for a hint…';
  if (s.hint) text += ` — hint: ${s.hint}`;
  // Also where the note under the move list is out of sight (a phone's). The side to move
  // there comes first, as the board's caption says it; the game's own turn after it.
  const view = viewing();
  if (view) {
    const where = view.ply ? `move ${view.ply} of ${s.moves.length}` : 'the start';
    const there = `${sideName(view.p1turn)} to move there`;
    text = `Viewing ${where}: ${there} — in the game: ${text}`;
  }
  $('status').textContent = text;
}

function renderBanner() {
  const s = state;
  const banner = $('banner');
  banner.hidden = !s.gameover;
  if (!s.gameover) return;
  let verdict = '';
  const human = s.humans[0] !== s.humans[1] ? (s.humans[0] ? 'p1win' : 'p2win') : null;
  if (human && s.result !== 'draw') verdict = s.result === human ? ' — you win!' : ' — you lose.';
  banner.textContent = `${s.reason || s.result}${verdict}`;
  banner.className = s.result === 'draw' ? 'draw' : 'win';
}

/** The person's choices on the board, the hint and the engine's line (arrows, ghosts). */
function renderMarks() {
  const s = state;
  const board = $('board');
  const live = !viewing();
  const ply = shownPly();
  const pv = showPv ? pvMoves(ply, s.moves[ply - 1]).slice(0, PV_SHOWN) : [];
  const hint = live ? s.hint : null;
  const marks = { legal: [], selected: [], pv: pv.flatMap((mv) => moveCells(s.notation, mv)), hint: [], preview: [] };
  if (hint) marks.hint = moveCells(s.notation, hint);
  let dots = [];
  if (s.human_to_move && live) {
    const m = picker.marks(s.legal);
    marks.legal = m.legal;
    marks.selected = m.selected;
    marks.preview = m.preview ?? [];
    dots = m.dots;
  }
  applyMarks(board, marks, dots);
  const items = pv.map((mv, i) => ({ mv, kind: 'pv', n: i + 1 }));
  if (hint) items.push({ mv: hint, kind: 'hint' });
  drawArrows(board.querySelector('svg'), s.notation, items);
  if (live) drawControlMarks(board.querySelector('svg'), s, picker);
  markCursor();
}

/** A small picture of a Tactigon piece of `side` (`p1`, `p2`) for the trays. */
function pieceIcon(kind, side) {
  const svg = document.createElementNS(SVG_NS, 'svg');
  svg.setAttribute('viewBox', '0 0 20 20');
  svg.setAttribute('class', `icon ${side}`);
  svg.dataset.piece = kind;
  const points = { triangle: '10,2 18.5,17 1.5,17', square: '3,3 17,3 17,17 3,17', pentagon: '10,1.5 18.5,7.7 15.3,17.8 4.7,17.8 1.5,7.7' }[kind];
  const shape = document.createElementNS(SVG_NS, points ? 'polygon' : 'circle');
  if (points) shape.setAttribute('points', points);
  else { shape.setAttribute('cx', '10'); shape.setAttribute('cy', '10'); shape.setAttribute('r', '8'); }
  svg.append(shape);
  return svg;
}

/** What each side has taken (the state's `lost`: Tactigon), the near side's tray below the board. */
function renderTrays() {
  const s = state;
  const lost = (viewing() ?? s).lost ?? null;
  for (const id of ['tray-top', 'tray-bottom']) $(id).hidden = !lost;
  if (!lost) return;
  const near = flipped ? 1 : 0;
  for (const [id, side] of [['tray-bottom', near], ['tray-top', 1 - near]]) {
    const tray = $(id);
    const taken = lost[1 - side];
    const label = document.createElement('span');
    label.className = 'label';
    label.textContent = `${s.sides[side]} took${taken.length ? '' : ' nothing yet'}`;
    const icons = taken.map((kind) => pieceIcon(kind, side === 0 ? 'p2' : 'p1'));
    tray.replaceChildren(label, ...icons);
    tray.dataset.side = side === 0 ? 'p1' : 'p2';
    tray.dataset.count = String(taken.length);
  }
}

/** The cells nearest to `cell` on the board drawn (its neighbours), at most `most`. */
function nearestCells(cell, most) {
  const centre = (e) => { const b = e.getBBox(); return [b.x + b.width / 2, b.y + b.height / 2]; };
  const cells = [...$('board').querySelectorAll('.cell[data-cell]')];
  const here = cells.find((e) => e.dataset.cell === cell);
  if (!here) return [];
  const [x, y] = centre(here);
  const near = cells.filter((e) => e !== here).map((e) => {
    const [cx, cy] = centre(e);
    return { name: e.dataset.cell, d: Math.hypot(cx - x, cy - y) };
  }).sort((a, b) => a.d - b.d);
  const first = near[0]?.d ?? 0;
  return near.filter((n) => n.d <= first * 1.05).slice(0, most).map((n) => n.name);
}

/** Most reasons told for a piece that cannot move, and most moves asked about. */
const REASONS = 3;
const ASKED = 8;

/**
 * A click that made no move: the rules say why, as the terminal does. A piece chosen and a
 * cell it cannot go to: that move's rule. A piece of the side to move that has no move: the
 * rules broken by its steps to its neighbours. An empty cell or the opponent's piece: nothing
 * (the legal cells are marked), as on lichess.
 */
async function explain({ from, cell }) {
  const mover = state.p1turn ? 'p1' : 'p2';
  const own = $('board').querySelector(`.piece.${mover}[data-at="${cell}"]`);
  let asked = [];
  if (from) asked = [`${from}-${cell}`];
  else if (own) asked = nearestCells(cell, ASKED).map((to) => `${cell}-${to}`);
  if (!asked.length) { say(''); render(); return; }
  const seq = state.seq;
  let answer;
  try {
    answer = await request(`/api/why?moves=${asked.join(',')}`);
  } catch (e) {
    say(e.message, 'error');
    return;
  }
  // The position changed meanwhile: the answer is of another one.
  if (state.seq !== seq) return;
  const reasons = [...new Set(answer.moves.filter((m) => !m.legal)
    .map((m) => (m.why.startsWith(`${m.move}: `) ? m.why.slice(m.move.length + 2) : m.why)))];
  if (!reasons.length) { say(''); render(); return; }
  say(from ? `${from}-${cell}: ${reasons[0]}` : `${cell} cannot move: ${reasons.slice(0, REASONS).join('; ')}`, 'warn');
  render();
}

/** Carries out what a picker decided: play a legal move, say why not, or nothing. */
async function act(outcome) {
  if (outcome.message) { say(outcome.message, 'warn'); render(); return; }
  if (outcome.refused) { render(); await explain(outcome.refused); return; }
  say('');
  if (outcome.play) await post('/api/move', { move: outcome.play, ply: state.moves.length });
  else render();
}

function onBoardClick(event) {
  const target = event.target.closest('[data-cell]');
  if (!target) return;
  chooseCell(target.dataset.cell, (event.pointerType || pointer) !== 'mouse');
}

/** A cell chosen, by a click or a tap (`touch`) or by the keyboard (board-keys.js). */
function chooseCell(cell, touch = false) {
  if (!state) return;
  if (viewing()) {
    say('This is an earlier position: moves are made on the current one (End, or "Back to the game")', 'warn', 'view');
    return;
  }
  if (state.gameover) { say('The game is over: start a new one', 'warn'); return; }
  if (!state.human_to_move) { say(`Wait: it is ${state.engine}'s turn`, 'warn'); return; }
  act(picker.click(cell, state.legal, touch));
}

/** The mouse over a cell: Isaac shows the tile a click there would place. */
function onBoardHover(event) {
  if (!state || !picker.hover || !state.human_to_move || viewing() || event.pointerType !== 'mouse') return;
  const target = event.target.closest?.('[data-cell]');
  if (picker.hover(target ? target.dataset.cell : null, state.legal)) renderMarks();
}

/** Resigns after a second click within a few seconds (the first one asks). */
function onResign() {
  const button = $('btn-resign');
  if (resignArmed) {
    clearTimeout(resignArmed);
    resignArmed = null;
    button.textContent = 'Resign';
    post('/api/resign');
    return;
  }
  button.textContent = 'Really resign?';
  resignArmed = setTimeout(() => { resignArmed = null; button.textContent = 'Resign'; }, RESIGN_CONFIRM_MS);
}

/** Isaac: turns the tile to place (the key `r`); what a tap showed is said again. */
function rotate() {
  if (state?.human_to_move && picker.rotate?.(state.legal)) act(picker.prompt(state.legal));
}

/** Keys: `f` turns the board, `r` Isaac's tile (not while typing or with a dialog open). */
function onKey(event) {
  const action = { f: flip, r: rotate }[event.key];
  if (!action || event.ctrlKey || event.metaKey || event.altKey) return;
  if (event.target.closest?.('input, textarea, select, [contenteditable]')) return;
  if ($('new-dialog').open) return;
  event.preventDefault();
  action();
}

async function copyPosition() {
  const text = state.position;
  $('load-text').value = text;
  try {
    await navigator.clipboard.writeText(text);
    say(`Copied: ${text}`);
  } catch {
    $('load-text').select();
    say('Copy the selected text (Ctrl+C)');
  }
}

async function exportGame() {
  let text;
  try {
    text = await requestText('/api/export');
  } catch (e) {
    say(e.message, 'error');
    return;
  }
  $('export-text').value = text;
  const link = $('export-link');
  if (link.href.startsWith('blob:')) URL.revokeObjectURL(link.href);
  link.href = URL.createObjectURL(new Blob([text], { type: 'text/plain' }));
  $('export-box').hidden = false;
}

/** Events of this tab's session; its state is asked for now and then (a tab is shown). */
function connect(setup) {
  const every = Math.min(60_000, Math.max(1000, (setup.idle_timeout * 1000) / 4));
  document.body.dataset.events = listen({
    state: (next) => apply(next),
    info: (info) => {
      if (!state) return;
      if (showInfo(info, state, shownPly()) && showPv) renderMarks();
      if (info.score) showEvaluation(state, shownPly(), reviewScore(shownPly()));
    },
    review: (data) => { reviewEvent(data); if (state) render(); },
    check,
  }, every);
  addEventListener('pageshow', (e) => { if (e.persisted) check(); });
  leaveOnClose();
}

/** Says why the page cannot show a game (the server is full, or unreachable). */
function cannotStart(message) {
  say(message, 'error');
  $('status').textContent = 'No game: see the message';
  document.body.dataset.failed = 'true';
}

/**
 * The server's setup and this tab's session. A full server (503) or none reachable is asked
 * again every RETRY_MS until it has a place; any other refusal is final (null).
 */
async function openWhenPossible() {
  for (let tries = 1; ; tries++) {
    try {
      const setup = await request('/api/setup');
      const opened = await openSession();
      if (tries > 1) {
        delete document.body.dataset.failed;
        say('');
      }
      return { setup, opened };
    } catch (e) {
      const again = e.status === 503 || e.status === 0;
      // The server's 503 says that the page tries again; a failed connection does not.
      cannotStart(e.status === 0 ? `${e.message} (this page tries again by itself)` : e.message);
      if (!again) return null;
      document.body.dataset.retries = String(tries);
      await new Promise((resolve) => { setTimeout(resolve, RETRY_MS); });
    }
  }
}

async function main() {
  initTheme($('btn-theme'));
  initSound($('btn-sound'));
  const started = await openWhenPossible();
  if (!started) return;
  const { setup, opened } = started;
  adoptAnalysis(opened.state, $('analyse-mode'));
  apply(opened.state);
  if (opened.note) say(opened.note, 'warn');
  initNewGame(setup, async (body) => (await post('/api/new', body)) !== null);
  $('btn-new').addEventListener('click', () => openNewGame(state));
  $('board').addEventListener('click', onBoardClick);
  initBoardKeys((cell) => chooseCell(cell));
  $('board').addEventListener('pointerdown', (e) => { pointer = e.pointerType; });
  $('board').addEventListener('pointerover', onBoardHover);
  $('board').addEventListener('pointerleave', (e) => {
    if (state && e.pointerType === 'mouse' && picker.hover?.(null, state.legal)) renderMarks();
  });
  initControls(() => state, () => picker, { act, render });
  $('btn-undo').addEventListener('click', () => post('/api/undo'));
  $('btn-redo').addEventListener('click', () => post('/api/redo'));
  $('btn-hint').addEventListener('click', () => post('/api/hint'));
  $('btn-pass').addEventListener('click', () => act({ play: 'pass' }));
  $('btn-pause').addEventListener('click', () => post('/api/pause', { paused: !state.paused }));
  $('btn-resign').addEventListener('click', onResign);
  $('btn-flip').addEventListener('click', flip);
  addEventListener('keydown', onKey);
  // A board that may lie on its side is turned as the window's shape changes.
  addEventListener('resize', () => {
    if (state && lying(viewing() ?? state) !== (document.body.dataset.landscape === 'true')) render();
  });
  $('show-pv').addEventListener('change', (e) => { showPv = e.target.checked; renderMarks(); });
  initNavigation({ render: () => { if (state) render(); }, say });
  initAnalysisMode($('analyse-mode'), () => { if (state) render(); });
  initReview((next) => apply(next), say);
  $('btn-copy').addEventListener('click', copyPosition);
  $('btn-export').addEventListener('click', exportGame);
  $('btn-load').addEventListener('click', async () => {
    if (await post('/api/load', { text: $('load-text').value })) say('Position loaded');
  });
  connect(setup);
  document.body.dataset.ready = 'true';
}

main().catch((e) => cannotStart(`cannot start: ${e.message}`));
