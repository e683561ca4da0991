//! README.md's short examples, run verbatim: every one-line `ludus go`, `ludus perft`,
//! `ludus bench --game …`, `ludus --help`, `ludus --version` and `ludus completions` of its
//! `sh` blocks, as a newcomer pastes them into a shell from the root of a clone (with `ludus`
//! the built binary), must exit 0. The long ones (play, web, match, datagen, train, learn,
//! solve, the whole bench) are left to their own tests; lines that redirect or pipe are not
//! run (they write outside the clone or need other programs).

use std::process::Command;
use std::time::{Duration, Instant};

use crate::common::process::binary;

/// The subcommands short enough to run here (seconds each).
const SHORT: &[&str] = &["go", "perft", "--help", "--version", "completions"];

/// A hang bound for one example: the slowest takes about a second.
const HANG: Duration = Duration::from_secs(120);

/// The one-line `ludus …` commands of the `sh` blocks of `text`, comments cut off.
fn examples(text: &str) -> Vec<String> {
    let mut found = Vec::new();
    let mut in_sh = false;
    let mut continued = false;
    for line in text.lines() {
        if let Some(fence) = line.strip_prefix("```") {
            in_sh = !in_sh && fence.trim() == "sh";
            continued = false;
            continue;
        }
        if !in_sh {
            continue;
        }
        let was_continued = continued;
        continued = line.trim_end().ends_with('\\');
        if was_continued || continued {
            continue;
        }
        let command = line.split(" #").next().unwrap_or(line).trim();
        if command.starts_with("ludus ") {
            found.push(command.to_string());
        }
    }
    found
}

/// Whether an example is one this test runs.
fn is_short(command: &str) -> bool {
    let words: Vec<&str> = command.split_whitespace().collect();
    let Some(&sub) = words.get(1) else {
        return false;
    };
    let plain = !command.contains(['>', '|', '&', ';']);
    let bench_of_one = sub == "bench" && command.contains("--game");
    plain && (SHORT.contains(&sub) || bench_of_one)
}

#[test]
fn the_parser_finds_one_line_commands_and_skips_the_rest() {
    let text = "```sh\nludus go --depth 1   # a comment\nludus match --a \\\n  --b\n\
                cargo test\n```\n```text\nludus go --no\n```\n";
    assert_eq!(examples(text), ["ludus go --depth 1"]);
    assert!(is_short("ludus go --depth 1"));
    assert!(is_short("ludus bench --game isaac"));
    assert!(!is_short("ludus bench"));
    assert!(!is_short("ludus play --game sight"));
    assert!(!is_short("ludus completions bash > ~/x"));
    assert!(!is_short("ludus man | man -l -"));
}

#[test]
fn readmes_short_examples_run_verbatim_from_a_clone() {
    let root = env!("CARGO_MANIFEST_DIR");
    let text = std::fs::read_to_string(format!("{root}/README.md")).expect("README.md");
    let run: Vec<String> = examples(&text)
        .into_iter()
        .filter(|c| is_short(c))
        .collect();
    assert!(
        run.len() >= 15,
        "only {} short examples found: {run:?}",
        run.len()
    );
    // `ludus` is the binary under test, as if installed; the shell reads the quotes.
    let prelude = format!("ludus() {{ '{}' \"$@\"; }}; ", binary());
    for command in &run {
        let started = Instant::now();
        let out = Command::new("bash")
            .args(["-c", &format!("{prelude}{command}")])
            .current_dir(root)
            .output()
            .expect("bash runs");
        assert!(
            out.status.success(),
            "`{command}` exited {:?}: {}",
            out.status.code(),
            String::from_utf8_lossy(&out.stderr)
        );
        assert!(!out.stdout.is_empty(), "`{command}` printed nothing");
        assert!(
            started.elapsed() < HANG,
            "`{command}` took {:?}",
            started.elapsed()
        );
    }
}
