//! Architecture checks: `game/` depends on nothing above it, and only `protocol/` writes to
//! standard output.

use std::fs;
use std::path::{Path, PathBuf};

fn rust_files(dir: &Path) -> Vec<PathBuf> {
    let mut files = Vec::new();
    for entry in fs::read_dir(dir).expect("readable source folder") {
        let path = entry.expect("directory entry").path();
        if path.is_dir() {
            files.extend(rust_files(&path));
        } else if path.extension().is_some_and(|e| e == "rs") {
            files.push(path);
        }
    }
    files
}

/// Whether `text` uses `pattern` other than as the tail of `e<pattern>` (`eprintln!`).
fn uses(text: &str, pattern: &str) -> bool {
    text.match_indices(pattern)
        .any(|(i, _)| !text[..i].ends_with('e'))
}

fn src() -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR")).join("src")
}

#[test]
fn game_imports_nothing_from_search_protocol_or_engine() {
    let files = rust_files(&src().join("game"));
    assert!(
        files.len() >= 5,
        "found {} files under src/game",
        files.len()
    );
    for file in files {
        let text = fs::read_to_string(&file).expect("readable file");
        for layer in ["search", "protocol", "engine"] {
            for pattern in [format!("crate::{layer}"), format!("ludus::{layer}")] {
                assert!(
                    !text.contains(&pattern),
                    "{} uses {pattern}",
                    file.display()
                );
            }
        }
    }
}

#[test]
fn the_referee_talks_to_engines_only_through_processes() {
    let files = rust_files(&src().join("referee"));
    assert!(
        files.len() >= 10,
        "found {} files under src/referee",
        files.len()
    );
    for file in files {
        let text = fs::read_to_string(&file).expect("readable file");
        for layer in ["search", "protocol", "engine::"] {
            let pattern = format!("crate::{layer}");
            assert!(
                !text.contains(&pattern),
                "{} uses {pattern}",
                file.display()
            );
        }
    }
}

#[test]
fn only_the_protocol_writes_stdout() {
    let protocol = src().join("protocol");
    let mut checked = 0;
    for file in rust_files(&src()) {
        if file.starts_with(&protocol) {
            continue;
        }
        let text = fs::read_to_string(&file).expect("readable file");
        for pattern in ["println!", "print!(", "stdout()", "io::stdout"] {
            let allowed_in_main = file.ends_with("main.rs") && pattern.contains("stdout");
            assert!(
                allowed_in_main || !uses(&text, pattern),
                "{} uses {pattern}",
                file.display()
            );
        }
        checked += 1;
    }
    assert!(checked >= 10, "checked only {checked} files");
}

#[test]
fn the_stdout_check_can_fail() {
    assert!(uses("fn f() { println!(\"x\") }", "println!"));
    assert!(!uses("fn f() { eprintln!(\"x\") }", "println!"));
}
