//! The MCTS searcher (`search::mcts`): forced wins and losses proven in all three games, exact
//! results in Isaac scoring endgames (where one player may move several times in a row)
//! checked against a brute-force solver, reproducible node-limited searches, the node and
//! depth limits, `searchmoves`, an immediate stop, and a full tree (which stops growing, not
//! searching).

use std::collections::HashMap;
use std::sync::atomic::AtomicBool;

use crate::common::isaac_helpers::SCORING_ENDGAMES;
use crate::common::solver::{assert_proof_kept, plies_to_end};

use crate::common::assert_legal;
use ludus::game::isaac::{Isaac, IsaacRules};
use ludus::game::sight::{Sight, SightSettings};
use ludus::game::tactigon::{Tactigon, TactigonRules};
use ludus::game::{Game, Searchable};
use ludus::search::mcts;
use ludus::search::{Limits, Score, SearchInfo, SearchParams, SearchResult};

/// Tree budget of most tests: 16 MiB, the default `Hash`.
const BUDGET: usize = 16 << 20;

fn isaac(fen: &str) -> Isaac {
    Isaac::from_fen(fen, &IsaacRules::default()).expect("test position parses")
}

fn tactigon(fen: &str) -> Tactigon {
    Tactigon::from_fen(fen, &TactigonRules::default()).expect("test position parses")
}

fn sight(fen: &str) -> Sight {
    let settings = SightSettings {
        size: 5,
        strict_tallest: false,
    };
    Sight::from_fen(fen, &settings).expect("test position parses")
}

fn limits(nodes: Option<u64>, depth: Option<u32>) -> Limits {
    Limits {
        nodes,
        depth,
        ..Limits::default()
    }
}

/// Runs the MCTS on `pos` and returns the result with every `info` report, in the game's
/// notation.
fn run_with<G: Searchable>(
    pos: &G,
    limits: Limits,
    root_moves: Option<Vec<G::Move>>,
    budget: usize,
    stop: bool,
) -> (SearchResult<String>, Vec<SearchInfo<String>>) {
    let params = SearchParams {
        root_moves,
        ..SearchParams::new(limits)
    };
    let mut infos = Vec::new();
    let stop = AtomicBool::new(stop);
    let result = mcts::search(pos, &params, budget, &stop, &mut |i| {
        infos.push(i.map_pv(|pv| pos.line_notation(pv)))
    });
    (result.map_move(|m| pos.move_to_string(m)), infos)
}

fn run<G: Searchable>(pos: &G, limits: Limits) -> (SearchResult<String>, Vec<SearchInfo<String>>) {
    run_with(pos, limits, None, BUDGET, false)
}

#[test]
fn finds_the_mate_in_one_of_sight_tv11_without_iterating() {
    let pos = sight("5:x5/x,w,x,w2,x/b,x,w,w3,b2/x3,b,b/x5 w");
    let (result, infos) = run(&pos, limits(Some(10_000), None));
    assert_eq!(result.best.as_deref(), Some("d4-e4"));
    assert_eq!(result.score, Some(Score::Mate(1)));
    // The root's expansion proves it: no iteration is needed and one line is reported.
    assert_eq!(result.nodes, 0);
    assert_eq!(infos.len(), 1);
    assert_eq!(infos[0].pv, vec!["d4-e4"]);
    assert_eq!(infos[0].score, Score::Mate(1));
}

#[test]
fn captures_the_hanging_tactigon_pentagon() {
    // docs/rules/tactigon.md TV9: the Red pentagon reaches the Blue one in three steps round the
    // circle.
    let pos = tactigon("2/9/5s4/5Pcp3/10/9/2 r 0");
    let (result, _) = run(&pos, limits(Some(1000), None));
    assert_eq!(result.best.as_deref(), Some("d10-d14"));
    assert_eq!(result.score, Some(Score::Mate(1)));
}

#[test]
fn plays_the_only_move_that_does_not_lose_at_once() {
    // docs/rules/tactigon.md TV14: only f14-f10 breaks Red's gold pair; every other Blue move loses
    // at once.
    let pos = tactigon("2/4C4/10/2P5p2/10/4C1t2/2 b 0");
    let (result, _) = run(&pos, limits(Some(2000), None));
    assert_eq!(result.best.as_deref(), Some("f14-f10"));
}

#[test]
fn proves_tactigon_losses_and_wins_through_widened_nodes() {
    // docs/rules/tactigon.md TV13 after e9-f10: every Blue move loses at once.
    let blue = tactigon("2/4C4/10/2P5p1c/10/4C4/2 b 1");
    let (result, _) = run(&blue, limits(Some(1000), None));
    assert_eq!(result.score, Some(Score::Mate(-1)));
    // Red sees it coming: after e9-f10 every Blue reply loses, which takes every reply's
    // node, not only the few best the expansion keeps.
    let red = tactigon("2/4C4/10/2P5p1c/4C5/9/2 r 0");
    let (result, _) = run(&red, limits(Some(20_000), None));
    assert_eq!(result.best.as_deref(), Some("e9-f10"));
    assert_eq!(result.score, Some(Score::Mate(1)));
}

#[test]
fn isaac_win_at_100_is_found_with_the_smallest_advance() {
    // docs/rules/isaac.md TV6: x4h60 earns 8 and +5 already reaches 100 (the search keeps only +5).
    let pos = isaac("D4h60,L3v64,L3h65,L3v68,D3v69 00000/00000 d S - 95/1 0/0");
    let (result, _) = run(&pos, limits(Some(1000), None));
    assert_eq!(result.best.as_deref(), Some("x4h60+5"));
    assert_eq!(result.score, Some(Score::Mate(1)));
    assert_eq!(result.nodes, 0);
}

#[test]
fn isaac_scoring_endgames_are_proven_with_the_right_winner() {
    // The brute-forced endgames that tests/search/search_isaac.rs checks alpha-beta on.
    for fen in SCORING_ENDGAMES {
        let pos = isaac(fen);
        let truth = plies_to_end(&pos, &mut HashMap::new());
        let (result, _) = run(&pos, limits(Some(200_000), None));
        // The solver proves the winner; the distance it reports is only an upper bound.
        assert_proof_kept(fen, &pos, &result, truth);
    }
}

#[test]
fn a_node_limited_search_is_reproducible_and_stops_at_exactly_n_iterations() {
    let pos = Isaac::start(&IsaacRules::default());
    let (a, infos_a) = run(&pos, limits(Some(3000), None));
    let (b, infos_b) = run(&pos, limits(Some(3000), None));
    assert_eq!(a, b);
    assert_eq!(a.nodes, 3000);
    // Reports come at every power of two iterations and at the end (and every second, which
    // depends on the clock: those are left out).
    let strip = |infos: &[SearchInfo<String>]| -> Vec<(u32, u32, Score, u64, Vec<String>)> {
        infos
            .iter()
            .filter(|i| i.nodes.is_power_of_two() || i.nodes == 3000)
            .map(|i| (i.depth, i.seldepth, i.score, i.nodes, i.pv.clone()))
            .collect()
    };
    let counts: Vec<u64> = strip(&infos_a).iter().map(|i| i.3).collect();
    assert_eq!(
        counts,
        [1, 2, 4, 8, 16, 32, 64, 128, 256, 512, 1024, 2048, 3000]
    );
    assert_eq!(strip(&infos_a), strip(&infos_b));
    let last = &infos_a[infos_a.len() - 1];
    assert_eq!(a.best.as_ref(), last.pv.first());
    assert_eq!(a.score, Some(last.score));
    assert_legal(&pos, a.best.as_deref());
}

#[test]
fn a_depth_limited_search_stops_when_the_main_line_is_that_long() {
    let pos = Isaac::start(&IsaacRules::default());
    for depth in [1, 3, 5] {
        let (result, infos) = run(&pos, limits(None, Some(depth)));
        assert_eq!(result.depth, depth);
        let last = &infos[infos.len() - 1];
        assert_eq!(last.pv.len(), depth as usize);
        // The tree never grows below the limit.
        assert!(infos.iter().all(|i| i.seldepth <= depth), "{infos:#?}");
        assert_legal(&pos, result.best.as_deref());
    }
}

#[test]
fn searchmoves_restricts_the_root() {
    let pos = Isaac::start(&IsaacRules::default());
    let only: Vec<_> = ["3h00", "7v05"]
        .iter()
        .map(|m| pos.parse_move(m).expect("a move"))
        .collect();
    let (result, infos) = run_with(&pos, limits(Some(500), None), Some(only), BUDGET, false);
    let best = result.best.expect("a move");
    assert!(best == "3h00" || best == "7v05", "{best}");
    assert!(infos.iter().all(|i| i.pv[0] == "3h00" || i.pv[0] == "7v05"));
    // A mate in one outside the list is not played.
    let pos = sight("5:x5/x,w,x,w2,x/b,x,w,w3,b2/x3,b,b/x5 w");
    let only = vec![pos.parse_move("d4-c4").expect("a move")];
    let (result, _) = run_with(&pos, limits(Some(100), None), Some(only), BUDGET, false);
    assert_eq!(result.best.as_deref(), Some("d4-c4"));
}

#[test]
fn a_search_stopped_before_it_starts_still_gives_a_legal_move() {
    for fen in [
        "- 54321/54321 d P - 0/0 0/0",
        "D7h00 54320/54321 l P - 0/0 0/0",
    ] {
        let pos = isaac(fen);
        let (result, infos) = run_with(&pos, Limits::default(), None, BUDGET, true);
        assert_eq!(result.nodes, 0);
        assert_legal(&pos, result.best.as_deref());
        assert_eq!(infos.len(), 1);
    }
    let pos = tactigon("2/9/5s4/5Pcp3/10/9/2 r 0");
    let (result, _) = run_with(&pos, Limits::default(), None, BUDGET, true);
    assert_eq!(result.best.as_deref(), Some("d10-d14"));
}

#[test]
fn a_full_tree_stops_growing_but_the_search_keeps_to_its_limit() {
    let pos = Isaac::start(&IsaacRules::default());
    // 200 kB: the root's 600 edges and a few hundred expansions; the tree is full long before
    // 200,000 iterations, which still all run.
    let (result, infos) = run_with(&pos, limits(Some(200_000), None), None, 200_000, false);
    assert_eq!(result.nodes, 200_000);
    assert_legal(&pos, result.best.as_deref());
    let last = &infos[infos.len() - 1];
    assert_eq!(last.nodes, 200_000);
    assert!(last.hashfull > 900, "{last:?}");
    // A search limited by depth alone could wait forever for a full tree: it ends.
    let (result, infos) = run_with(&pos, limits(None, Some(60)), None, 200_000, false);
    assert!(result.nodes > 10, "{}", result.nodes);
    assert!(result.depth < 60, "{}", result.depth);
    assert_legal(&pos, result.best.as_deref());
    assert!(infos[infos.len() - 1].hashfull > 900);
    // Too small for the root's edges: the first move by evaluation order, no search.
    let (result, _) = run_with(&pos, limits(Some(1000), None), None, 1000, false);
    assert_eq!(result.nodes, 0);
    assert_legal(&pos, result.best.as_deref());
}

#[test]
fn finished_games_have_no_move() {
    let pos = isaac("- 00000/00000 - E dl 0/0 0/0");
    let (result, infos) = run(&pos, limits(Some(100), None));
    assert_eq!(result.best, None);
    assert!(infos.is_empty());
}
