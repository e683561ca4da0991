//! The record of a certificate check (`ludus solve check --record FILE`): one line per claim
//! verified, appended as soon as the claim holds, so a check of many hours survives an
//! interruption (the same command resumes after the claims recorded) and can be split across
//! processes or machines (`--shard K/N`, each with its own record; `cat` the records into one
//! and check again to see every claim covered).
//!
//! Layout (text, one item per line):
//!
//! ```text
//! # ludus check record v1 certificate <digest> claims <n>
//! verified <index> <win|loss> <position>
//! ```
//!
//! Other lines starting with `#` are comments (say, which binary verified the claims).
//!
//! `<digest>` is the FNV-1a hash (64 bits, hex) of the certificate's bytes: a record made for
//! another certificate is refused rather than trusted. A header may appear more than once
//! (records concatenated); every one must name this certificate. A last line without its
//! newline (the process was stopped while writing it) is not counted and is cut off before
//! the next line is appended.
//!
//! A record is trusted, not verified: the digest ties it to a certificate, not to a run, and
//! anyone can write one. `ludus solve check` says how many claims it took from a record, and a
//! check that counts any exits with [`crate::exit_status::ON_RECORD`] (3), never 0.

use std::collections::BTreeSet;
use std::io::Write;
use std::path::{Path, PathBuf};

use super::certificate::Certificate;
pub use crate::files::fnv1a64 as digest;

/// The first words of a record's header line.
const MAGIC: &str = "# ludus check record v1";

/// The largest check record read (a line a claim).
const MAX_RECORD_BYTES: u64 = 1 << 30;

/// A check record open for appending, with the claims it already holds.
pub struct CheckRecord {
    path: PathBuf,
    file: std::fs::File,
    /// Indices of the claims verified in earlier runs.
    pub verified: BTreeSet<usize>,
}

/// The header line of a record of the certificate with `digest` and `claims` claims.
fn header(digest: u64, claims: usize) -> String {
    format!("{MAGIC} certificate {digest:016x} claims {claims}")
}

/// The claims a record's `text` holds for `cert` (whose bytes hash to `digest`).
pub fn parse(text: &str, cert: &Certificate, digest: u64) -> Result<BTreeSet<usize>, String> {
    let expected = header(digest, cert.claims.len());
    let complete = match text.rfind('\n') {
        Some(end) => &text[..end],
        None => "",
    };
    if !complete.is_empty() && !complete.starts_with(MAGIC) {
        return Err("line 1: not a ludus check record".into());
    }
    let mut verified = BTreeSet::new();
    for (n, line) in complete.lines().enumerate() {
        let bad = |why: &str| format!("line {}: {why}: '{line}'", n + 1);
        if line.starts_with(MAGIC) {
            if line != expected {
                return Err(bad("the record of another certificate"));
            }
            continue;
        }
        if line.starts_with('#') {
            continue;
        }
        let mut words = line.splitn(4, ' ');
        let (Some("verified"), Some(index), Some(result), Some(position)) =
            (words.next(), words.next(), words.next(), words.next())
        else {
            return Err(bad("not a check record line"));
        };
        let index: usize = index.parse().map_err(|_| bad("not a claim number"))?;
        let win = match result {
            "win" => true,
            "loss" => false,
            _ => return Err(bad("the result is neither win nor loss")),
        };
        match cert.claims.get(index) {
            Some((p, w)) if p.as_str() == position && *w == win => {
                verified.insert(index);
            }
            _ => return Err(bad("not a claim of this certificate")),
        }
    }
    Ok(verified)
}

impl CheckRecord {
    /// Opens (or starts) the record at `path` for `cert`, whose file bytes hash to `digest`.
    pub fn open(path: &Path, cert: &Certificate, digest: u64) -> Result<CheckRecord, String> {
        let shown = |e: std::io::Error| format!("{}: {e}", path.display());
        let text = match crate::files::read_regular_text(path, MAX_RECORD_BYTES) {
            Ok(text) => text,
            Err(e) if e.kind() == std::io::ErrorKind::NotFound => String::new(),
            Err(e) => return Err(shown(e)),
        };
        let verified =
            parse(&text, cert, digest).map_err(|e| format!("{}: {e}", path.display()))?;
        let whole = text.rfind('\n').map_or(0, |end| end + 1);
        if whole < text.len() {
            // Drop the line cut short, so that the next line starts a line of its own.
            std::fs::OpenOptions::new()
                .write(true)
                .open(path)
                .and_then(|f| f.set_len(whole as u64))
                .map_err(shown)?;
        }
        let mut file = std::fs::OpenOptions::new()
            .create(true)
            .append(true)
            .open(path)
            .map_err(shown)?;
        if !text[..whole].contains(MAGIC) {
            writeln!(file, "{}", header(digest, cert.claims.len())).map_err(shown)?;
        }
        Ok(CheckRecord {
            path: path.to_path_buf(),
            file,
            verified,
        })
    }

    /// Appends claim `index` of `cert` as verified.
    pub fn add(&mut self, cert: &Certificate, index: usize) -> Result<(), String> {
        let (position, win) = &cert.claims[index];
        let line = format!(
            "verified {index} {} {position}\n",
            if *win { "win" } else { "loss" }
        );
        self.file
            .write_all(line.as_bytes())
            .and_then(|()| self.file.flush())
            .map_err(|e| format!("{}: {e}", self.path.display()))
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use std::collections::BTreeMap;

    fn cert() -> Certificate {
        Certificate {
            size: 3,
            strict: false,
            leaf_empties: 0,
            root: None,
            claims: vec![
                ("3:x3/x3/x3 w".to_string(), true),
                ("3:x3/x,w,x/x3 b".to_string(), false),
            ],
            strategy: BTreeMap::new(),
        }
    }

    #[test]
    fn a_record_lists_its_claims_and_drops_a_cut_last_line() {
        let head = header(7, 2);
        let text = format!("{head}\nverified 1 loss 3:x3/x,w,x/x3 b\nverified 0 win 3:x3");
        assert_eq!(parse(&text, &cert(), 7), Ok(BTreeSet::from([1])));
        let twice = format!("{head}\nverified 1 loss 3:x3/x,w,x/x3 b\n{head}\n");
        assert_eq!(parse(&twice, &cert(), 7), Ok(BTreeSet::from([1])));
        assert_eq!(parse("", &cert(), 7), Ok(BTreeSet::new()));
    }

    #[test]
    fn a_record_of_another_certificate_or_claim_is_refused() {
        let line = "verified 1 loss 3:x3/x,w,x/x3 b\n";
        let other = format!("{}\n{line}", header(8, 2));
        assert!(
            parse(&other, &cert(), 7)
                .unwrap_err()
                .contains("another certificate")
        );
        let wrong = format!("{}\nverified 0 loss 3:x3/x3/x3 w\n", header(7, 2));
        assert!(
            parse(&wrong, &cert(), 7)
                .unwrap_err()
                .contains("not a claim")
        );
        let beyond = format!("{}\nverified 5 win 3:x3/x3/x3 w\n", header(7, 2));
        assert!(
            parse(&beyond, &cert(), 7)
                .unwrap_err()
                .contains("not a claim")
        );
        assert!(
            parse(line, &cert(), 7)
                .unwrap_err()
                .contains("not a ludus check record")
        );
    }
}
