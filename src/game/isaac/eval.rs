//! Isaac's hand evaluation.
//!
//! Unit: 10 per point of score, so a 10-point lead is about 100. The evaluation is the score
//! difference plus half of each side's *potential*: what its tiles at or above its floor would
//! earn now (`N · v · 2^c` each, docs/rules/isaac.md §4.3, so counters on a line count). Half,
//! because tiles leave the lines as both players remove, and the floor forces removals in ascending
//! size. A tile under a counter counts half again: it cannot be removed until the counter moves on.
//! In the placement phase the scores are 0 and the potential is all there is: it rewards tiles
//! placed across busy lines. Last, a tenth of a point per unplaced cell: the tie-break's line.

use super::{Isaac, Phase};
use crate::game::{Evaluate, Game, Player};

/// Evaluation units per point of score.
const POINT: i32 = 10;
/// Potential counts this many tenths of a point per point earned now.
const POTENTIAL_TENTHS: i32 = 5;
/// A tile under a counter counts this fraction (in halves) of its potential.
const LOCKED_HALVES: u32 = 1;
/// Evaluation units per unplaced cell (the tie-break after equal scores).
const UNPLACED_CELL: i32 = 1;

impl Isaac {
    /// Points `player`'s tiles on the board would earn if removed now, summed over the tiles
    /// it may still remove (at or above its floor; none once it is out); a tile under a
    /// counter counts [`LOCKED_HALVES`] halves.
    pub fn potential(&self, player: Player) -> u32 {
        let p = player.index();
        if self.phase == Phase::Scoring && self.passed[p] {
            return 0;
        }
        let counters = self.counter_mask();
        self.tiles()
            .iter()
            .filter(|t| t.owner as usize == p && t.size >= self.floors[p])
            .map(|&t| {
                let earned = self.earned_with(t, counters);
                if t.mask() & counters != 0 {
                    earned * LOCKED_HALVES / 2
                } else {
                    earned
                }
            })
            .sum()
    }

    fn side_value(&self, player: Player) -> i32 {
        POINT * self.score(player) as i32
            + POTENTIAL_TENTHS * self.potential(player) as i32
            + UNPLACED_CELL * self.unplaced_cells(player) as i32
    }
}

impl Evaluate for Isaac {
    fn evaluate(&self) -> i32 {
        let me = self.side_to_move();
        self.side_value(me) - self.side_value(me.opponent())
    }

    fn explain_eval(&self) -> String {
        let mut out = String::new();
        for (p, name) in [(Player::One, "Dark"), (Player::Two, "Light")] {
            out.push_str(&format!(
                "{name}: score {} potential {} unplaced cells {} -> {}\n",
                self.score(p),
                self.potential(p),
                self.unplaced_cells(p),
                self.side_value(p)
            ));
        }
        out.push_str(&format!("total (side to move) {}", self.evaluate()));
        out
    }
}
