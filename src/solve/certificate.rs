//! The certificate of a solve: the claims (the result of the root and of every frontier
//! position) and a winning strategy that proves them, for an independent checker
//! ([`super::check`]) and for the engine's book.
//!
//! The strategy holds one move for every position in the proofs where the winner is to move
//! and more than `leaf_empties` points are empty, each class of symmetric positions once. The
//! loser's replies are not stored: the checker tries them all. Below `leaf_empties` the
//! checker proves positions by exhaustive search. Text, so that it can be read and diffed:
//!
//! ```text
//! # ludus sight certificate v1
//! # size 5 rules official leaf-empties 15
//! claim 5:x5/x5/x5/x5/x5 w win
//! claim 5:x5/x5/x2,b,x2/x5/w,x4 w loss
//! 5:x5/x5/x2,b,x2/x5/w,x4 b→c2→21
//! ```
//!
//! (→ marks a tab.)
//!
//! A strategy line: a position in its canonical frame, the winning move there, and the plies
//! of the line the proof follows from it (the `mate` distance the book reports; an upper bound
//! on the shortest win).

use std::collections::BTreeMap;
use std::io::{BufRead, Write};

use super::board::{Lines, Move};
use super::symmetry::Symmetries;
use crate::game::Game;
use crate::game::sight::{Sight, SightSettings};

/// The first line of every certificate.
pub const MAGIC: &str = "# ludus sight certificate v1";

/// A certificate in memory.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct Certificate {
    /// Board side.
    pub size: usize,
    /// The `strict_tallest` variant.
    pub strict: bool,
    /// Positions with at most this many empty points are left to the checker's search.
    pub leaf_empties: u32,
    /// Positions (in notation) and whether their side to move wins.
    pub claims: Vec<(String, bool)>,
    /// Canonical key → the winning move (canonical frame) and the proof line's plies.
    pub strategy: BTreeMap<u128, (Move, u8)>,
}

impl Certificate {
    /// The rules line after [`MAGIC`].
    fn header(&self) -> String {
        let rules = super::results::rules_name(self.strict);
        format!(
            "# size {} rules {rules} leaf-empties {}",
            self.size, self.leaf_empties
        )
    }

    /// Writes the certificate (strategy in key order, so equal certificates are equal files).
    pub fn write(&self, out: &mut dyn Write) -> std::io::Result<()> {
        writeln!(out, "{MAGIC}\n{}", self.header())?;
        for (fen, win) in &self.claims {
            writeln!(out, "claim {fen} {}", if *win { "win" } else { "loss" })?;
        }
        for (&key, &entry) in &self.strategy {
            writeln!(
                out,
                "{}",
                super::strategy::format_line(self.size, self.strict, key, entry)
            )?;
        }
        Ok(())
    }

    /// Reads a certificate; an error names the line that is wrong.
    pub fn read(input: &mut dyn BufRead) -> Result<Certificate, String> {
        let mut lines = input.lines().enumerate();
        let mut next = || -> Result<Option<(usize, String)>, String> {
            match lines.next() {
                None => Ok(None),
                Some((i, Ok(l))) => Ok(Some((i + 1, l))),
                Some((i, Err(e))) => Err(format!("line {}: {e}", i + 1)),
            }
        };
        match next()? {
            Some((_, l)) if l == MAGIC => {}
            _ => return Err("not a ludus sight certificate".into()),
        }
        let header = next()?.map(|(_, l)| l).unwrap_or_default();
        let words: Vec<&str> = header.split(' ').collect();
        let bad_header = || format!("line 2: bad header '{header}'");
        let mut cert = match words[..] {
            ["#", "size", size, "rules", rules, "leaf-empties", leaf] => Certificate {
                size: size.parse().map_err(|_| bad_header())?,
                strict: super::results::parse_rules(rules).ok_or_else(bad_header)?,
                leaf_empties: leaf.parse().map_err(|_| bad_header())?,
                ..Certificate::default()
            },
            _ => return Err(bad_header()),
        };
        let lines_of = Lines::new(cert.size).ok_or_else(bad_header)?;
        let syms = Symmetries::new(&lines_of);
        let settings = SightSettings {
            size: cert.size,
            strict_tallest: cert.strict,
        };
        while let Some((n, text)) = next()? {
            let bad = |why: &str| format!("line {n}: {why}: '{text}'");
            if let Some(rest) = text.strip_prefix("claim ") {
                let (fen, result) = rest.rsplit_once(' ').ok_or_else(|| bad("no result"))?;
                let win = match result {
                    "win" => true,
                    "loss" => false,
                    _ => return Err(bad("the result is 'win' or 'loss'")),
                };
                Sight::from_fen(fen, &settings).map_err(|e| bad(&e.to_string()))?;
                cert.claims.push((fen.to_string(), win));
                continue;
            }
            let (key, entry) =
                super::strategy::parse_line(&text, &settings, &syms).map_err(|why| bad(&why))?;
            cert.strategy.insert(key, entry);
        }
        Ok(cert)
    }
}
