//! The search worker: one thread per session with its own engine process that plays the engine's moves
//! and answers hints, one job at a time, with `go movetime <ms>`. Its `info` lines go to the
//! pages as they arrive; its answers go back to the [`App`], which ignores those of cancelled
//! jobs. A failed engine is started afresh for the next job.

use std::sync::Arc;
use std::thread::JoinHandle;
use std::time::Duration;

use crossbeam_channel::Receiver;

use crate::referee::engine_process::{Answer, EngineCommand};

use super::app::App;
use super::engine::Engine;
use super::query::{EngineSetup, configure};

/// What the engine gets beyond `movetime` before the worker sends `stop`.
const STOP_AFTER: Duration = Duration::from_secs(1);

/// What the engine gets after `stop` before it counts as stalled.
const GRACE: Duration = Duration::from_secs(5);

/// What a search is for.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum JobKind {
    /// The engine's move in the game.
    Move,
    /// A suggestion for the person to move.
    Hint,
}

impl JobKind {
    /// `move` or `hint`, as the page sees it.
    pub fn name(self) -> &'static str {
        match self {
            JobKind::Move => "move",
            JobKind::Hint => "hint",
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
    /// Milliseconds to search.
    pub movetime: u64,
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
            };
            for job in jobs.iter() {
                if !app.is_current(&job) {
                    continue;
                }
                let result = worker.search(&app, &job);
                if result.is_err() {
                    worker.engine = None;
                    worker.applied = None;
                }
                app.search_done(&job, result);
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
}

impl Worker {
    fn search(&mut self, app: &App, job: &Job) -> Result<Answer, String> {
        if self.engine.is_none() {
            let started = Engine::start(&self.command, &app.engines);
            self.engine = Some(started.map_err(|e| e.to_string())?);
            self.applied = None;
        }
        let Some(engine) = self.engine.as_mut() else {
            return Err("the engine is not running".into());
        };
        if self.applied.as_ref() != Some(&job.setup) {
            configure(engine, &job.setup).map_err(|e| e.to_string())?;
            self.applied = Some(job.setup.clone());
        }
        engine
            .go_watching(
                &job.position,
                &format!("movetime {}", job.movetime),
                Some(Duration::from_millis(job.movetime) + STOP_AFTER),
                GRACE,
                &mut |line| app.publish_info(job, line),
            )
            .map_err(|e| e.to_string())
    }
}
