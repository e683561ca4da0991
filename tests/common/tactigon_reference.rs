//! An independent, deliberately naive reference implementation of the Tactigon rules, written
//! straight from `docs/rules/tactigon.md` (§1 board, §3 movement M1–M8, §4 combat, §5 end of game,
//! §6.1 advanced rules A1/A2) and sharing no code with the engine.
//!
//! Representation: a `7 × 21` grid indexed by `(row, doubled column)` exactly as in §1.1, with
//! `None` both for empty cells and for the holes between cells; which `(r, c)` are cells is
//! decided from the row table of §1.1 alone. Neighbours are the six steps of §1.2, movement is
//! the breadth-first search of M7 written out with a distance table and a queue, combat is the
//! §4 chart written as text, and the end of the game is the §5.4 procedure and position status.
//! Nothing is cached; slow on purpose, so that it is easy to check against the text.
//!
//! The reference's notation (TFN reading and writing, §9) is in `tactigon_reference_fen.rs`.

use std::collections::VecDeque;

/// Red (moves first) and Blue.
pub const RED: usize = 0;
/// See [`RED`].
pub const BLUE: usize = 1;

/// Piece kinds.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum Kind {
    Circle,
    Triangle,
    Square,
    Pentagon,
}

/// The kinds in the order of the §4 chart.
pub const KINDS: [Kind; 4] = [Kind::Circle, Kind::Triangle, Kind::Square, Kind::Pentagon];

impl Kind {
    /// Row / column of the §4 chart.
    pub fn index(self) -> usize {
        match self {
            Kind::Circle => 0,
            Kind::Triangle => 1,
            Kind::Square => 2,
            Kind::Pentagon => 3,
        }
    }

    /// M2: circle 1, triangle 3, square 4, pentagon 5 steps.
    pub fn range(self) -> u32 {
        match self {
            Kind::Circle => 1,
            Kind::Triangle => 3,
            Kind::Square => 4,
            Kind::Pentagon => 5,
        }
    }

    /// §2: 6 circles, 3 triangles, 3 squares, 1 pentagon per side.
    pub fn start_count(self) -> usize {
        match self {
            Kind::Circle => 6,
            Kind::Triangle | Kind::Square => 3,
            Kind::Pentagon => 1,
        }
    }
}

/// The §4 chart, attacker rows and defender columns in the order C T S P:
/// `D` the defender is removed and the attacker takes its cell, `B` both are removed,
/// `-` the attack is not allowed.
pub const CHART: [&str; 4] = ["DDDD", "BDDD", "-BDD", "---D"];

/// The chart entry for an attack.
pub fn combat(attacker: Kind, defender: Kind) -> char {
    CHART[attacker.index()].as_bytes()[defender.index()] as char
}

/// A piece: its owner and kind.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub struct Piece {
    pub side: usize,
    pub kind: Kind,
}

/// A cell `(row, doubled column)`.
pub type Cell = (usize, usize);

/// §1.1: the first and last doubled column of each row; the cells of a row are every second
/// column in between.
const ROW_SPAN: [(usize, usize); 7] = [
    (9, 11),
    (2, 18),
    (1, 19),
    (0, 20),
    (1, 19),
    (2, 18),
    (9, 11),
];

/// §1.2: the six neighbour steps `(Δr, Δc)`: E, W, NE, NW, SE, SW.
pub const STEPS: [(i32, i32); 6] = [(0, 2), (0, -2), (-1, 1), (-1, -1), (1, 1), (1, -1)];

/// §1.3: the gold tiles `b10` and `f10`.
pub const GOLD: [Cell; 2] = [(1, 10), (5, 10)];

/// Whether `(r, c)` is one of the 53 cells.
pub fn is_cell(r: i32, c: i32) -> bool {
    if !(0..7).contains(&r) || c < 0 {
        return false;
    }
    let (first, last) = ROW_SPAN[r as usize];
    let c = c as usize;
    c >= first && c <= last && (c - first).is_multiple_of(2)
}

/// All 53 cells, row by row, left to right.
pub fn all_cells() -> Vec<Cell> {
    let mut out = Vec::new();
    for (r, &(first, last)) in ROW_SPAN.iter().enumerate() {
        let mut c = first;
        while c <= last {
            out.push((r, c));
            c += 2;
        }
    }
    out
}

/// The cells next to `(r, c)`.
pub fn neighbours(cell: Cell) -> Vec<Cell> {
    let (r, c) = (cell.0 as i32, cell.1 as i32);
    STEPS
        .iter()
        .filter(|&&(dr, dc)| is_cell(r + dr, c + dc))
        .map(|&(dr, dc)| ((r + dr) as usize, (c + dc) as usize))
        .collect()
}

/// §1.4: row letter and doubled column, e.g. `d4`.
pub fn name(cell: Cell) -> String {
    format!("{}{}", (b'a' + cell.0 as u8) as char, cell.1)
}

/// The cell a name stands for: `^[a-g](0|[1-9]|1[0-9]|20)$` and one of the 53 (§1.4).
pub fn parse_name(s: &str) -> Option<Cell> {
    let bytes = s.as_bytes();
    let (&row, digits) = bytes.split_first()?;
    if !(b'a'..=b'g').contains(&row) || digits.is_empty() || digits.len() > 2 {
        return None;
    }
    if !digits.iter().all(u8::is_ascii_digit) || (digits.len() == 2 && digits[0] == b'0') {
        return None;
    }
    let c: i32 = std::str::from_utf8(digits).ok()?.parse().ok()?;
    let r = (row - b'a') as i32;
    is_cell(r, c).then_some((r as usize, c as usize))
}

/// The rule switches of §5.5 and §6.1, in the reference's own words.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct RefRules {
    /// Draw at this ply count; 0 = no cap.
    pub ply_cap: u32,
    /// No legal move is a draw instead of a loss.
    pub no_move_draw: bool,
    /// The 3rd occurrence of (board, side to move) is a draw.
    pub repetition: bool,
    /// A1.
    pub jumping_squares: bool,
    /// A2.
    pub gold_bonus: bool,
}

impl Default for RefRules {
    fn default() -> Self {
        RefRules {
            ply_cap: 300,
            no_move_draw: false,
            repetition: false,
            jumping_squares: false,
            gold_bonus: false,
        }
    }
}

/// How a finished game ended.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum RefResult {
    /// The side (RED or BLUE) won, and why.
    Win(usize, &'static str),
    /// A draw, and why.
    Draw(&'static str),
}

/// The board: `grid[r][c]`.
pub type Grid = [[Option<Piece>; 21]; 7];

/// A move from one cell to another.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub struct RefMove {
    pub from: Cell,
    pub to: Cell,
}

impl RefMove {
    /// §9.2: `<from>-<to>`.
    pub fn name(&self) -> String {
        format!("{}-{}", name(self.from), name(self.to))
    }
}

/// A position with its rules and the positions seen so far in the game (for repetition).
#[derive(Clone, Debug)]
pub struct RefPos {
    pub grid: Grid,
    pub side: usize,
    pub ply: u32,
    pub rules: RefRules,
    /// Every (board, side to move) of the game so far, the current one included (kept only
    /// under the repetition rule).
    pub seen: Vec<(Grid, usize)>,
}

impl RefPos {
    /// An empty board.
    pub fn empty(side: usize, ply: u32, rules: RefRules) -> Self {
        let grid = [[None; 21]; 7];
        RefPos {
            grid,
            side,
            ply,
            rules,
            seen: vec![(grid, side)],
        }
    }

    /// The piece on a cell.
    pub fn at(&self, cell: Cell) -> Option<Piece> {
        self.grid[cell.0][cell.1]
    }

    /// Puts (or removes) a piece; restarts the repetition record.
    pub fn set(&mut self, cell: Cell, piece: Option<Piece>) {
        assert!(is_cell(cell.0 as i32, cell.1 as i32), "{cell:?}");
        self.grid[cell.0][cell.1] = piece;
        self.seen = vec![(self.grid, self.side)];
    }

    /// How many pieces of `kind` `side` has.
    pub fn count(&self, side: usize, kind: Kind) -> usize {
        all_cells()
            .into_iter()
            .filter(|&c| self.at(c) == Some(Piece { side, kind }))
            .count()
    }

    /// M7 (with A1 and A2): the cells the piece on `from` may move to, row by row.
    pub fn destinations(&self, from: Cell) -> Vec<Cell> {
        let piece = self.at(from).expect("a piece on the origin");
        let mut range = piece.kind.range();
        if self.rules.gold_bonus && GOLD.contains(&from) {
            range += 1; // A2: starts the move on a gold tile
        }
        let mut dist: [[Option<u32>; 21]; 7] = [[None; 21]; 7];
        dist[from.0][from.1] = Some(0);
        let mut queue = VecDeque::from([from]);
        let mut out: Vec<Cell> = Vec::new();
        while let Some(x) = queue.pop_front() {
            let dx = dist[x.0][x.1].unwrap();
            if dx == range {
                continue;
            }
            for y in neighbours(x) {
                let unvisited = dist[y.0][y.1].is_none();
                match self.at(y) {
                    None => {
                        if unvisited {
                            dist[y.0][y.1] = Some(dx + 1);
                            queue.push_back(y);
                            out.push(y);
                        }
                    }
                    Some(other) => {
                        if other.side != piece.side && combat(piece.kind, other.kind) != '-' {
                            out.push(y);
                        }
                        // A1: squares pass through anything but an enemy square.
                        let enemy_square = other.side != piece.side && other.kind == Kind::Square;
                        if self.rules.jumping_squares
                            && piece.kind == Kind::Square
                            && !enemy_square
                            && unvisited
                        {
                            dist[y.0][y.1] = Some(dx + 1);
                            queue.push_back(y);
                        }
                    }
                }
            }
        }
        out.sort();
        out.dedup();
        out
    }

    /// Every move of the side to move, ignoring whether the game is over: origins row by row,
    /// then destinations row by row.
    pub fn moves_ignoring_status(&self) -> Vec<RefMove> {
        let mut out = Vec::new();
        for from in all_cells() {
            if self.at(from).is_some_and(|p| p.side == self.side) {
                for to in self.destinations(from) {
                    out.push(RefMove { from, to });
                }
            }
        }
        out
    }

    /// The legal moves: none once the game is over.
    pub fn legal_moves(&self) -> Vec<RefMove> {
        let moves = self.moves_ignoring_status();
        if self.status_given(&moves).is_some() {
            Vec::new()
        } else {
            moves
        }
    }

    /// The move named `text`, if legal.
    pub fn find(&self, text: &str) -> Option<RefMove> {
        self.legal_moves().into_iter().find(|m| m.name() == text)
    }

    fn has_pentagon(&self, side: usize) -> bool {
        self.count(side, Kind::Pentagon) > 0
    }

    fn holds_both_gold(&self, side: usize) -> bool {
        GOLD.iter()
            .all(|&g| self.at(g).is_some_and(|p| p.side == side))
    }

    /// §5.4: the status of the position, then the options of steps 6–8.
    pub fn status(&self) -> Option<RefResult> {
        self.status_given(&self.moves_ignoring_status())
    }

    /// [`RefPos::status`], given the side to move's moves (ignoring status).
    pub fn status_given(&self, moves: &[RefMove]) -> Option<RefResult> {
        let s = self.side;
        let o = 1 - s;
        match (self.has_pentagon(s), self.has_pentagon(o)) {
            (false, false) => panic!("invalid position: no pentagon at all"),
            (false, true) => return Some(RefResult::Win(o, "pentagon")),
            (true, false) => return Some(RefResult::Win(s, "pentagon")),
            (true, true) => {}
        }
        if self.holds_both_gold(s) {
            return Some(RefResult::Win(s, "gold"));
        }
        if moves.is_empty() {
            return Some(if self.rules.no_move_draw {
                RefResult::Draw("no moves")
            } else {
                RefResult::Win(o, "no moves")
            });
        }
        if self.rules.repetition {
            let now = (self.grid, self.side);
            if self.seen.iter().filter(|&&p| p == now).count() >= 3 {
                return Some(RefResult::Draw("repetition"));
            }
        }
        if self.rules.ply_cap > 0 && self.ply >= self.rules.ply_cap {
            return Some(RefResult::Draw("ply cap"));
        }
        None
    }

    /// §5.4 steps 2–3: moves the piece and resolves combat by the chart. The move must be
    /// legal (only the piece and its destination are checked here, for speed).
    pub fn play(&mut self, m: RefMove) {
        let attacker = self.at(m.from).expect("a piece on the origin");
        assert!(
            attacker.side == self.side && self.destinations(m.from).contains(&m.to),
            "reference: {} is not a move",
            m.name()
        );
        self.apply(m);
    }

    /// [`RefPos::play`] without the check, for a move taken from [`RefPos::legal_moves`].
    pub fn apply(&mut self, m: RefMove) {
        let attacker = self.at(m.from).expect("a piece on the origin");
        self.grid[m.from.0][m.from.1] = None;
        match self.at(m.to) {
            None => self.grid[m.to.0][m.to.1] = Some(attacker),
            Some(defender) => match combat(attacker.kind, defender.kind) {
                'D' => self.grid[m.to.0][m.to.1] = Some(attacker),
                'B' => self.grid[m.to.0][m.to.1] = None,
                _ => unreachable!("forbidden attack"),
            },
        }
        self.ply += 1;
        self.side = 1 - self.side;
        if self.rules.repetition {
            self.seen.push((self.grid, self.side));
        }
    }

    /// Leaves of the legal-move tree `depth` plies deep (a finished game has no moves).
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
