//! `ludus solve hints-check`: a hints file ([`super::hints`]) checked against its certificate
//! by walking the leaves again as `ludus solve hints` does, every slow position's hint compared
//! with the engine's own move and judged by the certificate checker's exhaustive search.

use std::io::Write;

use super::board::{Board, Lines, Move};
use super::hints::Hints;
use super::strategy::format_line;
use super::symmetry::Symmetries;
use crate::progress::Progress;
use crate::runs::RunError;

/// Whether `m` wins in the position `b`, judged by the certificate checker's plain exhaustive
/// search on the game's own rules ([`super::check::Exhaustive`]), not by the prover: the move
/// is legal and leaves the opponent no move or a lost position.
fn judge(
    b: &Board,
    m: Move,
    size: usize,
    exhaustive: &mut super::check::Exhaustive,
) -> Result<(), String> {
    use crate::game::Game;
    let mv = super::results::move_name(size, m);
    let fen = b.to_fen(size);
    let mut pos = b
        .to_sight(size)
        .ok_or_else(|| format!("{fen}: not a position"))?;
    pos.try_play_str(&mv)
        .map_err(|e| format!("{fen}: the hint {mv} is not legal: {e}"))?;
    if pos.count_moves_for(pos.side_to_move()) > 0 && exhaustive.wins(&pos) {
        return Err(format!("{fen}: the hint {mv} loses"));
    }
    Ok(())
}

/// `ludus solve hints-check`: walks the certificate's leaves (all, shard K of N of them, or
/// `sample` of them chosen by its seed) as `ludus solve hints` does. Every position of the walk whose proof takes
/// more nodes than the file's threshold must be a hint giving the engine's own move, and that
/// move must win by exhaustive search ([`judge`]).
pub fn check(
    file: &std::path::Path,
    cert_path: &std::path::Path,
    sample: Option<(usize, u64)>,
    shard: Option<crate::runs::Shard>,
    out: &mut dyn Write,
) -> Result<(), RunError> {
    use rand::SeedableRng;
    use rand::seq::IndexedRandom;
    let read = |path: &std::path::Path| {
        crate::files::read_regular(path, super::check_run::MAX_CERTIFICATE_BYTES)
            .map_err(|e| RunError::refused(format!("{}: {e}", path.display())))
    };
    let bytes = read(file)?;
    let hints =
        Hints::read(&bytes).map_err(|e| RunError::refused(format!("{}: {e}", file.display())))?;
    let cert_bytes = read(cert_path)?;
    let digest = crate::files::fnv1a64(&cert_bytes);
    if digest != hints.id.digest {
        return Err(RunError::failed(format!(
            "{}: the hints of another certificate than {} (digest {:016x}, not {digest:016x})",
            file.display(),
            cert_path.display(),
            hints.id.digest
        )));
    }
    let cert = super::certificate::Certificate::read(&mut cert_bytes.as_slice())
        .map_err(|e| RunError::refused(format!("{}: {e}", cert_path.display())))?;
    let lines = Lines::new(cert.size).ok_or_else(|| RunError::refused("bad board size"))?;
    let syms = Symmetries::new(&lines);
    let leaves = super::hints_run::leaves(&cert, &lines, &syms);
    let chosen: Vec<&Board> = match sample {
        Some((n, seed)) => {
            let mut rng = rand::rngs::SmallRng::seed_from_u64(seed);
            leaves.sample(&mut rng, n).collect()
        }
        None => leaves
            .iter()
            .enumerate()
            .filter(|&(i, _)| shard.is_none_or(|s| s.contains(i as u64)))
            .map(|(_, leaf)| leaf)
            .collect(),
    };
    let mut exhaustive = super::check::Exhaustive::default();
    let (mut seen, mut proven, mut judged) = (std::collections::HashSet::new(), 0, 0);
    let started = std::time::Instant::now();
    let mut progress = Progress::stderr("solve hints-check", "leaves", Some(chosen.len() as u64));
    for (i, leaf) in chosen.iter().enumerate() {
        let found =
            super::hints_run::walk_leaf(leaf, &hints.id, &lines, &syms, &mut seen, &mut proven)
                .map_err(RunError::Failed)?;
        for f in found {
            let b = super::symmetry::board_of_key(f.key, lines.points, cert.strict);
            let line = format_line(cert.size, cert.strict, f.key, f.entry);
            match hints.probe(&b, &lines, &syms) {
                Some(hint) if hint == f.entry => {}
                Some(_) => {
                    return Err(RunError::failed(format!(
                        "{line}: the hint is another move"
                    )));
                }
                None => {
                    return Err(RunError::failed(format!(
                        "{line}: the proof takes {} nodes but the position is no hint",
                        f.nodes
                    )));
                }
            }
            judge(&b, f.entry.0, cert.size, &mut exhaustive).map_err(RunError::Failed)?;
            judged += 1;
        }
        let note = format!("{proven} positions proven, {judged} hints judged");
        progress.update(i as u64 + 1, &note);
    }
    progress.finish();
    let what = if chosen.len() == leaves.len() {
        format!("all {} leaves", leaves.len())
    } else if let (Some(shard), None) = (shard, sample) {
        format!(
            "shard {shard} ({} of the {} leaves; the others are not checked here)",
            chosen.len(),
            leaves.len()
        )
    } else {
        format!(
            "a sample of {} of the {} leaves",
            chosen.len(),
            leaves.len()
        )
    };
    super::setup::write_out(
        out,
        &format!(
            "hints hold below {what}: {proven} positions proven, every one over {} nodes a \
             hint with the engine's move, {judged} hints judged winning by exhaustive search \
             ({} nodes), {:.0} s",
            hints.id.min_nodes,
            exhaustive.nodes,
            started.elapsed().as_secs_f64()
        ),
    )
}
