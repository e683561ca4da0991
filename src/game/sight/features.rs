//! Sight's inputs for a learned evaluation (`src/net`): for every point, whose pile stands on
//! it (the viewer's or the opponent's) and how tall it is (1, 2, 3, 4, 5 or more), plus one
//! input for the `strict_tallest` rule. Each board side has its own range of inputs, so that
//! one net can learn several boards (the built-in one learns 5×5 and 7×7) without one board's
//! weights standing for another's points.

use super::Sight;
use super::geometry::{MAX_SIZE, MIN_SIZE};
use crate::game::NetFeatures;
use crate::game::bitboard::bits;

/// The feature set's name; a net trained on other inputs is refused.
pub const FEATURES: &str = "sight-piles-v1";
/// Height classes: 1, 2, 3, 4, and 5 or more.
const HEIGHTS: usize = 5;
/// Inputs per point: owner × height class.
const PER_POINT: usize = 2 * HEIGHTS;

/// Where the inputs of the board of side `n` start (sides `MIN_SIZE..=MAX_SIZE` one after
/// another).
const fn board_offset(n: usize) -> usize {
    let mut offset = 0;
    let mut side = MIN_SIZE;
    while side < n {
        offset += PER_POINT * side * side;
        side += 1;
    }
    offset
}

/// The `strict_tallest` input, after every board's range.
const STRICT_INPUT: usize = board_offset(MAX_SIZE + 1);
/// Inputs: every board side's points, and the rule input.
pub const INPUTS: usize = STRICT_INPUT + 1;

impl NetFeatures for Sight {
    const NET_FEATURES: &'static str = FEATURES;
    const NET_INPUTS: usize = INPUTS;

    /// The active inputs seen by player `view` (see the module's doc).
    fn net_features(&self, view: usize, out: &mut Vec<u16>) {
        let base = board_offset(self.geo.n);
        for side in 0..2 {
            let owner = usize::from(side != view);
            for point in bits(self.occupied[side]) {
                let class = usize::from(self.height[point].clamp(1, HEIGHTS as u8)) - 1;
                out.push((base + point * PER_POINT + owner * HEIGHTS + class) as u16);
            }
        }
        if self.strict_tallest {
            out.push(STRICT_INPUT as u16);
        }
    }

    /// The inputs of this board's side: a net with no weight there never saw this board.
    fn net_inputs_in_play(&self) -> std::ops::Range<usize> {
        board_offset(self.geo.n)..board_offset(self.geo.n + 1)
    }
}

#[cfg(test)]
mod tests {
    use rand::rngs::SmallRng;
    use rand::{RngExt, SeedableRng};

    use super::*;
    use crate::game::Game;
    use crate::game::sight::SightSettings;

    #[test]
    fn every_board_has_its_own_range_and_every_input_is_in_range() {
        assert_eq!(board_offset(MIN_SIZE), 0);
        assert_eq!(
            INPUTS,
            PER_POINT * (4 + 9 + 16 + 25 + 36 + 49 + 64 + 81) + 1
        );
        assert!(INPUTS <= usize::from(u16::MAX));
        let mut moves = Vec::new();
        let mut list = Vec::new();
        for (size, strict) in [(5, false), (5, true), (7, false), (9, true), (3, false)] {
            let settings = SightSettings {
                size,
                strict_tallest: strict,
            };
            let lo = board_offset(size);
            let hi = board_offset(size + 1);
            for seed in 0..20 {
                let mut rng = SmallRng::seed_from_u64(seed);
                let mut pos = Sight::start(&settings);
                while pos.outcome().is_none() {
                    for view in 0..2 {
                        list.clear();
                        pos.net_features(view, &mut list);
                        let stones = pos.occupied[0].count_ones() + pos.occupied[1].count_ones();
                        assert_eq!(list.len(), stones as usize + usize::from(strict));
                        list.sort_unstable();
                        list.dedup();
                        assert_eq!(list.len(), stones as usize + usize::from(strict));
                        let board = list.iter().filter(|&&f| usize::from(f) != STRICT_INPUT);
                        assert!(board.clone().all(|&f| (lo..hi).contains(&usize::from(f))));
                    }
                    pos.generate_moves(&mut moves);
                    pos.play(moves[rng.random_range(0..moves.len())]);
                }
            }
        }
    }

    #[test]
    fn the_viewer_sees_its_own_piles_as_its_own() {
        let settings = SightSettings::default();
        let pos = Sight::from_fen("5:x5/x,w,x3/x2,b3,x2/x5/x5 w", &settings).unwrap();
        let (mut white, mut black) = (Vec::new(), Vec::new());
        pos.net_features(0, &mut white);
        pos.net_features(1, &mut black);
        let base = board_offset(5);
        let b4 = 3 * 5 + 1;
        let c3 = 2 * 5 + 2;
        assert_eq!(
            white,
            vec![
                (base + b4 * PER_POINT) as u16,
                (base + c3 * PER_POINT + HEIGHTS + 2) as u16
            ]
        );
        assert_eq!(
            black,
            vec![
                (base + b4 * PER_POINT + HEIGHTS) as u16,
                (base + c3 * PER_POINT + 2) as u16
            ]
        );
    }
}
