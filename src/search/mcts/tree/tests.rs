//! The tree alone: the budget, re-rooting, proofs, and several threads growing one tree.

use super::*;

/// Plain numbers as moves, for trees built by hand.
impl PackedMove for u32 {
    fn pack(self) -> u32 {
        self
    }

    fn unpack(bits: u32) -> Option<Self> {
        Some(bits)
    }
}

/// Adds a node with `edges` fresh edges; false once the tree is full.
fn add(tree: &Tree<u32>, edges: usize) -> bool {
    let Some((id, first)) = tree.alloc(1, edges) else {
        return false;
    };
    tree.init_node(id, &Node::leaf(Player::One, 0.5));
    for e in 0..edges as EdgeId {
        tree.init_edge(first + e, &edge(0, NO_CHILD));
    }
    true
}

#[test]
fn the_budget_is_never_exceeded() {
    let tree: Tree<u32> = Tree::new(100_000);
    let mut added = 0;
    while add(&tree, 50) {
        added += 1;
        assert!(tree.room.allocated() <= 100_000);
    }
    assert!(tree.is_full());
    // Growth slows down near the budget instead of failing with much of it unused.
    assert!(tree.permille() > 950, "{} permille", tree.permille());
    assert!(added > 90, "{added} expansions fit in 100 kB");
}

#[test]
fn threads_share_the_budget_without_losing_room() {
    let tree: Tree<u32> = Tree::new(1 << 20);
    let added: usize = std::thread::scope(|s| {
        let workers: Vec<_> = (0..4)
            .map(|_| {
                s.spawn(|| {
                    let mut added = 0;
                    while add(&tree, 20) {
                        added += 1;
                    }
                    added
                })
            })
            .collect();
        workers.into_iter().map(|w| w.join().unwrap_or(0)).sum()
    });
    assert!(tree.is_full());
    assert!(tree.room.allocated() <= 1 << 20);
    // Every node added was taken (a few more may be, left unused when a thread could not give
    // back nodes it took with edges that did not fit).
    assert!(tree.node_count() >= added);
    assert!(tree.permille() > 950, "{} permille", tree.permille());
}

fn edge(mv: u32, child: NodeId) -> Edge<u32> {
    Edge {
        mv,
        prior: 0.5,
        value: 0.5,
        child,
    }
}

/// Adds `node`, its edge range set by hand later.
fn push(tree: &Tree<u32>, node: Node) -> NodeId {
    let (id, _) = tree.alloc(1, 0).expect("room");
    tree.init_node(id, &node);
    id
}

fn push_edges(tree: &Tree<u32>, edges: &[Edge<u32>]) {
    let (_, first) = tree.alloc(0, edges.len()).expect("room");
    for (i, e) in edges.iter().enumerate() {
        tree.init_edge(first + i as EdgeId, e);
    }
}

fn set_range(tree: &Tree<u32>, id: NodeId, first: EdgeId, count: u32) {
    let node = tree.node(id);
    tree.init_node(
        id,
        &Node {
            first_edge: first,
            edge_count: count,
            expanded: true,
            reach: count,
            ..node
        },
    );
}

#[test]
fn rerooting_keeps_the_subtree_in_place_and_drops_the_rest() {
    let mut tree: Tree<u32> = Tree::new(1 << 20);
    // Root 0 → a (1), b (2); a → c (3) and an unvisited move; b → d (4); c → e (5).
    // a was widened: its first two edges were left behind as dead ones.
    for visits in [10, 6, 4, 3, 2, 1] {
        push(
            &tree,
            Node {
                visits,
                ..Node::leaf(Player::One, 0.5)
            },
        );
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
    push_edges(&tree, &edges);
    for (id, first, count) in [(0, 0, 2), (1, 4, 2), (2, 3, 1), (3, 6, 1)] {
        set_range(&tree, id, first, count);
    }
    tree.room.set_full();
    tree.reroot(1);
    // a, c, e remain, in that order, with a's two edges and c's one.
    let visits: Vec<u32> = (0..3).map(|id| tree.node(id).visits).collect();
    assert_eq!(visits, [6, 3, 1]);
    assert_eq!(tree.node_count(), 3);
    let moves: Vec<(Option<u32>, NodeId)> = (0..3)
        .map(|e| (tree.edge_move(e), tree.edge(e).child))
        .collect();
    assert_eq!(
        moves,
        [(Some(110), 1), (Some(111), NO_CHILD), (Some(300), 2)]
    );
    assert_eq!(tree.room.lens(), (3, 3));
    assert_eq!(tree.node(0).edge_ids(), 0..2);
    assert_eq!(tree.node(1).edge_ids(), 2..3);
    assert_eq!(tree.node(2).edge_count, 0);
    assert!(!tree.is_full());
    // Rerooting at the root changes nothing.
    tree.reroot(0);
    let after: Vec<Option<u32>> = (0..3).map(|e| tree.edge_move(e)).collect();
    assert_eq!(after, [Some(110), Some(111), Some(300)]);
    assert_eq!(tree.node_count(), 3);
}

#[test]
fn proofs_follow_the_side_to_move() {
    let tree: Tree<u32> = Tree::new(1 << 20);
    let root = push(&tree, Node::leaf(Player::One, 0.5));
    // Player one moves again after its first move; the second leads to a loss in 3.
    let again = push(&tree, Node::leaf(Player::One, 0.5));
    let lost = push(
        &tree,
        Node {
            dist: 3,
            ..Node::terminal(Outcome::Win(Player::Two))
        },
    );
    push_edges(&tree, &[edge(again, again), edge(lost, lost)]);
    set_range(&tree, root, 0, 2);
    assert!(!tree.update_proof(root));
    // The lost child is never chosen.
    assert_eq!(tree.select(root, 1.0, 0.1), (0, false));
    tree.slot(again).set_proof(Outcome::Win(Player::One), 2);
    assert!(tree.update_proof(root));
    assert_eq!(tree.node(root).result, Some(Outcome::Win(Player::One)));
    assert_eq!(tree.node(root).dist, 3);
    assert_eq!(tree.best_edge(root), Some(0));
}

#[test]
fn iterations_under_way_turn_selection_away() {
    let tree: Tree<u32> = Tree::new(1 << 20);
    let root = push(&tree, Node::leaf(Player::One, 0.5));
    let a = push(&tree, Node::leaf(Player::One, 0.5));
    let b = push(&tree, Node::leaf(Player::One, 0.5));
    push_edges(&tree, &[edge(a, a), edge(b, b)]);
    set_range(&tree, root, 0, 2);
    for id in [root, a, b] {
        tree.slot(id).add_visit(0.5);
    }
    // Equal children: the first wins the tie, until an iteration is under way through it.
    assert_eq!(tree.select(root, 1.0, 0.1), (0, false));
    tree.slot(a).enter();
    assert_eq!(tree.select(root, 1.0, 0.1), (1, false));
    tree.slot(a).leave();
    assert_eq!(tree.select(root, 1.0, 0.1), (0, false));
}

#[test]
fn selection_sees_every_child_however_far_down_the_edges() {
    let tree: Tree<u32> = Tree::new(1 << 20);
    let root = push(&tree, Node::leaf(Player::One, 0.5));
    tree.slot(root).add_visit(0.5);
    // A drawn game far down the edges (a terminal child from the expansion), worth more to
    // player one than the unvisited moves (valued 0.5 − 0.4).
    let drawn = push(&tree, Node::terminal(Outcome::Draw));
    let priors = [0.4, 0.3, 0.1, 0.1, 0.05, 0.05];
    let mut edges: Vec<Edge<u32>> = priors
        .iter()
        .enumerate()
        .map(|(i, &prior)| Edge {
            prior,
            ..edge(i as u32, NO_CHILD)
        })
        .collect();
    edges[4].child = drawn;
    push_edges(&tree, &edges);
    tree.set_edges(root, 0, 6, 0.0);
    tree.slot(root).end_expansion(true);
    assert_eq!(tree.node(root).reach, 5);
    assert_eq!(tree.select(root, 0.1, 0.4), (4, false));
    // Without the draw: the first unvisited move, the best prior.
    tree.slot(drawn).set_proof(Outcome::Win(Player::Two), 1);
    assert_eq!(tree.select(root, 0.1, 0.4), (0, false));
    // A child given during the search, past unvisited edges, is seen too.
    let good = push(&tree, Node::leaf(Player::One, 0.9));
    assert_eq!(tree.set_child(root, 3, good), good);
    assert_eq!(tree.node(root).reach, 5);
    assert_eq!(tree.select(root, 0.1, 0.4), (3, false));
    let better = push(&tree, Node::leaf(Player::One, 0.95));
    assert_eq!(tree.set_child(root, 5, better), better);
    assert_eq!(tree.node(root).reach, 6);
    assert_eq!(tree.select(root, 0.1, 0.4), (5, false));
    // A second child for an edge that has one is refused, and the reach does not move.
    assert_eq!(tree.set_child(root, 3, better), good);
}

#[test]
fn a_root_whose_searched_moves_all_lose_is_not_reported_lost() {
    use crate::search::Score;
    use crate::search::mcts::report::{Totals, infos};
    let tree: Tree<u32> = Tree::new(1 << 20);
    let root = push(
        &tree,
        Node {
            visits: 3,
            ..Node::leaf(Player::One, 0.5)
        },
    );
    // Move 7 was searched and is lost in 3 plies; moves 8 and 9 are not searched yet.
    let lost = push(
        &tree,
        Node {
            dist: 2,
            visits: 2,
            ..Node::terminal(Outcome::Win(Player::Two))
        },
    );
    let unsearched = |mv, prior, value| Edge {
        mv,
        prior,
        value,
        child: NO_CHILD,
    };
    push_edges(
        &tree,
        &[
            Edge {
                mv: 7,
                prior: 0.6,
                value: 0.2,
                child: lost,
            },
            unsearched(8, 0.1, 0.3),
            unsearched(9, 0.3, 0.4),
        ],
    );
    set_range(&tree, root, 0, 3);
    assert!(!tree.update_proof(root));
    let totals = Totals {
        iterations: 3,
        seldepth: 3,
        start: std::time::Instant::now(),
        scale: 100.0,
    };
    // The position's line is the unsearched move of highest prior, scored by its evaluation.
    let lines = infos(&tree, 2, &totals);
    assert_eq!(lines[0].pv, vec![9]);
    assert_eq!(lines[0].score, Score::Cp(-41));
    // The lost move's own line keeps its proof: a claim about that move alone.
    assert_eq!(lines[1].pv, vec![7]);
    assert_eq!(lines[1].score, Score::Mate(-2));
    // With no unsearched edge left, the lost move is the line, but not a proof of the root.
    set_range(&tree, root, 0, 1);
    tree.init_node(
        root,
        &Node {
            next_prior: 0.2,
            ..tree.node(root)
        },
    );
    assert!(!tree.update_proof(root));
    let lines = infos(&tree, 1, &totals);
    assert_eq!(lines[0].pv, vec![7]);
    assert_eq!(lines[0].score, Score::Cp(-139));
    // Once every move is known lost, the root is proven and the mate is reported.
    tree.init_node(
        root,
        &Node {
            next_prior: 0.0,
            ..tree.node(root)
        },
    );
    assert!(tree.update_proof(root));
    assert_eq!(infos(&tree, 1, &totals)[0].score, Score::Mate(-2));
}
