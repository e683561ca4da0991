//! Where the tree's nodes and edges live, and how much of the byte budget they take.
//!
//! [`Segments`]: an arena of slots in segments that never move once allocated, so that
//! threads read and write slots while others add more. [`Room`]: the budget's bookkeeping.
//! Room is handed out by an atomic bump of each arena's length, lock-free, within a
//! capacity; only growing the capacity takes a lock (a few dozen times in a search). The
//! capacities follow the rule the tree's `Vec`s followed when the search had one thread
//! (doubling while there is room, never past half the room left, giving spare capacity back
//! before failing), so one thread fills the budget at exactly the same point as before.
//! Memory is allocated only for the segments in use: the lengths rounded up to a whole
//! segment, which is 1,024 slots or 1/1,024 of the budget, whichever is more (never more
//! than the budget holds).

use std::ops::Range;
use std::sync::atomic::{AtomicBool, AtomicUsize, Ordering};
use std::sync::{Mutex, OnceLock};

/// Segments at most per arena: each is [`MIN_SEGMENT`] slots (fewer in a tiny budget), more
/// in a big budget.
const MAX_SEGMENTS: usize = 1024;
/// Fewest slots in a segment.
const MIN_SEGMENT: usize = 1024;

/// Slots in segments allocated on first use (see the module docs).
pub struct Segments<T> {
    segments: Box<[OnceLock<Box<[T]>>]>,
    /// log₂ of the slots per segment.
    shift: u32,
}

impl<T: Default> Segments<T> {
    /// An arena for at most `max_len` slots (none allocated yet).
    pub fn new(max_len: usize) -> Self {
        let per = (max_len / MAX_SEGMENTS + 1)
            .next_power_of_two()
            .max(MIN_SEGMENT.min(max_len.next_power_of_two()));
        let count = max_len.div_ceil(per).max(1);
        Segments {
            segments: (0..count).map(|_| OnceLock::new()).collect(),
            shift: per.trailing_zeros(),
        }
    }

    /// The slot `index`, if its segment is allocated.
    #[inline]
    pub fn get(&self, index: usize) -> Option<&T> {
        let segment = self.segments.get(index >> self.shift)?.get()?;
        segment.get(index & ((1 << self.shift) - 1))
    }

    /// The slots of `range` in order (fewer if a segment is not allocated): one look-up per
    /// segment rather than per slot.
    pub fn iter(&self, range: Range<usize>) -> impl Iterator<Item = &T> {
        let mask = (1 << self.shift) - 1;
        let mut start = range.start;
        std::iter::from_fn(move || {
            if start >= range.end {
                return None;
            }
            let offset = start & mask;
            let take = (mask + 1 - offset).min(range.end - start);
            let segment = self.segments.get(start >> self.shift)?.get()?;
            start += take;
            segment.get(offset..offset + take)
        })
        .flatten()
    }

    /// Allocates the segments of `range` that are not yet; false if one is beyond the arena
    /// or the memory cannot be had.
    pub fn allocate(&self, range: Range<usize>) -> bool {
        if range.is_empty() {
            return true;
        }
        let per = 1usize << self.shift;
        for s in range.start >> self.shift..=(range.end - 1) >> self.shift {
            let Some(cell) = self.segments.get(s) else {
                return false;
            };
            if cell.get().is_none() {
                let mut slots = Vec::new();
                if slots.try_reserve_exact(per).is_err() {
                    return false;
                }
                slots.resize_with(per, T::default);
                // Another thread may have been first: its segment is kept, this one dropped.
                let _ = cell.set(slots.into_boxed_slice());
            }
        }
        true
    }
}

/// Grows a capacity `cap` (of an arena `len` long) so that it holds `needed` slots, never
/// past `max_len`: doubling while there is room, but never taking more than half the room
/// left beyond `needed`, so that the other arena can still grow and the budget fills up
/// before growth fails.
fn grow(cap: &mut usize, needed: usize, max_len: usize) -> bool {
    if needed <= *cap {
        return true;
    }
    if needed > max_len {
        return false;
    }
    let doubled = cap.saturating_mul(2).max(1024);
    *cap = doubled.min(needed + (max_len - needed) / 2).max(needed);
    true
}

/// Lengths and capacities of the two arenas (nodes and edges) within a byte budget.
pub struct Room {
    budget: usize,
    node_size: usize,
    edge_size: usize,
    nodes: AtomicUsize,
    edges: AtomicUsize,
    node_cap: AtomicUsize,
    edge_cap: AtomicUsize,
    /// Set once a request failed: nothing more is handed out until re-rooting.
    full: AtomicBool,
    /// Held while the capacities grow.
    growing: Mutex<()>,
}

/// Takes `n` more of an arena whose length is `len`, within `cap`; the old length.
fn bump(len: &AtomicUsize, cap: &AtomicUsize, n: usize) -> Option<usize> {
    let r = Ordering::Relaxed;
    len.fetch_update(r, r, |l| (l + n <= cap.load(r)).then_some(l + n))
        .ok()
}

impl Room {
    /// Nothing taken of `budget` bytes, for nodes of `node_size` and edges of `edge_size`
    /// bytes.
    pub fn new(budget: usize, node_size: usize, edge_size: usize) -> Self {
        Room {
            budget,
            node_size,
            edge_size,
            nodes: AtomicUsize::new(0),
            edges: AtomicUsize::new(0),
            node_cap: AtomicUsize::new(0),
            edge_cap: AtomicUsize::new(0),
            full: AtomicBool::new(false),
            growing: Mutex::new(()),
        }
    }

    /// The budget in bytes.
    pub fn budget(&self) -> usize {
        self.budget
    }

    /// Nodes and edges taken.
    pub fn lens(&self) -> (usize, usize) {
        let r = Ordering::Relaxed;
        (self.nodes.load(r), self.edges.load(r))
    }

    /// Bytes of capacity (what the budget counts).
    #[cfg(test)]
    pub fn allocated(&self) -> usize {
        let r = Ordering::Relaxed;
        self.node_cap.load(r) * self.node_size + self.edge_cap.load(r) * self.edge_size
    }

    /// Whether a request failed.
    pub fn is_full(&self) -> bool {
        self.full.load(Ordering::Relaxed)
    }

    /// Marks the room full.
    pub fn set_full(&self) {
        self.full.store(true, Ordering::Relaxed);
    }

    /// Takes `nodes` nodes and `edges` edges: the first index of each, or `None` (and the room
    /// is full from then on) when they do not fit. A full room stays full.
    pub fn take(&self, nodes: usize, edges: usize) -> Option<(usize, usize)> {
        loop {
            if self.is_full() {
                return None;
            }
            if let Some(taken) = self.try_take(nodes, edges) {
                return Some(taken);
            }
            // A poisoned lock guards nothing: the capacities are atomics.
            let _guard = self.growing.lock().unwrap_or_else(|p| p.into_inner());
            if self.is_full() {
                return None;
            }
            if let Some(taken) = self.try_take(nodes, edges) {
                return Some(taken);
            }
            if !self.grow_for(nodes, edges) {
                self.set_full();
                return None;
            }
        }
    }

    /// Takes room within the capacities as they are.
    fn try_take(&self, nodes: usize, edges: usize) -> Option<(usize, usize)> {
        let first_node = bump(&self.nodes, &self.node_cap, nodes)?;
        match bump(&self.edges, &self.edge_cap, edges) {
            Some(first_edge) => Some((first_node, first_edge)),
            None => {
                // Give the nodes back unless another thread took some since (then they stay
                // unused).
                let r = Ordering::Relaxed;
                let _ = self
                    .nodes
                    .compare_exchange(first_node + nodes, first_node, r, r);
                None
            }
        }
    }

    /// Grows the capacities for `nodes` and `edges` more (the lock held); false if the
    /// budget cannot hold them.
    fn grow_for(&self, nodes: usize, edges: usize) -> bool {
        let (len_n, len_e) = self.lens();
        let (need_n, need_e) = (len_n + nodes, len_e + edges);
        let r = Ordering::Relaxed;
        let mut caps = (self.node_cap.load(r), self.edge_cap.load(r));
        let ok = self.grow_both(&mut caps, need_n, need_e) || {
            // One arena's spare capacity may be what the other needs: give it back, try again.
            caps = (caps.0.min(need_n), caps.1.min(need_e));
            self.grow_both(&mut caps, need_n, need_e)
        };
        debug_assert!(caps.0 * self.node_size + caps.1 * self.edge_size <= self.budget);
        // Other threads may have taken room meanwhile: never below what is taken.
        let (len_n, len_e) = self.lens();
        self.node_cap.store(caps.0.max(len_n), r);
        self.edge_cap.store(caps.1.max(len_e), r);
        ok
    }

    fn grow_both(
        &self,
        (node_cap, edge_cap): &mut (usize, usize),
        need_n: usize,
        need_e: usize,
    ) -> bool {
        let (sn, se) = (self.node_size, self.edge_size);
        let edge_room = self.budget.saturating_sub((*node_cap).max(need_n) * sn) / se;
        grow(edge_cap, need_e, edge_room) && {
            let node_room = self.budget.saturating_sub(*edge_cap * se) / sn;
            grow(node_cap, need_n, node_room)
        }
    }

    /// Keeps only the first `nodes` nodes and `edges` edges, and takes room again (re-rooting;
    /// the capacities stay).
    pub fn truncate(&mut self, nodes: usize, edges: usize) {
        *self.nodes.get_mut() = nodes;
        *self.edges.get_mut() = edges;
        *self.full.get_mut() = false;
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn segments_are_allocated_on_first_use() {
        let arena: Segments<AtomicUsize> = Segments::new(10_000);
        assert!(arena.get(0).is_none());
        assert!(arena.allocate(1000..1030));
        assert!(arena.get(1029).is_some());
        assert!(arena.get(5000).is_none());
        assert_eq!(arena.iter(1020..1030).count(), 10);
        assert_eq!(arena.iter(2040..2050).count(), 8);
        assert!(!arena.allocate(9000..20_000));
    }

    #[test]
    fn room_grows_like_a_vec_and_gives_spare_capacity_back() {
        let room = Room::new(100_000, 40, 16);
        assert_eq!(room.take(1, 600), Some((0, 0)));
        // The first growth doubles to the minimum of 1024 slots each.
        assert_eq!(room.allocated(), 1024 * 40 + 1024 * 16);
        let mut taken = 1;
        while room.take(1, 50).is_some() {
            taken += 1;
            assert!(room.allocated() <= 100_000);
        }
        assert!(room.is_full());
        assert!(room.take(0, 0).is_none());
        assert!(taken > 90, "{taken}");
    }
}
