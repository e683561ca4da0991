//! The engine's exact endgame proof: below the solved book's leaves (or on a board or in a
//! line the book does not hold), a Sight position with few empty points is proven by the
//! solver's prover ([`super::prover`]) before any heuristic search, bounded so that it never
//! costs the clock: it gives up after a node budget, at `stop`, or at a deadline, and a proof
//! that gave up is not used. Each call proves with an empty table (one per thread, cleared
//! before each proof, so that its memory is not faulted in again every time), so a result
//! never depends on earlier calls: with a node budget the answer is the same every time.

use std::sync::atomic::AtomicBool;
use std::time::Instant;

use super::board::{Board, Lines, Move};
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
    /// Set at a ponder search's `ponderhit`: the proof gives up, the search has the time.
    pub ponderhit: Option<&'a AtomicBool>,
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
    if b.empty_count(&lines) > MAX_EMPTIES {
        return None;
    }
    let syms = Symmetries::new(&lines);
    let limit = Limit {
        nodes: MAX_NODES,
        stop: Some(bound.stop),
        also_stop: bound.ponderhit,
        deadline: bound.deadline,
    };
    let name = |m| move_name(n, m);
    let proven = |m, plies, wins| {
        Proof::Proven(BookMove {
            mv: name(m),
            plies,
            wins,
        })
    };
    match prove_board(&b, &lines, &syms, limit)?.result {
        RootProof::Wins(m, plies) => Some(proven(m, plies, true)),
        RootProof::Loses(m, plies) => Some(proven(m, plies, false)),
        RootProof::GaveUp(losing) => Some(Proof::GaveUp(losing.into_iter().map(name).collect())),
    }
}

/// What [`prove_board`] found out about a position, on the solver's board.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum RootProof {
    /// The side to move wins with this move, along a line of these plies.
    Wins(Move, u8),
    /// The side to move loses whatever it plays; this move resists longest (these plies).
    Loses(Move, u8),
    /// The proof gave up; these moves were proven to lose before it did.
    GaveUp(Vec<Move>),
}

/// A [`RootProof`] and the prover nodes it took.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct RootOutcome {
    /// What the proof found.
    pub result: RootProof,
    /// Prover nodes searched (0 when a move leaves the opponent no reply).
    pub nodes: u64,
}

/// The engine's proof of a position before its search, on the solver's board: in the
/// position's canonical frame, the root's moves in the prover's order (a move that leaves no
/// reply first, then the fewest replies), each proven under its own root with one fresh table,
/// until one wins. The same position, in any of its symmetric images, always gets the same
/// answer (the moves mapped to its frame) and node count within the same `limit.nodes` (the
/// endgame hints of [`super::hints`] rely on it); `None` when the side to move has no move or
/// the table's memory is not there.
pub fn prove_board(
    b: &Board,
    lines: &Lines,
    syms: &Symmetries,
    limit: Limit,
) -> Option<RootOutcome> {
    let sym = syms.canonical(b).sym;
    let canonical = syms.apply(sym, b);
    let mut outcome = prove_canonical(&canonical, lines, syms, limit)?;
    let back = |m| syms.unmap_move(sym, m);
    outcome.result = match outcome.result {
        RootProof::Wins(m, plies) => RootProof::Wins(back(m), plies),
        RootProof::Loses(m, plies) => RootProof::Loses(back(m), plies),
        RootProof::GaveUp(losing) => RootProof::GaveUp(losing.into_iter().map(back).collect()),
    };
    Some(outcome)
}

/// [`prove_board`] in the canonical frame.
fn prove_canonical(
    b: &Board,
    lines: &Lines,
    syms: &Symmetries,
    limit: Limit,
) -> Option<RootOutcome> {
    let mut moves = Vec::new();
    b.moves(lines, &mut moves);
    let mut children: Vec<_> = moves
        .iter()
        .map(|&m| {
            let child = b.play(lines, m);
            (child.move_count(lines), m, child)
        })
        .collect();
    children.sort_unstable_by_key(|&(replies, m, _)| (replies, m.from, m.to));
    let &(replies, first, _) = children.first()?;
    if replies == 0 {
        return Some(RootOutcome {
            result: RootProof::Wins(first, 1),
            nodes: 0,
        });
    }
    let mut table = TABLE
        .with(|t| t.take())
        .or_else(|| ProofTable::new(TABLE_MIB))?;
    table.clear();
    let outcome = prove_children(&children, lines, syms, &mut table, limit);
    TABLE.with(|t| t.set(Some(table)));
    Some(outcome)
}

thread_local! {
    /// The proof table of this thread's endgame proofs, kept between them and cleared before
    /// each ([`ProofTable::clear`]): a fresh table is faulted in page by page as results are
    /// stored (the first proof of a 10,358-node position took 9 ms in the engine, a proof with
    /// the table kept 1–2 ms), milliseconds that a proof at `go movetime 50` does not have.
    static TABLE: std::cell::Cell<Option<ProofTable>> = const { std::cell::Cell::new(None) };
}

/// Makes this thread's endgame table now, its memory committed: a Sight engine's worker calls
/// it before its first job (with the books, [`super::book::load_for`]), so that no proof under a clock pays for
/// the table's first use.
pub fn warm_up() {
    TABLE.with(|t| {
        let mut table = t.take().or_else(|| ProofTable::new(TABLE_MIB));
        if let Some(table) = table.as_mut() {
            table.commit_memory();
        }
        t.set(table);
    });
}

/// The root children's proofs of [`prove_canonical`], in their order, until one wins.
fn prove_children(
    children: &[(u32, Move, Board)],
    lines: &Lines,
    syms: &Symmetries,
    table: &mut ProofTable,
    limit: Limit,
) -> RootOutcome {
    let mut prover = Prover::new(lines, syms, table).with_limit(limit);
    let mut losing = Vec::new();
    let mut longest: Option<(u8, Move)> = None;
    for &(_, m, child) in children {
        let Some(reply) = prover.try_prove(&child) else {
            return RootOutcome {
                result: RootProof::GaveUp(losing),
                nodes: prover.nodes,
            };
        };
        let plies = reply.dist.saturating_add(1);
        if !reply.win {
            return RootOutcome {
                result: RootProof::Wins(m, plies),
                nodes: prover.nodes,
            };
        }
        losing.push(m);
        if longest.is_none_or(|(p, _)| plies > p) {
            longest = Some((plies, m));
        }
    }
    // Every move was proven to lose (the root has moves: the caller checked).
    let (plies, m) = longest.unwrap_or((0, children[0].1));
    RootOutcome {
        result: RootProof::Loses(m, plies),
        nodes: prover.nodes,
    }
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
            ponderhit: None,
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
            ponderhit: None,
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
