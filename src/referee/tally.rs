//! The [`Tally`] of a match's finished games and the statistics of every encounter (a pair
//! of engines that met): wins, draws and losses, game pairs (pentanomial), terminations and
//! failures. Tables and the results file are made from it.

use std::collections::BTreeMap;

use crate::record::game::{GameResult, GameSummary, Termination};
use crate::stats::{Pentanomial, Wdl};

/// All games of a match (or several shards) and the statistics from them.
#[derive(Clone, Debug, Default, PartialEq)]
pub struct Tally {
    engines: Vec<String>,
    games: BTreeMap<u64, GameSummary>,
}

/// The games two engines played against each other, from `first`'s view.
#[derive(Clone, Debug, PartialEq)]
pub struct Encounter {
    /// The engine listed first in the match.
    pub first: String,
    /// The other engine.
    pub second: String,
    /// `first`'s wins, draws and losses.
    pub wdl: Wdl,
    /// `first`'s results of the complete pairs (games `2k+1` and `2k+2` both played).
    pub pentanomial: Pentanomial,
    /// How the games ended: the non-zero counts, in [`Termination::ALL`] order.
    pub terminations: Vec<(Termination, u64)>,
    /// Games lost by an engine failing: (the engine, how, count), `first`'s first, each in
    /// [`Termination::ALL`] order.
    pub failures: Vec<(String, Termination, u64)>,
}

/// The engine that won, if any.
fn winner(game: &GameSummary) -> Option<&str> {
    match game.result {
        GameResult::P1Win => Some(&game.p1),
        GameResult::P2Win => Some(&game.p2),
        GameResult::Draw => None,
    }
}

/// `engine`'s points in `game`, doubled (0, 1 or 2).
pub(crate) fn half_points(game: &GameSummary, engine: &str) -> usize {
    match winner(game) {
        Some(w) if w == engine => 2,
        Some(_) => 0,
        None => 1,
    }
}

/// A game for a message: `new vs old 1-0 rules`.
pub(crate) fn describe(game: &GameSummary) -> String {
    let (p1, p2, result) = (&game.p1, &game.p2, game.result.token());
    format!("{p1} vs {p2} {result} {}", game.termination)
}

impl Tally {
    /// An empty tally of a match between `engines` (the order tables list them in).
    pub fn new(engines: Vec<String>) -> Tally {
        Tally {
            engines,
            games: BTreeMap::new(),
        }
    }

    /// Adds a game. The same number twice with an identical summary is ignored; with a
    /// different one → `Err`. A name not among the engines, an engine playing itself or game
    /// number 0 → `Err`.
    pub fn add(&mut self, game: GameSummary) -> Result<(), String> {
        let number = game.number;
        for name in [&game.p1, &game.p2] {
            if !self.engines.contains(name) {
                return Err(format!(
                    "game {number}: {name:?} is not an engine of the match"
                ));
            }
        }
        if game.p1 == game.p2 {
            return Err(format!("game {number}: {:?} plays itself", game.p1));
        }
        if number == 0 {
            return Err("game 0: game numbers start at 1".into());
        }
        match self.games.get(&number) {
            Some(old) if *old == game => Ok(()),
            Some(old) => Err(format!(
                "game {number} appears twice, differently: {} ({} plies) and {} ({} plies)",
                describe(old),
                old.plies,
                describe(&game),
                game.plies
            )),
            None => {
                self.games.insert(number, game);
                Ok(())
            }
        }
    }

    /// The games, by number.
    pub fn games(&self) -> impl Iterator<Item = &GameSummary> {
        self.games.values()
    }

    /// Games played.
    pub fn len(&self) -> usize {
        self.games.len()
    }

    /// Whether no game was played.
    pub fn is_empty(&self) -> bool {
        self.games.is_empty()
    }

    /// The engines, in the order given.
    pub fn engines(&self) -> &[String] {
        &self.engines
    }

    /// One entry per pair of engines that met, in the order of the engines (the one listed
    /// first is `first`); counts from `first`'s view.
    pub fn encounters(&self) -> Vec<Encounter> {
        let index = |name: &str| self.engines.iter().position(|e| e == name);
        let mut by_pair: BTreeMap<(usize, usize), BTreeMap<u64, &GameSummary>> = BTreeMap::new();
        for g in self.games.values() {
            if let (Some(a), Some(b)) = (index(&g.p1), index(&g.p2)) {
                let games = by_pair.entry((a.min(b), a.max(b))).or_default();
                games.insert(g.number, g);
            }
        }
        let name = |i: usize| self.engines[i].as_str();
        by_pair
            .iter()
            .map(|(&(a, b), games)| encounter(name(a), name(b), games))
            .collect()
    }

    /// The encounter of the two engines of `game` (if they met).
    pub(crate) fn encounter_of(&self, game: &GameSummary) -> Option<Encounter> {
        self.encounters().into_iter().find(|e| {
            (e.first == game.p1 && e.second == game.p2)
                || (e.first == game.p2 && e.second == game.p1)
        })
    }
}

fn encounter(first: &str, second: &str, games: &BTreeMap<u64, &GameSummary>) -> Encounter {
    let mut wdl = Wdl::default();
    let mut pentanomial = Pentanomial::default();
    for (&number, game) in games {
        match half_points(game, first) {
            2 => wdl.wins += 1,
            1 => wdl.draws += 1,
            _ => wdl.losses += 1,
        }
        if number % 2 == 1
            && let Some(other) = games.get(&(number + 1))
        {
            pentanomial.0[half_points(game, first) + half_points(other, first)] += 1;
        }
    }
    let count = |keep: &dyn Fn(&GameSummary) -> bool| games.values().filter(|g| keep(g)).count();
    let terminations = Termination::ALL
        .into_iter()
        .map(|t| (t, count(&|g| g.termination == t) as u64))
        .filter(|&(_, n)| n > 0)
        .collect();
    let mut failures = Vec::new();
    for (loser, other) in [(first, second), (second, first)] {
        for t in Termination::ALL.into_iter().filter(|t| t.is_failure()) {
            let n = count(&|g| g.termination == t && winner(g) == Some(other));
            if n > 0 {
                failures.push((loser.to_string(), t, n as u64));
            }
        }
    }
    Encounter {
        first: first.to_string(),
        second: second.to_string(),
        wdl,
        pentanomial,
        terminations,
        failures,
    }
}

/// Games for the tests of the tally, the tables and the results file.
#[cfg(test)]
pub(crate) mod test_support {
    use super::*;
    pub use GameResult::{Draw, P1Win, P2Win};
    pub use Termination::{Crash, MaxPlies, Rules, TimeForfeit};

    /// The SPRT the table and results tests use.
    pub const SPRT: crate::stats::Sprt = crate::stats::Sprt {
        elo0: 0.0,
        elo1: 5.0,
        alpha: 0.05,
        beta: 0.05,
    };

    pub fn g(number: u64, p1: &str, p2: &str, result: GameResult, t: Termination) -> GameSummary {
        let (round, plies) = (number.div_ceil(2) as u32, 20 + number as u32);
        let (p1, p2) = (p1.to_string(), p2.to_string());
        GameSummary {
            number,
            round,
            p1,
            p2,
            result,
            termination: t,
            plies,
        }
    }

    pub fn tally(engines: &[&str], games: &[GameSummary]) -> Tally {
        let mut t = Tally::new(engines.iter().map(|e| e.to_string()).collect());
        for game in games {
            t.add(game.clone()).expect("valid game");
        }
        t
    }

    /// Pairs 1–2 (W + D → 1½) and 3–4 (L by crash + W → 1), and game 5 without its twin.
    pub fn sample() -> Tally {
        tally(
            &["new", "old"],
            &[
                g(1, "new", "old", P1Win, Rules),
                g(2, "old", "new", Draw, MaxPlies),
                g(3, "new", "old", P2Win, Crash),
                g(4, "old", "new", P2Win, Rules),
                g(5, "new", "old", P1Win, Rules),
            ],
        )
    }
}

#[cfg(test)]
mod tests {
    use super::test_support::*;
    use super::*;

    #[test]
    fn encounters_count_results_pairs_terminations_and_failures() {
        let e = sample().encounters();
        assert_eq!(e.len(), 1);
        let e = &e[0];
        assert_eq!((e.first.as_str(), e.second.as_str()), ("new", "old"));
        assert_eq!(
            e.wdl,
            Wdl {
                wins: 3,
                draws: 1,
                losses: 1
            }
        );
        assert_eq!(e.pentanomial, Pentanomial([0, 0, 1, 1, 0]));
        assert_eq!(e.terminations, vec![(Rules, 3), (MaxPlies, 1), (Crash, 1)]);
        assert_eq!(e.failures, vec![("new".to_string(), Crash, 1)]);
        // Three engines: encounters in engine order, counted from the one listed first.
        let t = tally(
            &["a", "b", "c"],
            &[
                g(1, "c", "b", P1Win, TimeForfeit),
                g(2, "b", "c", Draw, Rules),
                g(3, "a", "c", P1Win, Rules),
            ],
        );
        let e = t.encounters();
        let names: Vec<_> = e
            .iter()
            .map(|e| (e.first.as_str(), e.second.as_str()))
            .collect();
        assert_eq!(names, [("a", "c"), ("b", "c")]);
        assert_eq!(
            e[1].wdl,
            Wdl {
                wins: 0,
                draws: 1,
                losses: 1
            }
        );
        assert_eq!(e[1].pentanomial, Pentanomial([0, 1, 0, 0, 0]));
        assert_eq!(e[1].failures, vec![("b".to_string(), TimeForfeit, 1)]);
    }

    #[test]
    fn add_rejects_conflicts_strangers_and_self_play() {
        let mut t = sample();
        assert_eq!(t.add(g(1, "new", "old", P1Win, Rules)), Ok(()));
        assert_eq!(t.len(), 5);
        let err = t
            .add(g(1, "new", "old", Draw, Rules))
            .expect_err("conflict");
        assert!(
            err.starts_with("game 1 appears twice, differently"),
            "{err}"
        );
        assert!(t.add(g(9, "new", "x", Draw, Rules)).is_err());
        assert!(t.add(g(9, "new", "new", Draw, Rules)).is_err());
        assert!(t.add(g(0, "new", "old", Draw, Rules)).is_err());
    }
}
