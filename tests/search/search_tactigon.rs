//! Search tests on Tactigon: the tactics the engine must see (a hanging pentagon, a one-move
//! threat to its own pentagon, an enemy gold pair), draws by the ply cap, repetitions (a side
//! ahead does not step back into a position of the game), and move times.

use crate::common::solver::{assert_move_at_any_budget, search_after, search_within};

use ludus::game::tactigon::board::board;
use ludus::game::tactigon::{PENTAGON, Tactigon, TactigonRules};
use ludus::game::{Game, SearchHooks};
use ludus::search::{Limits, Score};

fn tactigon(fen: &str) -> Tactigon {
    Tactigon::from_fen(fen, &TactigonRules::default()).expect("test position parses")
}

fn depth(d: u32) -> Limits {
    Limits {
        depth: Some(d),
        ..Limits::default()
    }
}

fn after(pos: &Tactigon, m: &str) -> Tactigon {
    let mut child = pos.clone();
    child.try_play_str(m).expect("the engine's move is legal");
    child
}

#[test]
fn captures_a_hanging_pentagon() {
    // docs/rules/tactigon.md TV9: the Red pentagon reaches the Blue one in three steps round the
    // circle.
    let pos = tactigon("2/9/5s4/5Pcp3/10/9/2 r 0");
    let result = search_within(&pos, depth(4));
    assert_eq!(result.best.as_deref(), Some("d10-d14"));
    assert_eq!(result.score, Some(Score::Mate(1)));
}

#[test]
fn defends_against_a_one_move_pentagon_threat() {
    // The Blue triangle on d10 reaches the Red pentagon on d4 in three steps.
    let pos = tactigon("2/9/10/2P2t4p/10/9/2 r 0");
    let red_pentagon = pos.pieces(0, PENTAGON).trailing_zeros() as u8;
    // The same board with Blue to move: the threat is real.
    let blue = Tactigon::from_fen("2/9/10/2P2t4p/10/9/2 b 0", &TactigonRules::default())
        .expect("same board, Blue to move");
    let mut threats = Vec::new();
    blue.generate_moves(&mut threats);
    assert!(threats.iter().any(|m| m.to == red_pentagon));
    for d in [2, 3, 4] {
        let result = search_within(&pos, depth(d));
        let best = result.best.expect("a move");
        let child = after(&pos, &best);
        let mut replies = Vec::new();
        child.generate_moves(&mut replies);
        let pentagon = child.pieces(0, PENTAGON).trailing_zeros() as u8;
        assert!(
            replies.iter().all(|m| m.to != pentagon),
            "depth {d}: {best} leaves the pentagon en prise"
        );
        assert!(!matches!(result.score, Some(Score::Mate(n)) if n <= 0));
    }
}

#[test]
fn breaks_the_enemy_gold_pair() {
    // docs/rules/tactigon.md TV14: Red holds both gold tiles; only f14-f10 (triangle × circle, both
    // removed) breaks the pair, every other Blue move loses at once.
    let pos = tactigon("2/4C4/10/2P5p2/10/4C1t2/2 b 0");
    assert!(pos.must_respond());
    let result = search_within(&pos, depth(3));
    assert_eq!(result.best.as_deref(), Some("f14-f10"));
    let child = after(&pos, "f14-f10");
    assert_ne!(child.occupied() & board().gold, board().gold);
}

#[test]
fn a_pair_that_cannot_be_broken_is_a_proven_loss() {
    // docs/rules/tactigon.md TV13 after e9-f10: Blue cannot reach either gold tile with an allowed
    // attack.
    let pos = tactigon("2/4C4/10/2P5p1c/10/4C4/2 b 1");
    let result = search_within(&pos, depth(3));
    assert_eq!(result.score, Some(Score::Mate(-1)));
    // And the side holding the pair sees the win coming: e9-f10 is mate in 2 for Red.
    let red = tactigon("2/4C4/10/2P5p1c/4C5/9/2 r 0");
    let result = search_within(&red, depth(4));
    assert_eq!(result.best.as_deref(), Some("e9-f10"));
    assert_eq!(result.score, Some(Score::Mate(1)));
}

#[test]
fn the_ply_cap_makes_a_draw_the_search_sees() {
    // One ply before a cap of 10, nothing decisive is possible: the game is a proven draw.
    let rules = TactigonRules {
        ply_cap: 10,
        ..TactigonRules::default()
    };
    let pos = Tactigon::from_fen(
        "2/C1C3c1c/1ST4ts1/CTPSC1csptc/1ST4ts1/C1C3c1c/2 r 9",
        &rules,
    )
    .expect("start position at ply 9");
    let result = search_within(&pos, depth(5));
    assert_eq!(result.score, Some(Score::Cp(0)));
    assert_eq!(result.depth, 2, "the search stops once it is exact");
}

#[test]
fn the_start_position_gets_a_move_at_any_budget() {
    assert_move_at_any_budget(&Tactigon::start(&TactigonRules::default()));
}

/// The best move at `depth` from `pos`, with `earlier` as the game's earlier positions.
fn best_with_history(pos: &Tactigon, earlier: &[&Tactigon], d: u32) -> Option<String> {
    search_after(pos, earlier, depth(d)).best
}

#[test]
fn a_side_ahead_does_not_step_back_into_a_position_of_the_game() {
    // Game 47 of the ladder's depth-2 rung: Red is a triangle up and its best move is f12-d8.
    let start = tactigon("2/4c2p1/2C5c1/3P2c4/C1C4cc1/4CT3/2 r 152");
    assert_eq!(best_with_history(&start, &[], 5).as_deref(), Some("f12-d8"));
    // The same board four plies later, after both sides stepped out and back: f12-d8 would
    // now return to a position the game has had, which the search scores as a draw.
    let p1 = after(&start, "f12-d8");
    let p2 = after(&p1, "e15-e13");
    let p3 = after(&p2, "d8-f12");
    let again = after(&p3, "e13-e15");
    let twin = tactigon("2/4c2p1/2C5c1/3P2c4/C1C4cc1/4CT3/2 r 156");
    assert_eq!(again, twin);
    assert_eq!(best_with_history(&twin, &[], 5).as_deref(), Some("f12-d8"));
    let best = best_with_history(&again, &[&start, &p1, &p2, &p3], 5);
    assert!(best.is_some());
    assert_ne!(best.as_deref(), Some("f12-d8"));
}

#[test]
fn a_shuffle_back_and_forth_repeats_the_position_for_the_search() {
    // Game 47 of the ladder's depth-2 rung: both sides can step a piece out and back.
    let start = tactigon("2/4c2p1/2C5c1/3P2c4/C1C4cc1/4CT3/2 r 152");
    let out = after(&after(&start, "e1-d2"), "c17-c15");
    let back = after(&after(&out, "d2-e1"), "c15-c17");
    assert_eq!(back.repetition_key(), start.repetition_key());
    assert!(start.repetition_key().is_some());
    assert_ne!(back.hash(), start.hash(), "the ply cap tells the two apart");
    assert_ne!(out.repetition_key(), start.repetition_key());
    // The same board with the other side to move is another position.
    let blue = tactigon("2/4c2p1/2C5c1/3P2c4/C1C4cc1/4CT3/2 b 152");
    assert_ne!(blue.repetition_key(), start.repetition_key());
}
