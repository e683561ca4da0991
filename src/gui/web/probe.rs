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
}

impl EngineInfo {
    /// The option called `name` (ASCII case-insensitive).
    pub fn option(&self, name: &str) -> Option<&EngineOption> {
        self.options
            .iter()
            .find(|o| o.name.eq_ignore_ascii_case(name))
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

/// Starts `cmd`, does the `ugi` handshake, keeps its `id name` and `option` lines, then
/// sends `quit` and ends the process. No `ugiok` within `timeout` is an error.
pub fn probe(cmd: &Path, timeout: Duration) -> Result<EngineInfo, String> {
    let command = EngineCommand {
        name: "engine".into(),
        cmd: cmd.to_path_buf(),
        dir: None,
        args: Vec::new(),
        proto: Proto::Ugi,
    };
    let engine = EngineProcess::start(&command, timeout).map_err(|e| match e {
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
    };
    engine.quit();
    Ok(info)
}
