//! `ludus learn step`: one piece of a generation, for a scheduler's job (Slurm's
//! `cluster/slurm/learn.sbatch`, GNU parallel, a shell loop) — the same steps as the one-machine
//! loop, cut where a cluster runs them side by side:
//!
//! ```text
//! status                      prints `generation=G datagen_shards=S confirm=yes|no stop=no|RULE`
//!                             (RULE: the stop rule of the flags given that holds now)
//! start                       generation 0 (its anchor match)
//! datagen --shard K/S         self-play shard K of generation G (S: the run's datagen.shards)
//! train                       the candidate, once every datagen shard is done
//! gate-nodes --shard K/M      shard K of M of the gate at fixed nodes, played to the end
//! gate-clock --shard K/M      the same at the clock, once the nodes gate passed (else nothing)
//! finish                      both gates judged over their shards (the SPRT over all games),
//!                             promotion, anchor, ledger line, chart; then the stop rules:
//!                             `learn: next: generation G+1` or `learn: stopped: …`
//! ```
//!
//! A finished piece leaves a marker (`gen-NNN/shards/STEP-KofN`), so a job run twice does its
//! work once; a piece being worked on is locked (flock), so it never has two writers. A job
//! names its generation (`--generation G`): a stale job of an earlier generation is refused.

use std::fs::File;
use std::path::PathBuf;
use std::time::Instant;

use clap::{Args, ValueEnum};

use super::commands;
use super::driver::{Driver, StopRules, gate_passed};
use super::gate::Kind;
use super::layout::{RunDir, StepDone, write_atomic};
use super::ledger::Ledger;
use crate::runs::{RunError, Shard};

/// The piece to run.
#[derive(Clone, Copy, Debug, PartialEq, Eq, ValueEnum)]
pub enum StepName {
    /// Print the run's next generation and its shards.
    Status,
    /// Generation 0.
    Start,
    /// A self-play shard.
    Datagen,
    /// The candidate.
    Train,
    /// A shard of the gate at fixed nodes.
    GateNodes,
    /// A shard of the gate at the clock.
    GateClock,
    /// Judging, promotion, ledger, chart, stop rules.
    Finish,
}

/// `ludus learn step`'s arguments.
#[derive(Args, Debug)]
pub struct StepArgs {
    /// The piece.
    #[arg(value_enum)]
    pub step: StepName,
    /// The run folder (set up by `ludus learn --setup`).
    #[arg(long)]
    pub out: PathBuf,
    /// The generation the job is for (refused if the run is at another one).
    #[arg(long)]
    pub generation: Option<u32>,
    /// The shard K/N of datagen and the gates.
    #[arg(long, value_name = "K/N")]
    pub shard: Option<Shard>,
    /// Stop rule checked by `finish`: generations at most.
    #[arg(long, value_name = "N")]
    pub generations: Option<u32>,
    /// Stop rule checked by `finish`: hours of wall time at most.
    #[arg(long, value_name = "H")]
    pub hours: Option<f64>,
    /// Stop rule checked by `finish`: rejected candidates in a row.
    #[arg(long, value_name = "K")]
    pub max_rejections: Option<u32>,
}

/// An exclusive lock on a piece's lock file, held while the value lives.
struct PieceLock(#[allow(dead_code)] File);

fn lock_piece(run: &RunDir, g: u32, name: &str) -> Result<PieceLock, RunError> {
    let dir = run.generation(g).join("locks");
    std::fs::create_dir_all(&dir)
        .map_err(|e| RunError::failed(format!("{}: {e}", dir.display())))?;
    let path = dir.join(format!("{name}.lock"));
    let file = super::layout::lock_exclusive(&path)
        .map_err(RunError::Failed)?
        .ok_or_else(|| {
            RunError::refused(format!(
                "{name} of generation {g} is being worked on by another job ({}): this one \
                 leaves it alone",
                path.display()
            ))
        })?;
    Ok(PieceLock(file))
}

/// The marker of a finished piece.
fn marker(run: &RunDir, g: u32, step: &str, shard: Shard) -> PathBuf {
    run.generation(g)
        .join("shards")
        .join(format!("{step}-{}of{}", shard.index, shard.count))
}

/// A finished piece: shard K of N and its wall time.
#[derive(Clone, Copy, Debug)]
struct Piece {
    k: u64,
    n: u64,
    seconds: f64,
}

/// The finished pieces of `step` in generation `g`, by K.
fn markers(run: &RunDir, g: u32, step: &str) -> Vec<Piece> {
    let dir = run.generation(g).join("shards");
    let mut out = Vec::new();
    let Ok(entries) = std::fs::read_dir(&dir) else {
        return out;
    };
    for entry in entries.flatten() {
        let name = entry.file_name().to_string_lossy().into_owned();
        let Some(rest) = name.strip_prefix(&format!("{step}-")) else {
            continue;
        };
        let Some((k, n)) = rest.split_once("of") else {
            continue;
        };
        let (Ok(k), Ok(n)) = (k.parse(), n.parse()) else {
            continue;
        };
        let text = std::fs::read_to_string(entry.path()).unwrap_or_default();
        let value: serde_json::Value = serde_json::from_str(&text).unwrap_or_default();
        out.push(Piece {
            k,
            n,
            seconds: value["seconds"].as_f64().unwrap_or(0.0),
        });
    }
    out.sort_by_key(|m| m.k);
    out
}

/// The shard count of a finished step whose pieces are all there, and its pieces.
fn complete(run: &RunDir, g: u32, step: &str) -> Result<(u64, Vec<Piece>), String> {
    let found = markers(run, g, step);
    let Some(&Piece { n, .. }) = found.first() else {
        return Err(format!("{step} of generation {g}: no shard has finished"));
    };
    if found.iter().any(|m| m.n != n) {
        return Err(format!(
            "{step} of generation {g}: shards of two plans in {} (another shard count): start \
             the generation's {step} again with one",
            run.generation(g).join("shards").display()
        ));
    }
    let done: Vec<u64> = found.iter().map(|m| m.k).collect();
    let missing: Vec<String> = (1..=n)
        .filter(|k| !done.contains(k))
        .map(|k| k.to_string())
        .collect();
    if !missing.is_empty() {
        return Err(format!(
            "{step} of generation {g}: shard(s) {} of {n} have not finished",
            missing.join(", ")
        ));
    }
    Ok((n, found))
}

fn write_marker(
    run: &RunDir,
    g: u32,
    step: &str,
    shard: Shard,
    seconds: f64,
    skipped: bool,
) -> Result<(), RunError> {
    let text = serde_json::json!({"seconds": seconds, "skipped": skipped}).to_string() + "\n";
    write_atomic(&marker(run, g, step, shard), text.as_bytes()).map_err(RunError::Failed)
}

/// Runs one piece with `driver` (its progress goes to the job's output).
pub fn run_step(args: &StepArgs, driver: &mut Driver) -> Result<(), RunError> {
    driver.stop = StopRules {
        generations: args.generations,
        hours: args.hours,
        rejections: args.max_rejections,
    };
    let run = driver.run.clone();
    if args.step == StepName::Start {
        let _lock = run.lock().map_err(RunError::Refused)?;
        return driver.start().map_err(RunError::Failed);
    }
    let ledger = Ledger::read(&run).map_err(RunError::Failed)?;
    let next = ledger.last().map_or(0, |l| l.generation + 1);
    if args.step == StepName::Status {
        let confirm = if driver.config.confirm.is_some() {
            "yes"
        } else {
            "no"
        };
        let stop = driver
            .stop_rule(&ledger, 0.0)
            .map_or("no", |(rule, _)| rule);
        return driver
            .say(&format!(
                "generation={next} datagen_shards={} confirm={confirm} stop={stop}",
                driver.config.datagen.shards
            ))
            .map_err(RunError::Failed);
    }
    if next == 0 {
        return Err(RunError::refused(
            "generation 0 is not done yet: run `ludus learn step start` first",
        ));
    }
    if let Some(want) = args.generation
        && want != next
    {
        return Err(RunError::refused(format!(
            "the run is at generation {next}, this job is for generation {want}: a stale job"
        )));
    }
    let g = next;
    let (best, _, _) = driver.best(&ledger).map_err(RunError::Failed)?;
    let mut steps = driver.open_generation(g).map_err(RunError::Failed)?;
    let shard = || {
        args.shard
            .ok_or_else(|| RunError::refused(format!("{:?} needs --shard K/N", args.step)))
    };
    let mut no_tick = |_: f64| Ok(());
    match args.step {
        StepName::Status | StepName::Start => Ok(()),
        StepName::Datagen => {
            let s = shard()?;
            if s.count != u64::from(driver.config.datagen.shards) {
                return Err(RunError::refused(format!(
                    "the run plays {} datagen shards (datagen.shards), not {}",
                    driver.config.datagen.shards, s.count
                )));
            }
            let _lock = lock_piece(&run, g, &format!("datagen-{}", s.index))?;
            if marker(&run, g, "datagen", s).exists() || steps.is_done("datagen") {
                return driver
                    .say(&format!("datagen {s} of generation {g} is done"))
                    .map_err(RunError::Failed);
            }
            let started = Instant::now();
            driver
                .datagen(g, &best, &[s.index as u32], None, &mut no_tick)
                .map_err(RunError::Failed)?;
            write_marker(
                &run,
                g,
                "datagen",
                s,
                started.elapsed().as_secs_f64(),
                false,
            )
        }
        StepName::Train => {
            let _lock = lock_piece(&run, g, "train")?;
            if !steps.is_done("datagen") {
                let (_, pieces) = complete(&run, g, "datagen").map_err(RunError::Failed)?;
                let mut done =
                    commands::data_found(&driver.data_files(g)).map_err(RunError::Failed)?;
                done.seconds = pieces.iter().map(|p| p.seconds).fold(0.0, f64::max);
                steps.done.insert("datagen".into(), done);
                steps.write(&run, g).map_err(RunError::Failed)?;
            }
            driver
                .step(g, "train", &mut steps, &mut |d, tick| {
                    d.train(g, &best, None, tick)
                })
                .map_err(RunError::Failed)
        }
        StepName::GateNodes | StepName::GateClock => {
            let s = shard()?;
            let (kind, name) = if args.step == StepName::GateNodes {
                (Kind::Nodes, "gate-nodes")
            } else {
                (Kind::Clock, "gate-clock")
            };
            if !steps.is_done("train") {
                return Err(RunError::refused(format!(
                    "the candidate of generation {g} is not trained yet"
                )));
            }
            let _lock = lock_piece(&run, g, &format!("{name}-{}", s.index))?;
            if marker(&run, g, name, s).exists() {
                return driver
                    .say(&format!("{name} {s} of generation {g} is done"))
                    .map_err(RunError::Failed);
            }
            if kind == Kind::Clock {
                let nodes = nodes_gate(driver, &run, g, &mut steps, false)?;
                if driver.config.confirm.is_none() || !nodes {
                    driver
                        .say(&format!(
                            "{name} {s} of generation {g}: not played (no clock gate, or the \
                             nodes gate failed)"
                        ))
                        .map_err(RunError::Failed)?;
                    return write_marker(&run, g, name, s, 0.0, true);
                }
            }
            let started = Instant::now();
            driver
                .gate(g, name, kind, &best, Some(s), None, &mut no_tick)
                .map_err(RunError::Failed)?;
            write_marker(&run, g, name, s, started.elapsed().as_secs_f64(), false)
        }
        StepName::Finish => {
            let _lock = run.lock().map_err(RunError::Refused)?;
            if nodes_gate(driver, &run, g, &mut steps, true)?
                && driver.config.confirm.is_some()
                && !steps.is_done("gate-clock")
            {
                let (n, pieces) = complete(&run, g, "gate-clock").map_err(RunError::Failed)?;
                let mut done = driver
                    .judge(g, "gate-clock", Kind::Clock, n)
                    .map_err(RunError::Failed)?;
                done.seconds = pieces.iter().map(|p| p.seconds).fold(0.0, f64::max);
                steps.done.insert("gate-clock".into(), done);
                steps.write(&run, g).map_err(RunError::Failed)?;
            }
            driver
                .finish(g, &mut steps, &ledger)
                .map_err(RunError::Failed)?;
            let ledger = Ledger::read(&run).map_err(RunError::Failed)?;
            match driver.stop_rule(&ledger, 0.0) {
                Some((rule, reason)) => driver.stopped(rule, &reason, g),
                None => driver.say(&format!("learn: next: generation {}", g + 1)),
            }
            .map_err(RunError::Failed)
        }
    }
}

/// The gate at fixed nodes of generation `g` judged over its shards, and whether it passed.
/// With `record` (the `finish` job, which holds the run's lock) the judgement goes into the
/// generation's steps; a clock shard judges it for itself.
fn nodes_gate(
    driver: &Driver,
    run: &RunDir,
    g: u32,
    steps: &mut super::layout::Steps,
    record: bool,
) -> Result<bool, RunError> {
    if steps.is_done("gate-nodes") {
        return Ok(gate_passed(steps, "gate-nodes"));
    }
    let (n, pieces) = complete(run, g, "gate-nodes").map_err(RunError::Failed)?;
    let mut done: StepDone = driver
        .judge(g, "gate-nodes", Kind::Nodes, n)
        .map_err(RunError::Failed)?;
    done.seconds = pieces.iter().map(|p| p.seconds).fold(0.0, f64::max);
    let passed = done
        .found
        .get("result")
        .and_then(|r| r.get("passed"))
        .and_then(|p| p.as_bool())
        .unwrap_or(false);
    if record {
        steps.done.insert("gate-nodes".into(), done);
        steps.write(run, g).map_err(RunError::Failed)?;
    }
    Ok(passed)
}
