//! Search knowledge for Sight.
//!
//! A player loses when they cannot move (docs/rules/sight.md §4), and points never empty again, so
//! the evaluation is about room to move: the legal moves each side would have (capped, because
//! past a dozen more choices do not make a player safer) and the free liberties around each
//! side's stacks, which are the moves it will have after the next few fills.
//! Unit: 10 per move of mobility difference; a clear advantage is about 100.

use super::geometry::MAX_POINTS;
use super::{Sight, SightMove, bits};
use crate::game::{Evaluate, Game, Player};

/// Mobility counts above this are treated as equal.
const MOBILITY_CAP: u32 = 12;
/// Weight of one legal move of mobility.
const MOBILITY_WEIGHT: i32 = 10;
/// Weight of one free neighbour of a stack (all stacks, not just the movable ones).
const LIBERTY_WEIGHT: i32 = 3;
/// Empty points from which on the exact search (to the end of the game) takes next to no
/// time: at 1+0.01 and 2+0.02 the engine proves the result with 18 empty points left (the
/// median of the 800 ladder games at a3f2416, quartiles 17 and 18; in 400 games at 1+0.01
/// on 24 November 2026 the first proven score came at ply 6, 19 empty, quartiles 5 and 6)
/// and plays the later moves almost instantly, so the time manager plans the clock over the
/// moves before this many empty points only.
const EXACT_SEARCH_EMPTY: u32 = 18;

/// The terms of the evaluation of one side.
struct SideTerms {
    mobility: u32,
    liberties: u32,
}

impl Sight {
    fn side_terms(&self, side: Player) -> SideTerms {
        let empty = self.empty_points();
        let own_stacks = self.stacks & self.occupied[side.index()];
        let liberties = bits(own_stacks)
            .map(|p| (self.geometry().neighbours[p] & empty).count_ones())
            .sum();
        SideTerms {
            mobility: self.count_moves_for(side).min(MOBILITY_CAP),
            liberties,
        }
    }

    fn score_terms(t: &SideTerms) -> i32 {
        MOBILITY_WEIGHT * t.mobility as i32 + LIBERTY_WEIGHT * t.liberties.min(MOBILITY_CAP) as i32
    }
}

impl Evaluate for Sight {
    const HISTORY_SIZE: usize = (MAX_POINTS + 1) * MAX_POINTS;
    const BENCH_FENS: &'static [&'static str] = &[
        "5:x5/x5/x5/x5/x5 w",
        "5:x5/x5/x2,w,x2/x5/x5 b",
        "5:x5/x,w2,x3/x2,w,x2/x2,b,b,x/x5 w",
        "5:x,w2,x2,b3/x,w2,x3/x,w3,w,x2/x2,b,b,x/x,b3,x3 b",
        "5:x5/x,w,x,w2,x/b,x,w,w3,b2/x3,b,b/x5 w",
        "5:x2,w,x2/x3,w2,x/x5/b,b,x3/w3,b,x3 w",
    ];
    const BENCH_DEPTH: u32 = 9;
    const NET_FEATURES: &'static str = super::features::FEATURES;
    const NET_INPUTS: usize = super::features::INPUTS;

    fn net_features(&self, view: usize, out: &mut Vec<u16>) {
        self.features(view, out);
    }

    fn net_inputs_in_play(&self) -> std::ops::Range<usize> {
        self.feature_range()
    }

    fn evaluate(&self) -> i32 {
        let me = self.side_terms(self.side_to_move());
        let them = self.side_terms(self.side_to_move().opponent());
        Self::score_terms(&me) - Self::score_terms(&them)
    }

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

    fn explain_eval(&self) -> String {
        let me = self.side_to_move();
        let mut out = String::new();
        for side in [me, me.opponent()] {
            let t = self.side_terms(side);
            let name = if side == Player::One { "w" } else { "b" };
            out.push_str(&format!(
                "{name}: mobility {} liberties {} -> {}\n",
                t.mobility,
                t.liberties,
                Self::score_terms(&t)
            ));
        }
        out.push_str(&format!("total (side to move) {}", self.evaluate()));
        out
    }
}

#[cfg(test)]
mod tests {
    use super::*;
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
