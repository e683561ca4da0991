//! Tactigon drawn as its 53-cell hex board (docs/rules/tactigon.md §1), turned as in the official
//! diagram (docs/rules/tactigon.md §1.6): flat-topped hexes, Red's start area at the bottom, Blue's
//! at the top, the rows `a`…`g` as the seven vertical files from left to right and the doubled
//! column `c` growing upwards; flipped, the board is turned half round (Blue below, `g`…`a`).
//! For a wide screen the board can also lie on its side ([`Scene::landscape`]): turned a quarter
//! round clockwise, Red's start area on the left (flipped: Blue's), the files `a`…`g` as rows
//! from the top and pointy-topped hexes, so that it fills a window wider than it is tall.
//! Every cell is labelled with its name (`d4`, `b10`, …) above its piece; the two gold tiles are
//! yellow; the start areas are tinted in their owner's colour. Pieces are drawn as their
//! shapes, upright either way: circle, triangle, square and pentagon. The last move's cells are
//! highlighted under the pieces, a capture carries a `×` badge at the cell's right, clear of its
//! name, and a gold pair that wins unless broken is ringed.

use super::overlay::{arrow_defs, arrow_layer, badge, legal_dot};
use super::{Draw, Scene, Svg, regular_polygon};
use crate::game::tactigon::board::{CELLS, board, cell_name, parse_cell};
use crate::game::tactigon::present::{KINDS, captures, gold_holder};
use crate::game::tactigon::{CIRCLE, PENTAGON, SQUARE, TRIANGLE, Tactigon, bits};
use crate::game::{Game, Outcome, Player};

/// Hex radius (centre to corner).
const HEX: f64 = 40.0;
/// Distance from the left edge to the centres of the leftmost file (`a`).
const MARGIN: f64 = 52.0;
/// Room above the topmost hex.
const TOP: f64 = 16.0;
/// Height of the status line under the board.
const STATUS: f64 = 34.0;
/// The largest doubled column.
const MAX_COL: f64 = 20.0;
/// Room below the lowest hex of the upright board, above the status line.
const BOTTOM: f64 = 12.0;
/// The radius of the `×` badge of a capture.
const BADGE: f64 = 11.0;

const CSS: &str = "\
:where({B} .bg){fill:#f4f1ea}
:where({B} .hex){stroke:#6b6b6b;stroke-width:2}
:where({B} .hex.red){fill:#f3d2cc}
:where({B} .hex.blue){fill:#cfdcf3}
:where({B} .hex.mid){fill:#d9eef2}
:where({B} .hex.gold){fill:#f2c530;stroke:#a97c00;stroke-width:3}
:where({B} .name){font-size:16px;fill:#444;text-anchor:middle}
:where({B} .piece){stroke-width:2.5;stroke-linejoin:round}
:where({B} .piece.p1){fill:#d0342c;stroke:#6e0f0a}
:where({B} .piece.p2){fill:#2f6fd6;stroke:#0c2e66}
:where({B} .status){text-anchor:middle}
";

/// The screen centre of the cell at row `r` (0 = `a`) and doubled column `c` on the upright
/// board, seen from Red's side (or, flipped, from Blue's: the board turned half round).
fn centre(r: u8, c: u8, flipped: bool) -> (f64, f64) {
    let (r, c) = if flipped { (6 - r, 20 - c) } else { (r, c) };
    let dy = HEX * 3f64.sqrt() / 2.0;
    (
        MARGIN + r as f64 * HEX * 1.5,
        TOP + dy + (MAX_COL - c as f64) * dy,
    )
}

/// The width and height of the upright board (the status line not included).
fn upright_size() -> (f64, f64) {
    let (right, _) = centre(6, 0, false);
    // The lowest hex (`d0`) ends one half-height below its centre.
    let (_, bottom) = centre(3, 0, false);
    (right + MARGIN, bottom + HEX * 3f64.sqrt() / 2.0 + BOTTOM)
}

/// How the board lies in the picture: upright (the official diagram's way) or on its side,
/// and seen from which side.
#[derive(Clone, Copy, Debug)]
struct Frame {
    /// Seen from Blue's side.
    flipped: bool,
    /// On its side: the upright board turned a quarter round clockwise (Red on the left).
    landscape: bool,
}

impl Frame {
    /// The screen centre of `cell`.
    fn cell(self, cell: usize) -> (f64, f64) {
        let (r, c) = board().coords[cell];
        let (x, y) = centre(r, c, self.flipped);
        if self.landscape {
            (upright_size().1 - y, x)
        } else {
            (x, y)
        }
    }

    /// A hexagon of radius `radius` round `(cx, cy)`: flat-topped upright, pointy-topped on its
    /// side.
    fn hex(self, (cx, cy): (f64, f64), radius: f64) -> Vec<(f64, f64)> {
        let start = if self.landscape { 30.0 } else { 0.0 };
        regular_polygon(cx, cy, radius, 6, start)
    }

    /// The picture's width and height, the status line included.
    fn size(self) -> (f64, f64) {
        let (w, h) = upright_size();
        if self.landscape {
            (h, w + STATUS)
        } else {
            (w, h + STATUS)
        }
    }
}

/// Where a cell's name is written (above its piece), from the cell's centre: pointy-topped
/// hexes narrow towards the top, so the name sits a little lower on a board on its side.
fn name_at(frame: Frame, (cx, cy): (f64, f64)) -> (f64, f64) {
    let up = if frame.landscape { 0.45 } else { 0.5 };
    (cx, cy - HEX * up)
}

/// Where a capture's `×` badge goes, from the cell's centre: at the cell's right, level with
/// the piece, below the name and inside the hexagon both ways the board lies.
fn badge_at((cx, cy): (f64, f64)) -> (f64, f64) {
    (cx + HEX * 0.56, cy + HEX * 0.1)
}

/// The start area a cell belongs to (within hex distance 2 of a pentagon's start cell, rules
/// §1.1): `red`, `blue` or `mid`.
fn region(r: u8, c: u8) -> &'static str {
    let distance = |r2: u8, c2: u8| {
        let dr = r.abs_diff(r2) as u32;
        let dc = c.abs_diff(c2) as u32;
        dr + dc.saturating_sub(dr) / 2
    };
    if distance(3, 4) <= 2 {
        "red"
    } else if distance(3, 16) <= 2 {
        "blue"
    } else {
        "mid"
    }
}

impl Draw for Tactigon {
    const LANDSCAPE: bool = true;

    fn draw(&self, scene: &Scene<Tactigon>) -> String {
        draw(self, scene)
    }
}

/// The drawing of a Tactigon position.
fn draw(pos: &Tactigon, scene: &Scene<Tactigon>) -> String {
    let b = board();
    let frame = Frame {
        flipped: scene.flipped,
        landscape: scene.landscape,
    };
    let (w, h) = frame.size();
    let mut svg = Svg::new("tactigon", w, h, CSS);
    arrow_defs(&mut svg);
    svg.rect((0.0, 0.0, w, h), "bg", &[]);

    svg.open_group("hexes");
    for cell in 0..CELLS {
        let (r, c) = b.coords[cell];
        let class = if b.gold >> cell & 1 == 1 {
            "hex gold".to_string()
        } else {
            format!("hex {}", region(r, c))
        };
        svg.polygon(&frame.hex(frame.cell(cell), HEX - 1.5), &class, &[]);
    }
    svg.close_group();

    svg.open_group("spots");
    for cell in 0..CELLS {
        let name = cell_name(cell);
        let hex = frame.hex(frame.cell(cell), HEX - 3.0);
        svg.polygon(&hex, "spot", &[("data-spot", &name)]);
    }
    svg.close_group();

    svg.open_group("last-move");
    if let Some((from, to)) = scene.mv.split_once('-') {
        for (name, class) in [(from, "last from"), (to, "last to")] {
            if let Some(cell) = parse_cell(name) {
                let hex = frame.hex(frame.cell(cell), HEX - 3.0);
                svg.polygon(&hex, class, &[("data-last", name)]);
            }
        }
    }
    svg.close_group();

    svg.open_group("names");
    for cell in 0..CELLS {
        let name = cell_name(cell);
        let at = name_at(frame, frame.cell(cell));
        svg.text(at, "name", &name, &[("data-name", &name)]);
    }
    svg.close_group();

    svg.open_group("pieces");
    for cell in 0..CELLS {
        let Some((side, kind)) = pos.piece_at(cell) else {
            continue;
        };
        let (cx, cy) = frame.cell(cell);
        let cy = cy + HEX * 0.1;
        let class = if side == 0 { "piece p1" } else { "piece p2" };
        let name = cell_name(cell);
        let extra = [("data-at", name.as_str()), ("data-piece", KINDS[kind])];
        match kind {
            CIRCLE => svg.circle(cx, cy, HEX * 0.42, class, &extra),
            TRIANGLE => svg.polygon(
                &regular_polygon(cx, cy + HEX * 0.08, HEX * 0.56, 3, -90.0),
                class,
                &extra,
            ),
            SQUARE => svg.polygon(&regular_polygon(cx, cy, HEX * 0.55, 4, 45.0), class, &extra),
            PENTAGON => svg.polygon(
                &regular_polygon(cx, cy + HEX * 0.03, HEX * 0.5, 5, -90.0),
                class,
                &extra,
            ),
            _ => {}
        }
    }
    svg.close_group();

    svg.open_group("happened");
    let holder = gold_holder(pos).filter(|_| pos.outcome().is_none());
    if let Some(holder) = holder {
        let side = if holder == Player::One { "p1" } else { "p2" };
        for cell in bits(b.gold) {
            let name = cell_name(cell);
            let hex = frame.hex(frame.cell(cell), HEX + 1.0);
            svg.polygon(
                &hex,
                "gold-alert",
                &[("data-gold", &name), ("data-holder", side)],
            );
        }
    }
    if let Some(before) = &scene.before {
        for cell in captures(before, pos) {
            let at = badge_at(frame.cell(cell));
            badge(&mut svg, at, BADGE, "capture", "×", &cell_name(cell));
        }
    }
    svg.close_group();

    svg.open_group("dots");
    for cell in 0..CELLS {
        let name = cell_name(cell);
        let occupied = pos.piece_at(cell).is_some();
        legal_dot(
            &mut svg,
            frame.cell(cell),
            &name,
            occupied,
            (HEX * 0.17, HEX * 0.7),
        );
    }
    svg.close_group();
    arrow_layer(&mut svg);

    svg.open_group("cells");
    for cell in 0..CELLS {
        let name = cell_name(cell);
        svg.polygon(
            &frame.hex(frame.cell(cell), HEX),
            "cell",
            &[("data-cell", &name)],
        );
    }
    svg.close_group();

    let (text, class) = match holder {
        Some(p) => (
            format!("{} · {} holds both gold tiles!", status(pos), name(p)),
            "status alert",
        ),
        None => (status(pos), "status"),
    };
    svg.text((w / 2.0, h - STATUS * 0.6), class, &text, &[]);
    svg.finish()
}

/// A player's colour name.
fn name(p: Player) -> &'static str {
    if p == Player::One { "Red" } else { "Blue" }
}

/// One line about the game's state: who moves, or who won and how.
fn status(pos: &Tactigon) -> String {
    match pos.outcome() {
        None => format!("{} to move · ply {}", name(pos.side_to_move()), pos.ply()),
        Some(Outcome::Draw) => format!("Draw · ply {}", pos.ply()),
        Some(Outcome::Win(p)) => {
            let loser = p.opponent().index();
            let reason = if pos.pieces(loser, PENTAGON) == 0 {
                "pentagon captured"
            } else if gold_holder(pos) == Some(p) {
                "both gold tiles held"
            } else {
                "no legal move"
            };
            format!("{} wins: {reason}", name(p))
        }
    }
}

#[cfg(test)]
mod tests {
    use super::super::{board_svg, count};
    use crate::game::tactigon::{Tactigon, TactigonRules};
    use crate::game::{Game, GameId};

    fn draw(fen: &str) -> Result<String, String> {
        board_svg(GameId::Tactigon, fen, &[])
    }

    const START: &str = "2/C1C3c1c/1ST4ts1/CTPSC1csptc/1ST4ts1/C1C3c1c/2 r 0";

    #[test]
    fn start_position_cells_pieces_and_gold() -> Result<(), String> {
        let svg = draw(START)?;
        assert_eq!(count(&svg, "class=\"cell\""), 53);
        for name in ["a9", "a11", "d0", "d4", "d16", "d20", "b10", "f10", "g11"] {
            assert_eq!(count(&svg, &format!("data-cell=\"{name}\"")), 1, "{name}");
        }
        assert_eq!(count(&svg, "data-cell=\"b3\""), 0);
        assert_eq!(count(&svg, "class=\"piece p1\""), 13);
        assert_eq!(count(&svg, "class=\"piece p2\""), 13);
        assert_eq!(count(&svg, "class=\"hex gold\""), 2);
        assert_eq!(count(&svg, "class=\"hex red\""), 19);
        assert_eq!(count(&svg, "class=\"hex blue\""), 19);
        assert_eq!(count(&svg, "class=\"hex mid\""), 13);
        assert_eq!(count(&svg, "class=\"name\""), 53);
        assert!(svg.contains(">b10</text>"));
        assert_eq!(count(&svg, "data-piece=\"circle\""), 12);
        assert_eq!(count(&svg, "data-piece=\"triangle\""), 6);
        assert_eq!(count(&svg, "data-piece=\"square\""), 6);
        assert_eq!(count(&svg, "data-piece=\"pentagon\""), 2);
        assert!(svg.contains("data-at=\"d4\" data-piece=\"pentagon\""));
        assert!(svg.contains("data-at=\"d16\" data-piece=\"pentagon\""));
        assert!(svg.contains("Red to move · ply 0"));
        Ok(())
    }

    #[test]
    fn red_is_at_the_bottom() {
        let (_, red) = super::centre(3, 4, false);
        let (_, blue) = super::centre(3, 16, false);
        assert!(red > blue);
        let (left, _) = super::centre(0, 9, false);
        let (right, _) = super::centre(6, 9, false);
        assert!(left < right);
        // Flipped: Blue below, `g` on the left.
        assert!(super::centre(3, 4, true).1 < super::centre(3, 16, true).1);
        assert!(super::centre(0, 9, true).0 > super::centre(6, 9, true).0);
    }

    #[test]
    fn mid_game_position() -> Result<(), String> {
        // TV19 after `d6-c11 d14-b12`: Red 13 pieces, Blue 13, Red to move at ply 2.
        let svg = draw("2/C1C2sc1c/1ST2S1ts1/CTP1C1c1ptc/1ST4ts1/C1C3c1c/2 r 2")?;
        assert_eq!(count(&svg, "class=\"cell\""), 53);
        assert_eq!(count(&svg, "class=\"piece p1\""), 13);
        assert_eq!(count(&svg, "class=\"piece p2\""), 13);
        assert!(svg.contains("data-at=\"c11\" data-piece=\"square\""));
        assert!(svg.contains("data-at=\"b12\" data-piece=\"square\""));
        assert!(!svg.contains("data-at=\"d6\""));
        assert!(svg.contains("Red to move · ply 2"));
        // TV19's end: the Red square took the Blue pentagon.
        let svg = draw("2/C1C2sc1c/1ST4ts1/CTP1C1c1Stc/1ST4ts1/C1C3c1c/2 b 3")?;
        assert_eq!(count(&svg, "class=\"piece p2\""), 12);
        assert_eq!(count(&svg, "data-piece=\"pentagon\""), 1);
        assert!(svg.contains("Red wins: pentagon captured"));
        Ok(())
    }

    #[test]
    fn gold_win_and_gold_tiles_under_pieces() -> Result<(), String> {
        // TV15: Red holds both gold tiles with Red to move: Red has won.
        let svg = draw("2/4C4/10/2P5p2/10/4C1t2/2 r 0")?;
        assert_eq!(count(&svg, "class=\"hex gold\""), 2);
        assert!(svg.contains("data-at=\"b10\" data-piece=\"circle\""));
        assert!(svg.contains("data-at=\"f10\" data-piece=\"circle\""));
        assert!(svg.contains("Red wins: both gold tiles held"));
        Ok(())
    }

    #[test]
    fn bad_fen_gives_the_parser_message() {
        let err = draw("2/C1C3c1c/1ST4ts1 r 0");
        assert!(err.is_err());
        let parser = Tactigon::from_fen("2/C1C3c1c/1ST4ts1 r 0", &TactigonRules::default());
        assert_eq!(err.err(), parser.err().map(|e| e.0));
    }
}
