//! Reading a record file back: its complete game blocks, each with its tags and its text,
//! and where the last complete one ends.

use std::io;
use std::path::Path;

use super::REQUIRED;
use crate::record::game::{GameResult, GameSummary, Termination};

/// One complete game block of a record file.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct RecordedGame {
    /// What the tables need of it.
    pub summary: GameSummary,
    /// Its tags, in file order.
    pub tags: Vec<(String, String)>,
    /// The line its first tag is on (1-based).
    pub line: usize,
    /// The whole block as in the file, from its first tag to its final blank line.
    pub text: String,
    /// The movetext: its lines joined by spaces, line ends (`\n` or `\r\n`) taken off.
    pub movetext: String,
}

impl RecordedGame {
    /// The moves of the movetext, in order: comments, move numbers (`12.`) and the result
    /// left out, and a review's marks (`?`, `!`) taken off the moves.
    pub fn moves(&self) -> Vec<String> {
        tokens(&self.movetext)
            .unwrap_or_default()
            .into_iter()
            .filter(|t| !t.starts_with('{'))
            .filter(|t| !(t.ends_with('.') && t[..t.len() - 1].chars().all(|c| c.is_ascii_digit())))
            .filter(|t| GameResult::from_token(t).is_none() && *t != "*")
            .map(|t| t.trim_end_matches(['?', '!']).to_string())
            .collect()
    }

    /// The comment saying how the game ended (`{…}` after the last move's own comment),
    /// braces included.
    pub fn ending_comment(&self) -> Option<String> {
        let tokens = tokens(&self.movetext)?;
        match tokens.as_slice() {
            [.., a, b, _result] if a.starts_with('{') && b.starts_with('{') => Some(b.to_string()),
            _ => None,
        }
    }

    /// The value of tag `name`, if the block has it.
    pub fn tag(&self, name: &str) -> Option<&str> {
        self.tags
            .iter()
            .find(|(n, _)| n == name)
            .map(|(_, v)| v.as_str())
    }
}

/// What a record file holds: its complete games, in file order, and the byte length of the
/// file up to the end of the last complete game.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct Recovered {
    /// The complete games, in file order.
    pub games: Vec<RecordedGame>,
    /// Bytes up to the end of the last complete game (its final blank line included).
    pub complete_len: u64,
}

/// The largest record file read (a few kilobytes a game: hundreds of thousands of games).
const MAX_RECORD_FILE_BYTES: u64 = 4 << 30;

/// Reads a record file written by [`super::RecordFile`]. A trailing incomplete game (the referee
/// was killed while writing) is ignored (`complete_len` excludes it); any malformed
/// complete-looking block is an error naming the line number. A missing file → `Ok` with no
/// games.
pub fn read_records(path: &Path) -> Result<Recovered, String> {
    let bytes = match crate::files::read_regular(path, MAX_RECORD_FILE_BYTES) {
        Ok(bytes) => bytes,
        Err(e) if e.kind() == io::ErrorKind::NotFound => return Ok(Recovered::default()),
        Err(e) => return Err(format!("{}: {e}", path.display())),
    };
    parse_records(&bytes).map_err(|e| format!("{}: {e}", path.display()))
}

/// The complete (newline-ended) lines of a file, numbered from 1. A last line without its
/// newline is never returned: it is part of a cut-short tail.
struct Lines<'a> {
    bytes: &'a [u8],
    /// Offset just past the last line returned.
    pos: usize,
    number: usize,
}

impl<'a> Lines<'a> {
    fn next(&mut self) -> Result<Option<(usize, &'a str)>, String> {
        let rest = self.bytes.get(self.pos..).unwrap_or_default();
        let Some(len) = rest.iter().position(|&b| b == b'\n') else {
            return Ok(None);
        };
        self.number += 1;
        self.pos += len + 1;
        let line = std::str::from_utf8(&rest[..len])
            .map_err(|_| format!("line {}: not UTF-8 text", self.number))?;
        Ok(Some((self.number, line.strip_suffix('\r').unwrap_or(line))))
    }
}

/// [`read_records`] on the file's bytes.
pub(super) fn parse_records(bytes: &[u8]) -> Result<Recovered, String> {
    let mut lines = Lines {
        bytes,
        pos: 0,
        number: 0,
    };
    let mut recovered = Recovered::default();
    while let Some(game) = parse_block(&mut lines)? {
        recovered.games.push(game);
        recovered.complete_len = lines.pos as u64;
    }
    Ok(recovered)
}

/// Reads the next block; `None` at the end of the file or when the block is cut short.
fn parse_block(lines: &mut Lines) -> Result<Option<RecordedGame>, String> {
    // Blank lines between blocks are tolerated.
    let (start, (first_line, mut line)) = loop {
        let start = lines.pos;
        match lines.next()? {
            None => return Ok(None),
            Some((_, "")) => continue,
            Some(found) => break (start, found),
        }
    };
    let mut number = first_line;
    let mut tags: Vec<(String, String)> = Vec::new();
    while !line.is_empty() {
        let tag = parse_tag(line)
            .ok_or_else(|| format!("line {number}: expected a tag [Name \"value\"]"))?;
        tags.push(tag);
        match lines.next()? {
            None => return Ok(None),
            Some(next) => (number, line) = next,
        }
    }
    let mut movetext = String::new();
    let mut last_line = number + 1;
    loop {
        match lines.next()? {
            None => return Ok(None),
            Some((n, "")) if movetext.is_empty() => {
                return Err(format!("line {n}: the game has no movetext"));
            }
            Some((_, "")) => break,
            Some((n, text)) => {
                movetext.push_str(text);
                movetext.push(' ');
                last_line = n;
            }
        }
    }
    let tag = |name: &str| {
        tags.iter()
            .find(|(n, _)| n == name)
            .map(|(_, v)| v.as_str())
    };
    let at = format!("line {first_line}");
    for name in REQUIRED {
        if tag(name).is_none() {
            return Err(format!("{at}: the game has no {name} tag"));
        }
    }
    let value = |name: &str| tag(name).unwrap_or_default();
    let bad = |name: &str| {
        let why = if name == "Game" {
            " (games are numbered 1, 2, …)"
        } else {
            ""
        };
        format!("{at}: bad {name} tag \"{}\"{why}", value(name))
    };
    let result = GameResult::from_token(value("Result")).ok_or_else(|| bad("Result"))?;
    let game = GameSummary {
        number: value("Game").parse().map_err(|_| bad("Game"))?,
        round: value("Round").parse().map_err(|_| bad("Round"))?,
        p1: value("P1").to_string(),
        p2: value("P2").to_string(),
        result,
        termination: Termination::from_label(value("Termination"))
            .ok_or_else(|| bad("Termination"))?,
        plies: value("PlyCount").parse().map_err(|_| bad("PlyCount"))?,
    };
    if game.number == 0 {
        return Err(bad("Game"));
    }
    match last_token(&movetext) {
        Some(token) if token == result.token() => Ok(Some(RecordedGame {
            summary: game,
            line: first_line,
            text: String::from_utf8_lossy(&lines.bytes[start..lines.pos]).into_owned(),
            tags,
            movetext,
        })),
        Some(token) => Err(format!(
            "line {last_line}: the movetext ends with {token}, not the result {}",
            result.token()
        )),
        None => Err(format!("line {last_line}: a comment is not closed")),
    }
}

/// `[Name "value"]` → `(Name, value)`, unescaped.
fn parse_tag(line: &str) -> Option<(String, String)> {
    let inner = line.strip_prefix('[')?.strip_suffix(']')?;
    let (name, rest) = inner.split_once(' ')?;
    if name.is_empty() || !name.chars().all(|c| c.is_ascii_alphanumeric() || c == '_') {
        return None;
    }
    let mut chars = rest.strip_prefix('"')?.chars();
    let mut value = String::new();
    while let Some(c) = chars.next() {
        match c {
            '\\' => value.push(chars.next()?),
            '"' => return chars.as_str().is_empty().then(|| (name.to_string(), value)),
            c => value.push(c),
        }
    }
    None
}

/// The last token of a movetext (a comment `{…}` is one token); `None` if a comment is not
/// closed or there is no token.
fn last_token(text: &str) -> Option<&str> {
    tokens(text)?.pop()
}

/// The tokens of a movetext (a comment `{…}` is one token); `None` if a comment is not
/// closed.
fn tokens(text: &str) -> Option<Vec<&str>> {
    let mut rest = text.trim_start();
    let mut all = Vec::new();
    while !rest.is_empty() {
        let end = if rest.starts_with('{') {
            rest.find('}')? + 1
        } else {
            rest.find(|c: char| c.is_whitespace() || c == '{')
                .unwrap_or(rest.len())
        };
        all.push(&rest[..end]);
        rest = rest[end..].trim_start();
    }
    Some(all)
}
