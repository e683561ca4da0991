//! The search worker: one thread per session with its own engine process that plays the
//! engine's moves and answers hints with `go movetime <ms>`, runs the analysis mode's
//! continuous search (`go infinite` with several lines) and game reviews (a fresh search of
//! each position, as `ludus analyse` does), one [`Job`] at a time. It knows nothing of the
//! session: it reports on a channel ([`WorkerEvent`]) — every `info` line as it arrives,
//! each answer of a review, the end of every search — and reads whether a job is still
//! wanted from [`Wanted`], skipping stale jobs and stopping an analysis or a review that is no
//! longer wanted. A failed engine is started afresh for the next job, and every engine it
//! starts has `UCI_ShowWDL` on (when it has the option), so each score comes with the side to
//! move's chances of a win, a draw and a loss.

use std::sync::Arc;
use std::sync::atomic::AtomicUsize;
use std::thread::JoinHandle;
use std::time::Duration;

use crossbeam_channel::{Receiver, Sender};

use crate::analyse::review::search_fresh;
use crate::client::{Answer, EngineCommand, EngineFailure};

use super::engine::Engine;
use super::job::{Job, Tag, Task, Wanted, WorkerEvent};
use super::query::{EngineSetup, configure};

/// What the engine gets beyond `movetime` before the worker sends `stop`.
const STOP_AFTER: Duration = Duration::from_secs(1);

/// What the engine gets after `stop` before it counts as stalled.
const GRACE: Duration = Duration::from_secs(5);

/// The option that adds the chances of a win, a draw and a loss to every scored `info` line
/// (protocol.md, "Options").
const SHOW_WDL: &str = "UCI_ShowWDL";

/// Starts the worker thread `name`: it takes `jobs` until their queue is closed, then quits
/// its engine (started with `command`, counted in `engines`) and ends, which closes
/// `events`.
pub fn spawn(
    name: String,
    command: EngineCommand,
    engines: Arc<AtomicUsize>,
    wanted: Arc<Wanted>,
    jobs: Receiver<Job>,
    events: Sender<WorkerEvent>,
) -> std::io::Result<JoinHandle<()>> {
    std::thread::Builder::new().name(name).spawn(move || {
        let mut worker = Worker {
            command,
            engines,
            wanted,
            events,
            engine: None,
            applied: None,
            lines: 1,
        };
        for job in jobs.iter() {
            if worker.wanted.wants(&job.tag) {
                worker.run(&job);
            }
        }
        if let Some(engine) = worker.engine.take() {
            engine.quit();
        }
    })
}

struct Worker {
    command: EngineCommand,
    engines: Arc<AtomicUsize>,
    wanted: Arc<Wanted>,
    events: Sender<WorkerEvent>,
    engine: Option<Engine>,
    applied: Option<EngineSetup>,
    /// The engine's `MultiPV` (1 unless set otherwise).
    lines: u32,
}

impl Worker {
    /// Runs `job` and reports its end.
    fn run(&mut self, job: &Job) {
        let tag = job.tag;
        let event = match &job.task {
            Task::Timed(movetime) => {
                let result = self.timed(job, *movetime);
                self.forget_failed(&result);
                WorkerEvent::Answered { tag, result }
            }
            Task::Infinite { lines, limit } => {
                let result = self.infinite(job, *lines, *limit);
                self.forget_failed(&result);
                WorkerEvent::Ended { tag, result }
            }
            Task::Review {
                positions,
                limit,
                timeout,
            } => {
                let result = self.review(job, positions, limit, *timeout);
                self.forget_failed(&result);
                WorkerEvent::Ended { tag, result }
            }
        };
        self.report(event);
    }

    /// Sends `event` to the session (which is gone if nobody listens: nothing to do then).
    fn report(&self, event: WorkerEvent) {
        let _ = self.events.send(event);
    }

    /// The engine, started if need be and set up for `job` with `lines` lines (`MultiPV`,
    /// when the engine has the option).
    fn ready(&mut self, job: &Job, lines: u32) -> Result<&mut Engine, String> {
        if self.engine.is_none() {
            let mut started =
                Engine::start(&self.command, &self.engines).map_err(|e| e.to_string())?;
            show_chances(&mut started).map_err(|e| e.to_string())?;
            self.engine = Some(started);
            self.applied = None;
            self.lines = 1;
        }
        let Some(engine) = self.engine.as_mut() else {
            return Err("the engine is not running".into());
        };
        if self.applied.as_ref() != Some(&job.setup) {
            configure(engine, &job.setup).map_err(|e| e.to_string())?;
            self.applied = Some(job.setup.clone());
        }
        if self.lines != lines && engine.advertises("MultiPV") {
            engine
                .set_option("MultiPV", &lines.to_string())
                .map_err(|e| e.to_string())?;
            self.lines = lines;
        }
        Ok(engine)
    }

    /// `go movetime MS` on the job's position; `stop` as soon as the job is no longer
    /// wanted (a move undone, a new game, the session closed).
    fn timed(&mut self, job: &Job, movetime: u64) -> Result<Answer, String> {
        let events = self.events.clone();
        let wanted = Arc::clone(&self.wanted);
        let tag = job.tag;
        let engine = self.ready(job, 1)?;
        engine
            .go_cancellable(
                &job.position,
                &format!("movetime {movetime}"),
                Some(Duration::from_millis(movetime) + STOP_AFTER),
                GRACE,
                &mut || !wanted.wants(&tag),
                &mut |info| info_event(&events, tag, info),
            )
            .map_err(|e| e.to_string())
    }

    /// `go infinite` on the job's position with `lines` lines, every `info` line reported,
    /// `stop` once the job is no longer wanted or has run for `limit`. A finished game's
    /// `bestmove (none)` is no failure.
    fn infinite(&mut self, job: &Job, lines: u32, limit: Duration) -> Result<(), String> {
        let events = self.events.clone();
        let wanted = Arc::clone(&self.wanted);
        let tag = job.tag;
        let engine = self.ready(job, lines)?;
        let result = engine.go_until(
            &job.position,
            "infinite",
            &mut |elapsed| elapsed >= limit || !wanted.wants(&tag),
            GRACE,
            &mut |info| info_event(&events, tag, info),
        );
        match result {
            Ok(_) | Err(EngineFailure::BadOutput(_)) => Ok(()),
            Err(e) => Err(e.to_string()),
        }
    }

    /// Each of `positions` searched from a fresh game at `limit`, its answer reported before
    /// the next; once the review is no longer wanted, the search under way is stopped at once
    /// and nothing more is reported.
    fn review(
        &mut self,
        job: &Job,
        positions: &[String],
        limit: &str,
        timeout: Duration,
    ) -> Result<(), String> {
        let wanted = Arc::clone(&self.wanted);
        let events = self.events.clone();
        let engine = self.ready(job, 1)?;
        for position in positions {
            if !wanted.wants(&job.tag) {
                return Ok(());
            }
            let answer = search_fresh(engine, position, limit, timeout, &mut || {
                !wanted.wants(&job.tag)
            })?;
            if !wanted.wants(&job.tag) {
                return Ok(());
            }
            let _ = events.send(WorkerEvent::Reviewed {
                tag: job.tag,
                answer,
            });
        }
        Ok(())
    }

    /// After a failed job, the engine is started afresh for the next one.
    fn forget_failed<T>(&mut self, result: &Result<T, String>) {
        if result.is_err() {
            self.engine = None;
            self.applied = None;
        }
    }
}

/// Asks a freshly started engine for its chances of a win, a draw and a loss on every scored
/// `info` line (`UCI_ShowWDL`, when it has the option), so the page can show them beside
/// every score.
fn show_chances(engine: &mut Engine) -> Result<(), EngineFailure> {
    if engine.advertises(SHOW_WDL) {
        engine.set_option(SHOW_WDL, "true")?;
    }
    Ok(())
}

/// Reports one `info` line of search `tag` (chances the engine gave malformed are left out,
/// and logged).
fn info_event(events: &Sender<WorkerEvent>, tag: Tag, info: &crate::client::Info) {
    if let Some(why) = &info.wdl_error {
        log::warn!("the engine's chances cannot be read: {why}");
    }
    let _ = events.send(WorkerEvent::Info {
        tag,
        info: info.clone(),
    });
}
