//! The Sight test vectors TV1–TV17 of `rules/sight.md` §9, checked exactly: legal move sets
//! (and their canonical order where the document lists them canonically), the SPN after each
//! listed move, which piles grew, the `strict_tallest` differences, outcomes, mid-game perft,
//! the solved small boards and the notation round trips and rejections.
//!
//! Unless a vector states a `strict_tallest` result, the rules say both variants agree, so
//! every check runs under both.

use std::collections::{BTreeSet, HashMap, HashSet};

use ludus::game::sight::{Sight, SightMove, SightSettings};
use ludus::game::{Game, Outcome, Player};

const VARIANTS: [bool; 2] = [false, true];

fn settings(strict: bool) -> SightSettings {
    SightSettings {
        size: 5,
        strict_tallest: strict,
    }
}

fn variant(strict: bool) -> &'static str {
    if strict { "strict" } else { "official" }
}

/// Parses an SPN string (its size field decides the board size).
fn pos(spn: &str, strict: bool) -> Sight {
    Sight::from_fen(spn, &settings(strict)).unwrap_or_else(|e| panic!("'{spn}' rejected: {e}"))
}

/// The legal moves in generation order, as text.
fn move_names(p: &Sight) -> Vec<String> {
    let mut moves = Vec::new();
    p.generate_moves(&mut moves);
    moves.iter().map(|&m| p.move_to_string(m)).collect()
}

/// Asserts that the generated moves come in canonical order: by (from, to) point index, with
/// placements having no `from` (rules §8.2).
fn assert_canonical_order(p: &Sight) {
    let mut moves = Vec::new();
    p.generate_moves(&mut moves);
    let key = |m: &SightMove| {
        let from = if m.is_placement() {
            0
        } else {
            m.from as usize + 1
        };
        (from, m.to as usize)
    };
    let mut sorted = moves.clone();
    sorted.sort_by_key(key);
    assert_eq!(
        moves,
        sorted,
        "{}: moves not in canonical order",
        p.to_fen()
    );
    let kinds: HashSet<bool> = moves.iter().map(|m| m.is_placement()).collect();
    assert!(
        kinds.len() <= 1,
        "{}: placements and steps mixed",
        p.to_fen()
    );
}

/// Asserts the exact legal-move list, in the canonical order the document lists it in.
fn assert_moves_exact(spn: &str, strict: bool, expected: &[&str]) {
    let p = pos(spn, strict);
    assert_eq!(
        move_names(&p),
        expected,
        "{spn} ({}): legal moves",
        variant(strict)
    );
    assert_canonical_order(&p);
    assert_eq!(p.outcome().is_some(), expected.is_empty(), "{spn}: outcome");
}

/// Asserts the legal moves as a set (for lists the document gives in another order), plus the
/// canonical generation order.
fn assert_moves_set(spn: &str, strict: bool, expected: &[&str]) {
    let p = pos(spn, strict);
    let got: BTreeSet<String> = move_names(&p).into_iter().collect();
    let want: BTreeSet<String> = expected.iter().map(|s| s.to_string()).collect();
    assert_eq!(want.len(), expected.len(), "duplicate in the expected list");
    assert_eq!(got, want, "{spn} ({}): legal moves", variant(strict));
    assert_canonical_order(&p);
}

/// The empty squares of an SPN board, read from the text alone (not through the engine), in
/// canonical order.
fn empty_squares(spn: &str) -> Vec<String> {
    let (size, rest) = spn.split_once(':').unwrap();
    let n: usize = size.parse().unwrap();
    let board = rest.split(' ').next().unwrap();
    let mut empty = Vec::new();
    for (i, rank) in board.split('/').enumerate() {
        let y = n - 1 - i;
        let mut x = 0;
        for token in rank.split(',') {
            if let Some(count) = token.strip_prefix('x') {
                let k: usize = if count.is_empty() {
                    1
                } else {
                    count.parse().unwrap()
                };
                for dx in 0..k {
                    empty.push((y, x + dx));
                }
                x += k;
            } else {
                x += 1;
            }
        }
        assert_eq!(x, n);
    }
    empty.sort();
    empty
        .into_iter()
        .map(|(y, x)| format!("{}{}", (b'a' + x as u8) as char, y + 1))
        .collect()
}

/// Asserts that the legal moves are exactly one placement on every empty point.
fn assert_all_placements(spn: &str, strict: bool, count: usize) {
    let expected = empty_squares(spn);
    assert_eq!(expected.len(), count, "{spn}: empty points");
    let refs: Vec<&str> = expected.iter().map(String::as_str).collect();
    assert_moves_exact(spn, strict, &refs);
}

/// Plays `mv` in `spn` and checks the resulting SPN (when given) and, point by point, the
/// heights: the grown piles (owned by the mover) gained exactly one, the origin of a step lost
/// one, the target holds a new singleton of the mover, and nothing else changed.
fn assert_play(spn: &str, strict: bool, mv: &str, after: Option<&str>, grown: &[&str]) -> Sight {
    let mut p = pos(spn, strict);
    let before = p.clone();
    let mover = p.side_to_move();
    let m = p
        .try_play_str(mv)
        .unwrap_or_else(|e| panic!("{spn} ({}): {e}", variant(strict)));
    if let Some(after) = after {
        assert_eq!(p.to_fen(), after, "{spn} ({}) after {mv}", variant(strict));
    }
    let geo = p.geometry();
    let grown: HashSet<usize> = grown.iter().map(|s| geo.parse_square(s).unwrap()).collect();
    for q in 0..geo.points {
        let name = geo.square_name(q);
        let (b, a) = (before.pile(q), p.pile(q));
        if q == m.to as usize {
            assert_eq!(b, None, "{spn} {mv}: target {name} was occupied");
            assert_eq!(a, Some((mover, 1)), "{spn} {mv}: target {name}");
        } else if !m.is_placement() && q == m.from as usize {
            let (owner, h) = b.unwrap();
            assert_eq!(a, Some((owner, h - 1)), "{spn} {mv}: origin {name}");
        } else if grown.contains(&q) {
            let (owner, h) = b.unwrap_or_else(|| panic!("{spn} {mv}: {name} empty"));
            assert_eq!(owner, mover, "{spn} {mv}: {name} is not the mover's");
            assert_eq!(a, Some((owner, h + 1)), "{spn} {mv}: {name} should grow");
        } else {
            assert_eq!(a, b, "{spn} {mv}: {name} should not change");
        }
    }
    assert_eq!(p.hash(), p.hash_from_scratch(), "{spn} {mv}: hash");
    p
}

/// Plays a game from the empty 5×5 board, checking the SPN after the given plies.
fn play_from_start(strict: bool, moves: &[&str], checkpoints: &[(usize, &str)]) -> Sight {
    let mut p = Sight::start(&settings(strict));
    for (i, mv) in moves.iter().enumerate() {
        p.try_play_str(mv)
            .unwrap_or_else(|e| panic!("ply {} ({}): {e}", i + 1, variant(strict)));
        for &(ply, spn) in checkpoints {
            if ply == i + 1 {
                assert_eq!(
                    p.to_fen(),
                    spn,
                    "after ply {ply} {mv} ({})",
                    variant(strict)
                );
            }
        }
    }
    p
}

fn perfts(p: &Sight, depths: u32) -> Vec<u64> {
    (1..=depths).map(|d| p.perft(d)).collect()
}

// ---------------------------------------------------------------------------------------------

const TV1: &str = "5:x5/x5/x5/x5/x5 w";
const TV2: &str = "5:x5/x5/x2,w,x2/x5/x5 b";
const TV3: &str = "5:x5/x2,b,x2/x2,w,x2/x5/x5 w";
const TV4: &str = "5:x5/x5/x,w,x3/x5/x4,b w";
const TV5: &str = "5:w,x3,b/x5/b,x4/x5/w,x4 w";
const TV6: &str = "5:w,b,w,b,w/b,x3,b/w,x3,w/b,x3,b/w,b,w,b,w w";
const TV7: &str = "5:x5/x,w2,x3/x2,w,x2/x2,b,b,x/x5 w";
const TV7_BLACK: &str = "5:x5/x,w2,x3/x2,w,x2/x2,b,b,x/x5 b";
const TV8: &str = "5:x,w2,x2,b3/x,w2,x3/x,w3,w,x2/x2,b,b,x/x,b3,x3 w";
const TV9: &str = "5:x,w2,x2,b3/x,w2,x3/x,w3,w,x2/x2,b,b,x/x,b3,x3 b";
const TV10: &str = "5:x2,w,x2/x3,w2,x/x5/b,b,x3/w3,b,x3 w";
const TV11_MOVES: [&str; 8] = ["b4", "e2", "d3", "a3", "d4", "e3", "b4-c3", "e2-d2"];
const TV11: &str = "5:x5/x,w,x,w2,x/b,x,w,w3,b2/x3,b,b/x5 w";
const TV13: &str = "3:w,b,w/b,w,b/w,b,w b";
const TV14: &str = "5:x4,b/x5/x2,w2,x2/x5/x,w,x2,b w";

#[test]
fn tv01_empty_board() {
    for strict in VARIANTS {
        assert_all_placements(TV1, strict, 25);
        assert_eq!(pos(TV1, strict), Sight::start(&settings(strict)));
        assert_eq!(Sight::start(&settings(strict)).to_fen(), TV1);
        assert_eq!(pos(TV1, strict).side_to_move(), Player::One);
        assert_play(TV1, strict, "c3", Some(TV2), &[]);
    }
}

#[test]
fn tv02_enemy_never_grows() {
    for strict in VARIANTS {
        assert_all_placements(TV2, strict, 24);
        assert!(!move_names(&pos(TV2, strict)).contains(&"c3".to_string()));
        let p = assert_play(TV2, strict, "c4", Some(TV3), &[]);
        let c3 = p.geometry().parse_square("c3").unwrap();
        assert_eq!(p.pile(c3), Some((Player::One, 1)), "c3 is still height 1");
    }
}

#[test]
fn tv03_diagonal_growth_enemy_blocks() {
    for strict in VARIANTS {
        assert_all_placements(TV3, strict, 23);
        assert_play(
            TV3,
            strict,
            "a1",
            Some("5:x5/x2,b,x2/x2,w2,x2/x5/w,x4 b"),
            &["c3"],
        );
        assert_play(
            TV3,
            strict,
            "c2",
            Some("5:x5/x2,b,x2/x2,w2,x2/x2,w,x2/x5 b"),
            &["c3"],
        );
        assert_play(
            TV3,
            strict,
            "c5",
            Some("5:x2,w,x2/x2,b,x2/x2,w,x2/x5/x5 b"),
            &[],
        );
        assert_play(
            TV3,
            strict,
            "b1",
            Some("5:x5/x2,b,x2/x2,w,x2/x5/x,w,x3 b"),
            &[],
        );
    }
}

#[test]
fn tv04_orthogonal_points_have_no_diagonal_sight() {
    for strict in VARIANTS {
        assert_all_placements(TV4, strict, 23);
        assert_play(
            TV4,
            strict,
            "c4",
            Some("5:x5/x2,w,x2/x,w,x3/x5/x4,b b"),
            &[],
        );
        assert_play(TV4, strict, "a4", None, &[]);
        assert_play(TV4, strict, "c2", None, &[]);
        assert_play(
            TV4,
            strict,
            "d3",
            Some("5:x5/x5/x,w2,x,w,x/x5/x4,b b"),
            &["b3"],
        );
        assert_play(
            TV4,
            strict,
            "b4",
            Some("5:x5/x,w,x3/x,w2,x3/x5/x4,b b"),
            &["b3"],
        );
        assert_play(
            TV4,
            strict,
            "b2",
            Some("5:x5/x5/x,w2,x3/x,w,x3/x4,b b"),
            &["b3"],
        );
    }
}

#[test]
fn tv05_only_the_first_piece_in_each_direction_counts() {
    for strict in VARIANTS {
        play_from_start(strict, &["a1", "a3", "a5", "e5"], &[(4, TV5)]);
        assert_all_placements(TV5, strict, 21);
        assert_play(
            TV5,
            strict,
            "a2",
            Some("5:w,x3,b/x5/b,x4/w,x4/w2,x4 b"),
            &["a1"],
        );
        assert_play(
            TV5,
            strict,
            "a4",
            Some("5:w2,x3,b/w,x4/b,x4/x5/w,x4 b"),
            &["a5"],
        );
        assert_play(
            TV5,
            strict,
            "b4",
            Some("5:w2,x3,b/x,w,x3/b,x4/x5/w,x4 b"),
            &["a5"],
        );
    }
}

#[test]
fn tv06_up_to_eight_piles_grow() {
    for strict in VARIANTS {
        assert_moves_exact(
            TV6,
            strict,
            &["b2", "c2", "d2", "b3", "c3", "d3", "b4", "c4", "d4"],
        );
        assert_play(
            TV6,
            strict,
            "c3",
            Some("5:w2,b,w2,b,w2/b,x3,b/w2,x,w,x,w2/b,x3,b/w2,b,w2,b,w2 b"),
            &["a1", "c1", "e1", "a3", "e3", "a5", "c5", "e5"],
        );
        assert_play(
            TV6,
            strict,
            "b2",
            Some("5:w,b,w,b,w2/b,x3,b/w2,x3,w/b,w,x2,b/w2,b,w2,b,w b"),
            &["a1", "c1", "a3", "e5"],
        );
        assert_play(
            TV6,
            strict,
            "c2",
            Some("5:w,b,w2,b,w/b,x3,b/w,x3,w/b,x,w,x,b/w,b,w2,b,w b"),
            &["c1", "c5"],
        );
    }
}

#[test]
fn tv07_movement_stack_of_two_becomes_singleton() {
    for strict in VARIANTS {
        assert_moves_exact(
            TV7,
            strict,
            &[
                "b4-a3", "b4-b3", "b4-a4", "b4-c4", "b4-a5", "b4-b5", "b4-c5",
            ],
        );
        assert_play(
            TV7,
            strict,
            "b4-c4",
            Some("5:x5/x,w,w,x2/x2,w2,x2/x2,b,b,x/x5 b"),
            &["c3"],
        );
        assert_play(
            TV7,
            strict,
            "b4-a5",
            Some("5:w,x4/x,w,x3/x2,w,x2/x2,b,b,x/x5 b"),
            &[],
        );
        assert_play(
            TV7,
            strict,
            "b4-b3",
            Some("5:x5/x,w,x3/x,w,w2,x2/x2,b,b,x/x5 b"),
            &["c3"],
        );
        // Black in the same position: the document's list is file-major, so compare as a set.
        let black = [
            "a1", "a2", "a3", "a4", "a5", "b1", "b2", "b3", "b5", "c1", "c4", "c5", "d1", "d3",
            "d4", "d5", "e1", "e2", "e3", "e4", "e5",
        ];
        assert_moves_set(TV7_BLACK, strict, &black);
        assert_all_placements(TV7_BLACK, strict, 21);
    }
}

#[test]
fn tv08_tallest_first_origin_blocks_sight() {
    for strict in VARIANTS {
        assert_moves_exact(TV8, strict, &["b3-b2", "b3-a3"]);
        let mut p = pos(TV8, strict);
        assert!(
            p.try_play_str("b4-a4").is_err(),
            "the lower w2 at b4 may not move"
        );
        assert!(
            p.try_play_str("b5-a5").is_err(),
            "the lower w2 at b5 may not move"
        );
        assert_eq!(
            p.to_fen(),
            TV8,
            "a rejected move leaves the position unchanged"
        );
        assert_play(
            TV8,
            strict,
            "b3-b2",
            Some("5:x,w2,x2,b3/x,w2,x3/x,w2,w2,x2/x,w,b,b,x/x,b3,x3 b"),
            &["c3"],
        );
        assert_play(
            TV8,
            strict,
            "b3-a3",
            Some("5:x,w2,x2,b3/x,w3,x3/w,w2,w,x2/x2,b,b,x/x,b3,x3 b"),
            &["b4"],
        );
    }
}

#[test]
fn tv09_same_board_black_to_move() {
    for strict in VARIANTS {
        assert_moves_exact(
            TV9,
            strict,
            &["b1-a1", "b1-c1", "b1-b2", "e5-d4", "e5-e4", "e5-d5"],
        );
        let after = "5:x,w2,x2,b3/x,w2,x3/x,w3,w,x2/x,b,b2,b,x/x,b2,x3 w";
        assert_play(TV9, strict, "b1-b2", Some(after), &["c2"]);
        assert_moves_exact(after, strict, &["b3-a3"]);
        assert_play(
            TV9,
            strict,
            "e5-d4",
            Some("5:x,w2,x2,b2/x,w2,x,b,x/x,w3,w,x2/x2,b,b2,x/x,b3,x3 w"),
            &["d2"],
        );
    }
}

#[test]
fn tv10_fallback() {
    assert_moves_exact(
        TV10,
        false,
        &[
            "d4-c3", "d4-d3", "d4-e3", "d4-c4", "d4-e4", "d4-d5", "d4-e5",
        ],
    );
    assert_eq!(pos(TV10, false).outcome(), None);
    // Strict: the tallest (a1, w3) is shut in, so White has no move and loses.
    assert_moves_exact(TV10, true, &[]);
    assert_eq!(pos(TV10, true).outcome(), Some(Outcome::Win(Player::Two)));
    assert_play(
        TV10,
        false,
        "d4-e5",
        Some("5:x2,w2,x,w/x3,w,x/x5/b,b,x3/w3,b,x3 b"),
        &["c5"],
    );
    assert_play(
        TV10,
        false,
        "d4-c3",
        Some("5:x2,w2,x2/x3,w,x/x2,w,x2/b,b,x3/w3,b,x3 b"),
        &["c5"],
    );
}

#[test]
fn tv11_fallback_in_a_real_game() {
    let checkpoints = [
        (5, "5:x5/x,w2,x,w,x/b,x2,w2,x/x4,b/x5 b"),
        (6, "5:x5/x,w2,x,w,x/b,x2,w2,b/x4,b2/x5 w"),
        (7, "5:x5/x,w,x,w2,x/b,x,w,w3,b/x4,b2/x5 b"),
        (8, TV11),
    ];
    for strict in VARIANTS {
        let p = play_from_start(strict, &TV11_MOVES, &checkpoints);
        assert_eq!(p.to_fen(), TV11);
    }
    // The growth at each checkpoint: replay the plies one at a time.
    let mut spn = TV1.to_string();
    let grown: [&[&str]; 8] = [
        &[],
        &[],
        &[],
        &[],
        &["b4", "d3"],
        &["e2"],
        &["d3", "d4"],
        &["e3"],
    ];
    for (mv, grown) in TV11_MOVES.iter().zip(grown) {
        spn = assert_play(&spn, false, mv, None, grown).to_fen();
    }
    assert_eq!(spn, TV11);
    // The w3 at d3 is blocked.
    assert_moves_exact(TV11, false, &["d4-c4", "d4-e4", "d4-c5", "d4-d5", "d4-e5"]);
    assert_moves_exact(TV11, true, &[]);
    assert_eq!(pos(TV11, true).outcome(), Some(Outcome::Win(Player::Two)));
    assert_eq!(pos(TV11, false).outcome(), None);
    assert_play(
        TV11,
        false,
        "d4-c5",
        Some("5:x2,w,x2/x,w2,x,w,x/b,x,w2,w3,b2/x3,b,b/x5 b"),
        &["c3", "b4"],
    );
}

#[test]
fn tv12_the_four_ply_game() {
    for strict in VARIANTS {
        let p = play_from_start(
            strict,
            &["a1", "a2", "b1", "b2"],
            &[
                (3, "5:x5/x5/x5/b,x4/w2,w,x3 b"),
                (4, "5:x5/x5/x5/b2,b,x3/w2,w,x3 w"),
            ],
        );
        assert_eq!(move_names(&p), Vec::<String>::new());
        assert_eq!(p.outcome(), Some(Outcome::Win(Player::Two)), "Black wins");
    }
    for strict in VARIANTS {
        assert_play(
            "5:x5/x5/x5/b,x4/w,x4 w",
            strict,
            "b1",
            Some("5:x5/x5/x5/b,x4/w2,w,x3 b"),
            &["a1"],
        );
        assert_play(
            "5:x5/x5/x5/b,x4/w2,w,x3 b",
            strict,
            "b2",
            Some("5:x5/x5/x5/b2,b,x3/w2,w,x3 w"),
            &["a2"],
        );
    }
}

#[test]
fn tv13_full_board() {
    for strict in VARIANTS {
        assert_moves_exact(TV13, strict, &[]);
        assert_eq!(pos(TV13, strict).outcome(), Some(Outcome::Win(Player::One)));
        // Any full board, whatever the heights: the side to move loses.
        for (spn, winner) in [
            ("3:w3,b,w/b2,w,b/w,b5,w2 b", Player::One),
            ("3:w3,b,w/b2,w,b/w,b5,w2 w", Player::Two),
            ("4:w,b,w,b/b2,w,b,w3/w,b,w,b/b,w,b4,w2 w", Player::Two),
            ("4:w,b,w,b/b2,w,b,w3/w,b,w,b/b,w,b4,w2 b", Player::One),
            (
                "5:w,b,w,b,w/b,w2,b,w,b/w,b,w4,b,w/b,w,b3,w,b/w,b,w,b,w b",
                Player::One,
            ),
        ] {
            assert_moves_exact(spn, strict, &[]);
            assert_eq!(
                pos(spn, strict).outcome(),
                Some(Outcome::Win(winner)),
                "{spn}"
            );
        }
    }
}

#[test]
fn tv14_move_without_growth_then_placement() {
    for strict in VARIANTS {
        assert_moves_exact(
            TV14,
            strict,
            &[
                "c3-b2", "c3-c2", "c3-d2", "c3-b3", "c3-d3", "c3-b4", "c3-c4", "c3-d4",
            ],
        );
        let after = "5:x4,b/x2,w,x2/x2,w,x2/x5/x,w,x2,b b";
        let mut p = assert_play(TV14, strict, "c3-c4", Some(after), &[]);
        // White has no stack left: after Black's reply, White places.
        p.try_play_str("a1").unwrap();
        let white = move_names(&p);
        assert_eq!(white, empty_squares(&p.to_fen()), "White places anywhere");
        assert_play(
            TV14,
            strict,
            "c3-b2",
            Some("5:x4,b/x5/x2,w,x2/x,w,x3/x,w2,x2,b b"),
            &["b1"],
        );
        assert_play(
            TV14,
            strict,
            "c3-b3",
            Some("5:x4,b/x5/x,w,w,x2/x5/x,w2,x2,b b"),
            &["b1"],
        );
        assert_play(
            TV14,
            strict,
            "c3-d2",
            Some("5:x4,b/x5/x2,w,x2/x3,w,x/x,w,x2,b b"),
            &[],
        );
    }
}

#[test]
fn tv15_midgame_perft() {
    for strict in VARIANTS {
        assert_eq!(perfts(&pos(TV7, strict), 4), [7, 140, 1482, 16620]);
        assert_eq!(perfts(&pos(TV8, strict), 4), [2, 11, 78, 200]);
        let tv11 = play_from_start(strict, &TV11_MOVES, &[]);
        assert_eq!(tv11, pos(TV11, strict));
        let expected: [u64; 4] = if strict { [0; 4] } else { [5, 4, 17, 238] };
        assert_eq!(perfts(&tv11, 4), expected, "TV11 {}", variant(strict));
    }
}

#[test]
fn tv15_perft_from_empty_boards() {
    // Rules §7 (the full table, to the deeper plies, is in tests/perft/sight.perft).
    for strict in VARIANTS {
        let start = |size| {
            Sight::start(&SightSettings {
                size,
                strict_tallest: strict,
            })
        };
        assert_eq!(perfts(&start(5), 4), [25, 600, 13_800, 303_600]);
        assert_eq!(perfts(&start(4), 5), [16, 240, 3_360, 43_680, 338_544]);
        let last = if strict { 52_376 } else { 53_576 };
        assert_eq!(
            perfts(&start(3), 9),
            [9, 72, 504, 3_024, 9_920, 26_960, 53_824, 70_496, last]
        );
    }
}

/// Counts finished games by length, and the distinct positions reached.
fn enumerate(p: &Sight, ply: usize, lengths: &mut [u64], seen: &mut HashSet<String>) {
    seen.insert(p.to_fen());
    let mut moves = Vec::new();
    p.generate_moves(&mut moves);
    if moves.is_empty() {
        lengths[ply] += 1;
        return;
    }
    for m in moves {
        let mut child = p.clone();
        child.play(m);
        enumerate(&child, ply + 1, lengths, seen);
    }
}

#[test]
fn tv15_three_by_three_game_lengths_and_positions() {
    // Rules §7: 90,992 complete games under both variants, with these lengths; 47,641
    // distinct positions under the official rules.
    for strict in VARIANTS {
        let start = Sight::start(&SightSettings {
            size: 3,
            strict_tallest: strict,
        });
        let mut lengths = [0u64; 10];
        let mut seen = HashSet::new();
        enumerate(&start, 0, &mut lengths, &mut seen);
        let expected: [u64; 10] = if strict {
            [0, 0, 0, 0, 48, 536, 2968, 11496, 23568, 52376]
        } else {
            [0, 0, 0, 0, 48, 536, 2968, 11496, 22368, 53576]
        };
        assert_eq!(lengths, expected, "{}", variant(strict));
        assert_eq!(lengths.iter().sum::<u64>(), 90_992);
        if !strict {
            assert_eq!(seen.len(), 47_641);
        }
    }
}

// ---------------------------------------------------------------------------------------------
// TV16: solved small boards.

/// Exact boolean negamax: does the side to move win? Transposition table keyed by the Zobrist
/// hash (side to move and ply follow from the position, rules §7). Children are tried in order
/// of fewest replies, which finds refutations quickly.
fn side_to_move_wins(p: &Sight, tt: &mut HashMap<u64, bool>, nodes: &mut u64) -> bool {
    if let Some(&v) = tt.get(&p.hash()) {
        return v;
    }
    *nodes += 1;
    let mut moves = Vec::new();
    p.generate_moves(&mut moves);
    let mut children: Vec<(usize, Sight)> = moves
        .iter()
        .map(|&m| {
            let mut child = p.clone();
            child.play(m);
            let mut replies = Vec::new();
            child.generate_moves(&mut replies);
            (replies.len(), child)
        })
        .collect();
    children.sort_by_key(|(replies, _)| *replies);
    let win = children
        .iter()
        .any(|(_, child)| !side_to_move_wins(child, tt, nodes));
    tt.insert(p.hash(), win);
    win
}

fn solve_start(size: usize, strict: bool) -> (Sight, HashMap<u64, bool>, bool, u64) {
    let start = Sight::start(&SightSettings {
        size,
        strict_tallest: strict,
    });
    let mut tt = HashMap::new();
    let mut nodes = 0;
    let win = side_to_move_wins(&start, &mut tt, &mut nodes);
    (start, tt, win, nodes)
}

#[test]
fn tv16_three_by_three_first_player_wins_only_with_b2() {
    for strict in VARIANTS {
        let (start, mut tt, win, _) = solve_start(3, strict);
        assert!(win, "3x3 {}: the first player wins", variant(strict));
        let mut moves = Vec::new();
        start.generate_moves(&mut moves);
        let mut nodes = 0;
        let winning: Vec<String> = moves
            .iter()
            .filter(|&&m| {
                let mut child = start.clone();
                child.play(m);
                !side_to_move_wins(&child, &mut tt, &mut nodes)
            })
            .map(|&m| start.move_to_string(m))
            .collect();
        assert_eq!(
            winning,
            ["b2"],
            "3x3 {}: winning first moves",
            variant(strict)
        );
    }
}

#[test]
fn tv16_four_by_four_first_player_loses() {
    for strict in VARIANTS {
        let (_, _, win, nodes) = solve_start(4, strict);
        eprintln!("4x4 {}: solved in {nodes} nodes", variant(strict));
        assert!(!win, "4x4 {}: the first player loses", variant(strict));
    }
}

// ---------------------------------------------------------------------------------------------
// TV17: notation.

/// Every SPN string in TV1–TV14 and the TV13 full board.
const ALL_SPN: &[&str] = &[
    TV1,
    TV2,
    TV3,
    "5:x5/x2,b,x2/x2,w2,x2/x5/w,x4 b",
    "5:x5/x2,b,x2/x2,w2,x2/x2,w,x2/x5 b",
    "5:x2,w,x2/x2,b,x2/x2,w,x2/x5/x5 b",
    "5:x5/x2,b,x2/x2,w,x2/x5/x,w,x3 b",
    TV4,
    "5:x5/x2,w,x2/x,w,x3/x5/x4,b b",
    "5:x5/x5/x,w2,x,w,x/x5/x4,b b",
    "5:x5/x,w,x3/x,w2,x3/x5/x4,b b",
    "5:x5/x5/x,w2,x3/x,w,x3/x4,b b",
    TV5,
    "5:w,x3,b/x5/b,x4/w,x4/w2,x4 b",
    "5:w2,x3,b/w,x4/b,x4/x5/w,x4 b",
    "5:w2,x3,b/x,w,x3/b,x4/x5/w,x4 b",
    TV6,
    "5:w2,b,w2,b,w2/b,x3,b/w2,x,w,x,w2/b,x3,b/w2,b,w2,b,w2 b",
    "5:w,b,w,b,w2/b,x3,b/w2,x3,w/b,w,x2,b/w2,b,w2,b,w b",
    "5:w,b,w2,b,w/b,x3,b/w,x3,w/b,x,w,x,b/w,b,w2,b,w b",
    TV7,
    TV7_BLACK,
    "5:x5/x,w,w,x2/x2,w2,x2/x2,b,b,x/x5 b",
    "5:w,x4/x,w,x3/x2,w,x2/x2,b,b,x/x5 b",
    "5:x5/x,w,x3/x,w,w2,x2/x2,b,b,x/x5 b",
    TV8,
    "5:x,w2,x2,b3/x,w2,x3/x,w2,w2,x2/x,w,b,b,x/x,b3,x3 b",
    "5:x,w2,x2,b3/x,w3,x3/w,w2,w,x2/x2,b,b,x/x,b3,x3 b",
    TV9,
    "5:x,w2,x2,b3/x,w2,x3/x,w3,w,x2/x,b,b2,b,x/x,b2,x3 w",
    "5:x,w2,x2,b2/x,w2,x,b,x/x,w3,w,x2/x2,b,b2,x/x,b3,x3 w",
    TV10,
    "5:x2,w2,x,w/x3,w,x/x5/b,b,x3/w3,b,x3 b",
    "5:x2,w2,x2/x3,w,x/x2,w,x2/b,b,x3/w3,b,x3 b",
    "5:x5/x,w2,x,w,x/b,x2,w2,x/x4,b/x5 b",
    "5:x5/x,w2,x,w,x/b,x2,w2,b/x4,b2/x5 w",
    "5:x5/x,w,x,w2,x/b,x,w,w3,b/x4,b2/x5 b",
    TV11,
    "5:x2,w,x2/x,w2,x,w,x/b,x,w2,w3,b2/x3,b,b/x5 b",
    "5:x5/x5/x5/b,x4/w2,w,x3 b",
    "5:x5/x5/x5/b2,b,x3/w2,w,x3 w",
    TV13,
    TV14,
    "5:x4,b/x2,w,x2/x2,w,x2/x5/x,w,x2,b b",
    "5:x4,b/x5/x2,w,x2/x,w,x3/x,w2,x2,b b",
    "5:x4,b/x5/x,w,w,x2/x5/x,w2,x2,b b",
    "5:x4,b/x5/x2,w,x2/x3,w,x/x,w,x2,b b",
];

#[test]
fn tv17_spn_round_trips() {
    let extra = [
        "2:x2/x2 w",
        "2:w,b/b2,w3 b",
        "3:x3/x,w,x/x3 b",
        "4:x4/x,w13,x2/b12,x3/x4 w",
        "7:x7/x7/x7/x3,w,x3/x7/x7/x7 b",
        "9:x9/x9/x9/x9/x9/x9/x9/x9/x8,b w",
        "9:w,x7,b/x9/x9/x9/x4,w10,x4/x9/x9/x9/b,x7,w b",
    ];
    for &spn in ALL_SPN.iter().chain(&extra) {
        for strict in VARIANTS {
            let p = pos(spn, strict);
            assert_eq!(p.to_fen(), spn, "round trip");
            assert_eq!(p.hash(), p.hash_from_scratch());
            let side = if spn.ends_with(" w") {
                Player::One
            } else {
                Player::Two
            };
            assert_eq!(p.side_to_move(), side, "{spn}");
            let n: usize = spn.split(':').next().unwrap().parse().unwrap();
            assert_eq!(p.size(), n, "{spn}");
            assert_eq!(p.geometry().n, n);
            assert_eq!(p.geometry().points, n * n);
        }
    }
}

#[test]
fn tv17_spn_rejects_non_canonical_and_malformed() {
    let bad = [
        // Non-canonical forms.
        "5:x1,x4/x5/x5/x5/x5 w",
        "5:x1,x1,x3/x5/x5/x5/x5 w",
        "5:x5/x5/x5/x5/x4,x1 w",
        "5:w1,x4/x5/x5/x5/x5 b",
        "5:x4,b1/x5/x5/x5/x5 w",
        "5:x2,x3/x5/x5/x5/x5 w",
        "5:x,x4/x5/x5/x5/x5 w",
        "5:x5/x5/x2,w,x,x/x5/x5 b",
        // Leading zeros.
        "5:x05/x5/x5/x5/x5 w",
        "5:w02,x4/x5/x5/x5/x5 b",
        "05:x5/x5/x5/x5/x5 w",
        "5:x5/x5/x2,w,x02/x5/x5 b",
        "5:w0,x4/x5/x5/x5/x5 b",
        // Wrong rank counts or widths.
        "5:x5/x5/x5/x5 w",
        "5:x5/x5/x5/x5/x5/x5 w",
        "5:x4/x5/x5/x5/x5 w",
        "5:x6/x5/x5/x5/x5 w",
        "5:x5,w/x5/x5/x5/x5 b",
        "5:w,w,w,w,w,w/x5/x5/x5/x5 b",
        "5:x5/x5/x5/x5/x3 w",
        "5:x5//x5/x5/x5 w",
        "5:x5/x5/x5/x5/x5/ w",
        "5:x5/x5/x5/x5/ w",
        "3:x5/x5/x5 w",
        // Bad or missing side.
        "5:x5/x5/x5/x5/x5 W",
        "5:x5/x5/x5/x5/x5 x",
        "5:x5/x5/x5/x5/x5 white",
        "5:x5/x5/x5/x5/x5",
        "5:x5/x5/x5/x5/x5 w b",
        // A supply field without the finite-supply option.
        "5:x5/x5/x5/x5/x5 w w10,b10",
        // Unsupported or impossible sizes.
        "1:x w",
        "0: w",
        "10:x10/x10/x10/x10/x10/x10/x10/x10/x10/x10 w",
        "27:x27 w",
        "-5:x5/x5/x5/x5/x5 w",
        // Garbage.
        "",
        " ",
        "w",
        "hello",
        "5:",
        "5: w",
        "5x5/x5/x5/x5/x5 w",
        "5;x5/x5/x5/x5/x5 w",
        "five:x5/x5/x5/x5/x5 w",
        "5:y5/x5/x5/x5/x5 w",
        "5:X5/x5/x5/x5/x5 w",
        "5:W,x4/x5/x5/x5/x5 b",
        "5:wb,x3/x5/x5/x5/x5 b",
        "5:w+2,x4/x5/x5/x5/x5 b",
        "5:w-1,x4/x5/x5/x5/x5 b",
        "5:,x5/x5/x5/x5/x5 w",
        "5:x5,/x5/x5/x5/x5 w",
        "5:x5/x5/x2, w,x2/x5/x5 b",
        "5:x5/x5/x2,é,x2/x5/x5 b",
        "5:x5/x5/x5/x5/x5w",
        "5:x99999999999999999999/x5/x5/x5/x5 w",
        "5:w99999999999999999999,x4/x5/x5/x5/x5 b",
    ];
    for spn in bad {
        for strict in VARIANTS {
            assert!(
                Sight::from_fen(spn, &settings(strict)).is_err(),
                "'{spn}' should be rejected"
            );
        }
    }
}

#[test]
fn tv17_move_notation() {
    for size in 2..=9 {
        let p = Sight::start(&SightSettings {
            size,
            strict_tallest: false,
        });
        let geo = p.geometry();
        assert_eq!(geo.n, size);
        for q in 0..geo.points {
            let name = geo.square_name(q);
            assert_eq!(geo.parse_square(&name), Some(q));
            let x = q % size;
            let y = q / size;
            assert_eq!(name, format!("{}{}", (b'a' + x as u8) as char, y + 1));
            let place = SightMove::place(q);
            assert_eq!(p.move_to_string(place), name);
            assert_eq!(p.parse_move(&name), Ok(place));
            for from in 0..geo.points {
                let step = SightMove::step(from, q);
                let text = p.move_to_string(step);
                assert_eq!(text, format!("{}-{name}", geo.square_name(from)));
                assert_eq!(p.parse_move(&text), Ok(step));
            }
        }
    }
    let p = pos(TV1, false);
    assert_eq!(p.parse_move("a1"), Ok(SightMove::place(0)));
    assert_eq!(p.parse_move("e5"), Ok(SightMove::place(24)));
    assert_eq!(p.parse_move("b4-c4"), Ok(SightMove::step(16, 17)));
    for bad in [
        "", "z9", "a0", "a1-", "-a1", "-", "f1", "a6", "A1", "a01", "1a", "a", "1", "a1-b2-c3",
        "a1--b2", "a1 b2", " a1", "a1 ", "a-1", "é1", "a1+", "b4-c3+z9",
    ] {
        assert!(p.parse_move(bad).is_err(), "'{bad}' should be rejected");
    }
    let big = Sight::start(&SightSettings {
        size: 9,
        strict_tallest: false,
    });
    assert_eq!(big.parse_move("i9"), Ok(SightMove::place(80)));
    assert!(big.parse_move("a10").is_err());
    assert!(big.parse_move("j1").is_err());
    // The long form with grown points (rules §8.2) reads as the plain move.
    assert_eq!(p.parse_move("b4-c3+d3+d4"), p.parse_move("b4-c3"));
    assert_eq!(
        p.parse_move("c3+a1+c1+e1+a3+e3+a5+c5+e5"),
        Ok(SightMove::place(12))
    );
    // Well-formed but illegal moves are refused by try_play_str and change nothing.
    let mut q = pos(TV7, false);
    for illegal in ["c3", "b4-d4", "c3-c4", "d2-d1", "b4-b4", "a1"] {
        assert!(
            q.try_play_str(illegal).is_err(),
            "{illegal} is not legal in TV7"
        );
        assert_eq!(q.to_fen(), TV7);
    }
    let mut done = pos(TV13, false);
    assert!(done.try_play_str("a1").is_err(), "the game is over");
}
