// Browser tests of the page's layout at a desktop's size (1280×800) and a phone's (390×844,
// touch): no page is wider than the screen, in every game and phase; the board's cells are
// big enough to hit (Isaac ≥ 30 px, Sight and Tactigon ≥ 40 px); no text is smaller than 11 px
// as drawn (an SVG text's font size times the picture's scale). Each game is photographed at
// both sizes; with SCREENSHOT_DOCS=1 the photographs also go to docs/screenshots/ for the
// README. run.sh starts `ludus web --port 0` and passes its address as BASE_URL.

import { test } from 'node:test';
import assert from 'node:assert/strict';
import { mkdirSync } from 'node:fs';
import { join, resolve } from 'node:path';
import {
  ISAAC_SCORING, SCREENS, load, newContext, newGame, openPage, shot,
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
        assert.equal(m.below, screen === 'phone', `${screen} ${g.game}: the side panel ${m.below ? 'below' : 'beside'} the board`);
        sizes.push(`${g.game}: cell ${m.cell.toFixed(1)} px, smallest text ${m.texts[0].px} px `
          + `("${m.texts[0].text}"), on the board ${m.boardText.px} px ("${m.boardText.text}")`);
        await shot(page, `${g.game}-${screen}`);
        // The photograph shows the top of the page, as it opens.
        await page.evaluate(() => { document.activeElement?.blur(); scrollTo(0, 0); });
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
