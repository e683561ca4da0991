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

/// The proven result of a Sight position with at most [`MAX_EMPTIES`] empty points, as the
/// book gives it ([`BookMove`]: the winning move, or the move the proof resists longest with,
/// and the plies to the end along the proof); `None` for other positions and other games, and
/// when the proof gave up.
pub fn prove<G: SolvedBook>(pos: &G, bound: Bound) -> Option<BookMove> {
    prove_sight(pos.solved_book_position()?, bound)
}

/// [`prove`] for a Sight position.
pub fn prove_sight(pos: &Sight, bound: Bound) -> Option<BookMove> {
    let lines = Lines::new(pos.size())?;
    let b = Board::from_sight(pos)?;
    let empties = b.empty_count(&lines);
    if empties > MAX_EMPTIES || b.move_count(&lines) == 0 {
        return None;
    }
    let syms = Symmetries::new(&lines);
    let mut table = ProofTable::new(TABLE_MIB)?;
    let limit = Limit {
        nodes: MAX_NODES,
        stop: Some(bound.stop),
        deadline: bound.deadline,
    };
    let proven = Prover::new(&lines, &syms, &mut table)
        .with_limit(limit)
        .try_prove(&b)?;
    Some(BookMove {
        mv: move_name(pos.size(), proven.best?),
        plies: proven.dist,
        wins: proven.win,
    })
}
