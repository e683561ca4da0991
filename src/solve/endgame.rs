//! The engine's exact endgame proof: below the solved book's leaves (or on a board or in a
//! line the book does not hold), a Sight position with few empty points is proven by the
//! solver's prover ([`super::prover`]) before any heuristic search, bounded so that it never
//! costs the clock: it gives up after a node budget, at `stop`, or at a deadline, and a proof
//! that gave up is not used. Each call proves with a fresh small table (its memory is taken
//! from the system only as it is written, and given back after), so a result never depends on
//! earlier calls: with a node budget the answer is the same every time.

use std::sync::atomic::AtomicBool;
use std::time::Instant;

use super::board::{Board, Lines};
use super::book::BookMove;
use super::prover::{Limit, Prover};
use super::results::move_name;
use super::symmetry::Symmetries;
use super::table::ProofTable;
use crate::game::SolvedBook;
use crate::game::sight::Sight;

/// Positions with at most this many empty points are proven before the search.
pub const MAX_EMPTIES: u32 = 20;
/// Most nodes one proof may search (about half a second on one core of this machine class).
pub const MAX_NODES: u64 = 2_000_000;
/// The proof table's size in MiB (used only as far as the proof writes it).
const TABLE_MIB: usize = 16;

/// How long a proof before a search may run.
#[derive(Clone, Copy, Debug)]
pub struct Bound<'a> {
    /// The engine's stop flag.
    pub stop: &'a AtomicBool,
    /// The instant to give up at, if the search has a time limit.
    pub deadline: Option<Instant>,
}

/// What a bounded proof found out about a position.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Proof {
    /// The side to move wins with this move ([`BookMove::wins`]), or loses whatever it plays
    /// (the move is the one the proof resisted longest with).
    Proven(BookMove),
    /// The proof gave up; these moves (in notation) were proven to lose before it did.
    GaveUp(Vec<String>),
}

/// A bounded proof of a Sight position with at most [`MAX_EMPTIES`] empty points (its first
/// move under its own root, so that a proof that gives up still tells which moves lose);
/// `None` for other positions and other games.
pub fn prove<G: SolvedBook>(pos: &G, bound: Bound) -> Option<Proof> {
    prove_sight(pos.solved_book_position()?, bound)
}

/// [`prove`] for a Sight position.
pub fn prove_sight(pos: &Sight, bound: Bound) -> Option<Proof> {
    let n = pos.size();
    let lines = Lines::new(n)?;
    let b = Board::from_sight(pos)?;
    let empties = b.empty_count(&lines);
    let mut moves = Vec::new();
    b.moves(&lines, &mut moves);
    if empties > MAX_EMPTIES || moves.is_empty() {
        return None;
    }
    let proven = |m, plies, wins| {
        Some(Proof::Proven(BookMove {
            mv: move_name(n, m),
            plies,
            wins,
        }))
    };
    // The prover's order: a move that leaves no reply first, then the fewest replies.
    let mut children: Vec<_> = moves
        .iter()
        .map(|&m| {
            let child = b.play(&lines, m);
            (child.move_count(&lines), m, child)
        })
        .collect();
    children.sort_unstable_by_key(|&(replies, m, _)| (replies, m.from, m.to));
    if let Some(&(0, m, _)) = children.first() {
        return proven(m, 1, true);
    }
    let syms = Symmetries::new(&lines);
    let mut table = ProofTable::new(TABLE_MIB)?;
    let limit = Limit {
        nodes: MAX_NODES,
        stop: Some(bound.stop),
        deadline: bound.deadline,
    };
    let mut prover = Prover::new(&lines, &syms, &mut table).with_limit(limit);
    let mut losing = Vec::new();
    let mut longest = None;
    for &(_, m, child) in &children {
        let Some(reply) = prover.try_prove(&child) else {
            return Some(Proof::GaveUp(losing));
        };
        let plies = reply.dist.saturating_add(1);
        if !reply.win {
            return proven(m, plies, true);
        }
        losing.push(move_name(n, m));
        if longest.is_none_or(|(p, _)| plies > p) {
            longest = Some((plies, m));
        }
    }
    let (plies, m) = longest?;
    proven(m, plies, false)
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::game::Game;
    use crate::game::sight::SightSettings;

    /// Issue 31, finding 10: 16 empty points below the 5×5 book; only d4-c4 wins.
    const BELOW: &str = "5:x5/x3,w2,w/x2,b2,b,b/x,w,x,b2,x/x4,w w";

    fn at(fen: &str, strict: bool) -> Sight {
        let settings = SightSettings {
            size: 5,
            strict_tallest: strict,
        };
        Sight::from_fen(fen, &settings).expect("a position")
    }

    #[test]
    fn a_small_position_is_proven_and_a_stopped_proof_is_not_used() {
        let stop = AtomicBool::new(false);
        let free = Bound {
            stop: &stop,
            deadline: None,
        };
        for strict in [false, true] {
            let proof = prove_sight(&at(BELOW, strict), free);
            let Some(Proof::Proven(m)) = proof else {
                panic!("{proof:?}");
            };
            assert_eq!((m.mv.as_str(), m.wins, m.mate()), ("d4-c4", true, 9));
        }
        // Past its deadline, or stopped, the proof gives up before it proves anything.
        let late = Bound {
            stop: &stop,
            deadline: Some(Instant::now()),
        };
        assert_eq!(
            prove_sight(&at(BELOW, false), late),
            Some(Proof::GaveUp(vec![]))
        );
        stop.store(true, std::sync::atomic::Ordering::Relaxed);
        assert_eq!(
            prove_sight(&at(BELOW, false), free),
            Some(Proof::GaveUp(vec![]))
        );
        // More empty points than the prover takes before a search: no proof.
        assert_eq!(prove_sight(&at("5:x5/x5/x5/x5/x5 w", false), free), None);
    }
}
