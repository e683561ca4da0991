//! Isaac's inputs for a learned evaluation (`src/net`), written relative to the viewer: "mine"
//! and "the opponent's" instead of Dark and Light, and for Light the board turned half round
//! (cell `i` becomes `99 − i`). That turn is Isaac's own symmetry between the players
//! (docs/rules/isaac.md §1.1, §1.3 and §3): each numbers the cells from their own side, and each
//! counter starts on its owner's 00 and walks its owner's numbering, so Light's situation seen
//! turned round is exactly what Dark's would be. The one rule the turn does not carry over is the
//! last tie-break (Dark wins equal scores, cells and tiles, §4.7), which no input stands for.
//!
//! The inputs, in ranges one after another:
//!
//! | range | one input per | active |
//! |---|---|---|
//! | [`BOARD`] | owner (mine, theirs), size 3–7, orientation, cell | each covered cell |
//! | [`HAND`] | owner, size `s`, `j`: "at least `j` tiles of size `s` in hand" | per tile |
//! | [`COUNTER`] | owner, cell of the counter (scoring) | one per counter |
//! | [`SCORE`] | owner, `j` 1–9: "score at least `10·j`" (scoring) | up to 9 a player |
//! | [`UNDER`] | counter's owner, what it stands on: nothing or owner × size | one per counter |
//! | [`FLOOR`] | owner, `f` 4–7: "floor at least `f`" | up to 4 a player |
//! | [`SCORING`] | (the scoring phase) | one |
//! | [`PASSED`] | owner: "has passed" (placement) | at most one |
//! | [`OUT`] | owner: "is out" (scoring) | up to two |
//!
//! The cell inputs carry size and orientation so that a line's tile count `N` (§4.3) is a sum
//! the first layer can form: a tile lying in a row covers `s` of its cells, a tile crossing it
//! one. The hand inputs count tiles on a scale, so the tie-break's unplaced cells (§4.7) are a
//! sum too. The score scale adds a coarse view of the race to 100 to the exact counter cell.
//! Floor 3 removes no size from play, so it reads as floor 0. A placement changes its tile's
//! cells and one hand input; a removal its tile's cells, the counter's cell, what the counter
//! stands on, a few steps of the score scale and of the floor.

use super::tables::{CELLS, MIN_SIZE, SIZES, START_COUNTS, size_index};
use super::{Isaac, IsaacMove, Phase};
use crate::game::NetFeatures;
use crate::game::bitboard::bits;

/// The feature set's name; a net trained on other inputs is refused.
pub const FEATURES: &str = "isaac-cells-v1";

/// Tile sizes.
const KINDS: usize = SIZES.len();
/// Cell inputs per owner: size × orientation × cell.
const BOARD_PER_OWNER: usize = KINDS * 2 * CELLS;
/// Hand inputs per owner: one per starting tile (15).
const HAND_PER_OWNER: usize = {
    let mut total = 0;
    let mut i = 0;
    while i < KINDS {
        total += START_COUNTS[i] as usize;
        i += 1;
    }
    total
};
/// Steps of the score scale: at least 10, 20, …, 90.
const SCORE_STEPS: usize = 9;
/// What a counter can stand on: nothing, or a tile by owner and size.
const UNDER_PER_COUNTER: usize = 1 + 2 * KINDS;
/// Steps of the floor scale: at least 4, 5, 6, 7.
const FLOOR_STEPS: usize = 4;

/// First cell input: `BOARD + ((owner · 5 + size − 3) · 2 + vertical) · 100 + cell`.
pub const BOARD: usize = 0;
/// First hand input: `HAND + owner · 15 + (tiles of smaller sizes) + j − 1` for "at least `j`".
pub const HAND: usize = BOARD + 2 * BOARD_PER_OWNER;
/// First counter input: `COUNTER + owner · 100 + cell`.
pub const COUNTER: usize = HAND + 2 * HAND_PER_OWNER;
/// First score input: `SCORE + owner · 9 + j − 1` for "score at least 10 · j".
pub const SCORE: usize = COUNTER + 2 * CELLS;
/// First input of what the counters stand on: `UNDER + counter owner · 11`, plus 0 for an
/// empty cell or `1 + tile owner · 5 + size − 3`.
pub const UNDER: usize = SCORE + 2 * SCORE_STEPS;
/// First floor input: `FLOOR + owner · 4 + f − 4` for "floor at least `f`".
pub const FLOOR: usize = UNDER + 2 * UNDER_PER_COUNTER;
/// The scoring phase input (also set in a finished game).
pub const SCORING: usize = FLOOR + 2 * FLOOR_STEPS;
/// First pass input, placement phase: `PASSED + owner`.
pub const PASSED: usize = SCORING + 1;
/// First out input, scoring phase: `OUT + owner`.
pub const OUT: usize = PASSED + 2;
/// Inputs: 2000 cells, 30 hand, 200 counter cells, 18 score, 22 under the counters, 8 floor,
/// and 5 phase and pass inputs.
pub const INPUTS: usize = OUT + 2;

/// Where the hand inputs of each size index start within an owner's 15.
const HAND_START: [usize; KINDS] = {
    let mut starts = [0; KINDS];
    let mut i = 1;
    while i < KINDS {
        starts[i] = starts[i - 1] + START_COUNTS[i - 1] as usize;
        i += 1;
    }
    starts
};

impl NetFeatures for Isaac {
    const NET_FEATURES: &'static str = FEATURES;
    const NET_INPUTS: usize = INPUTS;
    /// Every cell covered, every tile in hand, and the counters, scores, floors and phase at
    /// their most: 163 of the 2,283.
    const NET_MAX_ACTIVE: usize = CELLS
        + 2 * HAND_PER_OWNER
        + 2 * FLOOR_STEPS
        + 2 * SCORE_STEPS
        + 2 // the counters' cells
        + 2 // what they stand on
        + 1 // the scoring phase
        + 2; // passed (placement) or out (scoring)

    /// The active inputs seen by player `view` (see the module's doc).
    fn net_features(&self, view: usize, out: &mut Vec<u16>) {
        let seen = |cell: usize| if view == 0 { cell } else { CELLS - 1 - cell };
        let push = |out: &mut Vec<u16>, index: usize| out.push(index as u16);
        for t in self.tiles() {
            let owner = usize::from(usize::from(t.owner) != view);
            let kind = usize::from(t.size - MIN_SIZE);
            let base = BOARD + ((owner * KINDS + kind) * 2 + usize::from(t.vertical)) * CELLS;
            for cell in bits(t.mask()) {
                push(out, base + seen(cell));
            }
        }
        for player in 0..2 {
            let owner = usize::from(player != view);
            for (kind, &count) in self.hands[player].iter().enumerate() {
                let base = HAND + owner * HAND_PER_OWNER + HAND_START[kind];
                for j in 0..usize::from(count.min(START_COUNTS[kind])) {
                    push(out, base + j);
                }
            }
            for f in 0..FLOOR_STEPS {
                if usize::from(self.floors[player]) > f + usize::from(MIN_SIZE) {
                    push(out, FLOOR + owner * FLOOR_STEPS + f);
                }
            }
        }
        if self.phase == Phase::Placement {
            for player in 0..2 {
                if self.passed[player] {
                    push(out, PASSED + usize::from(player != view));
                }
            }
            return;
        }
        push(out, SCORING);
        for player in 0..2 {
            let owner = usize::from(player != view);
            if self.passed[player] {
                push(out, OUT + owner);
            }
            let score = usize::from(self.scores[player]);
            for j in 0..SCORE_STEPS.min(score / 10) {
                push(out, SCORE + owner * SCORE_STEPS + j);
            }
            if score < CELLS {
                let cell = if player == 0 {
                    score
                } else {
                    CELLS - 1 - score
                };
                push(out, COUNTER + owner * CELLS + seen(cell));
                let under = self
                    .tiles()
                    .iter()
                    .find(|t| t.mask() >> cell & 1 != 0)
                    .map_or(0, |t| {
                        let tile_owner = usize::from(usize::from(t.owner) != view);
                        1 + tile_owner * KINDS + usize::from(t.size - MIN_SIZE)
                    });
                push(out, UNDER + owner * UNDER_PER_COUNTER + under);
            }
        }
    }

    /// A placement's tile cells (added) and hand input (removed), or a first pass's pass
    /// input (added). The second pass (the scoring phase's inputs) and removals are not told.
    fn net_feature_delta(
        &self,
        mv: IsaacMove,
        view: usize,
        added: &mut Vec<u16>,
        removed: &mut Vec<u16>,
    ) -> bool {
        if self.phase != Phase::Placement {
            return false;
        }
        let me = self.side.index();
        let owner = usize::from(me != view);
        match mv {
            IsaacMove::Place {
                size,
                vertical,
                anchor,
            } => {
                let Some(kind) = size_index(size) else {
                    return false;
                };
                let count = self.hands[me][kind];
                if count == 0 || count > START_COUNTS[kind] {
                    // Not legal, or more tiles than the scale counts (the input stays set).
                    return false;
                }
                // The tile's cells, `anchor` and on along its row or column: counted rather
                // than read from its mask (this runs for every child of every expansion).
                let (anchor, size) = (usize::from(anchor), usize::from(size));
                let (step, along) = if vertical {
                    (10, anchor / 10)
                } else {
                    (1, anchor % 10)
                };
                if anchor >= CELLS || along + size > 10 {
                    return false;
                }
                let base = BOARD + ((owner * KINDS + kind) * 2 + usize::from(vertical)) * CELLS;
                let (first, step) = if view == 0 {
                    (base + anchor, step as isize)
                } else {
                    (base + CELLS - 1 - anchor, -(step as isize))
                };
                for k in 0..size as isize {
                    added.push((first as isize + k * step) as u16);
                }
                let hand = HAND + owner * HAND_PER_OWNER + HAND_START[kind];
                removed.push((hand + usize::from(count) - 1) as u16);
                true
            }
            IsaacMove::Pass if !self.passed[0] && !self.passed[1] => {
                added.push((PASSED + owner) as u16);
                true
            }
            IsaacMove::Pass | IsaacMove::Remove { .. } => false,
        }
    }
}

#[cfg(test)]
mod tests {
    use rand::rngs::SmallRng;
    use rand::{RngExt, SeedableRng};

    use super::*;
    use crate::game::isaac::{Tile, random_positions};
    use crate::game::{Game, Player};

    fn features(pos: &Isaac, view: usize) -> Vec<u16> {
        let mut list = Vec::new();
        pos.net_features(view, &mut list);
        list.sort_unstable();
        list
    }

    /// `pos` with the colours swapped and the board turned half round: Dark's situation
    /// becomes Light's.
    fn swapped(pos: &Isaac) -> Isaac {
        let mut s = pos.clone();
        let mut tiles: Vec<Tile> = pos
            .tiles()
            .iter()
            .map(|&t| {
                let last = bits(t.mask()).last().unwrap_or_default();
                Tile {
                    owner: 1 - t.owner,
                    anchor: (CELLS - 1 - last) as u8,
                    ..t
                }
            })
            .collect();
        tiles.sort_by_key(|t| t.anchor);
        s.tiles[..tiles.len()].copy_from_slice(&tiles);
        s.hands.swap(0, 1);
        s.passed.swap(0, 1);
        s.scores.swap(0, 1);
        s.floors.swap(0, 1);
        s.side = pos.side.opponent();
        s
    }

    #[test]
    fn the_ranges_follow_one_another() {
        assert_eq!(HAND_PER_OWNER, 15);
        assert_eq!(HAND_START, [0, 5, 9, 12, 14]);
        assert_eq!(
            [
                BOARD, HAND, COUNTER, SCORE, UNDER, FLOOR, SCORING, PASSED, OUT, INPUTS
            ],
            [0, 2000, 2030, 2230, 2248, 2270, 2278, 2279, 2281, 2283]
        );
        assert_eq!(Isaac::NET_INPUTS, INPUTS);
        assert_eq!(Isaac::NET_MAX_ACTIVE, 163);
        assert_eq!(Isaac::NET_FEATURES, FEATURES);
    }

    #[test]
    fn every_input_is_in_range_once_and_the_lists_fit_a_byte() {
        let positions = random_positions(60);
        let scoring = positions
            .iter()
            .filter(|p| p.phase() == Phase::Scoring)
            .count();
        assert!(scoring >= 300, "{scoring} scoring positions");
        assert!(positions.len() - scoring >= 300);
        for pos in &positions {
            for view in 0..2 {
                let mut list = Vec::new();
                pos.net_features(view, &mut list);
                let len = list.len();
                assert!(
                    len <= usize::from(u8::MAX) && len <= Isaac::NET_MAX_ACTIVE,
                    "{len} inputs: {}",
                    pos.to_fen()
                );
                assert!(list.iter().all(|&f| usize::from(f) < INPUTS));
                list.sort_unstable();
                list.dedup();
                assert_eq!(list.len(), len, "an input twice: {}", pos.to_fen());
                let cells = list.iter().filter(|&&f| usize::from(f) < HAND).count();
                assert_eq!(cells as u32, pos.occupied().count_ones());
            }
        }
    }

    #[test]
    fn both_players_see_the_start_position_alike() {
        let pos = Isaac::start(&Default::default());
        let dark = features(&pos, 0);
        assert_eq!(dark, features(&pos, 1));
        let hand = (HAND..HAND + 2 * HAND_PER_OWNER).map(|f| f as u16);
        assert_eq!(dark, hand.collect::<Vec<_>>());
    }

    #[test]
    fn a_position_and_its_colour_swapped_turn_look_alike_to_the_matching_players() {
        for pos in random_positions(10) {
            let turned = swapped(&pos);
            assert_eq!(features(&pos, 0), features(&turned, 1), "{}", pos.to_fen());
            assert_eq!(features(&pos, 1), features(&turned, 0), "{}", pos.to_fen());
        }
    }

    #[test]
    fn the_inputs_of_a_scoring_position_are_the_documented_ones() {
        // docs/rules/isaac.md TV4: Dark's counter on the empty cell 28, Light's on 20 (on
        // L3h20); Dark's floor 3, scores 28 and 79.
        let fen = "L3v07,L3v09,L3h20,D4h23,D3v31,D5h60,D3h70 00000/00000 d S - 28/79 3/0";
        let pos = Isaac::from_fen(fen, &Default::default()).unwrap();
        let dark = features(&pos, 0);
        let cell = |owner: usize, size: usize, vertical: usize, cell: usize| {
            (BOARD + ((owner * KINDS + size - 3) * 2 + vertical) * CELLS + cell) as u16
        };
        let mut expected = vec![
            cell(1, 3, 1, 7),
            cell(1, 3, 1, 17),
            cell(1, 3, 1, 27),
            cell(1, 3, 1, 9),
            cell(1, 3, 1, 19),
            cell(1, 3, 1, 29),
            cell(1, 3, 0, 20),
            cell(1, 3, 0, 21),
            cell(1, 3, 0, 22),
            cell(0, 4, 0, 23),
            cell(0, 4, 0, 24),
            cell(0, 4, 0, 25),
            cell(0, 4, 0, 26),
            cell(0, 3, 1, 31),
            cell(0, 3, 1, 41),
            cell(0, 3, 1, 51),
            cell(0, 5, 0, 60),
            cell(0, 5, 0, 61),
            cell(0, 5, 0, 62),
            cell(0, 5, 0, 63),
            cell(0, 5, 0, 64),
            cell(0, 3, 0, 70),
            cell(0, 3, 0, 71),
            cell(0, 3, 0, 72),
            SCORING as u16,
            SCORE as u16,
            (SCORE + 1) as u16,
            (COUNTER + 28) as u16,
            UNDER as u16,
            (COUNTER + CELLS + 20) as u16,
            (UNDER + UNDER_PER_COUNTER + 1 + KINDS) as u16,
        ];
        expected.extend((0..7).map(|j| (SCORE + SCORE_STEPS + j) as u16));
        expected.sort_unstable();
        assert_eq!(dark, expected);
        // Light sees the same from its side, turned round: its own counter on 79 stands on its
        // own 3, Dark's on 71.
        let light = features(&pos, 1);
        assert!(light.contains(&((COUNTER + 79) as u16)));
        assert!(light.contains(&((UNDER + 1) as u16)));
        assert!(light.contains(&((COUNTER + CELLS + 71) as u16)));
        assert!(light.contains(&cell(0, 3, 0, 79)));
        assert!(light.contains(&cell(1, 4, 0, 76)));
        assert_eq!(pos.side_to_move(), Player::One);
    }

    #[test]
    fn a_told_change_of_inputs_is_the_difference_of_the_lists() {
        let mut moves = Vec::new();
        let (mut told, mut passes) = (0, 0);
        for pos in random_positions(12) {
            pos.generate_moves(&mut moves);
            for &m in &moves {
                let mut child = pos.clone();
                child.play(m);
                for view in 0..2 {
                    let (mut added, mut removed) = (Vec::new(), Vec::new());
                    if !pos.net_feature_delta(m, view, &mut added, &mut removed) {
                        assert!(
                            pos.phase() != Phase::Placement || child.phase() != Phase::Placement,
                            "{m:?} in {}",
                            pos.to_fen()
                        );
                        continue;
                    }
                    told += 1;
                    passes += usize::from(m == IsaacMove::Pass);
                    let before = features(&pos, view);
                    let mut after: Vec<u16> = before
                        .iter()
                        .copied()
                        .filter(|f| !removed.contains(f))
                        .collect();
                    assert_eq!(after.len() + removed.len(), before.len(), "{m:?}");
                    assert!(added.iter().all(|f| !before.contains(f)), "{m:?}");
                    after.extend(&added);
                    after.sort_unstable();
                    assert_eq!(after, features(&child, view), "{m:?} in {}", pos.to_fen());
                }
            }
        }
        assert!(
            told > 10_000 && passes > 0,
            "{told} told, {passes} of them passes"
        );
    }

    #[test]
    fn a_move_changes_few_inputs() {
        let mut moves = Vec::new();
        let mut rng = SmallRng::seed_from_u64(5);
        for pos in random_positions(10) {
            pos.generate_moves(&mut moves);
            let m = moves[rng.random_range(0..moves.len())];
            let mut child = pos.clone();
            child.play(m);
            if child.outcome().is_some() {
                continue;
            }
            for view in 0..2 {
                let (a, b) = (features(&pos, view), features(&child, view));
                let changed = a.iter().filter(|f| !b.contains(f)).count()
                    + b.iter().filter(|f| !a.contains(f)).count();
                // A tile's cells, the hand or the counter, score, floor and phase inputs.
                assert!(changed <= 32, "{changed} after {m:?} in {}", pos.to_fen());
            }
        }
    }
}
