//! The generic search: [`search`] runs iterative deepening over [`Evaluate`] within
//! [`Limits`], reports each finished iteration through a callback and returns the best move.
//! Strength levels below full search live in [`levels`]; [`mcts`] is the second searcher
//! ([`Searcher`]).

pub mod alphabeta;
pub mod levels;
pub mod limits;
pub mod mcts;
pub mod ordering;
pub mod score;
pub mod tt;

use std::sync::atomic::AtomicBool;
use std::time::Instant;

use crate::game::Evaluate;
use alphabeta::{AlphaBeta, RootLine};
pub use limits::{Clock, Limits};
use ordering::{History, MAX_PLY};
pub use score::Score;
use score::{MATE, MATE_BOUND};
use tt::{AllocError, TranspositionTable};

/// What survives from one search to the next within a game: the transposition table and the
/// history table. `uginewgame` clears both.
pub struct SearchTables<M: Copy> {
    /// The transposition table.
    pub tt: TranspositionTable<M>,
    /// History heuristic for move ordering.
    pub history: History,
}

impl<M: Copy> SearchTables<M> {
    /// Tables with a transposition table of `hash_mib` MiB.
    pub fn new(hash_mib: usize, history_size: usize) -> Result<Self, AllocError> {
        Ok(SearchTables {
            tt: TranspositionTable::new(hash_mib)?,
            history: History::new(history_size),
        })
    }

    /// Forgets everything learnt (new game, `Clear Hash`).
    pub fn clear(&mut self) {
        self.tt.clear();
        self.history.clear();
    }
}

/// The full-strength searchers of option `Searcher`.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub enum Searcher {
    /// Iterative-deepening alpha-beta ([`search`]).
    #[default]
    AlphaBeta,
    /// Monte Carlo tree search ([`mcts::search`]), where the position allows it
    /// ([`Evaluate::exact_search_preferred`]); alpha-beta elsewhere.
    Mcts,
}

impl Searcher {
    /// The option values, in order.
    pub const NAMES: &'static [&'static str] = &["alphabeta", "mcts"];

    /// Reads an option value.
    pub fn from_name(name: &str) -> Option<Searcher> {
        match name {
            "alphabeta" => Some(Searcher::AlphaBeta),
            "mcts" => Some(Searcher::Mcts),
            _ => None,
        }
    }
}

/// Everything a search is asked for, beyond the position.
#[derive(Clone, Debug)]
pub struct SearchParams<M> {
    /// When to stop.
    pub limits: Limits,
    /// How many best lines to report (`MultiPV`).
    pub multipv: usize,
    /// Milliseconds lost per move outside the engine (`Move Overhead`).
    pub overhead_ms: i64,
    /// Only these root moves (`go searchmoves`); `None` for all legal moves.
    pub root_moves: Option<Vec<M>>,
}

/// One `info` line's worth of progress.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct SearchInfo {
    /// Completed iteration depth.
    pub depth: u32,
    /// Deepest ply reached.
    pub seldepth: u32,
    /// 1-based line number; `None` when only one line is searched.
    pub multipv: Option<usize>,
    /// Score of the line from the side to move's view.
    pub score: Score,
    /// Nodes searched so far.
    pub nodes: u64,
    /// Nodes per second so far.
    pub nps: u64,
    /// Milliseconds since the search started.
    pub time_ms: u64,
    /// Transposition table fill in permille.
    pub hashfull: u32,
    /// The principal variation in move notation.
    pub pv: Vec<String>,
}

/// What a finished search found.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct SearchResult {
    /// The move to play, `None` when the position has no legal move.
    pub best: Option<String>,
    /// The expected reply, if the principal variation has one.
    pub ponder: Option<String>,
    /// The best line's score, if a full iteration completed.
    pub score: Option<Score>,
    /// Nodes searched.
    pub nodes: u64,
    /// Last completed depth.
    pub depth: u32,
}

/// Whether `score` is a proven result no deeper search can change at `depth`.
pub fn is_proven_within(score: i32, depth: u32) -> bool {
    score.abs() >= MATE_BOUND && (MATE - score.abs()) as u32 <= depth
}

fn pv_strings<G: Evaluate>(root: &G, pv: &[G::Move]) -> Vec<String> {
    let mut pos = root.clone();
    pv.iter()
        .map(|&m| {
            let s = pos.move_to_string(m);
            pos.play(m);
            s
        })
        .collect()
}

/// Searches `root` within `params` and returns the best move. Calls `report` once per line of
/// every completed iteration. Stops early when `stop` is set (polled every ~1k nodes).
///
/// Depth 1 always completes, so a legal move is returned whenever one exists.
pub fn search<G: Evaluate>(
    root: &G,
    params: &SearchParams<G::Move>,
    tables: &mut SearchTables<G::Move>,
    stop: &AtomicBool,
    report: &mut dyn FnMut(SearchInfo),
) -> SearchResult {
    let start = Instant::now();
    let mut moves = match &params.root_moves {
        Some(list) => list.clone(),
        None => {
            let mut all = Vec::new();
            if root.outcome().is_none() {
                root.search_moves(&mut all);
            }
            all
        }
    };
    let mut result = SearchResult {
        best: None,
        ponder: None,
        score: None,
        nodes: 0,
        depth: 0,
    };
    if moves.is_empty() {
        return result;
    }
    let limits = &params.limits;
    let deadlines = limits.deadlines(start, params.overhead_ms, root.moves_left_estimate());
    let max_depth = limits
        .depth
        .unwrap_or(MAX_PLY as u32)
        .clamp(1, MAX_PLY as u32);
    let lines_wanted = params.multipv.clamp(1, moves.len());
    tables.tt.new_search();
    let mut ab = AlphaBeta::new(tables, stop, deadlines, limits.nodes);
    let mut lines: Vec<RootLine<G::Move>> = Vec::new();

    for depth in 1..=max_depth {
        let mut new_lines: Vec<RootLine<G::Move>> = Vec::new();
        let mut excluded = Vec::new();
        for _ in 0..lines_wanted {
            match ab.search_root(root, &moves, &excluded, depth) {
                Some(line) => {
                    excluded.push(line.pv[0]);
                    new_lines.push(line);
                }
                None => break,
            }
        }
        if ab.aborted || new_lines.is_empty() {
            break;
        }
        ab.can_abort = true;
        // Next iteration starts with this one's best lines, best first.
        let firsts: Vec<G::Move> = new_lines.iter().map(|l| l.pv[0]).collect();
        moves.retain(|m| !firsts.contains(m));
        moves.splice(0..0, firsts);
        let elapsed = start.elapsed();
        let time_ms = elapsed.as_millis() as u64;
        for (i, line) in new_lines.iter().enumerate() {
            report(SearchInfo {
                depth,
                seldepth: ab.seldepth as u32,
                multipv: (lines_wanted > 1).then_some(i + 1),
                score: Score::from_internal(line.score),
                nodes: ab.nodes,
                nps: (ab.nodes as u128 * 1000 / elapsed.as_millis().max(1)) as u64,
                time_ms,
                hashfull: ab.hashfull(),
                pv: pv_strings(root, &line.pv),
            });
        }
        lines = new_lines;
        result.depth = depth;
        let finished = lines
            .iter()
            .all(|l| AlphaBeta::<G>::is_final(root, depth, l));
        let past_soft = deadlines.soft.is_some_and(|s| Instant::now() >= s);
        let out_of_nodes = limits.nodes.is_some_and(|n| ab.nodes >= n);
        if finished || past_soft || out_of_nodes {
            break;
        }
    }
    result.nodes = ab.nodes;
    if let Some(best) = lines.first() {
        let pv = pv_strings(root, &best.pv);
        result.best = pv.first().cloned();
        result.ponder = pv.get(1).cloned();
        result.score = Some(Score::from_internal(best.score));
    } else {
        result.best = Some(root.move_to_string(moves[0]));
    }
    result
}
