// Moves and clicks: which cells a move touches, and the pickers that turn clicks into
// legal moves. A picker only ever proposes a move that is in the legal list it was given.

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

/**
 * Isaac: size, orientation and the tile's first cell to place; a tile and its advance to
 * remove; pass. The first cell is the tile's lowest cell in the frame the board is seen in:
 * Dark's (the anchor of the notation), or Light's when `flipped` (the anchor's other end).
 */
export class IsaacPicker {
  constructor() { this.size = null; this.orient = null; this.tile = null; this.flipped = false; }

  /** How far a tile's far end lies from its anchor, in cell numbers. */
  span() { return (this.size - 1) * (this.orient === 'h' ? 1 : 10); }

  /** The anchor of the placement whose first cell (as the board is seen) is `cell`. */
  anchorAt(cell) {
    const anchor = Number(cell) - (this.flipped ? this.span() : 0);
    return anchor >= 0 ? String(anchor).padStart(2, '0') : null;
  }

  /** The cell a person clicks for the placement anchored at `anchor`. */
  firstCell(anchor) {
    return String(Number(anchor) + (this.flipped ? this.span() : 0)).padStart(2, '0');
  }

  /** The placement a click on `cell` makes with the chosen size and orientation. */
  placementAt(cell) {
    const anchor = this.anchorAt(cell);
    return anchor === null ? null : `${this.size}${this.orient}${anchor}`;
  }

  reset() { this.tile = null; }

  static split(legal) {
    return {
      pass: legal.length === 1 && legal[0] === 'pass',
      placements: legal.filter((m) => /^[3-7][hv]\d\d$/.test(m)),
      removals: legal.filter((m) => m.startsWith('x')),
    };
  }

  /** Keeps size and orientation on choices that have legal placements. */
  settle(placements) {
    const sizes = [3, 4, 5, 6, 7].filter((s) => placements.some((m) => m.startsWith(String(s))));
    if (!sizes.includes(this.size)) this.size = sizes.length ? sizes[sizes.length - 1] : null;
    const orients = ['h', 'v'].filter((o) => placements.some((m) => m.startsWith(`${this.size}${o}`)));
    if (!orients.includes(this.orient)) this.orient = orients[0] ?? null;
    return { sizes, orients };
  }

  /** What the control row shows. */
  controls(legal) {
    const { pass, placements, removals } = IsaacPicker.split(legal);
    const { sizes, orients } = this.settle(placements);
    const tiles = [...new Set(removals.map((m) => m.slice(1).split('+')[0]))];
    if (!tiles.includes(this.tile)) this.tile = null;
    const advances = this.tile
      ? removals.filter((m) => m.startsWith(`x${this.tile}+`)).map((m) => Number(m.split('+')[1]))
      : [];
    return {
      pass, placing: placements.length > 0, removing: removals.length > 0,
      sizes, orients, size: this.size, orient: this.orient, tile: this.tile, advances,
    };
  }

  marks(legal) {
    const { placements, removals } = IsaacPicker.split(legal);
    if (placements.length) {
      this.settle(placements);
      const prefix = `${this.size}${this.orient}`;
      const anchors = placements.filter((m) => m.startsWith(prefix)).map((m) => m.slice(2));
      const cells = anchors.map((a) => this.firstCell(a));
      return { legal: cells, selected: [], dots: cells };
    }
    if (this.tile) return { legal: [], selected: tileCells(this.tile), dots: [] };
    const tiles = [...new Set(removals.map((m) => m.slice(1).split('+')[0]))];
    return { legal: tiles.flatMap(tileCells), selected: [], dots: [] };
  }

  /** The placement a cell would make (for the hover preview), if legal. */
  preview(cell, legal) {
    const mv = this.placementAt(cell);
    return mv && legal.includes(mv) ? tileCells(mv) : [];
  }

  click(cell, legal) {
    const { pass, placements, removals } = IsaacPicker.split(legal);
    if (pass) return { message: 'You have no tile to place or remove: press Pass' };
    if (placements.length) {
      this.settle(placements);
      const mv = this.placementAt(cell);
      if (mv && legal.includes(mv)) return { play: mv };
      return { message: `A ${this.size}${this.orient} tile cannot have its lowest cell at ${cell}` };
    }
    const tile = [...new Set(removals.map((m) => m.slice(1).split('+')[0]))]
      .find((t) => tileCells(t).includes(cell));
    if (tile) { this.tile = tile; return {}; }
    this.tile = null;
    return { message: `${cell}: none of your removable tiles lies here` };
  }

  advance(k, legal) {
    const mv = `x${this.tile}+${k}`;
    if (!legal.includes(mv)) return { message: `${mv} is not a legal move` };
    this.tile = null;
    return { play: mv };
  }
}
