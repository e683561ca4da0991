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

/// Runs the ludus binary with `args` and returns its exit status, stdout and stderr.
pub fn run_ludus(args: &[&str]) -> (i32, String, String) {
    let out = std::process::Command::new(env!("CARGO_BIN_EXE_ludus"))
        .args(args)
        .output()
        .expect("ludus runs");
    (
        out.status.code().unwrap_or(-1),
        String::from_utf8_lossy(&out.stdout).into_owned(),
        String::from_utf8_lossy(&out.stderr).into_owned(),
    )
}
