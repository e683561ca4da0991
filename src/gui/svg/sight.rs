//! Sight drawn as an Alquerque board (docs/rules/sight.md §1): the N×N points, the orthogonal lines
//! and the one diagonal of each unit square that joins its two diagonal points, files `a`.. along
//! the bottom and ranks `1`.. up the left, White's side (rank 1) at the bottom; turned half round
//! (Black's side below, files from the right, ranks from the top) when flipped. Every pile is a
//! disc in its owner's colour; a stack shows its height inside. The last move's points are
//! highlighted under the pieces, the piles it grew carry a `+1` badge, and stacks that cannot
//! move (no empty neighbour) a dashed ring.

use super::overlay::{arrow_defs, arrow_layer, badge, legal_dot};
use super::{Draw, Scene, Svg};
use crate::game::sight::Sight;
use crate::game::sight::present::{grown, stuck};
use crate::game::{Game, Outcome, Player};

/// Distance between neighbouring points.
const STEP: f64 = 80.0;
/// Room around the outermost points for the coordinates.
const MARGIN: f64 = 72.0;
/// Height of the status line under the board.
const STATUS: f64 = 34.0;
/// The radius of the `+1` badge of a pile that grew.
const BADGE: f64 = 14.0;

const CSS: &str = "\
:where({B} .bg){fill:#e9d8b4}
:where({B} .line){stroke:#5b4a2f;stroke-width:2.5;stroke-linecap:round}
:where({B} .point){fill:#5b4a2f}
:where({B} .coord){font-size:22px;fill:#5b4a2f;font-weight:bold;text-anchor:middle;dominant-baseline:central}
:where({B} .piece){stroke-width:3}
:where({B} .piece.p1,{B} .shade.p1){fill:#fbfaf5;stroke:#3d3d3d}
:where({B} .piece.p2,{B} .shade.p2){fill:#262626;stroke:#000}
:where({B} .shade){stroke-width:3}
:where({B} .height){font-size:26px;font-weight:bold;text-anchor:middle;dominant-baseline:central}
:where({B} .height.p1){fill:#1a1a1a}
:where({B} .height.p2){fill:#fafafa}
:where({B} .status){text-anchor:middle}
";

/// Where the points of a board of side `n` go on screen, seen from White's side or, flipped,
/// from Black's.
#[derive(Clone, Copy)]
struct Frame {
    n: usize,
    flipped: bool,
}

impl Frame {
    /// The screen position of point `(x, y)` (0-based from `a1`).
    fn at(self, x: usize, y: usize) -> (f64, f64) {
        let (sx, sy) = if self.flipped {
            (self.n - 1 - x, y)
        } else {
            (x, self.n - 1 - y)
        };
        (MARGIN + sx as f64 * STEP, MARGIN + sy as f64 * STEP)
    }

    /// The screen position of point index `p`.
    fn point(self, p: usize) -> (f64, f64) {
        self.at(p % self.n, p / self.n)
    }

    /// The file or rank shown at screen slot `i` (0 = left, or bottom).
    fn label(self, i: usize) -> usize {
        if self.flipped { self.n - 1 - i } else { i }
    }
}

/// The class suffix of a player: `p1` for White, `p2` for Black.
fn seat(p: Player) -> &'static str {
    match p {
        Player::One => "p1",
        Player::Two => "p2",
    }
}

/// The points of a move `c3` or `b4-c3` (with or without the `+…` suffix): from, to.
fn move_points(pos: &Sight, mv: &str) -> (Option<usize>, Option<usize>) {
    let geo = pos.geometry();
    let base = mv.split('+').next().unwrap_or_default();
    match base.split_once('-') {
        Some((from, to)) => (geo.parse_square(from), geo.parse_square(to)),
        None => (None, geo.parse_square(base)),
    }
}

impl Draw for Sight {
    fn draw(&self, scene: &Scene<Sight>) -> String {
        draw(self, scene)
    }
}

/// The drawing of a Sight position.
fn draw(pos: &Sight, scene: &Scene<Sight>) -> String {
    let n = pos.size();
    let geo = pos.geometry();
    let frame = Frame {
        n,
        flipped: scene.flipped,
    };
    let span = (n - 1) as f64 * STEP;
    let (w, h) = (2.0 * MARGIN + span, 2.0 * MARGIN + span + STATUS);
    let mut svg = Svg::new("sight", w, h, CSS);
    arrow_defs(&mut svg);
    svg.rect((0.0, 0.0, w, h), "bg", &[]);

    svg.open_group("lines");
    for i in 0..n {
        svg.line(frame.at(0, i), frame.at(n - 1, i), "line");
        svg.line(frame.at(i, 0), frame.at(i, n - 1), "line");
    }
    for y in 0..n - 1 {
        for x in 0..n - 1 {
            // docs/rules/sight.md §1.2: the diagonal joins the square's two corners with x + y
            // even.
            if (x + y) % 2 == 0 {
                svg.line(frame.at(x, y), frame.at(x + 1, y + 1), "line diagonal");
            } else {
                svg.line(frame.at(x + 1, y), frame.at(x, y + 1), "line diagonal");
            }
        }
    }
    svg.close_group();

    svg.open_group("coords");
    for i in 0..n {
        let file = ((b'a' + frame.label(i) as u8) as char).to_string();
        let x = MARGIN + i as f64 * STEP;
        svg.text((x, MARGIN + span + MARGIN * 0.66), "coord", &file, &[]);
        let y = MARGIN + (n - 1 - i) as f64 * STEP;
        let rank = (frame.label(i) + 1).to_string();
        svg.text((MARGIN * 0.4, y), "coord", &rank, &[]);
    }
    svg.close_group();

    svg.open_group("points");
    for p in 0..geo.points {
        let (cx, cy) = frame.point(p);
        svg.circle(cx, cy, 5.0, "point", &[]);
    }
    svg.close_group();

    let spot = STEP * 0.42;
    svg.open_group("spots");
    for p in 0..geo.points {
        let (cx, cy) = frame.point(p);
        svg.circle(cx, cy, spot, "spot", &[("data-spot", &geo.square_name(p))]);
    }
    svg.close_group();

    let (from, to) = move_points(pos, scene.mv);
    svg.open_group("last-move");
    for (point, class) in [(from, "last from"), (to, "last to")] {
        if let Some(p) = point {
            let (cx, cy) = frame.point(p);
            svg.circle(cx, cy, spot, class, &[("data-last", &geo.square_name(p))]);
        }
    }
    svg.close_group();

    svg.open_group("pieces");
    for p in 0..geo.points {
        let Some((owner, height)) = pos.pile(p) else {
            continue;
        };
        let (cx, cy) = frame.point(p);
        let name = geo.square_name(p);
        let seat = seat(owner);
        let r = STEP * 0.34;
        if height >= 2 {
            // A second disc peeking out below marks a stack.
            svg.circle(cx + 3.0, cy + 5.0, r, &format!("shade {seat}"), &[]);
        }
        let h = height.to_string();
        let extra = [("data-at", name.as_str()), ("data-height", h.as_str())];
        svg.circle(cx, cy, r, &format!("piece {seat}"), &extra);
        if height >= 2 {
            svg.text((cx, cy), &format!("height {seat}"), &h, &[]);
        }
    }
    svg.close_group();

    svg.open_group("happened");
    for p in stuck(pos) {
        let (cx, cy) = frame.point(p);
        let name = geo.square_name(p);
        svg.circle(cx, cy, STEP * 0.43, "stuck", &[("data-stuck", &name)]);
    }
    if let Some(before) = &scene.before {
        for (p, grew) in grown(before, pos) {
            let (cx, cy) = frame.point(p);
            let name = geo.square_name(p);
            let at = (cx + STEP * 0.3, cy - STEP * 0.3);
            badge(&mut svg, at, BADGE, "grown", &format!("+{grew}"), &name);
        }
    }
    svg.close_group();

    svg.open_group("dots");
    for p in 0..geo.points {
        let name = geo.square_name(p);
        let occupied = pos.pile(p).is_some();
        legal_dot(
            &mut svg,
            frame.point(p),
            &name,
            occupied,
            (STEP * 0.12, STEP * 0.4),
        );
    }
    svg.close_group();
    arrow_layer(&mut svg);

    svg.open_group("cells");
    for p in 0..geo.points {
        let (cx, cy) = frame.point(p);
        let name = geo.square_name(p);
        svg.circle(cx, cy, STEP * 0.46, "cell", &[("data-cell", &name)]);
    }
    svg.close_group();

    let status = match pos.outcome() {
        Some(Outcome::Win(p)) => format!("{} wins: {} has no move", name(p), name(p.opponent())),
        Some(Outcome::Draw) => "Draw".to_string(),
        None => format!("{} to move", name(pos.side_to_move())),
    };
    svg.text((w / 2.0, h - STATUS * 0.6), "status", &status, &[]);
    svg.finish()
}

/// A player's colour name.
fn name(p: Player) -> &'static str {
    match p {
        Player::One => "White",
        Player::Two => "Black",
    }
}

#[cfg(test)]
mod tests {
    use super::super::{board_svg, count};
    use crate::game::GameId;

    fn draw(fen: &str, options: &[(&str, &str)]) -> Result<String, String> {
        let options: Vec<(String, String)> = options
            .iter()
            .map(|&(n, v)| (n.to_string(), v.to_string()))
            .collect();
        board_svg(GameId::Sight, fen, &options)
    }

    #[test]
    fn start_position_has_25_cells_and_no_pieces() -> Result<(), String> {
        let svg = draw("5:x5/x5/x5/x5/x5 w", &[])?;
        assert_eq!(count(&svg, "class=\"cell\""), 25);
        for name in ["a1", "e1", "c3", "a5", "e5"] {
            assert_eq!(count(&svg, &format!("data-cell=\"{name}\"")), 1, "{name}");
        }
        assert_eq!(count(&svg, "data-cell=\"f1\""), 0);
        assert_eq!(count(&svg, "class=\"piece p"), 0);
        // 2·5 orthogonal lines and (5−1)² diagonals (docs/rules/sight.md §1.2).
        assert_eq!(count(&svg, "class=\"line\""), 10);
        assert_eq!(count(&svg, "class=\"line diagonal\""), 16);
        assert!(svg.contains("White to move"));
        Ok(())
    }

    #[test]
    fn mid_game_piles_and_heights() -> Result<(), String> {
        // TV8: White w2 b5, w2 b4, w3 b3, w c3; Black b3 e5, b c2, b d2, b3 b1.
        let svg = draw("5:x,w2,x2,b3/x,w2,x3/x,w3,w,x2/x2,b,b,x/x,b3,x3 w", &[])?;
        assert_eq!(count(&svg, "class=\"cell\""), 25);
        assert_eq!(count(&svg, "class=\"piece p1\""), 4);
        assert_eq!(count(&svg, "class=\"piece p2\""), 4);
        assert!(svg.contains("data-at=\"b3\" data-height=\"3\""));
        assert!(svg.contains("data-at=\"c3\" data-height=\"1\""));
        assert_eq!(count(&svg, "class=\"height p1\""), 3);
        assert_eq!(count(&svg, "class=\"height p2\""), 2);
        assert!(svg.contains(">3</text>"));
        Ok(())
    }

    #[test]
    fn seven_by_seven_board() -> Result<(), String> {
        let svg = draw("7:x7/x7/x7/x3,w,x3/x7/x7/x7 b", &[("Sight_BoardSize", "7")])?;
        assert_eq!(count(&svg, "class=\"cell\""), 49);
        assert_eq!(count(&svg, "data-cell=\"g7\""), 1);
        assert_eq!(count(&svg, "class=\"line diagonal\""), 36);
        assert_eq!(count(&svg, "class=\"piece p1\""), 1);
        assert!(svg.contains("data-at=\"d4\""));
        assert!(svg.contains("Black to move"));
        Ok(())
    }

    #[test]
    fn finished_game_names_the_winner() -> Result<(), String> {
        // TV12: White's only stack is shut in; Black wins.
        let svg = draw("5:x5/x5/x5/b2,b,x3/w2,w,x3 w", &[])?;
        assert!(svg.contains("Black wins: White has no move"));
        Ok(())
    }

    #[test]
    fn bad_fen_gives_the_parser_message() {
        assert_eq!(
            draw("5:x5/x5/x5/x5/x5 q", &[]),
            Err("side to move must be w or b, not 'q'".to_string())
        );
        assert_eq!(
            draw("5:x5/x5/x5/x5 w", &[]),
            Err("a 5×5 board needs 5 ranks, found 4".to_string())
        );
    }
}
