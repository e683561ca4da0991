//! What a search may spend: typed limits from `go`, and the time manager that turns clocks
//! into a soft target (do not start another iteration after it) and a hard deadline (abort).

use std::time::{Duration, Instant};

/// The side to move's clock, already converted from `p1time/p2time` at parse time.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Clock {
    /// Time left on the clock in milliseconds; zero or negative means "move now".
    pub time_ms: i64,
    /// Increment per move in milliseconds.
    pub inc_ms: i64,
    /// Moves until the next time control, if the control has one.
    pub moves_to_go: Option<u32>,
}

/// Limits of one search; several limits → the first one reached ends the search.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct Limits {
    /// Greatest iteration depth in plies.
    pub depth: Option<u32>,
    /// Stop once this many nodes have been searched (after depth 1 is complete).
    pub nodes: Option<u64>,
    /// Fixed time for this move in milliseconds.
    pub movetime_ms: Option<i64>,
    /// The side to move's clock.
    pub clock: Option<Clock>,
    /// Search until `stop`, and hold `bestmove` until then even if the search finishes.
    pub infinite: bool,
    /// When the time for this move began (the `go` arrived); time limits count from here, so
    /// time spent waiting for an earlier job to stop is not time the search may spend. `None`:
    /// from the start of the search.
    pub started: Option<Instant>,
}

/// Soft and hard time bounds of one search, measured from its start.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Deadlines {
    /// Do not start a new iteration after this.
    pub soft: Option<Instant>,
    /// Abort the search at this instant.
    pub hard: Option<Instant>,
}

/// Never plan on more moves than this when the game gives no better estimate.
const MAX_MOVES_PLANNED: u32 = 50;
/// Moves added to the game's estimate of the moves left, as a safety margin.
const MOVES_MARGIN: u32 = 2;
/// The hard deadline is at most this many soft targets.
const HARD_PER_SOFT: i64 = 3;

impl Limits {
    /// The time bounds for a search started at `start`.
    ///
    /// `overhead_ms` (option `Move Overhead`) is what the GUI and the pipe lose per move; it is
    /// taken off every budget so that `bestmove` arrives within the time the GUI allows.
    /// `moves_left` is the game's estimate of the moves the side to move still has to make.
    pub fn deadlines(&self, start: Instant, overhead_ms: i64, moves_left: u32) -> Deadlines {
        // A budget too far away to represent is no deadline at all.
        let at = |ms: i64| start.checked_add(Duration::from_millis(ms.max(0) as u64));
        let mut soft: Option<i64> = None;
        let mut hard: Option<i64> = None;
        if let Some(movetime) = self.movetime_ms {
            // A fixed move time is a hard limit: stop when it is spent, less the overhead.
            let budget = movetime.saturating_sub(overhead_ms);
            soft = Some(budget);
            hard = Some(budget);
        }
        if let Some(clock) = self.clock {
            // Never plan to use the last overhead's worth of the clock.
            let budget = clock.time_ms.saturating_sub(overhead_ms);
            // Spread what is left over the moves still to make, trusting the game's estimate
            // but never past the next time control.
            let mut moves = moves_left.min(MAX_MOVES_PLANNED) + MOVES_MARGIN;
            if let Some(mtg) = clock.moves_to_go {
                moves = moves.min(mtg.max(1));
            }
            // Most of the increment comes back every move, so it can be spent now.
            let increment = clock.inc_ms.max(0) / 4 * 3;
            let target = (budget / moves as i64)
                .saturating_add(increment)
                .min(budget / 2);
            // A hard deadline lets an iteration under way finish, but never eats the clock.
            let limit = target.saturating_mul(HARD_PER_SOFT).min(budget / 4 * 3);
            soft = Some(soft.map_or(target, |s| s.min(target)));
            hard = Some(hard.map_or(limit, |h| h.min(limit)));
        }
        Deadlines {
            soft: soft.and_then(at),
            hard: hard.and_then(at),
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn ms(d: Deadlines, start: Instant) -> (Option<u128>, Option<u128>) {
        let f = |i: Option<Instant>| i.map(|i| (i - start).as_millis());
        (f(d.soft), f(d.hard))
    }

    #[test]
    fn movetime_is_hard_and_loses_the_overhead() {
        let start = Instant::now();
        let limits = Limits {
            movetime_ms: Some(200),
            ..Limits::default()
        };
        assert_eq!(
            ms(limits.deadlines(start, 10, 20), start),
            (Some(190), Some(190))
        );
    }

    #[test]
    fn clock_spreads_time_over_the_moves_left() {
        let start = Instant::now();
        let limits = Limits {
            clock: Some(Clock {
                time_ms: 12_010,
                inc_ms: 400,
                moves_to_go: None,
            }),
            ..Limits::default()
        };
        // 12000 ms over 10 + 2 moves = 1000, plus 3/4 of the increment = 1300; hard 3×.
        assert_eq!(
            ms(limits.deadlines(start, 10, 10), start),
            (Some(1300), Some(3900))
        );
    }

    #[test]
    fn empty_clock_means_move_now() {
        let start = Instant::now();
        let limits = Limits {
            clock: Some(Clock {
                time_ms: -5,
                inc_ms: 0,
                moves_to_go: Some(3),
            }),
            ..Limits::default()
        };
        assert_eq!(
            ms(limits.deadlines(start, 10, 10), start),
            (Some(0), Some(0))
        );
    }

    #[test]
    fn extreme_values_neither_overflow_nor_panic() {
        let start = Instant::now();
        for (time_ms, inc_ms) in [(i64::MAX, i64::MAX), (i64::MIN, i64::MIN), (0, i64::MAX)] {
            let limits = Limits {
                movetime_ms: Some(i64::MAX),
                clock: Some(Clock {
                    time_ms,
                    inc_ms,
                    moves_to_go: Some(u32::MAX),
                }),
                ..Limits::default()
            };
            let d = limits.deadlines(start, 5000, u32::MAX);
            assert!(d.soft.is_none_or(|s| s >= start));
        }
    }

    #[test]
    fn no_time_limit_without_clock_or_movetime() {
        let start = Instant::now();
        let limits = Limits {
            depth: Some(5),
            ..Limits::default()
        };
        assert_eq!(ms(limits.deadlines(start, 10, 10), start), (None, None));
    }
}
