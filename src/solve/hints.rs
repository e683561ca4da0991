//! Endgame hints: the winner's move in the positions just below a certificate's leaves where
//! the engine's own proof before its search ([`super::endgame::prove_board`]) is too slow for
//! a fast time control. A certificate stops at its leaves (17 empty points on 5×5); below
//! them the engine proves each position before it searches, in a few milliseconds for most,
//! but some leaves need 100,000–300,000 prover nodes, more than `go movetime 50` leaves a
//! loaded core (issue 31, finding 10). `ludus solve hints` walks the engine's own play below
//! every leaf ([`super::hints_run`]) and `ludus solve hints-merge` ([`super::hints_merge`]) keeps the positions whose
//! proof takes more than a threshold of nodes: the book plays those from the hints file at
//! once, and every other position of that play is proven by the engine within the threshold.
//!
//! A hint's move is the engine's own proven move there (the first winning move in the prover's
//! order), so the play below a leaf is the same with the hints as without, only faster; a
//! test judges a sample of hints with the certificate checker's exhaustive search, and `ludus
//! solve hints-check` ([`super::hints_check`]) all of them.
//!
//! Hints file: two text lines, then one 10-byte record a hint, in ascending order of the
//! position's fingerprint (so that a probe is a binary search in the embedded bytes, nothing to
//! parse when the engine starts, and a 5×5 file stays under a megabyte):
//!
//! ```text
//! # ludus sight hints v1
//! # size 5 rules official certificate <digest> leaves 324087 levels 2 threshold 20000 hints <n>
//! ```
//!
//! A record: the [`fingerprint`] of the position's canonical key (8 bytes, little-endian), the
//! winning move's index among the legal moves of the position in its canonical frame
//! ([`Board::moves`]' order), and the plies of the proof's line. A fingerprint is 64 bits of a
//! 126-bit key: `ludus solve hints-merge` refuses two hints with one fingerprint, and a
//! position that is not a hint matches one with a chance of about one in 10¹⁴ per probe (and
//! then only a legal move is played). `<digest>` is the FNV-1a hash of the certificate's bytes:
//! hints made for another certificate are not used.

use std::collections::BTreeMap;
use std::io::Write;

use super::board::{Board, Lines, Move};
use super::results::{parse_rules, rules_name};
use super::strategy::format_line;
use super::symmetry::Symmetries;
use crate::runs::Shard;

/// The first line of a hints file.
pub const MAGIC: &str = "# ludus sight hints v1";

/// The first words of a run file's header.
pub const RUN_MAGIC: &str = "# ludus sight hints run v1";

/// The largest run file read back (a line per hint and per leaf).
pub const MAX_RUN_BYTES: u64 = 1 << 30;

/// Bytes of one hint record.
const RECORD: usize = 10;

/// 64 bits of a canonical key, mixed so that similar positions spread over the range.
pub fn fingerprint(key: u128) -> u64 {
    let mix = |mut z: u64| {
        z = (z ^ (z >> 30)).wrapping_mul(0xbf58_476d_1ce4_e5b9);
        z = (z ^ (z >> 27)).wrapping_mul(0x94d0_49bb_1331_11eb);
        z ^ (z >> 31)
    };
    mix(key as u64 ^ mix((key >> 64) as u64))
}

/// A hints file in memory: its run and its records.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Hints<'a> {
    /// The run the hints come from (its `min_nodes` is the threshold they were kept at).
    pub id: RunId,
    /// The records, [`RECORD`] bytes each, in ascending fingerprint order.
    records: std::borrow::Cow<'a, [u8]>,
}

impl<'a> Hints<'a> {
    /// The header line after [`MAGIC`].
    fn header(&self) -> String {
        format!("# {} hints {}", self.id.words("threshold"), self.len())
    }

    /// How many hints there are.
    pub fn len(&self) -> usize {
        self.records.len() / RECORD
    }

    /// Whether there are none.
    pub fn is_empty(&self) -> bool {
        self.records.is_empty()
    }

    fn fingerprint_at(&self, i: usize) -> u64 {
        let mut fp = [0u8; 8];
        fp.copy_from_slice(&self.records[i * RECORD..i * RECORD + 8]);
        u64::from_le_bytes(fp)
    }

    /// The winning move and the plies of its line in the position `b` (any frame), if it is a
    /// hint; `lines` and `syms` of the hints' board.
    pub fn probe(&self, b: &Board, lines: &Lines, syms: &Symmetries) -> Option<(Move, u8)> {
        let c = syms.canonical(b);
        let fp = fingerprint(c.key);
        let (mut lo, mut hi) = (0, self.len());
        while lo < hi {
            let mid = (lo + hi) / 2;
            if self.fingerprint_at(mid) < fp {
                lo = mid + 1;
            } else {
                hi = mid;
            }
        }
        if lo == self.len() || self.fingerprint_at(lo) != fp {
            return None;
        }
        let record = &self.records[lo * RECORD..(lo + 1) * RECORD];
        let canonical = syms.apply(c.sym, b);
        let mut moves = Vec::new();
        canonical.moves(lines, &mut moves);
        let m = *moves.get(usize::from(record[8]))?;
        Some((syms.unmap_move(c.sym, m), record[9]))
    }

    /// Hints from `(canonical key, (move in the canonical frame, plies))` pairs; an error when
    /// a move is not legal or two positions share a fingerprint.
    pub fn build(id: RunId, moves: &BTreeMap<u128, (Move, u8)>) -> Result<Hints<'static>, String> {
        let lines = Lines::new(id.size).ok_or("bad board size")?;
        let mut rows = Vec::with_capacity(moves.len());
        let mut legal = Vec::new();
        for (&key, &(m, plies)) in moves {
            let b = super::symmetry::board_of_key(key, lines.points, id.strict);
            b.moves(&lines, &mut legal);
            let line = || format_line(id.size, id.strict, key, (m, plies));
            let index = legal
                .iter()
                .position(|&l| l == m)
                .ok_or_else(|| format!("{}: not a legal move", line()))?;
            rows.push((fingerprint(key), index as u8, plies, key));
        }
        rows.sort_unstable();
        if let Some(w) = rows.windows(2).find(|w| w[0].0 == w[1].0) {
            return Err(format!(
                "two hints share the fingerprint {:016x}: {} and {}",
                w[0].0,
                format_line(id.size, id.strict, w[0].3, (Move { from: 0, to: 0 }, 0)),
                format_line(id.size, id.strict, w[1].3, (Move { from: 0, to: 0 }, 0))
            ));
        }
        let mut records = Vec::with_capacity(rows.len() * RECORD);
        for (fp, index, plies, _) in rows {
            records.extend_from_slice(&fp.to_le_bytes());
            records.extend_from_slice(&[index, plies]);
        }
        Ok(Hints {
            id,
            records: records.into(),
        })
    }

    /// Writes the hints file.
    pub fn write(&self, out: &mut dyn Write) -> std::io::Result<()> {
        writeln!(out, "{MAGIC}\n{}", self.header())?;
        out.write_all(&self.records)
    }

    /// Reads a hints file; an error says what is wrong.
    pub fn read(bytes: &'a [u8]) -> Result<Hints<'a>, String> {
        let text_line = |from: usize| -> Result<(&str, usize), String> {
            let end = bytes[from..]
                .iter()
                .position(|&b| b == b'\n')
                .ok_or("not a ludus sight hints file")?;
            let line = std::str::from_utf8(&bytes[from..from + end])
                .map_err(|_| "not a ludus sight hints file")?;
            Ok((line, from + end + 1))
        };
        let (magic, next) = text_line(0)?;
        if magic != MAGIC {
            return Err("line 1: not a ludus sight hints file".into());
        }
        let (header, start) = text_line(next)?;
        let bad_header = || format!("line 2: bad header '{header}'");
        let words: Vec<&str> = header.split(' ').collect();
        let Some((&"#", words)) = words.split_first() else {
            return Err(bad_header());
        };
        let Some((id, &["hints", count])) = RunId::parse(words, "threshold") else {
            return Err(bad_header());
        };
        let count: usize = count.parse().map_err(|_| bad_header())?;
        let records = &bytes[start..];
        if records.len() != count.saturating_mul(RECORD) {
            return Err(format!(
                "{} bytes of records for {count} hints: expected {}",
                records.len(),
                count.saturating_mul(RECORD)
            ));
        }
        let hints = Hints {
            id,
            records: records.into(),
        };
        if (1..hints.len()).any(|i| hints.fingerprint_at(i - 1) >= hints.fingerprint_at(i)) {
            return Err("the hints are not in ascending fingerprint order".into());
        }
        Ok(hints)
    }
}

/// What a hints run is about: everything in its header but the shard.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct RunId {
    /// Board side.
    pub size: usize,
    /// The `strict_tallest` variant.
    pub strict: bool,
    /// FNV-1a digest of the certificate file's bytes.
    pub digest: u64,
    /// How many leaves the certificate has.
    pub leaves: usize,
    /// The winner's moves walked from each leaf (1: the leaf's own).
    pub levels: u32,
    /// Positions whose proof took more nodes than this are written.
    pub min_nodes: u64,
}

impl RunId {
    /// The id from the values of its header words, in the order size, rules, certificate
    /// digest (hex), leaves, levels and nodes; `None` if one is not what it should be.
    /// The words a run file's and a hints file's headers share, `nodes_word` naming the node
    /// count (`min-nodes` in a run file, `threshold` in a hints file).
    fn words(&self, nodes_word: &str) -> String {
        format!(
            "size {} rules {} certificate {:016x} leaves {} levels {} {nodes_word} {}",
            self.size,
            rules_name(self.strict),
            self.digest,
            self.leaves,
            self.levels,
            self.min_nodes
        )
    }

    /// Reads what [`RunId::words`] wrote at the start of `words`; returns the id and the words
    /// after it, `None` if one is not what it should be.
    pub fn parse<'w>(words: &'w [&'w str], nodes_word: &str) -> Option<(RunId, &'w [&'w str])> {
        let [
            "size",
            size,
            "rules",
            rules,
            "certificate",
            digest,
            "leaves",
            leaves,
            "levels",
            levels,
            word,
            nodes,
            rest @ ..,
        ] = words
        else {
            return None;
        };
        let id = RunId {
            size: size.parse().ok()?,
            strict: parse_rules(rules)?,
            digest: u64::from_str_radix(digest, 16).ok()?,
            leaves: leaves.parse().ok()?,
            levels: levels.parse().ok()?,
            min_nodes: nodes.parse().ok()?,
        };
        (*word == nodes_word).then_some((id, rest))
    }

    /// The header line of a run file of shard `shard`.
    pub fn header(&self, shard: Shard) -> String {
        format!("{RUN_MAGIC} {} shard {shard}", self.words("min-nodes"))
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::game::sight::SightSettings;

    /// The 4×4 board: a hint found from any symmetric image of its position gives the move
    /// in that image's frame; other positions are not hints; bad bytes are refused.
    #[test]
    fn hints_are_found_under_the_symmetries_and_bad_files_are_refused() {
        let lines = Lines::new(4).expect("4×4");
        let syms = Symmetries::new(&lines);
        let settings = SightSettings {
            size: 4,
            strict_tallest: false,
        };
        let at = |fen: &str| {
            let pos = <crate::game::sight::Sight as crate::game::Game>::from_fen(fen, &settings)
                .expect("a position");
            Board::from_sight(&pos).expect("a solver board")
        };
        let b = at("4:x4/x,b,w,x/b,w,x2/b,w,b,w w");
        let c = syms.canonical(&b);
        let m = super::super::results::parse_move(4, "a4").expect("a move");
        let mut moves = BTreeMap::new();
        moves.insert(c.key, (syms.map_move(c.sym, m), 7));
        let id = RunId {
            size: 4,
            strict: false,
            digest: 1,
            leaves: 9,
            levels: 2,
            min_nodes: 100,
        };
        let hints = Hints::build(id, &moves).expect("hints");
        let mut bytes = Vec::new();
        hints.write(&mut bytes).expect("written");
        let read = Hints::read(&bytes).expect("read back");
        assert_eq!(read, hints);
        assert_eq!(read.len(), 1);
        assert_eq!(read.probe(&b, &lines, &syms), Some((m, 7)));
        for sym in 0..syms.len() {
            let image = syms.apply(sym, &b);
            let (hint, plies) = read.probe(&image, &lines, &syms).expect("a hint");
            assert_eq!((hint, plies), (syms.map_move(sym, m), 7), "symmetry {sym}");
        }
        assert_eq!(read.probe(&at("4:x4/x4/x4/x4 w"), &lines, &syms), None);
        // An illegal move is refused when the hints are built.
        let illegal = (syms.map_move(c.sym, Move { from: 0, to: 1 }), 7);
        moves.insert(c.key, illegal);
        assert!(Hints::build(read.id.clone(), &moves).is_err());
        // Short records, a bad header, another file.
        assert!(Hints::read(&bytes[..bytes.len() - 1]).is_err());
        assert!(Hints::read(b"# ludus sight hints v1\n# size 4\n").is_err());
        assert!(Hints::read(b"hello").is_err());
    }
}
