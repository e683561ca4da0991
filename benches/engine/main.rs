//! Engine benchmarks (`harness = false`): perft speed, search speed, protocol latencies and
//! what more search threads cost.
//!
//! ```text
//! cargo bench --bench engine                  # full run, about a minute
//! cargo bench --bench engine -- --quick       # bounded run for CI, about 10 s
//! cargo bench --bench engine -- protocol      # only the sections named (perft, search, protocol,
//!                                             # threads)
//! ```
//!
//! Built by `cargo test --all-targets` / `cargo test --benches`, the binary runs without
//! `--bench` and does a smoke run (every measurement once, tiny sizes) so tests stay fast.
//!
//! Perft and search measure every game: the positions and sizes are rows of the [`Plan`]
//! (each position names its game), run by code generic over the game through
//! [`GameId::visit`]. The protocol section drives the binary with Sight only. The threads section
//! calls the library with more threads than the `Threads` option allows (it is capped at the
//! cores), timing process CPU time as well as wall time.
//!
//! Figures are printed as Markdown tables next to their targets; no target is asserted. The run
//! fails (exit status 1) only if something is wrong rather than slow: a perft count that
//! differs from the reference or between runs, a fixed-depth search that is not deterministic,
//! an engine that answers the protocol unexpectedly, or a threaded search that returns no move.
//! Randomness (the delays before `isready` and `stop`) is seeded, so runs are repeatable.
//! See docs/benchmarks.md for what each figure means and the last measured values.

mod perft;
mod protocol;
mod report;
mod search;
mod threads;

use std::process::ExitCode;
use std::time::Instant;

use ludus::game::{GameId, OptionValues, Searchable};
use perft::bench_perft;
use protocol::bench_protocol;
use report::Table;
use search::bench_search;
use threads::{ISAAC_TV3, Line, SIGHT_C3_B2, TACTIGON_D8C9_E15F12, bench_threads};

type BenchResult<T> = Result<T, String>;

/// A position of one of the games, in that game's notation, read with the game's default
/// settings.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
struct Position {
    game: GameId,
    name: &'static str,
    fen: &'static str,
    /// Reference perft counts from depth 1 (as many as are known).
    perft: &'static [u64],
}

/// Sight's start position, the empty 5×5 board (counts: docs/rules/sight.md §7).
const EMPTY: Position = Position {
    game: GameId::Sight,
    name: "start (empty 5×5)",
    fen: "5:x5/x5/x5/x5/x5 w",
    perft: &[25, 600, 13_800, 303_600, 4_205_376, 56_771_208, 567_062_952],
};
/// docs/rules/sight.md TV7 (the seed's testBoard(2)), a mid-game position (counts: §9 TV15).
const TV7: Position = Position {
    game: GameId::Sight,
    name: "TV7",
    fen: "5:x5/x,w2,x3/x2,w,x2/x2,b,b,x/x5 w",
    perft: &[7, 140, 1_482, 16_620],
};
/// Sight `position startpos moves c3 c4 b2`.
const C3_C4_B2: Position = Position {
    game: GameId::Sight,
    name: "startpos moves c3 c4 b2",
    fen: "5:x5/x2,b,x2/x2,w2,x2/x,w,x3/x5 b",
    perft: &[],
};
/// Isaac's start position (docs/rules/isaac.md TV1). 600 is the rules' count of the opening
/// placements; 305,600 and 131,225,400 agree with an independent count of non-overlapping
/// placements (nobody can pass while a placement is legal).
const ISAAC_START: Position = Position {
    game: GameId::Isaac,
    name: "start",
    fen: "- 54321/54321 d P - 0/0 0/0",
    perft: &[600, 305_600, 131_225_400],
};
/// docs/rules/isaac.md TV3 after the phase change: the board full, Light to score first, 52 moves.
const ISAAC_SCORING: Position = Position {
    game: GameId::Isaac,
    name: "TV3 scoring phase",
    fen: "D6h00,D4h06,D6h10,L4h16,L6h20,D4h26,L5h30,L5h35,L5h40,D5h45,D3h50,D3h53,L4h56,\
          D3h60,D3h63,D4h66,L3h70,L3h73,L4h76,L3h80,L3h83,L4h86,L3h90,D4h93,D3h97 \
          00201/00011 l S - 0/0 0/0",
    perft: &[52],
};

/// Tactigon's start position (docs/rules/tactigon.md TV1: 58 moves).
const TACTIGON_START: Position = Position {
    game: GameId::Tactigon,
    name: "start",
    fen: "2/C1C3c1c/1ST4ts1/CTPSC1csptc/1ST4ts1/C1C3c1c/2 r 0",
    perft: &[58],
};
/// docs/rules/tactigon.md TV19 after two plies: the board opened, Red to move with 87 moves.
const TACTIGON_OPEN: Position = Position {
    game: GameId::Tactigon,
    name: "TV19 after d6-c11 d14-b12",
    fen: "2/C1C2sc1c/1ST2S1ts1/CTP1C1c1ptc/1ST4ts1/C1C3c1c/2 r 2",
    perft: &[87],
};

/// Each game's start position: the speed targets are judged there.
const START_POSITIONS: [Position; 3] = [EMPTY, ISAAC_START, TACTIGON_START];

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
    /// Perft positions and depths. Depths with a reference count are checked against it.
    perfts: Vec<(Position, u32)>,
    /// Timed repetitions of each search (fixed-depth and fixed-time).
    search_runs: usize,
    /// Fixed-depth search positions and depth limits.
    searches: Vec<(Position, u32)>,
    /// Fixed-time search positions and movetimes (ms): how deep the search gets.
    timed_searches: Vec<(Position, i64)>,
    /// Tries of the `isready` and the `stop` measurements.
    latency_tries: usize,
    /// Rounds of the movetime measurement; each round tries every movetime once.
    movetime_rounds: usize,
    /// The movetimes tried, ms.
    movetimes: &'static [u64],
    /// Runs of each measurement of the threads section (medians are reported).
    threads_runs: usize,
    /// The thread counts the threads section compares, the first being 1.
    thread_counts: &'static [usize],
    /// Fixed-depth alpha-beta searches of the threads section: positions and depth limits.
    threads_searches: Vec<(Line, u32)>,
    /// Iterations of the threads section's MCTS search (all threads together).
    mcts_iterations: u64,
}

/// The threads section's positions and depths (full and quick runs alike).
fn threads_searches() -> Vec<(Line, u32)> {
    vec![
        (SIGHT_C3_B2, 12),
        (TACTIGON_D8C9_E15F12, 5),
        (ISAAC_TV3, 12),
    ]
}

/// The thread counts of the threads section: up to eight times a two-core machine's cores.
const THREAD_COUNTS: &[usize] = &[1, 2, 4, 8, 16];

impl Plan {
    fn new(mode: Mode) -> Plan {
        match mode {
            Mode::Full => Plan {
                perft_runs: 3,
                perfts: vec![
                    (EMPTY, 6),
                    (TV7, 6),
                    (ISAAC_START, 3),
                    (ISAAC_SCORING, 5),
                    (TACTIGON_START, 5),
                    (TACTIGON_OPEN, 4),
                ],
                search_runs: 3,
                searches: vec![
                    (EMPTY, 10),
                    (TV7, 12),
                    (C3_C4_B2, 12),
                    (ISAAC_START, 3),
                    (ISAAC_SCORING, 10),
                    (TACTIGON_START, 4),
                    (TACTIGON_OPEN, 4),
                ],
                timed_searches: vec![(EMPTY, 1000), (ISAAC_START, 1000), (TACTIGON_START, 1000)],
                latency_tries: 100,
                movetime_rounds: 25,
                movetimes: &[50, 100, 200, 500],
                threads_runs: 3,
                thread_counts: THREAD_COUNTS,
                threads_searches: threads_searches(),
                mcts_iterations: 30_000,
            },
            Mode::Quick => Plan {
                perft_runs: 3,
                perfts: vec![
                    (EMPTY, 6),
                    (TV7, 5),
                    (ISAAC_START, 3),
                    (ISAAC_SCORING, 4),
                    (TACTIGON_START, 4),
                    (TACTIGON_OPEN, 3),
                ],
                search_runs: 1,
                searches: vec![
                    (EMPTY, 9),
                    (TV7, 11),
                    (C3_C4_B2, 11),
                    (ISAAC_START, 3),
                    (ISAAC_SCORING, 9),
                    (TACTIGON_START, 3),
                    (TACTIGON_OPEN, 3),
                ],
                timed_searches: vec![(EMPTY, 1000), (ISAAC_START, 1000), (TACTIGON_START, 1000)],
                latency_tries: 10,
                movetime_rounds: 3,
                movetimes: &[50, 100, 200, 500],
                threads_runs: 1,
                thread_counts: THREAD_COUNTS,
                threads_searches: threads_searches(),
                mcts_iterations: 30_000,
            },
            Mode::Smoke => Plan {
                perft_runs: 1,
                perfts: vec![
                    (EMPTY, 5),
                    (TV7, 4),
                    (ISAAC_START, 2),
                    (ISAAC_SCORING, 3),
                    (TACTIGON_START, 2),
                ],
                search_runs: 1,
                searches: vec![
                    (EMPTY, 5),
                    (TV7, 6),
                    (ISAAC_START, 2),
                    (ISAAC_SCORING, 5),
                    (TACTIGON_START, 2),
                ],
                timed_searches: vec![(EMPTY, 20), (ISAAC_START, 20), (TACTIGON_START, 20)],
                latency_tries: 2,
                movetime_rounds: 1,
                movetimes: &[50, 100],
                threads_runs: 1,
                thread_counts: THREAD_COUNTS,
                threads_searches: vec![(SIGHT_C3_B2, 4), (TACTIGON_D8C9_E15F12, 2), (ISAAC_TV3, 4)],
                mcts_iterations: 1_000,
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
                    "usage: cargo bench --bench engine [-- [--quick] [perft] [search] [protocol] [threads]]"
                );
                return ExitCode::SUCCESS;
            }
            s if s.starts_with('-') => eprintln!("engine bench: ignoring option {s}"),
            s => sections.push(s.to_string()),
        }
    }
    const SECTIONS: [&str; 4] = ["perft", "search", "protocol", "threads"];
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
            verdicts.extend(bench_search(&plan)?);
        }
        if wanted("protocol") {
            verdicts.extend(bench_protocol(&plan)?);
        }
        if wanted("threads") {
            bench_threads(&plan)?;
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

/// Reads `pos` as a `G` under the game's default settings (the option defaults).
fn parse<G: Searchable>(pos: &Position) -> BenchResult<G> {
    let settings = G::settings(&OptionValues::from_specs(&G::options()));
    G::from_fen(pos.fen, &settings).map_err(|e| format!("{} {}: {e}", pos.game, pos.fen))
}
