//! Names the build: sets `LUDUS_BUILD` to the commit and its date (`c69de7d 2026-12-01`), which
//! `ludus --version` prints after the package version.
//!
//! Where the commit comes from, first found wins:
//! 1. `git` in a clone (the short hash of `HEAD` and its commit date);
//! 2. `build-info.txt`, which `git archive` fills in (`export-subst` in `.gitattributes`), so a
//!    release tarball names its commit without git;
//! 3. otherwise `unknown commit`.

use std::path::Path;
use std::process::Command;

fn main() {
    let build = from_git()
        .or_else(from_archive)
        .unwrap_or_else(|| "unknown commit".to_string());
    println!("cargo:rustc-env=LUDUS_BUILD={build}");
    println!("cargo:rerun-if-changed=build-info.txt");
    // A new commit or checkout moves HEAD or the branch it names: watch the files that say so
    // (`--git-path` finds them in a worktree too, whose branches live in the main clone).
    let mut files = vec!["HEAD".to_string(), "packed-refs".to_string()];
    files.extend(git(&["symbolic-ref", "-q", "HEAD"]));
    for file in files {
        if let Some(path) = git(&["rev-parse", "--git-path", &file]) {
            watch(Path::new(&path));
        }
    }
}

/// `abc1234 2026-12-01` from the clone's `HEAD`, if this is a clone and git runs.
fn from_git() -> Option<String> {
    let line = git(&["log", "-1", "--format=%h %cs"])?;
    is_commit_line(&line).then_some(line)
}

/// The line `git archive` wrote into `build-info.txt` (still `$Format:…$` in a clone).
fn from_archive() -> Option<String> {
    let text = std::fs::read_to_string("build-info.txt").ok()?;
    let line = text
        .lines()
        .find(|l| !l.starts_with('#'))?
        .trim()
        .to_string();
    is_commit_line(&line).then_some(line)
}

/// A hash of hex digits, a space and a `YYYY-MM-DD` date.
fn is_commit_line(line: &str) -> bool {
    let Some((hash, date)) = line.split_once(' ') else {
        return false;
    };
    hash.len() >= 7
        && hash.chars().all(|c| c.is_ascii_hexdigit())
        && date.len() == 10
        && date.split('-').map(str::len).eq([4, 2, 2])
        && date.chars().all(|c| c.is_ascii_digit() || c == '-')
}

/// One line of `git` output, if git ran and succeeded.
fn git(args: &[&str]) -> Option<String> {
    let out = Command::new("git").args(args).output().ok()?;
    if !out.status.success() {
        return None;
    }
    let text = String::from_utf8(out.stdout).ok()?;
    let line = text.trim();
    (!line.is_empty()).then(|| line.to_string())
}

/// Rebuilds when `path` changes, if it exists (a missing file would rerun this script always).
fn watch(path: &Path) {
    if path.exists() {
        println!("cargo:rerun-if-changed={}", path.display());
    }
}
