// The ludus web page: draws the server's state, turns clicks into legal moves, streams the
// engine's analysis. Everything about the game comes from the server, which asks the engine.
// Each tab has a session of its own on the server (session.js).

import { IsaacPicker, SquarePicker, moveCells } from './moves.js';
import { openNewGame, initNewGame } from './dialog.js';
import { clearAnalysis, showInfo, pvMoves } from './analysis.js';
import {
  listen, leaveOnClose, openSession, reopenSession, request, requestText,
} from './session.js';

const $ = (id) => document.getElementById(id);
const MARKS = ['legal', 'selected', 'lastmove', 'pv', 'hint', 'preview'];
const PV_SHOWN = 6;
const SVG_NS = 'http://www.w3.org/2000/svg';

let state = null;
let picker = null;
let drawnSvg = null;
let showPv = false;

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

function say(text, kind = 'info') {
  const m = $('message');
  m.textContent = text || '';
  m.className = text ? kind : '';
}

/** Takes a state from an answer or an event, unless a newer one is already shown. */
function apply(next, force = false) {
  if (state && next.seq < state.seq && next.session === state.session && !force) return;
  const moved = !state || next.game !== state.game || next.position !== state.position;
  if (!state || next.game !== state.game) {
    picker = next.game === 'isaac' ? new IsaacPicker() : new SquarePicker();
  }
  if (moved) picker.reset();
  if (!state || next.game !== state.game || next.start !== state.start
    || next.moves.length < state.moves.length) clearAnalysis();
  state = next;
  render();
}

function sideName(p1) { return state.sides[p1 ? 0 : 1]; }

function render() {
  const s = state;
  document.body.dataset.game = s.game;
  document.body.dataset.ply = String(s.moves.length);
  document.body.dataset.seq = String(s.seq);
  document.body.dataset.thinking = String(s.thinking);
  const who = ['human', 'human'].map((_, i) => (s.humans[i] ? 'human' : s.engine));
  $('title').textContent = `${s.game[0].toUpperCase()}${s.game.slice(1)} — ${s.sides[0]}: ${who[0]} · ${s.sides[1]}: ${who[1]}`;
  if (s.svg !== drawnSvg) { $('board').innerHTML = s.svg; drawnSvg = s.svg; }
  renderStatus();
  renderBanner();
  renderIsaac();
  renderMarks();
  renderMoves();
  $('fen').textContent = s.fen;
  const engines = !s.humans[0] || !s.humans[1];
  $('btn-pause').hidden = !engines || (s.mode !== 'ee' && !s.paused);
  $('btn-pause').textContent = s.paused ? 'Resume' : 'Pause';
  $('btn-undo').disabled = s.moves.length === 0;
  $('btn-redo').disabled = s.redo === 0;
  $('btn-hint').disabled = !s.human_to_move || s.hinting;
  $('error').textContent = s.error || '';
  $('error').hidden = !s.error;
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

function renderIsaac() {
  const box = $('isaac-controls');
  const s = state;
  const active = s.game === 'isaac' && s.human_to_move;
  box.hidden = !active;
  if (!active) return;
  const c = picker.controls(s.legal);
  $('pass-row').hidden = !c.pass;
  $('place-row').hidden = !c.placing;
  $('remove-row').hidden = !c.removing;
  const buttons = (id, values, current, enabled, onPick, label) => {
    const host = $(id);
    host.replaceChildren(...values.map((v) => {
      const b = document.createElement('button');
      b.type = 'button';
      b.textContent = label(v);
      b.dataset.value = String(v);
      b.disabled = !enabled.includes(v);
      b.classList.toggle('chosen', v === current);
      b.addEventListener('click', () => onPick(v));
      return b;
    }));
  };
  buttons('size-buttons', [3, 4, 5, 6, 7], c.size, c.sizes, (v) => { picker.size = v; render(); }, String);
  buttons('orient-buttons', ['h', 'v'], c.orient, c.orients, (v) => { picker.orient = v; render(); },
    (v) => (v === 'h' ? 'h (→)' : 'v (↑)'));
  buttons('advance-buttons', c.advances, null, c.advances, (k) => act(picker.advance(k, s.legal)),
    (k) => `+${k}`);
  $('remove-help').textContent = c.tile
    ? `Remove ${c.tile}; your counter advances:`
    : 'Click one of your tiles to remove it';
}

function cellElements() {
  const map = new Map();
  for (const el of $('board').querySelectorAll('.cell[data-cell]')) {
    const name = el.dataset.cell;
    if (!map.has(name)) map.set(name, []);
    map.get(name).push(el);
  }
  return map;
}

function renderMarks() {
  const s = state;
  const cells = cellElements();
  for (const list of cells.values()) for (const el of list) el.classList.remove(...MARKS);
  const mark = (names, cls) => {
    for (const n of names) for (const el of cells.get(n) ?? []) el.classList.add(cls);
  };
  const last = s.moves[s.moves.length - 1];
  mark(moveCells(s.game, last), 'lastmove');
  const pv = showPv ? pvMoves(s.moves.length, last).slice(0, PV_SHOWN) : [];
  for (const mv of pv) mark(moveCells(s.game, mv), 'pv');
  labelPv(pv, cells);
  if (s.hint) { mark(moveCells(s.game, s.hint), 'pv'); mark(moveCells(s.game, s.hint), 'hint'); }
  if (s.human_to_move) {
    const m = picker.marks(s.legal);
    mark(m.legal, 'legal');
    mark(m.selected, 'selected');
  }
}

/** Numbers the PV's moves on the board, at each move's last cell (an Isaac tile's anchor). */
function labelPv(pv, cells) {
  const svg = $('board').querySelector('svg');
  if (!svg) return;
  svg.querySelector('.pv-labels')?.remove();
  if (!pv.length) return;
  const group = document.createElementNS(SVG_NS, 'g');
  group.setAttribute('class', 'pv-labels');
  const used = new Map();
  pv.forEach((mv, i) => {
    const names = moveCells(state.game, mv);
    const name = state.game === 'isaac' ? names[0] : names[names.length - 1];
    const el = (cells.get(name) ?? [])[0];
    if (!el) return;
    const box = el.getBBox();
    const shift = (used.get(name) ?? 0) * 14;
    used.set(name, (used.get(name) ?? 0) + 1);
    const text = document.createElementNS(SVG_NS, 'text');
    text.setAttribute('class', 'pv-label');
    text.setAttribute('x', String(box.x + box.width * 0.8 - shift));
    text.setAttribute('y', String(box.y + box.height * 0.2));
    text.textContent = String(i + 1);
    group.append(text);
  });
  svg.append(group);
}

function renderMoves() {
  const s = state;
  const list = $('moves');
  const items = [];
  for (let i = 0; i < s.moves.length; i += 2) {
    const li = document.createElement('li');
    li.textContent = s.moves.slice(i, i + 2).join('  ');
    items.push(li);
  }
  list.replaceChildren(...items);
  list.dataset.count = String(s.moves.length);
  list.scrollTop = list.scrollHeight;
}

/** Carries out what a picker decided: play a legal move, or say why not. */
async function act(outcome) {
  if (outcome.message) { say(outcome.message, 'warn'); render(); return; }
  say('');
  if (outcome.play) await post('/api/move', { move: outcome.play, ply: state.moves.length });
  else render();
}

function onBoardClick(event) {
  const target = event.target.closest('[data-cell]');
  if (!state || !target) return;
  if (state.gameover) { say('The game is over: start a new one', 'warn'); return; }
  if (!state.human_to_move) { say(`Wait: it is ${state.engine}'s turn`, 'warn'); return; }
  act(picker.click(target.dataset.cell, state.legal));
}

function onBoardHover(event) {
  if (!state || state.game !== 'isaac' || !state.human_to_move) return;
  const target = event.target.closest('[data-cell]');
  const cells = cellElements();
  for (const list of cells.values()) for (const el of list) el.classList.remove('preview');
  if (!target) return;
  for (const n of picker.preview(target.dataset.cell, state.legal)) {
    for (const el of cells.get(n) ?? []) el.classList.add('preview');
  }
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
    info: (info) => { if (state && showInfo(info, state) && showPv) renderMarks(); },
    check,
  }, every);
  addEventListener('pageshow', (e) => { if (e.persisted) check(); });
  leaveOnClose();
}

/** Says why the page cannot show a game (the server is full, or unreachable). */
function cannotStart(message) {
  say(message, 'error');
  $('status').textContent = 'No game: see the message below';
  document.body.dataset.failed = 'true';
}

async function main() {
  let setup;
  let opened;
  try {
    setup = await request('/api/setup');
    opened = await openSession();
  } catch (e) {
    cannotStart(e.message);
    return;
  }
  apply(opened.state);
  if (opened.note) say(opened.note, 'warn');
  initNewGame(setup, async (body) => (await post('/api/new', body)) !== null);
  $('btn-new').addEventListener('click', () => openNewGame(state));
  $('board').addEventListener('click', onBoardClick);
  $('board').addEventListener('mouseover', onBoardHover);
  $('btn-undo').addEventListener('click', () => post('/api/undo'));
  $('btn-redo').addEventListener('click', () => post('/api/redo'));
  $('btn-hint').addEventListener('click', () => post('/api/hint'));
  $('btn-pass').addEventListener('click', () => act({ play: 'pass' }));
  $('btn-pause').addEventListener('click', () => post('/api/pause', { paused: !state.paused }));
  $('show-pv').addEventListener('change', (e) => { showPv = e.target.checked; renderMarks(); });
  $('btn-copy').addEventListener('click', copyPosition);
  $('btn-export').addEventListener('click', exportGame);
  $('btn-load').addEventListener('click', async () => {
    if (await post('/api/load', { text: $('load-text').value })) say('Position loaded');
  });
  connect(setup);
  document.body.dataset.ready = 'true';
}

main().catch((e) => cannotStart(`cannot start: ${e.message}`));
