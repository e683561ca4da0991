//! Iterative-deepening negamax alpha-beta with principal-variation search, a transposition
//! table, killer and history ordering, mate-distance pruning and a quiescence search over the
//! game's noisy moves. Generic over [`Evaluate`]; nothing game-specific lives here.

use std::sync::atomic::{AtomicBool, Ordering};
use std::time::Instant;

use super::limits::Deadlines;
use super::ordering::{Killers, MAX_PLY, promote, sort_by_history};
use super::score::{INFINITY, MATE, terminal_score};
use super::tt::Bound;
use super::{SearchTables, is_proven_within};
use crate::game::{Evaluate, Outcome};

/// How often (in nodes) the clock and the stop flag are looked at.
const POLL_INTERVAL: u64 = 1024;

/// One completed root line: its score and principal variation.
#[derive(Clone, Debug)]
pub struct RootLine<M> {
    /// Score from the root side's view.
    pub score: i32,
    /// Principal variation, starting with the root move.
    pub pv: Vec<M>,
}

/// The state of one search.
pub struct AlphaBeta<'a, G: Evaluate> {
    tables: &'a mut SearchTables<G::Move>,
    stop: &'a AtomicBool,
    deadlines: Deadlines,
    node_limit: Option<u64>,
    /// Nodes visited so far (both searches and quiescence).
    pub nodes: u64,
    /// Deepest ply reached, plus one.
    pub seldepth: usize,
    /// True once a limit or `stop` cut the search short.
    pub aborted: bool,
    /// Limits are only enforced once depth 1 is complete, so there is always a move.
    pub can_abort: bool,
    killers: Killers<G::Move>,
    move_lists: Vec<Vec<G::Move>>,
    scored: Vec<(i32, u32, G::Move)>,
    pv_table: Vec<Vec<G::Move>>,
    tried: Vec<usize>,
}

impl<'a, G: Evaluate> AlphaBeta<'a, G> {
    /// A search using `tables`, stopped by `stop`, the deadlines or the node limit.
    pub fn new(
        tables: &'a mut SearchTables<G::Move>,
        stop: &'a AtomicBool,
        deadlines: Deadlines,
        node_limit: Option<u64>,
    ) -> Self {
        AlphaBeta {
            tables,
            stop,
            deadlines,
            node_limit,
            nodes: 0,
            seldepth: 0,
            aborted: false,
            can_abort: false,
            killers: Killers::new(),
            move_lists: (0..=MAX_PLY).map(|_| Vec::new()).collect(),
            scored: Vec::new(),
            pv_table: (0..=MAX_PLY + 1).map(|_| Vec::new()).collect(),
            tried: Vec::new(),
        }
    }

    /// Fill-rate of the transposition table in permille.
    pub fn hashfull(&self) -> u32 {
        self.tables.tt.hashfull()
    }

    fn should_abort(&mut self) -> bool {
        if self.aborted {
            return true;
        }
        if !self.can_abort {
            return false;
        }
        if self.node_limit.is_some_and(|n| self.nodes >= n) {
            self.aborted = true;
        } else if self.nodes.is_multiple_of(POLL_INTERVAL) {
            let late = self.deadlines.hard.is_some_and(|h| Instant::now() >= h);
            self.aborted = late || self.stop.load(Ordering::Relaxed);
        }
        self.aborted
    }

    /// Searches the root moves not in `excluded` to `depth` and returns the best line, or
    /// `None` if the search was cut short before it finished.
    pub fn search_root(
        &mut self,
        root: &G,
        moves: &[G::Move],
        excluded: &[G::Move],
        depth: u32,
    ) -> Option<RootLine<G::Move>> {
        let mut alpha = -INFINITY;
        let mut best: Option<RootLine<G::Move>> = None;
        self.nodes += 1;
        for &m in moves.iter().filter(|m| !excluded.contains(m)) {
            let mut child = root.clone();
            child.play(m);
            let score = if best.is_none() {
                self.child(root, &child, depth - 1, 1, alpha, INFINITY)
            } else {
                let s = self.child(root, &child, depth - 1, 1, alpha, alpha + 1);
                if s > alpha && !self.aborted {
                    self.child(root, &child, depth - 1, 1, alpha, INFINITY)
                } else {
                    s
                }
            };
            if self.aborted {
                return None;
            }
            if score > alpha {
                alpha = score;
                let mut pv = vec![m];
                pv.extend_from_slice(&self.pv_table[1]);
                best = Some(RootLine { score, pv });
            }
        }
        if let Some(line) = &best {
            let bound = Bound::Exact;
            if excluded.is_empty() {
                self.tables
                    .tt
                    .store(root.hash(), Some(line.pv[0]), line.score, depth, bound, 0);
            }
        }
        best
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
    /// short (any value: it is discarded) or the game is over.
    fn enter_node(&mut self, pos: &G, ply: usize) -> Option<i32> {
        if self.should_abort() {
            return Some(0);
        }
        self.nodes += 1;
        self.seldepth = self.seldepth.max(ply + 1);
        let won = match pos.outcome()? {
            Outcome::Win(p) => Some(p == pos.side_to_move()),
            Outcome::Draw => None,
        };
        Some(terminal_score(won, ply))
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
            return pos.evaluate();
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
        if let Some(entry) = self.tables.tt.probe(key) {
            tt_move = entry.best;
            let s = entry.score(ply);
            if !pv_node && entry.depth as u32 >= depth {
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

        let original_alpha = alpha;
        let mut best_score = -INFINITY;
        let mut best_move = None;
        let mut tried = std::mem::take(&mut self.tried);
        let tried_start = tried.len();
        for i in 0..moves.len() {
            if i == promoted {
                let history = &self.tables.history;
                sort_by_history(pos, &mut moves[i..], &mut self.scored, history);
            }
            let m = moves[i];
            let mut child = pos.clone();
            child.play(m);
            let score = if i == 0 {
                self.child(pos, &child, depth - 1, ply + 1, alpha, beta)
            } else {
                let s = self.child(pos, &child, depth - 1, ply + 1, alpha, alpha + 1);
                if s > alpha && s < beta && !self.aborted {
                    self.child(pos, &child, depth - 1, ply + 1, alpha, beta)
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
                        self.tables
                            .history
                            .reward(good, &tried[tried_start..], depth);
                        break;
                    }
                }
            }
            tried.push(pos.history_index(m));
        }
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
        self.tables
            .tt
            .store(key, best_move, best_score, depth, bound, ply);
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
            let stand_pat = pos.evaluate();
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
