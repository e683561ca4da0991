//! Server-side SVG drawings of positions for the browser GUI.
//!
//! [`board_svg`] reads a position in a game's own notation and draws it as one self-contained
//! `<svg>` element, seen from player one's side; [`board_svg_view`] can also turn it to player
//! two's side ([`View::flipped`]) and show the last move and what it did ([`View::last`]). The
//! drawings keep a few conventions the page's JavaScript relies on:
//! - every place a player can click is an element with `class="cell"` and
//!   `data-cell="<name>"`, `<name>` being exactly the square token of the move notation; the
//!   cells are drawn last, on top, transparent, so every click reaches them, whichever way the
//!   board is turned;
//! - pieces, stacks and tiles carry `class="piece p1"` / `class="piece p2"` (Isaac: `tile d` /
//!   `tile l`) and never take pointer events; no highlight ever changes their fill: highlights
//!   are drawn under them (`spot`, `last`) or as outlines, dots and small badges over them
//!   (see `overlay.rs` for the layers and classes);
//! - the embedded `<style>` wraps every selector in `:where(…)`, so it has zero specificity
//!   and any rule of the page's CSS overrides it.

mod isaac;
mod overlay;
mod sight;
mod tactigon;

use crate::game::dynamic::option_values;
use crate::game::present::Present;
use crate::game::{Game, GameId, OptionValues};
use serde_json::Value;
use std::fmt::Write as _;

/// A game as the front ends draw it, implemented beside its drawing (`svg/<game>.rs`): the
/// board picture, and the game's own panel beside the board if it has one.
pub(crate) trait Draw: Present {
    /// The drawing of the position as `scene` shows it.
    fn draw(&self, scene: &Scene<Self>) -> String;

    /// Whether the game has a drawing of its board on its side ([`View::landscape`]) that
    /// differs from the upright one (Tactigon's tall board); false by default.
    const LANDSCAPE: bool = false;

    /// The game's own part of the page's state, sent under the game's name (Isaac's panel:
    /// [`crate::gui::web::isaac`]); none by default.
    fn panel(&self) -> Option<Value> {
        None
    }
}

/// Code generic over a game's drawing, run for a game chosen at run time by [`visit`].
pub(crate) trait DrawVisitor {
    /// What the visit returns.
    type Output;
    /// Runs the generic code for game `G`.
    fn visit<G: Draw>(self) -> Self::Output;
}

/// The front ends' one dispatch from a runtime game to its drawing ([`Draw`]): one arm per game.
pub(crate) fn visit<V: DrawVisitor>(game: GameId, visitor: V) -> V::Output {
    match game {
        GameId::Isaac => visitor.visit::<crate::game::isaac::Isaac>(),
        GameId::Sight => visitor.visit::<crate::game::sight::Sight>(),
        GameId::Tactigon => visitor.visit::<crate::game::tactigon::Tactigon>(),
    }
}

/// An SVG drawing (a complete `<svg …>…</svg>` string, viewBox-based so it scales) of the
/// position `fen` of `game`, read with the rule options `options` (e.g.
/// `("Sight_BoardSize", "7")`), as a person sees it from player one's side.
///
/// Errors: an unknown option or a bad option value (with the option's name), or the game's
/// own message when `fen` cannot be read.
pub fn board_svg(game: GameId, fen: &str, options: &[(String, String)]) -> Result<String, String> {
    board_svg_view(game, fen, options, &View::default())
}

/// How a position is shown besides the position itself.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct View<'a> {
    /// Seen from player two's side: Isaac in Light's frame, Sight with Black below, Tactigon
    /// with Blue below (the board turned half round; names and coordinates follow).
    pub flipped: bool,
    /// The move that led to the position, if any: it is highlighted, and what it did is marked.
    pub last: Option<LastMove<'a>>,
    /// For a screen wider than tall: the board lying on its side where the game has such a
    /// drawing ([`has_landscape`]: Tactigon, player one on the left); the upright board
    /// otherwise.
    pub landscape: bool,
}

/// The move that led to a position, and the position before it.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct LastMove<'a> {
    /// The move in the protocol notation.
    pub mv: &'a str,
    /// The position before it, in the game's notation (as `query fen` printed it).
    pub before: &'a str,
}

/// What a game's drawing needs besides the position: the orientation, the position before the
/// last move (when it can be read) and the last move.
pub(crate) struct Scene<'a, P> {
    /// Seen from player two's side.
    pub flipped: bool,
    /// The position before the last move.
    pub before: Option<P>,
    /// The last move, `""` if none.
    pub mv: &'a str,
    /// The board on its side, for a wide screen (games with [`Draw::LANDSCAPE`]).
    pub landscape: bool,
}

/// [`board_svg`] seen as `view` says: turned to player two's side, with the last move (from and
/// to, or the tile placed or removed) highlighted under the pieces and what it did marked
/// (Tactigon captures, Sight piles that grew, Isaac points won), plus what the position
/// threatens (Tactigon's gold pair, Sight's stacks that cannot move). A `view.last.before`
/// that cannot be read only leaves those marks out.
///
/// Errors: as [`board_svg`].
pub fn board_svg_view(
    game: GameId,
    fen: &str,
    options: &[(String, String)],
    view: &View,
) -> Result<String, String> {
    struct Picture<'a, 'b>(&'a str, OptionValues, &'a View<'b>);
    impl DrawVisitor for Picture<'_, '_> {
        type Output = Result<String, String>;
        fn visit<G: Draw>(self) -> Result<String, String> {
            let Picture(fen, values, view) = self;
            let (pos, scene) = read::<G>(fen, &values, view)?;
            Ok(pos.draw(&scene))
        }
    }
    let values = option_values(game, options)?;
    visit(game, Picture(fen, values, view))
}

/// Whether `game` has a drawing of its board on its side ([`View::landscape`]) unlike its
/// upright one: the page then gets both, and shows the one that fills its window best.
pub fn has_landscape(game: GameId) -> bool {
    struct Landscape;
    impl DrawVisitor for Landscape {
        type Output = bool;
        fn visit<G: Draw>(self) -> bool {
            G::LANDSCAPE
        }
    }
    visit(game, Landscape)
}

/// The game's own part of the page's state for the position `fen` (read with the rule options
/// `options`), with the name it is sent under (`Draw::panel`); `None` for a game without one
/// or a position that cannot be read.
pub fn panel(
    game: GameId,
    fen: &str,
    options: &[(String, String)],
) -> Option<(&'static str, Value)> {
    struct Panel<'a>(&'a str, OptionValues);
    impl DrawVisitor for Panel<'_> {
        type Output = Option<Value>;
        fn visit<G: Draw>(self) -> Option<Value> {
            G::from_fen(self.0, &G::settings(&self.1)).ok()?.panel()
        }
    }
    let values = option_values(game, options).ok()?;
    visit(game, Panel(fen, values)).map(|value| (game.name(), value))
}

/// The position `fen` and the scene of `view`, read with `values`.
fn read<'a, G: Game>(
    fen: &str,
    values: &OptionValues,
    view: &View<'a>,
) -> Result<(G, Scene<'a, G>), String> {
    let settings = G::settings(values);
    let pos = G::from_fen(fen, &settings).map_err(|e| e.0)?;
    let before = view
        .last
        .and_then(|last| G::from_fen(last.before, &settings).ok());
    let scene = Scene {
        flipped: view.flipped,
        before,
        mv: view.last.map_or("", |last| last.mv),
        landscape: view.landscape,
    };
    Ok((pos, scene))
}

/// Escapes text for use in XML content and in double-quoted attribute values.
pub(crate) fn escape(text: &str) -> String {
    let mut out = String::with_capacity(text.len());
    for ch in text.chars() {
        match ch {
            '&' => out.push_str("&amp;"),
            '<' => out.push_str("&lt;"),
            '>' => out.push_str("&gt;"),
            '"' => out.push_str("&quot;"),
            '\'' => out.push_str("&#39;"),
            _ => out.push(ch),
        }
    }
    out
}

/// A coordinate written with at most two decimals and no trailing zeros.
pub(crate) fn num(v: f64) -> String {
    let s = format!("{v:.2}");
    let s = s.trim_end_matches('0').trim_end_matches('.');
    if s == "-0" {
        "0".to_string()
    } else {
        s.to_string()
    }
}

/// Styles shared by every game: transparent click targets on top, and pieces that let clicks
/// through. `{B}` stands for the board class. The classes the page gives the cells (`legal`,
/// `selected`, `hint`, …) paint nothing on them: the overlay layers show them.
const COMMON_CSS: &str = "\
:where({B} .cell){fill:transparent;stroke:none;pointer-events:all;cursor:pointer}
:where({B} .piece,{B} .tile,{B} .counter,{B} text){pointer-events:none}
:where({B} text){font-family:sans-serif;user-select:none}
:where({B} .status){font-size:16px;fill:#333}
:where({B} .status.alert){fill:#b3261e;font-weight:bold}
";

/// A drawing being written: the open `<svg>` element and its children.
pub(crate) struct Svg {
    out: String,
}

impl Svg {
    /// Opens `<svg class="board board-<game>">` with a viewBox of `width` × `height` and the
    /// shared styles plus `css` (in which `{B}` stands for `.board-<game>`).
    pub(crate) fn new(game: &str, width: f64, height: f64, css: &str) -> Svg {
        let board = format!(".board-{game}");
        let mut out = String::with_capacity(32 * 1024);
        let _ = write!(
            out,
            "<svg xmlns=\"http://www.w3.org/2000/svg\" class=\"board board-{game}\" \
             viewBox=\"0 0 {w} {h}\" preserveAspectRatio=\"xMidYMid meet\">\
             <style>{common}{overlay}{css}</style>",
            w = num(width),
            h = num(height),
            common = COMMON_CSS.replace("{B}", &board),
            overlay = overlay::OVERLAY_CSS.replace("{B}", &board),
            css = css.replace("{B}", &board),
        );
        Svg { out }
    }

    /// Writes markup as it is (for the caller's own, already escaped, elements).
    pub(crate) fn raw(&mut self, markup: &str) {
        self.out.push_str(markup);
    }

    /// Writes ` name="value"` for each attribute, values escaped.
    fn attrs(&mut self, class: &str, extra: &[(&str, &str)]) {
        if !class.is_empty() {
            let _ = write!(self.out, " class=\"{}\"", escape(class));
        }
        for (name, value) in extra {
            let _ = write!(self.out, " {name}=\"{}\"", escape(value));
        }
    }

    /// A rectangle.
    pub(crate) fn rect(
        &mut self,
        (x, y, w, h): (f64, f64, f64, f64),
        class: &str,
        extra: &[(&str, &str)],
    ) {
        let _ = write!(
            self.out,
            "<rect x=\"{}\" y=\"{}\" width=\"{}\" height=\"{}\"",
            num(x),
            num(y),
            num(w),
            num(h)
        );
        self.attrs(class, extra);
        self.out.push_str("/>");
    }

    /// A circle.
    pub(crate) fn circle(&mut self, cx: f64, cy: f64, r: f64, class: &str, extra: &[(&str, &str)]) {
        let _ = write!(
            self.out,
            "<circle cx=\"{}\" cy=\"{}\" r=\"{}\"",
            num(cx),
            num(cy),
            num(r)
        );
        self.attrs(class, extra);
        self.out.push_str("/>");
    }

    /// A straight line.
    pub(crate) fn line(&mut self, (x1, y1): (f64, f64), (x2, y2): (f64, f64), class: &str) {
        let _ = write!(
            self.out,
            "<line x1=\"{}\" y1=\"{}\" x2=\"{}\" y2=\"{}\"",
            num(x1),
            num(y1),
            num(x2),
            num(y2)
        );
        self.attrs(class, &[]);
        self.out.push_str("/>");
    }

    /// A closed polygon through `points`.
    pub(crate) fn polygon(&mut self, points: &[(f64, f64)], class: &str, extra: &[(&str, &str)]) {
        let list: Vec<String> = points
            .iter()
            .map(|&(x, y)| format!("{},{}", num(x), num(y)))
            .collect();
        let _ = write!(self.out, "<polygon points=\"{}\"", list.join(" "));
        self.attrs(class, extra);
        self.out.push_str("/>");
    }

    /// Text anchored at `(x, y)` (the page's CSS decides alignment through the class, or pass
    /// `text-anchor` in `extra`).
    pub(crate) fn text(
        &mut self,
        (x, y): (f64, f64),
        class: &str,
        content: &str,
        extra: &[(&str, &str)],
    ) {
        let _ = write!(self.out, "<text x=\"{}\" y=\"{}\"", num(x), num(y));
        self.attrs(class, extra);
        let _ = write!(self.out, ">{}</text>", escape(content));
    }

    /// Opens a `<g>` group with a class.
    pub(crate) fn open_group(&mut self, class: &str) {
        self.open_group_with(class, &[]);
    }

    /// Opens a `<g>` group with a class and other attributes.
    pub(crate) fn open_group_with(&mut self, class: &str, extra: &[(&str, &str)]) {
        self.out.push_str("<g");
        self.attrs(class, extra);
        self.out.push('>');
    }

    /// Closes the last open group.
    pub(crate) fn close_group(&mut self) {
        self.out.push_str("</g>");
    }

    /// Closes the `<svg>` element and returns the drawing.
    pub(crate) fn finish(mut self) -> String {
        self.out.push_str("</svg>");
        self.out
    }
}

/// The points of a regular polygon with `sides` corners around `(cx, cy)`, radius `r`, the
/// first corner at `start_deg` degrees (0 = to the right, clockwise on screen).
pub(crate) fn regular_polygon(
    cx: f64,
    cy: f64,
    r: f64,
    sides: usize,
    start_deg: f64,
) -> Vec<(f64, f64)> {
    (0..sides)
        .map(|i| {
            let a = (start_deg + 360.0 * i as f64 / sides as f64).to_radians();
            (cx + r * a.cos(), cy + r * a.sin())
        })
        .collect()
}

/// Counts the occurrences of `needle` in `haystack` (for tests).
#[cfg(test)]
pub(crate) fn count(haystack: &str, needle: &str) -> usize {
    haystack.matches(needle).count()
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn escape_and_numbers() {
        assert_eq!(
            escape("a<b & \"c\" 'd'>"),
            "a&lt;b &amp; &quot;c&quot; &#39;d&#39;&gt;"
        );
        assert_eq!(num(1.0), "1");
        assert_eq!(num(1.256), "1.26");
        assert_eq!(num(-0.001), "0");
        assert_eq!(num(20.5), "20.5");
    }

    #[test]
    fn unknown_or_bad_options_are_refused() {
        let opt = |n: &str, v: &str| vec![(n.to_string(), v.to_string())];
        let e = board_svg(GameId::Sight, "5:x5/x5/x5/x5/x5 w", &opt("Nope", "1"));
        assert!(e.is_err_and(|e| e.contains("Nope")));
        let e = board_svg(
            GameId::Sight,
            "5:x5/x5/x5/x5/x5 w",
            &opt("Sight_BoardSize", "x"),
        );
        assert!(e.is_err_and(|e| e.contains("Sight_BoardSize")));
        let ok = board_svg(
            GameId::Sight,
            "7:x7/x7/x7/x7/x7/x7/x7 w",
            &opt("sight_boardsize", "7"),
        );
        assert!(ok.is_ok());
    }

    #[test]
    fn every_game_draws_its_start_position() {
        for &game in GameId::ALL {
            struct StartFen;
            impl crate::game::GameVisitor for StartFen {
                type Output = String;
                fn visit<G: crate::game::Searchable>(self) -> String {
                    G::start(&G::settings(&OptionValues::from_specs(&G::options()))).to_fen()
                }
            }
            let fen = game.visit(StartFen);
            let svg = board_svg(game, &fen, &[]).unwrap_or_else(|e| panic!("{game}: {e}"));
            assert!(svg.starts_with("<svg xmlns=\"http://www.w3.org/2000/svg\""));
            assert!(svg.contains(&format!("class=\"board board-{}\"", game.name())));
            assert!(svg.ends_with("</svg>"));
            assert_eq!(count(&svg, "<g"), count(&svg, "</g>"));
        }
    }

    /// Writes sample drawings to `/tmp/svg-*.svg` for looking at them:
    /// `cargo test --lib svg::tests::dump -- --ignored`.
    #[test]
    #[ignore]
    fn dump() -> Result<(), String> {
        let samples = [
            (GameId::Sight, "sight", "5:x5/x5/x5/x5/x5 w", vec![]),
            (
                GameId::Sight,
                "sight-mid",
                "5:x,w2,x2,b3/x,w2,x3/x,w3,w,x2/x2,b,b,x/x,b3,x3 w",
                vec![],
            ),
            (
                GameId::Sight,
                "sight-7",
                "7:x7/x,b2,x5/x3,w,x3/x2,w3,b,x3/x7/x7/x7 w",
                vec![("Sight_BoardSize".to_string(), "7".to_string())],
            ),
            (
                GameId::Isaac,
                "isaac",
                "- 54321/54321 d P - 0/0 0/0",
                vec![],
            ),
            (
                GameId::Isaac,
                "isaac-mid",
                "L3v07,L3v09,L3h20,D4h23,D3v31,D5h60,D3h70 00000/00000 d S - 28/79 3/0",
                vec![],
            ),
            (
                GameId::Isaac,
                "isaac-full",
                "D6h00,D4h06,D6h10,L4h16,L6h20,D4h26,L5h30,L5h35,L5h40,D5h45,D3h50,D3h53,L4h56,D3h60,D3h63,D4h66,L3h70,L3h73,L4h76,L3h80,L3h83,L4h86,L3h90,D4h93,D3h97 00201/00011 l S - 0/0 0/0",
                vec![],
            ),
            (
                GameId::Tactigon,
                "tactigon",
                "2/C1C3c1c/1ST4ts1/CTPSC1csptc/1ST4ts1/C1C3c1c/2 r 0",
                vec![],
            ),
            (
                GameId::Tactigon,
                "tactigon-mid",
                "2/C1C2sc1c/1ST2S1ts1/CTP1C1c1ptc/1ST4ts1/C1C3c1c/2 r 2",
                vec![],
            ),
        ];
        for (game, name, fen, options) in samples {
            let svg = board_svg(game, fen, &options)?;
            std::fs::write(format!("/tmp/svg-{name}.svg"), svg).map_err(|e| e.to_string())?;
        }
        Ok(())
    }
}
