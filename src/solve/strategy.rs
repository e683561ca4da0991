//! Strategies: the winner's move in each position of a proof, by canonical key, and the
//! strategy files a solve writes beside its results (`ludus solve --strategy`), so that the
//! proofs are walked while the proof table still holds them; `ludus solve certify` puts the
//! strategy files of all shards into the certificate.
//!
//! A strategy line is a position in its canonical frame, the winning move there and the
//! plies of the line the proof follows, tab-separated. A strategy file has a header naming
//! its solve, then for each frontier position the lines of its proof and a line
//! `# done FEN` once they are all written (a rerun walks again a position without one).

use std::collections::{BTreeMap, HashSet};
use std::io::BufReader;
use std::path::Path;

use super::board::{Board, Lines, Move};
use super::prover::Prover;
use super::results::{SolveId, move_name, parse_move};
use super::symmetry::{Symmetries, board_of_key};
use crate::game::Game;
use crate::game::sight::{Sight, SightSettings};

/// The first line of a strategy file.
pub const MAGIC: &str = "# ludus sight strategy v1";

/// The winner's move (canonical frame) and the proof line's plies, by canonical key.
pub type Strategy = BTreeMap<u128, (Move, u8)>;

/// A strategy line for the position of canonical key `key`.
pub fn format_line(size: usize, strict: bool, key: u128, (m, dist): (Move, u8)) -> String {
    let b = board_of_key(key, size * size, strict);
    format!("{}\t{}\t{dist}", b.to_fen(size), move_name(size, m))
}

/// Reads a strategy line: the canonical key and the move in the canonical frame.
pub fn parse_line(
    text: &str,
    settings: &SightSettings,
    syms: &Symmetries,
) -> Result<(u128, (Move, u8)), String> {
    let cols: Vec<&str> = text.split('\t').collect();
    let [fen, mv, dist] = cols[..] else {
        return Err("expected 3 tab-separated columns".into());
    };
    let pos = Sight::from_fen(fen, settings).map_err(|e| e.to_string())?;
    let b = Board::from_sight(&pos).ok_or("not a solver position")?;
    let c = syms.canonical(&b);
    let m = parse_move(settings.size, mv).ok_or("bad move")?;
    let dist = dist.parse().map_err(|_| "bad distance")?;
    Ok((c.key, (syms.map_move(c.sym, m), dist)))
}

/// The header line of the strategy file of solve `id` with leaves at `leaf_empties`.
fn header(id: &SolveId, leaf_empties: u32) -> String {
    format!("{} leaf-empties {leaf_empties}", id.header())
}

/// Reads a strategy file of solve `id` walked down to `leaf_empties` empty points or fewer
/// (a deeper walk is cut at `leaf_empties`): the strategy and the frontier positions
/// (canonical keys) whose walks are complete.
pub fn read(
    path: &Path,
    id: &SolveId,
    leaf_empties: u32,
    syms: &Symmetries,
) -> Result<(Strategy, HashSet<u128>), String> {
    let file = crate::files::open_regular(path).map_err(|e| format!("{}: {e}", path.display()))?;
    let settings = SightSettings {
        size: id.size,
        strict_tallest: id.strict,
    };
    let lines = Lines::new(id.size).ok_or("a board the solver does not take")?;
    let mut strategy = Strategy::new();
    let mut done = HashSet::new();
    let max = super::results::MAX_LINE_BYTES;
    for (i, text) in crate::files::bounded_lines(BufReader::new(file), max).enumerate() {
        let text = text.map_err(|e| format!("{}: {e}", path.display()))?;
        let bad = |why: &str| format!("{}:{}: {why}: '{text}'", path.display(), i + 1);
        match i {
            0 if text != MAGIC => return Err(bad("not a ludus sight strategy file")),
            1 => {
                let file_leaf = text
                    .strip_prefix(&format!("{} leaf-empties ", id.header()))
                    .and_then(|k| k.parse::<u32>().ok());
                if file_leaf.is_none_or(|k| k > leaf_empties) {
                    return Err(bad(&format!(
                        "the strategy of another solve, or with leaves above {leaf_empties} \
                         empty points (this one is '{}')",
                        header(id, leaf_empties)
                    )));
                }
                continue;
            }
            0 => continue,
            _ if text.trim().is_empty() => continue,
            _ => {}
        }
        if let Some(fen) = text.strip_prefix("# done ") {
            let pos = Sight::from_fen(fen, &settings).map_err(|e| bad(&e.to_string()))?;
            let b = Board::from_sight(&pos).ok_or_else(|| bad("not a solver position"))?;
            done.insert(syms.canonical(&b).key);
            continue;
        }
        let (key, entry) = parse_line(&text, &settings, syms).map_err(|why| bad(&why))?;
        // A walk to fewer empty points holds the walk to more: keep the part above the leaves.
        let b = board_of_key(key, id.size * id.size, id.strict);
        if b.empty_count(&lines) > leaf_empties {
            strategy.insert(key, entry);
        }
    }
    Ok((strategy, done))
}

/// Refuses a strategy file that was not walked to exactly `leaf_empties` for solve `id`
/// (appending other walks to it would leave holes).
pub fn check_header(path: &Path, id: &SolveId, leaf_empties: u32) -> Result<(), String> {
    let file = crate::files::open_regular(path).map_err(|e| format!("{}: {e}", path.display()))?;
    let wanted = header(id, leaf_empties);
    match crate::files::bounded_lines(BufReader::new(file), super::results::MAX_LINE_BYTES).nth(1) {
        Some(Ok(line)) if line == wanted => Ok(()),
        _ => Err(format!(
            "{}: the strategy of another solve or leaf depth (this one is '{wanted}')",
            path.display()
        )),
    }
}

/// Opens the strategy file of solve `id` for appending, writing its header if it is new.
pub fn open_for_append(
    path: &Path,
    id: &SolveId,
    leaf_empties: u32,
) -> Result<std::fs::File, String> {
    super::results::append_with_header(path, &format!("{MAGIC}\n{}", header(id, leaf_empties)))
}

/// Builds the strategy that proves `claims` (positions with their results), using `prover`
/// to find the winner's moves: the walk of [`super::check`], with the prover choosing where
/// the checker looks up. Fails if a claim is wrong. `progress` gets the strategy's size after
/// each claim.
pub fn build_strategy(
    claims: &[(Board, bool)],
    leaf_empties: u32,
    lines: &Lines,
    syms: &Symmetries,
    prover: &mut Prover,
    progress: &mut dyn FnMut(usize, usize),
) -> Result<Strategy, String> {
    let mut strategy = Strategy::new();
    let mut visited: HashSet<(u128, bool)> = HashSet::new();
    let mut moves = Vec::new();
    for (i, &(root, win)) in claims.iter().enumerate() {
        let mut stack = vec![(root, win)];
        while let Some((b, win)) = stack.pop() {
            if b.empty_count(lines) <= leaf_empties {
                continue;
            }
            let c = syms.canonical(&b);
            if !visited.insert((c.key, win)) {
                continue;
            }
            if win {
                let p = prover.prove(&b);
                let m = match (p.win, p.best) {
                    (true, Some(m)) => m,
                    _ => {
                        return Err(format!(
                            "{}: claimed a win, proven a loss",
                            b.to_fen(lines.n)
                        ));
                    }
                };
                strategy.insert(c.key, (syms.map_move(c.sym, m), p.dist));
                let child = b.play(lines, m);
                if child.move_count(lines) > 0 {
                    stack.push((child, false));
                }
            } else {
                b.moves(lines, &mut moves);
                for &m in &moves {
                    let child = b.play(lines, m);
                    if child.move_count(lines) == 0 {
                        return Err(format!(
                            "{}: claimed a loss, {} wins at once",
                            b.to_fen(lines.n),
                            move_name(lines.n, m)
                        ));
                    }
                    stack.push((child, true));
                }
            }
        }
        progress(i + 1, strategy.len());
    }
    Ok(strategy)
}
