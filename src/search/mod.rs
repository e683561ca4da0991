//! The generic search: [`search`] runs iterative deepening over [`Searchable`] within
//! [`Limits`], reports each finished iteration through a callback and returns the best move.
//! Strength levels below full search live in [`levels`]; [`mcts`] is the second searcher
//! ([`Searcher`]).

pub mod alphabeta;
pub mod inflight;
pub mod iterations;
pub mod levels;
pub mod limits;
mod main_thread;
pub mod mcts;
pub mod ordering;
pub mod progress;
pub mod root_line;
pub mod score;
pub mod smp;
pub mod strength;
mod table_memory;
pub mod tt;

use std::sync::Arc;
use std::sync::atomic::{AtomicBool, AtomicU64, Ordering};
use std::time::Instant;

use crate::game::{PackedMove, Searchable};
use crate::net::{GameNet, Net};
use alphabeta::{AlphaBeta, Role, RootLine};
use iterations::SharedIterations;
use limits::Timing;
pub use limits::{Clock, Limits, PonderHit};
use main_thread::MainSearch;
use ordering::{History, MAX_PLY};
use progress::{Progress, ProgressSink};
pub use score::Score;
use score::{INFINITY, MATE, MATE_BOUND};
use tt::{AllocError, TranspositionTable};

/// What survives from one search to the next within a game: the transposition table and the
/// history table. `uginewgame` clears both.
pub struct SearchTables<M: PackedMove> {
    /// The transposition table.
    pub tt: TranspositionTable<M>,
    /// History heuristic for move ordering.
    pub history: History,
}

impl<M: PackedMove> SearchTables<M> {
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
    /// Each game's better searcher by SPRT: MCTS where
    /// [`SearchHooks::MCTS_BY_DEFAULT`](crate::game::SearchHooks::MCTS_BY_DEFAULT) says so (Isaac's
    /// placement phase), alpha-beta elsewhere, and alpha-beta for a search limited by `depth` alone
    /// (plies searched in full are alpha-beta's notion; see [`Limits::depth_only`]).
    #[default]
    Auto,
    /// Iterative-deepening alpha-beta ([`search`]).
    AlphaBeta,
    /// Monte Carlo tree search ([`mcts::search`]), where the position allows it
    /// ([`SearchHooks::exact_search_preferred`](crate::game::SearchHooks::exact_search_preferred));
    /// alpha-beta elsewhere, and for `go mate`.
    Mcts,
}

impl Searcher {
    /// The option values, in order.
    pub const NAMES: &'static [&'static str] = &["auto", "alphabeta", "mcts"];

    /// Reads an option value.
    pub fn from_name(name: &str) -> Option<Searcher> {
        match name {
            "auto" => Some(Searcher::Auto),
            "alphabeta" => Some(Searcher::AlphaBeta),
            "mcts" => Some(Searcher::Mcts),
            _ => None,
        }
    }

    /// Whether `root` is searched by MCTS under `limits`.
    pub fn uses_mcts<G: Searchable>(self, root: &G, limits: &Limits) -> bool {
        let wanted = match self {
            // A mate search is alpha-beta's: it proves wins within a depth.
            _ if limits.mate.is_some() => false,
            Searcher::Auto => G::MCTS_BY_DEFAULT && !limits.depth_only(),
            Searcher::AlphaBeta => false,
            Searcher::Mcts => true,
        };
        wanted && !root.exact_search_preferred()
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
    /// Search threads (`Threads`); 1 searches on the calling thread alone.
    pub threads: usize,
    /// [`SearchHooks::repetition_key`](crate::game::SearchHooks::repetition_key) of the game's
    /// positions before the root (what `position … moves` and `move` played), in any order; a line
    /// that returns to one of them is scored as a draw. Empty when the game has no repetitions or
    /// the history is unknown.
    pub earlier_positions: Vec<u64>,
    /// The learned evaluation to search with (`Eval`, `EvalFile`); `None`, or a net that does
    /// not fit the game, searches with the game's hand-written evaluation.
    pub net: Option<Arc<Net>>,
    /// Set for a `go ponder` search (its limits are `infinite`): `ponderhit` gives it the real
    /// search's deadlines through this, and it goes on as the real search.
    pub ponder: Option<Arc<PonderHit>>,
}

impl<M> SearchParams<M> {
    /// A search within `limits` and nothing more: one line, no move overhead, every root move,
    /// one thread, no earlier positions, the hand evaluation. Callers set the fields they need
    /// otherwise (`SearchParams { threads: 4, ..SearchParams::new(limits) }`).
    pub fn new(limits: Limits) -> Self {
        SearchParams {
            limits,
            multipv: 1,
            overhead_ms: 0,
            root_moves: None,
            threads: 1,
            earlier_positions: Vec::new(),
            net: None,
            ponder: None,
        }
    }

    /// The deadlines of a search from `root` started at `start`: those of its limits, or,
    /// for a ponder search once hit, the real search's.
    pub fn timing<G: Searchable<Move = M>>(&self, root: &G, start: Instant) -> Timing<'_> {
        let own = self
            .limits
            .deadlines(start, self.overhead_ms, root.moves_left_estimate());
        Timing::new(own, self.ponder.as_deref())
    }
}

/// [`SearchParams::new`] without limits (a search that runs until stopped or proven).
impl<M> Default for SearchParams<M> {
    fn default() -> Self {
        SearchParams::new(Limits::default())
    }
}

/// The net of `params` checked against `G`, for a search from `root` (`None` where there is
/// none, where it never learned `root`'s variant ([`GameNet::knows`]: the hand evaluation
/// then), or where it does not fit: the engine checks a net when it is chosen, so a misfit
/// here is a caller's error, logged).
pub fn game_net<G: Searchable>(params: &SearchParams<G::Move>, root: &G) -> Option<GameNet<G>> {
    let net = params.net.as_ref()?;
    GameNet::new(Arc::clone(net))
        .inspect_err(|e| log::warn!("net not used: {e}"))
        .ok()
        .filter(|net| net.knows(root))
}

/// One `info` line's worth of progress, naming moves as `M` (the game's moves; text once the
/// engine reports it).
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct SearchInfo<M> {
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
    /// The principal variation, from the root.
    pub pv: Vec<M>,
}

impl<M> SearchInfo<M> {
    /// The same report with its principal variation turned by `f` (into the game's notation,
    /// say: [`crate::game::Game::line_notation`]).
    pub fn map_pv<N>(self, f: impl FnOnce(&[M]) -> Vec<N>) -> SearchInfo<N> {
        SearchInfo {
            depth: self.depth,
            seldepth: self.seldepth,
            multipv: self.multipv,
            score: self.score,
            nodes: self.nodes,
            nps: self.nps,
            time_ms: self.time_ms,
            hashfull: self.hashfull,
            pv: f(&self.pv),
        }
    }
}

/// What a finished search found, naming moves as `M` (the game's moves).
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct SearchResult<M> {
    /// The move to play, `None` when the position has no legal move.
    pub best: Option<M>,
    /// The best line's score, if a full iteration completed.
    pub score: Option<Score>,
    /// Nodes searched.
    pub nodes: u64,
    /// Last completed depth.
    pub depth: u32,
}

impl<M> SearchResult<M> {
    /// The result of a search that found nothing (no legal move, or not searched yet).
    pub fn empty() -> Self {
        SearchResult {
            best: None,
            score: None,
            nodes: 0,
            depth: 0,
        }
    }

    /// The same result with its move turned by `f` (into the game's notation, say).
    pub fn map_move<N>(self, f: impl FnOnce(M) -> N) -> SearchResult<N> {
        SearchResult {
            best: self.best.map(f),
            score: self.score,
            nodes: self.nodes,
            depth: self.depth,
        }
    }
}

/// The root moves a search considers: `go searchmoves`' list if given, else the game's search
/// moves; none when the game is over.
pub(crate) fn root_moves<G: Searchable>(root: &G, params: &SearchParams<G::Move>) -> Vec<G::Move> {
    let mut moves = Vec::new();
    if root.outcome().is_none() {
        match &params.root_moves {
            Some(list) => moves.clone_from(list),
            None => root.search_moves(&mut moves),
        }
    }
    moves
}

/// Whether `score` is a proven result no deeper search can change at `depth`.
pub fn is_proven_within(score: i32, depth: u32) -> bool {
    score.abs() >= MATE_BOUND && (MATE - score.abs()) as u32 <= depth
}

/// First depth searched with an aspiration window.
const ASPIRATION_MIN_DEPTH: u32 = 4;

/// One root search for the best `lines` lines to `depth`, with an aspiration window of the game's
/// [`SearchHooks::ASPIRATION_WINDOW`](crate::game::SearchHooks::ASPIRATION_WINDOW) around `guess`:
/// on a fail low or high the window widens on that side (doubling its step) until the score falls
/// inside it. With no guess, a proven result as guess, a depth below [`ASPIRATION_MIN_DEPTH`],
/// several lines or no window for the game, the window is infinite.
pub(crate) fn aspiration_search<G: Searchable>(
    ab: &mut AlphaBeta<G>,
    root: &G,
    moves: &[G::Move],
    lines: usize,
    depth: u32,
    guess: Option<i32>,
) -> Option<Vec<RootLine<G::Move>>> {
    let window = guess
        .filter(|g| g.abs() < MATE_BOUND && depth >= ASPIRATION_MIN_DEPTH && lines == 1)
        .zip(G::ASPIRATION_WINDOW);
    let Some((guess, mut delta)) = window else {
        return ab.search_root(root, moves, lines, depth, (-INFINITY, INFINITY));
    };
    let (mut alpha, mut beta) = (guess - delta, guess + delta);
    loop {
        let found = ab.search_root(root, moves, lines, depth, (alpha, beta))?;
        let score = found.first()?.score;
        if score <= alpha && alpha > -INFINITY {
            alpha = (score - delta).max(-INFINITY);
        } else if score >= beta && beta < INFINITY {
            beta = (score + delta).min(INFINITY);
        } else {
            return Some(found);
        }
        delta = delta.saturating_mul(2);
        if delta >= MATE_BOUND / 2 {
            (alpha, beta) = (-INFINITY, INFINITY);
        }
    }
}

/// Searches `root` within `params` and returns the best move. Calls `report` once per line of
/// every completed iteration. Stops early when `stop` is set (looked at in every node).
///
/// With `params.threads` > 1, helper threads search the same root at the same time and share
/// the transposition table (Lazy SMP, see [`smp`]); the main thread's result is the answer.
/// Any limit or `stop` may cut the search at any node, depth 1 included; a legal move is
/// still returned whenever one exists: the last completed iteration's best (or a move that a
/// deeper iteration, cut short, found better than it), else the best root move depth 1 had
/// scored, else the first root move.
pub fn search<G: Searchable>(
    root: &G,
    params: &SearchParams<G::Move>,
    tables: &mut SearchTables<G::Move>,
    stop: &AtomicBool,
    report: &mut dyn FnMut(SearchInfo<G::Move>),
) -> SearchResult<G::Move> {
    search_reporting(root, params, tables, stop, report, &mut |_| {})
}

/// [`search`] that also reports its progress during long iterations to `progress` (see
/// [`progress`]): after a second, every root move it starts, and its totals whenever a second
/// has passed without a report. When a limit or `stop` cuts an iteration short, the last
/// finished iteration's lines are reported once more with the search's totals, or the line
/// of the better move the cut iteration found, which is then played.
pub fn search_reporting<G: Searchable>(
    root: &G,
    params: &SearchParams<G::Move>,
    tables: &mut SearchTables<G::Move>,
    stop: &AtomicBool,
    report: &mut dyn FnMut(SearchInfo<G::Move>),
    progress: &mut dyn FnMut(Progress<G::Move>),
) -> SearchResult<G::Move> {
    let limits = &params.limits;
    let start = limits.started.unwrap_or_else(Instant::now);
    let moves = root_moves(root, params);
    if moves.is_empty() {
        return SearchResult::empty();
    }
    let deadlines = params.timing(root, start);
    // A win in N moves of the side to move ends within 2N − 1 plies.
    let mate_plies = limits.mate.map(|n| n.saturating_mul(2).saturating_sub(1));
    let max_depth = limits
        .depth
        .unwrap_or(MAX_PLY as u32)
        .min(mate_plies.unwrap_or(u32::MAX))
        .clamp(1, MAX_PLY as u32);
    tables.tt.new_search();
    let SearchTables { tt, history } = tables;
    let tt = &*tt;
    let net = game_net::<G>(params, root);
    let helpers_halt = AtomicBool::new(false);
    let helper_nodes = AtomicU64::new(0);
    // Threads share their iterations only when one line is searched (helpers search one).
    let threads = params.threads.clamp(1, smp::MAX_THREADS);
    let shared = (threads > 1 && params.multipv <= 1)
        .then(|| SharedIterations::new(threads, G::SMP_HELPERS_SHARE_DEPTH));
    let inflight = (threads > 1).then(inflight::InFlight::new);
    std::thread::scope(|scope| {
        let plan = smp::HelperPlan {
            tt,
            halt: &helpers_halt,
            nodes: &helper_nodes,
            deadlines,
            max_depth,
            earlier_positions: &params.earlier_positions,
            net: net.as_ref(),
            iterations: shared.as_ref(),
            inflight: inflight.as_ref(),
            full_width: limits.mate.is_some(),
        };
        plan.spawn(scope, root, &moves, threads);
        let mut ab = AlphaBeta::new(
            tt,
            history,
            Role::Main {
                helper_nodes: &helper_nodes,
            },
            stop,
            deadlines,
            limits.nodes,
        );
        ab.set_earlier_positions(&params.earlier_positions);
        ab.set_net(net.as_ref());
        ab.progress = Some(ProgressSink::new(progress, start));
        if let Some(shared) = &shared {
            ab.set_iterations(shared);
        }
        if let Some(inflight) = &inflight {
            ab.set_inflight(inflight);
        }
        ab.set_full_width(limits.mate.is_some());
        let main = MainSearch {
            root,
            params,
            start,
            deadlines,
            max_depth,
            shared: shared.as_ref(),
        };
        let result = main.iterate(&mut ab, moves, report);
        helpers_halt.store(true, Ordering::Relaxed);
        result
    })
}
