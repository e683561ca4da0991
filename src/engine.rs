//! The worker thread: it owns the search tables, runs one job at a time (search, perft,
//! bench) and reports through the shared event channel. It never writes to stdout; the
//! protocol loop prints what it reports.
//!
//! A job gets its root position by value. A shared `AtomicBool` stops it; every job ends with
//! exactly one final report ([`Report::BestMove`], [`Report::PerftDone`] or
//! [`Report::BenchDone`]), also when stopped.
//!
//! The searches name moves as the game's own ([`Game::Move`]); a report names them in the
//! game's notation, written by the worker from the job's root ([`Game::move_to_string`],
//! [`Game::line_notation`]): one event channel serves the input reader and every game's
//! worker, so what crosses it is the same for every game.

use std::panic::AssertUnwindSafe;
use std::sync::Arc;
use std::sync::atomic::{AtomicBool, Ordering};
use std::thread::JoinHandle;
use std::time::{Duration, Instant};

use crossbeam_channel::{Receiver, RecvTimeoutError, Sender};
use rand::SeedableRng;
use rand::rngs::SmallRng;

use crate::game::{Game, OptionValues, Searchable};
use crate::search::levels::{self, Level};
use crate::search::progress::Progress;
use crate::search::tt::TranspositionTable;
use crate::search::{
    Limits, Score, SearchInfo, SearchParams, SearchTables, Searcher, mcts, search as run_search,
    search_reporting,
};
use crate::solve::{self, book::BookMove};

/// Everything the protocol loop waits for: input lines and worker reports.
#[derive(Debug)]
pub enum Event {
    /// One line of input, without its line ending.
    Input(String),
    /// A line longer than the reader accepts; its length so far.
    InputTooLong(usize),
    /// End of input (or a read error): let bounded work finish (see [`Job::is_bounded`]),
    /// stop unbounded work, then quit.
    InputClosed,
    /// End of a one-shot script: let the job under way finish, then quit.
    InputDone,
    /// The worker could not have a new `Hash` size and kept a table of `kept_mib` MiB.
    HashRefused {
        /// The size asked for.
        wanted_mib: usize,
        /// The size of the table in use.
        kept_mib: usize,
    },
    /// A report from the worker about job `job`.
    Worker {
        /// The job it belongs to.
        job: u64,
        /// What it says.
        report: Report,
    },
}

/// What the worker reports.
#[derive(Debug)]
pub enum Report {
    /// A completed iteration of a search, its moves in the game's notation.
    Info(SearchInfo<String>),
    /// Progress in the middle of an iteration (the current root move, or the totals), its
    /// move in the game's notation.
    Progress(Progress<String>),
    /// The search is over (final report of a search).
    BestMove {
        /// The move in the game's notation, `None` when there is no legal move.
        best: Option<String>,
    },
    /// Perft count below one root move.
    PerftMove {
        /// The root move.
        mv: String,
        /// Leaf nodes below it.
        nodes: u64,
    },
    /// Perft is over (final report); `complete` is false when it was stopped.
    PerftDone {
        /// Leaf nodes counted.
        nodes: u64,
        /// Whether every root move was counted.
        complete: bool,
    },
    /// One bench position searched.
    BenchPosition {
        /// Its notation.
        fen: String,
        /// Nodes searched on it.
        nodes: u64,
    },
    /// Bench is over (final report).
    BenchDone {
        /// Total nodes: the bench signature.
        nodes: u64,
        /// Wall time in milliseconds.
        ms: u64,
        /// Whether every position was searched to the full depth.
        complete: bool,
    },
}

/// Work for the worker.
pub enum Job<G: Searchable> {
    /// Search `root` and report a best move.
    Search {
        /// The position.
        root: G,
        /// Limits and lines.
        params: SearchParams<G::Move>,
        /// Strength level.
        level: Level,
        /// The searcher of `Level full`.
        searcher: Searcher,
        /// Whether `Level full` plays the solved book's move where it has one.
        book: bool,
    },
    /// Count leaf nodes `depth` plies below `root`, per root move.
    Perft {
        /// The position.
        root: G,
        /// Depth in plies (≥ 1).
        depth: u32,
    },
    /// Search the game's bench positions to the bench depth with fresh tables.
    Bench {
        /// The net to evaluate with (`Eval`, `EvalFile`); `None`: the hand evaluation.
        net: Option<std::sync::Arc<crate::net::Net>>,
    },
}

impl<G: Searchable> Job<G> {
    /// The move that answers a search if it fails or cannot be waited for: its first root
    /// move (the first legal move, or the first of `searchmoves`); `None` for other jobs and
    /// when there is no legal move.
    pub fn fallback_move(&self) -> Option<String> {
        match self {
            Job::Search { root, params, .. } => crate::search::root_moves(root, params)
                .first()
                .map(|&m| root.move_to_string(m)),
            _ => None,
        }
    }

    /// Whether the job ends by itself: `perft`, `bench`, and a search with a limit (`depth`,
    /// `nodes`, `movetime` or a clock) that is not `infinite`. End of input lets such a job
    /// finish; a search without a limit runs until `stop` and is stopped.
    pub fn is_bounded(&self) -> bool {
        match self {
            Job::Search { params, .. } => params.limits.is_bounded(),
            Job::Perft { .. } | Job::Bench { .. } => true,
        }
    }

    /// The final report that stands in for this job's own if it fails.
    fn failure_report(&self) -> Report {
        match self {
            Job::Search { .. } => Report::BestMove {
                best: self.fallback_move(),
            },
            Job::Perft { .. } => Report::PerftDone {
                nodes: 0,
                complete: false,
            },
            Job::Bench { .. } => Report::BenchDone {
                nodes: 0,
                ms: 0,
                complete: false,
            },
        }
    }
}

enum Control<G: Searchable> {
    Run(u64, Job<G>),
    NewGame,
    ResizeHash(usize),
    Seed(u64),
}

/// Handle of the worker thread of game `G`.
pub struct Engine<G: Searchable> {
    control: Option<Sender<Control<G>>>,
    stop: Arc<AtomicBool>,
    thread: Option<JoinHandle<()>>,
    running: Option<u64>,
    /// The move that answers the running search if the worker cannot be waited for.
    fallback: Option<String>,
    /// Whether the running job ends by itself ([`Job::is_bounded`]).
    bounded: bool,
    next_id: u64,
    /// Closed by the worker once its start-up work (the solved books) is done.
    warming: Option<Receiver<()>>,
}

impl<G: Searchable> Engine<G> {
    /// Starts a worker that reports into `events`, with the given tables and random seed.
    pub fn start(events: Sender<Event>, tables: SearchTables<G::Move>, seed: u64) -> Self {
        let (control, inbox) = crossbeam_channel::unbounded();
        let (warmed, warming) = crossbeam_channel::bounded::<()>(0);
        let stop = Arc::new(AtomicBool::new(false));
        let worker = Worker::<G> {
            events,
            stop: Arc::clone(&stop),
            tables,
            mcts_tree: mcts::KeptTree::default(),
            rng: SmallRng::seed_from_u64(seed),
        };
        let thread = std::thread::Builder::new()
            .name(format!("{}-worker", G::NAME))
            .spawn(move || {
                // The solved books are parsed before the first job, off any clock a `go`
                // would start (about 0.1 s for Sight 5×5).
                solve::book::load_for::<G>();
                drop(warmed);
                worker.run(inbox)
            })
            .ok();
        Engine {
            control: Some(control),
            stop,
            thread,
            running: None,
            fallback: None,
            bounded: false,
            next_id: 1,
            warming: Some(warming),
        }
    }

    /// Waits (at most `limit`) until the worker has finished its start-up work, so that the
    /// next `go` pays nothing for it: `isready` answers after this.
    pub fn wait_warm(&mut self, limit: Duration) {
        if let Some(warming) = &self.warming {
            // The worker drops its end when done (or when it ends): a disconnect.
            if let Err(RecvTimeoutError::Disconnected) | Ok(()) = warming.recv_timeout(limit) {
                self.warming = None;
            }
        }
    }

    /// Starts a job and returns its id. The caller makes sure no other job runs.
    pub fn submit(&mut self, job: Job<G>) -> u64 {
        let id = self.next_id;
        self.next_id += 1;
        self.stop.store(false, Ordering::SeqCst);
        self.running = Some(id);
        self.fallback = job.fallback_move();
        self.bounded = job.is_bounded();
        self.send(Control::Run(id, job));
        id
    }

    /// The move that answers the running search if its own answer cannot be waited for (see
    /// [`Job::fallback_move`]).
    pub fn fallback_move(&self) -> Option<String> {
        self.fallback.clone()
    }

    /// The id of the job under way, if any.
    pub fn running(&self) -> Option<u64> {
        self.running
    }

    /// Whether a job runs and ends by itself ([`Job::is_bounded`]).
    pub fn running_bounded(&self) -> bool {
        self.running.is_some() && self.bounded
    }

    /// Marks job `id` as over (the protocol saw its final report).
    pub fn finished(&mut self, id: u64) {
        if self.running == Some(id) {
            self.running = None;
        }
    }

    /// Asks the running job to stop; its final report follows within milliseconds.
    pub fn stop(&self) {
        self.stop.store(true, Ordering::SeqCst);
    }

    /// Clears the search tables (new game, `Clear Hash`).
    pub fn new_game(&self) {
        self.send(Control::NewGame);
    }

    /// Gives the transposition table a new size, `mib` MiB, on the worker: the old table is
    /// freed before the new one is allocated, and the caller does not wait. If the memory
    /// cannot be had, the worker keeps a smaller table and sends [`Event::HashRefused`].
    pub fn resize_hash(&self, mib: usize) {
        self.send(Control::ResizeHash(mib));
    }

    /// Reseeds the random generator used by `Level random|greedy`.
    pub fn seed(&self, seed: u64) {
        self.send(Control::Seed(seed));
    }

    fn send(&self, c: Control<G>) {
        if let Some(control) = &self.control {
            // A send fails only if the worker died; its jobs then never report, which the
            // protocol loop survives (it never waits without a way out).
            let _ = control.send(c);
        }
    }
}

impl<G: Searchable> Drop for Engine<G> {
    fn drop(&mut self) {
        self.stop();
        self.control = None;
        if let Some(thread) = self.thread.take() {
            let _ = thread.join();
        }
    }
}

struct Worker<G: Searchable> {
    events: Sender<Event>,
    stop: Arc<AtomicBool>,
    tables: SearchTables<G::Move>,
    /// The last MCTS search's tree, for the next search (cleared with the tables).
    mcts_tree: mcts::KeptTree<G>,
    rng: SmallRng,
}

impl<G: Searchable> Worker<G> {
    fn run(mut self, inbox: Receiver<Control<G>>) {
        for control in inbox {
            match control {
                Control::Run(id, job) => {
                    // A job that panics must still end with its final report, or the protocol
                    // would wait for it; the tables it left half-written are cleared.
                    let fallback = job.failure_report();
                    let run = std::panic::catch_unwind(AssertUnwindSafe(|| self.run_job(id, job)));
                    if run.is_err() {
                        log::error!("job {id} failed; answering for it");
                        self.clear_tables();
                        self.report(id, fallback);
                    }
                }
                Control::NewGame => self.clear_tables(),
                Control::ResizeHash(mib) => self.resize_hash(mib),
                Control::Seed(seed) => self.rng = SmallRng::seed_from_u64(seed),
            }
        }
    }

    /// Forgets everything learnt: the transposition and history tables and the kept tree.
    fn clear_tables(&mut self) {
        self.tables.clear();
        self.mcts_tree.clear();
    }

    /// Frees the table, then allocates one of `mib` MiB; if that fails, one of the old size,
    /// else the smallest.
    fn resize_hash(&mut self, mib: usize) {
        let old_mib = self.tables.tt.bytes() >> 20;
        self.mcts_tree.clear();
        self.tables.tt = TranspositionTable::tiny();
        self.tables.history.clear();
        if let Ok(tt) = TranspositionTable::new(mib) {
            self.tables.tt = tt;
            return;
        }
        let (tt, kept_mib) = match TranspositionTable::new(old_mib) {
            Ok(tt) => (tt, old_mib),
            Err(_) => (TranspositionTable::tiny(), 0),
        };
        self.tables.tt = tt;
        let refused = Event::HashRefused {
            wanted_mib: mib,
            kept_mib,
        };
        let _ = self.events.send(refused);
    }

    fn report(&self, job: u64, report: Report) {
        let _ = self.events.send(Event::Worker { job, report });
    }

    fn run_job(&mut self, id: u64, job: Job<G>) {
        match job {
            Job::Search {
                root,
                params,
                level,
                searcher,
                book,
            } => {
                let mut params = params;
                let solved = if book && level == Level::Full {
                    self.solved(&root, &mut params)
                } else {
                    None
                };
                self.search(id, &root, &params, level, searcher, solved)
            }
            Job::Perft { root, depth } => self.perft(id, &root, depth),
            Job::Bench { net } => self.bench(id, net),
        }
    }

    /// What `Level full` with `SolvedBook` on knows before it searches: the book's move, else
    /// (with every root move and one line) what the exact prover finds, run once before the
    /// search while the position has at most [`solve::endgame::MAX_EMPTIES`] empty points and
    /// given up after its node budget, at `stop`, or at nine tenths of the move's time (the
    /// search, far weaker than a proof this near the end, has the rest). A proven win is
    /// played at once; in a proven loss (`wins` false) the search chooses the move, which
    /// plays for the opponent's mistakes where the proof's longest line need not (issue 31),
    /// and the proven `score mate -N` is reported after it; a proof that gave up leaves the
    /// search the moves it had not proven lost.
    fn solved(&self, root: &G, params: &mut SearchParams<G::Move>) -> Option<BookMove> {
        if let Some(known) = solve::book::probe(root) {
            return Some(known);
        }
        if params.root_moves.is_some() || params.multipv > 1 {
            return None;
        }
        let start = params.limits.started.unwrap_or_else(Instant::now);
        let deadlines =
            params
                .limits
                .deadlines(start, params.overhead_ms, root.moves_left_estimate());
        let deadline = deadlines
            .soft
            .or(deadlines.hard)
            .map(|d| start + d.saturating_duration_since(start) * 9 / 10);
        let bound = solve::endgame::Bound {
            stop: &self.stop,
            deadline,
        };
        match solve::endgame::prove(root, bound)? {
            solve::endgame::Proof::Proven(known) => Some(known),
            solve::endgame::Proof::GaveUp(losing) => {
                let mut left = crate::search::root_moves(root, params);
                left.retain(|&m| !losing.contains(&root.move_to_string(m)));
                if !losing.is_empty() && !left.is_empty() {
                    params.root_moves = Some(left);
                }
                None
            }
        }
    }

    fn search(
        &mut self,
        id: u64,
        root: &G,
        params: &SearchParams<G::Move>,
        level: Level,
        searcher: Searcher,
        book: Option<BookMove>,
    ) {
        // From the `go`: a proof before the search is part of the move's time.
        let start = params.limits.started.unwrap_or_else(Instant::now);
        let events = &self.events;
        let send = |report| events.send(Event::Worker { job: id, report }).ok();
        if level != Level::Full || !searcher.uses_mcts(root, &params.limits) {
            // Only MCTS goes on from the kept tree; no need to hold its memory.
            self.mcts_tree.clear();
        }
        let mut report = |i: SearchInfo<G::Move>| {
            send(Report::Info(i.map_pv(|pv| root.line_notation(pv))));
        };
        // `book` is only probed for `Level full` (run_job); `searchmoves` may still rule it out.
        // A proven loss: the search plays, and its move is reported with the proven score.
        let lost = book.as_ref().filter(|hit| !hit.wins).cloned();
        let in_book = book
            .filter(|hit| hit.wins)
            .and_then(|hit| root.parse_move(&hit.mv).ok().map(|m| (hit, m)))
            .filter(|&(_, m)| {
                params
                    .root_moves
                    .as_ref()
                    .is_none_or(|moves| moves.contains(&m))
            });
        let best = match level {
            _ if in_book.is_some() => in_book.map(|(hit, m)| {
                report(book_info(start, &hit, m));
                m
            }),
            Level::Full if searcher.uses_mcts(root, &params.limits) => {
                // The tree may use as much memory as the transposition table (option `Hash`).
                let budget = self.tables.tt.bytes();
                let kept = &mut self.mcts_tree;
                mcts::search_reusing(root, params, budget, kept, &self.stop, &mut report).best
            }
            Level::Full => {
                let mut progress = |p: Progress<G::Move>| {
                    send(Report::Progress(p.map_move(|m| root.move_to_string(m))));
                };
                let tables = &mut self.tables;
                search_reporting(root, params, tables, &self.stop, &mut report, &mut progress).best
            }
            Level::Greedy => {
                let moves = levels::candidate_moves(root, params.root_moves.as_deref());
                let choice = levels::greedy_move_among(root, &moves, &mut self.rng);
                if let Some((m, score)) = choice {
                    report(one_ply_info(start, score, m));
                }
                choice.map(|(m, _)| m)
            }
            Level::Random => {
                let moves = levels::candidate_moves(root, params.root_moves.as_deref());
                levels::random_move_among(&moves, &mut self.rng)
            }
        };
        if let (Some(lost), Some(m)) = (&lost, best)
            && params.multipv <= 1
        {
            report(book_info(start, lost, m));
        }
        if params.limits.infinite {
            // `go infinite` holds its bestmove until `stop`, even when the search is over.
            while !self.stop.load(Ordering::SeqCst) {
                std::thread::sleep(Duration::from_millis(1));
            }
        }
        let best = best.map(|m| root.move_to_string(m));
        self.report(id, Report::BestMove { best });
    }

    fn perft(&self, id: u64, root: &G, depth: u32) {
        let mut moves = Vec::new();
        if root.outcome().is_none() {
            root.generate_moves(&mut moves);
        }
        let mut total = 0;
        let mut complete = true;
        for &m in &moves {
            let mut child = root.clone();
            child.play(m);
            match perft_stoppable(&child, depth - 1, &self.stop) {
                Some(nodes) => {
                    total += nodes;
                    let mv = root.move_to_string(m);
                    self.report(id, Report::PerftMove { mv, nodes });
                }
                None => {
                    complete = false;
                    break;
                }
            }
        }
        self.report(
            id,
            Report::PerftDone {
                nodes: total,
                complete,
            },
        );
    }

    fn bench(&mut self, id: u64, net: Option<std::sync::Arc<crate::net::Net>>) {
        let start = Instant::now();
        let settings = G::settings(&OptionValues::from_specs(&G::options()));
        let mut total = 0;
        let mut complete = true;
        for fen in G::BENCH_FENS {
            let Ok(root) = G::from_fen(fen, &settings) else {
                continue;
            };
            self.tables.clear();
            let params = SearchParams {
                net: net.clone(),
                ..SearchParams::new(Limits {
                    depth: Some(G::BENCH_DEPTH),
                    ..Limits::default()
                })
            };
            let result = run_search(&root, &params, &mut self.tables, &self.stop, &mut |_| {});
            total += result.nodes;
            let fen = fen.to_string();
            self.report(
                id,
                Report::BenchPosition {
                    fen,
                    nodes: result.nodes,
                },
            );
            if self.stop.load(Ordering::SeqCst) {
                complete = false;
                break;
            }
        }
        self.tables.clear();
        let ms = start.elapsed().as_millis() as u64;
        self.report(
            id,
            Report::BenchDone {
                nodes: total,
                ms,
                complete,
            },
        );
    }
}

/// The `info` line of a proven result (the solved book's or the prover's): `plies` to the end
/// along the proof; for a win the one line of the move played, for a loss the last line,
/// after the search that chose the move.
fn book_info<M>(start: Instant, hit: &BookMove, m: M) -> SearchInfo<M> {
    SearchInfo {
        depth: hit.plies as u32,
        seldepth: hit.plies as u32,
        multipv: None,
        score: Score::Mate(hit.mate()),
        nodes: 0,
        nps: 0,
        time_ms: start.elapsed().as_millis() as u64,
        hashfull: 0,
        pv: vec![m],
    }
}

fn one_ply_info<M>(start: Instant, score: i32, m: M) -> SearchInfo<M> {
    let time_ms = start.elapsed().as_millis() as u64;
    SearchInfo {
        depth: 1,
        seldepth: 1,
        multipv: None,
        score: Score::from_internal(score),
        nodes: 1,
        nps: 1000 / time_ms.max(1),
        time_ms,
        hashfull: 0,
        pv: vec![m],
    }
}

/// Perft that gives up (`None`) once `stop` is set; bulk-counts the last ply. The flag is read
/// before every node above the last ply, so between two reads there is at most one move
/// generation: a stop is seen within microseconds, as a search sees it.
pub fn perft_stoppable<G: Game>(pos: &G, depth: u32, stop: &AtomicBool) -> Option<u64> {
    if depth <= 1 {
        return Some(pos.perft(depth));
    }
    if stop.load(Ordering::Relaxed) {
        return None;
    }
    let mut moves = Vec::new();
    pos.generate_moves(&mut moves);
    let mut total = 0;
    for &m in &moves {
        let mut child = pos.clone();
        child.play(m);
        total += perft_stoppable(&child, depth - 1, stop)?;
    }
    Some(total)
}
