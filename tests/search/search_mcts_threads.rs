//! The MCTS searcher with several threads on one tree (`Threads` > 1): the node limit counts
//! every thread's iterations together, proofs and mate scores survive, a full tree keeps
//! searching, and the tree is kept for the next search.
//!
//! Slack of the node limit: every iteration is claimed before it starts, so a search limited
//! to N nodes runs exactly N iterations in all, whatever the number of threads; the tests
//! allow one iteration per thread beyond N ([`SLACK`]) to say what the contract is.

use std::collections::HashMap;
use std::sync::atomic::AtomicBool;

use crate::common::isaac_helpers::SCORING_ENDGAMES;
use crate::common::solver::{assert_proof_kept, plies_to_end};

use crate::common::assert_legal;
use ludus::game::isaac::{Isaac, IsaacRules};
use ludus::game::tactigon::{Tactigon, TactigonRules};
use ludus::game::{Game, Searchable};
use ludus::search::mcts::{self, KeptTree};
use ludus::search::{Limits, Score, SearchInfo, SearchParams, SearchResult};

/// The default `Hash`: 16 MiB.
const BUDGET: usize = 16 << 20;
/// Threads of these tests.
const THREADS: usize = 2;
/// Iterations a node-limited search may run beyond its limit: none today (see the module
/// docs), at most one per thread by contract.
const SLACK: u64 = THREADS as u64;

fn isaac(fen: &str) -> Isaac {
    Isaac::from_fen(fen, &IsaacRules::default()).expect("test position parses")
}

/// Searches `pos` with [`THREADS`] threads for `nodes` iterations within `budget`, going on
/// from `kept`; the result and every `info` report, in the game's notation.
fn run<G: Searchable>(
    pos: &G,
    nodes: u64,
    budget: usize,
    kept: &mut KeptTree<G>,
) -> (SearchResult<String>, Vec<SearchInfo<String>>) {
    let params = SearchParams {
        threads: THREADS,
        ..SearchParams::new(Limits {
            nodes: Some(nodes),
            ..Limits::default()
        })
    };
    let mut infos = Vec::new();
    let stop = AtomicBool::new(false);
    let result = mcts::search_reusing(pos, &params, budget, kept, &stop, &mut |i| {
        infos.push(i.map_pv(|pv| pos.line_notation(pv)))
    });
    (result.map_move(|m| pos.move_to_string(m)), infos)
}

fn assert_node_count(result: &SearchResult<String>, infos: &[SearchInfo<String>], nodes: u64) {
    assert!(
        (nodes..nodes + SLACK).contains(&result.nodes),
        "{} nodes for a limit of {nodes}",
        result.nodes
    );
    let last = infos.last().expect("a search reports its line");
    assert_eq!(last.nodes, result.nodes, "{last:?}");
    // Reports come in order.
    assert!(infos.windows(2).all(|w| w[0].nodes <= w[1].nodes));
}

#[test]
fn two_threads_share_the_node_limit_in_the_isaac_placement_phase() {
    let pos = Isaac::start(&IsaacRules::default());
    let (result, infos) = run(&pos, 20_000, BUDGET, &mut KeptTree::default());
    assert_legal(&pos, result.best.as_deref());
    assert_node_count(&result, &infos, 20_000);
    let last = &infos[infos.len() - 1];
    assert_eq!(result.best.as_ref(), last.pv.first());
    assert!(last.pv.len() >= 4, "{last:?}");
    // A few moves later, in the middle of the placement phase.
    let mut later = pos.clone();
    for m in &last.pv[..4] {
        later.try_play_str(m).expect("the engine's own legal move");
    }
    let (result, infos) = run(&later, 5_000, BUDGET, &mut KeptTree::default());
    assert_legal(&later, result.best.as_deref());
    assert_node_count(&result, &infos, 5_000);
}

#[test]
fn two_threads_still_prove_forced_wins_and_report_mate() {
    // docs/rules/tactigon.md TV13: after e9-f10 every Blue reply loses.
    let red = Tactigon::from_fen("2/4C4/10/2P5p1c/4C5/9/2 r 0", &TactigonRules::default())
        .expect("test position parses");
    let (result, _) = run(&red, 20_000, BUDGET, &mut KeptTree::default());
    assert_eq!(result.best.as_deref(), Some("e9-f10"));
    assert_eq!(result.score, Some(Score::Mate(1)));
    // The brute-forced Isaac endgames, where one player may move several times in a row.
    for fen in SCORING_ENDGAMES {
        let pos = isaac(fen);
        let truth = plies_to_end(&pos, &mut HashMap::new());
        let (result, _) = run(&pos, 200_000, BUDGET, &mut KeptTree::default());
        assert_proof_kept(fen, &pos, &result, truth);
    }
}

#[test]
fn two_threads_keep_searching_a_full_tree() {
    let pos = Isaac::start(&IsaacRules::default());
    // 200 kB fills within a few hundred expansions; every iteration still runs.
    let (result, infos) = run(&pos, 20_000, 200_000, &mut KeptTree::default());
    assert_legal(&pos, result.best.as_deref());
    assert_node_count(&result, &infos, 20_000);
    assert!(infos[infos.len() - 1].hashfull > 900, "{infos:?}");
}

#[test]
fn two_threads_go_on_from_the_kept_tree() {
    let start = Isaac::start(&IsaacRules::default());
    let mut kept = KeptTree::default();
    let (_, infos) = run(&start, 3000, BUDGET, &mut kept);
    let first = &infos[infos.len() - 1];
    assert!(first.pv.len() >= 4, "{first:?}");
    assert!(!kept.is_empty());
    // Two plies later, two iterations already see the old main line below them.
    let mut later = start.clone();
    for m in &first.pv[..2] {
        later.try_play_str(m).expect("the engine's own legal move");
    }
    let (result, infos) = run(&later, 2, BUDGET, &mut kept);
    assert_eq!(result.nodes, 2);
    let line = &infos[infos.len() - 1];
    assert!(line.pv.len() >= 2, "{line:?}");
}
