//! The float net: the trainer's weights, the integer net's twin in `f32` —
//! `h = clamp(x·W + b, 0, 1)` for each view, the output `[h_stm, h_other]·wo + bo`, a logit
//! of the side to move's expected result — its first weights, its output in `f64` (the
//! check file's), and its quantisation into the engine's integer net (`src/net/file.rs`).
//! The training loop ([`super::model`]) turns it into candle variables and back; the
//! checkpoint ([`super::checkpoint`]) keeps it.

use rand::rngs::SmallRng;
use rand::{RngExt, SeedableRng};

use crate::net::file::{Net, NetBase, NetHeader, QA, QB};

/// The float net: the trainer's weights.
#[derive(Clone, Debug, PartialEq)]
pub struct FloatNet {
    /// Inputs.
    pub inputs: usize,
    /// Hidden units per view.
    pub hidden: usize,
    /// `inputs × hidden`, input by input.
    pub w: Vec<f32>,
    /// `hidden`.
    pub b: Vec<f32>,
    /// `2 × hidden`: the side to move's half, then the other's.
    pub wo: Vec<f32>,
    /// The output bias.
    pub bo: f32,
}

impl FloatNet {
    /// Small random weights from `seed`; with `base` hand the output weights start at zero,
    /// so that the net starts out as exactly the hand evaluation.
    pub fn random(inputs: usize, hidden: usize, seed: u64, base: NetBase) -> FloatNet {
        let mut rng = SmallRng::seed_from_u64(seed);
        let mut uniform =
            |n: usize, r: f32| -> Vec<f32> { (0..n).map(|_| rng.random_range(-r..r)).collect() };
        FloatNet {
            inputs,
            hidden,
            w: uniform(inputs * hidden, 0.1),
            b: uniform(hidden, 0.1).iter().map(|x| x + 0.25).collect(),
            wo: match base {
                NetBase::None => uniform(2 * hidden, 1.0 / (hidden as f32).sqrt()),
                NetBase::Hand => vec![0.0; 2 * hidden],
            },
            bo: 0.0,
        }
    }

    /// The float twin of an integer net (its weights divided by their quantisation factors):
    /// where a warm-started training run (`ludus train --init`) begins.
    pub fn from_net(net: &Net) -> FloatNet {
        let qa = QA as f32;
        let qb = QB as f32;
        FloatNet {
            inputs: net.header.inputs,
            hidden: net.header.hidden,
            w: net
                .input_weights
                .iter()
                .map(|&x| f32::from(x) / qa)
                .collect(),
            b: net.hidden_bias.iter().map(|&x| f32::from(x) / qa).collect(),
            wo: net
                .output_weights
                .iter()
                .map(|&x| f32::from(x) / qb)
                .collect(),
            bo: net.output_bias as f32 / (qa * qb),
        }
    }

    /// The net over the inputs `used` only (see [`super::data::compact`]), input `used[i]`
    /// becoming input `i`: what [`FloatNet::expand`] undoes.
    pub fn select(&self, used: &[u16]) -> FloatNet {
        let h = self.hidden;
        let mut w = Vec::with_capacity(used.len() * h);
        for &f in used {
            w.extend_from_slice(&self.w[usize::from(f) * h..][..h]);
        }
        FloatNet {
            inputs: used.len(),
            w,
            ..self.clone()
        }
    }

    /// The net over all of `onto`'s inputs of a net trained over the inputs `used`: those
    /// take this net's weights, the others keep `onto`'s (a warm start's net keeps what it
    /// knew of inputs the new data never had, another Sight board size for one).
    pub fn expand_onto(&self, used: &[u16], onto: &FloatNet) -> FloatNet {
        let h = self.hidden;
        let mut w = onto.w.clone();
        for (i, &f) in used.iter().enumerate() {
            w[usize::from(f) * h..][..h].copy_from_slice(&self.w[i * h..][..h]);
        }
        FloatNet {
            inputs: onto.inputs,
            w,
            ..self.clone()
        }
    }

    /// The net over all `inputs` of a net trained over the inputs `used` (see
    /// [`super::data::compact`]): the inputs the data never had get zero weights.
    pub fn expand(&self, used: &[u16], inputs: usize) -> FloatNet {
        let h = self.hidden;
        let mut w = vec![0.0; inputs * h];
        for (i, &f) in used.iter().enumerate() {
            w[usize::from(f) * h..][..h].copy_from_slice(&self.w[i * h..][..h]);
        }
        FloatNet {
            inputs,
            w,
            ..self.clone()
        }
    }

    /// The output (a logit) for a position's two views, in f64.
    pub fn logit(&self, stm: &[u16], other: &[u16]) -> f64 {
        let h = self.hidden;
        let mut out = f64::from(self.bo);
        for (half, view) in [stm, other].into_iter().enumerate() {
            let mut sums: Vec<f64> = self.b.iter().map(|&b| f64::from(b)).collect();
            for &f in view {
                let w = &self.w[usize::from(f) * h..][..h];
                for (s, &w) in sums.iter_mut().zip(w) {
                    *s += f64::from(w);
                }
            }
            for (s, &w) in sums.iter().zip(&self.wo[half * h..][..h]) {
                out += s.clamp(0.0, 1.0) * f64::from(w);
            }
        }
        out
    }

    /// The integer net of these weights, for `game` and its feature set.
    pub fn quantise(
        &self,
        game: &str,
        features: &str,
        scale: i32,
        base: NetBase,
    ) -> Result<Net, String> {
        let q = |x: f32, by: i32| -> Result<i16, String> {
            let v = (x * by as f32).round();
            if v.abs() > f32::from(i16::MAX) {
                return Err(format!("a weight of {x} does not fit the net's 16 bits"));
            }
            Ok(v as i16)
        };
        Ok(Net {
            header: NetHeader {
                game: game.to_string(),
                features: features.to_string(),
                inputs: self.inputs,
                hidden: self.hidden,
                scale,
                base,
            },
            input_weights: self.w.iter().map(|&x| q(x, QA)).collect::<Result<_, _>>()?,
            hidden_bias: self.b.iter().map(|&x| q(x, QA)).collect::<Result<_, _>>()?,
            output_weights: self
                .wo
                .iter()
                .map(|&x| q(x, QB))
                .collect::<Result<_, _>>()?,
            output_bias: (self.bo * (QA * QB) as f32).round() as i32,
        })
    }
}
