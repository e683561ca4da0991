//! Tree reuse between moves: the tree of the last search is kept with the position at its
//! root, and the next search of a position that the tree reaches within a few plies (the
//! move the engine played, then the opponent's reply) starts from that subtree instead of
//! from nothing. Everything in it is still true: values are absolute and a proven result
//! depends only on the position, never on the path to it.

use std::collections::VecDeque;

use super::tree::{NO_CHILD, NodeId, Tree};
use crate::game::{Game, Searchable};

/// Plies below the kept root searched for the new root: the engine's own move and the
/// opponent's reply, or a few moves of a player who moves several times in a row.
const MAX_REUSE_PLIES: u32 = 4;
/// Positions compared at most while looking for the new root (a few milliseconds).
const MAX_POSITIONS_LOOKED_AT: usize = 20_000;

/// The tree of the last MCTS search of a game, kept for the next one (see the module docs).
/// Empty after a new game, a `Hash` change or a search that was restricted to some root moves.
pub struct KeptTree<G: Searchable> {
    kept: Option<(G, Tree<G::Move>)>,
}

impl<G: Searchable> Default for KeptTree<G> {
    fn default() -> Self {
        KeptTree { kept: None }
    }
}

impl<G: Searchable> KeptTree<G> {
    /// Forgets the kept tree (a new game, `Clear Hash`, a new `Hash` size).
    pub fn clear(&mut self) {
        self.kept = None;
    }

    /// Whether a tree is kept.
    pub fn is_empty(&self) -> bool {
        self.kept.is_none()
    }

    /// Keeps `tree`, searched from `root`, for the next search.
    pub(super) fn keep(&mut self, root: &G, tree: Tree<G::Move>) {
        self.kept = Some((root.clone(), tree));
    }

    /// Takes the kept tree re-rooted at `root` when `root` is in it, within
    /// [`MAX_REUSE_PLIES`] plies of the kept root, as an expanded node, and the tree was made
    /// within the same `budget`; else drops it. Either way nothing is kept afterwards.
    pub(super) fn take_for(&mut self, root: &G, budget: usize) -> Option<Tree<G::Move>> {
        let (kept_root, mut tree) = self.kept.take()?;
        if tree.budget() != budget || tree.node_count() == 0 {
            return None;
        }
        let node = find(&tree, &kept_root, root)?;
        tree.reroot(node);
        Some(tree)
    }
}

/// The node of `tree` (rooted at `kept_root`) whose position is `target`, looked for breadth
/// first within [`MAX_REUSE_PLIES`] plies; only an expanded node is worth reusing.
fn find<G: Game>(tree: &Tree<G::Move>, kept_root: &G, target: &G) -> Option<NodeId> {
    let key = target.hash();
    let mut queue = VecDeque::from([(0 as NodeId, kept_root.clone(), 0u32)]);
    let mut looked_at = 0;
    while let Some((id, pos, ply)) = queue.pop_front() {
        let node = tree.node(id);
        if !node.expanded {
            continue;
        }
        if pos.hash() == key && pos == *target {
            return Some(id);
        }
        looked_at += 1;
        if ply == MAX_REUSE_PLIES || looked_at >= MAX_POSITIONS_LOOKED_AT || node.result.is_some() {
            continue;
        }
        for e in node.edge_ids() {
            let child = tree.edge(e).child;
            if let (true, Some(mv)) = (child != NO_CHILD, tree.edge_move(e)) {
                let mut pos = pos.clone();
                pos.play(mv);
                queue.push_back((child, pos, ply + 1));
            }
        }
    }
    None
}
