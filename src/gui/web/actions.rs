//! The page's actions: new game, a move, undo, redo, load a position, hint, pause, resign,
//! export.
//! Each checks the request against the game's state, updates it through the query engine,
//! lets the engine move if it is its turn, and answers the new state (also sent to every
//! open page as an event).

use serde::Deserialize;
use serde_json::Value;

use crate::game::dynamic::RuleSet;

use super::app::{App, Inner};
use super::board::redraw;
use super::error::ApiError;
use super::export::record_text;
use super::query::{QUERY_TIMEOUT, check_position, configure, parse_position_text};
use super::search::{Job, JobKind, Task};
use super::session::{Played, Session, position_line};
use super::settings::{Mode, NewGame, Settings, settings_from};

/// Most moves a pasted position may carry.
const MAX_LOADED_MOVES: usize = 2000;

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

/// The body of `POST /api/load`.
#[derive(Debug, Deserialize)]
pub struct LoadRequest {
    /// `startpos [moves …]`, `fen <position> [moves …]`, or a bare position.
    pub text: String,
}

/// The body of `POST /api/pause`.
#[derive(Debug, Deserialize)]
pub struct PauseRequest {
    /// Whether engine moves are held back.
    pub paused: bool,
}

type Reply = Result<Value, ApiError>;

impl App {
    /// The current state.
    pub fn state(&self) -> Value {
        self.state_json(&self.lock().session)
    }

    /// Starts a new game with the request's settings.
    pub fn new_game(&self, request: &NewGame) -> Reply {
        let settings = settings_from(&self.info, request)?;
        let mut guard = self.lock();
        let inner = &mut *guard;
        self.reset(inner, settings, "startpos".into(), Vec::new())?;
        self.schedule(inner);
        Ok(self.changed(inner))
    }

    /// Replaces the session by a new one (counters carried on so old searches stay stale),
    /// set up on the query engine, and reads its position.
    fn reset(
        &self,
        inner: &mut Inner,
        settings: Settings,
        start: String,
        moves: Vec<Played>,
    ) -> Result<(), ApiError> {
        let old = &inner.session;
        let same_rules =
            old.settings.game == settings.game && old.settings.options == settings.options;
        let mut session = Session::new(settings);
        session.seq = old.seq;
        session.search_gen = old.search_gen + 1;
        session.hint_gen = old.hint_gen + 1;
        session.analysis_gen = old.analysis_gen + 1;
        session.review_gen = old.review_gen + 1;
        session.start = start;
        inner.session = session;
        if !same_rules && let Some(engine) = inner.engine.as_mut() {
            let setup = self.setup(&inner.session.settings, None);
            if configure(engine, &setup).is_err() {
                inner.engine = None;
            }
        }
        // The start position first, then the moves.
        self.refresh(inner)?;
        inner.session.start_fen = inner.session.snap.fen.clone();
        if moves.is_empty() {
            // Drawn again now that the start is known (the trays count from it).
            redraw(&mut inner.session);
        } else {
            inner.session.moves = moves;
            self.refresh(inner)?;
        }
        Ok(())
    }

    /// Plays a person's move, if it is a person's turn and the move is legal.
    pub fn play(&self, request: &MoveRequest) -> Reply {
        let mut guard = self.lock();
        let inner = &mut *guard;
        let s = &mut inner.session;
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
            let why = RuleSet::new(s.settings.game, &s.settings.options)
                .map(|rules| rules.why_not_legal(&s.snap.fen, mv))
                .unwrap_or_else(|_| format!("'{mv}' is not a legal move here"));
            return Err(ApiError::bad(why));
        }
        let played = Played {
            time_ms: u64::try_from(s.turn_started.elapsed().as_millis()).unwrap_or(u64::MAX),
            ..Played::new(mv, s.snap.p1turn)
        };
        s.push(played);
        s.hint = None;
        s.hinting = false;
        s.stop_analysis();
        s.error = None;
        if let Err(e) = self.refresh(inner) {
            inner.session.moves.pop();
            return Err(e);
        }
        self.schedule(inner);
        Ok(self.changed(inner))
    }

    /// Takes moves back (to the last position where a person was to move).
    pub fn undo(&self) -> Reply {
        self.step(true)
    }

    /// Replays moves taken back.
    pub fn redo(&self) -> Reply {
        self.step(false)
    }

    fn step(&self, back: bool) -> Reply {
        let mut guard = self.lock();
        let inner = &mut *guard;
        let s = &mut inner.session;
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
        self.refresh(inner)?;
        self.schedule(inner);
        Ok(self.changed(inner))
    }

    /// Loads a pasted position of the current game, checked by the engine first.
    pub fn load(&self, request: &LoadRequest) -> Reply {
        let (start, moves) = parse_position_text(&request.text).map_err(ApiError::bad)?;
        if moves.len() > MAX_LOADED_MOVES {
            return Err(ApiError::bad(format!("at most {MAX_LOADED_MOVES} moves")));
        }
        let mut guard = self.lock();
        let inner = &mut *guard;
        self.ensure_engine(inner)?;
        let line = position_line(&start, moves.iter().map(String::as_str));
        let checked = match inner.engine.as_mut() {
            Some(engine) => check_position(engine, &line),
            None => return Err(ApiError::new(500, "the engine is not running")),
        };
        match checked {
            Ok(Ok(())) => {}
            Ok(Err(refusal)) => {
                // The engine has no position now; give it the game's back.
                let _ = self.refresh(inner);
                return Err(ApiError::bad(format!(
                    "the engine refuses the position: {refusal}"
                )));
            }
            Err(failure) => {
                inner.engine = None;
                return Err(ApiError::engine(failure));
            }
        }
        // Who made each move, for undo: ask p1turn before each; and each position (the one
        // before a move is the one after the move before it), for the move list and the board.
        let mut played: Vec<Played> = Vec::with_capacity(moves.len());
        for i in 0..moves.len() {
            let prefix = position_line(&start, moves[..i].iter().map(String::as_str));
            let Some(engine) = inner.engine.as_mut() else {
                return Err(ApiError::new(500, "the engine is not running"));
            };
            engine
                .send(&prefix)
                .map_err(|e| ApiError::new(500, e.to_string()))?;
            if let Some(previous) = played.last_mut() {
                previous.fen = engine.query_text("fen", QUERY_TIMEOUT).unwrap_or_default();
            }
            let p1 = engine.query("p1turn", QUERY_TIMEOUT);
            played.push(Played::new(moves[i].clone(), p1.as_deref() == Some("true")));
        }
        let settings = inner.session.settings.clone();
        self.reset(inner, settings, start, played)?;
        if inner.session.settings.mode == Mode::EngineEngine {
            inner.session.paused = true;
        }
        self.schedule(inner);
        Ok(self.changed(inner))
    }

    /// Starts a search for the person to move; the suggestion arrives as a state event.
    pub fn hint(&self) -> Reply {
        let mut guard = self.lock();
        let inner = &mut *guard;
        let s = &mut inner.session;
        if !s.human_to_move() {
            return Err(ApiError::conflict("a hint is for a person to move"));
        }
        if s.reviewing() {
            return Err(ApiError::conflict(
                "a game review is running: wait for its end",
            ));
        }
        if !s.hinting {
            s.stop_analysis();
            s.hint_gen += 1;
            s.hinting = true;
            s.hint = None;
            let job = Job {
                kind: JobKind::Hint,
                number: s.hint_gen,
                ply: s.moves.len(),
                p1: s.snap.p1turn,
                setup: self.setup(&s.settings, None),
                position: s.position_line(),
                task: Task::Timed(s.settings.movetime),
            };
            if !self.submit(job) {
                s.hinting = false;
                return Err(ApiError::new(500, "the search worker has stopped"));
            }
        }
        Ok(self.changed(inner))
    }

    /// Holds engine moves back, or lets the engine go on (also after an engine failure).
    pub fn pause(&self, request: &PauseRequest) -> Reply {
        let mut guard = self.lock();
        let inner = &mut *guard;
        inner.session.paused = request.paused;
        if !request.paused {
            inner.session.error = None;
            self.schedule(inner);
        }
        Ok(self.changed(inner))
    }

    /// A person resigns the game against the engine: it ends at once, the engine winning.
    /// Refused (409) when the game is over or is not a person against the engine.
    pub fn resign(&self) -> Reply {
        let mut guard = self.lock();
        let inner = &mut *guard;
        let s = &mut inner.session;
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
        Ok(self.changed(inner))
    }

    /// The game in the referee's record format.
    pub fn export(&self) -> String {
        let inner = self.lock();
        let s = &inner.session;
        let names = self.player_names(&s.settings);
        record_text(s, [&names[0], &names[1]], &self.reason(s))
    }
}
