// Scores from one fixed side, player one's (White in Sight, Dark in Isaac, Red in Tactigon):
// the engine reports each score from the side that searched (the side to move), and the page
// turns it so that + always favours player one, whoever searched. Shown as the evaluation
// bar above the board and as the review's graph (one point per ply, a click shows that
// position). Worded in the game's own terms: an evaluation in its unit (the state's
// `score_words`: Isaac's points), a proven result as a side that wins in N moves; no chess
// words. Without a score the bar is grey and empty; at the end of a game it shows the result.
// Beside each score the engine gives the side to move's chances of a win, a draw and a loss
// (`wdl`, per mille: the server turns `UCI_ShowWDL` on); they too are shown for player one,
// in whole per cent: "White: Win 62 % · Draw 20 % · Loss 18 %".

const $ = (id) => document.getElementById(id);
const SVG_NS = 'http://www.w3.org/2000/svg';
/** The value of a proven result on the bar's and the graph's scale. */
const PROVEN = 10_000;
/** Centipawns at which the bar is about three quarters full. */
const SCALE = 250;
/** How evaluations are worded when the state does not say: hundredths, no unit. */
const PLAIN = { per_unit: 100, decimals: 2, unit: '' };
/** The review's marks by name. */
const MARKS = { '?!': 'inaccuracy', '?': 'mistake', '??': 'blunder' };
/** The graph's drawing size (its viewBox) and the centipawns at its top and bottom edges. */
const GRAPH = { w: 300, h: 80, cap: 600 };

/**
 * The side to move's chances `[win, draw, loss]` (per mille; `p1`: player one is to move) as
 * player one's; null when there are none.
 */
export function p1Chances(wdl, p1) {
  if (!Array.isArray(wdl) || wdl.length !== 3) return null;
  return p1 ? [...wdl] : [wdl[2], wdl[1], wdl[0]];
}

/**
 * A score of the side to move (`p1`: player one is to move) from player one's view:
 * `{ cp }` (+ good for player one) or `{ mate, winner: 'p1' | 'p2' }` (a proven result:
 * `mate` moves to its end, 0 when the side to move is mated already), with player one's
 * chances `wdl` when the engine gave them with the score (`wdl`, from the side to move).
 * Null without a score.
 */
export function p1View(score, p1, wdl = null) {
  if (!score) return null;
  const chances = p1Chances(wdl, p1);
  const extra = chances ? { wdl: chances } : {};
  if ('mate' in score) {
    const moverWins = score.mate > 0;
    return { mate: Math.abs(score.mate), winner: moverWins === p1 ? 'p1' : 'p2', ...extra };
  }
  return { cp: p1 ? score.cp : -score.cp, ...extra };
}

/** A review graph's point as a view: `{ end }` (a finished game), or a score and its side. */
export function pointView(point) {
  if (!point) return null;
  if (point.end) return resultView(point.end);
  return p1View(point.score, point.p1, point.wdl);
}

/**
 * Chances in per mille as whole per cent that sum to 100 (the largest remainders rounded
 * up): [625, 250, 125] is [63, 25, 12].
 */
export function percents(wdl) {
  const whole = wdl.map((pm) => Math.floor(pm / 10));
  const order = [0, 1, 2].sort((a, b) => (wdl[b] % 10) - (wdl[a] % 10));
  for (let left = 100 - whole.reduce((a, b) => a + b, 0), i = 0; left > 0 && i < 3; left -= 1, i += 1) {
    whole[order[i]] += 1;
  }
  return whole;
}

/**
 * Chances `[win, draw, loss]` (per mille) in words: "Win 62 % · Draw 20 % · Loss 18 %". Only
 * a certain result is 100 % and an impossible one 0 %: a chance under 1 % is "<1 %", one over
 * 99 % short of certain ">99 %".
 */
export function chancesText(wdl) {
  const [w, d, l] = percents(wdl).map((pc, i) => {
    if (wdl[i] > 0 && wdl[i] < 10) return '<1';
    if (wdl[i] > 990 && wdl[i] < 1000) return '>99';
    return String(pc);
  });
  return `Win ${w} % · Draw ${d} % · Loss ${l} %`;
}

/**
 * A view's chances for player one (`sides[0]`) in words, "White: Win 62 % · Draw 20 % ·
 * Loss 18 %"; '' when the view has none.
 */
export function describeChances(view, sides) {
  return view?.wdl ? `${sides[0]}: ${chancesText(view.wdl)}` : '';
}

/** A view as one number: centipawns, ±PROVEN for a proven result. */
export function valueOf(view) {
  if (!view) return null;
  if ('winner' in view) return view.winner === 'p1' ? PROVEN : -PROVEN;
  return view.cp;
}

/**
 * A view in words, from player one's side: an evaluation in the game's unit (`words`, the
 * state's `score_words`: "+0.35", "−12.5 points"), "White wins in 3", "Black has won", "Draw".
 */
export function describe(view, sides, words = PLAIN) {
  if (!view) return '–';
  if (view.draw) return 'Draw';
  if ('winner' in view) {
    const side = sides[view.winner === 'p1' ? 0 : 1];
    // 0 moves: the game is over already.
    return view.end || !view.mate ? `${side} has won` : `${side} wins in ${view.mate}`;
  }
  const w = words ?? PLAIN;
  const value = view.cp / w.per_unit;
  const sign = value > 0 ? '+' : value < 0 ? '−' : '±';
  return `${sign}${Math.abs(value).toFixed(w.decimals)}${w.unit ? ` ${w.unit}` : ''}`;
}

/**
 * A line of the side to move (`p1`: player one) in words, from its side: "White wins in 3",
 * "Black loses in 5", or the evaluation from player one's side as `describe` says it.
 */
export function describeFor(view, sides, p1, words = PLAIN) {
  if (!view || !('winner' in view) || view.end || !view.mate) return describe(view, sides, words);
  const mover = sides[p1 ? 0 : 1];
  return `${mover} ${(view.winner === 'p1') === p1 ? 'wins' : 'loses'} in ${view.mate}`;
}

/** The end of a finished game as a view: its winner, or a draw (chances certain). */
export function resultView(result) {
  if (result === 'draw') return { cp: 0, draw: true, end: true, wdl: [0, 1000, 0] };
  if (result === 'p1win') return { mate: 0, winner: 'p1', end: true, wdl: [1000, 0, 0] };
  if (result === 'p2win') return { mate: 0, winner: 'p2', end: true, wdl: [0, 0, 1000] };
  return null;
}

/**
 * Shows `view` (or nothing known: null) on the evaluation bar: player one's share of the bar
 * (a proven result fills it), the score in words (`words`: the game's), and data attributes for
 * tests (`data-value`: the engine's units from player one's side, ±10000 for a proven result;
 * `data-known`). Without a score the bar is grey and has no share at all, not half. The line
 * under it gives player one's chances when the view has them (else it is empty, its height
 * kept: the board below does not move).
 */
export function showBar(view, sides, words = PLAIN) {
  const bar = $('eval-bar');
  const fill = $('eval-fill');
  const value = valueOf(view);
  const share = value === null ? 0 : 50 + 50 * Math.tanh(value / (2 * SCALE));
  fill.style.width = `${Math.max(0, Math.min(100, share)).toFixed(1)}%`;
  bar.dataset.value = value === null ? '' : String(value);
  bar.dataset.known = String(value !== null);
  $('eval-text').textContent = view ? describe(view, sides, words) : 'no evaluation';
  const chances = describeChances(view, sides);
  bar.title = view ? `${describe(view, sides, words)} (from ${sides[0]}'s side)${chances ? `; ${chances}` : ''}`
    : `no evaluation yet (scores from ${sides[0]}'s side)`;
  const line = $('eval-wdl');
  line.textContent = chances;
  line.dataset.known = String(Boolean(chances));
  line.title = chances
    ? `${sides[0]}'s chances of a win, a draw and a loss, as the engine rates this position`
    : '';
}

function make(tag, attrs) {
  const el = document.createElementNS(SVG_NS, tag);
  for (const [k, v] of Object.entries(attrs)) el.setAttribute(k, String(v));
  return el;
}

/** The graph's height for a value: player one's advantage up, capped. */
function graphY(value) {
  const v = Math.max(-GRAPH.cap, Math.min(GRAPH.cap, value));
  return GRAPH.h / 2 - (v / GRAPH.cap) * (GRAPH.h / 2 - 4);
}

/**
 * Draws the review's evaluation graph into `svg`: one point per ply (the start, then the
 * position after each move) from player one's side, a polyline through the known ones, the
 * moves marked by the review (`marks`) coloured, the position shown (`current`) larger. A
 * click on or beside a point calls `onPick(ply)`.
 */
export function drawGraph(svg, graph, marks, current, sides, onPick, words = PLAIN) {
  svg.setAttribute('viewBox', `0 0 ${GRAPH.w} ${GRAPH.h}`);
  const n = graph.length;
  const x = (i) => (n > 1 ? 4 + (i * (GRAPH.w - 8)) / (n - 1) : GRAPH.w / 2);
  const items = [make('line', { class: 'axis', x1: 0, y1: GRAPH.h / 2, x2: GRAPH.w, y2: GRAPH.h / 2 })];
  const points = graph.map((p, i) => ({ i, view: pointView(p) }))
    .filter((p) => p.view !== null)
    .map((p) => ({ ...p, value: valueOf(p.view) }));
  items.push(make('polyline', {
    class: 'eval-line',
    points: points.map((p) => `${x(p.i).toFixed(1)},${graphY(p.value).toFixed(1)}`).join(' '),
  }));
  for (const p of points) {
    const mark = marks[p.i - 1]?.mark ?? '';
    const dot = make('circle', {
      class: ['point', mark && `mark-${MARKS[mark]}`, p.i === current && 'current'].filter(Boolean).join(' '),
      cx: x(p.i).toFixed(1), cy: graphY(p.value).toFixed(1), r: p.i === current ? 4 : 2.5,
      'data-ply': p.i, 'data-value': p.value,
    });
    const title = make('title', {});
    const chances = describeChances(p.view, sides);
    title.textContent = `ply ${p.i}${mark ? ` ${mark}` : ''}: ${describe(p.view, sides, words)}`
      + `${chances ? ` · ${chances}` : ''}`;
    dot.append(title);
    items.push(dot);
  }
  svg.replaceChildren(...items);
  svg.onclick = (event) => {
    const target = event.target.closest('[data-ply]');
    if (target) { onPick(Number(target.dataset.ply)); return; }
    // A click beside a point picks the nearest ply.
    const box = svg.getBoundingClientRect();
    if (!box.width || n < 1) return;
    const at = ((event.clientX - box.left) / box.width) * GRAPH.w;
    const ply = n > 1 ? Math.round(((at - 4) * (n - 1)) / (GRAPH.w - 8)) : 0;
    onPick(Math.max(0, Math.min(n - 1, ply)));
  };
}
