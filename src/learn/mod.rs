//! `ludus learn`: the engine improves itself without a person — generation after
//! generation, self-play with the current best evaluation, a candidate net trained on it, a
//! gate (an SPRT at fixed nodes, then a confirmation at a short clock with games side by
//! side), promotion of what passes, a ledger line and a chart (docs/training.md, "The
//! learning loop").
//!
//! ```text
//! ludus learn --game isaac --out runs/isaac --generations 5
//! ludus learn --game sight --option Sight_BoardSize=7 --config sight7.json --out runs/s7 --hours 6
//! ```
//!
//! Every step is a child process of this binary (`ludus datagen`, `train`, `match`), run in
//! the run folder's files ([`layout`]); the same command after an interruption, a `kill -9`
//! included, goes on where the run stopped. Needs a build with the cargo feature `train`.

pub mod chart;
pub mod children;
pub mod commands;
pub mod config;
pub mod driver;
pub mod gate;
pub mod generation;
pub mod layout;
pub mod ledger;
pub mod step;

use std::io::Write;
use std::path::PathBuf;
use std::time::Duration;

use clap::{Args, Subcommand};

use crate::game::GameId;
use crate::runs::{self, RunError};
use config::LearnConfig;
use layout::{RunDir, write_atomic};

/// `ludus learn`: the loop on this machine, or `ludus learn step` (one piece, for a
/// scheduler's job).
#[derive(Args, Debug)]
#[command(args_conflicts_with_subcommands = true)]
pub struct LearnCommand {
    #[command(subcommand)]
    sub: Option<LearnSub>,
    #[command(flatten)]
    args: LearnArgs,
}

#[derive(Subcommand, Debug)]
enum LearnSub {
    /// One piece of a generation, for a scheduler's job (cluster/slurm/learn.sbatch): status,
    /// start, datagen --shard K/S, train, gate-nodes --shard K/M, gate-clock --shard K/M,
    /// finish (docs/cluster.md).
    Step(step::StepArgs),
}

/// What to learn, where, and when to stop.
#[derive(Args, Debug)]
pub struct LearnArgs {
    /// The run folder: its configuration, ledger, chart, nets and each generation's files.
    /// Run the same command again to go on after an interruption.
    #[arg(long)]
    pub out: Option<PathBuf>,
    /// A rule option of the game, as NAME=VALUE (repeatable), e.g. Sight_BoardSize=7.
    #[arg(long = "option", value_name = "NAME=VALUE", value_parser = parse_option)]
    pub options: Vec<(String, String)>,
    /// A JSON file of settings over the game's defaults (docs/training.md lists them); the
    /// run keeps the whole configuration in OUT/learn.json, and a later start with another
    /// one is refused.
    #[arg(long, value_name = "FILE")]
    pub config: Option<PathBuf>,
    /// Stop once the run has this many generations (after generation 0, the start).
    #[arg(long, value_name = "N")]
    pub generations: Option<u32>,
    /// Stop starting steps once the run has spent this many hours (all sittings).
    #[arg(long, value_name = "H", value_parser = parse_hours)]
    pub hours: Option<f64>,
    /// Stop after this many candidates rejected in a row.
    #[arg(long, value_name = "K")]
    pub max_rejections: Option<u32>,
    /// Seconds between progress lines when the output is not a terminal (on a terminal a
    /// status line is redrawn every second).
    #[arg(long, default_value_t = 60)]
    pub progress: u64,
    /// Print the configuration the run would use (the defaults with `--config` over them),
    /// as JSON, and do nothing else.
    #[arg(long)]
    pub show_config: bool,
    /// Set the run folder up (its configuration, checked and kept in OUT/learn.json) and do
    /// nothing else: what `cluster/slurm/submit.sh learn` does before it submits the jobs.
    #[arg(long)]
    pub setup: bool,
}

fn parse_option(s: &str) -> Result<(String, String), String> {
    s.split_once('=')
        .map(|(n, v)| (n.trim().to_string(), v.trim().to_string()))
        .filter(|(n, _)| !n.is_empty())
        .ok_or_else(|| format!("expected NAME=VALUE, got '{s}'"))
}

fn parse_hours(s: &str) -> Result<f64, String> {
    match s.trim().parse::<f64>() {
        Ok(h) if h > 0.0 && h <= 24.0 * 365.0 => Ok(h),
        _ => Err(format!(
            "expected hours, more than 0 and at most a year, got '{s}'"
        )),
    }
}

/// Runs `ludus learn` (or `ludus learn step`); `chosen` is the `--game` given, if any.
/// Returns the exit status.
pub fn run(
    command: &LearnCommand,
    chosen: Option<GameId>,
    terminal: bool,
    out: &mut dyn Write,
) -> i32 {
    match &command.sub {
        Some(LearnSub::Step(step)) => runs::report(run_step(step, out)),
        None => runs::report(learn(&command.args, chosen, terminal, out)),
    }
}

/// `ludus learn step`: one piece of the run set up in its folder.
fn run_step(args: &step::StepArgs, out: &mut dyn Write) -> Result<(), RunError> {
    let run = RunDir::new(&args.out);
    let config = stored_config(&run)?.ok_or_else(|| {
        RunError::refused(format!(
            "{} is not set up: `ludus learn --out {} --setup` (with the run's --game, --option \
             and --config) first",
            run.root.display(),
            run.root.display()
        ))
    })?;
    if !cfg!(feature = "train") && args.step == step::StepName::Train {
        return Err(RunError::refused(NO_TRAINER));
    }
    let exe = std::env::current_exe()
        .map_err(|e| RunError::failed(format!("cannot find this ludus binary: {e}")))?;
    let mut progress = children::Progress {
        out,
        every: Duration::from_secs(60),
        terminal: false,
        showing: false,
    };
    let mut driver = driver::Driver {
        run,
        config,
        exe,
        stop: driver::StopRules::default(),
        progress: &mut progress,
    };
    step::run_step(args, &mut driver)
}

/// Why a build without the trainer cannot learn.
const NO_TRAINER: &str = "this ludus was built without the trainer, which every generation \
     needs; build it with `cargo build --release --features train` (docs/training.md)";

fn learn(
    args: &LearnArgs,
    chosen: Option<GameId>,
    terminal: bool,
    out: &mut dyn Write,
) -> Result<(), RunError> {
    let root = args
        .out
        .as_ref()
        .ok_or_else(|| RunError::refused("ludus learn needs --out FOLDER (the run folder)"))?;
    let run = RunDir::new(root);
    let given = given_config(args, chosen)?;
    if args.show_config {
        let config = match (&given, stored_config(&run)?) {
            (Some(g), _) => g.clone(),
            (None, Some(s)) => s,
            (None, None) => LearnConfig::defaults(GameId::DEFAULT, &[]),
        };
        let text =
            serde_json::to_string_pretty(&config).map_err(|e| RunError::failed(e.to_string()))?;
        return runs::write_line(out, &text);
    }
    if !cfg!(feature = "train") && !args.setup {
        return Err(RunError::refused(NO_TRAINER));
    }
    std::fs::create_dir_all(&run.root)
        .map_err(|e| RunError::refused(format!("{}: {e}", run.root.display())))?;
    let _lock = run.lock().map_err(RunError::Refused)?;
    let config = match (stored_config(&run)?, given) {
        (Some(stored), Some(given)) => {
            let differ = stored.differences(&given);
            if !differ.is_empty() {
                return Err(RunError::refused(format!(
                    "{} is a run of another configuration; it differs in: {}. Give the run's \
                     own settings (or none: `ludus learn --out {}` goes on with them), or use \
                     another folder",
                    run.root.display(),
                    differ.join(", "),
                    run.root.display()
                )));
            }
            stored
        }
        (Some(stored), None) => stored,
        (None, given) => {
            let config = given.unwrap_or_else(|| LearnConfig::defaults(GameId::DEFAULT, &[]));
            let text = serde_json::to_string_pretty(&config)
                .map_err(|e| RunError::failed(e.to_string()))?;
            write_atomic(&run.config(), (text + "\n").as_bytes()).map_err(RunError::Failed)?;
            config
        }
    };
    if args.setup {
        return runs::write_line(
            out,
            &format!(
                "learn: {} set up for {} ({})",
                run.root.display(),
                config.game,
                run.config().display()
            ),
        );
    }
    let exe = std::env::current_exe()
        .map_err(|e| RunError::failed(format!("cannot find this ludus binary: {e}")))?;
    let mut progress = children::Progress {
        out,
        every: Duration::from_secs(args.progress.max(1)),
        terminal,
        showing: false,
    };
    progress
        .line(&format!(
            "learn: {} in {} ({} games a generation at {} nodes, {} shards; gate at {} nodes{})",
            config.game,
            run.root.display(),
            config.datagen.games,
            config.datagen.nodes,
            config.datagen.shards,
            config.gate.nodes,
            config
                .confirm
                .as_ref()
                .map_or(String::new(), |c| format!(", then at {}", c.tc))
        ))
        .map_err(|e| RunError::failed(e.to_string()))?;
    let mut driver = driver::Driver {
        run,
        config,
        exe,
        stop: driver::StopRules {
            generations: args.generations,
            hours: args.hours,
            rejections: args.max_rejections,
        },
        progress: &mut progress,
    };
    driver.run().map_err(RunError::Failed)
}

/// The configuration the command line gives, if it gives one (a game, options or a file).
fn given_config(args: &LearnArgs, chosen: Option<GameId>) -> Result<Option<LearnConfig>, RunError> {
    if chosen.is_none() && args.options.is_empty() && args.config.is_none() {
        return Ok(None);
    }
    let game = chosen.unwrap_or(GameId::DEFAULT);
    let config = match &args.config {
        Some(path) => LearnConfig::read(game, &args.options, path),
        None => {
            let c = LearnConfig::defaults(game, &args.options);
            c.check().map(|()| c)
        }
    };
    config.map(Some).map_err(RunError::Refused)
}

/// The configuration kept in the run folder, if there is one.
fn stored_config(run: &RunDir) -> Result<Option<LearnConfig>, RunError> {
    let path = run.config();
    if !path.exists() {
        return Ok(None);
    }
    let text = crate::files::read_regular_text(&path, layout::MAX_STATE_BYTES)
        .map_err(|e| RunError::refused(format!("{}: {e}", path.display())))?;
    let config: LearnConfig = serde_json::from_str(&text).map_err(|e| {
        RunError::refused(format!(
            "{}: not a learn configuration: {e}",
            path.display()
        ))
    })?;
    config
        .check()
        .map_err(|e| RunError::refused(format!("{}: {e}", path.display())))?;
    Ok(Some(config))
}
