//! The Tactigon combat table (`docs/rules/tactigon.md` §4), all 16 attacker/defender pairs, for
//! both sides: the engine's `COMBAT` constant, and for each pair whether the attack is a legal
//! move (next to the defender, and as the last step of a longer move), and the position after
//! it: `D` the attacker takes the cell, `B` both cells end empty, `–` the move is illegal (no
//! "bounce"). Each case is played on the engine and the reference in step.

use crate::common::tactigon_helpers::{assert_illegal, base, cell, dests, play_line, pos};
use crate::common::tactigon_reference::{
    BLUE, KINDS, Kind, Piece, RED, RefPos, RefRules, parse_name,
};
use ludus::game::tactigon::{CIRCLE, COMBAT, Combat, PENTAGON, SQUARE, TRIANGLE};
use ludus::game::{Game, Outcome, Player};

/// The §4 chart as printed: rows attacker, columns defender, in the order C T S P.
const CHART: [[char; 4]; 4] = [
    ['D', 'D', 'D', 'D'],
    ['B', 'D', 'D', 'D'],
    ['-', 'B', 'D', 'D'],
    ['-', '-', '-', 'D'],
];

#[test]
fn combat_constant_is_the_chart() {
    assert_eq!([CIRCLE, TRIANGLE, SQUARE, PENTAGON], [0, 1, 2, 3]);
    for a in 0..4 {
        for d in 0..4 {
            let expected = match CHART[a][d] {
                'D' => Combat::Defender,
                'B' => Combat::Both,
                _ => Combat::Forbidden,
            };
            assert_eq!(COMBAT[a][d], expected, "attacker {a} defender {d}");
            // The compact rule of §4: sides C 1, T 3, S 4, P 5.
            let sides = [1, 3, 4, 5];
            let allowed = sides[a] <= sides[d] || (a, d) == (1, 0) || (a, d) == (2, 1);
            assert_eq!(expected != Combat::Forbidden, allowed);
            assert_eq!(
                expected == Combat::Both,
                (a, d) == (1, 0) || (a, d) == (2, 1)
            );
        }
    }
}

/// A position with the attacker of `attacker_side` on `from` and the enemy defender on `to`,
/// the attacker's side to move. Pentagons not in the fight stand far away: Red on `a9`, Blue
/// on `g11`.
fn duel(attacker_side: usize, attacker: Kind, defender: Kind, from: &str, to: &str) -> String {
    let defender_side = 1 - attacker_side;
    let mut r = RefPos::empty(attacker_side, 0, RefRules::default());
    let far = |side| parse_name(if side == RED { "a9" } else { "g11" }).unwrap();
    for (side, kind) in [(attacker_side, attacker), (defender_side, defender)] {
        if kind != Kind::Pentagon {
            r.set(
                far(side),
                Some(Piece {
                    side,
                    kind: Kind::Pentagon,
                }),
            );
        }
    }
    let put = |r: &mut RefPos, at: &str, side, kind| {
        r.set(parse_name(at).unwrap(), Some(Piece { side, kind }))
    };
    put(&mut r, from, attacker_side, attacker);
    put(&mut r, to, defender_side, defender);
    r.to_tfn()
}

fn check_attack(side: usize, a: Kind, d: Kind, from: &str, to: &str) {
    let tfn = duel(side, a, d, from, to);
    let p = pos(&tfn);
    let m = format!("{from}-{to}");
    let entry = CHART[a.index()][d.index()];
    if entry == '-' {
        assert!(!dests(&p, from).contains(to), "{tfn}: {m}");
        assert_illegal(&p, &m);
        return;
    }
    assert!(dests(&p, from).contains(to), "{tfn}: {m}");
    let after = play_line(&tfn, base(), &[&m]);
    let (f, t) = (cell(from), cell(to));
    assert_eq!(after.piece_at(f), None, "{tfn}: {m} leaves {from} empty");
    match entry {
        'D' => assert_eq!(after.piece_at(t), Some((side, a.index())), "{tfn}: {m}"),
        _ => assert_eq!(after.piece_at(t), None, "{tfn}: {m} (both removed)"),
    }
    let winner = if side == RED {
        Player::One
    } else {
        Player::Two
    };
    if d == Kind::Pentagon {
        assert_eq!(after.outcome(), Some(Outcome::Win(winner)), "{tfn}: {m}");
    } else {
        assert_eq!(after.outcome(), None, "{tfn}: {m}");
    }
    assert_eq!(after.ply(), 1);
}

#[test]
fn all_sixteen_pairs_adjacent() {
    for side in [RED, BLUE] {
        for a in KINDS {
            for d in KINDS {
                let (from, to) = if side == RED {
                    ("d10", "d12")
                } else {
                    ("d12", "d10")
                };
                check_attack(side, a, d, from, to);
                // Diagonal neighbours too.
                check_attack(side, a, d, "c11", "d12");
            }
        }
    }
}

#[test]
fn all_pairs_as_the_last_step_of_a_long_move() {
    // At exactly the piece's range along row d (empty path), and one step beyond it.
    for side in [RED, BLUE] {
        for a in [Kind::Triangle, Kind::Square, Kind::Pentagon] {
            for d in KINDS {
                let n = a.range() as usize;
                let from = format!("d{}", 16 - 2 * n);
                check_attack(side, a, d, &from, "d16");
                let too_far = format!("d{}", 14 - 2 * n);
                let tfn = duel(side, a, d, &too_far, "d16");
                assert!(!dests(&pos(&tfn), &too_far).contains("d16"), "{tfn}");
                assert_illegal(&pos(&tfn), &format!("{too_far}-d16"));
            }
        }
    }
}

#[test]
fn combat_only_on_the_destination() {
    // A triangle passing between enemy pieces does not touch them (§4, last point), and may
    // not stop on a friendly piece (M5).
    let tfn = "2/9/5ccc2/1P3T5/5ccc2/9/p1 r 0";
    let p = pos(tfn);
    let d = dests(&p, "d10");
    assert!(d.contains("d16"), "{d:?}");
    let after = play_line(tfn, base(), &["d10-d16"]);
    assert_eq!(after.to_fen(), "2/9/5ccc2/1P6T2/5ccc2/9/p1 b 1");
    // Own pieces are never targets.
    let own = "2/9/10/1P3TC4/10/9/p1 r 0";
    assert_illegal(&pos(own), "d10-d12");
    assert_illegal(&pos(own), "d12-d10");
}
