//! The proof table: proven results by canonical key. Every search of the solver runs to the
//! end of the game, so whatever it stores is exact and never needs a depth; what matters is
//! which results to keep when the table is full. Buckets of four entries; a new result
//! replaces the one in its bucket that cost the least to prove (the `work`, log₂ of the nodes
//! its search took), so the expensive proofs near the root stay.

use super::board::Move;

/// Entries per bucket.
const WAYS: usize = 4;

/// A proven result.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Proven {
    /// Whether the side to move wins.
    pub win: bool,
    /// Plies to the end of the game along the proof found: for a win, the line the proof
    /// plays (an upper bound on the shortest win); for a loss, the longest resistance found.
    pub dist: u8,
    /// The move that wins, or that resists longest, in the canonical frame.
    pub best: Option<Move>,
}

#[derive(Clone, Copy, Default)]
struct Entry {
    key_lo: u64,
    key_hi: u64,
    /// Bit 0 valid, bit 1 win, bits 2–7 work, 8–15 dist, 16–23 from, 24–31 to; from = 255
    /// with to = 255 is no move.
    data: u32,
    /// The table's [`ProofTable::clear`] count when the entry was written: an entry of an
    /// earlier one is empty (in the struct's padding: an entry stays 24 bytes).
    generation: u32,
}

impl Entry {
    fn key(&self) -> u128 {
        (self.key_hi as u128) << 64 | self.key_lo as u128
    }

    fn valid(&self, generation: u32) -> bool {
        self.data & 1 == 1 && self.generation == generation
    }

    fn work(&self) -> u32 {
        self.data >> 2 & 63
    }
}

/// Why a proof table of `mib` MiB is more than this machine can serve: over half of its
/// memory (the rest is for the results, the checker and the system), as the engine bounds its
/// `Hash` by the machine. `Ok` where the machine's memory cannot be read.
pub fn check_table_size(mib: usize) -> Result<(), String> {
    let Some(memory) = crate::machine::memory() else {
        return Ok(());
    };
    let most = memory.total_mib / 2;
    if mib as u64 > most {
        return Err(format!(
            "--hash {mib} MiB is more than this machine serves a proof table: at most {most} \
             MiB, half of its {} MiB",
            memory.total_mib
        ));
    }
    Ok(())
}

/// `count` (at least 1) empty entries in zeroed memory, `None` if the allocator refuses.
fn zeroed_entries(count: usize) -> Option<Vec<Entry>> {
    let layout = std::alloc::Layout::array::<Entry>(count).ok()?;
    if layout.size() == 0 {
        return None;
    }
    // SAFETY: the layout has a non-zero size; an `Entry` is three integers, so all-zero bytes
    // are a valid (empty, `Entry::default()`) entry; the pointer comes from the global
    // allocator with exactly the layout of `count` entries, as `Vec::from_raw_parts` needs.
    unsafe {
        let ptr = std::alloc::alloc_zeroed(layout).cast::<Entry>();
        (!ptr.is_null()).then(|| Vec::from_raw_parts(ptr, count, count))
    }
}

/// A table of proven results within a byte budget.
pub struct ProofTable {
    entries: Vec<Entry>,
    buckets: usize,
    stored: u64,
    /// How many times the table was cleared (wrapping): only entries of this one are live.
    generation: u32,
}

impl ProofTable {
    /// A table of at most `mib` MiB (at least one bucket); `None` if the memory is not there.
    /// The memory is the allocator's zeroed allocation (`calloc`): the kernel hands out its
    /// pages as entries are first written, so a large table costs nothing until it is used.
    pub fn new(mib: usize) -> Option<ProofTable> {
        let bytes = mib.saturating_mul(1 << 20);
        let per_bucket = WAYS * std::mem::size_of::<Entry>();
        let buckets = (bytes / per_bucket).max(1);
        Some(ProofTable {
            entries: zeroed_entries(buckets * WAYS)?,
            buckets,
            stored: 0,
            generation: 0,
        })
    }

    fn bucket(&self, key: u128) -> usize {
        let mixed = (key as u64 ^ (key >> 64) as u64 ^ (key >> 100) as u64)
            .wrapping_mul(0x9E37_79B9_7F4A_7C15);
        ((mixed >> 32) as usize % self.buckets) * WAYS
    }

    /// The result stored for `key`.
    #[inline]
    pub fn get(&self, key: u128) -> Option<Proven> {
        let start = self.bucket(key);
        let e = self.entries[start..start + WAYS]
            .iter()
            .find(|e| e.valid(self.generation) && e.key() == key)?;
        let from = (e.data >> 16) as u8;
        let to = (e.data >> 24) as u8;
        Some(Proven {
            win: e.data >> 1 & 1 == 1,
            dist: (e.data >> 8) as u8,
            best: (to != u8::MAX).then_some(Move { from, to }),
        })
    }

    /// Stores `proven` for `key`, proven in `nodes` nodes.
    #[inline]
    pub fn put(&mut self, key: u128, proven: Proven, nodes: u64) {
        let start = self.bucket(key);
        let generation = self.generation;
        let bucket = &mut self.entries[start..start + WAYS];
        let slot = match bucket
            .iter()
            .position(|e| e.valid(generation) && e.key() == key)
        {
            Some(i) => i,
            None => {
                let (i, e) = bucket
                    .iter()
                    .enumerate()
                    .min_by_key(|(_, e)| if e.valid(generation) { 1 + e.work() } else { 0 })
                    .expect("a bucket has entries");
                if !e.valid(generation) {
                    self.stored += 1;
                }
                i
            }
        };
        let work = (64 - nodes.leading_zeros()).min(63);
        let (from, to) = proven.best.map_or((u8::MAX, u8::MAX), |m| (m.from, m.to));
        bucket[slot] = Entry {
            key_lo: key as u64,
            key_hi: (key >> 64) as u64,
            data: 1
                | (proven.win as u32) << 1
                | work << 2
                | (proven.dist as u32) << 8
                | (from as u32) << 16
                | (to as u32) << 24,
            generation,
        };
    }

    /// Empties the table at once, without writing its memory (pages already touched stay the
    /// process's, so a table cleared and used again costs no page faults): the entries written
    /// before are of an earlier generation and no longer count.
    pub fn clear(&mut self) {
        self.generation = self.generation.wrapping_add(1);
        if self.generation == 0 {
            // After 2³² clears an entry could look current again: write them all empty.
            self.entries.fill(Entry::default());
        }
        self.stored = 0;
    }

    /// Writes every entry (empty), so that the system commits the whole table now rather than
    /// a page at a time as results are stored: for a table that is used again and again under
    /// a clock, like the engine's endgame table.
    pub fn commit_memory(&mut self) {
        self.entries.fill(Entry::default());
        self.stored = 0;
    }

    /// Entries in use.
    pub fn stored(&self) -> u64 {
        self.stored
    }

    /// Entries it can hold.
    pub fn capacity(&self) -> u64 {
        self.entries.len() as u64
    }

    /// Bytes it takes.
    pub fn bytes(&self) -> usize {
        self.entries.len() * std::mem::size_of::<Entry>()
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn results_come_back_and_cheap_ones_make_room() {
        let mut t = ProofTable::new(1).expect("1 MiB");
        let win = Proven {
            win: true,
            dist: 7,
            best: Some(Move { from: 3, to: 4 }),
        };
        let loss = Proven {
            win: false,
            dist: 12,
            best: None,
        };
        t.put(1 << 125 | 42, win, 1_000_000);
        t.put(42, loss, 3);
        assert_eq!(t.get(1 << 125 | 42), Some(win));
        assert_eq!(t.get(42), Some(loss));
        assert_eq!(t.get(43), None);
        assert_eq!(t.stored(), 2);
        // A one-bucket table: the fifth result replaces the cheapest, never the dearest.
        let mut t = ProofTable::new(0).expect("one bucket");
        for k in 0..4u128 {
            t.put(k, loss, if k == 0 { 1 << 40 } else { 10 + k as u64 });
        }
        t.put(99, win, 5);
        assert_eq!(t.get(0), Some(loss));
        assert_eq!(t.get(1), None);
        assert_eq!(t.get(99), Some(win));
        // Cleared: nothing comes back, and the table fills again.
        t.clear();
        assert_eq!((t.get(0), t.get(99), t.stored()), (None, None, 0));
        t.put(5, win, 1);
        assert_eq!((t.get(5), t.stored()), (Some(win), 1));
    }

    /// The process's resident memory in KiB (`VmRSS` of `/proc/self/status`).
    fn resident_kib() -> Option<u64> {
        let status = std::fs::read_to_string("/proc/self/status").ok()?;
        let line = status.lines().find(|l| l.starts_with("VmRSS:"))?;
        line.split_whitespace().nth(1)?.parse().ok()
    }

    #[test]
    fn a_table_larger_than_half_the_machine_is_refused() {
        let Some(memory) = crate::machine::memory() else {
            return; // not Linux: nothing to bound by
        };
        let half = (memory.total_mib / 2) as usize;
        assert_eq!(check_table_size(half), Ok(()));
        let err = check_table_size(half + 1).unwrap_err();
        assert!(err.contains(&format!("at most {half} MiB")), "{err}");
        assert!(check_table_size(usize::MAX).is_err());
    }

    #[test]
    fn a_large_table_takes_memory_only_as_it_is_used() {
        let Some(before) = resident_kib() else {
            return; // not Linux: nothing to measure
        };
        let mut t = ProofTable::new(2048).expect("2 GiB of address space");
        let after = resident_kib().expect("VmRSS");
        // Other tests of this binary allocate at the same time: the bound leaves them room,
        // and a table that wrote its 2 GiB up front is far above it.
        assert!(after < before + (512 << 10), "{before} KiB -> {after} KiB");
        let loss = Proven {
            win: false,
            dist: 1,
            best: None,
        };
        t.put(7, loss, 1);
        assert_eq!(t.get(7), Some(loss));
        assert_eq!(t.get(8), None);
    }
}
