//! Option `Searcher` through the protocol: advertised with alpha-beta as the default, a bad
//! value refused in the usual words, MCTS answering `go movetime` and `go infinite` + `stop`
//! with a legal move, `go nodes` reproducible, the tree kept between moves until
//! `uginewgame`, Isaac's scoring phase left to alpha-beta, and
//! Isaac's default search keeping to `depth` and `movetime` (a full tree does not end it).

use std::time::{Duration, Instant};

use crate::common::process::{Engine, bestmove_of, info_field, is_bestmove, mask_timing};

/// docs/rules/isaac.md TV6: a scoring-phase position (Dark wins with x4h60+5).
const ISAAC_SCORING: &str = "D4h60,L3v64,L3h65,L3v68,D3v69 00000/00000 d S - 95/1 0/0";

/// Sends `query legalmoves` and returns the moves of the `response` line.
fn legal_moves(engine: &mut Engine) -> Vec<String> {
    engine.send("query legalmoves");
    let line = engine.read_line();
    let moves = line
        .strip_prefix("response ")
        .unwrap_or_else(|| panic!("expected a response line, got '{line}'"));
    moves.split(' ').map(str::to_string).collect()
}

/// The lines of one search up to its `bestmove`, timing fields masked.
fn search(engine: &mut Engine, go: &str) -> Vec<String> {
    engine.send(go);
    let lines = engine.read_until_within(Duration::from_secs(30), "bestmove", is_bestmove);
    lines.iter().map(|l| mask_timing(l)).collect()
}

#[test]
fn searcher_is_advertised_and_a_bad_value_is_refused() {
    let mut engine = Engine::spawn();
    engine.send("ugi");
    let lines = engine.read_until(|l| l == "ugiok");
    let line = "option name Searcher type combo default auto var auto var alphabeta var mcts";
    assert!(lines.iter().any(|l| l == line), "{lines:#?}");
    engine.send("setoption name Searcher value foo");
    engine.expect_line(
        "info string error bad-option-value Searcher takes one of auto alphabeta mcts, not 'foo'",
    );
    engine.send("setoption name Searcher");
    engine.expect_line("info string error bad-option-value Searcher needs a value");
    // Values are case-insensitive, as for every combo.
    engine.send("setoption name searcher value MCTS");
    engine.assert_ready();
    engine.quit(Duration::from_secs(10));
}

#[test]
fn mcts_answers_go_movetime_with_a_legal_move_in_every_game() {
    let mut engine = Engine::spawn();
    for game in ["isaac", "sight", "tactigon"] {
        engine.send(&format!("setoption name UCI_Variant value {game}"));
        engine.send("setoption name Searcher value mcts");
        engine.send("position startpos");
        let legal = legal_moves(&mut engine);
        let lines = search(&mut engine, "go movetime 200");
        let best = lines
            .last()
            .and_then(|l| bestmove_of(l))
            .expect("a bestmove");
        assert!(
            legal.iter().any(|m| m == best),
            "{game}: {best} not in {legal:?}"
        );
        assert!(lines.len() >= 2, "{game}: no info line: {lines:#?}");
        for line in &lines[..lines.len() - 1] {
            assert!(line.starts_with("info depth "), "{game}: {line:?}");
        }
    }
    engine.assert_ready();
    engine.quit(Duration::from_secs(10));
}

#[test]
fn mcts_go_infinite_holds_bestmove_until_stop() {
    let mut engine = Engine::spawn();
    engine.send("setoption name UCI_Variant value isaac");
    engine.send("setoption name Searcher value mcts");
    engine.send("position startpos");
    let legal = legal_moves(&mut engine);
    engine.send("go infinite");
    std::thread::sleep(Duration::from_millis(300));
    let during = engine.sync();
    assert!(!during.iter().any(|l| is_bestmove(l)), "{during:#?}");
    engine.send("stop");
    let lines = engine.read_until_within(Duration::from_secs(5), "bestmove", is_bestmove);
    let best = lines
        .last()
        .and_then(|l| bestmove_of(l))
        .expect("a bestmove");
    assert!(legal.iter().any(|m| m == best), "{best}");
    engine.assert_ready();
    engine.quit(Duration::from_secs(10));
}

#[test]
fn mcts_go_nodes_is_reproducible_and_counts_iterations() {
    let run = || {
        let mut engine = Engine::spawn();
        engine.send("setoption name UCI_Variant value isaac");
        engine.send("setoption name Searcher value mcts");
        engine.send("position startpos moves 7h41 3v79");
        let lines = search(&mut engine, "go nodes 1500");
        engine.quit(Duration::from_secs(10));
        lines
    };
    let a = run();
    let b = run();
    // Reports every second come and go with the machine's speed; the rest must be equal.
    let keep = |lines: &[String]| -> Vec<String> {
        lines
            .iter()
            .filter(|l| {
                let nodes = l.split(' ').skip_while(|w| *w != "nodes").nth(1);
                nodes.is_none_or(|n| {
                    n.parse::<u64>()
                        .is_ok_and(|n| n.is_power_of_two() || n == 1500)
                })
            })
            .cloned()
            .collect()
    };
    assert_eq!(keep(&a), keep(&b));
    let last_info = &a[a.len() - 2];
    assert!(last_info.contains(" nodes 1500 "), "{last_info}");
    assert!(a[a.len() - 1].starts_with("bestmove "), "{a:#?}");
}

/// The `depth` and `pv` of the last `info` line of a search.
fn last_line(lines: &[String]) -> (u64, Vec<String>) {
    let info = &lines[lines.len() - 2];
    let depth = info_field(info, "depth").expect("a depth");
    let pv = info.split(" pv ").nth(1).expect("a pv");
    (depth, pv.split(' ').map(str::to_string).collect())
}

#[test]
fn mcts_goes_on_from_its_tree_until_uginewgame() {
    let mut engine = Engine::spawn();
    engine.send("setoption name UCI_Variant value isaac");
    engine.send("position startpos");
    let (_, pv) = last_line(&search(&mut engine, "go nodes 3000"));
    assert!(pv.len() >= 3, "{pv:?}");
    // The move played and the reply expected: one iteration has the old line below it.
    let later = format!("position startpos moves {} {}", pv[0], pv[1]);
    engine.send(&later);
    let (depth, line) = last_line(&search(&mut engine, "go nodes 1"));
    assert!(depth >= 2, "{line:?}");
    assert_eq!(line[0], pv[2]);
    // A new game forgets the tree: one iteration, one ply.
    engine.send("uginewgame");
    engine.send(&later);
    let (depth, _) = last_line(&search(&mut engine, "go nodes 1"));
    assert_eq!(depth, 1);
    engine.quit(Duration::from_secs(10));
}

#[test]
fn the_isaac_scoring_phase_is_searched_by_alphabeta_even_with_mcts() {
    let transcript = |searcher: &str| {
        let mut engine = Engine::spawn();
        engine.send("setoption name UCI_Variant value isaac");
        engine.send(&format!("setoption name Searcher value {searcher}"));
        engine.send(&format!("position fen {ISAAC_SCORING}"));
        let lines = search(&mut engine, "go depth 3");
        engine.quit(Duration::from_secs(10));
        lines
    };
    let alphabeta = transcript("alphabeta");
    assert_eq!(alphabeta, transcript("mcts"));
    assert_eq!(
        alphabeta.last().map(String::as_str),
        Some("bestmove x4h60+5")
    );
}

#[test]
fn mcts_in_time_trouble_still_searches_a_few_iterations() {
    let mut engine = Engine::spawn();
    engine.send("setoption name UCI_Variant value isaac");
    engine.send("setoption name Searcher value mcts");
    engine.send("position startpos");
    // 30 ms on the clock, no increment: nothing is left above the overhead (30 ms by default)
    // and the time manager's target is 0, yet the move is chosen by at least 16 iterations,
    // not by the order of the legal moves.
    let lines = search(&mut engine, "go p1time 30 p2time 30");
    let info = lines
        .iter()
        .rev()
        .find(|l| l.starts_with("info depth"))
        .unwrap_or_else(|| panic!("no info line: {lines:#?}"));
    let words: Vec<&str> = info.split(' ').collect();
    let nodes: u64 = words
        .iter()
        .position(|w| *w == "nodes")
        .and_then(|i| words.get(i + 1))
        .and_then(|n| n.parse().ok())
        .unwrap_or_else(|| panic!("no node count in {info}"));
    assert!(nodes >= 16, "{info}");
    engine.quit(Duration::from_secs(10));
}

#[test]
fn isaac_go_depth_under_the_default_searcher_searches_every_ply() {
    // `Searcher auto` runs MCTS in the placement phase; a search limited by depth alone is
    // alpha-beta's (protocol.md, "MCTS"): every iteration up to the depth is reported.
    let mut engine = Engine::spawn_with_args(&["--game", "isaac"]);
    engine.send("position startpos");
    let lines = search(&mut engine, "go depth 3");
    let depths: Vec<u64> = lines
        .iter()
        .filter(|l| l.contains(" score "))
        .filter_map(|l| info_field(l, "depth"))
        .collect();
    assert_eq!(depths, [1, 2, 3], "{lines:#?}");
    assert!(is_bestmove(lines.last().map(String::as_str).unwrap_or("")));
    engine.quit(Duration::from_secs(10));
}

/// How long Isaac's default search takes to answer `go movetime MS` from the start, after
/// `setup` (lines sent first).
fn isaac_movetime(setup: &[&str], ms: u64) -> Duration {
    let mut engine = Engine::spawn_with_args(&["--game", "isaac"]);
    for line in setup {
        engine.send(line);
    }
    engine.send("position startpos");
    engine.assert_ready();
    let start = Instant::now();
    engine.send(&format!("go movetime {ms}"));
    engine.read_until_within(Duration::from_secs(30), "bestmove", is_bestmove);
    let took = start.elapsed();
    engine.quit(Duration::from_secs(10));
    took
}

#[test]
fn isaac_go_movetime_uses_its_time_even_when_the_tree_is_full() {
    // A release build fills the default 16 MiB in about 3 s at Isaac's start, and 1 MiB in
    // well under a second; the search goes on through the full tree until the move time
    // (less the 30 ms overhead) is spent.
    let took = isaac_movetime(&[], 8000);
    assert!(
        took >= Duration::from_millis(7900),
        "answered after {took:?}"
    );
    let took = isaac_movetime(&["setoption name Hash value 1"], 3000);
    assert!(
        took >= Duration::from_millis(2900),
        "answered after {took:?}"
    );
}

#[test]
fn isaac_under_a_clock_answers_once_the_tree_is_full() {
    // 1 MiB is full after about 5,500 iterations at Isaac's start; a 10-minute clock's target
    // there is about half a minute, in which the search would run millions through the full
    // tree (as `go movetime` does). Counted in iterations, not seconds: load cannot change it.
    let mut engine = Engine::spawn_with_args(&["--game", "isaac"]);
    engine.send("setoption name Hash value 1");
    engine.send("position startpos");
    engine.assert_ready();
    engine.send("go wtime 600000 btime 600000");
    let lines = engine.read_until_within(Duration::from_secs(60), "bestmove", is_bestmove);
    engine.quit(Duration::from_secs(10));
    let last_info = lines.iter().rev().find(|l| l.starts_with("info depth"));
    let hashfull = last_info.and_then(|l| info_field(l, "hashfull"));
    assert!(hashfull >= Some(990), "{last_info:?}");
    let nodes = last_info.and_then(|l| info_field(l, "nodes"));
    assert!(nodes.is_some_and(|n| n < 50_000), "{last_info:?}");
}
