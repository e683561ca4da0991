//! The training loop, on the CPU with candle (`candle-core`, `candle-nn`: tensors with
//! automatic differentiation): the float net ([`super::float_net`]) as candle variables, its
//! logits on batches of positions (plus the hand evaluation's logit for `--base hand`), the
//! loss — the squared error of their sigmoid against the target (`data.rs`) — minimised by
//! Adam ([`super::adam`]), and a checkpoint after every epoch ([`super::checkpoint`]).

use std::io::Write;
use std::path::Path;

use candle_core::{Device, Tensor, Var};
use rand::SeedableRng;
use rand::rngs::SmallRng;
use rand::seq::SliceRandom;

use super::adam::Adam;
use super::candle;
use super::checkpoint::Checkpoint;
use super::data::{Positions, sigmoid};
use super::float_net::FloatNet;
use crate::net::file::NetBase;

/// How to train.
#[derive(Clone, Debug)]
pub struct Hyper {
    /// Hidden units per view.
    pub hidden: usize,
    /// Passes over the training positions.
    pub epochs: usize,
    /// Positions per step.
    pub batch: usize,
    /// The first epoch's learning rate (it falls linearly to a tenth by the last).
    pub lr: f64,
    /// Weight of the search's score in the target (the rest is the game's result).
    pub lambda: f32,
    /// Evaluation units per logit.
    pub scale: f32,
    /// Seed of the first weights and of the order of positions.
    pub seed: u64,
    /// What the net's output is added to.
    pub base: NetBase,
    /// The weights to start from instead of random ones (`ludus train --init`), over the
    /// data's used inputs, and a tag of them (the checksum of the net file they came from)
    /// that the checkpoint keeps, so that a resume never mixes two starting points.
    pub init: Option<(u64, FloatNet)>,
}

impl Hyper {
    /// The settings a checkpoint must have been written under to be resumed (everything but
    /// the data, whose input count is checked on its own).
    fn describe(&self) -> String {
        format!(
            "epochs={} batch={} lr={} lambda={} scale={} seed={} base={}",
            self.epochs,
            self.batch,
            self.lr,
            self.lambda,
            self.scale,
            self.seed,
            self.base.name()
        ) + &self
            .init
            .as_ref()
            .map_or(String::new(), |(tag, _)| format!(" init={tag:016x}"))
    }
}

/// The float net as candle variables.
struct Model {
    w: Var,
    b: Var,
    wo: Var,
    bo: Var,
}

impl Model {
    fn new(net: &FloatNet, dev: &Device) -> Result<Model, candle_core::Error> {
        let h = net.hidden;
        Ok(Model {
            w: Var::from_tensor(&Tensor::from_slice(&net.w, (net.inputs, h), dev)?)?,
            b: Var::from_tensor(&Tensor::from_slice(&net.b, (1, h), dev)?)?,
            wo: Var::from_tensor(&Tensor::from_slice(&net.wo, (2 * h, 1), dev)?)?,
            bo: Var::from_tensor(&Tensor::from_slice(&[net.bo], (1, 1), dev)?)?,
        })
    }

    fn vars(&self) -> Vec<Var> {
        vec![
            self.w.clone(),
            self.b.clone(),
            self.wo.clone(),
            self.bo.clone(),
        ]
    }

    /// The logits of a batch: its two views' inputs and what the output is added to.
    fn forward(&self, batch: &Batch) -> Result<Tensor, candle_core::Error> {
        let hidden = |x: &Tensor| {
            x.matmul(self.w.as_tensor())?
                .broadcast_add(self.b.as_tensor())?
                .clamp(0f32, 1f32)
        };
        let out = Tensor::cat(&[&hidden(&batch.stm)?, &hidden(&batch.other)?], 1)?
            .matmul(self.wo.as_tensor())?
            .broadcast_add(self.bo.as_tensor())?;
        match &batch.base {
            Some(base) => out + base,
            None => Ok(out),
        }
    }

    fn to_float(&self, inputs: usize, hidden: usize) -> Result<FloatNet, candle_core::Error> {
        let flat = |v: &Var| v.as_tensor().flatten_all()?.to_vec1::<f32>();
        Ok(FloatNet {
            inputs,
            hidden,
            w: flat(&self.w)?,
            b: flat(&self.b)?,
            wo: flat(&self.wo)?,
            bo: flat(&self.bo)?[0],
        })
    }
}

/// A batch as tensors: the one-hot inputs of each view, the base logits (for `--base hand`)
/// and the targets.
struct Batch {
    stm: Tensor,
    other: Tensor,
    base: Option<Tensor>,
    target: Tensor,
}

/// The tensors of the positions `batch` of `data`.
fn tensors(
    data: &Positions,
    batch: &[usize],
    inputs: usize,
    hyper: &Hyper,
    dev: &Device,
) -> Result<Batch, candle_core::Error> {
    let n = batch.len();
    let mut stm = vec![0f32; n * inputs];
    let mut other = vec![0f32; n * inputs];
    let mut targets = Vec::with_capacity(n);
    let mut base = Vec::with_capacity(n);
    for (row, &i) in batch.iter().enumerate() {
        let (a, b) = data.views(i);
        for &f in a {
            stm[row * inputs + usize::from(f)] = 1.0;
        }
        for &f in b {
            other[row * inputs + usize::from(f)] = 1.0;
        }
        targets.push(data.target(i, hyper.lambda, hyper.scale));
        if hyper.base == NetBase::Hand {
            base.push(data.hand_logit(i, hyper.scale));
        }
    }
    Ok(Batch {
        stm: Tensor::from_vec(stm, (n, inputs), dev)?,
        other: Tensor::from_vec(other, (n, inputs), dev)?,
        base: match hyper.base {
            NetBase::None => None,
            NetBase::Hand => Some(Tensor::from_vec(base, (n, 1), dev)?),
        },
        target: Tensor::from_vec(targets, (n, 1), dev)?,
    })
}

/// Mean squared error of the net's expected results on `data`.
fn loss_on(
    model: &Model,
    data: &Positions,
    inputs: usize,
    hyper: &Hyper,
    dev: &Device,
) -> Result<f64, candle_core::Error> {
    let all: Vec<usize> = (0..data.len()).collect();
    let mut total = 0.0;
    for chunk in all.chunks(hyper.batch.max(1)) {
        let batch = tensors(data, chunk, inputs, hyper, dev)?;
        let out = candle_nn::ops::sigmoid(&model.forward(&batch)?)?;
        let sum = (out - batch.target)?.sqr()?.sum_all()?.to_scalar::<f32>()?;
        total += f64::from(sum);
    }
    Ok(total / data.len().max(1) as f64)
}

/// Trains a net of `inputs` inputs on `train`, reporting each epoch's losses (and the
/// validation loss on `valid`) to `progress`. With a `checkpoint` path the weights and the
/// optimiser's state are saved there after every epoch (`checkpoint.rs`), and a run that finds
/// one goes on after its last epoch, exactly as if it had not stopped. `stop_after` cuts the
/// run short after that epoch (as an interruption would).
pub fn train(
    train: &Positions,
    valid: &Positions,
    inputs: usize,
    hyper: &Hyper,
    checkpoint: Option<&Path>,
    stop_after: Option<usize>,
    progress: &mut dyn Write,
) -> Result<FloatNet, String> {
    let dev = Device::Cpu;
    let run = hyper.describe();
    let resumed = match checkpoint.map(std::fs::read) {
        Some(Ok(bytes)) => Some(Checkpoint::read(&bytes, inputs, hyper.hidden, &run)?),
        _ => None,
    };
    let start = match &resumed {
        Some(c) => c.net.clone(),
        None => match &hyper.init {
            Some((_, net)) if net.inputs == inputs && net.hidden == hyper.hidden => net.clone(),
            Some((_, net)) => {
                return Err(format!(
                    "the starting net has {} inputs and {} hidden units, the run {inputs} and {}",
                    net.inputs, net.hidden, hyper.hidden
                ));
            }
            None => FloatNet::random(inputs, hyper.hidden, hyper.seed, hyper.base),
        },
    };
    let model = Model::new(&start, &dev).map_err(candle)?;
    let mut optimiser = Adam::new(model.vars(), hyper.lr).map_err(candle)?;
    let mut first_epoch = 0;
    if let Some(c) = &resumed {
        first_epoch = c.epoch;
        match &c.optimiser {
            Some((steps, moments)) => {
                optimiser.restore(*steps, moments)?;
                let _ = writeln!(
                    progress,
                    "resuming after epoch {} from the checkpoint",
                    c.epoch
                );
            }
            None => {
                let _ = writeln!(
                    progress,
                    "resuming after epoch {} from a checkpoint without the optimiser's state \
                     (an older format): its moments start afresh",
                    c.epoch
                );
            }
        }
    }
    if resumed.is_none() && hyper.init.is_some() {
        let before = loss_on(&model, valid, inputs, hyper, &dev).map_err(candle)?;
        let _ = writeln!(
            progress,
            "validation loss of the starting net (--init): {before:.6}"
        );
    }
    let mut order: Vec<usize> = (0..train.len()).collect();
    let started = std::time::Instant::now();
    let last = stop_after.map_or(hyper.epochs, |n| n.min(hyper.epochs));
    for epoch in first_epoch..last {
        let fraction = epoch as f64 / hyper.epochs.max(1) as f64;
        optimiser.set_learning_rate(hyper.lr * (1.0 - 0.9 * fraction));
        order.sort_unstable();
        order.shuffle(&mut SmallRng::seed_from_u64(
            hyper.seed ^ (epoch as u64 + 1) << 20,
        ));
        let mut total = 0.0;
        for chunk in order.chunks(hyper.batch.max(1)) {
            let batch = tensors(train, chunk, inputs, hyper, &dev).map_err(candle)?;
            let out =
                candle_nn::ops::sigmoid(&model.forward(&batch).map_err(candle)?).map_err(candle)?;
            let loss = (out - &batch.target)
                .and_then(|d| d.sqr())
                .and_then(|d| d.mean_all())
                .map_err(candle)?;
            total += f64::from(loss.to_scalar::<f32>().map_err(candle)?) * chunk.len() as f64;
            optimiser.backward_step(&loss).map_err(candle)?;
        }
        let validation = loss_on(&model, valid, inputs, hyper, &dev).map_err(candle)?;
        let _ = writeln!(
            progress,
            "epoch {} of {}: training loss {:.6}, validation loss {:.6}, {:.0} s",
            epoch + 1,
            hyper.epochs,
            total / train.len().max(1) as f64,
            validation,
            started.elapsed().as_secs_f64()
        );
        if let Some(path) = checkpoint {
            let saved = Checkpoint {
                net: model.to_float(inputs, hyper.hidden).map_err(candle)?,
                epoch: epoch + 1,
                optimiser: Some((optimiser.steps(), optimiser.moments().map_err(candle)?)),
            };
            saved.write(path, &run)?;
        }
    }
    model.to_float(inputs, hyper.hidden).map_err(candle)
}

/// The validation loss of the scores themselves (what a net that matched the search would
/// reach), for comparison with the net's.
pub fn score_baseline(valid: &Positions, hyper: &Hyper) -> f64 {
    let total: f64 = (0..valid.len())
        .map(|i| {
            let guess = match (valid.scores[i], valid.proven[i]) {
                (Some(s), _) => sigmoid(s / hyper.scale),
                (None, p) => (f32::from(p) + 1.0) / 2.0,
            };
            f64::from((guess - valid.target(i, hyper.lambda, hyper.scale)).powi(2))
        })
        .sum();
    total / valid.len().max(1) as f64
}

/// The validation loss of the hand evaluation alone (where a net on `--base hand` starts).
pub fn hand_baseline(valid: &Positions, hyper: &Hyper) -> f64 {
    let total: f64 = (0..valid.len())
        .map(|i| {
            let guess = sigmoid(valid.hand_logit(i, hyper.scale));
            f64::from((guess - valid.target(i, hyper.lambda, hyper.scale)).powi(2))
        })
        .sum();
    total / valid.len().max(1) as f64
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::train::data::compact;

    fn positions(lists: &[(&[u16], &[u16])]) -> Positions {
        let mut p = Positions::default();
        for (a, b) in lists {
            p.spans
                .push((p.features.len() as u32, a.len() as u8, b.len() as u8));
            p.features.extend_from_slice(a);
            p.features.extend_from_slice(b);
            p.scores.push(Some(0.0));
            p.proven.push(0);
            p.results.push(0.5);
            p.hand.push(0.0);
        }
        p
    }

    fn hyper(base: NetBase) -> Hyper {
        Hyper {
            hidden: 4,
            epochs: 40,
            batch: 16,
            lr: 0.02,
            lambda: 0.0,
            scale: 100.0,
            seed: 5,
            base,
            init: None,
        }
    }

    #[test]
    fn a_net_trained_over_the_used_inputs_expands_to_the_same_outputs() {
        let lists: [(&[u16], &[u16]); 3] =
            [(&[3, 40, 77], &[5, 40]), (&[5], &[3, 99]), (&[], &[77])];
        let original = positions(&lists);
        let mut train = positions(&lists);
        let mut valid = positions(&[(&[99], &[3])]);
        let used = compact(&mut [&mut train, &mut valid], 120);
        assert_eq!(used, vec![3, 5, 40, 77, 99]);
        assert_eq!(valid.views(0), (&[4u16][..], &[0u16][..]));
        let small = FloatNet::random(used.len(), 8, 3, NetBase::None);
        let full = small.expand(&used, 120);
        for i in 0..original.len() {
            let (a, b) = train.views(i);
            let (x, y) = original.views(i);
            assert!((small.logit(a, b) - full.logit(x, y)).abs() < 1e-9);
        }
        assert!(full.w[..8].iter().all(|&w| w == 0.0));
    }

    #[test]
    fn a_net_read_back_from_its_file_starts_where_the_trained_one_ended() {
        let net = FloatNet::random(6, 4, 9, NetBase::None);
        let file = net.quantise("sight", "f", 100, NetBase::None).unwrap();
        let back = FloatNet::from_net(&file);
        assert_eq!((back.inputs, back.hidden), (6, 4));
        for (a, b) in net.w.iter().chain(&net.b).zip(back.w.iter().chain(&back.b)) {
            assert!((a - b).abs() <= 0.5 / 255.0 + 1e-6, "{a} vs {b}");
        }
        for (a, b) in net.wo.iter().zip(&back.wo) {
            assert!((a - b).abs() <= 0.5 / 1024.0 + 1e-6, "{a} vs {b}");
        }
        // Over the used inputs 1 and 4 only, and back onto the whole net: the same outputs,
        // and the unused inputs keep their weights.
        let used = [1u16, 4];
        let small = back.select(&used);
        assert_eq!(small.inputs, 2);
        assert_eq!(small.logit(&[0], &[1]), back.logit(&[1], &[4]));
        let mut trained = small.clone();
        trained.w.iter_mut().for_each(|w| *w += 0.25);
        let whole = trained.expand_onto(&used, &back);
        assert_eq!(whole.w[..4], back.w[..4]);
        assert_eq!(whole.w[4..8], trained.w[..4]);
        assert_eq!(whole.w[16..20], trained.w[4..8]);
        assert_eq!(whole.w[20..], back.w[20..]);
    }

    #[test]
    fn a_run_resumed_from_its_checkpoint_ends_as_the_uninterrupted_run() {
        let lists: [(&[u16], &[u16]); 4] =
            [(&[0, 2], &[1]), (&[1], &[0, 3]), (&[3], &[2]), (&[], &[0])];
        let mut data = positions(&lists.repeat(10));
        for i in 0..data.len() {
            data.results[i] = [1.0, 0.0, 0.5, 1.0][i % 4];
        }
        let hyper = Hyper {
            epochs: 6,
            ..hyper(NetBase::None)
        };
        let whole = train(&data, &data, 4, &hyper, None, None, &mut Vec::new()).unwrap();
        let path =
            std::env::temp_dir().join(format!("ludus-resume-test-{}.ckpt", std::process::id()));
        let _ = std::fs::remove_file(&path);
        let cut = train(
            &data,
            &data,
            4,
            &hyper,
            Some(&path),
            Some(2),
            &mut Vec::new(),
        )
        .unwrap();
        assert_ne!(
            cut, whole,
            "two epochs of six already gave the whole run's net"
        );
        let mut said = Vec::new();
        let resumed = train(&data, &data, 4, &hyper, Some(&path), None, &mut said).unwrap();
        let _ = std::fs::remove_file(&path);
        let said = String::from_utf8_lossy(&said);
        assert!(
            said.starts_with("resuming after epoch 2 from the checkpoint\n"),
            "{said}"
        );
        assert_eq!(said.matches("epoch ").count(), 1 + 4, "{said}");
        assert_eq!(resumed, whole);
    }

    #[test]
    fn a_net_on_the_hand_evaluation_starts_as_it_and_learns_what_it_misses() {
        // Input 0 wins, input 1 loses; the hand evaluation calls the first +100 and the
        // second +100 too (at scale 100: a logit of 1, a 73 % chance).
        let pair: [(&[u16], &[u16]); 2] = [(&[0], &[]), (&[1], &[])];
        let mut data = positions(&pair.repeat(16));
        for i in 0..data.len() {
            data.results[i] = if i % 2 == 0 { 1.0 } else { 0.0 };
            data.hand[i] = 100.0;
        }
        let hyper = hyper(NetBase::Hand);
        let dev = Device::Cpu;
        let start = FloatNet::random(2, 4, 1, NetBase::Hand);
        assert_eq!(start.logit(&[0], &[]), 0.0);
        let model = Model::new(&start, &dev).unwrap();
        let at_start = loss_on(&model, &data, 2, &hyper, &dev).unwrap();
        let hand = hand_baseline(&data, &hyper);
        let sig = sigmoid(1.0) as f64;
        assert!((hand - ((1.0 - sig).powi(2) + sig.powi(2)) / 2.0).abs() < 1e-6);
        assert!((at_start - hand).abs() < 1e-6, "{at_start} vs {hand}");
        let trained = train(&data, &data, 2, &hyper, None, None, &mut Vec::new()).unwrap();
        let model = Model::new(&trained, &dev).unwrap();
        let after = loss_on(&model, &data, 2, &hyper, &dev).unwrap();
        assert!(after < hand / 4.0, "{after} vs {hand}");
        // The correction pulls the losing input below the hand evaluation's +1.
        assert!(trained.logit(&[1], &[]) < -1.0);
    }
}
