//! The record file: every finished game as a PGN-like text block, appended and flushed as
//! soon as the game ends, so that a killed referee loses at most the games in progress and a
//! restarted one reads back what was played ([`read_records`]) and carries on.
//!
//! # Format
//!
//! ```text
//! [Event "ludus match"]
//! [Date "2026.11.21"]
//! [Round "1"]
//! [Game "1"]
//! [Variant "sight"]
//! [P1 "new"]
//! [P2 "old"]
//! [Opening "startpos moves c3"]
//! [OpeningFEN "5:x5/x5/x2,w,x2/x5/x5 b"]
//! [TimeControl "10+0.1"]
//! [Result "1-0"]
//! [Termination "rules"]
//! [PlyCount "3"]
//!
//! 1. c3 {+35/7 0.101s} b2 {-20/6 0.098s} 2. d4 {+M3/9 0.250s}
//! {Player two has no legal move} 1-0
//!
//! ```
//!
//! A block is the tags (`[Name "value"]`, one a line, `\` and `"` in values escaped with a
//! backslash, control characters written as spaces), a blank line, the movetext and a blank
//! line. The movetext numbers the ply pairs (`N.` before every odd ply) and follows every
//! move with a comment `{score/depth time}`: the mover's last reported score (`+35`, `-M2`,
//! `?` if none), its depth (`?` if none) and the time the referee measured, in seconds. Then
//! comes a comment saying how the game ended (the record's `detail`, braces written as
//! parentheses; left out when empty) and the result token. Lines are at most 80 characters,
//! broken between moves; only a comment longer than a line is broken inside, between words.
//!
//! A game is complete when its whole block, final blank line included, is in the file. One
//! write appends a block, so only the last block can be cut short (by a kill); reading
//! ignores such a tail and [`truncate`] drops it before more games are appended.

use std::fs::{File, OpenOptions};
use std::io::{self, Write};
use std::path::Path;

use super::game_record::{GameRecord, GameResult, GameSummary, Termination};

/// The longest movetext line, where the moves allow.
const WIDTH: usize = 80;

/// Tags every complete block must have (the ones [`GameSummary`] is read from).
const REQUIRED: [&str; 7] = [
    "Game",
    "Round",
    "P1",
    "P2",
    "Result",
    "Termination",
    "PlyCount",
];

/// A tag value with `\` and `"` escaped and control characters (line breaks) as spaces.
fn escape_tag(value: &str) -> String {
    let mut out = String::with_capacity(value.len());
    for c in value.chars() {
        match c {
            '\\' | '"' => {
                out.push('\\');
                out.push(c);
            }
            c if c.is_control() => out.push(' '),
            c => out.push(c),
        }
    }
    out
}

/// Text that cannot open or close a comment nor break a line: braces become parentheses,
/// control characters spaces.
fn movetext_safe(text: &str) -> String {
    text.chars()
        .map(|c| match c {
            '{' => '(',
            '}' => ')',
            c if c.is_control() => ' ',
            c => c,
        })
        .collect()
}

/// The text block of one game (tags, blank line, movetext, blank line).
pub fn format_record(rec: &GameRecord) -> String {
    let tags = [
        ("Event", rec.event.clone()),
        ("Date", rec.date.clone()),
        ("Round", rec.round.to_string()),
        ("Game", rec.number.to_string()),
        ("Variant", rec.variant.clone()),
        ("P1", rec.p1.clone()),
        ("P2", rec.p2.clone()),
        ("Opening", rec.opening.clone()),
        ("OpeningFEN", rec.opening_fen.clone()),
        ("TimeControl", rec.time_control.clone()),
        ("Result", rec.result.token().to_string()),
        ("Termination", rec.termination.label().to_string()),
        ("PlyCount", rec.moves.len().to_string()),
    ];
    let mut out = String::new();
    for (name, value) in &tags {
        out.push_str(&format!("[{name} \"{}\"]\n", escape_tag(value)));
    }
    out.push('\n');
    let mut units = Vec::with_capacity(rec.moves.len() + 2);
    for (i, m) in rec.moves.iter().enumerate() {
        let number = if i % 2 == 0 {
            format!("{}. ", i / 2 + 1)
        } else {
            String::new()
        };
        let score = m.score.map_or_else(|| "?".to_string(), |s| s.to_string());
        let depth = m.depth.map_or_else(|| "?".to_string(), |d| d.to_string());
        let (secs, ms) = (m.time_ms / 1000, m.time_ms % 1000);
        let text = movetext_safe(&m.text);
        units.push(format!(
            "{number}{text} {{{score}/{depth} {secs}.{ms:03}s}}"
        ));
    }
    let detail = movetext_safe(&rec.detail);
    let detail = detail.trim();
    if !detail.is_empty() {
        units.push(format!("{{{detail}}}"));
    }
    units.push(rec.result.token().to_string());
    out.push_str(&wrap(&units));
    out.push_str("\n\n");
    out
}

/// Joins `units` with spaces into lines of at most [`WIDTH`] characters, breaking between
/// units; a unit longer than a line is broken between its words.
fn wrap(units: &[String]) -> String {
    let mut text = String::new();
    let mut width = 0;
    for unit in units {
        let pieces: Vec<&str> = if unit.chars().count() > WIDTH {
            unit.split_whitespace().collect()
        } else {
            vec![unit.as_str()]
        };
        for piece in pieces {
            let len = piece.chars().count();
            if width > 0 && width + 1 + len > WIDTH {
                text.push('\n');
                width = 0;
            } else if width > 0 {
                text.push(' ');
                width += 1;
            }
            text.push_str(piece);
            width += len;
        }
    }
    text
}

/// The record file, opened for appending.
#[derive(Debug)]
pub struct RecordFile {
    file: File,
}

impl RecordFile {
    /// Opens (creating) `path` for appending.
    pub fn open(path: &Path) -> io::Result<RecordFile> {
        let file = OpenOptions::new().create(true).append(true).open(path)?;
        Ok(RecordFile { file })
    }

    /// Appends one game with a single `write_all`, then flush and `sync_data`, so a killed
    /// referee loses at most the games in progress.
    pub fn append(&mut self, rec: &GameRecord) -> io::Result<()> {
        self.file.write_all(format_record(rec).as_bytes())?;
        self.file.flush()?;
        self.file.sync_data()
    }
}

/// What a record file holds: the summaries of its complete games, in file order, and the
/// byte length of the file up to the end of the last complete game.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct Recovered {
    /// The complete games, in file order.
    pub games: Vec<GameSummary>,
    /// Bytes up to the end of the last complete game (its final blank line included).
    pub complete_len: u64,
}

/// Reads a record file written by [`RecordFile`]. A trailing incomplete game (the referee
/// was killed while writing) is ignored (`complete_len` excludes it); any malformed
/// complete-looking block is an error naming the line number. A missing file → `Ok` with no
/// games.
pub fn read_records(path: &Path) -> Result<Recovered, String> {
    let bytes = match std::fs::read(path) {
        Ok(bytes) => bytes,
        Err(e) if e.kind() == io::ErrorKind::NotFound => return Ok(Recovered::default()),
        Err(e) => return Err(format!("{}: {e}", path.display())),
    };
    parse_records(&bytes).map_err(|e| format!("{}: {e}", path.display()))
}

/// Cuts the file to `len` bytes (drops an incomplete tail before appending more). A missing
/// file cut to 0 bytes is left missing.
pub fn truncate(path: &Path, len: u64) -> io::Result<()> {
    let file = match OpenOptions::new().write(true).open(path) {
        Ok(file) => file,
        Err(e) if e.kind() == io::ErrorKind::NotFound && len == 0 => return Ok(()),
        Err(e) => return Err(e),
    };
    file.set_len(len)?;
    file.sync_data()
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
fn parse_records(bytes: &[u8]) -> Result<Recovered, String> {
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
fn parse_block(lines: &mut Lines) -> Result<Option<GameSummary>, String> {
    // Blank lines between blocks are tolerated.
    let (first_line, mut line) = loop {
        match lines.next()? {
            None => return Ok(None),
            Some((_, "")) => continue,
            Some(found) => break found,
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
    let bad = |name: &str| format!("{at}: bad {name} tag \"{}\"", value(name));
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
        Some(token) if token == result.token() => Ok(Some(game)),
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
    let mut rest = text.trim_start();
    let mut last = None;
    while !rest.is_empty() {
        let end = if rest.starts_with('{') {
            rest.find('}')? + 1
        } else {
            rest.find(|c: char| c.is_whitespace() || c == '{')
                .unwrap_or(rest.len())
        };
        last = Some(&rest[..end]);
        rest = rest[end..].trim_start();
    }
    last
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::referee::game_record::{MoveRecord, ReportedScore};

    fn game(number: u64, p1: &str, p2: &str, plies: usize, detail: &str) -> GameRecord {
        let moves = (0..plies)
            .map(|i| MoveRecord {
                text: format!("m{i}"),
                score: match i % 3 {
                    0 => Some(ReportedScore::Cp(35 - i as i32 * 10)),
                    1 => Some(ReportedScore::Mate(-2)),
                    _ => None,
                },
                depth: (i % 4 != 3).then_some(i as u32 + 1),
                time_ms: 101 + 1000 * i as u64,
            })
            .collect();
        GameRecord {
            event: "ludus match".into(),
            date: "2026.11.21".into(),
            variant: "sight".into(),
            round: number.div_ceil(2) as u32,
            number,
            p1: p1.into(),
            p2: p2.into(),
            opening: "startpos moves c3".into(),
            opening_fen: "5:x5/x5/x2,w,x2/x5/x5 b".into(),
            time_control: "10+0.1".into(),
            moves,
            result: [GameResult::P1Win, GameResult::Draw, GameResult::P2Win][number as usize % 3],
            termination: Termination::ALL[number as usize % 9],
            detail: detail.into(),
        }
    }

    fn three_games() -> Vec<GameRecord> {
        vec![
            game(1, "new", "old", 3, "Player two has no legal move"),
            game(2, "old", "new", 0, ""),
            game(
                3,
                "nëw \"β\"",
                "old\\x",
                37,
                "A {long} detail: engine \"nëw\" sent a move that is not legal here, and then \
                 it crashed, twice",
            ),
        ]
    }

    fn temp(name: &str) -> std::path::PathBuf {
        std::env::temp_dir().join(format!("ludus-record-{}-{name}", std::process::id()))
    }

    #[test]
    fn formats_the_documented_block() {
        let mut rec = game(1, "new", "old", 3, "Player two has no legal move");
        rec.termination = Termination::Rules;
        rec.result = GameResult::P1Win;
        for (m, (text, score, depth, ms)) in rec.moves.iter_mut().zip([
            ("c3", ReportedScore::Cp(35), 7, 101),
            ("b2", ReportedScore::Cp(-20), 6, 98),
            ("d4", ReportedScore::Mate(3), 9, 250),
        ]) {
            *m = MoveRecord {
                text: text.into(),
                score: Some(score),
                depth: Some(depth),
                time_ms: ms,
            };
        }
        let expected = "[Event \"ludus match\"]\n[Date \"2026.11.21\"]\n[Round \"1\"]\n\
            [Game \"1\"]\n[Variant \"sight\"]\n[P1 \"new\"]\n[P2 \"old\"]\n\
            [Opening \"startpos moves c3\"]\n[OpeningFEN \"5:x5/x5/x2,w,x2/x5/x5 b\"]\n\
            [TimeControl \"10+0.1\"]\n[Result \"1-0\"]\n[Termination \"rules\"]\n\
            [PlyCount \"3\"]\n\n1. c3 {+35/7 0.101s} b2 {-20/6 0.098s} 2. d4 {+M3/9 0.250s}\n\
            {Player two has no legal move} 1-0\n\n";
        assert_eq!(format_record(&rec), expected);
    }

    #[test]
    fn round_trips_summaries_and_wraps_lines() {
        let games = three_games();
        let text: String = games.iter().map(format_record).collect();
        let recovered = parse_records(text.as_bytes()).expect("valid file");
        let summaries: Vec<GameSummary> = games.iter().map(GameRecord::summary).collect();
        assert_eq!(recovered.games, summaries);
        assert_eq!(recovered.complete_len, text.len() as u64);
        assert!(text.lines().all(|l| l.chars().count() <= WIDTH), "{text}");
        assert!(text.contains("19. m36 {-325/37 36.101s} {A (long) detail: engine"));
        assert!(text.contains("2. m2 {?/3 2.101s} m3 {+5/? 3.101s}\n3. m4 {-M2/5 4.101s}"));
    }

    #[test]
    fn escapes_quotes_in_tags_and_braces_in_the_detail() {
        let mut rec = game(7, "say \"hi\" \\o/", "old", 1, "bad {move} }{");
        rec.opening = "line\nbreak".into();
        let text = format_record(&rec);
        assert!(text.contains("[P1 \"say \\\"hi\\\" \\\\o/\"]\n"), "{text}");
        assert!(text.contains("[Opening \"line break\"]\n"), "{text}");
        assert!(text.contains("{bad (move) )(} 1/2-1/2\n\n"), "{text}");
        let recovered = parse_records(text.as_bytes()).expect("valid block");
        assert_eq!(recovered.games, vec![rec.summary()]);
    }

    #[test]
    fn a_file_cut_at_any_byte_yields_exactly_the_games_written_whole() {
        let games = three_games();
        let blocks: Vec<String> = games.iter().map(format_record).collect();
        let text = blocks.concat();
        let ends: Vec<usize> = blocks
            .iter()
            .scan(0, |end, b| {
                *end += b.len();
                Some(*end)
            })
            .collect();
        for cut in 0..=text.len() {
            let recovered = parse_records(&text.as_bytes()[..cut])
                .unwrap_or_else(|e| panic!("cut at {cut}: {e}"));
            let whole = ends.iter().filter(|&&end| end <= cut).count();
            let expected: Vec<GameSummary> = games[..whole].iter().map(|g| g.summary()).collect();
            assert_eq!(recovered.games, expected, "cut at {cut}");
            let len = if whole == 0 { 0 } else { ends[whole - 1] };
            assert_eq!(recovered.complete_len, len as u64, "cut at {cut}");
        }
    }

    #[test]
    fn malformed_complete_blocks_are_errors_naming_the_line() {
        let good = format_record(&game(3, "new", "old", 2, "done"));
        let wrong_result = good.replace("1-0\n\n", "0-1\n\n");
        let no_plies = good.replace("[PlyCount \"2\"]\n", "");
        let bad_tag = good.replace("[Variant \"sight\"]", "[Variant sight]");
        let open_comment = good.replace("{done} ", "{done ");
        for (text, message) in [
            (
                wrong_result,
                "line 31: the movetext ends with 0-1, not the result 1-0",
            ),
            (no_plies, "line 17: the game has no PlyCount tag"),
            (bad_tag, "line 21: expected a tag"),
            (open_comment, "line 31: a comment is not closed"),
        ] {
            let text = format!("{good}{text}");
            let err = parse_records(text.as_bytes()).expect_err("malformed");
            assert!(err.starts_with(message), "{err}");
        }
    }

    #[test]
    fn appends_reads_back_and_drops_a_cut_short_tail() {
        let path = temp("append");
        let _ = std::fs::remove_file(&path);
        assert_eq!(read_records(&path), Ok(Recovered::default()));
        truncate(&path, 0).expect("missing file cut to 0");
        let games = three_games();
        let mut file = RecordFile::open(&path).expect("create");
        file.append(&games[0]).expect("append");
        file.append(&games[1]).expect("append");
        drop(file);
        let whole = std::fs::metadata(&path).expect("exists").len();
        let partial = format_record(&games[2]);
        let mut raw = OpenOptions::new().append(true).open(&path).expect("open");
        raw.write_all(&partial.as_bytes()[..200]).expect("write");
        drop(raw);
        let recovered = read_records(&path).expect("readable");
        assert_eq!(recovered.games.len(), 2);
        assert_eq!(recovered.complete_len, whole);
        truncate(&path, recovered.complete_len).expect("truncate");
        RecordFile::open(&path)
            .and_then(|mut f| f.append(&games[2]))
            .expect("append after truncation");
        let recovered = read_records(&path).expect("readable");
        let expected: Vec<GameSummary> = games.iter().map(GameRecord::summary).collect();
        assert_eq!(recovered.games, expected);
        std::fs::remove_file(&path).expect("cleanup");
    }
}
