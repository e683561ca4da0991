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

use super::error::ApiError;
use super::job::{JobKind, Tag, Task};
use super::state::{Change, Reply, State};

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

/// Starts the analysis of the position after `request.ply` moves (stopping one of another
/// position), or stops it. Refused (409) while the engine is busy with the game and for a
/// position where the game is over (there is nothing to search); 400 for a position beyond
/// the last move. Asking again for the position analysed changes nothing.
pub fn analyse(state: &mut State, request: &AnalyseRequest) -> Reply {
    let s = &mut state.session;
    let Some(ply) = request.ply else {
        s.stop_analysis();
        return Ok(Change::Changed);
    };
    if ply > s.moves.len() {
        return Err(ApiError::bad(format!(
            "ply {ply}: the game has {} moves, so a position is 0 to {0} moves in",
            s.moves.len()
        )));
    }
    if s.analysing == Some(ply) {
        return Ok(Change::Unchanged);
    }
    if ply == s.moves.len() && s.snap.gameover {
        return Err(ApiError::conflict(
            "the game is over in this position: there is nothing to search",
        ));
    }
    // The analysis's scores are full strength: it takes the place of an evaluation.
    s.stop_evaluation();
    if !s.engine_free() {
        let why = if s.reviewing() {
            "a game review is running: analysis waits for its end"
        } else if s.hinting {
            "a hint search is running: analysis waits for its end"
        } else {
            "the engine is to move: analysis waits until it has moved (or pause the game)"
        };
        return Err(ApiError::conflict(why));
    }
    s.stop_analysis();
    s.analysis_gen += 1;
    s.analysing = Some(ply);
    let task = Task::Infinite {
        lines: LINES,
        limit: LIMIT,
    };
    if !state.search(JobKind::Analysis, ply, task) {
        state.session.analysing = None;
        return Err(ApiError::new(500, "the search worker has stopped"));
    }
    Ok(Change::Changed)
}

/// Takes the end of analysis `tag`: one stopped by the page or by a change of the game is
/// already forgotten ([`Change::Unchanged`]); one that ended by itself ([`LIMIT`], or an
/// engine failure) is marked off so the page sees it.
pub fn ended(state: &mut State, tag: Tag, result: Result<(), String>) -> Change {
    let s = &mut state.session;
    if state.closed || s.analysing != Some(tag.ply) || s.analysis_gen != tag.number {
        return Change::Unchanged;
    }
    s.stop_analysis();
    if let Err(e) = result {
        s.error = Some(format!("the engine failed: {e}"));
    }
    Change::Changed
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::gui::web::session::Played;
    use crate::gui::web::state::test_state;

    #[test]
    fn an_analysis_is_queued_for_the_worker_and_stopped_by_the_page() {
        let (mut state, queue, wanted) = test_state();
        state.session.push(Played::new("c3", true));
        let at = |ply| AnalyseRequest { ply: Some(ply) };
        assert_eq!(analyse(&mut state, &at(2)).map_err(|e| e.status), Err(400));
        assert_eq!(analyse(&mut state, &at(1)), Ok(Change::Changed));
        let job = queue.try_recv().expect("a job for the worker");
        assert_eq!(job.tag.kind, JobKind::Analysis);
        assert_eq!(job.position, "position startpos moves c3");
        assert_eq!(
            job.task,
            Task::Infinite {
                lines: LINES,
                limit: LIMIT
            }
        );
        assert!(wanted.wants(&job.tag), "wanted before it is queued");
        assert_eq!(analyse(&mut state, &at(1)), Ok(Change::Unchanged));
        assert!(
            queue.try_recv().is_err(),
            "the same position: no new search"
        );

        assert_eq!(
            analyse(&mut state, &AnalyseRequest { ply: None }),
            Ok(Change::Changed)
        );
        state.update_wanted();
        assert!(!wanted.wants(&job.tag), "the worker stops it");
        let stale = ended(&mut state, job.tag, Err("gone".into()));
        assert_eq!(stale, Change::Unchanged);
        assert_eq!(
            state.session.error, None,
            "a stopped search's end is ignored"
        );
    }

    #[test]
    fn an_analysis_that_ends_by_itself_is_marked_off() {
        let (mut state, queue, _) = test_state();
        assert_eq!(
            analyse(&mut state, &AnalyseRequest { ply: Some(0) }),
            Ok(Change::Changed)
        );
        let job = queue.try_recv().expect("a job for the worker");
        assert_eq!(
            ended(&mut state, job.tag, Err("crashed".into())),
            Change::Changed
        );
        assert_eq!(state.session.analysing, None);
        assert_eq!(
            state.session.error.as_deref(),
            Some("the engine failed: crashed")
        );
    }
}
