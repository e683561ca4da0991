//! `ludus solve check`: one run of the certificate checker ([`super::check::Checker`]) over
//! the claims a [`CheckPlan`] chooses (all, a seeded sample, a shard), with a check record to
//! resume from and append to, and the verdict: what this run verified, what it took from a
//! record, and what that proves of the certificate's headline result.

use std::collections::BTreeSet;
use std::io::{BufReader, Write};
use std::path::{Path, PathBuf};
use std::time::Instant;

use rand::SeedableRng;
use rand::rngs::SmallRng;
use rand::seq::SliceRandom;

use super::certificate::Certificate;
use super::check::{CheckStats, Checker};
use super::check_record::{self, CheckRecord};
use super::results;
use super::setup::write_out;
use crate::game::sight::Sight;
use crate::game::{Game, Player};
use crate::progress::Progress;
use crate::runs::{RunError, Shard};

/// The largest certificate read (the 5×5 ones are a few MB).
pub(super) const MAX_CERTIFICATE_BYTES: u64 = 1 << 30;

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
    let mut progress = Progress::stderr("solve check", "claims", Some(total as u64));
    for (done, i) in chosen.into_iter().enumerate() {
        let before = checker.stats;
        let claim = format!("claim {} of {total}", done + 1);
        let mut report = |s: CheckStats| {
            progress.note(&format!(
                "{claim}: {} positions, {} leaves",
                s.positions - before.positions,
                s.leaves - before.leaves
            ));
        };
        checker.check_claim_reporting(i, &mut report).map_err(|e| {
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
        progress.set(done as u64 + 1);
    }
    progress.finish();
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
