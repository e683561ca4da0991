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
use super::{Isaac, IsaacMove, Phase};
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

    /// Fills `prepared` for [`Evaluate::evaluate_child`] of this position's placements: in the
    /// placement phase there are no counters and no floors, so a tile's potential is its value
    /// times the other tiles in its line, and a placement changes only the counts of the lines
    /// it touches.
    fn prepare_placements(&self, prepared: &mut PreparedPlacements) {
        // Floors are 0 until the first removal; a position set up otherwise is counted afresh.
        prepared.valid = self.phase == Phase::Placement && self.floors == [0, 0];
        if !prepared.valid {
            return;
        }
        prepared.tiles = [0; 20];
        prepared.values = [[0; 2]; 20];
        for t in self.tiles() {
            let (own, crossed) = lines_of(t.vertical, t.anchor, t.size);
            prepared.tiles[own] += 1;
            for line in &mut prepared.tiles[crossed] {
                *line += 1;
            }
            prepared.values[own][usize::from(t.owner)] += u32::from(value(t.size));
        }
        // Each tile earns its value once for every other tile in its own line.
        prepared.potentials = [0, 1].map(|p| {
            (0..20)
                .map(|line| prepared.tiles[line].saturating_sub(1) * prepared.values[line][p])
                .sum()
        });
    }

    /// Both players' potentials after the side to move (`owner`) places a tile (size,
    /// orientation, anchor), from `prepared`:
    /// every tile whose own line the new tile touches earns its value once more, and the new
    /// tile earns its value for each tile already in its line.
    fn placed_potentials(
        prepared: &PreparedPlacements,
        (size, vertical, anchor): (u8, bool, u8),
        owner: usize,
    ) -> [u32; 2] {
        let mut sums = prepared.potentials;
        let (own, crossed) = lines_of(vertical, anchor, size);
        for line in std::iter::once(own).chain(crossed) {
            sums[0] += prepared.values[line][0];
            sums[1] += prepared.values[line][1];
        }
        sums[owner] += prepared.tiles[own] * u32::from(value(size));
        sums
    }

    fn side_value(&self, player: Player, potential: u32) -> i32 {
        POINT * self.score(player) as i32
            + POTENTIAL_TENTHS * potential as i32
            + UNPLACED_CELL * self.unplaced_cells(player) as i32
    }
}

/// The lines (rows 0–9, then columns as 10–19) of a tile at `anchor`: its own line, along which
/// it lies, and the lines it crosses, one per cell.
fn lines_of(vertical: bool, anchor: u8, size: u8) -> (usize, std::ops::Range<usize>) {
    let (r, c) = (usize::from(anchor / 10), usize::from(anchor % 10));
    let (own, first_crossed) = if vertical { (10 + c, r) } else { (r, 10 + c) };
    (own, first_crossed..first_crossed + usize::from(size))
}

/// What [`Evaluate::evaluate_child`] of an Isaac position's placements needs: for each line
/// (rows 0–9, then columns as 10–19), how many tiles have a cell in it and the values of each
/// player's tiles that lie along it; and both players' potentials.
#[derive(Clone, Debug, Default)]
pub struct PreparedPlacements {
    /// Whether the position was in the placement phase with no floors (the rest is filled
    /// only then).
    valid: bool,
    potentials: [u32; 2],
    tiles: [u32; 20],
    values: [[u32; 2]; 20],
}

impl Isaac {
    /// The evaluation from the side to move's view given both players' potentials.
    fn evaluation_with(&self, potentials: [u32; 2]) -> i32 {
        let me = self.side_to_move();
        let them = me.opponent();
        self.side_value(me, potentials[me.index()])
            - self.side_value(them, potentials[them.index()])
    }
}

impl Evaluate for Isaac {
    type Prepared = PreparedPlacements;

    fn evaluate(&self) -> i32 {
        self.evaluation_with(self.potentials())
    }

    fn prepare_children(&self, prepared: &mut PreparedPlacements) {
        self.prepare_placements(prepared);
    }

    fn evaluate_child(&self, prepared: &PreparedPlacements, mv: IsaacMove, child: &Isaac) -> i32 {
        // A placement leaves the phase, counters, floors and passes as they were; a pass may
        // end the phase (and the game), so anything but a placement is counted afresh.
        let IsaacMove::Place {
            size,
            vertical,
            anchor,
        } = mv
        else {
            return child.evaluate();
        };
        if !prepared.valid || child.phase != Phase::Placement {
            return child.evaluate();
        }
        let owner = self.side_to_move().index();
        let placed = (size, vertical, anchor);
        child.evaluation_with(Self::placed_potentials(prepared, placed, owner))
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

    #[test]
    fn a_child_evaluated_from_its_prepared_parent_is_evaluated_exactly() {
        let mut prepared = PreparedPlacements::default();
        let (mut placements, mut others) = (0, 0);
        for pos in super::super::random_positions(30) {
            pos.prepare_children(&mut prepared);
            for (mv, child) in super::super::unfinished_children(&pos) {
                match mv {
                    IsaacMove::Place { .. } if pos.phase == Phase::Placement => placements += 1,
                    _ => others += 1,
                }
                let expected = child.evaluate();
                let found = pos.evaluate_child(&prepared, mv, &child);
                assert_eq!(found, expected, "{mv:?} in {}", pos.to_fen());
            }
        }
        // Both ways are taken: the shortcut for placements, the full count for the rest.
        assert!(
            placements > 100_000 && others > 1_000,
            "{placements} {others}"
        );
    }
}
