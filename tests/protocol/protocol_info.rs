//! The `info` stream of a long search, as a GUI reads it (protocol.md, "go"): `currmove` lines
//! once the search has run for a second, lines of totals between finished iterations, the last
//! iteration's line again with the search's totals when `stop` cuts an iteration, and
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

    // The line before bestmove: the last finished iteration again, with the whole search's
    // totals, and it plays the bestmove.
    let scored: Vec<&String> = infos.iter().filter(|l| l.contains(" score ")).collect();
    let (final_line, earlier) = scored.split_last().expect("scored lines");
    assert_eq!(infos.last(), Some(*final_line), "{lines:#?}");
    let previous = earlier.last().expect("an earlier finished iteration");
    assert_eq!(
        info_field(final_line, "depth"),
        info_field(previous, "depth"),
        "{lines:#?}"
    );
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
