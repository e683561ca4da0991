//! The gates of a learning run: the `ludus match` command lines of the gate at fixed nodes,
//! the gate at a clock and the anchor match against the hand evaluation, and what their
//! results files say. The loop reads those files as any program may, by their documented
//! format (`ludus-match-results/2`, docs/referee.md): the referee writes them, the loop only
//! speaks to it through its command line and its files (a match in shards is joined by
//! `ludus match merge`).

use std::path::{Path, PathBuf};

use serde::Deserialize;

use super::config::LearnConfig;
use super::ledger::{Elo, GateResult};
use crate::stats::{Pentanomial, Sprt, Verdict, elo_from_score};

/// The largest results file read (a few hundred bytes a game).
const MAX_RESULTS_BYTES: u64 = 1 << 30;

/// The format of the results files this reader knows.
const RESULTS_FORMAT: &str = "ludus-match-results/2";

/// What the loop reads of a results file: the first encounter (the candidate's, from its
/// view) and the SPRT's state.
#[derive(Debug, Deserialize)]
struct Results {
    format: String,
    encounters: Vec<Encounter>,
    #[serde(default)]
    llr: Option<f64>,
    #[serde(default)]
    verdict: Option<String>,
    #[serde(default)]
    decided: Option<Decided>,
}

#[derive(Debug, Deserialize)]
struct Encounter {
    wins: u64,
    losses: u64,
    draws: u64,
    elo: Option<f64>,
    elo_error: Option<f64>,
    pentanomial: [u64; 5],
}

#[derive(Debug, Deserialize)]
struct Decided {
    verdict: String,
}

/// Reads the results file at `path`.
fn read(path: &Path) -> Result<Results, String> {
    let name = path.display();
    let text = crate::files::read_regular_text(path, MAX_RESULTS_BYTES)
        .map_err(|e| format!("{name}: {e}"))?;
    let results: Results =
        serde_json::from_str(&text).map_err(|e| format!("{name}: not a results file: {e}"))?;
    if results.format != RESULTS_FORMAT {
        return Err(format!(
            "{name}: format {:?}, expected {RESULTS_FORMAT:?}",
            results.format
        ));
    }
    Ok(results)
}

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

/// What the results file at `path` says, judged by `rule`; with `sprt`, that test is taken
/// over its games (a file merged from shards that played without one).
pub fn judge(
    path: &Path,
    rule: Rule,
    sprt: Option<Sprt>,
    conditions: &str,
) -> Result<GateResult, String> {
    let results = read(path)?;
    let e = results
        .encounters
        .first()
        .ok_or_else(|| format!("{}: no games", path.display()))?;
    let games = e.wins + e.losses + e.draws;
    let elo = match (e.elo, e.elo_error) {
        (Some(elo), Some(error)) if error.is_finite() => Elo { elo, error },
        _ => {
            // A sweep (or a single game): the interval one game's swing either way gives, a
            // wide but honest bound.
            let elo = finite_elo(e.wins, e.losses, e.draws);
            let swing = (finite_elo(e.wins + 1, e.losses + 1, e.draws) - elo).abs();
            Elo {
                elo,
                error: swing * 2.0 + 100.0,
            }
        }
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
    fn a_results_file_of_shards_is_judged_by_the_test_over_all_its_games() {
        let dir = std::env::temp_dir().join(format!("ludus-gate-{}", std::process::id()));
        std::fs::create_dir_all(&dir).unwrap();
        let path = dir.join("r.json");
        // 200 pairs, the candidate winning most: H1 for 0 against 20, H0 for 600 against 700.
        let text = r#"{"format": "ludus-match-results/2", "encounters": [{"first": "a",
            "second": "b", "wins": 360, "losses": 40, "draws": 0, "elo": 381.7,
            "elo_error": 60.0, "pentanomial": [0, 0, 40, 0, 160]}]}"#;
        std::fs::write(&path, text).unwrap();
        let test = |elo0, elo1| Sprt {
            elo0,
            elo1,
            alpha: 0.05,
            beta: 0.05,
        };
        let r = judge(&path, Rule::Better, Some(test(0.0, 20.0)), "x").unwrap();
        assert_eq!((r.games, r.verdict.as_str(), r.passed), (400, "H1", true));
        assert!(r.llr.is_some_and(|l| l > 2.94));
        let r = judge(&path, Rule::Better, Some(test(600.0, 700.0)), "x").unwrap();
        assert_eq!((r.verdict.as_str(), r.passed), ("H0", false));
        // Without a test the verdict is "none", which the rule "better" does not pass.
        let r = judge(&path, Rule::Better, None, "x").unwrap();
        assert_eq!((r.verdict.as_str(), r.passed), ("none", false));
        std::fs::write(&path, text.replace("/2", "/1")).unwrap();
        let e = judge(&path, Rule::Better, None, "x").unwrap_err();
        assert!(e.contains("expected \"ludus-match-results/2\""), "{e}");
        let _ = std::fs::remove_dir_all(&dir);
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
