//! The root of an alpha-beta iteration: every root move searched within a window, the best
//! `MultiPV` lines kept, and (with several threads) the moves another thread is inside of
//! deferred to the end.

use super::{AlphaBeta, RootLine};
use crate::game::Searchable;
use crate::search::inflight::{self, MoveOrder};
use crate::search::root_line::Improvement;
use crate::search::tt::Bound;

impl<G: Searchable> AlphaBeta<'_, G> {
    /// Searches the root moves to `depth` within the window `(alpha, beta)` and returns the
    /// best `lines` lines, best first (`MultiPV`: one pass over the moves, where a move is
    /// searched in full only if it beats the `lines`-th best so far), or `None` if the search
    /// was cut short before it finished (then [`AlphaBeta::unfinished_best`] holds the best
    /// move it had scored). A best score at or below `alpha` (fail low: its line is just the
    /// first move) or at or above `beta` (fail high) is a bound, not the value: the caller
    /// widens the window and searches again.
    pub fn search_root(
        &mut self,
        root: &G,
        moves: &[G::Move],
        lines: usize,
        depth: u32,
        window: (i32, i32),
    ) -> Option<Vec<RootLine<G::Move>>> {
        let (alpha, beta) = window;
        let lines = lines.max(1);
        if self.overtaken {
            // The last iteration was abandoned, not cut: this one searches afresh.
            self.overtaken = false;
            self.aborted = false;
        }
        // Best first; at most `lines` of them.
        let mut best: Vec<RootLine<G::Move>> = Vec::with_capacity(lines + 1);
        self.unfinished_best = None;
        self.nodes += 1;
        self.line_keys[0] = root.repetition_key().unwrap_or(0);
        self.depth = depth;
        // Root moves another thread is inside of wait for the end (simplified ABDADA).
        let inflight = self.inflight.filter(|_| depth >= G::SMP_DEFER_MIN_DEPTH);
        let mut deferred = Vec::new();
        let mut order = MoveOrder::new(moves.len());
        while let Some((i, second_pass)) = order.next(&deferred) {
            let m = moves[i];
            let mut child = root.clone();
            child.play(m);
            let Ok(_mark) =
                inflight::claim(inflight, || child.hash(), depth - 1, i > 0 && !second_pass)
            else {
                deferred.push(i);
                continue;
            };
            if let Some(progress) = &mut self.progress
                && progress.names_root_moves()
            {
                progress.current_move(depth, m, i + 1);
            }
            // What a move must beat to enter the list: alpha until the list is full.
            let bar = match best.get(lines - 1) {
                Some(last) => alpha.max(last.score),
                None => alpha,
            };
            let score = if best.len() < lines {
                self.child(root, &child, depth - 1, 1, bar, beta)
            } else {
                let s = self.child(root, &child, depth - 1, 1, bar, bar + 1);
                if s > bar && s < beta && !self.aborted {
                    self.child(root, &child, depth - 1, 1, bar, beta)
                } else {
                    s
                }
            };
            if self.aborted {
                self.unfinished_best = best.into_iter().next();
                return None;
            }
            if best.len() < lines || score > bar {
                let mut pv = vec![m];
                if score > bar {
                    pv.extend_from_slice(&self.pv_table[1]);
                }
                let at = best.partition_point(|l| l.score >= score);
                best.insert(at, RootLine { score, pv });
                best.truncate(lines);
                // Better than the first move: what a cut in this iteration will play, unless
                // it is a proven loss (see `Improvement::new`).
                if lines == 1
                    && i > 0
                    && let Some(found) = Improvement::new(depth, best[0].clone(), moves[0])
                {
                    found.keep_in(&mut self.improved);
                    if let Some(shared) = self.shared {
                        shared.post_improved(&found);
                    }
                }
            }
            if best.len() == lines && best[lines - 1].score >= beta {
                break;
            }
        }
        if let Some(line) = best.first()
            && line.score > alpha
            && line.score < beta
        {
            self.tt.store(
                root.hash(),
                Some(line.pv[0]),
                line.score,
                depth,
                Bound::Exact,
                0,
            );
        }
        Some(best)
    }
}
