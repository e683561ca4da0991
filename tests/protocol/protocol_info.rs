//! The `info` stream of a long search, as a GUI reads it (protocol.md, "go"): `currmove` lines
//! once the search has run for a second, lines of totals between finished iterations, the last
//! iteration's line again with the search's totals when `stop` cuts an iteration (or the cut
//! iteration's better move), and
//! `ludus go --info` showing the line that `bestmove` plays under `MultiPV`.

use std::time::Duration;

use crate::common::process::{Engine, bestmove_of, info_field, is_bestmove, run};

#[test]
fn a_long_search_reports_its_current_move_and_totals_and_ends_with_the_totals() {
    let mut engine = Engine::spawn_with_args(&["--game", "tactigon"]);
    engine.send("position startpos");
    engine.send("go infinite");
    // Iterations grow about geometrically: after 3.5 s the one under way has run for more than
    // a second, so there has been a second without a finished iteration.
    std::thread::sleep(Duration::from_millis(3500));
    engine.send("stop");
    let lines = engine.read_until_within(Duration::from_secs(10), "bestmove", is_bestmove);
    let (last, infos) = lines.split_last().expect("a bestmove line");
    let best = bestmove_of(last).expect("a two-word bestmove");

    let currmoves: Vec<&String> = lines.iter().filter(|l| l.contains(" currmove ")).collect();
    assert!(!currmoves.is_empty(), "no currmove line: {lines:#?}");
    for line in &currmoves {
        let words: Vec<&str> = line.split(' ').collect();
        assert_eq!(words.len(), 7, "{line}");
        assert_eq!(
            (words[0], words[1], words[3], words[5]),
            ("info", "depth", "currmove", "currmovenumber"),
            "{line}"
        );
        assert!(
            info_field(line, "currmovenumber").is_some_and(|n| n >= 1),
            "{line}"
        );
    }
    let totals: Vec<&String> = lines
        .iter()
        .filter(|l| {
            l.starts_with("info depth ") && !l.contains(" score ") && !l.contains(" currmove ")
        })
        .collect();
    assert!(!totals.is_empty(), "no line of totals: {lines:#?}");
    for line in &totals {
        let words: Vec<&str> = line.split(' ').collect();
        let names: Vec<&str> = words.iter().skip(1).step_by(2).copied().collect();
        assert_eq!(
            names,
            ["depth", "seldepth", "nodes", "nps", "time", "hashfull"],
            "{line}"
        );
        assert_eq!(words.len(), 13, "{line}");
    }

    // The line before bestmove, with the whole search's totals, plays the bestmove: the last
    // finished iteration again, or the cut iteration's line if it had found a move better than
    // the finished one's (one ply deeper, another first move).
    let scored: Vec<&String> = infos.iter().filter(|l| l.contains(" score ")).collect();
    let (final_line, earlier) = scored.split_last().expect("scored lines");
    assert_eq!(infos.last(), Some(*final_line), "{lines:#?}");
    let previous = earlier.last().expect("an earlier finished iteration");
    let (depth, finished) = (
        info_field(final_line, "depth"),
        info_field(previous, "depth"),
    );
    if depth != finished {
        assert_eq!(depth, finished.map(|d| d + 1), "{lines:#?}");
        assert_ne!(
            depth_score_move(final_line).2,
            depth_score_move(previous).2,
            "{lines:#?}"
        );
    }
    let most_nodes = infos.iter().filter_map(|l| info_field(l, "nodes")).max();
    assert_eq!(info_field(final_line, "nodes"), most_nodes, "{lines:#?}");
    assert!(
        info_field(final_line, "nodes") > info_field(previous, "nodes"),
        "{lines:#?}"
    );
    let pv = final_line.split(" pv ").nth(1).expect("a pv");
    assert_eq!(pv.split(' ').next(), Some(best), "{lines:#?}");
    engine.quit(Duration::from_secs(10));
}

#[test]
fn go_info_shows_the_line_that_bestmove_plays_under_multipv() {
    let out = run(
        &[
            "go",
            "--depth",
            "4",
            "--option",
            "MultiPV=3",
            "--option",
            "SolvedBook=false",
            "--info",
        ],
        Duration::from_secs(30),
    );
    assert_eq!(out.code(), Some(0), "{out:?}");
    let lines = out.lines();
    assert_eq!(lines.len(), 2, "{out:?}");
    assert!(lines[0].starts_with("info depth 4 "), "{out:?}");
    assert!(lines[0].contains(" multipv 1 "), "{out:?}");
    let best = bestmove_of(lines[1]).expect("a bestmove");
    let pv = lines[0].split(" pv ").nth(1).expect("a pv");
    assert_eq!(pv.split(' ').next(), Some(best), "{out:?}");
}

/// The `info` lines with a score and the `bestmove` of one search by a fresh Tactigon engine
/// after eight plies of a game of the Threads match at 10+0.1 (benches/smp/games.txt). The
/// engine evaluates with t3, the net built in when the case was found (kept as
/// `data/nets/tactigon-t3.nnue`): the moves and node counts below are that net's.
fn eight_plies_in(go: &str) -> (Vec<String>, String) {
    let mut engine = Engine::spawn_with_args(&["--game", "tactigon"]);
    let t3 = concat!(env!("CARGO_MANIFEST_DIR"), "/data/nets/tactigon-t3.nnue");
    engine.send(&format!("setoption name EvalFile value {t3}"));
    engine.send("position startpos moves b2-b4 d14-e13 f6-f8 b14-b12 d8-c9 f14-f12 b6-b8 d12-c11");
    engine.send(go);
    let mut lines = engine.read_until_within(Duration::from_secs(30), "bestmove", is_bestmove);
    engine.quit(Duration::from_secs(10));
    let best = lines.pop().expect("a bestmove line");
    lines.retain(|l| l.contains(" score "));
    (lines, best)
}

/// A line's depth, score and first move.
fn depth_score_move(line: &str) -> (Option<u64>, Option<&str>, Option<&str>) {
    let score = line
        .split(" score cp ")
        .nth(1)
        .and_then(|s| s.split(' ').next());
    let first = line
        .split(" pv ")
        .nth(1)
        .and_then(|pv| pv.split(' ').next());
    (info_field(line, "depth"), score, first)
}

#[test]
fn a_cut_iteration_plays_the_move_it_found_better_than_the_finished_one() {
    // Depth 2 plays c9-c11 (14,076 nodes); depth 3 (31,105 nodes) first searches c9-c11,
    // then finds b4-b6 better (by 20,000 nodes), then d6-e13.
    let (two, best) = eight_plies_in("go depth 2");
    assert_eq!(best, "bestmove c9-c11", "{two:#?}");
    let (three, best) = eight_plies_in("go depth 3");
    assert_eq!(best, "bestmove d6-e13", "{three:#?}");
    let finished = three.last().expect("depth 3's line");
    assert_eq!(
        depth_score_move(finished),
        (Some(3), Some("57"), Some("d6-e13"))
    );
    assert_eq!(info_field(finished, "nodes"), Some(31_105));
    // Cut inside depth 3, the search plays and reports the best move depth 3 has found, with
    // the score it has at depth 3, where it used to play depth 2's move.
    for (nodes, expected) in [(25_000, ("46", "b4-b6")), (28_000, ("57", "d6-e13"))] {
        let (cut, best) = eight_plies_in(&format!("go nodes {nodes}"));
        let (last, earlier) = cut.split_last().expect("scored lines");
        assert_eq!(
            earlier.iter().map(|l| depth_score_move(l)).next_back(),
            Some(depth_score_move(&two[1])),
            "{cut:#?}"
        );
        assert_eq!(
            depth_score_move(last),
            (Some(3), Some(expected.0), Some(expected.1)),
            "{cut:#?}"
        );
        assert_eq!(info_field(last, "nodes"), Some(nodes), "{cut:#?}");
        assert_eq!(best, format!("bestmove {}", expected.1), "{cut:#?}");
    }
    // Cut in depth 3 before it found a better move: depth 2's line again, as before.
    let (cut, best) = eight_plies_in("go nodes 16000");
    assert_eq!(best, "bestmove c9-c11", "{cut:#?}");
    assert_eq!(
        cut.last().map(|l| depth_score_move(l)),
        Some(depth_score_move(&two[1])),
        "{cut:#?}"
    );
}
