//! What a move did and what the position threatens, read from the positions before and after
//! the move (both as the engine reported them with `query fen`), never from the engine's
//! internals: Tactigon captures, the pieces each side has lost and a pending gold pair
//! (docs/rules/tactigon.md §5.2); Sight piles that grew (docs/rules/sight.md §3.2, §3.3.3) and
//! stacks shut in (§3.3.1); Isaac points won by a removal (docs/rules/isaac.md §4). The board
//! drawings ([`crate::gui::svg`]) mark these, and the web GUI's move list, trays and warning
//! line say them.

use crate::game::dynamic::option_values;
use crate::game::isaac::Isaac;
use crate::game::sight::Sight;
use crate::game::sight::geometry::Geometry;
use crate::game::tactigon::board::{CELLS, board, cell_name};
use crate::game::tactigon::{CIRCLE, PENTAGON, SQUARE, TRIANGLE, Tactigon};
use crate::game::{Game, GameId, Player};
use crate::gui::seat_names;

/// Tactigon's piece kinds by index, as the rules name them.
pub const KINDS: [&str; 4] = ["circle", "triangle", "square", "pentagon"];

/// Tactigon: the cells where the side that moved in `before` removed an enemy piece (the
/// defender taken, or both removed), in cell order.
pub fn tactigon_captures(before: &Tactigon, after: &Tactigon) -> Vec<usize> {
    let enemy = before.side_to_move().opponent().index();
    (0..CELLS)
        .filter(|&cell| {
            let was = before.piece_at(cell);
            was.is_some_and(|(side, _)| side == enemy) && after.piece_at(cell) != was
        })
        .collect()
}

/// Tactigon: the player whose pieces stand on both gold tiles, if any.
pub fn tactigon_gold_holder(pos: &Tactigon) -> Option<Player> {
    let gold = board().gold;
    [Player::One, Player::Two]
        .into_iter()
        .find(|p| pos.occupied_by(p.index()) & gold == gold)
}

/// Tactigon: the kinds (indices into [`KINDS`]) each side has lost between `start` and `now`,
/// player one's first, weakest first.
pub fn tactigon_lost(start: &Tactigon, now: &Tactigon) -> [Vec<usize>; 2] {
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

/// Sight: the piles that grew between `before` and `after`, with how much (a new piece is not
/// a pile that grew), in point order.
pub fn sight_grown(before: &Sight, after: &Sight) -> Vec<(usize, u8)> {
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

/// Sight: the stacks (height 2 or more) of either side with no empty neighbour, which cannot
/// move, in point order.
pub fn sight_stuck(pos: &Sight) -> Vec<usize> {
    let geo: &Geometry = pos.geometry();
    let empty = pos.empty_points();
    (0..geo.points)
        .filter(|&p| pos.pile(p).is_some_and(|(_, h)| h >= 2) && geo.neighbours[p] & empty == 0)
        .collect()
}

/// Isaac: the player whose score rose between `before` and `after`, and by how much.
pub fn isaac_gain(before: &Isaac, after: &Isaac) -> Option<(Player, u8)> {
    [Player::One, Player::Two].into_iter().find_map(|p| {
        let gain = after.score(p).saturating_sub(before.score(p));
        (gain > 0).then_some((p, gain))
    })
}

/// A position of `G` read with the rule options `options`.
fn read<G: Game>(game: GameId, fen: &str, options: &[(String, String)]) -> Option<G> {
    let values = option_values(game, options).ok()?;
    G::from_fen(fen, &G::settings(&values)).ok()
}

/// The move `mv`, played from `before` to `after`, as the move list shows it: a Tactigon
/// capture with `×` (`c11×d16`), a Sight move in its long form with the piles that grew
/// (`b4-c3+d3+d4`, docs/rules/sight.md §8.2); otherwise, or if a position cannot be read, as
/// played.
pub fn move_text(
    game: GameId,
    options: &[(String, String)],
    before: &str,
    mv: &str,
    after: &str,
) -> String {
    match game {
        GameId::Tactigon => {
            let (Some(b), Some(a)) = (
                read::<Tactigon>(game, before, options),
                read::<Tactigon>(game, after, options),
            ) else {
                return mv.to_string();
            };
            if tactigon_captures(&b, &a).is_empty() {
                mv.to_string()
            } else {
                mv.replacen('-', "×", 1)
            }
        }
        GameId::Sight => {
            let (Some(b), Some(a)) = (
                read::<Sight>(game, before, options),
                read::<Sight>(game, after, options),
            ) else {
                return mv.to_string();
            };
            let base = mv.split('+').next().unwrap_or(mv);
            let geo = a.geometry();
            sight_grown(&b, &a)
                .into_iter()
                .fold(base.to_string(), |text, (p, _)| {
                    format!("{text}+{}", geo.square_name(p))
                })
        }
        GameId::Isaac => mv.to_string(),
    }
}

/// Tactigon: the pieces each side has lost since `start`, by kind name (player one's first);
/// `None` for the other games or a position that cannot be read.
pub fn lost_pieces(
    game: GameId,
    options: &[(String, String)],
    start: &str,
    now: &str,
) -> Option<[Vec<&'static str>; 2]> {
    if game != GameId::Tactigon {
        return None;
    }
    let start = read::<Tactigon>(game, start, options)?;
    let now = read::<Tactigon>(game, now, options)?;
    Some(tactigon_lost(&start, &now).map(|kinds| kinds.into_iter().map(|k| KINDS[k]).collect()))
}

/// A warning about the position for the side to move, if any: in Tactigon, that the opponent
/// holds both gold tiles and wins unless the pair is broken now (docs/rules/tactigon.md §5.2).
pub fn alert(game: GameId, options: &[(String, String)], fen: &str) -> Option<String> {
    if game != GameId::Tactigon {
        return None;
    }
    let pos = read::<Tactigon>(game, fen, options)?;
    if pos.outcome().is_some() {
        return None;
    }
    let holder = tactigon_gold_holder(&pos)?;
    let names = seat_names(game);
    let (them, us) = (names[holder.index()], names[holder.opponent().index()]);
    let cells: Vec<String> = crate::game::tactigon::bits(board().gold)
        .map(cell_name)
        .collect();
    Some(format!(
        "{them} holds both gold tiles ({}): {us} must break the pair or take the pentagon \
         this move, or lose",
        cells.join(" and ")
    ))
}

#[cfg(test)]
mod tests {
    use super::*;

    fn none() -> Vec<(String, String)> {
        Vec::new()
    }

    #[test]
    fn tactigon_captures_show_in_the_move_text() {
        // TV5: the circle takes the square (D).
        let before = "2/9/10/2P2Cs1p2/10/9/2 r 0";
        let after = "2/9/10/2P3C1p2/10/9/2 b 1";
        let text = move_text(GameId::Tactigon, &none(), before, "d10-d12", after);
        assert_eq!(text, "d10×d12");
        // TV6: triangle × circle removes both.
        let text = move_text(
            GameId::Tactigon,
            &none(),
            "2/9/4Tc4/2P5p2/10/9/2 r 0",
            "c9-c11",
            "2/9/10/2P5p2/10/9/2 b 1",
        );
        assert_eq!(text, "c9×c11");
        // A quiet move (TV4).
        let text = move_text(
            GameId::Tactigon,
            &none(),
            "2/C1C3c1c/1ST4ts1/CTPSC1csptc/1ST4ts1/C1C3c1c/2 r 0",
            "d6-c13",
            "2/C1C3c1c/1ST3Sts1/CTP1C1csptc/1ST4ts1/C1C3c1c/2 b 1",
        );
        assert_eq!(text, "d6-c13");
    }

    #[test]
    fn tactigon_lost_pieces_and_the_gold_alert() {
        let start = "2/C1C3c1c/1ST4ts1/CTPSC1csptc/1ST4ts1/C1C3c1c/2 r 0";
        // TV19's end: Blue lost its pentagon, Red nothing.
        let end = "2/C1C2sc1c/1ST4ts1/CTP1C1c1Stc/1ST4ts1/C1C3c1c/2 b 3";
        let lost = lost_pieces(GameId::Tactigon, &none(), start, end);
        assert_eq!(lost, Some([vec![], vec!["pentagon"]]));
        assert_eq!(lost_pieces(GameId::Sight, &none(), "", ""), None);
        // TV13 after e9-f10: Red holds both gold tiles, Blue to move.
        let fen = "2/4C4/10/2P5p1c/10/4C4/2 b 1";
        assert_eq!(
            alert(GameId::Tactigon, &none(), fen).as_deref(),
            Some(
                "Red holds both gold tiles (b10 and f10): Blue must break the pair or take \
                 the pentagon this move, or lose"
            )
        );
        // TV15: the holder is to move, the game is over: nothing to warn about.
        assert_eq!(
            alert(GameId::Tactigon, &none(), "2/4C4/10/2P5p2/10/4C1t2/2 r 0"),
            None
        );
        assert_eq!(alert(GameId::Tactigon, &none(), start), None);
    }

    #[test]
    fn sight_growth_and_stuck_stacks() {
        // docs/rules/sight.md, "A turn": White's d4 grows b4 and d3.
        let before = "5:x5/x,w,x3/b,x2,w,x/x4,b/x5 w";
        let after = "5:x5/x,w2,x,w,x/b,x2,w2,x/x4,b/x5 b";
        let text = move_text(GameId::Sight, &none(), before, "d4", after);
        assert_eq!(text, "d4+d3+b4");
        let opts = option_values(GameId::Sight, &none()).unwrap_or_default();
        let settings = Sight::settings(&opts);
        let pos = |f: &str| Sight::from_fen(f, &settings).map_err(|e| e.0);
        let grown = sight_grown(&pos(before).unwrap_or_else(|e| panic!("{e}")), &{
            pos(after).unwrap_or_else(|e| panic!("{e}"))
        });
        assert_eq!(grown.len(), 2);
        // TV12: White's w2 on a1 is shut in (a2, b1, b2 taken); Black's b2 on a2 is not (a3).
        let end = pos("5:x5/x5/x5/b2,b,x3/w2,w,x3 w").unwrap_or_else(|e| panic!("{e}"));
        let names: Vec<String> = sight_stuck(&end)
            .into_iter()
            .map(|p| end.geometry().square_name(p))
            .collect();
        assert_eq!(names, ["a1"]);
    }

    #[test]
    fn isaac_gain_of_a_removal() {
        let opts = option_values(GameId::Isaac, &none()).unwrap_or_default();
        let settings = Isaac::settings(&opts);
        let pos = |f: &str| Isaac::from_fen(f, &settings).unwrap_or_else(|e| panic!("{}", e.0));
        // TV4: Dark removes 4h23 for 24 and advances 24 (28 → 52).
        let before = pos("L3v07,L3v09,L3h20,D4h23,D3v31,D5h60,D3h70 00000/00000 d S - 28/79 3/0");
        let after = pos("L3v07,L3v09,L3h20,D3v31,D5h60,D3h70 00000/00000 l S - 52/79 4/0");
        assert_eq!(isaac_gain(&before, &after), Some((Player::One, 24)));
        assert_eq!(isaac_gain(&after, &after), None);
    }
}
