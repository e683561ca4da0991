//! The proof search: does the side to move win? Every line runs to the end of the game (a
//! Sight game fills one point a ply, so it ends within the empty points), so there is no
//! depth, no evaluation and no draw: a node is won when one move leads to a lost child, lost
//! when every move leads to a won one. What a playing search lacks and a proof needs:
//!
//! - canonical keys under the board's symmetries ([`super::symmetry`]), so each class of
//!   positions is proven once, in a table made for proofs ([`super::table`]);
//! - an immediate-win check (a move that leaves the opponent no move) before anything else;
//! - enhanced transposition cutoffs: a child already proven lost wins at once;
//! - proof-oriented ordering: the moves that leave the opponent the fewest replies first (the
//!   smallest subtrees to disprove, as proof numbers would choose).

use std::sync::atomic::{AtomicBool, Ordering};
use std::time::{Duration, Instant};

use super::board::{Board, Lines, Move};
use super::symmetry::Symmetries;
use super::table::{ProofTable, Proven};

/// Positions with fewer empty points are searched without the table (cheaper than a key).
const TABLE_MIN_EMPTIES: u32 = 11;
/// Positions with at least this many empty points look their children up first (ETC).
const ETC_MIN_EMPTIES: u32 = 14;
/// Nodes between two looks at the clock for progress reports.
const PROGRESS_NODES: u64 = 1 << 20;
/// Nodes between two looks at a [`Limit`] (a few microseconds of work).
const LIMIT_NODES: u64 = 1 << 12;

/// When a bounded proof gives up ([`Prover::with_limit`]): after `nodes` nodes, once `stop` is
/// set, or at `deadline`, whichever comes first; each is looked at every few thousand nodes.
#[derive(Clone, Copy, Debug)]
pub struct Limit<'a> {
    /// Most nodes to search.
    pub nodes: u64,
    /// A flag that stops the proof when set (the engine's `stop`).
    pub stop: Option<&'a AtomicBool>,
    /// A second flag that ends the proof (a ponder search's `ponderhit`: the time is now the
    /// real search's).
    pub also_stop: Option<&'a AtomicBool>,
    /// The instant to give up at.
    pub deadline: Option<Instant>,
}

/// What a progress report carries.
#[derive(Clone, Copy, Debug)]
pub struct Progress {
    /// Nodes searched so far.
    pub nodes: u64,
    /// Results in the table.
    pub stored: u64,
    /// Time since the prover started.
    pub elapsed: Duration,
}

/// What a search returns once the proof gave up: never stored, never used.
const GAVE_UP: Proven = Proven {
    win: false,
    dist: 0,
    best: None,
};

/// A proof search over one board size and rule variant, with its table.
pub struct Prover<'a> {
    lines: &'a Lines,
    syms: &'a Symmetries,
    table: &'a mut ProofTable,
    /// Nodes searched.
    pub nodes: u64,
    started: Instant,
    next_report: u64,
    report_every: Duration,
    last_report: Instant,
    progress: Option<&'a mut dyn FnMut(Progress)>,
    limit: Option<Limit<'a>>,
    /// Whether the proof gave up: from then on nothing is stored and no result is used.
    gave_up: bool,
    /// Per number of empty points: the moves and candidates of the node at that depth.
    moves: Vec<Vec<Move>>,
    candidates: Vec<Vec<Candidate>>,
}

/// A move with what ordering needs: the opponent's replies after it.
#[derive(Clone, Copy)]
struct Candidate {
    m: Move,
    child: Board,
    replies: u32,
}

impl<'a> Prover<'a> {
    /// A prover using `table` (which may hold results of earlier proofs of the same size and
    /// rules).
    pub fn new(lines: &'a Lines, syms: &'a Symmetries, table: &'a mut ProofTable) -> Self {
        let now = Instant::now();
        Prover {
            lines,
            syms,
            table,
            nodes: 0,
            started: now,
            next_report: PROGRESS_NODES,
            report_every: Duration::from_secs(10),
            last_report: now,
            progress: None,
            limit: None,
            gave_up: false,
            moves: vec![Vec::new(); super::board::MAX_POINTS + 1],
            candidates: vec![Vec::new(); super::board::MAX_POINTS + 1],
        }
    }

    /// Calls `progress` about every `every` during long proofs.
    pub fn with_progress(mut self, every: Duration, progress: &'a mut dyn FnMut(Progress)) -> Self {
        self.report_every = every;
        self.progress = Some(progress);
        self
    }

    /// Bounds the proof by `limit`: [`Prover::try_prove`] then gives up rather than exceed it.
    pub fn with_limit(mut self, limit: Limit<'a>) -> Self {
        self.limit = Some(limit);
        self
    }

    /// Proves `b` within the [`Limit`] (if any): `None` if it gave up. Results proven before
    /// giving up stay in the table (each is exact); nothing computed after is stored.
    pub fn try_prove(&mut self, b: &Board) -> Option<Proven> {
        let proven = self.prove(b);
        (!self.gave_up).then_some(proven)
    }

    /// Proves `b`: whether the side to move wins, the length of the line the proof follows,
    /// and the winning (or longest-resisting) move in `b`'s own frame.
    pub fn prove(&mut self, b: &Board) -> Proven {
        let empties = b.empty_count(self.lines);
        self.search(b, empties)
    }

    fn search(&mut self, b: &Board, empties: u32) -> Proven {
        self.nodes += 1;
        if self.nodes >= self.next_report {
            self.next_report += PROGRESS_NODES;
            self.maybe_report();
        }
        // The first node looks too: a proof started past its limit gives up at once.
        if self.nodes % LIMIT_NODES == 1 {
            self.look_at_limit();
        }
        if self.gave_up {
            return GAVE_UP;
        }
        // Scratch space of this depth, lent out for the call (no allocation per node).
        let level = empties as usize;
        let mut moves = std::mem::take(&mut self.moves[level]);
        let mut candidates = std::mem::take(&mut self.candidates[level]);
        let proven = self.search_with(b, empties, &mut moves, &mut candidates);
        self.moves[level] = moves;
        self.candidates[level] = candidates;
        proven
    }

    fn search_with(
        &mut self,
        b: &Board,
        empties: u32,
        moves: &mut Vec<Move>,
        candidates: &mut Vec<Candidate>,
    ) -> Proven {
        b.moves(self.lines, moves);
        if moves.is_empty() {
            return Proven {
                win: false,
                dist: 0,
                best: None,
            };
        }
        candidates.clear();
        for &m in moves.iter() {
            let child = b.play(self.lines, m);
            let replies = child.move_count(self.lines);
            if replies == 0 {
                return Proven {
                    win: true,
                    dist: 1,
                    best: Some(m),
                };
            }
            candidates.push(Candidate { m, child, replies });
        }
        let canonical = (empties >= TABLE_MIN_EMPTIES).then(|| self.syms.canonical(b));
        if let Some(c) = canonical
            && let Some(p) = self.table.get(c.key)
        {
            return Proven {
                best: p.best.map(|m| self.syms.unmap_move(c.sym, m)),
                ..p
            };
        }
        if empties >= ETC_MIN_EMPTIES {
            for cand in candidates.iter() {
                let cc = self.syms.canonical(&cand.child);
                if let Some(p) = self.table.get(cc.key)
                    && !p.win
                {
                    let proven = Proven {
                        win: true,
                        dist: p.dist + 1,
                        best: Some(cand.m),
                    };
                    self.store(canonical, proven, 1);
                    return proven;
                }
            }
        }
        candidates.sort_unstable_by_key(|c| (c.replies, c.m.from, c.m.to));
        let before = self.nodes;
        let mut longest: Option<(u8, Move)> = None;
        for cand in candidates.iter() {
            let r = self.search(&cand.child, empties - 1);
            if self.gave_up {
                return GAVE_UP;
            }
            if !r.win {
                let proven = Proven {
                    win: true,
                    dist: r.dist + 1,
                    best: Some(cand.m),
                };
                self.store(canonical, proven, self.nodes - before);
                return proven;
            }
            if longest.is_none_or(|(d, _)| r.dist + 1 > d) {
                longest = Some((r.dist + 1, cand.m));
            }
        }
        let (dist, m) = longest.expect("a position with moves has candidates");
        let proven = Proven {
            win: false,
            dist,
            best: Some(m),
        };
        self.store(canonical, proven, self.nodes - before);
        proven
    }

    fn look_at_limit(&mut self) {
        if let Some(limit) = self.limit {
            self.gave_up = self.nodes >= limit.nodes
                || limit.stop.is_some_and(|s| s.load(Ordering::Relaxed))
                || limit.also_stop.is_some_and(|s| s.load(Ordering::Relaxed))
                || limit.deadline.is_some_and(|d| Instant::now() >= d);
        }
    }

    fn store(&mut self, canonical: Option<super::symmetry::Canonical>, p: Proven, nodes: u64) {
        if self.gave_up {
            return;
        }
        if let Some(c) = canonical {
            let stored = Proven {
                best: p.best.map(|m| self.syms.map_move(c.sym, m)),
                ..p
            };
            self.table.put(c.key, stored, nodes);
        }
    }

    fn maybe_report(&mut self) {
        if self.last_report.elapsed() < self.report_every {
            return;
        }
        self.last_report = Instant::now();
        let p = Progress {
            nodes: self.nodes,
            stored: self.table.stored(),
            elapsed: self.started.elapsed(),
        };
        if let Some(report) = self.progress.as_mut() {
            report(p);
        }
    }
}
