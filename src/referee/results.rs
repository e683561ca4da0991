//! Match results: the [`Tally`] of finished games and the statistics of every encounter (a
//! pair of engines that met), the final table and the progress line printed while a match
//! runs, and the JSON results file, written after every game and merged across shards.

use std::collections::BTreeMap;
use std::fs::File;
use std::io::{self, Write};
use std::path::{Path, PathBuf};
use std::time::Duration;

use serde::{Deserialize, Serialize};

use super::game_record::{GameResult, GameSummary, Termination};
use super::stats::{EloEstimate, Pentanomial, Sprt, Verdict, Wdl};

/// The `format` of a results file.
pub const FORMAT: &str = "ludus-match-results/1";

/// All games of a match (or several shards) and the statistics from them.
#[derive(Clone, Debug, Default, PartialEq)]
pub struct Tally {
    engines: Vec<String>,
    games: BTreeMap<u64, GameSummary>,
}

/// The games two engines played against each other, from `first`'s view.
#[derive(Clone, Debug, PartialEq)]
pub struct Encounter {
    /// The engine listed first in the match.
    pub first: String,
    /// The other engine.
    pub second: String,
    /// `first`'s wins, draws and losses.
    pub wdl: Wdl,
    /// `first`'s results of the complete pairs (games `2k+1` and `2k+2` both played).
    pub pentanomial: Pentanomial,
    /// How the games ended: the non-zero counts, in [`Termination::ALL`] order.
    pub terminations: Vec<(Termination, u64)>,
    /// Games lost by an engine failing: (the engine, how, count), `first`'s first, each in
    /// [`Termination::ALL`] order.
    pub failures: Vec<(String, Termination, u64)>,
}

/// The engine that won, if any.
fn winner(game: &GameSummary) -> Option<&str> {
    match game.result {
        GameResult::P1Win => Some(&game.p1),
        GameResult::P2Win => Some(&game.p2),
        GameResult::Draw => None,
    }
}

/// `engine`'s points in `game`, doubled (0, 1 or 2).
fn half_points(game: &GameSummary, engine: &str) -> usize {
    match winner(game) {
        Some(w) if w == engine => 2,
        Some(_) => 0,
        None => 1,
    }
}

/// A game for a message: `new vs old 1-0 rules`.
fn describe(game: &GameSummary) -> String {
    let (p1, p2, result) = (&game.p1, &game.p2, game.result.token());
    format!("{p1} vs {p2} {result} {}", game.termination)
}

impl Tally {
    /// An empty tally of a match between `engines` (the order tables list them in).
    pub fn new(engines: Vec<String>) -> Tally {
        Tally {
            engines,
            games: BTreeMap::new(),
        }
    }

    /// Adds a game. The same number twice with an identical summary is ignored; with a
    /// different one → `Err`. A name not among the engines, an engine playing itself or game
    /// number 0 → `Err`.
    pub fn add(&mut self, game: GameSummary) -> Result<(), String> {
        let number = game.number;
        for name in [&game.p1, &game.p2] {
            if !self.engines.contains(name) {
                return Err(format!(
                    "game {number}: {name:?} is not an engine of the match"
                ));
            }
        }
        if game.p1 == game.p2 {
            return Err(format!("game {number}: {:?} plays itself", game.p1));
        }
        if number == 0 {
            return Err("game 0: game numbers start at 1".into());
        }
        match self.games.get(&number) {
            Some(old) if *old == game => Ok(()),
            Some(old) => Err(format!(
                "game {number} appears twice, differently: {} ({} plies) and {} ({} plies)",
                describe(old),
                old.plies,
                describe(&game),
                game.plies
            )),
            None => {
                self.games.insert(number, game);
                Ok(())
            }
        }
    }

    /// The games, by number.
    pub fn games(&self) -> impl Iterator<Item = &GameSummary> {
        self.games.values()
    }

    /// Games played.
    pub fn len(&self) -> usize {
        self.games.len()
    }

    /// Whether no game was played.
    pub fn is_empty(&self) -> bool {
        self.games.is_empty()
    }

    /// The engines, in the order given.
    pub fn engines(&self) -> &[String] {
        &self.engines
    }

    /// One entry per pair of engines that met, in the order of the engines (the one listed
    /// first is `first`); counts from `first`'s view.
    pub fn encounters(&self) -> Vec<Encounter> {
        let index = |name: &str| self.engines.iter().position(|e| e == name);
        let mut by_pair: BTreeMap<(usize, usize), BTreeMap<u64, &GameSummary>> = BTreeMap::new();
        for g in self.games.values() {
            if let (Some(a), Some(b)) = (index(&g.p1), index(&g.p2)) {
                let games = by_pair.entry((a.min(b), a.max(b))).or_default();
                games.insert(g.number, g);
            }
        }
        let name = |i: usize| self.engines[i].as_str();
        by_pair
            .iter()
            .map(|(&(a, b), games)| encounter(name(a), name(b), games))
            .collect()
    }

    /// The encounter of the two engines of `game` (if they met).
    fn encounter_of(&self, game: &GameSummary) -> Option<Encounter> {
        self.encounters().into_iter().find(|e| {
            (e.first == game.p1 && e.second == game.p2)
                || (e.first == game.p2 && e.second == game.p1)
        })
    }
}

fn encounter(first: &str, second: &str, games: &BTreeMap<u64, &GameSummary>) -> Encounter {
    let mut wdl = Wdl::default();
    let mut pentanomial = Pentanomial::default();
    for (&number, game) in games {
        match half_points(game, first) {
            2 => wdl.wins += 1,
            1 => wdl.draws += 1,
            _ => wdl.losses += 1,
        }
        if number % 2 == 1
            && let Some(other) = games.get(&(number + 1))
        {
            pentanomial.0[half_points(game, first) + half_points(other, first)] += 1;
        }
    }
    let count = |keep: &dyn Fn(&GameSummary) -> bool| games.values().filter(|g| keep(g)).count();
    let terminations = Termination::ALL
        .into_iter()
        .map(|t| (t, count(&|g| g.termination == t) as u64))
        .filter(|&(_, n)| n > 0)
        .collect();
    let mut failures = Vec::new();
    for (loser, other) in [(first, second), (second, first)] {
        for t in Termination::ALL.into_iter().filter(|t| t.is_failure()) {
            let n = count(&|g| g.termination == t && winner(g) == Some(other));
            if n > 0 {
                failures.push((loser.to_string(), t, n as u64));
            }
        }
    }
    Encounter {
        first: first.to_string(),
        second: second.to_string(),
        wdl,
        pentanomial,
        terminations,
        failures,
    }
}

/// `x` rounded to `decimals`, without a negative zero.
fn round(x: f64, decimals: i32) -> f64 {
    let scale = 10f64.powi(decimals);
    (x * scale).round() / scale + 0.0
}

/// `+120.4 ± 19.3`; `+inf` / `-inf` without error bar; `± inf` when the interval is unbounded.
fn format_elo(e: &EloEstimate, decimals: usize) -> String {
    if e.elo.is_infinite() {
        return if e.elo > 0.0 { "+inf" } else { "-inf" }.into();
    }
    let elo = round(e.elo, decimals as i32);
    match e.error() {
        err if err.is_finite() => format!("{elo:+.decimals$} ± {err:.decimals$}"),
        _ => format!("{elo:+.decimals$} ± inf"),
    }
}

/// `LLR 0.42 (-2.94, 2.94)` and the verdict, for `first`'s pairs.
fn sprt_state(sprt: &Sprt, pairs: &Pentanomial) -> (f64, String, Option<Verdict>) {
    let llr = sprt.llr(pairs);
    let (lower, upper) = sprt.bounds();
    let text = format!("LLR {llr:.2} ({lower:.2}, {upper:.2})");
    (llr, text, sprt.verdict(llr))
}

/// `new vs old: 3-1-1 [0.700]`: wins, losses, draws and score of `first`.
fn score_text(e: &Encounter) -> String {
    let (w, score) = (e.wdl, e.wdl.score());
    let (first, second, wins, losses, draws) = (&e.first, &e.second, w.wins, w.losses, w.draws);
    format!("{first} vs {second}: {wins}-{losses}-{draws} [{score:.3}]")
}

/// The final table: for each encounter its wins, losses and draws, score, Elo with its 95 %
/// interval and the likelihood of superiority, the pair (pentanomial) counts with their Elo,
/// the terminations and failures; with `sprt` (meant for 2 engines, applied to every
/// encounter) the LLR, its bounds and the verdict. With more than 2 engines a standings table
/// (games, points, score) follows, best score first. Infinite Elo (a 100 % or 0 % score) is
/// printed `+inf` / `-inf`, without error bar. Without games: `no games`.
pub fn format_table(tally: &Tally, sprt: Option<&Sprt>) -> String {
    if tally.is_empty() {
        return "no games\n".into();
    }
    let mut out = String::new();
    for e in tally.encounters() {
        let (w, n) = (e.wdl, e.wdl.games());
        let games = if n == 1 { "game" } else { "games" };
        let pct = 100.0 * w.score();
        out.push_str(&format!(
            "{} ({n} {games}), score {pct:.1} %\n",
            score_text(&e)
        ));
        if let Some(elo) = w.elo() {
            let (elo, los) = (format_elo(&elo, 1), 100.0 * w.los());
            out.push_str(&format!("  Elo {elo} (95 %), LOS {los:.1} %\n"));
        }
        let [ll, ld, even, wd, ww] = e.pentanomial.0;
        out.push_str(&format!(
            "  Pairs (LL LD WL+DD WD WW): {ll} {ld} {even} {wd} {ww}"
        ));
        if let Some(elo) = e.pentanomial.elo() {
            out.push_str(&format!(", Elo {}", format_elo(&elo, 1)));
        }
        let list = |items: Vec<String>| items.join(", ");
        let ends = list(
            e.terminations
                .iter()
                .map(|(t, n)| format!("{t} {n}"))
                .collect(),
        );
        out.push_str(&format!("\n  Terminations: {ends}\n"));
        if !e.failures.is_empty() {
            let failures = e
                .failures
                .iter()
                .map(|(who, t, n)| format!("{who} {t} {n}"));
            out.push_str(&format!("  Failures: {}\n", list(failures.collect())));
        }
        if let Some(sprt) = sprt {
            let (_, llr, verdict) = sprt_state(sprt, &e.pentanomial);
            let verdict = match verdict {
                Some(Verdict::H0) => "H0 accepted",
                Some(Verdict::H1) => "H1 accepted",
                None => "continue",
            };
            let Sprt {
                elo0,
                elo1,
                alpha,
                beta,
            } = sprt;
            let test = format!("elo0 {elo0} elo1 {elo1} alpha {alpha} beta {beta}");
            out.push_str(&format!("  SPRT {test}: {llr}, {verdict}\n"));
        }
    }
    if tally.engines().len() > 2 {
        out.push_str(&standings(tally));
    }
    out
}

/// The standings of every engine: games, points, score; best score first.
fn standings(tally: &Tally) -> String {
    let mut rows: Vec<(&str, u64, f64)> = Vec::new();
    for name in tally.engines() {
        let games = tally.games().filter(|g| g.p1 == *name || g.p2 == *name);
        let (n, half) = games.fold((0, 0), |(n, h), g| (n + 1, h + half_points(g, name)));
        rows.push((name, n, half as f64 / 2.0));
    }
    let score = |&(_, n, points): &(&str, u64, f64)| if n == 0 { -1.0 } else { points / n as f64 };
    rows.sort_by(|a, b| score(b).total_cmp(&score(a)));
    let width = rows.iter().map(|r| r.0.chars().count()).fold(6, usize::max);
    let mut out = format!("\nRank  {:width$}  Games  Points  Score\n", "Engine");
    for (rank, row) in rows.iter().enumerate() {
        let (name, games, points, rank) = (row.0, row.1, row.2, rank + 1);
        let pct = match games {
            0 => "-".to_string(),
            _ => format!("{:.1} %", 100.0 * score(row)),
        };
        out.push_str(&format!(
            "{rank:>4}  {name:width$}  {games:>5}  {points:>6.1}  {pct}\n"
        ));
    }
    out
}

/// `3m05s`, `1h02m05s`, `45s`.
fn format_duration(d: Duration) -> String {
    let s = d.as_secs_f64().round() as u64;
    match (s / 3600, s / 60 % 60, s % 60) {
        (0, 0, s) => format!("{s}s"),
        (0, m, s) => format!("{m}m{s:02}s"),
        (h, m, s) => format!("{h}h{m:02}m{s:02}s"),
    }
}

/// One progress line for stderr, e.g. `Game 12/200 (new vs old 1-0 rules) | new vs old:
/// 7-3-2 [0.667] Elo +120 ± 190 | LLR 0.42 (-2.94, 2.94) | ETA 3m05s`: the games in the
/// tally (resumed ones included) out of `total` scheduled, the game `last` just finished,
/// the wins, losses and draws of its encounter with score and Elo, the LLR with `sprt`, and
/// the time left: `elapsed` (this run's time) ÷ `run_games` (games finished in this run) ×
/// games left (`ETA ?` when `run_games` is 0).
pub fn progress_line(
    tally: &Tally,
    last: &GameSummary,
    run_games: u64,
    total: u64,
    elapsed: Duration,
    sprt: Option<&Sprt>,
) -> String {
    let done = tally.len() as u64;
    let mut line = format!("Game {done}/{total} ({})", describe(last));
    if let Some(e) = tally.encounter_of(last) {
        line.push_str(&format!(" | {}", score_text(&e)));
        if let Some(elo) = e.wdl.elo() {
            line.push_str(&format!(" Elo {}", format_elo(&elo, 0)));
        }
        if let Some(sprt) = sprt {
            line.push_str(&format!(" | {}", sprt_state(sprt, &e.pentanomial).1));
        }
    }
    let left = total.saturating_sub(done) as f64;
    let eta = match run_games {
        0 => "?".to_string(),
        n => format_duration(elapsed.div_f64(n as f64).mul_f64(left)),
    };
    line.push_str(&format!(" | ETA {eta}"));
    line
}

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
    use super::*;
    use GameResult::{Draw, P1Win, P2Win};
    use Termination::{Crash, MaxPlies, Rules, TimeForfeit};

    fn g(number: u64, p1: &str, p2: &str, result: GameResult, t: Termination) -> GameSummary {
        let (round, plies) = (number.div_ceil(2) as u32, 20 + number as u32);
        let (p1, p2) = (p1.to_string(), p2.to_string());
        GameSummary {
            number,
            round,
            p1,
            p2,
            result,
            termination: t,
            plies,
        }
    }

    fn tally(engines: &[&str], games: &[GameSummary]) -> Tally {
        let mut t = Tally::new(engines.iter().map(|e| e.to_string()).collect());
        for game in games {
            t.add(game.clone()).expect("valid game");
        }
        t
    }

    /// Pairs 1–2 (W + D → 1½) and 3–4 (L by crash + W → 1), and game 5 without its twin.
    fn sample() -> Tally {
        tally(
            &["new", "old"],
            &[
                g(1, "new", "old", P1Win, Rules),
                g(2, "old", "new", Draw, MaxPlies),
                g(3, "new", "old", P2Win, Crash),
                g(4, "old", "new", P2Win, Rules),
                g(5, "new", "old", P1Win, Rules),
            ],
        )
    }

    const SPRT: Sprt = Sprt {
        elo0: 0.0,
        elo1: 5.0,
        alpha: 0.05,
        beta: 0.05,
    };

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

    #[test]
    fn encounters_count_results_pairs_terminations_and_failures() {
        let e = sample().encounters();
        assert_eq!(e.len(), 1);
        let e = &e[0];
        assert_eq!((e.first.as_str(), e.second.as_str()), ("new", "old"));
        assert_eq!(
            e.wdl,
            Wdl {
                wins: 3,
                draws: 1,
                losses: 1
            }
        );
        assert_eq!(e.pentanomial, Pentanomial([0, 0, 1, 1, 0]));
        assert_eq!(e.terminations, vec![(Rules, 3), (MaxPlies, 1), (Crash, 1)]);
        assert_eq!(e.failures, vec![("new".to_string(), Crash, 1)]);
        // Three engines: encounters in engine order, counted from the one listed first.
        let t = tally(
            &["a", "b", "c"],
            &[
                g(1, "c", "b", P1Win, TimeForfeit),
                g(2, "b", "c", Draw, Rules),
                g(3, "a", "c", P1Win, Rules),
            ],
        );
        let e = t.encounters();
        let names: Vec<_> = e
            .iter()
            .map(|e| (e.first.as_str(), e.second.as_str()))
            .collect();
        assert_eq!(names, [("a", "c"), ("b", "c")]);
        assert_eq!(
            e[1].wdl,
            Wdl {
                wins: 0,
                draws: 1,
                losses: 1
            }
        );
        assert_eq!(e[1].pentanomial, Pentanomial([0, 1, 0, 0, 0]));
        assert_eq!(e[1].failures, vec![("b".to_string(), TimeForfeit, 1)]);
    }

    #[test]
    fn add_rejects_conflicts_strangers_and_self_play() {
        let mut t = sample();
        assert_eq!(t.add(g(1, "new", "old", P1Win, Rules)), Ok(()));
        assert_eq!(t.len(), 5);
        let err = t
            .add(g(1, "new", "old", Draw, Rules))
            .expect_err("conflict");
        assert!(
            err.starts_with("game 1 appears twice, differently"),
            "{err}"
        );
        assert!(t.add(g(9, "new", "x", Draw, Rules)).is_err());
        assert!(t.add(g(9, "new", "new", Draw, Rules)).is_err());
        assert!(t.add(g(0, "new", "old", Draw, Rules)).is_err());
    }

    #[test]
    fn table_and_progress_line_are_exact() {
        let table = format_table(&sample(), Some(&SPRT));
        let expected = "new vs old: 3-1-1 [0.700] (5 games), score 70.0 %\n\
            \x20 Elo +147.2 ± inf (95 %), LOS 84.1 %\n\
            \x20 Pairs (LL LD WL+DD WD WW): 0 0 1 1 0, Elo +88.7 ± 136.3\n\
            \x20 Terminations: rules 3, max-plies 1, crash 1\n\
            \x20 Failures: new crash 1\n\
            \x20 SPRT elo0 0 elo1 5 alpha 0.05 beta 0.05: LLR 0.03 (-2.94, 2.94), continue\n";
        assert_eq!(table, expected);
        let last = g(5, "new", "old", P1Win, Rules);
        let line = progress_line(
            &sample(),
            &last,
            4,
            200,
            Duration::from_secs(10),
            Some(&SPRT),
        );
        assert_eq!(
            line,
            "Game 5/200 (new vs old 1-0 rules) | new vs old: 3-1-1 [0.700] Elo +147 ± inf \
             | LLR 0.03 (-2.94, 2.94) | ETA 8m08s"
        );
        assert_eq!(
            format_table(&tally(&["new", "old"], &[]), None),
            "no games\n"
        );
    }

    #[test]
    fn infinite_elo_and_standings() {
        let t = tally(
            &["a", "b", "c"],
            &[
                g(1, "a", "b", P1Win, Rules),
                g(2, "b", "a", P2Win, Rules),
                g(3, "c", "b", Draw, Rules),
            ],
        );
        let table = format_table(&t, None);
        assert!(
            table.contains("a vs b: 2-0-0 [1.000] (2 games), score 100.0 %\n  Elo +inf (95 %)")
        );
        assert!(
            table.contains("  Pairs (LL LD WL+DD WD WW): 0 0 0 0 1, Elo +inf\n"),
            "{table}"
        );
        assert!(
            table.ends_with(
                "\nRank  Engine  Games  Points  Score\n   1  a           2     2.0  100.0 %\n   \
             2  c           1     0.5  50.0 %\n   3  b           3     0.5  16.7 %\n"
            ),
            "{table}"
        );
        let lost = tally(&["a", "b"], &[g(1, "a", "b", P2Win, Rules)]);
        assert!(format_table(&lost, None).contains("  Elo -inf (95 %), LOS 15.9 %\n"));
        let json = EncounterJson::from(&lost.encounters()[0]);
        assert_eq!((json.elo, json.elo_error), (None, None));
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
