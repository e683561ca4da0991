//! Section 2 of the engine bench, search: in-process `search::search` to a fixed depth with fresh
//! tables, timed and checked for determinism.

use std::sync::atomic::AtomicBool;
use std::time::Instant;

use ludus::game::Evaluate;
use ludus::game::sight::Sight;
use ludus::search::{Limits, SearchParams, SearchTables, search};

use crate::report::{Table, median, mega, min, thousands};
use crate::{BenchResult, Plan, parse};

pub fn bench_search(plan: &Plan) -> BenchResult<()> {
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
