//! The 53-cell hex board (docs/rules/tactigon.md §1): cells in row-major order as bits of a `u64`,
//! their names (`a9` … `g11`: row letter and doubled column), neighbours, and the gold tiles.

use std::sync::OnceLock;

/// Cells on the board.
pub const CELLS: usize = 53;
/// Doubled columns of each row `a`..`g` (docs/rules/tactigon.md §1.1).
const ROWS: [&[u8]; 7] = [
    &[9, 11],
    &[2, 4, 6, 8, 10, 12, 14, 16, 18],
    &[1, 3, 5, 7, 9, 11, 13, 15, 17, 19],
    &[0, 2, 4, 6, 8, 10, 12, 14, 16, 18, 20],
    &[1, 3, 5, 7, 9, 11, 13, 15, 17, 19],
    &[2, 4, 6, 8, 10, 12, 14, 16, 18],
    &[9, 11],
];
/// Steps `(Δr, Δc)` to the six neighbours (docs/rules/tactigon.md §1.2).
const STEPS: [(i32, i32); 6] = [(0, 2), (0, -2), (-1, 1), (-1, -1), (1, 1), (1, -1)];

/// Geometry tables, built once.
pub struct Board {
    /// `(row, doubled column)` of each cell.
    pub coords: [(u8, u8); CELLS],
    /// Neighbours of each cell.
    pub neighbours: [u64; CELLS],
    /// The two gold tiles, `b10` and `f10`.
    pub gold: u64,
}

/// The board's tables.
pub fn board() -> &'static Board {
    static BOARD: OnceLock<Board> = OnceLock::new();
    BOARD.get_or_init(|| {
        let mut coords = [(0u8, 0u8); CELLS];
        let mut i = 0;
        for (r, cols) in ROWS.iter().enumerate() {
            for &c in *cols {
                coords[i] = (r as u8, c);
                i += 1;
            }
        }
        let index = |r: i32, c: i32| {
            coords
                .iter()
                .position(|&(rr, cc)| rr as i32 == r && cc as i32 == c)
        };
        let mut neighbours = [0u64; CELLS];
        for (cell, &(r, c)) in coords.iter().enumerate() {
            for (dr, dc) in STEPS {
                if let Some(n) = index(r as i32 + dr, c as i32 + dc) {
                    neighbours[cell] |= 1 << n;
                }
            }
        }
        let gold = [(1, 10), (5, 10)]
            .iter()
            .filter_map(|&(r, c)| index(r, c))
            .fold(0, |m, i| m | 1u64 << i);
        Board {
            coords,
            neighbours,
            gold,
        }
    })
}

/// The name of a cell, e.g. `d4`.
pub fn cell_name(cell: usize) -> String {
    let (r, c) = board().coords[cell];
    format!("{}{c}", (b'a' + r) as char)
}

/// The cell named `s`, if it is one of the 53.
pub fn parse_cell(s: &str) -> Option<usize> {
    let mut chars = s.chars();
    let row = chars.next()?;
    if !('a'..='g').contains(&row) {
        return None;
    }
    let col = chars.as_str();
    let canonical = col == "0" || (!col.is_empty() && !col.starts_with('0'));
    if !canonical || !col.bytes().all(|b| b.is_ascii_digit()) || col.len() > 2 {
        return None;
    }
    let c: u8 = col.parse().ok()?;
    let r = row as u8 - b'a';
    board().coords.iter().position(|&rc| rc == (r, c))
}

/// All cells adjacent to any cell of `set`.
#[inline]
pub fn neighbours_of(mut set: u64) -> u64 {
    let n = &board().neighbours;
    let mut out = 0;
    while set != 0 {
        out |= n[set.trailing_zeros() as usize];
        set &= set - 1;
    }
    out
}

/// Cells per row, for the notation.
pub fn row_lengths() -> [usize; 7] {
    ROWS.map(|r| r.len())
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn geometry_matches_rules_section_1() {
        let b = board();
        let degrees: Vec<u32> = b.neighbours.iter().map(|n| n.count_ones()).collect();
        let count = |d| degrees.iter().filter(|&&x| x == d).count();
        assert_eq!((count(6), count(5), count(4), count(3)), (27, 4, 12, 10));
        assert_eq!(degrees.iter().sum::<u32>(), 260);
        assert_eq!(b.gold.count_ones(), 2);
        assert_eq!(parse_cell("b10").map(|c| b.gold >> c & 1), Some(1));
        for cell in 0..CELLS {
            assert_eq!(parse_cell(&cell_name(cell)), Some(cell));
        }
        for bad in ["", "a", "a10", "d21", "d01", "h1", "D4", "d-4", "b3"] {
            assert_eq!(parse_cell(bad), None, "{bad}");
        }
        assert_eq!(parse_cell("d4"), Some(23));
    }
}
