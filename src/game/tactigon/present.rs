//! Tactigon as people see it ([`Present`]): Red and Blue, the end by a captured pentagon, the
//! gold pair, no move, the ply cap or a repetition, a capture written with `×`, the pieces each
//! side has lost, and the warning of a gold pair that wins unless broken now
//! (docs/rules/tactigon.md §5.2). The board picture marks the captures and the gold pair.

use super::board::{CELLS, board, cell_name};
use super::{
    CIRCLE, OPTION_NO_MOVE_RESULT, OPTION_PLY_CAP, PENTAGON, SQUARE, TRIANGLE, Tactigon, bits,
};
use crate::game::present::{Ending, Ink, Notation, Present, Tone};
use crate::game::{Game, Player};

/// The piece kinds by index, as the rules name them.
pub const KINDS: [&str; 4] = ["circle", "triangle", "square", "pentagon"];

/// The cells where the side that moved in `before` removed an enemy piece (the defender taken,
/// or both removed), in cell order.
pub fn captures(before: &Tactigon, after: &Tactigon) -> Vec<usize> {
    let enemy = before.side_to_move().opponent().index();
    (0..CELLS)
        .filter(|&cell| {
            let was = before.piece_at(cell);
            was.is_some_and(|(side, _)| side == enemy) && after.piece_at(cell) != was
        })
        .collect()
}

/// The player whose pieces stand on both gold tiles, if any.
pub fn gold_holder(pos: &Tactigon) -> Option<Player> {
    let gold = board().gold;
    [Player::One, Player::Two]
        .into_iter()
        .find(|p| pos.occupied_by(p.index()) & gold == gold)
}

/// The kinds (indices into [`KINDS`]) each side has lost between `start` and `now`, player
/// one's first, weakest first.
pub fn lost(start: &Tactigon, now: &Tactigon) -> [Vec<usize>; 2] {
    let lost = |side: usize| {
        [CIRCLE, TRIANGLE, SQUARE, PENTAGON]
            .into_iter()
            .flat_map(|kind| {
                let had = start.pieces(side, kind).count_ones();
                let has = now.pieces(side, kind).count_ones();
                std::iter::repeat_n(kind, had.saturating_sub(has) as usize)
            })
            .collect()
    };
    [lost(0), lost(1)]
}

/// A rank of a position's text with its runs of empty cells written out as `.`.
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

impl Present for Tactigon {
    const SEATS: [&'static str; 2] = ["Red", "Blue"];
    const MOVE_EXAMPLES: &'static [&'static str] = &["e5-e11"];
    const NOTATION: Notation = Notation::Squares;
    const TONES: [Tone; 2] = [Tone::Red, Tone::Blue];
    /// Lower case only: cells `e5-e11`.
    const MOVES_IN_LOWER_CASE: bool = true;

    /// A captured pentagon, both gold tiles held, no legal move, the ply cap, or a repetition.
    fn end_reason(end: &Ending) -> Option<String> {
        let names = Self::SEATS;
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
        let mover_owns =
            |c: &char| c.is_ascii_alphabetic() && (c.is_ascii_uppercase() == end.p1turn);
        let mover = end.mover(names);
        if gold.iter().all(|c| mover_owns(c)) {
            return Some(format!("{mover} holds both gold tiles"));
        }
        // A finished game lists no legal move, whatever ended it: the ply cap is tested first.
        let cap: Option<u64> = end.option(OPTION_PLY_CAP).and_then(|v| v.parse().ok());
        if let ("draw", Some(cap), Some(ply)) = (end.result, cap, ply)
            && cap > 0
            && ply >= cap
        {
            return Some(format!("the ply cap ({cap} plies) is reached"));
        }
        // A draw short of the cap is a repetition, or (under the rule that a player without a
        // move draws) a player without a move.
        let no_move_draws = end
            .option(OPTION_NO_MOVE_RESULT)
            .is_some_and(|v| v.eq_ignore_ascii_case("draw"));
        match end.result {
            "draw" if !(no_move_draws && end.no_moves) => Some("the position repeated".to_string()),
            _ if end.no_moves => Some(format!("{mover} has no legal move")),
            _ => None,
        }
    }

    /// A capture with `×` (`c11×d16`).
    fn move_text(before: &Tactigon, mv: &str, after: &Tactigon) -> String {
        if captures(before, after).is_empty() {
            mv.to_string()
        } else {
            mv.replacen('-', "×", 1)
        }
    }

    fn lost_pieces(start: &Tactigon, now: &Tactigon) -> Option<[Vec<&'static str>; 2]> {
        Some(lost(start, now).map(|kinds| kinds.into_iter().map(|k| KINDS[k]).collect()))
    }

    /// The opponent holds both gold tiles and wins unless the pair is broken now.
    fn alert(&self) -> Option<String> {
        if self.outcome().is_some() {
            return None;
        }
        let holder = gold_holder(self)?;
        let (them, us) = (
            Self::SEATS[holder.index()],
            Self::SEATS[holder.opponent().index()],
        );
        let cells: Vec<String> = bits(board().gold).map(cell_name).collect();
        Some(format!(
            "{them} holds both gold tiles ({}): {us} must break the pair or take the pentagon \
             this move, or lose",
            cells.join(" and ")
        ))
    }

    /// Row lines start with the row letter.
    fn is_board_row(line: &str) -> bool {
        line.starts_with(|c: char| c.is_ascii_lowercase())
    }

    /// Red's pieces `C`, `T`, `S`, `P`; Blue's `c`, `t`, `s`, `p`; the gold tiles `**`.
    fn ink(token: &str) -> Option<Ink> {
        match token {
            "**" => Some(Ink::Special),
            "C" | "S" | "T" | "P" => Some(Ink::PlayerOne),
            "c" | "s" | "t" | "p" => Some(Ink::PlayerTwo),
            _ => None,
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::game::GameId;

    const START: &str = "2/C1C3c1c/1ST4ts1/CTPSC1csptc/1ST4ts1/C1C3c1c/2 r 0";
    /// The start position at ply 300.
    const CAPPED: &str = "2/C1C3c1c/1ST4ts1/CTPSC1csptc/1ST4ts1/C1C3c1c/2 r 300";

    #[test]
    fn captures_show_in_the_move_text() {
        let text = |before, mv, after| GameId::Tactigon.move_text(&[], before, mv, after);
        // TV5: the circle takes the square (D).
        let before = "2/9/10/2P2Cs1p2/10/9/2 r 0";
        let after = "2/9/10/2P3C1p2/10/9/2 b 1";
        assert_eq!(text(before, "d10-d12", after), "d10×d12");
        // TV6: triangle × circle removes both.
        let (before, after) = ("2/9/4Tc4/2P5p2/10/9/2 r 0", "2/9/10/2P5p2/10/9/2 b 1");
        assert_eq!(text(before, "c9-c11", after), "c9×c11");
        // A quiet move (TV4).
        let after = "2/C1C3c1c/1ST3Sts1/CTP1C1csptc/1ST4ts1/C1C3c1c/2 b 1";
        assert_eq!(text(START, "d6-c13", after), "d6-c13");
    }

    #[test]
    fn lost_pieces_and_the_gold_alert() {
        // TV19's end: Blue lost its pentagon, Red nothing.
        let end = "2/C1C2sc1c/1ST4ts1/CTP1C1c1Stc/1ST4ts1/C1C3c1c/2 b 3";
        let lost = GameId::Tactigon.lost_pieces(&[], START, end);
        assert_eq!(lost, Some([vec![], vec!["pentagon"]]));
        assert_eq!(GameId::Sight.lost_pieces(&[], "5:x5 w", "5:x5 w"), None);
        // TV13 after e9-f10: Red holds both gold tiles, Blue to move.
        let fen = "2/4C4/10/2P5p1c/10/4C4/2 b 1";
        assert_eq!(
            GameId::Tactigon.alert(&[], fen).as_deref(),
            Some(
                "Red holds both gold tiles (b10 and f10): Blue must break the pair or take \
                 the pentagon this move, or lose"
            )
        );
        // TV15: the holder is to move, the game is over: nothing to warn about.
        let over = "2/4C4/10/2P5p2/10/4C1t2/2 r 0";
        assert_eq!(GameId::Tactigon.alert(&[], over), None);
        assert_eq!(GameId::Tactigon.alert(&[], START), None);
    }

    #[test]
    fn every_way_a_game_ends() {
        let options = [(OPTION_PLY_CAP.to_string(), "300".to_string())];
        let reason = |fen: &str, result, p1turn, no_moves| {
            GameId::Tactigon.end_reason(&Ending {
                fen,
                result,
                p1turn,
                no_moves,
                options: &options,
            })
        };
        let taken = "2/C1C2sc1c/1ST2S1ts1/CTP1C1c1ptc/1ST4ts1/C1C3c1c/2 r 2".replace('p', "c");
        let cases = [
            (
                taken.as_str(),
                "p1win",
                false,
                true,
                "Blue's pentagon was captured",
            ),
            (
                "2/4C4/10/2P5p1c/10/4C4/2 r 9",
                "p1win",
                true,
                false,
                "Red holds both gold tiles",
            ),
            // A finished game lists no legal move, whatever ended it (issue 59: a draw by the
            // cap was announced as "Red has no legal move").
            (
                CAPPED,
                "draw",
                true,
                true,
                "the ply cap (300 plies) is reached",
            ),
            (START, "draw", true, true, "the position repeated"),
            (
                "Pc/3cc4/10/10p/10/9/2 r 0",
                "p2win",
                true,
                true,
                "Red has no legal move",
            ),
        ]
        .map(|(fen, result, p1turn, no_moves, why)| (reason(fen, result, p1turn, no_moves), why));
        for (got, want) in cases {
            assert_eq!(got.as_deref(), Some(want));
        }
        assert_eq!(Tactigon::ink("**"), Some(Ink::Special));
        assert_eq!(Tactigon::ink("s"), Some(Ink::PlayerTwo));
        assert_eq!(Tactigon::ink("CC"), None);
    }
}
