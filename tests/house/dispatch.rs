//! A game is its own folder plus one arm per dispatch point (docs/architecture.md, "Adding a
//! game"): this test reads the code of every file under `src/` and of the page's scripts
//! (`gui-adapters/web/*.js`) and fails on a game's name (`isaac`, `Isaac`, `GameId::Isaac`,
//! `Isaac_…`, in any case, for every game of [`GameId::ALL`]) anywhere but
//!
//! - the game's own folder, `src/game/<game>/`, which may name that game only;
//! - the files that are one game's own outside its folder ([`OWN_FILES`]: its board picture,
//!   Isaac's page code, Sight's solver), which may name that game only;
//! - the dispatch points ([`DISPATCH_POINTS`]), where each game has its arm.
//!
//! Comments are not code (doc comments may name a game as an example), nor are the tests in a
//! file: each `#[cfg(test)]` item (a `mod tests`, a helper for tests) and the files `tests.rs`
//! are left out; strings are code (`"isaac"`). The lists are kept exact: every file on them
//! exists and is named in the architecture's "Adding a game" section, and every dispatch point
//! names a game.

use std::fs;
use std::path::{Path, PathBuf};

use ludus::game::GameId;

/// The files (paths from the repository root) where the games meet: each game has its arm here.
const DISPATCH_POINTS: &[(&str, &str)] = &[
    (
        "src/game/mod.rs",
        "GameId: its variants, GameId::ALL, the one runtime dispatch GameId::visit",
    ),
    ("src/net/embedded.rs", "the built-in nets, one file a game"),
    (
        "src/learn/config.rs",
        "the learning loop's defaults by game (and Tactigon's openings book)",
    ),
    (
        "src/gui/svg/mod.rs",
        "the front ends' one dispatch to a game's drawing (Draw)",
    ),
    ("src/gui/web/mod.rs", "the module of a game's own page code"),
    (
        "src/gui/web/assets.rs",
        "the page's files, with a game's own scripts and styles",
    ),
    (
        "gui-adapters/web/notations.js",
        "the page's one dispatch to a notation's own input code",
    ),
];

/// Files outside its folder that are one game's own, and the game: they may name it only.
const OWN_FILES: &[(&str, &str)] = &[
    ("src/gui/svg/isaac.rs", "isaac"),
    ("src/gui/svg/sight.rs", "sight"),
    ("src/gui/svg/tactigon.rs", "tactigon"),
    ("src/gui/web/isaac.rs", "isaac"),
    ("gui-adapters/web/isaac.js", "isaac"),
    ("gui-adapters/web/isaac-ui.js", "isaac"),
    ("src/solve/", "sight"),
];

fn root() -> PathBuf {
    PathBuf::from(env!("CARGO_MANIFEST_DIR"))
}

/// The files under `dir` (recursively) whose names end in `ext`, sorted.
fn files(dir: &Path, ext: &str, recurse: bool) -> Vec<PathBuf> {
    let mut out = Vec::new();
    for entry in fs::read_dir(dir).expect("readable folder") {
        let path = entry.expect("directory entry").path();
        if path.is_dir() {
            if recurse {
                out.extend(files(&path, ext, recurse));
            }
        } else if path.extension().is_some_and(|e| e == ext) {
            out.push(path);
        }
    }
    out.sort();
    out
}

/// What a character of a source file is, once comments are gone.
#[derive(Clone, Copy, PartialEq, Eq)]
enum Kind {
    Code,
    /// Inside a string or character literal.
    Literal,
}

/// The characters of `text` with its comments (`//`, `/* */`) turned into spaces (newlines
/// kept), each marked code or literal. `js`: JavaScript quoting (`'`, `"`, `` ` `` strings)
/// rather than Rust's (`"` strings, raw strings, `'c'` characters and lifetimes).
fn lex(text: &str, js: bool) -> Vec<(char, Kind)> {
    let chars: Vec<char> = text.chars().collect();
    let mut out: Vec<(char, Kind)> = Vec::with_capacity(chars.len());
    let blank = |c: char| if c == '\n' { '\n' } else { ' ' };
    let mut i = 0;
    while i < chars.len() {
        let c = chars[i];
        let next = chars.get(i + 1).copied();
        if c == '/' && next == Some('/') {
            while i < chars.len() && chars[i] != '\n' {
                out.push((' ', Kind::Code));
                i += 1;
            }
        } else if c == '/' && next == Some('*') {
            let mut depth = 0;
            while i < chars.len() {
                if chars[i] == '/' && chars.get(i + 1) == Some(&'*') {
                    // JavaScript's block comments do not nest, Rust's do.
                    depth = if js { 1 } else { depth + 1 };
                    out.extend([(' ', Kind::Code); 2]);
                    i += 2;
                } else if chars[i] == '*' && chars.get(i + 1) == Some(&'/') {
                    depth -= 1;
                    out.extend([(' ', Kind::Code); 2]);
                    i += 2;
                    if depth == 0 {
                        break;
                    }
                } else {
                    out.push((blank(chars[i]), Kind::Code));
                    i += 1;
                }
            }
        } else if let Some(end) = literal_end(&chars, i, js) {
            out.extend(chars[i..end].iter().map(|&c| (c, Kind::Literal)));
            i = end;
        } else {
            out.push((c, Kind::Code));
            i += 1;
        }
    }
    out
}

/// The end (exclusive) of the string or character literal starting at `i`, if one does.
fn literal_end(chars: &[char], i: usize, js: bool) -> Option<usize> {
    let c = chars[i];
    let ident = |k: usize| chars[k].is_alphanumeric() || chars[k] == '_';
    let closing = |quote: char, from: usize| {
        let mut k = from;
        while k < chars.len() && chars[k] != quote {
            k += if chars[k] == '\\' { 2 } else { 1 };
        }
        (k + 1).min(chars.len())
    };
    if js {
        return matches!(c, '\'' | '"' | '`').then(|| closing(c, i + 1));
    }
    match c {
        '"' => Some(closing('"', i + 1)),
        // A raw string: r"…", r#"…"#, br"…".
        'r' if i == 0 || !ident(i - 1) || (chars[i - 1] == 'b' && (i < 2 || !ident(i - 2))) => {
            let hashes = chars[i + 1..].iter().take_while(|&&h| h == '#').count();
            if chars.get(i + 1 + hashes) != Some(&'"') {
                return None;
            }
            let close: Vec<char> = std::iter::once('"')
                .chain(std::iter::repeat_n('#', hashes))
                .collect();
            let from = i + 2 + hashes;
            (from..=chars.len().saturating_sub(close.len()))
                .find(|&k| chars[k..k + close.len()] == close[..])
                .map(|k| k + close.len())
                .or(Some(chars.len()))
        }
        // A character ('x', '\n', '\u{7f}'), not a lifetime ('a).
        '\'' if chars.get(i + 1) == Some(&'\\') => Some(closing('\'', i + 1)),
        '\'' if chars.get(i + 2) == Some(&'\'') => Some(i + 3),
        _ => None,
    }
}

/// Blanks out (newlines kept) every item under `#[cfg(test)]`: up to its first `;` outside
/// brackets, or through the block its first `{` opens.
fn without_tests(mut code: Vec<(char, Kind)>) -> Vec<(char, Kind)> {
    let marker: Vec<char> = "#[cfg(test)]".chars().collect();
    let mut i = 0;
    while i + marker.len() <= code.len() {
        let is_marker = code[i..i + marker.len()]
            .iter()
            .zip(&marker)
            .all(|(&(c, kind), &m)| c == m && kind == Kind::Code);
        if !is_marker {
            i += 1;
            continue;
        }
        let (mut k, mut depth, mut braces) = (i + marker.len(), 0i32, 0i32);
        while k < code.len() {
            let (c, kind) = code[k];
            k += 1;
            if kind == Kind::Literal {
                continue;
            }
            match c {
                '(' | '[' => depth += 1,
                ')' | ']' => depth -= 1,
                ';' if depth == 0 && braces == 0 => break,
                '{' => braces += 1,
                '}' => {
                    braces -= 1;
                    if braces == 0 {
                        break;
                    }
                }
                _ => {}
            }
        }
        for slot in &mut code[i..k] {
            *slot = (if slot.0 == '\n' { '\n' } else { ' ' }, Kind::Code);
        }
        i = k;
    }
    code
}

/// The code of a file as lines: comments and tests left out.
fn code_lines(path: &Path) -> Vec<String> {
    let text = fs::read_to_string(path).expect("readable source file");
    let js = path.extension().is_some_and(|e| e == "js");
    let code = lex(&text, js);
    let code = if js { code } else { without_tests(code) };
    let text: String = code.into_iter().map(|(c, _)| c).collect();
    text.lines().map(str::to_string).collect()
}

/// The games a line of code names (case ignored).
fn games_named(line: &str) -> Vec<&'static str> {
    let lower = line.to_lowercase();
    GameId::ALL
        .iter()
        .map(|g| g.name())
        .filter(|name| lower.contains(name))
        .collect()
}

/// The scanned files, as paths from the repository root.
fn scanned() -> Vec<String> {
    let root = root();
    let mut all = files(&root.join("src"), "rs", true);
    all.extend(files(&root.join("gui-adapters/web"), "js", false));
    all.into_iter()
        .filter(|p| p.file_name().is_none_or(|n| n != "tests.rs"))
        .map(|p| {
            let rel = p.strip_prefix(&root).expect("a file of the repository");
            rel.to_string_lossy().replace('\\', "/")
        })
        .collect()
}

/// The games `path` may name: `None` for all of them.
fn allowed(path: &str) -> Option<Vec<&'static str>> {
    if DISPATCH_POINTS.iter().any(|&(p, _)| p == path) {
        return None;
    }
    let mut games: Vec<&'static str> = OWN_FILES
        .iter()
        .filter(|&&(p, _)| path == p || (p.ends_with('/') && path.starts_with(p)))
        .map(|&(_, game)| game)
        .collect();
    games.extend(
        GameId::ALL
            .iter()
            .map(|g| g.name())
            .filter(|name| path.starts_with(&format!("src/game/{name}/"))),
    );
    Some(games)
}

#[test]
fn games_are_named_only_in_their_folders_and_at_the_dispatch_points() {
    let mut wrong = Vec::new();
    for path in scanned() {
        let allowed = allowed(&path);
        for (n, line) in code_lines(&root().join(&path)).iter().enumerate() {
            let named = games_named(line);
            let stray: Vec<&str> = match &allowed {
                None => Vec::new(),
                Some(games) => named.into_iter().filter(|g| !games.contains(g)).collect(),
            };
            if !stray.is_empty() {
                wrong.push(format!(
                    "{path}:{}: {} ({})",
                    n + 1,
                    line.trim(),
                    stray.join(", ")
                ));
            }
        }
    }
    assert!(
        wrong.is_empty(),
        "a game named outside its folder and the dispatch points (docs/architecture.md, \
         \"Adding a game\"): go through GameId (GameId::visit, GameId::ALL, GameId::from_name, \
         the game's Present), or add the file to the lists of tests/house/dispatch.rs and the \
         architecture:\n{}",
        wrong.join("\n")
    );
}

#[test]
fn the_lists_are_exact_and_documented() {
    let architecture = fs::read_to_string(root().join("docs/architecture.md")).expect("the map");
    let section = architecture
        .split("## Adding a game")
        .nth(1)
        .expect("an \"Adding a game\" section");
    let section = section.split("\n## ").next().unwrap_or(section);
    for &(path, why) in DISPATCH_POINTS {
        let names_a_game = code_lines(&root().join(path))
            .iter()
            .any(|line| !games_named(line).is_empty());
        assert!(
            names_a_game,
            "{path} ({why}) names no game: take it off the list"
        );
        assert!(
            section.contains(&format!("`{path}`")),
            "{path} is not in the architecture's \"Adding a game\""
        );
    }
    for &(path, game) in OWN_FILES {
        assert!(root().join(path).exists(), "{path} does not exist");
        assert!(GameId::from_name(game).is_some(), "{game} is not a game");
        let name = path.trim_end_matches('/');
        assert!(
            section.contains(&format!("`{name}")),
            "{path} is not in the architecture's \"Adding a game\""
        );
    }
}

#[test]
fn comments_and_tests_are_left_out_but_strings_are_not() {
    let code = |text: &str, js: bool| -> String {
        let lexed = lex(text, js);
        let lexed = if js { lexed } else { without_tests(lexed) };
        lexed.into_iter().map(|(c, _)| c).collect()
    };
    let rust = "let a = \"isaac\"; // Sight\n/* Tactigon /* nested */ */ let b = 'x'; let q = '\\'';\n\
                #[cfg(test)]\nfn helper() -> [u8; 2] { [0; 2] }\nlet c = r#\"sight \"q\" \"#;\n\
                #[cfg(test)]\nmod tests { fn t() { let s = \"}\"; GameId::Isaac; } }\nend";
    let stripped = code(rust, false);
    assert_eq!(stripped.lines().count(), rust.lines().count(), "lines kept");
    assert!(stripped.contains("\"isaac\""));
    assert!(stripped.contains("r#\"sight \"q\" \"#"));
    assert!(stripped.contains("'x'") && stripped.ends_with("end"));
    for gone in ["Sight", "Tactigon", "helper", "Isaac", "tests"] {
        assert!(!stripped.contains(gone), "{gone} left in:\n{stripped}");
    }
    let js = "const a = 'isaac'; // sight\nconst u = 'http://x'; /* tactigon */ const t = `${a}`;";
    let stripped = code(js, true);
    assert!(stripped.contains("'isaac'") && stripped.contains("'http://x'"));
    assert!(stripped.contains("`${a}`"));
    assert!(!stripped.contains("sight") && !stripped.contains("tactigon"));
    assert_eq!(
        games_named("GameId::Tactigon, Sight_BoardSize"),
        ["sight", "tactigon"]
    );
}
