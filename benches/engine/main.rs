//! Engine benchmarks (`harness = false`): perft speed, search speed and protocol latencies.
//!
//! ```text
//! cargo bench --bench engine                  # full run, under a minute
//! cargo bench --bench engine -- --quick       # bounded run for CI, about 10 s
//! cargo bench --bench engine -- protocol      # only the sections named (perft, search, protocol)
//! ```
//!
//! Built by `cargo test --all-targets` / `cargo test --benches`, the binary runs without
//! `--bench` and does a smoke run (every measurement once, tiny sizes) so tests stay fast.
//!
//! Figures are printed as Markdown tables next to their targets; no target is asserted. The run
//! fails (exit status 1) only if something is wrong rather than slow: a perft count that
//! differs from the reference, or an engine that answers the protocol unexpectedly.
//! Randomness (the delays before `isready` and `stop`) is seeded, so runs are repeatable.
//! See docs/benchmarks.md for what each figure means and the last measured values.

mod perft;
mod protocol;
mod report;
mod search;

use std::process::ExitCode;
use std::time::Instant;

use ludus::game::Game;
use ludus::game::sight::{Sight, SightSettings};
use perft::bench_perft;
use protocol::bench_protocol;
use report::Table;
use search::bench_search;

type BenchResult<T> = Result<T, String>;

/// The 5×5 empty board (Sight's start position).
const EMPTY: &str = "5:x5/x5/x5/x5/x5 w";
/// Rules TV7 (seed testBoard(2)), a mid-game position.
const TV7: &str = "5:x5/x,w2,x3/x2,w,x2/x2,b,b,x/x5 w";
/// `position startpos moves c3 c4 b2`.
const C3_C4_B2: &str = "5:x5/x2,b,x2/x2,w2,x2/x,w,x3/x5 b";

#[derive(Clone, Copy, Debug, PartialEq, Eq)]
enum Mode {
    /// `cargo bench --bench engine`.
    Full,
    /// `cargo bench --bench engine -- --quick`.
    Quick,
    /// Run without `--bench` (by `cargo test`): everything once, as small as possible.
    Smoke,
}

/// Sizes of one run.
struct Plan {
    /// Timed repetitions of each perft.
    perft_runs: usize,
    /// Perft depth of the empty board (its count is checked against [`perft::EMPTY_COUNTS`]).
    empty_depth: u32,
    /// Perft depth of TV7.
    tv7_depth: u32,
    /// Timed repetitions of each search.
    search_runs: usize,
    /// Search positions and depth limits.
    searches: Vec<(&'static str, &'static str, u32)>,
    /// Tries of the `isready` and the `stop` measurements.
    latency_tries: usize,
    /// Rounds of the movetime measurement; each round tries every movetime once.
    movetime_rounds: usize,
    /// The movetimes tried, ms.
    movetimes: &'static [u64],
}

impl Plan {
    fn new(mode: Mode) -> Plan {
        match mode {
            Mode::Full => Plan {
                perft_runs: 3,
                empty_depth: 6,
                tv7_depth: 6,
                search_runs: 3,
                searches: vec![
                    ("start (empty board)", EMPTY, 10),
                    ("TV7", TV7, 12),
                    ("startpos moves c3 c4 b2", C3_C4_B2, 12),
                ],
                latency_tries: 100,
                movetime_rounds: 25,
                movetimes: &[50, 100, 200, 500],
            },
            Mode::Quick => Plan {
                perft_runs: 3,
                empty_depth: 6,
                tv7_depth: 5,
                search_runs: 1,
                searches: vec![
                    ("start (empty board)", EMPTY, 9),
                    ("TV7", TV7, 11),
                    ("startpos moves c3 c4 b2", C3_C4_B2, 11),
                ],
                latency_tries: 10,
                movetime_rounds: 3,
                movetimes: &[50, 100, 200, 500],
            },
            Mode::Smoke => Plan {
                perft_runs: 1,
                empty_depth: 5,
                tv7_depth: 4,
                search_runs: 1,
                searches: vec![("start (empty board)", EMPTY, 5), ("TV7", TV7, 6)],
                latency_tries: 2,
                movetime_rounds: 1,
                movetimes: &[50, 100],
            },
        }
    }
}

/// One target and whether the measured figure meets it.
struct Verdict {
    target: String,
    figure: String,
    met: bool,
}

fn main() -> ExitCode {
    let args: Vec<String> = std::env::args().skip(1).collect();
    let mut mode = if args.iter().any(|a| a == "--bench") {
        Mode::Full
    } else {
        Mode::Smoke
    };
    let mut sections = Vec::new();
    for arg in &args {
        match arg.as_str() {
            "--bench" => {}
            "--quick" => mode = Mode::Quick,
            // Test runners list the tests of every target; this one has none.
            "--list" => return ExitCode::SUCCESS,
            "--help" | "-h" => {
                println!(
                    "usage: cargo bench --bench engine [-- [--quick] [perft] [search] [protocol]]"
                );
                return ExitCode::SUCCESS;
            }
            s if s.starts_with('-') => eprintln!("engine bench: ignoring option {s}"),
            s => sections.push(s.to_string()),
        }
    }
    const SECTIONS: [&str; 3] = ["perft", "search", "protocol"];
    if let Some(s) = sections
        .iter()
        .find(|s| !SECTIONS.iter().any(|n| n.contains(*s)))
    {
        if mode == Mode::Smoke {
            // `cargo test -- <filter>` hands its test filter to every target: not for us.
            println!("engine bench: nothing matches '{s}', skipped");
            return ExitCode::SUCCESS;
        }
        eprintln!("engine bench: unknown section '{s}' (sections: {SECTIONS:?})");
        return ExitCode::FAILURE;
    }
    let wanted = |name: &str| sections.is_empty() || sections.iter().any(|s| name.contains(s));
    let plan = Plan::new(mode);
    println!("# ludus engine benchmark ({mode:?} mode)\n");
    let start = Instant::now();
    let mut verdicts = Vec::new();
    let result = (|| -> BenchResult<()> {
        if wanted("perft") {
            verdicts.extend(bench_perft(&plan)?);
        }
        if wanted("search") {
            bench_search(&plan)?;
        }
        if wanted("protocol") {
            verdicts.extend(bench_protocol(&plan)?);
        }
        Ok(())
    })();
    if !verdicts.is_empty() {
        println!("## Targets\n");
        let mut table = Table::new(&["target", "measured", "met"]);
        for v in &verdicts {
            table.row(vec![
                v.target.clone(),
                v.figure.clone(),
                if v.met { "yes" } else { "NO" }.to_string(),
            ]);
        }
        table.print();
    }
    println!("Total bench time: {:.1} s", start.elapsed().as_secs_f64());
    match result {
        Ok(()) => ExitCode::SUCCESS,
        Err(e) => {
            eprintln!("engine bench: error: {e}");
            ExitCode::FAILURE
        }
    }
}

fn parse(fen: &str) -> BenchResult<Sight> {
    Sight::from_fen(fen, &SightSettings::default()).map_err(|e| format!("{fen}: {e}"))
}
