//! Section 1 of the engine bench, perft: in-process `Game::perft` of the empty board and of TV7,
//! timed and checked against the reference counts.

use std::time::Instant;

use ludus::game::Game;
use ludus::game::sight::Sight;

use crate::report::{Table, median, mega, min, thousands};
use crate::{BenchResult, EMPTY, Plan, TV7, Verdict, parse};

/// Perft counts of the empty 5×5 board from depth 1 (rules/sight.md §7).
const EMPTY_COUNTS: &[u64] = &[25, 600, 13_800, 303_600, 4_205_376, 56_771_208, 567_062_952];
/// Perft counts of TV7 from depth 1 (rules/sight.md §9 TV15).
const TV7_COUNTS: &[u64] = &[7, 140, 1_482, 16_620];

/// Targets printed next to the figures.
const TARGET_PERFT_NPS: f64 = 20e6;

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

pub fn bench_perft(plan: &Plan) -> BenchResult<Vec<Verdict>> {
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
