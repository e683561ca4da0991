// Browser tests of the web GUI's analysis tools: the move list and stepping through the game
// (keys and clicks, the FEN shown), the analysis mode (three lines, stopping), the game
// review (a thrown-away win marked as the one blunder, the graph), the evaluation bar
// (always from player one's side) and the chances of a win, a draw and a loss beside every
// score. run.sh starts `ludus web --port 0` as BASE_URL.

import { test } from 'node:test';
import assert from 'node:assert/strict';
import {
  ISAAC_SCORING, TACTIGON_MOVES, clickCell, load, newContext, newGame, openPage, shot, waitPly,
} from './helpers.mjs';

/** The positions after some moves of TACTIGON_MOVES. */
const TACTIGON_FENS = {
  0: '2/C1C3c1c/1ST4ts1/CTPSC1csptc/1ST4ts1/C1C3c1c/2 r 0',
  1: '2/C1C3c1c/CST4ts1/1TPSC1csptc/1ST4ts1/C1C3c1c/2 b 1',
  10: '2/C1C2sc1c/CS1T1S4/1TP1C1c1ptc/CS5ts1/2C2t1cc/2 r 10',
  22: 'Ps/CC4c1c/CS8/1T4c2tc/C4S1s2/p1CT3cc/2 r 22',
  23: 'Ps/CC4c1c/CS8/3T2c2tc/C4S1s2/p1CT3cc/2 b 23',
  24: 'Ps/CC4c1c/CS8/3T2c2tc/C1p2S1s2/2CT3cc/2 r 24',
};

const fen = (page) => page.$eval('#fen', (f) => f.textContent);
const shown = (page) => page.evaluate(() => document.body.dataset.view);

/** Presses `key` on the page and waits until the board shows `view` ('live' or a ply). */
async function press(page, key, view) {
  await page.keyboard.press(key);
  await page.waitForFunction((v) => document.body.dataset.view === v, String(view));
}

/** The evaluation bar's value: centipawns from player one's side (±10000 proven), or null. */
const barValue = (page) => page.$eval('#eval-bar', (b) => (b.dataset.value === '' ? null : Number(b.dataset.value)));

test('the move list steps through the game by keys and clicks, numbered past 10', async () => {
  const page = await openPage();
  await newGame(page, { game: 'tactigon', mode: 'hh' });
  await load(page, `startpos moves ${TACTIGON_MOVES}`);
  assert.equal(await shown(page), 'live');
  assert.equal(await fen(page), TACTIGON_FENS[24]);
  const rows = await page.$$eval('#moves li', (l) => l.map((e) => e.querySelector('.num').textContent));
  assert.deepEqual(rows, Array.from({ length: 12 }, (_, i) => `${i + 1}.`));
  // The numbers 10, 11 and 12 are whole: nothing clipped, inside the list.
  const clipped = await page.$$eval('#moves .num', (nums) => nums.filter((n) => {
    const list = document.getElementById('moves').getBoundingClientRect();
    return n.scrollWidth > n.clientWidth || n.getBoundingClientRect().left < list.left;
  }).map((n) => n.textContent));
  assert.deepEqual(clipped, []);
  assert.equal(await page.$eval('#moves .mv[data-ply="24"]', (b) => b.classList.contains('current')), true);

  await press(page, 'ArrowLeft', 23);
  assert.equal(await fen(page), TACTIGON_FENS[23]);
  assert.ok(await page.$eval('#viewing', (v) => !v.hidden), 'the page says an earlier position is shown');
  assert.match(await page.$eval('#viewing-text', (v) => v.textContent), /move 23 of 24/);
  // Issue 59 item 5: the status line gives the turn of the position shown, as the board's
  // caption does, and the game's own turn apart.
  assert.equal(await page.$eval('#status', (s) => s.textContent),
    'Viewing move 23 of 24: Blue to move there — in the game: Red to move');
  assert.match(await page.$eval('#board', (b) => b.textContent), /Blue to move · ply 23/);
  await press(page, 'ArrowLeft', 22);
  assert.equal(await fen(page), TACTIGON_FENS[22]);
  await press(page, 'Home', 0);
  assert.equal(await fen(page), TACTIGON_FENS[0]);
  await press(page, 'ArrowRight', 1);
  assert.equal(await fen(page), TACTIGON_FENS[1]);
  await press(page, 'End', 'live');
  assert.equal(await fen(page), TACTIGON_FENS[24]);
  assert.ok(await page.$eval('#viewing', (v) => v.hidden));

  await page.click('#moves .mv[data-ply="10"]');
  await page.waitForFunction(() => document.body.dataset.view === '10');
  assert.equal(await fen(page), TACTIGON_FENS[10]);
  assert.equal(await page.$eval('#moves .mv[data-ply="10"]', (b) => b.classList.contains('current')), true);
  // The board of the past takes no move: it says how to go back, and nothing is sent.
  await clickCell(page, 'd6');
  assert.match(await page.$eval('#message', (m) => m.textContent), /earlier position/);
  assert.deepEqual(page.posted, []);
  // Keys typed into a text field do not step.
  await page.click('#load-text');
  await page.keyboard.press('ArrowLeft');
  assert.equal(await shown(page), '10');
  await shot(page, 'move-list-earlier-position');
  await page.click('#btn-live');
  await page.waitForFunction(() => document.body.dataset.view === 'live');
  // Back on the current position, the warning about the earlier one is gone.
  assert.equal(await page.$eval('#message', (m) => m.textContent), '');
  // So it is after the key End, and the warning comes again on another earlier position.
  await page.click('#moves .mv[data-ply="3"]');
  await page.waitForFunction(() => document.body.dataset.view === '3');
  await clickCell(page, 'd6');
  assert.match(await page.$eval('#message', (m) => m.textContent), /earlier position/);
  await press(page, 'End', 'live');
  assert.equal(await page.$eval('#message', (m) => m.textContent), '');
  await page.close();
});

/**
 * docs/rules/isaac.md TV3 with Light to move: Light passes, so Dark places and passes alone;
 * in the scoring phase Dark goes out (its pass at ply 9) and Light removes alone until it
 * passes too. Who made each move, as the engine says.
 */
const ISAAC_TV3 = 'D6h00,D4h06,D6h10,L4h16,L6h20,D4h26,L5h30,L5h35,L5h40,D5h45,D3h50,D3h53,'
  + 'L4h56,D3h60,D3h63,D4h66,L3h70,L3h73,L4h76,L3h80,L3h83,L4h86,L3h90,D4h93 10201/00011 l P - 0/0 0/0';
const ISAAC_PASSES = 'pass 3h97 pass x3h90+4 x4h06+0 x4h86+4 x6h10+0 x4h76+4 pass x4h56+4 x5h40+3 '
  + 'x5h35+3 x5h30+0 x6h20+4 pass';

/** The move list as read: each row's number and its two columns (`…` a skipped turn). */
const listRows = (page) => page.$$eval('#moves li', (rows) => rows.map((li) => [
  li.querySelector('.num').textContent,
  ...[...li.querySelectorAll('.mv')].map((m) => m.textContent),
]));

test('isaac: each move in its mover\'s column, numbers that never change, … only for a skipped turn', async () => {
  const page = await openPage();
  await newGame(page, { game: 'isaac', mode: 'hh' });
  // The first seven moves, then all: the rows already there keep their numbers and columns.
  const moves = ISAAC_PASSES.split(' ');
  await load(page, `fen ${ISAAC_TV3} moves ${moves.slice(0, 7).join(' ')}`);
  const first = [
    ['1.', '…', 'pass'],
    ['2.', '3h97', '…'],
    ['3.', 'pass', 'x3h90+4'],
    ['4.', 'x4h06+0', 'x4h86+4'],
    ['5.', 'x6h10+0'],
  ];
  assert.deepEqual(await listRows(page), first);
  await load(page, `fen ${ISAAC_TV3} moves ${ISAAC_PASSES}`);
  assert.equal(await page.evaluate(() => document.body.dataset.ply), '15');
  assert.equal(await page.$eval('#banner', (b) => b.hidden), false, 'both players are out: the game is over');
  // The banner gives the winner's score first, as the panel does.
  const banner = await page.$eval('#banner', (b) => b.textContent);
  const [, winner, high, low] = /^(Dark|Light) \(player (?:one|two)\) wins: both players are out, (\d+) to (\d+)$/.exec(banner) ?? [];
  assert.ok(winner && Number(high) > Number(low), banner);
  assert.equal(await page.$eval('#isaac-panel .status', (e) => e.textContent), `${winner} wins ${high}–${low}`);
  const all = [
    ...first.slice(0, 4),
    ['5.', 'x6h10+0', 'x4h76+4'],
    ['6.', 'pass', 'x4h56+4'],
    ['7.', '…', 'x5h40+3'],
    ['8.', '…', 'x5h35+3'],
    ['9.', '…', 'x5h30+0'],
    ['10.', '…', 'x6h20+4'],
    ['11.', '…', 'pass'],
  ];
  assert.deepEqual(await listRows(page), all);
  // Each move button shows the position after it, named by its number and column.
  const viewingText = () => page.$eval('#viewing-text', (v) => v.textContent);
  await page.click('#moves .mv[data-ply="2"]');
  await page.waitForFunction(() => document.body.dataset.view === '2');
  assert.equal(await viewingText(),
    'Viewing the position after 2. 3h97 (move 2 of 15) — the game goes on from its last move');
  await page.click('#moves .mv[data-ply="1"]');
  await page.waitForFunction(() => document.body.dataset.view === '1');
  assert.equal(await viewingText(),
    'Viewing the position after 1... pass (move 1 of 15) — the game goes on from its last move');
  await press(page, 'ArrowRight', 2);
  await press(page, 'ArrowRight', 3);
  assert.match(await viewingText(), /^Viewing the position after 3\. pass \(move 3 of 15\)/);
  await page.click('#moves .mv[data-ply="11"]');
  await page.waitForFunction(() => document.body.dataset.view === '11');
  assert.match(await viewingText(), /^Viewing the position after 7\.\.\. x5h40\+3 \(move 11 of 15\)/);
  assert.match(await page.$eval('#status', (s) => s.textContent),
    /^Viewing move 11 of 15: (Dark|Light) to move there — in the game: /);
  await press(page, 'End', 'live');
  assert.equal(await page.$eval('#viewing', (v) => v.hidden), true);
  await shot(page, 'isaac-move-list-passes');
  await page.close();
});

test('analysis mode shows three lines in a game of two people and stops when turned off', async () => {
  const page = await openPage();
  await newGame(page, { game: 'tactigon', mode: 'hh' });
  await clickCell(page, 'd6');
  await clickCell(page, 'c11');
  await waitPly(page, 1);
  await page.check('#analyse-mode');
  await page.waitForFunction(() => document.body.dataset.analysis === '1');
  // Three lines of one iteration (read at once: the next iteration replaces them).
  const lines = await (await page.waitForFunction(() => {
    const read = [...document.querySelectorAll('#an-lines li')].map((e) => ({
      score: e.querySelector('.line-score').textContent,
      depth: e.querySelector('.line-depth').textContent,
      pv: e.querySelector('.line-pv').textContent,
    }));
    const full = read.length === 3 && read.every((l) => l.pv) && new Set(read.map((l) => l.depth)).size === 1;
    return full && read;
  }, null, { timeout: 60_000 })).jsonValue();
  assert.equal(lines.length, 3);
  for (const line of lines) {
    assert.match(line.score, /^([+−±]\d+\.\d\d|Blue (wins|loses) in \d+)$/);
    assert.match(line.depth, /^d\d+$/);
    assert.ok(line.pv.length > 0);
  }
  assert.equal(new Set(lines.map((l) => l.pv.split(' ')[0])).size, 3, 'three different first moves');
  await shot(page, 'analysis-mode');
  // An earlier position from the move list is analysed in its turn.
  await press(page, 'ArrowLeft', 0);
  await page.waitForFunction(() => document.body.dataset.analysis === '0');
  await press(page, 'End', 'live');
  await page.waitForFunction(() => document.body.dataset.analysis === '1');
  // Turned off: the server stops, and the engine is free for a hint at once.
  await page.uncheck('#analyse-mode');
  await page.waitForFunction(() => document.body.dataset.analysis === 'off');
  const state = await page.evaluate(async () => {
    const s = new URLSearchParams(location.search).get('s');
    return (await fetch(`/api/state?s=${s}`)).json();
  });
  assert.equal(state.analysis, null);
  assert.equal(state.can_analyse, true);
  await page.click('#btn-hint');
  await page.waitForFunction(() => /hint: \S+/.test(document.getElementById('status').textContent), null, { timeout: 20_000 });
  await page.close();
});

test('analysis mode says there is nothing to search where the game is over', async () => {
  const page = await openPage();
  await newGame(page, { game: 'sight', mode: 'hh' });
  // README: White shuts in Black's only stack with d4-e4.
  await load(page, 'fen 5:x5/x,w,x,w2,x/b,x,w,w3,b2/x3,b,b/x5 w moves d4-e4');
  await page.check('#analyse-mode');
  await page.waitForFunction(() => /game is over in this position/.test(document.getElementById('an-mode-note').textContent));
  assert.equal(await page.evaluate(() => document.body.dataset.analysis), 'off');
  await press(page, 'ArrowLeft', 0);
  await page.waitForFunction(() => document.body.dataset.analysis === '0');
  await page.uncheck('#analyse-mode');
  await page.waitForFunction(() => document.body.dataset.analysis === 'off');
  await page.close();
});

/** A page with a Sight game reviewed at depth 4: b2 wins for White (the solved book), e5, then
 * a1 throws the win away (e1 keeps it; tests/referee/analyse.rs). */
async function reviewedThrownAwayWin() {
  const page = await openPage();
  await newGame(page, { game: 'sight', mode: 'hh' });
  for (const [i, cell] of ['b2', 'e5', 'a1'].entries()) {
    await clickCell(page, cell);
    await waitPly(page, i + 1);
  }
  // Sight's fast level is depth 4 (the same marks on every run).
  await page.selectOption('#review-limit', 'fast');
  assert.match(await page.$eval('#review-limit', (s) => s.selectedOptions[0].textContent), /^fast — .* \(depth 4\)$/);
  await page.click('#btn-review');
  await page.waitForFunction(() => document.body.dataset.review === 'done', null, { timeout: 60_000 });
  return page;
}


test('a review marks the thrown-away win, and only it, as a blunder', async () => {
  const page = await reviewedThrownAwayWin();
  const marked = await page.$$eval('#moves .mv[data-mark]', (b) => b.map((e) => [e.dataset.ply, e.dataset.mark]));
  assert.deepEqual(marked, [['3', '??']]);
  assert.match(await page.$eval('#review-status', (s) => s.textContent), /: 0 inaccuracies, 0 mistakes, 1 blunder$/);
  // The graph: a point per ply from White's side; White's proven win until the blunder.
  const points = await page.$$eval('#eval-graph .point', (p) => p.map((e) => [e.dataset.ply, Number(e.dataset.value)]));
  assert.deepEqual(points.map(([p]) => p), ['0', '1', '2', '3']);
  assert.deepEqual(points.slice(0, 3).map(([, v]) => v), [10000, 10000, 10000]);
  assert.ok(points[3][1] < 10000, `no proven win after a1: ${points[3][1]}`);
  assert.ok(await page.$eval('#eval-graph .point[data-ply="3"]', (p) => p.classList.contains('mark-blunder')));
  // Issue 59 item 12: the graph is brought on the screen, not left below the fold.
  const graph = await page.$eval('#eval-graph', (g) => {
    const b = g.getBoundingClientRect();
    return [Math.round(b.top), Math.round(b.bottom), innerHeight];
  });
  assert.ok(graph[0] >= 0 && graph[1] <= graph[2], `the graph on the screen: ${graph}`);
  await shot(page, 'review');
  await page.click('#eval-graph .point[data-ply="1"]');
  await page.waitForFunction(() => document.body.dataset.view === '1');
  assert.equal(await fen(page), '5:x5/x5/x5/x,w,x3/x5 b');
  await page.close();
});

test('the evaluation bar shows scores from player one\'s side, whoever searched', async () => {
  const page = await openPage();
  await newGame(page, { game: 'tactigon', mode: 'hh' });
  // Red is far ahead; Blue is to move, and its search scores the position for Blue.
  await load(page, 'fen 2/C1C3c1c/1ST7/CTPSC3cp1/1ST7/C1C3c1c/2 b 0');
  assert.equal(await barValue(page), null);
  await page.click('#btn-hint');
  await page.waitForFunction(() => /hint: \S+/.test(document.getElementById('status').textContent), null, { timeout: 20_000 });
  const blue = await barValue(page);
  assert.ok(blue > 300, `Blue's search, from Red's side: ${blue}`);
  assert.match(await page.$eval('#an-score', (s) => s.textContent), /^(\+\d+\.\d\d \(Red's view\)|Blue loses in \d+)$/);
  const hint = (await page.$eval('#status', (s) => s.textContent)).match(/hint: (\S+)/)[1];
  const [from, to] = hint.split('-');
  await clickCell(page, from);
  await clickCell(page, to);
  await waitPly(page, 1);
  await page.click('#btn-hint');
  await page.waitForFunction(() => /hint: \S+/.test(document.getElementById('status').textContent), null, { timeout: 20_000 });
  const red = await barValue(page);
  assert.ok(red > 300, `Red's search, from Red's side: ${red}`);
  const width = await page.$eval('#eval-fill', (f) => parseFloat(f.style.width));
  assert.ok(width > 50, `Red's share of the bar: ${width}%`);
  await shot(page, 'evaluation-bar');
  await page.close();
});

/** The evaluation bar as shown: whether a score is known, player one's share, its words. */
const bar = (page) => page.evaluate(() => ({
  known: document.getElementById('eval-bar').dataset.known,
  share: document.getElementById('eval-fill').style.width,
  text: document.getElementById('eval-text').textContent,
}));

/** The analysis panel: the position its search is of, its score and PV. */
const panel = (page) => page.evaluate(() => ({
  ply: document.getElementById('analysis').dataset.ply ?? '',
  score: document.getElementById('an-score').textContent,
  pv: document.getElementById('an-pv').textContent,
}));

test('the bar is grey without a score, and shows the result when the game is over', async () => {
  const page = await openPage();
  await newGame(page, { game: 'sight', mode: 'hh' });
  assert.deepEqual(await bar(page), { known: 'false', share: '0%', text: 'no evaluation' });
  // README: White shuts in Black's only stack with d4-e4.
  await load(page, 'fen 5:x5/x,w,x,w2,x/b,x,w,w3,b2/x3,b,b/x5 w moves d4-e4');
  assert.deepEqual(await bar(page), { known: 'true', share: '100%', text: 'White has won' });
  await press(page, 'ArrowLeft', 0);
  assert.deepEqual(await bar(page), { known: 'false', share: '0%', text: 'no evaluation' });
  await press(page, 'End', 'live');
  await shot(page, 'evaluation-bar-result');
  await page.close();
});

test('the engine\'s search of a position left is not shown, nor a line of another position', async () => {
  const page = await openPage();
  // The engine plays White, finds the win in one (d4-e4) and plays it: its line is of the
  // position before, so the panel is empty and the bar shows the result.
  await newGame(page, { game: 'sight', mode: 'eh' });
  await load(page, 'fen 5:x5/x,w,x,w2,x/b,x,w,w3,b2/x3,b,b/x5 w');
  await page.waitForSelector('#banner', { state: 'visible' });
  assert.deepEqual(await page.evaluate(() => document.body.dataset.ply), '1');
  assert.deepEqual(await panel(page), { ply: '', score: '–', pv: '–' });
  assert.equal((await bar(page)).text, 'White has won');
  // A hint's search is shown while its position is on the board, and left with it.
  await newGame(page, { game: 'tactigon', mode: 'hh' });
  await page.click('#btn-hint');
  await page.waitForFunction(() => /hint: \S+/.test(document.getElementById('status').textContent), null, { timeout: 20_000 });
  const searched = await panel(page);
  assert.equal(searched.ply, '0');
  assert.notEqual(searched.pv, '–');
  const hint = (await page.$eval('#status', (s) => s.textContent)).match(/hint: (\S+)/)[1];
  const [from, to] = hint.split('-');
  await clickCell(page, from);
  await clickCell(page, to);
  await waitPly(page, 1);
  assert.deepEqual(await panel(page), { ply: '', score: '–', pv: '–' });
  // Analysis of the current position, then a step back: only the earlier position's search.
  await page.check('#analyse-mode');
  await page.waitForFunction(() => document.getElementById('analysis').dataset.ply === '1', null, { timeout: 30_000 });
  await page.keyboard.press('ArrowLeft');
  await page.waitForFunction(() => document.body.dataset.view === '0');
  const back = await panel(page);
  assert.ok(back.ply === '' || back.ply === '0', `the panel shows a search of ply ${back.ply}`);
  if (back.ply === '') assert.deepEqual(back, { ply: '', score: '–', pv: '–' });
  await page.waitForFunction(() => document.getElementById('analysis').dataset.ply === '0', null, { timeout: 30_000 });
  await page.uncheck('#analyse-mode');
  await page.waitForFunction(() => document.body.dataset.analysis === 'off');
  await page.close();
});

test('scores in each game\'s words: Isaac in points, proven results as a win or a loss in N', async () => {
  const page = await openPage();
  await newGame(page, { game: 'isaac', mode: 'hh' });
  await load(page, ISAAC_SCORING);
  await page.click('#btn-hint');
  await page.waitForFunction(() => /hint: \S+/.test(document.getElementById('status').textContent), null, { timeout: 30_000 });
  assert.match(await page.$eval('#an-score', (s) => s.textContent),
    /^([+−±]\d+\.\d points \(Dark's view\)|Dark (wins|loses) in \d+)$/);
  assert.match((await bar(page)).text, /^([+−±]\d+\.\d points|(Dark|Light) wins in \d+)$/);
  // The solved book: Black is to move and lost (every move), White wins in 13 moves.
  await newGame(page, { game: 'sight', mode: 'hh' });
  await load(page, 'startpos moves b2');
  await page.click('#btn-hint');
  await page.waitForFunction(() => /hint: \S+/.test(document.getElementById('status').textContent), null, { timeout: 30_000 });
  assert.match(await page.$eval('#an-score', (s) => s.textContent), /^Black loses in \d+$/);
  assert.match(await page.$eval('#an-depth', (s) => s.textContent), /^\d+ plies to the end$/);
  assert.equal(await page.$eval('#an-nodes', (s) => s.textContent), '–');
  assert.match((await bar(page)).text, /^White wins in \d+$/);
  const words = await page.evaluate(() => document.getElementById('side').textContent + document.getElementById('play').textContent);
  assert.doesNotMatch(words, /mate|\bM\d/, 'no chess words');
  await page.close();
});

test('analysis mode shows three lines of the solved book, and the search after its wins', async () => {
  const page = await openPage();
  await newGame(page, { game: 'sight', mode: 'hh' });
  const readLines = () => page.$$eval('#an-lines li', (l) => l.map((e) => [
    e.querySelector('.line-score').textContent, e.querySelector('.line-depth').textContent,
    e.querySelector('.line-pv').textContent.split(' ')[0],
  ]));
  // Black to move after b2 is lost whatever it plays: the book knows all three lines.
  await load(page, 'startpos moves b2');
  await page.check('#analyse-mode');
  await page.waitForFunction(() => document.querySelectorAll('#an-lines .line-pv:not(:empty)').length === 3, null, { timeout: 30_000 });
  const lost = await readLines();
  assert.deepEqual(lost.map(([score, depth]) => [score.replace(/\d+/, 'N'), depth]),
    [['Black loses in N', 'proven'], ['Black loses in N', 'proven'], ['Black loses in N', 'proven']]);
  assert.equal(new Set(lost.map(([, , mv]) => mv)).size, 3, 'three different moves');
  // After b2 e5 White wins with e1 and one other move the book knows; the third line is searched.
  await load(page, 'startpos moves b2 e5');
  await page.waitForFunction(() => document.body.dataset.analysis === '2');
  await page.waitForFunction(() => document.querySelectorAll('#an-lines .line-pv:not(:empty)').length === 3, null, { timeout: 30_000 });
  const won = await readLines();
  assert.deepEqual(won.slice(0, 2).map(([score, depth]) => [score, depth]),
    [['White wins in 12', 'proven'], ['White wins in 12', 'proven']]);
  assert.equal(won[0][2], 'e1', 'the book\'s move first');
  assert.match(won[2][1], /^d\d+$/);
  await shot(page, 'analysis-solved');
  await page.uncheck('#analyse-mode');
  await page.waitForFunction(() => document.body.dataset.analysis === 'off');
  await page.close();
});

/** Player one's chances as the page shows them: under the bar, in the panel, in the bar's title. */
const chances = (page) => page.evaluate(() => ({
  line: document.getElementById('eval-wdl').textContent,
  panel: document.getElementById('an-wdl').textContent,
  title: document.getElementById('eval-bar').title,
}));

/** White's certain win, as every place with chances says it. */
const WHITE_WINS = 'White: Win 100 % · Draw 0 % · Loss 0 %';

test('the chances of a win, a draw and a loss stand beside every score, for player one', async () => {
  const page = await openPage();
  await newGame(page, { game: 'sight', mode: 'hh' });
  assert.deepEqual(await chances(page), { line: '', panel: '–', title: 'no evaluation yet (scores from White\'s side)' });
  // The solved book: Black, to move after b2, is lost; from White's side a certain win.
  await load(page, 'startpos moves b2');
  await page.click('#btn-hint');
  await page.waitForFunction(() => /hint: \S+/.test(document.getElementById('status').textContent), null, { timeout: 30_000 });
  const seen = await chances(page);
  assert.equal(seen.line, WHITE_WINS);
  assert.equal(seen.panel, WHITE_WINS);
  assert.match(seen.title, /^White wins in \d+ \(from White's side\); White: Win 100 % · Draw 0 % · Loss 0 %$/);
  // The score itself is shown as before.
  assert.match((await bar(page)).text, /^White wins in \d+$/);
  assert.match(await page.$eval('#an-score', (s) => s.textContent), /^Black loses in \d+$/);
  // Each of the analysis mode's lines has its chances beside its score.
  await page.check('#analyse-mode');
  await page.waitForFunction(() => document.querySelectorAll('#an-lines .line-pv:not(:empty)').length === 3, null, { timeout: 30_000 });
  const lines = await page.$$eval('#an-lines li', (l) => l.map((e) => [
    e.querySelector('.line-score').textContent, e.querySelector('.line-wdl').textContent,
  ]));
  assert.deepEqual(lines.map(([score, wdl]) => [score.replace(/\d+/, 'N'), wdl]),
    Array.from({ length: 3 }, () => ['Black loses in N', WHITE_WINS]));
  await page.uncheck('#analyse-mode');
  await page.waitForFunction(() => document.body.dataset.analysis === 'off');
  // A searched position: chances in whole per cent (Sight has no draws), Blue to move in
  // Tactigon and the bar for Red.
  await newGame(page, { game: 'tactigon', mode: 'hh' });
  assert.equal((await chances(page)).line, '');
  await load(page, 'fen 2/C1C3c1c/1ST7/CTPSC3cp1/1ST7/C1C3c1c/2 b 0');
  await page.click('#btn-hint');
  await page.waitForFunction(() => /hint: \S+/.test(document.getElementById('status').textContent), null, { timeout: 20_000 });
  const searched = await chances(page);
  assert.match(searched.line, /^Red: Win [<>]?\d+ % · Draw [<>]?\d+ % · Loss [<>]?\d+ %$/);
  assert.equal(searched.panel, searched.line);
  const [win, , loss] = [...searched.line.matchAll(/[<>]?(\d+) %/g)].map((m) => Number(m[1]));
  assert.ok(win > loss, `Red is far ahead: ${searched.line}`);
  await shot(page, 'evaluation-bar-chances');
  // A finished game: the result's chances are certain.
  await newGame(page, { game: 'sight', mode: 'hh' });
  await load(page, 'fen 5:x5/x,w,x,w2,x/b,x,w,w3,b2/x3,b,b/x5 w moves d4-e4');
  assert.equal((await chances(page)).line, WHITE_WINS);
  await page.close();
});

test('the review gives the chances after each move beside its score', async () => {
  const page = await reviewedThrownAwayWin();
  const titles = await page.$$eval('#eval-graph .point title', (t) => t.map((e) => e.textContent));
  assert.equal(titles.length, 4);
  for (const [ply, title] of titles.slice(0, 3).entries()) {
    assert.match(title, new RegExp(`^ply ${ply}: White wins in \\d+ · ${WHITE_WINS}$`));
  }
  // After the blunder, a searched position: White's chances, no draws in Sight.
  assert.match(titles[3], /^ply 3 \?\?: [+−±]\d+(\.\d+)?( \S+)? · White: Win [<>]?\d+ % · Draw 0 % · Loss [<>]?\d+ %$/);
  // The blunder's mark names the best move, its score and its chances.
  const blunder = await page.$eval('#moves .mv[data-ply="3"]', (b) => b.title);
  assert.match(blunder, new RegExp(`^blunder: best \\S+ \\(White wins in \\d+; ${WHITE_WINS}\\)$`));
  // A reviewed position on the board: the bar gives the review's score and chances.
  await page.click('#eval-graph .point[data-ply="1"]');
  await page.waitForFunction(() => document.body.dataset.view === '1');
  assert.equal((await chances(page)).line, WHITE_WINS);
  await page.close();
});

test('the chances fit on one line under the bar of a 360 px wide screen', async () => {
  const context = await newContext({ viewport: { width: 360, height: 740 }, isMobile: true, hasTouch: true });
  const page = await openPage(undefined, context);
  try {
    await newGame(page, { game: 'isaac', mode: 'hh' });
    await load(page, 'fen L3v64,L3h65,L3v68,D3v69 00000/00000 - E - 100/1 4/0');
    await page.waitForSelector('#banner', { state: 'visible' });
    const fit = await page.evaluate(() => {
      const line = document.getElementById('eval-wdl');
      return {
        text: line.textContent,
        whole: line.scrollWidth <= line.clientWidth,
        page: Math.max(document.documentElement.scrollWidth, document.body.scrollWidth) <= innerWidth,
      };
    });
    // docs/rules/isaac.md TV6: Dark (player one) won 100–1.
    assert.deepEqual(fit, { text: 'Dark: Win 100 % · Draw 0 % · Loss 0 %', whole: true, page: true });
    await shot(page, 'chances-360');
  } finally {
    await context.close();
  }
});
