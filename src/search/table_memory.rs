//! The memory of the transposition table: zeroed, resident from the start and, on Linux, in
//! 2 MiB pages where the kernel has them.
//!
//! **Resident.** A zeroed allocation is mapped lazily: the first read of a page maps the
//! kernel's shared zero page, and the first write to it then replaces that page and flushes
//! the translation caches of every processor running the engine. With two search threads
//! each such write interrupts the other thread (an inter-processor interrupt; on a virtual
//! machine an exit to the hypervisor): a profile of Sight `c3 b2` to depth 13 with Threads 2
//! on a fresh 64 MiB table spent 6 % of its samples there, and Threads 2 searched 1.81× the
//! nodes per second of Threads 1 where two Threads 1 processes side by side searched 2.0×
//! (docs/strength.md, "Threads"). So every page of a table is written once when it is allocated, by the worker
//! thread before any search, and clearing writes zeros in place instead of handing the
//! memory back.
//!
//! **Huge pages.** The table is probed at random, so with 4 KiB pages most probes of a large
//! table would miss the translation cache (reasoning: the VM measured on has no hardware
//! counters; Threads 1 was 9 % faster with them). On Linux the table asks for transparent huge
//! pages (`madvise(MADV_HUGEPAGE)`, as Stockfish does); where the kernel has none to give, or
//! has them switched off, the table is in ordinary pages and works the same.

use std::sync::atomic::{AtomicU64, Ordering};

use zerocopy::FromZeros;

/// One slot of the table: the entry's data and the key xor the data.
pub type Slot = [AtomicU64; 2];

/// The smallest page size of the machines the engine runs on: writing one word every this
/// many bytes writes every page.
const PAGE_BYTES: usize = 4096;

/// `count` zeroed slots with every page written once (see the module's doc), or `None` if the
/// allocator refuses. Takes time and memory in proportion to `count`: all 64 MiB of the default
/// `Hash` in about 5 ms, 1 GiB in 0.15 s (huge pages, this project's CI machine kind).
pub fn resident_zeroed(count: usize) -> Option<Box<[Slot]>> {
    let slots = zeroed_lazily(count)?;
    write_pages(&slots, 0, || false);
    Some(slots)
}

/// `count` zeroed slots, none of their pages written yet (see [`write_pages`]), or `None` if
/// the allocator refuses. Takes no time: the kernel maps the memory as it is touched.
pub fn zeroed_lazily(count: usize) -> Option<Box<[Slot]>> {
    let slots = <[Slot]>::new_box_zeroed_with_elems(count).ok()?;
    advise_huge_pages(&slots);
    Some(slots)
}

/// Bytes written between two looks at whether to pause [`write_pages`]: about 2 ms of work.
const STEP_BYTES: usize = 16 << 20;

/// Writes every page of `slots` from slot `from` on, keeping every value (a slot is written
/// with what it holds), and looks at `pause` before every 16 MiB: returns the slot reached,
/// `slots.len()` once every page is written. What `pause` interrupts resumes from the slot
/// returned. The caller makes sure no other thread writes `slots` meanwhile.
pub fn write_pages(slots: &[Slot], from: usize, pause: impl Fn() -> bool) -> usize {
    let size = std::mem::size_of::<Slot>();
    let per_page = (PAGE_BYTES / size).max(1);
    let per_step = (STEP_BYTES / size).max(per_page);
    let mut done = from.min(slots.len());
    while done < slots.len() {
        if pause() {
            return done;
        }
        let end = (done + per_step).min(slots.len());
        for slot in slots[done..end].iter().step_by(per_page) {
            // A compare-exchange of a value with itself: a write the compiler cannot drop.
            let v = slot[0].load(Ordering::Relaxed);
            let _ = slot[0].compare_exchange(v, v, Ordering::Relaxed, Ordering::Relaxed);
        }
        done = end;
    }
    done
}

/// Writes zeros over every slot, keeping the memory (and its pages) as it is: about 1 ms for
/// 64 MiB, 16 ms for 1 GiB.
pub fn zero(slots: &mut [Slot]) {
    for slot in slots.iter_mut() {
        *slot = [AtomicU64::new(0), AtomicU64::new(0)];
    }
}

/// Asks the kernel to back the 2 MiB-aligned part of `slots` with huge pages (Linux; a no-op
/// elsewhere). A refusal changes nothing but speed, so its result is not looked at.
fn advise_huge_pages(slots: &[Slot]) {
    #[cfg(target_os = "linux")]
    {
        const HUGE_PAGE_BYTES: usize = 2 << 20;
        let start = slots.as_ptr() as usize;
        let end = start + std::mem::size_of_val(slots);
        let first = start.div_ceil(HUGE_PAGE_BYTES) * HUGE_PAGE_BYTES;
        let last = end / HUGE_PAGE_BYTES * HUGE_PAGE_BYTES;
        if last > first {
            // SAFETY: [first, last) lies inside the allocation `slots` borrows, and
            // MADV_HUGEPAGE changes only which pages back it, never its contents.
            unsafe {
                libc::madvise(
                    first as *mut libc::c_void,
                    last - first,
                    libc::MADV_HUGEPAGE,
                );
            }
        }
    }
    #[cfg(not(target_os = "linux"))]
    let _ = slots;
}

#[cfg(test)]
mod tests {
    use super::*;

    /// Resident bytes of the mappings that overlap `range`, from /proc/self/smaps (advising
    /// huge pages splits the table's mapping in up to three).
    fn resident_in(range: std::ops::Range<usize>) -> Option<usize> {
        let smaps = std::fs::read_to_string("/proc/self/smaps").ok()?;
        let mut overlaps = false;
        let mut rss = 0;
        for line in smaps.lines() {
            let mut fields = line.split_whitespace();
            let first = fields.next()?;
            if let Some((from, to)) = first.split_once('-')
                && let (Ok(from), Ok(to)) = (
                    usize::from_str_radix(from, 16),
                    usize::from_str_radix(to, 16),
                )
            {
                overlaps = from < range.end && range.start < to;
            } else if overlaps && first == "Rss:" {
                rss += fields.next()?.parse::<usize>().ok()? << 10;
            }
        }
        Some(rss)
    }

    fn all_zero(slots: &[Slot]) -> bool {
        slots
            .iter()
            .all(|s| s[0].load(Ordering::Relaxed) == 0 && s[1].load(Ordering::Relaxed) == 0)
    }

    #[test]
    fn a_table_is_resident_and_zero_when_handed_out() {
        let count = (32 << 20) / std::mem::size_of::<Slot>();
        let slots = resident_zeroed(count).expect("32 MiB");
        let start = slots.as_ptr() as usize;
        let rss = resident_in(start..start + (32 << 20)).expect("/proc/self/smaps");
        // Before: a fresh table had no page resident (the zeroed allocation is lazy).
        assert!(rss >= 32 << 20, "{rss} bytes resident of a 32 MiB table");
        assert!(all_zero(&slots));
    }

    #[test]
    fn paused_page_writes_resume_where_they_stopped_and_keep_the_values() {
        let count = (64 << 20) / std::mem::size_of::<Slot>();
        let slots = zeroed_lazily(count).expect("64 MiB");
        let start = slots.as_ptr() as usize;
        let resident = || resident_in(start..start + (64 << 20)).expect("/proc/self/smaps");
        // Paused before its first step: nothing written.
        assert_eq!(write_pages(&slots, 0, || true), 0);
        let before = resident();
        assert!(
            before < 16 << 20,
            "{before} bytes resident before any page was written"
        );
        slots[7][1].store(42, Ordering::Relaxed);
        // Paused after one step of 16 MiB, then after a second.
        let looks = std::cell::Cell::new(0);
        let pause_after_one = || {
            looks.set(looks.get() + 1);
            looks.get() > 1
        };
        let quarter = count / 4;
        assert_eq!(write_pages(&slots, 0, pause_after_one), quarter);
        looks.set(0);
        assert_eq!(write_pages(&slots, quarter, pause_after_one), 2 * quarter);
        assert_eq!(write_pages(&slots, 2 * quarter, || false), count);
        assert!(resident() >= 64 << 20, "{} bytes resident", resident());
        assert_eq!(slots[7][1].load(Ordering::Relaxed), 42);
        slots[7][1].store(0, Ordering::Relaxed);
        assert!(all_zero(&slots));
    }

    #[test]
    fn zero_clears_every_slot() {
        let mut slots = resident_zeroed(1000).expect("a small table");
        for (i, slot) in slots.iter().enumerate() {
            slot[0].store(i as u64 + 1, Ordering::Relaxed);
            slot[1].store(!0, Ordering::Relaxed);
        }
        zero(&mut slots);
        assert_eq!(slots.len(), 1000);
        assert!(all_zero(&slots));
    }
}
