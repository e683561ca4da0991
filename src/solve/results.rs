//! The results file of a solve: a header naming the solve, then one line per proven frontier
//! position, appended and flushed as each proof ends, so an interrupted run loses only the
//! proof under way and a rerun goes on after the last line. Text, tab-separated:
//!
//! ```text
//! # ludus solve results v1
//! # size 5 rules official frontier 2 root 5:x5/x5/x5/x5/x5 w
//! 5:x5/x5/x2,b,x2/x5/w,x4 w→win→15→c2→123456→789
//! ```
//!
//! (→ marks a tab.)
//!
//! Columns: the frontier position (in its canonical frame), `win` or `loss` for its side to
//! move, the plies of the line its proof follows, the winning (or longest-resisting) move or
//! `-`, nodes, milliseconds. Shards of one solve write files with the same header; `ludus
//! solve merge` reads any number of them.

use std::collections::HashMap;
use std::fmt::Write as _;
use std::io::{BufReader, Write};
use std::path::Path;

use super::board::{Board, Move};
use super::symmetry::Symmetries;
use super::table::Proven;
use crate::game::Game;
use crate::game::sight::geometry::geometry;
use crate::game::sight::{Sight, SightSettings};

/// The first line of every results file.
pub const MAGIC: &str = "# ludus solve results v1";

/// The longest line of a results or strategy file (a position, its result and a few numbers:
/// a few hundred bytes). A longer one is not a results line: a file of other bytes is refused
/// at its first line instead of being read to its end as one.
pub const MAX_LINE_BYTES: usize = 64 << 10;

/// The word for a rule variant in headers: `strict` (`strict_tallest`) or `official`.
pub fn rules_name(strict: bool) -> &'static str {
    if strict { "strict" } else { "official" }
}

/// The rule variant a header word names.
pub fn parse_rules(word: &str) -> Option<bool> {
    match word {
        "strict" => Some(true),
        "official" => Some(false),
        _ => None,
    }
}

/// What identifies a solve: results of different solves never mix.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct SolveId {
    /// Board side.
    pub size: usize,
    /// The `strict_tallest` variant.
    pub strict: bool,
    /// Frontier depth.
    pub frontier: u32,
    /// The root position's notation.
    pub root: String,
}

impl SolveId {
    /// The header line after [`MAGIC`].
    pub fn header(&self) -> String {
        let rules = rules_name(self.strict);
        format!(
            "# size {} rules {rules} frontier {} root {}",
            self.size, self.frontier, self.root
        )
    }
}

/// One proven frontier position.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Line {
    /// The position's canonical key.
    pub key: u128,
    /// Its result (the move in the canonical frame).
    pub proven: Proven,
    /// Nodes its proof took.
    pub nodes: u64,
    /// Milliseconds its proof took.
    pub ms: u64,
}

/// A move in Sight's notation on an N×N board (`c3`, `b2-c3`).
pub fn move_name(n: usize, m: Move) -> String {
    let name = |p: u8| {
        let file = (b'a' + (p as usize % n) as u8) as char;
        format!("{file}{}", p as usize / n + 1)
    };
    if m.is_placement() {
        name(m.to)
    } else {
        format!("{}-{}", name(m.from), name(m.to))
    }
}

/// A move in Sight's notation on an N×N board, as the solver's [`Move`].
pub fn parse_move(n: usize, s: &str) -> Option<Move> {
    let g = geometry(n)?;
    let point = |s: &str| g.parse_square(s).map(|p| p as u8);
    match s.split_once('-') {
        Some((from, to)) => Some(Move {
            from: point(from)?,
            to: point(to)?,
        }),
        None => Some(Move {
            from: Move::PLACE,
            to: point(s)?,
        }),
    }
}

/// Formats one results line for the position `b` (canonical) of an N×N board.
pub fn format_line(n: usize, b: &Board, line: &Line) -> String {
    let mut s = b.to_fen(n);
    let p = &line.proven;
    let result = if p.win { "win" } else { "loss" };
    let best = p.best.map_or("-".to_string(), |m| move_name(n, m));
    let _ = write!(
        s,
        "\t{result}\t{}\t{best}\t{}\t{}",
        p.dist, line.nodes, line.ms
    );
    s
}

/// Reads the results of `path` for the solve `id`: an error naming the file and line if it
/// belongs to another solve or a line is malformed.
pub fn read(path: &Path, id: &SolveId, syms: &Symmetries) -> Result<Vec<Line>, String> {
    let file = crate::files::open_regular(path).map_err(|e| format!("{}: {e}", path.display()))?;
    let mut lines = Vec::new();
    let settings = SightSettings {
        size: id.size,
        strict_tallest: id.strict,
    };
    for (i, text) in crate::files::bounded_lines(BufReader::new(file), MAX_LINE_BYTES).enumerate() {
        let text = text.map_err(|e| format!("{}: {e}", path.display()))?;
        let at = || format!("{}:{}", path.display(), i + 1);
        match i {
            0 if text != MAGIC => return Err(format!("{}: not a ludus solve results file", at())),
            1 if text != id.header() => {
                return Err(format!(
                    "{}: results of another solve ('{text}', this one is '{}')",
                    at(),
                    id.header()
                ));
            }
            0 | 1 => continue,
            _ if text.trim().is_empty() => continue,
            _ => {}
        }
        let bad = |why: &str| format!("{}: {why}: '{text}'", at());
        let cols: Vec<&str> = text.split('\t').collect();
        let [fen, result, dist, best, nodes, ms] = cols[..] else {
            return Err(bad("expected 6 tab-separated columns"));
        };
        let pos = Sight::from_fen(fen, &settings).map_err(|e| bad(&e.to_string()))?;
        let b = Board::from_sight(&pos).ok_or_else(|| bad("not a position the solver takes"))?;
        let c = syms.canonical(&b);
        let win = match result {
            "win" => true,
            "loss" => false,
            _ => return Err(bad("the result is 'win' or 'loss'")),
        };
        let dist = dist.parse().map_err(|_| bad("bad distance"))?;
        let best = match best {
            "-" => None,
            s => Some(parse_move(id.size, s).ok_or_else(|| bad("bad move"))?),
        };
        let best = best.map(|m| syms.map_move(c.sym, m));
        lines.push(Line {
            key: c.key,
            proven: Proven { win, dist, best },
            nodes: nodes.parse().map_err(|_| bad("bad node count"))?,
            ms: ms.parse().map_err(|_| bad("bad time"))?,
        });
    }
    Ok(lines)
}

/// The solve a results file belongs to, from its header (its first two lines: nothing more
/// of the file is read).
pub fn read_id(path: &Path) -> Result<SolveId, String> {
    let shown = |e: std::io::Error| format!("{}: {e}", path.display());
    let file = crate::files::open_bounded(path, 4 << 30).map_err(shown)?;
    let mut lines = crate::files::bounded_lines(BufReader::new(file), MAX_LINE_BYTES);
    let first = lines.next().transpose().map_err(shown)?;
    if first.as_deref() != Some(MAGIC) {
        return Err(format!(
            "{}: not a ludus solve results file",
            path.display()
        ));
    }
    let header = lines.next().transpose().map_err(shown)?.unwrap_or_default();
    let bad = || format!("{}: bad header '{header}'", path.display());
    let words: Vec<&str> = header.split(' ').collect();
    match words[..] {
        [
            "#",
            "size",
            size,
            "rules",
            rules,
            "frontier",
            frontier,
            "root",
            board,
            side,
        ] => Ok(SolveId {
            size: size.parse().map_err(|_| bad())?,
            strict: parse_rules(rules).ok_or_else(bad)?,
            frontier: frontier.parse().map_err(|_| bad())?,
            root: format!("{board} {side}"),
        }),
        _ => Err(bad()),
    }
}

/// Opens `path` for appending results of `id`, writing the header if the file is new or
/// empty. An existing file must belong to the same solve (see [`read`]).
pub fn open_for_append(path: &Path, id: &SolveId) -> Result<std::fs::File, String> {
    append_with_header(path, &format!("{MAGIC}\n{}", id.header()))
}

/// Opens `path` for appending, writing `header` (and a newline) first if the file is new or
/// empty.
pub fn append_with_header(path: &Path, header: &str) -> Result<std::fs::File, String> {
    let fresh = std::fs::metadata(path).map_or(true, |m| m.len() == 0);
    let mut file = std::fs::OpenOptions::new()
        .create(true)
        .append(true)
        .open(path)
        .map_err(|e| format!("{}: {e}", path.display()))?;
    if fresh {
        writeln!(file, "{header}").map_err(|e| format!("{}: {e}", path.display()))?;
    }
    Ok(file)
}

/// The results of several files by key; the same position twice must agree.
pub fn merge(all: Vec<Line>) -> Result<HashMap<u128, Line>, String> {
    let mut by_key: HashMap<u128, Line> = HashMap::new();
    for line in all {
        if let Some(old) = by_key.get(&line.key)
            && old.proven.win != line.proven.win
        {
            return Err(format!(
                "two results disagree on one position (key {:x})",
                line.key
            ));
        }
        by_key.insert(line.key, line);
    }
    Ok(by_key)
}
