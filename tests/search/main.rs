//! The searchers in process: alpha-beta and MCTS on all three games (exact results against
//! brute force, tactics, searches cut short, tree reuse, several threads on one MCTS tree) and
//! the learned evaluations.

#[path = "../common/mod.rs"]
mod common;

mod net;
mod search;
mod search_cut;
mod search_isaac;
mod search_mcts;
mod search_mcts_reuse;
mod search_mcts_threads;
mod search_strength;
mod search_tactigon;
