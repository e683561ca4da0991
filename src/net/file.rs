//! The net file: a learned evaluation's quantised weights, with a header that says which game
//! and which input features it was trained for, so that a net of another game, another
//! feature set or a damaged file is refused before it can evaluate anything.
//!
//! Layout (all integers little-endian):
//!
//! ```text
//! file     = magic "LUDUSNN1" (8 bytes), u16 n, n bytes of UTF-8 header, weights, u64 check
//! header   = "game=G features=F inputs=I hidden=H scale=K" (space-separated, this order),
//!            then optionally " base=hand": the net adds to the hand-written evaluation
//! weights  = i16 × I·H   input weights, input by input (H per input)
//!            i16 × H     hidden biases
//!            i16 × 2·H   output weights: H for the side to move's half, then H for the other's
//!            i32         output bias
//! check    = FNV-1a (64 bit) of every byte before it
//! ```
//!
//! Quantisation ([`QA`], [`QB`]): the trainer's float input weights and hidden biases are
//! multiplied by `QA` and rounded, its output weights by `QB`, its output bias by `QA·QB`. A
//! hidden unit is clipped to `0..=QA` (the float net's `0..=1`), so the integer output is the
//! float output times `QA·QB`, and the evaluation is that times `scale / (QA·QB)` — plus the
//! game's hand-written evaluation for a net with `base=hand` ([`NetBase::Hand`]), which learned
//! only what that evaluation misses.

use std::fmt;

use crate::files::fnv1a64;

/// The first bytes of a net file.
pub const MAGIC: &[u8; 8] = b"LUDUSNN1";
/// The scale of input weights, hidden biases and hidden activations.
pub const QA: i32 = 255;
/// The scale of output weights.
pub const QB: i32 = 1024;
/// The largest hidden layer a file may ask for.
pub const MAX_HIDDEN: usize = 1024;
/// The most inputs a file may ask for.
pub const MAX_INPUTS: usize = 1 << 16;

/// What a net's output is added to.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub enum NetBase {
    /// Nothing: the net is the whole evaluation.
    #[default]
    None,
    /// The game's hand-written evaluation ([`crate::game::Evaluate::evaluate`]): the net is a
    /// correction to it, trained on top of it (`ludus train --base hand`).
    Hand,
}

impl NetBase {
    /// The header's word for it.
    pub fn name(self) -> &'static str {
        match self {
            NetBase::None => "none",
            NetBase::Hand => "hand",
        }
    }

    /// Reads the header's word.
    pub fn from_name(name: &str) -> Option<NetBase> {
        match name {
            "none" => Some(NetBase::None),
            "hand" => Some(NetBase::Hand),
            _ => None,
        }
    }
}

/// A net's header: what it was trained for.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct NetHeader {
    /// The game's name (`tactigon`, …).
    pub game: String,
    /// The input feature set's name and version (`NetFeatures::NET_FEATURES`).
    pub features: String,
    /// Number of inputs.
    pub inputs: usize,
    /// Hidden units per perspective.
    pub hidden: usize,
    /// Evaluation units per unit of the float output (the output is a logit of the result).
    pub scale: i32,
    /// What the output is added to (`base=hand` in the header; absent for none).
    pub base: NetBase,
}

impl fmt::Display for NetHeader {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(
            f,
            "game={} features={} inputs={} hidden={} scale={}",
            self.game, self.features, self.inputs, self.hidden, self.scale
        )?;
        match self.base {
            NetBase::None => Ok(()),
            base => write!(f, " base={}", base.name()),
        }
    }
}

impl NetHeader {
    fn parse(text: &str) -> Result<NetHeader, String> {
        let mut words: Vec<&str> = text.split(' ').collect();
        let keys = ["game", "features", "inputs", "hidden", "scale"];
        let base = match words.len() {
            6 => {
                let word = words.pop().unwrap_or_default();
                word.strip_prefix("base=")
                    .and_then(NetBase::from_name)
                    .ok_or_else(|| {
                        format!(
                            "header {text:?}: expected base=hand or base=none where {word:?} is"
                        )
                    })?
            }
            _ => NetBase::None,
        };
        if words.len() != keys.len() {
            return Err(format!(
                "header {text:?}: expected {}= [base=…]",
                keys.join("= ")
            ));
        }
        let mut values = Vec::new();
        for (word, key) in words.iter().zip(keys) {
            match word.split_once('=') {
                Some((k, v)) if k == key && !v.is_empty() => values.push(v),
                _ => {
                    return Err(format!(
                        "header {text:?}: expected {key}=… where {word:?} is"
                    ));
                }
            }
        }
        let number = |i: usize| {
            values[i]
                .parse::<usize>()
                .map_err(|_| format!("header: {}={} is not a number", keys[i], values[i]))
        };
        let header = NetHeader {
            game: values[0].to_string(),
            features: values[1].to_string(),
            inputs: number(2)?,
            hidden: number(3)?,
            scale: i32::try_from(number(4)?).map_err(|_| "header: scale too large".to_string())?,
            base,
        };
        if header.inputs == 0 || header.inputs > MAX_INPUTS {
            return Err(format!(
                "header: {} inputs (1 to {MAX_INPUTS})",
                header.inputs
            ));
        }
        if header.hidden == 0 || header.hidden > MAX_HIDDEN {
            return Err(format!(
                "header: {} hidden units (1 to {MAX_HIDDEN})",
                header.hidden
            ));
        }
        if header.scale == 0 {
            return Err("header: scale 0".into());
        }
        Ok(header)
    }
}

/// A quantised net as read from a file.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Net {
    /// What it was trained for.
    pub header: NetHeader,
    /// `inputs × hidden` input weights, input by input.
    pub input_weights: Vec<i16>,
    /// `hidden` biases.
    pub hidden_bias: Vec<i16>,
    /// `2 × hidden` output weights (side to move's half first).
    pub output_weights: Vec<i16>,
    /// The output bias (scale `QA·QB`).
    pub output_bias: i32,
}

impl Net {
    /// Reads a net file, checking its magic, header, length and checksum.
    pub fn from_bytes(bytes: &[u8]) -> Result<Net, String> {
        if bytes.len() < MAGIC.len() + 2 + 8 || &bytes[..MAGIC.len()] != MAGIC {
            return Err("not a ludus net file (it does not start with LUDUSNN1)".into());
        }
        let (body, check) = bytes.split_at(bytes.len() - 8);
        let stored = u64::from_le_bytes(check.try_into().map_err(|_| "short file")?);
        if fnv1a64(body) != stored {
            return Err("the net file is damaged (its checksum does not match)".into());
        }
        let n = usize::from(u16::from_le_bytes([body[8], body[9]]));
        let text = body
            .get(10..10 + n)
            .ok_or("the net file is cut short inside its header")?;
        let text = std::str::from_utf8(text).map_err(|_| "the net header is not UTF-8")?;
        let header = NetHeader::parse(text)?;
        let (i, h) = (header.inputs, header.hidden);
        let words = i * h + h + 2 * h;
        let expected = 10 + n + 2 * words + 4;
        if body.len() != expected {
            return Err(format!(
                "the net file has {} bytes of weights where its header ({header}) needs {}",
                body.len().saturating_sub(10 + n),
                expected - 10 - n
            ));
        }
        let mut at = 10 + n;
        let mut take = |count: usize| -> Vec<i16> {
            let v = body[at..at + 2 * count]
                .chunks_exact(2)
                .map(|c| i16::from_le_bytes([c[0], c[1]]))
                .collect();
            at += 2 * count;
            v
        };
        let input_weights = take(i * h);
        let hidden_bias = take(h);
        let output_weights = take(2 * h);
        let output_bias = i32::from_le_bytes([body[at], body[at + 1], body[at + 2], body[at + 3]]);
        Ok(Net {
            header,
            input_weights,
            hidden_bias,
            output_weights,
            output_bias,
        })
    }

    /// The file's bytes (what [`Net::from_bytes`] reads back).
    pub fn to_bytes(&self) -> Vec<u8> {
        let text = self.header.to_string();
        let mut out = MAGIC.to_vec();
        out.extend_from_slice(&(text.len() as u16).to_le_bytes());
        out.extend_from_slice(text.as_bytes());
        for w in self
            .input_weights
            .iter()
            .chain(&self.hidden_bias)
            .chain(&self.output_weights)
        {
            out.extend_from_slice(&w.to_le_bytes());
        }
        out.extend_from_slice(&self.output_bias.to_le_bytes());
        let check = fnv1a64(&out);
        out.extend_from_slice(&check.to_le_bytes());
        out
    }

    /// Checks that the net was trained for `game` with the feature set `features` of
    /// `inputs` inputs.
    pub fn check_fits(&self, game: &str, features: &str, inputs: usize) -> Result<(), String> {
        let h = &self.header;
        if h.game != game {
            return Err(format!("the net is for {}, not {game}", h.game));
        }
        if h.features != features || h.inputs != inputs {
            return Err(format!(
                "the net's inputs are {} ({}), the engine's are {features} ({inputs})",
                h.features, h.inputs
            ));
        }
        Ok(())
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn small() -> Net {
        Net {
            header: NetHeader {
                game: "sight".into(),
                features: "test-v1".into(),
                inputs: 3,
                hidden: 2,
                scale: 100,
                base: NetBase::None,
            },
            input_weights: vec![1, -2, 3, -4, 5, -6],
            hidden_bias: vec![7, -8],
            output_weights: vec![9, -10, 11, -12],
            output_bias: -13,
        }
    }

    #[test]
    fn a_net_reads_back_what_it_wrote() {
        let net = small();
        let bytes = net.to_bytes();
        assert_eq!(Net::from_bytes(&bytes), Ok(net));
    }

    #[test]
    fn damage_cuts_and_foreign_files_are_refused() {
        let bytes = small().to_bytes();
        let mut flipped = bytes.clone();
        flipped[20] ^= 1;
        assert!(Net::from_bytes(&flipped).unwrap_err().contains("damaged"));
        assert!(Net::from_bytes(&bytes[..bytes.len() - 3]).is_err());
        assert!(
            Net::from_bytes(b"LUDUSDG1 something else")
                .unwrap_err()
                .contains("LUDUSNN1")
        );
        let net = small();
        assert!(
            net.check_fits("tactigon", "test-v1", 3)
                .unwrap_err()
                .contains("for sight")
        );
        assert!(
            net.check_fits("sight", "test-v2", 3)
                .unwrap_err()
                .contains("inputs")
        );
        assert_eq!(net.check_fits("sight", "test-v1", 3), Ok(()));
    }

    #[test]
    fn a_net_on_the_hand_evaluation_says_so_in_its_header() {
        let mut net = small();
        net.header.base = NetBase::Hand;
        let bytes = net.to_bytes();
        let text = net.header.to_string();
        assert_eq!(
            text,
            "game=sight features=test-v1 inputs=3 hidden=2 scale=100 base=hand"
        );
        assert_eq!(Net::from_bytes(&bytes), Ok(net));
        // Without the word the header is exactly what it was before bases existed.
        assert_eq!(
            small().header.to_string(),
            "game=sight features=test-v1 inputs=3 hidden=2 scale=100"
        );
        let odd = NetHeader::parse("game=sight features=f inputs=3 hidden=2 scale=100 base=net");
        assert!(odd.unwrap_err().contains("base=hand"));
        let long = NetHeader::parse("game=sight features=f inputs=3 hidden=2 scale=100 a=1 b=2");
        assert!(long.is_err());
    }

    #[test]
    fn a_header_with_a_wrong_size_is_refused() {
        let mut net = small();
        net.header.hidden = 3;
        let bytes = net.to_bytes();
        let err = Net::from_bytes(&bytes).unwrap_err();
        assert!(err.contains("needs"), "{err}");
    }
}
