//! `ludus solve certify`: the certificate of a finished solve, from its results and the
//! strategy files its shards wrote (see [`Walks`]); its check is [`super::check_run`].

use std::collections::HashSet;
use std::io::Write;
use std::path::{Path, PathBuf};
use std::time::Instant;

use super::board::{Board, Lines};
use super::certificate::Certificate;
use super::frontier::frontier;
use super::prover::Prover;
use super::results::SolveId;
use super::setup::{proven_of, read_complete, write_out};
use super::strategy::{self, Strategy, build_strategy};
use super::symmetry::Symmetries;
use super::table::{ProofTable, check_table_size};
use crate::game::Game;
use crate::game::sight::{Sight, SightSettings};
use crate::runs::RunError;

/// The strategy file a solve appends to (`ludus solve --strategy`).
pub struct Walks {
    file: std::fs::File,
    path: PathBuf,
    done: HashSet<u128>,
    leaf_empties: u32,
    strict: bool,
}

impl Walks {
    /// Opens the strategy file of solve `id`, reading which walks it already holds.
    pub fn open(
        path: &Path,
        id: &SolveId,
        leaf_empties: u32,
        syms: &Symmetries,
    ) -> Result<Walks, String> {
        let done = if std::fs::metadata(path).is_ok_and(|m| m.len() > 0) {
            strategy::check_header(path, id, leaf_empties)?;
            strategy::read(path, id, leaf_empties, syms)?.1
        } else {
            HashSet::new()
        };
        Ok(Walks {
            file: strategy::open_for_append(path, id, leaf_empties)?,
            path: path.to_path_buf(),
            done,
            leaf_empties,
            strict: id.strict,
        })
    }

    /// Walks the proof of frontier position `b` (its result `win`) unless the file has it,
    /// and appends the winner's moves, then `# done`.
    pub fn walk(
        &mut self,
        b: &Board,
        win: bool,
        lines: &Lines,
        syms: &Symmetries,
        table: &mut ProofTable,
        out: &mut dyn Write,
    ) -> Result<(), RunError> {
        let key = syms.canonical(b).key;
        if self.done.contains(&key) {
            return Ok(());
        }
        let started = Instant::now();
        let mut prover = Prover::new(lines, syms, table);
        let walked = build_strategy(
            &[(*b, win)],
            self.leaf_empties,
            lines,
            syms,
            &mut prover,
            &mut |_, _| {},
        )
        .map_err(RunError::Failed)?;
        let mut text = String::new();
        for (&k, &entry) in &walked {
            text.push_str(&strategy::format_line(lines.n, self.strict, k, entry));
            text.push('\n');
        }
        text.push_str(&format!("# done {}\n", b.to_fen(lines.n)));
        self.file
            .write_all(text.as_bytes())
            .and_then(|_| self.file.flush())
            .map_err(|e| RunError::Failed(format!("{}: {e}", self.path.display())))?;
        self.done.insert(key);
        write_out(
            out,
            &format!(
                "  strategy: {} entries, {} nodes, {:.1} s",
                walked.len(),
                prover.nodes,
                started.elapsed().as_secs_f64()
            ),
        )
    }
}

/// Writes the certificate of the solve whose results are `files` (and strategy files
/// `strategies`) to `path`.
pub fn certify(
    files: &[PathBuf],
    strategies: &[PathBuf],
    leaf_empties: u32,
    path: &Path,
    hash: usize,
    out: &mut dyn Write,
) -> Result<(), RunError> {
    let (setup, known) = read_complete(files)?;
    let results = proven_of(&known);
    let top = setup.top(&results);
    let started = Instant::now();
    let (lines, syms) = (&setup.lines, &setup.syms);
    let mut strategy = Strategy::new();
    let mut walked = HashSet::new();
    for file in strategies {
        let (s, done) =
            strategy::read(file, &setup.id, leaf_empties, syms).map_err(RunError::Refused)?;
        strategy.extend(s);
        walked.extend(done);
    }
    // Claims: every position (one per symmetry class) from the root down to the frontier, so
    // that the book knows the winner's move after any first moves; above the frontier the
    // winner's move is the minimax's.
    let n = setup.id.size;
    let mut claims = Vec::new();
    let mut unwalked = Vec::new();
    for depth in 0..=setup.id.frontier {
        for (key, b) in frontier(&setup.root, depth, lines, syms) {
            let p = top
                .value(&b, depth)
                .ok_or_else(|| RunError::failed("a frontier position has no result"))?;
            claims.push((b.to_fen(n), p.win));
            if depth == setup.id.frontier {
                if !walked.contains(&key) {
                    unwalked.push((b, p.win));
                }
            } else if let (true, Some(m), true) =
                (p.win, p.best, b.empty_count(lines) > leaf_empties)
            {
                let c = syms.canonical(&b);
                strategy.insert(c.key, (syms.map_move(c.sym, m), p.dist));
            }
        }
    }
    claims.sort();
    claims.dedup();
    write_out(
        out,
        &format!(
            "certify {}: {} claims, leaves at {leaf_empties} empty points or fewer; {} strategy entries read, {} frontier proofs to walk",
            setup.id.root,
            claims.len(),
            strategy.len(),
            unwalked.len()
        ),
    )?;
    let mut nodes = 0;
    if !unwalked.is_empty() {
        check_table_size(hash).map_err(RunError::Refused)?;
        let mut table = ProofTable::new(hash)
            .ok_or_else(|| RunError::Failed(format!("cannot allocate a {hash} MiB table")))?;
        let mut prover = Prover::new(lines, syms, &mut table);
        let mut progress = |done: usize, entries: usize| {
            let _ = writeln!(
                out,
                "[{done}/{}] {entries} strategy entries, {:.0} s",
                unwalked.len(),
                started.elapsed().as_secs_f64()
            );
            let _ = out.flush();
        };
        let more = build_strategy(
            &unwalked,
            leaf_empties,
            lines,
            syms,
            &mut prover,
            &mut progress,
        )
        .map_err(RunError::Failed)?;
        strategy.extend(more);
        nodes = prover.nodes;
    }
    // The root is named when it is not the empty board (the default a certificate means).
    let settings = SightSettings {
        size: n,
        strict_tallest: setup.id.strict,
    };
    let empty = Board::from_sight(&Sight::start(&settings)).map(|b| b.to_fen(n));
    let cert = Certificate {
        size: n,
        strict: setup.id.strict,
        leaf_empties,
        root: (empty.as_ref() != Some(&setup.id.root)).then(|| setup.id.root.clone()),
        claims,
        strategy,
    };
    // Written beside, then renamed: an interrupted run never leaves half a certificate.
    let partial = path.with_extension("partial");
    let written = std::fs::File::create(&partial).and_then(|f| {
        let mut w = std::io::BufWriter::new(f);
        cert.write(&mut w)?;
        w.flush()
    });
    written
        .and_then(|_| std::fs::rename(&partial, path))
        .map_err(|e| RunError::Failed(format!("{}: {e}", path.display())))?;
    let bytes = std::fs::metadata(path).map_or(0, |m| m.len());
    write_out(
        out,
        &format!(
            "certificate {}: {} claims, {} strategy entries, {bytes} bytes; {nodes} nodes, {:.1} s",
            path.display(),
            cert.claims.len(),
            cert.strategy.len(),
            started.elapsed().as_secs_f64()
        ),
    )
}
