//! Strength levels for people: `random` plays a uniformly random legal move, `greedy` the move
//! with the best one-ply evaluation (what older programs called "hard"), `full` searches; a
//! rating below full strength (`UCI_LimitStrength`, `UCI_Elo`) weakens it ([`super::strength`]).

use rand::RngExt;
use rand::rngs::SmallRng;

use super::score::{INFINITY, MATE};
use super::strength::Strength;
use crate::game::{Outcome, Searchable};

/// The strength levels of option `Level`.
#[derive(Clone, Copy, Debug, PartialEq)]
pub enum Level {
    /// A uniformly random legal move.
    Random,
    /// The best move by one-ply evaluation, ties broken at random.
    Greedy,
    /// The full search.
    Full,
    /// The full search weakened to a rating (`UCI_LimitStrength`, `UCI_Elo`).
    Limited(Strength),
}

impl Level {
    /// The option values, in order.
    pub const NAMES: &'static [&'static str] = &["random", "greedy", "full"];

    /// Reads an option value.
    pub fn from_name(name: &str) -> Option<Level> {
        match name {
            "random" => Some(Level::Random),
            "greedy" => Some(Level::Greedy),
            "full" => Some(Level::Full),
            _ => None,
        }
    }
}

/// A uniformly random legal move, `None` when there is none.
pub fn random_move<G: Searchable>(pos: &G, rng: &mut SmallRng) -> Option<G::Move> {
    random_move_among(&legal_moves(pos), rng)
}

/// A uniformly random move of `moves` (the legal moves, or `go searchmoves`' list), `None`
/// when it is empty.
pub fn random_move_among<M: Copy>(moves: &[M], rng: &mut SmallRng) -> Option<M> {
    if moves.is_empty() {
        return None;
    }
    Some(moves[rng.random_range(0..moves.len())])
}

/// The move whose resulting position evaluates best for the mover (a move that ends the game
/// scores as its result), with the score; ties are broken at random.
pub fn greedy_move<G: Searchable>(pos: &G, rng: &mut SmallRng) -> Option<(G::Move, i32)> {
    greedy_move_among(pos, &legal_moves(pos), rng)
}

/// [`greedy_move`] among `moves` only (legal moves of `pos`, e.g. `go searchmoves`' list).
pub fn greedy_move_among<G: Searchable>(
    pos: &G,
    moves: &[G::Move],
    rng: &mut SmallRng,
) -> Option<(G::Move, i32)> {
    let mover = pos.side_to_move();
    let mut best_score = -INFINITY;
    let mut best: Vec<G::Move> = Vec::new();
    for &m in moves {
        let mut child = pos.clone();
        child.play(m);
        let score = match child.outcome() {
            Some(Outcome::Win(p)) if p == mover => MATE - 1,
            Some(Outcome::Win(_)) => -(MATE - 1),
            Some(Outcome::Draw) => 0,
            // The evaluation is the side to move's view, which need not be the opponent's.
            None if child.side_to_move() == mover => child.evaluate(),
            None => -child.evaluate(),
        };
        if score > best_score {
            best_score = score;
            best.clear();
        }
        if score == best_score {
            best.push(m);
        }
    }
    if best.is_empty() {
        return None;
    }
    Some((best[rng.random_range(0..best.len())], best_score))
}

/// The moves a level chooses among: `searchmoves` (already checked legal) when given, else
/// every legal move; none when the game is over.
pub fn candidate_moves<G: Searchable>(pos: &G, searchmoves: Option<&[G::Move]>) -> Vec<G::Move> {
    match searchmoves {
        Some(list) if pos.outcome().is_none() => list.to_vec(),
        Some(_) => Vec::new(),
        None => legal_moves(pos),
    }
}

fn legal_moves<G: Searchable>(pos: &G) -> Vec<G::Move> {
    let mut moves = Vec::new();
    if pos.outcome().is_none() {
        pos.generate_moves(&mut moves);
    }
    moves
}
