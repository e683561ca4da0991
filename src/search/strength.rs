//! Limited strength (`UCI_LimitStrength`, `UCI_Elo`): the full alpha-beta search cut to a node
//! budget, asked for its best few lines, and a move chosen among them by a softmax of their
//! scores at a temperature. A weaker setting searches fewer nodes and errs more readily, but
//! only among moves its own search found nearly as good: it never plays a move that a glance
//! shows to be absurd, and since the budget is nodes, not time, a setting plays the same at any
//! time control.
//!
//! Each game has its own Elo scale, anchored at `Level random` = 0 (or, where `Level random`
//! loses every game, on the weakest setting): a few calibrated settings in the game's folder
//! ([`SearchHooks::RATED_SETTINGS`](crate::game::SearchHooks::RATED_SETTINGS)) whose ratings
//! were measured by matches (docs/strength.md, "Levels"); a rating between two of them
//! interpolates their settings. The solved book is never consulted below
//! full strength.

use std::sync::atomic::AtomicBool;

use rand::RngExt;
use rand::rngs::SmallRng;

use super::score::Score;
use super::{SearchInfo, SearchParams, SearchTables, search};
use crate::game::{GameId, RatedSetting, Searchable};

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

impl Strength {
    /// The strength of a calibrated setting.
    pub fn of(setting: &RatedSetting) -> Strength {
        Strength {
            nodes: setting.nodes,
            lines: setting.lines,
            temperature: setting.temperature,
        }
    }
}

/// The lowest and highest rating `game`'s settings reach: the range of `UCI_Elo` while it is
/// played (each game has its own scale, measured by its own matches). `(0, 0)` for a game
/// without ratings.
pub fn elo_range(game: GameId) -> (i64, i64) {
    let scale = game.rated_settings();
    match (scale.first(), scale.last()) {
        (Some(first), Some(last)) => (first.elo, last.elo),
        _ => (0, 0),
    }
}

/// The setting of a game's scale `scale` (its
/// [`SearchHooks::RATED_SETTINGS`](crate::game::SearchHooks::RATED_SETTINGS)) that plays at
/// `elo`: clamped to the scale's range, and between two settings their values interpolated
/// (nodes geometrically, the temperature and the number of lines linearly). `None` for an
/// empty scale.
pub fn for_elo(scale: &[RatedSetting], elo: i64) -> Option<Strength> {
    let first = scale.first()?;
    let last = scale.last()?;
    if elo <= first.elo {
        return Some(Strength::of(first));
    }
    if elo >= last.elo {
        return Some(Strength::of(last));
    }
    let upper = scale.iter().position(|a| a.elo > elo)?;
    let (a, b) = (&scale[upper - 1], &scale[upper]);
    let t = (elo - a.elo) as f64 / (b.elo - a.elo) as f64;
    let nodes = ((a.nodes as f64).ln() * (1.0 - t) + (b.nodes as f64).ln() * t).exp();
    let lines = a.lines as f64 * (1.0 - t) + b.lines as f64 * t;
    Some(Strength {
        nodes: nodes.round().max(1.0) as u64,
        lines: lines.round().max(1.0) as usize,
        temperature: a.temperature * (1.0 - t) + b.temperature * t,
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
/// softmax of their scores at `temperature`; `None` when there is none. A line proven lost is
/// never chosen while another is not: its score, reported as the search's, would claim the
/// position lost.
pub fn choose<'a, M>(
    lines: &'a [SearchInfo<M>],
    temperature: f64,
    rng: &mut SmallRng,
) -> Option<&'a SearchInfo<M>> {
    let best = lines.iter().map(|l| value(l.score)).reduce(f64::max)?;
    let lost = |l: &SearchInfo<M>| matches!(l.score, Score::Mate(n) if n <= 0);
    let all_lost = lines.iter().all(lost);
    let weights: Vec<f64> = lines
        .iter()
        .map(|l| {
            if lost(l) && !all_lost {
                0.0
            } else {
                ((value(l.score) - best) / temperature.max(1e-6)).exp()
            }
        })
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
