//! Isaac's part of the page's state (`isaac` in the state JSON, [`crate::gui::svg::Draw::panel`]):
//! what the panel under the board shows — the phase, the side to move or the result, and per
//! player the score, the counter's cell, the floor, the hand and whether they passed or are
//! out — and, in the scoring phase, what each removal open to the mover would do
//! ([`RemovalPreview`], worked out by the rules): the points with their factors, the cell the
//! counter lands on for every advance, and the advance the collision rule forbids. The page
//! shows these as they are; it knows no rule of the game.

use serde_json::{Value, json};

use crate::game::isaac::present::tile_code;
use crate::game::isaac::tables::{SIZES, VALUES};
use crate::game::isaac::{Isaac, Phase, RemovalPreview};
use crate::game::present::Present;
use crate::game::{Game, Outcome, Player};

/// The `isaac` field of the state of position `pos`.
pub fn panel(pos: &Isaac) -> Value {
    let names = Isaac::SEATS;
    let phase = match pos.phase() {
        Phase::Placement => "placement",
        Phase::Scoring => "scoring",
        Phase::Ended => "ended",
    };
    let (d, l) = (pos.score(Player::One), pos.score(Player::Two));
    let status = match pos.outcome() {
        None => format!("{} to move", names[pos.side_to_move().index()]),
        Some(Outcome::Win(p)) => format!(
            "{} wins {}–{}",
            names[p.index()],
            pos.score(p),
            pos.score(p.opponent())
        ),
        Some(Outcome::Draw) => format!("Draw {d}–{l}"),
    };
    let players: Vec<Value> = [Player::One, Player::Two]
        .into_iter()
        .map(|p| player(pos, p, names[p.index()]))
        .collect();
    let removals: Vec<Value> = pos.removal_previews().iter().map(removal).collect();
    json!({
        "phase": phase,
        "status": status,
        "sizes": SIZES,
        "values": VALUES,
        "players": players,
        "removals": removals,
    })
}

/// A cell as the board names it (`data-cell`): two digits in Dark's frame.
fn cell(c: Option<usize>) -> Value {
    c.map_or(Value::Null, |c| json!(format!("{c:02}")))
}

/// One player's line of the panel.
fn player(pos: &Isaac, p: Player, name: &str) -> Value {
    let placing = pos.phase() == Phase::Placement;
    let tag = match (pos.has_passed(p), placing) {
        (false, _) => None,
        (true, true) => Some("passed"),
        (true, false) => Some("out"),
    };
    json!({
        "name": name,
        "seat": if p == Player::One { "d" } else { "l" },
        "score": pos.score(p),
        "counter": if placing { Value::Null } else { cell(pos.counter_cell(p)) },
        "floor": pos.floor(p),
        "hand": pos.hand(p),
        "tiles": pos.unplaced_tiles(p),
        "cells": pos.unplaced_cells(p),
        "tag": tag,
    })
}

/// What removing one tile would do: `cells[k]` is where the counter lands after advancing `k`
/// (`null`: off the board, a win), for every `k` from 0 to `earned`.
fn removal(r: &RemovalPreview) -> Value {
    let cells: Vec<Value> = (0..=r.earned).map(|k| cell(r.landing(k))).collect();
    let collision = r
        .collision
        .map(|k| json!({ "advance": k, "cell": cell(r.landing(k)) }));
    json!({
        "tile": tile_code(r.tile),
        "tiles_on_line": r.tiles_on_line,
        "value": r.value,
        "counters_on_line": r.counters_on_line,
        "earned": r.earned,
        "score": r.score,
        "cells": cells,
        "collision": collision,
    })
}

#[cfg(test)]
mod tests {
    use super::*;

    fn state(fen: &str) -> Value {
        let pos = Isaac::from_fen(fen, &Default::default());
        panel(&pos.unwrap_or_else(|e| panic!("{fen}: {e}")))
    }

    #[test]
    fn the_start_shows_full_hands_and_no_counters() {
        let s = state("- 54321/54321 d P - 0/0 0/0");
        assert_eq!(s["phase"], "placement");
        assert_eq!(s["status"], "Dark to move");
        assert_eq!(s["players"][0]["hand"], json!([5, 4, 3, 2, 1]));
        assert_eq!(s["players"][1]["cells"], 65);
        assert_eq!(s["players"][0]["counter"], Value::Null);
        assert_eq!(s["values"], json!([1, 2, 3, 4, 6]));
        assert_eq!(s["removals"], json!([]));
    }

    #[test]
    fn a_scoring_position_gives_each_removal_its_landing_cells() {
        // docs/rules/isaac.md §8 TV4: x4h23 earns 3 × 2 × 4 = 24, from Dark's 28.
        let s = state("L3v07,L3v09,L3h20,D4h23,D3v31,D5h60,D3h70 00000/00000 d S - 28/79 3/0");
        assert_eq!(s["phase"], "scoring");
        assert_eq!(s["players"][0]["counter"], "28");
        assert_eq!(s["players"][1]["counter"], "20");
        assert_eq!(s["players"][0]["floor"], 3);
        let r = &s["removals"][0];
        assert_eq!(r["tile"], "4h23");
        assert_eq!(
            [&r["tiles_on_line"], &r["value"], &r["counters_on_line"]],
            [3, 2, 2]
        );
        assert_eq!(r["earned"], 24);
        assert_eq!(r["cells"].as_array().map(Vec::len), Some(25));
        assert_eq!(
            (&r["cells"][0], &r["cells"][24]),
            (&json!("28"), &json!("52"))
        );
        assert_eq!(r["collision"], Value::Null);
        // TV5: +4 would land on Light's counter (14); TV6: +5 leaves the board.
        let s = state("D3h13,D3v39,D5h50,L3h55,L3v58 00000/00000 d S - 10/85 0/0");
        assert_eq!(
            s["removals"][1]["collision"],
            json!({"advance": 4, "cell": "14"})
        );
        let s = state("D4h60,L3v64,L3h65,L3v68,D3v69 00000/00000 d S - 95/1 0/0");
        assert_eq!(s["removals"][0]["cells"][5], Value::Null);
    }

    #[test]
    fn the_end_and_who_is_out() {
        let s = state("L3h11,D3h30,D3v34 00000/00000 - E dl 14/0 4/0");
        assert_eq!(s["status"], "Dark wins 14–0");
        assert_eq!(s["players"][1]["tag"], "out");
        let s = state("L3v64,L3h65,L3v68,D3v69 00000/00000 - E - 100/1 4/0");
        assert_eq!(s["players"][0]["counter"], Value::Null, "off the board");
    }
}
