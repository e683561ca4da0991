//! The search tree of [`super::search`]: nodes and edges in two arenas indexed by `u32`
//! ([`super::arena`]), grown only by expansion and never past a byte budget, and shared by
//! the search threads: every slot is atomics ([`super::node`]), so threads read and write it
//! through `&Tree`. Nothing here knows the game: values are stored in absolute terms (player
//! one's winning chance in `[0, 1]`) and proven results as [`Outcome`]s, so a player who moves
//! several times in a row needs no special case anywhere.
//!
//! Iterations under way through a node count as losses for the player choosing it (virtual
//! loss, see [`Tree::select`]), so that threads spread over the tree instead of all walking
//! the same line; one thread never sees a virtual loss.

use std::marker::PhantomData;
use std::mem::size_of;

use super::arena::{Room, Segments};
pub use super::node::{Edge, EdgeId, EdgeView, NO_CHILD, Node, NodeId, exact, for_side};
use super::node::{EdgeSlot, NodeSlot};
use crate::game::{Outcome, PackedMove, Player};

/// The arenas and their byte budget.
pub struct Tree<M> {
    nodes: Segments<NodeSlot>,
    edges: Segments<EdgeSlot>,
    room: Room,
    moves: PhantomData<M>,
}

/// What reading a slot beyond the arena gives (never happens: ids come from the arena).
static NO_NODE: NodeSlot = NodeSlot::empty();
static NO_EDGE: EdgeSlot = EdgeSlot::empty();

impl<M: Copy + PackedMove> Tree<M> {
    /// An empty tree that will never hold more than `budget` bytes of nodes and edges (counted
    /// as [`Node`]s and [`Edge`]s).
    pub fn new(budget: usize) -> Self {
        let (sn, se) = (size_of::<Node>(), size_of::<Edge<M>>());
        Tree {
            nodes: Segments::new(budget / sn),
            edges: Segments::new(budget / se),
            room: Room::new(budget, sn, se),
            moves: PhantomData,
        }
    }

    /// The byte budget the tree was made with.
    pub fn budget(&self) -> usize {
        self.room.budget()
    }

    /// Set once a request for room failed: the tree stops growing.
    pub fn is_full(&self) -> bool {
        self.room.is_full()
    }

    /// Nodes in the arena (some unused when threads raced for an edge's child).
    pub fn node_count(&self) -> usize {
        self.room.lens().0
    }

    /// Permille of the budget in use.
    pub fn permille(&self) -> u32 {
        let (nodes, edges) = self.room.lens();
        let used = nodes * size_of::<Node>() + edges * size_of::<Edge<M>>();
        (used as u128 * 1000 / self.budget().max(1) as u128).min(1000) as u32
    }

    /// Takes room for `nodes` more nodes and `edges` more edges within the budget: the first
    /// id of each. On failure the tree is full (and stays full) and `None` is returned.
    pub fn alloc(&self, nodes: usize, edges: usize) -> Option<(NodeId, EdgeId)> {
        let (n, e) = self.room.take(nodes, edges)?;
        if !(self.nodes.allocate(n..n + nodes) && self.edges.allocate(e..e + edges)) {
            self.room.set_full();
            return None;
        }
        Some((n as NodeId, e as EdgeId))
    }

    /// The slot of node `id`.
    #[inline]
    pub(super) fn slot(&self, id: NodeId) -> &NodeSlot {
        self.nodes.get(id as usize).unwrap_or(&NO_NODE)
    }

    /// The edges of `node` with their ids.
    fn edges_of(&self, node: &Node) -> impl Iterator<Item = (EdgeId, EdgeView)> {
        let ids = node.edge_ids();
        let slots = self.edges.iter(ids.start as usize..ids.end as usize);
        ids.zip(slots.map(EdgeSlot::view))
    }

    #[inline]
    fn edge_slot(&self, id: EdgeId) -> &EdgeSlot {
        self.edges.get(id as usize).unwrap_or(&NO_EDGE)
    }

    /// A copy of node `id`.
    #[inline]
    pub fn node(&self, id: NodeId) -> Node {
        self.slot(id).load()
    }

    /// Writes node `id` (taken with [`Tree::alloc`], not yet published).
    pub fn init_node(&self, id: NodeId, node: &Node) {
        self.slot(id).store(node);
    }

    /// Edge `id` without its move.
    #[inline]
    pub fn edge(&self, id: EdgeId) -> EdgeView {
        self.edge_slot(id).view()
    }

    /// The move of edge `id`.
    pub fn edge_move(&self, id: EdgeId) -> Option<M> {
        self.edge_slot(id).mv()
    }

    /// Writes edge `id` (taken with [`Tree::alloc`], not yet published).
    pub fn init_edge(&self, id: EdgeId, edge: &Edge<M>) {
        self.edge_slot(id).store(edge);
    }

    /// Gives edge `id` of `node` the child `child` unless it has one: the child it has
    /// afterwards. Raises `node`'s reach past the edge, unless another thread has just moved
    /// `node`'s edges (widening): then the thread that moved them copies the child over with
    /// this call, or the child is left behind with the old edges.
    pub fn set_child(&self, node: NodeId, id: EdgeId, child: NodeId) -> NodeId {
        let child = self.edge_slot(id).set_child(child);
        let n = self.node(node);
        if n.edge_ids().contains(&id) {
            self.slot(node).raise_reach(id - n.first_edge + 1);
        }
        child
    }

    /// Publishes `node`'s edges `first..first + count` (written before, children included)
    /// and the prior of its best move left out.
    pub fn set_edges(&self, node: NodeId, first: EdgeId, count: u32, next_prior: f32) {
        let reach = (0..count)
            .rev()
            .find(|&i| self.edge_slot(first + i).child() != NO_CHILD)
            .map_or(0, |i| i + 1);
        let slot = self.slot(node);
        slot.raise_reach(reach);
        slot.set_edges(first, count, next_prior);
    }

    /// Keeps only the subtree under `new_root`, which becomes node 0, and frees the rest for
    /// growth (the arenas keep their capacity). In place: nodes keep their order of creation
    /// (a parent is always older than its children, so `new_root` comes first and every node
    /// moves down or stays), and each node's edges, contiguous, move down in the order they
    /// lie in the arena (widening leaves dead edges behind; they are dropped). Only between
    /// searches: `&mut` keeps every thread out.
    pub fn reroot(&mut self, new_root: NodeId) {
        let mut kept = Vec::new();
        let mut stack = vec![new_root];
        while let Some(id) = stack.pop() {
            kept.push(id);
            for e in self.node(id).edge_ids() {
                let child = self.edge_slot(e).child();
                if child != NO_CHILD {
                    stack.push(child);
                }
            }
        }
        kept.sort_unstable();
        debug_assert_eq!(
            kept.first(),
            Some(&new_root),
            "a node is older than its subtree"
        );
        let mut new_id = vec![NO_CHILD; self.node_count()];
        for (i, &old) in kept.iter().enumerate() {
            new_id[old as usize] = i as NodeId;
        }
        let mut with_edges: Vec<(NodeId, Node)> = kept
            .iter()
            .map(|&id| (id, self.node(id)))
            .filter(|(_, n)| n.edge_count > 0)
            .collect();
        with_edges.sort_unstable_by_key(|(_, n)| n.first_edge);
        let mut cursor: EdgeId = 0;
        for (id, n) in with_edges {
            for (i, e) in n.edge_ids().enumerate() {
                self.edge_slot(cursor + i as EdgeId)
                    .copy_from(self.edge_slot(e));
            }
            self.init_node(
                id,
                &Node {
                    first_edge: cursor,
                    ..n
                },
            );
            cursor += n.edge_count;
        }
        for e in 0..cursor {
            let slot = self.edge_slot(e);
            let child = slot.child();
            if child != NO_CHILD {
                slot.replace_child(new_id[child as usize]);
            }
        }
        for (i, &old) in kept.iter().enumerate() {
            let node = self.node(old);
            self.init_node(i as NodeId, &node);
        }
        self.room.truncate(kept.len(), cursor as usize);
    }

    /// The child of `node` to descend into: the PUCT choice, the best
    /// `Q + c_puct · P · √N / (1 + n)` among the children not proven lost for the side to move
    /// (`Q` its value for that side, `P` its prior, `N` and `n` the visits of node and child).
    /// An unvisited child's `Q` is the node's own, less `fpu_reduction`, so unvisited children
    /// are tried in the order of their priors. Only called on expanded, unproven nodes.
    ///
    /// A child with `k` iterations under way (other threads') counts them as visits lost for
    /// the side to move: `n` becomes `n + k` and `Q` becomes `Q · n / (n + k)`.
    ///
    /// Returns the best edge and whether the best move left out of the edges (a node expanded
    /// with its best moves only) would beat it: then the node should be widened, and that move
    /// is the choice.
    ///
    /// Edges lie in the order of their priors, best first, and unvisited children all have
    /// the same `Q` and `n`: of the edges without a child only the first can be chosen (a tie
    /// goes to the first), and the edges after the node's reach have none. So only the edges
    /// up to the reach and one more are scanned (not the hundreds of a widened Isaac node),
    /// and the choice is the one a scan of them all would make.
    pub fn select(&self, node: NodeId, c_puct: f32, fpu_reduction: f32) -> (EdgeId, bool) {
        let n = self.node(node);
        let scanned = Node {
            edge_count: n.edge_count.min(n.reach.saturating_add(1)),
            ..n
        };
        let side = n.side;
        let scale = c_puct * (n.visits.max(1) as f32).sqrt();
        let fpu = (for_side(n.mean(), side) as f32 - fpu_reduction).max(0.0);
        let mut best = n.first_edge;
        let mut best_score = f32::NEG_INFINITY;
        for (e, edge) in self.edges_of(&scanned) {
            let (q, visits) = if edge.child == NO_CHILD {
                (fpu, 0)
            } else {
                let (result, q, v, in_flight) = self.slot(edge.child).selection();
                if matches!(result, Some(Outcome::Win(p)) if p != side) {
                    continue;
                }
                match in_flight {
                    0 => (for_side(q, side) as f32, v),
                    k => {
                        let q = if v == 0 {
                            0.0
                        } else {
                            for_side(q, side) * v as f64 / (v as f64 + k as f64)
                        };
                        (q as f32, v.saturating_add(k))
                    }
                }
            };
            let score = q + scale * edge.prior / (1 + visits) as f32;
            if score > best_score {
                best_score = score;
                best = e;
            }
        }
        let widen = n.next_prior > 0.0 && fpu + scale * n.next_prior > best_score;
        (best, widen)
    }

    /// The best child of `node` for reporting and playing: see [`rank`]. Among unvisited
    /// children only when none was visited: the one with the best prior.
    pub fn best_edge(&self, node: NodeId) -> Option<EdgeId> {
        let n = self.node(node);
        let side = n.side;
        let mut best: Option<(EdgeId, (u8, i64, f64))> = None;
        for e in n.edge_ids() {
            let child = self.edge(e).child;
            if child == NO_CHILD {
                continue;
            }
            let r = rank(&self.node(child), side);
            if best.as_ref().is_none_or(|(_, b)| r > *b) {
                best = Some((e, r));
            }
        }
        best.map(|(e, _)| e).or_else(|| {
            n.edge_ids().reduce(|a, b| {
                if self.edge(b).prior > self.edge(a).prior {
                    b
                } else {
                    a
                }
            })
        })
    }

    /// The visited root edges ranked best first (see [`rank`]); the best edge alone when none
    /// was visited.
    pub fn ranked_edges(&self, node: NodeId) -> Vec<EdgeId> {
        let n = self.node(node);
        let side = n.side;
        let mut visited: Vec<(EdgeId, (u8, i64, f64))> = n
            .edge_ids()
            .filter_map(|e| {
                let child = self.edge(e).child;
                (child != NO_CHILD).then(|| (e, rank(&self.node(child), side)))
            })
            .collect();
        visited.sort_by(|(_, a), (_, b)| b.partial_cmp(a).unwrap_or(std::cmp::Ordering::Equal));
        let mut ranked: Vec<EdgeId> = visited.into_iter().map(|(e, _)| e).collect();
        if ranked.is_empty() {
            ranked.extend(self.best_edge(node));
        }
        ranked
    }

    /// Derives `node`'s result from its children (MCTS-solver): won if one child wins for the
    /// side to move, else decided once every move has an edge and every child is decided: drawn
    /// if one draws, else lost. Returns whether the node is proven now.
    pub fn update_proof(&self, node: NodeId) -> bool {
        let n = self.node(node);
        if n.result.is_some() {
            return true;
        }
        let side = n.side;
        let mut all_known = n.next_prior == 0.0;
        let mut win: Option<u16> = None;
        let mut draw: Option<u16> = None;
        let mut longest_loss = 0;
        for e in n.edge_ids() {
            let child = self.edge(e).child;
            let c = self.node(child);
            match (child, c.result) {
                (NO_CHILD, _) | (_, None) => all_known = false,
                (_, Some(Outcome::Win(p))) if p == side => {
                    win = Some(win.map_or(c.dist, |d| d.min(c.dist)));
                }
                (_, Some(Outcome::Draw)) => draw = Some(draw.map_or(c.dist, |d| d.min(c.dist))),
                (_, Some(Outcome::Win(_))) => longest_loss = longest_loss.max(c.dist),
            }
        }
        let (result, dist) = if let Some(d) = win {
            (Outcome::Win(side), d)
        } else if !all_known {
            return false;
        } else if let Some(d) = draw {
            (Outcome::Draw, d)
        } else {
            (Outcome::Win(side.opponent()), longest_loss)
        };
        self.slot(node).set_proof(result, dist.saturating_add(1));
        true
    }
}

/// How a child ranks for the player choosing it: proven wins first (the shortest first),
/// then unproven and drawn children by visits and value, proven losses last (the longest
/// first).
fn rank(child: &Node, side: Player) -> (u8, i64, f64) {
    match child.result {
        Some(Outcome::Win(p)) if p == side => (2, -(child.dist as i64), 0.0),
        Some(Outcome::Win(_)) => (0, child.dist as i64, 0.0),
        _ => (1, child.visits as i64, for_side(child.q(), side)),
    }
}

#[cfg(test)]
mod tests;
