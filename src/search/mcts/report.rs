//! What an MCTS search reports from its tree: the main lines (the most visited moves), their
//! scores (winning chances back in evaluation units, or mate once proven), and whether the
//! main line is long enough for a depth limit. Read while threads may still be growing the
//! tree: every figure is a snapshot.

use std::time::Instant;

use super::tree::{EdgeId, NO_CHILD, NodeId, Tree, for_side};
use super::unsquash;
use crate::game::{Outcome, PackedMove};
use crate::search::score::{MATE, MATE_BOUND};
use crate::search::{Score, SearchInfo};

/// What the `info` lines of a search need beside the tree.
pub struct Totals {
    /// Iterations done, all threads.
    pub iterations: u64,
    /// The deepest ply an iteration reached, all threads.
    pub seldepth: u32,
    /// When the search started.
    pub start: Instant,
    /// Evaluation units per unit of logit ([`super::Config::scale`]).
    pub scale: f32,
}

/// The best `lines` root lines as `info` reports them.
pub fn infos<M: Copy + PackedMove>(
    tree: &Tree<M>,
    lines: usize,
    totals: &Totals,
) -> Vec<SearchInfo<M>> {
    let ranked = root_order(tree);
    let elapsed = totals.start.elapsed();
    let shown = lines.min(ranked.len());
    ranked[..shown]
        .iter()
        .enumerate()
        .map(|(i, &e)| {
            let pv = line(tree, e);
            SearchInfo {
                depth: pv.len() as u32,
                seldepth: totals.seldepth.max(1),
                multipv: (lines > 1).then_some(i + 1),
                score: Score::from_internal(if i == 0 {
                    position_score(tree, e, totals.scale)
                } else {
                    edge_score(tree, e, totals.scale)
                }),
                nodes: totals.iterations,
                nps: (totals.iterations as u128 * 1000 / elapsed.as_millis().max(1)) as u64,
                time_ms: elapsed.as_millis() as u64,
                hashfull: tree.permille(),
                pv,
            }
        })
        .collect()
}

/// The root edges best first, as the lines are reported: [`Tree::ranked_edges`], except that
/// while the root is not proven, a move proven lost is never first when a move not searched yet
/// can be (the one of highest prior): that every searched move loses says nothing of the
/// others.
fn root_order<M: Copy + PackedMove>(tree: &Tree<M>) -> Vec<EdgeId> {
    let mut ranked = tree.ranked_edges(0);
    let root = tree.node(0);
    let lost_first = ranked
        .first()
        .is_some_and(|&e| edge_score(tree, e, 1.0) <= -MATE_BOUND);
    if root.result.is_none() && lost_first {
        let unsearched = root
            .edge_ids()
            .filter(|&e| tree.edge(e).child == NO_CHILD)
            .reduce(|a, b| {
                if tree.edge(b).prior > tree.edge(a).prior {
                    b
                } else {
                    a
                }
            });
        if let Some(e) = unsearched {
            ranked.retain(|&r| r != e);
            ranked.insert(0, e);
        }
    }
    ranked
}

/// The score of the first line, which is reported as the position's: [`edge_score`], but a
/// proven loss only where the root itself is proven lost. While other moves are unproven, the
/// line of a move proven lost (played only when every move searched so far is lost and none is
/// left unsearched with an edge) scores the evaluation its edge was given, not a mate.
fn position_score<M: Copy + PackedMove>(tree: &Tree<M>, edge: EdgeId, scale: f32) -> i32 {
    let score = edge_score(tree, edge, scale);
    if score <= -MATE_BOUND && tree.node(0).result.is_none() {
        let side = tree.node(0).side;
        unsquash(for_side(tree.edge(edge).value as f64, side), scale)
    } else {
        score
    }
}

/// The most visited line from root edge `edge` on.
pub fn line<M: Copy + PackedMove>(tree: &Tree<M>, mut edge: EdgeId) -> Vec<M> {
    let mut pv = Vec::new();
    loop {
        let e = tree.edge(edge);
        let Some(mv) = tree.edge_move(edge) else {
            break;
        };
        pv.push(mv);
        if e.child == NO_CHILD || !tree.node(e.child).expanded {
            break;
        }
        match tree.best_edge(e.child) {
            Some(next) if tree.edge(next).child != NO_CHILD => edge = next,
            _ => break,
        }
    }
    pv
}

/// Whether the principal variation is `depth` plies long or ends in a proven result.
pub fn pv_reaches<M: Copy + PackedMove>(tree: &Tree<M>, depth: u32) -> bool {
    let mut node: NodeId = 0;
    for _ in 0..depth {
        if tree.node(node).result.is_some() {
            return true;
        }
        let best = tree.best_edge(node);
        match best.map(|e| tree.edge(e).child) {
            Some(child) if child != NO_CHILD => node = child,
            _ => return false,
        }
    }
    true
}

/// The score of root edge `edge` from the root side's view, in alpha-beta's internal units
/// (mate scores count plies from the root).
pub fn edge_score<M: Copy + PackedMove>(tree: &Tree<M>, edge: EdgeId, scale: f32) -> i32 {
    let side = tree.node(0).side;
    let e = tree.edge(edge);
    if e.child == NO_CHILD {
        return unsquash(for_side(e.value as f64, side), scale);
    }
    let child = tree.node(e.child);
    let plies = child.dist as i32 + 1;
    match child.result {
        Some(Outcome::Win(p)) if p == side => MATE - plies,
        Some(Outcome::Win(_)) => -(MATE - plies),
        Some(Outcome::Draw) => 0,
        None => unsquash(for_side(child.mean(), side), scale),
    }
}
