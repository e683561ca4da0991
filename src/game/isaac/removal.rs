//! What a removal would do, before it is made (docs/rules/isaac.md §4.3–§4.4): for each tile the
//! side to move may take off, the points it earns (`P = N · v · 2^c` with its three factors),
//! where the mover's counter would end for every advance `0..=P`, and the one advance the
//! collision rule forbids. A program showing the scoring phase (a GUI, a trainer's report) can
//! show these without knowing the rules.

use super::tables::value;
use super::{Isaac, Phase, Tile};
use crate::game::Player;

/// What removing one tile of the side to move would do (docs/rules/isaac.md §4.3–§4.4).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct RemovalPreview {
    /// The tile.
    pub tile: Tile,
    /// `N`: the other tiles that would still have a cell in the tile's line.
    pub tiles_on_line: u32,
    /// `v`: the tile's value.
    pub value: u8,
    /// `c`: the counters standing in the line (0, 1 or 2).
    pub counters_on_line: u32,
    /// `P = N · v · 2^c`: the points earned, the largest advance.
    pub earned: u32,
    /// Who removes it.
    pub player: Player,
    /// The mover's score before the removal.
    pub score: u8,
    /// The advance that would end on the other counter, forbidden by the collision rule (only
    /// under that rule, and only if it is at most `earned`).
    pub collision: Option<u32>,
}

impl RemovalPreview {
    /// The score after advancing `k` cells.
    pub fn score_after(&self, k: u32) -> u32 {
        self.score as u32 + k
    }

    /// The Dark-frame cell the mover's counter ends on after advancing `k` cells; `None` when
    /// the score reaches 100 (the counter leaves the board and the mover wins, §4.6).
    pub fn landing(&self, k: u32) -> Option<usize> {
        Isaac::score_cell(self.player, self.score_after(k))
    }

    /// Whether advancing `k` cells is a legal move.
    pub fn allowed(&self, k: u32) -> bool {
        k <= self.earned && Some(k) != self.collision
    }
}

impl Isaac {
    /// The Dark-frame cell of a counter of `player` at `score` (docs/rules/isaac.md §1.3); `None`
    /// at 100 or more, when the counter is off the board.
    pub fn score_cell(player: Player, score: u32) -> Option<usize> {
        let s = usize::try_from(score).ok().filter(|&s| s < 100)?;
        Some(if player == Player::One { s } else { 99 - s })
    }

    /// What each removal open to the side to move would do, one entry per removable tile, by
    /// anchor; empty outside the scoring phase.
    pub fn removal_previews(&self) -> Vec<RemovalPreview> {
        if self.phase != Phase::Scoring {
            return Vec::new();
        }
        let counters = self.counter_mask();
        let me = self.side;
        let score = self.score(me);
        let them = self.score(me.opponent()) as u32;
        self.tiles()
            .iter()
            .filter(|&&t| self.removable(t, counters))
            .map(|&t| {
                let (tiles_on_line, counters_on_line) = self.line_counts(t, counters);
                let earned = self.earned_with(t, counters);
                // Ending on the other counter means a new score of 99 − theirs (§4.4).
                let collision = (99u32)
                    .checked_sub(them)
                    .and_then(|x| x.checked_sub(score as u32))
                    .filter(|&k| self.rules.collision && k <= earned);
                RemovalPreview {
                    tile: t,
                    tiles_on_line,
                    value: value(t.size),
                    counters_on_line,
                    earned,
                    player: me,
                    score,
                    collision,
                }
            })
            .collect()
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::game::Game;
    use crate::game::isaac::{IsaacMove, IsaacRules};

    fn pos(fen: &str, rules: IsaacRules) -> Isaac {
        Isaac::from_fen(fen, &rules).unwrap_or_else(|e| panic!("{fen}: {}", e.0))
    }

    /// The advances the legal moves allow for the tile at `anchor`.
    fn legal_advances(p: &Isaac, anchor: u8) -> Vec<u32> {
        let mut moves = Vec::new();
        p.generate_moves(&mut moves);
        moves
            .into_iter()
            .filter_map(|m| match m {
                IsaacMove::Remove { anchor: a, k, .. } if a == anchor => Some(k as u32),
                _ => None,
            })
            .collect()
    }

    #[test]
    fn tv4_the_factors_and_where_the_counter_lands() {
        // docs/rules/isaac.md §8 TV4: x4h23 earns 3 × 2 × 4 = 24; Dark's counter is on 28.
        let p = pos(
            "L3v07,L3v09,L3h20,D4h23,D3v31,D5h60,D3h70 00000/00000 d S - 28/79 3/0",
            IsaacRules::default(),
        );
        let previews = p.removal_previews();
        let anchors: Vec<u8> = previews.iter().map(|r| r.tile.anchor).collect();
        assert_eq!(anchors, [23, 31, 60, 70]);
        let r = previews[0];
        assert_eq!((r.tiles_on_line, r.value, r.counters_on_line), (3, 2, 2));
        assert_eq!((r.earned, r.score, r.collision), (24, 28, None));
        assert_eq!((r.landing(0), r.landing(24)), (Some(28), Some(52)));
        assert_eq!(previews[1].earned, 3);
        for r in previews {
            let allowed: Vec<u32> = (0..=r.earned).filter(|&k| r.allowed(k)).collect();
            assert_eq!(allowed, legal_advances(&p, r.tile.anchor));
        }
    }

    #[test]
    fn tv5_and_tv6_the_collision_and_leaving_the_board() {
        // TV5: x5h50 earns 9, but +4 would end on 14, Light's counter.
        let p = pos(
            "D3h13,D3v39,D5h50,L3h55,L3v58 00000/00000 d S - 10/85 0/0",
            IsaacRules::default(),
        );
        let r = p.removal_previews()[1];
        assert_eq!((r.tile.anchor, r.earned, r.collision), (50, 9, Some(4)));
        assert_eq!(r.landing(4), p.counter_cell(Player::Two));
        assert!(!r.allowed(4) && r.allowed(5));
        // Without the collision rule every advance is allowed.
        let rules = IsaacRules {
            collision: false,
            ..IsaacRules::default()
        };
        let free = pos(
            "D3h13,D3v39,D5h50,L3h55,L3v58 00000/00000 d S - 10/85 0/0",
            rules,
        );
        assert_eq!(free.removal_previews()[1].collision, None);
        // Light's side: Light's counter walks down Dark's numbers; +2 would end on Dark's 12.
        let p = pos(
            "D3h13,D3v39,L3h55,L3v58 00000/00000 l S - 12/85 5/0",
            IsaacRules::default(),
        );
        let r = p.removal_previews()[0];
        assert_eq!((r.earned, r.collision), (2, Some(2)));
        assert_eq!((r.landing(0), r.landing(1)), (Some(14), Some(13)));
        // TV6: from 95, +3 collides on 98 and +5 or more leaves the board (a win).
        let p = pos(
            "D4h60,L3v64,L3h65,L3v68,D3v69 00000/00000 d S - 95/1 0/0",
            IsaacRules::default(),
        );
        let r = p.removal_previews()[0];
        assert_eq!((r.earned, r.collision), (8, Some(3)));
        assert_eq!(
            (r.landing(4), r.landing(5), r.landing(8)),
            (Some(99), None, None)
        );
    }

    #[test]
    fn nothing_outside_the_scoring_phase() {
        let p = pos("- 54321/54321 d P - 0/0 0/0", IsaacRules::default());
        assert!(p.removal_previews().is_empty());
        assert_eq!(Isaac::score_cell(Player::Two, 0), Some(99));
        assert_eq!(Isaac::score_cell(Player::One, 100), None);
    }
}
