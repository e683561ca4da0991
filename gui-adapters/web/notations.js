// The move notations the page reads, by the name the server gives each game's (`notation` in
// the state; src/game/present.rs): the picker that turns clicks into moves, the cells a move
// touches, whether the hint and the engine's line are drawn as ghost tiles (else as arrows and
// rings), how the last move is animated (else the piece slides or fades in), and the controls
// a notation has beside the board. The one place where the shared code (app.js, board.js)
// meets the input code of one game: `squares` is moves.js, `tiles` Isaac's isaac.js and
// isaac-ui.js.

import { SquarePicker, squareCells } from './moves.js';
import { IsaacPicker, isRemoval, tileMoveCells } from './isaac.js';
import { animateTile, drawIsaacMarks, initIsaac, renderIsaac } from './isaac-ui.js';

const NOTATIONS = {
  squares: { Picker: SquarePicker, cells: squareCells },
  tiles: {
    Picker: IsaacPicker,
    cells: tileMoveCells,
    ghost: isRemoval,
    animate: animateTile,
    controls: { init: initIsaac, render: renderIsaac, marks: drawIsaacMarks },
  },
};

/**
 * The notation called `name`: `{ Picker, cells(mv), ghost?(mv), animate?(svg, mv), controls? }`;
 * `ghost` says whether a move ghosted takes its tile away. Squares for a name it does not know.
 */
export function notation(name) {
  return NOTATIONS[name] ?? NOTATIONS.squares;
}

/** The cells move `mv` of notation `name` touches, for highlighting (last move, PV, hint). */
export function moveCells(name, mv) {
  if (!mv || mv === 'pass' || mv === '(none)') return [];
  return notation(name).cells(mv);
}

const controls = () => Object.values(NOTATIONS).flatMap((n) => (n.controls ? [n.controls] : []));

/** Wires every notation's controls (once, at start): `init(getState, picker, hooks)`. */
export function initControls(getState, picker, hooks) {
  for (const c of controls()) c.init(getState, picker, hooks);
}

/** Shows the controls of the state's notation and hides the others' (each decides which). */
export function renderControls(state, picker, hooks) {
  for (const c of controls()) c.render(state, picker, hooks);
}

/** The marks a notation's controls draw on the board (the chosen removal's outcome). */
export function drawControlMarks(svg, state, picker) {
  for (const c of controls()) c.marks(svg, state, picker);
}
