//! One game's protocol session: the current position, the worker, and every command.
//! A session ends on `quit`/end of input, or when the game or its rules change, in which case
//! the outer loop starts a session for the new settings (see `protocol::run`).

mod game_commands;
mod set_option;

use std::collections::VecDeque;
use std::sync::Arc;
use std::time::{Duration, Instant};

use crossbeam_channel::{Receiver, RecvTimeoutError, Sender};

use super::command::{self, Command, ErrorCode, GoArgs, ProtocolError};
use super::options as opt;
use super::output::{
    Output, format_bestmove, format_bestmove_ponder, format_info, format_progress,
};
use crate::engine::{Engine, Event, Job, Report};
use crate::game::wdl::PerMille;
use crate::game::{GameId, GameVisitor, OptionSpec, OptionValues, Searchable};
use crate::net::Net;
use crate::search::{PonderHit, Score, SearchTables};
use set_option::resolve_seed;

/// How long to wait for a stopped job's final report before giving up on the worker.
const WORKER_GRACE: Duration = Duration::from_secs(10);

/// How long `isready` waits at most for the worker's start-up work (the solved books).
const WARM_UP_LIMIT: Duration = Duration::from_secs(2);
/// How long `isready` waits at most for a new `Hash` table to be in place: several times what
/// the largest table (a quarter of the machine's memory) takes at the slowest rate measured.
const TABLE_WAIT_LIMIT: Duration = Duration::from_secs(120);

/// State that outlives a session: output, events, options, the game being played.
pub struct Shared {
    /// The only writer of stdout.
    pub out: Output,
    /// Input lines and worker reports.
    pub events: Receiver<Event>,
    /// Handed to each session's worker.
    pub events_tx: Sender<Event>,
    /// Events read while waiting for the worker, handled next.
    pub pending: VecDeque<Event>,
    /// Every option's spec.
    pub specs: Vec<OptionSpec>,
    /// Every option's current value.
    pub options: OptionValues,
    /// The game being played.
    pub game: GameId,
    /// `--strict`: quit with status 1 after the first error.
    pub strict: bool,
    /// The script is over: quit as soon as no job runs.
    pub quit_when_idle: bool,
    /// An error has been reported.
    pub failed: bool,
    /// The net `EvalFile` names (read and checked when it was set), for its game only.
    pub eval_file_net: Option<Arc<Net>>,
    /// The last `info string eval …` said (protocol.md, "The evaluation in use"): a search
    /// says what evaluates it when that changed since the last one said it.
    pub announced_eval: Option<String>,
}

impl Shared {
    fn next_event(&mut self) -> Event {
        self.pending
            .pop_front()
            .unwrap_or_else(|| self.events.recv().unwrap_or(Event::InputClosed))
    }
}

/// Why a session ended.
#[derive(Debug, PartialEq, Eq)]
pub enum SessionEnd {
    /// Leave the protocol loop.
    Quit,
    /// Start a new session (the game or its rules changed).
    Restart,
}

/// Runs a session for the game in `shared.game`.
pub struct RunSession<'a>(pub &'a mut Shared);

impl GameVisitor for RunSession<'_> {
    type Output = SessionEnd;
    fn visit<G: Searchable>(self) -> SessionEnd {
        Session::<G>::new(self.0).run()
    }
}

/// A `go ponder` under way: its job, the `go` it becomes at `ponderhit`, and what hands that
/// `go`'s deadlines to the running search.
struct Pondering {
    job: u64,
    real: GoArgs,
    hit: Arc<PonderHit>,
}

struct Session<'a, G: Searchable> {
    shared: &'a mut Shared,
    settings: G::Settings,
    position: Option<G>,
    /// [`SearchHooks::repetition_key`](crate::game::SearchHooks::repetition_key) of the game's
    /// positions before `position`, as far as `position … moves` and `move` told them (what the
    /// search treats as repetitions).
    earlier_positions: Vec<u64>,
    engine: Engine<G>,
    /// The `go ponder` under way.
    pondering: Option<Pondering>,
    /// A job whose `bestmove` is not printed (a ponder search that `ponderhit` replaced).
    silenced: Option<u64>,
    /// The game phase of the last search's root ([`WinChances::wdl_phase`]), for the chances
    /// `UCI_ShowWDL` adds to its `info` lines.
    ///
    /// [`WinChances::wdl_phase`]: crate::game::WinChances::wdl_phase
    root_phase: f64,
}

impl<'a, G: Searchable> Session<'a, G> {
    fn new(shared: &'a mut Shared) -> Self {
        let settings = G::settings(&shared.options);
        let hash = shared.options.get_i64(opt::HASH, opt::DEFAULT_HASH_MIB) as usize;
        // The session starts with the smallest table and the worker takes the `Hash` one, off
        // the command loop: every page of a table is written when it is allocated (about 0.15 s
        // a GiB, src/search/table_memory.rs). A refusal comes back as `Event::HashRefused`
        // ("cannot allocate … MiB for Hash; using 1 MiB").
        let tables = match SearchTables::new(1, G::HISTORY_SIZE) {
            Ok(t) => t,
            Err(_) => std::process::exit(crate::exit_status::FAILURE),
        };
        let seed = resolve_seed(shared.options.get_i64(opt::SEED, 0));
        let book = shared.options.get_bool(opt::SOLVED_BOOK, true);
        let engine = Engine::start(shared.events_tx.clone(), tables, seed, book);
        if hash > 1 {
            engine.resize_hash(hash);
        }
        let position = Some(G::start(&settings));
        Session {
            shared,
            settings,
            position,
            earlier_positions: Vec::new(),
            engine,
            pondering: None,
            silenced: None,
            root_phase: 0.0,
        }
    }

    fn run(mut self) -> SessionEnd {
        loop {
            if self.shared.out.closed || (self.shared.strict && self.shared.failed) {
                self.wait_idle();
                return SessionEnd::Quit;
            }
            match self.shared.next_event() {
                Event::Input(line) => {
                    self.shared.out.log_input(&line);
                    if let Some(end) = self.handle_line(&line) {
                        return end;
                    }
                }
                Event::InputTooLong(len) => self.error(ProtocolError::new(
                    ErrorCode::BadArgument,
                    format!("line of {len} bytes ignored: too long"),
                )),
                Event::InputClosed => {
                    // Scripts get what they asked for: bounded work finishes first.
                    if !self.engine.running_bounded() {
                        self.wait_idle();
                        return SessionEnd::Quit;
                    }
                    self.shared.quit_when_idle = true;
                }
                Event::InputDone => {
                    if self.engine.running().is_none() {
                        return SessionEnd::Quit;
                    }
                    self.shared.quit_when_idle = true;
                }
                Event::Worker { job, report } => {
                    if self.on_report(job, report) && self.shared.quit_when_idle {
                        return SessionEnd::Quit;
                    }
                }
                Event::HashRefused {
                    wanted_mib,
                    kept_mib,
                } => self.hash_refused(wanted_mib, kept_mib),
                Event::HashReady { generation } => self.engine.hash_ready(generation),
            }
        }
    }

    /// The worker kept a table of `kept_mib` MiB instead of `wanted_mib`.
    fn hash_refused(&mut self, wanted_mib: usize, kept_mib: usize) {
        let kept = kept_mib.max(1);
        self.shared.options.set(opt::HASH, kept.to_string());
        self.error(ProtocolError::new(
            ErrorCode::BadOptionValue,
            format!("cannot allocate {wanted_mib} MiB for Hash; using {kept} MiB"),
        ));
    }

    /// `isready` after a `Hash` change: waits until the worker has the new table in place
    /// (every page written, at the rate protocol.md gives), so that the next `go` pays nothing
    /// for it. Meanwhile `quit` acts at once (`Some(Quit)`); other input waits, in order, for
    /// after `readyok`. Bounded: after [`TABLE_WAIT_LIMIT`] `readyok` is answered anyway.
    fn wait_for_table(&mut self) -> Option<SessionEnd> {
        self.shared.pending.retain(|e| match e {
            Event::HashReady { generation } => {
                self.engine.hash_ready(*generation);
                false
            }
            _ => true,
        });
        let give_up = Instant::now() + TABLE_WAIT_LIMIT;
        while self.engine.hash_pending() {
            let left = give_up.saturating_duration_since(Instant::now());
            match self.shared.events.recv_timeout(left) {
                Ok(Event::HashReady { generation }) => self.engine.hash_ready(generation),
                Ok(Event::HashRefused {
                    wanted_mib,
                    kept_mib,
                }) => self.hash_refused(wanted_mib, kept_mib),
                Ok(Event::Worker { job, report }) => {
                    self.on_report(job, report);
                }
                Ok(Event::Input(line)) if self.shared.pending.is_empty() && is_quit(&line) => {
                    self.shared.out.log_input(&line);
                    return Some(SessionEnd::Quit);
                }
                Ok(other) => self.shared.pending.push_back(other),
                Err(RecvTimeoutError::Timeout | RecvTimeoutError::Disconnected) => {
                    log::warn!("the new Hash table is still being written; readyok anyway");
                    break;
                }
            }
        }
        None
    }

    fn out(&mut self, line: &str) {
        self.shared.out.line(line);
    }

    fn error(&mut self, e: ProtocolError) {
        self.shared.out.error(&e);
        self.shared.failed = true;
    }

    /// Prints a worker report; true when it was the job's final report.
    fn on_report(&mut self, job: u64, report: Report) -> bool {
        if self.engine.running() != Some(job) {
            return false;
        }
        let line = match report {
            Report::Info(info) => {
                let wdl = self.shared.options.get_bool(opt::SHOW_WDL, false);
                format_info(&info, wdl.then(|| self.chances(info.score)))
            }
            Report::Progress(progress) => format_progress(&progress),
            Report::PerftMove { mv, nodes } => format!("{mv}: {nodes}"),
            Report::BenchPosition { fen, nodes } => {
                format!("info string bench {fen} nodes {nodes}")
            }
            Report::BestMove { best, ponder } => {
                self.engine.finished(job);
                if self.pondering.as_ref().is_some_and(|p| p.job == job) {
                    self.pondering = None;
                }
                if self.silenced.take_if(|j| *j == job).is_some() {
                    return true;
                }
                let line = if self.shared.options.get_bool(opt::PONDER, false) {
                    format_bestmove_ponder(best.as_deref(), ponder.as_deref())
                } else {
                    format_bestmove(best.as_deref())
                };
                self.out(&line);
                return true;
            }
            Report::PerftDone { nodes, complete } => {
                self.engine.finished(job);
                let line = if complete {
                    format!("Nodes searched: {nodes}")
                } else {
                    format!("info string perft stopped after {nodes} nodes")
                };
                self.out(&line);
                return true;
            }
            Report::BenchDone {
                nodes,
                ms,
                complete,
            } => {
                self.engine.finished(job);
                if !complete {
                    self.out("info string bench stopped before the last position");
                }
                self.out(&format!("Nodes searched: {nodes}"));
                self.out(&format!("Nodes/second: {}", nodes * 1000 / ms.max(1)));
                return true;
            }
        };
        self.out(&line);
        false
    }

    /// The side to move's chances at `score` in the last search's root: a proven result is
    /// certain, any other score goes through the game's model at the root's phase.
    fn chances(&self, score: Score) -> PerMille {
        match score {
            Score::Mate(n) if n > 0 => PerMille::WON,
            Score::Mate(_) => PerMille::LOST,
            Score::Cp(cp) => G::WDL_MODEL.per_mille(cp, self.root_phase),
        }
    }

    /// Stops the job under way, if any, and prints its final report. `isready` that arrives
    /// meanwhile is answered at once unless input is already waiting before it (its answer
    /// must not overtake theirs); other input is kept, in order, for later.
    fn wait_idle(&mut self) {
        if self.engine.running().is_none() {
            return;
        }
        self.engine.stop();
        let give_up = Instant::now() + WORKER_GRACE;
        while let Some(job) = self.engine.running() {
            let left = give_up.saturating_duration_since(Instant::now());
            match self.shared.events.recv_timeout(left) {
                Ok(Event::Worker { job, report }) => {
                    self.on_report(job, report);
                }
                Ok(Event::Input(line)) if self.shared.pending.is_empty() && is_isready(&line) => {
                    self.shared.out.log_input(&line);
                    self.out("readyok");
                }
                Ok(other) => self.shared.pending.push_back(other),
                Err(RecvTimeoutError::Timeout | RecvTimeoutError::Disconnected) => {
                    log::error!("worker did not finish job {job}; answering for it");
                    let fallback = self.engine.fallback_move();
                    self.engine.finished(job);
                    self.out(&format_bestmove(fallback.as_deref()));
                }
            }
        }
    }

    fn handle_line(&mut self, line: &str) -> Option<SessionEnd> {
        let command = match command::parse(line) {
            Ok(Some(c)) => c,
            Ok(None) => return None,
            Err(e) => {
                // Every `go` gets exactly one bestmove, a malformed one included.
                let mut words = line.split_whitespace();
                let is_search = words.next() == Some("go") && words.next() != Some("perft");
                if is_search {
                    self.wait_idle();
                }
                self.error(e);
                if is_search {
                    self.out("bestmove (none)");
                }
                return None;
            }
        };
        match command {
            Command::Hello { uci } => self.hello(uci),
            Command::IsReady => {
                // Start-up work (the solved books, a new `Hash` table) finishes first: the next
                // `go` is then off any clock it would have cost. Bounded: `isready` never
                // hangs. During a search it is answered at once, as UCI asks.
                self.engine.wait_warm(WARM_UP_LIMIT);
                if self.engine.running().is_none()
                    && let Some(end) = self.wait_for_table()
                {
                    return Some(end);
                }
                self.out("readyok")
            }
            Command::SetOption { name, value } => return self.set_option(&name, value),
            Command::NewGame => {
                self.wait_idle();
                self.engine.new_game();
                // A game's random choices depend only on `Seed` and the game's own commands.
                let seed = resolve_seed(self.shared.options.get_i64(opt::SEED, 0));
                self.engine.seed(seed);
                self.position = Some(G::start(&self.settings));
                self.earlier_positions.clear();
            }
            Command::Position { base, moves } => self.set_position(base, &moves),
            Command::Move(moves) => self.play_moves(&moves),
            Command::Go(args) => self.go(&args),
            Command::Perft(depth) => self.perft(depth),
            Command::Stop => self.engine.stop(),
            Command::Quit => {
                self.wait_idle();
                return Some(SessionEnd::Quit);
            }
            Command::Query(q) => self.query(q),
            Command::Display => match &self.position {
                Some(pos) => {
                    let board = pos.render();
                    self.shared.out.lines(&board);
                }
                None => self.no_position("d"),
            },
            Command::Eval => self.eval(),
            Command::Bench => {
                self.wait_idle();
                let net = self.net();
                self.engine.submit(Job::Bench { net });
            }
            Command::Help => self.shared.out.lines(super::HELP),
            Command::PonderHit => self.ponder_hit(),
        }
        None
    }

    fn no_position(&mut self, what: &str) {
        self.error(ProtocolError::new(
            ErrorCode::NoPosition,
            format!("{what} needs a position: send position startpos or position fen <pos>"),
        ));
    }

    fn hello(&mut self, uci: bool) {
        self.out(&format!("id name ludus {}", env!("CARGO_PKG_VERSION")));
        self.out("id author the ludus developers");
        let lines: Vec<String> = self.shared.specs.iter().map(|s| s.uci_line()).collect();
        for line in lines {
            self.out(&line);
        }
        self.out(if uci { "uciok" } else { "ugiok" });
    }
}

/// Whether `line` is exactly the `isready` command (what may be answered out of turn).
fn is_isready(line: &str) -> bool {
    matches!(command::parse(line), Ok(Some(Command::IsReady)))
}

/// Whether `line` is the `quit` command (what acts at once while `isready` waits).
fn is_quit(line: &str) -> bool {
    matches!(command::parse(line), Ok(Some(Command::Quit)))
}
