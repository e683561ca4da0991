//! The positions some thread of a Lazy SMP search is searching right now ("simplified ABDADA",
//! after Tom Kerrigan): before a thread searches a move other than a node's first, it asks
//! whether another thread is already inside the position that move leads to, searching it at
//! least as deep; if so the move is deferred to the end of the node's list, by which time the
//! other thread has usually stored a result in the shared transposition table that this
//! thread's search can use. Threads searching the same iteration thus split the tree between
//! them instead of searching the same nodes side by side. A thread that is in a position less
//! deep (a shallower iteration) does not make a deeper search wait: its result would not do.
//!
//! Below a game's [`SearchHooks::SMP_DEFER_MIN_DEPTH`](crate::game::SearchHooks) of remaining
//! depth nodes neither mark nor defer: their subtrees are too small to be worth splitting.
//!
//! A fixed table of marks (a key's high bits and a depth), one per slot, written and read
//! without locks: a lost or overwritten mark only costs a deferral that would have helped,
//! never a wrong result (the table decides the order of moves, not their scores).

use std::sync::atomic::{AtomicU64, Ordering};

/// Slots in the table (a power of two).
const SLOTS: usize = 1 << 15;

/// The low bits of a slot that hold the remaining depth of the search marked there.
const DEPTH_BITS: u64 = 0xff;

/// The positions being searched (see the module's doc).
pub struct InFlight {
    keys: Box<[AtomicU64]>,
}

impl Default for InFlight {
    fn default() -> Self {
        InFlight::new()
    }
}

impl InFlight {
    /// An empty table.
    pub fn new() -> Self {
        InFlight {
            keys: (0..SLOTS).map(|_| AtomicU64::new(0)).collect(),
        }
    }

    fn slot(&self, key: u64) -> &AtomicU64 {
        &self.keys[(key as usize) & (SLOTS - 1)]
    }

    /// What a slot holds for the position of hash `key` searched to remaining `depth`: the
    /// key's high bits and, in its low byte, the depth plus one (never 0, an empty slot).
    fn mark(key: u64, depth: u32) -> u64 {
        (key & !DEPTH_BITS) | u64::from(depth.min(DEPTH_BITS as u32 - 1) + 1)
    }

    /// Whether some thread is searching the position of hash `key` to a remaining depth of at
    /// least `depth` (its result will then serve a search to `depth`).
    #[inline]
    pub fn busy(&self, key: u64, depth: u32) -> bool {
        let held = self.slot(key).load(Ordering::Relaxed);
        // A mark is never 0, so an empty slot is below every mark.
        held & !DEPTH_BITS == key & !DEPTH_BITS && held >= Self::mark(key, depth)
    }

    /// Marks the position of hash `key` as being searched to remaining `depth`.
    #[inline]
    pub fn enter(&self, key: u64, depth: u32) {
        self.slot(key)
            .store(Self::mark(key, depth), Ordering::Relaxed);
    }

    /// Unmarks the position of hash `key` searched to `depth`, unless another search took its
    /// slot since.
    #[inline]
    pub fn leave(&self, key: u64, depth: u32) {
        let mark = Self::mark(key, depth);
        let _ = self
            .slot(key)
            .compare_exchange(mark, 0, Ordering::Relaxed, Ordering::Relaxed);
    }
}

/// A position this thread marked as being searched; the mark goes when this is dropped.
pub struct Mark<'a> {
    table: &'a InFlight,
    key: u64,
    depth: u32,
}

impl Drop for Mark<'_> {
    fn drop(&mut self) {
        self.table.leave(self.key, self.depth);
    }
}

/// A move that waits for the end of its node's list: another thread is inside its position.
#[derive(Debug, PartialEq, Eq)]
pub struct Deferred;

/// Whether to search the move into the position of hash `key()` to remaining `depth` now:
/// `Err(Deferred)` if the move `may_wait` and another thread is searching that position at
/// least as deep, else `Ok` with the position marked for as long as the [`Mark`] lives (no
/// mark, and no hash computed, without a `table`: one thread).
#[inline]
pub fn claim(
    table: Option<&InFlight>,
    key: impl FnOnce() -> u64,
    depth: u32,
    may_wait: bool,
) -> Result<Option<Mark<'_>>, Deferred> {
    let Some(table) = table else {
        return Ok(None);
    };
    let key = key();
    if may_wait && table.busy(key, depth) {
        return Err(Deferred);
    }
    table.enter(key, depth);
    Ok(Some(Mark { table, key, depth }))
}

/// The order a node's moves are searched in when some may be deferred: every index once, in
/// order, then the deferred ones again, in the order they were deferred.
pub struct MoveOrder {
    next: usize,
    count: usize,
}

impl MoveOrder {
    /// The order of `count` moves.
    pub fn new(count: usize) -> Self {
        MoveOrder { next: 0, count }
    }

    /// The next move's index, and whether it is a deferred move coming back; `None` once
    /// every move and every one of `deferred` has come.
    pub fn next(&mut self, deferred: &[usize]) -> Option<(usize, bool)> {
        let k = self.next;
        self.next += 1;
        if k < self.count {
            Some((k, false))
        } else {
            deferred.get(k - self.count).map(|&i| (i, true))
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_position_is_busy_from_enter_to_leave() {
        let table = InFlight::new();
        let (a, b) = (0x1234_5678_9abc_def0_u64, 0x0fed_cba9_8765_4321_u64);
        assert!(!table.busy(a, 0));
        table.enter(a, 5);
        assert!(table.busy(a, 5));
        assert!(!table.busy(b, 5));
        table.leave(a, 5);
        assert!(!table.busy(a, 5));
    }

    #[test]
    fn only_a_search_at_least_as_deep_makes_a_move_wait() {
        let table = InFlight::new();
        let a = 0x1234_5678_9abc_def0_u64;
        table.enter(a, 6);
        assert!(table.busy(a, 6));
        assert!(table.busy(a, 4), "a deeper search serves a shallower one");
        assert!(
            !table.busy(a, 7),
            "a shallower search does not serve a deeper one"
        );
        table.leave(a, 4);
        assert!(
            table.busy(a, 6),
            "leaving at another depth is not this mark's leave"
        );
        table.leave(a, 6);
        assert!(!table.busy(a, 0));
        table.enter(a, 1000);
        assert!(
            table.busy(a, 254) && table.busy(a, 5000),
            "depths beyond 254 are 254"
        );
    }

    #[test]
    fn a_claim_defers_only_a_move_that_may_wait_for_a_busy_position() {
        let table = InFlight::new();
        let key = 11 << 8;
        let mark = claim(Some(&table), || key, 4, true).expect("free: taken");
        assert!(mark.is_some() && table.busy(key, 4));
        assert_eq!(claim(Some(&table), || key, 4, true).err(), Some(Deferred));
        assert_eq!(claim(Some(&table), || key, 3, true).err(), Some(Deferred));
        assert!(
            claim(Some(&table), || key, 5, true).is_ok(),
            "a deeper search goes on"
        );
        // That search's mark went with it; this one's is put back.
        table.enter(key, 4);
        let again = claim(Some(&table), || key, 4, false);
        assert!(
            again.is_ok(),
            "the first move or a deferred one: searched anyway"
        );
        drop(again);
        drop(mark);
        assert!(!table.busy(key, 0), "the mark goes with its owner");
        let unmarked = claim(None, || unreachable!("no table, no hash"), 4, true);
        assert!(matches!(unmarked, Ok(None)));
    }

    #[test]
    fn deferred_moves_come_back_after_all_the_others() {
        let mut order = MoveOrder::new(4);
        let mut deferred = Vec::new();
        let mut seen = Vec::new();
        while let Some((i, again)) = order.next(&deferred) {
            if !again && (i == 1 || i == 2) {
                deferred.push(i);
                continue;
            }
            seen.push((i, again));
        }
        assert_eq!(seen, [(0, false), (3, false), (1, true), (2, true)]);
    }

    #[test]
    fn leaving_keeps_another_position_that_took_the_slot() {
        let table = InFlight::new();
        let a = 7_u64;
        let b = a + SLOTS as u64;
        table.enter(a, 3);
        table.enter(b, 3);
        table.leave(a, 3);
        assert!(table.busy(b, 3), "b's mark survives a's leave");
        assert!(!table.busy(a, 3));
        assert!(!table.busy(0, 0), "no position has hash 0 in the table");
    }
}
