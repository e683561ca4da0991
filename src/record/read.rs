//! Reading a record file back: its complete game blocks, each with its tags and its text,
//! and where the last complete one ends.

use std::io::{self, BufRead, BufReader, Read};
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

/// The longest line of a record file: far beyond any tag or movetext line ludus writes (an
/// engine's line is cut at 1 MiB). A longer one is not a record's: a file of other bytes
/// (a sparse file's zeros) is refused at it instead of being read to its end as one line.
pub const MAX_RECORD_LINE_BYTES: usize = 16 << 20;

/// Reads a record file written by [`super::RecordFile`], one line at a time. A trailing
/// incomplete game (the referee was killed while writing) is ignored (`complete_len` excludes
/// it); any malformed complete-looking block, or a line longer than 16 MiB
/// (`MAX_RECORD_LINE_BYTES`), is an error naming the line number. A missing file → `Ok` with
/// no games.
pub fn read_records(path: &Path) -> Result<Recovered, String> {
    let file = match crate::files::open_bounded(path, MAX_RECORD_FILE_BYTES) {
        Ok(file) => file,
        Err(e) if e.kind() == io::ErrorKind::NotFound => return Ok(Recovered::default()),
        Err(e) => return Err(format!("{}: {e}", path.display())),
    };
    read_from(BufReader::new(file)).map_err(|e| format!("{}: {e}", path.display()))
}

/// The complete games of a record's text (a pasted export, a referee's game), read as
/// [`read_records`] reads a file; the last block counts as complete without its final blank
/// line. A game still in progress, as the web page exports one (`[Result "*"]`,
/// `[Termination "unterminated"]`, the movetext ending in `*`), is read too: its summary then
/// says a draw by the rules, which only its moves' readers may ignore.
pub fn parse_record_text(text: &str) -> Result<Vec<RecordedGame>, String> {
    let text = text
        .replace("[Result \"*\"]", "[Result \"1/2-1/2\"]")
        .replace("[Termination \"unterminated\"]", "[Termination \"rules\"]");
    // A movetext's last line (before a blank line or the end) ending in the token `*`.
    let lines: Vec<&str> = text.trim_end().lines().collect();
    let mut whole = String::with_capacity(text.len() + 16);
    for (i, line) in lines.iter().enumerate() {
        let last_of_block = lines.get(i + 1).is_none_or(|next| next.trim().is_empty());
        let open = line.trim_end();
        match open.strip_suffix('*') {
            Some(rest)
                if last_of_block
                    && !open.starts_with('[')
                    && (rest.is_empty() || rest.ends_with(' ')) =>
            {
                whole.push_str(rest);
                whole.push_str("1/2-1/2");
            }
            _ => whole.push_str(line),
        }
        whole.push('\n');
    }
    whole.push('\n');
    read_from(whole.as_bytes()).map(|r| r.games)
}

/// The complete (newline-ended) lines of a file, numbered from 1, read one at a time. A last
/// line without its newline is never returned: it is part of a cut-short tail.
struct Lines<R> {
    input: R,
    /// Bytes up to the end of the last line returned.
    pos: u64,
    number: usize,
    /// The lines returned since [`Lines::mark`], as in the file (line ends included).
    raw: String,
    /// The line being read.
    line: Vec<u8>,
}

impl<R: BufRead> Lines<R> {
    /// Starts a new [`Lines::raw`].
    fn mark(&mut self) {
        self.raw.clear();
    }

    fn next(&mut self) -> Result<Option<(usize, String)>, String> {
        self.line.clear();
        let limit = MAX_RECORD_LINE_BYTES as u64 + 1;
        (&mut self.input)
            .take(limit)
            .read_until(b'\n', &mut self.line)
            .map_err(|e| e.to_string())?;
        if self.line.last() != Some(&b'\n') {
            if self.line.len() > MAX_RECORD_LINE_BYTES {
                return Err(format!(
                    "line {}: longer than {MAX_RECORD_LINE_BYTES} bytes: not a record file",
                    self.number + 1
                ));
            }
            return Ok(None);
        }
        self.number += 1;
        self.pos += self.line.len() as u64;
        let text = std::str::from_utf8(&self.line)
            .map_err(|_| format!("line {}: not UTF-8 text", self.number))?;
        self.raw.push_str(text);
        let text = text.strip_suffix('\n').unwrap_or(text);
        let text = text.strip_suffix('\r').unwrap_or(text);
        Ok(Some((self.number, text.to_string())))
    }
}

/// [`read_records`] on the file's bytes.
#[cfg(test)]
pub(super) fn parse_records(bytes: &[u8]) -> Result<Recovered, String> {
    read_from(bytes)
}

/// [`read_records`] on a file being read.
fn read_from(input: impl BufRead) -> Result<Recovered, String> {
    let mut lines = Lines {
        input,
        pos: 0,
        number: 0,
        raw: String::new(),
        line: Vec::new(),
    };
    let mut recovered = Recovered::default();
    while let Some(game) = parse_block(&mut lines)? {
        recovered.games.push(game);
        recovered.complete_len = lines.pos;
    }
    Ok(recovered)
}

/// Reads the next block; `None` at the end of the file or when the block is cut short.
fn parse_block(lines: &mut Lines<impl BufRead>) -> Result<Option<RecordedGame>, String> {
    // Blank lines between blocks are tolerated.
    let (first_line, mut line) = loop {
        lines.mark();
        match lines.next()? {
            None => return Ok(None),
            Some((_, text)) if text.is_empty() => continue,
            Some(found) => break found,
        }
    };
    let mut number = first_line;
    let mut tags: Vec<(String, String)> = Vec::new();
    while !line.is_empty() {
        let tag = parse_tag(&line)
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
            Some((n, text)) if text.is_empty() && movetext.is_empty() => {
                return Err(format!("line {n}: the game has no movetext"));
            }
            Some((_, text)) if text.is_empty() => break,
            Some((n, text)) => {
                movetext.push_str(&text);
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
            text: std::mem::take(&mut lines.raw),
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
