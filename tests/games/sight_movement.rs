//! The Sight test vectors TV7–TV14 of `docs/rules/sight.md` §9, checked exactly: steps of the
//! tallest stacks, the fallback when the tallest is shut in and the `strict_tallest`
//! differences, the four-ply game, full boards, and placement once no stack is left.
//!
//! Unless a vector states a `strict_tallest` result, the rules say both variants agree, so
//! every check runs under both.

use crate::common::sight_helpers::{
    TV1, TV7, TV7_BLACK, TV8, TV9, TV10, TV11, TV11_MOVES, TV13, TV14, VARIANTS,
    assert_all_placements, assert_moves_exact, assert_moves_set, assert_play, empty_squares,
    move_names, play_from_start, pos,
};
use ludus::game::{Game, Outcome, Player};

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
fn an_illegal_move_is_explained_by_the_rule_it_breaks() {
    let why = |spn: &str, strict: bool, text: &str| -> String {
        let mut p = pos(spn, strict);
        let err = p.try_play_str(text).expect_err(text);
        assert_eq!(
            p.to_fen(),
            spn,
            "a rejected move leaves the position unchanged"
        );
        err.to_string()
    };
    for strict in VARIANTS {
        // TV8: White's tallest stack that can step is b3 (height 3).
        let cases = [
            (
                "b4-a4",
                "b4-a4: the stack on b4 has height 2, but White's tallest stacks that can step \
                 have height 3: only they may move",
            ),
            (
                "c3-c4",
                "c3-c4: the piece on c3 is a singleton: only stacks move",
            ),
            ("e5-e4", "e5-e4: the pile on e5 is not White's"),
            ("a1-a2", "a1-a2: a1 is empty: there is no stack to move"),
            (
                "b3-c3",
                "b3-c3: c3 is occupied: a step goes to an empty point",
            ),
            (
                "b3-d3",
                "b3-d3: d3 is not adjacent to b3: a step goes along one drawn line to the next \
                 point",
            ),
            (
                "a1",
                "a1: White owns a stack, so White must move a stack and may not place",
            ),
        ];
        for (text, expected) in cases {
            assert_eq!(why(TV8, strict, text), expected, "strict {strict}");
        }
        assert_eq!(
            why(TV1, strict, "b1-b2"),
            "b1-b2: White owns no stack, so White must place a piece"
        );
        assert_eq!(
            why(TV7_BLACK, strict, "b4"),
            "b4: b4 is occupied: a piece is placed on an empty point"
        );
    }
}
