//! Isaac drawn as its 10×10 grid seen from Dark's seat (docs/rules/isaac.md §1): Dark-frame row 0
//! at the bottom, column 0 on the left. Both coordinate frames are shown: Dark's on the bottom
//! (units) and left (tens) edges and in each cell's top-left corner, Light's (99 − n) on the top
//! and right edges and in each cell's bottom-right corner. Each tile is one rectangle over its
//! cells with its size written on it; the score counters are markers on their cells; a panel
//! on the right gives the phase, the side to move, and each player's score, floor, hand and
//! pass state.

use super::Svg;
use crate::game::isaac::tables::SIZES;
use crate::game::isaac::{Isaac, Phase, Tile};
use crate::game::{Game, Outcome, Player};

/// Side of one cell.
const CELL: f64 = 48.0;
/// Room on each side of the grid for the edge coordinates.
const EDGE: f64 = 40.0;
/// Gap between a tile's border and its cells' borders.
const INSET: f64 = 3.5;
/// Left edge of the side panel.
const PANEL_X: f64 = 2.0 * EDGE + 10.0 * CELL + 16.0;
/// Width of the side panel.
const PANEL_W: f64 = 270.0;

const CSS: &str = "\
:where({B} .bg){fill:#f6f2e8}
:where({B} .grid){fill:#d8c39a;stroke:#7a6440;stroke-width:2}
:where({B} .gridline){stroke:#7a6440;stroke-width:1}
:where({B} .coord){font-size:15px;text-anchor:middle;dominant-baseline:central}
:where({B} .coord.d,{B} .num.d){fill:#1d1d1d;font-weight:bold}
:where({B} .coord.l,{B} .num.l){fill:#8c5a12;font-style:italic}
:where({B} .num){font-size:9.5px}
:where({B} .num.on-dark){fill:#d8d8d8}
:where({B} .num.l.on-dark){fill:#f0c27a}
:where({B} .tile){stroke-width:2}
:where({B} .tile.d){fill:#343434;stroke:#000}
:where({B} .tile.l){fill:#fbf8f0;stroke:#6d6d6d}
:where({B} .tile.legal){stroke:#1e8c3a;stroke-width:4}
:where({B} .tile.selected){stroke:#d08a00;stroke-width:5}
:where({B} .tile-size){font-size:21px;font-weight:bold;text-anchor:middle;dominant-baseline:central}
:where({B} .tile-size.d){fill:#fafafa}
:where({B} .tile-size.l){fill:#222}
:where({B} .counter){stroke:#d4a017;stroke-width:4}
:where({B} .counter.d){fill:#000}
:where({B} .counter.l){fill:#fff}
:where({B} .counter-label){font-size:13px;font-weight:bold;text-anchor:middle;dominant-baseline:central}
:where({B} .counter-label.d){fill:#fff}
:where({B} .counter-label.l){fill:#000}
:where({B} .panel){fill:#fffdf8;stroke:#b9a77f;stroke-width:1.5}
:where({B} .panel-title){font-size:20px;font-weight:bold;fill:#222}
:where({B} .panel-text){font-size:15px;fill:#222}
:where({B} .panel-small){font-size:12px;fill:#555}
:where({B} .player-name){font-size:17px;font-weight:bold;fill:#222}
:where({B} .swatch.d){fill:#343434;stroke:#000}
:where({B} .swatch.l){fill:#fbf8f0;stroke:#6d6d6d}
:where({B} .hand){font-size:14px;text-anchor:middle;fill:#222}
:where({B} .hand-head){font-size:12px;text-anchor:middle;fill:#777}
:where({B} .tag){font-size:13px;font-weight:bold;fill:#b3261e}
";

/// The top-left corner on screen of Dark-frame cell `i`.
fn corner(i: usize) -> (f64, f64) {
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

/// A player's name.
fn name(p: Player) -> &'static str {
    match p {
        Player::One => "Dark",
        Player::Two => "Light",
    }
}

/// The tile's notation without owner: `<S><h|v><AA>`, e.g. `4h23`.
pub(crate) fn tile_code(t: Tile) -> String {
    let orientation = if t.vertical { 'v' } else { 'h' };
    format!("{}{orientation}{:02}", t.size, t.anchor)
}

/// The drawing of an Isaac position.
pub(super) fn draw(pos: &Isaac) -> String {
    let grid = 10.0 * CELL;
    let (w, h) = (PANEL_X + PANEL_W + 12.0, 2.0 * EDGE + grid);
    let mut svg = Svg::new("isaac", w, h, CSS);
    svg.rect((0.0, 0.0, w, h), "bg", &[]);
    svg.rect((EDGE, EDGE, grid, grid), "grid", &[]);

    svg.open_group("gridlines");
    for i in 1..10 {
        let at = EDGE + i as f64 * CELL;
        svg.line((EDGE, at), (EDGE + grid, at), "gridline");
        svg.line((at, EDGE), (at, EDGE + grid), "gridline");
    }
    svg.close_group();

    svg.open_group("coords");
    for i in 0..10 {
        let along = EDGE + (i as f64 + 0.5) * CELL;
        let row = EDGE + (9 - i) as f64 * CELL + CELL / 2.0;
        // Dark: units along the bottom, tens up the left edge.
        svg.text(
            (along, EDGE + grid + EDGE / 2.0),
            "coord d",
            &i.to_string(),
            &[],
        );
        svg.text((EDGE / 2.0, row), "coord d", &format!("{}0", i), &[]);
        // Light: its near edge is the top, its left edge is Dark's right (docs/rules/isaac.md §1).
        svg.text((along, EDGE / 2.0), "coord l", &(9 - i).to_string(), &[]);
        svg.text(
            (EDGE + grid + EDGE / 2.0, row),
            "coord l",
            &format!("{}0", 9 - i),
            &[],
        );
    }
    svg.close_group();

    // Which tile covers each cell, to colour the small numbers and tag the cells.
    let mut covered: [Option<Tile>; 100] = [None; 100];
    svg.open_group("tiles");
    for &t in pos.tiles() {
        let owner = if t.owner == 0 { "d" } else { "l" };
        let (len_c, len_r) = if t.vertical {
            (1.0, t.size as f64)
        } else {
            (t.size as f64, 1.0)
        };
        // The anchor is the lowest cell: bottom of a vertical tile, left of a horizontal one.
        let top_cell = if t.vertical {
            t.anchor as usize + 10 * (t.size as usize - 1)
        } else {
            t.anchor as usize
        };
        let (x, y) = corner(top_cell);
        let (tw, th) = (len_c * CELL, len_r * CELL);
        let code = tile_code(t);
        svg.rect(
            (x + INSET, y + INSET, tw - 2.0 * INSET, th - 2.0 * INSET),
            &format!("tile {owner}"),
            &[("data-tile", &code), ("rx", "6")],
        );
        svg.text(
            (x + tw / 2.0, y + th / 2.0),
            &format!("tile-size {owner}"),
            &t.size.to_string(),
            &[],
        );
        for (cell, slot) in covered.iter_mut().enumerate() {
            if t.mask() >> cell & 1 == 1 {
                *slot = Some(t);
            }
        }
    }
    svg.close_group();

    svg.open_group("nums");
    for (i, slot) in covered.iter().enumerate() {
        let (x, y) = corner(i);
        let shade = match slot {
            Some(t) if t.owner == 0 => " on-dark",
            _ => "",
        };
        let extra = [("text-anchor", "start")];
        svg.text(
            (x + 5.0, y + 13.0),
            &format!("num d{shade}"),
            &format!("{i:02}"),
            &extra,
        );
        let extra = [("text-anchor", "end")];
        let light = format!("{:02}", 99 - i);
        svg.text(
            (x + CELL - 5.0, y + CELL - 6.0),
            &format!("num l{shade}"),
            &light,
            &extra,
        );
    }
    svg.close_group();

    if pos.phase() != Phase::Placement {
        draw_counters(&mut svg, pos);
    }

    svg.open_group("cells");
    for (i, slot) in covered.iter().enumerate() {
        let (x, y) = corner(i);
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

    draw_panel(&mut svg, pos, h);
    svg.finish()
}

/// The two score counters on their cells (Dark's on `scoreD`, Light's on `99 − scoreL`).
fn draw_counters(svg: &mut Svg, pos: &Isaac) {
    let cells = [Player::One, Player::Two].map(|p| pos.counter_cell(p));
    let shared = cells[0].is_some() && cells[0] == cells[1];
    svg.open_group("counters");
    for (p, cell) in [Player::One, Player::Two].into_iter().zip(cells) {
        let Some(cell) = cell else {
            continue;
        };
        let (x, y) = corner(cell);
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
    }
    svg.close_group();
}

/// The side panel: phase, side to move or result, and per player score, floor, hand and
/// pass state.
fn draw_panel(svg: &mut Svg, pos: &Isaac, h: f64) {
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
    let notes = [
        "Cell numbers: Dark frame top-left,",
        "Light frame (99 − n) bottom-right.",
        "Tile values: 3→1 4→2 5→3 6→4 7→6.",
    ];
    for note in notes {
        svg.text((left, y), "panel-small", note, &[]);
        y += 17.0;
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
        assert_eq!(count(&svg, "class=\"hand d\""), 5);
        assert!(svg.contains("data-size=\"7\">×1</text>"));
        assert!(svg.contains("Placement phase"));
        assert!(svg.contains("Dark to move"));
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
        assert!(svg.contains("score 28 (cell 28) · floor 3"));
        assert!(svg.contains("score 79 (cell 20) · floor 0"));
        assert!(svg.contains("Scoring phase"));
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
        assert_eq!(count(&svg, "class=\"tag l\">passed"), 1);
        assert_eq!(count(&svg, "class=\"counter "), 0);
        assert_eq!(count(&svg, "data-covered-by="), 97);
        Ok(())
    }

    #[test]
    fn finished_game_shows_the_winner() -> Result<(), String> {
        // TV6 after `x4h60+5`: Dark wins 100–1, its counter is off the board.
        let svg = draw("L3v64,L3h65,L3v68,D3v69 00000/00000 - E - 100/1 4/0")?;
        assert!(svg.contains("Dark wins 100–1"));
        assert!(svg.contains("score 100 (off the board)"));
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
