//! Iterative-deepening negamax alpha-beta with principal-variation search, a transposition
//! table, killer and history ordering, mate-distance pruning and a quiescence search over the
//! game's noisy moves. Generic over [`Searchable`]; nothing game-specific lives here.

use std::sync::atomic::{AtomicBool, AtomicU64, Ordering};
use std::time::Instant;

use super::inflight::{self, InFlight, MoveOrder};
use super::is_proven_within;
use super::iterations::SharedIterations;
use super::limits::Timing;
use super::ordering::{History, Killers, MAX_PLY, promote, sort_by_history};
use super::progress::ProgressSink;
use super::root_line::Improvement;
pub use super::root_line::RootLine;
use super::score::{INFINITY, MATE, terminal_score};
use super::tt::{Bound, TranspositionTable};
use crate::game::{Outcome, Searchable};
use crate::net::{Evaluator, GameNet};

mod root;

/// How often (in nodes) the clock is read and a helper adds its nodes to the shared count.
/// The stop flag is looked at in every node.
pub const POLL_INTERVAL: u64 = 1024;

/// Moves searched before late-move reductions start.
const LMR_FULL_MOVES: usize = 3;
/// Shallowest remaining depth at which late moves are reduced.
const LMR_MIN_DEPTH: u32 = 3;

/// Plies the `index`-th move (0-based) is reduced by at `depth`: none for the first moves or
/// at shallow depth, then growing with the logarithms of both; the reduced search keeps at
/// least one ply.
fn reduction(depth: u32, index: usize) -> u32 {
    if depth < LMR_MIN_DEPTH || index < LMR_FULL_MOVES {
        return 0;
    }
    let r = (depth as f64).ln() * (index as f64).ln() / 2.0;
    (r as u32).clamp(1, depth - 2)
}

/// Where a thread's search stands among the threads of one search (Lazy SMP).
#[derive(Clone, Copy)]
pub enum Role<'a> {
    /// The thread whose result is played; `helper_nodes` is what the helpers have counted.
    Main {
        /// Nodes counted by helper threads so far.
        helper_nodes: &'a AtomicU64,
    },
    /// A helper: it only fills the shared transposition table, and adds its node count to
    /// `nodes` every [`POLL_INTERVAL`] nodes.
    Helper {
        /// The shared count of helper nodes.
        nodes: &'a AtomicU64,
    },
}

/// The state of one search thread.
pub struct AlphaBeta<'a, G: Searchable> {
    tt: &'a TranspositionTable<G::Move>,
    history: &'a mut History,
    role: Role<'a>,
    stop: &'a AtomicBool,
    deadlines: Timing<'a>,
    node_limit: Option<u64>,
    /// Nodes visited so far (both searches and quiescence).
    pub nodes: u64,
    /// Deepest ply reached, plus one.
    pub seldepth: usize,
    /// True once a limit or `stop` cut the search short.
    pub aborted: bool,
    /// The best root move the last [`AlphaBeta::search_root`] call had scored when it was
    /// cut short (`None` if it finished, or was cut before its first move was scored): what
    /// the search answers when not even depth 1 completed.
    pub unfinished_best: Option<RootLine<G::Move>>,
    /// The deepest iteration's best root move so far that beat the first move the
    /// iteration searched (with one line searched, `MultiPV` 1): what a search cut short
    /// during that iteration plays instead of the last completed iteration's move.
    pub improved: Option<Improvement<G::Move>>,
    /// The iterations the threads of the search share (Lazy SMP, [`super::iterations`]);
    /// `None` with one thread.
    shared: Option<&'a SharedIterations<G::Move>>,
    /// The positions other threads are searching (`None` with one thread).
    inflight: Option<&'a InFlight>,
    /// No late-move reductions: every move is searched to full depth (`go mate`).
    full_width: bool,
    /// Per ply, the indices of the moves deferred because another thread was searching them.
    deferred: Vec<Vec<usize>>,
    /// True when the last [`AlphaBeta::search_root`] was abandoned because another thread
    /// completed an iteration at least as deep.
    overtaken: bool,
    killers: Killers<G::Move>,
    move_lists: Vec<Vec<G::Move>>,
    scored: Vec<(i32, u32, G::Move)>,
    pv_table: Vec<Vec<G::Move>>,
    tried: Vec<usize>,
    /// [`SearchHooks::repetition_key`](crate::game::SearchHooks::repetition_key) of the positions
    /// on the current line, by ply.
    line_keys: Vec<u64>,
    /// The same keys of the game's positions before the root, sorted.
    earlier_positions: Vec<u64>,
    /// Where the main thread reports progress during an iteration (`None` for helpers).
    pub progress: Option<ProgressSink<'a, G::Move>>,
    /// The depth of the iteration under way (what progress reports name).
    depth: u32,
    /// The static evaluation: the game's own, or a net.
    eval: Evaluator<G>,
}

impl<'a, G: Searchable> AlphaBeta<'a, G> {
    /// A search thread using the shared `tt` and its own `history`, stopped by `stop`, the
    /// deadlines or the node limit (counted over all threads).
    pub fn new(
        tt: &'a TranspositionTable<G::Move>,
        history: &'a mut History,
        role: Role<'a>,
        stop: &'a AtomicBool,
        deadlines: Timing<'a>,
        node_limit: Option<u64>,
    ) -> Self {
        AlphaBeta {
            tt,
            history,
            role,
            stop,
            deadlines,
            node_limit,
            nodes: 0,
            seldepth: 0,
            aborted: false,
            unfinished_best: None,
            improved: None,
            shared: None,
            inflight: None,
            full_width: false,
            deferred: (0..=MAX_PLY).map(|_| Vec::new()).collect(),
            overtaken: false,
            killers: Killers::new(),
            move_lists: (0..=MAX_PLY).map(|_| Vec::new()).collect(),
            scored: Vec::new(),
            pv_table: (0..=MAX_PLY + 1).map(|_| Vec::new()).collect(),
            tried: Vec::new(),
            line_keys: vec![0; MAX_PLY + 2],
            earlier_positions: Vec::new(),
            progress: None,
            depth: 0,
            eval: Evaluator::new(None),
        }
    }

    /// Evaluates with `net` (`None`: the game's hand-written evaluation).
    pub fn set_net(&mut self, net: Option<&GameNet<G>>) {
        self.eval = Evaluator::new(net);
    }

    /// The game's positions before the root
    /// ([`SearchHooks::repetition_key`](crate::game::SearchHooks::repetition_key)): the search
    /// scores a return to one of them as a draw, like a repetition within its own line.
    pub fn set_earlier_positions(&mut self, keys: &[u64]) {
        self.earlier_positions = keys.to_vec();
        self.earlier_positions.sort_unstable();
    }

    /// Shares iterations with the search's other threads: an iteration is abandoned as soon
    /// as the deepest one any thread completed reaches its depth (see
    /// [`AlphaBeta::overtaken`]), and the root moves that improve on an iteration's first are
    /// posted to `shared` ([`SharedIterations::post_improved`]).
    pub fn set_iterations(&mut self, shared: &'a SharedIterations<G::Move>) {
        self.shared = Some(shared);
    }

    /// With `true`, searches every move to full depth, without late-move reductions: a search
    /// to depth 2N − 1 then finds every win in N moves (`go mate`).
    pub fn set_full_width(&mut self, full_width: bool) {
        self.full_width = full_width;
    }

    /// Defers the moves into positions another thread is searching ([`super::inflight`]).
    pub fn set_inflight(&mut self, inflight: &'a InFlight) {
        self.inflight = Some(inflight);
    }

    /// Whether the last [`AlphaBeta::search_root`] returned `None` because another thread had
    /// completed an iteration at least as deep (not because a limit or `stop` cut the search).
    pub fn overtaken(&self) -> bool {
        self.overtaken
    }

    /// Fill-rate of the transposition table in permille.
    pub fn hashfull(&self) -> u32 {
        self.tt.hashfull()
    }

    /// Nodes searched by every thread so far (exact for this thread, up to the last
    /// [`POLL_INTERVAL`] for helpers).
    pub fn total_nodes(&self) -> u64 {
        match self.role {
            Role::Main { helper_nodes } => self.nodes + helper_nodes.load(Ordering::Relaxed),
            Role::Helper { .. } => self.nodes,
        }
    }

    /// Whether the search must stop now: `stop` (looked at in every node), the node limit, or
    /// the hard deadline (read every [`POLL_INTERVAL`] nodes). Any limit may cut any node,
    /// depth 1 included: the caller then answers with the best move found so far.
    fn should_abort(&mut self) -> bool {
        if self.aborted {
            return true;
        }
        if self.node_limit.is_some_and(|n| self.nodes >= n) || self.stop.load(Ordering::Relaxed) {
            self.aborted = true;
        } else if self.nodes.is_multiple_of(POLL_INTERVAL) {
            if let Role::Helper { nodes } = self.role {
                nodes.fetch_add(POLL_INTERVAL, Ordering::Relaxed);
            }
            let over = self.node_limit.is_some_and(|n| self.total_nodes() >= n);
            // The clock is read once per poll, and only when a deadline or progress needs it.
            let hard = self.deadlines.now().hard;
            let now = (hard.is_some() || self.progress.is_some()).then(Instant::now);
            let late = hard.zip(now).is_some_and(|(h, now)| now >= h);
            self.aborted = over || late;
            if !self.aborted
                && self
                    .shared
                    .is_some_and(|s| s.completed_depth().load(Ordering::Relaxed) >= self.depth)
            {
                self.aborted = true;
                self.overtaken = true;
            }
            if let Some(now) = now {
                self.report_totals_if_due(now);
            }
        }
        self.aborted
    }

    /// Reports the totals through [`AlphaBeta::progress`] when they are due at `now`.
    fn report_totals_if_due(&mut self, now: Instant) {
        let due = self.progress.as_ref().is_some_and(|p| p.totals_due(now));
        if !due || self.aborted {
            return;
        }
        let (nodes, hashfull) = (self.total_nodes(), self.hashfull());
        let (depth, seldepth) = (self.depth, self.seldepth as u32);
        if let Some(progress) = &mut self.progress {
            progress.totals(now, depth, seldepth, nodes, hashfull);
        }
    }

    /// Searches `child` of `pos` within the window `(alpha, beta)` of `pos`'s side to move and
    /// returns its score from that side's view. Scores are negated only when the turn passes:
    /// in games where a player may move several times in a row (Isaac after a pass), the
    /// child is searched from the same side's view.
    fn child(&mut self, pos: &G, child: &G, depth: u32, ply: usize, alpha: i32, beta: i32) -> i32 {
        if child.side_to_move() == pos.side_to_move() {
            self.negamax(child, depth, ply, alpha, beta)
        } else {
            -self.negamax(child, depth, ply, -beta, -alpha)
        }
    }

    /// Counts a node; returns its score when there is nothing to search: the search was cut
    /// short (any value: it is discarded), the game is over, or the position already stood
    /// earlier on this line or in the game before the root (a draw, see
    /// [`SearchHooks::repetition_key`](crate::game::SearchHooks::repetition_key)).
    fn enter_node(&mut self, pos: &G, ply: usize) -> Option<i32> {
        if self.should_abort() {
            return Some(0);
        }
        self.nodes += 1;
        self.seldepth = self.seldepth.max(ply + 1);
        if let Some(outcome) = pos.outcome() {
            let won = match outcome {
                Outcome::Win(p) => Some(p == pos.side_to_move()),
                Outcome::Draw => None,
            };
            return Some(terminal_score(won, ply));
        }
        let key = pos.repetition_key()?;
        let ply = ply.min(MAX_PLY + 1);
        if self.line_keys[..ply].contains(&key)
            || self.earlier_positions.binary_search(&key).is_ok()
        {
            return Some(terminal_score(None, ply));
        }
        self.line_keys[ply] = key;
        None
    }

    fn negamax(&mut self, pos: &G, depth: u32, ply: usize, mut alpha: i32, mut beta: i32) -> i32 {
        self.pv_table[ply].clear();
        if depth == 0 {
            return self.quiesce(pos, ply, alpha, beta);
        }
        if let Some(score) = self.enter_node(pos, ply) {
            return score;
        }
        if ply >= MAX_PLY {
            return self.eval.evaluate(pos, ply);
        }
        // Mate-distance pruning: no line from here can beat a win found nearer the root.
        alpha = alpha.max(-(MATE - ply as i32));
        beta = beta.min(MATE - ply as i32 - 1);
        if alpha >= beta {
            return alpha;
        }
        let pv_node = beta - alpha > 1;
        let key = pos.hash();
        let mut tt_move = None;
        if let Some(entry) = self.tt.probe(key) {
            tt_move = entry.best;
            let s = entry.score(ply);
            // A full-width search trusts no bound an earlier, reduced search stored.
            let trusted = !self.full_width || self.tt.is_current(&entry);
            if !pv_node && trusted && entry.depth as u32 >= depth {
                let usable = match entry.bound {
                    Bound::Exact => true,
                    Bound::Lower => s >= beta,
                    Bound::Upper => s <= alpha,
                };
                if usable {
                    return s;
                }
            }
        }

        let mut moves = std::mem::take(&mut self.move_lists[ply]);
        pos.search_moves(&mut moves);
        if moves.is_empty() {
            // The rules promise a move whenever the game is not over; score it as lost if not.
            self.move_lists[ply] = moves;
            return terminal_score(Some(false), ply);
        }
        let promoted = promote(&mut moves, tt_move, &self.killers, ply);

        let in_check = pos.must_respond();
        let original_alpha = alpha;
        let mut best_score = -INFINITY;
        let mut best_move = None;
        let mut tried = std::mem::take(&mut self.tried);
        let tried_start = tried.len();
        // Moves another thread is inside of wait for the end of the list (simplified ABDADA).
        let inflight = self.inflight.filter(|_| depth >= G::SMP_DEFER_MIN_DEPTH);
        let mut deferred = std::mem::take(&mut self.deferred[ply]);
        deferred.clear();
        let mut order = MoveOrder::new(moves.len());
        while let Some((i, second_pass)) = order.next(&deferred) {
            if i == promoted && !second_pass {
                sort_by_history(pos, &mut moves[i..], &mut self.scored, self.history);
            }
            let m = moves[i];
            let mut child = pos.clone();
            child.play(m);
            let Ok(_mark) =
                inflight::claim(inflight, || child.hash(), depth - 1, i > 0 && !second_pass)
            else {
                deferred.push(i);
                continue;
            };
            let threat = child.must_respond();
            let new_depth = depth - 1;
            let score = if i == 0 {
                self.child(pos, &child, new_depth, ply + 1, alpha, beta)
            } else {
                // Late-move reduction: a quiet move late in the order is first searched
                // shallower, and again at full depth only if it beats alpha.
                let quiet = i >= promoted && !pos.is_noisy(m) && !threat;
                let r = if G::LATE_MOVE_REDUCTIONS && !self.full_width && quiet && !in_check {
                    reduction(depth, i)
                } else {
                    0
                };
                let mut s = self.child(pos, &child, new_depth - r, ply + 1, alpha, alpha + 1);
                if r > 0 && s > alpha && !self.aborted {
                    s = self.child(pos, &child, new_depth, ply + 1, alpha, alpha + 1);
                }
                if s > alpha && s < beta && !self.aborted {
                    self.child(pos, &child, new_depth, ply + 1, alpha, beta)
                } else {
                    s
                }
            };
            if self.aborted {
                break;
            }
            if score > best_score {
                best_score = score;
                best_move = Some(m);
                if score > alpha {
                    alpha = score;
                    let (head, tail) = self.pv_table.split_at_mut(ply + 1);
                    head[ply].clear();
                    head[ply].push(m);
                    head[ply].extend_from_slice(&tail[0]);
                    if score >= beta {
                        self.killers.record(ply, m);
                        let good = pos.history_index(m);
                        self.history.reward(good, &tried[tried_start..], depth);
                        break;
                    }
                }
            }
            tried.push(pos.history_index(m));
        }
        self.deferred[ply] = deferred;
        tried.truncate(tried_start);
        self.tried = tried;
        self.move_lists[ply] = moves;
        if self.aborted {
            return 0;
        }
        let bound = if best_score >= beta {
            Bound::Lower
        } else if best_score > original_alpha {
            Bound::Exact
        } else {
            Bound::Upper
        };
        self.tt.store(key, best_move, best_score, depth, bound, ply);
        best_score
    }

    fn quiesce(&mut self, pos: &G, ply: usize, mut alpha: i32, beta: i32) -> i32 {
        self.pv_table[ply].clear();
        if let Some(score) = self.enter_node(pos, ply) {
            return score;
        }
        let mut moves = std::mem::take(&mut self.move_lists[ply]);
        // A side that must respond (the game's "check") may not stand pat: every move counts.
        let must_respond = ply < MAX_PLY && pos.must_respond();
        let mut best = if must_respond {
            pos.search_moves(&mut moves);
            -INFINITY
        } else {
            let stand_pat = self.eval.evaluate(pos, ply);
            if stand_pat >= beta || ply >= MAX_PLY {
                self.move_lists[ply] = moves;
                return stand_pat;
            }
            alpha = alpha.max(stand_pat);
            pos.noisy_moves(&mut moves);
            stand_pat
        };
        for &m in &moves {
            let mut child = pos.clone();
            child.play(m);
            let score = if child.side_to_move() == pos.side_to_move() {
                self.quiesce(&child, ply + 1, alpha, beta)
            } else {
                -self.quiesce(&child, ply + 1, -beta, -alpha)
            };
            if self.aborted {
                break;
            }
            if score > best {
                best = score;
                if score > alpha {
                    alpha = score;
                    if score >= beta {
                        break;
                    }
                }
            }
        }
        self.move_lists[ply] = moves;
        if self.aborted { 0 } else { best }
    }

    /// Whether the result of an iteration at `depth` can no longer change with more depth.
    pub fn is_final(root: &G, depth: u32, line: &RootLine<G::Move>) -> bool {
        // Every line reaches the end of the game: the search was exact.
        let exact = root.plies_left_bound().is_some_and(|b| depth > b);
        exact || is_proven_within(line.score, depth)
    }
}
