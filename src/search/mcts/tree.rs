//! The search tree of [`super::search`]: nodes and edges in two arenas (`Vec`s indexed by
//! `u32`), grown only by expansion and never past a byte budget. Nothing here knows the game:
//! values are stored in absolute terms (player one's winning chance in `[0, 1]`) and proven
//! results as [`Outcome`]s, so a player who moves several times in a row needs no special
//! case anywhere.

use std::mem::size_of;

use crate::game::{Outcome, Player};

/// Index of a node in the arena. The root is node 0, so 0 also means "no child yet".
pub type NodeId = u32;
/// Index of an edge in the arena.
pub type EdgeId = u32;

/// What an edge holds instead of a child before the edge is first visited.
pub const NO_CHILD: NodeId = 0;

/// A move out of an expanded node, with what the expansion learnt about it.
#[derive(Clone, Copy, Debug)]
pub struct Edge<M> {
    /// The move.
    pub mv: M,
    /// Prior probability of the move among its siblings (a softmax of their evaluations).
    pub prior: f32,
    /// Static value of the position after the move: player one's winning chance.
    pub value: f32,
    /// The child node once the edge has been visited, else [`NO_CHILD`].
    pub child: NodeId,
}

/// A position in the tree. Its moves are the edges `first_edge..first_edge + edge_count`.
#[derive(Clone, Copy, Debug)]
pub struct Node {
    /// Sum of the values backed up through this node, player one's view.
    pub sum: f64,
    /// The first of its edges.
    pub first_edge: EdgeId,
    /// How many edges it has (0 until expanded).
    pub edge_count: u32,
    /// Iterations that went through this node.
    pub visits: u32,
    /// Static value of the position, player one's view.
    pub value: f32,
    /// Prior of the best move left out of the edges (see [`Tree::select`]); 0 when every move
    /// has an edge.
    pub next_prior: f32,
    /// Plies to the end of the game under best play, once `result` is known.
    pub dist: u16,
    /// Whose turn it is in this position.
    pub side: Player,
    /// The proven result: the game is over here, or best play from here is known to lead to it.
    pub result: Option<Outcome>,
    /// Whether its edges exist.
    pub expanded: bool,
}

impl Node {
    /// A fresh leaf: `side` to move, static value `value`.
    pub fn leaf(side: Player, value: f32) -> Node {
        Node {
            sum: 0.0,
            first_edge: 0,
            edge_count: 0,
            visits: 0,
            value,
            next_prior: 0.0,
            dist: 0,
            side,
            result: None,
            expanded: false,
        }
    }

    /// A finished game.
    pub fn terminal(outcome: Outcome) -> Node {
        Node {
            result: Some(outcome),
            ..Node::leaf(Player::One, exact(outcome))
        }
    }

    /// The mean backed-up value, player one's view (the static value before any visit).
    pub fn mean(&self) -> f64 {
        if self.visits == 0 {
            self.value as f64
        } else {
            self.sum / self.visits as f64
        }
    }

    /// The value to trust for this node: exact once proven, else the mean.
    pub fn q(&self) -> f64 {
        match self.result {
            Some(o) => exact(o) as f64,
            None => self.mean(),
        }
    }

    /// The edge ids of this node.
    pub fn edge_ids(&self) -> std::ops::Range<EdgeId> {
        self.first_edge..self.first_edge + self.edge_count
    }
}

/// Player one's value of a finished game: 1 won, 0 lost, ½ drawn.
pub fn exact(outcome: Outcome) -> f32 {
    match outcome {
        Outcome::Win(Player::One) => 1.0,
        Outcome::Win(Player::Two) => 0.0,
        Outcome::Draw => 0.5,
    }
}

/// A value in player one's view seen by `side` (both ways: the map is its own inverse).
#[inline]
pub fn for_side(value: f64, side: Player) -> f64 {
    match side {
        Player::One => value,
        Player::Two => 1.0 - value,
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

/// The arenas and their byte budget.
pub struct Tree<M> {
    /// All nodes; node 0 is the root.
    pub nodes: Vec<Node>,
    /// All edges, each node's contiguous.
    pub edges: Vec<Edge<M>>,
    budget: usize,
    /// Set once a request for room failed: the tree stops growing.
    pub full: bool,
}

/// Grows `v` so that it holds `needed` elements, never past `max_len`: doubling while there is
/// room, but never taking more than half the room left beyond `needed`, so that the other
/// arena can still grow and the budget fills up before growth fails.
fn grow<T>(v: &mut Vec<T>, needed: usize, max_len: usize) -> bool {
    if needed <= v.capacity() {
        return true;
    }
    if needed > max_len {
        return false;
    }
    let doubled = v.capacity().saturating_mul(2).max(1024);
    let target = doubled.min(needed + (max_len - needed) / 2).max(needed);
    v.try_reserve_exact(target - v.len()).is_ok()
}

impl<M: Copy> Tree<M> {
    /// An empty tree that will never hold more than `budget` bytes of nodes and edges.
    pub fn new(budget: usize) -> Self {
        Tree {
            nodes: Vec::new(),
            edges: Vec::new(),
            budget,
            full: false,
        }
    }

    /// Bytes of arena allocated so far.
    fn allocated(&self) -> usize {
        self.nodes.capacity() * size_of::<Node>() + self.edges.capacity() * size_of::<Edge<M>>()
    }

    /// Permille of the budget in use.
    pub fn permille(&self) -> u32 {
        let used = self.nodes.len() * size_of::<Node>() + self.edges.len() * size_of::<Edge<M>>();
        (used as u128 * 1000 / self.budget.max(1) as u128).min(1000) as u32
    }

    /// Makes room for `nodes` more nodes and `edges` more edges within the budget; on failure
    /// marks the tree full and returns false. A full tree stays full.
    pub fn reserve(&mut self, nodes: usize, edges: usize) -> bool {
        if self.full {
            return false;
        }
        let need_n = self.nodes.len() + nodes;
        let need_e = self.edges.len() + edges;
        let ok = self.grow_both(need_n, need_e) || {
            // One arena's spare capacity may be what the other needs: give it back, try again.
            self.nodes.shrink_to(need_n);
            self.edges.shrink_to(need_e);
            self.grow_both(need_n, need_e)
        };
        debug_assert!(self.allocated() <= self.budget);
        if !ok {
            self.full = true;
        }
        ok
    }

    fn grow_both(&mut self, need_n: usize, need_e: usize) -> bool {
        let (sn, se) = (size_of::<Node>(), size_of::<Edge<M>>());
        let edge_room = self
            .budget
            .saturating_sub(self.nodes.capacity().max(need_n) * sn)
            / se;
        grow(&mut self.edges, need_e, edge_room) && {
            let node_room = self.budget.saturating_sub(self.edges.capacity() * se) / sn;
            grow(&mut self.nodes, need_n, node_room)
        }
    }

    /// The byte budget the tree was made with.
    pub fn budget(&self) -> usize {
        self.budget
    }

    /// Keeps only the subtree under `new_root`, which becomes node 0, and frees the rest for
    /// growth (the arenas keep their capacity). In place: nodes keep their order of creation
    /// (a parent is always older than its children, so `new_root` comes first and every node
    /// moves down or stays), and each node's edges, contiguous, move down in the order they
    /// lie in the arena (widening leaves dead edges behind; they are dropped).
    pub fn reroot(&mut self, new_root: NodeId) {
        let mut kept = Vec::new();
        let mut stack = vec![new_root];
        while let Some(id) = stack.pop() {
            kept.push(id);
            let n = &self.nodes[id as usize];
            for e in n.edge_ids() {
                let child = self.edges[e as usize].child;
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
        let mut new_id = vec![NO_CHILD; self.nodes.len()];
        for (i, &old) in kept.iter().enumerate() {
            new_id[old as usize] = i as NodeId;
        }
        let mut with_edges: Vec<NodeId> = kept
            .iter()
            .copied()
            .filter(|&id| self.nodes[id as usize].edge_count > 0)
            .collect();
        with_edges.sort_unstable_by_key(|&id| self.nodes[id as usize].first_edge);
        let mut cursor: EdgeId = 0;
        for id in with_edges {
            let n = &mut self.nodes[id as usize];
            let range = n.edge_ids();
            self.edges
                .copy_within(range.start as usize..range.end as usize, cursor as usize);
            n.first_edge = cursor;
            cursor += n.edge_count;
        }
        self.edges.truncate(cursor as usize);
        for edge in &mut self.edges {
            if edge.child != NO_CHILD {
                edge.child = new_id[edge.child as usize];
            }
        }
        for (i, &old) in kept.iter().enumerate() {
            self.nodes[i] = self.nodes[old as usize];
        }
        self.nodes.truncate(kept.len());
        self.full = false;
    }

    /// Adds a node (room must have been reserved) and returns its id.
    pub fn push_node(&mut self, node: Node) -> NodeId {
        self.nodes.push(node);
        (self.nodes.len() - 1) as NodeId
    }

    /// The child of `node` to descend into: the PUCT choice, the best
    /// `Q + c_puct · P · √N / (1 + n)` among the children not proven lost for the side to move
    /// (`Q` its value for that side, `P` its prior, `N` and `n` the visits of node and child).
    /// An unvisited child's `Q` is the node's own, less `fpu_reduction`, so unvisited children
    /// are tried in the order of their priors. Only called on expanded, unproven nodes.
    ///
    /// Returns the best edge and whether the best move left out of the edges (a node expanded
    /// with its best moves only) would beat it: then the node should be widened, and that move
    /// is the choice.
    pub fn select(&self, node: NodeId, c_puct: f32, fpu_reduction: f32) -> (EdgeId, bool) {
        let n = &self.nodes[node as usize];
        let side = n.side;
        let scale = c_puct * (n.visits.max(1) as f32).sqrt();
        let fpu = (for_side(n.mean(), side) as f32 - fpu_reduction).max(0.0);
        let mut best = n.first_edge;
        let mut best_score = f32::NEG_INFINITY;
        for e in n.edge_ids() {
            let edge = &self.edges[e as usize];
            let (q, visits) = if edge.child == NO_CHILD {
                (fpu, 0)
            } else {
                let child = &self.nodes[edge.child as usize];
                if matches!(child.result, Some(Outcome::Win(p)) if p != side) {
                    continue;
                }
                (for_side(child.q(), side) as f32, child.visits)
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
        let n = &self.nodes[node as usize];
        let side = n.side;
        let mut best: Option<(EdgeId, (u8, i64, f64))> = None;
        for e in n.edge_ids() {
            let child = self.edges[e as usize].child;
            if child == NO_CHILD {
                continue;
            }
            let r = rank(&self.nodes[child as usize], side);
            if best.as_ref().is_none_or(|(_, b)| r > *b) {
                best = Some((e, r));
            }
        }
        best.map(|(e, _)| e).or_else(|| {
            n.edge_ids().reduce(|a, b| {
                if self.edges[b as usize].prior > self.edges[a as usize].prior {
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
        let n = &self.nodes[node as usize];
        let side = n.side;
        let mut visited: Vec<EdgeId> = n
            .edge_ids()
            .filter(|&e| self.edges[e as usize].child != NO_CHILD)
            .collect();
        let key = |e: &EdgeId| rank(&self.nodes[self.edges[*e as usize].child as usize], side);
        visited.sort_by(|a, b| {
            key(b)
                .partial_cmp(&key(a))
                .unwrap_or(std::cmp::Ordering::Equal)
        });
        if visited.is_empty() {
            visited.extend(self.best_edge(node));
        }
        visited
    }

    /// Derives `node`'s result from its children (MCTS-solver): won if one child wins for the
    /// side to move, else decided once every move has an edge and every child is decided: drawn
    /// if one draws, else lost. Returns whether the node is proven now.
    pub fn update_proof(&mut self, node: NodeId) -> bool {
        let n = self.nodes[node as usize];
        if n.result.is_some() {
            return true;
        }
        let side = n.side;
        let mut all_known = n.next_prior == 0.0;
        let mut win: Option<u16> = None;
        let mut draw: Option<u16> = None;
        let mut longest_loss = 0;
        for e in n.edge_ids() {
            let child = self.edges[e as usize].child;
            let c = &self.nodes[child as usize];
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
        let n = &mut self.nodes[node as usize];
        n.result = Some(result);
        n.dist = dist.saturating_add(1);
        true
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_budget_is_never_exceeded() {
        let mut tree: Tree<u32> = Tree::new(100_000);
        let mut added = 0;
        while tree.reserve(1, 50) {
            tree.push_node(Node::leaf(Player::One, 0.5));
            for _ in 0..50 {
                tree.edges.push(Edge {
                    mv: 0,
                    prior: 0.0,
                    value: 0.5,
                    child: NO_CHILD,
                });
            }
            added += 1;
            assert!(tree.allocated() <= 100_000);
        }
        assert!(tree.full);
        // Growth slows down near the budget instead of failing with much of it unused.
        assert!(tree.permille() > 950, "{} permille", tree.permille());
        assert!(added > 90, "{added} expansions fit in 100 kB");
    }

    fn edge(mv: u32, child: NodeId) -> Edge<u32> {
        Edge {
            mv,
            prior: 0.5,
            value: 0.5,
            child,
        }
    }

    #[test]
    fn rerooting_keeps_the_subtree_in_place_and_drops_the_rest() {
        let mut tree: Tree<u32> = Tree::new(1 << 20);
        assert!(tree.reserve(6, 8));
        // Root 0 → a (1), b (2); a → c (3) and an unvisited move; b → d (4); c → e (5).
        // a was widened: its first two edges were left behind as dead ones.
        for visits in [10, 6, 4, 3, 2, 1] {
            let id = tree.push_node(Node::leaf(Player::One, 0.5));
            tree.nodes[id as usize].visits = visits;
        }
        let edges = [
            edge(100, 1), // 0: root → a
            edge(101, 2), // 1: root → b
            edge(110, 3), // 2: dead (a before widening)
            edge(200, 4), // 3: b → d
            edge(110, 3), // 4: a → c
            edge(111, NO_CHILD),
            edge(300, 5), // 6: c → e
        ];
        tree.edges.extend(edges);
        for (id, first, count) in [(0, 0, 2), (1, 4, 2), (2, 3, 1), (3, 6, 1)] {
            let n = &mut tree.nodes[id];
            (n.first_edge, n.edge_count, n.expanded) = (first, count, true);
        }
        tree.full = true;
        tree.reroot(1);
        // a, c, e remain, in that order, with a's two edges and c's one.
        let visits: Vec<u32> = tree.nodes.iter().map(|n| n.visits).collect();
        assert_eq!(visits, [6, 3, 1]);
        let moves: Vec<(u32, NodeId)> = tree.edges.iter().map(|e| (e.mv, e.child)).collect();
        assert_eq!(moves, [(110, 1), (111, NO_CHILD), (300, 2)]);
        assert_eq!(tree.nodes[0].edge_ids(), 0..2);
        assert_eq!(tree.nodes[1].edge_ids(), 2..3);
        assert_eq!(tree.nodes[2].edge_count, 0);
        assert!(!tree.full);
        // Rerooting at the root changes nothing.
        let before: Vec<u32> = tree.edges.iter().map(|e| e.mv).collect();
        tree.reroot(0);
        assert_eq!(tree.edges.iter().map(|e| e.mv).collect::<Vec<_>>(), before);
        assert_eq!(tree.nodes.len(), 3);
    }

    #[test]
    fn proofs_follow_the_side_to_move() {
        let mut tree: Tree<u32> = Tree::new(1 << 20);
        assert!(tree.reserve(4, 2));
        let root = tree.push_node(Node::leaf(Player::One, 0.5));
        // Player one moves again after its first move; the second leads to a loss in 3.
        let again = tree.push_node(Node::leaf(Player::One, 0.5));
        let lost = tree.push_node(Node {
            dist: 3,
            ..Node::terminal(Outcome::Win(Player::Two))
        });
        for child in [again, lost] {
            tree.edges.push(Edge {
                mv: child,
                prior: 0.5,
                value: 0.5,
                child,
            });
        }
        tree.nodes[root as usize].edge_count = 2;
        tree.nodes[root as usize].expanded = true;
        assert!(!tree.update_proof(root));
        // The lost child is never chosen.
        assert_eq!(tree.select(root, 1.0, 0.1), (0, false));
        tree.nodes[again as usize].result = Some(Outcome::Win(Player::One));
        tree.nodes[again as usize].dist = 2;
        assert!(tree.update_proof(root));
        assert_eq!(
            tree.nodes[root as usize].result,
            Some(Outcome::Win(Player::One))
        );
        assert_eq!(tree.nodes[root as usize].dist, 3);
        assert_eq!(tree.best_edge(root), Some(0));
    }
}
