//! The one-shot commands of the `ludus` binary (`ludus go`, `ludus perft`, `ludus bench`,
//! `ludus --help`): exact stdout, stderr and exit status.

use crate::common::process;

use std::time::Duration;

use crate::common::process::{Finished, run};

/// How long a one-shot command may take.
const TIMEOUT: Duration = Duration::from_secs(30);

/// TV11's final position (docs/rules/sight.md §9): White mates at once with d4-e4.
const TV11: &str = "5:x5/x,w,x,w2,x/b,x,w,w3,b2/x3,b,b/x5 w";

/// TV7's position (docs/rules/sight.md §9): seven movements of the b4 stack.
const TV7: &str = "5:x5/x,w2,x3/x2,w,x2/x2,b,b,x/x5 w";

/// The squares of an N×N Sight board in canonical order: by rank, then file.
fn squares(n: u8) -> Vec<String> {
    (1..=n)
        .flat_map(|rank| (0..n).map(move |file| format!("{}{rank}", char::from(b'a' + file))))
        .collect()
}

/// Checks a perft output: `move: count` lines for `moves` in order, then `Nodes searched:
/// total` with the counts adding up to it.
fn check_perft(out: &Finished, moves: &[String], total: u64) {
    assert_eq!(out.code(), Some(0), "{out:?}");
    let lines = out.lines();
    assert_eq!(lines.len(), moves.len() + 1, "{out:?}");
    assert_eq!(
        lines.last().copied(),
        Some(format!("Nodes searched: {total}").as_str())
    );
    let mut sum = 0;
    for (line, mv) in lines.iter().zip(moves) {
        let (got, count) = line
            .split_once(": ")
            .unwrap_or_else(|| panic!("not a divide line: {line:?}"));
        assert_eq!(got, mv, "divide lines out of canonical order: {lines:#?}");
        sum += count
            .parse::<u64>()
            .unwrap_or_else(|e| panic!("count of {line:?}: {e}"));
    }
    assert_eq!(sum, total, "divide counts do not add up");
    // The time taken goes to stderr, as `perft N: S s`.
    assert!(
        out.stderr.starts_with("perft ") && out.stderr.trim_end().ends_with(" s"),
        "stderr: {:?}",
        out.stderr
    );
}

#[test]
fn go_depth_finds_the_mate_in_one() {
    let out = run(&["go", "--depth", "3", "--fen", TV11], TIMEOUT);
    assert_eq!(out.code(), Some(0), "{out:?}");
    assert_eq!(out.stdout, "bestmove d4-e4\n");
    assert_eq!(out.stderr, "");
}

#[test]
fn go_mate_finds_the_mate_in_one_by_search() {
    let out = run(
        &[
            "go",
            "--mate",
            "2",
            "--fen",
            TV11,
            "--option",
            "SolvedBook=false",
            "--info",
        ],
        TIMEOUT,
    );
    assert_eq!(out.code(), Some(0), "{out:?}");
    let lines = out.lines();
    assert_eq!(lines.len(), 2, "{out:?}");
    assert!(lines[0].starts_with("info depth 1 "), "{:?}", lines[0]);
    assert!(
        lines[0].contains(" score mate 1 nodes 7 "),
        "{:?}",
        lines[0]
    );
    assert_eq!(lines[1], "bestmove d4-e4");
}

#[test]
fn go_info_prints_the_last_info_line_before_bestmove() {
    let out = run(&["go", "--depth", "3", "--fen", TV11, "--info"], TIMEOUT);
    assert_eq!(out.code(), Some(0), "{out:?}");
    let lines = out.lines();
    assert_eq!(lines.len(), 2, "{out:?}");
    assert!(lines[0].starts_with("info depth 1 "), "{:?}", lines[0]);
    assert!(lines[0].contains(" score mate 1 "), "{:?}", lines[0]);
    assert!(lines[0].ends_with(" pv d4-e4"), "{:?}", lines[0]);
    assert_eq!(lines[1], "bestmove d4-e4");
    assert_eq!(out.stderr, "");
}

#[test]
fn perft_from_the_start_position() {
    let out = run(&["perft", "--depth", "3"], TIMEOUT);
    check_perft(&out, &squares(5), 13_800);
}

#[test]
fn perft_from_a_fen() {
    let out = run(&["perft", "--depth", "2", "--fen", TV7], TIMEOUT);
    let moves: Vec<String> = [
        "b4-a3", "b4-b3", "b4-a4", "b4-c4", "b4-a5", "b4-b5", "b4-c5",
    ]
    .iter()
    .map(|m| m.to_string())
    .collect();
    check_perft(&out, &moves, 140);
}

#[test]
fn go_with_an_invalid_position_is_refused_with_status_two() {
    let out = run(
        &["go", "--movetime", "50", "--fen", "5:x5/x5/x5 w"],
        TIMEOUT,
    );
    assert_eq!(out.code(), Some(2), "{out:?}");
    assert_eq!(out.stdout, "");
    assert!(out.stderr.contains("invalid-position"), "{out:?}");
    assert!(
        out.stderr.lines().any(|l| l
            == "info string error invalid-position '5:x5/x5/x5 w': a 5×5 board needs 5 ranks, \
                found 3"),
        "stderr: {:?}",
        out.stderr
    );
}

#[test]
fn go_with_an_illegal_move_is_refused_with_status_two() {
    let out = run(&["go", "--depth", "1", "--moves", "a1 a1"], TIMEOUT);
    assert_eq!(out.code(), Some(2), "{out:?}");
    assert_eq!(out.stdout, "");
    assert!(
        out.stderr
            .lines()
            .any(|l| l == "info string error illegal-move move 2 a1: a1 is occupied: a piece is placed on an empty point"),
        "stderr: {:?}",
        out.stderr
    );
}

#[test]
fn go_on_a_finished_game_prints_bestmove_none() {
    let out = run(&["go", "--depth", "3", "--moves", "a1 a2 b1 b2"], TIMEOUT);
    assert_eq!(out.code(), Some(0), "{out:?}");
    assert_eq!(out.stdout, "bestmove (none)\n");
}

#[test]
fn go_without_a_limit_is_refused() {
    let out = run(&["go"], TIMEOUT);
    assert_eq!(out.code(), Some(2), "{out:?}");
    assert_eq!(out.stdout, "");
    assert!(!out.stderr.is_empty(), "no explanation on stderr");
}

#[test]
fn go_with_an_option_plays_on_the_smaller_board() {
    let out = run(
        &["go", "--depth", "2", "--option", "Sight_BoardSize=3"],
        TIMEOUT,
    );
    assert_eq!(out.code(), Some(0), "{out:?}");
    let lines = out.lines();
    assert_eq!(lines.len(), 1, "{out:?}");
    let best = process::bestmove_of(lines[0])
        .unwrap_or_else(|| panic!("not a bestmove line: {:?}", lines[0]));
    assert!(
        squares(3).iter().any(|s| s == best),
        "bestmove {best} is not a square of the 3×3 board"
    );
}

#[test]
fn go_with_an_unknown_option_is_refused_with_status_two() {
    let out = run(&["go", "--depth", "1", "--option", "Nope=3"], TIMEOUT);
    assert_eq!(out.code(), Some(2), "{out:?}");
    assert_eq!(out.stdout, "");
    assert!(out.stderr.contains("unknown-option"), "{out:?}");
}

/// The `Nodes searched: N` total of a bench output, with its `info string bench` lines.
fn bench_signature(out: &Finished) -> (u64, Vec<String>) {
    assert_eq!(out.code(), Some(0), "{out:?}");
    let lines = out.lines();
    let total: Vec<u64> = lines
        .iter()
        .filter_map(|l| l.strip_prefix("Nodes searched: "))
        .map(|n| {
            n.parse()
                .unwrap_or_else(|e| panic!("bench total {n:?}: {e}"))
        })
        .collect();
    assert_eq!(total.len(), 1, "one total per game expected: {lines:#?}");
    // `info string bench <game> nodes <n>` (6 words) closes each game; the longer
    // `info string bench <position> nodes <n>` lines are its positions.
    let bench_lines = lines.iter().filter(|l| l.starts_with("info string bench "));
    let (games, positions): (Vec<&&str>, Vec<&&str>) =
        bench_lines.partition(|l| l.split(' ').count() == 6);
    assert!(!positions.is_empty(), "no bench positions: {lines:#?}");
    assert_eq!(
        games.len(),
        3,
        "one total per game (isaac, sight, tactigon): {lines:#?}"
    );
    let count = |v: &[&&str]| -> u64 {
        v.iter()
            .map(|l| {
                let n = l.rsplit(' ').next().unwrap_or("");
                n.parse::<u64>()
                    .unwrap_or_else(|e| panic!("bench line {l:?}: {e}"))
            })
            .sum()
    };
    assert_eq!(
        count(&positions),
        total[0],
        "the positions do not add up to the total"
    );
    assert_eq!(
        count(&games),
        total[0],
        "the games do not add up to the total"
    );
    let positions = positions.iter().map(|l| l.to_string()).collect();
    (total[0], positions)
}

#[test]
fn bench_is_deterministic() {
    let (a, b) = std::thread::scope(|scope| {
        let a = scope.spawn(|| run(&["bench"], Duration::from_secs(120)));
        let b = scope.spawn(|| run(&["bench"], Duration::from_secs(120)));
        (a.join().expect("bench run"), b.join().expect("bench run"))
    });
    let (total_a, positions_a) = bench_signature(&a);
    let (total_b, positions_b) = bench_signature(&b);
    assert!(total_a > 0);
    assert_eq!(total_a, total_b, "bench totals differ");
    assert_eq!(positions_a, positions_b, "bench positions differ");
}

/// The total of a one-game bench (`Nodes searched: N`, its last stdout line).
fn one_game_total(out: &Finished) -> u64 {
    assert_eq!(out.code(), Some(0), "{out:?}");
    let last = out.lines().last().copied().unwrap_or("");
    last.strip_prefix("Nodes searched: ")
        .and_then(|n| n.parse().ok())
        .unwrap_or_else(|| panic!("no total: {out:?}"))
}

/// The one stderr line of a one-game bench, `bench <game>: <n> nodes, <s> s, <nps> nodes/s`,
/// checked word by word against the stdout total; returns nodes/s.
fn bench_speed(out: &Finished, game: &str, total: u64) -> u64 {
    let lines: Vec<&str> = out.stderr.lines().collect();
    assert_eq!(lines.len(), 1, "one speed line expected: {out:?}");
    let words: Vec<&str> = lines[0].split(' ').collect();
    assert_eq!(words.len(), 8, "{lines:?}");
    assert_eq!(words[0], "bench");
    assert_eq!(words[1], format!("{game}:"));
    assert_eq!(words[2], total.to_string());
    assert_eq!(words[3..=3], ["nodes,"]);
    assert!(words[4].parse::<f64>().is_ok_and(|s| s >= 0.0), "{lines:?}");
    assert_eq!(words[5..=5], ["s,"]);
    assert_eq!(words[7], "nodes/s");
    words[6]
        .parse()
        .unwrap_or_else(|e| panic!("nodes/s of {lines:?}: {e}"))
}

#[test]
fn bench_takes_options_and_prints_its_speed_on_stderr() {
    let limit = Duration::from_secs(120);
    let net = run(&["bench", "--game", "tactigon"], limit);
    let hand = run(
        &["bench", "--game", "tactigon", "--option", "Eval=hand"],
        limit,
    );
    let (net_total, hand_total) = (one_game_total(&net), one_game_total(&hand));
    // The built-in net and the hand evaluation order moves differently: their signatures
    // differ, and the option reached the search.
    assert_ne!(net_total, hand_total, "Eval=hand changed nothing");
    assert!(bench_speed(&net, "tactigon", net_total) > 0);
    assert!(bench_speed(&hand, "tactigon", hand_total) > 0);
    // A bad value is refused before anything is searched.
    let bad = run(
        &["bench", "--game", "tactigon", "--option", "Eval=nope"],
        limit,
    );
    assert_eq!(bad.code(), Some(2), "{bad:?}");
    assert!(!bad.stdout.contains("Nodes searched"), "{bad:?}");
    assert!(bad.stderr.contains("Eval"), "{bad:?}");
}

#[test]
fn help_lists_the_subcommands() {
    let out = run(&["--help"], TIMEOUT);
    assert_eq!(out.code(), Some(0), "{out:?}");
    assert!(out.stdout.contains("perft"), "{out:?}");
    assert!(out.stdout.contains("bench"), "{out:?}");
    assert!(out.stdout.contains("go"), "{out:?}");
}

#[test]
fn an_isaac_position_starting_with_a_hyphen_is_a_fen() {
    // Isaac's start position in its notation (docs/rules/isaac.md §9) begins with `-`.
    let fen = "- 54321/54321 d P - 0/0 0/0";
    let out = run(
        &["go", "--game", "isaac", "--fen", fen, "--depth", "1"],
        TIMEOUT,
    );
    assert_eq!(out.code(), Some(0), "{out:?}");
    let words: Vec<&str> = out.stdout.split_whitespace().collect();
    assert_eq!(words.len(), 2, "{out:?}");
    assert_eq!(words[0], "bestmove");
    let perft = run(
        &["perft", "--game", "isaac", "--fen", fen, "--depth", "1"],
        TIMEOUT,
    );
    let start = run(&["perft", "--game", "isaac", "--depth", "1"], TIMEOUT);
    assert_eq!(perft.code(), Some(0), "{perft:?}");
    assert_eq!(perft.stdout, start.stdout);
}

#[test]
fn every_refused_command_line_exits_with_status_two() {
    // One meaning per status in every subcommand (README, "Exit statuses"; `ludus --help`).
    let refused: [&[&str]; 9] = [
        &["--no-such-flag"],
        &["perft", "--depth", "0"],
        &["perft", "--depth", "1", "--fen", "nonsense"],
        &["go", "--depth", "1", "--option", "Sight_BoardSize=99"],
        &["play", "--option", "Sight_Nope=1"],
        // A level or rating the engine's options refuse (they exited 1 until issue 60).
        &["play", "--level", "hard"],
        &["play", "--elo", "100"],
        &["completions", "tcsh"],
        &[
            "match", "--engine", "cmd=a", "--engine", "cmd=b", "--each", "tc=1", "--games", "3",
        ],
    ];
    for args in refused {
        let out = run(args, TIMEOUT);
        assert_eq!(out.code(), Some(2), "{args:?}: {out:?}");
        // `play` talks to its user on stdout, errors included; the others use stderr.
        let said = if args[0] == "play" {
            &out.stdout
        } else {
            &out.stderr
        };
        assert!(
            said.contains("error") || said.contains("ludus match:"),
            "{args:?}: {out:?}"
        );
    }
    let help = run(&["--help"], TIMEOUT);
    assert_eq!(help.code(), Some(0));
    assert!(help.stdout.contains(ludus::exit_status::TABLE), "{help:?}");
}

/// Issue 31.9: a command refused after its script started (the search's limit, a bad option
/// value, a bad perft position) exits 2 and prints nothing on stdout.
#[test]
fn refused_one_shot_commands_print_nothing_on_stdout() {
    for args in [
        &["go", "--depth", "0"][..],
        &["go", "--nodes", "0"],
        &["go", "--mate", "0"],
        &["go", "--mate", "65"],
        &["go", "--depth", "2", "--option", "Hash=0"],
        &[
            "go",
            "--game",
            "isaac",
            "--depth",
            "1",
            "--option",
            "Isaac_Collision=maybe",
        ],
        &["perft", "--depth", "2", "--fen", "5:x5 w"],
        &["bench", "--option", "Eval=nonsense"],
    ] {
        let out = run(args, TIMEOUT);
        assert_eq!(out.code(), Some(2), "{args:?}: {out:?}");
        assert_eq!(out.stdout, "", "{args:?}");
        assert!(out.stderr.contains("error"), "{args:?}: {out:?}");
    }
}

/// Issue 57 F8: a one-shot `go` does its set-up (the solved books, the `Hash` table) before
/// its search's clock starts, as a GUI's `isready` would: its script, as the debug log shows
/// it, answers `readyok` before the `go` is read. Before, the `go` came right after the
/// position and its clock paid for the books (depth 1 in 200 ms on a busy machine).
#[test]
fn a_one_shot_go_is_ready_before_its_clock_starts() {
    let dir = crate::common::TestDir::new("oneshot-ready");
    let log = dir.file("debug.log");
    let out = run(
        &[
            "go",
            "--movetime",
            "20",
            "--option",
            "Hash=256",
            "--option",
            &format!("Debug Log File={log}"),
        ],
        TIMEOUT,
    );
    assert_eq!(out.code(), Some(0), "{out:?}");
    assert_eq!(out.lines().len(), 1, "{out:?}");
    assert!(out.lines()[0].starts_with("bestmove "), "{out:?}");
    let text = std::fs::read_to_string(&log).expect("the debug log");
    let first: Vec<&str> = text.lines().take(4).collect();
    assert_eq!(
        first,
        [
            ">> position startpos",
            ">> isready",
            "<< readyok",
            ">> go movetime 20"
        ],
        "{text}"
    );
}
