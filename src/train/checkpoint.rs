//! The training checkpoint, written after every epoch: the float weights and the optimiser's
//! state, so that the same command after an interruption goes on exactly where the run was.
//!
//! ```text
//! line      = "ludus-train-checkpoint epoch=E inputs=I hidden=H steps=S " settings "\n"
//! weights   = f32 × (I·H + H + 2·H + 1)   input weights, hidden biases, output weights, bias
//! moments   = f32 × 2 × the same count     Adam's first moments, then its second moments
//! ```
//!
//! All numbers little-endian. `settings` is the run's [`super::model::Hyper`] in words; a run
//! with other settings refuses the checkpoint. Checkpoints written before the optimiser's state
//! was kept have no `steps=` and no moments: they resume with fresh moments.

use std::path::Path;

use super::float_net::FloatNet;

/// What a checkpoint holds.
#[derive(Clone, Debug, PartialEq)]
pub struct Checkpoint {
    /// The weights after `epoch` epochs.
    pub net: FloatNet,
    /// Epochs done.
    pub epoch: usize,
    /// The optimiser's steps taken and moments ([`super::adam::Adam::moments`]), when kept.
    pub optimiser: Option<(u64, Vec<f32>)>,
}

/// The float weights of `net` in file order.
fn weights(net: &FloatNet) -> impl Iterator<Item = &f32> {
    net.w.iter().chain(&net.b).chain(&net.wo).chain([&net.bo])
}

impl Checkpoint {
    /// The checkpoint's bytes, for a run with the settings `run`.
    pub fn to_bytes(&self, run: &str) -> Vec<u8> {
        let net = &self.net;
        let steps = match &self.optimiser {
            Some((steps, _)) => format!(" steps={steps}"),
            None => String::new(),
        };
        let mut out = format!(
            "ludus-train-checkpoint epoch={} inputs={} hidden={}{steps} {run}\n",
            self.epoch, net.inputs, net.hidden
        )
        .into_bytes();
        let moments = self.optimiser.iter().flat_map(|(_, m)| m);
        for x in weights(net).chain(moments) {
            out.extend_from_slice(&x.to_le_bytes());
        }
        out
    }

    /// Writes the checkpoint to `path` (through a temporary file, so that a kill leaves the
    /// last whole one).
    pub fn write(&self, path: &Path, run: &str) -> Result<(), String> {
        let tmp = path.with_extension("tmp");
        std::fs::write(&tmp, self.to_bytes(run))
            .and_then(|()| std::fs::rename(&tmp, path))
            .map_err(|e| format!("{}: {e}", path.display()))
    }

    /// Reads a checkpoint of a net of `inputs` and `hidden` written by a run with the
    /// settings `run`.
    pub fn read(
        bytes: &[u8],
        inputs: usize,
        hidden: usize,
        run: &str,
    ) -> Result<Checkpoint, String> {
        let end = bytes
            .iter()
            .position(|&b| b == b'\n')
            .ok_or("not a checkpoint")?;
        let line = std::str::from_utf8(&bytes[..end]).map_err(|_| "not a checkpoint")?;
        let words: Vec<&str> = line.split(' ').collect();
        let field = |key: &str| -> Option<u64> {
            words
                .iter()
                .find_map(|w| w.strip_prefix(key)?.strip_prefix('=')?.parse().ok())
        };
        let as_u64 = |n: usize| Some(n as u64);
        if words.first() != Some(&"ludus-train-checkpoint")
            || field("inputs") != as_u64(inputs)
            || field("hidden") != as_u64(hidden)
        {
            return Err(format!(
                "the checkpoint ({line}) is not of this net ({inputs} inputs, {hidden} hidden)"
            ));
        }
        let steps = words
            .get(4)
            .and_then(|w| w.strip_prefix("steps="))
            .map(|s| {
                s.parse::<u64>()
                    .map_err(|_| "the checkpoint's steps= is not a number")
            })
            .transpose()?;
        let first_setting = if steps.is_some() { 5 } else { 4 };
        let settings = words
            .get(first_setting..)
            .map(|w| w.join(" "))
            .unwrap_or_default();
        if settings != run {
            return Err(format!(
                "the checkpoint was written by a run with other settings ({settings}; this run \
                 has {run}): rerun with those settings to resume it, or delete it to start afresh"
            ));
        }
        let epoch = field("epoch").ok_or("the checkpoint has no epoch")? as usize;
        let body = &bytes[end + 1..];
        let floats: Vec<f32> = body
            .chunks_exact(4)
            .map(|c| f32::from_le_bytes([c[0], c[1], c[2], c[3]]))
            .collect();
        let n = inputs * hidden;
        let count = n + 3 * hidden + 1;
        let expected = if steps.is_some() { 3 * count } else { count };
        if floats.len() != expected || !body.len().is_multiple_of(4) {
            return Err("the checkpoint is cut short or too long".into());
        }
        Ok(Checkpoint {
            net: FloatNet {
                inputs,
                hidden,
                w: floats[..n].to_vec(),
                b: floats[n..n + hidden].to_vec(),
                wo: floats[n + hidden..n + 3 * hidden].to_vec(),
                bo: floats[n + 3 * hidden],
            },
            epoch,
            optimiser: steps.map(|s| (s, floats[count..].to_vec())),
        })
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::net::NetBase;

    const RUN: &str = "epochs=40 batch=16 lr=0.02 lambda=0 scale=100 seed=5 base=none";

    #[test]
    fn a_checkpoint_reads_back_and_another_nets_or_another_runs_is_refused() {
        let net = FloatNet::random(10, 4, 9, NetBase::None);
        let moments: Vec<f32> = (0..2 * (40 + 12 + 1)).map(|i| i as f32 / 7.0).collect();
        let saved = Checkpoint {
            net,
            epoch: 7,
            optimiser: Some((123, moments)),
        };
        let bytes = saved.to_bytes(RUN);
        assert_eq!(Checkpoint::read(&bytes, 10, 4, RUN), Ok(saved.clone()));
        assert!(Checkpoint::read(&bytes, 11, 4, RUN).is_err());
        assert!(Checkpoint::read(&bytes[..bytes.len() - 4], 10, 4, RUN).is_err());
        assert!(Checkpoint::read(&bytes[..bytes.len() - 2], 10, 4, RUN).is_err());
        let other = RUN.replace("epochs=40", "epochs=3");
        let err = Checkpoint::read(&bytes, 10, 4, &other).unwrap_err();
        assert!(
            err.contains("epochs=40") && err.contains("epochs=3"),
            "{err}"
        );
        let on_hand = RUN.replace("base=none", "base=hand");
        assert!(Checkpoint::read(&bytes, 10, 4, &on_hand).is_err());
    }

    #[test]
    fn an_older_checkpoint_without_the_optimiser_reads_with_fresh_moments() {
        let net = FloatNet::random(10, 4, 9, NetBase::None);
        let old = Checkpoint {
            net,
            epoch: 2,
            optimiser: None,
        };
        let bytes = old.to_bytes(RUN);
        let line =
            String::from_utf8_lossy(&bytes[..bytes.iter().position(|&b| b == b'\n').unwrap()])
                .into_owned();
        assert_eq!(
            line,
            format!("ludus-train-checkpoint epoch=2 inputs=10 hidden=4 {RUN}")
        );
        assert_eq!(Checkpoint::read(&bytes, 10, 4, RUN), Ok(old));
    }
}
