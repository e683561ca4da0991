//! One thread of an MCTS search: expansion (evaluating every move), widening and the
//! iteration (select, expand or evaluate, back up, prove) on the tree all threads share.
//! Where threads meet, one wins: a leaf or a node to widen is claimed by the first thread to
//! reach it (the others score the leaf by its static value, or choose among the edges there
//! are), and an edge's child is set by the first thread to create one (the others' node stays
//! unused).

use std::cmp::Ordering;

use super::tree::{Edge, EdgeId, NO_CHILD, Node, NodeId, Tree, exact, for_side};
use super::{Config, MAX_LOGIT, squash};
use crate::game::{Outcome, Searchable};
use crate::net::{Evaluator, GameNet};

/// One move of a node being expanded, evaluated.
#[derive(Clone, Copy)]
struct Child<M> {
    mv: M,
    /// Static value of the position after the move, player one's view.
    value: f32,
    /// Prior logit (the evaluation for the mover over the temperature).
    logit: f32,
    /// How the game ended, if the move ends it.
    outcome: Option<Outcome>,
    /// Place in the generated order: breaks ties, so the order is the same every time.
    index: u32,
}

/// Best prior first, then generation order.
fn by_prior<M>(a: &Child<M>, b: &Child<M>) -> Ordering {
    b.logit.total_cmp(&a.logit).then(a.index.cmp(&b.index))
}

/// One thread's search: the shared tree and the scratch space every iteration reuses.
pub struct Mcts<'t, G: Searchable> {
    /// The tree.
    tree: &'t Tree<G::Move>,
    /// Nodes of the iteration under way, root first.
    path: Vec<NodeId>,
    moves: Vec<G::Move>,
    children: Vec<Child<G::Move>>,
    /// Sum of `exp(logit − top)` over `children` and the top logit: the softmax's terms.
    softmax: (f32, f32),
    config: Config,
    max_depth: u32,
    /// Whether iterations mark their path with a virtual loss (several threads).
    virtual_loss: bool,
    /// The deepest ply an iteration of this thread reached.
    pub seldepth: u32,
    /// The static evaluation: the game's own, or a net.
    eval: Evaluator<G>,
}

impl<'t, G: Searchable> Mcts<'t, G> {
    /// A thread's search of `tree`, at most `max_depth` plies deep, evaluating with `net`
    /// (`None`: the game's hand-written evaluation); with `virtual_loss` when it is one of
    /// several threads.
    pub fn new(
        tree: &'t Tree<G::Move>,
        max_depth: u32,
        config: Config,
        net: Option<&GameNet<G>>,
        virtual_loss: bool,
    ) -> Self {
        Mcts {
            tree,
            path: Vec::new(),
            moves: Vec::new(),
            children: Vec::new(),
            softmax: (1.0, 0.0),
            config,
            max_depth,
            virtual_loss,
            seldepth: 0,
            eval: Evaluator::new(net),
        }
    }

    /// Creates the root of an empty tree with an edge for each of `moves`; false if even that
    /// does not fit.
    pub fn start(&mut self, root: &G, moves: &[G::Move]) -> bool {
        let Some((id, _)) = self.tree.alloc(1, 0) else {
            return false;
        };
        let side = root.side_to_move();
        let value = squash(self.eval.evaluate(root, 0), side, self.config.scale);
        self.tree.init_node(id, &Node::leaf(side, value));
        self.moves.clear();
        self.moves.extend_from_slice(moves);
        self.tree.slot(id).claim_expansion();
        self.expand(id, root, usize::MAX).is_some()
    }

    /// Plays and evaluates every move of `self.moves` from `pos` into `self.children`, and
    /// returns the best child's value for the side to move (a one-ply search). A net evaluates
    /// each child from `pos`'s hidden sums ([`Evaluator::evaluate_child`]).
    fn evaluate_children(&mut self, pos: &G) -> f64 {
        let side = pos.side_to_move();
        let Config {
            scale,
            prior_temperature,
            ..
        } = self.config;
        self.children.clear();
        self.eval.set_parent(pos);
        let mut best = f64::NEG_INFINITY;
        for (index, &mv) in self.moves.iter().enumerate() {
            let mut child = pos.clone();
            child.play(mv);
            let (value, logit, outcome) = match child.outcome() {
                Some(o) => {
                    let v = exact(o);
                    let logit = (for_side(v as f64, side) as f32 - 0.5) * 2.0 * MAX_LOGIT;
                    (v, logit, Some(o))
                }
                None => {
                    let eval = self.eval.evaluate_child(pos, mv, &child, 1);
                    let mine = if child.side_to_move() == side {
                        eval
                    } else {
                        -eval
                    };
                    let logit = (mine as f32 / prior_temperature).clamp(-MAX_LOGIT, MAX_LOGIT);
                    (squash(mine, side, scale), logit, None)
                }
            };
            best = best.max(for_side(value as f64, side));
            let index = index as u32;
            self.children.push(Child {
                mv,
                value,
                logit,
                outcome,
                index,
            });
        }
        let top = self
            .children
            .iter()
            .map(|c| c.logit)
            .fold(f32::NEG_INFINITY, f32::max);
        let total = self.children.iter().map(|c| (c.logit - top).exp()).sum();
        self.softmax = (total, top);
        best
    }

    fn prior(&self, logit: f32) -> f32 {
        let (total, top) = self.softmax;
        (logit - top).exp() / total
    }

    /// Puts the best `keep` children first, best first; returns the prior of the best one left
    /// out (0 if none is).
    fn order(&mut self, keep: usize) -> f32 {
        if keep >= self.children.len() {
            self.children.sort_unstable_by(by_prior);
            return 0.0;
        }
        self.children.select_nth_unstable_by(keep, by_prior);
        self.children[..keep].sort_unstable_by(by_prior);
        self.prior(self.children[keep].logit)
    }

    /// Writes edges `first_edge..` for `children[..to]`, and nodes `first_node..` for the
    /// children that end the game (their node at once); `old` gives the child nodes of the
    /// first edges, when re-expanding. The room was taken. Returns whether one of them wins for
    /// `side`.
    fn push_edges(
        &mut self,
        to: usize,
        (first_node, first_edge): (NodeId, EdgeId),
        old: Option<(EdgeId, usize)>,
        side_wins: Outcome,
    ) -> bool {
        let tree = self.tree;
        let mut won = false;
        let mut next_node = first_node;
        for i in 0..to {
            let c = self.children[i];
            let child = match (old, c.outcome) {
                (Some((first, count)), _) if i < count => {
                    let e = first + i as EdgeId;
                    debug_assert!(
                        tree.edge_move(e) == Some(c.mv),
                        "re-expansion keeps the order"
                    );
                    tree.edge(e).child
                }
                (_, Some(o)) => {
                    won |= o == side_wins;
                    tree.init_node(next_node, &Node::terminal(o));
                    next_node += 1;
                    next_node - 1
                }
                (_, None) => NO_CHILD,
            };
            let prior = self.prior(c.logit);
            let edge = Edge {
                mv: c.mv,
                prior,
                value: c.value,
                child,
            };
            tree.init_edge(first_edge + i as EdgeId, &edge);
        }
        won
    }

    /// Expands `node` (position `pos`, its expansion claimed) over the moves in `self.moves`,
    /// with edges for the best `keep` of them by prior: evaluates every move, creates nodes for
    /// the stored children that end the game and proves `node` if they decide it. Returns the
    /// leaf value (player one's view), or `None` if the edges do not fit in the budget (the
    /// node stays a leaf).
    fn expand(&mut self, node: NodeId, pos: &G, keep: usize) -> Option<f64> {
        let tree = self.tree;
        let slot = tree.slot(node);
        let side = pos.side_to_move();
        if self.moves.is_empty() {
            // The rules promise a move whenever the game is not over; score it as lost if not.
            let lost = Outcome::Win(side.opponent());
            slot.set_proof(lost, tree.node(node).dist);
            slot.end_expansion(true);
            return Some(exact(lost) as f64);
        }
        let best = self.evaluate_children(pos);
        let keep = keep.clamp(1, self.children.len());
        let next_prior = self.order(keep);
        let terminals = self.children[..keep]
            .iter()
            .filter(|c| c.outcome.is_some())
            .count();
        let Some(first) = tree.alloc(terminals, keep) else {
            slot.end_expansion(false);
            return None;
        };
        let won = self.push_edges(keep, first, None, Outcome::Win(side));
        tree.set_edges(node, first.1, keep as u32, next_prior);
        slot.end_expansion(true);
        if won || (next_prior == 0.0 && terminals == keep) {
            tree.update_proof(node);
        }
        let n = tree.node(node);
        Some(match n.result {
            Some(o) => exact(o) as f64,
            None if self.config.one_ply_leaf => for_side(best, side),
            None => n.value as f64,
        })
    }

    /// Gives `node` (position `pos`, expanded with its best moves only, its widening claimed)
    /// an edge for every move: its edges are copied to new room, in the same order, followed
    /// by the rest. Returns the edge of the best move that had none, or `None` if they do not
    /// fit or another thread widened the node first. Ends the claim.
    fn widen(&mut self, node: NodeId, pos: &G) -> Option<EdgeId> {
        let widened = self.widen_claimed(node, pos);
        self.tree.slot(node).end_widening();
        widened
    }

    fn widen_claimed(&mut self, node: NodeId, pos: &G) -> Option<EdgeId> {
        let tree = self.tree;
        let n = tree.node(node);
        if n.next_prior == 0.0 {
            return None;
        }
        pos.search_moves(&mut self.moves);
        self.evaluate_children(pos);
        self.order(usize::MAX);
        let old_count = n.edge_count as usize;
        let all = self.children.len();
        let terminals = self.children[old_count.min(all)..]
            .iter()
            .filter(|c| c.outcome.is_some())
            .count();
        if all <= old_count {
            return None;
        }
        let first = tree.alloc(terminals, all)?;
        let old = (n.first_edge, old_count);
        self.push_edges(all, first, Some(old), Outcome::Win(n.side));
        tree.set_edges(node, first.1, all as u32, 0.0);
        // A child another thread gave an old edge while they were copied.
        for i in 0..old_count as EdgeId {
            let child = tree.edge(old.0 + i).child;
            if child != NO_CHILD {
                tree.set_child(node, first.1 + i, child);
            }
        }
        tree.update_proof(node);
        Some(first.1 + n.edge_count)
    }

    /// Marks `node` as on the path of the iteration under way.
    fn enter(&mut self, node: NodeId) {
        self.path.push(node);
        if self.virtual_loss {
            self.tree.slot(node).enter();
        }
    }

    /// One iteration: select a path, expand or evaluate its leaf, back the value up and
    /// propagate any new proof. `pos` is scratch space for the positions on the path.
    pub fn iterate(&mut self, root: &G, pos: &mut G) {
        let Config {
            c_puct,
            fpu_reduction,
            initial_edges,
            ..
        } = self.config;
        let tree = self.tree;
        pos.clone_from(root);
        self.path.clear();
        self.enter(0);
        let mut node: NodeId = 0;
        let mut ply = 0;
        let mut proven = false;
        let value = loop {
            let n = tree.node(node);
            if let Some(o) = n.result {
                // The parent may be decided now (its other children were decided earlier).
                proven = true;
                break exact(o) as f64;
            }
            if !n.expanded {
                // Another thread expanding this leaf: its static value will do.
                if ply < self.max_depth && !tree.is_full() && tree.slot(node).claim_expansion() {
                    pos.search_moves(&mut self.moves);
                    if let Some(v) = self.expand(node, pos, initial_edges) {
                        proven = tree.node(node).result.is_some();
                        break v;
                    }
                }
                break n.value as f64;
            }
            let (mut e, widen) = tree.select(node, c_puct, fpu_reduction);
            if widen
                && !tree.is_full()
                && tree.slot(node).claim_widening()
                && let Some(first_new) = self.widen(node, pos)
            {
                if let Some(o) = tree.node(node).result {
                    proven = true;
                    break exact(o) as f64;
                }
                // The best move that had no edge is the first of the new ones.
                e = first_new;
            }
            let edge = tree.edge(e);
            let Some(mv) = tree.edge_move(e) else {
                break edge.value as f64;
            };
            pos.play(mv);
            ply += 1;
            if edge.child == NO_CHILD {
                let Some((child, _)) = tree.alloc(1, 0) else {
                    break edge.value as f64;
                };
                tree.init_node(child, &Node::leaf(pos.side_to_move(), edge.value));
                node = tree.set_child(node, e, child);
            } else {
                node = edge.child;
            }
            self.enter(node);
        };
        self.seldepth = self.seldepth.max(ply);
        for &id in &self.path {
            let slot = tree.slot(id);
            slot.add_visit(value);
            if self.virtual_loss {
                slot.leave();
            }
        }
        if proven {
            for &id in self.path.iter().rev().skip(1) {
                if !tree.update_proof(id) {
                    break;
                }
            }
        }
    }
}
