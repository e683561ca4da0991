//! Helpers shared by the integration tests.
//!
//! Each test binary compiles this module on its own and uses only part of it, so unused items
//! are expected in some binaries.
#![allow(dead_code)]

pub mod battery;
pub mod isaac_helpers;
pub mod isaac_hooks;
pub mod isaac_reference;
pub mod isaac_reference_fen;
pub mod sight_helpers;
pub mod sight_reference;
pub mod solver;
pub mod tactigon_helpers;
pub mod tactigon_hooks;
pub mod tactigon_reference;
pub mod tactigon_reference_fen;
