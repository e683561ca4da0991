//! The Isaac placement-phase test vectors of `docs/rules/isaac.md` §8, checked exactly: TV1 (the
//! start), TV2 (Light's reply), TV3 (forced pass, placing alone, the phase change and the
//! first scorer, also under `Isaac_ScoringStarter=dark`) and TV10 (nobody can do anything).
//! Every legal-move list is also compared with the reference implementation.

use crate::common::isaac_helpers::{
    TV1, TV2, TV3, TV3_PASSED, TV3_PLACED, TV3_SCORING, TV10, TV10_END, TV10_SCORING,
    assert_move_count, assert_moves_exact, assert_play, earned_at, move_names, official,
    placements_of, placements_per_size, play, pos, pos_with, removal_table,
};
use ludus::game::isaac::{Isaac, IsaacRules, Phase};
use ludus::game::{Game, Outcome, Player};

#[test]
fn tv01_start_position() {
    let start = Isaac::start(&official());
    assert_eq!(start.to_fen(), TV1);
    assert_eq!(pos(TV1), start);
    assert_eq!(start.side_to_move(), Player::One, "Dark places first");
    assert_eq!(start.phase(), Phase::Placement);
    assert_move_count(&start, 600);
    assert_eq!(placements_per_size(&start), [160, 140, 120, 100, 80]);
    // docs/rules/isaac.md §7: 2 · 10 · (11 − s) per size, half of them horizontal.
    for size in 3..=7u8 {
        let per_orientation = 10 * (11 - size as usize);
        assert_eq!(placements_of(&start, size, false), per_orientation);
        assert_eq!(placements_of(&start, size, true), per_orientation);
    }
    let names = move_names(&start);
    assert_eq!(names.first().map(String::as_str), Some("3h00"));
    assert_eq!(names.last().map(String::as_str), Some("7v39"));
    for legal in ["7h00", "3v79"] {
        assert!(names.iter().any(|n| n == legal), "{legal} should be legal");
    }
    for illegal in ["3v80", "4h07"] {
        assert!(!names.iter().any(|n| n == illegal));
        let mut p = start.clone();
        assert!(p.try_play_str(illegal).is_err(), "{illegal} accepted");
        assert_eq!(p, start, "a rejected move changed the position");
    }
    // 3v79 covers 79, 89, 99.
    let p = assert_play(TV1, official(), "3v79", "D3v79 44321/54321 l P - 0/0 0/0");
    assert_eq!(p.occupied(), 1 << 79 | 1 << 89 | 1 << 99);
}

#[test]
fn tv02_light_reply_options() {
    let p = assert_play(TV1, official(), "7h00", TV2);
    assert_eq!(p.occupied(), 0x7F, "7h00 covers cells 00..06");
    assert_eq!(p.side_to_move(), Player::Two);
    assert_eq!(p.hand(Player::One), [5, 4, 3, 2, 0]);
    assert_eq!(p.hand(Player::Two), [5, 4, 3, 2, 1]);
    assert_move_count(&p, 536);
    assert_eq!(placements_per_size(&p), [146, 126, 107, 88, 69]);
    assert_eq!(
        placements_of(&p, 3, false),
        73,
        "9 free rows × 8, plus 07–09"
    );
    assert_eq!(placements_of(&p, 3, true), 73, "7 columns × 7, plus 3 × 8");
}

#[test]
fn tv03_forced_pass_and_placing_alone() {
    let mut p = pos(TV3);
    assert_eq!(p.occupied().count_ones(), 97, "only 97, 98, 99 are empty");
    assert_eq!(p.occupied() >> 97, 0);
    assert_eq!(
        p.hand(Player::One),
        [1, 0, 2, 0, 1],
        "Dark holds 3, 5, 5, 7"
    );
    assert_eq!(p.hand(Player::Two), [0, 0, 0, 1, 1], "Light holds 6, 7");
    for player in [Player::One, Player::Two] {
        let on_board = p
            .tiles()
            .iter()
            .filter(|t| t.owner as usize == player.index())
            .count() as u32;
        assert_eq!(on_board + p.unplaced_tiles(player), 15, "{player:?}");
    }

    // 1. Light can only pass.
    assert_moves_exact(&p, &["pass"]);
    play(&mut p, "pass", Some(TV3_PASSED));
    assert!(p.has_passed(Player::Two));
    // 2. Dark has exactly one move.
    assert_moves_exact(&p, &["3h97"]);
    // 3. After it Dark moves again, and can only pass.
    play(&mut p, "3h97", Some(TV3_PLACED));
    assert_eq!(p.side_to_move(), Player::One, "Light has passed");
    assert_eq!(p.phase(), Phase::Placement);
    assert_moves_exact(&p, &["pass"]);
    // 4. The second pass starts the scoring phase with Light, the first passer.
    play(&mut p, "pass", Some(TV3_SCORING));
    assert_eq!(p.phase(), Phase::Scoring);
    assert_eq!(
        p.side_to_move(),
        Player::Two,
        "Light starts as first passer"
    );
    assert!(!p.has_passed(Player::One) && !p.has_passed(Player::Two));
    assert_eq!((p.score(Player::One), p.score(Player::Two)), (0, 0));
    assert_eq!((p.floor(Player::One), p.floor(Player::Two)), (0, 0));
    assert_eq!(p.outcome(), None);
}

#[test]
fn tv03_counters_and_light_removals() {
    let p = pos(TV3_SCORING);
    // Dark's counter on 00 (on D6h00), Light's on 99 (on D3h97): both tiles locked.
    assert_eq!(p.counter_cell(Player::One), Some(0));
    assert_eq!(p.counter_cell(Player::Two), Some(99));
    let moves = assert_move_count(&p, 52);
    assert_eq!(moves.first().map(String::as_str), Some("x4h16+0"));
    assert_eq!(moves.last().map(String::as_str), Some("x3h90+4"));
    let table: Vec<(String, usize, u8)> = removal_table(&p).into_values().collect();
    let expected: Vec<(String, usize, u8)> = [
        ("4h16", 2),
        ("6h20", 4),
        ("5h30", 3),
        ("5h35", 3),
        ("5h40", 3),
        ("4h56", 4),
        ("3h70", 2),
        ("3h73", 2),
        ("4h76", 4),
        ("3h80", 2),
        ("3h83", 2),
        ("4h86", 4),
        ("3h90", 4),
    ]
    .iter()
    .map(|&(tile, earned)| (tile.to_string(), earned as usize + 1, earned))
    .collect();
    assert_eq!(table, expected, "P per tile (choices = P + 1, max k = P)");
    for (tile, _, earned) in &expected {
        let anchor: u8 = tile[2..].parse().unwrap();
        assert_eq!(earned_at(&p, anchor), *earned as u32, "earned({tile})");
    }
    // Line lengths for the tie-break: Dark 17 cells in 3 tiles, Light 13 cells in 2.
    assert_eq!(p.unplaced_cells(Player::One), 17);
    assert_eq!(p.unplaced_tiles(Player::One), 3);
    assert_eq!(p.unplaced_cells(Player::Two), 13);
    assert_eq!(p.unplaced_tiles(Player::Two), 2);
}

#[test]
fn tv03_scoring_starter_dark_option() {
    let rules = IsaacRules {
        scoring_starter_dark: true,
        ..IsaacRules::default()
    };
    let mut p = pos_with(TV3, rules);
    play(&mut p, "pass", Some(TV3_PASSED));
    play(&mut p, "3h97", Some(TV3_PLACED));
    let dark_first = TV3_SCORING.replace(" l S ", " d S ");
    play(&mut p, "pass", Some(&dark_first));
    assert_eq!(p.side_to_move(), Player::One);
    // Dark's 00 and Light's 99 lock D6h00 and D3h97; the other ten Dark tiles qualify.
    let table = removal_table(&p);
    let tiles: Vec<&str> = table.values().map(|(name, ..)| name.as_str()).collect();
    assert_eq!(
        tiles,
        [
            "4h06", "6h10", "4h26", "5h45", "3h50", "3h53", "3h60", "3h63", "4h66", "4h93"
        ]
    );
    assert!(move_names(&p).iter().all(|m| m.starts_with('x')));
    // The same position under the official rules has Light to move.
    let mut q = pos(TV3_PLACED);
    play(&mut q, "pass", Some(TV3_SCORING));
}

#[test]
fn tv10_nobody_can_do_anything() {
    let mut p = pos(TV10);
    assert_moves_exact(&p, &["pass"]);
    play(&mut p, "pass", Some("- 00000/00000 l P d 0/0 0/0"));
    assert_moves_exact(&p, &["pass"]);
    play(&mut p, "pass", Some(TV10_SCORING));
    assert_eq!(p.side_to_move(), Player::One, "Dark passed first");
    assert_moves_exact(&p, &["pass"]);
    play(&mut p, "pass", Some("- 00000/00000 l S d 0/0 0/0"));
    assert_moves_exact(&p, &["pass"]);
    play(&mut p, "pass", Some(TV10_END));
    assert_eq!(
        p.outcome(),
        Some(Outcome::Win(Player::One)),
        "last tie-break"
    );
    assert!(move_names(&p).is_empty());
    assert_eq!(p.perft(1), 0);
    // Four plies, and only one line of play.
    assert_eq!(pos(TV10).perft(4), 1);
    assert_eq!(pos(TV10).perft(5), 0);
}

#[test]
fn placing_alone_after_a_pass() {
    // Light has no tiles left, so it passes at once; Dark then places every remaining tile
    // alone, one per turn, and the second pass starts scoring with Light.
    let mut p = pos("- 00011/00000 l P - 0/0 0/0");
    assert_moves_exact(&p, &["pass"]);
    play(&mut p, "pass", Some("- 00011/00000 d P l 0/0 0/0"));
    play(&mut p, "6h00", Some("D6h00 00001/00000 d P l 0/0 0/0"));
    play(
        &mut p,
        "7v09",
        Some("D6h00,D7v09 00000/00000 d P l 0/0 0/0"),
    );
    assert_moves_exact(&p, &["pass"]);
    play(
        &mut p,
        "pass",
        Some("D6h00,D7v09 00000/00000 l S - 0/0 0/0"),
    );
    // Light has no tiles on the board and goes out at once (E8); Dark's 00 is locked.
    assert_moves_exact(&p, &["pass"]);
    play(
        &mut p,
        "pass",
        Some("D6h00,D7v09 00000/00000 d S l 0/0 0/0"),
    );
    assert_moves_exact(&p, &["x7v09+0"]);
}
