//! Section 4 of the engine bench, threads: what more search threads cost, in process (the
//! `Threads` option is capped at the machine's cores; the library is not). For each thread
//! count of the plan, Lazy SMP alpha-beta to a fixed depth (nodes to complete the depth, wall
//! and process CPU seconds, nodes per CPU second) and MCTS on one shared tree for a fixed
//! number of iterations (CPU seconds, iterations per CPU second).
//!
//! CPU seconds are the whole process's user + system time (`getrusage(RUSAGE_SELF)`) around the
//! call, so they count every helper thread. With more threads than cores the wall time says
//! little; the CPU figures still show the work inflation of Lazy SMP (nodes to depth against one
//! thread) and the cost of sharing (nodes per CPU second: table contention, false sharing).

use std::sync::atomic::AtomicBool;
use std::time::Instant;

use ludus::game::{GameVisitor, Searchable};
use ludus::net::embedded;
use ludus::protocol::options::DEFAULT_HASH_MIB;
use ludus::search::{Limits, SearchParams, SearchResult, SearchTables, mcts, search};

use crate::report::{Table, median, mega, thousands};
use crate::{BenchResult, ISAAC_SCORING, ISAAC_START, Plan, Position, TACTIGON_START, parse};

/// A position reached by playing `moves` (the game's notation) from `start`.
#[derive(Clone, Copy, Debug)]
pub struct Line {
    /// Where the moves start.
    pub start: Position,
    /// The moves played, in order.
    pub moves: &'static [&'static str],
}

impl Line {
    /// `start moves …`, or the start's name alone.
    fn name(&self) -> String {
        if self.moves.is_empty() {
            self.start.name.to_string()
        } else {
            format!("{} moves {}", self.start.name, self.moves.join(" "))
        }
    }
}

/// Sight's start position, the empty 5×5 board, then c3 b2.
pub const SIGHT_C3_B2: Line = Line {
    start: crate::EMPTY,
    moves: &["c3", "b2"],
};
/// Tactigon's start position then d8-c9 e15-f12.
pub const TACTIGON_D8C9_E15F12: Line = Line {
    start: TACTIGON_START,
    moves: &["d8-c9", "e15-f12"],
};
/// Isaac's scoring position (docs/rules/isaac.md TV3 after the phase change).
pub const ISAAC_TV3: Line = Line {
    start: ISAAC_SCORING,
    moves: &[],
};

/// Size of the transposition table of every alpha-beta search, MiB: the engine's default `Hash`.
const HASH_MIB: usize = DEFAULT_HASH_MIB as usize;

/// Process CPU time so far (user + system, every thread), seconds.
fn cpu_secs() -> BenchResult<f64> {
    // SAFETY: getrusage only writes the struct it is given, which is plain data.
    let usage = unsafe {
        let mut usage: libc::rusage = std::mem::zeroed();
        if libc::getrusage(libc::RUSAGE_SELF, &mut usage) != 0 {
            return Err(format!("getrusage: {}", std::io::Error::last_os_error()));
        }
        usage
    };
    let secs = |t: libc::timeval| t.tv_sec as f64 + t.tv_usec as f64 / 1e6;
    Ok(secs(usage.ru_utime) + secs(usage.ru_stime))
}

/// One search: its result (moves in the game's notation) and what it cost.
struct Run {
    result: SearchResult<String>,
    /// Wall time of the call.
    wall: f64,
    /// Process CPU time of the call.
    cpu: f64,
}

/// Times `f` by the wall clock and by the process's CPU time.
fn timed<T>(f: impl FnOnce() -> T) -> BenchResult<(T, f64, f64)> {
    let cpu = cpu_secs()?;
    let wall = Instant::now();
    let out = f();
    let wall = wall.elapsed().as_secs_f64();
    Ok((out, wall, cpu_secs()? - cpu))
}

/// Reads `line` as its game: the start position with the moves played (each checked legal).
fn play_line<G: Searchable>(line: &Line) -> BenchResult<G> {
    let mut pos: G = parse(&line.start)?;
    let mut legal = Vec::new();
    for text in line.moves {
        let m = pos
            .parse_move(text)
            .map_err(|e| format!("{} {}: move {text}: {e}", line.start.game, line.name()))?;
        pos.generate_moves(&mut legal);
        if !legal.contains(&m) {
            return Err(format!(
                "{} {}: move {text} is not legal",
                line.start.game,
                line.name()
            ));
        }
        pos.play(m);
    }
    Ok(pos)
}

/// Lazy SMP alpha-beta from `line` to `depth` on `threads` threads, fresh tables, hand
/// evaluation.
struct AlphaBeta<'a> {
    line: &'a Line,
    depth: u32,
    threads: usize,
}

impl GameVisitor for AlphaBeta<'_> {
    type Output = BenchResult<Run>;

    fn visit<G: Searchable>(self) -> Self::Output {
        let root: G = play_line(self.line)?;
        let limits = Limits {
            depth: Some(self.depth),
            ..Limits::default()
        };
        let params = SearchParams {
            threads: self.threads,
            ..SearchParams::new(limits)
        };
        let mut tables = SearchTables::new(HASH_MIB, G::HISTORY_SIZE)
            .map_err(|e| format!("cannot allocate the search tables: {e:?}"))?;
        let stop = AtomicBool::new(false);
        let (result, wall, cpu) =
            timed(|| search(&root, &params, &mut tables, &stop, &mut |_| {}))?;
        Ok(Run {
            result: result.map_move(|m| root.move_to_string(m)),
            wall,
            cpu,
        })
    }
}

/// MCTS from `start` for `iterations` iterations on `threads` threads, with the tree budget and
/// the net the engine uses by default (`Hash` 16 MiB; the game's embedded net, if any).
struct Mcts<'a> {
    start: &'a Position,
    iterations: u64,
    threads: usize,
}

impl GameVisitor for Mcts<'_> {
    type Output = BenchResult<(Run, bool)>;

    fn visit<G: Searchable>(self) -> Self::Output {
        let root: G = parse(self.start)?;
        let limits = Limits {
            nodes: Some(self.iterations),
            ..Limits::default()
        };
        let net = embedded::net_for::<G>();
        let with_net = net.is_some();
        let params = SearchParams {
            threads: self.threads,
            net,
            ..SearchParams::new(limits)
        };
        // The engine gives the tree as many bytes as its transposition table (`Hash`).
        let budget = SearchTables::<G::Move>::new(HASH_MIB, G::HISTORY_SIZE)
            .map_err(|e| format!("cannot allocate the search tables: {e:?}"))?
            .tt
            .bytes();
        let stop = AtomicBool::new(false);
        let (result, wall, cpu) =
            timed(|| mcts::search(&root, &params, budget, &stop, &mut |_| {}))?;
        let run = Run {
            result: result.map_move(|m| root.move_to_string(m)),
            wall,
            cpu,
        };
        Ok((run, with_net))
    }
}

/// A search that returned no move, an error.
fn check_move(run: &Run, what: &str) -> BenchResult<()> {
    match run.result.best {
        Some(_) => Ok(()),
        None => Err(format!("{what}: the search returned no move")),
    }
}

/// Medians of `runs`: (nodes, wall s, CPU s, nodes per CPU s), each the median of its own.
fn medians(runs: &[Run]) -> (f64, f64, f64, f64) {
    let of = |f: fn(&Run) -> f64| median(&runs.iter().map(f).collect::<Vec<f64>>());
    (
        of(|r| r.result.nodes as f64),
        of(|r| r.wall),
        of(|r| r.cpu),
        of(|r| r.result.nodes as f64 / r.cpu),
    )
}

/// The distinct values of `xs`, in order of first appearance, joined.
fn distinct(xs: impl Iterator<Item = String>) -> String {
    let mut seen: Vec<String> = Vec::new();
    for x in xs {
        if !seen.contains(&x) {
            seen.push(x);
        }
    }
    seen.join(", ")
}

pub fn bench_threads(plan: &Plan) -> BenchResult<()> {
    let runs = plan.threads_runs.max(1);
    let runs_text = format!("median of {runs} run{}", if runs == 1 { "" } else { "s" });
    println!(
        "## 4. Threads (in-process, Threads {:?} on {} cores, {runs_text})\n",
        plan.thread_counts,
        std::thread::available_parallelism().map_or(1, |n| n.get()),
    );
    alpha_beta(plan, runs)?;
    shared_tree(plan, runs)
}

/// Lazy SMP: nodes to complete a depth and their cost per thread count.
fn alpha_beta(plan: &Plan, runs: usize) -> BenchResult<()> {
    println!(
        "### Alpha-beta (Lazy SMP, fixed depth, fresh {HASH_MIB} MiB tables, hand evaluation)\n"
    );
    let mut table = Table::new(&[
        "game",
        "position",
        "depth",
        "threads",
        "nodes",
        "nodes vs 1 thread",
        "wall s",
        "CPU s",
        "CPU s / wall s",
        "nodes/CPU s",
        "nodes/CPU s vs 1 thread",
        "bestmove",
    ]);
    for (line, depth) in &plan.threads_searches {
        let mut one_thread: Option<(f64, f64)> = None;
        for &threads in plan.thread_counts {
            let what = format!(
                "{} {} depth {depth}, {threads} threads",
                line.start.game,
                line.name()
            );
            let done = (0..runs)
                .map(|_| {
                    line.start.game.visit(AlphaBeta {
                        line,
                        depth: *depth,
                        threads,
                    })
                })
                .collect::<BenchResult<Vec<Run>>>()?;
            for run in &done {
                check_move(run, &what)?;
            }
            let (nodes, wall, cpu, rate) = medians(&done);
            let (base_nodes, base_rate) = *one_thread.get_or_insert((nodes, rate));
            table.row(vec![
                line.start.game.to_string(),
                line.name(),
                distinct(done.iter().map(|r| r.result.depth.to_string())),
                threads.to_string(),
                thousands(nodes as u64),
                format!("{:.2}×", nodes / base_nodes),
                format!("{wall:.2}"),
                format!("{cpu:.2}"),
                format!("{:.2}", cpu / wall),
                mega(rate),
                format!("{:.2}×", rate / base_rate),
                distinct(done.iter().filter_map(|r| r.result.best.clone())),
            ]);
        }
    }
    table.print();
    Ok(())
}

/// MCTS: the cost of a fixed number of iterations per thread count.
fn shared_tree(plan: &Plan, runs: usize) -> BenchResult<()> {
    let start = &ISAAC_START;
    let mut table = Table::new(&[
        "threads",
        "iterations",
        "wall s",
        "CPU s",
        "CPU s / wall s",
        "iterations/CPU s",
        "iterations/CPU s vs 1 thread",
        "bestmove",
    ]);
    let mut evaluation = "hand evaluation";
    let mut one_thread: Option<f64> = None;
    for &threads in plan.thread_counts {
        let what = format!("MCTS {} {}, {threads} threads", start.game, start.name);
        let mut done = Vec::new();
        for _ in 0..runs {
            let (run, with_net) = start.game.visit(Mcts {
                start,
                iterations: plan.mcts_iterations,
                threads,
            })?;
            check_move(&run, &what)?;
            if with_net {
                evaluation = "embedded net";
            }
            done.push(run);
        }
        let (iterations, wall, cpu, rate) = medians(&done);
        let base = *one_thread.get_or_insert(rate);
        table.row(vec![
            threads.to_string(),
            thousands(iterations as u64),
            format!("{wall:.2}"),
            format!("{cpu:.2}"),
            format!("{:.2}", cpu / wall),
            format!("{:.0}", rate),
            format!("{:.2}×", rate / base),
            distinct(done.iter().filter_map(|r| r.result.best.clone())),
        ]);
    }
    println!(
        "### MCTS (one shared tree, {} {}, `nodes {}`, {HASH_MIB} MiB tree budget, {evaluation})\n",
        start.game,
        start.name,
        thousands(plan.mcts_iterations)
    );
    table.print();
    Ok(())
}
