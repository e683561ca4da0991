//! The JSON results file of a match or a shard: written after every game, read back by
//! `ludus match merge` ([`super::merge`]), which joins shards into one tally.
//!
//! Format `ludus-match-results/2` carries the match's identity (`match`, see
//! [`super::identity`]) and the shards the file covers (`shards`); reading checks every game
//! against them. Files of format `/1` (older ludus) lack both and are refused with a message
//! saying so: nothing in them tells which match or which shard their games belong to.

use std::collections::BTreeMap;
use std::io;
use std::path::Path;

use serde::{Deserialize, Serialize};

use super::identity::MatchIdentity;
use super::report::sprt_state;
use super::tally::{Encounter, Tally};
use crate::record::game::GameSummary;
use crate::runs::ShardSet;
use crate::stats::{Sprt, Verdict};

/// The `format` of a results file.
pub const FORMAT: &str = "ludus-match-results/2";

/// The format of results files written before they carried the match's identity.
const OLD_FORMAT: &str = "ludus-match-results/1";

/// What the headline of a results file says: its event, and (informative, recomputed from
/// the match's identity and shards on reading) the game, time control, seed, shards and games
/// scheduled.
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
    /// `K/N` for shard K of N (`K1,K2/N` for merged shards), `None` for a whole match.
    pub shard: Option<String>,
    /// Games this run (or shard) was to play.
    pub scheduled_games: u64,
}

impl ResultsMeta {
    /// The headline of the `shards` of a match.
    pub fn new(
        event: &str,
        identity: &MatchIdentity,
        shards: &ShardSet,
    ) -> Result<ResultsMeta, String> {
        Ok(ResultsMeta {
            event: event.to_string(),
            variant: identity.game.clone(),
            time_control: identity.time_control.clone(),
            seed: identity.seed,
            shard: shards.label(),
            scheduled_games: identity.games_of(shards)?,
        })
    }

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
    /// Always [`FORMAT`], `ludus-match-results/2`.
    pub format: String,
    /// Event, variant, time control, seed, shard and games scheduled (at the top level of
    /// the JSON object).
    #[serde(flatten)]
    pub meta: ResultsMeta,
    /// The match the games belong to.
    #[serde(rename = "match")]
    pub identity: MatchIdentity,
    /// The shards of the match the file covers.
    pub shards: ShardSet,
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
    /// Where the SPRT stopped the match, when it did: the games played then count above too,
    /// and can move `llr` and `verdict` back inside the bounds.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub decided: Option<SprtStop>,
}

/// The point at which an SPRT decided a match (games in progress were still finished).
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct SprtStop {
    /// `H0` or `H1`.
    pub verdict: String,
    /// Games counted when it decided.
    pub games: usize,
    /// The log-likelihood ratio then.
    pub llr: f64,
}

impl SprtStop {
    /// The decision `verdict` at `llr` after `games` games.
    pub fn new(verdict: Verdict, games: usize, llr: f64) -> SprtStop {
        let verdict = if verdict == Verdict::H0 { "H0" } else { "H1" };
        SprtStop {
            verdict: verdict.into(),
            games,
            llr,
        }
    }

    /// The line the final table ends with when games finished after the decision.
    pub fn line(&self, games_now: usize) -> Option<String> {
        (games_now > self.games).then(|| {
            format!(
                "  SPRT decided {} at game {} (LLR {:.2}); the {} game(s) then in progress are counted above\n",
                self.verdict,
                self.games,
                self.llr,
                games_now - self.games
            )
        })
    }
}

impl ResultsFile {
    /// The results file of `tally`'s games; `sprt` is stored, and with 2 engines its LLR and
    /// verdict for the first engine's pairs.
    pub fn from_tally(
        meta: &ResultsMeta,
        identity: &MatchIdentity,
        shards: &ShardSet,
        tally: &Tally,
        sprt: Option<&Sprt>,
    ) -> ResultsFile {
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
            identity: identity.clone(),
            shards: shards.clone(),
            engines: tally.engines().to_vec(),
            sprt: sprt.map(SprtSettings::from),
            games: tally.games().cloned().collect(),
            encounters: encounters.iter().map(EncounterJson::from).collect(),
            llr: test.as_ref().map(|t| t.0).filter(|x| x.is_finite()),
            verdict: test.map(|t| t.1),
            decided: None,
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
    crate::record::replace(path, &text)
}

/// The largest results file read (a few hundred bytes a game: millions of games).
const MAX_RESULTS_FILE_BYTES: u64 = 1 << 30;

/// Reads a results file and checks it: its format, its shards, its engines against the
/// match's, and every game against the match's schedule and the file's shards. The headline
/// and the statistics are recomputed. Errors name the file (and the game).
pub fn read_results(path: &Path) -> Result<ResultsFile, String> {
    let name = path.display();
    let text = crate::files::read_regular_text(path, MAX_RESULTS_FILE_BYTES)
        .map_err(|e| format!("{name}: {e}"))?;
    let value: serde_json::Value =
        serde_json::from_str(&text).map_err(|e| format!("{name}: not JSON: {e}"))?;
    match value.get("format").and_then(|f| f.as_str()) {
        Some(FORMAT) => {}
        Some(OLD_FORMAT) => {
            return Err(format!(
                "{name}: format {OLD_FORMAT:?} was written by an older ludus and does not say \
                 which match (engines, openings, schedule) or which shard its games belong to, \
                 so it cannot be checked or merged safely; replay it with this ludus (a \
                 --resume of its record file is refused likewise)"
            ));
        }
        Some(other) => return Err(format!("{name}: format {other:?}, expected {FORMAT:?}")),
        None => return Err(format!("{name}: not a results file (no format {FORMAT:?})")),
    }
    let file: ResultsFile =
        serde_json::from_value(value).map_err(|e| format!("{name}: bad results file: {e}"))?;
    let identity = &file.identity;
    file.shards.check().map_err(|e| format!("{name}: {e}"))?;
    let meta = ResultsMeta::new(&file.meta.event, identity, &file.shards)
        .map_err(|e| format!("{name}: {e}"))?;
    if file.engines != identity.names() {
        return Err(format!(
            "{name}: the engines {:?} are not the match's {:?}",
            file.engines,
            identity.names()
        ));
    }
    for game in &file.games {
        identity
            .check_game(&file.shards, game)
            .map_err(|e| format!("{name}: {e}"))?;
    }
    let tally = file.tally().map_err(|e| format!("{name}: {e}"))?;
    let sprt = file.sprt.map(Sprt::from);
    Ok(ResultsFile::from_tally(
        &meta,
        identity,
        &file.shards,
        &tally,
        sprt.as_ref(),
    ))
}

#[cfg(test)]
mod tests {
    use super::super::identity::test_identity;
    use super::super::tally::test_support::*;
    use super::*;

    fn temp(name: &str) -> std::path::PathBuf {
        std::env::temp_dir().join(format!("ludus-results-{}-{name}", std::process::id()))
    }

    fn sample_file() -> ResultsFile {
        let identity = test_identity(&["new", "old"], 3);
        let shards = ShardSet::of(None);
        let meta = ResultsMeta::new("ludus match", &identity, &shards).unwrap();
        ResultsFile::from_tally(&meta, &identity, &shards, &sample(), Some(&SPRT))
    }

    /// Writes `results` with `edit` applied to its JSON text, and reads it back.
    fn reread(path: &Path, results: &ResultsFile, edit: &dyn Fn(String) -> String) -> String {
        write_results(path, results).expect("write");
        let text = std::fs::read_to_string(path).expect("written");
        std::fs::write(path, edit(text)).expect("write");
        read_results(path).expect_err("refused")
    }

    #[test]
    fn results_file_round_trips_and_checks_its_format() {
        let path = temp("round-trip.json");
        let results = sample_file();
        assert_eq!(results.verdict.as_deref(), Some("continue"));
        assert_eq!(results.meta.scheduled_games, 6);
        write_results(&path, &results).expect("write");
        assert_eq!(read_results(&path), Ok(results.clone()));
        assert_eq!(results.tally(), Ok(sample()));
        let err = reread(&path, &results, &|t| t.replace(FORMAT, "other/2"));
        assert!(err.contains("round-trip.json: format \"other/2\""), "{err}");
        let err = reread(&path, &results, &|t| t.replace(FORMAT, OLD_FORMAT));
        assert!(
            err.contains(
                "round-trip.json: format \"ludus-match-results/1\" was written by an older"
            ),
            "{err}"
        );
        std::fs::remove_file(&path).expect("cleanup");
        assert!(
            read_results(&path)
                .expect_err("missing")
                .contains("round-trip.json")
        );
    }

    #[test]
    fn games_outside_the_schedule_or_the_shards_are_refused() {
        let path = temp("foreign.json");
        let mut results = sample_file();
        results.games[4].number = 9;
        let err = reread(&path, &results, &|t| t);
        assert_eq!(
            err,
            format!(
                "{}: game 9 is not in the schedule (games 1 to 6 of this match)",
                path.display()
            )
        );
        let results = sample_file();
        let err = reread(&path, &results, &|t| {
            t.replace("\"count\": 1", "\"count\": 2")
                .replace("\"indices\": [\n      1\n    ]", "\"indices\": [2]")
        });
        assert_eq!(
            err,
            format!(
                "{}: game 1 belongs to shard 1/2, not to 2/2",
                path.display()
            )
        );
        let err = reread(&path, &results, &|t| {
            t.replace("\"count\": 1", "\"count\": 0")
        });
        assert!(err.contains("bad shards [1] of 0"), "{err}");
        std::fs::remove_file(&path).expect("cleanup");
    }
}
