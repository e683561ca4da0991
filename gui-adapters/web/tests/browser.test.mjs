// Browser tests of the ludus web GUI, in Debian's headless Chromium driven by playwright-core
// (helpers.mjs): each game played by clicks, undo, hint, load, export, sessions and tabs.
// run.sh starts `ludus web --port 0` and passes its address as BASE_URL.

import { test } from 'node:test';
import assert from 'node:assert/strict';
import { spawn } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import {
  BASE_URL, LUDUS, browserContext, boardSvg, clickCell, clickSomeMove, legalCells, load, newGame,
  openPage, ply, sessionOf, shot, waitHumanTurn, waitPly,
} from './helpers.mjs';

test('the new-game dialog offers the engine\'s rule options of the chosen game', async () => {
  const page = await openPage();
  await page.click('#btn-new');
  await page.selectOption('#ng-game', 'tactigon');
  const fields = await page.$$eval('#ng-options [data-option]',
    (els) => els.map((e) => `${e.dataset.option}:${e.tagName.toLowerCase()}:${e.type}`));
  assert.deepEqual(fields, [
    'Tactigon_PlyCap:input:number', 'Tactigon_NoMoveResult:select:select-one',
    'Tactigon_Repetition:input:checkbox', 'Tactigon_JumpingSquares:input:checkbox',
    'Tactigon_GoldBonus:input:checkbox',
  ]);
  // The engine's levels, with ratings every 200 points (UCI_Elo) before full strength.
  const levels = await page.$$eval('#ng-level option', (o) => o.map((e) => e.value));
  assert.deepEqual(levels.slice(0, 2), ['random', 'greedy']);
  assert.equal(levels.at(-1), 'full');
  const ratings = levels.slice(2, -1).map((v) => Number(v.replace(/^elo /, '')));
  assert.ok(ratings.length >= 5, `ratings: ${levels}`);
  ratings.forEach((r, i) => assert.equal(r, ratings[0] + 200 * i, `ratings: ${levels}`));
  // A newcomer's game is at a moderate rating, chosen in the dialog, not full strength.
  assert.equal(await page.inputValue('#ng-level'), 'elo 1000');
  assert.equal(await page.$eval('#ng-level', (s) => s.selectedOptions[0].textContent), 'rating 1000 (default)');
  // Issue 59 item 4: each game's ratings are its own scale's (Tactigon 725–1614, Isaac
  // 725–1520, Sight 392–1670), said in a note; a rating plays nodes, not time.
  const ratingsOf = async (game) => {
    await page.selectOption('#ng-game', game);
    const values = await page.$$eval('#ng-level option', (o) => o.map((e) => e.value));
    return values.filter((v) => v.startsWith('elo ')).map((v) => Number(v.slice(4)));
  };
  assert.deepEqual(await ratingsOf('tactigon'), [800, 1000, 1200, 1400, 1600]);
  assert.deepEqual(await ratingsOf('isaac'), [800, 1000, 1200, 1400]);
  assert.deepEqual(await ratingsOf('sight'), [400, 600, 800, 1000, 1200, 1400, 1600]);
  assert.equal(await page.inputValue('#ng-level'), 'elo 1000', 'the rating chosen stays');
  assert.ok(await page.$eval('#ng-rating-note', (n) => n.checkVisibility()), 'ratings are per game, it says');
  assert.equal(await page.$eval('#ng-movetime', (m) => m.disabled), true, 'no time per move for a rating');
  await page.selectOption('#ng-level', 'full');
  assert.equal(await page.$eval('#ng-movetime', (m) => m.disabled), false);
  await page.selectOption('#ng-level', 'elo 1000');
  await page.selectOption('#ng-game', 'tactigon');
  await shot(page, 'new-game-dialog');
  await page.click('#ng-cancel');
  await page.close();
});

test('a newcomer\'s first game: the engine at a moderate rating, no solved result after move 1', async () => {
  const page = await openPage();
  // The game a fresh page starts: Sight 5×5 against the engine, at the default level.
  assert.equal(await page.evaluate(() => document.body.dataset.game), 'sight');
  assert.match(await page.$eval('#title', (t) => t.textContent), /Black: \S.* \(rating 1000\)$/);
  await clickCell(page, 'c3');
  await waitPly(page, 2);
  await page.waitForFunction(() => document.getElementById('eval-bar').dataset.known === 'true');
  // Full strength plays from the solved book and shows the newcomer's loss in so many moves.
  assert.notEqual(Math.abs(Number(await page.$eval('#eval-bar', (b) => b.dataset.value))), 10000);
  assert.doesNotMatch(await page.$eval('#eval-text', (t) => t.textContent), /wins|loses|won/);
  await page.close();
});

test('sight: clicks play moves, the engine replies and the board updates', async () => {
  const page = await openPage();
  await newGame(page, { game: 'sight' });
  const empty = await boardSvg(page);
  await clickCell(page, 'c3');
  await waitPly(page, 2);
  assert.notEqual(await boardSvg(page), empty);
  assert.equal(await page.$$eval('#board .piece', (p) => p.length), 2);
  assert.equal(await page.$eval('#moves', (m) => m.dataset.count), '2');
  assert.deepEqual(page.posted, ['c3']);
  await waitHumanTurn(page);
  await clickSomeMove(page);
  await waitPly(page, 4);
  await waitHumanTurn(page);
  // At the default rating the engine's own (weakened) search is never shown: a full-strength
  // evaluation of the position on the board gives the bar its score and the panel its line.
  await page.waitForFunction(() => document.body.dataset.evaluating === 'false'
    && document.getElementById('eval-bar').dataset.known === 'true', null, { timeout: 30_000 });
  assert.match(await page.$eval('#an-kind', (k) => k.textContent), /^\(evaluation\)/);
  await shot(page, 'sight');
  await page.close();
});

test('tactigon: a piece then a highlighted cell; the engine replies', async () => {
  const page = await openPage();
  await newGame(page, { game: 'tactigon' });
  const start = await boardSvg(page);
  const origins = await legalCells(page);
  assert.ok(origins.includes('d6'), `d6 can move: ${origins}`);
  await clickCell(page, 'd6');
  assert.deepEqual(await page.$$eval('#board .cell.selected', (s) => s.map((e) => e.dataset.cell)), ['d6']);
  const targets = await legalCells(page);
  assert.ok(targets.includes('c11'), `d6 reaches c11: ${targets}`);
  await clickCell(page, 'c11');
  await waitPly(page, 2);
  assert.equal(page.posted[0], 'd6-c11');
  assert.notEqual(await boardSvg(page), start);
  await waitHumanTurn(page);
  await clickSomeMove(page);
  await waitPly(page, 4);
  await waitHumanTurn(page);
  await shot(page, 'tactigon');
  await page.close();
});

test('a refused click says the rule; the opponent\'s piece or an empty cell does nothing', async () => {
  const page = await openPage();
  await newGame(page, { game: 'tactigon', mode: 'hh' });
  const message = () => page.$eval('#message', (m) => m.textContent);
  const told = (text) => page.waitForFunction((t) => document.getElementById('message').textContent === t, text);
  // A piece, then a cell it cannot go to: the rule it breaks, as the terminal says it.
  await clickCell(page, 'd6');
  await clickCell(page, 'd4');
  await told('d6-d4: d4 holds a Red piece');
  await clickCell(page, 'd6');
  await clickCell(page, 'd14');
  await page.waitForFunction(() => /cannot reach/.test(document.getElementById('message').textContent));
  assert.equal(await message(), 'd6-d14: the square on d6 cannot reach d14 (range 4; the path is blocked or too long)');
  // A piece of Red's with no move: why, by its steps to its neighbours.
  await clickCell(page, 'd4');
  await page.waitForFunction(() => document.getElementById('message').textContent.startsWith('d4 '));
  assert.match(await message(), /^d4 cannot move: [a-g]\d+ holds a Red piece; [a-g]\d+ holds a Red piece; [a-g]\d+ holds a Red piece$/);
  // Blue's piece, an empty cell: nothing happens, nothing is said.
  for (const cell of ['d14', 'a9']) {
    await clickCell(page, cell);
    await told('');
    assert.deepEqual(await page.$$eval('#board .cell.selected', (c) => c.length), 0);
  }
  assert.deepEqual(page.posted, []);
  // Sight: White owns no stack, so its single piece cannot step; Black's does nothing.
  await newGame(page, { game: 'sight', mode: 'hh' });
  await clickCell(page, 'c3');
  await waitPly(page, 1);
  await clickCell(page, 'c4');
  await waitPly(page, 2);
  await clickCell(page, 'c3');
  await told('c3 cannot move: White owns no stack, so White must place a piece');
  await clickCell(page, 'c4');
  await told('');
  assert.deepEqual(page.posted, ['c3', 'c4']);
  await page.close();
});

test('isaac: size, orientation and a cell place a tile; the engine replies', async () => {
  const page = await openPage();
  await newGame(page, { game: 'isaac' });
  await page.click('#size-buttons button[data-value="7"]');
  if (await page.$eval('#btn-rotate', (b) => b.dataset.orient) !== 'v') await page.click('#btn-rotate');
  assert.equal(await page.$eval('#btn-rotate', (b) => b.dataset.orient), 'v');
  assert.equal((await legalCells(page)).length, 100, 'a 7v tile can cover any cell');
  await clickCell(page, '30');
  await waitPly(page, 2);
  assert.equal(page.posted[0], '7v00', 'centred on 30');
  assert.equal(await page.$$eval('#board .tile', (t) => t.length), 2);
  await waitHumanTurn(page);
  await page.click('#size-buttons button[data-value="3"]');
  if (await page.$eval('#btn-rotate', (b) => b.dataset.orient) !== 'h') await page.click('#btn-rotate');
  const [cell] = await legalCells(page);
  await clickCell(page, cell);
  await waitPly(page, 4);
  await waitHumanTurn(page);
  await shot(page, 'isaac');
  await page.close();
});

test('a complete sight game against the engine ends with the result banner', async () => {
  const page = await openPage();
  await newGame(page, { game: 'sight', movetime: 50 });
  for (let i = 0; i < 30 && (await waitHumanTurn(page)); i++) {
    const n = await ply(page);
    await clickSomeMove(page);
    assert.equal(await ply(page) > n, true);
  }
  const banner = await page.$eval('#banner', (b) => (b.hidden ? '' : b.textContent));
  assert.match(banner, /(White|Black) \(player (one|two)\) wins: (White|Black) has no legal move — you (win!|lose\.)/);
  assert.equal(await page.$$eval('#board .cell.legal', (c) => c.length), 0);
  await shot(page, 'sight-finished');
  await page.close();
});

test('an illegal click is refused and the game goes on', async () => {
  const page = await openPage();
  await newGame(page, { game: 'sight' });
  await clickCell(page, 'c3');
  await waitPly(page, 2);
  await waitHumanTurn(page);
  await clickCell(page, 'c3');
  // White's own piece that cannot move: the rule, as the terminal says it.
  await page.waitForFunction(() => document.getElementById('message').textContent.startsWith('c3 cannot move: '));
  assert.equal(await ply(page), 2);
  assert.deepEqual(page.posted, ['c3']);
  await clickSomeMove(page);
  await waitPly(page, 4);
  await page.close();
});

test('undo goes back to the person, redo forward, export writes the record', async () => {
  const page = await openPage();
  await newGame(page, { game: 'sight' });
  await clickCell(page, 'b2');
  await waitPly(page, 2);
  await waitHumanTurn(page);
  await page.click('#btn-undo');
  await page.waitForFunction(() => document.body.dataset.ply === '0');
  await page.click('#btn-redo');
  await page.waitForFunction(() => document.body.dataset.ply === '2');
  await page.click('#btn-copy');
  assert.match(await page.inputValue('#load-text'), /^startpos moves b2 \S+$/);
  await page.click('#btn-export');
  await page.waitForSelector('#export-box', { state: 'visible' });
  const record = await page.inputValue('#export-text');
  assert.match(record, /^\[Event "ludus web"\]$/m);
  assert.match(record, /^\[Result "\*"\]$/m);
  // A person's move has its time only; the engine's its score, depth and time.
  assert.match(record, /1\. b2 \{[\d.]+s\} \S+ \{[^}]+\} \*/);
  const reply = record.match(/1\. b2 \{[\d.]+s\} (\S+) /)[1];
  // Issue 59 item 6: the page's own export loads back, as a record.
  await newGame(page, { game: 'sight' });
  await load(page, record);
  assert.equal(await page.evaluate(() => document.body.dataset.ply), '2');
  await page.click('#btn-copy');
  assert.equal(await page.inputValue('#load-text'), `startpos moves b2 ${reply}`);
  await page.close();
});

test('hint and PV highlight cells; a bad position is refused in plain words', async () => {
  const page = await openPage();
  await newGame(page, { game: 'sight' });
  await clickCell(page, 'c3');
  await waitPly(page, 2);
  await waitHumanTurn(page);
  await page.click('#btn-hint');
  await page.waitForSelector('#board .cell.hint');
  assert.match(await page.$eval('#status', (s) => s.textContent), /hint: \S+/);
  // The hint is drawn over the board (a Sight placement: a ring on its point), and the last
  // move stays highlighted under the pieces.
  await page.waitForSelector('#board .arrows .line-move.hint', { state: 'attached' });
  assert.equal(await page.$$eval('#board .last-move .last.to', (l) => l.length), 1);
  await page.check('#show-pv');
  await shot(page, 'sight-hint');
  const fen = await page.$eval('#fen', (f) => f.textContent);
  await page.fill('#load-text', 'fen 5:x5 w');
  await page.click('#btn-load');
  await page.waitForFunction(() => document.getElementById('message').className === 'error');
  // In plain words: what is wrong, not the protocol's error code.
  const refusal = await page.$eval('#message', (m) => m.textContent);
  assert.match(refusal, /^Not a Sight position: \S/);
  assert.doesNotMatch(refusal, /invalid-position|illegal-move|'fen/);
  await page.fill('#load-text', 'startpos moves c3 c3');
  await page.click('#btn-load');
  await page.waitForFunction(() => /^Move 2/.test(document.getElementById('message').textContent));
  assert.match(await page.$eval('#message', (m) => m.textContent), /^Move 2, c3, cannot be played: c3 is occupied/);
  assert.equal(await page.$eval('#fen', (f) => f.textContent), fen);
  await clickSomeMove(page);
  await page.close();
});

test('isaac: a forced pass, then a removal with its advance', async () => {
  const page = await openPage();
  await newGame(page, { game: 'isaac', mode: 'hh' });
  await page.fill('#load-text', 'fen D6h00,D4h06,D6h10,L4h16,L6h20,D4h26,L5h30,L5h35,L5h40,D5h45,'
    + 'D3h50,D3h53,L4h56,D3h60,D3h63,D4h66,L3h70,L3h73,L4h76,L3h80,L3h83,L4h86,L3h90,D4h93 '
    + '10201/00011 l P - 0/0 0/0');
  await page.click('#btn-load');
  await page.waitForSelector('#btn-pass', { state: 'visible' });
  // The load's own answer (its message) may come after the state event that showed the button.
  await page.waitForFunction(() => document.getElementById('message').textContent === 'Position loaded');
  await clickCell(page, '97');
  assert.match(await page.$eval('#message', (m) => m.textContent), /Pass/);
  await page.click('#btn-pass');
  await waitPly(page, 1);
  assert.deepEqual(page.posted, ['pass']);
  await page.fill('#load-text', 'fen D3h13,D3v39,D5h50,L3h55,L3v58 00000/00000 d S - 10/85 0/0');
  await page.click('#btn-load');
  await page.waitForFunction(() => document.body.dataset.ply === '0');
  await clickCell(page, '52');
  assert.deepEqual(
    await page.$$eval('#board .cell.selected', (s) => s.map((e) => e.dataset.cell).sort()),
    ['50', '51', '52', '53', '54'],
  );
  assert.equal(await page.$eval('#adv-value', (v) => v.textContent), '+9');
  for (let i = 0; i < 4; i++) await page.click('#adv-down');
  assert.equal(await page.$eval('#adv-value', (v) => v.textContent), '+5');
  await shot(page, 'isaac-removal');
  await page.click('#btn-remove');
  await waitPly(page, 1);
  assert.deepEqual(page.posted, ['pass', 'x5h50+5']);
  await page.close();
});

test('engine against engine plays on its own and pauses', async () => {
  const page = await openPage();
  await newGame(page, { game: 'tactigon', mode: 'ee', movetime: 50 });
  await waitPly(page, 3);
  await page.click('#btn-pause');
  await page.waitForFunction(() => document.body.dataset.thinking === 'false');
  const stopped = await ply(page);
  await page.waitForTimeout(400);
  assert.equal(await ply(page), stopped);
  assert.equal(page.posted.length, 0);
  await page.close();
});

test('two tabs play two different games at once without interfering', async () => {
  const [a, b] = [await openPage(), await openPage()];
  assert.notEqual(sessionOf(a), sessionOf(b));
  await newGame(a, { game: 'sight', mode: 'hh' });
  await newGame(b, { game: 'tactigon', mode: 'hh' });
  // Moves in both tabs at the same time.
  await Promise.all([
    (async () => { await clickCell(a, 'c3'); await waitPly(a, 1); await clickCell(a, 'c4'); await waitPly(a, 2); })(),
    (async () => { await clickCell(b, 'd6'); await clickCell(b, 'c11'); await waitPly(b, 1); })(),
  ]);
  const seqA = await a.evaluate(() => document.body.dataset.seq);
  await b.click('#btn-undo');
  await b.waitForFunction(() => document.body.dataset.ply === '0');
  await b.waitForTimeout(300);
  assert.equal(await a.evaluate(() => document.body.dataset.seq), seqA, 'B\'s undo did not reach A');
  assert.equal(await a.evaluate(() => document.body.dataset.game), 'sight');
  assert.equal(await ply(a), 2);
  assert.equal(await a.$eval('#fen', (f) => f.textContent), '5:x5/x2,b,x2/x2,w,x2/x5/x5 w');
  assert.deepEqual(a.posted, ['c3', 'c4']);
  assert.equal(await b.evaluate(() => document.body.dataset.game), 'tactigon');
  assert.deepEqual(b.posted, ['d6-c11']);
  await shot(a, 'two-tabs-sight');
  await shot(b, 'two-tabs-tactigon');
  await a.close();
  await b.close();
});

test('eight tabs all load, share one event stream and each play a move', async () => {
  const streams = [];
  const onRequest = (r) => { if (new URL(r.url()).pathname === '/api/events') streams.push(r.url()); };
  browserContext().on('request', onRequest);
  const pages = [];
  for (let i = 0; i < 8; i++) pages.push(await openPage());
  assert.equal(new Set(pages.map(sessionOf)).size, 8, 'a session per tab');
  for (const page of pages) {
    assert.equal(await page.$$eval('#board .cell', (c) => c.length), 25, 'the board is shown');
  }
  // Two people in each tab (no engine searches: eight at once crawl on a busy machine).
  const first = ['a1', 'b2', 'c3', 'd4', 'e5', 'a5', 'e1', 'c1'];
  const second = ['b1', 'c2', 'd3', 'e4', 'd5', 'b5', 'd1', 'c5'];
  for (const page of pages) await newGame(page, { game: 'sight', mode: 'hh' });
  for (const [i, page] of pages.entries()) {
    await clickCell(page, first[i]);
    await waitPly(page, 1);
  }
  // Each tab's second move is sent by its neighbour tab: a tab sees it only through the
  // browser's one event stream, passed on by the leading tab.
  for (const [i, page] of pages.entries()) {
    const status = await pages[(i + 1) % 8].evaluate(async ([s, move]) => {
      const r = await fetch(`/api/move?s=${s}`, {
        method: 'POST', headers: { 'Content-Type': 'application/json' }, body: JSON.stringify({ move, ply: 1 }),
      });
      return r.status;
    }, [sessionOf(page), second[i]]);
    assert.equal(status, 200);
  }
  for (const page of pages) await waitPly(page, 2);
  for (const [i, page] of pages.entries()) {
    assert.deepEqual(await page.$$eval('#moves .mv', (l) => l.map((e) => e.textContent)), [first[i], second[i]]);
  }
  const leaders = await Promise.all(pages.map((p) => p.evaluate(() => document.body.dataset.events)));
  assert.equal(leaders.filter((l) => l === 'leader').length, 1, `one leader: ${leaders}`);
  assert.equal(streams.length, 1, `one event stream for the browser: ${streams}`);
  await shot(pages[7], 'eighth-tab');
  // The leader closes: another tab takes over the stream and events still arrive.
  const leader = pages.findIndex((_, i) => leaders[i] === 'leader');
  await pages[leader].close();
  const rest = pages.filter((_, i) => i !== leader);
  const leading = async () => (await Promise.all(rest.map((p) => p.evaluate(() => document.body.dataset.events))))
    .filter((e) => e === 'leader').length;
  for (let i = 0; i < 100 && (await leading()) !== 1; i++) await rest[0].waitForTimeout(100);
  assert.equal(await leading(), 1, 'the next tab leads');
  const [poster, follower] = [rest[0], rest[rest.length - 1]];
  const status = await poster.evaluate(async (s) => {
    const r = await fetch(`/api/undo?s=${s}`, { method: 'POST', headers: { 'Content-Type': 'application/json' }, body: '{}' });
    return r.status;
  }, sessionOf(follower));
  assert.equal(status, 200);
  await follower.waitForFunction(() => document.body.dataset.ply === '1');
  assert.equal(streams.length, 2, `the new leader's stream: ${streams}`);
  browserContext().off('request', onRequest);
  for (const page of rest) await page.close();
});

test('a reload shows the same game', async () => {
  const page = await openPage();
  await newGame(page, { game: 'sight', mode: 'hh' });
  await clickCell(page, 'b2');
  await waitPly(page, 1);
  await clickCell(page, 'd4');
  await waitPly(page, 2);
  const url = page.url();
  const fen = await page.$eval('#fen', (f) => f.textContent);
  await page.reload();
  await page.waitForSelector('body[data-ready="true"]');
  assert.equal(page.url(), url);
  assert.equal(await ply(page), 2);
  assert.equal(await page.$eval('#fen', (f) => f.textContent), fen);
  assert.deepEqual(await page.$$eval('#moves .mv', (l) => l.map((e) => e.textContent)), ['b2', 'd4']);
  await page.close();
});

test('a link to a session the server no longer knows starts a new game and says so', async () => {
  const gone = '0123456789abcdef0123456789abcdef';
  const page = await openPage(`${BASE_URL}/?s=${gone}`);
  assert.match(await page.$eval('#message', (m) => m.textContent), /has ended on the server/);
  assert.notEqual(sessionOf(page), gone);
  assert.equal(await page.$$eval('#board .cell', (c) => c.length), 25);
  await page.close();
});

/** Starts `ludus web --port 0` with `args`; resolves to { url, stop }. */
function startServer(args) {
  return new Promise((resolveStart, reject) => {
    const child = spawn(LUDUS, ['web', '--port', '0', ...args], { stdio: ['ignore', 'pipe', 'ignore'] });
    let out = '';
    child.on('error', reject);
    child.stdout.on('data', (chunk) => {
      out += chunk;
      const found = out.match(/^listening on (\S+)$/m);
      if (found) resolveStart({ url: found[1], stop: () => child.kill() });
    });
  });
}

test('a server running its most sessions says so on the page', async () => {
  assert.ok(LUDUS, 'LUDUS must name the ludus binary');
  const server = await startServer(['--max-sessions', '1']);
  try {
    const first = await openPage(server.url);
    const second = await browserContext().newPage();
    await second.goto(server.url);
    await second.waitForSelector('body[data-failed="true"]');
    const message = await second.$eval('#message', (m) => m.textContent);
    assert.match(message, /most games at once \(1,.*this page tries again by itself/);
    assert.ok(await second.$eval('#message', (m) => m.checkVisibility()), 'the message is shown');
    // Issue 59 item 12: and nothing of a game: no empty board frame, no black bar.
    for (const id of ['board', 'eval-bar']) {
      assert.equal(await second.$eval(`#${id}`, (e) => e.checkVisibility()), false, `#${id} hidden`);
    }
    await shot(second, 'server-full');
    // The first tab closes: its session ends 10 s later, and the second page, asking again by
    // itself (not reloaded), gets the place.
    await second.evaluate(() => { window.notReloaded = true; });
    await first.close();
    await second.waitForSelector('body[data-ready="true"]', { timeout: 40_000 });
    assert.equal(await second.evaluate(() => window.notReloaded), true);
    assert.equal(await second.evaluate(() => document.body.dataset.failed), undefined);
    assert.equal(await second.$$eval('#board .cell', (c) => c.length), 25, 'its game is shown');
    await second.close();
  } finally {
    server.stop();
  }
});

/** Waits until `done()` resolves true, asking every 2 s, for at most `ms`; false if it never did. */
async function until(done, ms) {
  const end = Date.now() + ms;
  for (;;) {
    if (await done()) return true;
    if (Date.now() > end) return false;
    await new Promise((resolve) => { setTimeout(resolve, 2000); });
  }
}

test('the game of a killed browser ends within three minutes with the default settings', async () => {
  assert.ok(LUDUS, 'LUDUS must name the ludus binary');
  const server = await startServer([]);
  const profile = mkdtempSync(join(tmpdir(), 'ludus-killed-'));
  // A browser of its own, in a process group of its own, killed without a word (no pagehide).
  const browser = spawn(process.env.CHROMIUM || '/usr/bin/chromium', [
    '--headless', '--no-sandbox', '--disable-gpu', '--no-first-run', `--user-data-dir=${profile}`,
    `${server.url}/`,
  ], { detached: true, stdio: 'ignore' });
  const sessions = async () => (await (await fetch(`${server.url}/api/server`)).json()).sessions;
  try {
    assert.ok(await until(async () => (await sessions()) === 1, 60_000), 'the page has its game');
    process.kill(-browser.pid, 'SIGKILL');
    const killed = Date.now();
    assert.ok(await until(async () => (await sessions()) === 0, 180_000), 'its game ended');
    const took = (Date.now() - killed) / 1000;
    assert.ok(took <= 180, `ended ${took} s after the browser was killed`);
    console.log(`the killed browser's game ended after ${took.toFixed(0)} s`);
  } finally {
    try { process.kill(-browser.pid, 'SIGKILL'); } catch { /* already gone */ }
    server.stop();
    rmSync(profile, { recursive: true, force: true });
  }
});
