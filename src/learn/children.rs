//! The steps' processes: `ludus datagen`, `train` and `match` run as children of the
//! driver, each with its output appended to a log file, each ending with the driver (a
//! `kill -9` of the driver takes them along, so that a rerun never finds a second writer on
//! a file), while the driver says how far the step is at a steady pace.

use std::io::Write;
use std::os::unix::process::CommandExt;
use std::path::{Path, PathBuf};
use std::process::{Child, Command, Stdio};
use std::time::{Duration, Instant};

/// One child process to run: its arguments (after the ludus binary) and its log file.
#[derive(Clone, Debug)]
pub struct ChildSpec {
    /// The arguments.
    pub args: Vec<String>,
    /// Where its standard output and error are appended.
    pub log: PathBuf,
}

/// How progress is said: a line every `every`, or on a terminal one status line rewritten
/// every second.
pub struct Progress<'a> {
    /// Where.
    pub out: &'a mut dyn Write,
    /// Seconds between lines (in a pipe).
    pub every: Duration,
    /// Whether `out` is a terminal.
    pub terminal: bool,
    /// The status line is showing (on a terminal).
    pub showing: bool,
}

impl Progress<'_> {
    /// Says a line of its own (ending a status line first).
    pub fn line(&mut self, text: &str) -> std::io::Result<()> {
        if self.showing {
            write!(self.out, "\r\x1b[K")?;
            self.showing = false;
        }
        writeln!(self.out, "{text}")?;
        self.out.flush()
    }

    /// Says the status of a running step.
    fn status(&mut self, text: &str) -> std::io::Result<()> {
        if self.terminal {
            write!(self.out, "\r\x1b[K{text}")?;
            self.showing = true;
            self.out.flush()
        } else {
            self.line(text)
        }
    }
}

pub use crate::progress::duration;

/// A bar of `width` cells, `fraction` of them full.
pub fn bar(fraction: f64, width: usize) -> String {
    let full = ((fraction.clamp(0.0, 1.0) * width as f64).round() as usize).min(width);
    format!("[{}{}]", "#".repeat(full), "-".repeat(width - full))
}

fn spawn(exe: &Path, spec: &ChildSpec) -> Result<Child, String> {
    let log = std::fs::File::options()
        .create(true)
        .append(true)
        .open(&spec.log)
        .map_err(|e| format!("{}: {e}", spec.log.display()))?;
    let err = log
        .try_clone()
        .map_err(|e| format!("{}: {e}", spec.log.display()))?;
    let mut command = Command::new(exe);
    command
        .args(&spec.args)
        .stdin(Stdio::null())
        .stdout(log)
        .stderr(err)
        // The child's progress lines are what the driver reads from its log: at the pace of
        // its own `--progress`, whatever style the user chose for the driver.
        .env_remove("LUDUS_PROGRESS");
    // SAFETY: prctl is async-signal-safe and touches no memory of the parent: the child
    // asks the kernel to kill it when the driver's thread that spawned it ends.
    unsafe {
        command.pre_exec(|| {
            if libc::prctl(libc::PR_SET_PDEATHSIG, libc::SIGKILL) != 0 {
                return Err(std::io::Error::last_os_error());
            }
            Ok(())
        });
    }
    command
        .spawn()
        .map_err(|e| format!("cannot run {}: {e}", exe.display()))
}

/// The last `n` lines of a log, for an error message.
pub fn tail(path: &Path, n: usize) -> String {
    let text = crate::files::read_regular(path, 1 << 30)
        .map(|b| String::from_utf8_lossy(&b).into_owned())
        .unwrap_or_default();
    let lines: Vec<&str> = text.lines().collect();
    lines[lines.len().saturating_sub(n)..].join("\n")
}

/// Runs `specs` side by side and waits for all of them. `status` says, when asked at the
/// progress pace, how far they are (in words, and a fraction done when known); `tick` is
/// called with the seconds since the last call (the driver keeps the step's wall time). A
/// child that fails ends the others and the step, with the end of its log.
pub fn run_all(
    exe: &Path,
    specs: &[ChildSpec],
    progress: &mut Progress,
    label: &str,
    expected: Option<f64>,
    status: &mut dyn FnMut() -> (String, Option<f64>),
    tick: &mut dyn FnMut(f64) -> Result<(), String>,
) -> Result<(), String> {
    let mut children = Vec::new();
    for spec in specs {
        match spawn(exe, spec) {
            Ok(child) => children.push(Some(child)),
            Err(e) => {
                kill_all(&mut children);
                return Err(e);
            }
        }
    }
    let started = Instant::now();
    // What was done before this sitting (a resumed step): the ETA counts only the pace since.
    let resumed_at = status().1.unwrap_or(0.0);
    let mut last_said = Instant::now();
    let mut last_tick = Instant::now();
    let pace = if progress.terminal {
        Duration::from_secs(1)
    } else {
        progress.every
    };
    loop {
        let mut running = 0;
        for (i, slot) in children.iter_mut().enumerate() {
            let Some(child) = slot else { continue };
            match child.try_wait() {
                Ok(Some(exit)) if exit.success() => *slot = None,
                Ok(Some(exit)) => {
                    *slot = None;
                    kill_all(&mut children);
                    return Err(format!(
                        "{label}: `ludus {}` ended with {exit}; the end of {}:\n{}",
                        specs[i].args.first().map_or("", String::as_str),
                        specs[i].log.display(),
                        tail(&specs[i].log, 12)
                    ));
                }
                Ok(None) => running += 1,
                Err(e) => {
                    kill_all(&mut children);
                    return Err(format!("{label}: cannot wait for a child: {e}"));
                }
            }
        }
        if last_tick.elapsed() >= Duration::from_secs(5) || running == 0 {
            let secs = last_tick.elapsed().as_secs_f64();
            last_tick = Instant::now();
            if let Err(e) = tick(secs) {
                kill_all(&mut children);
                return Err(e);
            }
        }
        if running == 0 {
            return Ok(());
        }
        if last_said.elapsed() >= pace {
            last_said = Instant::now();
            let (words, fraction) = status();
            let elapsed = started.elapsed().as_secs_f64();
            let eta = match (fraction, expected) {
                (Some(f), _) if f - resumed_at > 0.02 => {
                    Some(elapsed / (f - resumed_at) * (1.0 - f))
                }
                // The same step's time in the generation before, while it is not yet spent
                // (a gate's SPRT can take longer: then no ETA rather than a wrong one).
                (_, Some(e)) if e > elapsed => Some(e - elapsed),
                _ => None,
            };
            let mut text = format!("{label}: ");
            if let Some(f) = fraction {
                text += &format!("{} {:>3.0}% ", bar(f, 20), f * 100.0);
            }
            text += &words;
            text += &format!(", {}", duration(elapsed));
            if let Some(eta) = eta {
                text += &format!(", ETA {}", duration(eta));
            }
            progress
                .status(&text)
                .map_err(|e| format!("cannot write progress: {e}"))?;
        }
        std::thread::sleep(Duration::from_millis(200));
    }
}

fn kill_all(children: &mut [Option<Child>]) {
    for child in children.iter_mut().flatten() {
        let _ = child.kill();
        let _ = child.wait();
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn durations_and_bars_read_as_a_person_reads_them() {
        assert_eq!(duration(65.4), "1m05s");
        assert_eq!(duration(7800.0), "2h10m");
        assert_eq!(bar(0.5, 10), "[#####-----]");
        assert_eq!(bar(2.0, 4), "[####]");
    }
}
