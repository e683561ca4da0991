//! MCTS tree reuse between moves (`search::mcts::search_reusing`): the next search goes on
//! from the subtree of the position it is given, proofs stay right after re-rooting (Isaac
//! scoring endgames, where one player may move several times in a row, against a
//! brute-force solver), and a restricted search or a new budget starts afresh.

use std::collections::HashMap;
use std::sync::atomic::AtomicBool;

use crate::common::isaac_helpers::SCORING_ENDGAMES;
use crate::common::solver::{assert_proof_kept, plies_to_end};

use ludus::game::isaac::{Isaac, IsaacRules};
use ludus::game::{Game, Searchable};
use ludus::search::mcts::{self, KeptTree};
use ludus::search::{Limits, SearchInfo, SearchParams, SearchResult};

/// The default `Hash`: 16 MiB.
const BUDGET: usize = 16 << 20;

fn isaac(fen: &str) -> Isaac {
    Isaac::from_fen(fen, &IsaacRules::default()).expect("test position parses")
}

fn params<M>(nodes: u64, root_moves: Option<Vec<M>>) -> SearchParams<M> {
    SearchParams {
        root_moves,
        ..SearchParams::new(Limits {
            nodes: Some(nodes),
            ..Limits::default()
        })
    }
}

/// Searches `pos` for `nodes` iterations from what `kept` holds; the result and the last
/// line reported, in the game's notation.
fn search<G: Searchable>(
    pos: &G,
    nodes: u64,
    budget: usize,
    kept: &mut KeptTree<G>,
) -> (SearchResult<String>, SearchInfo<String>) {
    let mut infos = Vec::new();
    let stop = AtomicBool::new(false);
    let params = params(nodes, None);
    let result = mcts::search_reusing(pos, &params, budget, kept, &stop, &mut |i| infos.push(i));
    let last = infos.pop().expect("a search reports its line");
    (
        result.map_move(|m| pos.move_to_string(m)),
        last.map_pv(|pv| pos.line_notation(pv)),
    )
}

fn play(pos: &Isaac, moves: &[String]) -> Isaac {
    let mut pos = pos.clone();
    for m in moves {
        pos.try_play_str(m).expect("the engine's own legal move");
    }
    pos
}

#[test]
fn the_next_search_goes_on_from_the_main_lines_subtree() {
    let start = Isaac::start(&IsaacRules::default());
    let mut kept = KeptTree::default();
    let (_, first) = search(&start, 3000, BUDGET, &mut kept);
    assert!(first.pv.len() >= 4, "{first:?}");
    assert!(!kept.is_empty());
    // Two plies later (the move played and the reply the search expected), one iteration
    // already has the old main line below it.
    let later = play(&start, &first.pv[..2]);
    let (result, line) = search(&later, 1, BUDGET, &mut kept);
    assert_eq!(result.nodes, 1);
    assert!(line.pv.len() >= 2, "{line:?}");
    assert_eq!(line.pv[0], first.pv[2], "{line:?} after {first:?}");
    // Without the kept tree, one iteration sees one ply.
    let (_, fresh) = search(&later, 1, BUDGET, &mut KeptTree::default());
    assert_eq!(fresh.pv.len(), 1, "{fresh:?}");
}

#[test]
fn a_position_the_tree_does_not_reach_starts_afresh() {
    let start = Isaac::start(&IsaacRules::default());
    let mut kept = KeptTree::default();
    let (_, first) = search(&start, 2000, BUDGET, &mut kept);
    // A reply the search never looked at: the last legal move of the position after the
    // first move, which a 2000-iteration search does not reach.
    let after = play(&start, &first.pv[..1]);
    let mut moves = Vec::new();
    after.generate_moves(&mut moves);
    let unexpected = moves.last().copied().expect("a reply");
    let mut off_tree = after.clone();
    off_tree.play(unexpected);
    let (reused, line) = search(&off_tree, 1, BUDGET, &mut kept);
    let (fresh, fresh_line) = search(&off_tree, 1, BUDGET, &mut KeptTree::default());
    assert_eq!(reused, fresh);
    assert_eq!(
        line,
        SearchInfo {
            time_ms: line.time_ms,
            nps: line.nps,
            ..fresh_line
        }
    );
}

#[test]
fn a_restricted_search_or_another_budget_keeps_nothing() {
    let start = Isaac::start(&IsaacRules::default());
    let mut kept = KeptTree::default();
    search(&start, 500, BUDGET, &mut kept);
    assert!(!kept.is_empty());
    // `go searchmoves`: the root has only some moves, so its tree is not kept.
    let mut moves = Vec::new();
    start.generate_moves(&mut moves);
    let stop = AtomicBool::new(false);
    let restricted = params(500, Some(moves[..3].to_vec()));
    mcts::search_reusing(&start, &restricted, BUDGET, &mut kept, &stop, &mut |_| {});
    assert!(kept.is_empty());
    // A tree made within another budget (`Hash` changed) is not taken: the search after it
    // equals a fresh one.
    search(&start, 500, BUDGET, &mut kept);
    let (other, _) = search(&start, 1, BUDGET / 2, &mut kept);
    let (fresh, _) = search(&start, 1, BUDGET / 2, &mut KeptTree::default());
    assert_eq!(other, fresh);
}

#[test]
fn proofs_stay_right_after_rerooting_in_isaac_scoring_endgames() {
    for fen in SCORING_ENDGAMES {
        let mut pos = isaac(fen);
        let mut kept = KeptTree::default();
        // Both sides play the search's moves to the end, each search going on from the last
        // one's tree; every score is a mate for the side the solver says wins.
        while pos.outcome().is_none() {
            let truth = plies_to_end(&pos, &mut HashMap::new());
            let (result, _) = search(&pos, 200_000, BUDGET, &mut kept);
            pos = assert_proof_kept(&format!("{fen} at {}", pos.to_fen()), &pos, &result, truth);
        }
    }
}
