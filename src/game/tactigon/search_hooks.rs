//! What the search asks of Tactigon: move ordering by (from, to), the bench positions, the
//! noisy moves quiescence searches (captures, and completing the gold pair), the threat that
//! must be answered (the opponent's gold pair), repetitions, and the clock up to the ply cap.

use super::board::board;
use super::{Tactigon, TactigonMove};
use crate::game::rated::{RatedSetting, rated};
use crate::game::{Game, SearchHooks};

/// The moves a Tactigon player plans its clock over. Half the games between two full-strength
/// engines end by ply 82 (41 moves each) and a quarter by ply 57 (1+0.01, 400 games); the
/// moves after that are mostly the shuffling of long games towards the ply cap, so the clock
/// is planned over fewer moves than a long game has: the early moves, which decide most games,
/// get more time (docs/benchmarks.md, "The clock").
const MOVES_PLANNED: u32 = 25;

impl SearchHooks for Tactigon {
    const HISTORY_SIZE: usize = 53 * 53;
    /// 200 games per step (docs/strength.md, "Levels", 27 Nov 2026). `Level random` loses every
    /// game to all of them, so the scale is anchored on the weakest: 725, the low end of the
    /// 95 % interval of its 200-0 score against `Level random`.
    const RATED_SETTINGS: &'static [RatedSetting] = &[
        rated(725, 1, 8, 60.0),
        rated(900, 200, 6, 35.0),
        rated(1011, 1_000, 5, 20.0),
        rated(1197, 4_000, 4, 12.0),
        rated(1409, 15_000, 3, 7.0),
        rated(1614, 50_000, 3, 4.0),
    ];
    const BENCH_FENS: &'static [&'static str] = &[
        super::START_FEN,
        "2/C1C3c1c/1ST3Sts1/CTP1C1csptc/1ST4ts1/C1C3c1c/2 b 1",
        "2/C1C2sc1c/1ST2S1ts1/CTP1C1c1ptc/1ST4ts1/C1C3c1c/2 r 2",
        "2/4C4/10/2P5p1c/4C5/9/2 r 0",
        "2/9/C9/Sc3P4p/C9/9/2 r 0",
    ];
    const BENCH_DEPTH: u32 = 4;

    fn history_index(&self, m: TactigonMove) -> usize {
        m.from as usize * 53 + m.to as usize
    }

    /// Captures, and moves onto a gold tile that complete the mover's pair (a move that breaks
    /// the opponent's pair is a capture).
    fn noisy_moves(&self, out: &mut Vec<TactigonMove>) {
        self.generate_moves(out);
        out.retain(|&m| self.is_noisy(m));
    }

    fn is_noisy(&self, m: TactigonMove) -> bool {
        let me = self.side_to_move().index();
        let gold = board().gold;
        let own_gold = self.occupied_by(me) & gold;
        let to = 1u64 << m.to;
        let completes = to & gold != 0 && own_gold & !to != 0 && own_gold & (1 << m.from) == 0;
        to & self.occupied_by(1 - me) != 0 || completes
    }

    /// Facing the opponent's gold pair: the pair must be broken now, so standing pat is wrong.
    fn must_respond(&self) -> bool {
        let them = 1 - self.side_to_move().index();
        let gold = board().gold;
        self.occupied_by(them) & gold == gold
    }

    /// Pieces move back and forth freely, so positions recur: the board-and-side key.
    fn repetition_key(&self) -> Option<u64> {
        Some(self.board_key())
    }

    /// The moves that need the clock: at most [`MOVES_PLANNED`], fewer near the ply cap.
    fn moves_left_estimate(&self) -> u32 {
        let cap = self.rules().ply_cap;
        let left = if cap > 0 {
            cap.saturating_sub(self.ply()) / 2
        } else {
            MOVES_PLANNED
        };
        left.clamp(1, MOVES_PLANNED)
    }

    /// The ply cap ends every game; each ply brings it one nearer.
    fn plies_left_bound(&self) -> Option<u32> {
        let cap = self.rules().ply_cap;
        (cap > 0).then(|| cap.saturating_sub(self.ply()))
    }
}
