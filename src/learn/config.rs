//! What a learning run does, generation after generation: its game and rules, where it
//! starts, and the settings of each step (self-play, training, the gates). A run keeps the
//! whole configuration in its folder (`learn.json`) at its first start; a later start of the
//! same folder must give the same configuration (or none), so that a run never mixes two.
//!
//! A configuration file (`ludus learn --config FILE`) is a JSON object with any of the fields
//! below; the others take the game's defaults ([`LearnConfig::defaults`]). Unknown fields are
//! refused, so a misspelt setting is an error, not a silent default.

use std::collections::BTreeMap;
use std::path::Path;

use serde::{Deserialize, Serialize};

use crate::game::GameId;
use crate::game::dynamic::RuleSet;

/// The largest configuration file read.
const MAX_CONFIG_BYTES: u64 = 1 << 20;

/// Tactigon's balanced 2-ply openings (the strength scripts' book), the default of its gates.
const TACTIGON_OPENINGS: &str = include_str!("../../benches/strength/openings/tactigon.txt");

/// The whole configuration of a learning run.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct LearnConfig {
    /// The game (`isaac`, `sight`, `tactigon`).
    pub game: String,
    /// Rule options, by name (e.g. `Sight_BoardSize` → `7`).
    pub options: BTreeMap<String, String>,
    /// Generation 0's evaluation: `builtin` (the net built into ludus for the game),
    /// `hand` (the hand-written evaluation) or a net file (copied into the run).
    pub start: String,
    /// The seed every generation's seeds are drawn from.
    pub seed: u64,
    /// Self-play.
    pub datagen: DatagenPlan,
    /// Training.
    pub train: TrainPlan,
    /// The first gate: an SPRT at fixed nodes, the candidate against the best.
    pub gate: GatePlan,
    /// The second gate, at a clock (`None`: none).
    pub confirm: Option<ConfirmPlan>,
    /// Games of each new best against the hand evaluation at the gate's nodes, for the
    /// ledger's Elo against the hand evaluation (0: not measured).
    pub anchor_games: u64,
    /// Openings of the gate games: `random N` (N random plies from the match seed) or
    /// `book` (the game's openings file kept in the run folder as `openings.txt`).
    pub openings: String,
}

/// Self-play settings (`ludus datagen`).
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct DatagenPlan {
    /// Games a generation.
    pub games: u32,
    /// Nodes a move.
    pub nodes: u64,
    /// Random plies that open each game.
    pub random_plies: u32,
    /// A game longer than this is a draw.
    pub max_plies: u32,
    /// Shards, each its own process (on one machine: the cores to use).
    pub shards: u32,
}

/// Training settings (`ludus train`).
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct TrainPlan {
    /// Hidden units per view.
    pub hidden: usize,
    /// Passes over the data.
    pub epochs: usize,
    /// Positions per optimiser step.
    pub batch: usize,
    /// The first epoch's learning rate.
    pub lr: f64,
    /// Weight of the search's score in the target.
    pub lambda: f32,
    /// `none` or `hand` (the net learns a correction to the hand evaluation).
    pub base: String,
    /// Start each candidate from the best net's weights (when it has the same shape) instead
    /// of from scratch.
    pub warm_start: bool,
    /// Generations whose self-play data a candidate learns from: this one and the ones
    /// before it, as far as their files are in the run folder.
    pub window: u32,
}

/// The gate at fixed nodes: an SPRT of the candidate against the best.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct GatePlan {
    /// Nodes a move.
    pub nodes: u64,
    /// Games at most; a test still open then passes only if its Elo's 95 % interval is
    /// above 0.
    pub max_games: u64,
    /// SPRT bounds (Elo).
    pub elo0: f64,
    /// SPRT bounds (Elo).
    pub elo1: f64,
    /// Error rates.
    pub alpha: f64,
    /// Error rates.
    pub beta: f64,
    /// Games at once.
    pub concurrency: u32,
}

/// The gate at a clock, with games played side by side as users play them: an SPRT whose H1
/// ("not worse", elo1 ≥ 0) passes and whose H0 rejects.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct ConfirmPlan {
    /// The time control, `base+increment` in seconds (e.g. `2+0.02`).
    pub tc: String,
    /// Games at most; a test still open then passes if its Elo estimate is above 0.
    pub max_games: u64,
    /// SPRT bounds (Elo).
    pub elo0: f64,
    /// SPRT bounds (Elo).
    pub elo1: f64,
    /// Error rates.
    pub alpha: f64,
    /// Error rates.
    pub beta: f64,
    /// Games at once.
    pub concurrency: u32,
    /// Milliseconds an engine may overrun its clock (`timemargin`).
    pub timemargin: u64,
}

impl LearnConfig {
    /// The defaults for `game` with the rule `options`.
    pub fn defaults(game: GameId, options: &[(String, String)]) -> LearnConfig {
        let (games, random_plies, epochs, lambda, base, tc) = match game {
            GameId::Isaac => (20_000, 4, 1, 0.5, "hand", "2+0.02"),
            GameId::Tactigon => (20_000, 6, 4, 0.75, "none", "2+0.02"),
            GameId::Sight => (20_000, 4, 6, 0.5, "none", "5+0.05"),
        };
        LearnConfig {
            game: game.name().to_string(),
            options: options.iter().cloned().collect(),
            start: "builtin".into(),
            seed: 1,
            datagen: DatagenPlan {
                games,
                nodes: 5000,
                random_plies,
                max_plies: 400,
                shards: 2,
            },
            train: TrainPlan {
                hidden: 64,
                epochs,
                batch: 8192,
                lr: 0.002,
                lambda,
                base: base.into(),
                warm_start: true,
                window: 2,
            },
            gate: GatePlan {
                nodes: 5000,
                max_games: 2000,
                elo0: 0.0,
                elo1: 20.0,
                alpha: 0.05,
                beta: 0.05,
                concurrency: 2,
            },
            confirm: Some(ConfirmPlan {
                tc: tc.into(),
                max_games: 400,
                elo0: -10.0,
                elo1: 10.0,
                alpha: 0.05,
                beta: 0.05,
                concurrency: 2,
                timemargin: 50,
            }),
            anchor_games: 200,
            openings: if game == GameId::Tactigon {
                "book".into()
            } else {
                format!("random {random_plies}")
            },
        }
    }

    /// The defaults of `game` and `options` with the fields of the JSON object `text` put
    /// over them (nested objects field by field).
    pub fn from_json(
        game: GameId,
        options: &[(String, String)],
        text: &str,
    ) -> Result<LearnConfig, String> {
        let given: serde_json::Value =
            serde_json::from_str(text).map_err(|e| format!("not JSON: {e}"))?;
        if !given.is_object() {
            return Err("a configuration is a JSON object".into());
        }
        let mut value = serde_json::to_value(LearnConfig::defaults(game, options))
            .map_err(|e| e.to_string())?;
        overlay(&mut value, given);
        let config: LearnConfig = serde_json::from_value(value).map_err(|e| e.to_string())?;
        config.check()?;
        Ok(config)
    }

    /// Reads a configuration file: [`LearnConfig::from_json`] of its text.
    pub fn read(
        game: GameId,
        options: &[(String, String)],
        path: &Path,
    ) -> Result<LearnConfig, String> {
        let text = crate::files::read_regular_text(path, MAX_CONFIG_BYTES)
            .map_err(|e| format!("{}: {e}", path.display()))?;
        LearnConfig::from_json(game, options, &text).map_err(|e| format!("{}: {e}", path.display()))
    }

    /// The game.
    pub fn game_id(&self) -> Result<GameId, String> {
        GameId::from_name(&self.game).ok_or_else(|| format!("no game '{}'", self.game))
    }

    /// The rule options as the commands take them.
    pub fn option_pairs(&self) -> Vec<(String, String)> {
        self.options
            .iter()
            .map(|(n, v)| (n.clone(), v.clone()))
            .collect()
    }

    /// The random plies of `openings`, or `None` for the book.
    pub fn random_openings(&self) -> Result<Option<u32>, String> {
        if self.openings == "book" {
            return Ok(None);
        }
        self.openings
            .strip_prefix("random ")
            .and_then(|n| n.trim().parse().ok())
            .map(Some)
            .ok_or_else(|| {
                format!(
                    "openings: expected 'random N' or 'book', got '{}'",
                    self.openings
                )
            })
    }

    /// The game's openings book (for `openings: book`).
    pub fn book(&self) -> Result<&'static str, String> {
        match self.game_id()? {
            GameId::Tactigon => Ok(TACTIGON_OPENINGS),
            other => Err(format!(
                "openings: {} has no openings book; use 'random N'",
                other.name()
            )),
        }
    }

    /// Checks what serde cannot: the game and its options, and every number in range.
    pub fn check(&self) -> Result<(), String> {
        let game = self.game_id()?;
        RuleSet::new(game, &self.option_pairs())?;
        self.random_openings()?;
        if self.openings == "book" {
            self.book()?;
        }
        let d = &self.datagen;
        positive("datagen.games", u64::from(d.games))?;
        positive("datagen.nodes", d.nodes)?;
        positive("datagen.max_plies", u64::from(d.max_plies))?;
        positive("datagen.shards", u64::from(d.shards))?;
        if d.shards > d.games {
            return Err("datagen.shards: more shards than games".into());
        }
        let t = &self.train;
        positive("train.hidden", t.hidden as u64)?;
        positive("train.epochs", t.epochs as u64)?;
        positive("train.batch", t.batch as u64)?;
        positive("train.window", u64::from(t.window))?;
        if !(t.lr > 0.0 && t.lr < 1.0) {
            return Err(format!("train.lr: {} is not in (0, 1)", t.lr));
        }
        if !(0.0..=1.0).contains(&t.lambda) {
            return Err(format!("train.lambda: {} is not in [0, 1]", t.lambda));
        }
        if crate::net::NetBase::from_name(&t.base).is_none() {
            return Err(format!(
                "train.base: expected 'none' or 'hand', got '{}'",
                t.base
            ));
        }
        let g = &self.gate;
        positive("gate.nodes", g.nodes)?;
        positive("gate.concurrency", u64::from(g.concurrency))?;
        sprt_bounds("gate", g.max_games, g.elo0, g.elo1, g.alpha, g.beta)?;
        if let Some(c) = &self.confirm {
            positive("confirm.concurrency", u64::from(c.concurrency))?;
            sprt_bounds("confirm", c.max_games, c.elo0, c.elo1, c.alpha, c.beta)?;
            check_tc(&c.tc)?;
        }
        if self.start != "builtin" && self.start != "hand" && self.start.is_empty() {
            return Err("start: expected 'builtin', 'hand' or a net file".into());
        }
        Ok(())
    }

    /// The fields in which `other` differs from this configuration, by name.
    pub fn differences(&self, other: &LearnConfig) -> Vec<String> {
        let (Ok(a), Ok(b)) = (serde_json::to_value(self), serde_json::to_value(other)) else {
            return vec!["(unreadable)".into()];
        };
        let mut out = Vec::new();
        diff("", &a, &b, &mut out);
        out
    }
}

/// Puts the fields of `given` over `base`, objects field by field.
fn overlay(base: &mut serde_json::Value, given: serde_json::Value) {
    match (base, given) {
        (serde_json::Value::Object(b), serde_json::Value::Object(g)) => {
            for (k, v) in g {
                match b.get_mut(&k) {
                    Some(slot) if slot.is_object() && v.is_object() => overlay(slot, v),
                    _ => {
                        b.insert(k, v);
                    }
                }
            }
        }
        (b, g) => *b = g,
    }
}

/// The dotted names of the fields where `a` and `b` differ.
fn diff(at: &str, a: &serde_json::Value, b: &serde_json::Value, out: &mut Vec<String>) {
    match (a, b) {
        (serde_json::Value::Object(x), serde_json::Value::Object(y)) => {
            let keys: std::collections::BTreeSet<&String> = x.keys().chain(y.keys()).collect();
            for k in keys {
                let null = serde_json::Value::Null;
                let name = if at.is_empty() {
                    k.clone()
                } else {
                    format!("{at}.{k}")
                };
                diff(
                    &name,
                    x.get(k).unwrap_or(&null),
                    y.get(k).unwrap_or(&null),
                    out,
                );
            }
        }
        _ if a != b => out.push(format!("{at} ({a} here, {b} given)")),
        _ => {}
    }
}

/// A clock as the gates write it for `ludus match`'s `tc=`: `BASE+INCREMENT` (or `BASE`) in
/// seconds, the base above 0 (the match checks it again; this catches a typo before the
/// first generation's hour of self-play).
fn check_tc(tc: &str) -> Result<(), String> {
    let (base, inc) = tc.split_once('+').unwrap_or((tc, "0"));
    let number = |s: &str| s.parse::<f64>().ok().filter(|x| x.is_finite() && *x >= 0.0);
    match (number(base), number(inc)) {
        (Some(b), Some(_)) if b > 0.0 => Ok(()),
        _ => Err(format!(
            "confirm.tc: expected BASE+INCREMENT in seconds (e.g. 2+0.02), got '{tc}'"
        )),
    }
}

fn positive(name: &str, value: u64) -> Result<(), String> {
    if value == 0 {
        return Err(format!("{name}: must be at least 1"));
    }
    Ok(())
}

fn sprt_bounds(
    name: &str,
    games: u64,
    elo0: f64,
    elo1: f64,
    alpha: f64,
    beta: f64,
) -> Result<(), String> {
    if games < 2 || !games.is_multiple_of(2) {
        return Err(format!(
            "{name}.max_games: an even number of at least 2, got {games}"
        ));
    }
    if !(elo0.is_finite() && elo1.is_finite() && elo0 < elo1) {
        return Err(format!("{name}: elo0 ({elo0}) must be below elo1 ({elo1})"));
    }
    for (what, p) in [("alpha", alpha), ("beta", beta)] {
        if !(p > 0.0 && p < 0.5) {
            return Err(format!("{name}.{what}: {p} is not in (0, 0.5)"));
        }
    }
    Ok(())
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_file_sets_some_fields_and_the_game_gives_the_rest() {
        let c = LearnConfig::from_json(
            GameId::Sight,
            &[("Sight_BoardSize".into(), "7".into())],
            r#"{"datagen": {"games": 40}, "confirm": null}"#,
        )
        .unwrap();
        assert_eq!(c.datagen.games, 40);
        assert_eq!(c.datagen.nodes, 5000);
        assert_eq!(c.confirm, None);
        assert_eq!(
            c.options.get("Sight_BoardSize").map(String::as_str),
            Some("7")
        );
        assert_eq!(c.train.epochs, 6);
    }

    #[test]
    fn a_misspelt_or_bad_setting_is_refused_by_name() {
        let e =
            LearnConfig::from_json(GameId::Isaac, &[], r#"{"datagen": {"gmes": 4}}"#).unwrap_err();
        assert!(e.contains("unknown field `gmes`"), "{e}");
        let e =
            LearnConfig::from_json(GameId::Isaac, &[], r#"{"gate": {"elo1": -5}}"#).unwrap_err();
        assert_eq!(e, "gate: elo0 (0) must be below elo1 (-5)");
        let e = LearnConfig::from_json(GameId::Sight, &[], r#"{"openings": "book"}"#).unwrap_err();
        assert!(e.contains("sight has no openings book"), "{e}");
        let e = LearnConfig::from_json(GameId::Sight, &[("Sight_Size".into(), "7".into())], "{}")
            .unwrap_err();
        assert!(e.contains("no rule option 'Sight_Size'"), "{e}");
        assert!(LearnConfig::from_json(GameId::Sight, &[], "[1]").is_err());
        let e = LearnConfig::from_json(GameId::Isaac, &[], r#"{"confirm": {"tc": "2+x"}}"#)
            .unwrap_err();
        assert!(e.starts_with("confirm.tc: expected BASE+INCREMENT"), "{e}");
    }

    #[test]
    fn differences_name_the_fields() {
        let a = LearnConfig::defaults(GameId::Tactigon, &[]);
        let mut b = a.clone();
        b.train.hidden = 128;
        b.seed = 9;
        assert_eq!(
            a.differences(&b),
            vec![
                "seed (1 here, 9 given)",
                "train.hidden (64 here, 128 given)"
            ]
        );
        assert!(a.differences(&a).is_empty());
    }
}
