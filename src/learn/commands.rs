//! The steps' command lines and what the driver reads back from them: the self-play shards'
//! progress and their games and positions (read from the data files themselves), training's
//! epochs and losses (from its log), a match's games so far (from its results file), and the
//! one line a generation ends with.

use std::path::{Path, PathBuf};

use super::children::ChildSpec;
use super::config::LearnConfig;
use super::gate::{Rule, Side};
use super::layout::round1;
use super::layout::{RunDir, StepDone};
use super::ledger::{GateResult, GenerationLine};
use crate::datagen::check::DataReader;
use crate::game::dynamic::option_values;
use crate::game::{GameVisitor, Searchable};
use crate::net::GameNet;
use crate::net::file::Net;
use crate::progress::done_in_line;

/// The largest net file read.
const MAX_NET_BYTES: u64 = 256 << 20;

/// The bytes of the net built in for the run's game, if it has one that knows the run's
/// variant (a Sight net never trained on a board size plays the hand evaluation there).
pub fn builtin_net(config: &LearnConfig) -> Result<Option<Vec<u8>>, String> {
    let game = config.game_id()?;
    let Some(bytes) = crate::net::embedded::bytes(game.name()) else {
        return Ok(None);
    };
    let net = Net::from_bytes(bytes)?;
    Ok(knows(config, net)?.then(|| bytes.to_vec()))
}

/// Checks that the net file at `path` is a net of the run's game that knows its variant.
pub fn check_net(config: &LearnConfig, path: &Path) -> Result<(), String> {
    let bytes = crate::files::read_regular(path, MAX_NET_BYTES)
        .map_err(|e| format!("{}: {e}", path.display()))?;
    let net = Net::from_bytes(&bytes).map_err(|e| format!("{}: {e}", path.display()))?;
    if !knows(config, net)? {
        return Err(format!(
            "{}: the net was never trained on this variant",
            path.display()
        ));
    }
    Ok(())
}

/// Whether `net` fits the run's game and knows its variant's start position.
fn knows(config: &LearnConfig, net: Net) -> Result<bool, String> {
    let game = config.game_id()?;
    let values = option_values(game, &config.option_pairs())?;
    struct Knows<'a>(Net, &'a crate::game::OptionValues);
    impl GameVisitor for Knows<'_> {
        type Output = Result<bool, String>;
        fn visit<G: Searchable>(self) -> Self::Output {
            let net = GameNet::<G>::new(std::sync::Arc::new(self.0))?;
            Ok(net.knows(&G::start(&G::settings(self.1))))
        }
    }
    game.visit(Knows(net, &values))
}

/// The evaluation flags of datagen for `side`.
fn eval_flags(side: &Side) -> Vec<String> {
    match side {
        Side::Hand => vec!["--eval".into(), "hand".into()],
        Side::Net(path) => vec![
            "--eval".into(),
            "net".into(),
            "--eval-file".into(),
            path.display().to_string(),
        ],
    }
}

fn rule_flags(config: &LearnConfig) -> Vec<String> {
    let mut args = vec!["--game".into(), config.game.clone()];
    for (n, v) in &config.options {
        args.extend(["--option".into(), format!("{n}={v}")]);
    }
    args
}

/// The self-play shards of generation `g`, played by `best`.
pub fn datagen_specs(
    config: &LearnConfig,
    run: &RunDir,
    g: u32,
    best: &Side,
) -> Result<Vec<ChildSpec>, String> {
    let d = &config.datagen;
    let seed = config.seed.wrapping_mul(1000).wrapping_add(u64::from(g));
    Ok((1..=d.shards)
        .map(|k| {
            let mut args = vec!["datagen".to_string()];
            args.extend(rule_flags(config));
            args.extend(eval_flags(best));
            args.extend([
                "--games".into(),
                d.games.to_string(),
                "--nodes".into(),
                d.nodes.to_string(),
                "--random-plies".into(),
                d.random_plies.to_string(),
                "--max-plies".into(),
                d.max_plies.to_string(),
                "--seed".into(),
                seed.to_string(),
                "--shard".into(),
                format!("{k}/{}", d.shards),
                "--progress".into(),
                "5".into(),
                "--out".into(),
                run.file(g, &format!("data-{k}.bin")).display().to_string(),
            ]);
            ChildSpec {
                args,
                log: run.file(g, &format!("datagen-{k}.log")),
            }
        })
        .collect())
}

/// The last line of a log that starts with `prefix` (after trimming), if any.
fn last_line_with(path: &Path, prefix: &str) -> Option<String> {
    last_line(path, |l| l.trim().starts_with(prefix)).map(|l| l.trim().to_string())
}

/// The last line of a log that contains `needle`, if any.
fn last_line_with_containing(path: &Path, needle: &str) -> Option<String> {
    last_line(path, |l| l.contains(needle))
}

/// The last line of the log at `path` that `keep` accepts.
fn last_line(path: &Path, keep: impl Fn(&str) -> bool) -> Option<String> {
    let bytes = crate::files::read_regular(path, 1 << 30).ok()?;
    let text = String::from_utf8_lossy(&bytes);
    text.lines().rev().find(|l| keep(l)).map(str::to_string)
}

/// The number after `word` ... in `line`: the first number of the line's words before it.
fn number_before(line: &str, word: &str) -> Option<u64> {
    let words: Vec<&str> = line.split_whitespace().collect();
    let at = words.iter().position(|w| w.trim_end_matches(',') == word)?;
    words[..at]
        .iter()
        .rev()
        .find_map(|w| w.trim_end_matches(',').parse().ok())
}

/// How far the shards are: games played of the run's, from their logs.
pub fn datagen_status(logs: &[PathBuf], games: u32) -> (String, Option<f64>) {
    let mut done = 0;
    for log in logs {
        // "datagen …: 500 games, 120 already in …, 380 to play", then the progress lines
        // "datagen: 40 of 380 games (11 %), …" on its stderr.
        let before = last_line_with(log, "datagen ")
            .and_then(|l| {
                let (_, tail) = l.rsplit_once(": ")?;
                let words: Vec<&str> = tail.split_whitespace().collect();
                let mine: u64 = words.first()?.parse().ok()?;
                let todo: u64 = number_before(tail, "to")?;
                Some(mine - todo.min(mine))
            })
            .unwrap_or(0);
        let now = last_line(log, |l| done_in_line(l, "datagen").is_some())
            .and_then(|l| done_in_line(&l, "datagen"))
            .unwrap_or(0);
        done += before + now;
    }
    let fraction = done as f64 / f64::from(games.max(1));
    (format!("{done} of {games} games"), Some(fraction.min(1.0)))
}

/// Games, positions and bytes of the shards' files, read back (each file checked).
pub fn data_found(files: &[PathBuf]) -> Result<StepDone, String> {
    let (mut games, mut positions, mut bytes) = (0u64, 0u64, 0u64);
    for file in files {
        let mut reader = DataReader::open(file)?.checked(None)?;
        while let Some(game) = reader.next_game()? {
            games += 1;
            positions += game.samples.len() as u64;
        }
        bytes += reader.complete_len();
    }
    let mut done = StepDone::default();
    done.found.insert("games".into(), games.into());
    done.found.insert("positions".into(), positions.into());
    done.found.insert("bytes".into(), bytes.into());
    done.found
        .insert("shards".into(), (files.len() as u64).into());
    Ok(done)
}

/// The training step of generation `g`: the data of the window's generations that are in the
/// folder, warm-started from `best` when the plan says so and the shapes match.
pub fn train_spec(
    config: &LearnConfig,
    run: &RunDir,
    g: u32,
    best: &Side,
    out: &Path,
) -> Result<ChildSpec, String> {
    let t = &config.train;
    let mut data = Vec::new();
    for back in 0..t.window {
        let Some(earlier) = g.checked_sub(back).filter(|&x| x >= 1) else {
            break;
        };
        for k in 1..=config.datagen.shards {
            let file = run.file(earlier, &format!("data-{k}.bin"));
            if file.exists() {
                data.push(file.display().to_string());
            }
        }
    }
    let mut args = vec!["train".to_string()];
    args.extend(rule_flags(config).into_iter().take(2));
    args.push("--data".into());
    args.extend(data);
    args.extend([
        "--out".into(),
        out.display().to_string(),
        "--hidden".into(),
        t.hidden.to_string(),
        "--epochs".into(),
        t.epochs.to_string(),
        "--batch".into(),
        t.batch.to_string(),
        "--lr".into(),
        t.lr.to_string(),
        "--lambda".into(),
        t.lambda.to_string(),
        "--base".into(),
        t.base.clone(),
        "--seed".into(),
        config.seed.wrapping_add(u64::from(g)).to_string(),
    ]);
    if t.warm_start
        && let Side::Net(path) = best
        && fits(path, t.hidden, &t.base)
    {
        args.extend(["--init".into(), path.display().to_string()]);
    }
    Ok(ChildSpec {
        args,
        log: run.file(g, "train.log"),
    })
}

/// Whether the net at `path` has `hidden` units on the base `base`.
fn fits(path: &Path, hidden: usize, base: &str) -> bool {
    crate::files::read_regular(path, MAX_NET_BYTES)
        .ok()
        .and_then(|b| Net::from_bytes(&b).ok())
        .is_some_and(|n| n.header.hidden == hidden && n.header.base.name() == base)
}

/// How far training is: epochs done, from its log.
pub fn train_status(log: &Path, epochs: usize) -> (String, Option<f64>) {
    let done = last_line_with(log, "epoch ")
        .and_then(|l| l.split_whitespace().nth(1)?.parse::<usize>().ok())
        .unwrap_or(0);
    (
        format!("{done} of {epochs} epochs"),
        Some(done as f64 / epochs.max(1) as f64),
    )
}

/// The first number in `line` after `key`.
fn after(line: &str, key: &str) -> Option<f64> {
    let (_, tail) = line.split_once(key)?;
    tail.split(|c: char| !(c.is_ascii_digit() || c == '.'))
        .find(|w| !w.is_empty())?
        .parse()
        .ok()
}

/// What training said: positions, losses, time.
pub fn train_found(log: &Path) -> Result<StepDone, String> {
    last_line(log, |_| true).ok_or_else(|| format!("{}: empty", log.display()))?;
    let mut done = StepDone::default();
    if let Some(l) = last_line_with_containing(log, "training and") {
        if let Some(n) = l
            .split_whitespace()
            .next()
            .and_then(|w| w.parse::<u64>().ok())
        {
            done.found.insert("train_positions".into(), n.into());
        }
        if let Some(n) = number_before(&l, "validation") {
            done.found.insert("valid_positions".into(), n.into());
        }
        if let Some(s) = after(&l, "scale ") {
            done.found.insert("scale".into(), s.into());
        }
    }
    if let Some(l) = last_line_with_containing(log, "search's own scores") {
        if let Some(x) = after(&l, "scores: ") {
            done.found.insert("score_loss".into(), x.into());
        }
        if let Some(x) = after(&l, "hand evaluation: ") {
            done.found.insert("hand_loss".into(), x.into());
        }
    }
    if let Some(l) = last_line_with_containing(log, "of the starting net (--init): ")
        && let Some(x) = after(&l, "(--init): ")
    {
        done.found.insert("start_valid_loss".into(), x.into());
    }
    if let Some(l) = last_line_with(log, "epoch ") {
        if let Some(x) = after(&l, "training loss ") {
            done.found.insert("train_loss".into(), x.into());
        }
        if let Some(x) = after(&l, "validation loss ") {
            done.found.insert("valid_loss".into(), x.into());
        }
    }
    Ok(done)
}

/// How far a match is: its games, Elo and LLR so far, from its results file.
pub fn match_status(
    results: &Path,
    rule: Rule,
    conditions: &str,
    max: u64,
) -> (String, Option<f64>) {
    match super::gate::judge(results, rule, None, conditions) {
        Ok(r) => (
            format!(
                "{} of at most {max} games, {:+.1} ± {:.1}{}",
                r.games,
                r.elo.elo,
                r.elo.error,
                r.llr.map_or(String::new(), |l| format!(", LLR {l:.2}"))
            ),
            (rule == Rule::Measure).then(|| r.games as f64 / max.max(1) as f64),
        ),
        Err(_) => ("starting".into(), None),
    }
}

/// A gate's result in a few words.
fn gate_words(r: &GateResult) -> String {
    format!(
        "{}-{}-{} {:+.1} ± {:.1} {}",
        r.wins, r.losses, r.draws, r.elo.elo, r.elo.error, r.verdict
    )
}

/// The line a generation ends with.
pub fn summary(line: &GenerationLine) -> String {
    let mut text = format!(
        "learn: generation {} {}",
        line.generation,
        if line.promoted {
            "PROMOTED"
        } else {
            "rejected"
        }
    );
    if let Some(g) = &line.gate_nodes {
        text += &format!("; gate at nodes {}", gate_words(g));
    }
    if let Some(g) = &line.gate_clock {
        text += &format!("; at the clock {}", gate_words(g));
    }
    text += &format!(
        "; best {} at {:+.1} ± {:.1} against generation 0",
        line.best, line.best_vs_gen0.elo, line.best_vs_gen0.error
    );
    if let Some(h) = line.best_vs_hand {
        text += &format!(
            ", {:+.1} ± {:.1} against the hand evaluation",
            h.elo, h.error
        );
    }
    if let Some(t) = line.seconds.get("total").and_then(|s| s.as_f64()) {
        text += &format!("; {}", super::children::duration(round1(t)));
    }
    text
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn numbers_are_read_from_the_commands_own_lines() {
        let l = "datagen game=sight options=none nodes=50, shard 1/2: 20 games, 6 already in \
                 d.bin, 14 to play";
        assert_eq!(
            number_before(l.rsplit_once(": ").unwrap().1, "to"),
            Some(14)
        );
        assert_eq!(
            after(
                "epoch 3 of 4: training loss 0.052100, validation loss 0.061",
                "validation loss "
            ),
            Some(0.061)
        );
        assert_eq!(after("scale 340 units per logit", "scale "), Some(340.0));
    }
}
