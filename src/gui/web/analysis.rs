//! The analysis mode: a continuous search of one position of the game — the current one or
//! an earlier one the page shows from its move list — with `go infinite` and `MultiPV` 3,
//! whose `info` lines stream to the page (`kind: "analysis"`, one line per `multipv`). It
//! runs on the session's search engine when that engine has nothing else to do: never while
//! an engine move is due or searched, a hint or a review runs (the engine's move comes first:
//! it stops the analysis). It stops when the page turns it off or asks for another position,
//! when a move is made or taken back, when a new game or position is loaded, and on its own
//! after [`LIMIT`] (so a forgotten tab does not search for ever).

use std::time::Duration;

use serde::Deserialize;
use serde_json::Value;

use crate::client::EngineFailure;

use super::app::App;
use super::engine::Engine;
use super::error::ApiError;
use super::search::{GRACE, Job, JobKind, Task};
use super::session::position_line;

/// How many lines the analysis shows (`MultiPV`).
pub const LINES: u32 = 3;

/// Longest time one analysis searches before it stops by itself.
pub const LIMIT: Duration = Duration::from_secs(600);

/// The body of `POST /api/analyse`.
#[derive(Debug, Deserialize)]
pub struct AnalyseRequest {
    /// The position to analyse, as its number of moves from the start (the current position
    /// or an earlier one); `null` or missing turns the analysis off.
    #[serde(default)]
    pub ply: Option<usize>,
}

impl App {
    /// Starts the analysis of the position after `request.ply` moves (stopping one of
    /// another position), or stops it. Refused (409) while the engine is busy with the game
    /// and for a position where the game is over (there is nothing to search); 400 for a
    /// position beyond the last move.
    pub fn analyse(&self, request: &AnalyseRequest) -> Result<Value, ApiError> {
        let mut guard = self.lock();
        let inner = &mut *guard;
        let s = &mut inner.session;
        let Some(ply) = request.ply else {
            s.stop_analysis();
            return Ok(self.changed(inner));
        };
        if ply > s.moves.len() {
            return Err(ApiError::new(
                400,
                format!(
                    "ply {ply}: the game has {} moves, so a position is 0 to {0} moves in",
                    s.moves.len()
                ),
            ));
        }
        if s.analysing == Some(ply) {
            return Ok(self.state_json(&inner.session));
        }
        if ply == s.moves.len() && s.snap.gameover {
            return Err(ApiError::new(
                409,
                "the game is over in this position: there is nothing to search",
            ));
        }
        if !s.engine_free() {
            let why = if s.reviewing() {
                "a game review is running: analysis waits for its end"
            } else if s.hinting {
                "a hint search is running: analysis waits for its end"
            } else {
                "the engine is to move: analysis waits until it has moved (or pause the game)"
            };
            return Err(ApiError::new(409, why));
        }
        s.stop_analysis();
        s.analysis_gen += 1;
        s.analysing = Some(ply);
        let job = Job {
            kind: JobKind::Analysis,
            number: s.analysis_gen,
            ply,
            p1: s.p1_to_move(ply),
            setup: self.setup(&s.settings, None),
            position: position_line(&s.start, s.moves[..ply].iter().map(|m| m.text.as_str())),
            task: Task::Infinite,
        };
        if !self.submit(job) {
            s.analysing = None;
            return Err(ApiError::new(500, "the search worker has stopped"));
        }
        Ok(self.changed(inner))
    }

    /// Takes the end of an analysis: one stopped by the page or by a change of the game is
    /// already forgotten; one that ended by itself ([`LIMIT`], or an engine failure) is
    /// marked off so the page sees it.
    pub fn analysis_done(&self, job: &Job, result: Result<(), String>) {
        let mut guard = self.lock();
        let inner = &mut *guard;
        let s = &mut inner.session;
        if inner.closed || s.analysing != Some(job.ply) || s.analysis_gen != job.number {
            return;
        }
        s.stop_analysis();
        if let Err(e) = result {
            s.error = Some(format!("the engine failed: {e}"));
        }
        self.changed(inner);
    }
}

/// The worker's side: `go infinite` on the job's position, every `info` line to the pages,
/// `stop` once the analysis is no longer wanted or has run for [`LIMIT`]. A finished game's
/// `bestmove (none)` is no failure.
pub fn search(engine: &mut Engine, app: &App, job: &Job) -> Result<(), String> {
    let result = engine.go_until(
        &job.position,
        "infinite",
        &mut |elapsed| elapsed >= LIMIT || !app.is_current(job),
        GRACE,
        &mut |line| app.publish_info(job, line),
    );
    match result {
        Ok(_) | Err(EngineFailure::BadOutput(_)) => Ok(()),
        Err(e) => Err(e.to_string()),
    }
}
