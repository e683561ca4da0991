//! The solver's own Sight board for sizes up to 5×5: `u32` bitboards and a height per point in
//! one small `Copy` value, so that a proof search can copy-make millions of positions a second.
//! It plays exactly the rules of [`crate::game::sight`] (docs/rules/sight.md §3–§5), which a
//! test checks move for move over random games; the certificate checker does not use it.

use crate::game::sight::geometry::{Geometry, POSITIVE_DIRECTIONS, geometry};
use crate::game::sight::{Sight, SightSettings};
use crate::game::{Game, Player};

/// Most points the solver handles (5×5).
pub const MAX_POINTS: usize = 25;
/// Tallest pile the solver's keys can hold. A pile grows at most once per move of its owner,
/// who has at most 12 moves after placing it on 5×5, so 13 is the most a game from the empty
/// board can reach.
pub const MAX_HEIGHT: u8 = 15;

/// The lines of one board size as `u32` bitboards.
#[derive(Debug)]
pub struct Lines {
    /// Side N.
    pub n: usize,
    /// N².
    pub points: usize,
    /// Every point.
    pub board: u32,
    /// For each point, the points one segment away.
    pub neighbours: [u32; MAX_POINTS],
    /// For each point and direction, the points along the line beyond it (directions as in
    /// [`crate::game::sight::geometry`]: the first four increase the index).
    pub rays: [[u32; 8]; MAX_POINTS],
}

impl Lines {
    /// The lines of an N×N board, 2 ≤ N ≤ 5.
    pub fn new(n: usize) -> Option<Lines> {
        if n * n > MAX_POINTS {
            return None;
        }
        let g: &Geometry = geometry(n)?;
        let mut lines = Lines {
            n,
            points: n * n,
            board: g.board as u32,
            neighbours: [0; MAX_POINTS],
            rays: [[0; 8]; MAX_POINTS],
        };
        for p in 0..n * n {
            lines.neighbours[p] = g.neighbours[p] as u32;
            for d in 0..8 {
                lines.rays[p][d] = g.rays[p][d] as u32;
            }
        }
        Some(lines)
    }
}

/// A move: `to` gets the new piece; `from` is the stack it steps off, or [`Move::PLACE`].
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub struct Move {
    /// Origin of a step, [`Move::PLACE`] for a placement.
    pub from: u8,
    /// The point that gets the piece.
    pub to: u8,
}

impl Move {
    /// The `from` of a placement.
    pub const PLACE: u8 = u8::MAX;

    /// Whether the move places a new piece.
    pub fn is_placement(self) -> bool {
        self.from == Move::PLACE
    }
}

/// A Sight position of at most 25 points.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub struct Board {
    /// Occupied points per player (White first).
    pub occupied: [u32; 2],
    /// Points holding a pile of height ≥ 2.
    pub stacks: u32,
    /// Height per point, 0 where empty.
    pub height: [u8; MAX_POINTS],
    /// The side to move: 0 White, 1 Black.
    pub side: u8,
    /// The `strict_tallest` rule variant (docs/rules/sight.md §6.1).
    pub strict: bool,
}

/// A run of empty points in the notation: `x`, `x2`, `x3`, …
fn empty_run(run: usize) -> String {
    if run == 1 {
        "x".to_string()
    } else {
        format!("x{run}")
    }
}

/// The set bits of `b`, lowest first.
pub fn bits(mut b: u32) -> impl Iterator<Item = usize> {
    std::iter::from_fn(move || {
        (b != 0).then(|| {
            let p = b.trailing_zeros() as usize;
            b &= b - 1;
            p
        })
    })
}

impl Board {
    /// The empty board, White to move.
    pub fn empty(strict: bool) -> Board {
        Board {
            occupied: [0; 2],
            stacks: 0,
            height: [0; MAX_POINTS],
            side: 0,
            strict,
        }
    }

    /// The same position as `pos`; `None` if it is larger than 5×5 or a pile could grow
    /// taller than [`MAX_HEIGHT`] before the board is full (a pile grows at most once per move
    /// of its owner).
    pub fn from_sight(pos: &Sight) -> Option<Board> {
        let n = pos.size();
        if n * n > MAX_POINTS {
            return None;
        }
        let empty = (0..n * n).filter(|&p| pos.pile(p).is_none()).count();
        let growth = empty.div_ceil(2);
        let mut b = Board::empty(pos.strict_tallest());
        b.side = pos.side_to_move().index() as u8;
        for p in 0..n * n {
            if let Some((owner, h)) = pos.pile(p) {
                if h as usize + growth > MAX_HEIGHT as usize {
                    return None;
                }
                b.occupied[owner.index()] |= 1 << p;
                b.height[p] = h;
                if h >= 2 {
                    b.stacks |= 1 << p;
                }
            }
        }
        Some(b)
    }

    /// The position in Sight's notation (docs/rules/sight.md §8) on an N×N board.
    pub fn to_fen(&self, n: usize) -> String {
        let mut ranks = Vec::new();
        for y in (0..n).rev() {
            let mut tokens: Vec<String> = Vec::new();
            let mut run = 0;
            for x in 0..n {
                let p = y * n + x;
                let colour = if self.occupied[0] >> p & 1 == 1 {
                    'w'
                } else if self.occupied[1] >> p & 1 == 1 {
                    'b'
                } else {
                    run += 1;
                    continue;
                };
                if run > 0 {
                    tokens.push(empty_run(run));
                    run = 0;
                }
                match self.height[p] {
                    1 => tokens.push(colour.to_string()),
                    h => tokens.push(format!("{colour}{h}")),
                }
            }
            if run > 0 {
                tokens.push(empty_run(run));
            }
            ranks.push(tokens.join(","));
        }
        let side = if self.side == 0 { 'w' } else { 'b' };
        format!("{n}:{} {side}", ranks.join("/"))
    }

    /// The same position as a [`Sight`] of side `n`.
    pub fn to_sight(&self, n: usize) -> Option<Sight> {
        let settings = SightSettings {
            size: n,
            strict_tallest: self.strict,
        };
        Sight::from_fen(&self.to_fen(n), &settings).ok()
    }

    /// The side to move as a [`Player`].
    pub fn player(&self) -> Player {
        if self.side == 0 {
            Player::One
        } else {
            Player::Two
        }
    }

    /// Empty points.
    #[inline]
    pub fn empty_points(&self, lines: &Lines) -> u32 {
        lines.board & !(self.occupied[0] | self.occupied[1])
    }

    /// How many points are empty: the plies the game can still last.
    #[inline]
    pub fn empty_count(&self, lines: &Lines) -> u32 {
        self.empty_points(lines).count_ones()
    }

    /// The stacks the side to move may move (docs/rules/sight.md §3.3), `None` when it has no
    /// stack and must place; an empty set when its stacks are shut in.
    #[inline]
    fn movable_stacks(&self, lines: &Lines) -> Option<u32> {
        let own = self.stacks & self.occupied[self.side as usize];
        if own == 0 {
            return None;
        }
        let empty = self.empty_points(lines);
        let mut best = 0u8;
        let mut movable = 0u32;
        for p in bits(own) {
            let h = self.height[p];
            let free = lines.neighbours[p] & empty != 0;
            if !(free || self.strict) || h < best {
                continue;
            }
            if h > best {
                best = h;
                movable = 0;
            }
            if free {
                movable |= 1 << p;
            }
        }
        Some(movable)
    }

    /// The legal moves of the side to move, in Sight's order (placements by point; steps by
    /// origin, then target). No move means the side to move has lost (§5).
    pub fn moves(&self, lines: &Lines, out: &mut Vec<Move>) {
        out.clear();
        let empty = self.empty_points(lines);
        match self.movable_stacks(lines) {
            None => out.extend(bits(empty).map(|q| Move {
                from: Move::PLACE,
                to: q as u8,
            })),
            Some(movable) => {
                for p in bits(movable) {
                    out.extend(bits(lines.neighbours[p] & empty).map(|q| Move {
                        from: p as u8,
                        to: q as u8,
                    }));
                }
            }
        }
    }

    /// How many legal moves the side to move has.
    #[inline]
    pub fn move_count(&self, lines: &Lines) -> u32 {
        let empty = self.empty_points(lines);
        match self.movable_stacks(lines) {
            None => empty.count_ones(),
            Some(movable) => bits(movable)
                .map(|p| (lines.neighbours[p] & empty).count_ones())
                .sum(),
        }
    }

    /// The position after `m`, which must be legal.
    #[inline]
    pub fn play(&self, lines: &Lines, m: Move) -> Board {
        let mut b = *self;
        let me = b.side as usize;
        let origin = if m.is_placement() {
            usize::MAX
        } else {
            let p = m.from as usize;
            b.height[p] -= 1;
            if b.height[p] == 1 {
                b.stacks &= !(1 << p);
            }
            p
        };
        let q = m.to as usize;
        b.occupied[me] |= 1 << q;
        b.height[q] = 1;
        let all = b.occupied[0] | b.occupied[1];
        for d in 0..8 {
            let hits = lines.rays[q][d] & all;
            if hits == 0 {
                continue;
            }
            let r = if d < POSITIVE_DIRECTIONS {
                hits.trailing_zeros() as usize
            } else {
                31 - hits.leading_zeros() as usize
            };
            if r == origin || b.occupied[me] >> r & 1 == 0 {
                continue;
            }
            b.height[r] += 1;
            b.stacks |= 1 << r;
        }
        b.side ^= 1;
        b
    }
}
