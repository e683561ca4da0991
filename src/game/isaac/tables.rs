//! Board geometry of Isaac (docs/rules/isaac.md §1–§2): cells `i = 10·r + c` in Dark's frame are
//! bits of a `u128`; every placement (size, orientation, anchor) has a precomputed cell mask, and
//! every row and column a line mask.

use std::sync::OnceLock;

/// Cells on the board.
pub const CELLS: usize = 100;
/// Tile sizes, smallest first; index `size - MIN_SIZE` everywhere.
pub const SIZES: [u8; 5] = [3, 4, 5, 6, 7];
/// Smallest tile size.
pub const MIN_SIZE: u8 = 3;
/// How many tiles of each size a player starts with (docs/rules/isaac.md §1).
pub const START_COUNTS: [u8; 5] = [5, 4, 3, 2, 1];
/// The value printed on a tile of each size (docs/rules/isaac.md §1: a 7 is worth 6, not 5).
pub const VALUES: [u8; 5] = [1, 2, 3, 4, 6];

/// The index of a size in [`SIZES`]; `None` for sizes that do not exist.
#[inline]
pub fn size_index(size: u8) -> Option<usize> {
    SIZES.iter().position(|&s| s == size)
}

/// The value of a tile of `size` (3..=7).
#[inline]
pub fn value(size: u8) -> u8 {
    VALUES[(size - MIN_SIZE) as usize]
}

struct Tables {
    /// `[size index][vertical as usize][anchor]`: the covered cells, 0 if the tile does not fit.
    runs: [[[u128; CELLS]; 2]; 5],
    rows: [u128; 10],
    columns: [u128; 10],
}

fn tables() -> &'static Tables {
    static TABLES: OnceLock<Tables> = OnceLock::new();
    TABLES.get_or_init(|| {
        let mut t = Tables {
            runs: [[[0; CELLS]; 2]; 5],
            rows: [0; 10],
            columns: [0; 10],
        };
        for i in 0..10 {
            for j in 0..10 {
                t.rows[i] |= 1u128 << (10 * i + j);
                t.columns[i] |= 1u128 << (10 * j + i);
            }
        }
        for (si, &size) in SIZES.iter().enumerate() {
            let s = size as usize;
            for anchor in 0..CELLS {
                let (r, c) = (anchor / 10, anchor % 10);
                if c + s <= 10 {
                    t.runs[si][0][anchor] = (0..s).map(|k| 1u128 << (anchor + k)).sum();
                }
                if r + s <= 10 {
                    t.runs[si][1][anchor] = (0..s).map(|k| 1u128 << (anchor + 10 * k)).sum();
                }
            }
        }
        t
    })
}

/// Cells covered by a tile of `size` with lowest cell `anchor`, or 0 if it leaves the board.
#[inline]
pub fn run_mask(size: u8, vertical: bool, anchor: usize) -> u128 {
    match size_index(size) {
        Some(si) if anchor < CELLS => tables().runs[si][usize::from(vertical)][anchor],
        _ => 0,
    }
}

/// The line of a removed tile: its row if horizontal, its column if vertical
/// (docs/rules/isaac.md §4.2).
#[inline]
pub fn line_mask(vertical: bool, anchor: usize) -> u128 {
    if vertical {
        tables().columns[anchor % 10]
    } else {
        tables().rows[anchor / 10]
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn placements_on_an_empty_board_number_600() {
        // docs/rules/isaac.md §7: 2 · 10 · (11 − s) per size.
        let mut total = 0;
        for (si, &size) in SIZES.iter().enumerate() {
            let count: usize = [false, true]
                .iter()
                .map(|&v| (0..CELLS).filter(|&a| run_mask(size, v, a) != 0).count())
                .sum();
            assert_eq!(count, [160, 140, 120, 100, 80][si]);
            total += count;
        }
        assert_eq!(total, 600);
    }

    #[test]
    fn masks_cover_the_right_cells() {
        assert_eq!(run_mask(3, true, 79), (1 << 79) | (1 << 89) | (1 << 99));
        assert_eq!(run_mask(3, true, 80), 0);
        assert_eq!(run_mask(4, false, 7), 0);
        assert_eq!(run_mask(7, false, 0), 0x7F);
        assert_eq!(run_mask(8, false, 0), 0);
        assert_eq!(line_mask(false, 23).count_ones(), 10);
        assert_eq!(line_mask(true, 23) >> 3 & 1, 1);
    }
}
