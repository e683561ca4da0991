//! Searches cut short (issue 19): `stop`, a node limit or a deadline ends a search at any node,
//! depth 1 and `MultiPV` included, and the answer is still a legal move — the best one scored
//! so far. And `MultiPV` lines found in one pass over the root moves are the same lines, with
//! the same scores, as searching each again without the lines above it.

use std::sync::atomic::AtomicBool;

use crate::common::assert_legal;
use ludus::game::sight::{Sight, SightSettings};
use ludus::game::tactigon::{Tactigon, TactigonRules};
use ludus::game::{Game, Searchable};
use ludus::search::{Limits, SearchInfo, SearchParams, SearchResult, SearchTables, search};

/// The attack's position: Tactigon, jumping squares and gold bonus, 141 legal moves, whose
/// depth 1 with `MultiPV 256` took seconds and could not be stopped.
const WIDE: &str = "2/3C1ct1c/1C6s1/1T3T4c/C3c1ct1p/CPSCS2tc/S1 r 46";

fn wide() -> Tactigon {
    let rules = TactigonRules {
        jumping_squares: true,
        gold_bonus: true,
        ..TactigonRules::default()
    };
    Tactigon::from_fen(WIDE, &rules).expect("the attack's position parses")
}

fn params<M>(limits: Limits, multipv: usize, root_moves: Option<Vec<M>>) -> SearchParams<M> {
    SearchParams {
        multipv,
        root_moves,
        ..SearchParams::new(limits)
    }
}

/// Searches with fresh tables and `stop` as given; returns the result and the reports, in the
/// game's notation.
fn run<G: Searchable>(
    pos: &G,
    p: &SearchParams<G::Move>,
    stopped: bool,
) -> (SearchResult<String>, Vec<SearchInfo<String>>) {
    let mut tables = SearchTables::new(16, G::HISTORY_SIZE).expect("16 MiB for the tables");
    let mut infos = Vec::new();
    let stop = AtomicBool::new(stopped);
    let result = search(pos, p, &mut tables, &stop, &mut |i| {
        infos.push(i.map_pv(|pv| pos.line_notation(pv)))
    });
    (result.map_move(|m| pos.move_to_string(m)), infos)
}

fn depth(d: u32) -> Limits {
    Limits {
        depth: Some(d),
        ..Limits::default()
    }
}

#[test]
fn stop_cuts_depth_one_with_256_lines_at_its_first_node() {
    let pos = wide();
    assert_eq!(pos.perft(1), 141);
    let (result, infos) = run(&pos, &params(depth(1), 256, None), true);
    // Before: depth 1 always completed, 141 lines of it (hundreds of thousands of nodes).
    assert!(result.nodes <= 2, "{} nodes after stop", result.nodes);
    assert!(infos.is_empty(), "nothing completed, nothing reported");
    assert_legal(&pos, result.best.as_deref());
}

#[test]
fn a_node_limit_inside_depth_one_is_kept_and_answered_with_a_legal_move() {
    let pos = wide();
    let (full, _) = run(&pos, &params(depth(1), 256, None), false);
    assert!(
        full.nodes > 10_000,
        "depth 1 with every line: {}",
        full.nodes
    );
    for nodes in [1, 50, 300, 3_000] {
        let limits = Limits {
            nodes: Some(nodes),
            ..Limits::default()
        };
        let p = params(limits, 256, None);
        let (a, _) = run(&pos, &p, false);
        assert!(a.nodes <= nodes, "limit {nodes}: {} nodes", a.nodes);
        assert_legal(&pos, a.best.as_deref());
        // Reproducible, also when cut inside depth 1.
        assert_eq!(run(&pos, &p, false).0, a, "limit {nodes}");
    }
}

#[test]
fn cut_inside_depth_one_plays_the_best_move_scored_so_far() {
    // docs/rules/tactigon.md TV9: d10-d14 takes the Blue pentagon. Its score is known once depth 1
    // has searched it, before the rest of depth 1 is done.
    let pos = Tactigon::from_fen("2/9/5s4/5Pcp3/10/9/2 r 0", &TactigonRules::default())
        .expect("TV9 parses");
    let (full, infos) = run(&pos, &params(depth(1), 1, None), false);
    assert_eq!(full.best.as_deref(), Some("d10-d14"));
    let complete = infos[0].nodes;
    // The winning move's place among the root moves decides when it is scored; find the
    // smallest node limit at which a cut search already answers it, and check that every larger
    // limit keeps it.
    let answer = |nodes: u64| {
        let limits = Limits {
            nodes: Some(nodes),
            depth: Some(1),
            ..Limits::default()
        };
        run(&pos, &params(limits, 1, None), false).0
    };
    let first = (1..complete)
        .find(|&n| answer(n).best.as_deref() == Some("d10-d14"))
        .expect("the win is found before depth 1 completes");
    for n in first..complete {
        let cut = answer(n);
        assert_eq!(cut.best.as_deref(), Some("d10-d14"), "limit {n}");
        assert_eq!(cut.depth, 0, "limit {n}: depth 1 is not complete");
        // The move's score is not the position's (the other moves were not searched).
        assert_eq!(
            cut.score, None,
            "limit {n}: no score without a complete iteration"
        );
    }
}

/// The lines of the last completed iteration: first moves and scores.
fn last_lines(infos: &[SearchInfo<String>]) -> Vec<(String, ludus::search::Score)> {
    let deepest = infos.iter().map(|i| i.depth).max().unwrap_or(0);
    infos
        .iter()
        .filter(|i| i.depth == deepest)
        .map(|i| (i.pv[0].clone(), i.score))
        .collect()
}

/// MultiPV `k` at `d` gives, line by line, what a single-line search over the moves not
/// in the lines above gives.
fn assert_multipv_matches_exclusion<G: Searchable>(pos: &G, d: u32, k: usize) {
    let (_, infos) = run(pos, &params(depth(d), k, None), false);
    let lines = last_lines(&infos);
    assert_eq!(lines.len(), k);
    let mut all = Vec::new();
    pos.generate_moves(&mut all);
    let mut remaining = all.clone();
    for (i, (mv, score)) in lines.iter().enumerate() {
        let (single, _) = run(pos, &params(depth(d), 1, Some(remaining.clone())), false);
        assert_eq!(
            (single.best.as_deref(), single.score),
            (Some(mv.as_str()), Some(*score)),
            "line {} at depth {d}",
            i + 1
        );
        let m = pos.parse_move(mv).expect("own notation");
        remaining.retain(|&r| r != m);
    }
}

#[test]
fn multipv_lines_in_one_pass_equal_searches_without_the_lines_above() {
    let sight =
        |fen: &str| Sight::from_fen(fen, &SightSettings::default()).expect("test position parses");
    assert_multipv_matches_exclusion(&sight("5:x5/x,w2,x3/x2,w,x2/x2,b,b,x/x5 w"), 3, 4);
    assert_multipv_matches_exclusion(
        &sight("5:x,w2,x2,b3/x,w2,x3/x,w3,w,x2/x2,b,b,x/x,b3,x3 w"),
        4,
        2,
    );
    let tv9 = Tactigon::from_fen("2/9/5s4/5Pcp3/10/9/2 r 0", &TactigonRules::default())
        .expect("TV9 parses");
    assert_multipv_matches_exclusion(&tv9, 3, 3);
}

/// Issue 57 F1: at depth 3 the first root move (e5-d6, the previous best) is found lost,
/// b10-c11 loses more slowly, and e5-e3 holds (`cp -799` at depth 3); a node limit that cuts
/// the iteration before e5-e3 is searched used to report b10-c11's `mate -3` as the position's.
const NOT_LOST: &str = "2/C3C4/6c3/PC2s1p3c/2C7/4c3c/2 r 54";

#[test]
fn a_cut_iteration_never_claims_the_position_lost() {
    let pos = Tactigon::from_fen(NOT_LOST, &TactigonRules::default()).expect("parses");
    let (full, _) = run(&pos, &params(depth(3), 1, None), false);
    assert_eq!(full.best.as_deref(), Some("e5-e3"));
    assert!(
        matches!(full.score, Some(ludus::search::Score::Cp(_))),
        "{:?}",
        full.score
    );
    for threads in [1, 2] {
        for nodes in (1000..=12_000).step_by(250) {
            let limits = Limits {
                nodes: Some(nodes),
                ..Limits::default()
            };
            let p = SearchParams {
                threads,
                ..params(limits, 1, None)
            };
            let (result, infos) = run(&pos, &p, false);
            assert_legal(&pos, result.best.as_deref());
            for info in &infos {
                assert!(
                    !matches!(info.score, ludus::search::Score::Mate(n) if n <= 0),
                    "nodes {nodes}, threads {threads}: {:?} {:?}",
                    info.score,
                    info.pv
                );
            }
            assert!(
                !matches!(result.score, Some(ludus::search::Score::Mate(n)) if n <= 0),
                "nodes {nodes}, threads {threads}: {:?}",
                result.score
            );
        }
    }
}
