//! A second searcher: Monte Carlo tree search with PUCT selection and evaluation leaves, for
//! positions where alpha-beta's horizon hurts (Isaac's placement phase, 100–600 moves a ply).
//! Chosen by the `Searcher` option; generic over [`Searchable`] like the alpha-beta search.
//!
//! One iteration walks from the root to a leaf, choosing at each node the child with the best
//! `Q + c · P · √N / (1 + n)` ([`Config::c_puct`]): `Q` is the child's mean value for the side
//! to move there (for an unvisited child, the node's own value less
//! [`Config::fpu_reduction`]), `P` its prior, `N` and `n` the visits of node and child. The
//! first visit of a child expands it: every move is played and evaluated once. Those
//! evaluations give the priors (a softmax, temperature [`Config::prior_temperature`]) and the
//! leaf's value: the best of them for the side to move, a one-ply search, which measured far
//! stronger than the leaf's own evaluation. Only the best few moves get an edge at first
//! ([`Config::initial_edges`]); the rest are added when the search wants one of them, which
//! keeps the tree small where the branching factor is in the hundreds. Evaluations become
//! winning chances through a logistic, `1 / (1 + e^(−eval / scale))` ([`Config::scale`]). No
//! random playouts: they are slow and say little in these games. Values are stored and backed
//! up in absolute terms (player one's chance), so a player moving several times in a row
//! needs no special case.
//!
//! Finished games score exactly, and results are proven bottom-up (MCTS-solver): a node is won
//! when one child wins for its side to move, decided when every move has a decided child. A
//! proven root ends the search; its score is reported as `mate N`, counted as alpha-beta does
//! (a proof need not be the shortest, so |N| can be larger). Other scores come from the best
//! root move's value `q` through the inverse logistic: `cp = scale · ln(q / (1 − q))`.
//!
//! Threads (`Threads` option, [`SearchParams::threads`]): N threads grow one tree
//! (`threads.rs`), its statistics atomics; an iteration under way counts as a loss for the
//! players choosing along its path (virtual loss, `Tree::select`), so that the threads
//! spread out. One thread searches exactly as the search always did.
//!
//! Limits: `nodes N` counts iterations, all threads together, and stops after exactly N of
//! them (fewer only when the root is proven); `depth D` grows the tree at most D plies deep and stops once the principal
//! variation (the most visited line) is D plies long or ends in a proven result (`Searcher
//! auto` gives a search limited by depth alone to alpha-beta); `movetime` and clocks stop at
//! the time manager's soft target. The tree lives in arenas within a byte budget (the `Hash`
//! size). A full tree stops growing but not searching: iterations go on through the tree
//! there is, scoring its leaves by their static values, so every limit is honoured (only a
//! search limited by `depth` alone, which a full tree could never satisfy, ends when the tree
//! is full). Nothing is random and the clock only decides when to stop, so a search limited
//! by nodes alone on one thread is reproducible (with several, the threads' interleaving is
//! not). [`search_reusing`] keeps the tree for the next search,
//! which goes on from the subtree of its position when the tree reaches it ([`reuse`]).

mod arena;
mod driver;
mod node;
mod report;
pub mod reuse;
mod threads;
mod tree;

use std::sync::atomic::AtomicBool;
use std::time::{Duration, Instant};

use super::score::MATE_BOUND;
use super::smp::MAX_THREADS;
use super::{SearchInfo, SearchParams, SearchResult};
use crate::game::{Player, Searchable};
use driver::Mcts;
use report::{Totals, infos};
pub use reuse::KeptTree;
use threads::Shared;
use tree::{Tree, for_side};

/// The tunable constants of the search.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct Config {
    /// Evaluation units per unit of logit: an evaluation of `scale` is a 73 % winning chance.
    pub scale: f32,
    /// Evaluation units per unit of prior logit: siblings `prior_temperature` apart in
    /// evaluation get priors e ≈ 2.7 times apart.
    pub prior_temperature: f32,
    /// Exploration constant of PUCT.
    pub c_puct: f32,
    /// First-play urgency: an unvisited child is valued at its parent's value less this.
    pub fpu_reduction: f32,
    /// A new leaf's value is the best of its children's static values (a one-ply search)
    /// rather than its own static value.
    pub one_ply_leaf: bool,
    /// Edges a node gets when it is expanded: its best moves by prior; the rest are added when
    /// the search wants one of them.
    pub initial_edges: usize,
}

/// The constants [`search`] uses.
pub const DEFAULT_CONFIG: Config = Config {
    scale: 100.0,
    prior_temperature: 20.0,
    c_puct: 0.8,
    fpu_reduction: 0.1,
    one_ply_leaf: true,
    initial_edges: 8,
};

impl Default for Config {
    fn default() -> Self {
        DEFAULT_CONFIG
    }
}

/// The deepest the tree grows, in plies below the root.
const MAX_TREE_DEPTH: u32 = 1000;
/// Prior logits are clamped to ± this (a finished game is at one end).
pub(crate) const MAX_LOGIT: f32 = 30.0;
/// Iterations run before any time limit is looked at (about half a millisecond in Isaac).
pub(crate) const MIN_ITERATIONS: u64 = 16;
/// Longest time between two `info` lines (they also come at every power of two iterations).
const REPORT_INTERVAL: Duration = Duration::from_secs(1);

/// Player one's winning chance for an evaluation `eval` from `side`'s view.
fn squash(eval: i32, side: Player, scale: f32) -> f32 {
    let p = 1.0 / (1.0 + (-(eval as f32) / scale).exp());
    for_side(p as f64, side) as f32
}

/// The reported score of a winning chance `q` of the side to move: the inverse of the squash.
fn unsquash(q: f64, scale: f32) -> i32 {
    let q = q.clamp(1e-9, 1.0 - 1e-9);
    let cp = scale as f64 * (q / (1.0 - q)).ln();
    cp.round()
        .clamp(-(MATE_BOUND - 1) as f64, (MATE_BOUND - 1) as f64) as i32
}

/// Searches `root` by MCTS within `params` and returns the best move, like
/// [`super::search`]: `report` gets the best lines (`MultiPV`) at every power of two iterations,
/// at least every second, and at the end. The tree uses at most `budget` bytes. Stops early when
/// `stop` is set (polled every iteration); even when it is set from the start, a legal move is
/// returned whenever one exists (the one with the best evaluation).
pub fn search<G: Searchable>(
    root: &G,
    params: &SearchParams<G::Move>,
    budget: usize,
    stop: &AtomicBool,
    report: &mut dyn FnMut(SearchInfo<G::Move>),
) -> SearchResult<G::Move> {
    let mut fresh = KeptTree::default();
    search_with(
        root,
        params,
        budget,
        DEFAULT_CONFIG,
        &mut fresh,
        stop,
        report,
    )
}

/// [`search`] that goes on from the tree `kept` holds when it reaches `root` (see [`reuse`]),
/// and leaves its own tree there for the next search. A search restricted to some root moves
/// (`go searchmoves`) starts afresh and keeps nothing. `nodes N` counts this search's
/// iterations only.
pub fn search_reusing<G: Searchable>(
    root: &G,
    params: &SearchParams<G::Move>,
    budget: usize,
    kept: &mut KeptTree<G>,
    stop: &AtomicBool,
    report: &mut dyn FnMut(SearchInfo<G::Move>),
) -> SearchResult<G::Move> {
    search_with(root, params, budget, DEFAULT_CONFIG, kept, stop, report)
}

/// [`search_reusing`] with other constants (for tuning).
pub fn search_with<G: Searchable>(
    root: &G,
    params: &SearchParams<G::Move>,
    budget: usize,
    config: Config,
    kept: &mut KeptTree<G>,
    stop: &AtomicBool,
    report: &mut dyn FnMut(SearchInfo<G::Move>),
) -> SearchResult<G::Move> {
    let limits = &params.limits;
    let start = limits.started.unwrap_or_else(Instant::now);
    let mut result = SearchResult::empty();
    let moves = super::root_moves(root, params);
    let Some(&first) = moves.first() else {
        return result;
    };
    // No iteration to finish: the search stops at the time manager's target (see
    // `Shared::over`).
    let deadlines = params.timing(root, start);
    let max_depth = limits
        .depth
        .unwrap_or(MAX_TREE_DEPTH)
        .clamp(1, MAX_TREE_DEPTH);
    let lines = params.multipv.max(1);
    let restricted = params.root_moves.is_some();
    let reused = if restricted {
        kept.clear();
        None
    } else {
        kept.take_for(root, budget)
    };
    let net = super::game_net::<G>(params, root);
    let threads = params.threads.clamp(1, MAX_THREADS);
    let fresh = reused.is_none();
    let tree = reused.unwrap_or_else(|| Tree::new(budget));
    let mut mcts = Mcts::new(&tree, max_depth, config, net.as_ref(), threads > 1);
    if fresh && !mcts.start(root, &moves) {
        result.best = Some(first);
        return result;
    }
    let shared = Shared::new(&tree, limits, deadlines, max_depth, stop);
    let totals = |shared: &Shared<G>| Totals {
        iterations: shared.iterations(),
        seldepth: shared.seldepth(),
        start,
        scale: config.scale,
    };
    let mut next_report = 1u64;
    let mut last_report = start;
    let mut reported_at = None;
    std::thread::scope(|scope| {
        shared.spawn_helpers(scope, root, config, net.as_ref(), threads);
        shared.run(&mut mcts, root, &mut |done| {
            if done >= next_report || last_report.elapsed() >= REPORT_INTERVAL {
                while next_report <= done {
                    next_report *= 2;
                }
                last_report = Instant::now();
                reported_at = Some(done);
                infos(&tree, lines, &totals(&shared))
                    .into_iter()
                    .for_each(&mut *report);
            }
        });
    });
    let totals = totals(&shared);
    let infos = infos(&tree, lines, &totals);
    let Some(best) = infos.first() else {
        result.best = Some(first);
        return result;
    };
    result.best = best.pv.first().copied();
    result.score = Some(best.score);
    result.nodes = totals.iterations;
    result.depth = best.depth;
    if reported_at != Some(totals.iterations) {
        infos.into_iter().for_each(report);
    }
    if !restricted {
        kept.keep(root, tree);
    }
    result
}
