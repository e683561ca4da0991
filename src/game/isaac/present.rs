//! Isaac as people see it ([`Present`]): Dark and Light, tiles for moves, the end by 100 points
//! or by both players going out (with the tie-break of docs/rules/isaac.md §5), and the points a
//! removal won (§4), which the board picture marks.

use super::{Isaac, Tile};
use crate::game::Player;
use crate::game::present::{Ending, Ink, Notation, Present, ScoreWords, Tone};

/// The player whose score rose between `before` and `after`, and by how much.
pub fn gain(before: &Isaac, after: &Isaac) -> Option<(Player, u8)> {
    [Player::One, Player::Two].into_iter().find_map(|p| {
        let gain = after.score(p).saturating_sub(before.score(p));
        (gain > 0).then_some((p, gain))
    })
}

/// A tile as moves write it: `<size><h|v><anchor>` (`4h23`).
pub fn tile_code(t: Tile) -> String {
    let orientation = if t.vertical { 'v' } else { 'h' };
    format!("{}{orientation}{:02}", t.size, t.anchor)
}

impl Present for Isaac {
    const SEATS: [&'static str; 2] = ["Dark", "Light"];
    const MOVE_EXAMPLES: &'static [&'static str] = &["7h00", "x4h23+24"];
    const NOTATION: Notation = Notation::Tiles;
    const TONES: [Tone; 2] = [Tone::Dark, Tone::Light];
    /// Lower case only: tiles `7h00`, removals `x4h23+24` and `pass`.
    const MOVES_IN_LOWER_CASE: bool = true;
    /// In points of score: the evaluation's unit is a tenth of a point (`eval.rs`).
    const SCORE_WORDS: ScoreWords = ScoreWords {
        per_unit: 10,
        decimals: 1,
        unit: "points",
    };

    /// A score of 100 or more (with the other's), or both players out (then the scores, and
    /// the tie-break); the winner's figures first, as the banner names the winner first.
    fn end_reason(end: &Ending) -> Option<String> {
        let fields: Vec<&str> = end.fen.split_whitespace().collect();
        let (scores, hands) = (fields.get(5)?, fields.get(1)?);
        let (dark, light) = scores.split_once('/')?;
        let (dark, light): (u32, u32) = (dark.parse().ok()?, light.parse().ok()?);
        let [dark_name, light_name] = Self::SEATS;
        if dark >= 100 {
            return Some(format!(
                "{dark_name} reached {dark} points ({light_name} {light})"
            ));
        }
        if light >= 100 {
            return Some(format!(
                "{light_name} reached {light} points ({dark_name} {dark})"
            ));
        }
        if fields.get(4) != Some(&"dl") {
            return None;
        }
        // Light's figures first when Light won (or leads, if the result is not known).
        let light_first = match end.result {
            "p2win" => true,
            "p1win" | "draw" => false,
            _ => light > dark,
        };
        let pair = |d: u32, l: u32| {
            if light_first {
                format!("{l} to {d}")
            } else {
                format!("{d} to {l}")
            }
        };
        if dark != light {
            return Some(format!("both players are out, {}", pair(dark, light)));
        }
        let count = |hand: &str, weight: fn(u32) -> u32| -> u32 {
            hand.chars()
                .take(5)
                .zip(3..)
                .map(|(c, size)| c.to_digit(10).unwrap_or(0) * weight(size))
                .sum()
        };
        let (dh, lh) = hands.split_once('/')?;
        let cells = pair(count(dh, |s| s), count(lh, |s| s));
        let tiles = pair(count(dh, |_| 1), count(lh, |_| 1));
        Some(format!(
            "both players are out at {dark} all; unplaced cells {cells}, tiles {tiles}"
        ))
    }

    /// Row lines start with `r` and the row number.
    fn is_board_row(line: &str) -> bool {
        line.trim_start().starts_with('r')
    }

    /// Dark's cells `D3`…`D7`, Light's `L3`…`L7` (a counter's `d`, `l` is not coloured).
    fn ink(token: &str) -> Option<Ink> {
        let (first, rest) = token.split_at_checked(1)?;
        if rest.len() != 1 || !rest.chars().all(|c| c.is_ascii_digit()) {
            return None;
        }
        match first {
            "D" => Some(Ink::PlayerOne),
            "L" => Some(Ink::PlayerTwo),
            _ => None,
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::game::{Game, GameId};

    fn ended(fen: &str, result: &str) -> Option<String> {
        GameId::Isaac.end_reason(&Ending {
            fen,
            result,
            p1turn: false,
            no_moves: true,
            options: &[],
        })
    }

    fn reason(fen: &str) -> Option<String> {
        ended(fen, "p2win")
    }

    #[test]
    fn the_end_by_points_or_by_both_players_out() {
        assert_eq!(
            reason("D3h13 00000/00000 - E - 15/100 5/0").as_deref(),
            Some("Light reached 100 points (Dark 15)")
        );
        assert_eq!(
            reason("- 11000/00001 - E dl 30/30 3/3").as_deref(),
            Some("both players are out at 30 all; unplaced cells 7 to 7, tiles 1 to 2")
        );
        assert_eq!(reason("- 54321/54321 d P - 0/0 0/0"), None);
    }

    #[test]
    fn the_winners_score_comes_first() {
        assert_eq!(
            ended("- 00000/00000 - E dl 64/87 0/0", "p2win").as_deref(),
            Some("both players are out, 87 to 64")
        );
        assert_eq!(
            ended("- 00000/00000 - E dl 87/64 0/0", "p1win").as_deref(),
            Some("both players are out, 87 to 64")
        );
        assert_eq!(
            ended("- 10000/00000 - E dl 30/30 3/3", "p2win").as_deref(),
            Some("both players are out at 30 all; unplaced cells 0 to 3, tiles 0 to 1")
        );
    }

    #[test]
    fn the_gain_of_a_removal_and_the_board_tokens() {
        let pos =
            |f: &str| Isaac::from_fen(f, &Default::default()).unwrap_or_else(|e| panic!("{}", e.0));
        // TV4: Dark removes 4h23 for 24 and advances 24 (28 → 52).
        let before = pos("L3v07,L3v09,L3h20,D4h23,D3v31,D5h60,D3h70 00000/00000 d S - 28/79 3/0");
        let after = pos("L3v07,L3v09,L3h20,D3v31,D5h60,D3h70 00000/00000 l S - 52/79 4/0");
        assert_eq!(gain(&before, &after), Some((Player::One, 24)));
        assert_eq!(gain(&after, &after), None);
        assert_eq!(GameId::Isaac.seats(), ["Dark", "Light"]);
        assert_eq!(Isaac::ink("D7"), Some(Ink::PlayerOne));
        assert_eq!(Isaac::ink("L3"), Some(Ink::PlayerTwo));
        assert_eq!(Isaac::ink("l9"), None);
        assert_eq!(Isaac::ink("D7d"), None);
        assert!(Isaac::is_board_row(" r0  D7  L3"));
    }
}
