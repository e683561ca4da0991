//! The search worker: the [`Engine`] handle the protocol loop holds, the jobs it submits and
//! the events it gets back; the thread itself is in `worker.rs`. The worker owns the search
//! tables, runs one job at a time (search, perft, bench) and reports through the shared event
//! channel. It never writes to stdout; the
//! protocol loop prints what it reports.
//!
//! A job gets its root position by value. A shared `AtomicBool` stops it; every job ends with
//! exactly one final report ([`Report::BestMove`], [`Report::PerftDone`] or
//! [`Report::BenchDone`]), also when stopped.
//!
//! The searches name moves as the game's own ([`crate::game::Game::Move`]); a report names them in the
//! game's notation, written by the worker from the job's root ([`crate::game::Game::move_to_string`],
//! [`crate::game::Game::line_notation`]): one event channel serves the input reader and every game's
//! worker, so what crosses it is the same for every game.

use std::sync::Arc;
use std::sync::atomic::{AtomicBool, AtomicU64, Ordering};
use std::thread::JoinHandle;
use std::time::Duration;

use crossbeam_channel::{Receiver, RecvTimeoutError, Sender};

use crate::game::Searchable;
use crate::search::levels::Level;
use crate::search::progress::Progress;
use crate::search::{SearchInfo, SearchParams, SearchTables, Searcher};

mod book_lines;
mod worker;

use worker::Worker;
pub use worker::perft_stoppable;

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
    /// The table of the `Hash` change numbered `generation` (the engine's count of them) is in
    /// place, every page of it written: what `isready` waits for.
    HashReady {
        /// Which change.
        generation: u64,
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
        /// The reply the search expects to `best` (the second move of its last principal
        /// variation that starts with `best`), in the game's notation; `None` if it has none.
        ponder: Option<String>,
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
// One job is moved through the channel per `go`: a search's size beside a perft's costs nothing.
#[allow(clippy::large_enum_variant)]
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
                ponder: None,
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

// As for `Job`: one `Run` per `go`.
#[allow(clippy::large_enum_variant)]
enum Control<G: Searchable> {
    Run(u64, Job<G>),
    NewGame,
    ResizeHash {
        generation: u64,
        mib: usize,
    },
    Seed(u64),
    /// Load the solved books (and their endgame table), then drop the sender.
    WarmUp(Sender<()>),
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
    /// The table work shared with the worker: the newest `Hash` change and whether the engine
    /// is closing.
    table: Arc<TableWork>,
    /// The newest `Hash` change whose table the worker said is in place.
    hash_ready: u64,
}

/// What the session tells the worker about its table work, read while a table is committed.
#[derive(Default)]
pub(crate) struct TableWork {
    /// The number of the newest `Hash` change (a change superseded by a newer one is skipped).
    pub(crate) latest: AtomicU64,
    /// Set when the engine closes: a commit under way stops at once.
    pub(crate) closing: AtomicBool,
}

impl<G: Searchable> Engine<G> {
    /// Starts a worker that reports into `events`, with the given tables and random seed. With
    /// `book` (option `SolvedBook` on) the worker loads the solved books first, off any clock;
    /// without, they wait for [`Engine::warm_up`].
    pub fn start(
        events: Sender<Event>,
        tables: SearchTables<G::Move>,
        seed: u64,
        book: bool,
    ) -> Self {
        let (control, inbox) = crossbeam_channel::unbounded();
        let (warmed, warming) = crossbeam_channel::bounded::<()>(0);
        let stop = Arc::new(AtomicBool::new(false));
        let table = Arc::new(TableWork::default());
        let worker = Worker::<G>::new(events, Arc::clone(&stop), Arc::clone(&table), tables, seed);
        let thread = std::thread::Builder::new()
            .name(format!("{}-worker", G::NAME))
            .spawn(move || {
                // The solved books are parsed before the first job, off any clock a `go`
                // would start (about 0.1 s for Sight 5×5).
                if book {
                    worker::warm_up::<G>();
                }
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
            table,
            hash_ready: 0,
        }
    }

    /// Has the worker load the solved books now (option `SolvedBook` turned on after the start):
    /// the next `isready` waits for it ([`Engine::wait_warm`]).
    pub fn warm_up(&mut self) {
        if G::HAS_SOLVED_BOOK {
            let (warmed, warming) = crossbeam_channel::bounded::<()>(0);
            self.warming = Some(warming);
            self.send(Control::WarmUp(warmed));
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

    /// The running job `id` now ends by itself (a ponder search that `ponderhit` gave the real
    /// search's deadlines): end of input lets it finish, as it would a bounded `go`.
    pub fn now_bounded(&mut self, id: u64) {
        if self.running == Some(id) {
            self.bounded = true;
        }
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
    /// freed before the new one is allocated, and the caller does not wait. The worker writes
    /// the new table's pages whenever it has nothing else to do, pausing for any job or control
    /// sent meanwhile (a search uses the table as far as it is written), and sends
    /// [`Event::HashReady`] once the table is in place ([`Engine::hash_pending`] until then). A
    /// newer change supersedes this one, even while its table is being written. If the memory
    /// cannot be had, the worker keeps a smaller table and sends [`Event::HashRefused`].
    pub fn resize_hash(&self, mib: usize) {
        let generation = self.table.latest.fetch_add(1, Ordering::SeqCst) + 1;
        self.send(Control::ResizeHash { generation, mib });
    }

    /// Whether the table of the newest `Hash` change is not in place yet.
    pub fn hash_pending(&self) -> bool {
        self.hash_ready < self.table.latest.load(Ordering::SeqCst)
    }

    /// The worker said the table of change `generation` is in place ([`Event::HashReady`]).
    pub fn hash_ready(&mut self, generation: u64) {
        self.hash_ready = self.hash_ready.max(generation);
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
        self.table.closing.store(true, Ordering::SeqCst);
        self.stop();
        self.control = None;
        if let Some(thread) = self.thread.take() {
            let _ = thread.join();
        }
    }
}

#[cfg(test)]
mod tests;
