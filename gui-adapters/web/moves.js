// Moves and clicks: which cells a move touches, and the picker that turns clicks into legal
// moves of Sight and Tactigon (Isaac's is isaac.js). A picker only ever proposes a move that
// is in the legal list it was given.

/** The cells of an Isaac tile `<S><h|v><AA>`, e.g. "3h07" → ["07","08","09"]. */
export function tileCells(key) {
  const m = /^([3-7])([hv])(\d\d)$/.exec(key);
  if (!m) return [];
  const size = Number(m[1]);
  const step = m[2] === 'h' ? 1 : 10;
  const anchor = Number(m[3]);
  const cells = [];
  for (let i = 0; i < size; i++) {
    const n = anchor + i * step;
    if (n > 99) break;
    cells.push(String(n).padStart(2, '0'));
  }
  return cells;
}

/** The cells a move touches, for highlighting (last move, PV, hint). */
export function moveCells(game, mv) {
  if (!mv || mv === 'pass' || mv === '(none)') return [];
  if (game === 'isaac') {
    const m = /^x?([3-7][hv]\d\d)/.exec(mv);
    return m ? tileCells(m[1]) : [];
  }
  return mv.split('+')[0].split('-');
}

/** Sight and Tactigon: a point to place on, or a piece then a target. */
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
    return {
      message: from
        ? `${from}-${cell} is not a legal move`
        : `${cell}: no legal move starts here`,
    };
  }
}
