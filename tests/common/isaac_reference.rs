//! An independent, deliberately naive reference implementation of the Isaac rules, written
//! straight from `docs/rules/isaac.md` §1–§4, §6 (the options) and §9 (notation), sharing no code
//! with the engine.
//!
//! Representation: a plain list of tiles (owner, size, orientation, anchor) in any order, hands
//! as counts per size, scores, floors and pass flags as plain integers and booleans. Cells are
//! `(row, column)` pairs in Dark's frame, walked one step at a time. Nothing is cached: which
//! cells are free is found by scanning every tile, the points a removal earns by scanning every
//! tile's cells against the line. Slow on purpose, so that it is easy to check against the text.
//!
//! The reference's notation (FEN reading with every check of §9.3, and canonical printing) is
//! in `isaac_reference_fen.rs`.

/// Tile sizes, smallest first (docs/rules/isaac.md §1).
pub const SIZES: [usize; 5] = [3, 4, 5, 6, 7];
/// Tiles per size at the start (docs/rules/isaac.md §1).
pub const START: [u32; 5] = [5, 4, 3, 2, 1];
/// The value printed on a tile of each size (docs/rules/isaac.md §1: a 7 is worth 6).
pub const VALUE: [u32; 5] = [1, 2, 3, 4, 6];

/// Dark (index 0) moves first; Light is index 1.
pub const DARK: usize = 0;
/// See [`DARK`].
pub const LIGHT: usize = 1;

/// The three phases (docs/rules/isaac.md §2–§4, §9.1).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum RefPhase {
    /// Tiles are placed.
    Placement,
    /// Tiles are removed for points.
    Scoring,
    /// The game is over.
    Ended,
}

/// The rule switches of §6, in the reference's own words.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct RefRules {
    /// Tie-break step 3 (fewer tiles) is skipped (§4.7, `Isaac_LineTiebreak=cells-only`).
    pub cells_only: bool,
    /// Dark starts the scoring phase instead of the first passer (§3).
    pub dark_starts_scoring: bool,
    /// A counter may not end on the other counter (§4.4); off in the seed.
    pub collision: bool,
    /// One player out and the other strictly ahead ends the game (§5 E16, the seed).
    pub early_finish: bool,
}

impl Default for RefRules {
    fn default() -> Self {
        RefRules {
            cells_only: false,
            dark_starts_scoring: false,
            collision: true,
            early_finish: false,
        }
    }
}

/// A tile on the board.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct RefTile {
    /// [`DARK`] or [`LIGHT`].
    pub owner: usize,
    /// 3..=7.
    pub size: usize,
    /// Along a column.
    pub vertical: bool,
    /// The lowest covered Dark-frame cell, `10·row + column`.
    pub anchor: usize,
}

impl RefTile {
    /// The covered cells as (row, column), or `None` if the tile leaves the board (§2.3).
    pub fn cells(&self) -> Option<Vec<(usize, usize)>> {
        let (r, c) = (self.anchor / 10, self.anchor % 10);
        let mut out = Vec::new();
        for i in 0..self.size {
            let (rr, cc) = if self.vertical {
                (r + i, c)
            } else {
                (r, c + i)
            };
            if rr > 9 || cc > 9 {
                return None;
            }
            out.push((rr, cc));
        }
        Some(out)
    }

    /// `3h07`-style text without the owner.
    pub fn shape(&self) -> String {
        format!(
            "{}{}{:02}",
            self.size,
            if self.vertical { 'v' } else { 'h' },
            self.anchor
        )
    }
}

/// A reference move.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum RefMove {
    /// Put a tile of the side to move on the board.
    Place {
        /// 3..=7.
        size: usize,
        /// Along a column.
        vertical: bool,
        /// Lowest covered cell.
        anchor: usize,
    },
    /// Take the side to move's tile at `anchor` off and advance `k` steps.
    Remove {
        /// 3..=7.
        size: usize,
        /// Along a column.
        vertical: bool,
        /// The tile's anchor.
        anchor: usize,
        /// Steps, 0..=P.
        k: u32,
    },
    /// The forced pass.
    Pass,
}

impl RefMove {
    /// Canonical text (§9.2).
    pub fn name(&self) -> String {
        let o = |v: bool| if v { 'v' } else { 'h' };
        match *self {
            RefMove::Place {
                size,
                vertical,
                anchor,
            } => format!("{size}{}{anchor:02}", o(vertical)),
            RefMove::Remove {
                size,
                vertical,
                anchor,
                k,
            } => format!("x{size}{}{anchor:02}+{k}", o(vertical)),
            RefMove::Pass => "pass".to_string(),
        }
    }
}

/// A position of the reference implementation.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct RefIsaac {
    /// Tiles on the board, in no particular order.
    pub tiles: Vec<RefTile>,
    /// Unplaced tiles per player and size index.
    pub hands: [[u32; 5]; 2],
    /// The player to move (meaningless once ended).
    pub to_move: usize,
    /// The phase.
    pub phase: RefPhase,
    /// Placement: who passed; scoring: who is out.
    pub passed: [bool; 2],
    /// Scores in each owner's frame.
    pub scores: [u32; 2],
    /// Largest size removed, or 0.
    pub floors: [u32; 2],
    /// The rule switches.
    pub rules: RefRules,
}

fn size_index(size: usize) -> usize {
    size - 3
}

impl RefIsaac {
    /// The empty board, full hands, Dark to place (§2.1).
    pub fn new(rules: RefRules) -> RefIsaac {
        RefIsaac {
            tiles: Vec::new(),
            hands: [START; 2],
            to_move: DARK,
            phase: RefPhase::Placement,
            passed: [false; 2],
            scores: [0; 2],
            floors: [0; 2],
            rules,
        }
    }

    /// The board as a plain 10×10 array: `grid[row][column]` is the index of the tile that
    /// covers the cell, if any.
    pub fn grid(&self) -> [[Option<usize>; 10]; 10] {
        let mut grid = [[None; 10]; 10];
        for (i, t) in self.tiles.iter().enumerate() {
            for (r, c) in t.cells().unwrap() {
                grid[r][c] = Some(i);
            }
        }
        grid
    }

    /// Where `player`'s counter stands (row, column), in the scoring phase (§1): Dark's score
    /// `s` is Dark-frame cell `s`, Light's is cell `99 − s`; off the board at 100 or more.
    pub fn counter(&self, player: usize) -> Option<(usize, usize)> {
        if self.phase == RefPhase::Placement || self.scores[player] >= 100 {
            return None;
        }
        let cell = if player == DARK {
            self.scores[player] as usize
        } else {
            99 - self.scores[player] as usize
        };
        Some((cell / 10, cell % 10))
    }

    /// Indices of the tiles sorted by anchor.
    pub fn by_anchor(&self) -> Vec<usize> {
        let mut idx: Vec<usize> = (0..self.tiles.len()).collect();
        idx.sort_by_key(|&i| self.tiles[i].anchor);
        idx
    }

    /// Points earned by removing tile `i` (§4.3): `N · v · 2^c`, N and c counted on the line
    /// (row if horizontal, column if vertical) with the tile already gone.
    pub fn earned(&self, i: usize) -> u32 {
        let t = self.tiles[i];
        let (r, c) = (t.anchor / 10, t.anchor % 10);
        let on_line = |(rr, cc): (usize, usize)| if t.vertical { cc == c } else { rr == r };
        let mut n = 0;
        for (j, u) in self.tiles.iter().enumerate() {
            if j != i && u.cells().unwrap().into_iter().any(on_line) {
                n += 1;
            }
        }
        let mut mult = 1;
        for p in [DARK, LIGHT] {
            if self.counter(p).is_some_and(on_line) {
                mult *= 2;
            }
        }
        n * VALUE[size_index(t.size)] * mult
    }

    /// Whether the side to move may remove tile `i` (§4.1).
    pub fn removable(&self, i: usize) -> bool {
        let t = self.tiles[i];
        let me = self.to_move;
        if t.owner != me || (t.size as u32) < self.floors[me] {
            return false;
        }
        let cells = t.cells().unwrap();
        [DARK, LIGHT]
            .iter()
            .all(|&p| self.counter(p).is_none_or(|q| !cells.contains(&q)))
    }

    /// Every legal move: placements by size, h before v, anchor; removals by anchor, then k;
    /// `pass` alone when nothing else is possible; nothing once the game is over.
    pub fn legal_moves(&self) -> Vec<RefMove> {
        let mut out = Vec::new();
        let me = self.to_move;
        match self.phase {
            RefPhase::Ended => return out,
            RefPhase::Placement => {
                let grid = self.grid();
                for size in SIZES {
                    if self.hands[me][size_index(size)] == 0 {
                        continue;
                    }
                    for vertical in [false, true] {
                        for anchor in 0..100 {
                            let t = RefTile {
                                owner: me,
                                size,
                                vertical,
                                anchor,
                            };
                            let Some(cells) = t.cells() else { continue };
                            if cells.iter().all(|&(r, c)| grid[r][c].is_none()) {
                                out.push(RefMove::Place {
                                    size,
                                    vertical,
                                    anchor,
                                });
                            }
                        }
                    }
                }
            }
            RefPhase::Scoring => {
                let them = 1 - me;
                for i in self.by_anchor() {
                    if !self.removable(i) {
                        continue;
                    }
                    let t = self.tiles[i];
                    for k in 0..=self.earned(i) {
                        let new = self.scores[me] + k;
                        // §4.4: the new cell may not hold the other counter; at 100 the counter
                        // leaves the board and nothing is checked.
                        if self.rules.collision && new < 100 && new + self.scores[them] == 99 {
                            continue;
                        }
                        out.push(RefMove::Remove {
                            size: t.size,
                            vertical: t.vertical,
                            anchor: t.anchor,
                            k,
                        });
                    }
                }
            }
        }
        if out.is_empty() {
            out.push(RefMove::Pass);
        }
        out
    }

    /// The legal move with this text, if any.
    pub fn find(&self, name: &str) -> Option<RefMove> {
        self.legal_moves().into_iter().find(|m| m.name() == name)
    }

    /// Plays a legal move (§2.5, §2.6, §3, §4.4–§4.6, §6's early finish).
    pub fn play(&mut self, m: RefMove) {
        let me = self.to_move;
        let them = 1 - me;
        match (self.phase, m) {
            (
                RefPhase::Placement,
                RefMove::Place {
                    size,
                    vertical,
                    anchor,
                },
            ) => {
                self.hands[me][size_index(size)] -= 1;
                self.tiles.push(RefTile {
                    owner: me,
                    size,
                    vertical,
                    anchor,
                });
                if !self.passed[them] {
                    self.to_move = them;
                }
            }
            (RefPhase::Placement, RefMove::Pass) => {
                if self.passed[them] {
                    // Second pass: scoring starts with the first passer (or Dark).
                    self.phase = RefPhase::Scoring;
                    self.passed = [false, false];
                    self.scores = [0, 0];
                    self.floors = [0, 0];
                    self.to_move = if self.rules.dark_starts_scoring {
                        DARK
                    } else {
                        them
                    };
                } else {
                    self.passed[me] = true;
                    self.to_move = them;
                }
            }
            (RefPhase::Scoring, RefMove::Remove { anchor, k, .. }) => {
                let i = self
                    .tiles
                    .iter()
                    .position(|t| t.anchor == anchor)
                    .expect("no tile at the anchor");
                let t = self.tiles.remove(i);
                self.floors[me] = self.floors[me].max(t.size as u32);
                self.scores[me] += k;
                if self.scores[me] >= 100 {
                    self.phase = RefPhase::Ended;
                    return;
                }
                if !self.passed[them] {
                    self.to_move = them;
                }
                self.early_finish();
            }
            (RefPhase::Scoring, RefMove::Pass) => {
                self.passed[me] = true;
                if self.passed[them] {
                    self.phase = RefPhase::Ended;
                    return;
                }
                self.to_move = them;
                self.early_finish();
            }
            (phase, m) => panic!("reference: {m:?} cannot be played in phase {phase:?}"),
        }
    }

    fn early_finish(&mut self) {
        if !self.rules.early_finish {
            return;
        }
        for p in [DARK, LIGHT] {
            let o = 1 - p;
            if self.passed[o] && !self.passed[p] && self.scores[p] > self.scores[o] {
                self.phase = RefPhase::Ended;
            }
        }
    }

    /// Total cells of `player`'s unplaced tiles.
    pub fn unplaced_cells(&self, player: usize) -> u32 {
        (0..5)
            .map(|i| SIZES[i] as u32 * self.hands[player][i])
            .sum()
    }

    /// The winner by §4.7 (scores, line cells, fewer tiles unless cells-only, then Dark).
    pub fn winner(&self) -> usize {
        let [d, l] = self.scores;
        if d != l {
            return if d > l { DARK } else { LIGHT };
        }
        let (dc, lc) = (self.unplaced_cells(DARK), self.unplaced_cells(LIGHT));
        if dc != lc {
            return if dc > lc { DARK } else { LIGHT };
        }
        if !self.rules.cells_only {
            let dt: u32 = self.hands[DARK].iter().sum();
            let lt: u32 = self.hands[LIGHT].iter().sum();
            if dt != lt {
                return if dt < lt { DARK } else { LIGHT };
            }
        }
        DARK
    }

    /// Counts the leaves of the legal-move tree, as `Game::perft` does (finished positions
    /// are leaves only at depth 0).
    pub fn perft(&self, depth: u32) -> u64 {
        if depth == 0 {
            return 1;
        }
        let moves = self.legal_moves();
        if depth == 1 {
            return moves.len() as u64;
        }
        moves
            .into_iter()
            .map(|m| {
                let mut child = self.clone();
                child.play(m);
                child.perft(depth - 1)
            })
            .sum()
    }
}
