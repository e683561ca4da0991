//! The drawn lines of an N×N Alquerque board as precomputed bitboards (docs/rules/sight.md
//! §1.2, §6.2).
//!
//! Point `(x, y)`, 0-based from `a1`, has index `y * N + x` and is bit `index` of a `u128`.
//! It is a *diagonal point* iff `x + y` is even; only diagonal points have diagonal lines.
//! For every point and each of the eight directions, [`Geometry::rays`] holds every point
//! along the drawn line in that direction (empty for a diagonal direction from an
//! orthogonal-only point). The first four directions increase the index, the last four
//! decrease it, so the nearest occupied point on a ray is its lowest or highest set bit.

use std::sync::OnceLock;

/// Smallest supported board side.
pub const MIN_SIZE: usize = 2;
/// Largest supported board side (81 points fit a `u128`).
pub const MAX_SIZE: usize = 9;
/// Most points on a supported board.
pub const MAX_POINTS: usize = MAX_SIZE * MAX_SIZE;

/// Step `(dx, dy)` of each direction: E, N, NE, NW (index increases), W, S, SW, SE.
const DIRECTIONS: [(i32, i32); 8] = [
    (1, 0),
    (0, 1),
    (1, 1),
    (-1, 1),
    (-1, 0),
    (0, -1),
    (-1, -1),
    (1, -1),
];

/// Directions whose steps increase the point index.
pub const POSITIVE_DIRECTIONS: usize = 4;

/// Lines, neighbours and rays of one board size.
#[derive(Debug)]
pub struct Geometry {
    /// Side length N.
    pub n: usize,
    /// N², the number of points.
    pub points: usize,
    /// Every point of the board.
    pub board: u128,
    /// The diagonal points (`x + y` even).
    pub diagonal_points: u128,
    /// For each point, the points joined to it by one drawn segment.
    pub neighbours: [u128; MAX_POINTS],
    /// For each point and direction, every point along the drawn line beyond it.
    pub rays: [[u128; 8]; MAX_POINTS],
}

impl Geometry {
    fn build(n: usize) -> Geometry {
        let points = n * n;
        let mut g = Geometry {
            n,
            points,
            board: if points == 128 {
                u128::MAX
            } else {
                (1u128 << points) - 1
            },
            diagonal_points: 0,
            neighbours: [0; MAX_POINTS],
            rays: [[0; 8]; MAX_POINTS],
        };
        let n = n as i32;
        for y in 0..n {
            for x in 0..n {
                let p = (y * n + x) as usize;
                let diagonal = (x + y) % 2 == 0;
                if diagonal {
                    g.diagonal_points |= 1 << p;
                }
                for (d, &(dx, dy)) in DIRECTIONS.iter().enumerate() {
                    if dx != 0 && dy != 0 && !diagonal {
                        continue;
                    }
                    let (mut cx, mut cy) = (x + dx, y + dy);
                    while (0..n).contains(&cx) && (0..n).contains(&cy) {
                        let bit = 1u128 << (cy * n + cx);
                        if g.rays[p][d] == 0 {
                            g.neighbours[p] |= bit;
                        }
                        g.rays[p][d] |= bit;
                        cx += dx;
                        cy += dy;
                    }
                }
            }
        }
        g
    }

    /// The file letter and rank number of a point, e.g. `c3`.
    pub fn square_name(&self, p: usize) -> String {
        let file = (b'a' + (p % self.n) as u8) as char;
        format!("{file}{}", p / self.n + 1)
    }

    /// The point named by `s` (`a1` … ), if it is on this board.
    pub fn parse_square(&self, s: &str) -> Option<usize> {
        let mut chars = s.chars();
        let file = chars.next()?;
        if !file.is_ascii_lowercase() {
            return None;
        }
        let x = (file as u8 - b'a') as usize;
        let rank = chars.as_str();
        if rank.is_empty() || rank.starts_with('0') || !rank.bytes().all(|b| b.is_ascii_digit()) {
            return None;
        }
        let y = rank.parse::<usize>().ok()?.checked_sub(1)?;
        (x < self.n && y < self.n).then_some(y * self.n + x)
    }
}

/// The geometry of an N×N board, built once per size; `None` outside the supported sizes.
pub fn geometry(n: usize) -> Option<&'static Geometry> {
    static ALL: OnceLock<Vec<Geometry>> = OnceLock::new();
    if !(MIN_SIZE..=MAX_SIZE).contains(&n) {
        return None;
    }
    let all = ALL.get_or_init(|| (MIN_SIZE..=MAX_SIZE).map(Geometry::build).collect());
    all.get(n - MIN_SIZE)
}

/// The nearest set bit of `ray_hits` as seen from the ray's origin in direction `d`.
#[inline]
pub fn nearest(ray_hits: u128, d: usize) -> usize {
    if d < POSITIVE_DIRECTIONS {
        ray_hits.trailing_zeros() as usize
    } else {
        127 - ray_hits.leading_zeros() as usize
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn edges(g: &Geometry) -> (u32, u32) {
        let mut orth = 0;
        let mut diag = 0;
        for p in 0..g.points {
            for q in 0..g.points {
                if p < q && g.neighbours[p] >> q & 1 == 1 {
                    let same_row = p / g.n == q / g.n;
                    let same_col = p % g.n == q % g.n;
                    if same_row || same_col {
                        orth += 1;
                    } else {
                        diag += 1;
                    }
                }
            }
        }
        (orth, diag)
    }

    #[test]
    fn edge_counts_match_rules_table() {
        // docs/rules/sight.md §6.2: (N, orthogonal edges, diagonal edges, diagonal points).
        for (n, orth, diag, dpoints) in [
            (3, 12, 4, 5),
            (4, 24, 9, 8),
            (5, 40, 16, 13),
            (7, 84, 36, 25),
            (9, 144, 64, 41),
        ] {
            let g = geometry(n).unwrap();
            assert_eq!(edges(g), (orth, diag), "size {n}");
            assert_eq!(g.diagonal_points.count_ones(), dpoints, "size {n}");
        }
    }

    #[test]
    fn degrees_on_five_by_five() {
        let g = geometry(5).unwrap();
        let degree = |s: &str| g.neighbours[g.parse_square(s).unwrap()].count_ones();
        assert_eq!(degree("a1"), 3);
        assert_eq!(degree("c1"), 5);
        assert_eq!(degree("b1"), 3);
        assert_eq!(degree("c3"), 8);
        assert_eq!(degree("c2"), 4);
        let total: u32 = (0..25).map(|p| g.neighbours[p].count_ones()).sum();
        assert_eq!(total, 112);
    }

    #[test]
    fn squares_round_trip_and_reject_junk() {
        let g = geometry(9).unwrap();
        for p in 0..g.points {
            assert_eq!(g.parse_square(&g.square_name(p)), Some(p));
        }
        for bad in ["", "a", "a0", "a01", "j1", "a10", "A1", "1a", "é1"] {
            assert_eq!(g.parse_square(bad), None, "{bad}");
        }
        assert_eq!(geometry(1).map(|g| g.n), None);
        assert_eq!(geometry(10).map(|g| g.n), None);
    }
}
