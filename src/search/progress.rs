//! Progress during a long iteration: what the main search thread reports between the `info`
//! lines of finished iterations, so that a GUI is never left without news for more than a
//! second (UCI's `currmove`/`currmovenumber` and a line of totals).

use std::time::{Duration, Instant};

/// After this long into a search the main thread names every root move it starts, and it never
/// goes longer than this without a report of its totals.
pub const PROGRESS_INTERVAL: Duration = Duration::from_secs(1);

/// One progress report of the main search thread, naming moves as `M` (the game's moves;
/// text once the engine reports it).
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Progress<M> {
    /// The iteration at `depth` starts searching root move `mv`, the `number`-th (1-based) in
    /// its order.
    CurrMove {
        /// The iteration's depth.
        depth: u32,
        /// The root move.
        mv: M,
        /// Its place in the iteration's order of root moves, from 1.
        number: usize,
    },
    /// The totals so far, in the middle of an iteration.
    Totals(Totals),
}

/// The totals of a search so far, in the middle of the iteration at `depth`.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Totals {
    /// The iteration under way.
    pub depth: u32,
    /// Deepest ply reached so far.
    pub seldepth: u32,
    /// Nodes searched so far, all threads.
    pub nodes: u64,
    /// Nodes per second so far.
    pub nps: u64,
    /// Milliseconds since the search started.
    pub time_ms: u64,
    /// Transposition table fill in permille.
    pub hashfull: u32,
}

impl<M> Progress<M> {
    /// The same report with its move, if it names one, turned by `f` (into the game's
    /// notation, say).
    pub fn map_move<N>(self, f: impl FnOnce(M) -> N) -> Progress<N> {
        match self {
            Progress::CurrMove { depth, mv, number } => Progress::CurrMove {
                depth,
                mv: f(mv),
                number,
            },
            Progress::Totals(totals) => Progress::Totals(totals),
        }
    }
}

/// Where the main thread's progress goes, and when the next report of totals is due.
pub struct ProgressSink<'a, M> {
    sink: &'a mut dyn FnMut(Progress<M>),
    start: Instant,
    /// When the search itself began (after anything the `go` waited for, such as the solved
    /// books being read at start-up): the interval counts from here, so a slow start does
    /// not turn a short search into one that names its root moves.
    began: Instant,
    next_totals: Instant,
}

impl<'a, M> ProgressSink<'a, M> {
    /// Progress of a search whose clock started at `start` (its reported times count from
    /// there), beginning now, sent to `sink`.
    pub fn new(sink: &'a mut dyn FnMut(Progress<M>), start: Instant) -> Self {
        let began = Instant::now().max(start);
        ProgressSink {
            sink,
            start,
            began,
            next_totals: began + PROGRESS_INTERVAL,
        }
    }

    /// Whether root moves are named: the search has run for [`PROGRESS_INTERVAL`].
    pub fn names_root_moves(&self) -> bool {
        self.began.elapsed() >= PROGRESS_INTERVAL
    }

    /// Reports that root move `mv`, the `number`-th, starts at `depth`.
    pub fn current_move(&mut self, depth: u32, mv: M, number: usize) {
        (self.sink)(Progress::CurrMove { depth, mv, number });
    }

    /// Whether a report of totals is due at `now`.
    pub fn totals_due(&self, now: Instant) -> bool {
        now >= self.next_totals
    }

    /// Reports the totals (see [`Progress::Totals`]) at `now`.
    pub fn totals(&mut self, now: Instant, depth: u32, seldepth: u32, nodes: u64, hashfull: u32) {
        let time = now.saturating_duration_since(self.start);
        (self.sink)(Progress::Totals(Totals {
            depth,
            seldepth,
            nodes,
            nps: (nodes as u128 * 1000 / time.as_millis().max(1)) as u64,
            time_ms: time.as_millis() as u64,
            hashfull,
        }));
        self.reported(now);
    }

    /// Something was reported at `now` (totals or a finished iteration): the next report of
    /// totals is due a [`PROGRESS_INTERVAL`] later.
    pub fn reported(&mut self, now: Instant) {
        self.next_totals = now + PROGRESS_INTERVAL;
    }
}
