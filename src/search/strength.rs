//! Limited strength (`UCI_LimitStrength`, `UCI_Elo`): the full alpha-beta search cut to a node
//! budget, asked for its best few lines, and a move chosen among them by a softmax of their
//! scores at a temperature. A weaker setting searches fewer nodes and errs more readily, but
//! only among moves its own search found nearly as good: it never plays a move that a glance
//! shows to be absurd, and since the budget is nodes, not time, a setting plays the same at any
//! time control.
//!
//! Each game has its own Elo scale, anchored at `Level random` = 0 (or, where `Level random`
//! loses every game, on the weakest setting): a few calibrated settings ([`Anchor`]) whose
//! ratings were measured by matches (docs/strength.md, "Levels"); a rating between two anchors
//! interpolates their settings. The solved book is never consulted below
//! full strength.

use std::sync::atomic::AtomicBool;

use rand::RngExt;
use rand::rngs::SmallRng;

use super::score::Score;
use super::{SearchInfo, SearchParams, SearchTables, search};
use crate::game::Searchable;

/// How strongly a limited search plays.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct Strength {
    /// The most nodes one move may search (depth 1 is always completed).
    pub nodes: u64,
    /// How many best lines the choice is made among.
    pub lines: usize,
    /// The softmax temperature in the game's score unit: a line this much worse than the best
    /// is chosen e (≈ 2.72) times less often than the best.
    pub temperature: f64,
}

/// A calibrated setting: the rating it measured on its game's scale, and the setting.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct Anchor {
    /// The measured rating (`Level random` = 0).
    pub elo: i64,
    /// The setting.
    pub strength: Strength,
}

const fn anchor(elo: i64, nodes: u64, lines: usize, temperature: f64) -> Anchor {
    Anchor {
        elo,
        strength: Strength {
            nodes,
            lines,
            temperature,
        },
    }
}

/// Sight's calibrated settings, weakest first (docs/strength.md, "Levels": 200 games per step,
/// 27 Nov 2026).
const SIGHT: &[Anchor] = &[
    anchor(392, 1, 8, 12.0),
    anchor(496, 14, 7, 9.0),
    anchor(701, 200, 6, 6.0),
    anchor(832, 447, 6, 5.0),
    anchor(932, 1_000, 5, 4.0),
    anchor(1055, 2_000, 5, 3.25),
    anchor(1228, 4_000, 4, 2.5),
    anchor(1419, 15_000, 3, 1.5),
    anchor(1566, 50_000, 3, 0.8),
    anchor(1670, 150_000, 2, 0.4),
];

/// Isaac's settings, weakest first: nominal ratings, not calibrated yet (docs/strength.md,
/// "Levels").
const ISAAC: &[Anchor] = &[
    anchor(200, 1, 8, 8.0),
    anchor(400, 1_000, 6, 4.0),
    anchor(600, 5_000, 5, 2.5),
    anchor(800, 20_000, 4, 1.5),
    anchor(1000, 60_000, 3, 1.0),
    anchor(1200, 150_000, 2, 0.5),
];

/// Tactigon's calibrated settings, weakest first (docs/strength.md, "Levels": 200 games per
/// step, 27 Nov 2026). `Level random` loses every game to all of them, so the scale is
/// anchored on the weakest: 725, the low end of the 95 % interval of its 200-0 score.
const TACTIGON: &[Anchor] = &[
    anchor(725, 1, 8, 60.0),
    anchor(900, 200, 6, 35.0),
    anchor(1011, 1_000, 5, 20.0),
    anchor(1197, 4_000, 4, 12.0),
    anchor(1409, 15_000, 3, 7.0),
    anchor(1614, 50_000, 3, 4.0),
];

/// The calibrated settings of the game called `game`, weakest first (empty for a game that
/// has none).
pub fn anchors(game: &str) -> &'static [Anchor] {
    match game {
        "sight" => SIGHT,
        "isaac" => ISAAC,
        "tactigon" => TACTIGON,
        _ => &[],
    }
}

/// The lowest and highest rating any game's settings reach: the range of `UCI_Elo`.
pub fn elo_range() -> (i64, i64) {
    let all = ["sight", "isaac", "tactigon"].map(anchors);
    let low = all.iter().filter_map(|a| a.first()).map(|a| a.elo).min();
    let high = all.iter().filter_map(|a| a.last()).map(|a| a.elo).max();
    (low.unwrap_or(0), high.unwrap_or(0))
}

/// The setting that plays at `elo` on `game`'s scale: clamped to the game's calibrated range,
/// and between two anchors their settings interpolated (nodes geometrically, the temperature
/// and the number of lines linearly). `None` for a game without settings.
pub fn for_elo(game: &str, elo: i64) -> Option<Strength> {
    let anchors = anchors(game);
    let first = anchors.first()?;
    let last = anchors.last()?;
    if elo <= first.elo {
        return Some(first.strength);
    }
    if elo >= last.elo {
        return Some(last.strength);
    }
    let upper = anchors.iter().position(|a| a.elo > elo)?;
    let (a, b) = (&anchors[upper - 1], &anchors[upper]);
    let t = (elo - a.elo) as f64 / (b.elo - a.elo) as f64;
    let (sa, sb) = (a.strength, b.strength);
    let nodes = ((sa.nodes as f64).ln() * (1.0 - t) + (sb.nodes as f64).ln() * t).exp();
    let lines = sa.lines as f64 * (1.0 - t) + sb.lines as f64 * t;
    Some(Strength {
        nodes: nodes.round().max(1.0) as u64,
        lines: lines.round().max(1.0) as usize,
        temperature: sa.temperature * (1.0 - t) + sb.temperature * t,
    })
}

/// A score as a number to choose by: evaluations as they are, a proven result far beyond any
/// evaluation (shorter wins and longer losses preferred).
fn value(score: Score) -> f64 {
    const PROVEN: f64 = 100_000.0;
    match score {
        Score::Cp(cp) => f64::from(cp),
        Score::Mate(n) if n > 0 => PROVEN - f64::from(n),
        Score::Mate(n) => -PROVEN - f64::from(n),
    }
}

/// Chooses one of `lines` (best first, each with a non-empty principal variation) by a
/// softmax of their scores at `temperature`; `None` when there is none.
pub fn choose<'a, M>(
    lines: &'a [SearchInfo<M>],
    temperature: f64,
    rng: &mut SmallRng,
) -> Option<&'a SearchInfo<M>> {
    let best = lines.iter().map(|l| value(l.score)).reduce(f64::max)?;
    let weights: Vec<f64> = lines
        .iter()
        .map(|l| ((value(l.score) - best) / temperature.max(1e-6)).exp())
        .collect();
    let total: f64 = weights.iter().sum();
    let mut pick = rng.random::<f64>() * total;
    for (line, w) in lines.iter().zip(&weights) {
        if pick < *w {
            return Some(line);
        }
        pick -= w;
    }
    lines.first()
}

/// Searches `root` at `strength` within `params` (whose own limits still apply: the clock, a
/// `go nodes` smaller than the budget, `stop`) and returns the chosen line, reported as the
/// search's only line: the lines chosen among stay private. `None` when there is no legal move.
pub fn search_limited<G: Searchable>(
    root: &G,
    params: &SearchParams<G::Move>,
    strength: Strength,
    tables: &mut SearchTables<G::Move>,
    stop: &AtomicBool,
    rng: &mut SmallRng,
) -> Option<SearchInfo<G::Move>> {
    let mut limited = params.clone();
    limited.multipv = strength.lines.max(1);
    limited.threads = 1;
    limited.limits.nodes = Some(
        params
            .limits
            .nodes
            .map_or(strength.nodes, |n| n.min(strength.nodes)),
    );
    let mut lines = collect_lines(root, &limited, tables, stop);
    if lines.is_empty() {
        // The budget ended inside depth 1: depth 1 alone, which any budget may spend.
        // It runs to its end even after a `stop`, as a move must be answered.
        limited.limits.nodes = None;
        limited.limits.depth = Some(1);
        lines = collect_lines(root, &limited, tables, &AtomicBool::new(false));
    }
    let chosen = choose(&lines, strength.temperature, rng)?.clone();
    let nodes = lines.first().map_or(0, |l| l.nodes);
    Some(SearchInfo {
        multipv: None,
        nodes,
        ..chosen
    })
}

/// The lines of the last iteration a search completed, best first.
fn collect_lines<G: Searchable>(
    root: &G,
    params: &SearchParams<G::Move>,
    tables: &mut SearchTables<G::Move>,
    stop: &AtomicBool,
) -> Vec<SearchInfo<G::Move>> {
    let mut lines: Vec<SearchInfo<G::Move>> = Vec::new();
    search(root, params, tables, stop, &mut |info| {
        let k = info.multipv.unwrap_or(1);
        if k == 1 {
            lines.clear();
        }
        if k == lines.len() + 1 && !info.pv.is_empty() {
            lines.push(info);
        }
    });
    lines
}
