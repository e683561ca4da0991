//! How a solve is split and put back together. The positions `plies` plies below the root,
//! one per symmetry class, are the *frontier*: each is proven on its own (the unit of
//! checkpointing, and of sharding across processes or machines), its result appended to a
//! results file as soon as it is known. The tree above the frontier is small; once every
//! frontier position has a result, a plain minimax over it gives the value of the root and of
//! every root move.

use std::collections::{BTreeMap, HashMap};

use super::board::{Board, Lines, Move};
use super::symmetry::Symmetries;
use super::table::Proven;

/// The canonical positions `plies` plies below `root` (fewer where the game ends first: a
/// finished game is a frontier position too), by canonical key, in key order.
pub fn frontier(root: &Board, plies: u32, lines: &Lines, syms: &Symmetries) -> Vec<(u128, Board)> {
    let mut level: BTreeMap<u128, Board> = BTreeMap::new();
    let c = syms.canonical(root);
    level.insert(c.key, syms.apply(c.sym, root));
    let mut finished = BTreeMap::new();
    let mut moves = Vec::new();
    for _ in 0..plies {
        let mut next = BTreeMap::new();
        for (key, b) in level {
            b.moves(lines, &mut moves);
            if moves.is_empty() {
                finished.insert(key, b);
            }
            for &m in &moves {
                let child = b.play(lines, m);
                let c = syms.canonical(&child);
                next.entry(c.key)
                    .or_insert_with(|| syms.apply(c.sym, &child));
            }
        }
        level = next;
    }
    level.extend(finished);
    level.into_iter().collect()
}

/// The value of a position above the frontier, and of each of its moves.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct TopValue {
    /// The position's result.
    pub proven: Proven,
    /// Every move with its result for the side to move (win: the move wins).
    pub moves: Vec<(Move, Proven)>,
}

/// Minimax over the tree above the frontier: `results` holds every frontier position's
/// result by canonical key. `None` if one is missing.
pub struct Top<'a> {
    /// Board lines.
    pub lines: &'a Lines,
    /// Board symmetries.
    pub syms: &'a Symmetries,
    /// The frontier's results.
    pub results: &'a HashMap<u128, Proven>,
    /// The frontier's depth below the root.
    pub plies: u32,
}

impl Top<'_> {
    /// The value of `b`, `depth` plies below the root.
    pub fn value(&self, b: &Board, depth: u32) -> Option<Proven> {
        let c = self.syms.canonical(b);
        if depth == self.plies {
            let p = self.results.get(&c.key)?;
            return Some(Proven {
                best: p.best.map(|m| self.syms.unmap_move(c.sym, m)),
                ..*p
            });
        }
        let mut moves = Vec::new();
        b.moves(self.lines, &mut moves);
        if moves.is_empty() {
            return Some(Proven {
                win: false,
                dist: 0,
                best: None,
            });
        }
        Some(self.combine(b, depth, &moves)?.proven)
    }

    /// The value of `b` and of each of its moves (every move searched, none cut off); with
    /// the frontier at the root itself, its value alone (no moves).
    pub fn root(&self, b: &Board) -> Option<TopValue> {
        if self.plies == 0 {
            let proven = self.value(b, 0)?;
            return Some(TopValue {
                proven,
                moves: Vec::new(),
            });
        }
        let mut moves = Vec::new();
        b.moves(self.lines, &mut moves);
        if moves.is_empty() {
            let proven = Proven {
                win: false,
                dist: 0,
                best: None,
            };
            return Some(TopValue {
                proven,
                moves: Vec::new(),
            });
        }
        self.combine(b, 0, &moves)
    }

    fn combine(&self, b: &Board, depth: u32, moves: &[Move]) -> Option<TopValue> {
        let mut values = Vec::new();
        for &m in moves {
            let child = self.value(&b.play(self.lines, m), depth + 1)?;
            let mine = Proven {
                win: !child.win,
                dist: child.dist + 1,
                best: Some(m),
            };
            values.push((m, mine));
        }
        // Win: the shortest win. Loss: the longest resistance.
        let best = values
            .iter()
            .map(|(_, p)| *p)
            .max_by_key(|p| {
                if p.win {
                    (1, -(p.dist as i32))
                } else {
                    (0, p.dist as i32)
                }
            })
            .expect("a position with moves has values");
        Some(TopValue {
            proven: best,
            moves: values,
        })
    }
}
