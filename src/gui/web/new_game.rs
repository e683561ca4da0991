//! A new game: from the new-game dialog (`POST /api/new`, its settings checked by
//! [`settings_from`]) or a pasted position of the current game (`POST /api/load`, checked by
//! the engine first). Either replaces the session's game, sets up the query engine for it,
//! reads the position, and lets the engine move if it is its turn. Functions over the
//! session's [`State`], called under its lock by [`super::app::App`].

use serde::Deserialize;

use super::board::redraw;
use super::error::ApiError;
use super::moves::schedule;
use super::query::{QUERY_TIMEOUT, check_position, configure, parse_loaded_text, plain_refusal};
use super::session::{Played, Session, position_line};
use super::settings::{Mode, NewGame, Settings, settings_from};
use super::state::{Change, Reply, State};

/// Most moves a pasted position may carry.
const MAX_LOADED_MOVES: usize = 2000;

/// The body of `POST /api/load`.
#[derive(Debug, Deserialize)]
pub struct LoadRequest {
    /// `startpos [moves …]`, `fen <position> [moves …]`, or a bare position.
    pub text: String,
}

/// Starts a new game with the request's settings.
pub fn new_game(state: &mut State, request: &NewGame) -> Reply {
    let settings = settings_from(state.info(), request)?;
    reset(state, settings, "startpos".into(), Vec::new())?;
    schedule(state);
    Ok(Change::Changed)
}

/// Loads a pasted position of the current game, checked by the engine first.
pub fn load(state: &mut State, request: &LoadRequest) -> Reply {
    let game = state.session.settings.game;
    let (start, moves) = parse_loaded_text(&request.text, game).map_err(ApiError::bad)?;
    if moves.len() > MAX_LOADED_MOVES {
        return Err(ApiError::bad(format!("at most {MAX_LOADED_MOVES} moves")));
    }
    state.ensure_engine()?;
    let line = position_line(&start, moves.iter().map(String::as_str));
    let checked = match state.engine.as_mut() {
        Some(engine) => check_position(engine, &line),
        None => return Err(ApiError::new(500, "the engine is not running")),
    };
    match checked {
        Ok(Ok(())) => {}
        Ok(Err(refusal)) => {
            // The engine has no position now; give it the game's back.
            let _ = state.refresh();
            let game = state.session.settings.game.name();
            return Err(ApiError::bad(plain_refusal(game, &refusal)));
        }
        Err(failure) => {
            state.engine = None;
            return Err(ApiError::engine(failure));
        }
    }
    let played = movers(state, &start, &moves)?;
    let settings = state.session.settings.clone();
    reset(state, settings, start, played)?;
    if state.session.settings.mode == Mode::EngineEngine {
        state.session.paused = true;
    }
    schedule(state);
    Ok(Change::Changed)
}

/// The `moves` of a pasted game from `start`, asked of the query engine: who made each
/// move, for undo (`p1turn` before each), and each position (the one before a move is the
/// one after the move before it), for the move list and the board.
fn movers(state: &mut State, start: &str, moves: &[String]) -> Result<Vec<Played>, ApiError> {
    let mut played: Vec<Played> = Vec::with_capacity(moves.len());
    for i in 0..moves.len() {
        let prefix = position_line(start, moves[..i].iter().map(String::as_str));
        let Some(engine) = state.engine.as_mut() else {
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
    Ok(played)
}

/// Replaces the session's game by a new one (counters carried on so old searches stay
/// stale), set up on the query engine, and reads its position.
fn reset(
    state: &mut State,
    settings: Settings,
    start: String,
    moves: Vec<Played>,
) -> Result<(), ApiError> {
    let old = &state.session;
    let same_rules = old.settings.game == settings.game && old.settings.options == settings.options;
    let mut session = Session::new(settings);
    session.seq = old.seq;
    session.search_gen = old.search_gen + 1;
    session.hint_gen = old.hint_gen + 1;
    session.analysis_gen = old.analysis_gen + 1;
    session.review_gen = old.review_gen + 1;
    session.start = start;
    state.session = session;
    if !same_rules {
        let setup = state.setup(&state.session.settings, None);
        if let Some(engine) = state.engine.as_mut()
            && configure(engine, &setup).is_err()
        {
            state.engine = None;
        }
    }
    // The start position first, then the moves.
    state.refresh()?;
    state.session.start_fen = state.session.snap.fen.clone();
    if moves.is_empty() {
        // Drawn again now that the start is known (the trays count from it).
        redraw(&mut state.session);
    } else {
        state.session.moves = moves;
        state.refresh()?;
    }
    Ok(())
}
