//! The JSON results file of a match or a shard: written after every game, read back by
//! `ludus match merge`, which joins shards into one tally.

use std::collections::BTreeMap;
use std::fs::File;
use std::io::{self, Write};
use std::path::{Path, PathBuf};

use serde::{Deserialize, Serialize};

use super::game_record::GameSummary;
use super::report::sprt_state;
use super::stats::{Sprt, Verdict};
use super::tally::{Encounter, Tally};

/// The `format` of a results file.
pub const FORMAT: &str = "ludus-match-results/1";

/// What a results file says about a match besides its engines, games and statistics.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct ResultsMeta {
    /// The event name.
    pub event: String,
    /// The game (`sight`, …).
    pub variant: String,
    /// The time control(s), as in the record file.
    pub time_control: String,
    /// The seed of the schedule.
    pub seed: u64,
    /// `K/N` for shard K of N, `None` for a whole match.
    pub shard: Option<String>,
    /// Games this run (or shard) was to play.
    pub scheduled_games: u64,
}

impl ResultsMeta {
    /// The first line of the final table: game, time control, games played of scheduled,
    /// seed and shard, e.g. `sight 2+0.02: 100 of 100 games, seed 1`.
    pub fn headline(&self, played: usize) -> String {
        let shard = match &self.shard {
            Some(s) => format!(", shard {s}"),
            None => String::new(),
        };
        format!(
            "{} {}: {played} of {} games, seed {}{shard}",
            self.variant, self.time_control, self.scheduled_games, self.seed
        )
    }
}

/// The SPRT settings in a results file.
#[derive(Clone, Copy, Debug, PartialEq, Serialize, Deserialize)]
pub struct SprtSettings {
    /// Elo under H0.
    pub elo0: f64,
    /// Elo under H1.
    pub elo1: f64,
    /// Probability of accepting H1 when H0 holds.
    pub alpha: f64,
    /// Probability of accepting H0 when H1 holds.
    pub beta: f64,
}

impl From<SprtSettings> for Sprt {
    fn from(s: SprtSettings) -> Sprt {
        let SprtSettings {
            elo0,
            elo1,
            alpha,
            beta,
        } = s;
        Sprt {
            elo0,
            elo1,
            alpha,
            beta,
        }
    }
}

impl From<&Sprt> for SprtSettings {
    fn from(s: &Sprt) -> SprtSettings {
        let Sprt {
            elo0,
            elo1,
            alpha,
            beta,
        } = *s;
        SprtSettings {
            elo0,
            elo1,
            alpha,
            beta,
        }
    }
}

/// One encounter in a results file (informative: reading recomputes it from the games).
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct EncounterJson {
    /// The engine listed first; the counts are from its view.
    pub first: String,
    /// The other engine.
    pub second: String,
    /// `first`'s wins.
    pub wins: u64,
    /// `first`'s losses.
    pub losses: u64,
    /// Draws.
    pub draws: u64,
    /// `first`'s score fraction (0 to 1).
    pub score: f64,
    /// Elo of `first` (null when infinite: a score of 0 or 1).
    pub elo: Option<f64>,
    /// Half the 95 % interval (null when Elo or the interval is infinite).
    pub elo_error: Option<f64>,
    /// Likelihood of superiority of `first` (0 to 1).
    pub los: f64,
    /// Pairs by `first`'s points: 0, ½, 1, 1½, 2.
    pub pentanomial: [u64; 5],
    /// Games by termination label.
    pub terminations: BTreeMap<String, u64>,
    /// Games lost by failing, by engine and termination label.
    pub failures: BTreeMap<String, BTreeMap<String, u64>>,
}

impl From<&Encounter> for EncounterJson {
    fn from(e: &Encounter) -> EncounterJson {
        let elo = e.wdl.elo();
        let finite = |x: f64| x.is_finite().then_some(x);
        let mut failures: BTreeMap<String, BTreeMap<String, u64>> = BTreeMap::new();
        for (who, t, n) in &e.failures {
            failures
                .entry(who.clone())
                .or_default()
                .insert(t.label().into(), *n);
        }
        EncounterJson {
            first: e.first.clone(),
            second: e.second.clone(),
            wins: e.wdl.wins,
            losses: e.wdl.losses,
            draws: e.wdl.draws,
            score: e.wdl.score(),
            elo: elo.and_then(|x| finite(x.elo)),
            elo_error: elo.and_then(|x| finite(x.elo).and(finite(x.error()))),
            los: e.wdl.los(),
            pentanomial: e.pentanomial.0,
            terminations: e
                .terminations
                .iter()
                .map(|(t, n)| (t.label().into(), *n))
                .collect(),
            failures,
        }
    }
}

/// The JSON results file of a match or a shard.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct ResultsFile {
    /// Always [`FORMAT`], `ludus-match-results/1`.
    pub format: String,
    /// Event, variant, time control, seed, shard and games scheduled (at the top level of
    /// the JSON object).
    #[serde(flatten)]
    pub meta: ResultsMeta,
    /// The engines, in the match's order.
    pub engines: Vec<String>,
    /// The SPRT settings, if the match ran one.
    pub sprt: Option<SprtSettings>,
    /// The finished games, by number.
    pub games: Vec<GameSummary>,
    /// Informative: every encounter's statistics, recomputed from `games` on reading.
    #[serde(default)]
    pub encounters: Vec<EncounterJson>,
    /// Informative: the SPRT's log-likelihood ratio (with `sprt` and 2 engines).
    #[serde(default)]
    pub llr: Option<f64>,
    /// Informative: `H0`, `H1` or `continue` (with `sprt` and 2 engines).
    #[serde(default)]
    pub verdict: Option<String>,
}

impl ResultsFile {
    /// The results file of `tally`'s games; `sprt` is stored, and with 2 engines its LLR and
    /// verdict for the first engine's pairs.
    pub fn from_tally(meta: &ResultsMeta, tally: &Tally, sprt: Option<&Sprt>) -> ResultsFile {
        let encounters = tally.encounters();
        let test = sprt.filter(|_| tally.engines().len() == 2).map(|s| {
            let pairs = encounters
                .first()
                .map(|e| e.pentanomial)
                .unwrap_or_default();
            let (llr, _, verdict) = sprt_state(s, &pairs);
            let verdict =
                verdict.map_or("continue", |v| if v == Verdict::H0 { "H0" } else { "H1" });
            (llr, verdict.to_string())
        });
        ResultsFile {
            format: FORMAT.into(),
            meta: meta.clone(),
            engines: tally.engines().to_vec(),
            sprt: sprt.map(SprtSettings::from),
            games: tally.games().cloned().collect(),
            encounters: encounters.iter().map(EncounterJson::from).collect(),
            llr: test.as_ref().map(|t| t.0).filter(|x| x.is_finite()),
            verdict: test.map(|t| t.1),
        }
    }

    /// The tally of the games (the stored statistics are ignored). Repeated engine names or
    /// games that do not fit the engines → `Err`.
    pub fn tally(&self) -> Result<Tally, String> {
        for (i, name) in self.engines.iter().enumerate() {
            if self.engines[..i].contains(name) {
                return Err(format!("engine {name:?} is listed twice"));
            }
        }
        let mut tally = Tally::new(self.engines.clone());
        for game in &self.games {
            tally.add(game.clone())?;
        }
        Ok(tally)
    }
}

/// Writes atomically: to `path` + `.tmp`, then renames it to `path`.
pub fn write_results(path: &Path, results: &ResultsFile) -> io::Result<()> {
    let mut text = serde_json::to_string_pretty(results).map_err(io::Error::other)?;
    text.push('\n');
    let mut tmp = path.as_os_str().to_owned();
    tmp.push(".tmp");
    let tmp = PathBuf::from(tmp);
    let mut file = File::create(&tmp)?;
    file.write_all(text.as_bytes())?;
    file.sync_all()?;
    drop(file);
    std::fs::rename(&tmp, path)
}

/// Reads a results file; its statistics are recomputed from its games. Errors name the file;
/// a `format` other than [`FORMAT`] is one.
pub fn read_results(path: &Path) -> Result<ResultsFile, String> {
    let name = path.display();
    let text = std::fs::read_to_string(path).map_err(|e| format!("{name}: {e}"))?;
    let value: serde_json::Value =
        serde_json::from_str(&text).map_err(|e| format!("{name}: not JSON: {e}"))?;
    match value.get("format").and_then(|f| f.as_str()) {
        Some(FORMAT) => {}
        Some(other) => return Err(format!("{name}: format {other:?}, expected {FORMAT:?}")),
        None => return Err(format!("{name}: not a results file (no format {FORMAT:?})")),
    }
    let file: ResultsFile =
        serde_json::from_value(value).map_err(|e| format!("{name}: bad results file: {e}"))?;
    let tally = file.tally().map_err(|e| format!("{name}: {e}"))?;
    let sprt = file.sprt.map(Sprt::from);
    Ok(ResultsFile::from_tally(&file.meta, &tally, sprt.as_ref()))
}

/// Merges shard results: the same variant, time control and engine set are required (the
/// error names the field and the files); engines in the first file's order; games unioned
/// (identical duplicates are fine, conflicting ones an error naming the game number); shard
/// `None`; `scheduled_games` summed; event, seed and SPRT settings from the first file.
pub fn merge(files: &[(String, ResultsFile)]) -> Result<ResultsFile, String> {
    let Some((first_name, first)) = files.first() else {
        return Err("no results files to merge".into());
    };
    let sorted = |names: &[String]| {
        let mut names = names.to_vec();
        names.sort();
        names
    };
    let mut tally = Tally::new(first.engines.clone());
    let mut scheduled = 0;
    for (name, file) in files {
        for (field, a, b) in [
            ("variant", &first.meta.variant, &file.meta.variant),
            (
                "time_control",
                &first.meta.time_control,
                &file.meta.time_control,
            ),
        ] {
            if a != b {
                return Err(format!(
                    "{field} differs: {first_name} has {a:?}, {name} has {b:?}"
                ));
            }
        }
        if file.meta.seed != first.meta.seed {
            return Err(format!(
                "seed differs: {first_name} has {}, {name} has {} (shards of one match share \
                 its seed, so they agree on every game's opening)",
                first.meta.seed, file.meta.seed
            ));
        }
        if sorted(&file.engines) != sorted(&first.engines) {
            let (a, b) = (&first.engines, &file.engines);
            return Err(format!(
                "engines differ: {first_name} has {a:?}, {name} has {b:?}"
            ));
        }
        for game in &file.games {
            tally
                .add(game.clone())
                .map_err(|e| format!("{name}: {e}"))?;
        }
        scheduled += file.meta.scheduled_games;
    }
    let meta = ResultsMeta {
        shard: None,
        scheduled_games: scheduled,
        ..first.meta.clone()
    };
    let sprt = first.sprt.map(Sprt::from);
    Ok(ResultsFile::from_tally(&meta, &tally, sprt.as_ref()))
}

#[cfg(test)]
mod tests {
    use super::super::tally::test_support::*;
    use super::*;

    fn meta() -> ResultsMeta {
        ResultsMeta {
            event: "ludus match".into(),
            variant: "sight".into(),
            time_control: "10+0.1".into(),
            seed: 7,
            shard: None,
            scheduled_games: 6,
        }
    }

    fn temp(name: &str) -> PathBuf {
        std::env::temp_dir().join(format!("ludus-results-{}-{name}", std::process::id()))
    }

    #[test]
    fn results_file_round_trips_and_checks_its_format() {
        let path = temp("round-trip.json");
        let results = ResultsFile::from_tally(&meta(), &sample(), Some(&SPRT));
        assert_eq!(results.verdict.as_deref(), Some("continue"));
        write_results(&path, &results).expect("write");
        assert_eq!(read_results(&path), Ok(results.clone()));
        assert_eq!(results.tally(), Ok(sample()));
        let text = std::fs::read_to_string(&path).expect("written");
        std::fs::write(&path, text.replace(FORMAT, "other/2")).expect("write");
        let err = read_results(&path).expect_err("wrong format");
        assert!(err.contains("round-trip.json: format \"other/2\""), "{err}");
        std::fs::remove_file(&path).expect("cleanup");
        assert!(
            read_results(&path)
                .expect_err("missing")
                .contains("round-trip.json")
        );
    }

    #[test]
    fn merging_halves_gives_the_whole_and_conflicts_are_errors() {
        let whole = ResultsFile::from_tally(&meta(), &sample(), Some(&SPRT));
        let half = |shard: &str, numbers: &[u64]| {
            let games: Vec<_> = sample()
                .games()
                .filter(|g| numbers.contains(&g.number))
                .cloned()
                .collect();
            let m = ResultsMeta {
                shard: Some(shard.into()),
                scheduled_games: 3,
                ..meta()
            };
            ResultsFile::from_tally(&m, &tally(&["old", "new"], &games), Some(&SPRT))
        };
        let (a, b) = (half("1/2", &[1, 2, 3]), half("2/2", &[3, 4, 5]));
        let mut first = a.clone();
        first.engines = whole.engines.clone();
        let merged = merge(&[("a.json".into(), first), ("b.json".into(), b.clone())]);
        assert_eq!(merged, Ok(whole));
        let mut bad = b.clone();
        bad.games[0].result = Draw;
        let err =
            merge(&[("a.json".into(), a.clone()), ("b.json".into(), bad)]).expect_err("conflict");
        assert!(
            err.starts_with("b.json: game 3 appears twice, differently"),
            "{err}"
        );
        let mut other = b;
        other.meta.variant = "isaac".into();
        let err = merge(&[("a.json".into(), a), ("b.json".into(), other)]).expect_err("variant");
        assert_eq!(
            err,
            "variant differs: a.json has \"sight\", b.json has \"isaac\""
        );
    }
}
