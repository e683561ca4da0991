//! What the drawings show besides the position, in layers that never paint over a piece:
//! - under the pieces: a `spot` per cell (`data-spot`, transparent until the page gives it the
//!   class `selected` or `preview`) and the last move (`last from`, `last to`);
//! - over the pieces, small and off their centre or as outlines only: what the last move did
//!   (`capture` ×, `grown` +1 badges, `stuck` rings, the `gold-alert` rings, Isaac's `gain`),
//!   Isaac's tile `ring`s (`data-ring`, shown as `legal` or `selected`), and a legal-move `dot`
//!   per cell (`data-dot`, hidden until the page gives it the class `legal`; a ring round an
//!   occupied cell, a small dot on an empty one);
//! - an empty `<g class="arrows">` group and the `<defs>` with the arrowheads the page uses
//!   to draw the hint and the engine's line (`arrow hint`, `arrow pv`, Isaac `ghost` tiles: a
//!   translucent tile where one would be placed, only a dashed outline round a tile to be
//!   removed, which keeps its own colour).

use super::Svg;

/// The styles of the overlay layers (`{B}` stands for the board class).
pub(super) const OVERLAY_CSS: &str = "\
:where({B} .spot){fill:transparent;stroke:none;pointer-events:none}
:where({B} .spot.selected){fill:rgba(20,85,30,.45)}
:where({B} .spot.preview){fill:rgba(40,160,70,.45)}
:where({B} .last){fill:rgba(155,199,0,.45);stroke:rgba(110,140,0,.9);stroke-width:2;pointer-events:none}
:where({B} .last.from){fill:rgba(155,199,0,.3)}
:where({B} .last-tile){fill:none;stroke:#8fb000;stroke-width:4;pointer-events:none}
:where({B} .last-gone){fill:none;stroke:#8fb000;stroke-width:3;stroke-dasharray:6 4;pointer-events:none}
:where({B} .dot){fill:rgba(20,85,30,.5);stroke:none;visibility:hidden;pointer-events:none}
:where({B} .dot.on-piece){fill:none;stroke:rgba(20,85,30,.6);stroke-width:5}
:where({B} .dot.legal){visibility:visible}
:where({B} .ring){fill:none;stroke:none;pointer-events:none}
:where({B} .ring.legal){stroke:#1e8c3a;stroke-width:3;stroke-dasharray:5 3}
:where({B} .ring.selected){stroke:#d08a00;stroke-width:5;stroke-dasharray:none}
:where({B} .badge){pointer-events:none}
:where({B} .badge circle){stroke:#fff;stroke-width:1.5}
:where({B} .badge text){font-size:16px;font-weight:bold;fill:#fff;text-anchor:middle;dominant-baseline:central}
:where({B} .capture circle){fill:#c62828}
:where({B} .grown circle,{B} .gain circle){fill:#2e7d32}
:where({B} .stuck){fill:none;stroke:#c62828;stroke-width:3;stroke-dasharray:4 3;pointer-events:none}
:where({B} .gold-alert){fill:none;stroke:#c62828;stroke-width:4;stroke-dasharray:8 4;pointer-events:none}
:where({B} .arrows){pointer-events:none}
:where({B} .arrow){stroke-linecap:round;fill:none}
:where({B} .arrow.hint){stroke:rgba(230,110,0,.85)}
:where({B} .arrow.pv){stroke:rgba(21,120,27,.8)}
:where({B} .ghost){stroke-width:3;stroke-dasharray:6 3;pointer-events:none}
:where({B} .ghost.hint){fill:rgba(230,110,0,.3);stroke:rgba(230,110,0,.9)}
:where({B} .ghost.pv){fill:rgba(21,120,27,.25);stroke:rgba(21,120,27,.8)}
:where({B} .ghost.removal){fill:none;stroke-width:5}
:where({B} .arrow-label){font-size:17px;font-weight:bold;fill:#fff;stroke:#0b4a10;stroke-width:3px;paint-order:stroke;text-anchor:middle;dominant-baseline:central}
";

/// The arrowheads of the hint and of the engine's line, and the empty group the page draws
/// its arrows into.
pub(super) fn arrow_defs(svg: &mut Svg) {
    svg.raw(
        "<defs>\
         <marker id=\"ludus-arrow-hint\" class=\"arrowhead hint\" viewBox=\"0 0 10 10\" refX=\"5\" \
         refY=\"5\" markerWidth=\"3\" markerHeight=\"3\" orient=\"auto-start-reverse\">\
         <path d=\"M0,0 L10,5 L0,10 z\" fill=\"rgba(230,110,0,.85)\"/></marker>\
         <marker id=\"ludus-arrow-pv\" class=\"arrowhead pv\" viewBox=\"0 0 10 10\" refX=\"5\" \
         refY=\"5\" markerWidth=\"3\" markerHeight=\"3\" orient=\"auto-start-reverse\">\
         <path d=\"M0,0 L10,5 L0,10 z\" fill=\"rgba(21,120,27,.8)\"/></marker>\
         </defs>",
    );
}

/// The group the page draws the hint and the engine's line into (above the pieces, below the
/// click targets).
pub(super) fn arrow_layer(svg: &mut Svg) {
    svg.raw("<g class=\"arrows\"></g>");
}

/// A small round badge of radius `r` with `text` at `(x, y)`: `kind` is `capture`, `grown` or
/// `gain`, and `cell` names the cell it is about (`data-<kind>="<cell>"`).
pub(super) fn badge(svg: &mut Svg, (x, y): (f64, f64), r: f64, kind: &str, text: &str, cell: &str) {
    let attr = format!("data-{kind}");
    svg.raw(&format!(
        "<g class=\"badge {kind}\" {attr}=\"{}\">",
        super::escape(cell)
    ));
    svg.circle(x, y, r, "", &[]);
    svg.text((x, y), "", text, &[]);
    svg.raw(&format!(
        "<title>{}</title></g>",
        super::escape(&title(kind))
    ));
}

/// What a badge means, for its tooltip.
fn title(kind: &str) -> String {
    match kind {
        "capture" => "captured on the last move".into(),
        "grown" => "grew on the last move".into(),
        "gain" => "points won by the last move".into(),
        other => other.into(),
    }
}

/// A legal-move dot for the cell `name` centred at `(x, y)`: a ring of radius `ring` round an
/// occupied cell, a dot of radius `dot` on an empty one.
pub(super) fn legal_dot(
    svg: &mut Svg,
    (x, y): (f64, f64),
    name: &str,
    occupied: bool,
    (dot, ring): (f64, f64),
) {
    let (r, class) = if occupied {
        (ring, "dot on-piece")
    } else {
        (dot, "dot")
    };
    svg.circle(x, y, r, class, &[("data-dot", name)]);
}

/// A dashed outline of a rectangle, e.g. where a removed Isaac tile lay.
pub(super) fn outline(
    svg: &mut Svg,
    rect: (f64, f64, f64, f64),
    class: &str,
    data: &[(&str, &str)],
) {
    let mut extra = vec![("rx", "6")];
    extra.extend_from_slice(data);
    svg.rect(rect, class, &extra);
}
