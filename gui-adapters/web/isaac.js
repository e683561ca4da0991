// Isaac's input: which legal move a pointer or a finger means. A placement is a size and an
// orientation (buttons, the key r turns the tile) and any cell the tile should cover: the tile
// is centred on that cell if it fits there, else the nearest placement that fits and still
// covers it. With a mouse the tile under the pointer is shown and a click places it; on a
// touch screen a tap shows the tile at the cell tapped, a second tap on that same cell places
// it, and a tap on any other cell (one of the tile's own included) moves the tile there, so
// that it can be nudged by one cell.
// A removal is a tile, then an advance chosen on a stepper among the legal ones. Only moves of
// the legal list are ever proposed. Isaac's moves are the `tiles` notation (notations.js). No
// DOM here (isaac-ui.js draws); moves.test.mjs tests it.

const SIZES = [3, 4, 5, 6, 7];
const PLACEMENT = /^([3-7])([hv])(\d\d)$/;

/** The cells of a tile `<S><h|v><AA>`, e.g. "3h07" → ["07","08","09"]. */
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

/** The cells a placement (`7h00`) or a removal (`x4h23+24`) touches, for highlighting. */
export function tileMoveCells(mv) {
  const m = /^x?([3-7][hv]\d\d)/.exec(mv);
  return m ? tileCells(m[1]) : [];
}

/** Whether `mv` takes a tile away (a removal, `x…`), rather than placing one. */
export const isRemoval = (mv) => mv.startsWith('x');

/** The tile code of a removal `x<S><h|v><AA>+<k>`. */
const removedTile = (mv) => mv.slice(1).split('+')[0];

export class IsaacPicker {
  constructor() {
    this.size = null;
    this.orient = null;
    this.tile = null;
    this.advance = null;
    this.flipped = false;
    /** The cell under the mouse, whose placement is shown. */
    this.hovered = null;
    /** The cell last tapped on a touch screen: its tile is shown, a tap on it again places it. */
    this.tapped = null;
    this.hint = null;
  }

  /** Forgets what was chosen in the position before (a move was made). */
  reset() {
    this.tile = null;
    this.advance = null;
    this.hovered = null;
    this.tapped = null;
  }

  /** The legal moves by kind: the forced pass, the placements, the removals. */
  static split(legal) {
    return {
      pass: legal.length === 1 && legal[0] === 'pass',
      placements: legal.filter((m) => PLACEMENT.test(m)),
      removals: legal.filter((m) => m.startsWith('x')),
    };
  }

  /** Keeps size and orientation on choices that have legal placements. */
  settle(placements) {
    const sizes = SIZES.filter((s) => placements.some((m) => m.startsWith(String(s))));
    if (!sizes.includes(this.size)) this.size = sizes.length ? sizes[sizes.length - 1] : null;
    const orients = ['h', 'v'].filter((o) => placements.some((m) => m.startsWith(`${this.size}${o}`)));
    if (!orients.includes(this.orient)) this.orient = orients[0] ?? null;
    return { sizes, orients };
  }

  /** The legal advances of the chosen tile, smallest first. */
  advances(legal) {
    if (!this.tile) return [];
    return legal.filter((m) => m.startsWith(`x${this.tile}+`))
      .map((m) => Number(m.split('+')[1])).sort((a, b) => a - b);
  }

  /** What the control rows show. */
  controls(legal) {
    const { pass, placements, removals } = IsaacPicker.split(legal);
    const { sizes, orients } = this.settle(placements);
    const tiles = [...new Set(removals.map(removedTile))];
    if (!tiles.includes(this.tile)) this.tile = null;
    const advances = this.advances(legal);
    if (!advances.includes(this.advance)) this.advance = advances.length ? advances[advances.length - 1] : null;
    return {
      pass, placing: placements.length > 0, removing: removals.length > 0,
      sizes, orients, size: this.size, orient: this.orient, tile: this.tile, advances, advance: this.advance,
    };
  }

  /**
   * The legal placement of the chosen size and orientation that covers `cell`: the one centred
   * on it, else the nearest to centred; of two equally near (an even tile), the one reaching
   * further to the right (or up) as the board is seen. Null if none covers it.
   */
  placementAt(cell, legal) {
    const { placements } = IsaacPicker.split(legal);
    this.settle(placements);
    if (!this.size || !this.orient) return null;
    const prefix = `${this.size}${this.orient}`;
    const middle = (this.size - 1) / 2;
    let best = null;
    for (const mv of placements) {
      if (!mv.startsWith(prefix)) continue;
      const i = tileCells(mv).indexOf(cell);
      if (i < 0) continue;
      const key = [Math.abs(i - middle), this.flipped ? -i : i];
      if (!best || key[0] < best.key[0] || (key[0] === best.key[0] && key[1] < best.key[1])) best = { mv, key };
    }
    return best?.mv ?? null;
  }

  /** The placement shown on the board: the one at the cell tapped, else the one under the mouse. */
  shown(legal) {
    const cell = this.tapped ?? this.hovered;
    return cell ? this.placementAt(cell, legal) : null;
  }

  /** The marks on the board: cells a click means something on, the selection, the preview. */
  marks(legal) {
    const { placements, removals } = IsaacPicker.split(legal);
    if (placements.length) {
      this.settle(placements);
      const prefix = `${this.size}${this.orient}`;
      const covered = new Set(placements.filter((m) => m.startsWith(prefix)).flatMap(tileCells));
      const shown = this.shown(legal);
      // The cell tapped carries a dot: a tap on it places the tile shown.
      const dots = shown && this.tapped ? [this.tapped] : [];
      return { legal: [...covered], selected: [], dots, preview: shown ? tileCells(shown) : [] };
    }
    if (this.tile) return { legal: [], selected: tileCells(this.tile), dots: [], preview: [] };
    const tiles = [...new Set(removals.map(removedTile))];
    return { legal: tiles.flatMap(tileCells), selected: [], dots: [], preview: [] };
  }

  /** The mouse is over `cell` (null: off the board); true if the preview changes. */
  hover(cell, legal) {
    const before = this.shown(legal);
    this.hovered = cell;
    this.tapped = null;
    return this.shown(legal) !== before;
  }

  /**
   * A click or tap on `cell`: a mouse click places the tile shown; a tap shows the tile at the
   * cell tapped, and a second tap on that same cell places it (a tap on any other cell, one of
   * the tile's own too, moves the tile there instead).
   */
  click(cell, legal, touch = false) {
    const { pass, placements, removals } = IsaacPicker.split(legal);
    if (pass) return { message: 'You have no tile to place or remove: press Pass' };
    if (placements.length) {
      const mv = this.placementAt(cell, legal);
      if (touch && mv && this.tapped === cell) {
        this.tapped = null;
        return { play: mv };
      }
      if (!mv) {
        this.tapped = null;
        return { message: `No ${this.size}${this.orient} tile fits over ${cell}: choose another size, or turn it (r)` };
      }
      if (!touch) return { play: mv };
      this.tapped = cell;
      return this.prompt(legal);
    }
    const tile = [...new Set(removals.map(removedTile))].find((t) => tileCells(t).includes(cell));
    if (tile) {
      if (tile !== this.tile) { this.tile = tile; this.advance = null; }
      return {};
    }
    this.tile = null;
    return { message: `${cell}: none of your removable tiles lies here` };
  }

  /**
   * What a tap has shown, as a message: the tile at the cell tapped and how to place it (or
   * that none of the chosen size and orientation covers it); nothing without a tap.
   */
  prompt(legal) {
    if (!this.tapped) return {};
    const mv = this.placementAt(this.tapped, legal);
    if (!mv) return { message: `No ${this.size}${this.orient} tile fits over ${this.tapped}: choose another size, or turn it (r)` };
    return { message: `Tap ${this.tapped} again to place ${mv} (a tap on another cell moves the tile)` };
  }

  /**
   * Turns the tile (h ↔ v) if the other way has legal placements; true if it turned. The tile
   * shown turns round the cell tapped or pointed at, which it still covers.
   */
  rotate(legal) {
    const { placements } = IsaacPicker.split(legal);
    const { orients } = this.settle(placements);
    const other = this.orient === 'h' ? 'v' : 'h';
    if (!orients.includes(other)) return false;
    this.orient = other;
    return true;
  }

  /** Takes up a new hint: a placement's size and orientation, a removal's tile and advance. */
  followHint(hint, legal) {
    if (!hint || hint === this.hint) return false;
    this.hint = hint;
    const placed = PLACEMENT.exec(hint);
    if (placed && legal.includes(hint)) {
      this.size = Number(placed[1]);
      this.orient = placed[2];
      this.tapped = null;
      return true;
    }
    if (hint.startsWith('x') && legal.includes(hint)) {
      this.tile = removedTile(hint);
      this.advance = Number(hint.split('+')[1]);
      return true;
    }
    return false;
  }

  /** Moves the advance `steps` legal advances up (or down), or to `k` (snapped to a legal one). */
  step(legal, steps, k = null) {
    const all = this.advances(legal);
    if (!all.length) return;
    if (k !== null) {
      // The nearest legal advance, the larger of two as near.
      const near = all.reduce((b, a) => (Math.abs(a - k) <= Math.abs(b - k) ? a : b));
      this.advance = near;
      return;
    }
    const at = Math.max(0, all.indexOf(this.advance));
    this.advance = all[Math.min(all.length - 1, Math.max(0, at + steps))];
  }

  /** The removal chosen: the tile and its advance, if legal. */
  removal(legal) {
    const mv = `x${this.tile}+${this.advance}`;
    if (!this.tile || !legal.includes(mv)) return { message: `${mv} is not a legal move` };
    this.tile = null;
    this.advance = null;
    return { play: mv };
  }
}
