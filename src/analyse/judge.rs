//! How much a move lost, and what that makes it: the engine's score of the position before
//! the move (its best) against the mover's score after it (the engine's score of the next
//! position, negated unless the mover is to move again), both from the mover's side.

use std::fmt;

use crate::client::ReportedScore;

/// Centipawn losses from which a move is an inaccuracy, a mistake, a blunder.
pub const INACCURACY: i64 = 50;
/// See [`INACCURACY`].
pub const MISTAKE: i64 = 100;
/// See [`INACCURACY`].
pub const BLUNDER: i64 = 300;

/// Scores beyond this count as this much (a won position is worth at most a clear win).
const CLAMP: i64 = 1000;

/// The value of a position to the mover after a move.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum After {
    /// The engine's score of the next position, from the mover's side (negated when the
    /// other player is to move there).
    Score(ReportedScore),
    /// The move ended the game: a win for the mover, a draw, or a loss.
    Ended(std::cmp::Ordering),
}

/// What a move was, by what it lost.
#[derive(Clone, Copy, Debug, PartialEq, Eq, PartialOrd, Ord)]
pub enum Verdict {
    /// Lost less than [`INACCURACY`] (or was the engine's move).
    Good,
    /// `?!`
    Inaccuracy,
    /// `?`
    Mistake,
    /// `??`: lost [`BLUNDER`] or more, or threw away a proven win, or walked into a proven
    /// loss.
    Blunder,
}

impl Verdict {
    /// The mark after the move in the annotated record.
    pub fn mark(self) -> &'static str {
        match self {
            Verdict::Good => "",
            Verdict::Inaccuracy => "?!",
            Verdict::Mistake => "?",
            Verdict::Blunder => "??",
        }
    }

    /// The word in the move's comment and the summary.
    pub fn word(self) -> &'static str {
        match self {
            Verdict::Good => "good",
            Verdict::Inaccuracy => "inaccuracy",
            Verdict::Mistake => "mistake",
            Verdict::Blunder => "blunder",
        }
    }
}

impl fmt::Display for After {
    /// `+35`, `-M2`, or `end` for a move that ended the game.
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            After::Score(s) => write!(f, "{s}"),
            After::Ended(_) => write!(f, "end"),
        }
    }
}

/// The other player's view of a score: the mover's view of the score of a position where
/// the opponent is to move.
pub fn negate(score: ReportedScore) -> ReportedScore {
    match score {
        ReportedScore::Cp(cp) => ReportedScore::Cp(cp.saturating_neg()),
        ReportedScore::Mate(n) => ReportedScore::Mate(n.saturating_neg()),
    }
}

/// Whether a score says the side is proven to win (`Some(true)`), to lose (`Some(false)`),
/// or neither.
fn proven(score: ReportedScore) -> Option<bool> {
    match score {
        ReportedScore::Mate(n) if n > 0 => Some(true),
        ReportedScore::Mate(_) => Some(false),
        ReportedScore::Cp(_) => None,
    }
}

/// A score on one scale for losses: centipawns clamped to ±[`CLAMP`], proven results at the
/// ends.
fn value(score: ReportedScore) -> i64 {
    match score {
        ReportedScore::Cp(cp) => i64::from(cp).clamp(-CLAMP, CLAMP),
        ReportedScore::Mate(n) if n > 0 => CLAMP,
        ReportedScore::Mate(_) => -CLAMP,
    }
}

/// What the move lost and its verdict: `best` is the engine's score of the position before
/// the move (mover's side), `after` the mover's value after it, `engine_move` whether the
/// move is the one the engine chose (then it lost nothing).
pub fn judge(best: Option<ReportedScore>, after: After, engine_move: bool) -> (i64, Verdict) {
    let Some(best) = best else {
        return (0, Verdict::Good);
    };
    if engine_move {
        return (0, Verdict::Good);
    }
    let (after_value, after_proven) = match after {
        After::Score(s) => (value(s), proven(s)),
        After::Ended(std::cmp::Ordering::Greater) => (CLAMP, Some(true)),
        After::Ended(std::cmp::Ordering::Less) => (-CLAMP, Some(false)),
        After::Ended(std::cmp::Ordering::Equal) => (0, None),
    };
    let loss = (value(best) - after_value).max(0);
    let threw_a_win = proven(best) == Some(true) && after_proven != Some(true);
    let into_a_loss = proven(best) != Some(false) && after_proven == Some(false);
    let verdict = if threw_a_win || into_a_loss || loss >= BLUNDER {
        Verdict::Blunder
    } else if loss >= MISTAKE {
        Verdict::Mistake
    } else if loss >= INACCURACY {
        Verdict::Inaccuracy
    } else {
        Verdict::Good
    };
    (loss, verdict)
}

#[cfg(test)]
mod tests {
    use super::*;
    use std::cmp::Ordering;

    use ReportedScore::{Cp, Mate};

    #[test]
    fn losses_make_verdicts() {
        let after = |s| After::Score(s);
        assert_eq!(
            judge(Some(Cp(40)), after(Cp(20)), false),
            (20, Verdict::Good)
        );
        assert_eq!(
            judge(Some(Cp(40)), after(Cp(-20)), false),
            (60, Verdict::Inaccuracy)
        );
        assert_eq!(
            judge(Some(Cp(40)), after(Cp(-80)), false),
            (120, Verdict::Mistake)
        );
        assert_eq!(
            judge(Some(Cp(40)), after(Cp(-400)), false),
            (440, Verdict::Blunder)
        );
        // Better than the engine's own estimate: no loss.
        assert_eq!(
            judge(Some(Cp(40)), after(Cp(90)), false),
            (0, Verdict::Good)
        );
        // The engine's own move loses nothing, whatever the next search says.
        assert_eq!(
            judge(Some(Cp(40)), after(Cp(-400)), true),
            (0, Verdict::Good)
        );
        assert_eq!(judge(None, after(Cp(-400)), false), (0, Verdict::Good));
    }

    #[test]
    fn proven_results_dropped_are_blunders() {
        let after = |s| After::Score(s);
        // A proven win thrown away, even for a fine-looking score.
        assert_eq!(
            judge(Some(Mate(5)), after(Cp(900)), false).1,
            Verdict::Blunder
        );
        // A longer win is no loss.
        assert_eq!(
            judge(Some(Mate(3)), after(Mate(7)), false),
            (0, Verdict::Good)
        );
        // Walking into a proven loss from an open position.
        assert_eq!(
            judge(Some(Cp(0)), after(Mate(-4)), false).1,
            Verdict::Blunder
        );
        // Already lost: resisting shorter is no blunder.
        assert_eq!(
            judge(Some(Mate(-6)), after(Mate(-2)), false),
            (0, Verdict::Good)
        );
        // A move that ends the game in a win loses nothing; one that ends it lost is a
        // blunder.
        let won = After::Ended(Ordering::Greater);
        assert_eq!(judge(Some(Mate(1)), won, false), (0, Verdict::Good));
        let lost = After::Ended(Ordering::Less);
        assert_eq!(judge(Some(Cp(10)), lost, false).1, Verdict::Blunder);
    }

    #[test]
    fn scores_turn_to_the_movers_side() {
        assert_eq!(negate(Cp(35)), Cp(-35));
        assert_eq!(negate(Mate(-2)), Mate(2));
        assert_eq!(After::Score(Mate(3)).to_string(), "+M3");
        assert_eq!(After::Ended(Ordering::Equal).to_string(), "end");
    }
}
