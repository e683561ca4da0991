//! Section 1 of the engine bench, perft: in-process `Game::perft` of every position of the plan
//! (both games), timed and checked against the reference counts and for repeatability.

use std::time::Instant;

use ludus::game::{GameVisitor, Searchable};

use crate::report::{Table, median, mega, min, thousands};
use crate::{BenchResult, Plan, Position, START_POSITIONS, Verdict, parse};

/// Targets printed next to the figures.
const TARGET_PERFT_NPS: f64 = 50e6;

/// Reads `pos` as its game, checks the depths below `depth` that have a reference count, then
/// times `runs` perfts to `depth`. Its output is the leaf count and the seconds of each run.
struct TimedPerft<'a> {
    pos: &'a Position,
    depth: u32,
    runs: usize,
}

impl GameVisitor for TimedPerft<'_> {
    type Output = BenchResult<(u64, Vec<f64>)>;

    fn visit<G: Searchable>(self) -> Self::Output {
        let TimedPerft { pos, depth, runs } = self;
        let root: G = parse(pos)?;
        // Cheap sanity checks of the shallow counts first; the timed depth is checked below.
        for (d, &want) in (1..depth).zip(pos.perft) {
            let got = root.perft(d);
            if got != want {
                return Err(format!(
                    "perft {d} of {} {} is {got}, the reference says {want}",
                    pos.game, pos.name
                ));
            }
        }
        let mut count = None;
        let mut secs = Vec::with_capacity(runs);
        for _ in 0..runs {
            let t = Instant::now();
            let n = std::hint::black_box(std::hint::black_box(&root).perft(depth));
            secs.push(t.elapsed().as_secs_f64());
            if count.is_some_and(|c| c != n) {
                return Err(format!(
                    "perft {depth} of {} {} is not repeatable: {count:?} then {n}",
                    pos.game, pos.name
                ));
            }
            count = Some(n);
        }
        let leaves = count.ok_or("no perft run")?;
        match pos.perft.get(depth as usize - 1) {
            Some(&want) if want != leaves => Err(format!(
                "perft {depth} of {} {} counted {leaves} leaves, expected {want}",
                pos.game, pos.name
            )),
            _ => Ok((leaves, secs)),
        }
    }
}

pub fn bench_perft(plan: &Plan) -> BenchResult<Vec<Verdict>> {
    println!("## 1. Perft (in-process `Game::perft`, one thread, bulk-counted last ply)\n");
    let mut table = Table::new(&[
        "game",
        "position",
        "depth",
        "leaves",
        "checked",
        "runs",
        "best ms",
        "median ms",
        "best leaves/s",
        "median leaves/s",
    ]);
    let mut verdicts = Vec::new();
    for (pos, depth) in &plan.perfts {
        let depth = (*depth).max(1);
        let (leaves, secs) = pos.game.visit(TimedPerft {
            pos,
            depth,
            runs: plan.perft_runs,
        })?;
        let best = min(&secs);
        let med = median(&secs);
        // What the count was compared with: the reference, or only the other runs.
        let checked = if pos.perft.len() >= depth as usize {
            "reference"
        } else if secs.len() > 1 {
            "repeatable"
        } else {
            "-"
        };
        table.row(vec![
            pos.game.to_string(),
            pos.name.to_string(),
            depth.to_string(),
            thousands(leaves),
            checked.to_string(),
            secs.len().to_string(),
            format!("{:.1}", best * 1e3),
            format!("{:.1}", med * 1e3),
            mega(leaves as f64 / best),
            mega(leaves as f64 / med),
        ]);
        if START_POSITIONS.contains(pos) {
            // Judged on the median run, not the best one.
            let nps = leaves as f64 / med;
            verdicts.push(Verdict {
                target: format!(
                    "perft ({} start, depth {depth}) ≥ {} leaves/s",
                    pos.game,
                    mega(TARGET_PERFT_NPS)
                ),
                figure: format!("{} best, {} median", mega(leaves as f64 / best), mega(nps)),
                met: nps >= TARGET_PERFT_NPS,
            });
        }
    }
    table.print();
    Ok(verdicts)
}
