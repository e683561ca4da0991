//! What the solved book says about a search's root: the `info` line of a proven result, and
//! with `MultiPV` above 1 every root move the book values, as lines that follow the book.

use std::time::Instant;

use crate::game::{Outcome, Searchable};
use crate::search::{Score, SearchInfo, SearchParams};
use crate::solve::{self, book::BookMove};

/// The `info` line of a proven result (the solved book's or the prover's): `plies` to the end
/// along the proof; for a win the one line of the move played, for a loss the last line,
/// after the search that chose the move.
pub(super) fn book_info<M>(start: Instant, hit: &BookMove, m: M) -> SearchInfo<M> {
    SearchInfo {
        depth: hit.plies as u32,
        seldepth: hit.plies as u32,
        multipv: None,
        score: Score::Mate(hit.mate()),
        nodes: 0,
        nps: 0,
        time_ms: start.elapsed().as_millis() as u64,
        hashfull: 0,
        pv: vec![m],
    }
}

/// What the book knows of a position's root moves (for `MultiPV` above 1): its wins, fastest
/// first, its losses, longest first, each as its `info` line (a PV along the book), and the
/// moves whose value it does not know.
pub(super) struct BookLines<M> {
    /// The winning moves' lines, the fastest win first.
    pub(super) wins: Vec<SearchInfo<M>>,
    /// The losing moves' lines, the longest loss first.
    pub(super) losses: Vec<SearchInfo<M>>,
    /// The moves the book does not value.
    pub(super) unknown: Vec<M>,
}

/// Most moves of a line the book's `info` lines follow the book for.
const BOOK_LINE_MOVES: usize = 8;

/// Each root move of `root` (within `searchmoves`) valued by the book (`hit` is the root's own
/// entry): the move after which the game is over, or the opponent's position the book knows
/// (won for the opponent: the move loses; lost: it wins), or unknown.
pub(super) fn book_lines<G: Searchable>(
    root: &G,
    params: &SearchParams<G::Move>,
    hit: &BookMove,
    start: Instant,
) -> BookLines<G::Move> {
    let mover = root.side_to_move();
    let book_move = root.parse_move(&hit.mv).ok().filter(|_| hit.wins);
    let mut known = Vec::new();
    let mut unknown = Vec::new();
    for m in crate::search::root_moves(root, params) {
        let mut child = root.clone();
        child.play(m);
        let value = if book_move == Some(m) {
            Some(hit.clone())
        } else {
            match child.outcome() {
                Some(Outcome::Win(p)) => Some((p == mover, 1)),
                Some(Outcome::Draw) => None,
                None => solve::book::probe(&child).map(|h| (!h.wins, h.plies.saturating_add(1))),
            }
            .map(|(wins, plies)| BookMove {
                mv: root.move_to_string(m),
                plies,
                wins,
            })
        };
        match value {
            Some(v) => known.push((v, m, book_line(&child, m))),
            None => unknown.push(m),
        }
    }
    // Wins first, the fastest first (the book's own move first among equals); then losses,
    // the longest first.
    known.sort_by_key(|&(ref v, m, _)| {
        let length = if v.wins { v.plies } else { u8::MAX - v.plies };
        (!v.wins, length, book_move != Some(m))
    });
    let mut lines = BookLines {
        wins: Vec::new(),
        losses: Vec::new(),
        unknown,
    };
    for (v, m, pv) in known {
        let info = SearchInfo {
            pv,
            ..book_info(start, &v, m)
        };
        if v.wins {
            lines.wins.push(info);
        } else {
            lines.losses.push(info);
        }
    }
    lines
}

/// The line that starts with `first` (played to reach `after`) and goes on with the book's
/// moves, at most [`BOOK_LINE_MOVES`] moves long.
fn book_line<G: Searchable>(after: &G, first: G::Move) -> Vec<G::Move> {
    let mut line = vec![first];
    let mut pos = after.clone();
    while line.len() < BOOK_LINE_MOVES && pos.outcome().is_none() {
        let Some(m) = solve::book::probe(&pos).and_then(|h| pos.parse_move(&h.mv).ok()) else {
            break;
        };
        pos.play(m);
        line.push(m);
    }
    line
}
