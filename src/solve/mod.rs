//! The Sight solver: exact proofs of who wins a Sight position on boards up to 5×5, with its
//! own compact board ([`board`]), canonical keys under the board's symmetries ([`symmetry`]),
//! a table made for proofs ([`table`]), the proof search ([`prover`]), the split of a long
//! solve into frontier positions that can be checkpointed and sharded ([`frontier`],
//! [`results`]), the certificate of a solve ([`certificate`]) and its independent checker
//! ([`check`]), and the `ludus solve` command ([`cli`]). It knows the game only through
//! [`crate::game::sight`]; nothing here searches for play or does I/O outside the command.

pub mod board;
pub mod book;
pub mod certificate;
mod certify;
pub mod check;
pub mod check_record;
mod check_run;
pub mod cli;
pub mod endgame;
pub mod frontier;
pub mod hints;
pub mod hints_check;
pub mod hints_merge;
pub mod hints_run;
pub mod prover;
pub mod results;
mod setup;
pub mod strategy;
pub mod symmetry;
pub mod table;
