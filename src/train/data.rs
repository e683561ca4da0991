//! Training positions: the games of `ludus datagen` files turned into the net's inputs (both
//! views, from the engine's own [`NetFeatures::net_features`]) and a target, the expected result
//! for the side to move blended from the search's score and the game's result.

use std::path::PathBuf;

use crate::datagen::check::{self, RunOf};
use crate::datagen::format::{GameResult, Recorded};
use crate::game::dynamic::RuleSet;
use crate::game::{Evaluate, NetFeatures, Player};

/// Positions ready for training, their inputs packed one after another.
#[derive(Debug, Default)]
pub struct Positions {
    /// Active inputs, the side to move's view then the other's, position after position.
    pub features: Vec<u16>,
    /// Where each position's inputs start in `features`, and how many each view has.
    pub spans: Vec<(u32, u8, u8)>,
    /// The search's score, in the game's unit, from the side to move's view (`None` for a
    /// proven result, whose sign is in `proven`).
    pub scores: Vec<Option<f32>>,
    /// A proven result for the side to move: +1 won, −1 lost, 0 none.
    pub proven: Vec<i8>,
    /// The game's result for the side to move: 1 won, 0.5 drawn, 0 lost.
    pub results: Vec<f32>,
    /// The hand-written evaluation ([`Evaluate::evaluate`]), in the game's unit, from the side
    /// to move's view: what a net with `--base hand` adds to, and a baseline to compare with.
    pub hand: Vec<f32>,
    /// Each position in the game's notation (validation positions only: the check file's).
    pub fens: Vec<String>,
}

impl Positions {
    /// Positions held.
    pub fn len(&self) -> usize {
        self.spans.len()
    }

    /// Whether there are none.
    pub fn is_empty(&self) -> bool {
        self.spans.is_empty()
    }

    /// The inputs of position `i`: the side to move's view, the other's.
    pub fn views(&self, i: usize) -> (&[u16], &[u16]) {
        let (at, a, b) = self.spans[i];
        let at = at as usize;
        let (a, b) = (usize::from(a), usize::from(b));
        (
            &self.features[at..at + a],
            &self.features[at + a..at + a + b],
        )
    }

    /// The training target of position `i`: `lambda` × the score's expected result (at
    /// `scale` units per logit; a proven result counts as certain) + (1 − `lambda`) × the
    /// game's result.
    pub fn target(&self, i: usize, lambda: f32, scale: f32) -> f32 {
        let from_score = match (self.scores[i], self.proven[i]) {
            (Some(s), _) => sigmoid(s / scale),
            (None, p) => (f32::from(p) + 1.0) / 2.0,
        };
        lambda * from_score + (1.0 - lambda) * self.results[i]
    }

    /// The hand evaluation of position `i` in logits at `scale`.
    pub fn hand_logit(&self, i: usize, scale: f32) -> f32 {
        self.hand[i] / scale
    }

    /// The scale (units per logit) under which the scores best predict the results: the one
    /// of a grid that minimises the squared error.
    pub fn fit_scale(&self) -> f32 {
        let mut best = (f32::INFINITY, 100.0);
        for step in 1..=120 {
            let scale = 10.0 * step as f32;
            let error: f32 = (0..self.len())
                .filter_map(|i| {
                    self.scores[i].map(|s| (sigmoid(s / scale) - self.results[i]).powi(2))
                })
                .sum();
            if error < best.0 {
                best = (error, scale);
            }
        }
        best.1
    }
}

/// Renumbers the inputs of `sets` to their place among the inputs that occur in them (the
/// order stays, so every list stays sorted) and returns those inputs: training then runs over
/// the inputs the data has (Sight's 7×7 data uses 490 of its 2,841), and
/// [`super::float_net::FloatNet::expand`] puts the weights back in place.
pub fn compact(sets: &mut [&mut Positions], inputs: usize) -> Vec<u16> {
    let mut seen = vec![false; inputs];
    for set in sets.iter() {
        for &f in &set.features {
            seen[usize::from(f)] = true;
        }
    }
    let used: Vec<u16> = (0..inputs).filter(|&i| seen[i]).map(|i| i as u16).collect();
    let mut place = vec![0u16; inputs];
    for (i, &f) in used.iter().enumerate() {
        place[usize::from(f)] = i as u16;
    }
    for set in sets.iter_mut() {
        for f in &mut set.features {
            *f = place[usize::from(*f)];
        }
    }
    used
}

/// The logistic function.
pub fn sigmoid(x: f32) -> f32 {
    1.0 / (1.0 + (-x).exp())
}

/// Reads the datagen `files` of game `G` (each under the rule options its identity names):
/// every position of every game, split into training
/// positions and validation positions (the games whose index is a multiple of
/// `validation_every`).
pub fn load<G: Evaluate + NetFeatures>(
    files: &[PathBuf],
    validation_every: u32,
) -> Result<(Positions, Positions), String> {
    let (mut train, mut valid) = (Positions::default(), Positions::default());
    for path in files {
        let data = check::read_checked(path, None)?;
        let run = RunOf::parse(&data.identity).map_err(|e| format!("{}: {e}", path.display()))?;
        if run.game.name() != G::NAME {
            return Err(format!(
                "{} holds {} data, not {}",
                path.display(),
                run.game.name(),
                G::NAME
            ));
        }
        // Each file is read under its own rules: one net may learn several boards or rule
        // variants (the inputs say which).
        let rules = RuleSet::new(run.game, &run.options)?;
        let settings = G::settings(rules.values());
        let mut buffer = Vec::new();
        for record in &data.games {
            let validation = record.index.is_multiple_of(validation_every.max(1));
            let into = if validation { &mut valid } else { &mut train };
            for sample in &record.samples {
                let pos = G::from_fen(&sample.fen, &settings)
                    .map_err(|e| format!("{}: game {}: {e}", path.display(), record.index))?;
                let me = pos.side_to_move();
                let at = into.features.len() as u32;
                let mut counts = [0u8; 2];
                for (k, view) in [me.index(), 1 - me.index()].into_iter().enumerate() {
                    buffer.clear();
                    pos.net_features(view, &mut buffer);
                    buffer.sort_unstable();
                    counts[k] = u8::try_from(buffer.len()).map_err(|_| "too many inputs")?;
                    into.features.extend_from_slice(&buffer);
                }
                into.spans.push((at, counts[0], counts[1]));
                let (score, proven) = match sample.score {
                    Recorded::Score(s) => (Some(f32::from(s)), 0),
                    Recorded::Mate(m) => (None, m.signum() as i8),
                };
                into.scores.push(score);
                into.proven.push(proven);
                into.hand.push(pos.evaluate() as f32);
                into.results.push(match (record.result, me) {
                    (GameResult::Draw, _) => 0.5,
                    (GameResult::P1Win, Player::One) | (GameResult::P2Win, Player::Two) => 1.0,
                    _ => 0.0,
                });
                if validation {
                    into.fens.push(sample.fen.clone());
                }
            }
        }
    }
    if train.is_empty() {
        return Err("no training positions in the files".into());
    }
    Ok((train, valid))
}
