//! The `ludus match` command line, in the style of cutechess-cli and fastchess:
//! `ludus match --game sight --engine cmd=./ludus name=new --engine cmd=./old --each tc=10+0.1
//! --games 200 --concurrency 2 --pgnout games.pgn`, and `ludus match merge FILES…`.

use std::path::PathBuf;
use std::time::Duration;

use clap::{Args, Subcommand};

use crate::game::GameId;
use crate::game::dynamic::RuleSet;
use crate::referee::adjudication::{Adjudication, DrawRule, ResignRule};
use crate::referee::config::{EngineSpec, MatchConfig, OpeningSource};
use crate::referee::merge::merge;
use crate::referee::openings::read_openings_file;
use crate::referee::report::format_table;
use crate::referee::results::{read_results, write_results};
use crate::referee::runner::run_match;
use crate::referee::schedule::Tournament;
use crate::runs::{self, RunError, Shard};
use crate::stats::Sprt;

/// `ludus match`: play engines against each other, or merge results.
#[derive(Args, Debug)]
#[command(args_conflicts_with_subcommands = true)]
pub struct MatchCommand {
    #[command(subcommand)]
    merge: Option<MergeCommand>,
    #[command(flatten)]
    args: MatchArgs,
}

impl MatchCommand {
    /// Groups the `--engine` words by occurrence, from the parsed command line of `match`
    /// (clap's derive flattens repeated multi-word options into one list).
    pub fn group_engines(&mut self, matches: &clap::ArgMatches) {
        self.args.engines = matches
            .get_occurrences::<String>("engine")
            .map(|groups| groups.map(|g| g.cloned().collect()).collect())
            .unwrap_or_default();
    }
}

/// `ludus match merge`.
#[derive(Subcommand, Debug)]
enum MergeCommand {
    /// Merge the results files of the shards of one match into one table (files of other
    /// matches and overlapping shards are refused).
    Merge {
        /// Results files written by `--results`.
        #[arg(required = true)]
        files: Vec<PathBuf>,
        /// Write the merged results to this JSON file.
        #[arg(long)]
        results: Option<PathBuf>,
    },
}

/// The options of a match.
#[derive(Args, Debug)]
pub struct MatchArgs {
    /// An engine: cmd=COMMAND [name=NAME] [dir=DIR] [arg=ARG]… [proto=ugi|uci]
    /// [option.NAME=VALUE]… [tc=…] [st=…] [nodes=…] [depth=…] [timemargin=MS]. Two or more.
    #[arg(long = "engine", num_args = 1.., value_name = "KEY=VALUE", action = clap::ArgAction::Append)]
    engine: Vec<String>,
    /// The words of each `--engine`, grouped by occurrence (see [`MatchCommand::group_engines`]).
    #[arg(skip)]
    engines: Vec<Vec<String>>,
    /// Settings for every engine (same keys as --engine; an engine's own win), e.g. tc=10+0.1.
    #[arg(long, num_args = 1.., value_name = "KEY=VALUE")]
    each: Vec<String>,
    /// A rule option of the game, for the referee and every engine, as NAME=VALUE
    /// (repeatable), e.g. Sight_BoardSize=7.
    #[arg(long = "option", value_name = "NAME=VALUE")]
    options: Vec<String>,
    /// Games per encounter (an even number: colour-swapped pairs).
    #[arg(long, conflicts_with = "rounds")]
    games: Option<u64>,
    /// Game pairs per encounter (each opening played twice, seats swapped).
    #[arg(long)]
    rounds: Option<u64>,
    /// round-robin (everyone meets everyone) or gauntlet (the first engine meets the others).
    #[arg(long, default_value = "round-robin")]
    tournament: Tournament,
    /// Openings file: one `startpos [moves …]` or `fen <position> [moves …]` per line.
    #[arg(long, conflicts_with = "random_openings")]
    openings: Option<PathBuf>,
    /// Play the openings file in an order shuffled by the seed instead of file order.
    #[arg(long, requires = "openings")]
    shuffle_openings: bool,
    /// Start each round from this many random legal plies, drawn from the seed.
    #[arg(long, value_name = "PLIES")]
    random_openings: Option<u32>,
    /// Seed of random openings and shuffles: the same seed gives the same schedule.
    #[arg(long, default_value_t = 1)]
    seed: u64,
    /// Games played at once, each with its own engine processes.
    #[arg(long, default_value_t = 1)]
    concurrency: usize,
    /// Adjudicate a draw after this many plies of the engines.
    #[arg(long)]
    maxplies: Option<u32>,
    /// Resign adjudication: movecount=N score=CP [twosided=true].
    #[arg(long, num_args = 1.., value_name = "KEY=VALUE")]
    resign: Option<Vec<String>>,
    /// Draw adjudication: movenumber=N movecount=N score=CP.
    #[arg(long, num_args = 1.., value_name = "KEY=VALUE")]
    draw: Option<Vec<String>>,
    /// SPRT with early stop: elo0=E0 elo1=E1 [alpha=0.05] [beta=0.05] (two engines).
    #[arg(long, num_args = 1.., value_name = "KEY=VALUE")]
    sprt: Option<Vec<String>>,
    /// Record file: every game appended in the PGN-like record format as soon as it ends.
    #[arg(long, value_name = "FILE")]
    pgnout: Option<PathBuf>,
    /// Machine-readable results (JSON), rewritten after every game.
    #[arg(long, value_name = "FILE")]
    results: Option<PathBuf>,
    /// Continue the match recorded in the --pgnout file: play only the games it lacks. A record
    /// of another match (engines, options, openings, seed, schedule, shard…) is refused.
    #[arg(long, requires = "pgnout")]
    resume: bool,
    /// Play a deterministic share K/N of the game pairs (1 <= K <= N).
    #[arg(long, value_name = "K/N")]
    shard: Option<Shard>,
    /// Seconds an engine may stay silent past its deadline (or at all under nodes= or depth=),
    /// and wait for the handshake or `readyok`, before it loses by stall.
    #[arg(long, default_value_t = 10.0, value_name = "SECONDS")]
    stall_timeout: f64,
    /// The Event tag of the records.
    #[arg(long, default_value = "ludus match")]
    event: String,
    /// No progress lines on stderr, only the final table.
    #[arg(long)]
    quiet: bool,
}

fn key_values(flag: &str, words: &[String]) -> Result<Vec<(String, String)>, String> {
    words
        .iter()
        .map(|w| {
            w.split_once('=')
                .map(|(k, v)| (k.trim().to_string(), v.trim().to_string()))
                .filter(|(k, _)| !k.is_empty())
                .ok_or_else(|| format!("--{flag}: expected NAME=VALUE, got '{w}'"))
        })
        .collect()
}

fn parse_sprt(words: &[String]) -> Result<Sprt, String> {
    let mut sprt = Sprt {
        elo0: f64::NAN,
        elo1: f64::NAN,
        alpha: 0.05,
        beta: 0.05,
    };
    for (k, v) in key_values("sprt", words)? {
        let x: f64 = v
            .parse()
            .map_err(|_| format!("--sprt: {k}={v} is not a number"))?;
        match k.as_str() {
            "elo0" => sprt.elo0 = x,
            "elo1" => sprt.elo1 = x,
            "alpha" => sprt.alpha = x,
            "beta" => sprt.beta = x,
            _ => {
                return Err(format!(
                    "--sprt: unknown setting '{k}' (elo0, elo1, alpha, beta)"
                ));
            }
        }
    }
    if !(sprt.elo0.is_finite() && sprt.elo1.is_finite() && sprt.elo0 < sprt.elo1) {
        return Err("--sprt needs elo0 and elo1 with elo0 < elo1".into());
    }
    if !(0.0 < sprt.alpha && sprt.alpha < 0.5 && 0.0 < sprt.beta && sprt.beta < 0.5) {
        return Err("--sprt: alpha and beta must lie between 0 and 0.5".into());
    }
    Ok(sprt)
}

impl MatchArgs {
    /// Checks the arguments and builds the match.
    pub fn config(self, game: GameId) -> Result<MatchConfig, String> {
        let rules = RuleSet::new(game, &key_values("option", &self.options)?)?;
        let engines = self
            .engines
            .iter()
            .map(|own| EngineSpec::parse(&self.each, own))
            .collect::<Result<Vec<_>, _>>()?;
        MatchConfig::check_engines(&engines)?;
        let rounds = match (self.games, self.rounds) {
            (Some(g), _) if g == 0 || g % 2 == 1 => {
                return Err(format!(
                    "--games {g}: give an even number (games come in colour-swapped pairs)"
                ));
            }
            (Some(g), _) => g / 2,
            (None, Some(0)) => return Err("--rounds must be at least 1".into()),
            (None, Some(r)) => r,
            (None, None) => 1,
        };
        let openings = match (&self.openings, self.random_openings) {
            (Some(path), _) => OpeningSource::List {
                file: std::path::absolute(path).unwrap_or_else(|_| path.clone()),
                openings: read_openings_file(path, &rules)?,
                shuffle: self.shuffle_openings,
            },
            (None, Some(plies)) => OpeningSource::Random { plies },
            (None, None) => OpeningSource::Start,
        };
        let sprt = self.sprt.as_deref().map(parse_sprt).transpose()?;
        if sprt.is_some() && engines.len() != 2 {
            return Err("--sprt needs exactly two engines".into());
        }
        if self.concurrency == 0 {
            return Err("--concurrency must be at least 1".into());
        }
        if !(self.stall_timeout.is_finite() && (0.05..=86_400.0).contains(&self.stall_timeout)) {
            return Err("--stall-timeout takes seconds between 0.05 and 86400".into());
        }
        Ok(MatchConfig {
            event: self.event,
            rules,
            engines,
            tournament: self.tournament,
            rounds,
            openings,
            seed: self.seed,
            concurrency: self.concurrency,
            adjudication: Adjudication {
                max_plies: self.maxplies.filter(|&m| m > 0),
                resign: self.resign.as_deref().map(ResignRule::parse).transpose()?,
                draw: self.draw.as_deref().map(DrawRule::parse).transpose()?,
            },
            sprt,
            stall_timeout: Duration::from_secs_f64(self.stall_timeout),
            record: self.pgnout,
            results: self.results,
            resume: self.resume,
            shard: self.shard,
            quiet: self.quiet,
        })
    }
}

/// Runs `ludus match …`, writing the final table to `out` (progress and errors go to stderr,
/// as `ludus match: MESSAGE`); returns the process exit status: 0 done, 2 bad arguments or
/// files (and any error of the match itself, as always), 1 a table that cannot be printed.
pub fn run(command: MatchCommand, game: GameId, out: &mut dyn std::io::Write) -> i32 {
    let table = match command.merge {
        Some(MergeCommand::Merge { files, results }) => merge_files(&files, results.as_deref()),
        None => command
            .args
            .config(game)
            .and_then(|config| run_match(&config).map(|o| o.table)),
    };
    let outcome = table
        .map_err(RunError::Refused)
        .and_then(|table| runs::write_text(out, &table, "cannot print the table"));
    runs::report_as("ludus match", outcome)
}

/// `ludus match merge`: the merged table, and the merged results file if asked.
fn merge_files(files: &[PathBuf], out: Option<&std::path::Path>) -> Result<String, String> {
    let mut loaded = Vec::new();
    for f in files {
        loaded.push((f.display().to_string(), read_results(f)?));
    }
    let merged = merge(&loaded)?;
    if let Some(path) = out {
        write_results(path, &merged)
            .map_err(|e| format!("cannot write {}: {e}", path.display()))?;
    }
    let tally = merged.tally()?;
    let sprt = merged.sprt.map(Sprt::from);
    Ok(format!(
        "{}\n{}",
        merged.meta.headline(tally.len()),
        format_table(&tally, sprt.as_ref())
    ))
}
