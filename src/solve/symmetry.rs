//! The symmetries of the board and canonical keys: positions that one of them maps onto each
//! other have the same value, so the solver stores and proves each class once.
//!
//! The square has eight symmetries (four rotations, four reflections), but only those that
//! map the drawn lines onto themselves count: on odd boards all eight (the diagonal points,
//! `x + y` even, map to diagonal points), on even boards four (the identity, the half turn and
//! the two reflections in the diagonals; a quarter turn would move the diagonal lines).
//!
//! A key packs the whole position exactly: five bits per point (owner and height 1–15, 0 for
//! empty) in 125 bits, and the side to move in bit 125. The canonical key is the least key
//! over the symmetries; no hashing, so two positions share a canonical key exactly when a
//! symmetry maps one onto the other.

use super::board::{Board, Lines, MAX_POINTS, Move, bits};

/// A permutation of the points.
type Perm = [u8; MAX_POINTS];
/// A symmetry of the square as a map of `(x, y)`, given the largest coordinate.
type Transform = fn(i32, i32, i32) -> (i32, i32);

/// The symmetries of one board size.
#[derive(Debug)]
pub struct Symmetries {
    /// `perms[s][p]`: where symmetry `s` takes point `p`. `perms[0]` is the identity.
    perms: Vec<Perm>,
    /// The inverse of each.
    inverse: Vec<Perm>,
    points: usize,
}

/// A canonical key and the symmetry that gives it.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Canonical {
    /// The least key over the symmetries.
    pub key: u128,
    /// The symmetry that maps the position onto its canonical form.
    pub sym: usize,
}

impl Symmetries {
    /// The symmetries of the board of `lines` that keep its drawn lines.
    pub fn new(lines: &Lines) -> Symmetries {
        let n = lines.n as i32;
        let transforms: [Transform; 8] = [
            |x, y, _| (x, y),
            |x, y, m| (m - y, x),
            |x, y, m| (m - x, m - y),
            |x, y, m| (y, m - x),
            |x, y, m| (m - x, y),
            |x, y, m| (x, m - y),
            |x, y, _| (y, x),
            |x, y, m| (m - y, m - x),
        ];
        let mut perms = Vec::new();
        for t in transforms {
            let mut perm = [0u8; MAX_POINTS];
            for (p, image) in perm.iter_mut().enumerate().take(lines.points) {
                let (x, y) = ((p as i32) % n, (p as i32) / n);
                let (tx, ty) = t(x, y, n - 1);
                *image = (ty * n + tx) as u8;
            }
            let keeps_lines = (0..lines.points).all(|p| {
                map_bits(&perm, lines.neighbours[p]) == lines.neighbours[perm[p] as usize]
            });
            if keeps_lines {
                perms.push(perm);
            }
        }
        let inverse = perms
            .iter()
            .map(|perm| {
                let mut inv = [0u8; MAX_POINTS];
                for p in 0..lines.points {
                    inv[perm[p] as usize] = p as u8;
                }
                inv
            })
            .collect();
        Symmetries {
            perms,
            inverse,
            points: lines.points,
        }
    }

    /// How many symmetries the board has.
    pub fn len(&self) -> usize {
        self.perms.len()
    }

    /// Whether there are none (never: the identity is one).
    pub fn is_empty(&self) -> bool {
        self.perms.is_empty()
    }

    /// The canonical key of `b`.
    #[inline]
    pub fn canonical(&self, b: &Board) -> Canonical {
        let mut codes = [0u128; MAX_POINTS];
        let all = b.occupied[0] | b.occupied[1];
        for p in bits(all) {
            let owner = (b.occupied[1] >> p & 1) as u128;
            codes[p] = owner << 4 | b.height[p] as u128;
        }
        let side = (b.side as u128) << 125;
        let mut best = Canonical {
            key: u128::MAX,
            sym: 0,
        };
        for (sym, perm) in self.perms.iter().enumerate() {
            let mut key = side;
            for p in bits(all) {
                key |= codes[p] << (5 * perm[p] as u32);
            }
            if key < best.key {
                best = Canonical { key, sym };
            }
        }
        best
    }

    /// `m` as seen after symmetry `sym`.
    #[inline]
    pub fn map_move(&self, sym: usize, m: Move) -> Move {
        map_move(&self.perms[sym], m)
    }

    /// `m`, given after symmetry `sym`, mapped back to the original frame.
    #[inline]
    pub fn unmap_move(&self, sym: usize, m: Move) -> Move {
        map_move(&self.inverse[sym], m)
    }

    /// `b` after symmetry `sym`.
    pub fn apply(&self, sym: usize, b: &Board) -> Board {
        let perm = &self.perms[sym];
        let mut t = Board {
            occupied: [map_bits(perm, b.occupied[0]), map_bits(perm, b.occupied[1])],
            stacks: map_bits(perm, b.stacks),
            height: [0; MAX_POINTS],
            ..*b
        };
        for (p, &image) in perm.iter().enumerate().take(self.points) {
            t.height[image as usize] = b.height[p];
        }
        t
    }
}

fn map_bits(perm: &Perm, b: u32) -> u32 {
    bits(b).fold(0, |acc, p| acc | 1 << perm[p])
}

fn map_move(perm: &Perm, m: Move) -> Move {
    Move {
        from: if m.is_placement() {
            Move::PLACE
        } else {
            perm[m.from as usize]
        },
        to: perm[m.to as usize],
    }
}

/// The position a canonical key stands for (in its canonical frame), for boards of `points`
/// points with the `strict` rule switch.
pub fn board_of_key(key: u128, points: usize, strict: bool) -> Board {
    let mut b = Board::empty(strict);
    for p in 0..points {
        let code = (key >> (5 * p)) as u8 & 31;
        if code == 0 {
            continue;
        }
        let (owner, h) = ((code >> 4) as usize, code & 15);
        b.occupied[owner] |= 1 << p;
        b.height[p] = h;
        if h >= 2 {
            b.stacks |= 1 << p;
        }
    }
    b.side = (key >> 125) as u8 & 1;
    b
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn odd_boards_have_eight_symmetries_and_even_boards_four() {
        for (n, count) in [(3, 8), (4, 4), (5, 8)] {
            let lines = Lines::new(n).expect("a supported size");
            assert_eq!(Symmetries::new(&lines).len(), count, "{n}×{n}");
        }
    }

    #[test]
    fn symmetric_positions_share_their_key_and_the_key_gives_the_position_back() {
        let lines = Lines::new(5).expect("5×5");
        let syms = Symmetries::new(&lines);
        let mut moves = Vec::new();
        let mut b = Board::empty(false);
        // a1 b4 c3 a2 …: moves onto these points where legal, else the first legal move.
        for to in [0u8, 16, 12, 5, 23, 9] {
            b.moves(&lines, &mut moves);
            let m = *moves.iter().find(|m| m.to == to).unwrap_or(&moves[0]);
            b = b.play(&lines, m);
        }
        assert!(b.stacks != 0, "some pile grew");
        let c = syms.canonical(&b);
        for s in 0..syms.len() {
            let t = syms.apply(s, &b);
            assert_eq!(syms.canonical(&t).key, c.key);
        }
        assert_eq!(board_of_key(c.key, 25, false), syms.apply(c.sym, &b));
        // A move maps there and back.
        b.moves(&lines, &mut moves);
        for &m in &moves {
            assert_eq!(syms.unmap_move(c.sym, syms.map_move(c.sym, m)), m);
        }
    }
}
