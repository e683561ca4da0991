//! Saying who won and why, for the result banner of the web GUI and the terminal: the winner from `query result`, the reason
//! read from the final position's own fields (the protocol does not say why a game ended).

use crate::game::GameId;
use crate::gui::{result_text, seat_names};

/// What the final position tells about the end of the game.
pub struct Ending<'a> {
    /// The game.
    pub game: GameId,
    /// The final position in the game's notation.
    pub fen: &'a str,
    /// The answer to `query result`: `p1win`, `p2win` or `draw`.
    pub result: &'a str,
    /// Whether player one is to move in the final position.
    pub p1turn: bool,
    /// Whether the side to move has no legal move.
    pub no_moves: bool,
    /// The value of the `Tactigon_PlyCap` rule option in force, if any.
    pub ply_cap: Option<u64>,
}

/// The banner text: `Black wins: White has no legal move`, `Draw: the ply cap (300) is
/// reached`, … The reason is left out where the position does not show it.
pub fn describe(end: &Ending) -> String {
    let names = seat_names(end.game);
    let head = result_text(end.game, end.result);
    let reason = match end.game {
        GameId::Sight => sight_reason(end, names),
        GameId::Isaac => isaac_reason(end.fen),
        GameId::Tactigon => tactigon_reason(end, names),
    };
    match reason {
        Some(reason) => format!("{head}: {reason}"),
        None => head,
    }
}

/// Sight ends only when the side to move has no legal move.
fn sight_reason(end: &Ending, names: [&str; 2]) -> Option<String> {
    let mover = names[usize::from(!end.p1turn)];
    end.no_moves.then(|| format!("{mover} has no legal move"))
}

/// Isaac: a score of 100 or more, or both players out (then the scores, and the tie-break).
fn isaac_reason(fen: &str) -> Option<String> {
    let fields: Vec<&str> = fen.split_whitespace().collect();
    let (scores, hands) = (fields.get(5)?, fields.get(1)?);
    let (dark, light) = scores.split_once('/')?;
    let (dark, light): (u32, u32) = (dark.parse().ok()?, light.parse().ok()?);
    if dark >= 100 {
        return Some(format!("Dark reached {dark} points"));
    }
    if light >= 100 {
        return Some(format!("Light reached {light} points"));
    }
    if fields.get(4) == Some(&"dl") {
        if dark != light {
            return Some(format!("both players are out, {dark} to {light}"));
        }
        let count = |hand: &str, weight: fn(u32) -> u32| -> u32 {
            hand.chars()
                .take(5)
                .zip(3..)
                .map(|(c, size)| c.to_digit(10).unwrap_or(0) * weight(size))
                .sum()
        };
        let (dh, lh) = hands.split_once('/')?;
        let cells = (count(dh, |s| s), count(lh, |s| s));
        let tiles = (count(dh, |_| 1), count(lh, |_| 1));
        return Some(format!(
            "both players are out at {dark} all; unplaced cells {} to {}, tiles {} to {}",
            cells.0, cells.1, tiles.0, tiles.1
        ));
    }
    None
}

/// Tactigon: a captured pentagon, both gold tiles held, no legal move, or the ply cap.
fn tactigon_reason(end: &Ending, names: [&str; 2]) -> Option<String> {
    let mut fields = end.fen.split_whitespace();
    let board = fields.next()?;
    let ply: Option<u64> = fields.nth(1).and_then(|p| p.parse().ok());
    if !board.contains('P') {
        return Some(format!("{}'s pentagon was captured", names[0]));
    }
    if !board.contains('p') {
        return Some(format!("{}'s pentagon was captured", names[1]));
    }
    let ranks: Vec<Vec<char>> = board.split('/').map(expand_rank).collect();
    // b10 and f10 are the fifth cells of ranks b and f.
    let gold = [ranks.get(1)?.get(4)?, ranks.get(5)?.get(4)?];
    let mover_owns = |c: &char| c.is_ascii_alphabetic() && (c.is_ascii_uppercase() == end.p1turn);
    let mover = names[usize::from(!end.p1turn)];
    if gold.iter().all(|c| mover_owns(c)) {
        return Some(format!("{mover} holds both gold tiles"));
    }
    if end.no_moves {
        return Some(format!("{mover} has no legal move"));
    }
    match (end.result, end.ply_cap, ply) {
        ("draw", Some(cap), Some(ply)) if cap > 0 && ply >= cap => {
            Some(format!("the ply cap ({cap} plies) is reached"))
        }
        ("draw", _, _) => Some("the position repeated".to_string()),
        _ => None,
    }
}

/// A Tactigon rank with its runs of empty cells written out as `.`.
fn expand_rank(rank: &str) -> Vec<char> {
    let mut cells = Vec::new();
    let mut run = 0usize;
    for c in rank.chars() {
        if let Some(d) = c.to_digit(10) {
            run = run.saturating_mul(10).saturating_add(d as usize);
            continue;
        }
        cells.extend(std::iter::repeat_n('.', run.min(32)));
        run = 0;
        cells.push(c);
    }
    cells.extend(std::iter::repeat_n('.', run.min(32)));
    cells
}

#[cfg(test)]
mod tests {
    use super::*;

    fn ending(game: GameId, fen: &str, result: &str, p1turn: bool, no_moves: bool) -> String {
        describe(&Ending {
            game,
            fen,
            result,
            p1turn,
            no_moves,
            ply_cap: Some(300),
        })
    }

    #[test]
    fn every_game_says_why_it_ended() {
        let sight = ending(GameId::Sight, "5:x5 w", "p2win", true, true);
        assert_eq!(sight, "Black (player two) wins: White has no legal move");
        let isaac = "D3h13 00000/00000 - E - 15/100 5/0";
        assert_eq!(
            ending(GameId::Isaac, isaac, "p2win", false, true),
            "Light (player two) wins: Light reached 100 points"
        );
        let out = "- 11000/00001 - E dl 30/30 3/3";
        assert_eq!(
            ending(GameId::Isaac, out, "p2win", false, true),
            "Light (player two) wins: both players are out at 30 all; unplaced cells 7 to 7, \
             tiles 2 to 1"
        );
        let taken = "2/C1C2sc1c/1ST2S1ts1/CTP1C1c1ptc/1ST4ts1/C1C3c1c/2 r 2";
        assert_eq!(
            ending(
                GameId::Tactigon,
                &taken.replace('p', "c"),
                "p1win",
                false,
                true
            ),
            "Red (player one) wins: Blue's pentagon was captured"
        );
        let gold = "2/4C4/10/2P5p1c/10/4C4/2 r 9";
        assert_eq!(
            ending(GameId::Tactigon, gold, "p1win", true, false),
            "Red (player one) wins: Red holds both gold tiles"
        );
        let capped = "2/C1C3c1c/1ST4ts1/CTPSC1csptc/1ST4ts1/C1C3c1c/2 r 300";
        assert_eq!(
            ending(GameId::Tactigon, capped, "draw", true, false),
            "Draw: the ply cap (300 plies) is reached"
        );
        let stuck = "Pc/3cc4/10/10p/10/9/2 r 0";
        assert_eq!(
            ending(GameId::Tactigon, stuck, "p2win", true, true),
            "Blue (player two) wins: Red has no legal move"
        );
    }
}
