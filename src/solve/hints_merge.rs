//! `ludus solve hints-merge`: the run files of every shard of one `ludus solve hints` run
//! ([`super::hints_run`]) put together into the hints file ([`super::hints`]) of the positions
//! whose proof took more than a threshold of nodes. Files of another run, a shard missing or
//! given twice, and a shard whose run is unfinished are refused.

use std::collections::{BTreeMap, BTreeSet};
use std::io::Write;
use std::path::PathBuf;

use super::board::{Lines, Move};
use super::hints::{Hints, MAX_RUN_BYTES, RUN_MAGIC, RunId};
use super::strategy::{format_line, parse_line};
use super::symmetry::Symmetries;
use crate::game::sight::SightSettings;
use crate::runs::{RunError, Shard};

/// One run file: its run, shard, leaves walked and hints (move, plies, nodes by key).
struct RunFile {
    id: RunId,
    shard: Shard,
    walked: BTreeSet<usize>,
    hints: Vec<(u128, (Move, u8), u64)>,
}

/// Reads a run file of `ludus solve hints` (only what its last `leaf` line closes).
fn read_run(path: &std::path::Path) -> Result<RunFile, String> {
    let name = path.display();
    let text =
        crate::files::read_regular_text(path, MAX_RUN_BYTES).map_err(|e| format!("{name}: {e}"))?;
    // A last line without its newline (the run was stopped while writing it) is not read.
    let complete = text.rfind('\n').map_or("", |end| &text[..end]);
    let mut lines = complete.lines();
    let header = lines.next().unwrap_or_default();
    let bad_header = || format!("{name}: line 1: not a hints run header: '{header}'");
    let words: Vec<&str> = header
        .strip_prefix(RUN_MAGIC)
        .ok_or_else(bad_header)?
        .split_whitespace()
        .collect();
    let Some((id, &["shard", shard])) = RunId::parse(&words, "min-nodes") else {
        return Err(bad_header());
    };
    let shard: Shard = shard.parse().map_err(|_| bad_header())?;
    let board = Lines::new(id.size).ok_or_else(bad_header)?;
    let syms = Symmetries::new(&board);
    let settings = SightSettings {
        size: id.size,
        strict_tallest: id.strict,
    };
    let (mut walked, mut hints, mut pending) = (BTreeSet::new(), Vec::new(), Vec::new());
    for (n, line) in lines.enumerate() {
        let bad = |why: &str| format!("{name}: line {}: {why}: '{line}'", n + 2);
        if let Some(index) = line.strip_prefix("leaf ") {
            let index: usize = index.parse().map_err(|_| bad("not a leaf number"))?;
            if index >= id.leaves || !shard.contains(index as u64) {
                return Err(bad("a leaf outside this shard"));
            }
            walked.insert(index);
            hints.append(&mut pending);
        } else if let Some(rest) = line.strip_prefix("hint\t") {
            let (strategy, nodes) = rest.rsplit_once('\t').ok_or_else(|| bad("no node count"))?;
            let nodes: u64 = nodes.parse().map_err(|_| bad("not a node count"))?;
            let (key, entry) = parse_line(strategy, &settings, &syms).map_err(|e| bad(&e))?;
            pending.push((key, entry, nodes));
        } else {
            return Err(bad("not a hints run line"));
        }
    }
    Ok(RunFile {
        id,
        shard,
        walked,
        hints,
    })
}

/// `ludus solve hints-merge`: puts the run files of every shard of one run together, keeps
/// the positions whose proof took more than `threshold` nodes and writes the hints file.
pub fn merge(
    files: &[PathBuf],
    threshold: u64,
    path: &std::path::Path,
    out: &mut dyn Write,
) -> Result<(), RunError> {
    let runs = files
        .iter()
        .map(|f| read_run(f))
        .collect::<Result<Vec<_>, _>>()
        .map_err(RunError::Refused)?;
    let first = &runs[0];
    let count = first.shard.count;
    let mut shards = BTreeSet::new();
    for (run, file) in runs.iter().zip(files) {
        let name = file.display();
        if run.id != first.id || run.shard.count != count {
            return Err(RunError::refused(format!(
                "{name}: a run file of another run than {}",
                files[0].display()
            )));
        }
        if !shards.insert(run.shard.index) {
            return Err(RunError::refused(format!(
                "{name}: shard {} is given twice",
                run.shard
            )));
        }
        let missing = (0..first.id.leaves)
            .filter(|&i| run.shard.contains(i as u64) && !run.walked.contains(&i))
            .count();
        if missing > 0 {
            return Err(RunError::refused(format!(
                "{name}: shard {} has {missing} leaves still to walk: run it again to finish",
                run.shard
            )));
        }
    }
    if shards.len() as u64 != count {
        let absent: Vec<String> = (1..=count)
            .filter(|k| !shards.contains(k))
            .map(|k| format!("{k}/{count}"))
            .collect();
        return Err(RunError::refused(format!(
            "shards {} are missing",
            absent.join(", ")
        )));
    }
    if threshold < first.id.min_nodes {
        return Err(RunError::refused(format!(
            "--threshold {threshold} is below the run's --min-nodes {}: the run did not write \
             the positions in between",
            first.id.min_nodes
        )));
    }
    let mut moves: BTreeMap<u128, _> = BTreeMap::new();
    let mut most = 0;
    for &(key, entry, nodes) in runs.iter().flat_map(|r| &r.hints) {
        most = most.max(nodes);
        if nodes <= threshold {
            continue;
        }
        if let Some(&other) = moves.get(&key)
            && other != entry
        {
            return Err(RunError::refused(format!(
                "two moves for one position in the run files: {}",
                format_line(first.id.size, first.id.strict, key, entry)
            )));
        }
        moves.insert(key, entry);
    }
    let id = RunId {
        min_nodes: threshold,
        ..first.id.clone()
    };
    let hints = Hints::build(id, &moves).map_err(RunError::Refused)?;
    let mut file = std::fs::File::create(path)
        .map_err(|e| RunError::failed(format!("{}: {e}", path.display())))?;
    hints
        .write(&mut file)
        .and_then(|()| file.flush())
        .map_err(|e| RunError::failed(format!("{}: {e}", path.display())))?;
    super::setup::write_out(
        out,
        &format!(
            "hints: {} positions over {threshold} nodes (the slowest {most}) of {} leaves' play, \
             {} shards, written to {}",
            hints.len(),
            first.id.leaves,
            count,
            path.display()
        ),
    )
}
