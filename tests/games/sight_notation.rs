//! The Sight test vector TV17 of `docs/rules/sight.md` §9: SPN round trips of every position in
//! TV1–TV14, SPN rejections (non-canonical and malformed), and move notation with its
//! rejections.

use crate::common::sight_helpers::{
    TV1, TV2, TV3, TV4, TV5, TV6, TV7, TV7_BLACK, TV8, TV9, TV10, TV11, TV13, TV14, VARIANTS, pos,
    settings,
};
use ludus::game::sight::{Sight, SightMove, SightSettings};
use ludus::game::{Game, Player};

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
    // The long form with grown points (docs/rules/sight.md §8.2) reads as the plain move.
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
