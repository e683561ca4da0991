// The analysis panel: the engine's `info` lines as they stream in (depth, score, nodes per
// second, principal variation), and the PV's moves for highlighting on the board.

const $ = (id) => document.getElementById(id);

/** The last info line with a PV: { ply, kind, pv }. */
let last = null;

/** Empties the panel (a new game, a move taken back). */
export function clearAnalysis() {
  last = null;
  for (const id of ['an-depth', 'an-score', 'an-nps', 'an-nodes', 'an-pv']) $(id).textContent = '–';
  $('an-kind').textContent = '';
}

function count(n) {
  if (n >= 1e6) return `${(n / 1e6).toFixed(2)} M`;
  if (n >= 1e3) return `${(n / 1e3).toFixed(1)} k`;
  return String(n);
}

/** A score from the searching side's view, e.g. "+0.35 for White", "mate in 2 for Black". */
export function formatScore(score, side) {
  if (!score) return '–';
  if ('mate' in score) {
    const n = score.mate;
    return n > 0 ? `${side} mates in ${n}` : `${side} is mated in ${-n}`;
  }
  const cp = score.cp / 100;
  return `${cp >= 0 ? '+' : ''}${cp.toFixed(2)} for ${side}`;
}

/**
 * Shows an info event (from a search of the position after `info.ply` moves). Returns
 * whether it changed the PV.
 */
export function showInfo(info, state) {
  if (info.string !== undefined) {
    if (info.string.startsWith('error')) $('an-kind').textContent = `(${info.string})`;
    return false;
  }
  if (info.multipv && info.multipv > 1) return false;
  const side = state.sides[info.p1 ? 0 : 1];
  $('an-kind').textContent = info.kind === 'hint' ? '(hint search)' : `(${side}'s search)`;
  if (info.depth !== undefined) {
    $('an-depth').textContent = info.seldepth ? `${info.depth}/${info.seldepth}` : String(info.depth);
  }
  if (info.score) $('an-score').textContent = formatScore(info.score, side);
  if (info.nps !== undefined) $('an-nps').textContent = count(info.nps);
  if (info.nodes !== undefined) $('an-nodes').textContent = count(info.nodes);
  if (!info.pv) return false;
  $('an-pv').textContent = info.pv.join(' ');
  last = { ply: info.ply, kind: info.kind, pv: info.pv };
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
