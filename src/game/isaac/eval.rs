//! Isaac's hand evaluation.
//!
//! Unit: 10 per point of score, so a 10-point lead is about 100. The evaluation is the score
//! difference plus half of each side's *potential*: what its tiles at or above its floor would
//! earn now (`N · v · 2^c` each, docs/rules/isaac.md §4.3, so counters on a line count). Half,
//! because tiles leave the lines as both players remove, and the floor forces removals in ascending
//! size. A tile under a counter counts half again: it cannot be removed until the counter moves on.
//! In the placement phase the scores are 0 and the potential is all there is: it rewards tiles
//! placed across busy lines. Last, a tenth of a point per unplaced cell: the tie-break's line.

use super::tables::{line_mask, value};
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
        self.potentials()[player.index()]
    }

    /// [`Isaac::potential`] of both players, in two passes over the tiles: the first counts the
    /// tiles with a cell in each row and column, so that a tile's `N` (the other tiles in its
    /// line, [`Isaac::line_counts`]) is its line's count less itself.
    fn potentials(&self) -> [u32; 2] {
        let (mut rows, mut columns) = ([0u32; 10], [0u32; 10]);
        for t in self.tiles() {
            let (r, c) = (usize::from(t.anchor / 10), usize::from(t.anchor % 10));
            let (line, across, start) = if t.vertical {
                (&mut columns[c], &mut rows, r)
            } else {
                (&mut rows[r], &mut columns, c)
            };
            *line += 1;
            for n in across.iter_mut().skip(start).take(usize::from(t.size)) {
                *n += 1;
            }
        }
        let counters = self.counter_mask();
        let mut sums = [0; 2];
        for &t in self.tiles() {
            let p = usize::from(t.owner);
            let out = self.phase == Phase::Scoring && self.passed[p];
            if out || t.size < self.floors[p] {
                continue;
            }
            let (r, c) = (usize::from(t.anchor / 10), usize::from(t.anchor % 10));
            let tiles = if t.vertical { columns[c] } else { rows[r] };
            let counters_on_line =
                (counters & line_mask(t.vertical, usize::from(t.anchor))).count_ones();
            let earned = (tiles - 1) * u32::from(value(t.size)) * (1 << counters_on_line);
            sums[p] += if t.mask() & counters != 0 {
                earned * LOCKED_HALVES / 2
            } else {
                earned
            };
        }
        sums
    }

    fn side_value(&self, player: Player, potential: u32) -> i32 {
        POINT * self.score(player) as i32
            + POTENTIAL_TENTHS * potential as i32
            + UNPLACED_CELL * self.unplaced_cells(player) as i32
    }
}

impl Evaluate for Isaac {
    fn evaluate(&self) -> i32 {
        let me = self.side_to_move();
        let potentials = self.potentials();
        let them = me.opponent();
        self.side_value(me, potentials[me.index()])
            - self.side_value(them, potentials[them.index()])
    }

    fn explain_eval(&self) -> String {
        let mut out = String::new();
        for (p, name) in [(Player::One, "Dark"), (Player::Two, "Light")] {
            out.push_str(&format!(
                "{name}: score {} potential {} unplaced cells {} -> {}\n",
                self.score(p),
                self.potential(p),
                self.unplaced_cells(p),
                self.side_value(p, self.potential(p))
            ));
        }
        out.push_str(&format!("total (side to move) {}", self.evaluate()));
        out
    }
}

#[cfg(test)]
mod tests {
    use rand::rngs::SmallRng;
    use rand::{RngExt, SeedableRng};

    use super::*;

    /// [`Isaac::potential`] as its doc says, tile by tile from [`Isaac::earned_with`].
    fn potential_by_tiles(pos: &Isaac, player: Player) -> u32 {
        let p = player.index();
        if pos.phase == Phase::Scoring && pos.passed[p] {
            return 0;
        }
        let counters = pos.counter_mask();
        pos.tiles()
            .iter()
            .filter(|t| t.owner as usize == p && t.size >= pos.floors[p])
            .map(|&t| {
                let earned = pos.earned_with(t, counters);
                if t.mask() & counters != 0 {
                    earned * LOCKED_HALVES / 2
                } else {
                    earned
                }
            })
            .sum()
    }

    #[test]
    fn the_potential_counted_by_lines_is_the_sum_over_the_tiles() {
        let mut moves = Vec::new();
        let mut checked = 0;
        for seed in 0..40 {
            let mut rng = SmallRng::seed_from_u64(seed);
            let mut pos = Isaac::start(&Default::default());
            while pos.outcome().is_none() {
                for player in [Player::One, Player::Two] {
                    let expected = potential_by_tiles(&pos, player);
                    assert_eq!(pos.potential(player), expected, "{}", pos.to_fen());
                }
                checked += 1;
                pos.generate_moves(&mut moves);
                pos.play(moves[rng.random_range(0..moves.len())]);
            }
        }
        assert!(checked > 1_000, "{checked}");
    }
}
