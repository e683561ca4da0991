//! The optimiser: Adam (no weight decay), written out so that its state — the step count and
//! each weight's first and second moments — goes into the checkpoint with the weights. A run
//! resumed from a checkpoint then takes exactly the steps the uninterrupted run would have
//! taken (candle's `AdamW` keeps that state private, so a resume with it restarted the moments
//! and changed the net).

use candle_core::{Tensor, Var};

use super::candle;

/// The first moments' decay.
const BETA1: f64 = 0.9;
/// The second moments' decay.
const BETA2: f64 = 0.999;
/// Added to the root of the second moment.
const EPS: f64 = 1e-8;

/// One trained tensor and its moments.
struct Slot {
    var: Var,
    m: Var,
    v: Var,
}

/// Adam over a fixed list of variables.
pub struct Adam {
    slots: Vec<Slot>,
    steps: u64,
    lr: f64,
}

impl Adam {
    /// Adam over `vars` with learning rate `lr`, its moments at zero.
    pub fn new(vars: Vec<Var>, lr: f64) -> Result<Adam, candle_core::Error> {
        let slots = vars
            .into_iter()
            .map(|var| {
                let m = Var::zeros(var.shape(), var.dtype(), var.device())?;
                let v = Var::zeros(var.shape(), var.dtype(), var.device())?;
                Ok(Slot { var, m, v })
            })
            .collect::<Result<Vec<_>, candle_core::Error>>()?;
        Ok(Adam {
            slots,
            steps: 0,
            lr,
        })
    }

    /// Sets the learning rate of the next steps.
    pub fn set_learning_rate(&mut self, lr: f64) {
        self.lr = lr;
    }

    /// The steps taken so far.
    pub fn steps(&self) -> u64 {
        self.steps
    }

    /// Finds the gradients of `loss` and takes one step.
    pub fn backward_step(&mut self, loss: &Tensor) -> Result<(), candle_core::Error> {
        let grads = loss.backward()?;
        self.steps += 1;
        let t = i32::try_from(self.steps).unwrap_or(i32::MAX);
        let scale_m = 1.0 / (1.0 - BETA1.powi(t));
        let scale_v = 1.0 / (1.0 - BETA2.powi(t));
        for slot in &self.slots {
            let Some(g) = grads.get(&slot.var) else {
                continue;
            };
            let m = ((slot.m.as_tensor() * BETA1)? + (g * (1.0 - BETA1))?)?;
            let v = ((slot.v.as_tensor() * BETA2)? + (g.sqr()? * (1.0 - BETA2))?)?;
            let step = ((&m * scale_m)? / ((&v * scale_v)?.sqrt()? + EPS)?)?;
            slot.var.set(&(slot.var.as_tensor() - (step * self.lr)?)?)?;
            slot.m.set(&m)?;
            slot.v.set(&v)?;
        }
        Ok(())
    }

    /// The moments, flattened: every variable's first moments in order, then every
    /// variable's second moments.
    pub fn moments(&self) -> Result<Vec<f32>, candle_core::Error> {
        let mut out = Vec::new();
        for var in self
            .slots
            .iter()
            .map(|s| &s.m)
            .chain(self.slots.iter().map(|s| &s.v))
        {
            out.extend(var.as_tensor().flatten_all()?.to_vec1::<f32>()?);
        }
        Ok(out)
    }

    /// Takes up the state of an earlier run: `steps` taken and its [`Adam::moments`].
    pub fn restore(&mut self, steps: u64, moments: &[f32]) -> Result<(), String> {
        let sizes: Vec<usize> = self.slots.iter().map(|s| s.var.elem_count()).collect();
        let half: usize = sizes.iter().sum();
        if moments.len() != 2 * half {
            return Err(format!(
                "the checkpoint's optimiser state has {} numbers, the net needs {}",
                moments.len(),
                2 * half
            ));
        }
        let (first, second) = moments.split_at(half);
        let mut at = 0;
        for (slot, &n) in self.slots.iter().zip(&sizes) {
            let shape = slot.var.shape().clone();
            let dev = slot.var.device().clone();
            let set = |var: &Var, values: &[f32]| {
                Tensor::from_slice(values, shape.clone(), &dev).and_then(|t| var.set(&t))
            };
            set(&slot.m, &first[at..at + n]).map_err(candle)?;
            set(&slot.v, &second[at..at + n]).map_err(candle)?;
            at += n;
        }
        self.steps = steps;
        Ok(())
    }
}
