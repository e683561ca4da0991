//! What the Sight test vectors TV1–TV17 of `docs/rules/sight.md` §9 share: the vectors' positions
//! as SPN, reading and playing positions under either rule variant, and the exact checks of legal
//! move sets (and their canonical order), of the SPN after a move and of which piles grew.
//!
//! Unless a vector states a `strict_tallest` result, the rules say both variants agree, so
//! every check runs under both ([`VARIANTS`]).

use std::collections::{BTreeSet, HashSet};

use ludus::game::Game;
use ludus::game::sight::{Sight, SightMove, SightSettings};

pub const VARIANTS: [bool; 2] = [false, true];

pub fn settings(strict: bool) -> SightSettings {
    SightSettings {
        size: 5,
        strict_tallest: strict,
    }
}

pub fn variant(strict: bool) -> &'static str {
    if strict { "strict" } else { "official" }
}

/// Parses an SPN string (its size field decides the board size).
pub fn pos(spn: &str, strict: bool) -> Sight {
    Sight::from_fen(spn, &settings(strict)).unwrap_or_else(|e| panic!("'{spn}' rejected: {e}"))
}

/// The legal moves in generation order, as text.
pub fn move_names(p: &Sight) -> Vec<String> {
    let mut moves = Vec::new();
    p.generate_moves(&mut moves);
    moves.iter().map(|&m| p.move_to_string(m)).collect()
}

/// Asserts that the generated moves come in canonical order: by (from, to) point index, with
/// placements having no `from` (docs/rules/sight.md §8.2).
pub fn assert_canonical_order(p: &Sight) {
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
pub fn assert_moves_exact(spn: &str, strict: bool, expected: &[&str]) {
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
pub fn assert_moves_set(spn: &str, strict: bool, expected: &[&str]) {
    let p = pos(spn, strict);
    let got: BTreeSet<String> = move_names(&p).into_iter().collect();
    let want: BTreeSet<String> = expected.iter().map(|s| s.to_string()).collect();
    assert_eq!(want.len(), expected.len(), "duplicate in the expected list");
    assert_eq!(got, want, "{spn} ({}): legal moves", variant(strict));
    assert_canonical_order(&p);
}

/// The empty squares of an SPN board, read from the text alone (not through the engine), in
/// canonical order.
pub fn empty_squares(spn: &str) -> Vec<String> {
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
pub fn assert_all_placements(spn: &str, strict: bool, count: usize) {
    let expected = empty_squares(spn);
    assert_eq!(expected.len(), count, "{spn}: empty points");
    let refs: Vec<&str> = expected.iter().map(String::as_str).collect();
    assert_moves_exact(spn, strict, &refs);
}

/// Plays `mv` in `spn` and checks the resulting SPN (when given) and, point by point, the
/// heights: the grown piles (owned by the mover) gained exactly one, the origin of a step lost
/// one, the target holds a new singleton of the mover, and nothing else changed.
pub fn assert_play(
    spn: &str,
    strict: bool,
    mv: &str,
    after: Option<&str>,
    grown: &[&str],
) -> Sight {
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
pub fn play_from_start(strict: bool, moves: &[&str], checkpoints: &[(usize, &str)]) -> Sight {
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

pub const TV1: &str = "5:x5/x5/x5/x5/x5 w";
pub const TV2: &str = "5:x5/x5/x2,w,x2/x5/x5 b";
pub const TV3: &str = "5:x5/x2,b,x2/x2,w,x2/x5/x5 w";
pub const TV4: &str = "5:x5/x5/x,w,x3/x5/x4,b w";
pub const TV5: &str = "5:w,x3,b/x5/b,x4/x5/w,x4 w";
pub const TV6: &str = "5:w,b,w,b,w/b,x3,b/w,x3,w/b,x3,b/w,b,w,b,w w";
pub const TV7: &str = "5:x5/x,w2,x3/x2,w,x2/x2,b,b,x/x5 w";
pub const TV7_BLACK: &str = "5:x5/x,w2,x3/x2,w,x2/x2,b,b,x/x5 b";
pub const TV8: &str = "5:x,w2,x2,b3/x,w2,x3/x,w3,w,x2/x2,b,b,x/x,b3,x3 w";
pub const TV9: &str = "5:x,w2,x2,b3/x,w2,x3/x,w3,w,x2/x2,b,b,x/x,b3,x3 b";
pub const TV10: &str = "5:x2,w,x2/x3,w2,x/x5/b,b,x3/w3,b,x3 w";
pub const TV11_MOVES: [&str; 8] = ["b4", "e2", "d3", "a3", "d4", "e3", "b4-c3", "e2-d2"];
pub const TV11: &str = "5:x5/x,w,x,w2,x/b,x,w,w3,b2/x3,b,b/x5 w";
pub const TV13: &str = "3:w,b,w/b,w,b/w,b,w b";
pub const TV14: &str = "5:x4,b/x5/x2,w2,x2/x5/x,w,x2,b w";

/// `pos` after up to `plies` random legal moves (fewer if the game ends first).
pub fn random_walk(mut pos: Sight, plies: usize, rng: &mut impl rand::RngExt) -> Sight {
    let mut moves = Vec::new();
    for _ in 0..plies {
        pos.generate_moves(&mut moves);
        if moves.is_empty() {
            break;
        }
        pos.play(moves[rng.random_range(0..moves.len())]);
    }
    pos
}
