//! Search knowledge for Tactigon.
//!
//! Unit: a circle is 100. Material by combat power (a triangle beats circles only by trading,
//! a square cannot touch circles but beats triangles and squares), mobility (legal moves), the
//! gold tiles (each held tile, and a pair the opponent must break), and pentagon safety (own
//! pieces next to it, enemy attackers near it). The pentagon itself is not material: losing it
//! ends the game, which the search sees.

use super::board::{board, neighbours_of};
use super::{PENTAGON, Tactigon, TactigonMove, bits};
use crate::game::{Evaluate, Game};

/// The moves a Tactigon player plans its clock over. Half the games between two full-strength
/// engines end by ply 82 (41 moves each) and a quarter by ply 57 (1+0.01, 400 games); the
/// moves after that are mostly the shuffling of long games towards the ply cap, so the clock
/// is planned over fewer moves than a long game has: the early moves, which decide most games,
/// get more time (docs/benchmarks.md, "The clock").
const MOVES_PLANNED: u32 = 25;

/// Value of a circle, triangle and square.
const MATERIAL: [i32; 3] = [100, 280, 320];
/// Per legal move.
const MOBILITY: i32 = 3;
/// Per gold tile held.
const GOLD_TILE: i32 = 60;
/// Holding both gold tiles when the opponent is to move (it must break the pair or lose).
const GOLD_PAIR: i32 = 400;
/// Per own piece next to the own pentagon.
const SHIELD: i32 = 12;
/// Per enemy triangle, square or pentagon within three steps of the own pentagon.
const ATTACKER: i32 = 25;

impl Tactigon {
    fn side_value(&self, side: usize, to_move: bool) -> i32 {
        let p = &self.pieces[side];
        let material: i32 = (0..3).map(|k| MATERIAL[k] * p[k].count_ones() as i32).sum();
        let gold = board().gold;
        let held = (self.occupied_by(side) & gold).count_ones() as i32;
        let pair = if held == 2 && !to_move { GOLD_PAIR } else { 0 };
        let pentagon = p[PENTAGON];
        let near = neighbours_of(pentagon);
        let within3 = neighbours_of(neighbours_of(near) | near) | near;
        let enemy = &self.pieces[1 - side];
        let attackers = ((enemy[1] | enemy[2] | enemy[3]) & within3).count_ones() as i32;
        let shield = (self.occupied_by(side) & near).count_ones() as i32;
        material + MOBILITY * self.mobility(side) as i32 + GOLD_TILE * held + pair + SHIELD * shield
            - ATTACKER * attackers
    }
}

impl Evaluate for Tactigon {
    const HISTORY_SIZE: usize = 53 * 53;
    const BENCH_FENS: &'static [&'static str] = &[
        super::START_FEN,
        "2/C1C3c1c/1ST3Sts1/CTP1C1csptc/1ST4ts1/C1C3c1c/2 b 1",
        "2/C1C2sc1c/1ST2S1ts1/CTP1C1c1ptc/1ST4ts1/C1C3c1c/2 r 2",
        "2/4C4/10/2P5p1c/4C5/9/2 r 0",
        "2/9/C9/Sc3P4p/C9/9/2 r 0",
    ];
    const BENCH_DEPTH: u32 = 4;
    const NET_FEATURES: &'static str = super::features::FEATURES;
    const NET_INPUTS: usize = super::features::INPUTS;

    fn net_features(&self, view: usize, out: &mut Vec<u16>) {
        self.features(view, out);
    }

    fn evaluate(&self) -> i32 {
        let me = self.side_to_move().index();
        self.side_value(me, true) - self.side_value(1 - me, false)
    }

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

    fn explain_eval(&self) -> String {
        let me = self.side_to_move().index();
        let mut out = String::new();
        for (side, name) in [(0, "Red"), (1, "Blue")] {
            let p = &self.pieces[side];
            out.push_str(&format!(
                "{name}: circles {} triangles {} squares {} pentagon {} gold {} -> {}\n",
                p[0].count_ones(),
                p[1].count_ones(),
                p[2].count_ones(),
                p[PENTAGON].count_ones(),
                bits(self.occupied_by(side) & board().gold).count(),
                self.side_value(side, side == me)
            ));
        }
        out.push_str(&format!("total (side to move) {}", self.evaluate()));
        out
    }
}
