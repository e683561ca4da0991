//! Front ends for people, each talking to an engine only through the protocol: terminal play
//! (`ludus play`), the browser GUI (`ludus web`) and the drawings of positions it shows. They
//! know no game: what they say of one (its seats, why a game ended, what a move did) comes from
//! [`crate::game::present`], and its board picture from [`svg`]'s one dispatch.

pub mod svg;
pub mod terminal;
pub mod web;

use crate::client::Snapshot;
use crate::game::present::Ending;
use crate::game::{GameId, OptionValues};

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
/// comes from `query result`, the reason from the final position `end`'s own fields
/// ([`GameId::end_reason`], with the rule options in force `options`), and is left out where
/// the position does not show it.
pub fn describe(game: GameId, end: &Snapshot, options: &[(String, String)]) -> String {
    let head = result_text(game, &end.result);
    let ending = Ending {
        fen: &end.fen,
        result: &end.result,
        p1turn: end.p1turn,
        no_moves: end.legal.is_empty(),
        options,
    };
    match game.end_reason(&ending) {
        Some(reason) => format!("{head}: {reason}"),
        None => head,
    }
}

/// Every rule option of `game` in `values`, by name and value.
pub fn rule_options(game: GameId, values: &OptionValues) -> Vec<(String, String)> {
    game.options()
        .iter()
        .filter_map(|spec| Some((spec.name.to_string(), values.get(spec.name)?.to_string())))
        .collect()
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_banner_says_who_won_and_why() {
        let end = |fen: &str, result: &str, p1turn| Snapshot {
            fen: fen.into(),
            legal: Vec::new(),
            p1turn,
            gameover: true,
            result: result.into(),
        };
        let banner = |game, end: &Snapshot| describe(game, end, &[]);
        assert_eq!(
            banner(GameId::Sight, &end("5:x5 w", "p2win", true)),
            "Black (player two) wins: White has no legal move"
        );
        let isaac = end("D3h13 00000/00000 - E - 15/100 5/0", "p2win", false);
        assert_eq!(
            banner(GameId::Isaac, &isaac),
            "Light (player two) wins: Light reached 100 points (Dark 15)"
        );
        // The winner's score first, after the winner's name.
        let out = end("- 00000/00000 - E dl 64/87 0/0", "p2win", false);
        assert_eq!(
            banner(GameId::Isaac, &out),
            "Light (player two) wins: both players are out, 87 to 64"
        );
        let stuck = end("Pc/3cc4/10/10p/10/9/2 r 0", "p2win", true);
        assert_eq!(
            banner(GameId::Tactigon, &stuck),
            "Blue (player two) wins: Red has no legal move"
        );
        let mut values = OptionValues::from_specs(&GameId::Tactigon.options());
        values.set("Tactigon_PlyCap", "300".into());
        let mut capped = end(
            "2/C1C3c1c/1ST4ts1/CTPSC1csptc/1ST4ts1/C1C3c1c/2 r 300",
            "draw",
            true,
        );
        capped.legal = vec!["d6-c13".into()];
        let in_force = rule_options(GameId::Tactigon, &values);
        assert_eq!(
            describe(GameId::Tactigon, &capped, &in_force),
            "Draw: the ply cap (300 plies) is reached"
        );
        assert_eq!(result_text(GameId::Isaac, "draw"), "Draw");
        assert_eq!(result_text(GameId::Isaac, "odd"), "Game over (odd)");
    }
}
