//! The longer runs: training-data generation (`ludus datagen`), the win/draw/loss model fitted
//! to it (`ludus wdl`), and the Sight solver, its solved
//! counts and its certificates.

#[path = "../common/mod.rs"]
mod common;

mod datagen;
mod learn;
mod mate_claims;
mod sight_certificate;
mod sight_hints;
mod sight_solved;
mod sight_solver;
mod wdl;
