// Game review: the engine scores every position of the game at a fixed limit (the server
// runs the code of `ludus analyse`), the move list marks inaccuracies (?!), mistakes (?) and
// blunders (??), and the evaluation graph (player one's side, a point per ply) shows how the
// game went; a click on a point shows that position. Progress arrives as `review` events.

import { drawGraph, pointView } from './evaluation.js';
import { request } from './session.js';

const $ = (id) => document.getElementById(id);

/** The session's review as last heard of (a state, or a newer progress event). */
let review = null;
let session = null;

/** A new state: its review (null when there is none, or the game left the moves reviewed). */
export function syncReview(state) {
  const progress = review && session === state.session && review.running && state.review?.running
    && review.limit === state.review.limit && review.done > state.review.done;
  if (!progress) review = state.review ?? null;
  session = state.session;
}

/** A `review` event: the progress of a running review. */
export function reviewEvent(data) {
  if (data.session !== session || !review?.running) return;
  review = data;
}

/** The review's verdicts per move (null for a move not judged yet), or null. */
export function reviewMarks() { return review?.moves ?? null; }

/** The review's score of the position after `ply` moves, as a view, or null. */
export function reviewScore(ply) { return pointView(review?.graph?.[ply]); }

/** The review's box: the button, progress or summary, and the graph. */
export function renderReview(state, ply, sides, onPick) {
  const button = $('btn-review');
  const running = Boolean(review?.running);
  button.textContent = running ? 'Stop review' : review ? 'Review again' : 'Review game';
  button.disabled = !running && (state.moves.length === 0 || !state.can_analyse);
  $('review-limit').disabled = running;
  labelLevels(state);
  const status = $('review-status');
  document.body.dataset.review = running ? 'running' : review ? 'done' : 'none';
  if (!review) {
    status.textContent = state.moves.length ? '' : 'Play a move to review the game';
    // An SVG element has no `hidden` property: the attribute is set.
    $('eval-graph').toggleAttribute('hidden', true);
    return;
  }
  if (running) {
    status.textContent = `Reviewing… ${review.done} of ${review.total} positions (${review.limit})`;
  } else if (review.error) {
    status.textContent = `The review stopped: ${review.error}`;
  } else {
    const count = (mark, one, many) => {
      const n = review.moves.filter((m) => m?.mark === mark).length;
      return `${n} ${n === 1 ? one : many}`;
    };
    status.textContent = `Reviewed (${review.limit}): ${count('?!', 'inaccuracy', 'inaccuracies')}, `
      + `${count('?', 'mistake', 'mistakes')}, ${count('??', 'blunder', 'blunders')}`;
  }
  const graph = $('eval-graph');
  graph.toggleAttribute('hidden', false);
  drawGraph(graph, review.graph, review.moves, ply, sides, onPick, state.score_words);
}

/** The level chosen in the box's list (`fast`, `normal`, `deep`) as the request's body. */
function limitBody() {
  return { level: $('review-limit').value };
}

/** About how long `seconds` take, in words: "about 8 s", "about 2 min". */
function about(seconds) {
  if (seconds < 1) return 'under a second';
  if (seconds < 90) return `about ${Math.round(seconds)} s`;
  return `about ${Math.round(seconds / 60)} min`;
}

/**
 * Each level of the list with its limit in this game and the wait it means for the game's
 * positions (the state's `review_levels`: the same level waits about as long in every game).
 */
function labelLevels(state) {
  const positions = state.moves.length + 1;
  for (const option of $('review-limit').options) {
    const level = state.review_levels?.find((l) => l.level === option.value);
    if (!level) continue;
    option.textContent = `${option.value} — ${about(level.seconds * positions)} (${level.limit})`;
  }
}

/** Sets up the review button: starts a review, or stops the one running. */
export function initReview(apply, say) {
  $('btn-review').addEventListener('click', async () => {
    const body = review?.running ? { stop: true } : limitBody();
    try {
      apply(await request('/api/review', body));
      // The graph comes under the button: brought into view (a desktop's side column scrolls
      // by itself, and the review is below the analysis).
      if (!body.stop) $('review').scrollIntoView({ block: 'nearest' });
    } catch (e) {
      say(e.message, 'error');
    }
  });
}
