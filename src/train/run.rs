//! One training run: load, fit the scale, train, quantise, write the net and its check file.

use std::io::Write;
use std::path::Path;

use super::TrainArgs;
use super::data::{self, Positions};
use super::float_net::FloatNet;
use super::model::{self, Hyper};
use crate::game::{GameId, GameVisitor, Searchable};
use crate::net::NetBase;

/// Trains and writes the net of `args` for `game`.
pub fn train_game(args: &TrainArgs, game: GameId, out: &mut dyn Write) -> Result<(), String> {
    struct Train<'a> {
        args: &'a TrainArgs,
        out: &'a mut dyn Write,
    }
    impl GameVisitor for Train<'_> {
        type Output = Result<(), String>;
        fn visit<G: Searchable>(self) -> Self::Output {
            train_for::<G>(self.args, self.out)
        }
    }
    game.visit(Train { args, out })
}

fn train_for<G: Searchable>(args: &TrainArgs, out: &mut dyn Write) -> Result<(), String> {
    if G::NET_INPUTS == 0 {
        return Err(format!("{} has no net inputs yet", G::NAME));
    }
    let started = std::time::Instant::now();
    let (mut train, mut valid) = data::load::<G>(&args.data, args.validation_every)?;
    let used = data::compact(&mut [&mut train, &mut valid], G::NET_INPUTS);
    let init = match &args.init {
        Some(path) => Some(starting_net::<G>(path, args)?),
        None => None,
    };
    // Whole units, as the net file holds it (the engine scales by the file's value). A warm
    // start keeps its net's scale: its logits mean that.
    let scale = args
        .scale
        .or(init.as_ref().map(|(_, net)| net.header.scale as f32))
        .unwrap_or_else(|| train.fit_scale())
        .round()
        .max(1.0);
    let _ = writeln!(
        out,
        "{} training and {} validation positions read in {:.1} s, {} of {} inputs used; scale \
         {scale} units per logit",
        train.len(),
        valid.len(),
        started.elapsed().as_secs_f64(),
        used.len(),
        G::NET_INPUTS
    );
    let hyper = Hyper {
        hidden: args.hidden,
        epochs: args.epochs,
        batch: args.batch,
        lr: args.lr,
        lambda: args.lambda,
        scale,
        seed: args.seed,
        base: args.base,
        init: init
            .as_ref()
            .map(|(tag, net)| (*tag, FloatNet::from_net(net).select(&used))),
    };
    let _ = writeln!(
        out,
        "validation loss of the search's own scores: {:.6}, of the hand evaluation: {:.6}",
        model::score_baseline(&valid, &hyper),
        model::hand_baseline(&valid, &hyper)
    );
    let checkpoint = args.out.with_extension("ckpt");
    let net = model::train(
        &train,
        &valid,
        used.len(),
        &hyper,
        Some(&checkpoint),
        None,
        out,
    )?;
    let full = match &init {
        Some((_, start)) => net.expand_onto(&used, &FloatNet::from_net(start)),
        None => net.expand(&used, G::NET_INPUTS),
    };
    let quantised = full.quantise(G::NAME, G::NET_FEATURES, scale.round() as i32, hyper.base)?;
    let bytes = quantised.to_bytes();
    std::fs::write(&args.out, &bytes).map_err(|e| format!("{}: {e}", args.out.display()))?;
    let check = check_path(&args.out);
    write_check(&net, &valid, &hyper, args.check_positions, &check)?;
    let _ = writeln!(
        out,
        "wrote {} ({}, {} bytes) and {} in {:.0} s",
        args.out.display(),
        quantised.header,
        bytes.len(),
        check.display(),
        started.elapsed().as_secs_f64()
    );
    Ok(())
}

/// The largest net file `--init` reads (Isaac's 64-hidden net is 292 KB).
const MAX_INIT_BYTES: u64 = 256 << 20;

/// The net of `--init`, checked against the game and the run's hidden size and base, with
/// the checksum of its file.
fn starting_net<G: Searchable>(
    path: &Path,
    args: &TrainArgs,
) -> Result<(u64, crate::net::file::Net), String> {
    let name = path.display();
    let bytes = crate::files::read_regular(path, MAX_INIT_BYTES)
        .map_err(|e| format!("--init {name}: {e}"))?;
    let net =
        crate::net::file::Net::from_bytes(&bytes).map_err(|e| format!("--init {name}: {e}"))?;
    net.check_fits(G::NAME, G::NET_FEATURES, G::NET_INPUTS)
        .map_err(|e| format!("--init {name}: {e}"))?;
    if net.header.hidden != args.hidden {
        return Err(format!(
            "--init {name} has {} hidden units, the run {} (--hidden)",
            net.header.hidden, args.hidden
        ));
    }
    if net.header.base != args.base {
        return Err(format!(
            "--init {name} is on the base {}, the run on {} (--base)",
            net.header.base.name(),
            args.base.name()
        ));
    }
    Ok((crate::files::fnv1a64(&bytes), net))
}

/// Where the check file of the net at `net` goes: `<net>.check`.
fn check_path(net: &Path) -> std::path::PathBuf {
    let mut name = net.as_os_str().to_owned();
    name.push(".check");
    name.into()
}

/// Writes the float net's output on the first `count` validation positions: per line the
/// logit (with the hand evaluation's added for a net on that base), a tab, the position.
fn write_check(
    net: &FloatNet,
    valid: &Positions,
    hyper: &Hyper,
    count: usize,
    path: &Path,
) -> Result<(), String> {
    let mut text =
        String::from("# logit<TAB>position: the float net's output, for tests/search/net.rs\n");
    for i in 0..valid.len().min(count).min(valid.fens.len()) {
        let (stm, other) = valid.views(i);
        let base = match hyper.base {
            NetBase::None => 0.0,
            NetBase::Hand => f64::from(valid.hand_logit(i, hyper.scale)),
        };
        text.push_str(&format!(
            "{:.6}\t{}\n",
            net.logit(stm, other) + base,
            valid.fens[i]
        ));
    }
    std::fs::write(path, text).map_err(|e| format!("{}: {e}", path.display()))
}
