//! One MCTS search over a game: expansion (evaluating every move), widening, the iteration
//! (select, expand or evaluate, back up, prove) and what is reported (lines and scores).

use std::cmp::Ordering;

use super::tree::{Edge, EdgeId, NO_CHILD, Node, NodeId, Tree, exact, for_side};
use super::{Config, MAX_LOGIT, squash, unsquash};
use crate::game::{Outcome, Searchable};
use crate::net::{Evaluator, GameNet};
use crate::search::score::MATE;

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

/// The state of one search: the tree and the scratch space every iteration reuses.
pub struct Mcts<G: Searchable> {
    /// The tree.
    pub tree: Tree<G::Move>,
    /// Nodes of the iteration under way, root first.
    path: Vec<NodeId>,
    moves: Vec<G::Move>,
    children: Vec<Child<G::Move>>,
    /// Sum of `exp(logit − top)` over `children` and the top logit: the softmax's terms.
    softmax: (f32, f32),
    config: Config,
    max_depth: u32,
    /// Iterations done.
    pub iterations: u64,
    /// The deepest ply an iteration reached.
    pub seldepth: u32,
    /// The static evaluation: the game's own, or a net.
    eval: Evaluator<G>,
}

impl<G: Searchable> Mcts<G> {
    /// A search with the tree within `budget` bytes and `max_depth` plies.
    pub fn new(budget: usize, max_depth: u32, config: Config) -> Self {
        Mcts {
            tree: Tree::new(budget),
            path: Vec::new(),
            moves: Vec::new(),
            children: Vec::new(),
            softmax: (1.0, 0.0),
            config,
            max_depth,
            iterations: 0,
            seldepth: 0,
            eval: Evaluator::Hand,
        }
    }

    /// Evaluates with `net` (`None`: the game's hand-written evaluation).
    pub fn set_net(&mut self, net: Option<&GameNet<G>>) {
        self.eval = Evaluator::new(net);
    }

    /// A search that goes on from `tree`, whose root is expanded (see [`super::reuse`]).
    pub fn resume(tree: Tree<G::Move>, max_depth: u32, config: Config) -> Self {
        Mcts {
            tree,
            ..Mcts::new(0, max_depth, config)
        }
    }

    /// Creates the root with an edge for each of `moves`; false if even that does not fit.
    pub fn start(&mut self, root: &G, moves: &[G::Move]) -> bool {
        if !self.tree.reserve(1, 0) {
            return false;
        }
        let side = root.side_to_move();
        let value = squash(self.eval.evaluate(root, 0), side, self.config.scale);
        self.tree.push_node(Node::leaf(side, value));
        self.moves.clear();
        self.moves.extend_from_slice(moves);
        self.expand(0, root, usize::MAX).is_some()
    }

    /// Plays and evaluates every move of `self.moves` from `pos` into `self.children`, and
    /// returns the best child's value for the side to move (a one-ply search).
    fn evaluate_children(&mut self, pos: &G) -> f64 {
        let side = pos.side_to_move();
        let Config {
            scale,
            prior_temperature,
            ..
        } = self.config;
        self.children.clear();
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
                    let eval = self.eval.evaluate(&child, 1);
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

    /// Appends edges for `children[from..to]` (children that end the game get their node at
    /// once); `old` gives the child nodes of the first edges, when re-expanding. Room must have
    /// been reserved. Returns whether one of them wins for `side`.
    fn push_edges(&mut self, to: usize, old: Option<(EdgeId, usize)>, side_wins: Outcome) -> bool {
        let mut won = false;
        for i in 0..to {
            let c = self.children[i];
            let child = match (old, c.outcome) {
                (Some((first, count)), _) if i < count => {
                    let edge = &self.tree.edges[first as usize + i];
                    debug_assert!(edge.mv == c.mv, "re-expansion keeps the order");
                    edge.child
                }
                (_, Some(o)) => {
                    won |= o == side_wins;
                    self.tree.push_node(Node::terminal(o))
                }
                (_, None) => NO_CHILD,
            };
            let prior = self.prior(c.logit);
            self.tree.edges.push(Edge {
                mv: c.mv,
                prior,
                value: c.value,
                child,
            });
        }
        won
    }

    /// Expands `node` (position `pos`) over the moves in `self.moves`, with edges for the best
    /// `keep` of them by prior: evaluates every move, creates nodes for the stored children
    /// that end the game and proves `node` if they decide it. Returns the leaf value (player
    /// one's view), or `None` if the edges do not fit in the budget (the node stays a leaf).
    fn expand(&mut self, node: NodeId, pos: &G, keep: usize) -> Option<f64> {
        let side = pos.side_to_move();
        if self.moves.is_empty() {
            // The rules promise a move whenever the game is not over; score it as lost if not.
            let n = &mut self.tree.nodes[node as usize];
            n.result = Some(Outcome::Win(side.opponent()));
            n.expanded = true;
            return Some(n.q());
        }
        let best = self.evaluate_children(pos);
        let keep = keep.clamp(1, self.children.len());
        let next_prior = self.order(keep);
        let terminals = self.children[..keep]
            .iter()
            .filter(|c| c.outcome.is_some())
            .count();
        if !self.tree.reserve(terminals, keep) {
            return None;
        }
        let first_edge = self.tree.edges.len() as EdgeId;
        let won = self.push_edges(keep, None, Outcome::Win(side));
        let n = &mut self.tree.nodes[node as usize];
        n.first_edge = first_edge;
        n.edge_count = keep as u32;
        n.next_prior = next_prior;
        n.expanded = true;
        if won || (next_prior == 0.0 && terminals == keep) {
            self.tree.update_proof(node);
        }
        let n = &self.tree.nodes[node as usize];
        Some(match n.result {
            Some(o) => exact(o) as f64,
            None if self.config.one_ply_leaf => for_side(best, side),
            None => n.value as f64,
        })
    }

    /// Gives `node` (position `pos`, expanded with its best moves only) an edge for every
    /// move: its edges move to the end of the arena, in the same order, followed by the rest.
    /// Returns false if they do not fit.
    fn widen(&mut self, node: NodeId, pos: &G) -> bool {
        pos.search_moves(&mut self.moves);
        self.evaluate_children(pos);
        self.order(usize::MAX);
        let n = self.tree.nodes[node as usize];
        let old_count = n.edge_count as usize;
        let all = self.children.len();
        let terminals = self.children[old_count.min(all)..]
            .iter()
            .filter(|c| c.outcome.is_some())
            .count();
        if all <= old_count || !self.tree.reserve(terminals, all) {
            return false;
        }
        let first_edge = self.tree.edges.len() as EdgeId;
        self.push_edges(all, Some((n.first_edge, old_count)), Outcome::Win(n.side));
        let n = &mut self.tree.nodes[node as usize];
        n.first_edge = first_edge;
        n.edge_count = all as u32;
        n.next_prior = 0.0;
        self.tree.update_proof(node);
        true
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
        pos.clone_from(root);
        self.path.clear();
        self.path.push(0);
        let mut node: NodeId = 0;
        let mut ply = 0;
        let mut proven = false;
        let value = loop {
            let n = self.tree.nodes[node as usize];
            if let Some(o) = n.result {
                // The parent may be decided now (its other children were decided earlier).
                proven = true;
                break exact(o) as f64;
            }
            if !n.expanded {
                if ply < self.max_depth && !self.tree.full {
                    pos.search_moves(&mut self.moves);
                    if let Some(v) = self.expand(node, pos, initial_edges) {
                        proven = self.tree.nodes[node as usize].result.is_some();
                        break v;
                    }
                }
                break n.value as f64;
            }
            let (mut e, widen) = self.tree.select(node, c_puct, fpu_reduction);
            if widen && !self.tree.full && self.widen(node, pos) {
                if let Some(o) = self.tree.nodes[node as usize].result {
                    proven = true;
                    break exact(o) as f64;
                }
                // The best move that had no edge is the first of the new ones.
                e = self.tree.nodes[node as usize].first_edge + n.edge_count;
            }
            let edge = self.tree.edges[e as usize];
            pos.play(edge.mv);
            ply += 1;
            if edge.child == NO_CHILD {
                if !self.tree.reserve(1, 0) {
                    break edge.value as f64;
                }
                let side = pos.side_to_move();
                let child = self.tree.push_node(Node::leaf(side, edge.value));
                self.tree.edges[e as usize].child = child;
                node = child;
            } else {
                node = edge.child;
            }
            self.path.push(node);
        };
        self.iterations += 1;
        self.seldepth = self.seldepth.max(ply);
        for &id in &self.path {
            let n = &mut self.tree.nodes[id as usize];
            // A node that has seen 2³² − 1 visits keeps its mean (hours of search on a full
            // tree): sum and visits stop together.
            if n.visits < u32::MAX {
                n.visits += 1;
                n.sum += value;
            }
        }
        if proven {
            for &id in self.path.iter().rev().skip(1) {
                if !self.tree.update_proof(id) {
                    break;
                }
            }
        }
    }

    /// The most visited line from root edge `edge` on.
    pub fn line(&self, mut edge: EdgeId) -> Vec<G::Move> {
        let mut pv = Vec::new();
        loop {
            let e = &self.tree.edges[edge as usize];
            pv.push(e.mv);
            if e.child == NO_CHILD || !self.tree.nodes[e.child as usize].expanded {
                break;
            }
            match self.tree.best_edge(e.child) {
                Some(next) if self.tree.edges[next as usize].child != NO_CHILD => edge = next,
                _ => break,
            }
        }
        pv
    }

    /// Whether the principal variation is `depth` plies long or ends in a proven result.
    pub fn pv_reaches(&self, depth: u32) -> bool {
        let mut node: NodeId = 0;
        for _ in 0..depth {
            if self.tree.nodes[node as usize].result.is_some() {
                return true;
            }
            let best = self.tree.best_edge(node);
            match best.map(|e| self.tree.edges[e as usize].child) {
                Some(child) if child != NO_CHILD => node = child,
                _ => return false,
            }
        }
        true
    }

    /// The score of root edge `edge` from the root side's view, in alpha-beta's internal units
    /// (mate scores count plies from the root).
    pub fn edge_score(&self, edge: EdgeId) -> i32 {
        let side = self.tree.nodes[0].side;
        let scale = self.config.scale;
        let e = &self.tree.edges[edge as usize];
        if e.child == NO_CHILD {
            return unsquash(for_side(e.value as f64, side), scale);
        }
        let child = &self.tree.nodes[e.child as usize];
        let plies = child.dist as i32 + 1;
        match child.result {
            Some(Outcome::Win(p)) if p == side => MATE - plies,
            Some(Outcome::Win(_)) => -(MATE - plies),
            Some(Outcome::Draw) => 0,
            None => unsquash(for_side(child.mean(), side), scale),
        }
    }
}
