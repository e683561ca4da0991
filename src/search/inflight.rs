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
