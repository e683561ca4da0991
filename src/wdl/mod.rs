//! `ludus wdl`: the win/draw/loss model of `UCI_ShowWDL` (docs/wdl.md), fitted to the results
//! of `ludus datagen` games (`wdl fit`, which prints the constants a game keeps in its folder,
//! [`crate::game::wdl::WinChances::WDL_MODEL`]) and checked on held-out games (`wdl check`):
//! per score bucket, the model's mean chances against the rates the games had.
//!
//! The games are split by index: those whose index is a multiple of `--held-out-every` are
//! held out, the others are fitted, so the split is the same on every run and in every file.

pub mod fit;
pub mod table;

use std::io::Write;
use std::path::PathBuf;
use std::time::Instant;

use clap::{Args, Subcommand};

use crate::datagen::check::{self, RunOf};
use crate::datagen::format::{GameResult, Recorded};
use crate::game::dynamic::RuleSet;
use crate::game::wdl::WdlModel;
use crate::game::{GameId, GameVisitor, Player, Searchable};
use crate::runs::{self, RunError, write_line, write_text};
use fit::{Point, Result3};

/// `ludus wdl`: fit or check the win/draw/loss model of a game.
#[derive(Args, Debug)]
pub struct WdlCommand {
    #[command(subcommand)]
    sub: WdlSub,
}

#[derive(Subcommand, Debug)]
enum WdlSub {
    /// Fit the model to the training games of datagen files; print its constants, then the
    /// held-out table of the fitted model.
    Fit {
        #[command(flatten)]
        data: DataArgs,
        /// Knots of a and b over the game phase (1: constant).
        #[arg(long, default_value_t = 4, value_parser = clap::value_parser!(u8).range(1..=16))]
        knots: u8,
    },
    /// The held-out table of the model built into the engine.
    Check {
        #[command(flatten)]
        data: DataArgs,
    },
}

/// The data and the table's settings.
#[derive(Args, Debug)]
struct DataArgs {
    /// Datagen files of the game (`--game`).
    #[arg(required = true)]
    files: Vec<PathBuf>,
    /// Hold out the games whose index is a multiple of N (the others are fitted).
    #[arg(long, default_value_t = 2, value_parser = clap::value_parser!(u32).range(2..))]
    held_out_every: u32,
    /// Width of a score bucket in the game's unit (default: about twenty buckets over the
    /// middle 95 % of the held-out scores).
    #[arg(long, value_parser = clap::value_parser!(i64).range(1..))]
    width: Option<i64>,
    /// Buckets with fewer positions are shown but not counted in the verdict.
    #[arg(long, default_value_t = 200)]
    min_positions: usize,
    /// The largest deviation, in points, the verdict allows.
    #[arg(long, default_value_t = 5.0)]
    tolerance: f64,
}

/// The positions of the files, split.
#[derive(Default)]
struct Positions {
    /// Scored positions of the fitted games.
    train: Vec<Point>,
    /// Scored positions of the held-out games.
    held_out: Vec<Point>,
    /// Held-out positions with a proven score: whether the proof says the side to move wins,
    /// and how the game ended for it.
    proven: Vec<(bool, Result3)>,
}

/// Runs `ludus wdl` for `game`; returns the exit status. Progress and results go to `out`.
pub fn run(command: WdlCommand, game: GameId, out: &mut dyn Write) -> i32 {
    struct Run<'a>(WdlSub, &'a mut dyn Write);
    impl GameVisitor for Run<'_> {
        type Output = Result<(), RunError>;
        fn visit<G: Searchable>(self) -> Result<(), RunError> {
            match self.0 {
                WdlSub::Fit { data, knots } => fit_command::<G>(&data, usize::from(knots), self.1),
                WdlSub::Check { data } => check_command::<G>(&data, self.1),
            }
        }
    }
    runs::report(game.visit(Run(command.sub, out)))
}

fn fit_command<G: Searchable>(
    args: &DataArgs,
    knots: usize,
    out: &mut dyn Write,
) -> Result<(), RunError> {
    let data = load::<G>(args, out)?;
    let draws = data
        .train
        .iter()
        .filter(|p| p.result == Result3::Draw)
        .count();
    write_line(
        out,
        &format!(
            "fitting {knots} knots to {} training positions ({:.1} % of them drawn{})",
            data.train.len(),
            100.0 * draws as f64 / data.train.len().max(1) as f64,
            if draws == 0 { ": a = 0, no draws" } else { "" }
        ),
    )?;
    let started = Instant::now();
    let mut last = Instant::now();
    let mut progress = |step: usize, loss: f64| {
        if last.elapsed().as_secs() >= 2 || step == 1 {
            last = Instant::now();
            let _ = write_line(out, &format!("  step {step}: loss {loss:.6}"));
        }
    };
    let fitted = fit::fit(&data.train, knots, &mut progress).map_err(RunError::Failed)?;
    write_line(
        out,
        &format!(
            "fitted in {} steps, {:.1} s: loss {:.6}; the constants of src/game/{}/wdl.rs:",
            fitted.iterations,
            started.elapsed().as_secs_f64(),
            fitted.loss,
            G::NAME
        ),
    )?;
    write_text(out, &constants(fitted.model()), "cannot write")?;
    report_table(&data, fitted.model(), args, out)
}

fn check_command<G: Searchable>(args: &DataArgs, out: &mut dyn Write) -> Result<(), RunError> {
    let data = load::<G>(args, out)?;
    write_line(out, &format!("the model built in for {}:", G::NAME))?;
    write_text(out, &constants(G::WDL_MODEL), "cannot write")?;
    report_table(&data, G::WDL_MODEL, args, out)
}

/// The model as the constant a game's `wdl.rs` holds.
fn constants(model: WdlModel<'_>) -> String {
    let list = |v: &[f64]| {
        v.iter()
            .map(|x| format!("{x:.1}"))
            .collect::<Vec<_>>()
            .join(", ")
    };
    format!(
        "    const WDL_MODEL: WdlModel<'static> = WdlModel {{\n        a: &[{}],\n        b: &[{}],\n    }};\n",
        list(model.a),
        list(model.b)
    )
}

/// Prints the held-out table of `model`, the proven positions and the verdict.
fn report_table(
    data: &Positions,
    model: WdlModel<'_>,
    args: &DataArgs,
    out: &mut dyn Write,
) -> Result<(), RunError> {
    let width = args
        .width
        .unwrap_or_else(|| table::auto_width(&data.held_out));
    let table = table::calibrate(&data.held_out, model, width);
    write_line(
        out,
        &format!(
            "held-out games (index a multiple of {}): {} scored positions, loss {:.6}; rates \
             in points",
            args.held_out_every,
            data.held_out.len(),
            fit::mean_loss(&data.held_out, model)
        ),
    )?;
    write_text(
        out,
        &table.render(args.min_positions),
        "cannot print the table",
    )?;
    let agree = data
        .proven
        .iter()
        .filter(|(won, result)| *result == if *won { Result3::Win } else { Result3::Loss })
        .count();
    write_line(
        out,
        &format!(
            "proven scores (wdl 1000 0 0 or 0 0 1000): {} held-out positions, the game's result \
             agrees in {agree}",
            data.proven.len()
        ),
    )?;
    let summary = table.summary(args.min_positions);
    let verdict = match summary.worst {
        None => format!("no bucket has {} positions", args.min_positions),
        Some((dev, lo)) => format!(
            "max deviation {dev:.1} points in [{lo}, {}): {}",
            lo + table.width,
            if dev <= args.tolerance {
                format!("within {} points", args.tolerance)
            } else {
                format!("NOT within {} points", args.tolerance)
            }
        ),
    };
    write_line(
        out,
        &format!(
            "{} of {} buckets have at least {} positions ({} positions); {verdict}",
            summary.counted,
            table.buckets.len(),
            args.min_positions,
            summary.positions
        ),
    )
}

/// Reads every file (checked as every datagen reader checks them; each must be of game `G`)
/// into training and held-out positions, saying what each file held.
fn load<G: Searchable>(args: &DataArgs, out: &mut dyn Write) -> Result<Positions, RunError> {
    let mut positions = Positions::default();
    for path in &args.files {
        let shown = path.display();
        // Streamed: the header first, then one game at a time, each checked as it is read.
        let mut reader = check::DataReader::open(path)
            .and_then(|r| r.checked(None))
            .map_err(RunError::Refused)?;
        let identity = reader.identity().to_string();
        let run =
            RunOf::parse(&identity).map_err(|e| RunError::Refused(format!("{shown}: {e}")))?;
        if run.game.name() != G::NAME {
            return Err(RunError::Refused(format!(
                "{shown} holds {} data, not {} (choose the game with --game)",
                run.game.name(),
                G::NAME
            )));
        }
        let rules = RuleSet::new(run.game, &run.options)
            .map_err(|e| RunError::Refused(format!("{shown}: {e}")))?;
        let settings = G::settings(rules.values());
        let (mut games, mut samples) = (0usize, 0usize);
        while let Some(record) = reader.next_game().map_err(RunError::Refused)? {
            games += 1;
            samples += record.samples.len();
            let held_out = record.index.is_multiple_of(args.held_out_every);
            for sample in &record.samples {
                let pos = G::from_fen(&sample.fen, &settings).map_err(|e| {
                    RunError::Refused(format!("{shown}: game {}: {e}", record.index))
                })?;
                let result = result_for(record.result, pos.side_to_move());
                match sample.score {
                    Recorded::Score(s) => {
                        let point = Point {
                            score: f64::from(s),
                            phase: pos.wdl_phase(),
                            result,
                        };
                        match held_out {
                            true => positions.held_out.push(point),
                            false => positions.train.push(point),
                        }
                    }
                    Recorded::Mate(n) if held_out => positions.proven.push((n > 0, result)),
                    Recorded::Mate(_) => {}
                }
            }
        }
        write_line(
            out,
            &format!("{shown}: {games} games, {samples} positions ({identity})"),
        )?;
    }
    if positions.train.is_empty() || positions.held_out.is_empty() {
        return Err(RunError::refused(format!(
            "the files hold {} training and {} held-out scored positions: both are needed",
            positions.train.len(),
            positions.held_out.len()
        )));
    }
    Ok(positions)
}

/// How a game that ended with `result` ended for `side`.
fn result_for(result: GameResult, side: Player) -> Result3 {
    match (result, side) {
        (GameResult::Draw, _) => Result3::Draw,
        (GameResult::P1Win, Player::One) | (GameResult::P2Win, Player::Two) => Result3::Win,
        _ => Result3::Loss,
    }
}
