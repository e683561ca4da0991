//! The gates of a learning run: the `ludus match` command lines of the gate at fixed nodes,
//! the gate at a clock and the anchor match against the hand evaluation, and what their
//! results files say (read by the referee's own reader, [`crate::referee::results`]).

use std::path::{Path, PathBuf};

use super::config::LearnConfig;
use super::ledger::{Elo, GateResult};
use crate::referee::merge::merge;
use crate::referee::results::{ResultsFile, read_results};
use crate::referee::stats::{Pentanomial, Sprt, Verdict, elo_from_score};

/// One side of a gate match: a net file or the hand evaluation.
#[derive(Clone, Debug, PartialEq)]
pub enum Side {
    /// A net file (absolute path).
    Net(PathBuf),
    /// The hand-written evaluation.
    Hand,
}

/// What passes a gate once its games are played.
#[derive(Clone, Copy, Debug, PartialEq)]
pub enum Rule {
    /// SPRT H1, or (games run out) an Elo interval wholly above 0.
    Better,
    /// SPRT H1, or (games run out) an Elo estimate above 0.
    NotWorse,
    /// No test: the games are a measurement (the anchor); it always "passes".
    Measure,
}

/// A match to play: its settings in words and its `ludus match` arguments (without the
/// output files and the SPRT).
#[derive(Clone, Debug)]
pub struct MatchPlan {
    /// The settings in words, for the ledger.
    pub conditions: String,
    /// The arguments after `ludus match`.
    pub args: Vec<String>,
    /// How the result is judged.
    pub rule: Rule,
    /// The SPRT, if the gate has one: `--sprt` for a match in one piece (which it stops
    /// early), the judge's test for a match played in shards (each shard plays its share of
    /// the games to the end).
    pub sprt: Option<Sprt>,
}

impl MatchPlan {
    /// The `--sprt` arguments of the plan's test.
    pub fn sprt_args(&self) -> Vec<String> {
        match &self.sprt {
            Some(t) => vec![
                "--sprt".into(),
                format!("elo0={}", t.elo0),
                format!("elo1={}", t.elo1),
                format!("alpha={}", t.alpha),
                format!("beta={}", t.beta),
            ],
            None => Vec::new(),
        }
    }
}

/// Which gate.
#[derive(Clone, Copy, Debug, PartialEq)]
pub enum Kind {
    /// The SPRT at fixed nodes.
    Nodes,
    /// The SPRT at a clock, games side by side.
    Clock,
    /// The new best against the hand evaluation.
    Anchor,
}

/// The match of `kind` between `first` (named `first_name`) and `second` for generation `g`.
#[allow(clippy::too_many_arguments)]
pub fn plan(
    config: &LearnConfig,
    kind: Kind,
    exe: &Path,
    g: u32,
    first: (&str, &Side),
    second: (&str, &Side),
    openings: &Path,
) -> Result<Option<MatchPlan>, String> {
    let mut args: Vec<String> = vec!["--game".into(), config.game.clone()];
    for (n, v) in &config.options {
        args.extend(["--option".into(), format!("{n}={v}")]);
    }
    for (name, side) in [first, second] {
        args.push("--engine".into());
        args.push(format!("cmd={}", exe.display()));
        args.push(format!("name={name}"));
        args.push(match side {
            Side::Net(path) => format!("option.EvalFile={}", path.display()),
            Side::Hand => "option.Eval=hand".into(),
        });
    }
    let seed = config.seed.wrapping_mul(1000).wrapping_add(u64::from(g));
    let (each, games, concurrency, sprt, rule, conditions) = match kind {
        Kind::Nodes => {
            let p = &config.gate;
            (
                vec![format!("nodes={}", p.nodes)],
                p.max_games,
                p.concurrency,
                Some((p.elo0, p.elo1, p.alpha, p.beta)),
                Rule::Better,
                format!(
                    "nodes={} sprt elo0={} elo1={} at most {} games",
                    p.nodes, p.elo0, p.elo1, p.max_games
                ),
            )
        }
        Kind::Clock => {
            let Some(p) = &config.confirm else {
                return Ok(None);
            };
            (
                vec![
                    format!("tc={}", p.tc),
                    format!("timemargin={}", p.timemargin),
                ],
                p.max_games,
                p.concurrency,
                Some((p.elo0, p.elo1, p.alpha, p.beta)),
                Rule::NotWorse,
                format!(
                    "tc={} concurrency={} sprt elo0={} elo1={} at most {} games",
                    p.tc, p.concurrency, p.elo0, p.elo1, p.max_games
                ),
            )
        }
        Kind::Anchor => {
            if config.anchor_games == 0 {
                return Ok(None);
            }
            (
                vec![format!("nodes={}", config.gate.nodes)],
                config.anchor_games,
                config.gate.concurrency,
                None,
                Rule::Measure,
                format!(
                    "nodes={} {} games against the hand evaluation",
                    config.gate.nodes, config.anchor_games
                ),
            )
        }
    };
    args.push("--each".into());
    args.extend(each);
    args.extend([
        "--games".into(),
        games.to_string(),
        "--concurrency".into(),
        concurrency.to_string(),
        "--seed".into(),
        seed.to_string(),
    ]);
    match config.random_openings()? {
        Some(plies) => args.extend(["--random-openings".into(), plies.to_string()]),
        None => args.extend([
            "--openings".into(),
            openings.display().to_string(),
            "--shuffle-openings".into(),
        ]),
    }
    Ok(Some(MatchPlan {
        conditions,
        args,
        rule,
        sprt: sprt.map(|(elo0, elo1, alpha, beta)| Sprt {
            elo0,
            elo1,
            alpha,
            beta,
        }),
    }))
}

/// The Elo of `wins`, `losses` and `draws`, kept finite: a clean sweep of n games counts
/// as n − ½ points.
fn finite_elo(wins: u64, losses: u64, draws: u64) -> f64 {
    let n = (wins + losses + draws) as f64;
    if n == 0.0 {
        return 0.0;
    }
    let score = (wins as f64 + draws as f64 / 2.0).clamp(0.5, n - 0.5) / n;
    elo_from_score(score)
}

/// What the results file at `path` says, judged by `rule`.
pub fn judge(path: &Path, rule: Rule, conditions: &str) -> Result<GateResult, String> {
    judge_results(&read_results(path)?, path, rule, None, conditions)
}

/// What the results files of a match's shards say together (merged by the referee's own
/// merge), judged by `rule`, with the SPRT `sprt` taken over the whole.
pub fn judge_shards(
    paths: &[std::path::PathBuf],
    rule: Rule,
    sprt: Option<Sprt>,
    conditions: &str,
) -> Result<GateResult, String> {
    let mut files = Vec::new();
    for path in paths {
        files.push((path.display().to_string(), read_results(path)?));
    }
    let merged = merge(&files)?;
    let name = paths.first().map_or(Path::new(""), |p| p.as_path());
    judge_results(&merged, name, rule, sprt, conditions)
}

fn judge_results(
    results: &ResultsFile,
    path: &Path,
    rule: Rule,
    sprt: Option<Sprt>,
    conditions: &str,
) -> Result<GateResult, String> {
    let e = results
        .encounters
        .first()
        .ok_or_else(|| format!("{}: no games", path.display()))?;
    let games = e.wins + e.losses + e.draws;
    let elo = match (e.elo, e.elo_error) {
        (Some(elo), Some(error)) => Elo { elo, error },
        _ => Elo {
            elo: finite_elo(e.wins, e.losses, e.draws),
            error: f64::NAN,
        },
    };
    let elo = Elo {
        error: if elo.error.is_finite() {
            elo.error
        } else {
            // A sweep: the interval of one game's swing either way, a wide but honest bound.
            (finite_elo(e.wins + 1, e.losses + 1, e.draws) - elo.elo).abs() * 2.0 + 100.0
        },
        ..elo
    };
    let mut llr = results.llr;
    let verdict = match (&results.decided, &results.verdict, sprt) {
        (Some(d), _, _) => d.verdict.clone(),
        (None, Some(v), _) if v == "continue" => "open".to_string(),
        (None, Some(v), _) => v.clone(),
        (None, None, Some(test)) => {
            let value = test.llr(&Pentanomial(e.pentanomial));
            llr = Some(value).filter(|x| x.is_finite());
            match test.verdict(value) {
                Some(Verdict::H1) => "H1".to_string(),
                Some(Verdict::H0) => "H0".to_string(),
                None => "open".to_string(),
            }
        }
        (None, None, None) => "none".to_string(),
    };
    let passed = match rule {
        Rule::Measure => true,
        Rule::Better => verdict == "H1" || (verdict == "open" && elo.elo - elo.error > 0.0),
        Rule::NotWorse => verdict == "H1" || (verdict == "open" && elo.elo > 0.0),
    };
    Ok(GateResult {
        games,
        wins: e.wins,
        losses: e.losses,
        draws: e.draws,
        elo,
        llr,
        verdict,
        passed,
        conditions: conditions.to_string(),
    })
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_sweep_has_a_finite_elo() {
        assert!(finite_elo(10, 0, 0) > 300.0 && finite_elo(10, 0, 0).is_finite());
        assert!(finite_elo(0, 10, 0) < -300.0);
        assert_eq!(finite_elo(3, 3, 4), 0.0);
    }

    #[test]
    fn the_gate_plays_the_candidate_first_with_the_run_settings() {
        let config = LearnConfig::defaults(crate::game::GameId::Tactigon, &[]);
        let plan = plan(
            &config,
            Kind::Nodes,
            Path::new("/bin/ludus"),
            3,
            ("gen-003", &Side::Net(PathBuf::from("/r/nets/gen-003.nnue"))),
            ("hand", &Side::Hand),
            Path::new("/r/openings.txt"),
        )
        .unwrap()
        .unwrap();
        let line = plan.args.join(" ");
        assert_eq!(
            line,
            "--game tactigon --engine cmd=/bin/ludus name=gen-003 \
             option.EvalFile=/r/nets/gen-003.nnue --engine cmd=/bin/ludus name=hand \
             option.Eval=hand --each nodes=5000 --games 2000 --concurrency 2 --seed 1003 \
             --openings /r/openings.txt --shuffle-openings"
        );
        assert_eq!(
            plan.sprt_args().join(" "),
            "--sprt elo0=0 elo1=20 alpha=0.05 beta=0.05"
        );
        assert_eq!(plan.rule, Rule::Better);
    }
}
