//! `ludus solve certify` and `ludus solve check`: the certificate of a finished solve (from
//! its results and the strategy files its shards wrote, see [`Walks`]), and its check.

use std::collections::{BTreeSet, HashSet};
use std::io::{BufReader, Write};
use std::path::{Path, PathBuf};
use std::time::Instant;

use rand::SeedableRng;
use rand::rngs::SmallRng;
use rand::seq::SliceRandom;

use super::board::{Board, Lines};
use super::certificate::Certificate;
use super::check::Checker;
use super::check_record::{self, CheckRecord};
use super::frontier::frontier;
use super::prover::Prover;
use super::results::{self, SolveId};
use super::setup::{proven_of, read_complete, write_out};
use super::strategy::{self, Strategy, build_strategy};
use super::symmetry::Symmetries;
use super::table::{ProofTable, check_table_size};
use crate::game::sight::{Sight, SightSettings};
use crate::game::{Game, Player};
use crate::runs::{RunError, Shard};

/// The largest certificate read (the 5×5 ones are a few MB).
const MAX_CERTIFICATE_BYTES: u64 = 1 << 30;

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

/// Which claims of a certificate one `ludus solve check` run verifies.
#[derive(Clone, Debug, Default)]
pub struct CheckPlan {
    /// Only this many claims chosen at random with this seed (a quick sample).
    pub sample: Option<(usize, u64)>,
    /// Only the claims of this shard (the K-th of every N, counted from 1).
    pub shard: Option<Shard>,
    /// Claims verified are appended here; claims already in it are not checked again.
    pub record: Option<PathBuf>,
}

/// How a check whose claims held stands (a claim that fails is an error).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Checked {
    /// Every claim the verdict counts was verified in this run (exit status 0).
    Here,
    /// The verdict counts claims a check record holds, which this run did not verify
    /// ([`crate::exit_status::ON_RECORD`]).
    OnRecord,
}

/// The certificate's result in words: board, rules and who wins from the root, e.g. `5×5,
/// official rules: White wins from the empty board (White to move)`; `win` is the root
/// claim's result for the side to move.
pub fn headline(cert: &Certificate, root: &Sight, win: bool) -> String {
    let n = cert.size;
    let (mover, other) = match root.side_to_move() {
        Player::One => ("White", "Black"),
        Player::Two => ("Black", "White"),
    };
    let winner = if win { mover } else { other };
    let fen = root.to_fen();
    let from = if fen == Sight::start(&cert.settings()).to_fen() {
        "the empty board".to_string()
    } else {
        fen
    };
    format!(
        "{n}×{n}, {} rules: {winner} wins from {from} ({mover} to move)",
        results::rules_name(cert.strict)
    )
}

/// `n claims` (or `1 claim`).
fn claims(n: usize) -> String {
    format!("{n} claim{}", if n == 1 { "" } else { "s" })
}

/// What a check whose claims held covered.
#[derive(Clone, Debug)]
struct Coverage<'a> {
    /// The certificate's claims.
    all: usize,
    /// Claims this run was to cover: the sample's or the shard's (all without either).
    mine: usize,
    /// Claims verified in this run.
    here: usize,
    /// Claims the record holds (verified by the runs that wrote it, not by this one).
    from_record: usize,
    /// The record.
    record: Option<&'a Path>,
    /// The sample: its size and seed.
    sample: Option<(usize, u64)>,
    /// The shard.
    shard: Option<Shard>,
}

impl Coverage<'_> {
    /// The verdict line (the check's last) on the certificate's result `headline`, and how it
    /// stands: proven in this run only when every claim was verified in it.
    fn verdict(&self, headline: &str) -> (String, Checked) {
        let covered = self.here + self.from_record;
        let record = self
            .record
            .map_or(String::new(), |p| p.display().to_string());
        let taken = |n: usize| format!("{n} of them taken from the record {record}");
        let line = if covered == self.all && self.from_record == 0 {
            format!(
                "proven: {headline}; all {} verified in this run",
                claims(self.all)
            )
        } else if covered == self.all {
            let k = self.from_record;
            format!(
                "not proven by this run alone: {headline} holds if the {} taken from the \
                 record {record} hold{}",
                claims(k),
                if k == 1 { "s" } else { "" }
            )
        } else if let Some((_, seed)) = self.sample {
            let recorded = self.mine - self.here;
            format!(
                "a sample, not a proof: the {} sampled (seed {seed}) hold{}{}; the \
                 certificate's result, {headline}, is proven by checking every claim",
                claims(self.mine),
                if self.mine == 1 { "s" } else { "" },
                if recorded > 0 {
                    format!(" ({})", taken(recorded))
                } else {
                    String::new()
                }
            )
        } else {
            let mut which = Vec::new();
            if let Some(shard) = self.shard {
                which.push(format!("shard {shard}"));
            }
            if self.from_record > 0 {
                which.push(taken(self.from_record));
            }
            format!(
                "not the whole check: {covered} of {} hold ({}); the certificate's result, \
                 {headline}, is proven when every claim is: check the other shards, then all \
                 their records together",
                claims(self.all),
                which.join(", ")
            )
        };
        let stands = if self.from_record > 0 {
            Checked::OnRecord
        } else {
            Checked::Here
        };
        (line, stands)
    }
}

/// Checks the certificate at `path` and prints what it verified: which claims this run
/// verified, which it took from the check record, and what that proves of the certificate's
/// result (the root claim's). A certificate without claims, or without a claim for its root,
/// fails before any work: it proves nothing.
pub fn check(path: &Path, plan: &CheckPlan, out: &mut dyn Write) -> Result<Checked, RunError> {
    let shown = |e: String| RunError::Refused(format!("{}: {e}", path.display()));
    let bytes = crate::files::read_regular(path, MAX_CERTIFICATE_BYTES)
        .map_err(|e| shown(e.to_string()))?;
    let cert = Certificate::read(&mut BufReader::new(bytes.as_slice())).map_err(shown)?;
    let mut checker =
        Checker::new(&cert).ok_or_else(|| shown("a board the solver does not take".to_string()))?;
    let nothing = |why: String| {
        RunError::Failed(format!(
            "{}: the certificate proves nothing: {why}",
            path.display()
        ))
    };
    if cert.claims.is_empty() {
        return Err(nothing("it has no claims".into()));
    }
    let root = cert.root_position().map_err(shown)?;
    let Some(root_claim) = checker.claim_of(&root) else {
        let fen = root.to_fen();
        let named = if cert.root.is_none() {
            format!("the empty board ({fen})")
        } else {
            fen
        };
        return Err(nothing(format!(
            "no claim for its root position, {named}: it does not say who wins there"
        )));
    };
    let headline = headline(&cert, &root, cert.claims[root_claim].1);
    let mut record = match &plan.record {
        Some(file) => Some(
            CheckRecord::open(file, &cert, check_record::digest(&bytes))
                .map_err(RunError::Refused)?,
        ),
        None => None,
    };
    let earlier = record
        .as_ref()
        .map_or_else(BTreeSet::new, |r| r.verified.clone());
    // What the record holds stands: another claim's walk stops at it (a root claim checked
    // in one shard needs the frontier claims the others verified).
    for &i in &earlier {
        checker.assume_verified(i).map_err(RunError::Refused)?;
    }
    let started = Instant::now();
    let mut chosen: Vec<usize> = (0..cert.claims.len())
        .filter(|&i| plan.shard.is_none_or(|s| s.contains(i as u64)))
        .collect();
    if let Some((n, seed)) = plan.sample {
        chosen.shuffle(&mut SmallRng::seed_from_u64(seed));
        chosen.truncate(n);
        chosen.sort_unstable();
    }
    let mine = chosen.len();
    chosen.retain(|i| !earlier.contains(i));
    if mine > chosen.len() {
        write_out(
            out,
            &format!(
                "{} of these {mine} claims are verified in the record already; {} to check",
                mine - chosen.len(),
                chosen.len()
            ),
        )?;
    }
    let total = chosen.len();
    for (done, i) in chosen.into_iter().enumerate() {
        checker.check_claim(i).map_err(|e| {
            RunError::Failed(format!(
                "{}: the certificate does not hold: {e}",
                path.display()
            ))
        })?;
        if let Some(record) = &mut record {
            record.add(&cert, i).map_err(RunError::Refused)?;
        }
        let s = checker.stats;
        write_out(
            out,
            &format!(
                "[{}/{total}] {} {}: {} positions, {} leaves ({} nodes), {:.0} s",
                done + 1,
                cert.claims[i].0,
                if cert.claims[i].1 { "win" } else { "loss" },
                s.positions,
                s.leaves,
                s.leaf_nodes,
                started.elapsed().as_secs_f64()
            ),
        )?;
    }
    let s = checker.stats;
    let all = cert.claims.len();
    write_out(
        out,
        &format!(
            "verified in this run: {total} of {all} claims, {} positions through the strategy, {} leaves solved in {} nodes, {:.1} s",
            s.positions,
            s.leaves,
            s.leaf_nodes,
            started.elapsed().as_secs_f64()
        ),
    )?;
    if let Some(file) = &plan.record {
        write_out(
            out,
            &format!(
                "taken from the record {}, not verified in this run: {} of {all} claims",
                file.display(),
                earlier.len()
            ),
        )?;
    }
    let coverage = Coverage {
        all,
        mine,
        here: total,
        from_record: earlier.len(),
        record: plan.record.as_deref(),
        sample: plan.sample,
        shard: plan.shard,
    };
    let (line, stands) = coverage.verdict(&headline);
    write_out(out, &line)?;
    Ok(stands)
}

#[cfg(test)]
mod tests {
    use super::*;

    fn cert(size: usize, strict: bool) -> Certificate {
        Certificate {
            size,
            strict,
            ..Certificate::default()
        }
    }

    #[test]
    fn the_headline_names_board_rules_and_who_wins_from_the_root() {
        let five = cert(5, false);
        let empty = five.root_position().unwrap();
        assert_eq!(
            headline(&five, &empty, true),
            "5×5, official rules: White wins from the empty board (White to move)"
        );
        let four = cert(4, true);
        let empty = four.root_position().unwrap();
        assert_eq!(
            headline(&four, &empty, false),
            "4×4, strict rules: Black wins from the empty board (White to move)"
        );
        let three = cert(3, false);
        let after = Sight::from_fen("3:x3/x,w,x/x3 b", &three.settings()).unwrap();
        assert_eq!(
            headline(&three, &after, false),
            "3×3, official rules: White wins from 3:x3/x,w,x/x3 b (Black to move)"
        );
    }

    fn coverage(here: usize, from_record: usize) -> Coverage<'static> {
        Coverage {
            all: 16,
            mine: 16,
            here,
            from_record,
            record: None,
            sample: None,
            shard: None,
        }
    }

    const HEAD: &str = "3×3, official rules: White wins from the empty board (White to move)";

    #[test]
    fn only_a_whole_check_in_this_run_is_proven() {
        let (line, stands) = coverage(16, 0).verdict(HEAD);
        assert_eq!(
            line,
            format!("proven: {HEAD}; all 16 claims verified in this run")
        );
        assert_eq!(stands, Checked::Here);
        // The same claims, one from a record: not proven by this run, another status.
        let record = Path::new("r.txt");
        let leaning = Coverage {
            record: Some(record),
            ..coverage(15, 1)
        };
        let (line, stands) = leaning.verdict(HEAD);
        assert_eq!(
            line,
            format!(
                "not proven by this run alone: {HEAD} holds if the 1 claim taken from the record \
                 r.txt holds"
            )
        );
        assert_eq!(stands, Checked::OnRecord);
        let (line, _) = Coverage {
            record: Some(record),
            ..coverage(0, 16)
        }
        .verdict(HEAD);
        assert!(line.ends_with("if the 16 claims taken from the record r.txt hold"));
    }

    #[test]
    fn a_sample_or_a_shard_says_it_is_not_the_whole_check() {
        let sample = Coverage {
            mine: 1,
            sample: Some((1, 7)),
            ..coverage(1, 0)
        };
        let (line, stands) = sample.verdict(HEAD);
        assert_eq!(
            line,
            format!(
                "a sample, not a proof: the 1 claim sampled (seed 7) holds; the certificate's \
                 result, {HEAD}, is proven by checking every claim"
            )
        );
        assert_eq!(stands, Checked::Here, "CI's sample exits 0");
        let shard = Coverage {
            mine: 8,
            shard: Some(Shard { index: 2, count: 2 }),
            ..coverage(8, 0)
        };
        let (line, stands) = shard.verdict(HEAD);
        assert!(
            line.starts_with("not the whole check: 8 of 16 claims hold (shard 2/2); "),
            "{line}"
        );
        assert_eq!(stands, Checked::Here);
        let resumed = Coverage {
            mine: 8,
            record: Some(Path::new("r2.txt")),
            shard: Some(Shard { index: 2, count: 2 }),
            ..coverage(5, 3)
        };
        let (line, stands) = resumed.verdict(HEAD);
        assert!(
            line.starts_with(
                "not the whole check: 8 of 16 claims hold (shard 2/2, 3 of them taken from the \
                 record r2.txt); "
            ),
            "{line}"
        );
        assert_eq!(stands, Checked::OnRecord);
        // A sample as large as the certificate is the whole check.
        let everything = Coverage {
            sample: Some((99, 1)),
            ..coverage(16, 0)
        };
        assert!(everything.verdict(HEAD).0.starts_with("proven: "));
    }
}
