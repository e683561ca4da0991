//! What the page shows of a session, as JSON: its state (`GET /api/state`, the `state`
//! events and every action's answer) with the players' names and the banner of a finished
//! game.

use serde_json::{Map, Value, json};

use crate::gui::{describe, result_text};

use super::probe::EngineInfo;
use super::review::review_json;
use super::session::Session;
use super::settings::{Seat, Settings};

/// The players' names: `human`, or the engine's name (from `info`) with its level.
pub fn player_names(info: &EngineInfo, settings: &Settings) -> [String; 2] {
    settings.mode.seats().map(|seat| match seat {
        Seat::Human => "human".to_string(),
        Seat::Engine => match &settings.level {
            Some(level) => format!("{} ({level})", info.name),
            None => info.name.clone(),
        },
    })
}

/// The banner text of a finished game, empty while it goes on.
pub fn reason(info: &EngineInfo, s: &Session) -> String {
    if let Some(p1) = s.resigned {
        let names = s.settings.game.seats();
        let loser = names[usize::from(!p1)];
        return format!(
            "{}: {loser} resigns",
            result_text(s.settings.game, s.result())
        );
    }
    if !s.snap.gameover {
        return String::new();
    }
    let options = options_in_force(info, &s.settings);
    describe(s.settings.game, &s.snap, &options)
}

/// The game's rule options in force: those of the settings, and the engine's defaults of the
/// others ludus knows.
fn options_in_force(info: &EngineInfo, settings: &Settings) -> Vec<(String, String)> {
    let mut options = settings.options.clone();
    for spec in settings.game.options() {
        let set = options
            .iter()
            .any(|(n, _)| n.eq_ignore_ascii_case(spec.name));
        if let Some(option) = info.option(spec.name).filter(|_| !set) {
            options.push((option.name.clone(), option.default.clone()));
        }
    }
    options
}

/// Who made a move, as the page names the players: `p1` or `p2`.
fn mover(by_p1: bool) -> &'static str {
    if by_p1 { "p1" } else { "p2" }
}

/// Everything the page shows of session `id`, as JSON.
pub fn state_json(id: &str, info: &EngineInfo, s: &Session) -> Value {
    let st = &s.settings;
    let options: Map<String, Value> = st
        .options
        .iter()
        .map(|(n, v)| (n.clone(), json!(v)))
        .collect();
    let moves: Vec<&str> = s.moves.iter().map(|m| m.text.as_str()).collect();
    let shown: Vec<&str> = s.moves.iter().map(|m| m.shown.as_str()).collect();
    let movers: Vec<&str> = s.moves.iter().map(|m| mover(m.by_p1)).collect();
    let seats = st.mode.seats().map(|seat| seat == Seat::Human);
    let words = st.game.score_words();
    // The review's levels in this game: each one's `go` limit and seconds a position.
    let review_levels: Vec<Value> = super::review::REVIEW_LEVELS
        .iter()
        .zip(st.game.review_levels())
        .map(|(level, (limit, seconds))| {
            json!({ "level": level, "limit": limit, "seconds": seconds })
        })
        .collect();
    let mut state = json!({
        "session": id,
        "seq": s.seq,
        "game": st.game.name(),
        "sides": st.game.seats(),
        "notation": st.game.notation().name(),
        "score_words": {
            "per_unit": words.per_unit,
            "decimals": words.decimals,
            "unit": words.unit,
        },
        "options": options,
        "mode": st.mode.code(),
        "humans": seats,
        "level": st.level,
        "movetime": st.movetime,
        "engine": info.name,
        "players": player_names(info, st),
        "start": s.start,
        "start_fen": s.start_fen,
        "position": s.position_line().trim_start_matches("position ").to_string(),
        "moves": moves,
        "moves_shown": shown,
        "movers": movers,
        "redo": s.redo.len(),
        "fen": s.snap.fen,
        "legal": s.snap.legal,
        "p1turn": s.snap.p1turn,
        "gameover": s.gameover(),
        "result": s.result(),
        "reason": reason(info, s),
        "resigned": s.resigned.map(|p1| if p1 { "p1" } else { "p2" }),
        "can_resign": !s.gameover() && s.person_against_engine().is_some(),
        "human_to_move": s.human_to_move(),
        "thinking": s.thinking,
        "hinting": s.hinting,
        "evaluating": s.evaluating,
        "hint": s.hint.as_ref().map(|h| h.mv.clone()),
        "paused": s.paused,
        "error": s.error,
        "analysis": s.analysing,
        "can_analyse": s.engine_free(),
        "review_levels": review_levels,
        "review": review_json(s),
    });
    if let Some(map) = state.as_object_mut() {
        for (name, value) in s.board.fields() {
            map.insert(name.into(), value);
        }
    }
    state
}
