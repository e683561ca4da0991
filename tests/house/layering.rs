//! The walls of the house (docs/architecture.md), checked on the source: every arrow between
//! rooms is one the map allows, no files import each other in a circle, only the client reads
//! engine output, and only the protocol writes standard output.
//!
//! Imports are read as text: every `crate::…` and `super::…` path outside comments and test
//! modules, resolved to the file that defines it (through `pub use` re-exports of a `mod.rs`).

use std::collections::{BTreeMap, BTreeSet};
use std::fs;
use std::path::{Path, PathBuf};

/// Which rooms each room may import from. A room is a folder under `src/`, or a file at its
/// top level (by its stem). `main` and `lib` may import anything.
const ALLOWED: &[(&str, &[&str])] = &[
    ("game", &[]),
    ("lines", &[]),
    ("machine", &[]),
    ("exit_status", &[]),
    ("files", &[]),
    ("progress", &[]),
    ("net", &["game", "files"]),
    ("search", &["game", "net"]),
    (
        "solve",
        &[
            "game",
            "runs",
            "exit_status",
            "lines",
            "files",
            "machine",
            "progress",
        ],
    ),
    ("engine", &["game", "net", "search", "solve", "machine"]),
    (
        "protocol",
        &[
            "game",
            "net",
            "search",
            "solve",
            "engine",
            "machine",
            "lines",
            "exit_status",
        ],
    ),
    ("client", &["game", "lines"]),
    ("record", &["game", "client", "files"]),
    ("runs", &["exit_status"]),
    (
        "analyse",
        &[
            "game",
            "client",
            "record",
            "runs",
            "exit_status",
            "progress",
        ],
    ),
    (
        "referee",
        &[
            "game",
            "client",
            "record",
            "stats",
            "runs",
            "exit_status",
            "lines",
            "files",
            "progress",
        ],
    ),
    (
        "gui",
        &[
            "game",
            "client",
            "record",
            "analyse",
            "exit_status",
            "lines",
            "machine",
        ],
    ),
    (
        "datagen",
        &[
            "game",
            "net",
            "search",
            "record",
            "runs",
            "exit_status",
            "machine",
            "lines",
            "files",
            "progress",
        ],
    ),
    (
        "train",
        &[
            "game",
            "net",
            "datagen",
            "runs",
            "exit_status",
            "lines",
            "files",
        ],
    ),
    ("wdl", &["game", "datagen", "runs"]),
    ("stats", &[]),
    (
        "learn",
        &[
            "game",
            "net",
            "datagen",
            "stats",
            "record",
            "runs",
            "exit_status",
            "files",
            "progress",
        ],
    ),
];

fn src() -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR")).join("src")
}

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
    files.sort();
    files
}

/// The module path of a file under `src/` (`src/client/go.rs` is `["client", "go"]`).
fn module_of(root: &Path, file: &Path) -> Vec<String> {
    let mut parts: Vec<String> = file
        .strip_prefix(root)
        .expect("a file under src")
        .with_extension("")
        .iter()
        .map(|p| p.to_string_lossy().into_owned())
        .collect();
    if matches!(parts.last().map(String::as_str), Some("mod" | "lib")) {
        parts.pop();
    }
    parts
}

/// The room of a file: its folder under `src/`, or its stem for a top-level file.
fn room_of(root: &Path, file: &Path) -> String {
    let rel = file.strip_prefix(root).expect("a file under src");
    let first = rel.iter().next().expect("a path").to_string_lossy();
    first.trim_end_matches(".rs").to_string()
}

/// The code of a file without comments and without its trailing `#[cfg(test)] mod tests`.
fn code_of(text: &str) -> String {
    let text = match text.find("#[cfg(test)]\nmod tests") {
        Some(at) => &text[..at],
        None => text,
    };
    text.lines()
        .map(|line| match line.find("//") {
            Some(at) => &line[..at],
            None => line,
        })
        .collect::<Vec<_>>()
        .join("\n")
}

fn is_ident(c: char) -> bool {
    c.is_ascii_alphanumeric() || c == '_'
}

/// Every `crate::…`/`super::…` path of `code` as its segments, a `::{a, b::c}` group split
/// into one path per member (first segment of each member).
fn paths_in(code: &str) -> Vec<Vec<String>> {
    let mut found = Vec::new();
    let bytes = code.as_bytes();
    let mut i = 0;
    while i < code.len() {
        let rest = &code[i..];
        let starts = (rest.starts_with("crate::") || rest.starts_with("super::"))
            && (i == 0 || !is_ident(bytes[i - 1] as char) && bytes[i - 1] != b':');
        if !starts {
            i += rest.chars().next().map_or(1, char::len_utf8);
            continue;
        }
        let mut segments = Vec::new();
        let mut j = i;
        loop {
            let len = code[j..]
                .find(|c: char| !is_ident(c))
                .unwrap_or(code.len() - j);
            segments.push(code[j..j + len].to_string());
            j += len;
            if code[j..].starts_with("::{") {
                let close = code[j..].find('}').map_or(code.len(), |c| j + c);
                for member in code[j + 3..close].split(',') {
                    let first = member.trim().split("::").next().unwrap_or("").trim();
                    if !first.is_empty() && first != "self" && first != "*" {
                        let mut path = segments.clone();
                        path.push(first.to_string());
                        found.push(path);
                    }
                }
                segments.clear();
                j = close;
                break;
            }
            if code[j..].starts_with("::") && code[j + 2..].starts_with(is_ident) {
                j += 2;
            } else {
                break;
            }
        }
        if !segments.is_empty() {
            found.push(segments);
        }
        i = j.max(i + 1);
    }
    found
}

/// The source tree read once: files, their modules and what their `mod.rs` re-export.
struct Tree {
    root: PathBuf,
    files: Vec<PathBuf>,
    by_module: BTreeMap<Vec<String>, PathBuf>,
    reexports: BTreeMap<(Vec<String>, String), Vec<String>>,
}

impl Tree {
    fn read(root: &Path) -> Tree {
        let files = rust_files(root);
        let mut by_module = BTreeMap::new();
        let mut reexports = BTreeMap::new();
        for file in &files {
            let module = module_of(root, file);
            let code = code_of(&fs::read_to_string(file).expect("readable file"));
            for line in code.lines() {
                let line = line.trim();
                let Some(rest) = line
                    .strip_prefix("pub use ")
                    .or_else(|| line.strip_prefix("pub(crate) use "))
                else {
                    continue;
                };
                let Some((child, names)) = rest.split_once("::") else {
                    continue;
                };
                let names = names.trim_end_matches(';').trim_matches(['{', '}']);
                for name in names.split(',') {
                    let name = name.trim();
                    if !name.is_empty() && is_ident_word(name) {
                        let mut target = module.clone();
                        target.push(child.to_string());
                        reexports.insert((module.clone(), name.to_string()), target);
                    }
                }
            }
            by_module.insert(module, file.clone());
        }
        Tree {
            root: root.to_path_buf(),
            files,
            by_module,
            reexports,
        }
    }

    /// The file a path (absolute module segments) names: the longest prefix that is a file,
    /// followed through a re-export of the next segment.
    fn file_of(&self, path: &[String]) -> Option<&PathBuf> {
        for k in (1..=path.len()).rev() {
            let module = path[..k].to_vec();
            if let Some(file) = self.by_module.get(&module) {
                if let Some(next) = path.get(k)
                    && let Some(target) = self.reexports.get(&(module.clone(), next.clone()))
                {
                    return self.by_module.get(target).or(Some(file));
                }
                return Some(file);
            }
        }
        None
    }

    /// Every file each file imports from (itself and test files left out).
    fn imports(&self) -> BTreeMap<PathBuf, BTreeSet<PathBuf>> {
        let mut graph = BTreeMap::new();
        for file in &self.files {
            let mut targets = BTreeSet::new();
            if !file.ends_with("tests.rs") {
                let module = module_of(&self.root, file);
                let code = code_of(&fs::read_to_string(file).expect("readable file"));
                for path in paths_in(&code) {
                    let absolute = absolute(&module, &path);
                    if let Some(target) = self.file_of(&absolute)
                        && target != file
                    {
                        targets.insert(target.clone());
                    }
                }
            }
            graph.insert(file.clone(), targets);
        }
        graph
    }
}

fn is_ident_word(s: &str) -> bool {
    !s.is_empty() && s.chars().all(is_ident)
}

/// A `crate::`/`super::` path made absolute from the module that writes it.
fn absolute(module: &[String], path: &[String]) -> Vec<String> {
    if path[0] == "crate" {
        return path[1..].to_vec();
    }
    // `super` drops the module's last segment (in `a/b.rs` and in `a/b/mod.rs` alike).
    let mut base = module.to_vec();
    let mut rest = path;
    while rest.first().is_some_and(|s| s == "super") {
        base.pop();
        rest = &rest[1..];
    }
    base.extend(rest.iter().cloned());
    base
}

/// The sets of two or more files that import each other in a circle (Tarjan's algorithm).
fn circles(graph: &BTreeMap<PathBuf, BTreeSet<PathBuf>>) -> Vec<Vec<PathBuf>> {
    struct State<'a> {
        graph: &'a BTreeMap<PathBuf, BTreeSet<PathBuf>>,
        index: BTreeMap<&'a PathBuf, usize>,
        low: BTreeMap<&'a PathBuf, usize>,
        stack: Vec<&'a PathBuf>,
        found: Vec<Vec<PathBuf>>,
    }
    fn visit<'a>(s: &mut State<'a>, v: &'a PathBuf) {
        let n = s.index.len();
        s.index.insert(v, n);
        s.low.insert(v, n);
        s.stack.push(v);
        for w in s.graph.get(v).into_iter().flatten() {
            if !s.index.contains_key(w) {
                visit(s, w);
                let low = s.low[v].min(s.low[w]);
                s.low.insert(v, low);
            } else if s.stack.contains(&w) {
                let low = s.low[v].min(s.index[w]);
                s.low.insert(v, low);
            }
        }
        if s.low[v] == s.index[v] {
            let mut component = Vec::new();
            while let Some(w) = s.stack.pop() {
                component.push(w.clone());
                if w == v {
                    break;
                }
            }
            if component.len() > 1 {
                component.sort();
                s.found.push(component);
            }
        }
    }
    let mut state = State {
        graph,
        index: BTreeMap::new(),
        low: BTreeMap::new(),
        stack: Vec::new(),
        found: Vec::new(),
    };
    for v in graph.keys() {
        if !state.index.contains_key(v) {
            visit(&mut state, v);
        }
    }
    state.found
}

#[test]
fn no_files_import_each_other_in_a_circle() {
    let tree = Tree::read(&src());
    let graph = tree.imports();
    let edges: usize = graph.values().map(BTreeSet::len).sum();
    assert!(edges >= 300, "found only {edges} imports between files");
    let found = circles(&graph);
    assert!(found.is_empty(), "files importing each other: {found:#?}");
}

#[test]
fn every_arrow_between_rooms_is_on_the_map() {
    let root = src();
    let tree = Tree::read(&root);
    let allowed: BTreeMap<&str, &[&str]> = ALLOWED.iter().copied().collect();
    let mut rooms = BTreeSet::new();
    for (file, targets) in tree.imports() {
        let from = room_of(&root, &file);
        rooms.insert(from.clone());
        if from == "main" || from == "lib" {
            continue;
        }
        let may = allowed
            .get(from.as_str())
            .unwrap_or_else(|| panic!("room {from} is not on the map (tests/house/layering.rs)"));
        for target in targets {
            let to = room_of(&root, &target);
            assert!(
                to == from || may.contains(&to.as_str()),
                "{} imports {} ({from} -> {to} is not on the map)",
                file.display(),
                target.display()
            );
        }
    }
    assert!(rooms.len() >= 15, "found only the rooms {rooms:?}");
}

#[test]
fn only_the_referee_and_the_binary_import_the_referee() {
    let root = src();
    let tree = Tree::read(&root);
    for (file, targets) in tree.imports() {
        let from = room_of(&root, &file);
        if from == "referee" || from == "main" || from == "lib" {
            continue;
        }
        for target in targets {
            assert_ne!(
                room_of(&root, &target),
                "referee",
                "{} imports {}",
                file.display(),
                target.display()
            );
        }
    }
}

#[test]
fn only_the_client_reads_what_an_engine_prints() {
    // Reading an engine's answers (not writing them: the protocol does that) looks for these.
    let readers = [
        "Some(\"bestmove\")",
        "Some(\"info\")",
        "Some(\"option\")",
        "Some(\"response\")",
        "Some(\"readyok\")",
        "\"ugiok\"",
        "\"uciok\"",
        "strip_prefix(\"info",
        "strip_prefix(\"option ",
        "strip_prefix(\"response",
        "strip_prefix(\"id name",
        "strip_prefix(\"bestmove",
    ];
    let root = src();
    let mut checked = 0;
    for file in rust_files(&root) {
        let room = room_of(&root, &file);
        if room == "client" || room == "protocol" {
            continue;
        }
        let code = code_of(&fs::read_to_string(&file).expect("readable file"));
        for pattern in readers {
            assert!(
                !code.contains(pattern),
                "{} reads engine output ({pattern}); use crate::client",
                file.display()
            );
        }
        checked += 1;
    }
    assert!(checked >= 50, "checked only {checked} files");
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

/// Whether `text` uses `pattern` other than as the tail of `e<pattern>` (`eprintln!`).
fn uses(text: &str, pattern: &str) -> bool {
    text.match_indices(pattern)
        .any(|(i, _)| !text[..i].ends_with('e'))
}

#[test]
fn the_checks_can_fail() {
    assert!(uses("fn f() { println!(\"x\") }", "println!"));
    assert!(!uses("fn f() { eprintln!(\"x\") }", "println!"));
    let paths = paths_in("use crate::a::{b, c::D};\nlet x = super::super::e::f(); // crate::g");
    let strings: Vec<String> = paths.iter().map(|p| p.join("::")).collect();
    assert_eq!(
        strings,
        [
            "crate::a::b",
            "crate::a::c",
            "super::super::e::f",
            "crate::g"
        ]
    );
    assert_eq!(
        paths_in(&code_of("// crate::g\nfn f() {}")),
        Vec::<Vec<String>>::new()
    );
    let abs = absolute(
        &["gui".into(), "web".into(), "app".into()],
        &["super".into(), "session".into(), "Session".into()],
    );
    assert_eq!(abs, ["gui", "web", "session", "Session"]);
    let (a, b, c) = (PathBuf::from("a"), PathBuf::from("b"), PathBuf::from("c"));
    let mut graph = BTreeMap::new();
    graph.insert(a.clone(), BTreeSet::from([b.clone()]));
    graph.insert(b.clone(), BTreeSet::from([c.clone()]));
    graph.insert(c.clone(), BTreeSet::from([a.clone()]));
    assert_eq!(circles(&graph), [vec![a.clone(), b.clone(), c.clone()]]);
    graph.insert(c.clone(), BTreeSet::new());
    assert!(circles(&graph).is_empty());
}
