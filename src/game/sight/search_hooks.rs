//! What the search asks of Sight: move ordering by (from, to), the bench positions, and the
//! end of the game, which every ply brings one point nearer (every turn fills a point,
//! docs/rules/sight.md §4), for the iterative deepening and the clock.

use super::geometry::MAX_POINTS;
use super::{Sight, SightMove};
use crate::game::SearchHooks;
use crate::game::rated::{RatedSetting, rated};

/// Empty points from which on the exact search (to the end of the game) takes next to no
/// time: at 1+0.01 and 2+0.02 the engine proves the result with 18 empty points left (the
/// median of the 800 ladder games at a3f2416, quartiles 17 and 18; in 400 games at 1+0.01
/// on 24 November 2026 the first proven score came at ply 6, 19 empty, quartiles 5 and 6)
/// and plays the later moves almost instantly, so the time manager plans the clock over the
/// moves before this many empty points only.
const EXACT_SEARCH_EMPTY: u32 = 18;

impl SearchHooks for Sight {
    const HISTORY_SIZE: usize = (MAX_POINTS + 1) * MAX_POINTS;
    /// 200 games per step, `Level random` = 0 (docs/strength.md, "Levels", 27 Nov 2026).
    const RATED_SETTINGS: &'static [RatedSetting] = &[
        rated(392, 1, 8, 12.0),
        rated(496, 14, 7, 9.0),
        rated(701, 200, 6, 6.0),
        rated(832, 447, 6, 5.0),
        rated(932, 1_000, 5, 4.0),
        rated(1055, 2_000, 5, 3.25),
        rated(1228, 4_000, 4, 2.5),
        rated(1419, 15_000, 3, 1.5),
        rated(1566, 50_000, 3, 0.8),
        rated(1670, 150_000, 2, 0.4),
    ];
    const BENCH_FENS: &'static [&'static str] = &[
        "5:x5/x5/x5/x5/x5 w",
        "5:x5/x5/x2,w,x2/x5/x5 b",
        "5:x5/x,w2,x3/x2,w,x2/x2,b,b,x/x5 w",
        "5:x,w2,x2,b3/x,w2,x3/x,w3,w,x2/x2,b,b,x/x,b3,x3 b",
        "5:x5/x,w,x,w2,x/b,x,w,w3,b2/x3,b,b/x5 w",
        "5:x2,w,x2/x3,w2,x/x5/b,b,x3/w3,b,x3 w",
    ];
    const BENCH_DEPTH: u32 = 9;

    fn history_index(&self, m: SightMove) -> usize {
        let from = if m.is_placement() {
            MAX_POINTS
        } else {
            m.from as usize
        };
        from * MAX_POINTS + m.to as usize
    }

    fn moves_left_estimate(&self) -> u32 {
        // Every ply fills one point and the side to move makes about half of the rest, but
        // once few points are empty the exact search ends in a moment: only the moves before
        // that need the clock.
        let empty = self.empty_points().count_ones();
        empty.saturating_sub(EXACT_SEARCH_EMPTY).div_ceil(2).max(1)
    }

    fn plies_left_bound(&self) -> Option<u32> {
        Some(self.empty_points().count_ones())
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::game::Game;
    use crate::game::sight::SightSettings;

    fn estimate(fen: &str, size: usize) -> u32 {
        let settings = SightSettings {
            size,
            strict_tallest: false,
        };
        match Sight::from_fen(fen, &settings) {
            Ok(position) => position.moves_left_estimate(),
            Err(e) => panic!("{fen}: {e}"),
        }
    }

    #[test]
    fn the_clock_is_planned_over_the_moves_before_the_exact_search_takes_over() {
        // 25 empty points: (25 - 18) / 2 rounded up.
        assert_eq!(estimate("5:x5/x5/x5/x5/x5 w", 5), 4);
        // 22 empty points (three pieces placed): 2 moves before the end is in reach.
        assert_eq!(estimate("5:x5/x5/x,w,b,w,x/x5/x5 b", 5), 2);
        // 17 empty points (the eight piles of a bench position) and fewer: at least one
        // move, never zero.
        assert_eq!(estimate(Sight::BENCH_FENS[3], 5), 1);
        assert_eq!(estimate("5:w,b,w,b,w/b,w,b,w,b/w,b,x3/x5/x5 w", 5), 1);
        // A 7×7 board: (49 - 18) / 2 rounded up.
        assert_eq!(estimate("7:x7/x7/x7/x7/x7/x7/x7 w", 7), 16);
    }
}
