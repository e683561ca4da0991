//! The solved book: the certificates in `data/` (produced by `ludus solve` and `ludus solve
//! certify`, see docs/solved.md), embedded in the binary, give the winner's move in every
//! position of their proofs with more empty points than the certificate's leaves, and the
//! loser's longest resistance where all its moves lead into those proofs, and the 5×5
//! certificates' endgame hints ([`super::hints`]) the winner's move just below their leaves
//! where the engine's own proof is slow. With option
//! `SolvedBook` on (the default), `Level full` plays the winner's move at once and reports
//! `score mate N`; in a position the book proves lost the search chooses the move (it plays
//! for the opponent's mistakes, issue 31); below the leaves and off the proofs the exact
//! prover ([`super::endgame`]) answers small positions, and the search everything else.
//!
//! The books are parsed when a Sight engine starts (before its first job, and `isready`
//! waits for them), or else the first time a position of their board and rules is probed.

use std::io::BufReader;
use std::sync::OnceLock;

use super::board::{Board, Lines};
use super::certificate::Certificate;
use super::hints::Hints;
use super::results::move_name;
use super::strategy::Strategy;
use super::symmetry::Symmetries;
use crate::files::fnv1a64;
use crate::game::SolvedBook;
use crate::game::sight::Sight;

/// The embedded certificates: board side, `strict_tallest`, text.
const CERTIFICATES: [(usize, bool, &str); 6] = [
    (3, false, include_str!("../../data/sight3-official.cert")),
    (3, true, include_str!("../../data/sight3-strict.cert")),
    (4, false, include_str!("../../data/sight4-official.cert")),
    (4, true, include_str!("../../data/sight4-strict.cert")),
    (5, false, include_str!("../../data/sight5-official.cert")),
    (5, true, include_str!("../../data/sight5-strict.cert")),
];

/// The embedded endgame hints ([`super::hints`]) of the 5×5 certificates: board side,
/// `strict_tallest`, bytes.
const HINTS: [(usize, bool, &[u8]); 2] = [
    (5, false, include_bytes!("../../data/sight5-official.hints")),
    (5, true, include_bytes!("../../data/sight5-strict.hints")),
];

/// A move the book knows.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct BookMove {
    /// The move, in the game's notation: the winner's move of the proof, or the loser's
    /// reply that resists longest along the proofs.
    pub mv: String,
    /// Plies to the end of the game along the proof (for the winner an upper bound on the
    /// shortest win).
    pub plies: u8,
    /// Whether the side to move wins (else it is proven lost).
    pub wins: bool,
}

impl BookMove {
    /// The score in moves of the side to move, as `score mate N` reports it: positive when
    /// it wins in N of its moves, negative when it is mated after N.
    pub fn mate(&self) -> i32 {
        if self.wins {
            (i32::from(self.plies) + 1) / 2
        } else {
            -(i32::from(self.plies) / 2)
        }
    }
}

struct Book {
    strategy: Strategy,
    /// The certificate's endgame hints, when they are embedded and made for it.
    hints: Option<Hints<'static>>,
    syms: Symmetries,
    lines: Lines,
    size: usize,
}

/// The embedded hints of the certificate `text` of this board and rules, if they are there
/// and were made for it (their digest is the certificate's).
fn hints_of(size: usize, strict: bool, text: &str) -> Option<Hints<'static>> {
    let &(_, _, bytes) = HINTS
        .iter()
        .find(|&&(s, st, _)| s == size && st == strict)?;
    let hints = Hints::read(bytes).ok()?;
    let id = &hints.id;
    (id.digest == fnv1a64(text.as_bytes()) && id.size == size && id.strict == strict)
        .then_some(hints)
}

fn parse(size: usize, strict: bool, text: &str) -> Option<Book> {
    let cert = Certificate::read(&mut BufReader::new(text.as_bytes())).ok()?;
    let lines = Lines::new(size)?;
    Some(Book {
        hints: hints_of(size, strict, text),
        strategy: cert.strategy,
        syms: Symmetries::new(&lines),
        lines,
        size,
    })
}

fn book(size: usize, strict: bool) -> Option<&'static Book> {
    static BOOKS: [OnceLock<Option<Book>>; CERTIFICATES.len()] =
        [const { OnceLock::new() }; CERTIFICATES.len()];
    let i = CERTIFICATES
        .iter()
        .position(|&(s, st, _)| s == size && st == strict)?;
    BOOKS[i]
        .get_or_init(|| parse(size, strict, CERTIFICATES[i].2))
        .as_ref()
}

/// The book's move in a Sight position, if it has one: the winner's move where the
/// strategy has the position; where every move of the side to move leads into the strategy
/// (the loser's turn inside a proof), the reply whose proof runs longest.
pub fn probe_sight(pos: &Sight) -> Option<BookMove> {
    let book = book(pos.size(), pos.strict_tallest())?;
    let b = Board::from_sight(pos)?;
    let c = book.syms.canonical(&b);
    if let Some(&(m, plies)) = book.strategy.get(&c.key) {
        return Some(BookMove {
            mv: move_name(book.size, book.syms.unmap_move(c.sym, m)),
            plies,
            wins: true,
        });
    }
    if let Some((m, plies)) = book
        .hints
        .as_ref()
        .and_then(|h| h.probe(&b, &book.lines, &book.syms))
    {
        return Some(BookMove {
            mv: move_name(book.size, m),
            plies,
            wins: true,
        });
    }
    let mut moves = Vec::new();
    b.moves(&book.lines, &mut moves);
    let mut longest: Option<(u8, _)> = None;
    for &m in &moves {
        let child = b.play(&book.lines, m);
        let &(_, plies) = book.strategy.get(&book.syms.canonical(&child).key)?;
        if longest.is_none_or(|(p, _)| plies > p) {
            longest = Some((plies, m));
        }
    }
    let (plies, m) = longest?;
    Some(BookMove {
        mv: move_name(book.size, m),
        plies: plies.saturating_add(1),
        wins: false,
    })
}

/// The book's move in any game's position ([`SolvedBook::solved_book_position`]: only Sight
/// has books).
pub fn probe<G: SolvedBook>(pos: &G) -> Option<BookMove> {
    pos.solved_book_position().and_then(probe_sight)
}

/// Parses every book of game `G` now (if it has any, [`SolvedBook::HAS_SOLVED_BOOK`]: only
/// Sight), so that no probe pays for it.
pub fn load_for<G: SolvedBook>() {
    if G::HAS_SOLVED_BOOK {
        // One thread a book: the two 5×5 books take most of the time, side by side on two
        // cores.
        std::thread::scope(|scope| {
            for &(size, strict, _) in &CERTIFICATES {
                let spawned = std::thread::Builder::new()
                    .name("sight-book".into())
                    .spawn_scoped(scope, move || book(size, strict).is_some());
                if spawned.is_err() {
                    // No thread to be had: parse it here.
                    book(size, strict);
                }
            }
        });
    }
}

/// Whether every embedded certificate parses and every embedded hints file was made for its
/// certificate (a test checks it; a book that does not parse is never used, nor are hints
/// made for another certificate).
pub fn all_parse() -> bool {
    CERTIFICATES
        .iter()
        .all(|&(size, strict, _)| book(size, strict).is_some())
        && HINTS
            .iter()
            .all(|&(size, strict, _)| book(size, strict).is_some_and(|b| b.hints.is_some()))
}

/// How many endgame hints the book of this board and rules plays from (0 without hints).
pub fn hint_count(size: usize, strict: bool) -> usize {
    book(size, strict)
        .and_then(|b| b.hints.as_ref())
        .map_or(0, Hints::len)
}
