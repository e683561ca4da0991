//! The main thread of an alpha-beta search: its iterative deepening, which reports every
//! completed iteration (its own, or a deeper one a helper completed first) and decides when
//! to stop (a proven result, the soft deadline, the node limit, a `go mate` win found). At
//! the end it plays a move that a deeper, unfinished iteration (its own cut one, or a
//! helper's) found better than the completed iteration's.

use std::time::Instant;

use super::alphabeta::{AlphaBeta, RootLine};
use super::iterations::SharedIterations;
use super::limits::Timing;
use super::root_line::Improvement;
use super::score::Score;
use super::{SearchInfo, SearchParams, SearchResult, aspiration_search};
use crate::game::Searchable;

/// The main thread's iterative deepening: it reports, and decides when to stop.
pub(super) struct MainSearch<'a, G: Searchable> {
    /// The position searched.
    pub(super) root: &'a G,
    /// What was asked.
    pub(super) params: &'a SearchParams<G::Move>,
    /// When the search started (the `go`).
    pub(super) start: Instant,
    /// When to stop.
    pub(super) deadlines: Timing<'a>,
    /// Deepest iteration.
    pub(super) max_depth: u32,
    /// The iterations every thread completes (`None` with one thread or several lines).
    pub(super) shared: Option<&'a SharedIterations<G::Move>>,
}

impl<G: Searchable> MainSearch<'_, G> {
    /// The deepest iteration another thread completed beyond `depth`, as lines to adopt.
    fn deeper_than(&self, depth: u32) -> Option<(u32, Vec<RootLine<G::Move>>)> {
        self.shared?
            .deepest()
            .filter(|c| c.depth > depth)
            .map(|c| (c.depth, vec![c.line]))
    }

    pub(super) fn iterate(
        &self,
        ab: &mut AlphaBeta<G>,
        mut moves: Vec<G::Move>,
        report: &mut dyn FnMut(SearchInfo<G::Move>),
    ) -> SearchResult<G::Move> {
        let root = self.root;
        let limits = &self.params.limits;
        let lines_wanted = self.params.multipv.clamp(1, moves.len());
        let mut lines: Vec<RootLine<G::Move>> = Vec::new();
        // The best root move of a depth 1 cut before it finished: played, but its score is
        // only that move's, not the position's, so it is never the result's score.
        let mut unfinished: Option<RootLine<G::Move>> = None;
        let mut result = SearchResult::empty();
        let mut cut = false;
        let mut depth = 1;
        while depth <= self.max_depth {
            // Aspiration: a single line searches a window around the last iteration's score.
            let guess = lines.first().map(|l| l.score);
            self.shared.inspect(|s| s.begin(depth));
            let found = aspiration_search(ab, root, &moves, lines_wanted, depth, guess);
            self.shared.inspect(|s| s.end(depth));
            let found = found.filter(|l| !l.is_empty());
            let (done, new_lines) = match found {
                Some(new_lines) => {
                    if let Some(shared) = self.shared {
                        shared.post(depth, &new_lines[0]);
                    }
                    (depth, new_lines)
                }
                // Another thread completed this depth first: its line is taken over.
                None if ab.overtaken() => match self.deeper_than(result.depth) {
                    Some(deeper) => deeper,
                    None => continue,
                },
                None => {
                    if let Some((done, deeper)) = self.deeper_than(result.depth) {
                        // Cut, but a helper had completed a deeper iteration: its line.
                        result.depth = done;
                        lines = deeper;
                        self.report_lines(ab, done, lines_wanted, &lines, report);
                    } else if lines.is_empty() {
                        // Cut during depth 1: the best root move it had scored is played (it is
                        // not reported and has no score: depth 1 is not complete).
                        unfinished = ab.unfinished_best.take();
                    } else {
                        // Cut during a later iteration: reported below.
                        cut = true;
                    }
                    break;
                }
            };
            // Next iteration starts with this one's best lines, best first.
            let firsts: Vec<G::Move> = new_lines.iter().map(|l| l.pv[0]).collect();
            moves.retain(|m| !firsts.contains(m));
            moves.splice(0..0, firsts);
            self.report_lines(ab, done, lines_wanted, &new_lines, report);
            lines = new_lines;
            result.depth = done;
            let finished = lines
                .iter()
                .all(|l| AlphaBeta::<G>::is_final(root, done, l));
            let past_soft = self
                .deadlines
                .now()
                .soft
                .is_some_and(|s| Instant::now() >= s);
            let out_of_nodes = limits.nodes.is_some_and(|n| ab.total_nodes() >= n);
            let mate_found = limits.mate.is_some_and(|n| {
                matches!(Score::from_internal(lines[0].score), Score::Mate(m) if m > 0 && m <= n as i32)
            });
            if finished || past_soft || out_of_nodes || mate_found {
                break;
            }
            depth = done + 1;
        }
        if let Some(found) = self.improvement(ab, result.depth, &lines) {
            // A deeper iteration, cut short or still running in a helper, found a better
            // move than the completed one's first: its line is played and reported.
            result.depth = found.depth;
            lines = vec![found.line];
            self.report_lines(ab, found.depth, lines_wanted, &lines, report);
        } else if cut {
            // The last finished iteration's lines again, with the totals of the whole search.
            self.report_lines(ab, result.depth, lines_wanted, &lines, report);
        }
        result.nodes = ab.total_nodes();
        if let Some(best) = lines.first() {
            result.best = best.pv.first().copied();
            result.score = Some(Score::from_internal(best.score));
        } else if let Some(best) = unfinished {
            result.best = best.pv.first().copied();
        } else {
            // Cut before depth 1 scored a move: the first root move in the search's order.
            result.best = Some(moves[0]);
        }
        result
    }

    /// The deepest improvement on `lines` (the deepest completed iteration's, at `done`) that
    /// this thread or a helper found: a move that an iteration deeper than `done` scored
    /// above the first move it searched, when that first move is `lines`' (so the deeper
    /// search compared the two). Not under `go mate`, whose answer is the deepest completed
    /// iteration's; with several lines (`MultiPV`) no improvement is ever recorded.
    fn improvement(
        &self,
        ab: &AlphaBeta<G>,
        done: u32,
        lines: &[RootLine<G::Move>],
    ) -> Option<Improvement<G::Move>> {
        let played = *lines.first()?.pv.first()?;
        if self.params.limits.mate.is_some() {
            return None;
        }
        let mut chosen = None;
        let candidates = [ab.improved.clone(), self.shared.and_then(|s| s.improved())];
        for found in candidates.into_iter().flatten() {
            if found.depth > done && found.over == played && found.line.pv.first() != Some(&played)
            {
                found.keep_in(&mut chosen);
            }
        }
        chosen
    }

    /// One `info` report per finished line of the iteration at `depth`.
    fn report_lines(
        &self,
        ab: &mut AlphaBeta<G>,
        depth: u32,
        lines_wanted: usize,
        lines: &[RootLine<G::Move>],
        report: &mut dyn FnMut(SearchInfo<G::Move>),
    ) {
        let elapsed = self.start.elapsed();
        let nodes = ab.total_nodes();
        if let Some(progress) = &mut ab.progress {
            progress.reported(Instant::now());
        }
        for (i, line) in lines.iter().enumerate() {
            report(SearchInfo {
                depth,
                seldepth: ab.seldepth as u32,
                multipv: (lines_wanted > 1).then_some(i + 1),
                score: Score::from_internal(line.score),
                nodes,
                nps: (nodes as u128 * 1000 / elapsed.as_millis().max(1)) as u64,
                time_ms: elapsed.as_millis() as u64,
                hashfull: ab.hashfull(),
                pv: line.pv.clone(),
            });
        }
    }
}
