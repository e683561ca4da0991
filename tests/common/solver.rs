//! An exact solver for small game trees, to check the engine's search against: plain minimax
//! with a memo, no pruning, written for clarity rather than speed.

use std::collections::HashMap;

use std::sync::atomic::AtomicBool;

use ludus::game::{Game, Outcome, Searchable};
use ludus::search::{Limits, Score, SearchParams, SearchResult, SearchTables, search};

/// Plies to the end under perfect play, from the side to move's view: positive when it wins
/// (as fast as it can), negative when it loses (as slowly as it can). Turns need not
/// alternate. The game must be in progress and decisive (no draws).
pub fn plies_to_end<G: Game>(pos: &G, memo: &mut HashMap<u64, i32>) -> i32 {
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
            Some(Outcome::Win(_)) => -1,
            Some(Outcome::Draw) => panic!("the solver handles decisive games only"),
            None => {
                let v = plies_to_end(&child, memo);
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

/// The `score mate N` the engine reports for a result `plies` from the end (see protocol.md).
pub fn mate_score(plies: i32) -> Score {
    if plies > 0 {
        Score::Mate((plies + 1) / 2)
    } else {
        Score::Mate(-((1 - plies) / 2))
    }
}

/// Whether playing into `child` from `pos` keeps the result `truth` of `pos` (its value from
/// `pos`'s side to move).
pub fn keeps_result<G: Game>(pos: &G, child: &G, truth: i32) -> bool {
    let child_wins = match child.outcome() {
        Some(Outcome::Win(p)) => p == child.side_to_move(),
        Some(Outcome::Draw) => return false,
        None => plies_to_end(child, &mut HashMap::new()) > 0,
    };
    let mover_wins = if child.side_to_move() == pos.side_to_move() {
        child_wins
    } else {
        !child_wins
    };
    mover_wins == (truth > 0)
}

/// Searches `pos` within `limits` with fresh 16 MiB tables, one line, no overhead; the move in
/// the game's notation.
pub fn search_within<G: Searchable>(pos: &G, limits: Limits) -> SearchResult<String> {
    search_after(pos, &[], limits)
}

/// [`search_within`] for a game that had the positions `earlier` before `pos`.
pub fn search_after<G: Searchable>(
    pos: &G,
    earlier: &[&G],
    limits: Limits,
) -> SearchResult<String> {
    let params = SearchParams {
        earlier_positions: earlier.iter().filter_map(|p| p.repetition_key()).collect(),
        ..SearchParams::new(limits)
    };
    let mut tables = SearchTables::new(16, G::HISTORY_SIZE).expect("16 MiB for the tables");
    search(
        pos,
        &params,
        &mut tables,
        &AtomicBool::new(false),
        &mut |_| {},
    )
    .map_move(|m| pos.move_to_string(m))
}

/// Asserts that a search of `pos` returns a legal move even at 0, 1 and 10 ms.
pub fn assert_move_at_any_budget<G: Searchable>(pos: &G) {
    for movetime in [0, 1, 10] {
        let limits = Limits {
            movetime_ms: Some(movetime),
            ..Limits::default()
        };
        // A deadline may cut even depth 1; the answer is a legal move all the same.
        let result = search_within(pos, limits);
        let best = result.best.expect("a move");
        let m = pos.parse_move(&best).expect("the engine's own notation");
        assert!(pos.is_legal(m), "{movetime} ms: {best}");
    }
}

/// Asserts that `result`, a search of `pos` whose value is `truth` (see [`plies_to_end`]), is
/// a proven mate for the right side and that its move keeps the result; returns the position
/// after that move. `label` names the case in messages.
pub fn assert_proof_kept<G: Game>(
    label: &str,
    pos: &G,
    result: &SearchResult<String>,
    truth: i32,
) -> G {
    match result.score {
        Some(Score::Mate(n)) => assert_eq!(n > 0, truth > 0, "{label}: mate {n}, truth {truth}"),
        other => panic!(
            "{label}: not proven after {} nodes: {other:?}",
            result.nodes
        ),
    }
    let best = result.best.as_deref().expect("a move");
    let mut child = pos.clone();
    child.try_play_str(best).expect("legal best move");
    assert!(
        keeps_result(pos, &child, truth),
        "{label}: {best} throws the result away"
    );
    child
}
