//! The Sight test vectors TV1–TV6 of `docs/rules/sight.md` §9, checked exactly: placements on the
//! empty and the growing board, which piles grow (the first piece in each direction, never an
//! enemy's, orthogonal and diagonal sight) and the SPN after each listed move.
//!
//! Unless a vector states a `strict_tallest` result, the rules say both variants agree, so
//! every check runs under both.

use crate::common::sight_helpers::{
    TV1, TV2, TV3, TV4, TV5, TV6, VARIANTS, assert_all_placements, assert_moves_exact, assert_play,
    move_names, play_from_start, pos, settings,
};
use ludus::game::sight::Sight;
use ludus::game::{Game, Player};

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
