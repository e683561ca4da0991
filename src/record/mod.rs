//! Game records, shared by the referee, the front ends, `ludus analyse` and datagen: what is
//! kept of a game ([`game`]), where it starts ([`Opening`]) and the record file.
//!
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
//! 1. c3 {+35/7 0.101s of 10.000s} b2 {-20/6 0.098s of 10.000s}
//! 2. d4 {+M3/9 0.250s of 10.000s} {Player two has no legal move} 1-0
//!
//! ```
//!
//! The referee adds the match's identity after `PlyCount` (see
//! `referee::identity`): `Rules`, `Engine1`, `Engine2`, … (one per engine: name,
//! command, arguments, protocol, options, limits, time margin), `Openings` (and
//! `OpeningsFile` with an openings file), `Seed`, `Schedule`, `Adjudication` and `Shard`, e.g.
//!
//! ```text
//! [Rules "none"]
//! [Engine1 "name=new cmd=/home/me/ludus proto=ugi limits=10+0.1 timemargin=0"]
//! [Engine2 "name=old cmd=/home/me/old proto=ugi option.Hash=64 limits=10+0.1 timemargin=0"]
//! [Openings "random plies=2"]
//! [Seed "1"]
//! [Schedule "round-robin engines=2 rounds=100"]
//! [Adjudication "none"]
//! [Shard "1/1"]
//! ```
//!
//! A block is the tags (`[Name "value"]`, one a line, `\` and `"` in values escaped with a
//! backslash, control characters written as spaces), a blank line, the movetext and a blank
//! line. The movetext numbers the ply pairs (`N.` before every odd ply) and follows every
//! move with a comment `{score/depth time of budget}`: the mover's last reported score
//! (`+35`, `-M2`, `?` if none), its depth (`?` if none; `score/depth ` left out when the mover
//! gave neither, as for a person's move on the web), the time the referee measured from
//! `go` to `bestmove`, and the time the mover had for the move (its clock before the move, or
//! the fixed move time; margin excluded; ` of …` left out when the move had no time limit),
//! both in seconds. A time at or past its budget is a move on the flag. Then
//! comes a comment saying how the game ended (the record's `detail`, braces written as
//! parentheses; left out when empty) and the result token. Lines are at most 80 characters,
//! broken between moves; only a comment longer than a line is broken inside, between words.
//!
//! A game is complete when its whole block, final blank line included, is in the file. One
//! write appends a block, so only the last block can be cut short (by a kill); reading
//! ignores such a tail and [`truncate`] drops it before more games are appended.

use std::fs::{File, OpenOptions};
use std::io::{self, Write};
use std::path::{Path, PathBuf};

pub mod game;
mod opening;
mod read;
#[cfg(test)]
mod tests;

pub use game::{GameRecord, GameResult, GameSummary, MoveRecord, Termination, today};
pub use opening::Opening;
pub use read::{RecordedGame, Recovered, parse_record_text, read_records};

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
pub fn escape_tag(value: &str) -> String {
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
    format_block(rec, &[])
}

/// [`format_record`] with `extra` tags after the usual ones (the referee's match identity).
pub fn format_block(rec: &GameRecord, extra: &[(String, String)]) -> String {
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
    let extra = extra.iter().map(|(n, v)| (n.as_str(), v.clone()));
    for (name, value) in tags.into_iter().chain(extra) {
        out.push_str(&format!("[{name} \"{}\"]\n", escape_tag(&value)));
    }
    out.push('\n');
    let mut units = Vec::with_capacity(rec.moves.len() + 2);
    for (i, m) in rec.moves.iter().enumerate() {
        let number = if i % 2 == 0 {
            format!("{}. ", i / 2 + 1)
        } else {
            String::new()
        };
        // A move nobody searched (a person's on the web) has neither: only its time is said.
        let searched = match (m.score, m.depth) {
            (None, None) => String::new(),
            (score, depth) => {
                let score = score.map_or_else(|| "?".to_string(), |s| s.to_string());
                let depth = depth.map_or_else(|| "?".to_string(), |d| d.to_string());
                format!("{score}/{depth} ")
            }
        };
        let seconds = |ms: u64| format!("{}.{:03}s", ms / 1000, ms % 1000);
        let budget = m
            .budget_ms
            .map_or_else(String::new, |b| format!(" of {}", seconds(b)));
        let text = movetext_safe(&m.text);
        units.push(format!(
            "{number}{text} {{{searched}{}{budget}}}",
            seconds(m.time_ms)
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
pub fn wrap(units: &[String]) -> String {
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
    tags: Vec<(String, String)>,
}

impl RecordFile {
    /// Opens (creating) `path` for appending; every game gets the `tags` after its own.
    pub fn open(path: &Path, tags: Vec<(String, String)>) -> io::Result<RecordFile> {
        let file = OpenOptions::new().create(true).append(true).open(path)?;
        Ok(RecordFile { file, tags })
    }

    /// Appends one game with a single `write_all`, then flush and `sync_data`, so a killed
    /// referee loses at most the games in progress.
    pub fn append(&mut self, rec: &GameRecord) -> io::Result<()> {
        self.file
            .write_all(format_block(rec, &self.tags).as_bytes())?;
        self.file.flush()?;
        self.file.sync_data()
    }
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

/// Replaces the file's content with `text` atomically: writes `path` + `.tmp`, syncs it and
/// renames it over `path`, so a kill leaves either the old file or the new one.
pub fn replace(path: &Path, text: &str) -> io::Result<()> {
    let mut tmp = path.as_os_str().to_owned();
    tmp.push(".tmp");
    let tmp = PathBuf::from(tmp);
    let mut file = File::create(&tmp)?;
    file.write_all(text.as_bytes())?;
    file.sync_all()?;
    drop(file);
    std::fs::rename(&tmp, path)
}
