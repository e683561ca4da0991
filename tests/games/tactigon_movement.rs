//! The Tactigon movement and combat test vectors of `docs/rules/tactigon.md` §8, checked exactly:
//! TV1–TV12, TV18 and TV20 (the advanced rules A1 and A2), with the per-piece destinations of
//! §7.1. Every move list, destination set and played line is compared with the independent
//! reference as well (see `common/tactigon_helpers.rs`).

use crate::common::tactigon_helpers::*;
use ludus::game::tactigon::Tactigon;
use ludus::game::{Game, Outcome, Player};

#[test]
fn tv01_start_red_to_move() {
    let start = Tactigon::start(&base());
    assert_eq!(start, pos(TV1));
    assert_move_count(&start, 58);
    // §7.1, piece by piece.
    for (from, list) in [
        ("b2", "b4 c1"),
        ("b6", "b4 b8 c7"),
        ("f2", "e1 f4"),
        ("f6", "e7 f4 f8"),
        ("d0", "c1 e1"),
        ("d8", "c7 c9 d10 e7 e9"),
        ("d2", "c1 e1"),
        ("c5", "b4 c7 c9 b8 c11 b10 d10 a9"),
        ("e5", "f4 e7 e9 f8 e11 f10 d10 g9"),
        ("c3", "b4 c1"),
        ("e3", "e1 f4"),
        (
            "d6",
            "c7 e7 c9 b8 e9 f8 c11 b10 d10 a9 e11 f10 g9 c13 b12 a11 e13 f12 g11",
        ),
        ("d4", ""),
    ] {
        assert_eq!(dests(&start, from), names(list), "{from}");
    }
    assert_eq!(dests(&start, "d6").len(), 19);
    // No capture is possible on move 1: every destination is empty.
    let moves = move_names(&start);
    for m in &moves {
        let to = m.split_once('-').unwrap().1;
        assert_eq!(start.piece_at(cell(to)), None, "{m}");
    }
    // Origins in cell order, destinations in cell order within an origin.
    let keys: Vec<(usize, usize)> = moves
        .iter()
        .map(|m| {
            let (a, b) = m.split_once('-').unwrap();
            (cell(a), cell(b))
        })
        .collect();
    assert!(keys.windows(2).all(|w| w[0] < w[1]), "canonical order");
}

#[test]
fn tv02_start_blue_to_move() {
    let p = pos(TV2);
    assert_eq!(p.side_to_move(), Player::Two);
    assert_move_count(&p, 58);
    let d14 = dests(&p, "d14");
    assert_eq!(d14.len(), 19);
    assert_eq!(d14, dests(&pos(TV1), "d6"), "the same 19-cell set");
    // Mirror symmetry of every piece's count.
    for (red, blue) in [("c5", "c15"), ("d8", "d12"), ("b6", "b14"), ("d4", "d16")] {
        assert_eq!(dests(&pos(TV1), red).len(), dests(&p, blue).len());
    }
}

#[test]
fn tv03_illegal_moves_at_the_start() {
    let start = pos(TV1);
    for m in [
        "d4-d6", "d0-d2", "d2-b4", "d6-d12", "d6-c15", "d8-d12", "d4-d10", "c5-c13",
    ] {
        assert_illegal(&start, m);
    }
}

#[test]
fn tv04_quiet_moves() {
    let p = assert_play(TV1, base(), "d6-c13", TV4_AFTER);
    assert_eq!(p.outcome(), None);
    assert_move_count(&p, 46);
    for m in ["c5-a9", "d8-d10"] {
        let p = play_line(TV1, base(), &[m]);
        assert_eq!((p.outcome(), p.side_to_move()), (None, Player::Two));
        assert_move_count(&p, 58);
    }
}

#[test]
fn tv05_circle_takes_square() {
    let p = pos(TV5);
    assert_move_count(&p, 40);
    let after = assert_play(TV5, base(), "d10-d12", TV5_AFTER);
    assert_eq!(after.piece_at(cell("d12")), Some((0, 0)), "the Red circle");
    assert_eq!(after.piece_at(cell("d10")), None);
    assert_move_count(&after, 35);
}

#[test]
fn tv06_triangle_and_circle_both_removed() {
    let p = pos(TV6);
    assert_eq!(dests(&p, "c9").len(), 27);
    assert_move_count(&p, 62);
    let after = assert_play(TV6, base(), "c9-c11", TWO_PENTAGONS_B1);
    assert_eq!(
        (after.piece_at(cell("c9")), after.piece_at(cell("c11"))),
        (None, None)
    );
    assert_move_count(&after, 37);
}

#[test]
fn tv07_square_and_triangle_both_removed() {
    let p = pos(TV7);
    assert_move_count(&p, 69);
    assert!(dests(&p, "d6").contains("e11"));
    let after = assert_play(TV7, base(), "d6-e11", TWO_PENTAGONS_B1);
    assert_eq!(after.outcome(), None);
    assert_eq!(
        after.occupied().count_ones(),
        2,
        "only the pentagons are left"
    );
}

#[test]
fn tv08_square_may_not_attack_a_circle() {
    let p = pos(TV8);
    assert_illegal(&p, "d6-d8");
    assert_eq!(dests(&p, "d6").len(), 34);
    assert!(!dests(&p, "d6").contains("d8"));
    assert!(dests(&p, "d6").contains("d10"), "round the circle");
    assert_move_count(&p, 68);
}

#[test]
fn tv09_pentagon_attacks() {
    let p = pos(TV9);
    assert_illegal(&p, "d10-d12");
    assert_illegal(&p, "d10-c11");
    assert_eq!(dests(&p, "d10").len(), 47);
    assert!(dests(&p, "d10").contains("d14"));
    let after = play_line(TV9, base(), &["d10-d14"]);
    assert_eq!(after.outcome(), Some(Outcome::Win(Player::One)));
    assert_eq!(after.to_fen(), "2/9/5s4/6cP3/10/9/2 b 1");
    assert_move_count(&after, 0);
}

#[test]
fn tv10_no_passing_through_pieces() {
    let p = pos(TV10);
    assert_eq!(dests(&p, "d0"), names(""));
    assert_eq!(dests(&p, "c1"), names("b2 c3 d2"));
    assert_move_count(&p, 54);
    let after = play_line(TV10, base(), &["c1-d2"]);
    assert_eq!(after.to_fen(), "2/9/10/SC3P4p/C9/9/2 b 1");
    assert_move_count(&after, 23);
    let jumping = pos_with(TV10, a1());
    assert_eq!(dests(&jumping, "d0").len(), 15);
}

#[test]
fn tv11_combat_ends_the_move() {
    let p = pos(TV11);
    assert_eq!(dests(&p, "d0"), names("d2"));
    assert_illegal(&p, "d0-d4");
    let after = play_line(TV11, base(), &["d0-d2"]);
    assert_eq!(after.to_fen(), "2/9/C9/1T3P4p/C9/9/2 b 1", "T x S = D");
}

#[test]
fn tv12_open_board() {
    let p = pos(TV12);
    assert_eq!(dests(&p, "d10").len(), 52);
    assert_move_count(&p, 52);
    let after = play_line(TV12, base(), &["d10-d20"]);
    assert_eq!(after.outcome(), Some(Outcome::Win(Player::One)));
}

#[test]
fn tv18_detour_longer_than_the_distance() {
    let p = pos(TV18);
    assert_eq!(dests(&p, "c9").len(), 20);
    assert_move_count(&p, 50);
    assert_illegal(&p, "c9-b12");
    assert_illegal(&p, "c9-c13");
    let after = play_line(TV18, base(), &["c9-c11"]);
    assert_eq!(after.piece_at(cell("c9")), None);
    assert_eq!(after.piece_at(cell("c11")), None);
    assert_eq!(after.to_fen(), "2/4cs3/10/2P2c2p2/10/9/2 b 1");
    assert_move_count(&after, 72);
}

#[test]
fn tv20_jumping_squares() {
    let start = pos_with(TV1, a1());
    assert_move_count(&start, 87);
    assert_eq!(
        (
            dests(&start, "d6").len(),
            dests(&start, "c3").len(),
            dests(&start, "e3").len()
        ),
        (24, 14, 14)
    );
    // Only squares jump: every other piece has its base destinations.
    for from in ["b2", "b6", "d0", "d8", "d2", "c5", "e5", "d4"] {
        assert_eq!(dests(&start, from), dests(&pos(TV1), from), "{from}");
    }
    let after = play_line(TV1, a1(), &["d6-d14"]);
    assert_eq!(after.piece_at(cell("d14")), Some((0, 2)), "S x S = D");
    assert_eq!(
        after.to_fen(),
        "2/C1C3c1c/1ST4ts1/CTP1C1cSptc/1ST4ts1/C1C3c1c/2 b 1"
    );
    // The same move is illegal in the base game.
    assert_illegal(&pos(TV1), "d6-d14");
    assert_move_count(&pos_with(TV1, a1_a2()), 87);

    // Enemy squares are never jumped, only captured.
    let p = pos_with(TV20_SQUARES, a1());
    assert_eq!(dests(&p, "a9"), names("a11 b8 b10"));
    // Enemy circles are jumped but never captured.
    assert_eq!(dests(&pos(TV20_CIRCLES), "a9").len(), 0);
    let p = pos_with(TV20_CIRCLES, a1());
    let d = dests(&p, "a9");
    assert_eq!(d.len(), 23);
    assert!(!d.contains("a11") && !d.contains("b8") && !d.contains("b10"));
    assert_move_count(&pos(TV20_CIRCLES), 33);
    assert_move_count(&p, 56);
}

#[test]
fn tv20_gold_bonus() {
    assert_eq!(dests(&pos(TV20_GOLD), "b10").len(), 6);
    assert_eq!(dests(&pos_with(TV20_GOLD, a2()), "b10").len(), 13);
    assert_move_count(&pos(TV20_GOLD), 42);
    assert_move_count(&pos_with(TV20_GOLD, a2()), 49);
    // The start with A2 only: nothing stands on gold, so nothing changes.
    assert_eq!(move_names(&pos_with(TV1, a2())), move_names(&pos(TV1)));
    // The bonus depends only on the starting cell: a circle next to gold, or one that has
    // just arrived on it, has range 1 until it starts a move there.
    let p = pos_with("2/3C5/10/2P5p2/10/9/2 r 0", a2());
    assert_eq!(dests(&p, "b8"), names("a9 b6 b10 c7 c9"), "b8 is not gold");
    let p = play_line("2/3C5/10/2P5p2/10/9/2 r 0", a2(), &["b8-b10", "d16-d18"]);
    assert_eq!(dests(&p, "b10").len(), 13);
    // A pentagon on gold under A2 reaches 6 steps; a square 5 (and with A1 may jump).
    // A pentagon on gold under A2 reaches 6 steps: every cell; without A2 only those within
    // distance 5 (§1.2: on an empty board, reach = hex distance).
    let lone = "2/4P4/10/10p/10/9/2 r 0";
    assert_eq!(dests(&pos_with(lone, a2()), "b10").len(), 52);
    let within5: Vec<String> = (0..53)
        .filter(|&c| c != cell("b10") && distance(c, cell("b10")) <= 5)
        .map(ludus::game::tactigon::board::cell_name)
        .collect();
    let base_set = dests(&pos(lone), "b10");
    assert_eq!(base_set, within5.iter().cloned().collect());
    assert!(
        !base_set.contains("d20") && !base_set.contains("d0"),
        "distance 6"
    );
}

/// Hex distance (§1.2) between two cells.
fn distance(a: usize, b: usize) -> i32 {
    let coords = &ludus::game::tactigon::board::board().coords;
    let (ra, ca) = coords[a];
    let (rb, cb) = coords[b];
    let dr = (ra as i32 - rb as i32).abs();
    let dc = (ca as i32 - cb as i32).abs();
    dr + 0.max((dc - dr) / 2)
}
