//! An independent, deliberately naive reference implementation of the Sight rules, written
//! straight from `docs/rules/sight.md` §1–§4 and §8 and sharing no code with the engine.
//!
//! Representation: a plain 2-D array `cells[y][x]` of `Option<(colour, height)>`, coordinates
//! stepped one point at a time. Nothing is cached and nothing is clever: sight is found by
//! walking each drawn line until the first occupied point, legality by scanning the board.
//! It is slow on purpose, so that it is easy to check against the text of the rules.

use std::fmt::Write as _;

/// A colour of pieces (docs/rules/sight.md §2). White moves first.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Colour {
    /// The first player.
    White,
    /// The second player.
    Black,
}

impl Colour {
    /// The other colour.
    pub fn other(self) -> Colour {
        match self {
            Colour::White => Colour::Black,
            Colour::Black => Colour::White,
        }
    }

    /// The SPN letter of the colour (`w` or `b`).
    pub fn letter(self) -> char {
        match self {
            Colour::White => 'w',
            Colour::Black => 'b',
        }
    }
}

/// A point of the board as 0-based file `x` and rank `y` (`a1` is `(0, 0)`).
pub type Point = (usize, usize);

/// A reference move: a placement on a point, or a step of a top piece between two points.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum RefMove {
    /// Put a new piece on an empty point (docs/rules/sight.md §3.2).
    Place(Point),
    /// Move the top piece of a stack to an adjacent empty point (docs/rules/sight.md §3.3).
    Step(Point, Point),
}

/// A Sight position of the reference implementation.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct RefSight {
    /// Board side N.
    pub n: usize,
    /// `cells[y][x]`: the pile on point (x, y), if any, as (owner, height ≥ 1).
    pub cells: Vec<Vec<Option<(Colour, u32)>>>,
    /// The colour to move.
    pub to_move: Colour,
    /// The `strict_tallest` variant (docs/rules/sight.md §3.3, §6.1): no fallback to lower stacks.
    pub strict: bool,
}

/// The four orthogonal unit steps: every point has lines along them (docs/rules/sight.md §1.2).
const ORTHOGONAL: [(i64, i64); 4] = [(1, 0), (-1, 0), (0, 1), (0, -1)];
/// The four diagonal unit steps: only diagonal points ((x + y) even) have lines along them.
const DIAGONAL: [(i64, i64); 4] = [(1, 1), (-1, -1), (1, -1), (-1, 1)];

impl RefSight {
    /// The empty N×N board with White to move (docs/rules/sight.md §2).
    pub fn new(n: usize, strict: bool) -> RefSight {
        RefSight {
            n,
            cells: vec![vec![None; n]; n],
            to_move: Colour::White,
            strict,
        }
    }

    /// Name of a point, e.g. `c3` (docs/rules/sight.md §8.2).
    pub fn square_name(&self, (x, y): Point) -> String {
        format!("{}{}", (b'a' + x as u8) as char, y + 1)
    }

    /// Canonical text of a move: `c3` or `b4-c4` (docs/rules/sight.md §8.2).
    pub fn move_name(&self, m: RefMove) -> String {
        match m {
            RefMove::Place(q) => self.square_name(q),
            RefMove::Step(p, q) => format!("{}-{}", self.square_name(p), self.square_name(q)),
        }
    }

    /// The directions of the drawn lines through a point: 4 orthogonal ones, plus 4 diagonal
    /// ones when the point is a diagonal point (docs/rules/sight.md §1.2).
    fn directions(&self, (x, y): Point) -> Vec<(i64, i64)> {
        let mut dirs = ORTHOGONAL.to_vec();
        if (x + y) % 2 == 0 {
            dirs.extend_from_slice(&DIAGONAL);
        }
        dirs
    }

    /// One step from `p` in direction `d`, if it stays on the board.
    fn step(&self, (x, y): Point, (dx, dy): (i64, i64)) -> Option<Point> {
        let nx = x as i64 + dx;
        let ny = y as i64 + dy;
        let n = self.n as i64;
        if nx < 0 || ny < 0 || nx >= n || ny >= n {
            None
        } else {
            Some((nx as usize, ny as usize))
        }
    }

    fn at(&self, (x, y): Point) -> Option<(Colour, u32)> {
        self.cells[y][x]
    }

    /// The points adjacent to `p` along a drawn line (docs/rules/sight.md §1.2).
    pub fn adjacent(&self, p: Point) -> Vec<Point> {
        self.directions(p)
            .into_iter()
            .filter_map(|d| self.step(p, d))
            .collect()
    }

    /// The occupied points in sight of `p`: in each line direction, the first occupied point
    /// (docs/rules/sight.md §1.3).
    pub fn in_sight(&self, p: Point) -> Vec<Point> {
        let mut seen = Vec::new();
        for d in self.directions(p) {
            let mut cur = p;
            while let Some(next) = self.step(cur, d) {
                if self.at(next).is_some() {
                    seen.push(next);
                    break;
                }
                cur = next;
            }
        }
        seen
    }

    /// Every point, in canonical order: by rank, then file (a1, b1, …).
    fn all_points(&self) -> Vec<Point> {
        let mut v = Vec::new();
        for y in 0..self.n {
            for x in 0..self.n {
                v.push((x, y));
            }
        }
        v
    }

    /// Number of occupied points.
    pub fn occupied(&self) -> usize {
        self.all_points()
            .into_iter()
            .filter(|&p| self.at(p).is_some())
            .count()
    }

    /// Number of points owned by `c`.
    pub fn owned_by(&self, c: Colour) -> usize {
        self.all_points()
            .into_iter()
            .filter(|&p| matches!(self.at(p), Some((o, _)) if o == c))
            .count()
    }

    fn has_empty_neighbour(&self, p: Point) -> bool {
        self.adjacent(p).into_iter().any(|q| self.at(q).is_none())
    }

    /// The legal moves of the side to move, sorted by (from, to) point index, where the index
    /// of (x, y) is y·N + x (docs/rules/sight.md §3, §8.2).
    pub fn legal_moves(&self) -> Vec<RefMove> {
        let me = self.to_move;
        let stacks: Vec<(Point, u32)> = self
            .all_points()
            .into_iter()
            .filter_map(|p| match self.at(p) {
                Some((o, h)) if o == me && h >= 2 => Some((p, h)),
                _ => None,
            })
            .collect();
        let mut moves = Vec::new();
        if stacks.is_empty() {
            // §3.1: no stack, so the player must place, on any empty point.
            for p in self.all_points() {
                if self.at(p).is_none() {
                    moves.push(RefMove::Place(p));
                }
            }
            return moves;
        }
        // §3.3.1: tallest first. Official: the tallest among the stacks that can move.
        // Strict: the tallest overall, and nothing if all of those are blocked.
        let tallest = if self.strict {
            stacks.iter().map(|&(_, h)| h).max()
        } else {
            stacks
                .iter()
                .filter(|&&(p, _)| self.has_empty_neighbour(p))
                .map(|&(_, h)| h)
                .max()
        };
        let Some(tallest) = tallest else {
            return moves;
        };
        for &(p, h) in &stacks {
            if h != tallest {
                continue;
            }
            for q in self.adjacent(p) {
                if self.at(q).is_none() {
                    moves.push(RefMove::Step(p, q));
                }
            }
        }
        let n = self.n;
        let index = |(x, y): Point| y * n + x;
        moves.sort_by_key(|&m| match m {
            RefMove::Place(q) => (0, index(q)),
            RefMove::Step(p, q) => (index(p), index(q)),
        });
        moves
    }

    /// Plays a move (assumed legal): the new piece lands, then every friendly pile in sight of
    /// the landing point grows by one, except the origin of a step (docs/rules/sight.md
    /// §3.2, §3.3).
    pub fn play(&mut self, m: RefMove) {
        let me = self.to_move;
        let (origin, target) = match m {
            RefMove::Place(q) => (None, q),
            RefMove::Step(p, q) => (Some(p), q),
        };
        if let Some((x, y)) = origin {
            match &mut self.cells[y][x] {
                Some((o, h)) if *o == me && *h >= 2 => *h -= 1,
                other => panic!("reference: bad origin {other:?} for {m:?}"),
            }
        }
        assert!(self.at(target).is_none(), "reference: target occupied");
        self.cells[target.1][target.0] = Some((me, 1));
        for (x, y) in self.in_sight(target) {
            if Some((x, y)) == origin {
                continue;
            }
            if let Some((o, h)) = &mut self.cells[y][x]
                && *o == me
            {
                *h += 1;
            }
        }
        self.to_move = me.other();
    }

    /// The SPN text of the position (docs/rules/sight.md §8.1): ranks from the top, runs of empty
    /// points merged, `x`/`w`/`b` without a count of 1, then the side to move.
    pub fn to_spn(&self) -> String {
        let mut out = format!("{}:", self.n);
        for y in (0..self.n).rev() {
            let mut tokens = Vec::new();
            let mut empties = 0;
            for x in 0..self.n {
                match self.cells[y][x] {
                    None => empties += 1,
                    Some((c, h)) => {
                        flush_empties(&mut tokens, &mut empties);
                        let mut t = c.letter().to_string();
                        if h > 1 {
                            write!(t, "{h}").unwrap();
                        }
                        tokens.push(t);
                    }
                }
            }
            flush_empties(&mut tokens, &mut empties);
            out.push_str(&tokens.join(","));
            if y != 0 {
                out.push('/');
            }
        }
        out.push(' ');
        out.push(self.to_move.letter());
        out
    }
}

fn flush_empties(tokens: &mut Vec<String>, empties: &mut usize) {
    match *empties {
        0 => {}
        1 => tokens.push("x".to_string()),
        k => tokens.push(format!("x{k}")),
    }
    *empties = 0;
}
