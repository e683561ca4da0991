//! The Tactigon board and setup (`docs/rules/tactigon.md` §1, §2): the engine's cell indices,
//! names, neighbours and gold tiles against the document's cell table (§1.4) and the independent
//! reference's geometry, and the start position piece by piece.

use crate::common::tactigon_helpers::{TV1, base, cell, pos};
use crate::common::tactigon_reference::{Kind, all_cells, is_cell, name, neighbours};
use ludus::game::tactigon::board::{board, cell_name, parse_cell};
use ludus::game::tactigon::{CIRCLE, PENTAGON, SQUARE, START_FEN, TRIANGLE, Tactigon};
use ludus::game::{Game, Player};

/// Cell names in the order of the §1.4 table (dense index 0..52, row-major).
const TABLE: &str = "a9 a11 b2 b4 b6 b8 b10 b12 b14 b16 b18 c1 c3 c5 c7 c9 c11 c13 c15 c17 c19 \
                     d0 d2 d4 d6 d8 d10 d12 d14 d16 d18 d20 e1 e3 e5 e7 e9 e11 e13 e15 e17 e19 \
                     f2 f4 f6 f8 f10 f12 f14 f16 f18 g9 g11";

fn bits(mut b: u64) -> Vec<usize> {
    let mut out = Vec::new();
    while b != 0 {
        out.push(b.trailing_zeros() as usize);
        b &= b - 1;
    }
    out
}

#[test]
fn cell_indices_and_names_follow_the_table() {
    let names: Vec<&str> = TABLE.split_whitespace().collect();
    assert_eq!(names.len(), 53);
    for (i, n) in names.iter().enumerate() {
        assert_eq!(cell_name(i), *n, "index {i}");
        assert_eq!(parse_cell(n), Some(i), "{n}");
    }
    // The reference lists the same cells in the same order.
    let reference: Vec<String> = all_cells().into_iter().map(name).collect();
    assert_eq!(reference, names);
    // Table spot checks: d4 is 23, the gold tiles 6 and 46.
    assert_eq!(
        (cell("d4"), cell("d16"), cell("b10"), cell("f10")),
        (23, 29, 6, 46)
    );
    // Every other (row letter, number) is rejected.
    for row in 'a'..='g' {
        for c in 0..=25 {
            let text = format!("{row}{c}");
            let r = row as i32 - 'a' as i32;
            assert_eq!(parse_cell(&text).is_some(), is_cell(r, c), "{text}");
        }
    }
    for bad in [
        "", "a", "a10", "d21", "d01", "d00", "h1", "D4", "d-4", "b3", " d4", "d4 ",
    ] {
        assert_eq!(parse_cell(bad), None, "'{bad}'");
    }
}

#[test]
fn neighbours_and_gold_match_the_reference() {
    let b = board();
    let cells = all_cells();
    for (i, &c) in cells.iter().enumerate() {
        let mut engine: Vec<String> = bits(b.neighbours[i]).into_iter().map(cell_name).collect();
        let mut reference: Vec<String> = neighbours(c).into_iter().map(name).collect();
        engine.sort();
        reference.sort();
        assert_eq!(engine, reference, "neighbours of {}", name(c));
        assert_eq!(b.coords[i], (c.0 as u8, c.1 as u8));
    }
    assert_eq!(b.gold, 1 << cell("b10") | 1 << cell("f10"));
    // §1.3: the gold tiles are not adjacent; §1.2: 130 adjacent pairs, degrees 27/4/12/10.
    assert_eq!(b.neighbours[cell("b10")] >> cell("f10") & 1, 0);
    let total: u32 = b.neighbours.iter().map(|n| n.count_ones()).sum();
    assert_eq!(total, 260);
    // §1.4 degree column, e.g. a9 3, b8 5, c3 6, b4 4.
    for (n, deg) in [
        ("a9", 3),
        ("b8", 5),
        ("c3", 6),
        ("b4", 4),
        ("d20", 3),
        ("e19", 4),
    ] {
        assert_eq!(b.neighbours[cell(n)].count_ones(), deg, "{n}");
    }
}

#[test]
fn start_position_matches_section_2() {
    let start = Tactigon::start(&base());
    assert_eq!(start.to_fen(), START_FEN);
    assert_eq!(START_FEN, TV1);
    assert_eq!(start, pos(TV1));
    assert_eq!(start.side_to_move(), Player::One, "Red moves first");
    assert_eq!(start.ply(), 0);
    assert_eq!(start.outcome(), None);
    let at = |side: usize, kind: usize| -> Vec<String> {
        let mut v: Vec<String> = bits(start.pieces(side, kind))
            .into_iter()
            .map(cell_name)
            .collect();
        v.sort();
        v
    };
    let sorted = |s: &str| -> Vec<String> {
        let mut v: Vec<String> = s.split_whitespace().map(str::to_string).collect();
        v.sort();
        v
    };
    assert_eq!(at(0, PENTAGON), sorted("d4"));
    assert_eq!(at(0, SQUARE), sorted("c3 d6 e3"));
    assert_eq!(at(0, TRIANGLE), sorted("c5 d2 e5"));
    assert_eq!(at(0, CIRCLE), sorted("b2 b6 d0 d8 f2 f6"));
    assert_eq!(at(1, PENTAGON), sorted("d16"));
    assert_eq!(at(1, SQUARE), sorted("c17 d14 e17"));
    assert_eq!(at(1, TRIANGLE), sorted("c15 d18 e15"));
    assert_eq!(at(1, CIRCLE), sorted("b14 b18 d12 d20 f14 f18"));
    // Blue is Red mirrored through c -> 20 - c; each side is symmetric under r -> 6 - r.
    let b = board();
    for i in 0..53 {
        let (r, c) = b.coords[i];
        let mirror = b.coords.iter().position(|&x| x == (r, 20 - c)).unwrap();
        let flip = b.coords.iter().position(|&x| x == (6 - r, c)).unwrap();
        let p = start.piece_at(i);
        assert_eq!(
            p.map(|(s, k)| (1 - s, k)),
            start.piece_at(mirror),
            "{}",
            cell_name(i)
        );
        assert_eq!(p, start.piece_at(flip), "{}", cell_name(i));
    }
    // The pentagon is enclosed by its own pieces; the empty start-area cells.
    assert_eq!(b.neighbours[cell("d4")] & !start.occupied(), 0);
    let empty: Vec<String> = bits(!start.occupied() & ((1 << 53) - 1))
        .into_iter()
        .map(cell_name)
        .collect();
    let expected = "a9 a11 b4 b8 b10 b12 b16 c1 c7 c9 c11 c13 c19 d10 e1 e7 e9 e11 e13 e19 f4 \
                    f8 f10 f12 f16 g9 g11";
    assert_eq!(empty.join(" "), expected);
    // 13 pieces per side: 6 C, 3 T, 3 S, 1 P.
    for side in 0..2 {
        let counts: Vec<u32> = (0..4).map(|k| start.pieces(side, k).count_ones()).collect();
        let expected: Vec<u32> = [Kind::Circle, Kind::Triangle, Kind::Square, Kind::Pentagon]
            .iter()
            .map(|k| k.start_count() as u32)
            .collect();
        assert_eq!(counts, expected);
        assert_eq!(counts, [6, 3, 3, 1]);
    }
}
