//! Scripts get what they asked for: at end of input the engine lets bounded work (`go` with
//! a limit, a ponder search that `ponderhit` gave a clock, `perft`, `bench`) finish and print its full result before it exits, while `quit`
//! stops at once (protocol.md, "Conventions"). Compared against the same work run with an
//! explicit wait: the one-shot commands, or a protocol session that waits for the answer.

use std::time::Duration;

use crate::common::process::{Engine, info_field, is_bestmove, run};

/// Long enough for any of the bounded jobs below on a slow machine.
const TIMEOUT: Duration = Duration::from_secs(120);

/// Sends `script` to a fresh engine, closes its input at once and returns everything it
/// printed, after checking that it exited with status 0.
fn piped(args: &[&str], script: &[&str]) -> Vec<String> {
    let mut engine = Engine::spawn_with_args(args);
    for line in script {
        engine.send(line);
    }
    engine.close_stdin();
    let lines = engine.read_to_end_within(TIMEOUT);
    let status = engine.wait_exit(TIMEOUT);
    assert_eq!(status.code(), Some(0), "{}", engine.context());
    lines
}

/// The depth of an `info depth D …` line.
fn depth_of(line: &str) -> Option<u32> {
    line.strip_prefix("info depth ")?
        .split(' ')
        .next()?
        .parse()
        .ok()
}

#[test]
fn go_depth_at_end_of_input_reaches_its_depth() {
    for (game, depth) in [("sight", 6), ("tactigon", 6)] {
        // Sight's empty board is in the solved book, which answers without searching.
        let script = [
            "setoption name SolvedBook value false",
            "position startpos",
            &format!("go depth {depth}"),
        ];
        let lines = piped(&["--game", game], &script);
        let last = lines.last().map(String::as_str).unwrap_or("");
        assert!(is_bestmove(last), "{game}: {lines:#?}");
        let deepest = lines.iter().filter_map(|l| depth_of(l)).max();
        assert_eq!(deepest, Some(depth), "{game}: {lines:#?}");
        let bestmoves = lines.iter().filter(|l| is_bestmove(l)).count();
        assert_eq!(bestmoves, 1, "{game}: {lines:#?}");
    }
}

#[test]
fn a_ponder_search_hit_on_a_clock_finishes_its_move_at_end_of_input() {
    // After `ponderhit` the ponder search is the real one, bounded by `movetime`: end of input
    // lets it spend its time, as it would a `go movetime`, instead of stopping it at once.
    let lines = piped(
        &["--game", "tactigon"],
        &[
            "position startpos moves d8-c9",
            "go ponder movetime 600",
            "ponderhit",
        ],
    );
    let last = lines.last().map(String::as_str).unwrap_or("");
    assert!(is_bestmove(last), "{lines:#?}");
    // The final report has the search's totals: its time is the move's, not a stop's.
    let time = lines
        .iter()
        .rev()
        .find(|l| l.starts_with("info depth "))
        .and_then(|l| info_field(l, "time"));
    assert!(time.is_some_and(|t| t >= 300), "{time:?}: {lines:#?}");
    assert_eq!(lines.iter().filter(|l| is_bestmove(l)).count(), 1);
}

#[test]
fn a_ponder_search_hit_without_a_limit_is_stopped_at_end_of_input() {
    // `go ponder` without a limit is, after its `ponderhit`, a `go` without one: end of input
    // stops and answers it (a Tactigon search without a limit would not end by itself).
    let lines = piped(
        &["--game", "tactigon"],
        &["position startpos moves d8-c9", "go ponder", "ponderhit"],
    );
    assert!(lines.last().is_some_and(|l| is_bestmove(l)), "{lines:#?}");
    assert_eq!(lines.iter().filter(|l| is_bestmove(l)).count(), 1);
}

#[test]
fn quit_still_stops_a_bounded_search_at_once() {
    // Depth 40 in Tactigon would take far longer than the timeout; `quit` ends it.
    let lines = piped(
        &["--game", "tactigon"],
        &["position startpos", "go depth 40", "quit"],
    );
    assert_eq!(
        lines.iter().filter(|l| is_bestmove(l)).count(),
        1,
        "{lines:#?}"
    );
    let deepest = lines.iter().filter_map(|l| depth_of(l)).max().unwrap_or(0);
    assert!(deepest < 40, "{lines:#?}");
}

#[test]
fn perft_at_end_of_input_gives_the_same_counts_as_the_one_shot_command() {
    let lines = piped(&[], &["position startpos", "perft 5"]);
    let one_shot = run(&["perft", "--depth", "5"], TIMEOUT);
    assert_eq!(one_shot.code(), Some(0), "{one_shot:?}");
    assert_eq!(
        lines,
        one_shot.lines(),
        "piped perft differs from ludus perft"
    );
    // 25 first moves, then the total.
    assert_eq!(lines.len(), 26, "{lines:#?}");
    assert!(lines[25].starts_with("Nodes searched: "), "{:?}", lines[25]);
}

#[test]
fn bench_at_end_of_input_gives_the_signature_of_the_one_shot_command() {
    let lines = piped(&["--game", "isaac"], &["bench"]);
    let one_shot = run(&["bench", "--game", "isaac"], TIMEOUT);
    assert_eq!(one_shot.code(), Some(0), "{one_shot:?}");
    let total = |lines: &[&str]| -> String {
        let totals: Vec<&str> = lines
            .iter()
            .filter_map(|l| l.strip_prefix("Nodes searched: "))
            .collect();
        assert_eq!(totals.len(), 1, "{lines:#?}");
        totals[0].to_string()
    };
    let piped_lines: Vec<&str> = lines.iter().map(String::as_str).collect();
    let piped_total = total(&piped_lines);
    assert_eq!(
        piped_total,
        total(&one_shot.lines()),
        "{lines:#?} {one_shot:?}"
    );
    // `--game isaac` benches Isaac only: one game total, named.
    let games: Vec<&str> = one_shot
        .lines()
        .into_iter()
        .filter(|l| l.starts_with("info string bench ") && l.split(' ').count() == 6)
        .collect();
    assert_eq!(
        games,
        [format!("info string bench isaac nodes {piped_total}")]
    );
    // Every position's line is the same in both, in the same order.
    let positions = |lines: &[&str]| -> Vec<String> {
        lines
            .iter()
            .filter(|l| l.starts_with("info string bench ") && l.split(' ').count() > 6)
            .map(|l| l.to_string())
            .collect()
    };
    let piped_positions = positions(&piped_lines);
    assert!(!piped_positions.is_empty(), "{lines:#?}");
    assert_eq!(piped_positions, positions(&one_shot.lines()));
}

#[test]
fn go_without_a_limit_at_end_of_input_is_stopped_and_answered() {
    let lines = piped(&["--game", "tactigon"], &["position startpos", "go"]);
    assert_eq!(
        lines.iter().filter(|l| is_bestmove(l)).count(),
        1,
        "{lines:#?}"
    );
    assert!(is_bestmove(lines.last().map(String::as_str).unwrap_or("")));
}
