//! The game's moves as the terminal shows them: numbered by turn as the web page's move list
//! numbers them (`gui-adapters/web/navigate.js`, `moveRows`): `1. c3 d3 2. e4`, a row per
//! player one's turn and player two's after it, `…` for a turn a player did not have (the other
//! moved twice in a row, after a pass or once out), and each move as the list shows it
//! ([`crate::game::GameId::move_text`]: a capture with `×`, the piles a move grew).

use super::COLUMNS;

/// A move of the game.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Played {
    /// The move as played, in the protocol's notation (`d10-d12`).
    pub text: String,
    /// The move as the list shows it (`d10×d12`); empty until the position after it is known.
    pub shown: String,
    /// Whether player one made it.
    pub by_p1: bool,
    /// The position it was played in.
    pub fen_before: String,
}

impl Played {
    /// The move as the list shows it, or as played while that is not known.
    pub fn label(&self) -> &str {
        if self.shown.is_empty() {
            &self.text
        } else {
            &self.shown
        }
    }
}

/// One side's part of a row of the list.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
enum Slot {
    /// The index of the move.
    Move(usize),
    /// A turn the player did not have.
    Gap,
    /// Still to come.
    Later,
}

/// A numbered row: player one's move and player two's after it.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
struct Row {
    num: usize,
    p1: Slot,
    p2: Slot,
}

/// The rows of the list, from who made each move (`true`: player one). A move played later
/// never changes a number.
fn rows(movers: impl IntoIterator<Item = bool>) -> Vec<Row> {
    let mut rows: Vec<Row> = Vec::new();
    for (i, by_p1) in movers.into_iter().enumerate() {
        let num = rows.len() + 1;
        match rows.last_mut() {
            Some(row) if !by_p1 && row.p2 == Slot::Later => row.p2 = Slot::Move(i),
            _ if !by_p1 => rows.push(Row {
                num,
                p1: Slot::Gap,
                p2: Slot::Move(i),
            }),
            last => {
                if let Some(row) = last.filter(|row| row.p2 == Slot::Later) {
                    row.p2 = Slot::Gap;
                }
                rows.push(Row {
                    num,
                    p1: Slot::Move(i),
                    p2: Slot::Later,
                });
            }
        }
    }
    rows
}

/// The last of `moves` with its number, as the web page names it: `7. c3` for player one's,
/// `7... d3` for player two's; empty when no move was played.
pub fn last_numbered(moves: &[Played]) -> String {
    let Some(last) = moves.last() else {
        return String::new();
    };
    let row = rows(moves.iter().map(|m| m.by_p1)).pop();
    let dots = if last.by_p1 { "." } else { "..." };
    format!("{}{dots} {}", row.map_or(0, |r| r.num), last.label())
}

/// The moves of the game for one line of the terminal: the latest turns, numbered, with `…` for
/// those left out.
pub fn recent_moves(moves: &[Played]) -> String {
    let head = "Moves:";
    let slot = |s: Slot| match s {
        Slot::Move(i) => format!(" {}", moves[i].label()),
        Slot::Gap => " …".to_string(),
        Slot::Later => String::new(),
    };
    let all = rows(moves.iter().map(|m| m.by_p1));
    let mut kept: Vec<String> = Vec::new();
    let mut width = head.len();
    for (i, row) in all.iter().enumerate().rev() {
        let item = format!(" {}.{}{}", row.num, slot(row.p1), slot(row.p2));
        // Room for the row and, if earlier rows are left out, for " …".
        let more = if i > 0 { 2 } else { 0 };
        if width + item.chars().count() + more > COLUMNS {
            kept.push(" …".to_string());
            break;
        }
        width += item.chars().count();
        kept.push(item);
    }
    kept.reverse();
    format!("{head}{}", kept.concat())
}

#[cfg(test)]
mod tests {
    use super::*;

    fn played(moves: &[(&str, bool)]) -> Vec<Played> {
        moves
            .iter()
            .map(|&(text, by_p1)| Played {
                text: text.to_string(),
                shown: text.replace('-', "×"),
                by_p1,
                fen_before: String::new(),
            })
            .collect()
    }

    #[test]
    fn moves_are_numbered_by_turn_as_on_the_web() {
        let few = played(&[("c3", true), ("b4-c4", false), ("d2", true)]);
        assert_eq!(recent_moves(&few), "Moves: 1. c3 b4×c4 2. d2");
        assert_eq!(last_numbered(&few), "2. d2");
        assert_eq!(last_numbered(&few[..2]), "1... b4×c4");
        assert_eq!(last_numbered(&[]), "");
        // Player two moves twice (player one passed or is out), then player one again.
        let twice = played(&[("a", true), ("b", false), ("c", false), ("d", true)]);
        assert_eq!(recent_moves(&twice), "Moves: 1. a b 2. … c 3. d");
        assert_eq!(last_numbered(&twice[..3]), "2... c");
        // Player one moves twice: player two's turn between is a gap.
        let again = played(&[("a", true), ("b", true)]);
        assert_eq!(recent_moves(&again), "Moves: 1. a … 2. b");
    }

    #[test]
    fn recent_moves_fit_one_line_of_the_terminal() {
        let many: Vec<(String, bool)> = (0..100)
            .map(|i| (format!("e{}-e{}", i % 20, i % 7), i % 2 == 0))
            .collect();
        let many: Vec<(&str, bool)> = many.iter().map(|(m, p)| (m.as_str(), *p)).collect();
        let line = recent_moves(&played(&many));
        assert!(line.chars().count() <= COLUMNS, "{line}");
        assert!(line.starts_with("Moves: … "), "{line}");
        assert!(line.ends_with(" 50. e18×e0 e19×e1"), "{line}");
        assert!(
            line.chars().count() > COLUMNS - 20,
            "the line is used: {line}"
        );
    }
}
