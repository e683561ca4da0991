//! Search tests on Isaac: exact results in scoring endgames (where one player may move several
//! times in a row) checked against a brute-force solver, the pruned winning advances, and a
//! legal move at the smallest time budgets.

use std::collections::HashMap;

use crate::common::isaac_helpers::SCORING_ENDGAMES;
use crate::common::solver::{
    assert_move_at_any_budget, keeps_result, mate_score, plies_to_end, search_within,
};

use ludus::game::isaac::{Isaac, IsaacRules};
use ludus::game::{Game, SearchHooks};
use ludus::search::{Limits, Score};

fn isaac(fen: &str) -> Isaac {
    Isaac::from_fen(fen, &IsaacRules::default()).expect("test position parses")
}

#[test]
fn exact_scores_match_brute_force_in_scoring_endgames() {
    for fen in SCORING_ENDGAMES {
        let pos = isaac(fen);
        let truth = plies_to_end(&pos, &mut HashMap::new());
        let result = search_within(&pos, Limits::default());
        assert_eq!(result.score, Some(mate_score(truth)), "{fen}");
        let mut child = pos.clone();
        let best = result.best.expect("a move");
        child.try_play_str(&best).expect("legal best move");
        let keeps = keeps_result(&pos, &child, truth);
        assert!(keeps, "{fen}: {best} throws the result away");
    }
}

#[test]
fn a_win_at_100_is_played_with_the_smallest_advance() {
    // docs/rules/isaac.md TV6: x4h60 earns 8 and +5 already reaches 100; +3 would land on Light's
    // counter.
    let pos = isaac("D4h60,L3v64,L3h65,L3v68,D3v69 00000/00000 d S - 95/1 0/0");
    let result = search_within(
        &pos,
        Limits {
            depth: Some(3),
            ..Limits::default()
        },
    );
    assert_eq!(result.best.as_deref(), Some("x4h60+5"));
    assert_eq!(result.score, Some(Score::Mate(1)));
    let mut pruned = Vec::new();
    pos.search_moves(&mut pruned);
    let texts: Vec<String> = pruned.iter().map(|&m| pos.move_to_string(m)).collect();
    assert_eq!(
        texts,
        [
            "x4h60+0", "x4h60+1", "x4h60+2", "x4h60+4", "x4h60+5", "x3v69+0"
        ]
    );
}

#[test]
fn the_start_position_gets_a_move_at_any_budget() {
    assert_move_at_any_budget(&Isaac::start(&IsaacRules::default()));
}
