//! The positions some thread of a Lazy SMP search is searching right now ("simplified ABDADA",
//! after Tom Kerrigan): before a thread searches a move other than a node's first, it asks
//! whether another thread is already inside the position that move leads to; if so the move is
//! deferred to the end of the node's list, by which time the other thread has usually stored
//! its result in the shared transposition table. Threads searching the same iteration thus
//! split the tree between them instead of searching the same nodes side by side.
//!
//! A fixed table of keys, one per slot, written and read without locks: a lost or overwritten
//! mark only costs a deferral that would have helped, never a wrong result (the table decides
//! the order of moves, not their scores).

use std::sync::atomic::{AtomicU64, Ordering};

/// Slots in the table (a power of two).
const SLOTS: usize = 1 << 15;

/// Remaining depth below which nodes neither mark nor defer: their subtrees are too small to
/// be worth splitting.
pub const MIN_DEPTH: u32 = 3;

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

    /// Whether some thread is searching the position of hash `key`.
    #[inline]
    pub fn busy(&self, key: u64) -> bool {
        key != 0 && self.slot(key).load(Ordering::Relaxed) == key
    }

    /// Marks the position of hash `key` as being searched.
    #[inline]
    pub fn enter(&self, key: u64) {
        self.slot(key).store(key, Ordering::Relaxed);
    }

    /// Unmarks the position of hash `key`, unless another position took its slot since.
    #[inline]
    pub fn leave(&self, key: u64) {
        let _ = self
            .slot(key)
            .compare_exchange(key, 0, Ordering::Relaxed, Ordering::Relaxed);
    }
}

/// A position this thread marked as being searched; the mark goes when this is dropped.
pub struct Mark<'a> {
    table: &'a InFlight,
    key: u64,
}

impl Drop for Mark<'_> {
    fn drop(&mut self) {
        self.table.leave(self.key);
    }
}

/// A move that waits for the end of its node's list: another thread is inside its position.
#[derive(Debug, PartialEq, Eq)]
pub struct Deferred;

/// Whether to search the move into the position of hash `key()` now: `Err(Deferred)` if the
/// move `may_wait` and another thread is searching that position, else `Ok` with the
/// position marked for as long as the [`Mark`] lives (no mark, and no hash computed, without
/// a `table`: one thread).
#[inline]
pub fn claim(
    table: Option<&InFlight>,
    key: impl FnOnce() -> u64,
    may_wait: bool,
) -> Result<Option<Mark<'_>>, Deferred> {
    let Some(table) = table else {
        return Ok(None);
    };
    let key = key();
    if may_wait && table.busy(key) {
        return Err(Deferred);
    }
    table.enter(key);
    Ok(Some(Mark { table, key }))
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
        assert!(!table.busy(a));
        table.enter(a);
        assert!(table.busy(a));
        assert!(!table.busy(b));
        table.leave(a);
        assert!(!table.busy(a));
    }

    #[test]
    fn a_claim_defers_only_a_move_that_may_wait_for_a_busy_position() {
        let table = InFlight::new();
        let mark = claim(Some(&table), || 11, true).expect("free: taken");
        assert!(mark.is_some() && table.busy(11));
        assert_eq!(claim(Some(&table), || 11, true).err(), Some(Deferred));
        let again = claim(Some(&table), || 11, false);
        assert!(
            again.is_ok(),
            "the first move or a deferred one: searched anyway"
        );
        drop(again);
        drop(mark);
        assert!(!table.busy(11), "the mark goes with its owner");
        let unmarked = claim(None, || unreachable!("no table, no hash"), true);
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
        table.enter(a);
        table.enter(b);
        table.leave(a);
        assert!(table.busy(b), "b's mark survives a's leave");
        assert!(!table.busy(a));
        assert!(!table.busy(0), "no position has hash 0 in the table");
    }
}
