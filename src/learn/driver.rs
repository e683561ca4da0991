//! The loop of `ludus learn`: generation after generation — self-play with the best, a
//! candidate trained on it, the gates, promotion, the ledger line and the chart — each step
//! run once (its record in `gen-NNN/steps.json` says it is done), until a stop rule says
//! enough. Every step is a child process that resumes by itself (datagen's shards, train's
//! checkpoint, the match's record), so a `kill -9` anywhere loses at most the game or the
//! epoch under way.

use std::path::{Path, PathBuf};
use std::time::Instant;

use super::children::Progress;
use super::commands;
use super::config::LearnConfig;
use super::gate::{Kind, Side};
use super::layout::{RunDir, StepDone, Steps, copy_atomic, round1, write_atomic};
use super::ledger::{Elo, GateResult, GenerationLine, Ledger, Line, StopLine, now};

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
pub type Tick<'t> = &'t mut dyn FnMut(f64) -> Result<(), String>;

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
                        "the wall-time budget of {} h is spent ({:.2} h) before generation {} \
                         ended",
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
        let already = matches!(
            ledger.lines.last(),
            Some(Line::Stop(s)) if s.rule == rule && s.after_generation == last
        );
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
            "builtin" => match commands::builtin_net(&self.config)? {
                Some(bytes) => {
                    write_atomic(&self.run.net(0), &bytes)?;
                    Side::Net(self.run.net(0))
                }
                None => Side::Hand,
            },
            file => {
                copy_atomic(Path::new(file), &self.run.net(0))?;
                commands::check_net(&self.config, &self.run.net(0))?;
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
            commands::data_found(&d.data_files(g))
        })?;
        let eta = expect("train");
        self.step(g, "train", &mut steps, &mut |d, tick| {
            d.train(g, &best, eta, tick)
        })?;
        for (kind, step) in [(Kind::Nodes, "gate-nodes"), (Kind::Clock, "gate-clock")] {
            if kind == Kind::Clock
                && (self.config.confirm.is_none() || !gate_passed(&steps, "gate-nodes"))
            {
                break;
            }
            let eta = expect(step);
            self.step(g, step, &mut steps, &mut |d, tick| {
                d.gate(g, step, kind, &best, None, eta, tick)
            })?;
        }
        self.finish(g, &mut steps, ledger)
    }
}

/// `path` made absolute (engines run with it from their own folders).
pub(super) fn absolute(path: &Path) -> Result<PathBuf, String> {
    std::path::absolute(path).map_err(|e| format!("{}: {e}", path.display()))
}

pub(super) fn gate_of(steps: &Steps, name: &str) -> Option<GateResult> {
    let value = steps.done.get(name)?.found.get("result")?;
    serde_json::from_value(value.clone()).ok()
}

pub fn gate_passed(steps: &Steps, name: &str) -> bool {
    gate_of(steps, name).is_some_and(|r| r.passed)
}

/// What step `name` found, with its wall time and its throughput: self-play positions a
/// second per core (shard), training positions a second (over all epochs).
pub(super) fn found_of(
    steps: &Steps,
    name: &str,
    cores: u32,
    epochs: usize,
) -> Option<serde_json::Value> {
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

pub(super) fn seconds_of(steps: &Steps) -> serde_json::Map<String, serde_json::Value> {
    let mut map = serde_json::Map::new();
    for (name, step) in &steps.done {
        map.insert(name.clone(), serde_json::json!(round1(step.seconds)));
    }
    map.insert("total".into(), serde_json::json!(round1(steps.seconds())));
    map
}
