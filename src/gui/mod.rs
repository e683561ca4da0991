//! Front ends for people, each talking to an engine only through the protocol: terminal play
//! (`ludus play`), the browser GUI (`ludus web`) and the drawings of positions it shows.

pub mod happened;
pub mod reason;
pub mod svg;
pub mod terminal;
pub mod web;

use crate::game::GameId;

/// The names of player one and player two in `game` (Sight's White and Black, …).
pub fn seat_names(game: GameId) -> [&'static str; 2] {
    match game {
        GameId::Isaac => ["Dark", "Light"],
        GameId::Sight => ["White", "Black"],
        GameId::Tactigon => ["Red", "Blue"],
    }
}

/// The result of a game for people, from the answer to `query result`: `Black (player two)
/// wins`, `Draw`.
pub fn result_text(game: GameId, result: &str) -> String {
    let names = seat_names(game);
    match result {
        "p1win" => format!("{} (player one) wins", names[0]),
        "p2win" => format!("{} (player two) wins", names[1]),
        "draw" => "Draw".to_string(),
        other => format!("Game over ({other})"),
    }
}
