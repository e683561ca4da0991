//! The Isaac scoring-phase test vectors of `docs/rules/isaac.md` §8, checked exactly: TV4 (the line
//! of a horizontal removal, ×4), TV5 (collision), TV6 (reaching 100), TV7 (floor and locks),
//! TV8 (going out is final) and TV9 (tie-breaks), plus the rule switches of §6 where they
//! change these positions: `Isaac_Collision=false` (TV5, TV6), `Isaac_LineTiebreak=cells-only`
//! (TV9) and `Isaac_EarlyFinish=true` (TV8-like positions). Every legal-move list is also
//! compared with the reference implementation.

use crate::common::isaac_helpers::{
    TV4, TV4_AFTER, TV5, TV5_AFTER, TV5_LIGHT, TV6, TV6_END, TV7, TV8, TV8_END, TV8_OUT,
    TV8_REMOVED, TV9, assert_ended, assert_move_count, assert_moves_exact, assert_play,
    early_finish, earned_at, move_names, no_collision, official, play, pos, pos_with,
    removal_table,
};
use ludus::game::isaac::{Isaac, IsaacRules, Phase};
use ludus::game::{Game, Player};

/// `x<tile>+0 … x<tile>+top`, skipping `skip`.
fn removals(tile: &str, top: u32, skip: Option<u32>) -> Vec<String> {
    (0..=top)
        .filter(|&k| Some(k) != skip)
        .map(|k| format!("x{tile}+{k}"))
        .collect()
}

fn refs(v: &[String]) -> Vec<&str> {
    v.iter().map(String::as_str).collect()
}

#[test]
fn tv04_horizontal_removal_times_four() {
    let p = pos(TV4);
    assert_eq!(p.counter_cell(Player::One), Some(28), "on an empty cell");
    assert_eq!(p.counter_cell(Player::Two), Some(20), "on L3h20");
    assert_eq!(p.floor(Player::One), 3);
    // x4h23: N = 3 (L3h20 lies in row 2, L3v07 and L3v09 end on it; D3v31 only touches it),
    // v = 2, both counters in row 2: P = 24. x3v31: N = 3, P = 3. x5h60, x3h70: P = 0.
    assert_eq!(earned_at(&p, 23), 24);
    assert_eq!(earned_at(&p, 31), 3);
    assert_eq!(earned_at(&p, 60), 0);
    assert_eq!(earned_at(&p, 70), 0);
    let mut expected = removals("4h23", 24, None);
    expected.extend(removals("3v31", 3, None));
    expected.extend(removals("5h60", 0, None));
    expected.extend(removals("3h70", 0, None));
    assert_eq!(expected.len(), 31);
    assert_moves_exact(&p, &refs(&expected));
    // §9.2: size and orientation must match the tile at the anchor, the tile must be the
    // mover's, and k is at most P.
    for wrong in [
        "x5h23+0", "x4v23+0", "x3h23+0", "x4h24+0", "x3h20+0", "x3v07+0", "x4h23+25",
    ] {
        let mut q = p.clone();
        assert!(q.try_play_str(wrong).is_err(), "{wrong} accepted");
        assert_eq!(q, p);
    }

    let after = assert_play(TV4, official(), "x4h23+24", TV4_AFTER);
    assert_eq!(after.side_to_move(), Player::Two);
    assert_eq!(after.score(Player::One), 52);
    assert_eq!(after.floor(Player::One), 4);
    // L3h20 is locked by Light's own counter.
    assert_moves_exact(&after, &["x3v07+0", "x3v09+0"]);
}

#[test]
fn tv05_collision_with_the_other_counter() {
    let p = pos(TV5);
    assert_eq!(p.counter_cell(Player::One), Some(10));
    assert_eq!(p.counter_cell(Player::Two), Some(14), "on D3h13, locked");
    assert_eq!(earned_at(&p, 50), 9, "N = 3 (L3h55, L3v58, D3v39), v = 3");
    let mut expected = removals("3v39", 0, None);
    expected.extend(removals("5h50", 9, Some(4)));
    assert_eq!(expected.len(), 10);
    assert_moves_exact(&p, &refs(&expected));
    let mut q = p.clone();
    assert!(q.try_play_str("x5h50+4").is_err(), "10 + 4 is Light's cell");
    assert!(q.try_play_str("x3h13+0").is_err(), "D3h13 is locked");
    assert_eq!(q, p);

    let after = assert_play(TV5, official(), "x5h50+9", TV5_AFTER);
    assert_moves_exact(&after, &["x3h55+0", "x3h55+1", "x3h55+2", "x3v58+0"]);
}

#[test]
fn tv05_light_side_variant() {
    let p = pos(TV5_LIGHT);
    assert_eq!(earned_at(&p, 55), 2);
    // +2 would reach 87, cell 12, where Dark's counter stands.
    assert_moves_exact(&p, &["x3h55+0", "x3h55+1", "x3v58+0"]);
    let after = assert_play(
        TV5_LIGHT,
        official(),
        "x3h55+1",
        "D3h13,D3v39,L3v58 00000/00000 d S - 12/86 5/3",
    );
    // D3h13 is locked (Light's counter on 13) and D3v39 is below floor 5.
    assert_eq!(after.counter_cell(Player::Two), Some(13));
    assert_moves_exact(&after, &["pass"]);
}

#[test]
fn tv05_without_collision_rule() {
    let p = pos_with(TV5, no_collision());
    let mut expected = removals("3v39", 0, None);
    expected.extend(removals("5h50", 9, None));
    assert_moves_exact(&p, &refs(&expected));
    let mut q = p.clone();
    q.try_play_str("x5h50+4").expect("landing allowed");
    assert_eq!(q.counter_cell(Player::One), q.counter_cell(Player::Two));
    assert_eq!(q.counter_cell(Player::One), Some(14));
    assert_eq!(q.phase(), Phase::Scoring);
    assert_eq!(q.side_to_move(), Player::Two);

    let light = pos_with(TV5_LIGHT, no_collision());
    assert_moves_exact(&light, &["x3h55+0", "x3h55+1", "x3h55+2", "x3v58+0"]);
}

#[test]
fn tv06_reaching_100() {
    let p = pos(TV6);
    assert_eq!(p.counter_cell(Player::One), Some(95));
    assert_eq!(p.counter_cell(Player::Two), Some(98));
    assert_eq!(earned_at(&p, 60), 8, "N = 4, v = 2, c = 0");
    let mut expected = removals("4h60", 8, Some(3));
    expected.extend(removals("3v69", 0, None));
    assert_eq!(expected.len(), 9);
    assert_moves_exact(&p, &refs(&expected));

    let end = assert_play(TV6, official(), "x4h60+5", TV6_END);
    assert_ended(&end, Player::One);
    assert_eq!(end.score(Player::One), 100);
    assert_eq!(end.counter_cell(Player::One), None, "off the board at 100");
    let end = assert_play(
        TV6,
        official(),
        "x4h60+8",
        "L3v64,L3h65,L3v68,D3v69 00000/00000 - E - 103/1 4/0",
    );
    assert_ended(&end, Player::One);
}

#[test]
fn tv06_without_collision_rule() {
    let p = pos_with(TV6, no_collision());
    let mut expected = removals("4h60", 8, None);
    expected.extend(removals("3v69", 0, None));
    assert_moves_exact(&p, &refs(&expected));
    let mut q = p.clone();
    q.try_play_str("x4h60+3").expect("landing allowed");
    assert_eq!(q.score(Player::One), 98);
    assert_eq!(q.counter_cell(Player::One), Some(98));
    assert_eq!(q.counter_cell(Player::Two), Some(98));
    assert_eq!(q.phase(), Phase::Scoring);
    let end = assert_play(TV6, no_collision(), "x4h60+5", TV6_END);
    assert_ended(&end, Player::One);
}

/// Positions that only the seed's rules reach (both counters on one cell) are positions of
/// the game under `Isaac_Collision=false`, so their FEN must read back (the `Game` contract
/// `from_fen(to_fen(p)) == p`).
#[test]
fn collision_off_positions_round_trip() {
    for (fen, mv) in [(TV5, "x5h50+4"), (TV6, "x4h60+3")] {
        let mut p = pos_with(fen, no_collision());
        p.try_play_str(mv).unwrap();
        let text = p.to_fen();
        let back = Isaac::from_fen(&text, &no_collision());
        assert_eq!(
            back.as_ref().ok(),
            Some(&p),
            "'{text}' does not read back: {back:?}"
        );
    }
}

#[test]
fn tv07_size_floor_and_locks() {
    let p = pos(TV7);
    assert_eq!(p.counter_cell(Player::One), Some(0), "on D5v00");
    assert_eq!(p.counter_cell(Player::Two), Some(99), "on D6h94");
    assert_eq!(earned_at(&p, 11), 3, "N = 1 (D5v00 at 10)");
    assert_eq!(
        earned_at(&p, 28),
        6,
        "N = 1 (D6h94 at 98; D4h54 stops at 57)"
    );
    let mut expected = removals("5h11", 3, None);
    expected.extend(removals("7v28", 6, None));
    assert_eq!(expected.len(), 11);
    assert_moves_exact(&p, &refs(&expected));
    let table = removal_table(&p);
    assert_eq!(table.keys().copied().collect::<Vec<u8>>(), [11, 28]);
}

#[test]
fn tv08_going_out_is_final() {
    let mut p = pos(TV8);
    assert_eq!(p.counter_cell(Player::One), Some(12), "on L3h11");
    // 1. Light's only tile is locked: pass, and Light is out.
    assert_moves_exact(&p, &["pass"]);
    play(&mut p, "pass", Some(TV8_OUT));
    assert!(p.has_passed(Player::Two));
    // 2. Dark's six moves.
    assert_moves_exact(
        &p,
        &[
            "x3h30+0", "x3h30+1", "x3v34+0", "x4h50+0", "x4h50+1", "x4h50+2",
        ],
    );
    // 3. L3h11 is free now, but Light is out: Dark moves again.
    play(&mut p, "x4h50+2", Some(TV8_REMOVED));
    assert_eq!(p.side_to_move(), Player::One);
    assert_eq!(p.counter_cell(Player::One), Some(14));
    // 4. The size-3 tiles are below floor 4.
    assert_moves_exact(&p, &["pass"]);
    // 5. The end: Dark wins 14–0.
    play(&mut p, "pass", Some(TV8_END));
    assert_ended(&p, Player::One);
}

#[test]
fn tv09_tie_breaks() {
    let cells_only = IsaacRules {
        cells_only_tiebreak: true,
        ..IsaacRules::default()
    };
    // (FEN, winner by default, winner under cells-only).
    let rows = [
        (TV9[0], Player::One, Player::One),
        (TV9[1], Player::Two, Player::One),
        (TV9[2], Player::One, Player::One),
    ];
    for (fen, default_winner, cells_only_winner) in rows {
        for (rules, winner) in [
            (official(), default_winner),
            (cells_only, cells_only_winner),
        ] {
            let mut p = pos_with(fen, rules);
            assert_moves_exact(&p, &["pass"]);
            let end = fen.replace(" d S l ", " - E dl ");
            play(&mut p, "pass", Some(&end));
            assert_ended(&p, winner);
            // The finished position read from its FEN gives the same winner.
            assert_ended(&pos_with(&end, rules), winner);
        }
    }
    let p = pos(TV9[1]);
    assert_eq!(
        (p.unplaced_cells(Player::One), p.unplaced_tiles(Player::One)),
        (7, 2)
    );
    assert_eq!(
        (p.unplaced_cells(Player::Two), p.unplaced_tiles(Player::Two)),
        (7, 1)
    );
}

#[test]
fn early_finish_ends_when_the_remaining_player_is_ahead() {
    // TV8 under the seed's early finish: Light goes out while Dark leads 12–0.
    let p = assert_play(
        TV8,
        early_finish(),
        "pass",
        "L3h11,D3h30,D3v34,D4h50 00000/00000 - E l 12/0 0/0",
    );
    assert_ended(&p, Player::One);

    // Light is out at 10; Dark (9) plays on until strictly ahead.
    let fen = "D3h30,D3v34,D4h50 00000/00000 d S l 9/10 0/0";
    let moves = [
        "x3h30+0", "x3h30+1", "x3v34+0", "x4h50+0", "x4h50+1", "x4h50+2",
    ];
    assert_moves_exact(&pos_with(fen, early_finish()), &moves);
    let p = assert_play(
        fen,
        early_finish(),
        "x4h50+2",
        "D3h30,D3v34 00000/00000 - E l 11/10 4/0",
    );
    assert_ended(&p, Player::One);
    // Level is not ahead: the game goes on.
    let p = assert_play(
        fen,
        early_finish(),
        "x4h50+1",
        "D3h30,D3v34 00000/00000 d S l 10/10 4/0",
    );
    assert_moves_exact(&p, &["pass"]);
    // Level again after another removal: the game goes on.
    assert_play(
        fen,
        early_finish(),
        "x3h30+1",
        "D3v34,D4h50 00000/00000 d S l 10/10 3/0",
    );
    // Under the official rules the game goes on in every case.
    assert_play(
        fen,
        official(),
        "x4h50+2",
        "D3h30,D3v34 00000/00000 d S l 11/10 4/0",
    );
    assert_play(
        TV8,
        official(),
        "pass",
        "L3h11,D3h30,D3v34,D4h50 00000/00000 d S l 12/0 0/0",
    );

    // Dark goes out while Light (still in) is ahead: the game ends at once, Light wins.
    let fen = "L3h30,L3v34 00000/00000 d S - 5/10 0/0";
    let p = assert_play(
        fen,
        early_finish(),
        "pass",
        "L3h30,L3v34 00000/00000 - E d 5/10 0/0",
    );
    assert_ended(&p, Player::Two);
    let p = assert_play(
        fen,
        official(),
        "pass",
        "L3h30,L3v34 00000/00000 l S d 5/10 0/0",
    );
    assert!(!move_names(&p).is_empty());
    // The player who is out being ahead ends nothing.
    let fen = "D3h30,D3v34,D4h50 00000/00000 d S l 5/10 0/0";
    assert_play(
        fen,
        early_finish(),
        "x3h30+1",
        "D3v34,D4h50 00000/00000 d S l 6/10 3/0",
    );
    assert_move_count(&pos_with(fen, early_finish()), 6);
}
