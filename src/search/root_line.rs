//! What a root search finds: a root line (a move's score and principal variation), and an
//! improvement (a move an iteration found better than the first move it searched). Shared by
//! the alpha-beta search that finds them and the threads' [`super::iterations`] that pass them
//! on.

use super::score::MATE_BOUND;

/// One root line: its score and principal variation.
#[derive(Clone, Debug)]
pub struct RootLine<M> {
    /// Score from the root side's view.
    pub score: i32,
    /// Principal variation, starting with the root move.
    pub pv: Vec<M>,
}

/// A root move that an iteration, completed or not, found better than the first move it
/// searched.
#[derive(Clone, Debug)]
pub struct Improvement<M> {
    /// The iteration's depth.
    pub depth: u32,
    /// The move's line; its score is a value, or a lower bound where it failed high.
    pub line: RootLine<M>,
    /// The iteration's first move, which `line`'s move beat.
    pub over: M,
}

impl<M: Clone> Improvement<M> {
    /// The improvement an iteration at `depth` found when `line` beat its first move `over`,
    /// or `None` when `line` scores a proven loss. The score of a move that beat the first is
    /// only a lower bound on the position's value: the moves the iteration had not searched yet
    /// may do better. A proven win is a sound claim (a move that wins makes the position won);
    /// a proven loss is not (every move searched so far loses, but an unsearched one may hold),
    /// so such a line is never played or reported as the position's score.
    pub fn new(depth: u32, line: RootLine<M>, over: M) -> Option<Self> {
        (line.score > -MATE_BOUND).then_some(Improvement { depth, line, over })
    }

    /// Keeps this improvement in `kept` if it is deeper than the one there, or as deep and
    /// scored higher: the rule by which a search's improvements are compared.
    pub fn keep_in(&self, kept: &mut Option<Improvement<M>>) {
        let better = kept.as_ref().is_none_or(|k| {
            self.depth > k.depth || (self.depth == k.depth && self.line.score > k.line.score)
        });
        if better {
            *kept = Some(self.clone());
        }
    }
}
