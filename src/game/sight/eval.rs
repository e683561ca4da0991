//! Sight's hand evaluation.
//!
//! A player loses when they cannot move (docs/rules/sight.md §4), and points never empty again, so
//! the evaluation is about room to move: the legal moves each side would have (capped, because
//! past a dozen more choices do not make a player safer) and the free liberties around each
//! side's stacks, which are the moves it will have after the next few fills.
//! Unit: 10 per move of mobility difference; a clear advantage is about 100.

use super::{Sight, bits};
use crate::game::{Evaluate, Game, Player};

/// Mobility counts above this are treated as equal.
const MOBILITY_CAP: u32 = 12;
/// Weight of one legal move of mobility.
const MOBILITY_WEIGHT: i32 = 10;
/// Weight of one free neighbour of a stack (all stacks, not just the movable ones).
const LIBERTY_WEIGHT: i32 = 3;
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
    type Prepared = ();

    fn evaluate(&self) -> i32 {
        let me = self.side_terms(self.side_to_move());
        let them = self.side_terms(self.side_to_move().opponent());
        Self::score_terms(&me) - Self::score_terms(&them)
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
