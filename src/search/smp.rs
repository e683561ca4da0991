//! Lazy SMP: helper threads search the same root as the main thread, at the same time, and
//! share its transposition table. They report nothing; what they store (exact scores, bounds,
//! best moves of positions the main thread is about to reach) lets the main thread cut its
//! tree sooner and go deeper in the same time. Their moves are played only through the shared
//! iterations: a deeper iteration one of them completed, or a move one of them found better
//! than the main thread's in a deeper iteration ([`super::iterations`]).
//!
//! Helpers differ from the main thread and from each other so they do not all search the same
//! nodes in the same order: each tries the root moves rotated by its number until its own
//! iterations have ordered them. With one line searched (no `MultiPV`), the threads also share
//! their iterations ([`super::iterations`]): a helper searches the shallowest depth that half
//! of the threads (all of them, in a game whose helpers share depths) are not already on, an
//! iteration another thread completes first is abandoned, and the main thread takes over a
//! helper's deeper line.

use std::sync::atomic::{AtomicBool, AtomicU64, Ordering};
use std::thread::Scope;

use super::alphabeta::{AlphaBeta, POLL_INTERVAL, Role};
use super::aspiration_search;
use super::inflight::InFlight;
use super::iterations::SharedIterations;
use super::limits::Timing;
use super::ordering::History;
use super::tt::TranspositionTable;
use crate::game::Searchable;
use crate::net::GameNet;

/// Most search threads (`Threads` option's maximum).
pub const MAX_THREADS: usize = 256;

/// What every helper of one search shares.
pub struct HelperPlan<'a, G: Searchable> {
    /// The shared transposition table.
    pub tt: &'a TranspositionTable<G::Move>,
    /// Set by the main thread when it is done: helpers stop within ~1k nodes.
    pub halt: &'a AtomicBool,
    /// Nodes counted by all helpers.
    pub nodes: &'a AtomicU64,
    /// The search's deadlines (a helper also stops at the hard one).
    pub deadlines: Timing<'a>,
    /// Deepest iteration.
    pub max_depth: u32,
    /// The game's positions before the root ([`super::SearchParams::earlier_positions`]).
    pub earlier_positions: &'a [u64],
    /// The net to evaluate with (`None`: the game's hand-written evaluation).
    pub net: Option<&'a GameNet<G>>,
    /// The iterations the threads share (`None`: each helper deepens on its own, odd ones a
    /// ply ahead).
    pub iterations: Option<&'a SharedIterations<G::Move>>,
    /// The positions being searched, for deferring moves (`None`: no deferral).
    pub inflight: Option<&'a InFlight>,
    /// Search every move to full depth, without reductions (`go mate`).
    pub full_width: bool,
}

impl<'a, G: Searchable> HelperPlan<'a, G> {
    /// Starts `threads - 1` helpers on `scope` searching `root`'s `moves`. A helper that cannot
    /// be started is logged and left out: the search goes on with fewer threads.
    pub fn spawn<'scope>(
        &self,
        scope: &'scope Scope<'scope, '_>,
        root: &G,
        moves: &[G::Move],
        threads: usize,
    ) where
        'a: 'scope,
    {
        for index in 1..threads.clamp(1, MAX_THREADS) {
            let helper = *self;
            let root = root.clone();
            let moves = moves.to_vec();
            let spawned = std::thread::Builder::new()
                .name(format!("ludus-helper-{index}"))
                .spawn_scoped(scope, move || helper.run(root, moves, index));
            if let Err(e) = spawned {
                log::warn!("search helper {index} not started: {e}");
                break;
            }
        }
    }
}

// Copied into every helper thread (the derive would ask `G: Copy`; only references are
// copied).
impl<G: Searchable> Clone for HelperPlan<'_, G> {
    fn clone(&self) -> Self {
        *self
    }
}

impl<G: Searchable> Copy for HelperPlan<'_, G> {}

impl<G: Searchable> HelperPlan<'_, G> {
    /// One helper's iterative deepening, until the main thread halts it or it is exact.
    fn run(self, root: G, mut moves: Vec<G::Move>, index: usize) {
        let mut history = History::new(G::HISTORY_SIZE);
        let role = Role::Helper { nodes: self.nodes };
        let mut ab = AlphaBeta::new(self.tt, &mut history, role, self.halt, self.deadlines, None);
        ab.set_earlier_positions(self.earlier_positions);
        ab.set_net(self.net);
        if let Some(shared) = self.iterations {
            ab.set_iterations(shared);
        }
        if let Some(inflight) = self.inflight {
            ab.set_inflight(inflight);
        }
        ab.set_full_width(self.full_width);
        let shift = index % moves.len().max(1);
        moves.rotate_left(shift);
        let mut guess = None;
        let mut done = 0;
        while !self.halt.load(Ordering::Relaxed) {
            let depth = match self.iterations {
                Some(shared) => shared.helper_depth(done, self.max_depth),
                None if done == 0 => 1 + (index % 2) as u32,
                None => done + 1,
            };
            if depth > self.max_depth {
                break;
            }
            self.iterations.inspect(|s| s.begin(depth));
            let found = aspiration_search(&mut ab, &root, &moves, 1, depth, guess);
            self.iterations.inspect(|s| s.end(depth));
            let line = match found.and_then(|lines| lines.into_iter().next()) {
                Some(line) => {
                    self.iterations.inspect(|s| s.post(depth, &line));
                    done = depth;
                    line
                }
                // Another thread completed this depth first: go on from its line.
                None if ab.overtaken() => match self.iterations.and_then(|s| s.deepest()) {
                    Some(deeper) => {
                        done = deeper.depth;
                        deeper.line
                    }
                    None => continue,
                },
                None => break,
            };
            if let Some(i) = moves.iter().position(|&m| m == line.pv[0]) {
                moves[..=i].rotate_right(1);
            }
            if AlphaBeta::<G>::is_final(&root, done, &line) {
                break;
            }
            guess = Some(line.score);
        }
        self.nodes
            .fetch_add(ab.nodes % POLL_INTERVAL, Ordering::Relaxed);
    }
}
