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
//! The root is the position the certificate is about: its claim is the certificate's result
//! (who wins from there, what `ludus solve check` reports proven), the other claims are the
//! positions below it down to the solve's frontier. A `# root` line after the header names it
//! when it is not the empty board (a solve with `--fen`: `# root 5:x5/x5/x5/x5/x2,w,x2 b`);
//! without the line (every certificate of the empty board, and those written before the line
//! was) the root is the empty board of the header's size, White to move. Every position is on
//! the header's board.
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
    /// The position the certificate is about (its `# root` line); `None`: the empty board.
    pub root: Option<String>,
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

    /// The rules the certificate's positions are played under.
    pub fn settings(&self) -> SightSettings {
        SightSettings {
            size: self.size,
            strict_tallest: self.strict,
        }
    }

    /// The root position: the `# root` line's, or the empty board.
    pub fn root_position(&self) -> Result<Sight, String> {
        match &self.root {
            Some(fen) => Sight::from_fen(fen, &self.settings()).map_err(|e| format!("{fen}: {e}")),
            None => Ok(Sight::start(&self.settings())),
        }
    }

    /// Writes the certificate (strategy in key order, so equal certificates are equal files).
    pub fn write(&self, out: &mut dyn Write) -> std::io::Result<()> {
        writeln!(out, "{MAGIC}\n{}", self.header())?;
        if let Some(root) = &self.root {
            writeln!(out, "# root {root}")?;
        }
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
        let settings = cert.settings();
        // A position of this certificate's board (notation names its own size, and an empty
        // 3×3 board would otherwise pass for the empty 5×5 one).
        let position = |fen: &str| -> Result<(), String> {
            let pos = Sight::from_fen(fen, &settings).map_err(|e| e.to_string())?;
            if pos.size() == settings.size {
                Ok(())
            } else {
                Err(format!(
                    "a {0}×{0} position in a {1}×{1} certificate",
                    pos.size(),
                    settings.size
                ))
            }
        };
        while let Some((n, text)) = next()? {
            let bad = |why: &str| format!("line {n}: {why}: '{text}'");
            if let Some(fen) = text.strip_prefix("# root ") {
                if cert.root.is_some() || !cert.claims.is_empty() || !cert.strategy.is_empty() {
                    return Err(bad("the root is named once, before the claims"));
                }
                position(fen).map_err(|why| bad(&why))?;
                cert.root = Some(fen.to_string());
                continue;
            }
            if let Some(rest) = text.strip_prefix("claim ") {
                let (fen, result) = rest.rsplit_once(' ').ok_or_else(|| bad("no result"))?;
                let win = match result {
                    "win" => true,
                    "loss" => false,
                    _ => return Err(bad("the result is 'win' or 'loss'")),
                };
                position(fen).map_err(|why| bad(&why))?;
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

#[cfg(test)]
mod tests {
    use super::*;

    fn read(text: &str) -> Result<Certificate, String> {
        Certificate::read(&mut text.as_bytes())
    }

    #[test]
    fn the_root_is_the_empty_board_unless_a_root_line_names_it() {
        let head = "# ludus sight certificate v1\n# size 3 rules official leaf-empties 0\n";
        let plain = read(&format!("{head}claim 3:x3/x3/x3 w win\n")).unwrap();
        assert_eq!(plain.root, None);
        let start = Sight::start(&plain.settings());
        assert_eq!(plain.root_position().unwrap().to_fen(), start.to_fen());
        let text = format!("{head}# root 3:x3/x,w,x/x3 b\nclaim 3:x3/x,w,x/x3 b loss\n");
        let named = read(&text).unwrap();
        assert_eq!(named.root.as_deref(), Some("3:x3/x,w,x/x3 b"));
        assert_eq!(named.root_position().unwrap().to_fen(), "3:x3/x,w,x/x3 b");
        let mut written = Vec::new();
        named.write(&mut written).unwrap();
        assert_eq!(String::from_utf8(written).unwrap(), text);
        let mut written = Vec::new();
        plain.write(&mut written).unwrap();
        assert!(!String::from_utf8(written).unwrap().contains("# root"));
    }

    #[test]
    fn a_root_line_after_the_claims_or_twice_is_refused() {
        let head = "# ludus sight certificate v1\n# size 3 rules official leaf-empties 0\n";
        let late = format!("{head}claim 3:x3/x3/x3 w win\n# root 3:x3/x3/x3 w\n");
        assert!(
            read(&late)
                .unwrap_err()
                .contains("line 4: the root is named once")
        );
        let twice = format!("{head}# root 3:x3/x3/x3 w\n# root 3:x3/x3/x3 w\n");
        assert!(
            read(&twice)
                .unwrap_err()
                .contains("line 4: the root is named once")
        );
    }

    #[test]
    fn a_position_on_another_board_is_refused() {
        let head = "# ludus sight certificate v1\n# size 5 rules official leaf-empties 25\n";
        let claim = format!("{head}claim 3:x3/x3/x3 w win\n");
        assert_eq!(
            read(&claim).unwrap_err(),
            "line 3: a 3×3 position in a 5×5 certificate: 'claim 3:x3/x3/x3 w win'"
        );
        let root = format!("{head}# root 4:x4/x4/x4/x4 w\n");
        assert!(
            read(&root)
                .unwrap_err()
                .contains("a 4×4 position in a 5×5 certificate")
        );
    }
}
