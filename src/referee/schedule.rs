//! The match schedule: which engines meet, in which seats, from which opening. A match is a
//! list of game pairs; the two games of a pair start from the same opening with the seats
//! swapped. Game numbers are fixed by the schedule (pair `k` holds games `2k+1` and `2k+2`),
//! so shards and resumed runs agree on every game's number, engines and opening.

use std::str::FromStr;

use rand::SeedableRng;
use rand::rngs::SmallRng;
use rand::seq::SliceRandom;

use crate::referee::openings::mix;

/// Who plays whom.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Default)]
pub enum Tournament {
    /// Every engine against every other.
    #[default]
    RoundRobin,
    /// The first engine against each of the others.
    Gauntlet,
}

impl Tournament {
    /// The name `--tournament` takes: `round-robin` or `gauntlet`.
    pub fn name(self) -> &'static str {
        match self {
            Tournament::RoundRobin => "round-robin",
            Tournament::Gauntlet => "gauntlet",
        }
    }
}

impl FromStr for Tournament {
    type Err = String;
    fn from_str(s: &str) -> Result<Tournament, String> {
        match s {
            "round-robin" | "roundrobin" => Ok(Tournament::RoundRobin),
            "gauntlet" => Ok(Tournament::Gauntlet),
            _ => Err(format!(
                "unknown tournament '{s}' (round-robin or gauntlet)"
            )),
        }
    }
}

/// One pair of games.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct PairJob {
    /// The pair's index in the schedule (0-based).
    pub index: u64,
    /// The round (0-based); it picks the opening.
    pub round: u64,
    /// The engine that is player one in the pair's first game.
    pub first: usize,
    /// The engine that is player one in the pair's second game.
    pub second: usize,
}

impl PairJob {
    /// The numbers of the pair's two games (1-based).
    pub fn game_numbers(&self) -> [u64; 2] {
        [2 * self.index + 1, 2 * self.index + 2]
    }
}

/// The encounters of a match (pairs of engine indices that meet), in schedule order.
pub fn encounters(engines: usize, tournament: Tournament) -> Vec<(usize, usize)> {
    let mut encounters = Vec::new();
    for i in 0..engines {
        for j in i + 1..engines {
            if tournament == Tournament::RoundRobin || i == 0 {
                encounters.push((i, j));
            }
        }
    }
    encounters
}

/// Pairs in the whole schedule (`None` if the count overflows).
pub fn pair_count(engines: usize, tournament: Tournament, rounds: u64) -> Option<u64> {
    rounds.checked_mul(encounters(engines, tournament).len() as u64)
}

/// Pair `index` of the schedule (as [`pairs`] lists it), computed without listing the
/// schedule; `None` past its end.
pub fn pair_at(engines: usize, tournament: Tournament, rounds: u64, index: u64) -> Option<PairJob> {
    let encounters = encounters(engines, tournament);
    let per_round = encounters.len() as u64;
    let round = index.checked_div(per_round)?;
    if round >= rounds {
        return None;
    }
    let (first, second) = encounters[(index % per_round) as usize];
    Some(PairJob {
        index,
        round,
        first,
        second,
    })
}

/// Every pair of the match, round by round; within a round, the encounters in order.
pub fn pairs(engines: usize, tournament: Tournament, rounds: u64) -> Vec<PairJob> {
    let encounters = encounters(engines, tournament);
    let mut jobs = Vec::new();
    for round in 0..rounds {
        for &(first, second) in &encounters {
            jobs.push(PairJob {
                index: jobs.len() as u64,
                round,
                first,
                second,
            });
        }
    }
    jobs
}

/// Which opening each round uses, from a list of `count` openings: in file order (cycling), or
/// shuffled by the seed (a fresh shuffle each pass through the list).
pub fn opening_index(count: usize, round: u64, shuffle: bool, seed: u64) -> usize {
    let pass = round / count as u64;
    let slot = (round % count as u64) as usize;
    if !shuffle {
        return slot;
    }
    let mut order: Vec<usize> = (0..count).collect();
    order.shuffle(&mut SmallRng::seed_from_u64(mix(seed, pass)));
    order[slot]
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::runs::ShardSet;

    #[test]
    fn round_robin_and_gauntlet() {
        let rr = pairs(3, Tournament::RoundRobin, 2);
        let meet: Vec<(usize, usize)> = rr.iter().map(|p| (p.first, p.second)).collect();
        assert_eq!(meet, [(0, 1), (0, 2), (1, 2), (0, 1), (0, 2), (1, 2)]);
        assert_eq!(rr[4].round, 1);
        assert_eq!(rr[4].game_numbers(), [9, 10]);
        let g = pairs(3, Tournament::Gauntlet, 1);
        assert_eq!(g.len(), 2);
        assert_eq!((g[1].first, g[1].second), (0, 2));
    }

    #[test]
    fn pairs_are_found_by_index_and_shards_select_them() {
        let all = pairs(3, Tournament::RoundRobin, 4);
        for job in &all {
            assert_eq!(pair_at(3, Tournament::RoundRobin, 4, job.index), Some(*job));
        }
        assert_eq!(pair_at(3, Tournament::RoundRobin, 4, 12), None);
        assert_eq!(pair_at(3, Tournament::RoundRobin, 4, u64::MAX), None);
        assert_eq!(pair_at(1, Tournament::RoundRobin, 4, 0), None);
        assert_eq!(pair_count(3, Tournament::Gauntlet, 4), Some(8));
        assert_eq!(pair_count(3, Tournament::RoundRobin, u64::MAX), None);
        let set = ShardSet {
            count: 3,
            indices: vec![1, 3],
        };
        assert_eq!(all.iter().filter(|j| set.contains(j.index)).count(), 8);
    }

    #[test]
    fn opening_order_is_a_seeded_permutation_per_pass() {
        let seq: Vec<usize> = (0..6).map(|r| opening_index(3, r, false, 0)).collect();
        assert_eq!(seq, [0, 1, 2, 0, 1, 2]);
        let mut pass: Vec<usize> = (0..5).map(|r| opening_index(5, r, true, 9)).collect();
        assert_eq!(
            pass,
            (0..5)
                .map(|r| opening_index(5, r, true, 9))
                .collect::<Vec<_>>()
        );
        pass.sort();
        assert_eq!(pass, [0, 1, 2, 3, 4]);
    }
}
