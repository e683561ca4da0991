//! Random interleavings of `go`, `perft`, `stop`, `isready`, `setoption` and `position` in
//! all three games (the checker is `tests/protocol/interleave.rs`): one legal `bestmove` per `go`, inside its
//! `searchmoves`, one `readyok` per `isready`, one last line per `perft`, no hang. The latencies are printed, not asserted
//! (they are measured by `benches/latency.sh`, with both cores busy).
//!
//! `LUDUS_INTERLEAVINGS=<n>` plays n sequences per game instead of the default; the seed is
//! `LUDUS_INTERLEAVING_SEED` (default 19).

#[path = "interleave.rs"]
mod interleave;

use interleave::Stats;

/// Sequences per game in a plain `cargo test`.
const DEFAULT_SEQUENCES: usize = 40;

fn env_number(name: &str, default: u64) -> u64 {
    std::env::var(name)
        .ok()
        .and_then(|s| s.parse().ok())
        .unwrap_or(default)
}

#[test]
fn random_interleavings_get_one_legal_bestmove_per_go_and_every_readyok() {
    let sequences = env_number("LUDUS_INTERLEAVINGS", DEFAULT_SEQUENCES as u64) as usize;
    let seed = env_number("LUDUS_INTERLEAVING_SEED", 19);
    let max_threads = std::thread::available_parallelism().map_or(1, |n| n.get());
    let binary = env!("CARGO_BIN_EXE_ludus");
    let mut all = Stats::default();
    for (i, game) in ["sight", "isaac", "tactigon"].into_iter().enumerate() {
        let stats = interleave::run(binary, game, seed + i as u64, sequences, max_threads);
        assert_eq!(stats.sequences, sequences, "{game}");
        assert!(stats.gos >= sequences, "{game}: {} gos", stats.gos);
        eprintln!(
            "{game}: {} sequences, {} gos, {} perfts",
            stats.sequences, stats.gos, stats.perfts
        );
        eprintln!("  {}", Stats::summary("readyok", &stats.readyok));
        eprintln!("  {}", Stats::summary("stop->bestmove", &stats.stop));
        eprintln!("  {}", Stats::summary("stop->perft end", &stats.perft_stop));
        all.merge(stats);
    }
    eprintln!(
        "all: {} sequences, {} gos, {} perfts",
        all.sequences, all.gos, all.perfts
    );
    eprintln!("  {}", Stats::summary("readyok", &all.readyok));
    eprintln!("  {}", Stats::summary("stop->bestmove", &all.stop));
    eprintln!("  {}", Stats::summary("stop->perft end", &all.perft_stop));
    assert!(!all.readyok.is_empty() && !all.stop.is_empty());
    assert!(
        all.perfts > 0 && !all.perft_stop.is_empty(),
        "no perft was stopped"
    );
}
