//! Isaac invariant battery: seeded random games checked ply by ply.
//!
//! The generic checks live in `common/battery.rs`, the Isaac ones in `common/isaac_hooks.rs`:
//! at every ply the engine is compared with the independent reference implementation in
//! `common/isaac_reference.rs` (the legal moves as text in the engine's canonical order, and
//! the position after every legal move), and the Isaac invariants of `docs/rules/isaac.md` are
//! checked: exactly two passes in the placement phase, at most 54 plies (§7), 15 tiles per
//! player on the board, in hand or removed, scores and floors that never go down, counters on
//! different cells, and a finished game's winner equal to the §4.7 order computed from the
//! scores and hands alone. 1000 games run under the official rules (every child compared),
//! 300 under each non-default rule switch (the moves and the played line compared).
//!
//! This file also re-checks the perft file's counts with the reference, and the reference
//! itself against the rules document's vectors.
//!
//! Uniform random play rarely brings the two scores to a sum of 99, so the collision rule is
//! also exercised by playouts that prefer large advances ([`greedy_games`]).

use std::collections::HashSet;
use std::path::Path;

use crate::common::battery::{BatteryStats, Hooks, check_position, random_games};
use crate::common::isaac_helpers::ref_rules;
use crate::common::isaac_hooks::{IsaacHooks, MAX_PLIES, Seen};
use crate::common::isaac_reference::{DARK, LIGHT, RefIsaac, RefRules};
use ludus::game::Game;
use ludus::game::isaac::{Isaac, IsaacMove, IsaacRules};
use rand::rngs::SmallRng;
use rand::{RngExt, SeedableRng};

/// Random games under the official rules.
const GAMES: u64 = 1000;
/// Random games under each non-default rule switch.
const OPTION_GAMES: u64 = 300;

/// Runs the battery with the reference hooks and prints what it saw.
fn run(rules: IsaacRules, games: u64, children: bool) -> (BatteryStats, Seen) {
    let mut hooks = IsaacHooks::new(rules, children);
    let stats = random_games::<Isaac>(&rules, 0..games, MAX_PLIES, &mut hooks);
    eprintln!(
        "isaac {rules:?}: {} games, {} plies, lengths {}..={}, wins {:?}, {:?}",
        stats.games, stats.plies, stats.min_length, stats.max_length, stats.wins, hooks.seen
    );
    assert_eq!(stats.games, games);
    assert_eq!(stats.draws, 0, "Isaac has no draws");
    assert!(
        stats.wins[0] > 0 && stats.wins[1] > 0,
        "both sides should win"
    );
    assert!(stats.max_length <= MAX_PLIES);
    (stats, hooks.seen)
}

#[test]
fn isaac_official_rules() {
    let (stats, seen) = run(IsaacRules::default(), GAMES, true);
    // §7: 17–23 tiles placed in random play, so 19–25 placement plies (mean 22.8); games are
    // 4–14 scoring plies longer with random removals. Loose sanity windows.
    let placement_mean = seen.placement_plies as f64 / stats.games as f64;
    assert!(
        (21.0..25.0).contains(&placement_mean),
        "placement plies {placement_mean}"
    );
    assert!(stats.min_length >= 19);
    assert!(seen.starter_differs > 0, "Light never passed first");
}

#[test]
fn isaac_cells_only_tiebreak() {
    let rules = IsaacRules {
        cells_only_tiebreak: true,
        ..IsaacRules::default()
    };
    run(rules, OPTION_GAMES, false);
}

#[test]
fn isaac_scoring_starter_dark() {
    let rules = IsaacRules {
        scoring_starter_dark: true,
        ..IsaacRules::default()
    };
    let (_, seen) = run(rules, OPTION_GAMES, false);
    assert!(seen.starter_differs > 0, "Light never passed first");
}

#[test]
fn isaac_early_finish() {
    let rules = IsaacRules {
        early_finish: true,
        ..IsaacRules::default()
    };
    let (_, seen) = run(rules, OPTION_GAMES, false);
    assert!(seen.early_finishes > 0, "the early finish never happened");
}

#[test]
fn isaac_collision_off() {
    let rules = IsaacRules {
        collision: false,
        ..IsaacRules::default()
    };
    run(rules, OPTION_GAMES, false);
}

/// Playouts that take the largest advance most of the time, so that scores get high enough
/// for the collision rule (and 100) to matter; checked with the generic battery's
/// [`check_position`] and the same hooks. Returns what the hooks saw.
fn greedy_games(rules: IsaacRules, seeds: std::ops::Range<u64>) -> Seen {
    let mut hooks = IsaacHooks::new(rules, true);
    for seed in seeds {
        let mut rng = SmallRng::seed_from_u64(seed);
        let mut pos = Isaac::start(&rules);
        let mut moves = Vec::new();
        hooks.on_start(&pos);
        let mut ply = 0;
        loop {
            let context = format!("greedy seed {seed} ply {ply}");
            check_position(&pos, &rules, &mut moves, &context);
            hooks.on_position(&pos, &moves, ply);
            if let Some(outcome) = pos.outcome() {
                hooks.on_end(&pos, outcome, ply);
                break;
            }
            let best = moves.iter().copied().max_by_key(|m| match m {
                IsaacMove::Remove { k, .. } => *k as u32,
                _ => 0,
            });
            let m = match best {
                Some(best) if rng.random_range(0..10) < 8 => best,
                _ => moves[rng.random_range(0..moves.len())],
            };
            let before = pos.clone();
            pos.play(m);
            hooks.on_move(&before, m, &pos);
            ply += 1;
        }
    }
    eprintln!("isaac greedy {rules:?}: {:?}", hooks.seen);
    hooks.seen
}

#[test]
fn isaac_greedy_playouts_exercise_collisions() {
    let seen = greedy_games(IsaacRules::default(), 0..200);
    assert!(seen.collisions > 0, "no landing was ever excluded");
    assert!(seen.hundreds > 0, "nobody ever reached 100");
}

/// Without the collision rule, greedy play lands on the other counter; the position must
/// still pass the generic battery (its FEN must read back).
#[test]
fn isaac_greedy_playouts_without_collision_rule() {
    let no_collision = IsaacRules {
        collision: false,
        ..IsaacRules::default()
    };
    let seen = greedy_games(no_collision, 0..200);
    assert!(
        seen.collisions > 0,
        "no landing on the other counter was ever possible"
    );
}

/// Settings for a perft line's options, read here without the engine's option code.
fn rules_for(options: &str) -> IsaacRules {
    let mut rules = IsaacRules::default();
    for item in options.split(',').map(str::trim).filter(|s| !s.is_empty()) {
        match item {
            "Isaac_Collision=false" => rules.collision = false,
            "Isaac_EarlyFinish=true" => rules.early_finish = true,
            "Isaac_ScoringStarter=dark" => rules.scoring_starter_dark = true,
            "Isaac_LineTiebreak=cells-only" => rules.cells_only_tiebreak = true,
            other => panic!("unknown option {other}"),
        }
    }
    rules
}

/// Re-checks the counts of `tests/perft/isaac.perft` with the reference implementation (the
/// engine's side is `tests/games/perft.rs`), on every line, up to a small node budget per line.
#[test]
fn reference_agrees_with_perft_file() {
    const BUDGET: u64 = 60_000;
    let path = Path::new(env!("CARGO_MANIFEST_DIR")).join("tests/perft/isaac.perft");
    let text = std::fs::read_to_string(path).unwrap();
    let mut checked = 0;
    let mut lines = HashSet::new();
    for line in text.lines() {
        let content = line.split('#').next().unwrap().trim();
        if content.is_empty() {
            continue;
        }
        let fields: Vec<&str> = content.split(';').map(str::trim).collect();
        let [game, options, fen, counts] = fields[..] else {
            panic!("bad line {line}");
        };
        assert_eq!(game, "isaac");
        let r = RefIsaac::from_fen(fen, ref_rules(rules_for(options))).unwrap();
        for (d, count) in counts.split_whitespace().enumerate() {
            let expected: u64 = count.parse().unwrap();
            if expected > BUDGET && d > 0 {
                break;
            }
            assert_eq!(
                r.perft(d as u32 + 1),
                expected,
                "{fen} ({options}) d{}",
                d + 1
            );
            checked += 1;
        }
        lines.insert(content.to_string());
    }
    assert_eq!(lines.len(), 25);
    assert!(checked > 100, "{checked} depths checked");
}

/// The reference itself is checked against the rules document, so that agreement with the
/// engine means agreement with the rules: the move counts of TV1–TV8 and the TV8–TV10 games.
#[test]
fn reference_matches_rules_document() {
    use crate::common::isaac_helpers as tv;
    let count =
        |fen: &str, rules: RefRules| RefIsaac::from_fen(fen, rules).unwrap().legal_moves().len();
    let official = RefRules::default();
    let no_collision = RefRules {
        collision: false,
        ..official
    };
    for (fen, n) in [
        (tv::TV1, 600),
        (tv::TV2, 536),
        (tv::TV3_SCORING, 52),
        (tv::TV4, 31),
        (tv::TV4_AFTER, 2),
        (tv::TV5, 10),
        (tv::TV5_AFTER, 4),
        (tv::TV5_LIGHT, 3),
        (tv::TV6, 9),
        (tv::TV7, 11),
        (tv::TV8_OUT, 6),
    ] {
        assert_eq!(count(fen, official), n, "{fen}");
    }
    assert_eq!(count(tv::TV5, no_collision), 11);
    assert_eq!(count(tv::TV6, no_collision), 10);
    let line = |fen: &str, rules: RefRules, moves: &[&str]| {
        let mut r = RefIsaac::from_fen(fen, rules).unwrap();
        for m in moves {
            let rm = r.find(m).unwrap_or_else(|| panic!("{m} in {}", r.to_fen()));
            r.play(rm);
        }
        r
    };
    let r = line(tv::TV3, official, &["pass", "3h97", "pass"]);
    assert_eq!(r.to_fen(), tv::TV3_SCORING);
    let r = line(tv::TV4, official, &["x4h23+24"]);
    assert_eq!(r.to_fen(), tv::TV4_AFTER);
    let r = line(tv::TV6, official, &["x4h60+5"]);
    assert_eq!((r.to_fen().as_str(), r.winner()), (tv::TV6_END, DARK));
    let r = line(tv::TV8, official, &["pass", "x4h50+2", "pass"]);
    assert_eq!((r.to_fen().as_str(), r.winner()), (tv::TV8_END, DARK));
    let r = line(tv::TV10, official, &["pass"; 4]);
    assert_eq!((r.to_fen().as_str(), r.winner()), (tv::TV10_END, DARK));
    let cells_only = RefRules {
        cells_only: true,
        ..official
    };
    for (fen, default_winner) in [(tv::TV9[0], DARK), (tv::TV9[1], LIGHT), (tv::TV9[2], DARK)] {
        assert_eq!(line(fen, official, &["pass"]).winner(), default_winner);
        assert_eq!(line(fen, cells_only, &["pass"]).winner(), DARK);
    }
}
