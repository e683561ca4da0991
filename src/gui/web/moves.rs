//! The game's moves: a person's move, the engine's (asked of the search worker whenever the
//! engine is to move, and played when it answers), hints for the person to move, moves taken
//! back and replayed, the watch mode's pause and a person's resignation, and why a move is
//! not legal ([`why`], in the rules' words). Each is a function over the session's [`State`];
//! [`super::app::App`] calls them under the lock and tells the pages.

use serde::Deserialize;
use serde_json::{Value, json};

use crate::client::Answer;
use crate::game::dynamic::RuleSet;

use super::error::ApiError;
use super::job::{JobKind, Tag, Task};
use super::session::{Hint, Played, Session};
use super::settings::{Mode, Seat};
use super::state::{Change, Reply, State};

/// The body of `POST /api/move`.
#[derive(Debug, Deserialize)]
pub struct MoveRequest {
    /// The move in the protocol notation.
    #[serde(rename = "move")]
    pub mv: String,
    /// The number of moves the page saw played; a move for an older position is refused.
    #[serde(default)]
    pub ply: Option<usize>,
}

/// The body of `POST /api/pause`.
#[derive(Debug, Deserialize)]
pub struct PauseRequest {
    /// Whether engine moves are held back.
    pub paused: bool,
}

/// What the page says when the search worker is gone.
const NO_WORKER: &str = "the search worker has stopped";

/// Most moves one `GET /api/why` asks about.
const MAX_WHY: usize = 8;

/// The rule that move `mv` breaks in the current position, in the rules' words as the
/// terminal says it (`c3: c3 is occupied: a piece is placed on an empty point`); a plain
/// refusal for an engine of rules ludus does not know.
fn why_not_legal(s: &Session, mv: &str) -> String {
    RuleSet::new(s.settings.game, &s.settings.options)
        .map(|rules| rules.why_not_legal(&s.snap.fen, mv))
        .unwrap_or_else(|_| format!("'{mv}' is not a legal move here"))
}

/// `GET /api/why?moves=M1,M2,…`: for each move named (at most [`MAX_WHY`]), whether it is legal
/// in the current position and, if not, the rule it breaks: `{moves: [{move, legal, why}]}`
/// (`why` null for a legal move). 400 without a move, or with too many.
pub fn why(s: &Session, moves: Option<&str>) -> Result<Value, ApiError> {
    let asked: Vec<&str> = moves
        .unwrap_or("")
        .split(',')
        .map(str::trim)
        .filter(|m| !m.is_empty())
        .collect();
    if asked.is_empty() || asked.len() > MAX_WHY {
        return Err(ApiError::bad(format!(
            "moves= must name 1 to {MAX_WHY} moves, separated by commas"
        )));
    }
    let answers: Vec<Value> = asked
        .into_iter()
        .map(|mv| {
            let legal = s.snap.legal.iter().any(|m| m == mv);
            let why = (!legal).then(|| why_not_legal(s, mv));
            json!({ "move": mv, "legal": legal, "why": why })
        })
        .collect();
    Ok(json!({ "moves": answers }))
}

/// How long the full-strength evaluation of a position searches (a game at a weakened level).
pub const EVALUATION_MS: u64 = 1000;

/// Asks the search worker for an engine move if the engine is to move; otherwise, in a game
/// whose engine plays at a weakened level, for a full-strength evaluation of the position a
/// person is to move in ([`evaluate`]).
pub fn schedule(state: &mut State) {
    let s = &mut state.session;
    if !s.engine_should_move() {
        evaluate(state);
        return;
    }
    // The engine's move comes first: the analysis mode and a review give way.
    s.stop_analysis();
    s.stop_review();
    s.search_gen += 1;
    s.thinking = true;
    let (ply, movetime) = (s.moves.len(), s.settings.movetime);
    if !state.search(JobKind::Move, ply, Task::Timed(movetime)) {
        state.session.thinking = false;
        state.session.error = Some(NO_WORKER.into());
    }
}

/// At a weakened level the engine's move searches score the position as the weakened player
/// sees it; the evaluation bar and the win/draw/loss line show only full-strength scores
/// (`full` in the `info` events). While a person is to move after such a move, a full-strength
/// search of [`EVALUATION_MS`] gives them one. A person's move, a hint, the analysis mode and
/// a review end it (the hint's and the analysis's scores are full strength too).
fn evaluate(state: &mut State) {
    let s = &mut state.session;
    let busy = s.evaluating || s.hinting || s.analysing.is_some() || s.reviewing();
    // Only after the weakened engine's move, which its own scores would misjudge: two people,
    // or the game's first position, have none (and a new page starts no second engine).
    let seats = s.settings.mode.seats();
    let after_engine = s
        .moves
        .last()
        .is_some_and(|m| seats[usize::from(!m.by_p1)] == Seat::Engine);
    if !s.weakened() || !after_engine || !s.human_to_move() || busy {
        return;
    }
    s.evaluation_gen += 1;
    s.evaluating = true;
    let ply = s.moves.len();
    if !state.search(JobKind::Evaluation, ply, Task::Timed(EVALUATION_MS)) {
        state.session.evaluating = false;
    }
}

/// Plays a person's move, if it is a person's turn and the move is legal.
pub fn play(state: &mut State, request: &MoveRequest) -> Reply {
    let s = &mut state.session;
    if s.gameover() {
        return Err(ApiError::conflict("the game is over"));
    }
    if !s.human_to_move() {
        return Err(ApiError::conflict("it is the engine's turn"));
    }
    if request.ply.is_some_and(|p| p != s.moves.len()) {
        return Err(ApiError::conflict("the position has changed; try again"));
    }
    let mv = request.mv.trim();
    if !s.snap.legal.iter().any(|m| m == mv) {
        // ludus's own rules say why (an engine of other rules: a plain refusal).
        return Err(ApiError::bad(why_not_legal(s, mv)));
    }
    let played = Played {
        time_ms: u64::try_from(s.turn_started.elapsed().as_millis()).unwrap_or(u64::MAX),
        ..Played::new(mv, s.snap.p1turn)
    };
    s.push(played);
    s.hint = None;
    s.hinting = false;
    s.stop_evaluation();
    s.stop_analysis();
    s.error = None;
    if let Err(e) = state.refresh() {
        state.session.moves.pop();
        return Err(e);
    }
    schedule(state);
    Ok(Change::Changed)
}

/// Takes moves back (to the last position where a person was to move), or a resignation.
pub fn undo(state: &mut State) -> Reply {
    step(state, true)
}

/// Replays moves taken back.
pub fn redo(state: &mut State) -> Reply {
    step(state, false)
}

fn step(state: &mut State, back: bool) -> Reply {
    let s = &mut state.session;
    // Undo after a resignation takes the resignation back, and no move.
    let withdrawn = back && s.resigned.take().is_some();
    let count = match (withdrawn, back) {
        (true, _) => 1,
        (false, true) => s.undo(),
        (false, false) => s.redo(),
    };
    if count == 0 {
        return Err(ApiError::conflict(if back {
            "nothing to undo"
        } else {
            "nothing to redo"
        }));
    }
    s.cancel_searches();
    s.error = None;
    if s.settings.mode == Mode::EngineEngine {
        s.paused = true;
    }
    state.refresh()?;
    schedule(state);
    Ok(Change::Changed)
}

/// Starts a search for the person to move; the suggestion arrives as a state event.
pub fn hint(state: &mut State) -> Reply {
    let s = &mut state.session;
    if !s.human_to_move() {
        return Err(ApiError::conflict("a hint is for a person to move"));
    }
    if s.reviewing() {
        return Err(ApiError::conflict(
            "a game review is running: wait for its end",
        ));
    }
    if !s.hinting {
        s.stop_evaluation();
        s.stop_analysis();
        s.hint_gen += 1;
        s.hinting = true;
        s.hint = None;
        let (ply, movetime) = (s.moves.len(), s.settings.movetime);
        if !state.search(JobKind::Hint, ply, Task::Timed(movetime)) {
            state.session.hinting = false;
            return Err(ApiError::new(500, NO_WORKER));
        }
    }
    Ok(Change::Changed)
}

/// Holds engine moves back, or lets the engine go on (also after an engine failure).
pub fn pause(state: &mut State, request: &PauseRequest) -> Reply {
    state.session.paused = request.paused;
    if !request.paused {
        state.session.error = None;
        schedule(state);
    }
    Ok(Change::Changed)
}

/// A person resigns the game against the engine: it ends at once, the engine winning.
/// Refused (409) when the game is over or is not a person against the engine.
pub fn resign(state: &mut State) -> Reply {
    let s = &mut state.session;
    if s.gameover() {
        return Err(ApiError::conflict("the game is over"));
    }
    let Some(person_p1) = s.person_against_engine() else {
        return Err(ApiError::conflict(
            "only a person playing against the engine can resign",
        ));
    };
    s.cancel_searches();
    s.resigned = Some(person_p1);
    s.error = None;
    Ok(Change::Changed)
}

/// Takes the answer of timed search `tag`: plays an engine move (and asks for the next one
/// if the engine is to move again), or keeps a hint. Answers of searches that were cancelled
/// or whose position is gone are ignored ([`Change::Unchanged`]).
pub fn answered(state: &mut State, tag: Tag, result: Result<Answer, String>) -> Change {
    if state.closed {
        return Change::Unchanged;
    }
    let s = &mut state.session;
    match tag.kind {
        JobKind::Move => {
            if !s.thinking || tag.number != s.search_gen {
                return Change::Unchanged;
            }
            s.thinking = false;
            match result {
                Ok(answer) if tag.ply == s.moves.len() && s.snap.legal.contains(&answer.mv) => {
                    let by_p1 = s.snap.p1turn;
                    s.push(Played {
                        score: answer.score,
                        depth: answer.depth,
                        time_ms: answer.elapsed_ms,
                        ..Played::new(answer.mv, by_p1)
                    });
                    s.hint = None;
                    match state.refresh() {
                        Ok(()) => schedule(state),
                        Err(e) => state.session.error = Some(e.message),
                    }
                }
                Ok(answer) => {
                    s.error = Some(format!(
                        "the engine answered {}, which is not a legal move here",
                        answer.mv
                    ));
                    s.paused = true;
                }
                Err(e) => {
                    s.error = Some(format!("the engine failed: {e}"));
                    s.paused = true;
                }
            }
        }
        JobKind::Hint => {
            if !s.hinting || tag.number != s.hint_gen {
                return Change::Unchanged;
            }
            s.hinting = false;
            match result {
                Ok(answer) if tag.ply == s.moves.len() => {
                    s.hint = Some(Hint {
                        mv: answer.mv,
                        ply: tag.ply,
                    });
                }
                Ok(_) => {}
                Err(e) => s.error = Some(format!("the engine failed: {e}")),
            }
        }
        JobKind::Evaluation => {
            // Its scores reached the pages as `info` events; its move is nobody's. Its end is
            // news for the pages (the state's `evaluating`).
            if !s.evaluating || tag.number != s.evaluation_gen {
                return Change::Unchanged;
            }
            s.evaluating = false;
        }
        // Their ends are taken by analysis::ended and review::ended.
        JobKind::Analysis | JobKind::Review => return Change::Unchanged,
    }
    Change::Changed
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::gui::web::state::test_state;

    fn answer(mv: &str) -> Result<Answer, String> {
        Ok(Answer {
            mv: mv.into(),
            elapsed_ms: 5,
            score: None,
            depth: None,
            wdl: None,
            ponder: None,
        })
    }

    #[test]
    fn a_hint_is_searched_once_and_kept_unless_stale() {
        let (mut state, queue, wanted) = test_state();
        assert_eq!(hint(&mut state), Ok(Change::Changed));
        assert_eq!(hint(&mut state), Ok(Change::Changed));
        let job = queue.try_recv().expect("a job for the worker");
        assert!(queue.try_recv().is_err(), "one search while one runs");
        assert_eq!(
            (job.tag.kind, job.task.clone()),
            (JobKind::Hint, Task::Timed(1000))
        );
        assert!(wanted.wants(&job.tag));
        let stale = Tag {
            number: job.tag.number - 1,
            ..job.tag
        };
        assert_eq!(answered(&mut state, stale, answer("a1")), Change::Unchanged);
        assert_eq!(answered(&mut state, job.tag, answer("c3")), Change::Changed);
        let kept = state.session.hint.as_ref().map(|h| h.mv.as_str());
        assert_eq!(kept, Some("c3"));
        assert!(!state.session.hinting);
        state.update_wanted();
        assert!(!wanted.wants(&job.tag));
    }

    /// Issue 59 item 1: against a weakened engine, a person to move gets a full-strength
    /// evaluation of the position (never the engine's own move scores, `full: false`), which
    /// a hint replaces and the person's move ends; two people get none.
    #[test]
    fn a_weakened_game_evaluates_at_full_strength_while_a_person_is_to_move() {
        let (mut state, queue, wanted) = test_state();
        state.session.settings.mode = Mode::HumanEngine;
        state.session.settings.level = Some("elo 800".into());
        state.session.snap.p1turn = true;
        state.session.snap.legal = vec!["c3".into()];
        schedule(&mut state);
        assert!(queue.try_recv().is_err(), "nothing at the first position");
        // Black, the engine, has moved (an undo back to the person's turn looks the same).
        state.session.push(Played::new("a1", true));
        state.session.push(Played::new("c4", false));
        schedule(&mut state);
        let job = queue.try_recv().expect("an evaluation");
        assert_eq!(job.tag.kind, JobKind::Evaluation);
        assert!(job.tag.full, "at full strength");
        assert_eq!(job.task, Task::Timed(EVALUATION_MS));
        assert!(wanted.wants(&job.tag));
        schedule(&mut state);
        assert!(queue.try_recv().is_err(), "one evaluation at a time");
        // A hint replaces it (its scores are full strength too).
        assert_eq!(hint(&mut state), Ok(Change::Changed));
        assert!(!wanted.wants(&job.tag), "the evaluation is stopped");
        let hinted = queue.try_recv().expect("the hint's search");
        assert_eq!(hinted.tag.kind, JobKind::Hint);
        assert_eq!(
            answered(&mut state, job.tag, answer("c3")),
            Change::Unchanged,
            "a stopped evaluation's end is no news"
        );
        // The engine's own move at the level is marked as not full strength.
        state.session.cancel_searches();
        state.session.snap.p1turn = false;
        schedule(&mut state);
        let engine_move = queue.try_recv().expect("the engine's move");
        assert_eq!(engine_move.tag.kind, JobKind::Move);
        assert!(
            !engine_move.tag.full,
            "its scores are the weakened player's"
        );
        // Two people: nothing is searched by itself.
        let (mut people, queue, _) = test_state();
        people.session.settings.level = Some("elo 800".into());
        people.session.push(Played::new("a1", true));
        people.session.push(Played::new("c4", false));
        people.session.snap.p1turn = true;
        people.session.snap.legal = vec!["c3".into()];
        schedule(&mut people);
        assert!(queue.try_recv().is_err());
    }

    #[test]
    fn why_says_the_rule_a_move_breaks() {
        let (mut state, _, _) = test_state();
        state.session.snap.fen = "5:x5/x5/x2,w,x2/x5/x5 b".into();
        state.session.snap.legal = vec!["c4".into()];
        let answer = why(&state.session, Some("c4,c3")).expect("an answer");
        assert_eq!(
            answer,
            json!({"moves": [
                {"move": "c4", "legal": true, "why": null},
                {"move": "c3", "legal": false,
                 "why": "c3: c3 is occupied: a piece is placed on an empty point"},
            ]})
        );
        for bad in [None, Some(""), Some("a1,a2,a3,a4,a5,b1,b2,b3,b4")] {
            assert_eq!(why(&state.session, bad).map_err(|e| e.status), Err(400));
        }
    }

    #[test]
    fn a_closed_session_takes_no_answer() {
        let (mut state, queue, _) = test_state();
        assert_eq!(hint(&mut state), Ok(Change::Changed));
        let job = queue.try_recv().expect("a job for the worker");
        assert!(state.close().is_none(), "no query engine ran");
        assert_eq!(
            answered(&mut state, job.tag, answer("c3")),
            Change::Unchanged
        );
        assert_eq!(hint(&mut state).map_err(|e| e.status), Err(500));
    }
}
