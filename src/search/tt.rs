//! The transposition table: one entry per slot, indexed by the Zobrist key, sized in MiB by
//! the `Hash` option, shared by every search thread without locks. Mate scores are stored
//! relative to the node, not the root.
//!
//! A slot is two `AtomicU64`: the entry packed into one word (`data`) and `key ^ data` in the
//! other. Threads read and write both words with relaxed ordering; a read whose two words come
//! from different writes fails the `key` check and counts as a miss (the "xor trick" of chess
//! engines), so a torn entry is never used.

use std::marker::PhantomData;
use std::sync::atomic::{AtomicU8, AtomicU64, Ordering};

use super::score::{MATE_BOUND, mate_from_tt, mate_to_tt};
use super::table_memory::{self, Slot};

use crate::game::PackedMove;

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

impl Bound {
    fn bits(self) -> u64 {
        match self {
            Bound::Exact => 1,
            Bound::Lower => 2,
            Bound::Upper => 3,
        }
    }

    fn from_bits(bits: u64) -> Option<Bound> {
        match bits {
            1 => Some(Bound::Exact),
            2 => Some(Bound::Lower),
            3 => Some(Bound::Upper),
            _ => None,
        }
    }
}

/// One entry as read from the table.
#[derive(Clone, Copy, Debug)]
pub struct Entry<M> {
    /// Best or refuting move found at this node (unchecked: a hash collision can name a move
    /// of another position, so the search only uses it if it is in the move list).
    pub best: Option<M>,
    score: i32,
    /// Remaining depth the entry was searched to.
    pub depth: u8,
    /// What the score bounds.
    pub bound: Bound,
    generation: u8,
}

impl<M> Entry<M> {
    /// The stored score as seen from a node `ply` plies below the root.
    pub fn score(&self, ply: usize) -> i32 {
        mate_from_tt(self.score, ply)
    }
}

// Layout of the data word: move (32 bits) | score as i16 (16) | depth (8) | bound (2) |
// generation (5) | has-move flag (1).
const SCORE_SHIFT: u32 = 32;
const DEPTH_SHIFT: u32 = 48;
const BOUND_SHIFT: u32 = 56;
const GENERATION_SHIFT: u32 = 58;
const GENERATION_MASK: u8 = 0x1f;
const HAS_MOVE: u64 = 1 << 63;

fn pack<M: PackedMove>(
    best: Option<M>,
    score: i32,
    depth: u8,
    bound: Bound,
    generation: u8,
) -> u64 {
    let mv = best.map_or(0, |m| HAS_MOVE | m.pack() as u64);
    mv | ((score as i16 as u16 as u64) << SCORE_SHIFT)
        | ((depth as u64) << DEPTH_SHIFT)
        | (bound.bits() << BOUND_SHIFT)
        | (((generation & GENERATION_MASK) as u64) << GENERATION_SHIFT)
}

fn unpack<M: PackedMove>(data: u64) -> Option<Entry<M>> {
    let bound = Bound::from_bits((data >> BOUND_SHIFT) & 3)?;
    let best = if data & HAS_MOVE != 0 {
        M::unpack(data as u32)
    } else {
        None
    };
    Some(Entry {
        best,
        score: (data >> SCORE_SHIFT) as u16 as i16 as i32,
        depth: (data >> DEPTH_SHIFT) as u8,
        bound,
        generation: (data >> GENERATION_SHIFT) as u8 & GENERATION_MASK,
    })
}

/// A fixed-size, always-replace-unless-deeper hash table of search results.
pub struct TranspositionTable<M> {
    slots: Box<[Slot]>,
    /// Slots before this index are on pages already written ([`TranspositionTable::commit`]).
    committed: usize,
    generation: AtomicU8,
    moves: PhantomData<fn() -> M>,
}

/// The table could not be allocated.
#[derive(Debug, PartialEq, Eq)]
pub struct AllocError(pub usize);

impl<M: PackedMove> TranspositionTable<M> {
    /// A table using about `mib` MiB (at least one slot), or an error if the memory cannot be
    /// had. Allocation is fallible; the memory is taken in full at once, every page written
    /// (and in huge pages where the system has them; see [`table_memory`]), so a search never
    /// waits for the kernel to map the table.
    pub fn new(mib: usize) -> Result<Self, AllocError> {
        let slots = table_memory::resident_zeroed(Self::slot_count(mib)).ok_or(AllocError(mib))?;
        Ok(TranspositionTable {
            committed: slots.len(),
            slots,
            generation: AtomicU8::new(0),
            moves: PhantomData,
        })
    }

    /// A table of about `mib` MiB whose pages are not written yet: usable at once, its pages
    /// written by [`TranspositionTable::commit`] a step at a time (or by the searches that use
    /// it first, at the cost [`table_memory`] describes).
    pub fn uncommitted(mib: usize) -> Result<Self, AllocError> {
        let slots = table_memory::zeroed_lazily(Self::slot_count(mib)).ok_or(AllocError(mib))?;
        Ok(TranspositionTable {
            slots,
            committed: 0,
            generation: AtomicU8::new(0),
            moves: PhantomData,
        })
    }

    /// Writes the pages not written yet, pausing when `pause` says so (it is looked at every
    /// 16 MiB): true once every page is written. Resumes where the last call paused.
    pub fn commit(&mut self, pause: impl Fn() -> bool) -> bool {
        self.committed = table_memory::write_pages(&self.slots, self.committed, pause);
        self.is_committed()
    }

    /// Whether every page of the table is written.
    pub fn is_committed(&self) -> bool {
        self.committed >= self.slots.len()
    }

    fn slot_count(mib: usize) -> usize {
        (mib.saturating_mul(1 << 20) / std::mem::size_of::<Slot>()).max(1)
    }

    /// A one-slot table: what stands in while a table is freed before its successor is
    /// allocated, so the two never take memory at the same time.
    pub fn tiny() -> Self {
        TranspositionTable {
            slots: Box::new([[AtomicU64::new(0), AtomicU64::new(0)]]),
            committed: 1,
            generation: AtomicU8::new(0),
            moves: PhantomData,
        }
    }

    #[inline]
    fn slot(&self, key: u64) -> &Slot {
        &self.slots[((key as u128 * self.slots.len() as u128) >> 64) as usize]
    }

    /// Forgets every entry: zeros written over the table in place, its memory and pages kept
    /// ([`table_memory::zero`]). A table not fully committed is instead allocated afresh (its
    /// pages unwritten, as a commit left them), which takes no time.
    pub fn clear(&mut self) {
        if self.is_committed() {
            table_memory::zero(&mut self.slots);
        } else {
            let count = self.slots.len();
            // Freed before its successor is taken: the two never hold memory together.
            self.slots = Box::new([[AtomicU64::new(0), AtomicU64::new(0)]]);
            self.committed = 1;
            if let Some(slots) = table_memory::zeroed_lazily(count) {
                self.slots = slots;
                self.committed = 0;
            }
        }
        self.generation = AtomicU8::new(0);
    }

    /// Marks the start of a new search: older entries become preferred victims.
    pub fn new_search(&self) {
        let next = (self.generation() + 1) & GENERATION_MASK;
        self.generation.store(next, Ordering::Relaxed);
    }

    fn generation(&self) -> u8 {
        self.generation.load(Ordering::Relaxed)
    }

    /// Whether `entry` was stored by the search under way (since the last
    /// [`TranspositionTable::new_search`]).
    pub fn is_current(&self, entry: &Entry<M>) -> bool {
        entry.generation == self.generation()
    }

    /// The entry for `key`, if the table holds one.
    #[inline]
    pub fn probe(&self, key: u64) -> Option<Entry<M>> {
        let [check, data] = self.slot(key);
        let data = data.load(Ordering::Relaxed);
        if check.load(Ordering::Relaxed) ^ data != key {
            return None;
        }
        unpack(data)
    }

    /// Stores a result; a deeper entry of the current search for another key is kept.
    #[inline]
    pub fn store(
        &self,
        key: u64,
        best: Option<M>,
        score: i32,
        depth: u32,
        bound: Bound,
        ply: usize,
    ) {
        let generation = self.generation();
        let [check, data] = self.slot(key);
        let old_data = data.load(Ordering::Relaxed);
        let same = check.load(Ordering::Relaxed) ^ old_data == key;
        let mut best = best;
        if let Some(old) = unpack::<M>(old_data) {
            if !same && old.generation == generation && old.depth as u32 > depth {
                return;
            }
            if same && best.is_none() && old.depth as u32 > depth && bound != Bound::Exact {
                return;
            }
            if same && best.is_none() {
                best = old.best;
            }
        }
        debug_assert!(score.abs() <= super::score::MATE);
        let depth = depth.min(u8::MAX as u32) as u8;
        let new_data = pack(best, mate_to_tt(score, ply), depth, bound, generation);
        data.store(new_data, Ordering::Relaxed);
        check.store(key ^ new_data, Ordering::Relaxed);
    }

    /// The table's size in bytes (what the `Hash` option asked for, rounded down to whole
    /// slots).
    pub fn bytes(&self) -> usize {
        self.slots.len() * std::mem::size_of::<Slot>()
    }

    /// Occupancy in permille among the first thousand slots, counting this search's entries.
    pub fn hashfull(&self) -> u32 {
        let sample = self.slots.len().min(1000);
        if sample == 0 {
            return 0;
        }
        let generation = self.generation();
        let used = self.slots[..sample]
            .iter()
            .filter_map(|[_, data]| unpack::<M>(data.load(Ordering::Relaxed)))
            .filter(|e| e.generation == generation)
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
    use crate::game::sight::SightMove;

    #[test]
    fn stores_and_probes_with_mate_scores_relative_to_the_node() {
        let mut tt: TranspositionTable<SightMove> = TranspositionTable::new(1).unwrap();
        tt.new_search();
        let win_in_3_from_root = super::super::score::MATE - 3;
        let m = SightMove { from: 3, to: 7 };
        tt.store(42, Some(m), win_in_3_from_root, 4, Bound::Exact, 1);
        let e = tt.probe(42).unwrap();
        assert_eq!(e.best, Some(m));
        assert_eq!(e.depth, 4);
        assert_eq!(e.bound, Bound::Exact);
        // Reached again one ply deeper, the same win is one ply further from the root.
        assert_eq!(e.score(2), win_in_3_from_root - 1);
        assert!(tt.probe(43).is_none());
        assert_eq!(tt.hashfull(), 1);
        tt.clear();
        assert!(tt.probe(42).is_none());
        assert_eq!(tt.hashfull(), 0);
    }

    #[test]
    fn negative_scores_and_missing_moves_round_trip() {
        let tt: TranspositionTable<SightMove> = TranspositionTable::new(1).unwrap();
        tt.store(9, None, -1234, 200, Bound::Upper, 0);
        let e = tt.probe(9).unwrap();
        assert_eq!(
            (e.best, e.score(0), e.depth, e.bound),
            (None, -1234, 200, Bound::Upper)
        );
        // A shallower result without a move keeps the stored move of the same position.
        let m = SightMove {
            from: SightMove::PLACE,
            to: 12,
        };
        tt.store(9, Some(m), 5, 3, Bound::Lower, 0);
        tt.store(9, None, 7, 4, Bound::Lower, 0);
        assert_eq!(tt.probe(9).unwrap().best, Some(m));
    }

    #[test]
    fn absurd_size_is_an_error_not_an_abort() {
        let huge = usize::MAX >> 21;
        assert!(TranspositionTable::<SightMove>::new(huge).is_err());
    }
}
