//! Tactigon's hand evaluation.
//!
//! Unit: a circle is 100. Material by combat power (a triangle beats circles only by trading,
//! a square cannot touch circles but beats triangles and squares), mobility (legal moves), the
//! gold tiles (each held tile, and a pair the opponent must break), and pentagon safety (own
//! pieces next to it, enemy attackers near it). The pentagon itself is not material: losing it
//! ends the game, which the search sees.

use super::board::{board, neighbours_of};
use super::{PENTAGON, Tactigon, bits};
use crate::game::{Evaluate, Game};

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
    type Prepared = ();

    fn evaluate(&self) -> i32 {
        let me = self.side_to_move().index();
        self.side_value(me, true) - self.side_value(1 - me, false)
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
