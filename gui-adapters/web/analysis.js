// The analysis panel: the engine's `info` lines as they stream in (depth, score, nodes per
// second, principal variation), and the PV's moves for highlighting on the board. The panel
// shows searches of the position on the board only: another position's lines are not shown
// (and the panel is emptied when the board changes). Scores are shown from player one's side
// whoever searched, in the game's words (evaluation.js), each with player one's chances of a
// win, a draw and a loss when the engine gave them; a proven result (the solved book, a
// proof) says so instead of a depth and no nodes. The analysis mode (a
// toggle) keeps the engine searching the position on the board — the current one or an
// earlier one from the move list — with its best three lines, until it is turned off; the
// server stops it when the position changes, and the page asks again for the new one.

import {
  describeChances, describeFor, p1View, resultView, showBar,
} from './evaluation.js';
import { request } from './session.js';

const $ = (id) => document.getElementById(id);
/** How many lines the analysis mode shows (the server's MultiPV). */
const LINES = 3;
/** How long the server lets one analysis run (src/gui/web/analysis.rs). */
const LIMIT_MS = 600_000;

/** The last info line with a PV: { ply, kind, pv }. */
let last = null;
/** The last score: { ply, kind, view } (player one's side). */
let lastScore = null;
/** The analysis mode's lines of the position analysed: { ply, lines: [{ view, depth, pv }] }. */
let lines = { ply: null, lines: [] };
/** The position (its number of moves) whose search the panel shows; null: the panel is empty. */
let panelPly = null;
/**
 * The analysis mode: on, the position on the board (key, ply) and since when, a request in
 * flight, the state of the last refusal.
 */
const mode = { on: false, key: null, ply: null, since: 0, busy: false, refusedSeq: -1 };

/** Empties the panel's figures and PV (not the analysis mode's lines). */
function emptyPanel() {
  panelPly = null;
  $('analysis').dataset.ply = '';
  for (const id of ['an-depth', 'an-score', 'an-wdl', 'an-nps', 'an-nodes', 'an-pv']) $(id).textContent = '–';
  $('an-kind').textContent = '';
}

/** Forgets every search (a new game, a move taken back). */
export function clearAnalysis() {
  last = null;
  lastScore = null;
  lines = { ply: null, lines: [] };
  emptyPanel();
  renderLines([]);
}

/** The board shows the position after `ply` moves: a search of another one leaves the panel. */
export function syncPanel(ply) {
  if (panelPly !== null && panelPly !== ply) emptyPanel();
}

/** Whether an `info` line is a proven result with no search behind it (the solved book, a proof). */
const provenInfo = (info) => info.nodes === 0 && info.score && 'mate' in info.score;

function count(n) {
  if (n >= 1e6) return `${(n / 1e6).toFixed(2)} M`;
  if (n >= 1e3) return `${(n / 1e3).toFixed(1)} k`;
  return String(n);
}

/** The analysis mode's lines, best first: score and chances (player one's side), depth and moves. */
function renderLines(list) {
  const host = $('an-lines');
  host.replaceChildren(...list.map((line, i) => {
    const li = document.createElement('li');
    li.dataset.multipv = String(i + 1);
    const score = document.createElement('span');
    score.className = 'line-score';
    score.textContent = line ? describeFor(line.view, host.sides ?? ['', ''], line.p1, host.words) : '…';
    const chances = document.createElement('span');
    chances.className = 'line-wdl';
    chances.textContent = line ? describeChances(line.view, host.sides ?? ['', '']) : '';
    const depth = document.createElement('span');
    depth.className = 'line-depth';
    depth.textContent = !line ? '' : line.proven ? 'proven' : `d${line.depth}`;
    const pv = document.createElement('span');
    pv.className = 'line-pv';
    pv.textContent = line ? line.pv.join(' ') : '';
    li.append(score, ' ', chances, ' ', depth, ' ', pv);
    return li;
  }));
  host.dataset.count = String(list.filter(Boolean).length);
}

/**
 * Takes an info event (from a search of the position after `info.ply` moves), shown in the
 * panel if the board shows that position (after `shown` moves). Returns whether it changed
 * the PV.
 */
export function showInfo(info, state, shown) {
  if (info.string !== undefined) {
    if (info.string.startsWith('error')) $('an-kind').textContent = `(${info.string})`;
    return false;
  }
  // An engine move searched at a weakened level (a rating): its scores and lines are the
  // weakened player's opinion, so neither the bar nor the panel shows them; a full-strength
  // evaluation of the position follows (kind `evaluation`).
  if (info.full === false) return false;
  const view = p1View(info.score, info.p1, info.wdl);
  // Late lines of a position left behind are not this position's.
  if (info.kind === 'analysis' && view && info.pv && info.ply === mode.ply) {
    if (lines.ply !== info.ply) lines = { ply: info.ply, lines: [] };
    const k = (info.multipv || 1) - 1;
    const depth = info.depth ?? 0;
    // A deeper first line makes the other lines of the iteration before stale.
    if (k === 0) lines.lines = lines.lines.map((l) => (l && l.depth >= depth ? l : null));
    lines.lines[k] = { view, depth, pv: info.pv, p1: info.p1, proven: provenInfo(info) };
    $('an-lines').sides = state.sides;
    $('an-lines').words = state.score_words;
    renderLines(Array.from({ length: LINES }, (_, i) => lines.lines[i]));
  }
  if (info.multipv && info.multipv > 1) return false;
  if (view) lastScore = { ply: info.ply, kind: info.kind, view };
  if (info.pv) last = { ply: info.ply, kind: info.kind, pv: info.pv };
  if (info.ply !== shown) return Boolean(info.pv);
  panelPly = info.ply;
  $('analysis').dataset.ply = String(info.ply);
  const side = state.sides[info.p1 ? 0 : 1];
  const kinds = {
    hint: '(hint search)', analysis: '(analysis)', review: '(review)', evaluation: '(evaluation)',
  };
  const proven = provenInfo(info);
  $('an-kind').textContent = `${kinds[info.kind] ?? `(${side}'s search)`}${proven ? ' — proven' : ''}`;
  if (proven) {
    // The book's or a proof's result: how far the game goes along it, nothing searched.
    $('an-depth').textContent = `${info.depth} plies to the end`;
    $('an-nps').textContent = '–';
    $('an-nodes').textContent = '–';
  } else {
    if (info.depth !== undefined) {
      $('an-depth').textContent = info.seldepth ? `${info.depth}/${info.seldepth}` : String(info.depth);
    }
    if (info.nps !== undefined) $('an-nps').textContent = count(info.nps);
    if (info.nodes !== undefined) $('an-nodes').textContent = count(info.nodes);
  }
  if (view) {
    const text = describeFor(view, state.sides, info.p1, state.score_words);
    $('an-score').textContent = 'cp' in view ? `${text} (${state.sides[0]}'s view)` : text;
    $('an-wdl').textContent = describeChances(view, state.sides) || '–';
  }
  if (!info.pv) return false;
  $('an-pv').textContent = info.pv.join(' ');
  return true;
}

/**
 * The PV moves still ahead in the position after `ply` moves: the whole PV of a search of
 * this position, or the rest of the previous position's PV when its first move was played.
 */
export function pvMoves(ply, lastMove) {
  if (!last) return [];
  if (last.ply === ply) return last.pv;
  if (last.ply === ply - 1 && last.pv[0] === lastMove) return last.pv.slice(1);
  return [];
}

/**
 * Shows on the evaluation bar what is known of the position after `ply` moves: the result
 * where the game is over; the latest score of a search of it; on the current position the
 * score of the engine's search that led to it; else `fallback` (the review's score; null:
 * nothing known, and the bar says so).
 */
export function showEvaluation(state, ply, fallback) {
  const live = ply === state.moves.length;
  if (live && state.gameover) {
    showBar(resultView(state.result), state.sides, state.score_words);
    return;
  }
  const fresh = lastScore && (lastScore.ply === ply
    || (live && lastScore.kind === 'move' && lastScore.ply === ply - 1));
  showBar(fresh ? lastScore.view : fallback, state.sides, state.score_words);
}

/** The position after `ply` moves of `state`'s game, as a key. */
function keyOf(state, ply) {
  return `${state.session}|${state.game}|${state.start}|${state.moves.slice(0, ply).join(' ')}`;
}

function note(text) {
  $('an-mode-note').textContent = text;
  $('an-mode-note').hidden = !text;
}

/**
 * Keeps the analysis mode in step with the page: asks the server to search the position
 * after `ply` moves (the one on the board) when the mode is on and the engine is free, to
 * stop when it is off or the game is over there. `apply(state)` takes the server's answer.
 */
export async function syncAnalysis(state, ply, apply) {
  const box = $('an-lines');
  box.hidden = !mode.on;
  document.body.dataset.analysis = state.analysis === null ? 'off' : String(state.analysis);
  const over = ply === state.moves.length && state.gameover && !state.resigned;
  const stop = !mode.on || over;
  if (stop) {
    note(mode.on ? 'The game is over in this position: there is nothing to search' : '');
    if (state.analysis !== null && !mode.busy) await send({ ply: null }, state, apply);
    return;
  }
  const key = keyOf(state, ply);
  if (key !== mode.key) {
    mode.key = key;
    mode.ply = ply;
    mode.since = Date.now();
    renderLines(Array.from({ length: LINES }, () => null));
  }
  if (state.analysis === ply) { note(''); return; }
  if (!state.can_analyse) {
    note(state.review?.running ? 'Analysis waits for the review to end'
      : state.hinting ? 'Analysis waits for the hint' : 'Analysis waits while the engine is to move');
    return;
  }
  if (Date.now() - mode.since >= LIMIT_MS) {
    note('Analysis stopped after 10 minutes on this position: turn it off and on to go on');
    return;
  }
  if (mode.busy || state.seq <= mode.refusedSeq) return;
  await send({ ply }, state, apply);
}

async function send(body, state, apply) {
  mode.busy = true;
  let next;
  try {
    next = await request('/api/analyse', body);
  } catch (e) {
    mode.refusedSeq = state.seq;
    note(e.message);
    return;
  } finally {
    mode.busy = false;
  }
  // Not busy any more: the answer's render may ask for the position shown meanwhile.
  note('');
  apply(next);
}

/** Sets up the analysis toggle; `changed()` re-renders the page when it is flipped. */
export function initAnalysisMode(toggle, changed) {
  toggle.addEventListener('change', () => {
    mode.on = toggle.checked;
    mode.key = null;
    mode.refusedSeq = -1;
    changed();
  });
}

/** Turns the toggle on when the server analyses already (a reloaded tab). */
export function adoptAnalysis(state, toggle) {
  if (state.analysis !== null && !mode.on) {
    mode.on = true;
    toggle.checked = true;
  }
}
