//! Learned evaluations: small nets trained on self-play (`ludus datagen`, `ludus train`,
//! docs/training.md), evaluated in integer arithmetic.
//!
//! A net sees a position through the game's input features ([`NetFeatures::net_features`]) from
//! each player's view: one hidden layer of `H` clipped-ReLU units per view, the same weights
//! for both views (each game's features are written relative to the viewer), then one output
//! over the side to move's `H` units and the other side's `H`. The output is a logit of the
//! result, turned into the game's evaluation unit by the net's `scale`. A net with
//! `base=hand` ([`NetBase::Hand`]) was trained as a correction to the hand-written evaluation:
//! its output is added to [`Evaluate::evaluate`].
//!
//! The hidden sums (the accumulators) are kept incrementally: a [`NetEvaluator`] remembers,
//! ply by ply, the features and sums of the last position it evaluated there, and evaluates a
//! new position by adding and removing the features that differ from the nearest of those (a
//! sibling at the same ply, or the parent one ply up). A move changes a few features; the
//! evaluator falls back to summing from scratch when more differ than are active. A search
//! that evaluates every move of one position (MCTS's expansion) does better still: it gives the
//! evaluator the position once ([`NetEvaluator::set_parent`]), and each move's position is its
//! sums updated by the inputs the game says the move changes
//! ([`NetFeatures::net_feature_delta`]), no input list made ([`NetEvaluator::evaluate_child`]).

pub mod embedded;
pub mod file;
mod kernels;
mod narrow;

use std::marker::PhantomData;
use std::sync::Arc;

use crate::game::{Evaluate, NetFeatures};
pub use file::{MAGIC, Net, NetBase, NetHeader, QA, QB};
use kernels::Sum;

/// Evaluations are clipped to this, far from the search's proven-result scores.
pub const EVAL_LIMIT: i32 = 20_000;

/// The features and hidden sums of one position.
#[derive(Clone, Debug, Default)]
struct Slot {
    valid: bool,
    /// Active inputs from player one's and player two's view, in the game's order.
    features: [Vec<u16>; 2],
    /// The same inputs as bit sets (bit `i % 64` of word `i / 64`): two positions' differing
    /// inputs are the set bits of their words' exclusive or.
    bits: [Vec<u64>; 2],
    /// Hidden sums (biases included) from each view.
    sums: [Vec<i32>; 2],
}

/// A net checked against game `G`'s features, ready to evaluate its positions.
#[derive(Debug)]
pub struct GameNet<G> {
    net: Arc<Net>,
    /// Every position's hidden sums lie within `i16` (see [`narrow::sums_fit_i16`]).
    narrow: bool,
    _game: PhantomData<fn() -> G>,
}

impl<G> Clone for GameNet<G> {
    fn clone(&self) -> Self {
        GameNet {
            net: Arc::clone(&self.net),
            narrow: self.narrow,
            _game: PhantomData,
        }
    }
}

impl<G: Evaluate + NetFeatures> GameNet<G> {
    /// `net` if it was trained for `G` and its feature set.
    pub fn new(net: Arc<Net>) -> Result<GameNet<G>, String> {
        net.check_fits(G::NAME, G::NET_FEATURES, G::NET_INPUTS)?;
        Ok(GameNet {
            narrow: narrow::sums_fit_i16_cached(&net, G::NET_MAX_ACTIVE),
            net,
            _game: PhantomData,
        })
    }

    /// The net in the file at `path`, checked against `G`: only a regular file of at most
    /// 64 MiB is read ([`crate::files::read_regular`]); a FIFO or a device is refused at once.
    pub fn from_file(path: &std::path::Path) -> Result<GameNet<G>, String> {
        const MAX_NET_FILE_BYTES: u64 = 64 << 20;
        let bytes =
            crate::files::read_regular(path, MAX_NET_FILE_BYTES).map_err(|e| e.to_string())?;
        GameNet::new(Arc::new(Net::from_bytes(&bytes)?))
    }

    /// The net, shared.
    pub fn net_arc(&self) -> Arc<Net> {
        Arc::clone(&self.net)
    }

    /// The net's header.
    pub fn header(&self) -> &NetHeader {
        &self.net.header
    }

    /// Whether the net learned anything of `pos`'s variant: some input weight of
    /// [`NetFeatures::net_inputs_in_play`] is not zero. A net trained without any position of a
    /// variant (a Sight board size its data never had) gives every position of it the same
    /// value, so the hand evaluation is used there instead.
    pub fn knows(&self, pos: &G) -> bool {
        let h = self.net.header.hidden;
        let range = pos.net_inputs_in_play();
        let (start, end) = (
            range.start * h,
            (range.end * h).min(self.net.input_weights.len()),
        );
        start < end && self.net.input_weights[start..end].iter().any(|&w| w != 0)
    }

    /// The net's evaluation of `pos`, from the side to move's view, summed from scratch.
    pub fn evaluate(&self, pos: &G) -> i32 {
        let mut slot = Slot::default();
        self.refresh(pos, &mut slot);
        self.output(pos, &slot)
    }

    /// The float net's output (a logit) the integer output stands for: what the trainer's
    /// net gives, up to the quantisation error (with the hand evaluation, in logits, added
    /// for a net on that base).
    pub fn logit(&self, pos: &G) -> f64 {
        let mut slot = Slot::default();
        self.refresh(pos, &mut slot);
        let base = f64::from(self.base(pos)) / f64::from(self.net.header.scale);
        self.raw_output(pos, &slot) as f64 / f64::from(QA * QB) + base
    }

    /// What the net's output is added to, in evaluation units.
    fn base(&self, pos: &G) -> i32 {
        match self.net.header.base {
            NetBase::None => 0,
            NetBase::Hand => pos.evaluate(),
        }
    }

    fn features(pos: &G, slot: &mut Slot) {
        let words = G::NET_INPUTS.div_ceil(64);
        for (view, (list, bits)) in slot.features.iter_mut().zip(&mut slot.bits).enumerate() {
            list.clear();
            pos.net_features(view, list);
            bits.clear();
            bits.resize(words, 0);
            for &f in list.iter() {
                bits[usize::from(f) / 64] |= 1 << (f % 64);
            }
            debug_assert_eq!(
                bits.iter().map(|w| w.count_ones() as usize).sum::<usize>(),
                list.len(),
                "a game's net inputs are distinct"
            );
            // The `i16` sums rely on it (`narrow::sums_fit_i16`).
            debug_assert!(
                list.len() <= G::NET_MAX_ACTIVE,
                "{} inputs set, more than the game's NET_MAX_ACTIVE",
                list.len()
            );
        }
    }

    fn refresh(&self, pos: &G, slot: &mut Slot) {
        Self::features(pos, slot);
        for view in 0..2 {
            let sums = &mut slot.sums[view];
            sums.clear();
            sums.extend(self.net.hidden_bias.iter().map(|&b| i32::from(b)));
            kernels::move_sums_in_place(sums, &self.net.input_weights, &slot.features[view], &[]);
        }
        slot.valid = true;
    }

    fn raw_output(&self, pos: &G, slot: &Slot) -> i64 {
        self.raw_output_of(pos, |view, weights| {
            kernels::clipped_dot(&slot.sums[view], weights, QA)
        })
    }

    /// The integer output of `pos` given `dot`, the clipped dot product of a view's hidden
    /// sums (0: player one's, 1: player two's) and an output half's weights.
    fn raw_output_of(&self, pos: &G, dot: impl Fn(usize, &[i16]) -> i64) -> i64 {
        let h = self.net.header.hidden;
        let me = pos.side_to_move().index();
        let mut sum = i64::from(self.net.output_bias);
        for (half, view) in [me, 1 - me].into_iter().enumerate() {
            sum += dot(view, &self.net.output_weights[half * h..][..h]);
        }
        sum
    }

    /// The integer output of `pos` from the hidden sums `from` moved into `to` by the inputs
    /// `changes` adds and removes, each view's ([`kernels::moved_sums`] in `i32` or `i16`).
    fn moved_output<L: Sum>(
        &self,
        pos: &G,
        from: &[Vec<L>; 2],
        to: &mut [Vec<L>; 2],
        (added, removed): (&[Vec<u16>; 2], &[Vec<u16>; 2]),
    ) -> i64 {
        for view in 0..2 {
            to[view].resize(from[view].len(), L::default());
            let weights = &self.net.input_weights;
            kernels::moved_sums(
                &mut to[view],
                &from[view],
                weights,
                &added[view],
                &removed[view],
            );
        }
        self.raw_output_of(pos, |view, out| kernels::clipped_dot(&to[view], out, QA))
    }

    /// The evaluation of `pos` from its hidden sums in `slot`.
    fn output(&self, pos: &G, slot: &Slot) -> i32 {
        self.scaled(self.raw_output(pos, slot), self.base(pos))
    }

    /// The evaluation of integer output `raw` added to `base`, what the net's output is added
    /// to ([`GameNet::base`] of the position), clipped to [`EVAL_LIMIT`].
    fn scaled(&self, raw: i64, base: i32) -> i32 {
        let scaled = raw * i64::from(self.net.header.scale);
        let unit = i64::from(QA * QB);
        let rounded = (scaled + scaled.signum() * unit / 2) / unit + i64::from(base);
        rounded.clamp(-i64::from(EVAL_LIMIT), i64::from(EVAL_LIMIT)) as i32
    }
}

/// One search thread's evaluator: the net, or the game's hand-written evaluation.
#[derive(Debug)]
pub struct NetEvaluator<G: Evaluate> {
    net: GameNet<G>,
    slots: Vec<Slot>,
    next: Slot,
    /// The position whose moves [`NetEvaluator::evaluate_child`] evaluates: its hidden sums,
    /// and its hash to check it is the one.
    parent: Slot,
    parent_hash: u64,
    /// The parent's hidden sums in `i16`, and a child's, where the net's sums fit
    /// ([`narrow::sums_fit_i16`]).
    parent_narrow: [Vec<i16>; 2],
    child_narrow: [Vec<i16>; 2],
    /// A child's hidden sums where they may not fit.
    child_wide: [Vec<i32>; 2],
    /// What the hand evaluation of the parent's moves needs ([`Evaluate::prepare_children`]).
    prepared: G::Prepared,
    /// Scratch: the inputs a move adds and removes, each view's.
    added: [Vec<u16>; 2],
    removed: [Vec<u16>; 2],
}

/// Counts the inputs set in one of two bit sets but not the other.
fn difference(a: &[u64], b: &[u64]) -> usize {
    a.iter()
        .zip(b)
        .map(|(x, y)| (x ^ y).count_ones() as usize)
        .sum()
}

impl<G: Evaluate + NetFeatures> NetEvaluator<G> {
    /// An evaluator with nothing remembered yet.
    pub fn new(net: GameNet<G>) -> NetEvaluator<G> {
        NetEvaluator {
            net,
            slots: Vec::new(),
            next: Slot::default(),
            parent: Slot::default(),
            parent_hash: 0,
            parent_narrow: Default::default(),
            child_narrow: Default::default(),
            child_wide: Default::default(),
            prepared: G::Prepared::default(),
            added: Default::default(),
            removed: Default::default(),
        }
    }

    /// Sums `parent`'s hidden layer from scratch, for [`NetEvaluator::evaluate_child`] of its
    /// moves.
    pub fn set_parent(&mut self, parent: &G) {
        self.net.refresh(parent, &mut self.parent);
        self.parent_hash = parent.hash();
        if self.net.narrow {
            for (narrow, sums) in self.parent_narrow.iter_mut().zip(&self.parent.sums) {
                narrow.clear();
                // Exact: the sums fit.
                narrow.extend(sums.iter().map(|&s| s as i16));
            }
        }
        if self.net.net.header.base == NetBase::Hand {
            parent.prepare_children(&mut self.prepared);
        }
    }

    /// The evaluation of `child`, the position after `mv` in `parent` (the position last given
    /// to [`NetEvaluator::set_parent`]), found `ply` plies below the root, from the side to
    /// move's view: the same as [`GameNet::evaluate`], the hidden sums updated from the
    /// parent's by the inputs `mv` changes ([`NetFeatures::net_feature_delta`]); where the game
    /// does not tell them, [`NetEvaluator::evaluate`].
    pub fn evaluate_child(&mut self, parent: &G, mv: G::Move, child: &G, ply: usize) -> i32 {
        debug_assert!(
            !self.parent.valid || self.parent_hash == parent.hash(),
            "evaluate_child of a parent set_parent was not given"
        );
        if !self.parent.valid || self.parent_hash != parent.hash() {
            return self.evaluate(child, ply);
        }
        for view in 0..2 {
            let (added, removed) = (&mut self.added[view], &mut self.removed[view]);
            added.clear();
            removed.clear();
            if !parent.net_feature_delta(mv, view, added, removed) {
                return self.evaluate(child, ply);
            }
        }
        let base = match self.net.net.header.base {
            NetBase::None => 0,
            NetBase::Hand => parent.evaluate_child(&self.prepared, mv, child),
        };
        let changes = (&self.added, &self.removed);
        let raw = if self.net.narrow {
            let (from, to) = (&self.parent_narrow, &mut self.child_narrow);
            self.net.moved_output(child, from, to, changes)
        } else {
            let (from, to) = (&self.parent.sums, &mut self.child_wide);
            self.net.moved_output(child, from, to, changes)
        };
        self.net.scaled(raw, base)
    }

    /// The net this evaluator runs.
    pub fn net(&self) -> &GameNet<G> {
        &self.net
    }

    /// The evaluation of `pos`, found `ply` plies below the root, from the side to move's
    /// view: the same as [`GameNet::evaluate`], updated from the position remembered at this
    /// ply or the one above where fewer features differ.
    pub fn evaluate(&mut self, pos: &G, ply: usize) -> i32 {
        if self.slots.len() <= ply {
            self.slots.resize_with(ply + 1, Slot::default);
        }
        let mut next = std::mem::take(&mut self.next);
        GameNet::<G>::features(pos, &mut next);
        let active = next.features[0].len() + next.features[1].len();
        let cost = |slot: &Slot| {
            slot.valid.then(|| {
                difference(&slot.bits[0], &next.bits[0]) + difference(&slot.bits[1], &next.bits[1])
            })
        };
        let here = cost(&self.slots[ply]);
        let above = ply.checked_sub(1).and_then(|p| cost(&self.slots[p]));
        let base = match (here, above) {
            (Some(a), Some(b)) if b < a => Some((ply - 1, b)),
            (Some(a), _) => Some((ply, a)),
            (None, Some(b)) => Some((ply - 1, b)),
            (None, None) => None,
        };
        match base {
            Some((from, changed)) if changed < active => {
                for view in 0..2 {
                    let old = &self.slots[from];
                    let (added, removed) = (&mut self.added[view], &mut self.removed[view]);
                    changed_inputs(&old.bits[view], &next.bits[view], added, removed);
                    let sums = &mut next.sums[view];
                    sums.resize(old.sums[view].len(), 0);
                    let weights = &self.net.net.input_weights;
                    kernels::moved_sums(sums, &old.sums[view], weights, added, removed);
                }
                next.valid = true;
            }
            _ => self.net.refresh(pos, &mut next),
        }
        let value = self.net.output(pos, &next);
        self.next = std::mem::replace(&mut self.slots[ply], next);
        value
    }
}

/// The inputs set in `now` but not in `was` (into `added`) and the other way round (into
/// `removed`), both bit sets of one view's inputs.
fn changed_inputs(was: &[u64], now: &[u64], added: &mut Vec<u16>, removed: &mut Vec<u16>) {
    added.clear();
    removed.clear();
    for (word, (&was, &now)) in was.iter().zip(now).enumerate() {
        let mut changed = was ^ now;
        while changed != 0 {
            let bit = changed.trailing_zeros() as usize;
            changed &= changed - 1;
            let input = (word * 64 + bit) as u16;
            if now >> bit & 1 != 0 {
                added.push(input);
            } else {
                removed.push(input);
            }
        }
    }
}

/// How a search evaluates positions: the game's hand-written evaluation, or a net.
#[derive(Debug)]
pub enum Evaluator<G: Evaluate> {
    /// [`Evaluate::evaluate`], with what [`Evaluate::evaluate_child`] needs of the last
    /// position given to [`Evaluator::set_parent`].
    Hand(G::Prepared),
    /// A learned evaluation.
    Net(Box<NetEvaluator<G>>),
}

impl<G: Evaluate + NetFeatures> Evaluator<G> {
    /// The evaluator of a search given `net` (`None`: the hand evaluation).
    pub fn new(net: Option<&GameNet<G>>) -> Evaluator<G> {
        match net {
            Some(net) => Evaluator::Net(Box::new(NetEvaluator::new(net.clone()))),
            None => Evaluator::Hand(G::Prepared::default()),
        }
    }

    /// The static evaluation of `pos`, `ply` plies below the root, from the side to move's
    /// view.
    #[inline]
    pub fn evaluate(&mut self, pos: &G, ply: usize) -> i32 {
        match self {
            Evaluator::Hand(_) => pos.evaluate(),
            Evaluator::Net(net) => net.evaluate(pos, ply),
        }
    }

    /// Readies [`Evaluator::evaluate_child`] for the moves of `parent`.
    pub fn set_parent(&mut self, parent: &G) {
        match self {
            Evaluator::Hand(prepared) => parent.prepare_children(prepared),
            Evaluator::Net(net) => net.set_parent(parent),
        }
    }

    /// The static evaluation of `child`, the position after `mv` in `parent` (the position last
    /// given to [`Evaluator::set_parent`]), `ply` plies below the root, from the side to move's
    /// view: the same as [`Evaluator::evaluate`] of it, found faster.
    #[inline]
    pub fn evaluate_child(&mut self, parent: &G, mv: G::Move, child: &G, ply: usize) -> i32 {
        match self {
            Evaluator::Hand(prepared) => parent.evaluate_child(prepared, mv, child),
            Evaluator::Net(net) => net.evaluate_child(parent, mv, child, ply),
        }
    }
}

#[cfg(test)]
mod tests;
