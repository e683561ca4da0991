//! The steps of a generation, as [`Driver`] methods that both the one-machine loop
//! ([`Driver::run`]) and a scheduler's jobs ([`super::step`]) call: self-play shards, the
//! candidate's training, a gate (whole, or one shard of it) and its judgement over shards,
//! and the end of a generation (promotion, anchor, ledger line, chart).

use std::path::PathBuf;

use super::children::{self, ChildSpec};
use super::commands;
use super::driver::{Driver, Tick, absolute, found_of, gate_of, seconds_of};
use super::gate::{self, Kind, Side};
use super::layout::{StepDone, Steps, check_of, copy_atomic};
use super::ledger::{Elo, GateResult, GenerationLine, Ledger, Line, now};
use crate::runs::Shard;

impl Driver<'_, '_> {
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
        let specs: Vec<ChildSpec> = commands::datagen_specs(&self.config, &self.run, g, best)?
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
            &mut || commands::datagen_status(&logs, games),
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
        let spec = commands::train_spec(&self.config, &self.run, g, best, &candidate)?;
        let epochs = self.config.train.epochs;
        let log = spec.log.clone();
        let exe = self.exe.clone();
        children::run_all(
            &exe,
            std::slice::from_ref(&spec),
            self.progress,
            &format!("gen {g} train"),
            eta,
            &mut || commands::train_status(&log, epochs),
            tick,
        )?;
        copy_atomic(&candidate, &self.run.net(g))?;
        copy_atomic(&check_of(&candidate), &check_of(&self.run.net(g)))?;
        let mut found = commands::train_found(&log)?;
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
            &mut || commands::match_status(&results, rule, &conditions, max),
            tick,
        )?;
        let mut found = StepDone::default();
        if shard.is_none() {
            let result = gate::judge(&results, rule, None, &plan.conditions)?;
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
        // The referee joins the shards (and refuses files of another match or overlapping
        // shards); each judge merges into a file of its own, so two jobs never write one.
        let merged = self
            .run
            .file(g, &format!("{step}.merged-{}.json", std::process::id()));
        let mut args = vec![
            "match".to_string(),
            "merge".into(),
            "--game".into(),
            self.config.game.clone(),
            "--results".into(),
            merged.display().to_string(),
        ];
        for k in 1..=count {
            args.push(
                self.run
                    .file(g, &format!("{step}-{k}.json"))
                    .display()
                    .to_string(),
            );
        }
        let said = std::process::Command::new(&self.exe)
            .args(&args)
            .stdin(std::process::Stdio::null())
            .output()
            .map_err(|e| format!("cannot run {}: {e}", self.exe.display()))?;
        if !said.status.success() {
            let _ = std::fs::remove_file(&merged);
            return Err(format!(
                "{step} of generation {g}: `ludus match merge` refused the shards: {}",
                String::from_utf8_lossy(&said.stderr).trim()
            ));
        }
        let result = gate::judge(&merged, plan.rule, plan.sprt, &plan.conditions);
        let _ = std::fs::remove_file(&merged);
        let result = result?;
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
        self.say(&commands::summary(&line))
    }

    /// The anchor match of generation `g`'s net `me` against the hand evaluation.
    pub(super) fn anchor(
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
