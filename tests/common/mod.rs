//! Helpers shared by the integration tests: the reference implementations of the rules, the
//! invariant battery, an exact solver, the engine as a child process (`process`) and the web
//! server's client (`web`).
//!
//! Each test binary (one per folder of `tests/`: `games`, `search`, `protocol`, …) includes this
//! module once from its `main.rs` and uses only part of it, so unused items are expected in some
//! binaries.
#![allow(dead_code)]

pub mod battery;
pub mod isaac_helpers;
pub mod isaac_hooks;
pub mod isaac_reference;
pub mod isaac_reference_fen;
pub mod process;
pub mod sight_helpers;
pub mod sight_reference;
pub mod solver;
pub mod tactigon_helpers;
pub mod tactigon_hooks;
pub mod tactigon_reference;
pub mod tactigon_reference_fen;
pub mod web;

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

/// [`run_ludus`] with the process's address space capped at `bytes` (`RLIMIT_AS`): a reader
/// that took a file of several GiB into memory fails (an allocation abort, status `None`);
/// one that streams does not. Returns the exit status (`None`: ended by a signal), stdout and
/// stderr.
pub fn run_ludus_capped(args: &[&str], bytes: u64) -> (Option<i32>, String, String) {
    let mut cmd = std::process::Command::new(env!("CARGO_BIN_EXE_ludus"));
    cmd.args(args).stdin(std::process::Stdio::null());
    let cap = libc::rlimit {
        rlim_cur: bytes,
        rlim_max: bytes,
    };
    // SAFETY: the closure only makes the setrlimit system call (async-signal-safe) on a value
    // built before the fork.
    unsafe {
        std::os::unix::process::CommandExt::pre_exec(&mut cmd, move || {
            match libc::setrlimit(libc::RLIMIT_AS, &cap) {
                0 => Ok(()),
                _ => Err(std::io::Error::last_os_error()),
            }
        });
    }
    let out = cmd.output().expect("ludus runs");
    (
        out.status.code(),
        String::from_utf8_lossy(&out.stdout).into_owned(),
        String::from_utf8_lossy(&out.stderr).into_owned(),
    )
}

/// Makes `path` a sparse file of `len` bytes that begins with `start` (the rest reads as
/// zeros and takes no disk).
pub fn sparse_file(path: &std::path::Path, start: &[u8], len: u64) {
    std::fs::write(path, start).expect("written");
    std::fs::OpenOptions::new()
        .write(true)
        .open(path)
        .and_then(|f| f.set_len(len))
        .expect("a sparse file");
}

/// A temporary directory of one test (named after it and the process), removed when dropped.
pub struct TestDir(pub std::path::PathBuf);

impl TestDir {
    /// Makes `ludus-NAME-PID` in the system's temporary directory.
    pub fn new(name: &str) -> TestDir {
        let dir = std::env::temp_dir().join(format!("ludus-{name}-{}", std::process::id()));
        std::fs::create_dir_all(&dir).expect("a temporary directory");
        TestDir(dir)
    }

    /// The path of `name` in it, as text.
    pub fn file(&self, name: &str) -> String {
        self.0.join(name).to_string_lossy().into_owned()
    }
}

impl Drop for TestDir {
    fn drop(&mut self) {
        std::fs::remove_dir_all(&self.0).ok();
    }
}

/// Asserts that `best` (a `bestmove` in the engine's own notation) is a legal move in `pos`.
pub fn assert_legal<G: ludus::game::Game>(pos: &G, best: Option<&str>) {
    let best = best.expect("a move");
    let m = pos.parse_move(best).expect("the engine's own notation");
    assert!(pos.is_legal(m), "{best} is not legal");
}
