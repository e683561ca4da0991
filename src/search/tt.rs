//! The transposition table: one entry per slot, indexed by the Zobrist key, sized in MiB by
//! the `Hash` option. Mate scores are stored relative to the node, not the root.

use super::score::{MATE_BOUND, mate_from_tt, mate_to_tt};

/// What a stored score says about the true value.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Bound {
    /// The score is exact.
    Exact,
    /// The true value is at least the score (a beta cutoff).
    Lower,
    /// The true value is at most the score (no move raised alpha).
    Upper,
}

/// One slot of the table.
#[derive(Clone, Copy, Debug)]
pub struct Entry<M: Copy> {
    key: u64,
    /// Best or refuting move found at this node.
    pub best: Option<M>,
    score: i32,
    /// Remaining depth the entry was searched to.
    pub depth: u8,
    /// What the score bounds.
    pub bound: Bound,
    generation: u8,
}

impl<M: Copy> Entry<M> {
    /// The stored score as seen from a node `ply` plies below the root.
    pub fn score(&self, ply: usize) -> i32 {
        mate_from_tt(self.score, ply)
    }
}

/// A fixed-size, always-replace-unless-deeper hash table of search results.
pub struct TranspositionTable<M: Copy> {
    slots: Vec<Option<Entry<M>>>,
    generation: u8,
}

/// The table could not be allocated.
#[derive(Debug, PartialEq, Eq)]
pub struct AllocError(pub usize);

impl<M: Copy> TranspositionTable<M> {
    /// A table using about `mib` MiB, or an error if the memory cannot be had.
    pub fn new(mib: usize) -> Result<Self, AllocError> {
        let slot = std::mem::size_of::<Option<Entry<M>>>().max(1);
        let count = mib.max(1).saturating_mul(1 << 20) / slot;
        let mut slots = Vec::new();
        slots
            .try_reserve_exact(count)
            .map_err(|_| AllocError(mib))?;
        slots.resize(count, None);
        Ok(TranspositionTable {
            slots,
            generation: 0,
        })
    }

    #[inline]
    fn index(&self, key: u64) -> usize {
        ((key as u128 * self.slots.len() as u128) >> 64) as usize
    }

    /// Forgets every entry.
    pub fn clear(&mut self) {
        self.slots.fill(None);
        self.generation = 0;
    }

    /// Marks the start of a new search: older entries become preferred victims.
    pub fn new_search(&mut self) {
        self.generation = self.generation.wrapping_add(1);
    }

    /// The entry for `key`, if the table holds one.
    #[inline]
    pub fn probe(&self, key: u64) -> Option<&Entry<M>> {
        self.slots[self.index(key)]
            .as_ref()
            .filter(|e| e.key == key)
    }

    /// Stores a result; a deeper entry of the current search for another key is kept.
    #[inline]
    pub fn store(
        &mut self,
        key: u64,
        best: Option<M>,
        score: i32,
        depth: u32,
        bound: Bound,
        ply: usize,
    ) {
        let generation = self.generation;
        let index = self.index(key);
        let slot = &mut self.slots[index];
        if let Some(old) = slot {
            let same = old.key == key;
            if !same && old.generation == generation && old.depth as u32 > depth {
                return;
            }
            if same && best.is_none() && old.depth as u32 > depth && bound != Bound::Exact {
                return;
            }
        }
        let previous_best = slot.as_ref().filter(|e| e.key == key).and_then(|e| e.best);
        debug_assert!(score.abs() <= super::score::MATE);
        *slot = Some(Entry {
            key,
            best: best.or(previous_best),
            score: mate_to_tt(score, ply),
            depth: depth.min(u8::MAX as u32) as u8,
            bound,
            generation,
        });
    }

    /// The table's size in bytes (what the `Hash` option asked for, rounded down to whole
    /// slots).
    pub fn bytes(&self) -> usize {
        self.slots.len() * std::mem::size_of::<Option<Entry<M>>>()
    }

    /// Occupancy in permille among the first thousand slots, counting this search's entries.
    pub fn hashfull(&self) -> u32 {
        let sample = self.slots.len().min(1000);
        if sample == 0 {
            return 0;
        }
        let used = self.slots[..sample]
            .iter()
            .filter(|e| e.is_some_and(|e| e.generation == self.generation))
            .count();
        (used * 1000 / sample) as u32
    }
}

/// Whether a score is a proven win or loss.
pub fn is_mate_score(score: i32) -> bool {
    score.abs() >= MATE_BOUND
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn stores_and_probes_with_mate_scores_relative_to_the_node() {
        let mut tt: TranspositionTable<u16> = TranspositionTable::new(1).unwrap();
        tt.new_search();
        let win_in_3_from_root = super::super::score::MATE - 3;
        tt.store(42, Some(7), win_in_3_from_root, 4, Bound::Exact, 1);
        let e = tt.probe(42).unwrap();
        assert_eq!(e.best, Some(7));
        // Reached again one ply deeper, the same win is one ply further from the root.
        assert_eq!(e.score(2), win_in_3_from_root - 1);
        assert!(tt.probe(43).is_none());
        assert!(tt.hashfull() <= 1);
        tt.clear();
        assert!(tt.probe(42).is_none());
    }

    #[test]
    fn absurd_size_is_an_error_not_an_abort() {
        let huge = usize::MAX >> 21;
        assert!(TranspositionTable::<u16>::new(huge).is_err());
    }
}
