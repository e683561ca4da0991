//! Front ends for people, each talking to an engine only through the protocol: terminal play
//! (`ludus play`), the browser GUI (`ludus web`) and the drawings of positions it shows. They
//! know no game: what they say of one (its seats, why a game ended, what a move did) comes from
//! [`crate::game::present`], and its board picture from [`svg`]'s one dispatch.

pub mod svg;
pub mod terminal;
pub mod web;

use crate::game::GameId;
use crate::game::present::Ending;

/// The result of a game for people, from the answer to `query result`: `Black (player two)
/// wins`, `Draw`.
pub fn result_text(game: GameId, result: &str) -> String {
    let names = game.seats();
    match result {
        "p1win" => format!("{} (player one) wins", names[0]),
        "p2win" => format!("{} (player two) wins", names[1]),
        "draw" => "Draw".to_string(),
        other => format!("Game over ({other})"),
    }
}

/// Who won and why, for the result banner of the web GUI and the terminal: `Black (player two)
/// wins: White has no legal move`, `Draw: the ply cap (300 plies) is reached`, … The winner
/// comes from `query result`, the reason from the final position's own fields
/// ([`GameId::end_reason`]), and is left out where the position does not show it.
pub fn describe(game: GameId, end: &Ending) -> String {
    let head = result_text(game, end.result);
    match game.end_reason(end) {
        Some(reason) => format!("{head}: {reason}"),
        None => head,
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_banner_says_who_won_and_why() {
        let end = |fen, result, p1turn| Ending {
            fen,
            result,
            p1turn,
            no_moves: true,
            options: &[],
        };
        assert_eq!(
            describe(GameId::Sight, &end("5:x5 w", "p2win", true)),
            "Black (player two) wins: White has no legal move"
        );
        assert_eq!(
            describe(
                GameId::Isaac,
                &end("D3h13 00000/00000 - E - 15/100 5/0", "p2win", false)
            ),
            "Light (player two) wins: Light reached 100 points"
        );
        let stuck = "Pc/3cc4/10/10p/10/9/2 r 0";
        assert_eq!(
            describe(GameId::Tactigon, &end(stuck, "p2win", true)),
            "Blue (player two) wins: Red has no legal move"
        );
        assert_eq!(result_text(GameId::Isaac, "draw"), "Draw");
        assert_eq!(result_text(GameId::Isaac, "odd"), "Game over (odd)");
    }
}
