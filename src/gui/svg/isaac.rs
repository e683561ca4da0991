//! Isaac drawn as its 10×10 grid seen from Dark's seat (docs/rules/isaac.md §1): Dark-frame row 0
//! at the bottom, column 0 on the left; flipped, from Light's seat (Light's frame: Dark's cell
//! 99 at the bottom left). Both coordinate frames are shown: the near player's on the bottom
//! (units) and left (tens) edges and in each cell's top-left corner, the far player's (99 − n)
//! on the top and right edges and in each cell's bottom-right corner. Each tile is one
//! rectangle over its cells with its size written on it; the score counters are markers on
//! their cells. The last tile placed is outlined, the place of the last tile removed is shaded
//! and outlined dashed, and the points it won show as a badge on its owner's counter. The
//! drawing is the board alone, so that it fills a phone's width: the phase, the scores, floors
//! and hands are in the web page's panel (`isaac` in its state, `src/gui/web/isaac.rs`).
//! Every text is at least 16 units high: at the 34-pixel cells of a phone (0.71 pixel per
//! unit) that is 11 pixels.

use super::overlay::{arrow_defs, arrow_layer, badge, legal_dot, outline};
use super::{Draw, Scene, Svg};
use crate::game::Player;
use crate::game::isaac::present::{gain, tile_code};
use crate::game::isaac::{Isaac, Phase, Tile};
use serde_json::Value;

/// Side of one cell.
const CELL: f64 = 48.0;
/// Room on each side of the grid for the edge coordinates.
const EDGE: f64 = 26.0;
/// Gap between a tile's border and its cells' borders.
const INSET: f64 = 3.5;
/// The radius of the badge of the points a removal won.
const BADGE: f64 = 14.0;

const CSS: &str = "\
:where({B} .bg){fill:#f6f2e8}
:where({B} .grid){fill:#d8c39a;stroke:#7a6440;stroke-width:2}
:where({B} .gridline){stroke:#7a6440;stroke-width:1}
:where({B} .coord){font-size:16px;text-anchor:middle;dominant-baseline:central}
:where({B} .coord.d,{B} .num.d){fill:#1d1d1d;font-weight:bold}
:where({B} .coord.l,{B} .num.l){fill:#8c5a12;font-style:italic}
:where({B} .num){font-size:16px;font-weight:normal;opacity:.8}
:where({B} .num.on-dark){fill:#d8d8d8}
:where({B} .num.l.on-dark){fill:#f0c27a}
:where({B} .tile){stroke-width:2}
:where({B} .tile.d){fill:#343434;stroke:#000}
:where({B} .tile.l){fill:#fbf8f0;stroke:#6d6d6d}
:where({B} .tile-size){font-size:22px;font-weight:bold;text-anchor:middle;dominant-baseline:central}
:where({B} .tile-size.d){fill:#fafafa}
:where({B} .tile-size.l){fill:#222}
:where({B} .counter){stroke:#d4a017;stroke-width:4}
:where({B} .counter.d){fill:#000}
:where({B} .counter.l){fill:#fff}
:where({B} .counter-label){font-size:16px;font-weight:bold;text-anchor:middle;dominant-baseline:central}
:where({B} .counter-label.d){fill:#fff}
:where({B} .counter-label.l){fill:#000}
";

/// The top-left corner on screen of Dark-frame cell `i`, seen from Dark's seat or, flipped,
/// from Light's (where Dark's cell `i` is at Light's `99 − i`).
fn corner(i: usize, flipped: bool) -> (f64, f64) {
    let i = if flipped { 99 - i } else { i };
    let (r, c) = (i / 10, i % 10);
    (EDGE + c as f64 * CELL, EDGE + (9 - r) as f64 * CELL)
}

/// The class suffix of an owner: `d` for Dark, `l` for Light.
fn seat(p: Player) -> &'static str {
    match p {
        Player::One => "d",
        Player::Two => "l",
    }
}

/// The cells of a tile `<S><h|v><AA>` (`x` and `+<k>` around it are ignored), if it fits.
fn code_cells(mv: &str) -> Option<Vec<usize>> {
    let code = mv.strip_prefix('x').unwrap_or(mv);
    let code = code.split('+').next()?;
    let bytes = code.as_bytes();
    if bytes.len() != 4 {
        return None;
    }
    let size = match bytes[0] {
        b @ b'3'..=b'7' => usize::from(b - b'0'),
        _ => return None,
    };
    let step = match bytes[1] {
        b'h' => 1,
        b'v' => 10,
        _ => return None,
    };
    let anchor: usize = code.get(2..)?.parse().ok()?;
    let cells: Vec<usize> = (0..size).map(|k| anchor + k * step).collect();
    let fits = cells.iter().all(|&c| c < 100) && (step == 10 || anchor % 10 + size <= 10);
    fits.then_some(cells)
}

/// The screen rectangle (x, y, width, height) covering `cells`.
fn cells_rect(cells: &[usize], flipped: bool) -> (f64, f64, f64, f64) {
    let corners: Vec<(f64, f64)> = cells.iter().map(|&c| corner(c, flipped)).collect();
    let x0 = corners.iter().map(|p| p.0).fold(f64::INFINITY, f64::min);
    let y0 = corners.iter().map(|p| p.1).fold(f64::INFINITY, f64::min);
    let x1 = corners
        .iter()
        .map(|p| p.0)
        .fold(f64::NEG_INFINITY, f64::max)
        + CELL;
    let y1 = corners
        .iter()
        .map(|p| p.1)
        .fold(f64::NEG_INFINITY, f64::max)
        + CELL;
    (x0, y0, x1 - x0, y1 - y0)
}

/// A rectangle shrunk by `by` on every side.
fn inset((x, y, w, h): (f64, f64, f64, f64), by: f64) -> (f64, f64, f64, f64) {
    (x + by, y + by, w - 2.0 * by, h - 2.0 * by)
}

/// The cells a tile covers.
fn tile_cells(t: Tile) -> Vec<usize> {
    (0..100).filter(|&c| t.mask() >> c & 1 == 1).collect()
}

impl Draw for Isaac {
    fn draw(&self, scene: &Scene<Isaac>) -> String {
        draw(self, scene)
    }

    /// The panel beside the board: phase, scores, hands and what each removal would do.
    fn panel(&self) -> Option<Value> {
        Some(crate::gui::web::isaac::panel(self))
    }
}

/// The drawing of an Isaac position.
fn draw(pos: &Isaac, scene: &Scene<Isaac>) -> String {
    let flip = scene.flipped;
    let grid = 10.0 * CELL;
    let (w, h) = (2.0 * EDGE + grid, 2.0 * EDGE + grid);
    let mut svg = Svg::new("isaac", w, h, CSS);
    arrow_defs(&mut svg);
    svg.rect((0.0, 0.0, w, h), "bg", &[]);
    svg.rect((EDGE, EDGE, grid, grid), "grid", &[]);

    svg.open_group("gridlines");
    for i in 1..10 {
        let at = EDGE + i as f64 * CELL;
        svg.line((EDGE, at), (EDGE + grid, at), "gridline");
        svg.line((at, EDGE), (at, EDGE + grid), "gridline");
    }
    svg.close_group();

    draw_coords(&mut svg, flip);

    svg.open_group("spots");
    for i in 0..100 {
        let (x, y) = corner(i, flip);
        let cell = format!("{i:02}");
        svg.rect((x, y, CELL, CELL), "spot", &[("data-spot", &cell)]);
    }
    svg.close_group();

    let last = code_cells(scene.mv);
    let removal = scene.mv.starts_with('x');
    svg.open_group("last-move");
    if let (Some(cells), true) = (&last, removal) {
        // The removed tile's cells are empty now: shade them and outline where it lay.
        for &c in cells {
            let (x, y) = corner(c, flip);
            svg.rect(
                (x, y, CELL, CELL),
                "last",
                &[("data-last", &format!("{c:02}"))],
            );
        }
        let code = scene.mv.trim_start_matches('x');
        let code = code.split('+').next().unwrap_or_default();
        outline(
            &mut svg,
            inset(cells_rect(cells, flip), INSET),
            "last-gone",
            &[("data-last-tile", code)],
        );
    }
    svg.close_group();

    // Which tile covers each cell, to colour the small numbers and tag the cells.
    let mut covered: [Option<Tile>; 100] = [None; 100];
    svg.open_group("tiles");
    for &t in pos.tiles() {
        let owner = if t.owner == 0 { "d" } else { "l" };
        let cells = tile_cells(t);
        let rect = cells_rect(&cells, flip);
        let code = tile_code(t);
        svg.rect(
            inset(rect, INSET),
            &format!("tile {owner}"),
            &[("data-tile", &code), ("rx", "6")],
        );
        let (x, y, tw, th) = rect;
        // A vertical tile's size goes in the middle of a cell, clear of the cell numbers by
        // the cells' edges (an even tile's middle is such an edge).
        let cy = if t.vertical {
            corner(cells[(cells.len() - 1) / 2], flip).1 + CELL / 2.0
        } else {
            y + th / 2.0
        };
        svg.text(
            (x + tw / 2.0, cy),
            &format!("tile-size {owner}"),
            &t.size.to_string(),
            &[],
        );
        for &c in &cells {
            covered[c] = Some(t);
        }
    }
    svg.close_group();

    svg.open_group("nums");
    for (i, slot) in covered.iter().enumerate() {
        let (x, y) = corner(i, flip);
        let shade = match slot {
            Some(t) if t.owner == 0 => " on-dark",
            _ => "",
        };
        // The near player's number top-left, the far player's bottom-right.
        let (dark, light) = (format!("{i:02}"), format!("{:02}", 99 - i));
        let (near, far) = if flip {
            (("l", light), ("d", dark))
        } else {
            (("d", dark), ("l", light))
        };
        let extra = [("text-anchor", "start")];
        let class = format!("num {}{shade}", near.0);
        svg.text((x + 3.0, y + 15.0), &class, &near.1, &extra);
        let extra = [("text-anchor", "end")];
        let class = format!("num {}{shade}", far.0);
        svg.text((x + CELL - 3.0, y + CELL - 4.0), &class, &far.1, &extra);
    }
    svg.close_group();

    svg.open_group("rings");
    for &t in pos.tiles() {
        let rect = inset(cells_rect(&tile_cells(t), flip), 1.0);
        outline(&mut svg, rect, "ring", &[("data-ring", &tile_code(t))]);
    }
    if let (Some(cells), false) = (&last, removal) {
        let rect = inset(cells_rect(cells, flip), 0.5);
        outline(&mut svg, rect, "last-tile", &[("data-last-tile", scene.mv)]);
    }
    svg.close_group();

    if pos.phase() != Phase::Placement {
        draw_counters(&mut svg, pos, scene);
    }

    svg.open_group("dots");
    for (i, slot) in covered.iter().enumerate() {
        let (x, y) = corner(i, flip);
        let centre = (x + CELL / 2.0, y + CELL / 2.0);
        let name = format!("{i:02}");
        legal_dot(
            &mut svg,
            centre,
            &name,
            slot.is_some(),
            (CELL * 0.14, CELL * 0.4),
        );
    }
    svg.close_group();
    arrow_layer(&mut svg);

    svg.open_group("cells");
    for (i, slot) in covered.iter().enumerate() {
        let (x, y) = corner(i, flip);
        let cell = format!("{i:02}");
        match slot {
            Some(t) => {
                let code = tile_code(*t);
                let extra = [("data-cell", cell.as_str()), ("data-covered-by", &code)];
                svg.rect((x, y, CELL, CELL), "cell", &extra);
            }
            None => svg.rect((x, y, CELL, CELL), "cell", &[("data-cell", &cell)]),
        }
    }
    svg.close_group();

    svg.finish()
}

/// The edge coordinates: the near player's columns (units) along the bottom and rows (tens) up
/// the left, the far player's along the top and down the right (docs/rules/isaac.md §1).
fn draw_coords(svg: &mut Svg, flipped: bool) {
    let grid = 10.0 * CELL;
    let (near, far) = if flipped { ("l", "d") } else { ("d", "l") };
    svg.open_group("coords");
    for i in 0..10 {
        let along = EDGE + (i as f64 + 0.5) * CELL;
        let row = EDGE + (9 - i) as f64 * CELL + CELL / 2.0;
        let near_class = format!("coord {near}");
        let far_class = format!("coord {far}");
        svg.text(
            (along, EDGE + grid + EDGE / 2.0),
            &near_class,
            &i.to_string(),
            &[],
        );
        svg.text((EDGE / 2.0, row), &near_class, &format!("{i}0"), &[]);
        svg.text((along, EDGE / 2.0), &far_class, &(9 - i).to_string(), &[]);
        svg.text(
            (EDGE + grid + EDGE / 2.0, row),
            &far_class,
            &format!("{}0", 9 - i),
            &[],
        );
    }
    svg.close_group();
}

/// The two score counters on their cells (Dark's on `scoreD`, Light's on `99 − scoreL`), with
/// the points the last move won on its player's counter.
fn draw_counters(svg: &mut Svg, pos: &Isaac, scene: &Scene<Isaac>) {
    let cells = [Player::One, Player::Two].map(|p| pos.counter_cell(p));
    let shared = cells[0].is_some() && cells[0] == cells[1];
    let gain = scene.before.as_ref().and_then(|b| gain(b, pos));
    svg.open_group("counters");
    for (p, cell) in [Player::One, Player::Two].into_iter().zip(cells) {
        let Some(cell) = cell else {
            continue;
        };
        let (x, y) = corner(cell, scene.flipped);
        // Without the collision rule both may share a cell: set them side by side.
        let shift = match (shared, p) {
            (false, _) => 0.0,
            (true, Player::One) => -CELL * 0.2,
            (true, Player::Two) => CELL * 0.2,
        };
        let (cx, cy) = (x + CELL / 2.0 + shift, y + CELL / 2.0);
        let s = seat(p);
        let score = pos.score(p).to_string();
        let extra = [("data-score", score.as_str())];
        svg.circle(cx, cy, CELL * 0.3, &format!("counter {s}"), &extra);
        let letter = if p == Player::One { "D" } else { "L" };
        svg.text((cx, cy), &format!("counter-label {s}"), letter, &[]);
        if let Some((_, k)) = gain.filter(|&(gp, _)| gp == p) {
            let at = (cx + CELL * 0.32, cy - CELL * 0.32);
            badge(
                svg,
                at,
                BADGE,
                "gain",
                &format!("+{k}"),
                &format!("{cell:02}"),
            );
        }
    }
    svg.close_group();
}

#[cfg(test)]
mod tests {
    use super::super::{board_svg, count};
    use crate::game::GameId;

    fn draw(fen: &str) -> Result<String, String> {
        board_svg(GameId::Isaac, fen, &[])
    }

    #[test]
    fn start_position_has_100_cells_and_full_hands() -> Result<(), String> {
        let svg = draw("- 54321/54321 d P - 0/0 0/0")?;
        assert_eq!(count(&svg, "class=\"cell\""), 100);
        for name in ["00", "09", "10", "45", "90", "99"] {
            assert_eq!(count(&svg, &format!("data-cell=\"{name}\"")), 1, "{name}");
        }
        assert_eq!(count(&svg, "data-cell=\"100\""), 0);
        assert_eq!(count(&svg, "class=\"tile "), 0);
        assert_eq!(count(&svg, "class=\"counter "), 0);
        // The board alone: the phase, scores and hands are the page's (src/gui/web/isaac.rs).
        assert!(svg.contains("viewBox=\"0 0 532 532\""));
        assert!(!svg.contains("Placement phase") && !svg.contains("Dark to move"));
        // Both frames: cell 23 is Light's 76.
        assert!(svg.contains(">23</text>") && svg.contains(">76</text>"));
        Ok(())
    }

    #[test]
    fn scoring_position_tiles_and_counters() -> Result<(), String> {
        // TV4: Dark's counter on 28 (empty), Light's on 99 − 79 = 20 (on L3h20).
        let svg = draw("L3v07,L3v09,L3h20,D4h23,D3v31,D5h60,D3h70 00000/00000 d S - 28/79 3/0")?;
        assert_eq!(count(&svg, "class=\"cell\""), 100);
        assert_eq!(count(&svg, "class=\"tile d\""), 4);
        assert_eq!(count(&svg, "class=\"tile l\""), 3);
        for code in ["3v07", "3v09", "3h20", "4h23", "3v31", "5h60", "3h70"] {
            assert_eq!(count(&svg, &format!("data-tile=\"{code}\"")), 1, "{code}");
        }
        assert_eq!(count(&svg, "data-covered-by=\"4h23\""), 4);
        assert_eq!(count(&svg, "data-covered-by=\"3v31\""), 3);
        assert!(svg.contains("data-cell=\"51\" data-covered-by=\"3v31\""));
        assert!(svg.contains("class=\"counter d\" data-score=\"28\""));
        assert!(svg.contains("class=\"counter l\" data-score=\"79\""));
        Ok(())
    }

    #[test]
    fn placement_with_a_pass() -> Result<(), String> {
        // TV3 after Light's pass: Light has passed, Dark to move.
        let fen = "D6h00,D4h06,D6h10,L4h16,L6h20,D4h26,L5h30,L5h35,L5h40,D5h45,D3h50,D3h53,\
                   L4h56,D3h60,D3h63,D4h66,L3h70,L3h73,L4h76,L3h80,L3h83,L4h86,L3h90,D4h93 \
                   10201/00011 d P l 0/0 0/0";
        let svg = draw(fen)?;
        assert_eq!(count(&svg, "class=\"tile d\""), 11);
        assert_eq!(count(&svg, "class=\"tile l\""), 13);
        assert_eq!(count(&svg, "class=\"counter "), 0);
        assert_eq!(count(&svg, "data-covered-by="), 97);
        Ok(())
    }

    #[test]
    fn a_counter_at_100_is_off_the_board() -> Result<(), String> {
        // TV6 after `x4h60+5`: Dark wins 100–1, its counter is off the board.
        let svg = draw("L3v64,L3h65,L3v68,D3v69 00000/00000 - E - 100/1 4/0")?;
        assert_eq!(count(&svg, "class=\"counter d\""), 0);
        assert_eq!(count(&svg, "class=\"counter l\""), 1);
        Ok(())
    }

    #[test]
    fn bad_fen_gives_the_parser_message() {
        let err = draw("- 54321/54321 d X - 0/0 0/0");
        let parser = <crate::game::isaac::Isaac as crate::game::Game>::from_fen(
            "- 54321/54321 d X - 0/0 0/0",
            &Default::default(),
        );
        assert!(err.is_err());
        assert_eq!(err.err(), parser.err().map(|e| e.0));
    }
}
