//! What the machine can serve: its logical processors and its memory. The protocol takes the
//! maxima of `Threads` and `Hash` from here, and checks a `Hash` against the memory available
//! before asking for it, so that a value the machine cannot serve is refused with an error
//! instead of the kernel killing the engine later.

use std::path::Path;

/// Memory figures of the machine in MiB, as the kernel reports them.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Memory {
    /// All the memory the kernel manages (`MemTotal`).
    pub total_mib: u64,
    /// What can be had now without swapping (`MemAvailable`).
    pub available_mib: u64,
}

/// Where Linux reports memory.
const MEMINFO: &str = "/proc/meminfo";

/// Logical processors this process may run on (1 if that cannot be told).
pub fn cpus() -> usize {
    std::thread::available_parallelism().map_or(1, |n| n.get())
}

/// The machine's memory now, `None` where `/proc/meminfo` cannot be read (not Linux).
pub fn memory() -> Option<Memory> {
    memory_from(Path::new(MEMINFO))
}

fn memory_from(path: &Path) -> Option<Memory> {
    let text = std::fs::read_to_string(path).ok()?;
    parse_meminfo(&text)
}

/// Reads `MemTotal` and `MemAvailable` (in kB) out of the text of `/proc/meminfo`.
pub fn parse_meminfo(text: &str) -> Option<Memory> {
    let field = |name: &str| {
        text.lines().find_map(|line| {
            let rest = line.strip_prefix(name)?.strip_prefix(':')?;
            let mut words = rest.split_whitespace();
            let kb: u64 = words.next()?.parse().ok()?;
            (words.next() == Some("kB")).then_some(kb / 1024)
        })
    };
    Some(Memory {
        total_mib: field("MemTotal")?,
        available_mib: field("MemAvailable")?,
    })
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn meminfo_is_read_in_mib() {
        let text = "MemTotal:       24576000 kB\nMemFree:  100 kB\nMemAvailable:   20480000 kB\n";
        assert_eq!(
            parse_meminfo(text),
            Some(Memory {
                total_mib: 24000,
                available_mib: 20000
            })
        );
        assert_eq!(parse_meminfo("MemTotal: 1 kB\n"), None);
        assert_eq!(parse_meminfo("MemTotal: x kB\nMemAvailable: 1 kB\n"), None);
        assert_eq!(parse_meminfo("MemTotalX: 1 kB\nMemAvailable: 1 kB\n"), None);
    }

    #[test]
    fn this_machine_has_a_processor_and_memory() {
        assert!(cpus() >= 1);
        if let Some(m) = memory() {
            assert!(m.total_mib >= m.available_mib && m.total_mib > 0);
        }
    }
}
