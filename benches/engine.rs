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

use std::io::{BufRead, BufReader, Write};
use std::process::{Child, ChildStdin, Command, ExitCode, Stdio};
use std::sync::atomic::AtomicBool;
use std::sync::mpsc::{self, Receiver, RecvTimeoutError};
use std::thread;
use std::time::{Duration, Instant};

use ludus::game::sight::{Sight, SightSettings};
use ludus::game::{Evaluate, Game};
use ludus::search::{Limits, SearchParams, SearchTables, search};
use rand::rngs::SmallRng;
use rand::{RngExt, SeedableRng};

type BenchResult<T> = Result<T, String>;

/// The 5×5 empty board (Sight's start position).
const EMPTY: &str = "5:x5/x5/x5/x5/x5 w";
/// Rules TV7 (seed testBoard(2)), a mid-game position.
const TV7: &str = "5:x5/x,w2,x3/x2,w,x2/x2,b,b,x/x5 w";
/// `position startpos moves c3 c4 b2`.
const C3_C4_B2: &str = "5:x5/x2,b,x2/x2,w2,x2/x,w,x3/x5 b";

/// Perft counts of the empty 5×5 board from depth 1 (rules/sight.md §7).
const EMPTY_COUNTS: &[u64] = &[25, 600, 13_800, 303_600, 4_205_376, 56_771_208, 567_062_952];
/// Perft counts of TV7 from depth 1 (rules/sight.md §9 TV15).
const TV7_COUNTS: &[u64] = &[7, 140, 1_482, 16_620];

/// Targets printed next to the figures.
const TARGET_PERFT_NPS: f64 = 20e6;
const TARGET_READYOK_MS: f64 = 10.0;
const TARGET_STOP_MS: f64 = 20.0;

/// Seed of every random delay.
const SEED: u64 = 0x1d05_5eed;

/// Positions the protocol measurements cycle through, as `position` commands.
const PROTOCOL_POSITIONS: &[&str] = &[
    "position startpos",
    "position startpos moves c3 c4 b2",
    "position fen 5:x5/x,w2,x3/x2,w,x2/x2,b,b,x/x5 w",
    "position startpos moves b2 d4 e4 b4",
];

/// How long to wait for any expected engine line before declaring the engine stuck.
const REPLY_TIMEOUT: Duration = Duration::from_secs(10);

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
    /// Perft depth of the empty board (its count is checked against [`EMPTY_COUNTS`]).
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

// ---------------------------------------------------------------------------------------------
// 1. Perft

fn parse(fen: &str) -> BenchResult<Sight> {
    Sight::from_fen(fen, &SightSettings::default()).map_err(|e| format!("{fen}: {e}"))
}

/// Times `runs` perfts of `pos` to `depth`; returns the leaf count and the seconds of each run.
fn time_perft(pos: &Sight, depth: u32, runs: usize) -> BenchResult<(u64, Vec<f64>)> {
    let mut count = None;
    let mut secs = Vec::with_capacity(runs);
    for _ in 0..runs {
        let t = Instant::now();
        let n = std::hint::black_box(Game::perft(std::hint::black_box(pos), depth));
        secs.push(t.elapsed().as_secs_f64());
        if count.is_some_and(|c| c != n) {
            return Err(format!(
                "perft {depth} is not repeatable: {count:?} then {n}"
            ));
        }
        count = Some(n);
    }
    Ok((count.unwrap_or(0), secs))
}

fn check_counts(name: &str, pos: &Sight, reference: &[u64], upto: u32) -> BenchResult<()> {
    for (d, &want) in (1..=upto).zip(reference) {
        let got = pos.perft(d);
        if got != want {
            return Err(format!(
                "perft {d} of {name} is {got}, the reference says {want}"
            ));
        }
    }
    Ok(())
}

fn bench_perft(plan: &Plan) -> BenchResult<Vec<Verdict>> {
    println!("## 1. Perft (in-process `Game::perft`, one thread, bulk-counted last ply)\n");
    let empty = parse(EMPTY)?;
    let tv7 = parse(TV7)?;
    // Cheap sanity checks of the shallow counts first; the timed depth is checked below.
    check_counts(
        "the empty board",
        &empty,
        EMPTY_COUNTS,
        plan.empty_depth.min(5),
    )?;
    check_counts("TV7", &tv7, TV7_COUNTS, 4)?;

    let mut table = Table::new(&[
        "position",
        "depth",
        "leaves",
        "runs",
        "best ms",
        "median ms",
        "best leaves/s",
        "median leaves/s",
    ]);
    let mut verdicts = Vec::new();
    for (name, pos, depth, reference) in [
        ("empty 5×5", &empty, plan.empty_depth, EMPTY_COUNTS),
        ("TV7", &tv7, plan.tv7_depth, TV7_COUNTS),
    ] {
        let (leaves, secs) = time_perft(pos, depth, plan.perft_runs)?;
        match reference.get(depth as usize - 1) {
            Some(&want) if want != leaves => {
                return Err(format!(
                    "perft {depth} of {name} counted {leaves} leaves, expected {want}"
                ));
            }
            _ => {}
        }
        let best = min(&secs);
        let med = median(&secs);
        table.row(vec![
            name.to_string(),
            depth.to_string(),
            thousands(leaves),
            secs.len().to_string(),
            format!("{:.1}", best * 1e3),
            format!("{:.1}", med * 1e3),
            mega(leaves as f64 / best),
            mega(leaves as f64 / med),
        ]);
        if reference == EMPTY_COUNTS {
            // Judged on the median run, not the best one.
            let nps = leaves as f64 / med;
            verdicts.push(Verdict {
                target: format!("perft (empty board, depth {depth}) ≥ 20 M leaves/s"),
                figure: format!("{} best, {} median", mega(leaves as f64 / best), mega(nps)),
                met: nps >= TARGET_PERFT_NPS,
            });
        }
    }
    table.print();
    Ok(verdicts)
}

// ---------------------------------------------------------------------------------------------
// 2. Search

fn bench_search(plan: &Plan) -> BenchResult<()> {
    println!(
        "## 2. Search (in-process `search::search`, fresh 16 MiB tables, fixed depth, {} run{})\n",
        plan.search_runs,
        if plan.search_runs == 1 { "" } else { "s" }
    );
    let mut table = Table::new(&[
        "position",
        "depth limit",
        "depth reached",
        "seldepth",
        "nodes",
        "best ms",
        "median ms",
        "best nodes/s",
        "median nodes/s",
        "bestmove",
        "score",
    ]);
    let (mut total_nodes, mut total_best, mut total_median) = (0u64, 0f64, 0f64);
    for &(name, fen, depth) in &plan.searches {
        let root = parse(fen)?;
        let params = SearchParams {
            limits: Limits {
                depth: Some(depth),
                ..Limits::default()
            },
            multipv: 1,
            overhead_ms: 0,
            root_moves: None,
        };
        let mut secs = Vec::with_capacity(plan.search_runs);
        let mut first = None;
        let mut seldepth = 0;
        for _ in 0..plan.search_runs {
            let mut tables = SearchTables::new(16, <Sight as Evaluate>::HISTORY_SIZE)
                .map_err(|e| format!("cannot allocate the search tables: {e:?}"))?;
            let stop = AtomicBool::new(false);
            let t = Instant::now();
            let result = search(&root, &params, &mut tables, &stop, &mut |info| {
                seldepth = info.seldepth;
            });
            secs.push(t.elapsed().as_secs_f64());
            match &first {
                None => first = Some(result),
                // Fresh tables and a depth limit: every run must search the same tree.
                Some(f) if *f != result => {
                    return Err(format!(
                        "search of {name} to depth {depth} is not deterministic: {f:?} then {result:?}"
                    ));
                }
                Some(_) => {}
            }
        }
        let result = first.ok_or("no search run")?;
        let (best, med) = (min(&secs), median(&secs));
        total_nodes += result.nodes;
        total_best += best;
        total_median += med;
        table.row(vec![
            name.to_string(),
            depth.to_string(),
            result.depth.to_string(),
            seldepth.to_string(),
            thousands(result.nodes),
            format!("{:.0}", best * 1e3),
            format!("{:.0}", med * 1e3),
            mega(result.nodes as f64 / best),
            mega(result.nodes as f64 / med),
            result.best.unwrap_or_else(|| "(none)".into()),
            result.score.map_or("-".into(), |s| s.to_string()),
        ]);
    }
    table.row(vec![
        "all".into(),
        String::new(),
        String::new(),
        String::new(),
        thousands(total_nodes),
        format!("{:.0}", total_best * 1e3),
        format!("{:.0}", total_median * 1e3),
        mega(total_nodes as f64 / total_best),
        mega(total_nodes as f64 / total_median),
        String::new(),
        String::new(),
    ]);
    table.print();
    Ok(())
}

// ---------------------------------------------------------------------------------------------
// 3. Protocol latencies against the built binary

/// The `ludus` binary in protocol mode, with every stdout line timestamped on arrival.
struct Engine {
    child: Child,
    stdin: Option<ChildStdin>,
    lines: Receiver<(Instant, String)>,
}

impl Engine {
    fn spawn() -> BenchResult<Engine> {
        let path = env!("CARGO_BIN_EXE_ludus");
        let mut child = Command::new(path)
            .stdin(Stdio::piped())
            .stdout(Stdio::piped())
            .stderr(Stdio::inherit())
            .spawn()
            .map_err(|e| format!("cannot start {path}: {e}"))?;
        let stdin = child.stdin.take();
        let stdout = child.stdout.take().ok_or("no stdout pipe")?;
        let (tx, lines) = mpsc::channel();
        thread::Builder::new()
            .name("engine-stdout".into())
            .spawn(move || {
                for line in BufReader::new(stdout).lines() {
                    let Ok(line) = line else { break };
                    if tx.send((Instant::now(), line)).is_err() {
                        break;
                    }
                }
            })
            .map_err(|e| format!("cannot start the reader thread: {e}"))?;
        Ok(Engine {
            child,
            stdin,
            lines,
        })
    }

    /// Writes one command line; returns the instant just before the write.
    fn send(&mut self, command: &str) -> BenchResult<Instant> {
        let stdin = self.stdin.as_mut().ok_or("stdin already closed")?;
        let t = Instant::now();
        // One write per line, so the engine never sees half a command.
        stdin
            .write_all(format!("{command}\n").as_bytes())
            .and_then(|()| stdin.flush())
            .map_err(|e| format!("cannot send '{command}': {e}"))?;
        Ok(t)
    }

    /// Waits for a line starting with `want`, skipping `info` lines (but not errors); any
    /// other line is a protocol failure. Returns the instant the line was read and the line.
    fn expect(&self, want: &str) -> BenchResult<(Instant, String)> {
        let deadline = Instant::now() + REPLY_TIMEOUT;
        loop {
            let left = deadline.saturating_duration_since(Instant::now());
            match self.lines.recv_timeout(left) {
                Ok((t, line)) if line.starts_with(want) => return Ok((t, line)),
                Ok((_, line))
                    if line.starts_with("info ") && !line.starts_with("info string error") => {}
                Ok((_, line)) => {
                    return Err(format!("waiting for '{want}', the engine said '{line}'"));
                }
                Err(RecvTimeoutError::Timeout) => {
                    return Err(format!("no '{want}' within {REPLY_TIMEOUT:?}"));
                }
                Err(RecvTimeoutError::Disconnected) => {
                    return Err(format!("the engine exited while waiting for '{want}'"));
                }
            }
        }
    }

    /// `ugi` handshake; returns the default of `Move Overhead` in ms.
    fn handshake(&mut self) -> BenchResult<u64> {
        self.send("ugi")?;
        let mut overhead = None;
        loop {
            let (_, line) = self
                .lines
                .recv_timeout(REPLY_TIMEOUT)
                .map_err(|e| format!("no ugiok: {e}"))?;
            if let Some(rest) = line.strip_prefix("option name Move Overhead type spin default ") {
                overhead = rest.split_whitespace().next().and_then(|v| v.parse().ok());
            }
            if line == "ugiok" {
                break;
            }
        }
        self.send("isready")?;
        self.expect("readyok")?;
        overhead.ok_or_else(|| "ugi lists no 'Move Overhead' spin option".to_string())
    }
}

impl Drop for Engine {
    fn drop(&mut self) {
        let _ = self.send("quit");
        self.stdin = None;
        let deadline = Instant::now() + Duration::from_secs(5);
        while Instant::now() < deadline {
            if let Ok(Some(_)) = self.child.try_wait() {
                return;
            }
            thread::sleep(Duration::from_millis(5));
        }
        eprintln!("engine bench: the engine did not quit; killing it");
        let _ = self.child.kill();
        let _ = self.child.wait();
    }
}

fn ms(d: Duration) -> f64 {
    d.as_secs_f64() * 1e3
}

fn sleep_ms(ms: u64) {
    thread::sleep(Duration::from_millis(ms));
}

fn bench_protocol(plan: &Plan) -> BenchResult<Vec<Verdict>> {
    println!(
        "## 3. Protocol latencies (`{}` over pipes, wall clock)\n",
        env!("CARGO_BIN_EXE_ludus")
            .rsplit(['/', '\\'])
            .next()
            .unwrap_or("ludus")
    );
    let mut engine = Engine::spawn()?;
    let overhead = engine.handshake()?;
    let mut rng = SmallRng::seed_from_u64(SEED);
    let tries = plan.latency_tries;

    // (a) `isready` → `readyok` while `go infinite` runs on the start position.
    let mut ready = Vec::with_capacity(tries);
    let mut ready_notes = Vec::with_capacity(tries);
    for i in 0..tries {
        engine.send("position startpos")?;
        engine.send("go infinite")?;
        let delay = rng.random_range(20..=50);
        sleep_ms(delay);
        let sent = engine.send("isready")?;
        let (got, _) = engine.expect("readyok")?;
        ready.push(ms(got - sent));
        ready_notes.push(format!(
            "try {}, start position, {delay} ms into the search",
            i + 1
        ));
        engine.send("stop")?;
        engine.expect("bestmove")?;
    }

    // (b) `stop` → `bestmove` after a `go infinite` of 20–100 ms.
    let mut stop = Vec::with_capacity(tries);
    let mut stop_notes = Vec::with_capacity(tries);
    for i in 0..tries {
        let position = PROTOCOL_POSITIONS[i % PROTOCOL_POSITIONS.len()];
        engine.send(position)?;
        engine.send("go infinite")?;
        let delay = rng.random_range(20..=100);
        sleep_ms(delay);
        stop_notes.push(format!(
            "try {}, `{position}`, {delay} ms into the search",
            i + 1
        ));
        let sent = engine.send("stop")?;
        let (got, line) = engine.expect("bestmove")?;
        if line == "bestmove (none)" {
            return Err(format!("no move after stop: '{line}'"));
        }
        stop.push(ms(got - sent));
    }

    // (c) `go movetime M` → `bestmove`: elapsed − M, per M, over several positions.
    let mut by_movetime: Vec<Vec<f64>> = vec![Vec::new(); plan.movetimes.len()];
    let (mut overs, mut over_notes) = (Vec::new(), Vec::new());
    for round in 0..plan.movetime_rounds {
        for (k, &m) in plan.movetimes.iter().enumerate() {
            let position = PROTOCOL_POSITIONS[(round + k) % PROTOCOL_POSITIONS.len()];
            engine.send(position)?;
            let sent = engine.send(&format!("go movetime {m}"))?;
            let (got, line) = engine.expect("bestmove")?;
            if line == "bestmove (none)" {
                return Err(format!("no move from '{position}' with movetime {m}"));
            }
            let over = ms(got - sent) - m as f64;
            by_movetime[k].push(over);
            overs.push(over);
            over_notes.push(format!("`{position}`, `go movetime {m}`"));
        }
    }
    drop(engine);

    let mut table = Table::new(&[
        "measurement",
        "tries",
        "median ms",
        "p90 ms",
        "max ms",
        "target",
    ]);
    table.row(vec![
        "`isready` → `readyok` during `go infinite`".into(),
        ready.len().to_string(),
        format!("{:.2}", median(&ready)),
        format!("{:.2}", percentile(&ready, 0.9)),
        format!("{:.2}", max(&ready)),
        format!("≤ {TARGET_READYOK_MS} ms"),
    ]);
    table.row(vec![
        "`stop` → `bestmove` (after 20–100 ms of `go infinite`)".into(),
        stop.len().to_string(),
        format!("{:.2}", median(&stop)),
        format!("{:.2}", percentile(&stop, 0.9)),
        format!("{:.2}", max(&stop)),
        format!("≤ {TARGET_STOP_MS} ms"),
    ]);
    table.print();
    println!("Slowest `readyok`: {}", worst_note(&ready, &ready_notes));
    println!(
        "Slowest `bestmove` after `stop`: {}\n",
        worst_note(&stop, &stop_notes)
    );

    let mut table = Table::new(&[
        "movetime M (ms)",
        "tries",
        "min elapsed − M",
        "median elapsed − M",
        "max elapsed − M",
        "max late vs M − overhead",
        "Move Overhead",
        "target",
    ]);
    let mut all = Vec::new();
    for (&m, overs) in plan.movetimes.iter().zip(&by_movetime) {
        all.extend_from_slice(overs);
        table.row(vec![
            m.to_string(),
            overs.len().to_string(),
            format!("{:+.2}", min(overs)),
            format!("{:+.2}", median(overs)),
            format!("{:+.2}", max(overs)),
            format!("{:+.2}", max(overs) + overhead as f64),
            format!("{overhead} ms"),
            format!("max ≤ {overhead} ms"),
        ]);
    }
    table.print();
    println!(
        "Latest `bestmove` relative to M: {}\n",
        worst_note(&overs, &over_notes)
    );

    let worst = max(&all);
    Ok(vec![
        Verdict {
            target: format!("`readyok` median and max ≤ {TARGET_READYOK_MS} ms"),
            figure: format!("{:.2} / {:.2} ms", median(&ready), max(&ready)),
            met: max(&ready) <= TARGET_READYOK_MS,
        },
        Verdict {
            target: format!("`stop` → `bestmove` median and max ≤ {TARGET_STOP_MS} ms"),
            figure: format!("{:.2} / {:.2} ms", median(&stop), max(&stop)),
            met: max(&stop) <= TARGET_STOP_MS,
        },
        Verdict {
            target: format!("movetime overshoot ≤ Move Overhead ({overhead} ms)"),
            figure: format!("max {worst:+.2} ms over {} tries", all.len()),
            met: worst <= overhead as f64,
        },
    ])
}

// ---------------------------------------------------------------------------------------------
// Statistics and printing

fn sorted(xs: &[f64]) -> Vec<f64> {
    let mut v = xs.to_vec();
    v.sort_by(f64::total_cmp);
    v
}

fn median(xs: &[f64]) -> f64 {
    let v = sorted(xs);
    match v.len() {
        0 => f64::NAN,
        n if n % 2 == 1 => v[n / 2],
        n => (v[n / 2 - 1] + v[n / 2]) / 2.0,
    }
}

/// The nearest-rank percentile `q` (0 to 1).
fn percentile(xs: &[f64], q: f64) -> f64 {
    let v = sorted(xs);
    if v.is_empty() {
        return f64::NAN;
    }
    let rank = ((q * v.len() as f64).ceil() as usize).clamp(1, v.len());
    v[rank - 1]
}

/// The largest sample with its note, e.g. `5.78 ms (try 17, …)`.
fn worst_note(xs: &[f64], notes: &[String]) -> String {
    xs.iter()
        .zip(notes)
        .max_by(|a, b| a.0.total_cmp(b.0))
        .map_or("-".into(), |(x, note)| format!("{x:+.2} ms ({note})"))
}

fn min(xs: &[f64]) -> f64 {
    sorted(xs).first().copied().unwrap_or(f64::NAN)
}

fn max(xs: &[f64]) -> f64 {
    sorted(xs).last().copied().unwrap_or(f64::NAN)
}

/// `12345678` → `12,345,678`.
fn thousands(n: u64) -> String {
    let s = n.to_string();
    let mut out = String::new();
    for (i, c) in s.chars().enumerate() {
        if i > 0 && (s.len() - i).is_multiple_of(3) {
            out.push(',');
        }
        out.push(c);
    }
    out
}

/// A rate in millions per second.
fn mega(per_sec: f64) -> String {
    format!("{:.2} M", per_sec / 1e6)
}

/// A Markdown table with aligned columns, readable in a terminal and pasteable into docs.
struct Table {
    header: Vec<String>,
    rows: Vec<Vec<String>>,
}

impl Table {
    fn new(header: &[&str]) -> Table {
        Table {
            header: header.iter().map(|h| h.to_string()).collect(),
            rows: Vec::new(),
        }
    }

    fn row(&mut self, row: Vec<String>) {
        self.rows.push(row);
    }

    fn print(&self) {
        let width = |i: usize| {
            std::iter::once(&self.header)
                .chain(&self.rows)
                .map(|r| r.get(i).map_or(0, |c| c.chars().count()))
                .max()
                .unwrap_or(0)
                .max(3)
        };
        let widths: Vec<usize> = (0..self.header.len()).map(width).collect();
        let line = |cells: &[String]| {
            let padded: Vec<String> = widths
                .iter()
                .enumerate()
                .map(|(i, &w)| {
                    let c = cells.get(i).map_or("", String::as_str);
                    format!("{c}{}", " ".repeat(w - c.chars().count()))
                })
                .collect();
            format!("| {} |", padded.join(" | "))
        };
        let mut out = line(&self.header);
        out.push('\n');
        let rule: Vec<String> = widths.iter().map(|&w| "-".repeat(w)).collect();
        out.push_str(&format!("|-{}-|\n", rule.join("-|-")));
        for r in &self.rows {
            out.push_str(&line(r));
            out.push('\n');
        }
        println!("{out}");
    }
}
