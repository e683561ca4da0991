//! Several threads growing one tree (option `Threads`): each runs iterations on the shared
//! tree with its own scratch space and evaluator until one of the search's limits is met.
//! Their iterations are counted together: under `nodes N` each iteration is claimed before
//! it starts, so exactly N run in all, whatever the number of threads. The calling thread is
//! the first of them and the one that reports; with one thread nothing else runs, and the
//! search is the one-threaded search it always was.

use std::sync::atomic::{AtomicBool, AtomicU32, AtomicU64, Ordering};
use std::thread::Scope;
use std::time::Instant;

use super::driver::Mcts;
use super::report::pv_reaches;
use super::tree::Tree;
use super::{Config, MIN_ITERATIONS};
use crate::game::Searchable;
use crate::net::GameNet;
use crate::search::Limits;
use crate::search::limits::Timing;

/// What the threads of one search share.
pub struct Shared<'a, G: Searchable> {
    /// The tree.
    pub tree: &'a Tree<G::Move>,
    /// The search's limits.
    pub limits: &'a Limits,
    /// When to stop by the clock.
    pub deadlines: Timing<'a>,
    /// The deepest the tree grows.
    pub max_depth: u32,
    /// The engine's `stop`.
    pub stop: &'a AtomicBool,
    /// Set when one thread found the search over: the others stop after their iteration.
    halt: AtomicBool,
    /// Iterations claimed under a node limit.
    claimed: AtomicU64,
    /// Iterations done, all threads.
    done: AtomicU64,
    /// The deepest ply an iteration reached, all threads.
    seldepth: AtomicU32,
}

impl<'a, G: Searchable> Shared<'a, G> {
    /// A search of `tree` within `limits`, `deadlines` and `max_depth` plies, stopped early by
    /// `stop`.
    pub fn new(
        tree: &'a Tree<G::Move>,
        limits: &'a Limits,
        deadlines: Timing<'a>,
        max_depth: u32,
        stop: &'a AtomicBool,
    ) -> Self {
        Shared {
            tree,
            limits,
            deadlines,
            max_depth,
            stop,
            halt: AtomicBool::new(false),
            claimed: AtomicU64::new(0),
            done: AtomicU64::new(0),
            seldepth: AtomicU32::new(0),
        }
    }

    /// Iterations done, all threads.
    pub fn iterations(&self) -> u64 {
        self.done.load(Ordering::Relaxed)
    }

    /// The deepest ply an iteration reached, all threads.
    pub fn seldepth(&self) -> u32 {
        self.seldepth.load(Ordering::Relaxed)
    }

    /// Whether the search is over: the root proven, `stop`, the node limit reached, the time
    /// manager's target passed (the hard deadline if there is none; never before
    /// [`MIN_ITERATIONS`] iterations, so that a target of 0 in time trouble still chooses by
    /// search), a full tree under a depth limit alone (which it could never satisfy) or under
    /// a clock (iterations through a full tree only pile visits on leaves that will not grow:
    /// the time is better kept for later moves), or the main line as deep as the depth limit.
    fn over(&self) -> bool {
        let done = self.iterations();
        let limits = self.limits;
        let deadlines = self.deadlines.now();
        let deadline = deadlines.soft.or(deadlines.hard);
        self.halt.load(Ordering::Relaxed)
            || self.tree.node(0).result.is_some()
            || self.stop.load(Ordering::Relaxed)
            || limits.nodes.is_some_and(|n| done >= n)
            || (done >= MIN_ITERATIONS && deadline.is_some_and(|d| Instant::now() >= d))
            || (self.tree.is_full() && (limits.depth_only() || limits.clock_decides()))
            || (limits.depth.is_some() && pv_reaches(self.tree, self.max_depth))
    }

    /// Claims the next iteration: false when the node limit has them all.
    fn claim(&self) -> bool {
        self.limits
            .nodes
            .is_none_or(|n| self.claimed.fetch_add(1, Ordering::Relaxed) < n)
    }

    /// Runs `mcts`'s iterations from `root` until the search is over, calling `after` with
    /// the iterations done (all threads) after each.
    pub fn run(&self, mcts: &mut Mcts<'_, G>, root: &G, after: &mut dyn FnMut(u64)) {
        let mut pos = root.clone();
        while !self.over() && self.claim() {
            mcts.iterate(root, &mut pos);
            self.seldepth.fetch_max(mcts.seldepth, Ordering::Relaxed);
            let done = self.done.fetch_add(1, Ordering::Relaxed) + 1;
            after(done);
        }
        self.halt.store(true, Ordering::Relaxed);
    }

    /// Starts `threads - 1` more threads on `scope`, each running iterations from `root` with
    /// its own evaluator (`net`, `None`: the hand-written evaluation). A thread that cannot be
    /// started is logged and left out: the search goes on with fewer.
    pub fn spawn_helpers<'scope>(
        &'scope self,
        scope: &'scope Scope<'scope, '_>,
        root: &G,
        config: Config,
        net: Option<&'scope GameNet<G>>,
        threads: usize,
    ) {
        for index in 1..threads {
            let root = root.clone();
            let spawned = std::thread::Builder::new()
                .name(format!("ludus-mcts-{index}"))
                .spawn_scoped(scope, move || {
                    let mut mcts = Mcts::new(self.tree, self.max_depth, config, net, true);
                    self.run(&mut mcts, &root, &mut |_| {});
                });
            if let Err(e) = spawned {
                log::warn!("MCTS thread {index} not started: {e}");
                break;
            }
        }
    }
}
