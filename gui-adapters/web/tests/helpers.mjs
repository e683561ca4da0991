// What the browser tests share: one headless Chromium (Debian's, driven by playwright-core)
// for the test file that imports this, started before its tests and closed after them, and
// helpers that open pages, start games, click cells and wait for the page's state. run.sh
// starts `ludus web --port 0` and passes its address as BASE_URL.

import { after, before } from 'node:test';
import assert from 'node:assert/strict';
import { mkdirSync, mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { chromium } from 'playwright-core';

export const BASE_URL = process.env.BASE_URL;
export const LUDUS = process.env.LUDUS;
const CHROMIUM = process.env.CHROMIUM || '/usr/bin/chromium';
const SHOTS = resolve(process.env.SCREENSHOT_DIR || '../../../target/browser-screenshots');
const TIMEOUT = 30_000;
/** The screens the layout is tested on: a desktop's, and a phone's with touch. */
export const SCREENS = {
  desktop: { viewport: { width: 1280, height: 800 } },
  phone: { viewport: { width: 390, height: 844 }, isMobile: true, hasTouch: true, deviceScaleFactor: 1 },
};
/** Isaac's scoring phase: Dark to remove; 4h23 earns 3 × 2 × 4 = 24 (docs/rules/isaac.md TV4, more tiles). */
export const ISAAC_SCORING = 'fen L3v07,L3v09,L3h20,D4h23,D3v31,D3h33,L4v38,L3v46,D5h60,D3h70,'
  + 'D3h75,D4h85,L5h90 00000/00000 d S - 28/79 3/0';

/** A Tactigon game of 24 plies (random moves, captures on both sides). */
export const TACTIGON_MOVES = 'd0-c1 d14-g9 d6-g11 c15-f12 e5-c7 f14-f16 f2-e1 g9-c5 g11-c11 c17-b12 '
  + 'd8-d10 b12-a11 d4-a9 d16-b12 c11-e15 b12-e5 b6-b4 f12-d10 c7-f8 e5-f2 e3-e11 e17-e15 '
  + 'd2-d6 f2-e5';

let context;
/** A browser for contexts of other screens (a phone's size, touch), started when first asked. */
let other = null;
const ARGS = ['--headless', '--no-sandbox', '--disable-gpu', '--disable-quic', '--no-first-run',
  '--disable-background-networking', '--disable-component-update', '--disable-sync'];

/** The browser context of this test file. */
export const browserContext = () => context;
let profile;

before(async () => {
  assert.ok(BASE_URL, 'BASE_URL must name the running `ludus web` server');
  mkdirSync(SHOTS, { recursive: true });
  profile = mkdtempSync(join(tmpdir(), 'ludus-chromium-'));
  context = await chromium.launchPersistentContext(profile, {
    executablePath: CHROMIUM,
    headless: true,
    args: ARGS,
    viewport: { width: 1280, height: 900 },
  });
  context.setDefaultTimeout(TIMEOUT);
});

after(async () => {
  await other?.close();
  await context?.close();
  if (profile) rmSync(profile, { recursive: true, force: true });
});

/**
 * A browser context with `options` (a viewport, `hasTouch`, `isMobile`: a phone), in a
 * second browser; the caller closes it.
 */
export async function newContext(options) {
  other ??= await chromium.launch({ executablePath: CHROMIUM, headless: true, args: ARGS });
  const made = await other.newContext(options);
  made.setDefaultTimeout(TIMEOUT);
  return made;
}

/** A fresh page on the GUI (at `url`, in `ctx`), with the moves it POSTs recorded. */
export async function openPage(url = BASE_URL, ctx = context) {
  const page = await ctx.newPage();
  page.posted = [];
  page.on('request', (r) => {
    if (r.method() === 'POST' && new URL(r.url()).pathname === '/api/move') page.posted.push(r.postDataJSON().move);
  });
  page.on('pageerror', (e) => { throw e; });
  await page.goto(url);
  await page.waitForSelector('body[data-ready="true"]');
  return page;
}

/** The session id in a page's URL. */
export const sessionOf = (page) => new URL(page.url()).searchParams.get('s');

/**
 * Starts a new game from the dialog: `game`, `mode` (`hh`, `he`, `eh`, `ee`), the engine's
 * time per move and, when given, its `level` (an option's value: `full`, `elo 800`).
 */
export async function newGame(page, { game, mode = 'he', movetime = 200, level = null }) {
  await page.click('#btn-new');
  await page.selectOption('#ng-game', game);
  await page.selectOption('#ng-mode', mode);
  if (level !== null) await page.selectOption('#ng-level', level);
  // A rating plays nodes, so the dialog turns the time per move off for it.
  if (mode !== 'hh' && await page.$eval('#ng-movetime', (m) => !m.disabled)) {
    await page.fill('#ng-movetime', String(movetime));
  }
  const seq = await page.evaluate(() => Number(document.body.dataset.seq));
  await page.click('#ng-start');
  // Engine seats may have moved already by the time the page shows the new game.
  await page.waitForFunction(
    ([g, before, engineFirst]) => document.body.dataset.game === g
      && Number(document.body.dataset.seq) > before
      && (engineFirst || document.body.dataset.ply === '0')
      && !document.getElementById('new-dialog').open,
    [game, seq, mode === 'ee' || mode === 'eh'],
  );
}

export const ply = (page) => page.evaluate(() => Number(document.body.dataset.ply));

export async function waitPly(page, n) {
  await page.waitForFunction((k) => Number(document.body.dataset.ply) >= k, n);
}

/** Waits until a person may click (or the game is over); returns false once it is over. */
export async function waitHumanTurn(page) {
  await page.waitForFunction(() => {
    const banner = document.getElementById('banner');
    return !banner.hidden || document.querySelector('#board .cell.legal') !== null
      || !document.getElementById('pass-row').hidden;
  });
  return page.evaluate(() => document.getElementById('banner').hidden);
}

export const legalCells = (page) => page.$$eval('#board .cell.legal', (els) => els.map((e) => e.dataset.cell));
export const clickCell = (page, name) => page.click(`#board .cell[data-cell="${name}"]`);
export const boardSvg = (page) => page.$eval('#board', (b) => b.innerHTML);

/** Sight or Tactigon: a point to place, or a piece then its first target. */
export async function clickSomeMove(page) {
  const before = await ply(page);
  const [first] = await legalCells(page);
  await clickCell(page, first);
  const selected = await page.$$('#board .cell.selected');
  if (selected.length) {
    const [target] = await legalCells(page);
    await clickCell(page, target);
  }
  await waitPly(page, before + 1);
}

export async function shot(page, name, fullPage = true) {
  await page.screenshot({ path: join(SHOTS, `${name}.png`), fullPage });
}

/** Loads a position of the current game (`fen …`) and waits until it is shown. */
export async function load(page, text) {
  await page.fill('#load-text', text);
  const seq = await page.evaluate(() => Number(document.body.dataset.seq));
  await page.click('#btn-load');
  await page.waitForFunction((before) => Number(document.body.dataset.seq) > before, seq);
}

/** The screen centre of cell `name` on the board. */
export async function cellCentre(page, name) {
  const box = await (await page.$(`#board .cell[data-cell="${name}"]`)).boundingBox();
  return { x: box.x + box.width / 2, y: box.y + box.height / 2 };
}
