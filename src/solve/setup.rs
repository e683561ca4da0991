//! What the `ludus solve` commands share: the setup of one solve (its board, symmetries and
//! root, from the command line or from a results file's header), the results of a finished
//! solve read back from its shards' files, and the lines the commands print. `ludus solve`
//! and `merge` ([`super::cli`]), `certify` and `check` ([`super::certify`]) build on it.

use std::collections::HashMap;
use std::io::Write;
use std::path::PathBuf;

use super::board::{Board, Lines};
use super::frontier::{Top, frontier};
use super::results::{self, Line, SolveId};
use super::symmetry::Symmetries;
use super::table::Proven;
use crate::game::Game;
use crate::game::sight::{Sight, SightSettings};
use crate::runs::{self, RunError};

/// The board, its symmetries and the root of one solve.
pub(super) struct Setup {
    /// What identifies the solve (its results files' header).
    pub id: SolveId,
    /// The board's lines.
    pub lines: Lines,
    /// The board's symmetries.
    pub syms: Symmetries,
    /// The position solved.
    pub root: Board,
}

impl Setup {
    /// The solve of the position `fen` (the empty board without it) on a board of side `size`,
    /// split at `frontier` plies below the root; an error says what the solver refuses.
    pub fn new(
        size: usize,
        strict: bool,
        fen: Option<&str>,
        frontier: u32,
    ) -> Result<Setup, String> {
        let lines = Lines::new(size)
            .ok_or_else(|| format!("the solver takes boards of side 2–5, not {size}"))?;
        let settings = SightSettings {
            size,
            strict_tallest: strict,
        };
        let pos = match fen {
            Some(fen) => Sight::from_fen(fen, &settings).map_err(|e| format!("--fen: {e}"))?,
            None => Sight::start(&settings),
        };
        if pos.size() != size {
            return Err(format!(
                "--fen is a {0}×{0} position; say --size {0}",
                pos.size()
            ));
        }
        let root = Board::from_sight(&pos).ok_or_else(|| {
            "--fen: a pile could grow taller than the solver's keys hold (15)".to_string()
        })?;
        let syms = Symmetries::new(&lines);
        let id = SolveId {
            size,
            strict,
            frontier,
            root: root.to_fen(size),
        };
        Ok(Setup {
            id,
            lines,
            syms,
            root,
        })
    }

    /// The minimax above the frontier over `results`.
    pub fn top<'a>(&'a self, results: &'a HashMap<u128, Proven>) -> Top<'a> {
        Top {
            lines: &self.lines,
            syms: &self.syms,
            results,
            plies: self.id.frontier,
        }
    }
}

/// The proven results of `known` by key.
pub(super) fn proven_of(known: &HashMap<u128, Line>) -> HashMap<u128, Proven> {
    known.iter().map(|(k, l)| (*k, l.proven)).collect()
}

/// The solve of `files` and its results, which must cover the whole frontier.
pub(super) fn read_complete(files: &[PathBuf]) -> Result<(Setup, HashMap<u128, Line>), RunError> {
    let id = results::read_id(&files[0]).map_err(RunError::Refused)?;
    let setup =
        Setup::new(id.size, id.strict, Some(&id.root), id.frontier).map_err(RunError::Refused)?;
    let mut all = Vec::new();
    for path in files {
        all.extend(results::read(path, &setup.id, &setup.syms).map_err(RunError::Refused)?);
    }
    let known = results::merge(all).map_err(RunError::Refused)?;
    let positions = frontier(&setup.root, id.frontier, &setup.lines, &setup.syms);
    let missing = positions
        .iter()
        .filter(|(k, _)| !known.contains_key(k))
        .count();
    if missing > 0 {
        return Err(RunError::Refused(format!(
            "{missing} of {} frontier positions have no result in these files",
            positions.len()
        )));
    }
    Ok((setup, known))
}

/// Prints `line` (and a newline) at once; output that cannot be written fails the command
/// with `cannot write the output: the error` (the solve commands' words since they were
/// written; `ludus datagen` and `analyse` say `cannot write: …`).
pub(super) fn write_out(out: &mut dyn Write, line: &str) -> Result<(), RunError> {
    runs::write_text(out, &format!("{line}\n"), "cannot write the output")
}
