//! The loop of `ludus learn`: generation after generation — self-play with the best, a
//! candidate trained on it, the gates, promotion, the ledger line and the chart — each step
//! run once (its record in `gen-NNN/steps.json` says it is done), until a stop rule says
//! enough. Every step is a child process that resumes by itself (datagen's shards, train's
//! checkpoint, the match's record), so a `kill -9` anywhere loses at most the game or the
//! epoch under way.

use std::path::{Path, PathBuf};
use std::time::Instant;

use super::children::{self, ChildSpec, Progress};
use super::config::LearnConfig;
use super::gate::{self, Kind, Side};
use super::layout::{RunDir, StepDone, Steps, check_of, copy_atomic, write_atomic};
use super::ledger::{Elo, GateResult, GenerationLine, Ledger, Line, StopLine, now};
use super::stats;
use crate::runs::Shard;

/// When the loop stops.
#[derive(Clone, Copy, Debug, Default)]
pub struct StopRules {
    /// Generations (after generation 0) the run has at most.
    pub generations: Option<u32>,
    /// Hours of wall time the run spends at most (all sittings).
    pub hours: Option<f64>,
    /// Candidates rejected in a row after which it stops.
    pub rejections: Option<u32>,
}

/// What the driver works with.
pub struct Driver<'a, 'b> {
    /// The run folder.
    pub run: RunDir,
    /// Its configuration.
    pub config: LearnConfig,
    /// The ludus binary the steps run.
    pub exe: PathBuf,
    /// The stop rules.
    pub stop: StopRules,
    /// Where progress goes.
    pub progress: &'a mut Progress<'b>,
}

/// Called with seconds of wall time as a step runs (to keep them in its record).
type Tick<'t> = &'t mut dyn FnMut(f64) -> Result<(), String>;

/// A step's work: what it found.
type Work<'w, 'a, 'b> = &'w mut dyn FnMut(&mut Driver<'a, 'b>, Tick) -> Result<StepDone, String>;

/// A step was not started because the wall-time budget is spent.
const OUT_OF_TIME: &str = "\u{0}out of time";

impl<'a, 'b> Driver<'a, 'b> {
    /// Runs generations until a stop rule holds.
    pub fn run(&mut self) -> Result<(), String> {
        self.start()?;
        loop {
            let ledger = Ledger::read(&self.run)?;
            let last = ledger.last().map_or(0, |g| g.generation);
            if let Some((rule, reason)) = self.stop_rule(&ledger, 0.0) {
                return self.stopped(rule, &reason, last);
            }
            match self.generation(last + 1, &ledger) {
                Err(e) if e == OUT_OF_TIME => {
                    let ledger = Ledger::read(&self.run)?;
                    let spent = self.spent(&ledger, last + 1)?;
                    let reason = format!(
                        "the wall-time budget of {} h is spent ({:.2} h) before generation {} ended",
                        self.stop.hours.unwrap_or(0.0),
                        spent / 3600.0,
                        last + 1
                    );
                    return self.stopped("hours", &reason, last);
                }
                other => other?,
            }
        }
    }

    pub fn say(&mut self, text: &str) -> Result<(), String> {
        self.progress
            .line(text)
            .map_err(|e| format!("cannot write progress: {e}"))
    }

    pub fn stopped(&mut self, rule: &str, reason: &str, last: u32) -> Result<(), String> {
        let ledger = Ledger::read(&self.run)?;
        let already = matches!(ledger.lines.last(), Some(Line::Stop(s)) if s.rule == rule && s.after_generation == last);
        if !already {
            Ledger::append(
                &self.run,
                &Line::Stop(StopLine {
                    rule: rule.into(),
                    reason: reason.into(),
                    after_generation: last,
                    ended: now(),
                }),
            )?;
        }
        self.say(&format!("learn: stopped: {reason}"))
    }

    /// Seconds the run has spent: the ledger's generations and generation `g` so far.
    fn spent(&self, ledger: &Ledger, g: u32) -> Result<f64, String> {
        Ok(ledger.seconds() + Steps::read(&self.run, g)?.seconds())
    }

    /// The stop rule that holds now, if one does (with `extra` seconds not yet recorded).
    pub fn stop_rule(&self, ledger: &Ledger, extra: f64) -> Option<(&'static str, String)> {
        let last = ledger.last().map_or(0, |g| g.generation);
        if let Some(n) = self.stop.generations
            && last >= n
        {
            return Some(("generations", format!("{last} of {n} generations done")));
        }
        if let Some(k) = self.stop.rejections {
            let r = ledger.rejected_in_a_row();
            if k > 0 && r >= k {
                return Some((
                    "rejections",
                    format!("{r} candidates rejected in a row (the limit is {k})"),
                ));
            }
        }
        if let Some(h) = self.stop.hours {
            let spent = self.spent(ledger, last + 1).unwrap_or(0.0) + extra;
            if spent >= h * 3600.0 {
                return Some((
                    "hours",
                    format!(
                        "the wall-time budget of {h} h is spent ({:.2} h)",
                        spent / 3600.0
                    ),
                ));
            }
        }
        None
    }

    /// Generation 0: the starting net in the run folder, the openings book, and its ledger
    /// line (with its anchor match when it is a net).
    pub fn start(&mut self) -> Result<(), String> {
        let ledger = Ledger::read(&self.run)?;
        if ledger.last().is_some() {
            return Ok(());
        }
        if self.config.openings == "book" && !self.run.openings().exists() {
            write_atomic(&self.run.openings(), self.config.book()?.as_bytes())?;
        }
        let start = match self.config.start.as_str() {
            "hand" => Side::Hand,
            "builtin" => match stats::builtin_net(&self.config)? {
                Some(bytes) => {
                    write_atomic(&self.run.net(0), &bytes)?;
                    Side::Net(self.run.net(0))
                }
                None => Side::Hand,
            },
            file => {
                copy_atomic(Path::new(file), &self.run.net(0))?;
                stats::check_net(&self.config, &self.run.net(0))?;
                Side::Net(self.run.net(0))
            }
        };
        let mut steps = Steps::read(&self.run, 0)?;
        std::fs::create_dir_all(self.run.generation(0))
            .map_err(|e| format!("{}: {e}", self.run.generation(0).display()))?;
        let anchor = match &start {
            Side::Hand => None,
            Side::Net(path) => self.anchor(0, &Side::Net(absolute(path)?), &mut steps)?,
        };
        let (net, best) = match &start {
            Side::Hand => ("hand".to_string(), "hand".to_string()),
            Side::Net(_) => ("nets/gen-000.nnue".to_string(), "gen-000".to_string()),
        };
        if let Side::Net(path) = &start {
            copy_atomic(path, &self.run.best())?;
        }
        let line = GenerationLine {
            generation: 0,
            promoted: true,
            best,
            net,
            data: None,
            train: None,
            gate_nodes: None,
            gate_clock: None,
            best_vs_hand: Some(anchor.as_ref().map_or(Elo::ZERO, |a| a.elo)),
            anchor,
            candidate_vs_gen0: Elo::ZERO,
            best_vs_gen0: Elo::ZERO,
            seconds: seconds_of(&steps),
            ended: now(),
        };
        Ledger::append(&self.run, &Line::Generation(Box::new(line)))?;
        let said = match (&start, self.config.start.as_str()) {
            (Side::Hand, "builtin") => {
                "the hand evaluation (no net built in knows this variant)".to_string()
            }
            (Side::Hand, _) => "the hand evaluation".to_string(),
            (Side::Net(p), "builtin") => format!("the built-in net ({})", p.display()),
            (Side::Net(p), file) => format!("the net {file} ({})", p.display()),
        };
        self.say(&format!("learn: generation 0 is {said}"))?;
        super::chart::draw(&self.run, &self.config)
    }

    /// The best's side and name after the ledger's last line.
    pub fn best(&self, ledger: &Ledger) -> Result<(Side, String, GenerationLine), String> {
        let best = ledger
            .best()
            .ok_or_else(|| format!("{}: no generation 0", self.run.ledger().display()))?
            .clone();
        let side = if best.net == "hand" {
            Side::Hand
        } else {
            Side::Net(absolute(&self.run.root.join(&best.net))?)
        };
        Ok((side, best.best.clone(), best))
    }

    /// Runs one step (if not done) and records it. `work` returns what the step found.
    pub fn step(
        &mut self,
        g: u32,
        name: &str,
        steps: &mut Steps,
        work: Work<'_, 'a, 'b>,
    ) -> Result<(), String> {
        if steps.is_done(name) {
            return Ok(());
        }
        let ledger = Ledger::read(&self.run)?;
        if self.stop.hours.is_some()
            && let Some(("hours", _)) = self.stop_rule(&ledger, 0.0)
        {
            return Err(OUT_OF_TIME.into());
        }
        let run = self.run.clone();
        let started = Instant::now();
        let before = steps.spent.get(name).copied().unwrap_or(0.0);
        let mut record = steps.clone();
        let mut tick = |secs: f64| -> Result<(), String> {
            *record.spent.entry(name.to_string()).or_insert(0.0) += secs;
            record.write(&run, g)
        };
        let mut done = work(self, &mut tick)?;
        done.seconds = before + started.elapsed().as_secs_f64();
        steps.spent.remove(name);
        steps.done.insert(name.to_string(), done);
        steps.write(&self.run, g)
    }

    /// One generation: its steps not done yet, then its ledger line.
    fn generation(&mut self, g: u32, ledger: &Ledger) -> Result<(), String> {
        let (best, best_name, _) = self.best(ledger)?;
        let mut steps = self.open_generation(g)?;
        let previous = Steps::read(&self.run, g - 1).unwrap_or_default();
        self.say(&format!(
            "learn: generation {g}{}, the best is {best_name}",
            match self.stop.generations {
                Some(n) => format!(" of {n}"),
                None => String::new(),
            }
        ))?;
        let expect = |name: &str| previous.done.get(name).map(|s| s.seconds);

        let shards: Vec<u32> = (1..=self.config.datagen.shards).collect();
        let eta = expect("datagen");
        self.step(g, "datagen", &mut steps, &mut |d, tick| {
            d.datagen(g, &best, &shards, eta, tick)?;
            stats::data_found(&d.data_files(g))
        })?;
        let eta = expect("train");
        self.step(g, "train", &mut steps, &mut |d, tick| {
            d.train(g, &best, eta, tick)
        })?;
        for (kind, step) in [(Kind::Nodes, "gate-nodes"), (Kind::Clock, "gate-clock")] {
            if kind == Kind::Clock && !gate_passed(&steps, "gate-nodes") {
                break;
            }
            let eta = expect(step);
            self.step(g, step, &mut steps, &mut |d, tick| {
                d.gate(g, step, kind, &best, None, eta, tick)
            })?;
        }
        self.finish(g, &mut steps, ledger)
    }

    /// Generation `g`'s folder made, and its steps read.
    pub fn open_generation(&self, g: u32) -> Result<Steps, String> {
        std::fs::create_dir_all(self.run.generation(g))
            .map_err(|e| format!("{}: {e}", self.run.generation(g).display()))?;
        Steps::read(&self.run, g)
    }

    /// Generation `g`'s self-play data files, one a shard.
    pub fn data_files(&self, g: u32) -> Vec<PathBuf> {
        (1..=self.config.datagen.shards)
            .map(|k| self.run.file(g, &format!("data-{k}.bin")))
            .collect()
    }

    /// Plays the self-play `shards` of generation `g` with `best`, side by side.
    pub fn datagen(
        &mut self,
        g: u32,
        best: &Side,
        shards: &[u32],
        eta: Option<f64>,
        tick: Tick,
    ) -> Result<(), String> {
        let specs: Vec<ChildSpec> = stats::datagen_specs(&self.config, &self.run, g, best)?
            .into_iter()
            .enumerate()
            .filter(|(i, _)| shards.contains(&(*i as u32 + 1)))
            .map(|(_, s)| s)
            .collect();
        let games =
            self.config.datagen.games * shards.len() as u32 / self.config.datagen.shards.max(1);
        let logs: Vec<PathBuf> = specs.iter().map(|s| s.log.clone()).collect();
        let exe = self.exe.clone();
        children::run_all(
            &exe,
            &specs,
            self.progress,
            &format!("gen {g} datagen"),
            eta,
            &mut || stats::datagen_status(&logs, games),
            tick,
        )
    }

    /// Trains generation `g`'s candidate (warm-started from `best` where it fits) and keeps
    /// it as `nets/gen-NNN.nnue`.
    pub fn train(
        &mut self,
        g: u32,
        best: &Side,
        eta: Option<f64>,
        tick: Tick,
    ) -> Result<StepDone, String> {
        let candidate = self.run.file(g, "candidate.nnue");
        let spec = stats::train_spec(&self.config, &self.run, g, best, &candidate)?;
        let epochs = self.config.train.epochs;
        let log = spec.log.clone();
        let exe = self.exe.clone();
        children::run_all(
            &exe,
            std::slice::from_ref(&spec),
            self.progress,
            &format!("gen {g} train"),
            eta,
            &mut || stats::train_status(&log, epochs),
            tick,
        )?;
        copy_atomic(&candidate, &self.run.net(g))?;
        copy_atomic(&check_of(&candidate), &check_of(&self.run.net(g)))?;
        let mut found = stats::train_found(&log)?;
        let warm = spec.args.iter().any(|a| a == "--init");
        found.found.insert("warm_start".into(), warm.into());
        Ok(found)
    }

    /// Generation `g`'s candidate against `best` in the gate `kind` (as step `step`): the
    /// whole match, stopped early by its SPRT and judged; or with `shard`, that shard's share
    /// of the games played to the end (judged later with the others, [`Driver::judge`]).
    #[allow(clippy::too_many_arguments)]
    pub fn gate(
        &mut self,
        g: u32,
        step: &str,
        kind: Kind,
        best: &Side,
        shard: Option<Shard>,
        eta: Option<f64>,
        tick: Tick,
    ) -> Result<StepDone, String> {
        let me = Side::Net(absolute(&self.run.net(g))?);
        let (first, second) = match kind {
            Kind::Anchor => (format!("gen-{g:03}"), "hand".to_string()),
            _ => (format!("gen-{g:03}"), self.side_name(best)),
        };
        let second_side = if kind == Kind::Anchor {
            &Side::Hand
        } else {
            best
        };
        let me = if g == 0 { best.clone() } else { me };
        let plan = gate::plan(
            &self.config,
            kind,
            &self.exe,
            g,
            (&first, &me),
            (&second, second_side),
            &absolute(&self.run.openings())?,
        )?
        .ok_or_else(|| format!("{step}: not configured"))?;
        let piece = shard.map_or(String::new(), |s| format!("-{}", s.index));
        let results = self.run.file(g, &format!("{step}{piece}.json"));
        let record = self.run.file(g, &format!("{step}{piece}.pgn"));
        let mut args = vec!["match".to_string()];
        args.extend(plan.args.clone());
        match shard {
            Some(s) => args.extend(["--shard".into(), s.to_string()]),
            None => args.extend(plan.sprt_args()),
        }
        args.extend([
            "--results".into(),
            results.display().to_string(),
            "--pgnout".into(),
            record.display().to_string(),
            "--quiet".into(),
        ]);
        if std::fs::metadata(&record).is_ok_and(|m| m.len() > 0) {
            args.push("--resume".into());
        }
        let spec = ChildSpec {
            args,
            log: self.run.file(g, &format!("{step}{piece}.log")),
        };
        let exe = self.exe.clone();
        let rule = plan.rule;
        let conditions = plan.conditions.clone();
        let max = match kind {
            Kind::Nodes => self.config.gate.max_games,
            Kind::Clock => self.config.confirm.as_ref().map_or(1, |c| c.max_games),
            Kind::Anchor => self.config.anchor_games,
        };
        let max = shard.map_or(max, |s| max.div_ceil(s.count));
        children::run_all(
            &exe,
            std::slice::from_ref(&spec),
            self.progress,
            &format!("gen {g} {step}{piece}"),
            eta,
            &mut || stats::match_status(&results, rule, &conditions, max),
            tick,
        )?;
        let mut found = StepDone::default();
        if shard.is_none() {
            let result = gate::judge(&results, rule, &plan.conditions)?;
            found.found.insert(
                "result".into(),
                serde_json::to_value(&result).map_err(|e| e.to_string())?,
            );
        }
        Ok(found)
    }

    /// The gate `kind` of generation `g` played in `count` shards (as step `step`), judged
    /// over all of them.
    pub fn judge(&self, g: u32, step: &str, kind: Kind, count: u64) -> Result<StepDone, String> {
        let me = Side::Net(absolute(&self.run.net(g))?);
        let plan = gate::plan(
            &self.config,
            kind,
            &self.exe,
            g,
            ("a", &me),
            ("b", &Side::Hand),
            &self.run.openings(),
        )?
        .ok_or_else(|| format!("{step}: not configured"))?;
        let paths: Vec<PathBuf> = (1..=count)
            .map(|k| self.run.file(g, &format!("{step}-{k}.json")))
            .collect();
        let result = gate::judge_shards(&paths, plan.rule, plan.sprt, &plan.conditions)?;
        let mut found = StepDone::default();
        found.found.insert(
            "result".into(),
            serde_json::to_value(&result).map_err(|e| e.to_string())?,
        );
        Ok(found)
    }

    /// The name a gate gives the best: `gen-NNN`, or `hand`.
    fn side_name(&self, best: &Side) -> String {
        match best {
            Side::Hand => "hand".into(),
            Side::Net(path) => path
                .file_stem()
                .map_or("best".into(), |s| s.to_string_lossy().into_owned()),
        }
    }

    /// Generation `g` after its gates: promotion, the anchor match of a new best, the
    /// ledger line and the chart.
    pub fn finish(&mut self, g: u32, steps: &mut Steps, ledger: &Ledger) -> Result<(), String> {
        let (_, best_name, best_line) = self.best(ledger)?;
        let name = format!("gen-{g:03}");
        let nodes = gate_of(steps, "gate-nodes");
        let clock = gate_of(steps, "gate-clock");
        let promoted = nodes.as_ref().is_some_and(|r| r.passed)
            && (self.config.confirm.is_none() || clock.as_ref().is_some_and(|r| r.passed));
        let me = Side::Net(absolute(&self.run.net(g))?);
        let anchor = if promoted {
            self.anchor(g, &me, steps)?
        } else {
            None
        };
        let gate_elo = nodes.as_ref().map_or(Elo::ZERO, |r| r.elo);
        let candidate_vs_gen0 = best_line.best_vs_gen0.then(gate_elo);
        let shards = self.config.datagen.shards;
        let line = GenerationLine {
            generation: g,
            promoted,
            best: if promoted { name } else { best_name },
            net: format!("nets/gen-{g:03}.nnue"),
            data: found_of(steps, "datagen", shards, 0),
            train: found_of(steps, "train", 1, self.config.train.epochs),
            gate_nodes: nodes,
            gate_clock: clock,
            best_vs_hand: match (&anchor, promoted) {
                (Some(a), _) => Some(a.elo),
                (None, true) => None,
                (None, false) => best_line.best_vs_hand,
            },
            anchor,
            candidate_vs_gen0,
            best_vs_gen0: if promoted {
                candidate_vs_gen0
            } else {
                best_line.best_vs_gen0
            },
            seconds: seconds_of(steps),
            ended: now(),
        };
        if promoted {
            copy_atomic(&self.run.net(g), &self.run.best())?;
            copy_atomic(&check_of(&self.run.net(g)), &check_of(&self.run.best()))?;
        }
        Ledger::append(&self.run, &Line::Generation(Box::new(line.clone())))?;
        super::chart::draw(&self.run, &self.config)?;
        self.say(&stats::summary(&line))
    }

    /// The anchor match of generation `g`'s net `me` against the hand evaluation.
    fn anchor(
        &mut self,
        g: u32,
        me: &Side,
        steps: &mut Steps,
    ) -> Result<Option<GateResult>, String> {
        if self.config.anchor_games == 0 {
            return Ok(None);
        }
        let me = me.clone();
        self.step(g, "anchor", steps, &mut |d, tick| {
            d.gate(g, "anchor", Kind::Anchor, &me, None, None, tick)
        })?;
        Ok(gate_of(steps, "anchor"))
    }
}

/// `path` made absolute (engines run with it from their own folders).
fn absolute(path: &Path) -> Result<PathBuf, String> {
    std::path::absolute(path).map_err(|e| format!("{}: {e}", path.display()))
}

fn gate_of(steps: &Steps, name: &str) -> Option<GateResult> {
    let value = steps.done.get(name)?.found.get("result")?;
    serde_json::from_value(value.clone()).ok()
}

pub fn gate_passed(steps: &Steps, name: &str) -> bool {
    gate_of(steps, name).is_some_and(|r| r.passed)
}

/// What step `name` found, with its wall time and its throughput: self-play positions a
/// second per core (shard), training positions a second (over all epochs).
fn found_of(steps: &Steps, name: &str, cores: u32, epochs: usize) -> Option<serde_json::Value> {
    let step = steps.done.get(name)?;
    let mut map: serde_json::Map<String, serde_json::Value> =
        step.found.clone().into_iter().collect();
    map.insert("seconds".into(), serde_json::json!(round1(step.seconds)));
    let secs = step.seconds.max(0.001);
    let number = |key: &str| map.get(key).and_then(|v| v.as_f64());
    let rate = match name {
        "datagen" => number("positions").map(|p| {
            (
                "positions_per_second_per_core",
                p / secs / f64::from(cores.max(1)),
            )
        }),
        _ => number("train_positions").map(|p| ("positions_per_second", p * epochs as f64 / secs)),
    };
    if let Some((key, value)) = rate {
        map.insert(key.into(), serde_json::json!(round1(value)));
    }
    Some(serde_json::Value::Object(map))
}

fn seconds_of(steps: &Steps) -> serde_json::Map<String, serde_json::Value> {
    let mut map = serde_json::Map::new();
    for (name, step) in &steps.done {
        map.insert(name.clone(), serde_json::json!(round1(step.seconds)));
    }
    map.insert("total".into(), serde_json::json!(round1(steps.seconds())));
    map
}

/// `x` to one decimal.
pub fn round1(x: f64) -> f64 {
    (x * 10.0).round() / 10.0
}
