//! Move generation, move making and the winner (docs/rules/isaac.md §2–§4 and §6's options).

use super::tables::{CELLS, SIZES, line_mask, run_mask, size_index, value};
use super::{Isaac, IsaacMove, Phase, Tile};
use crate::game::Player;

/// Isaac's rule switches; the default is the official rules (docs/rules/isaac.md §6).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub struct IsaacRules {
    /// Tie-break by unplaced cells only, as the seed program does: step 3 of
    /// docs/rules/isaac.md §4.7 is skipped.
    pub cells_only_tiebreak: bool,
    /// Dark starts the scoring phase instead of the first passer (backed by no source).
    pub scoring_starter_dark: bool,
    /// A counter may not land on the other counter (the official rule; the seed omits it).
    pub collision: bool,
    /// The seed's rule: once one player is out, the game ends as soon as the other is
    /// strictly ahead.
    pub early_finish: bool,
}

impl Default for IsaacRules {
    fn default() -> Self {
        IsaacRules {
            cells_only_tiebreak: false,
            scoring_starter_dark: false,
            collision: true,
            early_finish: false,
        }
    }
}

impl Isaac {
    /// Appends every placement of the side to move, by size, then orientation (h before v),
    /// then anchor.
    pub(super) fn placements(&self, out: &mut Vec<IsaacMove>) {
        let hand = self.hands[self.side.index()];
        for (si, &size) in SIZES.iter().enumerate() {
            if hand[si] == 0 {
                continue;
            }
            for vertical in [false, true] {
                for anchor in 0..CELLS {
                    let mask = run_mask(size, vertical, anchor);
                    if mask != 0 && mask & self.occupied == 0 {
                        out.push(IsaacMove::Place {
                            size,
                            vertical,
                            anchor: anchor as u8,
                        });
                    }
                }
            }
        }
    }

    /// Whether the side to move may remove `t` now (docs/rules/isaac.md §4.1).
    pub(super) fn removable(&self, t: Tile, counters: u128) -> bool {
        let me = self.side.index();
        t.owner as usize == me && t.size >= self.floors[me] && t.mask() & counters == 0
    }

    /// The points earned by removing `t`, `N · v · 2^c` counted after removal
    /// (docs/rules/isaac.md §4.3).
    pub fn earned(&self, t: Tile) -> u32 {
        self.earned_with(t, self.counter_mask())
    }

    /// [`Isaac::earned`] with the counter cells already known (callers looping over tiles).
    pub(super) fn earned_with(&self, t: Tile, counter_cells: u128) -> u32 {
        let (others, counters) = self.line_counts(t, counter_cells);
        others * value(t.size) as u32 * (1 << counters)
    }

    /// `N` and `c` of removing `t` (docs/rules/isaac.md §4.3): the other tiles with a cell in
    /// its line, and the counters standing in that line.
    pub(super) fn line_counts(&self, t: Tile, counter_cells: u128) -> (u32, u32) {
        let line = line_mask(t.vertical, t.anchor as usize);
        let others = self
            .tiles()
            .iter()
            .filter(|u| u.anchor != t.anchor && u.mask() & line != 0)
            .count() as u32;
        (others, (counter_cells & line).count_ones())
    }

    /// Whether the side to move may end its counter on `score` (the collision rule of
    /// docs/rules/isaac.md §4.4).
    fn may_land(&self, score: u32) -> bool {
        let them = self.scores[self.side.opponent().index()] as u32;
        score >= 100 || !self.rules.collision || score + them != 99
    }

    /// Appends every removal of the side to move, by anchor, then k. With `one_win`, the
    /// advances that reach 100 are represented by the smallest one (for search only).
    pub(super) fn removals(&self, out: &mut Vec<IsaacMove>, one_win: bool) {
        let counters = self.counter_mask();
        let score = self.scores[self.side.index()] as u32;
        for &t in self.tiles() {
            if !self.removable(t, counters) {
                continue;
            }
            let mut top = self.earned_with(t, counters);
            if one_win {
                top = top.min(100u32.saturating_sub(score));
            }
            for k in 0..=top {
                if self.may_land(score + k) {
                    out.push(IsaacMove::Remove {
                        size: t.size,
                        vertical: t.vertical,
                        anchor: t.anchor,
                        k: k as u8,
                    });
                }
            }
        }
    }

    /// Plays a move known to be legal.
    pub(super) fn apply(&mut self, m: IsaacMove) {
        let me = self.side.index();
        let them = self.side.opponent();
        match m {
            IsaacMove::Place {
                size,
                vertical,
                anchor,
            } => {
                let si = size_index(size).unwrap_or_default();
                self.set_hand(me, si, self.hands[me][si] - 1);
                self.add_tile(Tile {
                    owner: me as u8,
                    size,
                    vertical,
                    anchor,
                });
                // After a pass the other player places alone (docs/rules/isaac.md §2.5).
                if !self.passed[them.index()] {
                    self.set_side(them);
                }
            }
            IsaacMove::Remove { anchor, k, .. } => {
                let index = self.tiles().iter().position(|t| t.anchor == anchor);
                let Some(index) = index else { return };
                let tile = self.remove_tile_at(index);
                self.set_floor(me, self.floors[me].max(tile.size));
                let score = self.scores[me] as u32 + k as u32;
                self.set_score(me, score.min(u8::MAX as u32) as u8);
                if score >= 100 {
                    return self.set_phase(Phase::Ended);
                }
                if !self.passed[them.index()] {
                    self.set_side(them);
                }
                self.check_early_finish();
            }
            IsaacMove::Pass => self.pass(),
        }
    }

    fn pass(&mut self) {
        let me = self.side.index();
        let them = self.side.opponent();
        match self.phase {
            Phase::Placement if self.passed[them.index()] => {
                // The second pass ends the placement phase (docs/rules/isaac.md §3): scores and
                // floors are 0, counters go on each owner's 00, pass flags now mean "out".
                self.set_passed(them.index(), false);
                self.set_phase(Phase::Scoring);
                let starter = if self.rules.scoring_starter_dark {
                    Player::One
                } else {
                    them
                };
                self.set_side(starter);
            }
            Phase::Placement => {
                self.set_passed(me, true);
                self.set_side(them);
            }
            Phase::Scoring => {
                self.set_passed(me, true);
                if self.passed[them.index()] {
                    return self.set_phase(Phase::Ended);
                }
                self.set_side(them);
                self.check_early_finish();
            }
            Phase::Ended => {}
        }
    }

    /// The seed's early finish (option): one player out, the other strictly ahead.
    fn check_early_finish(&mut self) {
        if !self.rules.early_finish || self.phase != Phase::Scoring {
            return;
        }
        for p in [Player::One, Player::Two] {
            let (i, o) = (p.index(), p.opponent().index());
            if self.passed[o] && !self.passed[i] && self.scores[i] > self.scores[o] {
                return self.set_phase(Phase::Ended);
            }
        }
    }

    /// Why an illegal move is illegal, in the rules' terms.
    pub(super) fn explain_illegal(&self, m: IsaacMove) -> String {
        let counters = self.counter_mask();
        match (m, self.phase) {
            (IsaacMove::Pass, Phase::Placement) => {
                "a pass is allowed only when no tile fits".into()
            }
            (IsaacMove::Pass, _) => "a pass is allowed only when no tile can be removed".into(),
            (IsaacMove::Place { .. }, Phase::Scoring) => {
                "placing is over: this is the scoring phase".into()
            }
            (IsaacMove::Remove { .. }, Phase::Placement) => {
                "tiles are removed only in the scoring phase".into()
            }
            (
                IsaacMove::Place {
                    size,
                    vertical,
                    anchor,
                },
                _,
            ) => {
                let mask = run_mask(size, vertical, anchor as usize);
                let in_hand =
                    size_index(size).is_some_and(|si| self.hands[self.side.index()][si] > 0);
                if !in_hand {
                    format!("no tile of size {size} left in hand")
                } else if mask == 0 {
                    "the tile would leave the board".into()
                } else {
                    "the tile would cover an occupied cell".into()
                }
            }
            (
                IsaacMove::Remove {
                    size,
                    vertical,
                    anchor,
                    k,
                },
                _,
            ) => {
                let own = self.tiles().iter().copied().find(|t| {
                    t.anchor == anchor
                        && t.size == size
                        && t.vertical == vertical
                        && t.owner as usize == self.side.index()
                });
                let Some(tile) = own else {
                    return "the side to move has no such tile on the board".into();
                };
                let floor = self.floors[self.side.index()];
                if tile.size < floor {
                    return format!("size {size} is below the floor {floor}");
                }
                if tile.mask() & counters != 0 {
                    return "a counter stands on the tile".into();
                }
                let earned = self.earned(tile);
                if k as u32 > earned {
                    return format!("the removal earns {earned}, not {k}");
                }
                "the counter would land on the other counter".into()
            }
        }
    }

    /// The winner of a finished game (docs/rules/isaac.md §4.6–4.7).
    pub(super) fn winner(&self) -> Player {
        let [d, l] = self.scores;
        if d != l {
            return if d > l { Player::One } else { Player::Two };
        }
        let (dc, lc) = (
            self.unplaced_cells(Player::One),
            self.unplaced_cells(Player::Two),
        );
        if dc != lc {
            return if dc > lc { Player::One } else { Player::Two };
        }
        if !self.rules.cells_only_tiebreak {
            let (dt, lt) = (
                self.unplaced_tiles(Player::One),
                self.unplaced_tiles(Player::Two),
            );
            if dt != lt {
                return if dt < lt { Player::One } else { Player::Two };
            }
        }
        Player::One
    }
}
