//! What a match is made of, read from cutechess-style `key=value` words: each `--engine`
//! (`cmd= name= dir= arg= proto= option.X=Y ponder=` and the time settings `tc= st= nodes=
//! depth= timemargin=`) with `--each` words applied first, so an engine's own words override them.

use std::path::{Path, PathBuf};
use std::time::Duration;

use crate::client::{EngineCommand, Proto};
use crate::game::dynamic::RuleSet;
use crate::record::Opening;
use crate::referee::adjudication::Adjudication;
use crate::referee::schedule::Tournament;
use crate::referee::time_control::TimeControl;
use crate::runs::Shard;
use crate::stats::Sprt;

/// One engine of a match.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct EngineSpec {
    /// How to start it.
    pub command: EngineCommand,
    /// `option.X=Y` settings, sent with `setoption` after the handshake, in order.
    pub options: Vec<(String, String)>,
    /// Its time control.
    pub time: TimeControl,
    /// `ponder=on`: the engine thinks on its opponent's time (`go ponder`, then `ponderhit` or
    /// `stop`), as match runners' ponder setting does.
    pub ponder: bool,
}

impl EngineSpec {
    /// Reads one engine from its `--each` words and its own `--engine` words.
    pub fn parse(each: &[String], own: &[String]) -> Result<EngineSpec, String> {
        let mut cmd: Option<String> = None;
        let mut name: Option<String> = None;
        let mut dir: Option<PathBuf> = None;
        let mut args = Vec::new();
        let mut proto = Proto::Ugi;
        let mut options: Vec<(String, String)> = Vec::new();
        let mut time = TimeControl::default();
        let mut ponder = false;
        for word in each.iter().chain(own) {
            let (key, value) = word.split_once('=').ok_or_else(|| {
                format!("engine setting '{word}' is not key=value (e.g. cmd=./ludus, tc=10+0.1)")
            })?;
            match key {
                "cmd" => cmd = Some(value.to_string()),
                "name" => name = Some(value.to_string()),
                "dir" => dir = Some(PathBuf::from(value)),
                "arg" => args.push(value.to_string()),
                "proto" => {
                    proto = match value {
                        "ugi" => Proto::Ugi,
                        "uci" => Proto::Uci,
                        _ => return Err(format!("proto={value}: write ugi or uci")),
                    }
                }
                "tc" | "st" | "nodes" | "depth" | "timemargin" => time.set(key, value)?,
                "ponder" => {
                    ponder = match value {
                        "on" | "true" => true,
                        "off" | "false" => false,
                        _ => return Err(format!("ponder={value}: write on or off")),
                    }
                }
                _ => match key.strip_prefix("option.") {
                    Some(option) if !option.is_empty() => {
                        options.retain(|(n, _)| n != option);
                        options.push((option.to_string(), value.to_string()));
                    }
                    _ => {
                        return Err(format!(
                            "unknown engine setting '{key}' (known: cmd, name, dir, arg, proto, \
                             option.NAME, ponder, tc, st, nodes, depth, timemargin)"
                        ));
                    }
                },
            }
        }
        let cmd = cmd
            .filter(|c| !c.is_empty())
            .ok_or_else(|| format!("an --engine needs cmd=COMMAND (got: {})", own.join(" ")))?;
        let name = match name {
            Some(n) if !n.trim().is_empty() => n,
            Some(_) => return Err("name= must not be empty".into()),
            None => default_name(&cmd),
        };
        if !time.is_bounded() {
            return Err(format!(
                "engine {name} has no limit: give tc=, st=, nodes= or depth= (with --each or \
                 --engine)"
            ));
        }
        Ok(EngineSpec {
            command: EngineCommand {
                name,
                cmd: resolve(&cmd, dir.as_deref()),
                dir,
                args,
                proto,
            },
            options,
            time,
            ponder,
        })
    }

    /// The engine's name.
    pub fn name(&self) -> &str {
        &self.command.name
    }
}

/// The file name of a command, as the default engine name.
fn default_name(cmd: &str) -> String {
    Path::new(cmd)
        .file_name()
        .map(|f| f.to_string_lossy().into_owned())
        .unwrap_or_else(|| cmd.to_string())
}

/// A command given as a path (`./ludus`, `bin/x`) is made absolute, relative to the engine's
/// `dir` when it has one, else to the current directory; a bare name is looked up in `PATH`.
fn resolve(cmd: &str, dir: Option<&Path>) -> PathBuf {
    let path = Path::new(cmd);
    if !cmd.contains('/') || path.is_absolute() {
        return path.to_path_buf();
    }
    let base = match dir {
        Some(d) => d.to_path_buf(),
        None => PathBuf::new(),
    };
    let joined = base.join(path);
    std::path::absolute(&joined).unwrap_or(joined)
}

/// Where the games start from.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum OpeningSource {
    /// Every game from the start position.
    Start,
    /// Openings read from a file; `shuffle` orders them by the seed.
    List {
        /// The file they were read from.
        file: PathBuf,
        /// The openings, in file order.
        openings: Vec<Opening>,
        /// Whether each pass through the list is shuffled by the seed.
        shuffle: bool,
    },
    /// `plies` random legal plies from the start, drawn per round from the seed.
    Random {
        /// How many plies.
        plies: u32,
    },
}

/// A whole match, checked and ready to run.
#[derive(Clone, Debug)]
pub struct MatchConfig {
    /// The `Event` tag.
    pub event: String,
    /// The game and its rule options.
    pub rules: RuleSet,
    /// The engines, two or more, with distinct names.
    pub engines: Vec<EngineSpec>,
    /// Who meets whom.
    pub tournament: Tournament,
    /// Game pairs per encounter.
    pub rounds: u64,
    /// The openings.
    pub openings: OpeningSource,
    /// Seed of random openings and shuffles.
    pub seed: u64,
    /// Games played at once.
    pub concurrency: usize,
    /// Adjudication settings.
    pub adjudication: Adjudication,
    /// The SPRT to run (two engines only).
    pub sprt: Option<Sprt>,
    /// How long an engine may stay silent past its deadline (or, without one, at all)
    /// before it loses by `stall`; also the handshake and `readyok` timeout.
    pub stall_timeout: Duration,
    /// The record file.
    pub record: Option<PathBuf>,
    /// The JSON results file.
    pub results: Option<PathBuf>,
    /// Continue from the record file.
    pub resume: bool,
    /// The share of pairs to play.
    pub shard: Option<Shard>,
    /// Print only the final table (no progress lines).
    pub quiet: bool,
}

impl MatchConfig {
    /// Checks what a single engine list cannot: at least two engines, distinct names.
    pub fn check_engines(engines: &[EngineSpec]) -> Result<(), String> {
        if engines.len() < 2 {
            return Err("a match needs at least two --engine".into());
        }
        for (i, e) in engines.iter().enumerate() {
            if engines[..i].iter().any(|o| o.name() == e.name()) {
                return Err(format!(
                    "two engines are named '{}': give each a name=",
                    e.name()
                ));
            }
        }
        Ok(())
    }

    /// The time control(s) as the `TimeControl` tag writes them: one, or each engine's
    /// joined by ` / ` when they differ.
    pub fn time_control_label(&self) -> String {
        let mut labels: Vec<String> = Vec::new();
        for e in &self.engines {
            let l = e.time.to_string();
            if !labels.contains(&l) {
                labels.push(l);
            }
        }
        labels.join(" / ")
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn words(s: &str) -> Vec<String> {
        s.split_whitespace().map(str::to_string).collect()
    }

    #[test]
    fn engine_words_override_each() {
        let e = EngineSpec::parse(
            &words("tc=10+0.1 option.Hash=16"),
            &words("cmd=./ludus name=new option.Hash=32 option.Level=greedy arg=--game arg=isaac st=0.5"),
        )
        .unwrap();
        assert_eq!(e.name(), "new");
        assert!(e.command.cmd.is_absolute());
        assert!(e.command.cmd.ends_with("ludus"));
        assert_eq!(e.command.args, ["--game", "isaac"]);
        assert_eq!(
            e.options,
            [
                ("Hash".to_string(), "32".to_string()),
                ("Level".to_string(), "greedy".to_string())
            ]
        );
        assert_eq!(e.time.to_string(), "st=0.5");
    }

    #[test]
    fn names_default_to_the_file_name_and_must_differ() {
        let a = EngineSpec::parse(&words("nodes=100"), &words("cmd=/opt/bin/engine")).unwrap();
        assert_eq!(a.name(), "engine");
        assert_eq!(a.command.cmd, PathBuf::from("/opt/bin/engine"));
        let b = EngineSpec::parse(&words("nodes=100"), &words("cmd=engine")).unwrap();
        assert_eq!(b.command.cmd, PathBuf::from("engine"));
        let err = MatchConfig::check_engines(&[a.clone(), b]).unwrap_err();
        assert!(err.contains("two engines are named 'engine'"));
        assert!(MatchConfig::check_engines(&[a]).is_err());
    }

    #[test]
    fn bad_words_are_explained() {
        let e = |w: &str| EngineSpec::parse(&[], &words(w)).unwrap_err();
        assert!(e("name=x tc=1").contains("needs cmd="));
        assert!(e("cmd=x").contains("has no limit"));
        assert!(e("cmd=x tc=1 colour=red").contains("unknown engine setting 'colour'"));
        assert!(e("cmd=x tc=abc").contains("not a time"));
        assert!(e("cmd=x tc=1 proto=xboard").contains("ugi or uci"));
        assert!(e("cmdx").contains("not key=value"));
    }
}
