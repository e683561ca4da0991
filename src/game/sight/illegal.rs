//! Why a Sight move is not legal, in the words of the rules (docs/rules/sight.md §3): the
//! messages `position … moves`, `move` and the front ends show for an illegal move.

use super::{Sight, SightMove};
use crate::game::Player;
use crate::game::bitboard::bits;

impl Sight {
    /// The rule that `m` breaks in this position (`m` is on the board but not legal).
    pub(super) fn explain_illegal(&self, m: SightMove) -> String {
        let side = self.side;
        let colour = match side {
            Player::One => "White",
            Player::Two => "Black",
        };
        let name = |p: usize| self.geo.square_name(p);
        let to = m.to as usize;
        let own_stacks = self.stacks & self.occupied[side.index()];
        if m.is_placement() {
            if own_stacks != 0 {
                return format!(
                    "{colour} owns a stack, so {colour} must move a stack and may not place"
                );
            }
            return format!(
                "{} is occupied: a piece is placed on an empty point",
                name(to)
            );
        }
        let from = m.from as usize;
        if own_stacks == 0 {
            return format!("{colour} owns no stack, so {colour} must place a piece");
        }
        match self.pile(from) {
            None => return format!("{} is empty: there is no stack to move", name(from)),
            Some((owner, _)) if owner != side => {
                return format!("the pile on {} is not {colour}'s", name(from));
            }
            Some((_, 1)) => {
                return format!(
                    "the piece on {} is a singleton: only stacks move",
                    name(from)
                );
            }
            Some(_) => {}
        }
        if self.geo.neighbours[from] >> to & 1 == 0 {
            return format!(
                "{} is not adjacent to {}: a step goes along one drawn line to the next point",
                name(to),
                name(from)
            );
        }
        if self.pile(to).is_some() {
            return format!("{} is occupied: a step goes to an empty point", name(to));
        }
        // A stack of the mover's, a free neighbour, yet not movable: a taller stack moves first.
        let height = self.height[from];
        let movable = self.movable_stacks(side).unwrap_or(0);
        let tallest = bits(movable).map(|p| self.height[p]).max();
        match tallest {
            Some(h) => format!(
                "the stack on {} has height {height}, but {colour}'s tallest stacks that can \
                 step have height {h}: only they may move",
                name(from)
            ),
            None if self.strict_tallest => format!(
                "the stack on {} is not among {colour}'s tallest stacks, and under the \
                 strict-tallest rule only those may move",
                name(from)
            ),
            None => "not a legal move here".to_string(),
        }
    }
}
