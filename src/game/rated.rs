//! A game's rating scale for limited strength (`UCI_LimitStrength`, `UCI_Elo`): the settings of
//! the weakened search that matches calibrated, each with the rating it measured. Plain data
//! each game keeps in its folder ([`super::SearchHooks::RATED_SETTINGS`]); the search reads it
//! (`search::strength`).

/// A calibrated setting of the weakened search and the rating it measured.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct RatedSetting {
    /// The measured rating on the game's scale (docs/strength.md, "Levels").
    pub elo: i64,
    /// The most nodes one move may search (depth 1 is always completed).
    pub nodes: u64,
    /// How many best lines the move is chosen among.
    pub lines: usize,
    /// The softmax temperature in the game's score unit.
    pub temperature: f64,
}

/// A [`RatedSetting`] (for the games' tables).
pub const fn rated(elo: i64, nodes: u64, lines: usize, temperature: f64) -> RatedSetting {
    RatedSetting {
        elo,
        nodes,
        lines,
        temperature,
    }
}
