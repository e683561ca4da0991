// Browser tests of games against the engine at a rating: what a player reads of the position
// (the evaluation bar, the chances, the analysis panel's score) is a full-strength
// evaluation of the position shown, never the weakened player's opinion that chose the
// engine's move, and a hint does not turn it round. The independent judge is a one-shot
// full-strength search of the same position by the same binary (`ludus go … --info`).
// run.sh starts `ludus web --port 0` as BASE_URL and passes the binary as LUDUS.

import { test } from 'node:test';
import assert from 'node:assert/strict';
import { spawnSync } from 'node:child_process';
import { LUDUS, clickSomeMove, newGame, openPage, sessionOf, shot, waitHumanTurn } from './helpers.mjs';

/** How long the independent search of a position takes, as the page's evaluation does. */
const JUDGE_MS = 1000;
/** A score of a proven result, as the bar's `data-value` gives it. */
const PROVEN = 10000;

/** The session's state as the server gives it. */
const serverState = (page) => page.evaluate(async (s) => (await fetch(`/api/state?s=${s}`)).json(), sessionOf(page));

/** The evaluation bar's value (the engine's units from player one's side, ±10000 proven), or null. */
const barValue = (page) => page.$eval('#eval-bar', (b) => (b.dataset.value === '' ? null : Number(b.dataset.value)));

/**
 * A full-strength search of `fen` (`game`, player one to move if `p1`) by the one-shot
 * command: its last score from player one's side, ±10000 for a proven result.
 */
function judge(game, fen, p1) {
  const run = spawnSync(LUDUS, ['go', '--game', game, '--fen', fen, '--movetime', String(JUDGE_MS), '--info'], {
    encoding: 'utf8', timeout: 60_000,
  });
  assert.equal(run.status, 0, `ludus go: ${run.stderr}`);
  const found = run.stdout.match(/ score (cp|mate) (-?\d+)/);
  assert.ok(found, `a score in ${run.stdout}`);
  const [, kind, n] = found;
  const mover = kind === 'cp' ? Number(n) : Math.sign(Number(n)) * PROVEN;
  return p1 ? mover : -mover;
}

/** Waits until the page's full-strength evaluation of the position shown is over, and returns the bar's value. */
async function evaluated(page) {
  await page.waitForFunction(() => document.body.dataset.evaluating === 'false'
    && document.getElementById('eval-bar').dataset.known === 'true', null, { timeout: 30_000 });
  return barValue(page);
}

/** Whether two scores from player one's side tell the same story: the same side ahead, near in size. */
function agree(shown, full) {
  if (Math.abs(full) >= PROVEN || Math.abs(shown) >= PROVEN) return Math.sign(shown) === Math.sign(full);
  const noise = Math.max(60, Math.abs(full) / 2);
  const side = Math.abs(full) < noise || Math.sign(shown) === Math.sign(full);
  return side && Math.abs(shown - full) <= noise;
}

for (const game of ['sight', 'isaac', 'tactigon']) {
  test(`${game} at rating 800: after the engine's move the bar is a full-strength evaluation, and a hint keeps its side`, async () => {
    const page = await openPage();
    await newGame(page, { game, mode: 'he', movetime: 200, level: 'elo 800' });
    const seen = [];
    for (let move = 0; move < 3; move += 1) {
      if (!(await waitHumanTurn(page))) break;
      await clickSomeMove(page);
      if (!(await waitHumanTurn(page))) break;
      const shown = await evaluated(page);
      const state = await serverState(page);
      assert.equal(state.level, 'elo 800');
      const full = judge(game, state.fen, state.p1turn);
      seen.push({ ply: state.moves.length, shown, full });
      assert.ok(agree(shown, full), `${game} after ${state.moves.length} moves: the bar ${shown}, a full-strength search ${full}`);
      const kind = await page.$eval('#an-kind', (k) => k.textContent);
      assert.match(kind, /^\(evaluation\)/, 'the panel names the search its score comes from');
      // A hint is full strength too: the bar stays on the same side.
      await page.click('#btn-hint');
      await page.waitForFunction(() => /hint: \S+/.test(document.getElementById('status').textContent), null, { timeout: 30_000 });
      const hinted = await barValue(page);
      assert.ok(agree(hinted, shown), `${game} after ${state.moves.length} moves: before Hint ${shown}, after ${hinted}`);
    }
    assert.ok(seen.length >= 1, `${game}: no position was evaluated`);
    await shot(page, `rated-${game}-evaluation`);
    await page.close();
  });
}
