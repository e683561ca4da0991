//! What a packager and a shell see of the binary: `ludus --version` names the build's commit,
//! `ludus completions SHELL` prints a script the shell accepts, `ludus man` the manual pages.

use std::process::Command;
use std::time::Duration;

use crate::common::process::run;

/// How long one of these commands may take (they print and exit).
const TIMEOUT: Duration = Duration::from_secs(30);

/// The subcommands the completions and the manual must know.
const SUBCOMMANDS: &[&str] = &[
    "go",
    "perft",
    "bench",
    "play",
    "web",
    "analyse",
    "match",
    "datagen",
    "train",
    "learn",
    "wdl",
    "solve",
    "completions",
    "man",
];

/// `abc1234 2026-12-01`: a short hash of hex digits and an ISO date.
fn is_commit_and_date(text: &str) -> bool {
    let Some((hash, date)) = text.split_once(' ') else {
        return false;
    };
    let digits: Vec<&str> = date.split('-').collect();
    hash.len() >= 7
        && hash.chars().all(|c| c.is_ascii_hexdigit())
        && digits.iter().map(|d| d.len()).eq([4, 2, 2])
        && digits.iter().all(|d| d.chars().all(|c| c.is_ascii_digit()))
}

#[test]
fn version_names_the_package_and_the_commit_it_was_built_from() {
    let out = run(&["--version"], TIMEOUT);
    assert_eq!(out.code(), Some(0), "{out:?}");
    let line = out.stdout.strip_suffix('\n').unwrap_or(&out.stdout);
    let prefix = format!("ludus {} (", env!("CARGO_PKG_VERSION"));
    let build = line
        .strip_prefix(&prefix)
        .and_then(|rest| rest.strip_suffix(')'))
        .unwrap_or_else(|| panic!("not 'ludus VERSION (COMMIT DATE)': {line:?}"));
    // The suite runs in a clone: the build names its HEAD, as git says it.
    let git = Command::new("git")
        .args(["log", "-1", "--format=%h %cs"])
        .current_dir(env!("CARGO_MANIFEST_DIR"))
        .output();
    match git {
        Ok(git) if git.status.success() => {
            let head = String::from_utf8_lossy(&git.stdout).trim().to_string();
            assert_eq!(build, head, "the commit of the build is not HEAD");
        }
        _ => assert!(
            is_commit_and_date(build) || build == "unknown commit",
            "{build:?}"
        ),
    }
    assert!(is_commit_and_date(build), "{build:?}");
}

#[test]
fn bash_accepts_the_completion_script_and_completes_subcommands() {
    let script = run(&["completions", "bash"], TIMEOUT);
    assert_eq!(script.code(), Some(0), "{script:?}");
    // Load the script in bash, then ask its function what `ludus ma<TAB>` completes to.
    let path = std::env::temp_dir().join(format!("ludus-completion-{}.bash", std::process::id()));
    std::fs::write(&path, &script.stdout).expect("a temporary file");
    let probe = format!(
        "source '{}' && complete -p ludus && COMP_WORDS=(ludus ma) COMP_CWORD=1 && \
         _ludus ludus ma ludus && printf '%s\\n' \"${{COMPREPLY[@]}}\"",
        path.display()
    );
    let out = Command::new("bash")
        .args(["-c", &probe])
        .output()
        .expect("bash runs");
    let _ = std::fs::remove_file(&path);
    let stdout = String::from_utf8_lossy(&out.stdout);
    assert!(
        out.status.success(),
        "{stdout} {}",
        String::from_utf8_lossy(&out.stderr)
    );
    let mut lines = stdout.lines();
    assert!(
        lines
            .next()
            .is_some_and(|l| l.starts_with("complete ") && l.ends_with(" ludus")),
        "{stdout}"
    );
    let offered: Vec<&str> = lines.collect();
    assert!(offered.contains(&"match"), "{offered:?}");
    assert!(offered.contains(&"man"), "{offered:?}");
    assert!(!offered.contains(&"go"), "{offered:?}");
}

#[test]
fn zsh_and_fish_scripts_know_every_subcommand() {
    for (shell, first) in [("zsh", "#compdef ludus"), ("fish", "# Print an optspec")] {
        let out = run(&["completions", shell], TIMEOUT);
        assert_eq!(out.code(), Some(0), "{shell}: {out:?}");
        assert!(
            out.stdout.starts_with(first),
            "{shell}: {}",
            &out.stdout[..80]
        );
        for sub in SUBCOMMANDS {
            assert!(
                out.stdout.contains(&format!("'{sub}:"))
                    || out.stdout.contains(&format!("-a \"{sub}\"")),
                "{shell} does not offer {sub}"
            );
        }
    }
}

#[test]
fn an_unknown_shell_is_refused_with_status_two() {
    let out = run(&["completions", "tcsh"], TIMEOUT);
    assert_eq!(out.code(), Some(2), "{out:?}");
    assert_eq!(out.stdout, "");
    assert!(
        out.stderr.contains("invalid value 'tcsh'"),
        "{}",
        out.stderr
    );
}

#[test]
fn man_prints_the_page_and_writes_one_per_subcommand() {
    let out = run(&["man"], TIMEOUT);
    assert_eq!(out.code(), Some(0), "{out:?}");
    let title = format!(".TH ludus 1  \"ludus {} (", env!("CARGO_PKG_VERSION"));
    assert!(out.stdout.contains(&title), "{}", &out.stdout[..200]);
    assert!(out.stdout.contains(".SH SUBCOMMANDS"));
    let dir = std::env::temp_dir().join(format!("ludus-man-{}", std::process::id()));
    let _ = std::fs::remove_dir_all(&dir);
    let dir_text = dir.to_string_lossy().to_string();
    let written = run(&["man", "--out", &dir_text], TIMEOUT);
    assert_eq!(written.code(), Some(0), "{written:?}");
    assert_eq!(
        written.stdout,
        format!("wrote the manual pages into {dir_text}\n")
    );
    let page = |name: &str| std::fs::read_to_string(dir.join(name)).unwrap_or_default();
    assert_eq!(page("ludus.1"), out.stdout);
    for sub in SUBCOMMANDS {
        let text = page(&format!("ludus-{sub}.1"));
        assert!(
            text.contains(&format!(".TH ludus-{sub} 1")),
            "ludus-{sub}.1: {text:.200}"
        );
    }
    assert!(page("ludus-match-merge.1").contains(".TH ludus-match-merge 1"));
    // A file where the folder should be: a clear error, status 1.
    let file = dir.join("ludus.1").to_string_lossy().to_string();
    let refused = run(&["man", "--out", &file], TIMEOUT);
    assert_eq!(refused.code(), Some(1), "{refused:?}");
    assert!(
        refused.stderr.starts_with("error: ludus man: "),
        "{}",
        refused.stderr
    );
    let _ = std::fs::remove_dir_all(&dir);
}
