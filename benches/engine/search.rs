//! Section 2 of the engine bench, search: in-process `search::search` of every position of the
//! plan (both games) with fresh tables, to a fixed depth (timed and checked for determinism)
//! and for a fixed time (how deep it gets).

use std::sync::atomic::AtomicBool;
use std::time::Instant;

use ludus::game::{GameId, GameVisitor, Searchable};
use ludus::search::{Limits, SearchInfo, SearchParams, SearchResult, SearchTables, search};

use crate::report::{Table, max, median, mega, min, thousands};
use crate::{BenchResult, Plan, Position, Verdict, parse};

/// Search speed targets (nodes/s, one thread, from the start position in a fixed time).
fn target_nps(game: GameId) -> f64 {
    match game {
        GameId::Isaac => 1e6,
        GameId::Sight | GameId::Tactigon => 2e6,
    }
}

/// Size of the transposition table of every search, MiB.
const HASH_MIB: usize = 16;

/// One search and what it reported, its moves in the game's notation.
struct Run {
    result: SearchResult<String>,
    /// The last `info` (of the last completed iteration), if any.
    last: Option<SearchInfo<String>>,
    /// Wall time of the whole call.
    secs: f64,
}

impl Run {
    fn seldepth(&self) -> u32 {
        self.last.as_ref().map_or(0, |i| i.seldepth)
    }
}

/// Searches `pos` (read as its game) within `limits`, with fresh tables, one line, no overhead.
struct OneSearch<'a> {
    pos: &'a Position,
    limits: Limits,
}

impl GameVisitor for OneSearch<'_> {
    type Output = BenchResult<Run>;

    fn visit<G: Searchable>(self) -> Self::Output {
        let root: G = parse(self.pos)?;
        let params = SearchParams::new(self.limits);
        let mut tables = SearchTables::new(HASH_MIB, G::HISTORY_SIZE)
            .map_err(|e| format!("cannot allocate the search tables: {e:?}"))?;
        let stop = AtomicBool::new(false);
        let mut last = None;
        let t = Instant::now();
        let result = search(&root, &params, &mut tables, &stop, &mut |info| {
            last = Some(info);
        });
        let secs = t.elapsed().as_secs_f64();
        Ok(Run {
            result: result.map_move(|m| root.move_to_string(m)),
            last: last.map(|info| info.map_pv(|pv| root.line_notation(pv))),
            secs,
        })
    }
}

/// `runs` searches of `pos` within `limits`.
fn runs(pos: &Position, limits: &Limits, runs: usize) -> BenchResult<Vec<Run>> {
    (0..runs.max(1))
        .map(|_| {
            pos.game.visit(OneSearch {
                pos,
                limits: limits.clone(),
            })
        })
        .collect()
}

pub fn bench_search(plan: &Plan) -> BenchResult<Vec<Verdict>> {
    let runs_text = format!(
        "{} run{}",
        plan.search_runs,
        if plan.search_runs == 1 { "" } else { "s" }
    );
    println!(
        "## 2. Search (in-process `search::search`, fresh {HASH_MIB} MiB tables, {runs_text})\n"
    );
    fixed_depth(plan)?;
    fixed_time(plan)
}

/// Nodes/s at a fixed depth; the node count must be the same in every run.
fn fixed_depth(plan: &Plan) -> BenchResult<()> {
    println!("### Fixed depth\n");
    let mut table = Table::new(&[
        "game",
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
    // Nodes, best and median seconds of each game, in the order of the plan.
    let mut totals: Vec<(GameId, u64, f64, f64, usize)> = Vec::new();
    for (pos, depth) in &plan.searches {
        let limits = Limits {
            depth: Some(*depth),
            ..Limits::default()
        };
        let done = runs(pos, &limits, plan.search_runs)?;
        let first = &done[0].result;
        // Fresh tables and a depth limit: every run must search the same tree.
        if let Some(other) = done.iter().find(|r| r.result != *first) {
            return Err(format!(
                "search of {} {} to depth {depth} is not deterministic: {first:?} then {:?}",
                pos.game, pos.name, other.result
            ));
        }
        let secs: Vec<f64> = done.iter().map(|r| r.secs).collect();
        let (best, med) = (min(&secs), median(&secs));
        match totals.iter_mut().find(|t| t.0 == pos.game) {
            Some(t) => {
                t.1 += first.nodes;
                t.2 += best;
                t.3 += med;
                t.4 += 1;
            }
            None => totals.push((pos.game, first.nodes, best, med, 1)),
        }
        table.row(vec![
            pos.game.to_string(),
            pos.name.to_string(),
            depth.to_string(),
            first.depth.to_string(),
            done[0].seldepth().to_string(),
            thousands(first.nodes),
            format!("{:.0}", best * 1e3),
            format!("{:.0}", med * 1e3),
            mega(first.nodes as f64 / best),
            mega(first.nodes as f64 / med),
            first.best.clone().unwrap_or_else(|| "(none)".into()),
            first.score.map_or("-".into(), |s| s.to_string()),
        ]);
    }
    for (game, nodes, best, med, count) in totals {
        if count < 2 {
            continue;
        }
        let mut row = vec![game.to_string(), "all".into()];
        row.extend([String::new(), String::new(), String::new()]);
        row.extend([
            thousands(nodes),
            format!("{:.0}", best * 1e3),
            format!("{:.0}", med * 1e3),
            mega(nodes as f64 / best),
            mega(nodes as f64 / med),
        ]);
        table.row(row);
    }
    table.print();
    Ok(())
}

/// How deep a `go movetime` search gets: the depth of the line it plays and the speed, judged
/// against the game's nodes/s target.
fn fixed_time(plan: &Plan) -> BenchResult<Vec<Verdict>> {
    println!("### Depth reached in a fixed time (`Limits {{ movetime_ms }}`, no overhead)\n");
    let mut table = Table::new(&[
        "game",
        "position",
        "movetime ms",
        "runs",
        "depth reached",
        "seldepth",
        "last depth done at ms",
        "elapsed ms",
        "nodes",
        "nodes/s",
        "bestmove",
    ]);
    let mut verdicts = Vec::new();
    for (pos, movetime) in &plan.timed_searches {
        let limits = Limits {
            movetime_ms: Some(*movetime),
            ..Limits::default()
        };
        let done = runs(pos, &limits, plan.search_runs)?;
        // Timed searches vary from run to run: ranges of the depths, medians of the rest.
        let range = |xs: Vec<u32>| {
            let (lo, hi) = (xs.iter().min(), xs.iter().max());
            match (lo, hi) {
                (Some(lo), Some(hi)) if lo != hi => format!("{lo}–{hi}"),
                (Some(lo), _) => lo.to_string(),
                _ => "-".into(),
            }
        };
        let depths = done.iter().map(|r| r.result.depth).collect();
        let seldepths = done.iter().map(Run::seldepth).collect();
        let done_at: Vec<f64> = done
            .iter()
            .map(|r| r.last.as_ref().map_or(0.0, |i| i.time_ms as f64))
            .collect();
        let secs: Vec<f64> = done.iter().map(|r| r.secs).collect();
        let nodes: Vec<f64> = done.iter().map(|r| r.result.nodes as f64).collect();
        let nps: Vec<f64> = done
            .iter()
            .map(|r| r.result.nodes as f64 / r.secs)
            .collect();
        let mut moves: Vec<String> = done
            .iter()
            .map(|r| r.result.best.clone().unwrap_or_else(|| "(none)".into()))
            .collect();
        moves.dedup();
        let target = target_nps(pos.game);
        verdicts.push(Verdict {
            target: format!(
                "search ({} {}, {movetime} ms) ≥ {} nodes/s",
                pos.game,
                pos.name,
                mega(target)
            ),
            figure: format!("{} median", mega(median(&nps))),
            met: median(&nps) >= target,
        });
        table.row(vec![
            pos.game.to_string(),
            pos.name.to_string(),
            movetime.to_string(),
            done.len().to_string(),
            range(depths),
            range(seldepths),
            format!("{:.0}", median(&done_at)),
            format!("{:.0}–{:.0}", min(&secs) * 1e3, max(&secs) * 1e3),
            thousands(median(&nodes) as u64),
            mega(median(&nps)),
            moves.join(", "),
        ]);
    }
    table.print();
    Ok(verdicts)
}
