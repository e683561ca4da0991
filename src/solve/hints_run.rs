//! `ludus solve hints`: finds the endgame hints of a certificate (see [`super::hints`]), a long
//! run with progress lines, a run file that is its checkpoint (a rerun resumes after the last
//! leaf written) and shards (`--shard K/N`, then `ludus solve hints-merge`).
//!
//! The run walks the engine's own play below the certificate's leaves: from every leaf (a
//! position where the book's winner is to move at `leaf_empties` empty points or fewer), the
//! engine's proof before its search ([`super::endgame::prove_board`]) gives the winner's move
//! and the nodes it took; then every reply of the defender, and the winner's proof again, for
//! `levels` of the winner's moves. Every position whose proof took more than `--min-nodes` is
//! written with its move and node count; the merge keeps those above its `--threshold`.
//!
//! Run file (text, one item per line):
//!
//! ```text
//! # ludus sight hints run v1 size 5 rules official certificate <digest> leaves <n> levels 2 min-nodes 20000 shard 1/4
//! hint→<canonical position>→<move>→<plies>→<nodes>
//! leaf <index>
//! ```
//!
//! (→ marks a tab.) `leaf i` follows the hints of leaf `i` (the index in the certificate's
//! leaves in key order); a rerun keeps what the last `leaf` line closes and proves the rest
//! again.

use std::collections::{BTreeSet, HashSet};
use std::io::Write;
use std::path::Path;
use std::time::{Duration, Instant};

use super::board::{Board, Lines, Move};
use super::certificate::Certificate;
use super::endgame::{RootProof, prove_board};
use super::hints::{MAX_RUN_BYTES, RunId};
use super::prover::Limit;
use super::results::rules_name;
use super::strategy::format_line;
use super::symmetry::{Symmetries, board_of_key};
use crate::runs::{RunError, Shard};

/// A position whose proof was expensive: its canonical key, the winner's move in the
/// canonical frame, the plies of the proof's line and the nodes the proof took.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Found {
    /// Canonical key.
    pub key: u128,
    /// The winning move (canonical frame) and the plies of its line.
    pub entry: (Move, u8),
    /// Prover nodes of the engine's proof.
    pub nodes: u64,
}

/// The certificate's leaves in key order, each in its canonical frame: the positions with at
/// most `leaf_empties` empty points that one reply leads to from a position of the strategy
/// after its winning move, the winner to move and not out of moves.
pub fn leaves(cert: &Certificate, lines: &Lines, syms: &Symmetries) -> Vec<Board> {
    let mut found = BTreeSet::new();
    let mut replies = Vec::new();
    for (&key, &(m, _)) in &cert.strategy {
        let after = board_of_key(key, lines.points, cert.strict).play(lines, m);
        after.moves(lines, &mut replies);
        for &r in &replies {
            let leaf = after.play(lines, r);
            let c = syms.canonical(&leaf);
            if leaf.empty_count(lines) <= cert.leaf_empties
                && !cert.strategy.contains_key(&c.key)
                && leaf.move_count(lines) > 0
            {
                found.insert(c.key);
            }
        }
    }
    found
        .into_iter()
        .map(|k| board_of_key(k, lines.points, cert.strict))
        .collect()
}

/// The expensive positions of the winner's play below `leaf` (see the module's comment),
/// skipping positions in `seen` (and adding those proven); an error if the winner's proof
/// finds a position of the walk lost, which a sound certificate never leads to.
pub fn walk_leaf(
    leaf: &Board,
    id: &RunId,
    lines: &Lines,
    syms: &Symmetries,
    seen: &mut HashSet<u128>,
    proven: &mut u64,
) -> Result<Vec<Found>, String> {
    let unlimited = Limit {
        nodes: u64::MAX,
        stop: None,
        also_stop: None,
        deadline: None,
    };
    let mut found = Vec::new();
    let mut level = vec![*leaf];
    let mut replies = Vec::new();
    for depth in 0..id.levels {
        let mut next = Vec::new();
        for b in &level {
            let c = syms.canonical(b);
            if !seen.insert(c.key) {
                continue;
            }
            let outcome = prove_board(b, lines, syms, unlimited)
                .ok_or("the proof table's memory is not there")?;
            *proven += 1;
            let RootProof::Wins(m, plies) = outcome.result else {
                return Err(format!(
                    "{}: the winner's side does not win here; the certificate is wrong",
                    b.to_fen(lines.n)
                ));
            };
            if outcome.nodes > id.min_nodes {
                found.push(Found {
                    key: c.key,
                    entry: (syms.map_move(c.sym, m), plies),
                    nodes: outcome.nodes,
                });
            }
            if depth + 1 == id.levels {
                continue;
            }
            let after = b.play(lines, m);
            after.moves(lines, &mut replies);
            next.extend(
                replies
                    .iter()
                    .map(|&r| after.play(lines, r))
                    .filter(|q| q.move_count(lines) > 0),
            );
        }
        level = next;
    }
    Ok(found)
}

/// The leaves a run file already holds (its `leaf` lines), after checking its header; the
/// file is cut back to the end of the last `leaf` line, so that the rerun appends after it.
fn resume(path: &Path, header: &str) -> Result<BTreeSet<usize>, String> {
    let name = path.display();
    let text =
        crate::files::read_regular_text(path, MAX_RUN_BYTES).map_err(|e| format!("{name}: {e}"))?;
    let mut done = BTreeSet::new();
    let mut keep = 0;
    let mut offset = 0;
    for (n, line) in text.split_inclusive('\n').enumerate() {
        offset += line.len();
        if !line.ends_with('\n') {
            break;
        }
        let line = line.trim_end_matches('\n');
        let bad = |why: &str| format!("{name}: line {}: {why}: '{line}'", n + 1);
        if n == 0 {
            if line != header {
                return Err(bad("the run file of another run or shard"));
            }
            keep = offset;
        } else if let Some(index) = line.strip_prefix("leaf ") {
            done.insert(index.parse().map_err(|_| bad("not a leaf number"))?);
            keep = offset;
        } else if !line.starts_with("hint\t") {
            return Err(bad("not a hints run line"));
        }
    }
    if keep < text.len() {
        let file = std::fs::OpenOptions::new()
            .write(true)
            .open(path)
            .map_err(|e| format!("{name}: {e}"))?;
        file.set_len(keep as u64)
            .map_err(|e| format!("{name}: {e}"))?;
    }
    Ok(done)
}

/// What `ludus solve hints` is asked to do.
pub struct HintsPlan<'a> {
    /// The certificate file.
    pub cert: &'a Path,
    /// The run file (created, or resumed).
    pub out: &'a Path,
    /// The winner's moves walked below each leaf.
    pub levels: u32,
    /// Positions whose proof took more nodes than this are written.
    pub min_nodes: u64,
    /// The share of the leaves to walk.
    pub shard: Option<Shard>,
    /// Time between progress lines.
    pub progress: Duration,
}

/// Runs `ludus solve hints`: walks this shard's leaves not yet in the run file, appending to it.
pub fn run(plan: &HintsPlan, out: &mut dyn Write) -> Result<(), RunError> {
    let bytes = crate::files::read_regular(plan.cert, super::check_run::MAX_CERTIFICATE_BYTES)
        .map_err(|e| RunError::refused(format!("{}: {e}", plan.cert.display())))?;
    let cert = Certificate::read(&mut bytes.as_slice())
        .map_err(|e| RunError::refused(format!("{}: {e}", plan.cert.display())))?;
    if !(1..=4).contains(&plan.levels) {
        return Err(RunError::refused("--levels must be 1 to 4"));
    }
    let lines = Lines::new(cert.size).ok_or_else(|| RunError::refused("bad board size"))?;
    let syms = Symmetries::new(&lines);
    let all = leaves(&cert, &lines, &syms);
    let id = RunId {
        size: cert.size,
        strict: cert.strict,
        digest: crate::files::fnv1a64(&bytes),
        leaves: all.len(),
        levels: plan.levels,
        min_nodes: plan.min_nodes,
    };
    let shard = plan.shard.unwrap_or(Shard { index: 1, count: 1 });
    let header = id.header(shard);
    let exists = std::fs::metadata(plan.out).is_ok_and(|m| m.len() > 0);
    let done = if exists {
        resume(plan.out, &header).map_err(RunError::Refused)?
    } else {
        BTreeSet::new()
    };
    let mut file = std::fs::OpenOptions::new()
        .create(true)
        .append(true)
        .open(plan.out)
        .map_err(|e| RunError::failed(format!("{}: {e}", plan.out.display())))?;
    let write = |file: &mut std::fs::File, text: &str| {
        file.write_all(text.as_bytes())
            .map_err(|e| RunError::failed(format!("{}: {e}", plan.out.display())))
    };
    if !exists {
        write(&mut file, &format!("{header}\n"))?;
    }
    let mine: Vec<usize> = (0..all.len())
        .filter(|&i| shard.contains(i as u64) && !done.contains(&i))
        .collect();
    super::setup::write_out(
        out,
        &format!(
            "hints {}×{} {} rules: {} leaves, shard {shard}: {} to walk, {} already walked; \
             levels {}, positions over {} nodes written to {}",
            cert.size,
            cert.size,
            rules_name(cert.strict),
            all.len(),
            mine.len(),
            done.iter().filter(|&&i| shard.contains(i as u64)).count(),
            plan.levels,
            plan.min_nodes,
            plan.out.display()
        ),
    )?;
    let started = Instant::now();
    let mut last = started;
    let (mut seen, mut proven, mut hints) = (HashSet::new(), 0u64, 0u64);
    for (walked, &i) in mine.iter().enumerate() {
        let found = walk_leaf(&all[i], &id, &lines, &syms, &mut seen, &mut proven)
            .map_err(RunError::Failed)?;
        let mut text = String::new();
        for f in &found {
            let line = format_line(cert.size, cert.strict, f.key, f.entry);
            text.push_str(&format!("hint\t{line}\t{}\n", f.nodes));
        }
        text.push_str(&format!("leaf {i}\n"));
        write(&mut file, &text)?;
        hints += found.len() as u64;
        if last.elapsed() >= plan.progress || walked + 1 == mine.len() {
            last = Instant::now();
            let secs = started.elapsed().as_secs_f64();
            let left = (mine.len() - walked - 1) as f64 * secs / (walked + 1) as f64;
            super::setup::write_out(
                out,
                &format!(
                    "hints: {} of {} leaves walked, {proven} positions proven, {hints} written, \
                     {secs:.0} s, about {left:.0} s to go",
                    walked + 1,
                    mine.len()
                ),
            )?;
        }
    }
    Ok(())
}
