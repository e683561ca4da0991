//! The side panel of the Isaac drawing: the phase, the side to move or the result, and per player
//! the score, floor, hand and pass state; a note says which frame the cell numbers are in.

use super::Svg;
use super::isaac::{EDGE, PANEL_W, PANEL_X, name, seat};
use crate::game::isaac::tables::SIZES;
use crate::game::isaac::{Isaac, Phase};
use crate::game::{Game, Outcome, Player};

/// The side panel: phase, side to move or result, and per player score, floor, hand and
/// pass state; `flipped` when the board is seen from Light's side.
pub(super) fn draw_panel(svg: &mut Svg, pos: &Isaac, h: f64, flipped: bool) {
    let x = PANEL_X;
    svg.open_group("panel-group");
    svg.rect((x, EDGE, PANEL_W, h - 2.0 * EDGE), "panel", &[("rx", "8")]);
    let left = x + 14.0;
    let phase = match pos.phase() {
        Phase::Placement => "Placement phase",
        Phase::Scoring => "Scoring phase",
        Phase::Ended => "Game over",
    };
    svg.text((left, EDGE + 30.0), "panel-title", phase, &[]);
    let (d, l) = (pos.score(Player::One), pos.score(Player::Two));
    let state = match pos.outcome() {
        None => format!("{} to move", name(pos.side_to_move())),
        Some(Outcome::Win(p)) => format!(
            "{} wins {}–{}",
            name(p),
            pos.score(p),
            pos.score(p.opponent())
        ),
        Some(Outcome::Draw) => format!("Draw {d}–{l}"),
    };
    svg.text((left, EDGE + 56.0), "panel-text status", &state, &[]);

    let mut y = EDGE + 92.0;
    for p in [Player::One, Player::Two] {
        let s = seat(p);
        svg.rect(
            (left, y - 14.0, 18.0, 18.0),
            &format!("swatch {s}"),
            &[("rx", "3")],
        );
        svg.text((left + 26.0, y), "player-name", name(p), &[]);
        if pos.has_passed(p) {
            let tag = if pos.phase() == Phase::Placement {
                "passed"
            } else {
                "out"
            };
            svg.text((left + 90.0, y), &format!("tag {s}"), tag, &[]);
        }
        y += 24.0;
        let line = if pos.phase() == Phase::Placement {
            "score 0 · floor 0".to_string()
        } else {
            let counter = match pos.counter_cell(p) {
                Some(c) => format!(" (cell {c:02})"),
                None => " (off the board)".to_string(),
            };
            format!("score {}{counter} · floor {}", pos.score(p), pos.floor(p))
        };
        svg.text((left, y), &format!("panel-text score {s}"), &line, &[]);
        y += 24.0;
        svg.text((left, y), "panel-small", "unplaced tiles by size", &[]);
        y += 20.0;
        let hand = pos.hand(p);
        for (k, (&size, &n)) in SIZES.iter().zip(hand.iter()).enumerate() {
            let cx = left + 18.0 + k as f64 * 40.0;
            svg.text((cx, y), "hand-head", &format!("{size}"), &[]);
            let extra = [("data-size", &size.to_string()[..])];
            svg.text(
                (cx, y + 18.0),
                &format!("hand {s}"),
                &format!("×{n}"),
                &extra,
            );
        }
        y += 36.0;
        let cells = format!(
            "{} tiles, {} cells in hand",
            pos.unplaced_tiles(p),
            pos.unplaced_cells(p)
        );
        svg.text((left, y), "panel-small", &cells, &[]);
        y += 42.0;
    }
    let notes = if flipped {
        [
            "Seen from Light. Cell numbers: Light",
            "frame (99 − n) top-left, Dark bottom-right.",
            "Tile values: 3→1 4→2 5→3 6→4 7→6.",
        ]
    } else {
        [
            "Cell numbers: Dark frame top-left,",
            "Light frame (99 − n) bottom-right.",
            "Tile values: 3→1 4→2 5→3 6→4 7→6.",
        ]
    };
    for note in notes {
        svg.text((left, y), "panel-small", note, &[]);
        y += 17.0;
    }
    svg.close_group();
}
