//! The end of a Tactigon game (`docs/rules/tactigon.md` §5): the test vectors TV13 (gold needs the
//! opponent's turn), TV14 (the pair broken by mutual destruction), TV15 (a terminal position),
//! TV16 (pentagon capture beats gold), TV17 (no legal move, loss or draw) and TV19 (a move
//! sequence ending in a pentagon capture); then the status of arbitrary positions and the order
//! of the §5.4 procedure, the ply cap and the repetition option. Lines are played on the engine
//! and the reference in step, and every outcome is compared with the reference's §5.4 status.

use crate::common::tactigon_helpers::*;
use crate::common::tactigon_hooks::outcome_of;
use ludus::game::tactigon::{Tactigon, TactigonRules};
use ludus::game::{Game, OptionValues, Outcome, Player};

const RED_WINS: Option<Outcome> = Some(Outcome::Win(Player::One));
const BLUE_WINS: Option<Outcome> = Some(Outcome::Win(Player::Two));

/// The engine's outcome, checked against the reference's status.
fn outcome(p: &Tactigon) -> Option<Outcome> {
    let r = reference(&p.to_fen(), p.rules());
    // The reference keeps no history across a position string, so compare only without it.
    if !p.rules().repetition {
        assert_eq!(p.outcome(), r.status().map(outcome_of), "{}", p.to_fen());
    }
    p.outcome()
}

fn gold_holder(p: &Tactigon) -> Option<usize> {
    let (b10, f10) = (p.piece_at(cell("b10")), p.piece_at(cell("f10")));
    match (b10, f10) {
        (Some((a, _)), Some((b, _))) if a == b => Some(a),
        _ => None,
    }
}

fn with_cap(cap: u32) -> TactigonRules {
    TactigonRules {
        ply_cap: cap,
        ..base()
    }
}

#[test]
fn tv13_gold_wins_only_after_the_opponents_turn() {
    assert_eq!(outcome(&pos(TV13)), None);
    let p = assert_play(TV13, base(), "e9-f10", TV13_AFTER);
    assert_eq!(gold_holder(&p), Some(0), "Red holds both gold tiles");
    assert_eq!(outcome(&p), None, "not over yet");
    let replies = move_names(&p);
    assert_eq!(replies.len(), 37);
    for m in &replies {
        let to = m.split_once('-').unwrap().1;
        assert!(to != "b10" && to != "f10", "{m} reaches a gold tile");
        let after = play_line(TV13_AFTER, base(), &[m]);
        assert_eq!(outcome(&after), RED_WINS, "after {m}");
        assert_eq!(after.ply(), 2);
    }
    let end = assert_play(TV13_AFTER, base(), "d20-d18", TV13_END);
    assert_eq!(outcome(&end), RED_WINS);
    assert_move_count(&end, 0);
}

#[test]
fn tv14_pair_broken_by_mutual_destruction() {
    let p = pos(TV14);
    assert_eq!(gold_holder(&p), Some(0));
    assert_eq!(
        outcome(&p),
        None,
        "the side not to move holds gold: a live position"
    );
    assert_move_count(&p, 53);
    let broken = assert_play(TV14, base(), "f14-f10", "2/4C4/10/2P5p2/10/9/2 r 1");
    assert_eq!(broken.piece_at(cell("f10")), None);
    assert_eq!(broken.piece_at(cell("f14")), None);
    assert_eq!(outcome(&broken), None);
    assert_move_count(&broken, 42);
    let lost = play_line(TV14, base(), &["f14-f12"]);
    assert_eq!(outcome(&lost), RED_WINS);
    // f14-f10 is the only move that saves Blue (perft 2 of TV14 is 42).
    let savers: Vec<String> = move_names(&p)
        .into_iter()
        .filter(|m| outcome(&play_line(TV14, base(), &[m])).is_none())
        .collect();
    assert_eq!(savers, ["f14-f10"]);
}

#[test]
fn tv15_terminal_position() {
    let p = pos(TV15);
    assert_eq!(outcome(&p), RED_WINS);
    assert_move_count(&p, 0);
    let mut q = p.clone();
    assert!(q.try_play_str("f14-f12").is_err(), "a move after the end");
    assert!(q.try_play_str("b10-b8").is_err(), "a move after the end");
    assert_eq!(q, p);
}

#[test]
fn tv16_pentagon_capture_beats_gold() {
    let p = pos(TV16);
    assert_eq!(gold_holder(&p), Some(0));
    assert_eq!(outcome(&p), None);
    let end = assert_play(TV16, base(), "d10-d8", "2/4C4/10/4c3p2/10/4C4/2 r 1");
    assert_eq!(outcome(&end), BLUE_WINS, "§5.3: pentagon first");
    // Every Blue move onto d8 captures the pentagon; every other one leaves the pair, and
    // Red wins by gold.
    let mut captures = Vec::new();
    for m in move_names(&p) {
        let after = play_line(TV16, base(), &[&m]);
        if m.ends_with("-d8") {
            assert_eq!(outcome(&after), BLUE_WINS, "{m}");
            captures.push(m);
        } else {
            assert_eq!(outcome(&after), RED_WINS, "{m}");
        }
    }
    assert_eq!(captures, ["d10-d8", "d16-d8"]);
}

#[test]
fn tv17_no_legal_move() {
    let p = pos(TV17);
    assert_move_count(&p, 0);
    assert_eq!(outcome(&p), BLUE_WINS, "default: the side to move loses");
    let draw = TactigonRules {
        no_move_draw: true,
        ..base()
    };
    assert_eq!(outcome(&pos_with(TV17, draw)), Some(Outcome::Draw));
    // The same through the option.
    let specs = Tactigon::options();
    let mut values = OptionValues::from_specs(&specs);
    assert!(!Tactigon::settings(&values).no_move_draw, "loss by default");
    let spec = specs
        .iter()
        .find(|s| s.name == "Tactigon_NoMoveResult")
        .unwrap();
    values.set(spec.name, spec.validate("draw").unwrap());
    assert_eq!(Tactigon::settings(&values), draw);
    assert!(spec.validate("win").is_err());
    // Reached by a move (§5.4 step 6): Blue shuts the pentagon in with c11-b10.
    let before = "Pc/3c5/5c4/10p/10/9/2 b 0";
    assert_eq!(outcome(&pos(before)), None);
    let after = assert_play(before, base(), "c11-b10", "Pc/3cc4/10/10p/10/9/2 r 1");
    assert_eq!(outcome(&after), BLUE_WINS);
    let after = play_line(before, draw, &["c11-b10"]);
    assert_eq!(outcome(&after), Some(Outcome::Draw));
}

#[test]
fn tv19_move_sequence() {
    let p = assert_play(TV1, base(), "d6-c11", TV19_1);
    assert_move_count(&p, 55);
    let p = assert_play(TV19_1, base(), "d14-b12", TV19_2);
    assert_move_count(&p, 87);
    let end = assert_play(TV19_2, base(), "c11-d16", TV19_END);
    assert_eq!(outcome(&end), RED_WINS);
    assert_eq!(end.ply(), 3);
    assert_eq!(end.pieces(1, 3), 0, "the Blue pentagon is gone");
    let whole = play_line(TV1, base(), &["d6-c11", "d14-b12", "c11-d16"]);
    assert_eq!(whole, end);
}

#[test]
fn status_of_arbitrary_positions() {
    // Exactly one pentagon missing: its owner has lost, whoever is to move.
    for side in ["r", "b"] {
        let p = pos(&format!("2/9/10/2P8/10/9/2 {side} 0"));
        assert_eq!(
            outcome(&p),
            RED_WINS,
            "Blue has no pentagon, {side} to move"
        );
        let p = pos(&format!("2/9/10/10p/10/9/2 {side} 0"));
        assert_eq!(
            outcome(&p),
            BLUE_WINS,
            "Red has no pentagon, {side} to move"
        );
    }
    // The pentagon comes before gold: Red holds gold but has no pentagon.
    assert_eq!(outcome(&pos("2/4C4/10/10p/10/4C4/2 r 0")), BLUE_WINS);
    // The side to move holding gold has won; the other side holding it is live (TV14).
    assert_eq!(outcome(&pos("2/4c4/10/2P5p2/10/4c4/2 b 0")), BLUE_WINS);
    assert_eq!(outcome(&pos("2/4c4/10/2P5p2/10/4c4/2 r 0")), None);
    // One gold tile each, or one tile only: nothing.
    assert_eq!(outcome(&pos("2/4C4/10/2P5p2/10/4c4/2 r 0")), None);
    assert_eq!(outcome(&pos("2/4C4/10/2P5p2/10/9/2 r 0")), None);
}

#[test]
fn ply_cap() {
    // At the cap: a draw (step 8); one below: live.
    assert_eq!(outcome(&pos_with(TV12, with_cap(300))), None);
    let at_cap = TV12.replace(" r 0", " r 300");
    assert_eq!(
        outcome(&pos(&at_cap)),
        Some(Outcome::Draw),
        "default cap 300"
    );
    assert_eq!(outcome(&pos(&TV12.replace(" r 0", " r 299"))), None);
    assert_move_count(&pos(&at_cap), 0);
    // 0 turns the cap off.
    let far = TV12.replace(" r 0", " r 100000");
    assert_eq!(outcome(&pos_with(&far, with_cap(0))), None);
    assert_eq!(
        outcome(&pos_with(&far, with_cap(100_000))),
        Some(Outcome::Draw)
    );
    // A move reaching the cap draws ...
    let p = play_line(TV12, with_cap(1), &["d10-d8"]);
    assert_eq!(outcome(&p), Some(Outcome::Draw));
    // ... unless it captures the pentagon (step 4) ...
    let p = play_line(TV12, with_cap(1), &["d10-d20"]);
    assert_eq!(outcome(&p), RED_WINS);
    // ... or the mover's opponent holds gold (step 5), or has no move (step 6).
    let p = play_line(TV13, with_cap(2), &["e9-f10", "d20-d18"]);
    assert_eq!(outcome(&p), RED_WINS);
    let p = play_line(TV13, with_cap(1), &["e9-f10"]);
    assert_eq!(
        outcome(&p),
        Some(Outcome::Draw),
        "gold is checked on Blue's turn"
    );
    let p = play_line("Pc/3c5/5c4/10p/10/9/2 b 0", with_cap(1), &["c11-b10"]);
    assert_eq!(outcome(&p), BLUE_WINS, "no moves comes before the cap");
    assert_eq!(outcome(&pos(&TV17.replace(" r 0", " r 300"))), BLUE_WINS);
}

/// Plays `line` one move at a time under the repetition rule and returns the outcome after
/// each ply.
fn outcomes_along(tfn: &str, line: &[&str]) -> Vec<Option<Outcome>> {
    let rules = TactigonRules {
        repetition: true,
        ..base()
    };
    let mut p = pos_with(tfn, rules);
    let mut r = reference(tfn, rules);
    let mut out = Vec::new();
    for m in line {
        p.try_play_str(m).unwrap();
        r.play(r.find(m).unwrap());
        assert_eq!(p.outcome(), r.status().map(outcome_of), "after {m}");
        out.push(p.outcome());
    }
    out
}

#[test]
fn repetition_draws_on_the_third_occurrence() {
    let shuffle = ["d10-d8", "d20-d18", "d8-d10", "d18-d20"];
    let line: Vec<&str> = shuffle.iter().chain(&shuffle).copied().collect();
    let outcomes = outcomes_along(TV12, &line);
    assert!(outcomes[..7].iter().all(Option::is_none), "{outcomes:?}");
    assert_eq!(
        outcomes[7],
        Some(Outcome::Draw),
        "the start for the third time"
    );
    let p = play_line(TV12, base(), &line);
    assert_eq!(outcome(&p), None, "off by default");
    // A position string carries no history: the drawn position, re-read, is live.
    let rules = TactigonRules {
        repetition: true,
        ..base()
    };
    let drawn = play_line(TV12, rules, &line);
    assert_eq!(drawn.outcome(), Some(Outcome::Draw));
    assert_eq!(pos_with(&drawn.to_fen(), rules).outcome(), None);
}

#[test]
fn repetition_counts_the_side_to_move() {
    // Red's pentagon goes round a triangle of cells (period 3), Blue's back and forth
    // (period 2): the same board recurs with either side to move, and the same board with
    // the same side to move for the third time only at ply 24.
    let red = ["d10-c11", "c11-d12", "d12-d10"];
    let blue = ["d20-d18", "d18-d20"];
    let line: Vec<&str> = (0..24)
        .map(|k| {
            if k % 2 == 0 {
                red[(k / 2) % 3]
            } else {
                blue[(k / 2) % 2]
            }
        })
        .collect();
    let outcomes = outcomes_along(TV12, &line);
    let first_draw = outcomes.iter().position(Option::is_some);
    assert_eq!(first_draw, Some(23), "{outcomes:?}");
    assert_eq!(outcomes[23], Some(Outcome::Draw));
    // By ply 13 the board after ply 1 has been seen three times, with both sides to move.
    let boards: Vec<String> = (1..=13)
        .map(|k| {
            let p = play_line(TV12, base(), &line[..k]);
            p.to_fen().split(' ').next().unwrap().to_string()
        })
        .collect();
    assert_eq!(boards.iter().filter(|b| **b == boards[0]).count(), 3);
}

/// The ply counter saturates instead of overflowing when there is no cap.
#[test]
fn the_ply_counter_saturates_without_a_cap() {
    use ludus::game::Game;
    use ludus::game::tactigon::{Tactigon, TactigonRules};
    let rules = TactigonRules {
        ply_cap: 0,
        ..TactigonRules::default()
    };
    let mut pos = Tactigon::from_fen("2/9/10/5P4p/10/9/2 r 4294967295", &rules).expect("parses");
    pos.try_play_str("d10-d8").expect("legal");
    assert_eq!(pos.to_fen(), "2/9/10/4P5p/10/9/2 b 4294967295");
}
