//! The ledger of a learning run, `ledger.jsonl`: one JSON object a line, appended — a line
//! for each generation when it ends (its data, training, gates, promotion, Elo, wall times)
//! and a line each time the run stops by a stop rule. It is the run's truth: the best net is
//! the last promoted generation's, and the next generation is the one after the last line.

use std::io::Write;

use serde::{Deserialize, Serialize};

use super::layout::{MAX_STATE_BYTES, RunDir};

/// An Elo difference and half its 95 % interval.
#[derive(Clone, Copy, Debug, PartialEq, Serialize, Deserialize)]
pub struct Elo {
    /// The estimate.
    pub elo: f64,
    /// Half the 95 % interval.
    pub error: f64,
}

impl Elo {
    /// Generation 0 against itself.
    pub const ZERO: Elo = Elo {
        elo: 0.0,
        error: 0.0,
    };

    /// This difference followed by `step` (independent errors add in quadrature).
    pub fn then(self, step: Elo) -> Elo {
        Elo {
            elo: self.elo + step.elo,
            error: self.error.hypot(step.error),
        }
    }
}

/// A gate's (or an anchor match's) games and what they say.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct GateResult {
    /// Games played.
    pub games: u64,
    /// The first engine's (the candidate's) wins.
    pub wins: u64,
    /// Its losses.
    pub losses: u64,
    /// Draws.
    pub draws: u64,
    /// The first engine's Elo (finite: a clean sweep counts as half a game short of it).
    pub elo: Elo,
    /// The SPRT's log-likelihood ratio, when there was one.
    pub llr: Option<f64>,
    /// `H1`, `H0`, or `open` (the games ran out first); `none` without an SPRT.
    pub verdict: String,
    /// Whether the gate passes.
    pub passed: bool,
    /// The command's settings in words (`nodes=5000`, `tc=2+0.02 concurrency=2`).
    pub conditions: String,
}

/// One generation's line.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct GenerationLine {
    /// The generation (0: the start).
    pub generation: u32,
    /// Whether the candidate became the best (generation 0: always).
    pub promoted: bool,
    /// The best after this generation: `gen-NNN` or `hand`.
    pub best: String,
    /// The candidate's net file in the run folder (`nets/gen-NNN.nnue`), or `hand`.
    pub net: String,
    /// Self-play: games, positions, bytes, throughput.
    pub data: Option<serde_json::Value>,
    /// Training: positions, losses, throughput.
    pub train: Option<serde_json::Value>,
    /// The gate at fixed nodes.
    pub gate_nodes: Option<GateResult>,
    /// The gate at a clock.
    pub gate_clock: Option<GateResult>,
    /// The new best against the hand evaluation.
    pub anchor: Option<GateResult>,
    /// The candidate against generation 0 (the best's Elo plus its gate's).
    pub candidate_vs_gen0: Elo,
    /// The best after this generation against generation 0.
    pub best_vs_gen0: Elo,
    /// The best after this generation against the hand evaluation (the last anchor).
    pub best_vs_hand: Option<Elo>,
    /// Wall time by step, in seconds, and `total`.
    pub seconds: serde_json::Map<String, serde_json::Value>,
    /// When the generation ended (Unix seconds).
    pub ended: u64,
}

/// A stop rule's line.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct StopLine {
    /// `generations`, `hours` or `rejections`.
    pub rule: String,
    /// What was reached, in words.
    pub reason: String,
    /// The last generation that ended.
    pub after_generation: u32,
    /// When (Unix seconds).
    pub ended: u64,
}

/// A line of the ledger.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
#[serde(tag = "kind", rename_all = "lowercase")]
pub enum Line {
    /// A generation ended.
    Generation(Box<GenerationLine>),
    /// The run stopped by a rule.
    Stop(StopLine),
}

/// The ledger read back.
#[derive(Clone, Debug, Default, PartialEq)]
pub struct Ledger {
    /// Every line, in order.
    pub lines: Vec<Line>,
}

impl Ledger {
    /// Reads the run's ledger (empty when there is none). A line cut short by a kill (the
    /// last one, without its newline) is dropped: its generation is then simply redone from
    /// its steps.
    pub fn read(run: &RunDir) -> Result<Ledger, String> {
        let path = run.ledger();
        if !path.exists() {
            return Ok(Ledger::default());
        }
        let text = crate::files::read_regular_text(&path, MAX_STATE_BYTES)
            .map_err(|e| format!("{}: {e}", path.display()))?;
        let mut lines = Vec::new();
        let whole = text.rfind('\n').map_or("", |end| &text[..end]);
        for (i, line) in whole.lines().enumerate() {
            if line.trim().is_empty() {
                continue;
            }
            let parsed: Line = serde_json::from_str(line)
                .map_err(|e| format!("{} line {}: {e}", path.display(), i + 1))?;
            lines.push(parsed);
        }
        Ok(Ledger { lines })
    }

    /// Appends `line` to the run's ledger (a partial last line left by a kill is cut first).
    pub fn append(run: &RunDir, line: &Line) -> Result<(), String> {
        let path = run.ledger();
        let name = path.display();
        if let Ok(text) = std::fs::read_to_string(&path)
            && !text.is_empty()
            && !text.ends_with('\n')
        {
            let keep = text.rfind('\n').map_or(0, |i| i + 1);
            crate::record::truncate(&path, keep as u64).map_err(|e| format!("{name}: {e}"))?;
        }
        let text = serde_json::to_string(line).map_err(|e| e.to_string())? + "\n";
        let mut file = std::fs::File::options()
            .create(true)
            .append(true)
            .open(&path)
            .map_err(|e| format!("{name}: {e}"))?;
        file.write_all(text.as_bytes())
            .and_then(|()| file.sync_data())
            .map_err(|e| format!("{name}: {e}"))
    }

    /// The generations' lines, in order.
    pub fn generations(&self) -> impl Iterator<Item = &GenerationLine> {
        self.lines.iter().filter_map(|l| match l {
            Line::Generation(g) => Some(g.as_ref()),
            Line::Stop(_) => None,
        })
    }

    /// The last generation that ended.
    pub fn last(&self) -> Option<&GenerationLine> {
        self.generations().last()
    }

    /// The last promoted generation: the best (generation 0 until another is promoted).
    pub fn best(&self) -> Option<&GenerationLine> {
        self.generations().filter(|g| g.promoted).last()
    }

    /// Candidates rejected since the last promotion.
    pub fn rejected_in_a_row(&self) -> u32 {
        self.generations()
            .collect::<Vec<_>>()
            .iter()
            .rev()
            .take_while(|g| !g.promoted)
            .count() as u32
    }

    /// Wall time of every generation that ended, in seconds.
    pub fn seconds(&self) -> f64 {
        self.generations()
            .filter_map(|g| g.seconds.get("total").and_then(|s| s.as_f64()))
            .sum()
    }
}

/// Now, in Unix seconds.
pub fn now() -> u64 {
    std::time::SystemTime::now()
        .duration_since(std::time::UNIX_EPOCH)
        .map_or(0, |d| d.as_secs())
}

#[cfg(test)]
mod tests {
    use super::*;

    fn generation(g: u32, promoted: bool) -> Line {
        Line::Generation(Box::new(GenerationLine {
            generation: g,
            promoted,
            best: format!("gen-{g:03}"),
            net: format!("nets/gen-{g:03}.nnue"),
            data: None,
            train: None,
            gate_nodes: None,
            gate_clock: None,
            anchor: None,
            candidate_vs_gen0: Elo::ZERO,
            best_vs_gen0: Elo::ZERO,
            best_vs_hand: None,
            seconds: [("total".to_string(), serde_json::json!(10.5))]
                .into_iter()
                .collect(),
            ended: 1,
        }))
    }

    #[test]
    fn a_ledger_reads_back_what_was_appended_and_drops_a_cut_line() {
        let dir = std::env::temp_dir().join(format!("ludus-ledger-{}", std::process::id()));
        let _ = std::fs::remove_dir_all(&dir);
        std::fs::create_dir_all(&dir).unwrap();
        let run = RunDir::new(&dir);
        for (g, p) in [(0, true), (1, false), (2, true), (3, false), (4, false)] {
            Ledger::append(&run, &generation(g, p)).unwrap();
        }
        let ledger = Ledger::read(&run).unwrap();
        assert_eq!(ledger.lines.len(), 5);
        assert_eq!(ledger.best().map(|g| g.generation), Some(2));
        assert_eq!(ledger.rejected_in_a_row(), 2);
        assert_eq!(ledger.seconds(), 52.5);
        // A kill in the middle of a line: the line is not read, and the next append cuts it.
        let mut file = std::fs::File::options()
            .append(true)
            .open(run.ledger())
            .unwrap();
        file.write_all(b"{\"kind\":\"generation\",\"gener").unwrap();
        assert_eq!(Ledger::read(&run).unwrap().lines.len(), 5);
        Ledger::append(&run, &generation(5, true)).unwrap();
        let ledger = Ledger::read(&run).unwrap();
        assert_eq!(ledger.lines.len(), 6);
        assert_eq!(ledger.rejected_in_a_row(), 0);
        let _ = std::fs::remove_dir_all(&dir);
    }

    #[test]
    fn elo_differences_chain_with_errors_in_quadrature() {
        let e = Elo::ZERO
            .then(Elo {
                elo: 30.0,
                error: 30.0,
            })
            .then(Elo {
                elo: -10.0,
                error: 40.0,
            });
        assert_eq!(e.elo, 20.0);
        assert!((e.error - 50.0).abs() < 1e-9);
    }
}
