//! What a search may spend: typed limits from `go`, and the time manager that turns clocks
//! into a soft target (do not start another iteration after it) and a hard deadline (abort).

use std::sync::OnceLock;
use std::sync::atomic::{AtomicBool, Ordering};
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
    /// Stop once this many nodes have been searched (in any iteration, depth 1 included: then
    /// the search has no score).
    pub nodes: Option<u64>,
    /// Fixed time for this move in milliseconds.
    pub movetime_ms: Option<i64>,
    /// The side to move's clock.
    pub clock: Option<Clock>,
    /// Search until `stop`, and hold `bestmove` until then even if the search finishes.
    pub infinite: bool,
    /// Look for a win in at most this many moves of the side to move (`go mate N`): alpha-beta
    /// without reductions, at most 2N − 1 plies deep (which finds every such win), stopping
    /// as soon as one is found.
    pub mate: Option<u32>,
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

/// What turns a `go ponder` search into the real one: `ponderhit` gives it the real search's
/// deadlines (counted from the `ponderhit`), and the search, which had none, goes on to them
/// with everything it has searched so far.
#[derive(Debug, Default)]
pub struct PonderHit {
    deadlines: OnceLock<Deadlines>,
    /// Set once `deadlines` is: for work that only needs to know that the time is now the
    /// real search's (the exact proof before a search gives up then).
    flag: AtomicBool,
}

impl PonderHit {
    /// A ponder search not hit yet.
    pub fn new() -> Self {
        Self::default()
    }

    /// The opponent played the expected move: from now on the search keeps `deadlines`.
    /// False (and nothing changes) if it was hit before.
    pub fn hit(&self, deadlines: Deadlines) -> bool {
        let first = self.deadlines.set(deadlines).is_ok();
        self.flag.store(true, Ordering::Release);
        first
    }

    /// A flag set at the hit.
    pub fn flag(&self) -> &AtomicBool {
        &self.flag
    }

    /// Whether `ponderhit` came.
    pub fn is_hit(&self) -> bool {
        self.deadlines.get().is_some()
    }
}

/// A search's deadlines as they stand: its own, or, once the ponder search it is has been hit,
/// the real search's. Read where a search looks at the clock; cheap (one atomic load).
#[derive(Clone, Copy, Debug)]
pub struct Timing<'a> {
    own: Deadlines,
    ponder: Option<&'a PonderHit>,
}

impl<'a> Timing<'a> {
    /// `own` deadlines, replaced by the real ones when `ponder` is hit.
    pub fn new(own: Deadlines, ponder: Option<&'a PonderHit>) -> Self {
        Timing { own, ponder }
    }

    /// The deadlines in force now.
    pub fn now(&self) -> Deadlines {
        self.ponder
            .and_then(|p| p.deadlines.get().copied())
            .unwrap_or(self.own)
    }
}

impl From<Deadlines> for Timing<'_> {
    fn from(own: Deadlines) -> Self {
        Timing::new(own, None)
    }
}

/// Never plan on more moves than this when the game gives no better estimate.
const MAX_MOVES_PLANNED: u32 = 50;
/// Moves added to the game's estimate of the moves left, as a safety margin.
const MOVES_MARGIN: u32 = 2;
/// The hard deadline is at most this many soft targets.
const HARD_PER_SOFT: i64 = 3;
/// The reserve kept on the clock, in overheads (`Move Overhead`)…
const RESERVE_OVERHEADS: i64 = 4;
/// …and in increments.
const RESERVE_INCREMENTS: i64 = 2;
/// While the clock is well above the reserve, every later planned move is charged this
/// fraction (1 / n) of the overhead for its latency.
const CHARGE_PER_OVERHEAD: i64 = 3;

impl Limits {
    /// Whether the search ends by itself: it has a limit (`depth`, `mate`, `nodes`,
    /// `movetime` or a clock) and is not `infinite`.
    pub fn is_bounded(&self) -> bool {
        !self.infinite
            && (self.depth.is_some()
                || self.mate.is_some()
                || self.nodes.is_some()
                || self.movetime_ms.is_some()
                || self.clock.is_some())
    }

    /// Whether `depth` is the only limit: no `nodes`, `movetime`, clock or `infinite`.
    pub fn depth_only(&self) -> bool {
        self.depth.is_some()
            && self.nodes.is_none()
            && self.movetime_ms.is_none()
            && self.clock.is_none()
            && !self.infinite
    }

    /// Whether the search's length is the time manager's to choose: a clock, and no `nodes`,
    /// `movetime` or `infinite` that asks for a length of its own.
    pub fn clock_decides(&self) -> bool {
        self.clock.is_some() && self.nodes.is_none() && self.movetime_ms.is_none() && !self.infinite
    }

    /// The time bounds for a search started at `start`.
    ///
    /// `overhead_ms` (option `Move Overhead`) is the budget for what the GUI, the pipes and
    /// the scheduler lose per move: every deadline ends at least that long before the time
    /// runs out, so `bestmove` arrives in time whenever the latency stays within it.
    /// `moves_left` is the game's estimate of the moves the side to move still has to make.
    ///
    /// With a clock, the time manager plans `m` moves (the estimate plus a margin, at most
    /// the moves to the next control) and never plans the clock below a reserve:
    ///
    /// - `available` = time left − overhead: what this move could spend without flagging;
    /// - `reserve` = 4 × overhead + 2 × increment (at most half of `available`): kept on the
    ///   clock for latency beyond the overhead and for the moves after the planned ones;
    /// - `pool` = `available` − `reserve` + (increment − charge) × (`m` − 1): what the
    ///   planned moves may spend, each of the later ones losing a charge for its latency:
    ///   a third of the overhead (the latency a move is expected to cost: with both cores
    ///   busy the median answer comes within 1 ms of the deadline and 999 in 1000 within
    ///   a third of the default overhead) while more than the reserve is left to spend, the
    ///   whole overhead (the most it may cost) below that;
    /// - soft target = `pool` / `m` (within 0 and `available` − `reserve`);
    /// - hard deadline = 3 × the target, at most half of `available` − `reserve` (all of it on
    ///   the last move before a control). A target of 0 still completes depth 1 in alpha-beta
    ///   (the clock is read every 1024 nodes) and a few iterations of MCTS.
    ///
    /// A move that costs its target plus a latency within the charge leaves the clock where
    /// the plan expects it, so the clock settles well above the reserve (about
    /// `m` × (charge − latency) above it) instead of sinking towards the increment; near the
    /// reserve, any latency within the overhead leaves the clock where it is.
    /// `movetime` is a hard limit less the overhead. When both are given, the earlier wins.
    pub fn deadlines(&self, start: Instant, overhead_ms: i64, moves_left: u32) -> Deadlines {
        // A budget too far away to represent is no deadline at all.
        let at = |ms: i64| start.checked_add(Duration::from_millis(ms.max(0) as u64));
        let overhead = overhead_ms.max(0);
        let mut soft: Option<i64> = None;
        let mut hard: Option<i64> = None;
        if let Some(movetime) = self.movetime_ms {
            // A fixed move time is a hard limit: stop when it is spent, less the overhead.
            let budget = movetime.saturating_sub(overhead);
            soft = Some(budget);
            hard = Some(budget);
        }
        if let Some(clock) = self.clock {
            let (target, limit) = clock_bounds(clock, overhead, moves_left);
            soft = Some(soft.map_or(target, |s| s.min(target)));
            hard = Some(hard.map_or(limit, |h| h.min(limit)));
        }
        Deadlines {
            soft: soft.and_then(at),
            hard: hard.and_then(at),
        }
    }
}

/// The soft target and hard deadline in ms for one move on `clock` (see
/// [`Limits::deadlines`]).
fn clock_bounds(clock: Clock, overhead: i64, moves_left: u32) -> (i64, i64) {
    let available = clock.time_ms.saturating_sub(overhead);
    if available <= 0 {
        return (0, 0);
    }
    let increment = clock.inc_ms.max(0);
    let mut moves = moves_left.min(MAX_MOVES_PLANNED) + MOVES_MARGIN;
    if let Some(mtg) = clock.moves_to_go {
        moves = moves.min(mtg.max(1));
    }
    let moves = i64::from(moves);
    let reserve = RESERVE_OVERHEADS
        .saturating_mul(overhead)
        .saturating_add(RESERVE_INCREMENTS.saturating_mul(increment))
        .min(available / 2);
    let spendable = available - reserve;
    let charge = if spendable > reserve {
        overhead / CHARGE_PER_OVERHEAD
    } else {
        overhead
    };
    let later = increment.saturating_sub(charge).saturating_mul(moves - 1);
    let pool = spendable.saturating_add(later);
    let target = (pool / moves).clamp(0, spendable);
    let cap = if moves > 1 { spendable / 2 } else { spendable };
    let limit = target.saturating_mul(HARD_PER_SOFT).min(cap).max(target);
    (target, limit)
}

#[cfg(test)]
mod tests {
    use super::*;

    /// Limits with only a clock.
    fn on_clock(time_ms: i64, inc_ms: i64, moves_to_go: Option<u32>) -> Limits {
        Limits {
            clock: Some(Clock {
                time_ms,
                inc_ms,
                moves_to_go,
            }),
            ..Limits::default()
        }
    }

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
        let limits = on_clock(12_010, 400, None);
        // available 12000, reserve 4×10 + 2×400 = 840, m = 10 + 2 = 12 moves, charge 10 / 3:
        // pool 11160 + 11 × (400 − 3) = 15527, target 15527 / 12 = 1293, hard 3×.
        assert_eq!(
            ms(limits.deadlines(start, 10, 10), start),
            (Some(1293), Some(3879))
        );
    }

    #[test]
    fn the_last_move_before_a_control_may_use_all_but_the_reserve() {
        let start = Instant::now();
        let limits = on_clock(5_010, 0, Some(1));
        // available 5000, reserve 40: one move left spends the rest.
        assert_eq!(
            ms(limits.deadlines(start, 10, 30), start),
            (Some(4960), Some(4960))
        );
    }

    /// Plays `moves` moves on a clock of `time_ms` + `inc_ms` with a `Move Overhead` of 30 ms
    /// (the default), each costing its hard deadline (the worst the search may do) plus
    /// `latency_ms`; returns the lowest clock seen before a move, or `None` if the flag fell.
    fn lowest_clock(time_ms: i64, inc_ms: i64, latency_ms: i64, moves: u32) -> Option<i64> {
        let start = Instant::now();
        let mut left = time_ms;
        let mut lowest = left;
        for _ in 0..moves {
            lowest = lowest.min(left);
            let limits = on_clock(left, inc_ms, None);
            let (_, hard) = ms(limits.deadlines(start, 30, 40), start);
            left -= hard? as i64 + latency_ms;
            if left <= 0 {
                return None;
            }
            left += inc_ms;
        }
        Some(lowest)
    }

    #[test]
    fn the_clock_settles_above_the_reserve_and_never_falls() {
        // 1 s + 10 ms (the short control strict runners play), 300-move games where every
        // move runs to its hard deadline. The reserve is 4 × 30 + 2 × 10 = 140 ms.
        // A latency of a third of the overhead (what the plan charges while the clock is
        // high): the clock never sinks below the reserve.
        let charged = lowest_clock(1000, 10, 10, 300).expect("no flag");
        assert!(charged >= 140, "lowest clock {charged} ms");
        // A latency of 2 ms (a quiet machine) leaves far more.
        let quiet = lowest_clock(1000, 10, 2, 300).expect("no flag");
        assert!(quiet >= 200, "lowest clock {quiet} ms");
        // At 2 s + 30 ms, every move as late as the whole overhead (as much as the increment
        // brings): the clock sinks below the reserve, where the plan charges the whole
        // overhead, and holds there.
        let worst = lowest_clock(2000, 30, 30, 300).expect("no flag");
        assert!(worst >= 30, "lowest clock {worst} ms");
        // Sudden death: 1 s lasts a 150-move game.
        assert!(lowest_clock(1000, 0, 2, 150).is_some());
    }

    #[test]
    fn in_time_trouble_only_what_the_increment_returns_is_spent() {
        let start = Instant::now();
        let trouble = |inc_ms| on_clock(40, inc_ms, None);
        // available 30, reserve 15 (half of it): without increment the target is 15 / 42 = 0
        // (depth 1 only), and so is the hard deadline.
        assert_eq!(
            ms(trouble(0).deadlines(start, 10, 40), start),
            (Some(0), Some(0))
        );
        // With 30 ms coming back every move, the 15 ms above the reserve may be spent.
        assert_eq!(
            ms(trouble(30).deadlines(start, 10, 40), start),
            (Some(15), Some(15))
        );
    }

    #[test]
    fn empty_clock_means_move_now() {
        let start = Instant::now();
        let limits = on_clock(-5, 0, Some(3));
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

    #[test]
    fn a_ponder_search_keeps_its_own_deadlines_until_hit_then_the_real_ones() {
        let start = Instant::now();
        let none = Limits::default().deadlines(start, 0, 30);
        let real = Limits {
            movetime_ms: Some(300),
            ..Limits::default()
        }
        .deadlines(start, 50, 30);
        let hit = PonderHit::new();
        let timing = Timing::new(none, Some(&hit));
        assert!(!hit.is_hit());
        assert_eq!(ms(timing.now(), start), (None, None));
        assert!(hit.hit(real));
        assert!(hit.is_hit());
        assert_eq!(ms(timing.now(), start), (Some(250), Some(250)));
        assert!(!hit.hit(none), "one ponderhit per search");
        assert_eq!(timing.now(), real);
        assert_eq!(Timing::from(none).now(), none);
    }
}
