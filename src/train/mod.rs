//! `ludus train`: a net for one game from `ludus datagen` files (docs/training.md). Built only
//! with the cargo feature `train` (it brings candle); without it the command says how to get
//! it.
//!
//! ```text
//! ludus train --game tactigon --data a.bin b.bin --out tactigon.nnue
//! ```
//!
//! writes the integer net (`src/net/file.rs`), and beside it `tactigon.nnue.check`: for the
//! first validation positions, the float net's output and the position, which the engine's
//! tests compare with the integer net's (`tests/search/net.rs`).

use std::io::Write;
use std::path::PathBuf;

use clap::Args;
use clap::builder::TypedValueParser;

use crate::game::GameId;
use crate::net::NetBase;
use crate::runs::{self, RunError};

#[cfg(feature = "train")]
mod adam;
#[cfg(feature = "train")]
mod checkpoint;
#[cfg(feature = "train")]
mod data;
#[cfg(feature = "train")]
mod float_net;
#[cfg(feature = "train")]
mod model;
#[cfg(feature = "train")]
mod run;

/// What to train.
#[derive(Args, Debug)]
pub struct TrainArgs {
    /// The datagen files to learn from (all of one game and rules).
    #[arg(long, num_args = 1.., required = true)]
    pub data: Vec<PathBuf>,
    /// The net file to write (and `<out>.check` beside it).
    #[arg(long)]
    pub out: PathBuf,
    /// Hidden units per view.
    #[arg(long, default_value_t = 64)]
    pub hidden: usize,
    /// Passes over the training positions.
    #[arg(long, default_value_t = 12)]
    pub epochs: usize,
    /// Positions per optimiser step.
    #[arg(long, default_value_t = 8192)]
    pub batch: usize,
    /// The first epoch's learning rate (falling linearly to a tenth of it).
    #[arg(long, default_value_t = 0.002)]
    pub lr: f64,
    /// Weight of the search's score in the target; the rest is the game's result.
    #[arg(long, default_value_t = 0.75)]
    pub lambda: f32,
    /// Evaluation units per logit (default: fitted to the data, the scale at which the
    /// recorded scores best predict the results).
    #[arg(long)]
    pub scale: Option<f32>,
    /// Seed of the first weights and of the order of positions.
    #[arg(long, default_value_t = 1)]
    pub seed: u64,
    /// Every Nth game (by index) is kept out of training to measure the net on.
    #[arg(long, default_value_t = 20)]
    pub validation_every: u32,
    /// Positions written to the check file.
    #[arg(long, default_value_t = 64)]
    pub check_positions: usize,
    /// What the net adds to: `none` (the net is the whole evaluation) or `hand` (the net
    /// learns a correction to the hand-written evaluation, and starts out as exactly it).
    #[arg(long, default_value = "none", value_parser = base_parser())]
    pub base: NetBase,
    /// Start from the weights of this net file (a warm start: the next generation of a
    /// learning loop goes on from the current best) instead of random ones. Its hidden size
    /// and base must be the run's; its scale is the run's unless `--scale` says otherwise.
    #[arg(long, value_name = "NET")]
    pub init: Option<PathBuf>,
}

/// `--base`'s parser: the words of [`NetBase`], listed in the help.
fn base_parser() -> impl TypedValueParser<Value = NetBase> {
    clap::builder::PossibleValuesParser::new([NetBase::None.name(), NetBase::Hand.name()])
        .map(|word| NetBase::from_name(&word).unwrap_or(NetBase::None))
}

/// Runs `ludus train` for `game`; returns the exit status. The trainer says its errors in
/// words (`String`); each one, a data file that cannot be read included, ends the run as a
/// [`RunError::Failed`] (exit status 1).
pub fn run(args: &TrainArgs, game: GameId, out: &mut dyn Write) -> i32 {
    #[cfg(feature = "train")]
    {
        runs::report(run::train_game(args, game, out).map_err(RunError::Failed))
    }
    #[cfg(not(feature = "train"))]
    {
        let _ = (args, game, out.flush());
        runs::report(Err(RunError::refused(
            "this ludus was built without the trainer; build it with \
             `cargo build --release --features train` (docs/training.md)",
        )))
    }
}

/// A candle error as a training error: `training: ` and candle's words.
#[cfg(feature = "train")]
fn candle(e: candle_core::Error) -> String {
    format!("training: {e}")
}
