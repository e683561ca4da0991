//! The solved book: the certificates in `data/` (produced by `ludus solve` and `ludus solve
//! certify`, see docs/solved.md), embedded in the binary, give the winner's move in every
//! position of their proofs with more empty points than the certificate's leaves. With
//! option `SolvedBook` on (the default), `Level full` plays that move at once and reports
//! `score mate N`; everywhere else (the loser's turns, positions below the leaves, boards
//! without a certificate) the search plays as usual, and its exact endgame search takes over
//! below the leaves.
//!
//! The books are parsed when a Sight engine starts (before its first job), or else the first
//! time a position of their board and rules is probed.

use std::any::Any;
use std::io::BufReader;
use std::sync::OnceLock;

use super::board::{Board, Lines};
use super::certificate::Certificate;
use super::results::move_name;
use super::strategy::Strategy;
use super::symmetry::Symmetries;
use crate::game::Game;
use crate::game::sight::Sight;

/// The embedded certificates: board side, `strict_tallest`, text.
const CERTIFICATES: [(usize, bool, &str); 5] = [
    (3, false, include_str!("../../data/sight3-official.cert")),
    (3, true, include_str!("../../data/sight3-strict.cert")),
    (4, false, include_str!("../../data/sight4-official.cert")),
    (4, true, include_str!("../../data/sight4-strict.cert")),
    (5, false, include_str!("../../data/sight5-official.cert")),
];

/// A move the book knows.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct BookMove {
    /// The winning move, in the game's notation.
    pub mv: String,
    /// Plies to the end of the game along the proof (an upper bound on the shortest win).
    pub plies: u8,
}

struct Book {
    strategy: Strategy,
    syms: Symmetries,
    size: usize,
}

fn parse(size: usize, text: &str) -> Option<Book> {
    let cert = Certificate::read(&mut BufReader::new(text.as_bytes())).ok()?;
    let lines = Lines::new(size)?;
    Some(Book {
        strategy: cert.strategy,
        syms: Symmetries::new(&lines),
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
        .get_or_init(|| parse(size, CERTIFICATES[i].2))
        .as_ref()
}

/// The book's move in a Sight position, if it has one.
pub fn probe_sight(pos: &Sight) -> Option<BookMove> {
    let book = book(pos.size(), pos.strict_tallest())?;
    let b = Board::from_sight(pos)?;
    let c = book.syms.canonical(&b);
    let &(m, plies) = book.strategy.get(&c.key)?;
    Some(BookMove {
        mv: move_name(book.size, book.syms.unmap_move(c.sym, m)),
        plies,
    })
}

/// The book's move in any game's position: only Sight has books.
pub fn probe<G: Game>(pos: &G) -> Option<BookMove> {
    (pos as &dyn Any)
        .downcast_ref::<Sight>()
        .and_then(probe_sight)
}

/// Parses every book of game `G` now (only Sight has books), so that no probe pays for it.
pub fn load_for<G: Game>() {
    if std::any::TypeId::of::<G>() == std::any::TypeId::of::<Sight>() {
        for &(size, strict, _) in &CERTIFICATES {
            book(size, strict);
        }
    }
}

/// Whether every embedded certificate parses (a test checks it; a book that does not parse
/// is never used).
pub fn all_parse() -> bool {
    CERTIFICATES
        .iter()
        .all(|&(size, strict, _)| book(size, strict).is_some())
}
