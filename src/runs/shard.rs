//! Shards of a long run: `--shard K/N` takes every N-th unit of work (a pair of games, a game
//! of self-play, a subtree of a proof) starting at the K-th, so N processes on one machine or
//! N tasks of a scheduler's job array split a run without talking to each other; a
//! [`ShardSet`] is what a file or a merge of files covers.

use std::fmt;
use std::str::FromStr;

use serde::{Deserialize, Serialize};

/// A share of the work: `--shard K/N` does the units whose index is `K-1` modulo `N`.
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
    /// Whether unit `index` (0-based) belongs to this shard.
    pub fn contains(&self, index: u64) -> bool {
        index % self.count == self.index - 1
    }
}

/// The shards a run or a merge of runs covers: shards `indices` of a plan of `count` shards.
/// A whole run is shard 1 of 1 (as is `--shard 1/1`).
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct ShardSet {
    /// N: how many shards the match was split into (1: not split).
    pub count: u64,
    /// The K of every shard held, ascending, each once.
    pub indices: Vec<u64>,
}

impl ShardSet {
    /// The shards of a run: `--shard K/N`, or the whole match.
    pub fn of(shard: Option<Shard>) -> ShardSet {
        let shard = shard.unwrap_or(Shard { index: 1, count: 1 });
        ShardSet {
            count: shard.count,
            indices: vec![shard.index],
        }
    }

    /// Checks what a file could get wrong: at least one index, ascending, distinct, from 1 to
    /// `count`.
    pub fn check(&self) -> Result<(), String> {
        let ascending = self.indices.windows(2).all(|w| w[0] < w[1]);
        let in_range = self.indices.iter().all(|&k| (1..=self.count).contains(&k));
        if self.indices.is_empty() || !ascending || !in_range {
            return Err(format!(
                "bad shards {:?} of {}: expected distinct ascending numbers from 1 to {}",
                self.indices, self.count, self.count
            ));
        }
        Ok(())
    }

    /// Whether every shard of the plan is held: the whole match.
    pub fn is_whole(&self) -> bool {
        self.indices.len() as u64 == self.count
    }

    /// Whether pair `index` (0-based) belongs to these shards.
    pub fn contains(&self, index: u64) -> bool {
        self.count > 0
            && self
                .indices
                .binary_search(&(index % self.count + 1))
                .is_ok()
    }

    /// How many of `total` pairs belong to these shards.
    pub fn pairs_of(&self, total: u64) -> u64 {
        let Some(base) = total.checked_div(self.count) else {
            return 0;
        };
        self.indices
            .iter()
            .map(|&k| base + u64::from(k - 1 < total % self.count))
            .sum()
    }

    /// `K/N`, `K1,K2/N`; `1/1` for a whole match.
    pub fn tag(&self) -> String {
        let indices: Vec<String> = self.indices.iter().map(u64::to_string).collect();
        format!("{}/{}", indices.join(","), self.count)
    }

    /// [`ShardSet::tag`], or `None` for a whole match (the headline leaves it out).
    pub fn label(&self) -> Option<String> {
        (!self.is_whole()).then(|| self.tag())
    }
}

#[cfg(test)]
mod tests {
    use super::*;

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
    fn shard_sets_count_their_pairs_and_refuse_bad_indices() {
        let set = ShardSet {
            count: 3,
            indices: vec![1, 3],
        };
        assert_eq!(set.check(), Ok(()));
        assert_eq!(set.pairs_of(10), 4 + 3);
        assert_eq!(set.label().as_deref(), Some("1,3/3"));
        let whole = ShardSet::of(None);
        assert!(whole.is_whole() && whole.label().is_none());
        assert_eq!(whole.tag(), "1/1");
        assert_eq!(ShardSet::of(Some("1/1".parse().unwrap())), whole);
        for bad in [
            (3, vec![]),
            (3, vec![2, 1]),
            (3, vec![0]),
            (3, vec![4]),
            (0, vec![1]),
        ] {
            let set = ShardSet {
                count: bad.0,
                indices: bad.1,
            };
            assert!(set.check().is_err(), "{set:?}");
        }
    }
}
