//! Sight as people see it ([`Present`]): White and Black, a loss by having no move, a move
//! written in its long form with the piles it grew (docs/rules/sight.md §8.2), the piles that
//! grew (§3.2, §3.3.3) and the stacks shut in (§3.3.1), which the board picture marks.

use super::Sight;
use super::geometry::Geometry;
use crate::game::present::{Ending, Ink, Notation, Present, Tone};

/// The piles that grew between `before` and `after`, with how much (a new piece is not a pile
/// that grew), in point order.
pub fn grown(before: &Sight, after: &Sight) -> Vec<(usize, u8)> {
    if before.size() != after.size() {
        return Vec::new();
    }
    (0..after.geometry().points)
        .filter_map(|p| match (before.pile(p), after.pile(p)) {
            (Some((o1, h1)), Some((o2, h2))) if o1 == o2 && h2 > h1 => Some((p, h2 - h1)),
            _ => None,
        })
        .collect()
}

/// The stacks (height 2 or more) of either side with no empty neighbour, which cannot move,
/// in point order.
pub fn stuck(pos: &Sight) -> Vec<usize> {
    let geo: &Geometry = pos.geometry();
    let empty = pos.empty_points();
    (0..geo.points)
        .filter(|&p| pos.pile(p).is_some_and(|(_, h)| h >= 2) && geo.neighbours[p] & empty == 0)
        .collect()
}

impl Present for Sight {
    const SEATS: [&'static str; 2] = ["White", "Black"];
    const MOVE_EXAMPLES: &'static [&'static str] = &["c3", "b4-c4"];
    const NOTATION: Notation = Notation::Squares;
    const TONES: [Tone; 2] = [Tone::Light, Tone::Dark];
    /// Lower case only: squares `c3`, `b4-c4`, a growth suffix `+d3`.
    const MOVES_IN_LOWER_CASE: bool = true;

    /// Sight ends only when the side to move has no legal move.
    fn end_reason(end: &Ending) -> Option<String> {
        let mover = end.mover(Self::SEATS);
        end.no_moves.then(|| format!("{mover} has no legal move"))
    }

    /// The move in its long form with the piles that grew: `b4-c3+d3+d4`.
    fn move_text(before: &Sight, mv: &str, after: &Sight) -> String {
        let base = mv.split('+').next().unwrap_or(mv);
        let geo = after.geometry();
        grown(before, after)
            .into_iter()
            .fold(base.to_string(), |text, (p, _)| {
                format!("{text}+{}", geo.square_name(p))
            })
    }

    /// Rank lines start with the rank number; the file letters line does not.
    fn is_board_row(line: &str) -> bool {
        line.trim_start().starts_with(|c: char| c.is_ascii_digit())
    }

    /// White's piles `w`, `w2`, …; Black's `b`, `b3`, ….
    fn ink(token: &str) -> Option<Ink> {
        let (first, rest) = token.split_at_checked(1)?;
        if !rest.chars().all(|c| c.is_ascii_digit()) {
            return None;
        }
        match first {
            "w" => Some(Ink::PlayerOne),
            "b" => Some(Ink::PlayerTwo),
            _ => None,
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::game::present::Ending;
    use crate::game::{Game, GameId};

    fn pos(fen: &str) -> Sight {
        Sight::from_fen(fen, &Default::default()).unwrap_or_else(|e| panic!("{e}"))
    }

    #[test]
    fn growth_shows_in_the_move_text_and_stuck_stacks_are_found() {
        // docs/rules/sight.md, "A turn": White's d4 grows b4 and d3.
        let before = "5:x5/x,w,x3/b,x2,w,x/x4,b/x5 w";
        let after = "5:x5/x,w2,x,w,x/b,x2,w2,x/x4,b/x5 b";
        let text = GameId::Sight.move_text(&[], before, "d4", after);
        assert_eq!(text, "d4+d3+b4");
        assert_eq!(grown(&pos(before), &pos(after)).len(), 2);
        assert_eq!(GameId::Sight.move_text(&[], "nonsense", "d4", after), "d4");
        // TV12: White's w2 on a1 is shut in (a2, b1, b2 taken); Black's b2 on a2 is not (a3).
        let end = pos("5:x5/x5/x5/b2,b,x3/w2,w,x3 w");
        let names: Vec<String> = stuck(&end)
            .into_iter()
            .map(|p| end.geometry().square_name(p))
            .collect();
        assert_eq!(names, ["a1"]);
    }

    #[test]
    fn the_end_the_seats_and_the_board_tokens() {
        let end = Ending {
            fen: "5:x5 w",
            result: "p2win",
            p1turn: true,
            no_moves: true,
            options: &[],
        };
        assert_eq!(
            GameId::Sight.end_reason(&end).as_deref(),
            Some("White has no legal move")
        );
        assert_eq!(GameId::Sight.seats(), ["White", "Black"]);
        assert_eq!(Sight::ink("w2"), Some(Ink::PlayerOne));
        assert_eq!(Sight::ink("b"), Some(Ink::PlayerTwo));
        assert_eq!(Sight::ink("bx"), None);
        assert!(Sight::is_board_row(" 3  .---w2--b---."));
        assert!(!Sight::is_board_row("    a   b   c"));
    }
}
