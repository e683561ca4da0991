//! The web GUI's board drawings: turned to player two's side (every cell where that player
//! sees it), the last move drawn under the pieces and what it did (Tactigon captures, Sight
//! growth, Isaac points), the warnings (Tactigon's gold pair, Sight's stuck stacks), and the
//! layers the page draws into (dots, spots, rings, arrows). The same through the server's API
//! is in `web_board_api.rs`.

use ludus::game::GameId;
use ludus::gui::svg::{LastMove, View, board_svg_view};

/// A drawing of `fen` (default rules), turned or not, after `last` = (move, position before).
fn draw(game: GameId, fen: &str, flipped: bool, last: Option<(&str, &str)>) -> String {
    draw_lying(game, fen, flipped, false, last)
}

/// [`draw`], upright or on its side (`landscape`).
fn draw_lying(
    game: GameId,
    fen: &str,
    flipped: bool,
    landscape: bool,
    last: Option<(&str, &str)>,
) -> String {
    let view = View {
        flipped,
        last: last.map(|(mv, before)| LastMove { mv, before }),
        landscape,
    };
    board_svg_view(game, fen, &[], &view).unwrap_or_else(|e| panic!("{game}: {e}"))
}

/// The width and height of a drawing's viewBox.
fn view_box(svg: &str) -> (f64, f64) {
    let el = element(svg, "viewBox=\"");
    let key = "viewBox=\"0 0 ";
    let at = el.find(key).expect("a viewBox") + key.len();
    let text = &el[at..at + el[at..].find('"').expect("its end")];
    let (w, h) = text.split_once(' ').expect("width and height");
    (w.parse().expect("a width"), h.parse().expect("a height"))
}

/// Tactigon's 53 cells by name (docs/rules/tactigon.md §1).
fn tactigon_cells() -> Vec<String> {
    let rows: [&[u8]; 7] = [
        &[9, 11],
        &[2, 4, 6, 8, 10, 12, 14, 16, 18],
        &[1, 3, 5, 7, 9, 11, 13, 15, 17, 19],
        &[0, 2, 4, 6, 8, 10, 12, 14, 16, 18, 20],
        &[1, 3, 5, 7, 9, 11, 13, 15, 17, 19],
        &[2, 4, 6, 8, 10, 12, 14, 16, 18],
        &[9, 11],
    ];
    let mut cells = Vec::new();
    for (r, cols) in rows.iter().enumerate() {
        for &c in *cols {
            cells.push(format!("{}{c}", (b'a' + r as u8) as char));
        }
    }
    cells
}

/// The attributes of the first element whose markup holds `needle`.
fn element<'a>(svg: &'a str, needle: &str) -> &'a str {
    let at = svg.find(needle).unwrap_or_else(|| panic!("no {needle}"));
    let start = svg[..at].rfind('<').expect("an element");
    let end = at + svg[at..].find('>').expect("an element's end");
    &svg[start..end]
}

/// The number in attribute `name` of `element`.
fn attr(element: &str, name: &str) -> f64 {
    let key = format!(" {name}=\"");
    let at = element
        .find(&key)
        .unwrap_or_else(|| panic!("no {name} in {element}"))
        + key.len();
    let len = element[at..].find('"').expect("a closing quote");
    element[at..at + len].parse().expect("a number")
}

/// The centre of the click target of `cell` (a circle, a hexagon or a square).
fn centre(svg: &str, cell: &str) -> (f64, f64) {
    let el = element(svg, &format!("class=\"cell\" data-cell=\"{cell}\""));
    if el.starts_with("<circle") {
        (attr(el, "cx"), attr(el, "cy"))
    } else if el.starts_with("<rect") {
        (
            attr(el, "x") + attr(el, "width") / 2.0,
            attr(el, "y") + attr(el, "height") / 2.0,
        )
    } else {
        let key = "points=\"";
        let at = el.find(key).expect("points") + key.len();
        let list = &el[at..at + el[at..].find('"').expect("end of points")];
        let points: Vec<(f64, f64)> = list
            .split(' ')
            .map(|p| {
                let (x, y) = p.split_once(',').expect("x,y");
                (x.parse().expect("x"), y.parse().expect("y"))
            })
            .collect();
        let n = points.len() as f64;
        (
            points.iter().map(|p| p.0).sum::<f64>() / n,
            points.iter().map(|p| p.1).sum::<f64>() / n,
        )
    }
}

fn near(a: (f64, f64), b: (f64, f64)) -> bool {
    (a.0 - b.0).abs() < 0.02 && (a.1 - b.1).abs() < 0.02
}

const SIGHT_START: &str = "5:x5/x5/x5/x5/x5 w";
const TACTIGON_START: &str = "2/C1C3c1c/1ST4ts1/CTPSC1csptc/1ST4ts1/C1C3c1c/2 r 0";
const ISAAC_START: &str = "- 54321/54321 d P - 0/0 0/0";

#[test]
fn sight_flipped_puts_black_below_with_files_and_ranks_reversed() {
    let (plain, flipped) = (
        draw(GameId::Sight, SIGHT_START, false, None),
        draw(GameId::Sight, SIGHT_START, true, None),
    );
    let files = ["a", "b", "c", "d", "e"];
    for (x, file) in files.iter().enumerate() {
        for rank in 1..=5 {
            let cell = format!("{file}{rank}");
            let turned = format!("{}{}", files[4 - x], 6 - rank);
            assert!(
                near(centre(&flipped, &cell), centre(&plain, &turned)),
                "{cell} shows where {turned} did"
            );
        }
    }
    assert_eq!(centre(&plain, "a1"), (72.0, 392.0), "a1 bottom left");
    assert_eq!(centre(&flipped, "a1"), (392.0, 72.0), "a1 top right");
    // The labels follow: file e at the bottom left, rank 5 at the bottom.
    assert!(flipped.contains("<text x=\"72\" y=\"439.52\" class=\"coord\">e</text>"));
    assert!(flipped.contains("<text x=\"28.8\" y=\"392\" class=\"coord\">5</text>"));
    assert!(plain.contains("<text x=\"72\" y=\"439.52\" class=\"coord\">a</text>"));
    assert!(plain.contains("<text x=\"28.8\" y=\"392\" class=\"coord\">1</text>"));
}

#[test]
fn tactigon_flipped_puts_blue_below() {
    let (plain, flipped) = (
        draw(GameId::Tactigon, TACTIGON_START, false, None),
        draw(GameId::Tactigon, TACTIGON_START, true, None),
    );
    let cells = tactigon_cells();
    for cell in &cells {
        let (row, column) = cell.split_at(1);
        let r = row.as_bytes()[0] - b'a';
        let c: u8 = column.parse().expect("a column");
        let turned = format!("{}{}", (b'g' - r) as char, 20 - c);
        assert!(
            near(centre(&flipped, cell), centre(&plain, &turned)),
            "{cell}"
        );
    }
    assert_eq!(cells.len(), 53);
    assert!(
        near(centre(&flipped, "d10"), centre(&plain, "d10")),
        "the centre stays"
    );
    assert!(
        centre(&plain, "d4").1 > centre(&plain, "d16").1,
        "Red below"
    );
    assert!(
        centre(&flipped, "d4").1 < centre(&flipped, "d16").1,
        "Blue below"
    );
    // The pieces go with their cells: Blue's pentagon is drawn low on the flipped board.
    let pentagon = element(&flipped, "data-at=\"d16\" data-piece=\"pentagon\"");
    assert!(pentagon.contains("class=\"piece p2\""));
}

#[test]
fn isaac_flipped_is_lights_frame() {
    let (plain, flipped) = (
        draw(GameId::Isaac, ISAAC_START, false, None),
        draw(GameId::Isaac, ISAAC_START, true, None),
    );
    for i in 0..100 {
        let (cell, turned) = (format!("{i:02}"), format!("{:02}", 99 - i));
        assert!(
            near(centre(&flipped, &cell), centre(&plain, &turned)),
            "{cell}"
        );
    }
    // Light's 00 (Dark's 99) at the bottom left, with Light's numbers top-left in each cell.
    assert_eq!(centre(&flipped, "99"), centre(&plain, "00"));
    assert!(flipped.contains("class=\"num l\" text-anchor=\"start\">00</text>"));
    // A tile covers the same cells, wherever they are drawn.
    let fen = "D7h41 54320/54321 l P - 0/0 0/0";
    let flipped = draw(GameId::Isaac, fen, true, None);
    let tile = element(&flipped, "data-tile=\"7h41\"");
    let (x, y) = (attr(tile, "x"), attr(tile, "y"));
    let (w, h) = (attr(tile, "width"), attr(tile, "height"));
    let (left, right) = (centre(&flipped, "47"), centre(&flipped, "41"));
    assert!(
        x < left.0 && left.0 < right.0 && right.0 < x + w,
        "47 … 41 left to right"
    );
    assert!(y < left.1 && left.1 < y + h);
}

#[test]
fn tactigon_capture_and_last_move_are_marked_without_touching_the_pieces() {
    // TV5: the Red circle takes the Blue square on d12.
    let before = "2/9/10/2P2Cs1p2/10/9/2 r 0";
    let after = "2/9/10/2P3C1p2/10/9/2 b 1";
    for flipped in [false, true] {
        let svg = draw(GameId::Tactigon, after, flipped, Some(("d10-d12", before)));
        assert_eq!(svg.matches("class=\"badge capture\"").count(), 1);
        assert!(svg.contains("class=\"badge capture\" data-capture=\"d12\""));
        let (from, to) = (
            svg.find("class=\"last from\" data-last=\"d10\"")
                .expect("from"),
            svg.find("class=\"last to\" data-last=\"d12\"").expect("to"),
        );
        let pieces = svg.find("<g class=\"pieces\">").expect("pieces");
        assert!(
            from < pieces && to < pieces,
            "the last move lies under the pieces"
        );
        // The piece keeps its own classes (and so its fill).
        assert!(svg.contains("class=\"piece p1\" data-at=\"d12\" data-piece=\"circle\""));
    }
    // Without the position before, the move is still highlighted but nothing is marked.
    let svg = draw(
        GameId::Tactigon,
        after,
        false,
        Some(("d10-d12", "nonsense")),
    );
    assert!(svg.contains("class=\"last to\" data-last=\"d12\""));
    assert!(!svg.contains("badge capture"));
}

#[test]
fn tactigon_lies_on_its_side_for_a_wide_screen() {
    let cells = tactigon_cells();
    assert_eq!(cells.len(), 53);
    for flipped in [false, true] {
        let upright = draw(GameId::Tactigon, TACTIGON_START, flipped, None);
        let lying = draw_lying(GameId::Tactigon, TACTIGON_START, flipped, true, None);
        let ((uw, uh), (lw, lh)) = (view_box(&upright), view_box(&lying));
        assert!(uh > 1.5 * uw, "upright: tall, {uw} × {uh}");
        assert!(lw > 1.4 * lh, "on its side: wide, {lw} × {lh}");
        // The upright board turned a quarter round clockwise: its y becomes the new x, read
        // from the right, and its x the new y.
        let (_, y0) = centre(&upright, "d10");
        let (lx0, _) = centre(&lying, "d10");
        for cell in &cells {
            let (x, y) = centre(&upright, cell);
            let (lx, ly) = centre(&lying, cell);
            assert!(near((lx - lx0, ly), (y0 - y, x)), "{cell}");
        }
        // Pointy-topped hexes: a corner straight above the centre.
        let (cx, cy) = centre(&lying, "d10");
        let hex = element(&lying, "class=\"cell\" data-cell=\"d10\"");
        let key = "points=\"";
        let at = hex.find(key).expect("points") + key.len();
        let top = hex[at..at + hex[at..].find('"').expect("end of points")]
            .split(' ')
            .filter_map(|p| p.split_once(','))
            .filter_map(|(x, y)| Some((x.parse::<f64>().ok()?, y.parse::<f64>().ok()?)))
            .any(|p| near(p, (cx, cy - 40.0)));
        assert!(top, "{hex}");
        let red_left = centre(&lying, "d4").0 < centre(&lying, "d16").0;
        assert_eq!(red_left, !flipped, "Red on the left, or Blue when flipped");
        let a_above = centre(&lying, "a9").1 < centre(&lying, "g9").1;
        assert_eq!(a_above, !flipped, "file a on top, or g when flipped");
        // Every piece is drawn, upright: the same markup as on the upright board.
        assert_eq!(
            lying.matches("class=\"piece ").count(),
            upright.matches("class=\"piece ").count()
        );
    }
    // Sight and Isaac have no board on its side: the same drawing.
    for (game, fen) in [(GameId::Sight, SIGHT_START), (GameId::Isaac, ISAAC_START)] {
        assert_eq!(
            draw_lying(game, fen, false, true, None),
            draw(game, fen, false, None)
        );
    }
}

#[test]
fn tactigon_capture_badge_leaves_the_cell_name_readable() {
    // TV5: the Red circle takes the Blue square on d12.
    let (before, after) = ("2/9/10/2P2Cs1p2/10/9/2 r 0", "2/9/10/2P3C1p2/10/9/2 b 1");
    for (flipped, landscape) in [(false, false), (true, false), (false, true), (true, true)] {
        let svg = draw_lying(
            GameId::Tactigon,
            after,
            flipped,
            landscape,
            Some(("d10-d12", before)),
        );
        let at = svg
            .find("data-capture=\"d12\"")
            .expect("the capture's badge");
        let from = at + svg[at..].find("<circle ").expect("its circle");
        let circle = &svg[from..from + svg[from..].find('>').expect("the circle's end")];
        let (bx, by, r) = (attr(circle, "cx"), attr(circle, "cy"), attr(circle, "r"));
        // The name's box: 16-unit text centred on x, from its cap height to its baseline.
        let name = element(&svg, "data-name=\"d12\"");
        let (nx, ny) = (attr(name, "x"), attr(name, "y"));
        let (left, right, top, bottom) = (nx - 15.0, nx + 15.0, ny - 13.0, ny + 2.0);
        let dx = (left - bx).max(bx - right).max(0.0);
        let dy = (top - by).max(by - bottom).max(0.0);
        assert!(
            dx.hypot(dy) > r,
            "flipped {flipped}, on its side {landscape}: the badge ({bx}, {by}) r {r} \
             covers the name at ({nx}, {ny})"
        );
        // And it stays inside its cell (a hexagon of radius 40).
        let (cx, cy) = centre(&svg, "d12");
        assert!(
            (bx - cx).hypot(by - cy) + r <= 40.0 * 3f64.sqrt() / 2.0,
            "inside d12"
        );
    }
}

#[test]
fn tactigon_gold_pair_is_ringed_and_said() {
    // TV13 after e9-f10: Red holds both gold tiles, Blue must break the pair.
    let svg = draw(
        GameId::Tactigon,
        "2/4C4/10/2P5p1c/10/4C4/2 b 1",
        false,
        Some(("e9-f10", "2/4C4/10/2P5p1c/4C5/9/2 r 0")),
    );
    assert_eq!(svg.matches("class=\"gold-alert\"").count(), 2);
    assert!(svg.contains("data-gold=\"b10\" data-holder=\"p1\""));
    assert!(svg.contains("data-gold=\"f10\" data-holder=\"p1\""));
    assert!(svg.contains(">Blue to move · ply 1 · Red holds both gold tiles!</text>"));
    // Once the game is over (TV15) it is the result, not a warning.
    let over = draw(
        GameId::Tactigon,
        "2/4C4/10/2P5p2/10/4C1t2/2 r 0",
        false,
        None,
    );
    assert!(!over.contains("class=\"gold-alert\""));
}

#[test]
fn sight_growth_and_stuck_stacks_are_marked() {
    // White's d4 grows b4 and d3 (docs/rules/sight.md, "A turn").
    let before = "5:x5/x,w,x3/b,x2,w,x/x4,b/x5 w";
    let after = "5:x5/x,w2,x,w,x/b,x2,w2,x/x4,b/x5 b";
    let svg = draw(GameId::Sight, after, false, Some(("d4", before)));
    assert_eq!(svg.matches("class=\"badge grown\"").count(), 2);
    assert!(svg.contains("class=\"badge grown\" data-grown=\"b4\""));
    assert!(svg.contains("class=\"badge grown\" data-grown=\"d3\""));
    assert!(svg.contains("class=\"last to\" data-last=\"d4\""));
    assert!(
        !svg.contains("class=\"last from\""),
        "a placement has no origin"
    );
    assert!(svg.contains(">+1</text>"));
    assert!(!svg.contains("class=\"stuck\""));
    // TV12: White's stack on a1 has no empty neighbour.
    let svg = draw(GameId::Sight, "5:x5/x5/x5/b2,b,x3/w2,w,x3 w", false, None);
    assert_eq!(svg.matches("class=\"stuck\"").count(), 1);
    assert!(svg.contains("class=\"stuck\" data-stuck=\"a1\""));
}

#[test]
fn isaac_placement_and_removal_are_outlined_and_scored() {
    let svg = draw(
        GameId::Isaac,
        "D7h41 54320/54321 l P - 0/0 0/0",
        false,
        Some(("7h41", ISAAC_START)),
    );
    assert!(svg.contains("class=\"last-tile\" rx=\"6\" data-last-tile=\"7h41\""));
    assert!(svg.contains("class=\"ring\" rx=\"6\" data-ring=\"7h41\""));
    let tiles = svg.find("<g class=\"tiles\">").expect("tiles");
    assert!(
        svg.find("class=\"last-tile\"").expect("outline") > tiles,
        "outlined above"
    );
    // TV4: Dark removes 4h23 for 24 points and advances its counter 24 cells.
    let before = "L3v07,L3v09,L3h20,D4h23,D3v31,D5h60,D3h70 00000/00000 d S - 28/79 3/0";
    let after = "L3v07,L3v09,L3h20,D3v31,D5h60,D3h70 00000/00000 l S - 52/79 4/0";
    let svg = draw(GameId::Isaac, after, false, Some(("x4h23+24", before)));
    assert!(svg.contains("class=\"last-gone\" rx=\"6\" data-last-tile=\"4h23\""));
    for cell in ["23", "24", "25", "26"] {
        assert!(
            svg.contains(&format!("class=\"last\" data-last=\"{cell}\"")),
            "{cell}"
        );
    }
    assert!(svg.contains("class=\"badge gain\" data-gain=\"52\""));
    assert!(svg.contains(">+24</text>"));
}

#[test]
fn every_drawing_has_the_layers_the_page_draws_into() {
    for (game, fen, cells) in [
        (GameId::Sight, SIGHT_START, 25),
        (GameId::Tactigon, TACTIGON_START, 53),
        (GameId::Isaac, ISAAC_START, 100),
    ] {
        for flipped in [false, true] {
            let svg = draw(game, fen, flipped, None);
            assert_eq!(svg.matches(" data-spot=\"").count(), cells, "{game} spots");
            assert_eq!(svg.matches(" data-dot=\"").count(), cells, "{game} dots");
            assert_eq!(svg.matches("class=\"cell\"").count(), cells, "{game} cells");
            assert!(svg.contains("<marker id=\"ludus-arrow-hint\""));
            assert!(svg.contains("<marker id=\"ludus-arrow-pv\""));
            assert_eq!(svg.matches("<g class=\"arrows\"></g>").count(), 1);
            // Arrows and dots lie under the click targets, spots under the pieces.
            let arrows = svg.find("<g class=\"arrows\">").expect("arrows");
            assert!(arrows < svg.find("<g class=\"cells\">").expect("cells"));
            assert_eq!(svg.matches("<g").count(), svg.matches("</g>").count());
        }
    }
    // Tactigon: a ring round an occupied cell, a dot on an empty one.
    let svg = draw(GameId::Tactigon, TACTIGON_START, false, None);
    assert!(element(&svg, "data-dot=\"d4\"").contains("class=\"dot on-piece\""));
    assert!(element(&svg, "data-dot=\"d10\"").contains("class=\"dot\""));
}
