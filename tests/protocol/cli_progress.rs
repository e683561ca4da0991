//! Long commands say what they do, on stderr (issue 60): in a pipe, plain lines (what is to be
//! done, how far at `--progress`'s pace or `LUDUS_PROGRESS=lines=SECS`, and what was done); on
//! a terminal, a bar redrawn in place with its ETA, cleared at the end. Standard output keeps
//! the results either way. The terminal is a pty made by util-linux's `script`.

use std::process::Command;
use std::time::Duration;

use crate::common::process::{Finished, binary, run};

/// A hang bound: each command here takes a few seconds.
const TIMEOUT: Duration = Duration::from_secs(120);

/// A fresh temporary folder for one test.
fn temp_dir(name: &str) -> std::path::PathBuf {
    let dir = std::env::temp_dir().join(format!("ludus-progress-{name}-{}", std::process::id()));
    let _ = std::fs::remove_dir_all(&dir);
    std::fs::create_dir_all(&dir).expect("a temporary folder");
    dir
}

/// Runs the binary with `args` on a pty (stdout and stderr both the terminal), in `dir`;
/// returns what the terminal showed.
fn on_a_pty(args: &[&str], dir: &std::path::Path) -> String {
    let mut command = format!("'{}'", binary());
    for arg in args {
        command += &format!(" '{arg}'");
    }
    let out = Command::new("script")
        .args(["-qefc", &command, "/dev/null"])
        .current_dir(dir)
        .env_remove("LUDUS_PROGRESS")
        .env("TERM", "xterm")
        .output()
        .expect("util-linux script runs");
    assert!(out.status.success(), "{command}: {out:?}");
    String::from_utf8_lossy(&out.stdout).to_string()
}

/// Runs the binary with `args` in a pipe, progress in `style` (`LUDUS_PROGRESS`); returns the
/// exit status, stdout and stderr.
fn in_a_pipe(args: &[&str], style: &str) -> (Option<i32>, String, String) {
    let out = Command::new(binary())
        .args(args)
        .env("LUDUS_PROGRESS", style)
        .output()
        .expect("ludus runs");
    let text = |bytes: &[u8]| String::from_utf8_lossy(bytes).to_string();
    (out.status.code(), text(&out.stdout), text(&out.stderr))
}

/// A certificate of `data/`, by name.
fn cert(name: &str) -> String {
    format!("{}/data/{name}.cert", env!("CARGO_MANIFEST_DIR"))
}

/// The stderr lines of `out` that start with `label: `.
fn progress_lines<'a>(out: &'a Finished, label: &str) -> Vec<&'a str> {
    out.stderr
        .lines()
        .filter(|l| l.starts_with(&format!("{label}: ")))
        .collect()
}

#[test]
fn datagen_says_how_far_it_is_in_a_pipe() {
    let dir = temp_dir("datagen-pipe");
    let data = dir.join("d.bin").to_string_lossy().to_string();
    let args = [
        "datagen",
        "--game",
        "tactigon",
        "--games",
        "3",
        "--nodes",
        "200",
        "--out",
        &data,
        "--progress",
        "0",
    ];
    let out = run(&args, TIMEOUT);
    assert_eq!(out.code(), Some(0), "{out:?}");
    let lines = progress_lines(&out, "datagen");
    assert_eq!(
        lines.first(),
        Some(&"datagen: 3 games to do"),
        "{}",
        out.stderr
    );
    for done in 1..=3 {
        let prefix = format!("datagen: {done} of 3 games (");
        assert!(
            lines.iter().any(|l| l.starts_with(&prefix)),
            "{prefix}: {}",
            out.stderr
        );
    }
    let last = lines.last().copied().unwrap_or_default();
    assert!(
        last.starts_with("datagen: 3 of 3 games in "),
        "{}",
        out.stderr
    );
    // The results stay on stdout, the progress is not there.
    assert!(
        out.stdout
            .lines()
            .last()
            .is_some_and(|l| l.starts_with("3 games, ")),
        "{}",
        out.stdout
    );
    assert!(!out.stdout.contains("datagen: "), "{}", out.stdout);
    let _ = std::fs::remove_dir_all(&dir);
}

#[test]
fn datagen_draws_a_bar_with_an_eta_on_a_terminal() {
    let dir = temp_dir("datagen-pty");
    let shown = on_a_pty(
        &[
            "datagen", "--game", "tactigon", "--games", "3", "--nodes", "200", "--out", "d.bin",
        ],
        &dir,
    );
    assert!(shown.contains("datagen: ["), "{shown:?}");
    assert!(shown.contains("ETA "), "{shown:?}");
    assert!(shown.contains("/3 ("), "{shown:?}");
    // Redrawn in place and cleared at the end; no pipe lines.
    assert!(shown.contains("\r\x1b[2K"), "{shown:?}");
    assert!(!shown.contains("games to do"), "{shown:?}");
    assert!(shown.contains("3 games, "), "the result line: {shown:?}");
    let _ = std::fs::remove_dir_all(&dir);
}

#[test]
fn solve_check_says_which_claim_it_is_on() {
    let (status, stdout, stderr) =
        in_a_pipe(&["solve", "check", &cert("sight4-official")], "lines=0");
    assert_eq!(status, Some(0), "{stderr}");
    let lines: Vec<&str> = stderr
        .lines()
        .filter(|l| l.starts_with("solve check: "))
        .collect();
    let first = lines.first().copied().unwrap_or_default();
    let claims: u64 = first
        .strip_prefix("solve check: ")
        .and_then(|rest| rest.strip_suffix(" claims to do"))
        .and_then(|n| n.parse().ok())
        .unwrap_or_else(|| panic!("{stderr}"));
    assert!(claims >= 1, "{stderr}");
    assert!(
        lines.iter().any(|l| l.contains(", claim 1 of ")),
        "{stderr}"
    );
    let last = lines.last().copied().unwrap_or_default();
    assert!(
        last.starts_with(&format!("solve check: {claims} of {claims} claims in ")),
        "{stderr}"
    );
    assert!(
        stdout.lines().any(|l| l.starts_with("proven: ")),
        "{stdout}"
    );
}

#[test]
fn solve_check_and_solve_draw_a_bar_on_a_terminal() {
    let dir = temp_dir("solve-pty");
    let shown = on_a_pty(&["solve", "check", &cert("sight4-official")], &dir);
    assert!(shown.contains("solve check: ["), "{shown:?}");
    assert!(shown.contains("proven: "), "{shown:?}");
    let shown = on_a_pty(&["solve", "--size", "4"], &dir);
    assert!(shown.contains("solve: ["), "{shown:?}");
    let _ = std::fs::remove_dir_all(&dir);
}

#[test]
fn solve_says_how_many_positions_are_proven_in_a_pipe() {
    let (status, stdout, stderr) = in_a_pipe(&["solve", "--size", "4"], "lines=0");
    assert_eq!(status, Some(0), "{stderr}");
    let lines: Vec<&str> = stderr
        .lines()
        .filter(|l| l.starts_with("solve: "))
        .collect();
    let first = lines.first().copied().unwrap_or_default();
    assert!(first.ends_with(" positions to do"), "{stderr}");
    let last = lines.last().copied().unwrap_or_default();
    assert!(last.contains(" positions in "), "{stderr}");
    assert!(!stdout.contains("solve: "), "{stdout}");
}

#[test]
fn progress_off_says_nothing_and_keeps_the_results() {
    let (status, stdout, stderr) = in_a_pipe(&["solve", "check", &cert("sight3-official")], "off");
    assert_eq!(status, Some(0), "{stderr}");
    assert_eq!(stderr, "");
    assert!(stdout.contains("proven: "), "{stdout}");
}

#[test]
fn match_prints_a_line_per_game_and_on_a_terminal_a_bar_under_them() {
    let dir = temp_dir("match");
    let engine = |name: &str| format!("cmd={} name={name}", binary());
    let mut args = vec!["match", "--game", "tactigon"];
    let (a, b) = (engine("a"), engine("b"));
    for spec in [&a, &b] {
        args.push("--engine");
        args.extend(spec.split(' '));
    }
    args.extend(["option.Eval=hand", "--each", "nodes=300", "--games", "4"]);
    args.extend(["--random-openings", "2"]);
    let (status, stdout, stderr) = in_a_pipe(&args, "bar");
    // In a pipe the style is what LUDUS_PROGRESS says, but a bar draws only on a terminal:
    // the game lines are there either way.
    assert_eq!(status, Some(0), "{stderr}");
    for game in 1..=4 {
        assert!(stderr.contains(&format!("Game {game}/4 (")), "{stderr}");
    }
    assert!(stdout.contains("a vs b: "), "{stdout}");
    let (status, _, stderr) = in_a_pipe(&args, "lines");
    assert_eq!(status, Some(0), "{stderr}");
    assert!(!stderr.contains("match: ["), "no bar in a pipe: {stderr}");
    let shown = on_a_pty(&args, &dir);
    assert!(shown.contains("match: ["), "{shown:?}");
    assert!(shown.contains("Game 4/4 ("), "{shown:?}");
    assert!(shown.contains("a vs b: "), "the table: {shown:?}");
    let _ = std::fs::remove_dir_all(&dir);
}
