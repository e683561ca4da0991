//! Search tests on Sight: forced wins reported as `score mate`, exact results checked against a
//! brute-force solver, the solved small boards, MultiPV, searchmoves, limits, levels, and
//! reproducibility.

use std::collections::HashMap;
use std::sync::atomic::AtomicBool;

use crate::common::sight_helpers::random_walk;
use crate::common::solver::{keeps_result, mate_score, plies_to_end};

use ludus::game::sight::{Sight, SightSettings};
use ludus::game::{Evaluate, Game, Outcome, Player, SearchHooks};
use ludus::search::levels::{greedy_move, random_move};
use ludus::search::{Limits, Score, SearchInfo, SearchParams, SearchResult, SearchTables, search};
use rand::rngs::SmallRng;
use rand::{RngExt, SeedableRng};

fn settings(size: usize) -> SightSettings {
    SightSettings {
        size,
        strict_tallest: false,
    }
}

fn sight(fen: &str) -> Sight {
    let size = fen
        .split(':')
        .next()
        .and_then(|n| n.parse().ok())
        .unwrap_or(5);
    Sight::from_fen(fen, &settings(size)).expect("test position parses")
}

fn params(limits: Limits) -> SearchParams<<Sight as Game>::Move> {
    SearchParams::new(limits)
}

/// The search's result and reports, in the game's notation.
fn run(
    pos: &Sight,
    params: &SearchParams<<Sight as Game>::Move>,
) -> (SearchResult<String>, Vec<SearchInfo<String>>) {
    let mut tables = SearchTables::new(16, Sight::HISTORY_SIZE).expect("16 MiB");
    let stop = AtomicBool::new(false);
    let mut infos = Vec::new();
    let result = search(pos, params, &mut tables, &stop, &mut |i| {
        infos.push(i.map_pv(|pv| pos.line_notation(pv)))
    });
    (result.map_move(|m| pos.move_to_string(m)), infos)
}

fn exact(pos: &Sight) -> SearchResult<String> {
    run(pos, &params(Limits::default())).0
}

#[test]
fn finds_the_mate_in_one_of_tv11() {
    let pos = sight("5:x5/x,w,x,w2,x/b,x,w,w3,b2/x3,b,b/x5 w");
    let (result, infos) = run(
        &pos,
        &params(Limits {
            depth: Some(6),
            ..Limits::default()
        }),
    );
    assert_eq!(result.best.as_deref(), Some("d4-e4"));
    assert_eq!(result.score, Some(Score::Mate(1)));
    // A proven result ends the iterations at once.
    assert_eq!(infos.len(), 1);
    assert_eq!(infos[0].pv, vec!["d4-e4"]);
}

#[test]
fn three_by_three_is_a_first_player_win_only_by_b2() {
    let pos = Sight::start(&settings(3));
    let result = exact(&pos);
    assert_eq!(result.best.as_deref(), Some("b2"));
    assert!(
        matches!(result.score, Some(Score::Mate(n)) if n > 0),
        "{:?}",
        result.score
    );
    let plies = plies_to_end(&pos, &mut HashMap::new());
    assert_eq!(result.score, Some(mate_score(plies)));
    // Every other opening loses.
    let mut moves = Vec::new();
    pos.generate_moves(&mut moves);
    for m in moves.into_iter().filter(|&m| pos.move_to_string(m) != "b2") {
        let mut child = pos.clone();
        child.play(m);
        assert!(
            plies_to_end(&child, &mut HashMap::new()) > 0,
            "{} should lose",
            pos.move_to_string(m)
        );
    }
}

#[test]
fn four_by_four_is_a_second_player_win() {
    for strict in [false, true] {
        let pos = Sight::start(&SightSettings {
            size: 4,
            strict_tallest: strict,
        });
        let result = exact(&pos);
        assert!(
            matches!(result.score, Some(Score::Mate(n)) if n < 0),
            "strict {strict}: {:?}",
            result.score
        );
    }
}

#[test]
fn exact_scores_match_brute_force_on_random_endgames() {
    let mut rng = SmallRng::seed_from_u64(2026);
    let mut checked = 0;
    let mut wins = 0;
    while checked < 60 {
        let plies = rng.random_range(13..19);
        let pos = random_walk(Sight::start(&settings(5)), plies, &mut rng);
        if pos.outcome().is_some() {
            continue;
        }
        let truth = plies_to_end(&pos, &mut HashMap::new());
        let result = exact(&pos);
        assert_eq!(result.score, Some(mate_score(truth)), "{}", pos.to_fen());
        // The chosen move keeps the result.
        let mut child = pos.clone();
        let best = result.best.expect("a move");
        child.try_play_str(&best).expect("legal best move");
        assert!(keeps_result(&pos, &child, truth), "{} {best}", pos.to_fen());
        wins += usize::from(truth > 0);
        checked += 1;
    }
    assert!(
        wins > 5 && wins < 55,
        "a mix of won and lost positions: {wins}"
    );
}

#[test]
fn multipv_reports_distinct_lines_best_first() {
    let pos = sight("5:x5/x,w2,x3/x2,w,x2/x2,b,b,x/x5 w");
    let mut p = params(Limits {
        depth: Some(3),
        ..Limits::default()
    });
    p.multipv = 3;
    let (result, infos) = run(&pos, &p);
    let last: Vec<&SearchInfo<String>> = infos.iter().filter(|i| i.depth == 3).collect();
    assert_eq!(last.len(), 3);
    assert_eq!(
        last.iter().map(|i| i.multipv).collect::<Vec<_>>(),
        vec![Some(1), Some(2), Some(3)]
    );
    let firsts: Vec<&str> = last.iter().map(|i| i.pv[0].as_str()).collect();
    assert!(firsts[0] != firsts[1] && firsts[1] != firsts[2] && firsts[0] != firsts[2]);
    let value = |s: Score| match s {
        Score::Cp(c) => c,
        Score::Mate(n) if n > 0 => 100_000 - n,
        Score::Mate(n) => -100_000 - n,
    };
    assert!(value(last[0].score) >= value(last[1].score));
    assert!(value(last[1].score) >= value(last[2].score));
    assert_eq!(result.best.as_deref(), Some(firsts[0]));
}

#[test]
fn searchmoves_restricts_the_root() {
    let pos = sight("5:x,w2,x2,b3/x,w2,x3/x,w3,w,x2/x2,b,b,x/x,b3,x3 w");
    let only = pos.parse_move("b3-a3").unwrap();
    let mut p = params(Limits {
        depth: Some(4),
        ..Limits::default()
    });
    p.root_moves = Some(vec![only]);
    assert_eq!(run(&pos, &p).0.best.as_deref(), Some("b3-a3"));
}

#[test]
fn node_limit_is_reproducible_and_respected_after_depth_one() {
    let pos = Sight::start(&settings(5));
    let p = params(Limits {
        nodes: Some(5_000),
        ..Limits::default()
    });
    let (a, infos_a) = run(&pos, &p);
    let (b, infos_b) = run(&pos, &p);
    assert_eq!(a, b);
    let strip = |v: &[SearchInfo<String>]| {
        v.iter()
            .map(|i| (i.depth, i.seldepth, i.score, i.nodes, i.pv.clone()))
            .collect::<Vec<_>>()
    };
    assert_eq!(strip(&infos_a), strip(&infos_b));
    // The search stops within one poll of the limit.
    assert!(a.nodes >= 5_000 && a.nodes < 5_000 + 1_100, "{}", a.nodes);
}

#[test]
fn a_finished_game_has_no_best_move() {
    let pos = sight("3:w,b,w/b,w,b/w,b,w b");
    let (result, infos) = run(
        &pos,
        &params(Limits {
            depth: Some(3),
            ..Limits::default()
        }),
    );
    assert_eq!(result.best, None);
    assert!(infos.is_empty());
}

#[test]
fn levels_pick_legal_moves_and_greedy_takes_a_win() {
    let mut rng = SmallRng::seed_from_u64(7);
    let pos = sight("5:x5/x,w,x,w2,x/b,x,w,w3,b2/x3,b,b/x5 w");
    let (m, _) = greedy_move(&pos, &mut rng).expect("a move");
    assert_eq!(pos.move_to_string(m), "d4-e4");
    for _ in 0..50 {
        let m = random_move(&pos, &mut rng).expect("a move");
        assert!(pos.is_legal(m));
    }
    assert!(random_move(&sight("3:w,b,w/b,w,b/w,b,w b"), &mut rng).is_none());
}

/// Plays one game; `full_is` says which seat the searcher takes; returns the winner.
fn play_vs_random(full_is: Player, seed: u64) -> Player {
    let mut rng = SmallRng::seed_from_u64(seed);
    let mut tables = SearchTables::new(4, Sight::HISTORY_SIZE).expect("4 MiB");
    let stop = AtomicBool::new(false);
    let p = params(Limits {
        nodes: Some(3_000),
        ..Limits::default()
    });
    let mut pos = Sight::start(&settings(5));
    loop {
        if let Some(Outcome::Win(p)) = pos.outcome() {
            return p;
        }
        let m = if pos.side_to_move() == full_is {
            search(&pos, &p, &mut tables, &stop, &mut |_| {})
                .best
                .expect("move")
        } else {
            random_move(&pos, &mut rng).expect("move")
        };
        pos.play(m);
    }
}

#[test]
fn full_search_beats_random_play() {
    let games = 40;
    let wins = (0..games)
        .filter(|&g| {
            let seat = if g % 2 == 0 { Player::One } else { Player::Two };
            play_vs_random(seat, g) == seat
        })
        .count();
    assert!(
        wins >= 38,
        "full search won only {wins} of {games} against random"
    );
}

#[test]
fn evaluation_is_symmetric_in_the_side_to_move() {
    // The same board with the colours swapped and the other side to move evaluates the same.
    let a = sight("5:x5/x,w2,x3/x2,w,x2/x2,b,b,x/x5 w");
    let b = sight("5:x5/x,b2,x3/x2,b,x2/x2,w,w,x/x5 b");
    assert_eq!(a.evaluate(), b.evaluate());
}

/// Lazy SMP: with helper threads sharing the table, exact searches prove the same results as
/// one thread, on every run.
#[test]
fn several_threads_prove_the_same_results_as_one() {
    let three = Sight::start(&settings(3));
    let four = Sight::start(&SightSettings {
        size: 4,
        strict_tallest: false,
    });
    let one_thread_four = exact(&four).score;
    for threads in [2, 4] {
        for _ in 0..3 {
            let p = SearchParams {
                threads,
                ..params(Limits::default())
            };
            let (result, infos) = run(&three, &p);
            assert_eq!(result.best.as_deref(), Some("b2"), "{threads} threads");
            let plies = plies_to_end(&three, &mut HashMap::new());
            assert_eq!(result.score, Some(mate_score(plies)));
            // Reported nodes include the helpers' and never go down.
            assert!(infos.windows(2).all(|w| w[0].nodes <= w[1].nodes));
        }
    }
    let two = SearchParams {
        threads: 2,
        earlier_positions: Vec::new(),
        net: None,
        ..params(Limits::default())
    };
    assert_eq!(run(&four, &two).0.score, one_thread_four);
}

/// Lazy SMP with shared iterations: whichever thread completes a depth first, the reports'
/// depths only rise, the last one is the depth asked for, and the answer is its line.
#[test]
fn several_threads_report_rising_depths_and_answer_the_deepest_line() {
    let pos = Sight::start(&settings(5));
    for threads in [2, 3] {
        for _ in 0..3 {
            let p = SearchParams {
                threads,
                ..params(Limits {
                    depth: Some(9),
                    ..Limits::default()
                })
            };
            let (result, infos) = run(&pos, &p);
            assert!(
                infos.windows(2).all(|w| w[0].depth < w[1].depth),
                "{infos:?}"
            );
            let last = infos.last().expect("depth 9 reported");
            assert_eq!((last.depth, result.depth), (9, 9), "{threads} threads");
            assert_eq!(result.best.as_ref(), last.pv.first());
            assert_eq!(result.score, Some(last.score));
            assert!(infos.windows(2).all(|w| w[0].nodes <= w[1].nodes));
        }
    }
}

/// `go mate N`: the shortest win is found when N allows it (the solver's distance, a move that
/// keeps the win) and not claimed when N is one move short; the search stops once it finds it.
#[test]
fn a_mate_search_finds_the_shortest_win_within_its_moves() {
    let mut rng = SmallRng::seed_from_u64(33);
    let (mut checked, mut longer) = (0, 0);
    while checked < 16 {
        let plies = rng.random_range(12..18);
        let pos = random_walk(Sight::start(&settings(5)), plies, &mut rng);
        if pos.outcome().is_some() {
            continue;
        }
        let truth = plies_to_end(&pos, &mut HashMap::new());
        let moves = (truth + 1) / 2;
        if truth <= 0 || moves > 4 {
            continue;
        }
        let mate = |n: i32, threads: usize| {
            let p = SearchParams {
                threads,
                ..params(Limits {
                    mate: Some(n as u32),
                    ..Limits::default()
                })
            };
            run(&pos, &p)
        };
        for threads in [1, 2] {
            let (found, infos) = mate(moves, threads);
            assert_eq!(found.score, Some(Score::Mate(moves)), "{}", pos.to_fen());
            assert!(found.depth < 2 * moves as u32, "{}", pos.to_fen());
            assert_eq!(infos.last().map(|i| i.score), Some(Score::Mate(moves)));
            let mut child = pos.clone();
            let best = found.best.expect("a move");
            child.try_play_str(&best).expect("legal best move");
            assert!(keeps_result(&pos, &child, truth), "{} {best}", pos.to_fen());
        }
        if moves > 1 {
            let (short, _) = mate(moves - 1, 1);
            assert!(
                !matches!(short.score, Some(Score::Mate(m)) if m > 0),
                "no win in {} moves in {}: {:?}",
                moves - 1,
                pos.to_fen(),
                short.score
            );
            assert_eq!(
                short.depth,
                2 * moves as u32 - 3,
                "searched to the end of N moves"
            );
            longer += 1;
        }
        checked += 1;
    }
    assert!(longer >= 4, "wins longer than one move: {longer}");
}
