// Moves of the `squares` notation (notations.js), which names squares: a point to place on
// (`c3`), or a piece then its target (`b4-c4`), perhaps with `+…` after it. Which cells such a
// move touches, and the picker that turns clicks into legal moves. A picker only ever proposes
// a move that is in the legal list it was given; a click that makes no move is handed back
// (`refused`) for the page to ask the rules why, or to do nothing.

/** The cells a move touches, for highlighting (last move, PV, hint): `b4-c3+d3` → b4, c3. */
export function squareCells(mv) {
  return mv.split('+')[0].split('-');
}

/** A point to place on, or a piece then a target. */
export class SquarePicker {
  constructor() { this.from = null; }

  reset() { this.from = null; }

  /**
   * The cells to mark: `legal` every cell a click may start or end a move on, `dots` the
   * cells a move would go to (the selected piece's targets, or the points to place on).
   */
  marks(legal) {
    const placements = legal.filter((m) => !m.includes('-'));
    if (this.from) {
      const targets = legal
        .filter((m) => m.startsWith(this.from + '-'))
        .map((m) => m.split('-')[1]);
      return { legal: targets, selected: [this.from], dots: targets };
    }
    const origins = legal.filter((m) => m.includes('-')).map((m) => m.split('-')[0]);
    return { legal: [...new Set([...placements, ...origins])], selected: [], dots: placements };
  }

  click(cell, legal) {
    const from = this.from;
    if (from) {
      const mv = `${from}-${cell}`;
      if (legal.includes(mv)) { this.from = null; return { play: mv }; }
      if (cell === from) { this.from = null; return {}; }
    }
    if (legal.includes(cell)) { this.from = null; return { play: cell }; }
    if (legal.some((m) => m.startsWith(cell + '-'))) { this.from = cell; return {}; }
    this.from = null;
    // No move: the piece chosen (if any) cannot go to `cell`, or no move starts on `cell`.
    return { refused: { from, cell } };
  }
}
