//! The rules of the three games: the test vectors of `docs/rules/`, the notations, perft
//! against `tests/perft/`, and the invariant batteries against the independent reference
//! implementations of `tests/common/`.

#[path = "../common/mod.rs"]
mod common;

mod invariants;
mod isaac_invariants;
mod isaac_notation;
mod isaac_placement;
mod isaac_scoring;
mod perft;
mod sight_movement;
mod sight_notation;
mod sight_placement;
mod tactigon_board;
mod tactigon_combat;
mod tactigon_endings;
mod tactigon_invariants;
mod tactigon_movement;
mod tactigon_notation;
mod tactigon_reference;
