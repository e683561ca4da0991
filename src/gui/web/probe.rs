//! What the engine offers, asked once at start-up: its `id name` and its `option` lines with
//! their types, defaults, ranges and choices, read from the handshake of [`EngineProcess`].
//! The new-game dialog is built from them, and the values a page sends are
//! checked against them before they reach an engine.
//!
//! [`EngineProcess`]: crate::client::EngineProcess

use std::path::Path;
use std::time::Duration;

use serde::Serialize;

use crate::client::{EngineCommand, EngineFailure, EngineOption, EngineProcess, Proto};
use crate::game::GameId;

/// What the engine said about itself in its handshake.
#[derive(Clone, Debug, Default, PartialEq, Eq, Serialize)]
pub struct EngineInfo {
    /// The `id name` (the program's file name if it sent none).
    pub name: String,
    /// Every option it advertised.
    pub options: Vec<EngineOption>,
    /// Each game's `UCI_Elo` as the engine advertises it while that game is played (ludus
    /// rates each game on its own scale), asked by a handshake after each `UCI_Variant`;
    /// empty for an engine without ratings or without `UCI_Variant`. The setup page gives
    /// them per game (`games[].elo`).
    #[serde(skip)]
    pub ratings: Vec<(GameId, EngineOption)>,
}

impl EngineInfo {
    /// The option called `name` (ASCII case-insensitive).
    pub fn option(&self, name: &str) -> Option<&EngineOption> {
        self.options
            .iter()
            .find(|o| o.name.eq_ignore_ascii_case(name))
    }

    /// The `UCI_Elo` option of `game`: its own where the engine gave one per game, else the
    /// one of the first handshake.
    pub fn elo_option(&self, game: GameId) -> Option<&EngineOption> {
        let own = self.ratings.iter().find(|(g, _)| *g == game);
        own.map(|(_, o)| o).or_else(|| self.option("UCI_Elo"))
    }

    /// The games the engine plays: those of its `UCI_Variant` choices that ludus draws
    /// (the default game, [`GameId::DEFAULT`], for an engine without the option).
    pub fn games(&self) -> Vec<GameId> {
        match self.option("UCI_Variant") {
            Some(option) => option
                .vars
                .iter()
                .filter_map(|v| GameId::from_name(v))
                .collect(),
            None => vec![GameId::DEFAULT],
        }
    }

    /// The game a new session plays: the default game ([`GameId::DEFAULT`]) if the engine has
    /// it, else its first game.
    pub fn first_game(&self) -> GameId {
        let games = self.games();
        games
            .iter()
            .copied()
            .find(|&g| g == GameId::DEFAULT)
            .or(games.first().copied())
            .unwrap_or(GameId::DEFAULT)
    }
}

/// Starts `cmd`, does the `ugi` handshake, keeps its `id name` and `option` lines (and, for
/// an engine with ratings and several games, each game's `UCI_Elo` from a handshake after
/// choosing it), then sends `quit` and ends the process. No `ugiok` within `timeout` is an
/// error.
pub fn probe(cmd: &Path, timeout: Duration) -> Result<EngineInfo, String> {
    let command = EngineCommand {
        name: "engine".into(),
        cmd: cmd.to_path_buf(),
        dir: None,
        args: Vec::new(),
        proto: Proto::Ugi,
    };
    let mut engine = EngineProcess::start(&command, timeout).map_err(|e| match e {
        EngineFailure::Stall(_) => format!(
            "the engine '{}' did not finish its ugi handshake",
            cmd.display()
        ),
        other => format!(
            "cannot start the engine '{}': {}",
            cmd.display(),
            other.detail()
        ),
    })?;
    let info = EngineInfo {
        name: engine.id_name().map_or_else(
            || {
                cmd.file_name().map_or_else(
                    || "engine".to_string(),
                    |n| n.to_string_lossy().into_owned(),
                )
            },
            str::to_string,
        ),
        options: engine.options().to_vec(),
        ratings: Vec::new(),
    };
    let ratings = game_ratings(&mut engine, &info, timeout);
    engine.quit();
    Ok(EngineInfo { ratings, ..info })
}

/// Each game's `UCI_Elo`, from a handshake after `setoption name UCI_Variant value <game>`;
/// none for an engine without both options, or one that fails to answer (the first
/// handshake's range then stands for every game).
fn game_ratings(
    engine: &mut EngineProcess,
    info: &EngineInfo,
    timeout: Duration,
) -> Vec<(GameId, EngineOption)> {
    if info.option("UCI_Elo").is_none() || info.option("UCI_Variant").is_none() {
        return Vec::new();
    }
    let mut ratings = Vec::new();
    for game in info.games() {
        let asked = engine
            .set_option("UCI_Variant", game.name())
            .and_then(|()| engine.handshake_again(timeout));
        if asked.is_err() {
            return Vec::new();
        }
        if let Some(elo) = engine.option("UCI_Elo") {
            ratings.push((game, elo.clone()));
        }
    }
    ratings
}
