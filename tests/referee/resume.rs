//! `--resume` refuses a record that is not this match's (another game, seed, openings, time
//! control, shard, an older ludus's), game numbers outside the schedule and two different
//! blocks of one game, leaving the file untouched; an exact repeat of a block counts once.

use std::path::{Path, PathBuf};

use super::*;

/// The blocks of a record file, each with its final blank line.
fn blocks(record: &str) -> Vec<String> {
    let parts: Vec<&str> = record.split_terminator("\n\n").collect();
    parts
        .chunks(2)
        .map(|c| format!("{}\n\n{}\n\n", c[0], c[1]))
        .collect()
}

/// The line a block starts on when `before` precedes it.
fn line_after(before: &[String]) -> usize {
    before.concat().lines().count() + 1
}

/// Plays `args` (a `quick` match) on `game` into the record `dir/name`; returns its path.
fn record(dir: &Path, name: &str, game: &str, args: Vec<String>) -> PathBuf {
    let path = dir.join(name);
    run_ok(game, &with_file(args, "--pgnout", &path));
    path
}

/// Writes `text` as `dir/name` and resumes `args` on it, which must be refused with `error`
/// (given the file's path); the file must be left as it was.
fn refused(dir: &Path, name: &str, text: &str, args: Vec<String>, error: &str) {
    let path = dir.join(name);
    std::fs::write(&path, text).unwrap();
    let args = with_file(args, "--pgnout", &path);
    let args: Vec<String> = args.into_iter().chain(["--resume".into()]).collect();
    run_refused("sight", &args, &format!("{}: {error}", path.display()));
    assert_eq!(std::fs::read_to_string(&path).unwrap(), text, "{name}");
}

#[test]
fn resume_refuses_the_record_of_another_match() {
    let dir = scratch("resume-foreign");
    let base =
        std::fs::read_to_string(record(&dir, "base.pgn", "sight", quick(4, 50, ""))).unwrap();
    let tactigon = record(&dir, "tactigon.pgn", "tactigon", quick(4, 50, ""));
    let tactigon = std::fs::read_to_string(tactigon).unwrap();
    let seed5 = record(&dir, "seed5.pgn", "sight", quick(4, 50, "--seed 5"));
    let seed5 = blocks(&std::fs::read_to_string(seed5).unwrap());
    let base_blocks = blocks(&base);
    assert_eq!((base_blocks.len(), seed5.len()), (4, 4));
    let mixed = format!("{}{}", base_blocks[..2].concat(), seed5[2..].concat());
    let older: String = base
        .lines()
        .filter(|l| {
            !["[Schedule ", "[Engine", "[Seed ", "[Shard "]
                .iter()
                .any(|t| l.starts_with(t))
        })
        .map(|l| format!("{l}\n"))
        .collect();
    let foreign = |tag: &str, theirs: &str, ours: &str| {
        format!(
            "line 1: game 1 belongs to another match: its {tag} is \"{theirs}\", this match's \
             is \"{ours}\""
        )
    };
    let cases = [
        (
            "game",
            tactigon.clone(),
            quick(4, 50, ""),
            foreign("Variant", "tactigon", "sight"),
        ),
        (
            "seed",
            base.clone(),
            quick(4, 50, "--seed 5"),
            foreign("Seed", "1", "5"),
        ),
        (
            "openings",
            base.clone(),
            quick(4, 50, "--random-openings 3"),
            foreign("Openings", "random plies=2", "random plies=3"),
        ),
        (
            "time-control",
            base.clone(),
            quick(4, 60, ""),
            foreign(
                "TimeControl",
                "nodes=100 / nodes=50",
                "nodes=100 / nodes=60",
            ),
        ),
        (
            "schedule",
            base.clone(),
            quick(8, 50, ""),
            foreign(
                "Schedule",
                "round-robin engines=2 rounds=2",
                "round-robin engines=2 rounds=4",
            ),
        ),
        (
            "mixed",
            mixed,
            quick(4, 50, ""),
            format!(
                "line {}: game 3 belongs to another match: its Seed is \"5\", this match's is \
                 \"1\"",
                line_after(&base_blocks[..2])
            ),
        ),
        (
            "older",
            older,
            quick(4, 50, ""),
            "line 1: game 1 has no Schedule tag: the record was written by an older ludus and \
             does not say which match it belongs to, so it cannot be resumed; finish it with \
             the ludus that started it, or start a new record file"
                .to_string(),
        ),
    ];
    for (name, text, args, error) in cases {
        refused(&dir, &format!("{name}.pgn"), &text, args, &error);
    }
}

#[test]
fn resume_refuses_game_numbers_outside_the_schedule() {
    let dir = scratch("resume-numbers");
    let base =
        std::fs::read_to_string(record(&dir, "base.pgn", "sight", quick(4, 50, ""))).unwrap();
    let base_blocks = blocks(&base);
    let last = line_after(&base_blocks[..3]);
    let renumbered = |n: &str| {
        let block = base_blocks[3].replace("[Game \"4\"]", &format!("[Game \"{n}\"]"));
        format!("{}{block}", base_blocks[..3].concat())
    };
    for n in ["0", "-4", "99999999999999999999"] {
        let error = format!("line {last}: bad Game tag \"{n}\" (games are numbered 1, 2, …)");
        refused(&dir, "bad.pgn", &renumbered(n), quick(4, 50, ""), &error);
    }
    for n in ["5", "18446744073709551615"] {
        let error =
            format!("line {last}: game {n} is not in the schedule (games 1 to 4 of this match)");
        refused(&dir, "beyond.pgn", &renumbered(n), quick(4, 50, ""), &error);
    }
    // A shard's record holds only its own pairs, and only as that shard.
    let second = record(&dir, "second.pgn", "sight", quick(4, 50, "--shard 2/2"));
    let second = std::fs::read_to_string(second).unwrap();
    refused(
        &dir,
        "other-shard.pgn",
        &second,
        quick(4, 50, "--shard 1/2"),
        "line 1: game 3 was played as shard 2/2, this run is shard 1/2",
    );
    let first = record(&dir, "first.pgn", "sight", quick(4, 50, "--shard 1/2"));
    let first = std::fs::read_to_string(first).unwrap();
    let stray = first.replace("[Game \"2\"]", "[Game \"4\"]");
    refused(
        &dir,
        "stray.pgn",
        &stray,
        quick(4, 50, "--shard 1/2"),
        &format!(
            "line {}: game 4 belongs to shard 2/2, not to 1/2",
            line_after(&blocks(&first)[..1])
        ),
    );
}

#[test]
fn an_exact_repeat_counts_once_and_a_different_one_is_refused() {
    let dir = scratch("resume-repeats");
    let base =
        std::fs::read_to_string(record(&dir, "base.pgn", "sight", quick(4, 50, ""))).unwrap();
    let base_blocks = blocks(&base);

    let repeated = dir.join("repeated.pgn");
    std::fs::write(&repeated, format!("{base}{}", base_blocks[1])).unwrap();
    let args = with_file(quick(4, 50, "--resume"), "--pgnout", &repeated);
    let table = run_ok("sight", &args);
    assert!(
        table.starts_with("sight nodes=100 / nodes=50: 4 of 4 games, seed 1\n"),
        "{table}"
    );
    assert_eq!(std::fs::read_to_string(&repeated).unwrap(), base);

    let other = base_blocks[1].replacen("[Date \"", "[Date \"1999.01.01 ", 1);
    assert_ne!(other, base_blocks[1]);
    refused(
        &dir,
        "different.pgn",
        &format!("{base}{other}"),
        quick(4, 50, ""),
        &format!(
            "lines {} and {}: game 2 appears twice, differently; remove the block that should \
             not count",
            line_after(&base_blocks[..1]),
            line_after(&base_blocks)
        ),
    );
}
