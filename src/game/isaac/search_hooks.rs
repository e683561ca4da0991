//! What the search asks of Isaac: move ordering by tile and anchor, the bench positions, the
//! searcher (MCTS for the placement phase, alpha-beta for the scoring race), the moves that
//! can be left out, and how far off the end of the game is.

use super::{Isaac, IsaacMove, Phase};
use crate::game::rated::{RatedSetting, rated};
use crate::game::{Game, Player, SearchHooks};

impl SearchHooks for Isaac {
    const HISTORY_SIZE: usize = 1101;
    /// Calibrated by matches (docs/strength.md, "Levels"): `Level random` loses every game to
    /// the weakest, so the scale is anchored there at 725 (as Tactigon's), and each rating
    /// above is the sum of the measured steps (200 games each).
    /// Isaac's nodes are MCTS iterations over ~600 moves: a tenth of the other games' budgets
    /// waits about as long (10,000 nodes 0.42 s, 100,000 2.8 s, docs/benchmarks.md).
    const REVIEW_LEVELS: [(&'static str, f64); 3] = [
        ("nodes 1000", 0.05),
        ("nodes 10000", 0.42),
        ("nodes 100000", 2.8),
    ];
    const RATED_SETTINGS: &'static [RatedSetting] = &[
        rated(725, 1, 8, 8.0),
        rated(930, 1_000, 6, 4.0),
        rated(1140, 5_000, 5, 2.5),
        rated(1322, 20_000, 4, 1.5),
        rated(1453, 60_000, 3, 1.0),
        rated(1520, 150_000, 2, 0.5),
    ];
    const BENCH_FENS: &'static [&'static str] = &[
        "- 54321/54321 d P - 0/0 0/0",
        "D7h00 54320/54321 l P - 0/0 0/0",
        "D6h00,D4h06,D6h10,L4h16,L6h20,D4h26,L5h30,L5h35,L5h40,D5h45,D3h50,D3h53,L4h56,D3h60,D3h63,D4h66,L3h70,L3h73,L4h76,L3h80,L3h83,L4h86,L3h90,D4h93,D3h97 00201/00011 l S - 0/0 0/0",
        "L3v07,L3v09,L3h20,D4h23,D3v31,D5h60,D3h70 00000/00000 d S - 28/79 3/0",
        "D3h13,D3v39,D5h50,L3h55,L3v58 00000/00000 d S - 10/85 0/0",
    ];
    const BENCH_DEPTH: u32 = 3;
    /// MCTS won its SPRT against alpha-beta in the placement phase: 128-84 at 2+0.02,
    /// Elo +73.2 ± 48.2, LLR 3.25 (-2.94, 2.94), H1 accepted (docs/strength.md).
    const MCTS_BY_DEFAULT: bool = true;
    /// In the scoring race, two threads on the same iteration, deferring from depth 2, reach
    /// depth 13 of bench position 3 1.87-1.91x sooner than one; the build before (helper a ply
    /// ahead, depth-blind marks from depth 3) 1.51-1.61x (alternated runs); the threads SPRT is H1
    /// (docs/strength.md, "Threads").
    const SMP_HELPERS_SHARE_DEPTH: bool = true;
    const SMP_DEFER_MIN_DEPTH: u32 = 2;

    fn history_index(&self, m: IsaacMove) -> usize {
        match m {
            IsaacMove::Place {
                size,
                vertical,
                anchor,
            } => (size as usize - 3) * 200 + usize::from(vertical) * 100 + anchor as usize,
            IsaacMove::Remove { anchor, .. } => 1000 + anchor as usize,
            IsaacMove::Pass => 1100,
        }
    }

    /// Advances that reach 100 end the game at once with the mover winning
    /// (docs/rules/isaac.md §4.6); which of them is played changes only the final score, never
    /// the result, so the search keeps the smallest. Everything else is kept: any other advance
    /// changes the mover's score and the counter's cell, which decides tile locks and the ×2 of
    /// later removals for both players, so no two of them are equivalent in general.
    fn search_moves(&self, out: &mut Vec<IsaacMove>) {
        if self.phase != Phase::Scoring {
            return self.generate_moves(out);
        }
        out.clear();
        self.removals(out, true);
        if out.is_empty() {
            out.push(IsaacMove::Pass);
        }
    }

    fn moves_left_estimate(&self) -> u32 {
        let me = self.side_to_move();
        // Placement: about two thirds of the tiles in hand still find a place (9.5 of 15 a
        // side in 400 games at 1+0.01), the last of them in a crowded board with few
        // choices, and the scoring race after it costs almost nothing: its exact search
        // proves the result within a move or two, and both sides ended those games with half
        // their clock unused. So the placements ahead count, about half the hand.
        // Scoring: every tile may still be taken.
        match self.phase {
            Phase::Placement => self.unplaced_tiles(me) / 2 + 1,
            _ => {
                let own_on_board = self
                    .tiles()
                    .iter()
                    .filter(|t| t.owner as usize == me.index() && t.size >= self.floor(me))
                    .count() as u32;
                own_on_board + 1
            }
        }
    }

    /// Every ply places a tile (hands −1, board +1), removes a tile that can never come
    /// back, passes, or raises a floor past tiles that then never move: so this count of
    /// what is left falls by at least one every ply.
    fn plies_left_bound(&self) -> Option<u32> {
        let hands: u32 = [Player::One, Player::Two]
            .iter()
            .map(|&p| self.unplaced_tiles(p))
            .sum();
        let passes_left = |passed: [bool; 2]| passed.iter().filter(|&&p| !p).count() as u32;
        Some(match self.phase {
            Phase::Placement => {
                2 * hands + self.tiles().len() as u32 + passes_left(self.passed) + 2
            }
            Phase::Scoring => {
                let live = self
                    .tiles()
                    .iter()
                    .filter(|t| {
                        let o = t.owner as usize;
                        !self.passed[o] && t.size >= self.floors[o]
                    })
                    .count() as u32;
                live + passes_left(self.passed)
            }
            Phase::Ended => 0,
        })
    }

    /// MCTS is for the placement phase (hundreds of moves a ply, a far horizon); the scoring
    /// phase is short, tactical and decided by exact counting, which is alpha-beta's job.
    fn exact_search_preferred(&self) -> bool {
        self.phase != Phase::Placement
    }
}
