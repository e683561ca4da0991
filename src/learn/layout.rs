//! The run folder of `ludus learn`: where each file goes, the lock that keeps one driver on
//! a folder, and each generation's record of finished steps.
//!
//! ```text
//! OUT/learn.json              the run's configuration (its identity)
//! OUT/ledger.jsonl            one JSON line a generation (and one a stop)
//! OUT/elo.svg                 the chart of Elo by generation
//! OUT/best.nnue(.check)       the best net (absent while the best is the hand evaluation)
//! OUT/nets/gen-NNN.nnue       every generation's candidate (and its .check)
//! OUT/openings.txt            the gates' openings, when they come from a book
//! OUT/gen-NNN/steps.json      the generation's finished steps: wall time and what they found
//! OUT/gen-NNN/…               its data shards, logs, training checkpoint, gate games
//! OUT/learn.lock              held (flock) by the one driver working on the folder
//! ```
//!
//! The small files (configuration, ledger, chart, nets, steps) are the run: a copy of them in
//! another folder, on another machine, goes on from the same place (the data of finished
//! generations is needed only by a training window that reaches back to it).

use std::collections::BTreeMap;
use std::fs::File;
use std::os::fd::AsRawFd;
use std::path::{Path, PathBuf};

use serde::{Deserialize, Serialize};

/// The largest small file of a run read (steps, ledger).
pub const MAX_STATE_BYTES: u64 = 64 << 20;

/// The paths of one run folder.
#[derive(Clone, Debug)]
pub struct RunDir {
    /// The folder.
    pub root: PathBuf,
}

impl RunDir {
    /// The run in `root`.
    pub fn new(root: &Path) -> RunDir {
        RunDir {
            root: root.to_path_buf(),
        }
    }

    /// `learn.json`.
    pub fn config(&self) -> PathBuf {
        self.root.join("learn.json")
    }

    /// `ledger.jsonl`.
    pub fn ledger(&self) -> PathBuf {
        self.root.join("ledger.jsonl")
    }

    /// `elo.svg`.
    pub fn chart(&self) -> PathBuf {
        self.root.join("elo.svg")
    }

    /// `best.nnue`.
    pub fn best(&self) -> PathBuf {
        self.root.join("best.nnue")
    }

    /// `openings.txt`.
    pub fn openings(&self) -> PathBuf {
        self.root.join("openings.txt")
    }

    /// The net of generation `g` (generation 0: the starting net, when it is one).
    pub fn net(&self, g: u32) -> PathBuf {
        self.root.join("nets").join(format!("gen-{g:03}.nnue"))
    }

    /// The folder of generation `g`.
    pub fn generation(&self, g: u32) -> PathBuf {
        self.root.join(format!("gen-{g:03}"))
    }

    /// A file of generation `g`.
    pub fn file(&self, g: u32, name: &str) -> PathBuf {
        self.generation(g).join(name)
    }

    /// Takes the folder's lock: one driver at a time. The lock goes with the process,
    /// whatever ends it.
    pub fn lock(&self) -> Result<File, String> {
        let path = self.root.join("learn.lock");
        lock_exclusive(&path)?.ok_or_else(|| {
            format!(
                "another `ludus learn` is working on {} (it holds {}): one driver at a time",
                self.root.display(),
                path.display()
            )
        })
    }
}

/// An exclusive flock on the file at `path` (made if missing), held while the file lives;
/// `None` when another holds it.
pub fn lock_exclusive(path: &Path) -> Result<Option<File>, String> {
    let file = File::options()
        .create(true)
        .truncate(false)
        .write(true)
        .open(path)
        .map_err(|e| format!("{}: {e}", path.display()))?;
    // SAFETY: flock on a descriptor this function owns; no memory is involved.
    let status = unsafe { libc::flock(file.as_raw_fd(), libc::LOCK_EX | libc::LOCK_NB) };
    Ok((status == 0).then_some(file))
}

/// What a finished step found, and how long it took.
#[derive(Clone, Debug, Default, PartialEq, Serialize, Deserialize)]
pub struct StepDone {
    /// Wall time of the step, in seconds (all sittings).
    pub seconds: f64,
    /// What it found, by name (numbers and words the ledger line takes).
    #[serde(default)]
    pub found: BTreeMap<String, serde_json::Value>,
}

/// A generation's finished steps and the wall time spent in unfinished ones, kept in
/// `gen-NNN/steps.json` (rewritten atomically after each step).
#[derive(Clone, Debug, Default, PartialEq, Serialize, Deserialize)]
pub struct Steps {
    /// Finished steps by name.
    pub done: BTreeMap<String, StepDone>,
    /// Seconds spent so far in steps not finished (sittings cut short), by name.
    #[serde(default)]
    pub spent: BTreeMap<String, f64>,
}

impl Steps {
    /// The steps of generation `g` of `run` (none when the file is absent).
    pub fn read(run: &RunDir, g: u32) -> Result<Steps, String> {
        let path = run.file(g, "steps.json");
        if !path.exists() {
            return Ok(Steps::default());
        }
        let text = crate::files::read_regular_text(&path, MAX_STATE_BYTES)
            .map_err(|e| format!("{}: {e}", path.display()))?;
        serde_json::from_str(&text).map_err(|e| format!("{}: {e}", path.display()))
    }

    /// Writes the steps of generation `g` (through a temporary file).
    pub fn write(&self, run: &RunDir, g: u32) -> Result<(), String> {
        let path = run.file(g, "steps.json");
        let text = serde_json::to_string_pretty(self).map_err(|e| e.to_string())? + "\n";
        write_atomic(&path, text.as_bytes())
    }

    /// Whether `step` is finished.
    pub fn is_done(&self, step: &str) -> bool {
        self.done.contains_key(step)
    }

    /// Total wall time of every step, finished or not.
    pub fn seconds(&self) -> f64 {
        self.done.values().map(|s| s.seconds).sum::<f64>() + self.spent.values().sum::<f64>()
    }
}

/// Writes `bytes` to `path` through `path.tmp` and a rename, so that a kill leaves the old
/// file or the new one, never half of one.
pub fn write_atomic(path: &Path, bytes: &[u8]) -> Result<(), String> {
    let mut tmp = path.as_os_str().to_owned();
    tmp.push(".tmp");
    let tmp = PathBuf::from(tmp);
    if let Some(dir) = path.parent() {
        std::fs::create_dir_all(dir).map_err(|e| format!("{}: {e}", dir.display()))?;
    }
    std::fs::write(&tmp, bytes)
        .and_then(|()| std::fs::rename(&tmp, path))
        .map_err(|e| format!("{}: {e}", path.display()))
}

/// Copies `from` to `to` atomically.
pub fn copy_atomic(from: &Path, to: &Path) -> Result<(), String> {
    let bytes = crate::files::read_regular(from, MAX_STATE_BYTES)
        .map_err(|e| format!("{}: {e}", from.display()))?;
    write_atomic(to, &bytes)
}

/// `<path>.check`, the check file beside a net.
pub fn check_of(net: &Path) -> PathBuf {
    let mut name = net.as_os_str().to_owned();
    name.push(".check");
    name.into()
}

/// `x` to one decimal (the ledger's seconds and rates).
pub fn round1(x: f64) -> f64 {
    (x * 10.0).round() / 10.0
}
