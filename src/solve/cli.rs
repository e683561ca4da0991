//! `ludus solve`: prove who wins a Sight position (the empty board by default) on boards up to
//! 5×5, split into frontier positions that are proven one by one, appended to a results file
//! (a rerun resumes after the last line) and shardable across processes or machines
//! (`--shard K/N`, then `ludus solve merge FILES…`).

use std::collections::HashMap;
use std::io::Write;
use std::path::PathBuf;
use std::time::{Duration, Instant};

use clap::{Args, Subcommand};

use super::board::Board;
use super::frontier::frontier;
use super::prover::{Progress, Prover};
use super::results::{self, Line, format_line, move_name};
use super::setup::{Setup, proven_of, read_complete, write_out};
use super::table::{ProofTable, check_table_size};
use super::{certify, check_run};
use crate::exit_status;
use crate::game::GameId;
use crate::progress;
use crate::runs::{self, RunError, Shard};

/// `ludus solve`: prove a Sight position, or merge the results of shards.
#[derive(Args, Debug)]
#[command(args_conflicts_with_subcommands = true)]
pub struct SolveCommand {
    #[command(subcommand)]
    sub: Option<SolveSub>,
    #[command(flatten)]
    args: SolveArgs,
}

/// `ludus solve merge | certify | check`.
#[derive(Subcommand, Debug)]
enum SolveSub {
    /// Put the results files of the shards of one solve together and print its result
    /// (files of another solve, or results that disagree, are refused).
    Merge {
        /// Results files written by `ludus solve --results`.
        #[arg(required = true)]
        files: Vec<PathBuf>,
    },
    /// Write the certificate of a finished solve: the result of the root and of every
    /// position down to the frontier, and a winning strategy proving them.
    Certify {
        /// Results files of the solve (all its shards).
        #[arg(required = true)]
        files: Vec<PathBuf>,
        /// Strategy files the solve wrote (`--strategy`); the proofs of frontier positions
        /// missing from them are walked again here.
        #[arg(long, num_args = 1..)]
        strategy: Vec<PathBuf>,
        /// Leave positions with at most this many empty points to the checker's search.
        #[arg(long, default_value_t = 15)]
        leaf_empties: u32,
        /// Write the certificate here.
        #[arg(long)]
        out: PathBuf,
        /// Proof table size in MiB.
        #[arg(long, default_value_t = 1024)]
        hash: usize,
    },
    /// Check a certificate on the game's own rules, independently of the solver.
    ///
    /// The last line says what the check proves: after a whole check, `proven:` the board, the
    /// rules and who wins from the certificate's root. Exit status 0 when the claims checked
    /// hold and all were verified in this run (a sample or a shard says it is not the whole
    /// check); 3 when they hold but the verdict counts claims the check record holds (not
    /// verified again here); 1 when a claim fails or the certificate has no claim for its root.
    Check {
        /// The certificate.
        file: PathBuf,
        /// Check only this many claims, chosen at random (all by default): a quick sample
        /// of a certificate whose whole check is a long run.
        #[arg(long)]
        sample: Option<usize>,
        /// Seed of the sample.
        #[arg(long, default_value_t = 1)]
        seed: u64,
        /// Check only shard K of N of the claims (the K-th of every N), e.g. one per
        /// process or machine.
        #[arg(long, value_name = "K/N")]
        shard: Option<Shard>,
        /// Append each claim verified to this record, and skip the claims it already holds
        /// (resume after an interruption; shards' records concatenated cover them all). A
        /// check that counts claims from the record says so and exits 3, not 0.
        #[arg(long)]
        record: Option<PathBuf>,
    },
    /// Find the positions just below a certificate's leaves where the engine's own proof
    /// before its search is slow (a long run: shardable, resumes from its run file); `ludus
    /// solve hints-merge` makes the hints file the book plays from.
    Hints(HintsArgs),
    /// Put the run files of every shard of one `ludus solve hints` run together and write the
    /// hints file of the positions whose proof took more than `--threshold` nodes.
    HintsMerge {
        /// The run files (one per shard).
        #[arg(required = true)]
        files: Vec<PathBuf>,
        /// Keep the positions whose proof took more prover nodes than this (the shipped 5×5
        /// hints: 20,000).
        #[arg(long, default_value_t = 20_000)]
        threshold: u64,
        /// Write the hints file here.
        #[arg(long)]
        out: PathBuf,
    },
    /// Check a hints file: walk the certificate's leaves again; every slow position must be a
    /// hint with the engine's move, judged winning by the certificate checker's exhaustive
    /// search (exit status 0 when all hold, 1 otherwise).
    HintsCheck {
        /// The hints file.
        file: PathBuf,
        /// The certificate the hints were made for.
        #[arg(long)]
        cert: PathBuf,
        /// Walk only this many leaves, chosen at random.
        #[arg(long, conflicts_with = "shard")]
        sample: Option<usize>,
        /// Seed of the sample.
        #[arg(long, default_value_t = 1)]
        seed: u64,
        /// Walk only shard K of N of the leaves (the K-th of every N), e.g. one per process or
        /// machine; a shard that was stopped is run again.
        #[arg(long, value_name = "K/N")]
        shard: Option<Shard>,
    },
}

/// `ludus solve hints`: the endgame hints of a certificate.
#[derive(Args, Debug)]
struct HintsArgs {
    /// The certificate.
    cert: PathBuf,
    /// The run file: created, or resumed after the last leaf it holds.
    #[arg(long)]
    out: PathBuf,
    /// The winner's moves walked below each leaf (1: the leaf's own move only).
    #[arg(long, default_value_t = 2)]
    levels: u32,
    /// Write the positions whose proof takes more prover nodes than this.
    #[arg(long, default_value_t = 20_000)]
    min_nodes: u64,
    /// Walk only shard K of N of the leaves (the K-th of every N).
    #[arg(long, value_name = "K/N")]
    shard: Option<Shard>,
    /// Seconds between progress lines.
    #[arg(long, default_value_t = 30)]
    progress: u64,
}

/// What to solve and how.
#[derive(Args, Debug)]
pub struct SolveArgs {
    /// Board side, 2–5.
    #[arg(long, default_value_t = 5)]
    size: usize,
    /// The strict-tallest rule variant (docs/rules/sight.md §6.1).
    #[arg(long)]
    strict_tallest: bool,
    /// Prove this position (Sight's notation) instead of the empty board.
    #[arg(long)]
    fen: Option<String>,
    /// Split at this many plies below the root: the positions there (one per symmetry class)
    /// are proven one by one, each a checkpoint and a unit of sharding.
    #[arg(long, default_value_t = 2)]
    frontier: u32,
    /// Prove only shard K of N of the frontier positions (the K-th of every N).
    #[arg(long, value_name = "K/N")]
    shard: Option<Shard>,
    /// Append each proven frontier position to this file; positions already in it are not
    /// proven again (resume). Without it nothing is kept.
    #[arg(long)]
    results: Option<PathBuf>,
    /// Also walk each frontier position's proof while the table holds it and append the
    /// winner's moves to this strategy file, for `ludus solve certify`.
    #[arg(long)]
    strategy: Option<PathBuf>,
    /// Walk the proofs down to positions with this many empty points (the certificate's
    /// leaves).
    #[arg(long, default_value_t = 15)]
    leaf_empties: u32,
    /// Proof table size in MiB.
    #[arg(long, default_value_t = 1024)]
    hash: usize,
    /// Seconds between progress lines during a long proof.
    #[arg(long, default_value_t = 10)]
    progress: u64,
}

/// Runs `ludus solve` and returns the exit status; everything it prints goes to `out`.
pub fn run(command: SolveCommand, game: Option<GameId>, out: &mut dyn Write) -> i32 {
    if game.is_some_and(|g| g != GameId::Sight) {
        return runs::report(Err(RunError::refused(
            "ludus solve solves Sight only (drop --game or say --game sight)",
        )));
    }
    let outcome = match command.sub {
        Some(SolveSub::Merge { files }) => merge(&files, out),
        Some(SolveSub::Certify {
            files,
            strategy,
            leaf_empties,
            out: path,
            hash,
        }) => certify::certify(&files, &strategy, leaf_empties, &path, hash, out),
        Some(SolveSub::Check {
            file,
            sample,
            seed,
            shard,
            record,
        }) => {
            let plan = check_run::CheckPlan {
                sample: sample.map(|n| (n, seed)),
                shard,
                record,
            };
            match check_run::check(&file, &plan, out) {
                // The claims held, but not all were verified in this run: say so by the status.
                Ok(check_run::Checked::OnRecord) => return exit_status::ON_RECORD,
                Ok(check_run::Checked::Here) => Ok(()),
                Err(e) => Err(e),
            }
        }
        Some(SolveSub::Hints(args)) => {
            let plan = super::hints_run::HintsPlan {
                cert: &args.cert,
                out: &args.out,
                levels: args.levels,
                min_nodes: args.min_nodes,
                shard: args.shard,
                progress: Duration::from_secs(args.progress),
            };
            super::hints_run::run(&plan, out)
        }
        Some(SolveSub::HintsMerge {
            files,
            threshold,
            out: path,
        }) => super::hints_merge::merge(&files, threshold, &path, out),
        Some(SolveSub::HintsCheck {
            file,
            cert,
            sample,
            seed,
            shard,
        }) => super::hints_check::check(&file, &cert, sample.map(|n| (n, seed)), shard, out),
        None => solve(&command.args, out),
    };
    runs::report(outcome)
}

fn solve(args: &SolveArgs, out: &mut dyn Write) -> Result<(), RunError> {
    let setup = Setup::new(
        args.size,
        args.strict_tallest,
        args.fen.as_deref(),
        args.frontier,
    )
    .map_err(RunError::Refused)?;
    let Setup {
        id,
        lines,
        syms,
        root,
    } = &setup;
    let n = id.size;
    let positions = frontier(root, id.frontier, lines, syms);
    let shard = args.shard.unwrap_or(Shard { index: 1, count: 1 });
    let mine: Vec<&(u128, Board)> = positions
        .iter()
        .enumerate()
        .filter(|(i, _)| *i as u64 % shard.count == shard.index - 1)
        .map(|(_, p)| p)
        .collect();
    let mut known: HashMap<u128, Line> = HashMap::new();
    if let Some(path) = &args.results
        && std::fs::metadata(path).is_ok_and(|m| m.len() > 0)
    {
        for line in results::read(path, id, syms).map_err(RunError::Refused)? {
            known.insert(line.key, line);
        }
    }
    let mut file = match &args.results {
        Some(path) => Some(results::open_for_append(path, id).map_err(RunError::Refused)?),
        None => None,
    };
    let mut walks = match &args.strategy {
        Some(path) => Some(
            certify::Walks::open(path, id, args.leaf_empties, syms).map_err(RunError::Refused)?,
        ),
        None => None,
    };
    check_table_size(args.hash).map_err(RunError::Refused)?;
    let mut table = ProofTable::new(args.hash)
        .ok_or_else(|| RunError::Failed(format!("cannot allocate a {} MiB table", args.hash)))?;
    let todo = mine.iter().filter(|(k, _)| !known.contains_key(k)).count();
    write_out(
        out,
        &format!(
            "solve {} ({} rules), frontier {} plies: {} positions, shard {shard}: {}, {} already proven, {} to prove; table {} MiB",
            id.root,
            results::rules_name(id.strict),
            id.frontier,
            positions.len(),
            mine.len(),
            mine.len() - todo,
            todo,
            table.bytes() >> 20
        ),
    )?;
    let started = Instant::now();
    let mut done = 0;
    let every = Duration::from_secs(args.progress);
    let mut shown =
        progress::Progress::stderr_every("solve", "positions", Some(todo as u64), every);
    for (key, b) in mine {
        if let Some(line) = known.get(key) {
            if let Some(walks) = walks.as_mut() {
                walks.walk(b, line.proven.win, lines, syms, &mut table, out)?;
            }
            continue;
        }
        let t0 = Instant::now();
        let capacity = table.capacity();
        let (proven, nodes) = {
            // The prover reports each second; the progress shows a line at its own pace.
            let mut report = |p: Progress| {
                shown.note(&format!(
                    "{}: {} nodes, {:.0} k/s, table {} of {capacity} entries",
                    b.to_fen(n),
                    p.nodes,
                    p.nodes as f64 / p.elapsed.as_secs_f64().max(1e-3) / 1e3,
                    p.stored
                ));
            };
            let mut prover = Prover::new(lines, syms, &mut table)
                .with_progress(Duration::from_secs(1), &mut report);
            let proven = prover.prove(b);
            (proven, prover.nodes)
        };
        let line = Line {
            key: *key,
            proven,
            nodes,
            ms: t0.elapsed().as_millis() as u64,
        };
        let text = format_line(n, b, &line);
        if let (Some(f), Some(path)) = (file.as_mut(), &args.results) {
            writeln!(f, "{text}")
                .and_then(|_| f.flush())
                .map_err(|e| RunError::Failed(format!("{}: {e}", path.display())))?;
        }
        done += 1;
        shown.set(done as u64);
        write_out(
            out,
            &format!(
                "[{done}/{todo}] {} {} in {} plies, best {}: {nodes} nodes, {:.1} s (total {:.0} s)",
                b.to_fen(n),
                if proven.win { "win" } else { "loss" },
                proven.dist,
                proven.best.map_or("-".into(), |m| move_name(n, m)),
                line.ms as f64 / 1e3,
                started.elapsed().as_secs_f64()
            ),
        )?;
        if let Some(walks) = walks.as_mut() {
            walks.walk(b, proven.win, lines, syms, &mut table, out)?;
        }
        known.insert(*key, line);
    }
    shown.finish();
    let complete = positions.iter().all(|(k, _)| known.contains_key(k));
    if !complete {
        let have = positions
            .iter()
            .filter(|(k, _)| known.contains_key(k))
            .count();
        return write_out(
            out,
            &format!(
                "{have} of {} frontier positions proven here; put the shards together with `ludus solve merge FILES…`",
                positions.len()
            ),
        );
    }
    summary(&setup, &known, out)
}

fn merge(files: &[PathBuf], out: &mut dyn Write) -> Result<(), RunError> {
    let (setup, known) = read_complete(files)?;
    summary(&setup, &known, out)
}

/// Prints the root's result and every root move's.
fn summary(
    setup: &Setup,
    known: &HashMap<u128, Line>,
    out: &mut dyn Write,
) -> Result<(), RunError> {
    let results = proven_of(known);
    let top = setup.top(&results);
    let Some(value) = top.root(&setup.root) else {
        return Err(RunError::failed("a frontier position has no result"));
    };
    let n = setup.id.size;
    let mover = if setup.root.side == 0 {
        "White"
    } else {
        "Black"
    };
    let other = if setup.root.side == 0 {
        "Black"
    } else {
        "White"
    };
    let winner = if value.proven.win { mover } else { other };
    let nodes: u64 = known.values().map(|l| l.nodes).sum();
    let ms: u64 = known.values().map(|l| l.ms).sum();
    write_out(
        out,
        &format!(
            "result {}: {winner} wins ({mover} to move); the proof's line lasts {} plies; {} frontier positions, {nodes} nodes, {:.1} s of proofs",
            setup.id.root,
            value.proven.dist,
            known.len(),
            ms as f64 / 1e3
        ),
    )?;
    let mut wins = Vec::new();
    let mut losses = Vec::new();
    for (m, p) in &value.moves {
        let entry = format!("{} ({})", move_name(n, *m), p.dist);
        if p.win {
            wins.push(entry);
        } else {
            losses.push(entry);
        }
    }
    if value.moves.is_empty() {
        // The root is the frontier: only its proof's move is known.
        let best = value.proven.best.map_or("none".into(), |m| move_name(n, m));
        return write_out(out, &format!("the proof's move: {best}"));
    }
    write_out(out, &format!("winning moves: {}", list(&wins)))?;
    write_out(out, &format!("losing moves: {}", list(&losses)))
}

fn list(items: &[String]) -> String {
    if items.is_empty() {
        "none".into()
    } else {
        items.join(" ")
    }
}
