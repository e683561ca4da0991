//! Search scores: centipawn-like evaluations and proven results, and how they are reported.
//!
//! Internally a proven win found `p` plies from the root scores `MATE - p` (a loss,
//! `-(MATE - p)`), so shorter wins score higher. Reported as UCI does: `score mate N` where
//! |N| = ⌈p / 2⌉ counts the moves of the side to move until the end, this one included;
//! positive when it wins, negative when it loses. A loss can be an odd number of plies away
//! where a player loses by its own move (Tactigon's gold pair it cannot break).

use std::fmt;

/// The score of a win at the root itself.
pub const MATE: i32 = 32_000;
/// Scores at or beyond this (in absolute value) are proven results.
pub const MATE_BOUND: i32 = MATE - 1_000;
/// Larger than any score.
pub const INFINITY: i32 = MATE + 1;

/// A score as reported in `info … score …`.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Score {
    /// An evaluation in the game's unit, from the side to move's view.
    Cp(i32),
    /// A proven result: win in N moves (N > 0) or loss in -N moves (N ≤ 0).
    Mate(i32),
}

impl Score {
    /// Converts an internal score seen from the root.
    pub fn from_internal(s: i32) -> Score {
        if s >= MATE_BOUND {
            let plies = MATE - s;
            Score::Mate((plies + 1) / 2)
        } else if s <= -MATE_BOUND {
            let plies = MATE + s;
            Score::Mate(-((plies + 1) / 2))
        } else {
            Score::Cp(s)
        }
    }
}

impl fmt::Display for Score {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            Score::Cp(cp) => write!(f, "cp {cp}"),
            Score::Mate(n) => write!(f, "mate {n}"),
        }
    }
}

/// The score of a position whose side to move has already won (`won`) or lost, `ply` plies
/// below the root.
pub fn terminal_score(won: Option<bool>, ply: usize) -> i32 {
    match won {
        Some(true) => MATE - ply as i32,
        Some(false) => -(MATE - ply as i32),
        None => 0,
    }
}

/// A mate score made relative to the node before it is stored.
pub fn mate_to_tt(score: i32, ply: usize) -> i32 {
    if score >= MATE_BOUND {
        score + ply as i32
    } else if score <= -MATE_BOUND {
        score - ply as i32
    } else {
        score
    }
}

/// A stored mate score made relative to the root again.
pub fn mate_from_tt(score: i32, ply: usize) -> i32 {
    if score >= MATE_BOUND {
        score - ply as i32
    } else if score <= -MATE_BOUND {
        score + ply as i32
    } else {
        score
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn mate_counts_moves_of_the_side_to_move() {
        // The opponent has no move after our move: won at ply 1 = mate in 1.
        assert_eq!(Score::from_internal(MATE - 1), Score::Mate(1));
        assert_eq!(Score::from_internal(MATE - 3), Score::Mate(2));
        // Whatever we play, the opponent wins with its reply: lost at ply 2 = mate -1.
        assert_eq!(Score::from_internal(-(MATE - 2)), Score::Mate(-1));
        assert_eq!(Score::from_internal(-(MATE - 4)), Score::Mate(-2));
        // Lost by one's own move (nothing can break the opponent's gold pair): mate -1.
        assert_eq!(Score::from_internal(-(MATE - 1)), Score::Mate(-1));
        assert_eq!(Score::from_internal(-(MATE - 3)), Score::Mate(-2));
        assert_eq!(Score::from_internal(57), Score::Cp(57));
        assert_eq!(Score::Mate(-2).to_string(), "mate -2");
    }

    #[test]
    fn tt_round_trip_keeps_mate_distance() {
        for s in [MATE - 5, -(MATE - 8), 120, -3] {
            assert_eq!(mate_from_tt(mate_to_tt(s, 4), 4), s);
        }
    }
}
