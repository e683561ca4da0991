//! Isaac notation, `docs/rules/isaac.md` §9 and TV11: every FEN printed in the document reads back
//! byte for byte, the move strings `7h00`, `x4h23+24` and `pass` round-trip, the parser rejects
//! every position §9.3 forbids and all malformed text, and on thousands of mutated FENs the
//! parser accepts exactly what the independent reference parser accepts. (The round trip at
//! every ply of random self-play is part of the invariant battery,
//! `tests/games/isaac_invariants.rs`.)

use crate::common;

use crate::common::isaac_helpers::{DOCUMENT_FENS, TV1, TV4, official, pos, ref_rules};
use crate::common::isaac_reference::{RefIsaac, RefRules};
use ludus::game::Game;
use ludus::game::isaac::{Isaac, IsaacMove, IsaacRules};
use rand::rngs::SmallRng;
use rand::{RngExt, SeedableRng};

/// Every combination of the four rule switches.
fn all_rules() -> Vec<IsaacRules> {
    (0..16)
        .map(|bits| IsaacRules {
            cells_only_tiebreak: bits & 1 != 0,
            scoring_starter_dark: bits & 2 != 0,
            collision: bits & 4 == 0,
            early_finish: bits & 8 != 0,
        })
        .collect()
}

#[test]
fn tv11_document_fens_round_trip() {
    for fen in DOCUMENT_FENS {
        for rules in all_rules() {
            let p = Isaac::from_fen(fen, &rules).unwrap_or_else(|e| panic!("'{fen}': {e}"));
            assert_eq!(p.to_fen(), fen, "{rules:?}");
            assert_eq!(p.hash(), p.hash_from_scratch());
            assert_eq!(Isaac::from_fen(&p.to_fen(), &rules).unwrap(), p);
            let r = RefIsaac::from_fen(fen, ref_rules(rules)).unwrap();
            assert_eq!(r.to_fen(), fen, "reference");
        }
    }
}

#[test]
fn tv11_move_strings_round_trip() {
    let cases = [
        (
            "7h00",
            IsaacMove::Place {
                size: 7,
                vertical: false,
                anchor: 0,
            },
        ),
        (
            "3v79",
            IsaacMove::Place {
                size: 3,
                vertical: true,
                anchor: 79,
            },
        ),
        (
            "x4h23+24",
            IsaacMove::Remove {
                size: 4,
                vertical: false,
                anchor: 23,
                k: 24,
            },
        ),
        (
            "x7v28+0",
            IsaacMove::Remove {
                size: 7,
                vertical: true,
                anchor: 28,
                k: 0,
            },
        ),
        ("pass", IsaacMove::Pass),
    ];
    let p = pos(TV1);
    for (text, m) in cases {
        assert_eq!(p.parse_move(text), Ok(m), "{text}");
        assert_eq!(p.move_to_string(m), text);
    }
    // And in the positions where the document plays them.
    assert!(pos(TV1).try_play_str("7h00").is_ok());
    assert!(pos(TV4).try_play_str("x4h23+24").is_ok());
}

#[test]
fn move_parser_rejects_malformed_text() {
    let p = pos(TV1);
    for bad in [
        "",
        " ",
        "7h0",
        "7h000",
        "7h0a",
        "8h00",
        "2h00",
        "0h00",
        "7x00",
        "7H00",
        "h700",
        "D7h00",
        "x4h23",
        "x4h23+",
        "x4h23+024",
        "x4h23+-1",
        "x4h23++1",
        "x4h23+1a",
        "x4h23+256",
        "X4h23+1",
        "4h23+1",
        "x4h2+1",
        "xx4h23+1",
        "Pass",
        "PASS",
        "pass ",
        " pass",
        "7h00 ",
        "7h00,",
        "x4h23+ 1",
    ] {
        assert!(p.parse_move(bad).is_err(), "move '{bad}' accepted");
    }
    // Well-formed but not legal here: parses, but cannot be played.
    let mut q = p.clone();
    for text in ["3v80", "4h07", "x4h23+24", "x3h00+0"] {
        assert!(q.try_play_str(text).is_err(), "'{text}' played");
    }
    assert_eq!(q, p);
}

/// Each of these breaks exactly one check of §9.3 (or §9.1's "at most one pass in P").
const FORBIDDEN: &[(&str, &str)] = &[
    // Every tile fits on the board.
    (
        "D3v80 44321/54321 l P - 0/0 0/0",
        "vertical tile off the top",
    ),
    ("D4h07 53321/54321 l P - 0/0 0/0", "horizontal tile wraps"),
    ("D7h04 54320/54321 l P - 0/0 0/0", "7 from 04 wraps"),
    ("L7v40 54321/54320 d P - 0/0 0/0", "7 from row 4 leaves"),
    ("D3h98 44321/54321 l P - 0/0 0/0", "3 from 98"),
    // No two tiles overlap.
    ("D3h00,L3v01 44321/44321 d P - 0/0 0/0", "crossing tiles"),
    (
        "D3h00,D3h02 34321/54321 l P - 0/0 0/0",
        "end to end overlap",
    ),
    ("D7h00,L3h04 54320/44321 d P - 0/0 0/0", "lying inside"),
    ("D3v00,L4v10 44321/53321 d P - 0/0 0/0", "vertical overlap"),
    // On board plus unplaced ≤ the start count, per player and size.
    ("D3h00 54321/54321 l P - 0/0 0/0", "six 3s for Dark"),
    ("- 64321/54321 d P - 0/0 0/0", "six 3s in hand"),
    ("- 54321/54322 d P - 0/0 0/0", "two 7s in hand"),
    (
        "D7h00,D7h10 00000/00000 d S - 0/0 0/0",
        "two 7s on the board",
    ),
    ("L6h00,L6h10,L6h20 00000/00000 d S - 0/0 0/0", "three 6s"),
    ("- 59321/54321 d P - 0/0 0/0", "nine 4s"),
    // Floors are in {0, 3..7}.
    ("- 00000/00000 d S - 0/0 1/0", "floor 1"),
    ("- 00000/00000 d S - 0/0 2/0", "floor 2"),
    ("- 00000/00000 d S - 0/0 0/8", "floor 8"),
    ("- 00000/00000 d S - 0/0 0/30", "floor 30"),
    ("- 00000/00000 - E dl 0/0 9/0", "floor 9 in E"),
    // In P, scores and floors are 0/0.
    ("- 54321/54321 d P - 1/0 0/0", "P with a Dark score"),
    ("- 54321/54321 d P - 0/7 0/0", "P with a Light score"),
    ("- 54321/54321 d P - 0/0 3/0", "P with a Dark floor"),
    ("- 54321/54321 d P - 0/0 0/7", "P with a Light floor"),
    // At most one pass in P.
    ("- 54321/54321 d P dl 0/0 0/0", "two passes in P"),
    // Outside E, scores are below 100.
    ("- 00000/00000 d S - 100/0 0/0", "Dark at 100 in S"),
    ("- 00000/00000 d S - 0/100 0/0", "Light at 100 in S"),
    ("- 00000/00000 d S - 150/5 0/0", "Dark at 150 in S"),
    ("- 54321/54321 d P - 100/0 0/0", "100 in P"),
    // Outside E, the side to move has not passed.
    ("- 54321/54321 d P d 0/0 0/0", "Dark passed, Dark to place"),
    (
        "- 54321/54321 l P l 0/0 0/0",
        "Light passed, Light to place",
    ),
    ("- 00000/00000 d S d 0/0 0/0", "Dark out, Dark to move"),
    ("- 00000/00000 l S l 0/0 0/0", "Light out, Light to move"),
    ("- 00000/00000 l S dl 0/0 0/0", "both out, Light to move"),
    ("- 00000/00000 d S dl 0/0 0/0", "both out, Dark to move"),
    // In S, the counters are on different cells.
    ("- 00000/00000 d S - 14/85 0/0", "both counters on 14"),
    ("- 00000/00000 d S - 0/99 0/0", "both counters on 00"),
    ("- 00000/00000 l S - 99/0 0/0", "both counters on 99"),
    ("- 00000/00000 d S - 50/49 0/0", "both counters on 50"),
    // `-` to move exactly in E.
    ("- 54321/54321 - P - 0/0 0/0", "'-' in P"),
    ("- 00000/00000 - S - 0/0 0/0", "'-' in S"),
    ("- 00000/00000 d E dl 0/0 0/0", "Dark to move in E"),
    ("- 00000/00000 l E - 100/0 0/0", "Light to move in E"),
    // In E at most one player reaches 100, and nobody passes 99 + 72 = 171 (§4.6, §5 E7).
    ("- 00000/00000 - E - 100/100 0/0", "both at 100"),
    ("- 00000/00000 - E - 172/0 3/0", "above 171"),
];

#[test]
fn parser_rejects_every_forbidden_position() {
    for &(fen, why) in FORBIDDEN {
        for rules in all_rules().into_iter().filter(|r| r.collision) {
            assert!(
                Isaac::from_fen(fen, &rules).is_err(),
                "'{fen}' ({why}) accepted"
            );
        }
        assert!(
            RefIsaac::from_fen(fen, RefRules::default()).is_err(),
            "reference accepts '{fen}' ({why})"
        );
    }
    // The nearest legal neighbours are accepted, so each rejection is for the stated reason.
    for fen in [
        "D3v70 44321/54321 l P - 0/0 0/0",
        "D4h06 53321/54321 l P - 0/0 0/0",
        "D3h97 44321/54321 l P - 0/0 0/0",
        "D3h00,L3v10 44321/44321 d P - 0/0 0/0",
        "D3h00,D3h03 34321/54321 l P - 0/0 0/0",
        "D3h00 44321/54321 l P - 0/0 0/0",
        "- 00000/00000 d S - 0/0 3/7",
        "- 54321/54321 d P l 0/0 0/0",
        "- 54321/54321 l P d 0/0 0/0",
        "- 00000/00000 d S - 99/1 0/0",
        "- 00000/00000 d S l 14/84 0/0",
        "- 00000/00000 - E dl 14/85 0/0",
        "- 00000/00000 - E - 171/0 7/0",
        "- 00000/00000 - E - 0/100 0/3",
        "- 00000/00000 - E d 0/0 0/0",
    ] {
        let p = Isaac::from_fen(fen, &official()).unwrap_or_else(|e| panic!("'{fen}': {e}"));
        assert_eq!(p.to_fen(), fen);
        assert!(
            RefIsaac::from_fen(fen, RefRules::default()).is_ok(),
            "{fen}"
        );
    }
}

#[test]
fn parser_rejects_malformed_text() {
    for bad in [
        "",
        " ",
        "-",
        "- 54321/54321 d P - 0/0",
        "- 54321/54321 d P - 0/0 0/0 0/0",
        "- 54321/54321 d P - 0/0 0/0 x",
        "- 54321/54321 d P 0/0 0/0",
        // Tiles.
        "X3h00 44321/54321 l P - 0/0 0/0",
        "d3h00 44321/54321 l P - 0/0 0/0",
        "D8h00 54321/54321 l P - 0/0 0/0",
        "D2h00 54321/54321 l P - 0/0 0/0",
        "D3x00 44321/54321 l P - 0/0 0/0",
        "D3H00 44321/54321 l P - 0/0 0/0",
        "D3h0 44321/54321 l P - 0/0 0/0",
        "D3h000 44321/54321 l P - 0/0 0/0",
        "D3h0a 44321/54321 l P - 0/0 0/0",
        "D3h00, 44321/54321 l P - 0/0 0/0",
        ",D3h00 44321/54321 l P - 0/0 0/0",
        "D3h00,,L3h10 44321/44321 d P - 0/0 0/0",
        "D3h00;L3h10 44321/44321 d P - 0/0 0/0",
        "3h00 44321/54321 l P - 0/0 0/0",
        "-- 54321/54321 d P - 0/0 0/0",
        "x 54321/54321 d P - 0/0 0/0",
        // Hands.
        "- 5432/54321 d P - 0/0 0/0",
        "- 543210/54321 d P - 0/0 0/0",
        "- 54321 d P - 0/0 0/0",
        "- 54321/54321/54321 d P - 0/0 0/0",
        "- 5432a/54321 d P - 0/0 0/0",
        "- 54321-54321 d P - 0/0 0/0",
        "- -4321/54321 d P - 0/0 0/0",
        // Side, phase, passed.
        "- 54321/54321 D P - 0/0 0/0",
        "- 54321/54321 w P - 0/0 0/0",
        "- 54321/54321 dl P - 0/0 0/0",
        "- 54321/54321 d p - 0/0 0/0",
        "- 54321/54321 d Q - 0/0 0/0",
        "- 54321/54321 d PS - 0/0 0/0",
        "- 54321/54321 l P ld 0/0 0/0",
        "- 54321/54321 l P D 0/0 0/0",
        "- 54321/54321 l P x 0/0 0/0",
        "- 54321/54321 l P dd 0/0 0/0",
        // Scores and floors: decimals, no sign, no leading zeros.
        "- 00000/00000 d S - 01/0 0/0",
        "- 00000/00000 d S - 0/00 0/0",
        "- 00000/00000 d S - 007/0 0/0",
        "- 00000/00000 d S - +1/0 0/0",
        "- 00000/00000 d S - -1/0 0/0",
        "- 00000/00000 d S - a/0 0/0",
        "- 00000/00000 d S - 0/ 0/0",
        "- 00000/00000 d S - /0 0/0",
        "- 00000/00000 d S - 0 0/0",
        "- 00000/00000 d S - 0/0/0 0/0",
        "- 00000/00000 d S - 1.5/0 0/0",
        "- 00000/00000 d S - 0/0 03/0",
        "- 00000/00000 d S - 0/0 3/07",
        "- 00000/00000 d S - 0/0 3",
        "- 00000/00000 d S - 99999999999999999999/0 0/0",
    ] {
        assert!(
            Isaac::from_fen(bad, &official()).is_err(),
            "'{bad}' accepted"
        );
        assert!(
            RefIsaac::from_fen(bad, RefRules::default()).is_err(),
            "reference accepts '{bad}'"
        );
    }
}

/// FENs to mutate: the document's, and every position of a few seeded random games.
fn seed_fens() -> Vec<String> {
    let mut fens: Vec<String> = DOCUMENT_FENS.iter().map(|s| s.to_string()).collect();
    let mut rng = SmallRng::seed_from_u64(11);
    for _ in 0..8 {
        let mut p = Isaac::start(&official());
        let mut moves = Vec::new();
        while p.outcome().is_none() {
            fens.push(p.to_fen());
            p.generate_moves(&mut moves);
            p.play(moves[rng.random_range(0..moves.len())]);
        }
        fens.push(p.to_fen());
    }
    fens
}

/// The engine's parser accepts exactly the mutated FENs that the reference's accepts, and
/// when both accept they print the same canonical FEN. Mutations replace, delete, duplicate
/// or swap characters, but never make a new space: the engine splits fields on runs of
/// whitespace, the reference on single spaces as §9.1 writes them, and §9.3 does not say
/// whether extra spaces must be rejected.
#[test]
fn parser_agrees_with_reference_on_mutated_fens() {
    const ALPHABET: &[u8] = b"0123456789dlDLhvPSEx-/,01379dlhv";
    let mut rng = SmallRng::seed_from_u64(2024);
    let (mut accepted, mut rejected) = (0u32, 0u32);
    for fen in seed_fens() {
        for _ in 0..60 {
            let mut b = fen.clone().into_bytes();
            for _ in 0..rng.random_range(1..=2) {
                let i = rng.random_range(0..b.len());
                match rng.random_range(0..4) {
                    0 => b[i] = ALPHABET[rng.random_range(0..ALPHABET.len())],
                    1 if b.len() > 1 => {
                        b.remove(i);
                    }
                    2 if b[i] != b' ' => b.insert(i, b[i]),
                    _ if i + 1 < b.len() => b.swap(i, i + 1),
                    _ => {}
                }
            }
            let text = String::from_utf8(b).unwrap();
            for rules in [official(), common::isaac_helpers::no_collision()] {
                let engine = Isaac::from_fen(&text, &rules);
                let reference = RefIsaac::from_fen(&text, ref_rules(rules));
                match (&engine, &reference) {
                    (Ok(p), Ok(r)) => {
                        assert_eq!(p.to_fen(), r.to_fen(), "'{text}' read differently");
                        accepted += 1;
                    }
                    (Err(_), Err(_)) => rejected += 1,
                    _ => panic!(
                        "'{text}' ({rules:?}): engine {:?}, reference {:?}",
                        engine.as_ref().map(|_| ()),
                        reference.as_ref().map(|_| ())
                    ),
                }
            }
        }
    }
    eprintln!("mutated FENs: {accepted} accepted, {rejected} rejected by both");
    assert!(accepted > 500 && rejected > 10_000);
}
