//! How a game on the page is played — the game, its rule options, who plays each seat, the
//! engine's level and time per move — and the new-game request (`POST /api/new`) that
//! chooses them, checked against the options the engine advertises.

use std::collections::BTreeMap;

use serde::Deserialize;
use serde_json::Value;

use crate::game::GameId;

use super::error::ApiError;
use super::probe::EngineInfo;
use super::query::RATING_PREFIX;

/// Longest time per engine move the page may ask for, in milliseconds.
const MAX_MOVETIME: u64 = 600_000;

/// The rating a new session's engine plays at, and the new-game dialog's first choice: a
/// moderate opponent a newcomer can enjoy (on each game's own scale, docs/strength.md,
/// "Levels"), not full strength, which in Sight 5×5 plays from the solved book and shows the
/// newcomer's loss in so many moves after the first one.
pub const DEFAULT_RATING: i64 = 1000;

/// The level a new game of `game` plays at: [`DEFAULT_RATING`] (`elo 1000`, brought within
/// the game's `UCI_Elo` range) for an engine with ratings (`UCI_LimitStrength` and
/// `UCI_Elo`), else none (the engine's own default `Level`).
pub fn default_level(info: &EngineInfo, game: GameId) -> Option<String> {
    info.option("UCI_LimitStrength")?;
    let elo = info.elo_option(game)?;
    let low = elo.min.unwrap_or(DEFAULT_RATING);
    let high = elo.max.unwrap_or(DEFAULT_RATING).max(low);
    Some(format!(
        "{RATING_PREFIX}{}",
        DEFAULT_RATING.clamp(low, high)
    ))
}

/// Who plays a seat.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Seat {
    /// A person clicking on the page.
    Human,
    /// The engine.
    Engine,
}

/// The four modes of the new-game dialog.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Deserialize)]
pub enum Mode {
    /// Two people.
    #[serde(rename = "hh")]
    HumanHuman,
    /// A person as player one against the engine.
    #[serde(rename = "he")]
    HumanEngine,
    /// The engine as player one against a person.
    #[serde(rename = "eh")]
    EngineHuman,
    /// The engine against itself, to watch.
    #[serde(rename = "ee")]
    EngineEngine,
}

impl Mode {
    /// Who plays player one and player two.
    pub fn seats(self) -> [Seat; 2] {
        match self {
            Mode::HumanHuman => [Seat::Human, Seat::Human],
            Mode::HumanEngine => [Seat::Human, Seat::Engine],
            Mode::EngineHuman => [Seat::Engine, Seat::Human],
            Mode::EngineEngine => [Seat::Engine, Seat::Engine],
        }
    }

    /// The short name the page uses (`hh`, `he`, `eh`, `ee`).
    pub fn code(self) -> &'static str {
        match self {
            Mode::HumanHuman => "hh",
            Mode::HumanEngine => "he",
            Mode::EngineHuman => "eh",
            Mode::EngineEngine => "ee",
        }
    }
}

/// How a game is played: chosen in the new-game dialog.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Settings {
    /// The game.
    pub game: GameId,
    /// Rule options of the game (`Sight_BoardSize` = `7`), checked against the engine's.
    pub options: Vec<(String, String)>,
    /// Who plays each seat.
    pub mode: Mode,
    /// The engine's `Level`, if it has the option and one was chosen.
    pub level: Option<String>,
    /// Milliseconds per engine move (and per hint).
    pub movetime: u64,
}

impl Default for Settings {
    fn default() -> Settings {
        Settings {
            game: GameId::DEFAULT,
            options: Vec::new(),
            mode: Mode::HumanEngine,
            level: None,
            movetime: 1000,
        }
    }
}

/// The body of `POST /api/new`.
#[derive(Debug, Deserialize)]
pub struct NewGame {
    /// The game's name (`sight`, …).
    pub game: String,
    /// Rule options of the game by name; values as strings, numbers or booleans.
    #[serde(default)]
    pub options: BTreeMap<String, Value>,
    /// `hh`, `he`, `eh` or `ee`.
    pub mode: Mode,
    /// The engine's `Level`, or `elo N` for a rating (`UCI_LimitStrength`, `UCI_Elo`).
    #[serde(default)]
    pub level: Option<String>,
    /// Milliseconds per engine move.
    #[serde(default)]
    pub movetime: Option<u64>,
}

/// Whether `name` is a rule option of the game whose options start with `prefix` (`sight_`).
fn is_rule(name: &str, prefix: &str) -> bool {
    name.to_ascii_lowercase().starts_with(prefix)
}

/// A requested level as the engine takes it: one of its `Level` values, or `elo N`, a rating
/// within `game`'s `UCI_Elo` (played with `UCI_LimitStrength`). `None` for an engine without
/// `Level` asked for one of its values (nothing to set); 400 for anything else.
fn checked_level(info: &EngineInfo, game: GameId, level: &str) -> Result<Option<String>, ApiError> {
    if let Some(elo) = level.strip_prefix(RATING_PREFIX) {
        let Some(option) = info
            .elo_option(game)
            .filter(|_| info.option("UCI_LimitStrength").is_some())
        else {
            return Err(ApiError::bad(
                "the engine has no ratings (UCI_Elo)".to_string(),
            ));
        };
        let elo = option.check(elo).map_err(ApiError::bad)?;
        return Ok(Some(format!("{RATING_PREFIX}{elo}")));
    }
    match info.option("Level") {
        Some(option) => Ok(Some(option.check(level).map_err(ApiError::bad)?)),
        None => Ok(None),
    }
}

/// The settings a new-game request asks for, checked against the engine's options (`info`):
/// every rule option of the game is set, those the request leaves out to their defaults, so
/// nothing of an earlier game stays. 400 for an unknown game or option, a bad value, level
/// or time.
pub fn settings_from(info: &EngineInfo, request: &NewGame) -> Result<Settings, ApiError> {
    let game = GameId::from_name(&request.game)
        .ok_or_else(|| ApiError::bad(format!("unknown game '{}'", request.game)))?;
    let prefix = format!("{}_", game.name());
    for name in request.options.keys() {
        let known = info.option(name).is_some_and(|o| is_rule(&o.name, &prefix));
        if !known {
            return Err(ApiError::bad(format!(
                "{name} is not a rule option of {}",
                game.name()
            )));
        }
    }
    let mut options = Vec::new();
    for option in info.options.iter().filter(|o| is_rule(&o.name, &prefix)) {
        let given = request
            .options
            .iter()
            .find(|(n, _)| n.eq_ignore_ascii_case(&option.name))
            .map(|(_, v)| match v {
                Value::String(s) => s.clone(),
                other => other.to_string(),
            });
        let value = match given {
            Some(value) => option.check(&value).map_err(ApiError::bad)?,
            None if option.kind == "button" => continue,
            None => option.default.clone(),
        };
        options.push((option.name.clone(), value));
    }
    let level = match &request.level {
        Some(level) if !level.is_empty() => checked_level(info, game, level)?,
        _ => None,
    };
    let movetime = request.movetime.unwrap_or(1000);
    if !(1..=MAX_MOVETIME).contains(&movetime) {
        return Err(ApiError::bad(format!(
            "the time per move runs from 1 to {MAX_MOVETIME} ms"
        )));
    }
    Ok(Settings {
        game,
        options,
        mode: request.mode,
        level,
        movetime,
    })
}
