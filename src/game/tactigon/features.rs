//! Tactigon's inputs for a learned evaluation (`src/net`): one input per piece kind, owner
//! (the viewer's or the opponent's) and cell, the cells mirrored left to right for Blue so
//! that both players see their own pieces start on the left (the start position is symmetric
//! under that mirror with the colours swapped, and the gold tiles stay in place).

use std::sync::OnceLock;

use super::Tactigon;
use super::bits;
use super::board::{CELLS, board};
use crate::game::NetFeatures;

/// The feature set's name; a net trained on other inputs is refused.
pub const FEATURES: &str = "tactigon-pieces-v1";
/// Inputs: 2 owners × 4 kinds × 53 cells.
pub const INPUTS: usize = 2 * 4 * CELLS;

/// The cell each cell is mirrored to (the doubled column `c` becomes `20 − c`).
pub fn mirror() -> &'static [u8; CELLS] {
    static MIRROR: OnceLock<[u8; CELLS]> = OnceLock::new();
    MIRROR.get_or_init(|| {
        let coords = &board().coords;
        let mut table = [0u8; CELLS];
        for (cell, &(r, c)) in coords.iter().enumerate() {
            let image = coords
                .iter()
                .position(|&(rr, cc)| rr == r && u16::from(cc) + u16::from(c) == 20)
                .unwrap_or(cell);
            table[cell] = image as u8;
        }
        table
    })
}

impl NetFeatures for Tactigon {
    const NET_FEATURES: &'static str = FEATURES;
    const NET_INPUTS: usize = INPUTS;

    /// The active inputs seen by player `view` (see the module's doc).
    fn net_features(&self, view: usize, out: &mut Vec<u16>) {
        let mirror = mirror();
        for side in 0..2 {
            let owner = usize::from(side != view);
            for kind in 0..4 {
                let base = (owner * 4 + kind) * CELLS;
                for cell in bits(self.pieces[side][kind]) {
                    let seen = if view == 0 {
                        cell
                    } else {
                        usize::from(mirror[cell])
                    };
                    out.push((base + seen) as u16);
                }
            }
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::game::Game;
    use crate::game::tactigon::START_FEN;

    #[test]
    fn the_mirror_is_an_involution_that_keeps_the_gold_tiles() {
        let m = mirror();
        assert!((0..CELLS).all(|c| usize::from(m[usize::from(m[c])]) == c));
        assert_eq!((0..CELLS).filter(|&c| usize::from(m[c]) == c).count(), 3);
        for gold in bits(board().gold) {
            assert_eq!(usize::from(m[gold]), gold);
        }
    }

    #[test]
    fn both_players_see_the_start_position_alike() {
        let pos = Tactigon::from_fen(START_FEN, &Default::default()).unwrap();
        let (mut red, mut blue) = (Vec::new(), Vec::new());
        pos.net_features(0, &mut red);
        pos.net_features(1, &mut blue);
        red.sort_unstable();
        blue.sort_unstable();
        assert_eq!(red.len(), 26);
        assert_eq!(red, blue);
        assert!(red.iter().all(|&f| usize::from(f) < INPUTS));
    }
}
