//! The search worker: one thread per session with its own engine process that plays the
//! engine's moves and answers hints with `go movetime <ms>`, runs the analysis mode's
//! continuous search (`go infinite`, [`super::analysis`]) and game reviews
//! ([`super::review`]), one job at a time. Its `info` lines go to the pages as they arrive;
//! its answers go back to the [`App`], which ignores those of cancelled jobs. A failed engine
//! is started afresh for the next job.

use std::sync::Arc;
use std::thread::JoinHandle;
use std::time::Duration;

use crossbeam_channel::Receiver;

use crate::client::{Answer, EngineCommand};

use super::analysis::LINES;
use super::app::App;
use super::engine::Engine;
use super::query::{EngineSetup, configure};

/// What the engine gets beyond `movetime` before the worker sends `stop`.
const STOP_AFTER: Duration = Duration::from_secs(1);

/// What the engine gets after `stop` before it counts as stalled.
pub const GRACE: Duration = Duration::from_secs(5);

/// What a search is for.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum JobKind {
    /// The engine's move in the game.
    Move,
    /// A suggestion for the person to move.
    Hint,
    /// The analysis mode's continuous search.
    Analysis,
    /// A game review.
    Review,
}

impl JobKind {
    /// `move` or `hint`, as the page sees it.
    pub fn name(self) -> &'static str {
        match self {
            JobKind::Move => "move",
            JobKind::Hint => "hint",
            JobKind::Analysis => "analysis",
            JobKind::Review => "review",
        }
    }
}

/// One search for the worker.
#[derive(Clone, Debug)]
pub struct Job {
    /// A move or a hint.
    pub kind: JobKind,
    /// The search's number (of its kind); stale numbers are skipped.
    pub number: u64,
    /// The number of moves played in the searched position.
    pub ply: usize,
    /// Whether player one is to move there.
    pub p1: bool,
    /// The engine settings for it.
    pub setup: EngineSetup,
    /// The `position …` line.
    pub position: String,
    /// What to search.
    pub task: Task,
}

/// What a job searches.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Task {
    /// `go movetime MS` on the job's position: an engine move or a hint.
    Timed(u64),
    /// `go infinite` with several lines on the job's position, until the analysis stops.
    Infinite,
    /// A fresh `go LIMIT` on each of `positions` (whole `position …` lines), for a review.
    Review {
        /// The positions, the start first.
        positions: Vec<String>,
        /// The arguments of `go`: `nodes 200000`, `depth 8`, `movetime 100`.
        limit: String,
    },
}

/// Starts the worker thread; it ends when the queue is closed, and quits its engine.
pub fn spawn(
    app: Arc<App>,
    command: EngineCommand,
    jobs: Receiver<Job>,
) -> std::io::Result<JoinHandle<()>> {
    std::thread::Builder::new()
        .name(format!(
            "web-search-{}",
            app.id.get(..8).unwrap_or_default()
        ))
        .spawn(move || {
            let mut worker = Worker {
                command,
                engine: None,
                applied: None,
                lines: 1,
            };
            for job in jobs.iter() {
                if !app.is_current(&job) {
                    continue;
                }
                match &job.task {
                    Task::Timed(movetime) => {
                        let result = worker.timed(&app, &job, *movetime);
                        worker.forget_failed(&result);
                        app.search_done(&job, result);
                    }
                    Task::Infinite => {
                        let result = worker
                            .ready(&app, &job, LINES)
                            .and_then(|engine| super::analysis::search(engine, &app, &job));
                        worker.forget_failed(&result);
                        app.analysis_done(&job, result);
                    }
                    Task::Review { positions, limit } => {
                        let result = worker.ready(&app, &job, 1).and_then(|engine| {
                            super::review::search(engine, &app, &job, positions, limit)
                        });
                        worker.forget_failed(&result);
                        app.review_done(&job, result);
                    }
                }
            }
            if let Some(engine) = worker.engine.take() {
                engine.quit();
            }
        })
}

struct Worker {
    command: EngineCommand,
    engine: Option<Engine>,
    applied: Option<EngineSetup>,
    /// The engine's `MultiPV` (1 unless set otherwise).
    lines: u32,
}

impl Worker {
    /// The engine, started if need be and set up for `job` with `lines` lines (`MultiPV`,
    /// when the engine has the option).
    fn ready(&mut self, app: &App, job: &Job, lines: u32) -> Result<&mut Engine, String> {
        if self.engine.is_none() {
            let started = Engine::start(&self.command, &app.engines);
            self.engine = Some(started.map_err(|e| e.to_string())?);
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

    /// `go movetime MS` on the job's position.
    fn timed(&mut self, app: &App, job: &Job, movetime: u64) -> Result<Answer, String> {
        let engine = self.ready(app, job, 1)?;
        engine
            .go_watching(
                &job.position,
                &format!("movetime {movetime}"),
                Some(Duration::from_millis(movetime) + STOP_AFTER),
                GRACE,
                &mut |line| app.publish_info(job, line),
            )
            .map_err(|e| e.to_string())
    }

    /// After a failed job, the engine is started afresh for the next one.
    fn forget_failed<T>(&mut self, result: &Result<T, String>) {
        if result.is_err() {
            self.engine = None;
            self.applied = None;
        }
    }
}
