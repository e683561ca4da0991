//! The Sight test vectors TV15 and TV16 of `docs/rules/sight.md` §9: mid-game perft and perft from
//! the empty boards, the complete 3×3 game tree (game lengths and distinct positions), and the
//! solved small boards (3×3 won for the first player only with b2, 4×4 lost).

use std::collections::{HashMap, HashSet};

use crate::common::sight_helpers::{
    TV7, TV8, TV11, TV11_MOVES, VARIANTS, play_from_start, pos, variant,
};
use ludus::game::Game;
use ludus::game::sight::{Sight, SightSettings};

fn perfts(p: &Sight, depths: u32) -> Vec<u64> {
    (1..=depths).map(|d| p.perft(d)).collect()
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
    // docs/rules/sight.md §7 (the full table, to the deeper plies, is in tests/perft/sight.perft).
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
    // docs/rules/sight.md §7: 90,992 complete games under both variants, with these lengths; 47,641
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
/// hash (side to move and ply follow from the position, docs/rules/sight.md §7). Children are tried
/// in order of fewest replies, which finds refutations quickly.
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
