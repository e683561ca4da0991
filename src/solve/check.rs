//! The certificate checker: verifies every claim of a [`Certificate`] on the game's own rules
//! ([`crate::game::sight::Sight`], not the solver's board), with none of the solver's
//! pruning. For a claimed win it plays the strategy's move (which must be legal) and checks
//! the position after it as a loss for the opponent; for a claimed loss it tries every legal
//! move and checks each resulting position as a win for the opponent; a position that has
//! at most `leaf_empties` empty points is solved by a plain exhaustive search. Nothing in
//! the certificate is taken on trust: the strategy is only a lookup of which move to try, so
//! a wrong key or a wrong move can only make the check fail, never pass. Two things are: the
//! board's symmetries (a position verified stands for its mirror images and turns, as in the
//! solver; `tests/long_runs/sight_solver.rs` checks them against the rules), and the claims a check
//! record says were verified ([`Checker::assume_verified`], for a check split into shards; a
//! check that takes any says so and exits 3, `super::check_run::check`).

use std::collections::{HashMap, HashSet};

use super::board::Board;
use super::certificate::Certificate;
use super::results::move_name;
use super::symmetry::Symmetries;
use crate::game::Game;
use crate::game::sight::{Sight, SightSettings};

/// Exhaustive results the checker remembers at most (about 2 GB).
const MAX_REMEMBERED: usize = 40_000_000;

/// What a check counted.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct CheckStats {
    /// Positions checked through the strategy (each once per claimed result).
    pub positions: u64,
    /// Leaves solved by exhaustive search.
    pub leaves: u64,
    /// Nodes of those searches.
    pub leaf_nodes: u64,
}

/// The checker of one certificate.
pub struct Checker<'a> {
    cert: &'a Certificate,
    syms: Symmetries,
    settings: SightSettings,
    /// Positions already verified with their claimed result, by class under the board's
    /// symmetries.
    verified: HashSet<(u128, bool)>,
    /// The exhaustive search of the leaves, with its memory.
    exhaustive: Exhaustive,
    /// What was counted.
    pub stats: CheckStats,
}

/// The exact position: five bits per point (owner, height) and the side to move (the
/// exhaustive search's memo; not canonical).
fn exact_key(pos: &Sight) -> u128 {
    let n = pos.size();
    let mut key = (pos.side_to_move().index() as u128) << 125;
    for p in 0..n * n {
        if let Some((owner, h)) = pos.pile(p) {
            key |= ((owner.index() as u128) << 4 | h.min(15) as u128) << (5 * p);
        }
    }
    key
}

impl<'a> Checker<'a> {
    /// A checker for `cert`; `None` for a board size the solver does not take.
    pub fn new(cert: &'a Certificate) -> Option<Checker<'a>> {
        let lines = super::board::Lines::new(cert.size)?;
        Some(Checker {
            cert,
            syms: Symmetries::new(&lines),
            settings: SightSettings {
                size: cert.size,
                strict_tallest: cert.strict,
            },
            verified: HashSet::new(),
            exhaustive: Exhaustive::default(),
            stats: CheckStats::default(),
        })
    }

    /// Checks claim `index`; the error says which position fails and why.
    pub fn check_claim(&mut self, index: usize) -> Result<(), String> {
        self.check_claim_reporting(index, &mut |_| {})
    }

    /// [`Checker::check_claim`], calling `report` with the counts so far as the walk goes (at
    /// every leaf, whose exhaustive search is the slow part, and every 1,024 positions).
    pub fn check_claim_reporting(
        &mut self,
        index: usize,
        report: &mut dyn FnMut(CheckStats),
    ) -> Result<(), String> {
        let (fen, win) = &self.cert.claims[index];
        let pos = Sight::from_fen(fen, &self.settings).map_err(|e| format!("{fen}: {e}"))?;
        if Board::from_sight(&pos).is_none() {
            return Err(format!(
                "{fen}: a pile could grow taller than the checker's keys hold"
            ));
        }
        if pos.outcome().is_some() {
            // A finished game: the side to move has lost.
            return if *win {
                Err(format!("{fen}: claimed a win in a finished game"))
            } else {
                Ok(())
            };
        }
        self.check(&pos, *win, report)
    }

    fn check(
        &mut self,
        root: &Sight,
        win: bool,
        report: &mut dyn FnMut(CheckStats),
    ) -> Result<(), String> {
        let mut stack = vec![(root.clone(), win)];
        let mut moves = Vec::new();
        while let Some((pos, win)) = stack.pop() {
            if !self.verified.insert((self.class_key(&pos), win)) {
                continue;
            }
            self.stats.positions += 1;
            if self.stats.positions.is_multiple_of(1024) {
                report(self.stats);
            }
            let empties = (0..self.cert.size * self.cert.size)
                .filter(|&p| pos.pile(p).is_none())
                .count() as u32;
            if empties <= self.cert.leaf_empties {
                self.stats.leaves += 1;
                let wins = self.wins(&pos);
                report(self.stats);
                if wins != win {
                    return Err(format!(
                        "{}: claimed a {}, exhaustive search says otherwise",
                        pos.to_fen(),
                        if win { "win" } else { "loss" }
                    ));
                }
                continue;
            }
            if win {
                let mv = self.strategy_move(&pos).ok_or_else(|| {
                    format!("{}: a win with no move in the strategy", pos.to_fen())
                })?;
                let mut child = pos.clone();
                child.try_play_str(&mv).map_err(|e| {
                    format!("{}: the strategy's {mv} is illegal: {e}", pos.to_fen())
                })?;
                if child.outcome().is_none() {
                    stack.push((child, false));
                }
            } else {
                pos.generate_moves(&mut moves);
                for &m in &moves {
                    let mut child = pos.clone();
                    child.play(m);
                    if child.outcome().is_some() {
                        return Err(format!(
                            "{}: claimed a loss, {} wins at once",
                            pos.to_fen(),
                            pos.move_to_string(m)
                        ));
                    }
                    stack.push((child, true));
                }
            }
        }
        Ok(())
    }

    /// The position's key under the board's symmetries (positions that are mirror images or
    /// turns of each other have the same result); the exact key where the solver's board
    /// does not hold the position (never in a checked certificate: claims are refused then).
    fn class_key(&self, pos: &Sight) -> u128 {
        Board::from_sight(pos).map_or_else(|| exact_key(pos), |b| self.syms.canonical(&b).key)
    }

    /// The first claim about `pos` (the same position, or a mirror image or turn of it, with
    /// the same side to move), if the certificate has one.
    pub fn claim_of(&self, pos: &Sight) -> Option<usize> {
        let key = self.class_key(pos);
        self.cert.claims.iter().position(|(fen, _)| {
            Sight::from_fen(fen, &self.settings)
                .is_ok_and(|p| p.size() == pos.size() && self.class_key(&p) == key)
        })
    }

    /// Takes claim `index` as verified (a check record says an earlier run or another shard
    /// verified it): a walk that reaches its position, or a symmetric one, stops there.
    pub fn assume_verified(&mut self, index: usize) -> Result<(), String> {
        let (fen, win) = &self.cert.claims[index];
        let pos = Sight::from_fen(fen, &self.settings).map_err(|e| format!("{fen}: {e}"))?;
        let key = self.class_key(&pos);
        self.verified.insert((key, *win));
        Ok(())
    }

    /// The strategy's move for `pos` in its own frame, in notation.
    fn strategy_move(&self, pos: &Sight) -> Option<String> {
        let b = Board::from_sight(pos)?;
        let c = self.syms.canonical(&b);
        let &(m, _) = self.cert.strategy.get(&c.key)?;
        Some(move_name(self.cert.size, self.syms.unmap_move(c.sym, m)))
    }

    /// Whether the side to move wins, by [`Exhaustive::wins`] (its nodes counted as the
    /// leaves').
    fn wins(&mut self, pos: &Sight) -> bool {
        let before = self.exhaustive.nodes;
        let win = self.exhaustive.wins(pos);
        self.stats.leaf_nodes += self.exhaustive.nodes - before;
        win
    }
}

/// The checker's plain exhaustive search on the game's own rules ([`Sight`]), with none of
/// the solver's pruning, symmetries or board: an independent judge of who wins a position.
#[derive(Default)]
pub struct Exhaustive {
    /// Results by exact position.
    solved: HashMap<u128, bool>,
    /// Nodes searched.
    pub nodes: u64,
}

/// Whether the side to move wins `pos`, by plain exhaustive minimax to the end of the game
/// ([`Exhaustive::wins`] with a fresh memory). A position with many empty points can take
/// long: the checker uses it at its leaves (at most 17 empty points on 5×5).
pub fn exhaustive_wins(pos: &Sight) -> bool {
    Exhaustive::default().wins(pos)
}

impl Exhaustive {
    /// Whether the side to move wins: plain minimax to the end of the game, stopping at the
    /// first winning move (tried in order of the opponent's replies, fewest first: the order
    /// changes how soon a win is found, never the answer), results remembered by exact
    /// position (forgotten all at once when [`MAX_REMEMBERED`] are held).
    pub fn wins(&mut self, pos: &Sight) -> bool {
        let key = exact_key(pos);
        if let Some(&w) = self.solved.get(&key) {
            return w;
        }
        self.nodes += 1;
        let mut moves = Vec::new();
        pos.generate_moves(&mut moves);
        let mut children: Vec<(u32, Sight)> = moves
            .iter()
            .map(|&m| {
                let mut child = pos.clone();
                child.play(m);
                (child.count_moves_for(child.side_to_move()), child)
            })
            .collect();
        children.sort_by_key(|(replies, _)| *replies);
        let win = children
            .iter()
            .any(|(replies, child)| *replies == 0 || !self.wins(child));
        if self.solved.len() >= MAX_REMEMBERED {
            self.solved.clear();
        }
        self.solved.insert(key, win);
        win
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use std::collections::BTreeMap;

    #[test]
    fn the_claim_of_a_position_is_found_under_the_symmetries_with_the_same_side_to_move() {
        let cert = Certificate {
            size: 3,
            strict: false,
            leaf_empties: 9,
            root: None,
            claims: vec![
                ("3:x3/x3/w,x2 b".to_string(), true),
                ("3:x3/x3/x3 b".to_string(), false),
            ],
            strategy: BTreeMap::new(),
        };
        let checker = Checker::new(&cert).expect("a 3×3 checker");
        let at = |fen: &str| Sight::from_fen(fen, &cert.settings()).expect("a position");
        // c3 is a1 turned: the same class.
        assert_eq!(checker.claim_of(&at("3:x2,w/x3/x3 b")), Some(0));
        assert_eq!(checker.claim_of(&at("3:x3/x3/x3 b")), Some(1));
        // White to move on the empty board: no claim.
        assert_eq!(checker.claim_of(&at("3:x3/x3/x3 w")), None);
        assert_eq!(checker.claim_of(&at("3:x3/x,w,x/x3 b")), None);
    }
}
