//! Citations of the rules documents resolve inside the repository.
//!
//! The rules of the three games live in `docs/rules/` (one file per game, and an index). Code,
//! tests and documents cite them by file, by section (`§4`, `§3.3`), by heading anchor
//! (`#33-movement`) and by test vector (`TV12`). This test reads the repository's text files
//! (under `src/`, `tests/`, `benches/`, `examples/`, `docs/` and `gui-adapters/`, skipping
//! `target/` and `node_modules/`, plus `README.md` and `protocol.md`) and checks that
//!
//! - every cited rules file exists, and every `#anchor` right after its name is the GitHub
//!   anchor of one of its headings;
//! - every `§N` names a numbered heading (`## 4. End of game`, `### 3.3 Movement`) and every
//!   `TVn` a test-vector heading (`### TV12. …`) of the rules file it refers to: the nearest
//!   rules file cited before it in the same file, or else the first one the file cites; in
//!   `docs/rules/` a file also cites itself. A `§` or `TV` in a file that cites no rules file
//!   fails;
//! - relative markdown links (`[text](path#anchor)`) lead to existing files and, when the target
//!   is a markdown file, to one of its headings;
//! - nothing cites a rules document outside the repository (a `shared` rules folder), and every
//!   `rules/<file>.md` is spelled from the repository root, `docs/rules/<file>.md`.
//!
//! The unit tests at the end feed the checker small texts with broken citations, so that a
//! checker that accepted everything would fail; this file itself, full of such examples, is not
//! scanned. The engine is not run.

use std::collections::{BTreeMap, BTreeSet};
use std::fs;
use std::path::{Component, Path, PathBuf};

/// The folder of the rules documents, relative to the repository root.
const RULES_DIR: &str = "docs/rules";
/// Folders whose text files are scanned.
const SCANNED_DIRS: [&str; 6] = [
    "src",
    "tests",
    "benches",
    "examples",
    "docs",
    "gui-adapters",
];
/// Files at the root that are scanned.
const SCANNED_FILES: [&str; 3] = ["README.md", "protocol.md", "CHANGELOG.md"];
/// This file (its examples are broken on purpose).
const THIS_FILE: &str = "tests/house/doc_citations.rs";
/// Folders never entered.
const SKIPPED_DIRS: [&str; 3] = ["target", "node_modules", ".git"];
/// Extensions of the files read as text.
const TEXT_EXTENSIONS: [&str; 12] = [
    "rs", "md", "sh", "js", "mjs", "html", "css", "py", "txt", "perft", "toml", "json",
];

/// The headings of one markdown file, as the checks need them.
#[derive(Debug, Default)]
struct Headings {
    /// GitHub anchors of all headings.
    anchors: BTreeSet<String>,
    /// Numbers of the numbered headings (`4`, `3.3`, `3.3.1`).
    sections: BTreeSet<String>,
    /// Test vectors with a heading of their own (`TV12`).
    vectors: BTreeSet<String>,
}

/// GitHub's anchor for a heading text: lower case, each space a `-`, every character other
/// than a letter, a digit, `-` or `_` dropped.
fn slug(heading: &str) -> String {
    heading
        .trim()
        .to_lowercase()
        .chars()
        .filter_map(|c| match c {
            ' ' => Some('-'),
            c if c.is_alphanumeric() || c == '-' || c == '_' => Some(c),
            _ => None,
        })
        .collect()
}

/// Reads the headings of a markdown text (not those inside fenced code blocks).
fn headings(text: &str) -> Headings {
    let mut found = Headings::default();
    let mut seen: BTreeMap<String, usize> = BTreeMap::new();
    let mut in_fence = false;
    for line in text.lines() {
        if line.trim_start().starts_with("```") {
            in_fence = !in_fence;
            continue;
        }
        let hashes = line.chars().take_while(|&c| c == '#').count();
        let Some(title) = line[hashes..].strip_prefix(' ') else {
            continue;
        };
        if in_fence || !(1..=6).contains(&hashes) {
            continue;
        }
        let base = slug(title);
        let n = seen.entry(base.clone()).or_insert(0);
        found.anchors.insert(if *n == 0 {
            base.clone()
        } else {
            format!("{base}-{n}")
        });
        *n += 1;
        let first = title.split_whitespace().next().unwrap_or_default();
        let label = first.trim_end_matches('.');
        if !label.is_empty() && label.chars().all(|c| c.is_ascii_digit() || c == '.') {
            found.sections.insert(label.to_string());
        } else if label.len() > 2
            && label.starts_with("TV")
            && label[2..].chars().all(|c| c.is_ascii_digit())
        {
            found.vectors.insert(label.to_string());
        }
    }
    found
}

/// Whether `c` may be part of a file name or an anchor in a citation.
fn name_char(c: char) -> bool {
    c.is_ascii_alphanumeric() || c == '_' || c == '-'
}

/// The longest prefix of `s` made of characters for which `keep` holds.
fn prefix(s: &str, keep: impl Fn(char) -> bool) -> &str {
    let end = s.find(|c: char| !keep(c)).unwrap_or(s.len());
    &s[..end]
}

/// `path` (relative to the repository root) with `.` and `..` resolved, `/`-separated.
fn normalise(path: &Path) -> String {
    let mut parts: Vec<String> = Vec::new();
    for component in path.components() {
        match component {
            Component::ParentDir => {
                parts.pop();
            }
            Component::Normal(part) => parts.push(part.to_string_lossy().into_owned()),
            _ => {}
        }
    }
    parts.join("/")
}

/// Whether position `at` of a markdown text lies inside the target of a link, `](…)`.
fn in_link_target(text: &str, at: usize) -> bool {
    let line = &text[text[..at].rfind('\n').map_or(0, |i| i + 1)..at];
    line.rfind("](")
        .is_some_and(|open| !line[open..].contains(')'))
}

/// One mention of a rules file: where it is in the text, which file, and the anchor, if any.
#[derive(Debug)]
struct Citation {
    at: usize,
    file: String,
    anchor: Option<String>,
}

/// A relative markdown link: where it starts (its `[`), its target path from the repository
/// root, and the anchor, if any.
#[derive(Debug)]
struct Link {
    at: usize,
    target: String,
    anchor: Option<String>,
}

/// The relative links of a markdown text, outside fenced code blocks. `dir` is the folder of
/// the file, relative to the repository root.
fn markdown_links(text: &str, dir: &Path) -> Vec<Link> {
    let mut links = Vec::new();
    let mut offset = 0;
    let mut in_fence = false;
    for line in text.split_inclusive('\n') {
        if line.trim_start().starts_with("```") {
            in_fence = !in_fence;
        } else if !in_fence {
            for (i, _) in line.match_indices("](") {
                let rest = &line[i + 2..];
                let Some(end) = rest.find(')') else { continue };
                let raw = &rest[..end];
                if raw.contains("://") || raw.starts_with("mailto:") || raw.contains(' ') {
                    continue;
                }
                let (path, anchor) = match raw.split_once('#') {
                    Some((p, a)) => (p, Some(a.to_string())),
                    None => (raw, None),
                };
                let start = line[..i].rfind('[').unwrap_or(i);
                links.push(Link {
                    at: offset + start,
                    target: if path.is_empty() {
                        String::new()
                    } else {
                        normalise(&dir.join(path))
                    },
                    anchor,
                });
            }
        }
        offset += line.len();
    }
    links
}

/// Checks one file's text against the rules documents `docs` (headings by file name, e.g.
/// `sight.md`). `path` is the file's path from the repository root; `headings_of` gives the
/// headings of any markdown file of the repository (for links), `None` if it does not exist;
/// `exists` says whether any other path exists. Returns one line per problem.
fn check_text(
    path: &str,
    text: &str,
    docs: &BTreeMap<String, Headings>,
    headings_of: &dyn Fn(&str) -> Option<Headings>,
    exists: &dyn Fn(&str) -> bool,
) -> Vec<String> {
    let mut problems = Vec::new();
    let line_of = |at: usize| text[..at].matches('\n').count() + 1;
    let mut report =
        |at: usize, what: String| problems.push(format!("{path}:{}: {what}", line_of(at)));

    // Rules documents outside the repository.
    let outside = [["..", "/shared"].concat(), ["shared", "/rules"].concat()];
    for pattern in &outside {
        for (at, _) in text.match_indices(pattern.as_str()) {
            report(at, format!("cites '{pattern}', outside the repository"));
        }
    }

    // `rules/<file>.md` must be spelled from the root.
    let prefix_dir = format!("{RULES_DIR}/");
    let mut citations = Vec::new();
    // A rules document cites itself (before anything else it cites at the same place).
    if let Some(file) = path.strip_prefix(&prefix_dir) {
        citations.push(Citation {
            at: 0,
            file: file.to_string(),
            anchor: None,
        });
    }
    for (at, _) in text.match_indices("rules/") {
        let rest = &text[at + "rules/".len()..];
        let name = prefix(rest, name_char);
        if name.is_empty() || !rest[name.len()..].starts_with(".md") {
            continue;
        }
        if !text[..at].ends_with("docs/") {
            if path.ends_with(".md") && in_link_target(text, at) {
                continue; // a relative markdown link, checked with the links below
            }
            report(
                at,
                format!(
                    "'rules/{name}.md' is not a path from the root: write '{prefix_dir}{name}.md'"
                ),
            );
            continue;
        }
        let after = &rest[name.len() + ".md".len()..];
        let anchor = after
            .strip_prefix('#')
            .map(|a| prefix(a, name_char).to_string());
        citations.push(Citation {
            at: at - "docs/".len(),
            file: format!("{name}.md"),
            anchor,
        });
    }

    // Markdown links; those into the rules folder count as citations.
    let is_markdown = path.ends_with(".md");
    let dir = Path::new(path).parent().unwrap_or(Path::new(""));
    let links = if is_markdown {
        markdown_links(text, dir)
    } else {
        Vec::new()
    };
    for link in &links {
        let target = if link.target.is_empty() {
            path.to_string()
        } else {
            link.target.clone()
        };
        if target.ends_with(".md") {
            match headings_of(&target) {
                None => report(link.at, format!("link to '{target}', which does not exist")),
                Some(h) => {
                    if let Some(anchor) = &link.anchor
                        && !h.anchors.contains(anchor)
                    {
                        report(
                            link.at,
                            format!("link to '{target}#{anchor}': no such heading"),
                        );
                    }
                }
            }
        } else if !exists(&target) {
            report(link.at, format!("link to '{target}', which does not exist"));
        }
        if let Some(file) = target.strip_prefix(&prefix_dir)
            && !link.target.is_empty()
        {
            citations.push(Citation {
                at: link.at,
                file: file.to_string(),
                anchor: None,
            });
        }
    }

    citations.sort_by_key(|c| c.at);

    for c in &citations {
        match docs.get(&c.file) {
            None => report(c.at, format!("'{prefix_dir}{}' does not exist", c.file)),
            Some(h) => {
                if let Some(anchor) = &c.anchor
                    && !h.anchors.contains(anchor)
                {
                    report(
                        c.at,
                        format!("'{prefix_dir}{}#{anchor}': no such heading", c.file),
                    );
                }
            }
        }
    }

    // Sections and test vectors, each checked in the rules file it refers to.
    let cited_at = |at: usize| {
        citations
            .iter()
            .rev()
            .find(|c| c.at <= at)
            .or(citations.first())
            .map(|c| c.file.clone())
    };
    for (at, _) in text.match_indices('§') {
        let number = prefix(&text[at + '§'.len_utf8()..], |c| {
            c.is_ascii_digit() || c == '.'
        });
        let number = number.trim_end_matches('.');
        if number.is_empty() {
            continue;
        }
        match cited_at(at) {
            None => report(
                at,
                format!("§{number} without a rules document cited in this file"),
            ),
            Some(file) => {
                if docs
                    .get(&file)
                    .is_some_and(|h| !h.sections.contains(number))
                {
                    report(
                        at,
                        format!("§{number}: no such section in '{prefix_dir}{file}'"),
                    );
                }
            }
        }
    }
    for (at, _) in text.match_indices("TV") {
        let before = text[..at].chars().next_back();
        if before.is_some_and(|c| c.is_alphanumeric() || c == '_') {
            continue;
        }
        let digits = prefix(&text[at + 2..], |c| c.is_ascii_digit());
        if digits.is_empty() {
            continue;
        }
        let vector = format!("TV{digits}");
        match cited_at(at) {
            None => report(
                at,
                format!("{vector} without a rules document cited in this file"),
            ),
            Some(file) => {
                if docs
                    .get(&file)
                    .is_some_and(|h| !h.vectors.contains(&vector))
                {
                    report(
                        at,
                        format!("{vector}: no such test vector in '{prefix_dir}{file}'"),
                    );
                }
            }
        }
    }
    problems
}

/// The repository root.
fn root() -> PathBuf {
    PathBuf::from(env!("CARGO_MANIFEST_DIR"))
}

/// The text files under `dir`, recursively, as paths from the root.
fn text_files(dir: &Path, out: &mut Vec<String>) {
    let Ok(entries) = fs::read_dir(root().join(dir)) else {
        return;
    };
    for entry in entries {
        let entry = entry.expect("directory entry");
        let name = entry.file_name().to_string_lossy().into_owned();
        let path = dir.join(&name);
        if entry.file_type().expect("file type").is_dir() {
            if !SKIPPED_DIRS.contains(&name.as_str()) {
                text_files(&path, out);
            }
        } else if path
            .extension()
            .is_some_and(|e| TEXT_EXTENSIONS.contains(&e.to_string_lossy().as_ref()))
        {
            out.push(normalise(&path));
        }
    }
}

/// The headings of the repository's markdown file `path` (from the root), if it exists.
fn headings_in_repo(path: &str) -> Option<Headings> {
    fs::read_to_string(root().join(path))
        .ok()
        .map(|t| headings(&t))
}

/// The rules documents: headings by file name.
fn rules_docs() -> BTreeMap<String, Headings> {
    let mut docs = BTreeMap::new();
    for entry in fs::read_dir(root().join(RULES_DIR)).expect("docs/rules exists") {
        let path = entry.expect("directory entry").path();
        if path.extension().is_some_and(|e| e == "md") {
            let text = fs::read_to_string(&path).expect("readable rules document");
            let name = path.file_name().expect("a file name").to_string_lossy();
            docs.insert(name.into_owned(), headings(&text));
        }
    }
    docs
}

#[test]
fn every_citation_of_the_rules_resolves_in_the_repository() {
    let docs = rules_docs();
    for game in ["sight.md", "isaac.md", "tactigon.md", "README.md"] {
        assert!(docs.contains_key(game), "{RULES_DIR}/{game} is missing");
    }
    let mut files = Vec::new();
    for dir in SCANNED_DIRS {
        text_files(Path::new(dir), &mut files);
    }
    files.extend(SCANNED_FILES.iter().map(|f| f.to_string()));
    let exists = |p: &str| root().join(p).exists();
    let mut problems = Vec::new();
    let mut cited = 0;
    for file in files.iter().filter(|f| *f != THIS_FILE) {
        let Ok(text) = fs::read_to_string(root().join(file)) else {
            continue;
        };
        cited += text.matches("docs/rules/").count();
        problems.extend(check_text(file, &text, &docs, &headings_in_repo, &exists));
    }
    assert!(
        problems.is_empty(),
        "{} broken citations:\n{}",
        problems.len(),
        problems.join("\n")
    );
    assert!(files.len() > 100, "only {} files scanned", files.len());
    assert!(cited > 30, "only {cited} citations of {RULES_DIR} found");
}

/// A small rules document for the unit tests.
const DOC: &str = "# Game\n\n## How to play\n\n## 4. Growth\n\n### 4.1 Sight lines\n\n\
```text\n## 9. Not a heading\n```\n\n## 9. Test vectors\n\n### TV3. Three\n";

/// Checks `text` as the file `path` against the document [`DOC`] named `game.md`.
fn check(path: &str, text: &str) -> Vec<String> {
    let docs = BTreeMap::from([
        ("game.md".to_string(), headings(DOC)),
        ("README.md".to_string(), Headings::default()),
    ]);
    let headings_of = |p: &str| (p == "docs/rules/game.md").then(|| headings(DOC));
    check_text(path, text, &docs, &headings_of, &|_| true)
}

#[test]
fn slugs_follow_github() {
    assert_eq!(slug("4. End of game"), "4-end-of-game");
    assert_eq!(slug("3.3 Movement"), "33-movement");
    assert_eq!(slug("6.2 Sight_BoardSize"), "62-sight_boardsize");
    assert_eq!(slug("TV12. The four-ply game"), "tv12-the-four-ply-game");
    assert_eq!(slug("Second phase: scoring"), "second-phase-scoring");
    assert_eq!(slug("A `d` × `e` (big)"), "a-d--e-big");
}

#[test]
fn headings_are_read_outside_code_blocks() {
    let h = headings(DOC);
    assert!(h.anchors.contains("4-growth") && h.anchors.contains("41-sight-lines"));
    assert_eq!(
        h.sections,
        BTreeSet::from(["4".into(), "4.1".into(), "9".into()])
    );
    assert_eq!(h.vectors, BTreeSet::from(["TV3".into()]));
    let twice = headings("## Notes\n## Notes\n");
    assert!(twice.anchors.contains("notes") && twice.anchors.contains("notes-1"));
}

#[test]
fn good_citations_pass() {
    let text = "// docs/rules/game.md §4.1 and §4, TV3; docs/rules/game.md#4-growth.\n";
    assert_eq!(check("src/a.rs", text), Vec::<String>::new());
    let md =
        "See [the growth rule](docs/rules/game.md#41-sight-lines) and [§9](docs/rules/game.md).\n";
    assert_eq!(check("README.md", md), Vec::<String>::new());
    // In the rules folder, a document cites itself, and links are relative to it.
    assert_eq!(
        check("docs/rules/game.md", "As §4 says; [TV3](#tv3-three).\n"),
        Vec::<String>::new()
    );
    assert_eq!(
        check("docs/rules/README.md", "[§4](game.md#4-growth)\n"),
        Vec::<String>::new()
    );
    // A relative link from another folder, e.g. `docs/`.
    assert_eq!(
        check(
            "docs/x.md",
            "[docs/rules/game.md](rules/game.md#4-growth) §4\n"
        ),
        Vec::<String>::new()
    );
}

#[test]
fn broken_citations_fail() {
    let cases = [
        (
            "src/a.rs",
            "// docs/rules/game.md#4-growing\n",
            "no such heading",
        ),
        ("src/a.rs", "// docs/rules/game.md §5\n", "no such section"),
        (
            "src/a.rs",
            "// docs/rules/game.md §9.1\n",
            "no such section",
        ),
        (
            "src/a.rs",
            "// docs/rules/game.md, TV4\n",
            "no such test vector",
        ),
        ("src/a.rs", "// docs/rules/other.md §4\n", "does not exist"),
        ("src/a.rs", "// rules §4\n", "without a rules document"),
        (
            "src/a.rs",
            "// the rules' TV3\n",
            "without a rules document",
        ),
        (
            "src/a.rs",
            "// `rules/game.md` §4\n",
            "not a path from the root",
        ),
        (
            "src/a.rs",
            &["// ../sha", "red/rules/game.md\n"].concat(),
            "outside the repository",
        ),
        (
            "README.md",
            "[x](docs/rules/game.md#nope)\n",
            "no such heading",
        ),
        ("README.md", "[x](docs/missing.md)\n", "does not exist"),
        ("docs/x.md", "[x](rules/game.md#nope)\n", "no such heading"),
        ("docs/rules/game.md", "[x](#nope)\n", "no such heading"),
    ];
    for (path, text, expected) in cases {
        let problems = check(path, text);
        assert!(
            problems.iter().any(|p| p.contains(expected)),
            "{path}: {text:?} should fail with '{expected}', got {problems:?}"
        );
    }
}

#[test]
fn a_section_is_checked_in_the_nearest_document_cited_before_it() {
    let docs = BTreeMap::from([
        ("game.md".to_string(), headings(DOC)),
        ("other.md".to_string(), headings("## 7. Seven\n")),
    ]);
    let check = |text: &str| check_text("src/a.rs", text, &docs, &|_| None, &|_| true);
    assert!(check("// docs/rules/game.md §4, docs/rules/other.md §7\n").is_empty());
    assert_eq!(check("// docs/rules/other.md §4\n").len(), 1);
    // Before any citation, the first document cited in the file.
    assert!(check("// §4 (docs/rules/game.md), docs/rules/other.md\n").is_empty());
}
