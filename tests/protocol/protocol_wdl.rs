//! `UCI_ShowWDL` (protocol.md, "Options"; docs/wdl.md): off, the output is byte for byte what
//! it was; on, every `info` line with a score carries `wdl W D L` right after it, read here as a
//! strict consumer reads it (the tokens after `score cp N` or `score mate N`), per mille summing
//! to 1000, proven results certain, each MultiPV line with its own chances, and the line a
//! weakened engine reports too.

use std::time::Duration;

use crate::common::process::{Engine, is_bestmove, mask_timing, run};

/// The lines of one search in a fresh engine of `game`: `UCI_ShowWDL` set to `show` (left at
/// its default for `None`), the `setup` commands, then `go`; up to and including `bestmove`,
/// timings masked.
fn search(game: &str, show: Option<bool>, setup: &[&str], go: &str) -> Vec<String> {
    let mut engine = Engine::spawn_with_args(&["--game", game]);
    if let Some(on) = show {
        engine.send(&format!("setoption name UCI_ShowWDL value {on}"));
    }
    for line in setup {
        engine.send(line);
    }
    engine.send(go);
    let lines = engine.read_until(is_bestmove);
    engine.quit(Duration::from_secs(10));
    lines.iter().map(|l| mask_timing(l)).collect()
}

/// The score of a search `info` line and its chances, as a strict consumer reads them: `score`,
/// then `cp` or `mate` and a whole number, then, if the next token is `wdl`, three whole
/// numbers. `None` for a line without a score.
fn score_and_wdl(line: &str) -> Option<(String, i64, Option<[u32; 3]>)> {
    let tokens: Vec<&str> = line.split(' ').collect();
    let at = tokens.iter().position(|t| *t == "score")?;
    let kind = tokens[at + 1];
    assert!(kind == "cp" || kind == "mate", "{line}");
    let value: i64 = tokens[at + 2].parse().unwrap_or_else(|_| panic!("{line}"));
    let wdl = (tokens.get(at + 3) == Some(&"wdl")).then(|| {
        let n = |k: usize| -> u32 {
            tokens[at + 3 + k]
                .parse()
                .unwrap_or_else(|_| panic!("{line}"))
        };
        [n(1), n(2), n(3)]
    });
    Some((kind.to_string(), value, wdl))
}

/// The line without its `wdl W D L` tokens.
fn without_wdl(line: &str) -> String {
    let tokens: Vec<&str> = line.split(' ').collect();
    match tokens.iter().position(|t| *t == "wdl") {
        Some(at) => [&tokens[..at], &tokens[at + 4..]].concat().join(" "),
        None => line.to_string(),
    }
}

/// Deterministic searches of every game (one thread, a depth or node limit).
const SEARCHES: &[(&str, &[&str], &str)] = &[
    (
        "sight",
        &["setoption name SolvedBook value false"],
        "go depth 5",
    ),
    (
        "sight",
        &["position fen 5:x,w2,x2,b3/x,w2,x3/x,w3,w,x2/x2,b,b,x/x,b3,x3 w"],
        "go depth 2",
    ),
    ("isaac", &[], "go depth 2"),
    (
        "isaac",
        &["position fen D3h13,D3v39,D5h50,L3h55,L3v58 00000/00000 d S - 10/85 0/0"],
        "go depth 3",
    ),
    ("tactigon", &[], "go depth 3"),
    (
        "tactigon",
        &["setoption name MultiPV value 3"],
        "go depth 2",
    ),
];

#[test]
fn off_the_output_is_unchanged_and_on_the_chances_follow_every_score() {
    for (game, setup, go) in SEARCHES {
        let default = search(game, None, setup, go);
        let off = search(game, Some(false), setup, go);
        assert_eq!(default, off, "{game} {setup:?}");
        assert!(off.iter().all(|l| !l.contains("wdl")), "{off:#?}");
        let on = search(game, Some(true), setup, go);
        assert_eq!(on.len(), off.len(), "{on:#?}\n{off:#?}");
        let mut scored = 0;
        for (with, without) in on.iter().zip(&off) {
            assert_eq!(
                &without_wdl(with),
                without,
                "{game}: only the chances are added"
            );
            let Some((_, _, wdl)) = score_and_wdl(with) else {
                assert_eq!(with, without);
                continue;
            };
            let [w, d, l] = wdl.unwrap_or_else(|| panic!("no wdl after the score: {with}"));
            assert_eq!(w + d + l, 1000, "{with}");
            scored += 1;
        }
        assert!(scored > 0, "{on:#?}");
    }
}

#[test]
fn proven_results_are_certain() {
    let win = search(
        "sight",
        Some(true),
        &["position fen 5:x5/x,w,x,w2,x/b,x,w,w3,b2/x3,b,b/x5 w"],
        "go depth 5",
    );
    assert_eq!(
        score_and_wdl(&win[0]),
        Some(("mate".into(), 1, Some([1000, 0, 0]))),
        "{win:#?}"
    );
    // The search's lines, then the prover's: lost in 8.
    let lost = search("sight", Some(true), &[SEARCHES[1].1[0]], "go depth 2");
    let last = &lost[lost.len() - 2];
    assert_eq!(
        score_and_wdl(last),
        Some(("mate".into(), -8, Some([0, 0, 1000]))),
        "{lost:#?}"
    );
    // The solved book's answer.
    let book = search(
        "sight",
        Some(true),
        &["position startpos moves c3 c4"],
        "go depth 5",
    );
    assert_eq!(
        score_and_wdl(&book[0]),
        Some(("mate".into(), 12, Some([1000, 0, 0])))
    );
}

#[test]
fn every_multipv_line_has_its_own_chances_in_the_order_of_its_score() {
    let lines = search(
        "tactigon",
        Some(true),
        &["setoption name MultiPV value 4"],
        "go depth 2",
    );
    let depth2: Vec<(i64, [u32; 3])> = lines
        .iter()
        .filter(|l| l.starts_with("info depth 2 "))
        .filter_map(|l| score_and_wdl(l))
        .map(|(kind, value, wdl)| {
            assert_eq!(kind, "cp");
            (value, wdl.expect("chances"))
        })
        .collect();
    assert_eq!(depth2.len(), 4, "{lines:#?}");
    for pair in depth2.windows(2) {
        let ((s1, [w1, _, l1]), (s2, [w2, _, l2])) = (pair[0], pair[1]);
        assert!(s1 >= s2 && w1 >= w2 && l1 <= l2, "{lines:#?}");
    }
}

#[test]
fn a_weakened_engine_reports_the_chances_of_its_line() {
    let setup = [
        "setoption name Seed value 1",
        "setoption name UCI_LimitStrength value true",
        "setoption name UCI_Elo value 392",
        "setoption name MultiPV value 3",
    ];
    let lines = search("sight", Some(true), &setup, "go nodes 5000");
    assert_eq!(lines.len(), 2, "one info line, then bestmove: {lines:#?}");
    let (kind, _, wdl) = score_and_wdl(&lines[0]).expect("a score");
    assert_eq!(kind, "cp");
    let [w, d, l] = wdl.expect("chances");
    assert_eq!((w + d + l, d), (1000, 0), "Sight has no draws: {lines:#?}");
}

#[test]
fn ludus_go_info_shows_the_chances_when_asked() {
    let args = |show: &str| {
        let option = format!("UCI_ShowWDL={show}");
        let out = run(
            &[
                "go", "--game", "tactigon", "--option", &option, "--depth", "3", "--info",
            ],
            Duration::from_secs(60),
        );
        assert_eq!(out.code(), Some(0), "{}", out.stderr);
        out.lines()
            .iter()
            .map(|l| mask_timing(l))
            .collect::<Vec<_>>()
    };
    let (on, off) = (args("true"), args("false"));
    assert_eq!(on.len(), 2, "{on:#?}");
    assert_eq!(without_wdl(&on[0]), off[0]);
    assert!(
        score_and_wdl(&on[0]).is_some_and(|(_, _, wdl)| wdl.is_some()),
        "{on:#?}"
    );
    assert_eq!(on[1], off[1]);
}
