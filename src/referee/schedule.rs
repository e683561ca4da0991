//! The match schedule: which engines meet, in which seats, from which opening. A match is a
//! list of game pairs; the two games of a pair start from the same opening with the seats
//! swapped. Game numbers are fixed by the schedule (pair `k` holds games `2k+1` and `2k+2`),
//! so shards and resumed runs agree on every game's number, engines and opening.

use std::fmt;
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

/// Every pair of the match, round by round; within a round, the encounters in order.
pub fn pairs(engines: usize, tournament: Tournament, rounds: u64) -> Vec<PairJob> {
    let mut encounters = Vec::new();
    for i in 0..engines {
        for j in i + 1..engines {
            if tournament == Tournament::RoundRobin || i == 0 {
                encounters.push((i, j));
            }
        }
    }
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

/// A share of the pairs: `--shard K/N` plays the pairs whose index is `K-1` modulo `N`.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Shard {
    /// K, 1-based.
    pub index: u64,
    /// N.
    pub count: u64,
}

impl FromStr for Shard {
    type Err = String;
    fn from_str(s: &str) -> Result<Shard, String> {
        let bad = || format!("'{s}' is not a shard: write K/N with 1 <= K <= N");
        let (k, n) = s.split_once('/').ok_or_else(bad)?;
        let index: u64 = k.trim().parse().map_err(|_| bad())?;
        let count: u64 = n.trim().parse().map_err(|_| bad())?;
        if index == 0 || index > count {
            return Err(bad());
        }
        Ok(Shard { index, count })
    }
}

impl fmt::Display for Shard {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "{}/{}", self.index, self.count)
    }
}

impl Shard {
    /// Whether pair `index` belongs to this shard.
    pub fn contains(&self, index: u64) -> bool {
        index % self.count == self.index - 1
    }
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
    fn shards_split_pairs_evenly_and_disjointly() {
        let shards: Vec<Shard> = (1..=3).map(|k| format!("{k}/3").parse().unwrap()).collect();
        for index in 0..30u64 {
            assert_eq!(shards.iter().filter(|s| s.contains(index)).count(), 1);
        }
        assert!("0/3".parse::<Shard>().is_err());
        assert!("4/3".parse::<Shard>().is_err());
        assert!("x".parse::<Shard>().is_err());
        assert_eq!(shards[1].to_string(), "2/3");
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
