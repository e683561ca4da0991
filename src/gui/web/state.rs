//! What a session's features work on: its [`State`], the game and the means to ask engines
//! about it, held under the session's lock ([`super::app::App`] keeps the lock). The query
//! engine answers quick questions here (`position` + `query`); searches go to the session's
//! search worker as [`Job`]s, and the numbers of the searches still wanted go to it through
//! [`Wanted`].

use std::sync::Arc;
use std::sync::atomic::AtomicUsize;
use std::time::Instant;

use crossbeam_channel::Sender;

use crate::client::{EngineCommand, QueryError};

use super::board::redraw;
use super::engine::Engine;
use super::error::ApiError;
use super::job::{Job, JobKind, Task, Wanted};
use super::probe::EngineInfo;
use super::query::{EngineSetup, QUERY_TIMEOUT, configure};
use super::session::Session;
use super::settings::Settings;

/// Whether an action changed the session, so that the pages must be sent its new state.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Change {
    /// It did: a new sequence number, and the state to every page.
    Changed,
    /// Nothing to tell.
    Unchanged,
}

/// What an action answers: whether it changed the session, or why it cannot be done.
pub type Reply = Result<Change, ApiError>;

/// One session's state, guarded by its lock.
pub struct State {
    /// The game.
    pub session: Session,
    /// The query engine, started on first use and after a failure.
    pub engine: Option<Engine>,
    /// Whether the session has ended: no engine is started, no search asked for any more.
    pub closed: bool,
    info: Arc<EngineInfo>,
    command: EngineCommand,
    engines: Arc<AtomicUsize>,
    jobs: Option<Sender<Job>>,
    wanted: Arc<Wanted>,
}

impl State {
    /// The default game (Sight, person against engine) before any engine runs, for an engine
    /// that said `info` about itself and starts with `command` (counted in `engines`); its
    /// searches go on `jobs`, and which are wanted to `wanted`.
    pub fn new(
        info: Arc<EngineInfo>,
        command: EngineCommand,
        engines: Arc<AtomicUsize>,
        jobs: Sender<Job>,
        wanted: Arc<Wanted>,
    ) -> State {
        State {
            session: Session::new(Settings::default()),
            engine: None,
            closed: false,
            info,
            command,
            engines,
            jobs: Some(jobs),
            wanted,
        }
    }

    /// What the engine said about itself.
    pub fn info(&self) -> &EngineInfo {
        &self.info
    }

    /// The engine settings of `settings`' game; `level` for the searching engine (`None`: the
    /// engine's default level, what hints, analysis and reviews search at).
    pub fn setup(&self, settings: &Settings, level: Option<String>) -> EngineSetup {
        EngineSetup {
            variant: self
                .info
                .option("UCI_Variant")
                .map(|_| settings.game.name().to_string()),
            options: settings.options.clone(),
            level: self
                .info
                .option("Level")
                .map(|o| level.unwrap_or_else(|| o.default.clone())),
        }
    }

    /// Starts the query engine if it is not running, set up for the session's game.
    pub fn ensure_engine(&mut self) -> Result<(), ApiError> {
        if self.engine.is_some() {
            return Ok(());
        }
        if self.closed {
            return Err(ApiError::new(404, "this session has ended"));
        }
        let mut engine = Engine::start(&self.command, &self.engines).map_err(ApiError::engine)?;
        let setup = self.setup(&self.session.settings, None);
        configure(&mut engine, &setup).map_err(ApiError::engine)?;
        self.engine = Some(engine);
        Ok(())
    }

    /// Asks the query engine for the current position's state (restarting it once if it
    /// failed), keeps it as the position after the last move, and redraws the board.
    pub fn refresh(&mut self) -> Result<(), ApiError> {
        let line = self.session.position_line();
        let mut last = String::new();
        for _ in 0..2 {
            self.ensure_engine()?;
            let Some(engine) = self.engine.as_mut() else {
                continue;
            };
            match engine.snapshot(&line, QUERY_TIMEOUT) {
                Ok(snap) => {
                    let s = &mut self.session;
                    if let Some(last) = s.moves.last_mut()
                        && last.fen != snap.fen
                    {
                        last.fen = snap.fen.clone();
                        last.shown.clear();
                    }
                    s.snap = snap;
                    redraw(s);
                    s.turn_started = Instant::now();
                    if s.hint.as_ref().is_some_and(|h| h.ply != s.moves.len()) {
                        s.hint = None;
                    }
                    return Ok(());
                }
                Err(QueryError::Rejected) => {
                    return Err(ApiError::conflict(format!(
                        "the engine refused the position ({line})"
                    )));
                }
                Err(QueryError::Engine(e)) => {
                    self.engine = None;
                    last = e;
                }
            }
        }
        Err(ApiError::engine(last))
    }

    /// Hands the search worker the session's latest search of `kind` (its counter just moved
    /// on, and the session marked as waiting for it): the position after `ply` moves, at the
    /// game's level for an engine move and at the engine's default level otherwise. False
    /// once the worker is gone.
    pub fn search(&mut self, kind: JobKind, ply: usize, task: Task) -> bool {
        let settings = &self.session.settings;
        let level = (kind == JobKind::Move)
            .then(|| settings.level.clone())
            .flatten();
        let setup = self.setup(settings, level);
        let job = Job::new(&self.session, kind, ply, setup, task);
        // Wanted before it is queued, so the worker does not skip it.
        self.update_wanted();
        self.jobs.as_ref().is_some_and(|tx| tx.send(job).is_ok())
    }

    /// Tells the search worker which searches the session still wants (the lock's holder
    /// does so whenever it lets go).
    pub fn update_wanted(&self) {
        self.wanted.update(&self.session);
    }

    /// Ends the session: closes the worker's queue (it quits its engine once a search in
    /// flight is over), forgets the searches, and hands back the query engine to quit.
    pub fn close(&mut self) -> Option<Engine> {
        self.jobs = None;
        self.closed = true;
        self.session.cancel_searches();
        self.update_wanted();
        self.engine.take()
    }
}

/// A state for unit tests: two people playing Sight, no engine running, and the worker's
/// end of its queue and of what it is wanted to search.
#[cfg(test)]
pub fn test_state() -> (State, crossbeam_channel::Receiver<Job>, Arc<Wanted>) {
    let (jobs, queue) = crossbeam_channel::unbounded();
    let wanted = Arc::new(Wanted::default());
    let command = EngineCommand {
        name: "none".into(),
        cmd: "/nonexistent".into(),
        dir: None,
        args: Vec::new(),
        proto: crate::client::Proto::Ugi,
    };
    let info = Arc::new(EngineInfo {
        name: "engine".into(),
        options: Vec::new(),
        ratings: Vec::new(),
    });
    let engines = Arc::new(AtomicUsize::new(0));
    let mut state = State::new(info, command, engines, jobs, Arc::clone(&wanted));
    state.session.settings.mode = super::settings::Mode::HumanHuman;
    (state, queue, wanted)
}
