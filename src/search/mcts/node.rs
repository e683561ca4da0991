//! Nodes and edges of the MCTS tree, as the search reads them ([`Node`], [`Edge`]: plain
//! copies) and as the tree stores them ([`NodeSlot`], [`EdgeSlot`]: atomics, so that several
//! threads can grow and score one tree without locks and without `unsafe`). A slot is written
//! whole before it is published (an edge range through its node's `edges` word, a node
//! through its parent edge's `child`), with release stores that readers load with acquire.

use std::sync::atomic::{AtomicU32, AtomicU64, Ordering};

use crate::game::{Outcome, PackedMove, Player};

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

/// An edge as selection reads it: everything but the move (see [`super::tree::Tree::edge_move`]).
#[derive(Clone, Copy, Debug)]
pub struct EdgeView {
    /// Prior probability of the move.
    pub prior: f32,
    /// Static value of the position after the move, player one's view.
    pub value: f32,
    /// The child node, or [`NO_CHILD`].
    pub child: NodeId,
}

/// A position in the tree (a copy of its slot). Its moves are the edges
/// `first_edge..first_edge + edge_count`. Its size is what the byte budget counts a node as.
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
    /// Prior of the best move left out of the edges (see [`super::tree::Tree::select`]); 0
    /// when every move has an edge.
    pub next_prior: f32,
    /// Plies to the end of the game under best play, once `result` is known.
    pub dist: u16,
    /// Whose turn it is in this position.
    pub side: Player,
    /// The proven result: the game is over here, or best play from here is known to lead to it.
    pub result: Option<Outcome>,
    /// Whether its edges exist.
    pub expanded: bool,
    /// Its edges with a child lie among the first `reach` (the edges after them have none):
    /// selection scans those and the one after ([`super::tree::Tree::select`]).
    pub reach: u32,
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
            reach: 0,
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

/// `status` bit: player two is to move.
const SIDE_TWO: u32 = 1;
/// `status` bit: the node's edges exist.
const EXPANDED: u32 = 2;
/// `status` bit: a thread is expanding the node.
const EXPANDING: u32 = 4;
/// `status` bit: a thread is giving the node all its edges.
const WIDENING: u32 = 8;
/// `status` holds [`Node::reach`] from this bit up.
const REACH_SHIFT: u32 = 4;
/// The largest reach `status` holds (a node with more edges than this is scanned whole).
const REACH_MAX: u32 = u32::MAX >> REACH_SHIFT;

/// A proven result as the two low bits of `proof` (0: none).
fn result_code(result: Option<Outcome>) -> u32 {
    match result {
        None => 0,
        Some(Outcome::Win(Player::One)) => 1,
        Some(Outcome::Win(Player::Two)) => 2,
        Some(Outcome::Draw) => 3,
    }
}

fn result_of(code: u32) -> Option<Outcome> {
    match code & 3 {
        1 => Some(Outcome::Win(Player::One)),
        2 => Some(Outcome::Win(Player::Two)),
        3 => Some(Outcome::Draw),
        _ => None,
    }
}

/// Where a node lives in the arena: [`Node`]'s fields as atomics, and the iterations under
/// way through it (virtual loss). No bigger than a [`Node`], so the budget holds.
#[derive(Debug, Default)]
pub struct NodeSlot {
    /// `f64` bits of the sum.
    sum: AtomicU64,
    /// `first_edge` in the low half, `edge_count` in the high half: one word, so a reader
    /// never sees the range of one widening with the count of another.
    edges: AtomicU64,
    visits: AtomicU32,
    /// `f32` bits.
    value: AtomicU32,
    /// `f32` bits.
    next_prior: AtomicU32,
    /// Iterations whose path goes through the node and that have not backed up yet.
    in_flight: AtomicU32,
    /// [`SIDE_TWO`], [`EXPANDED`], [`EXPANDING`], [`WIDENING`], and the reach from
    /// [`REACH_SHIFT`] up.
    status: AtomicU32,
    /// The result's code in the low bits, `dist` from bit 16.
    proof: AtomicU32,
}

impl NodeSlot {
    /// An empty slot (what reading a slot that does not exist gives).
    pub const fn empty() -> NodeSlot {
        NodeSlot {
            sum: AtomicU64::new(0),
            edges: AtomicU64::new(0),
            visits: AtomicU32::new(0),
            value: AtomicU32::new(0),
            next_prior: AtomicU32::new(0),
            in_flight: AtomicU32::new(0),
            status: AtomicU32::new(0),
            proof: AtomicU32::new(0),
        }
    }

    /// Overwrites the slot with `node` (no iteration under way through it).
    pub fn store(&self, node: &Node) {
        let r = Ordering::Relaxed;
        self.sum.store(node.sum.to_bits(), r);
        let edges = node.first_edge as u64 | (node.edge_count as u64) << 32;
        self.edges.store(edges, r);
        self.visits.store(node.visits, r);
        self.value.store(node.value.to_bits(), r);
        self.next_prior.store(node.next_prior.to_bits(), r);
        self.in_flight.store(0, r);
        self.proof
            .store(result_code(node.result) | (node.dist as u32) << 16, r);
        let side = if node.side == Player::Two {
            SIDE_TWO
        } else {
            0
        };
        let expanded = if node.expanded { EXPANDED } else { 0 };
        let reach = node.reach.min(REACH_MAX) << REACH_SHIFT;
        self.status
            .store(side | expanded | reach, Ordering::Release);
    }

    /// A copy of the node.
    pub fn load(&self) -> Node {
        let status = self.status.load(Ordering::Acquire);
        let edges = self.edges.load(Ordering::Acquire);
        let proof = self.proof.load(Ordering::Acquire);
        let r = Ordering::Relaxed;
        Node {
            sum: f64::from_bits(self.sum.load(r)),
            first_edge: edges as u32,
            edge_count: (edges >> 32) as u32,
            visits: self.visits.load(r),
            value: f32::from_bits(self.value.load(r)),
            next_prior: f32::from_bits(self.next_prior.load(r)),
            dist: (proof >> 16) as u16,
            side: if status & SIDE_TWO != 0 {
                Player::Two
            } else {
                Player::One
            },
            result: result_of(proof),
            expanded: status & EXPANDED != 0,
            reach: match status >> REACH_SHIFT {
                REACH_MAX => u32::MAX,
                reach => reach,
            },
        }
    }

    /// What selection reads of a child, without a whole copy: its proven result, its value
    /// to trust ([`Node::q`]), its visits and the iterations under way through it.
    #[inline]
    pub fn selection(&self) -> (Option<Outcome>, f64, u32, u32) {
        let result = result_of(self.proof.load(Ordering::Acquire));
        let r = Ordering::Relaxed;
        let visits = self.visits.load(r);
        let q = match result {
            Some(o) => exact(o) as f64,
            None if visits == 0 => f32::from_bits(self.value.load(r)) as f64,
            None => f64::from_bits(self.sum.load(r)) / visits as f64,
        };
        (result, q, visits, self.in_flight.load(r))
    }

    /// An iteration enters the node (a virtual loss).
    pub fn enter(&self) {
        self.in_flight.fetch_add(1, Ordering::Relaxed);
    }

    /// An iteration through the node has backed up.
    pub fn leave(&self) {
        let _ = self
            .in_flight
            .fetch_update(Ordering::Relaxed, Ordering::Relaxed, |n| n.checked_sub(1));
    }

    /// Adds a visit of value `value`. A node that has seen 2³² − 1 visits keeps its mean (hours
    /// of search on a full tree): sum and visits stop together.
    pub fn add_visit(&self, value: f64) {
        let r = Ordering::Relaxed;
        if self.visits.fetch_update(r, r, |v| v.checked_add(1)).is_ok() {
            let _ = self
                .sum
                .fetch_update(r, r, |s| Some((f64::from_bits(s) + value).to_bits()));
        }
    }

    /// Sets `bit` in `status` if neither it nor `blocked` is set; whether it was.
    fn claim(&self, bit: u32, blocked: u32) -> bool {
        self.status
            .fetch_update(Ordering::Acquire, Ordering::Acquire, |s| {
                (s & (bit | blocked) == 0).then_some(s | bit)
            })
            .is_ok()
    }

    /// Claims the expansion of a leaf for the calling thread: false if the node is expanded
    /// or another thread is expanding it.
    pub fn claim_expansion(&self) -> bool {
        self.claim(EXPANDING, EXPANDED)
    }

    /// Ends a claimed expansion: the node is expanded if `done` (its edges were published
    /// first), else a leaf again.
    pub fn end_expansion(&self, done: bool) {
        let set = if done { EXPANDED } else { 0 };
        let _ = self
            .status
            .fetch_update(Ordering::Release, Ordering::Relaxed, |s| {
                Some((s & !EXPANDING) | set)
            });
    }

    /// Claims the widening of the node for the calling thread: false if another thread is at
    /// it.
    pub fn claim_widening(&self) -> bool {
        self.claim(WIDENING, 0)
    }

    /// Ends a claimed widening.
    pub fn end_widening(&self) {
        self.status.fetch_and(!WIDENING, Ordering::Release);
    }

    /// Raises the node's reach to at least `reach` (its edges' order never changes, so it never
    /// falls).
    pub fn raise_reach(&self, reach: u32) {
        let reach = reach.min(REACH_MAX);
        let _ = self
            .status
            .fetch_update(Ordering::Release, Ordering::Relaxed, |s| {
                (s >> REACH_SHIFT < reach)
                    .then_some(s & ((1 << REACH_SHIFT) - 1) | reach << REACH_SHIFT)
            });
    }

    /// Publishes the node's edges (written before) and the prior of its best move left out.
    pub fn set_edges(&self, first: EdgeId, count: u32, next_prior: f32) {
        self.next_prior
            .store(next_prior.to_bits(), Ordering::Relaxed);
        let edges = first as u64 | (count as u64) << 32;
        self.edges.store(edges, Ordering::Release);
    }

    /// Records a proven result, `dist` plies from the end.
    pub fn set_proof(&self, result: Outcome, dist: u16) {
        let proof = result_code(Some(result)) | (dist as u32) << 16;
        self.proof.store(proof, Ordering::Release);
    }
}

/// Where an edge lives in the arena: [`Edge`]'s fields as atomics, the move packed
/// ([`PackedMove`]).
#[derive(Debug, Default)]
pub struct EdgeSlot {
    mv: AtomicU32,
    /// `f32` bits.
    prior: AtomicU32,
    /// `f32` bits.
    value: AtomicU32,
    child: AtomicU32,
}

impl EdgeSlot {
    /// An empty slot (what reading a slot that does not exist gives).
    pub const fn empty() -> EdgeSlot {
        EdgeSlot {
            mv: AtomicU32::new(0),
            prior: AtomicU32::new(0),
            value: AtomicU32::new(0),
            child: AtomicU32::new(NO_CHILD),
        }
    }

    /// Overwrites the slot with `edge` (before the edge is published).
    pub fn store<M: Copy + PackedMove>(&self, edge: &Edge<M>) {
        let r = Ordering::Relaxed;
        self.mv.store(edge.mv.pack(), r);
        self.prior.store(edge.prior.to_bits(), r);
        self.value.store(edge.value.to_bits(), r);
        self.child.store(edge.child, Ordering::Release);
    }

    /// Overwrites the slot with a copy of `other`.
    pub fn copy_from(&self, other: &EdgeSlot) {
        let r = Ordering::Relaxed;
        self.mv.store(other.mv.load(r), r);
        self.prior.store(other.prior.load(r), r);
        self.value.store(other.value.load(r), r);
        self.child.store(other.child.load(r), r);
    }

    /// The edge without its move.
    pub fn view(&self) -> EdgeView {
        let child = self.child.load(Ordering::Acquire);
        let r = Ordering::Relaxed;
        EdgeView {
            prior: f32::from_bits(self.prior.load(r)),
            value: f32::from_bits(self.value.load(r)),
            child,
        }
    }

    /// The move (`None` only for a slot never written).
    pub fn mv<M: PackedMove>(&self) -> Option<M> {
        M::unpack(self.mv.load(Ordering::Relaxed))
    }

    /// The child, or [`NO_CHILD`].
    pub fn child(&self) -> NodeId {
        self.child.load(Ordering::Acquire)
    }

    /// Sets the child of an edge that has none; returns the child the edge has afterwards
    /// (another thread's, if it was first).
    pub fn set_child(&self, child: NodeId) -> NodeId {
        match self
            .child
            .compare_exchange(NO_CHILD, child, Ordering::AcqRel, Ordering::Acquire)
        {
            Ok(_) => child,
            Err(theirs) => theirs,
        }
    }

    /// Overwrites the child (single-threaded re-rooting).
    pub fn replace_child(&self, child: NodeId) {
        self.child.store(child, Ordering::Relaxed);
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::game::isaac::IsaacMove;
    use crate::game::sight::SightMove;
    use std::mem::size_of;

    #[test]
    fn slots_are_no_bigger_than_what_the_budget_counts() {
        assert!(size_of::<NodeSlot>() <= size_of::<Node>());
        assert!(size_of::<EdgeSlot>() <= size_of::<Edge<IsaacMove>>());
        assert!(size_of::<EdgeSlot>() <= size_of::<Edge<SightMove>>());
    }

    #[test]
    fn a_node_reads_back_as_stored() {
        let slot = NodeSlot::default();
        let node = Node {
            sum: 2.5,
            first_edge: 7,
            edge_count: 3,
            visits: 4,
            value: 0.25,
            next_prior: 0.125,
            dist: 9,
            side: Player::Two,
            result: Some(Outcome::Draw),
            expanded: true,
            reach: 2,
        };
        slot.store(&node);
        assert_eq!(format!("{:?}", slot.load()), format!("{node:?}"));
        assert!(!slot.claim_expansion());
        assert!(slot.claim_widening());
        assert!(!slot.claim_widening());
        slot.end_widening();
        assert!(slot.claim_widening());
        // The reach shares a word with the claims and only rises.
        slot.raise_reach(1);
        assert_eq!(slot.load().reach, 2);
        slot.raise_reach(40);
        assert_eq!(slot.load().reach, 40);
        assert!(slot.load().expanded && !slot.claim_widening());
        slot.end_widening();
        slot.raise_reach(u32::MAX);
        assert_eq!(slot.load().reach, u32::MAX);
        assert_eq!(slot.load().side, Player::Two);
    }
}
