// Browser tests of the page's layout at a desktop's size (1280×800) and a phone's (390×844,
// touch): no page is wider than the screen, in every game and phase; the board's cells are
// big enough to hit (Isaac ≥ 30 px, Sight and Tactigon ≥ 40 px); no text is smaller than 11 px
// as drawn (an SVG text's font size times the picture's scale). Each game is photographed at
// both sizes; with SCREENSHOT_DOCS=1 the photographs also go to docs/screenshots/ for the
// README. The board stays where it is (to the pixel) while a person steps through the game or
// analyses it, and on a desktop the board, its controls and the move list are all on the
// screen at once, Tactigon's tall board lying on its side to use the window's width. run.sh
// starts `ludus web --port 0` and passes its address as BASE_URL.

import { test } from 'node:test';
import assert from 'node:assert/strict';
import { mkdirSync } from 'node:fs';
import { join, resolve } from 'node:path';
import {
  ISAAC_SCORING, SCREENS, TACTIGON_MOVES, load, newContext, newGame, openPage, shot,
} from './helpers.mjs';

/** Per game: the position photographed, the smallest cell allowed, what to click first. */
const GAMES = [
  { game: 'sight', load: 'startpos moves b4 e2 d3 a3 d4', cell: 40 },
  { game: 'tactigon', load: 'startpos moves d6-c11 d14-b12', cell: 40, select: 'c11' },
  { game: 'isaac', load: ISAAC_SCORING, cell: 30, select: '24' },
];
const MIN_TEXT = 11;
const DOCS = resolve('../../../docs/screenshots');

/** What the layout test measures on the page as it is. */
function measure(page) {
  return page.evaluate(() => {
    const texts = [];
    const walker = document.createTreeWalker(document.body, NodeFilter.SHOW_TEXT);
    for (let n = walker.nextNode(); n; n = walker.nextNode()) {
      const e = n.parentElement;
      if (!n.textContent.trim() || !e || e.closest('style, script, title, option')) continue;
      if (!e.checkVisibility({ visibilityProperty: true })) continue;
      let px = parseFloat(getComputedStyle(e).fontSize);
      const svg = e.closest('svg');
      if (svg) {
        // An SVG text is drawn at its font size times the picture's scale.
        const m = e.getScreenCTM();
        px *= Math.hypot(m.a, m.b);
      }
      texts.push({ px: Math.round(px * 10) / 10, text: n.textContent.trim().slice(0, 24), board: Boolean(svg) });
    }
    texts.sort((a, b) => a.px - b.px);
    const cells = [...document.querySelectorAll('#board .cell')].map((c) => {
      const r = c.getBoundingClientRect();
      return Math.min(r.width, r.height);
    });
    const below = document.getElementById('side').getBoundingClientRect().top
      >= document.getElementById('board').getBoundingClientRect().bottom;
    return {
      below,
      scrollWidth: Math.max(document.documentElement.scrollWidth, document.body.scrollWidth),
      innerWidth,
      cell: Math.min(...cells),
      texts: texts.slice(0, 5),
      boardText: texts.find((t) => t.board),
    };
  });
}

/** Checks the page as it is at `label`: no overflow, cells and text big enough. */
async function checkLayout(page, label, minCell) {
  const m = await measure(page);
  assert.ok(m.scrollWidth <= m.innerWidth, `${label}: the page is ${m.scrollWidth} px wide in ${m.innerWidth}`);
  assert.ok(m.cell >= minCell, `${label}: a cell is ${m.cell.toFixed(1)} px (at least ${minCell})`);
  assert.ok(m.texts[0].px >= MIN_TEXT, `${label}: text under ${MIN_TEXT} px: ${JSON.stringify(m.texts)}`);
  return m;
}

/** A click, or a tap on a touch screen. */
const press = (page, selector, touch) => (touch ? page.tap(selector) : page.click(selector));

for (const [screen, options] of Object.entries(SCREENS)) {
  test(`every game fits a ${screen}'s screen (${options.viewport.width}×${options.viewport.height})`, async () => {
    const context = await newContext(options);
    const page = await openPage(undefined, context);
    const touch = Boolean(options.hasTouch);
    const sizes = [];
    try {
      for (const g of GAMES) {
        await newGame(page, { game: g.game, mode: 'hh' });
        if (g.game === 'isaac') {
          // The other phases: placement, and the end (docs/rules/isaac.md TV6, Dark won 100–1).
          await checkLayout(page, `${screen} isaac placement`, g.cell);
          await load(page, 'fen L3v64,L3h65,L3v68,D3v69 00000/00000 - E - 100/1 4/0');
          await page.waitForSelector('#banner', { state: 'visible' });
          await checkLayout(page, `${screen} isaac ended`, g.cell);
        }
        await load(page, g.load);
        if (g.select) await press(page, `#board .cell[data-cell="${g.select}"]`, touch);
        if (g.game === 'isaac') {
          await page.waitForSelector('#advance-stepper', { state: 'visible' });
          await page.waitForSelector('#board .landing-mark[data-cell="52"]');
        }
        const m = await checkLayout(page, `${screen} ${g.game}`, g.cell);
        if (g.game === 'tactigon') {
          // On its side where the window is wide, upright on a phone.
          assert.equal(await page.evaluate(() => document.body.dataset.landscape), String(screen === 'desktop'));
        }
        assert.equal(m.below, screen === 'phone', `${screen} ${g.game}: the side panel ${m.below ? 'below' : 'beside'} the board`);
        sizes.push(`${g.game}: cell ${m.cell.toFixed(1)} px, smallest text ${m.texts[0].px} px `
          + `("${m.texts[0].text}"), on the board ${m.boardText.px} px ("${m.boardText.text}")`);
        await shot(page, `${g.game}-${screen}`);
        // The photograph shows the top of the page (and of a desktop's side column), as it opens.
        await page.evaluate(() => {
          document.activeElement?.blur();
          scrollTo(0, 0);
          document.getElementById('side').scrollTop = 0;
        });
        if (process.env.SCREENSHOT_DOCS === '1') {
          mkdirSync(DOCS, { recursive: true });
          await page.screenshot({ path: join(DOCS, `${g.game}-${screen}.png`) });
        }
      }
      console.log(`${screen}: ${sizes.join('; ')}`);
    } finally {
      await context.close();
    }
  });
}

/** Per game: a game with moves to step through, and a move of it to click in the list. */
const PLAYED = [
  { game: 'sight', load: 'startpos moves b4 e2 d3 a3 d4', click: 2 },
  { game: 'tactigon', load: `startpos moves ${TACTIGON_MOVES}`, click: 9 },
  { game: 'isaac', load: `${ISAAC_SCORING} moves x3v31+0 x3v46+0 x4h23+0`, click: 1 },
];

/** The board's box in the page (not in the window, which a tap may scroll): x, y, width, height. */
const boardBox = (page) => page.$eval('#board', (b) => {
  const r = b.getBoundingClientRect();
  return [r.left + scrollX, r.top + scrollY, r.width, r.height];
});

/** Waits until the board shows the position after `view` moves ('live': the current one). */
const waitView = (page, view) => page.waitForFunction((v) => document.body.dataset.view === v, String(view));

for (const [screen, options] of Object.entries(SCREENS)) {
  test(`the board does not move while stepping through the game or analysing it (${screen})`, async () => {
    const context = await newContext(options);
    const page = await openPage(undefined, context);
    const touch = Boolean(options.hasTouch);
    try {
      for (const g of PLAYED) {
        await newGame(page, { game: g.game, mode: 'hh' });
        await load(page, g.load);
        const count = Number(await page.evaluate(() => document.body.dataset.ply));
        const live = await boardBox(page);
        const same = async (what) => assert.deepEqual(await boardBox(page), live, `${screen} ${g.game}: ${what}`);
        // One move back: a key on a desktop, the list's button on a phone.
        if (touch) await press(page, '#nav-back', true);
        else await page.keyboard.press('ArrowLeft');
        await waitView(page, count - 1);
        await same('one move back');
        await press(page, `#moves .mv[data-ply="${g.click}"]`, touch);
        await waitView(page, g.click);
        await same(`move ${g.click} clicked in the list`);
        await press(page, '#analyse-mode', touch);
        await page.waitForFunction((k) => document.body.dataset.analysis === String(k), g.click);
        await page.waitForFunction(() => document.querySelector('#an-lines li .line-pv')?.textContent, null, { timeout: 60_000 });
        await same('analysing an earlier position');
        await press(page, '#nav-forward', touch);
        await waitView(page, g.click + 1);
        await same('one move on while analysing');
        await press(page, '#analyse-mode', touch);
        await page.waitForFunction(() => document.body.dataset.analysis === 'off');
        await press(page, '#btn-live', touch);
        await waitView(page, 'live');
        await same('back to the game');
      }
    } finally {
      await context.close();
    }
  });
}

/** The bottom edge of each element named, in the window (null: not shown). */
const bottoms = (page, ids) => page.evaluate((list) => Object.fromEntries(list.map((id) => {
  const e = document.getElementById(id);
  return [id, e && e.checkVisibility() ? Math.ceil(e.getBoundingClientRect().bottom) : null];
})), ids);

/** Checks that every element of `ids` is shown and ends inside the window, and nothing scrolled. */
async function allOnScreen(page, label, ids) {
  const seen = await bottoms(page, ids);
  const { height, scrolled } = await page.evaluate(() => ({
    height: innerHeight,
    scrolled: [scrollY, document.getElementById('side').scrollTop],
  }));
  assert.deepEqual(scrolled, [0, 0], `${label}: nothing scrolled`);
  const out = Object.entries(seen).filter(([, bottom]) => bottom === null || bottom > height);
  assert.deepEqual(out, [], `${label}: shown and ending by ${height} px`);
}

test('on a desktop the board, its controls and the move list fit in 1280×800', async () => {
  const context = await newContext(SCREENS.desktop);
  const page = await openPage(undefined, context);
  const playing = ['board', 'status', 'eval-bar', 'controls', 'move-panel', 'moves', 'nav-end'];
  const blur = () => page.evaluate(() => { document.activeElement?.blur(); document.getElementById('side').scrollTop = 0; });
  try {
    await newGame(page, { game: 'sight', mode: 'hh' });
    await load(page, 'startpos moves b4 e2 d3 a3 d4');
    await blur();
    await allOnScreen(page, 'sight', playing);
    await newGame(page, { game: 'tactigon', mode: 'hh' });
    await load(page, `startpos moves ${TACTIGON_MOVES}`);
    await blur();
    await allOnScreen(page, 'tactigon', [...playing, 'tray-top', 'tray-bottom']);
    // Tactigon's tall board lies on its side and takes the width its column has.
    assert.equal(await page.evaluate(() => document.body.dataset.landscape), 'true');
    const used = await page.evaluate(() => {
      const picture = document.querySelector('#board .bg').getBoundingClientRect();
      const box = document.getElementById('board').getBoundingClientRect();
      return { picture: picture.width, box: box.width, window: innerWidth };
    });
    assert.ok(used.picture >= 0.95 * (used.box - 20), `the board ${used.picture} px wide in its box of ${used.box}`);
    assert.ok(used.picture >= 0.6 * used.window, `the board ${used.picture} px wide in a window of ${used.window}`);
    await page.keyboard.press('ArrowLeft');
    await waitView(page, 23);
    await allOnScreen(page, 'tactigon, an earlier position', [...playing, 'tray-top', 'tray-bottom', 'viewing', 'btn-live']);
    await page.keyboard.press('End');
    // Isaac's placement: the tile sizes and the Turn button.
    await newGame(page, { game: 'isaac', mode: 'hh' });
    await page.click('#board .cell[data-cell="44"]');
    await page.waitForFunction(() => document.body.dataset.ply === '1');
    await allOnScreen(page, 'isaac placement', [...playing, 'isaac-controls', 'place-row', 'size-buttons', 'btn-rotate', 'isaac-panel']);
    // Isaac's scoring: the advance stepper and its explanation.
    await load(page, `${ISAAC_SCORING} moves x3v31+0 x3v46+0`);
    await blur();
    await page.click('#board .cell[data-cell="24"]');
    await page.waitForSelector('#advance-stepper', { state: 'visible' });
    await allOnScreen(page, 'isaac scoring', [...playing, 'isaac-controls', 'advance-stepper', 'btn-remove',
      'advance-info', 'isaac-panel']);
    assert.match(await page.$eval('#advance-info', (e) => e.textContent), /Earns 24/);
    await shot(page, 'isaac-desktop-fits', false);
  } finally {
    await context.close();
  }
});

/**
 * The WCAG contrast ratio of CSS colours `fg` over `bg` (`rgb(…)`/`rgba(…)`; a translucent
 * `bg` is laid over `under`, the colour beneath it).
 */
function contrast(fg, bg, under = 'rgb(255, 255, 255)') {
  const parse = (c) => c.match(/[\d.]+/g).map(Number);
  const over = (top, base) => {
    const [r, g, b, a = 1] = parse(top);
    const [R, G, B] = parse(base);
    return [r * a + R * (1 - a), g * a + G * (1 - a), b * a + B * (1 - a)];
  };
  const lum = ([r, g, b]) => [r, g, b]
    .map((v) => v / 255)
    .map((v) => (v <= 0.03928 ? v / 12.92 : ((v + 0.055) / 1.055) ** 2.4))
    .reduce((sum, v, i) => sum + v * [0.2126, 0.7152, 0.0722][i], 0);
  const back = over(bg, under);
  const front = over(fg, `rgb(${back.join(', ')})`);
  const [hi, lo] = [lum(front), lum(back)].sort((a, b) => b - a);
  return (hi + 0.05) / (lo + 0.05);
}

test('the bar\'s score and Resign read at WCAG AA contrast on every fill, in both themes', async () => {
  const page = await openPage();
  await newGame(page, { game: 'sight', mode: 'hh' });
  await page.click('#btn-hint');
  await page.waitForFunction(() => document.getElementById('eval-bar').dataset.known === 'true', null, { timeout: 30_000 });
  for (const theme of ['light', 'dark']) {
    await page.evaluate((t) => { document.documentElement.dataset.theme = t; }, theme);
    const seen = await page.evaluate(() => {
      const style = (id) => getComputedStyle(document.getElementById(id));
      return {
        text: style('eval-text').color,
        pill: style('eval-text').backgroundColor,
        fills: [style('eval-fill').backgroundColor, style('eval-bar').backgroundColor],
        resign: style('btn-resign').color,
        button: style('btn-resign').backgroundColor,
      };
    });
    // The score over either side's fill (Sight: White's white, Black's black).
    for (const fill of seen.fills) {
      const ratio = contrast(seen.text, seen.pill, fill);
      assert.ok(ratio >= 4.5, `${theme}: the score ${seen.text} on ${seen.pill} over ${fill}: ${ratio.toFixed(2)}`);
    }
    const resign = contrast(seen.resign, seen.button, theme === 'dark' ? 'rgb(0, 0, 0)' : 'rgb(255, 255, 255)');
    assert.ok(resign >= 4.5, `${theme}: Resign ${seen.resign} on ${seen.button}: ${resign.toFixed(2)}`);
  }
  await page.close();
});

test('nothing moves when the game ends or a click is refused: the banner and the message have their space', async () => {
  for (const [screen, options] of Object.entries(SCREENS)) {
    const ctx = await newContext(options);
    const page = await openPage(undefined, ctx);
    await newGame(page, { game: 'sight', mode: 'hh' });
    // docs/rules/sight.md TV12: b2 shuts White's only stack in.
    await load(page, 'startpos moves a1 a2 b1');
    const box = (id) => page.$eval(`#${id}`, (e) => {
      // Where it is on the page, whatever the page's scroll (a click may scroll a phone's).
      const b = e.getBoundingClientRect();
      return [b.x + scrollX, b.y + scrollY, b.width, b.height].map(Math.round);
    });
    const [board, undo] = [await box('board'), await box('btn-undo')];
    await page.click('#board .cell[data-cell="b2"]');
    await page.waitForSelector('#banner', { state: 'visible' });
    assert.deepEqual(await box('board'), board, `${screen}: the board when the banner shows`);
    await page.click('#board .cell[data-cell="e5"]');
    await page.waitForFunction(() => /game is over/.test(document.getElementById('message').textContent));
    assert.deepEqual(await box('btn-undo'), undo, `${screen}: Undo when a refusal is said`);
    assert.deepEqual(await box('board'), board, `${screen}: the board when a refusal is said`);
    await ctx.close();
  }
});
