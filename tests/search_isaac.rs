//! Search tests on Isaac: exact results in scoring endgames (where one player may move several
//! times in a row) checked against a brute-force solver, the pruned winning advances, and a
//! legal move at the smallest time budgets.

use std::collections::HashMap;
use std::sync::atomic::AtomicBool;

use ludus::game::isaac::{Isaac, IsaacRules};
use ludus::game::{Evaluate, Game, Outcome};
use ludus::search::{Limits, Score, SearchParams, SearchResult, SearchTables, search};

fn isaac(fen: &str) -> Isaac {
    Isaac::from_fen(fen, &IsaacRules::default()).expect("test position parses")
}

fn run(pos: &Isaac, limits: Limits) -> SearchResult {
    let params = SearchParams {
        limits,
        multipv: 1,
        overhead_ms: 0,
        root_moves: None,
    };
    let mut tables = SearchTables::new(16, Isaac::HISTORY_SIZE).expect("16 MiB");
    search(
        pos,
        &params,
        &mut tables,
        &AtomicBool::new(false),
        &mut |_| {},
    )
}

/// Plies to the end under perfect play from the side to move's view: positive when it wins
/// (as fast as it can), negative when it loses (as slowly as it can). Turns need not alternate.
fn brute_force(pos: &Isaac, memo: &mut HashMap<u64, i32>) -> i32 {
    assert!(
        pos.outcome().is_none(),
        "the solver starts from a game in progress"
    );
    if let Some(&v) = memo.get(&pos.hash()) {
        return v;
    }
    let mut moves = Vec::new();
    pos.generate_moves(&mut moves);
    let mut best: Option<i32> = None;
    for m in moves {
        let mut child = pos.clone();
        child.play(m);
        let mine = match child.outcome() {
            Some(Outcome::Win(p)) if p == pos.side_to_move() => 1,
            Some(_) => -1,
            None => {
                let v = brute_force(&child, memo);
                let v = if child.side_to_move() == pos.side_to_move() {
                    v
                } else {
                    -v
                };
                if v > 0 { v + 1 } else { v - 1 }
            }
        };
        best = Some(match best {
            None => mine,
            Some(b) if mine > 0 && (b < 0 || mine < b) => mine,
            Some(b) if mine < 0 && b < 0 && mine < b => mine,
            Some(b) => b,
        });
    }
    let v = best.expect("a game that is not over has a move");
    memo.insert(pos.hash(), v);
    v
}

fn mate(plies: i32) -> Score {
    if plies > 0 {
        Score::Mate((plies + 1) / 2)
    } else {
        Score::Mate(plies / 2)
    }
}

#[test]
fn exact_scores_match_brute_force_in_scoring_endgames() {
    for fen in [
        // TV4, TV5 (and its Light-side variant), TV6, TV7, TV8 and TV8 after Light's pass.
        "L3v07,L3v09,L3h20,D4h23,D3v31,D5h60,D3h70 00000/00000 d S - 28/79 3/0",
        "D3h13,D3v39,D5h50,L3h55,L3v58 00000/00000 d S - 10/85 0/0",
        "D3h13,D3v39,L3h55,L3v58 00000/00000 l S - 12/85 5/0",
        "D4h60,L3v64,L3h65,L3v68,D3v69 00000/00000 d S - 95/1 0/0",
        "D5v00,D5h11,D7v28,D4h54,D6h94 00000/00000 d S - 0/0 5/0",
        "L3h11,D3h30,D3v34,D4h50 00000/00000 l S - 12/0 0/0",
        "L3h11,D3h30,D3v34,D4h50 00000/00000 d S l 12/0 0/0",
    ] {
        let pos = isaac(fen);
        let truth = brute_force(&pos, &mut HashMap::new());
        let result = run(&pos, Limits::default());
        assert_eq!(result.score, Some(mate(truth)), "{fen}");
        let mut child = pos.clone();
        let best = result.best.expect("a move");
        child.try_play_str(&best).expect("legal best move");
        let after = match child.outcome() {
            Some(Outcome::Win(p)) => i32::from(p == child.side_to_move()) * 2 - 1,
            None => brute_force(&child, &mut HashMap::new()),
            Some(Outcome::Draw) => unreachable!("Isaac has no draws"),
        };
        let keeps = if child.side_to_move() == pos.side_to_move() {
            (after > 0) == (truth > 0)
        } else {
            (after <= 0) == (truth > 0)
        };
        assert!(keeps, "{fen}: {best} throws the result away");
    }
}

#[test]
fn a_win_at_100_is_played_with_the_smallest_advance() {
    // TV6: x4h60 earns 8 and +5 already reaches 100; +3 would land on Light's counter.
    let pos = isaac("D4h60,L3v64,L3h65,L3v68,D3v69 00000/00000 d S - 95/1 0/0");
    let result = run(
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
    let pos = Isaac::start(&IsaacRules::default());
    for movetime in [0, 1, 10] {
        let result = run(
            &pos,
            Limits {
                movetime_ms: Some(movetime),
                ..Limits::default()
            },
        );
        let best = result.best.expect("a move");
        assert!(
            pos.is_legal(pos.parse_move(&best).expect("notation")),
            "{best}"
        );
        assert!(result.depth >= 1);
    }
}
