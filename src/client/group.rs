//! Every engine runs in a process group of its own, so that ending the engine ends whatever
//! it started too (the engine of a wrapper script, helper processes, forgotten children):
//! SIGTERM to the whole group, a moment to go, then SIGKILL. Children that move to another
//! group or session are beyond the referee's reach. Without Unix process groups (other
//! systems), only the engine's own process is killed.

use std::process::{Child, Command};
#[cfg(unix)]
use std::time::{Duration, Instant};

/// How long the group has to exit after SIGTERM before SIGKILL.
#[cfg(unix)]
const TERM_WAIT: Duration = Duration::from_millis(100);

/// Makes `cmd` start its process as the leader of a new process group (whose id is its pid),
/// so that the terminal's signals and the referee's group signals reach the engine's own
/// processes only.
pub(super) fn in_own_group(cmd: &mut Command) {
    #[cfg(unix)]
    {
        use std::os::unix::process::CommandExt;
        cmd.process_group(0);
    }
    #[cfg(not(unix))]
    let _ = cmd;
}

/// Ends the engine's process group and reaps the engine: SIGTERM to the group, up to
/// [`TERM_WAIT`] for every process in it to exit, then SIGKILL to the group and to the engine.
/// Every process the engine started and left in its group is ended, whether the engine has
/// already exited or not. (Orphans the system does not reap stay as zombies until it does;
/// the wait is then cut short by SIGKILL, which they no longer need.)
pub(super) fn end_group(child: &mut Child) {
    #[cfg(unix)]
    if let Ok(group) = libc::pid_t::try_from(child.id())
        && signal_group(group, libc::SIGTERM)
    {
        let until = Instant::now() + TERM_WAIT;
        loop {
            // Reap the engine as soon as it exits, so it leaves the group.
            let _ = child.try_wait();
            if !signal_group(group, 0) {
                break;
            }
            if Instant::now() >= until {
                signal_group(group, libc::SIGKILL);
                break;
            }
            std::thread::sleep(Duration::from_millis(2));
        }
    }
    if !matches!(child.try_wait(), Ok(Some(_))) {
        let _ = child.kill();
        let _ = child.wait();
    }
}

/// Sends `signal` (0: none, only the check) to every process of group `group`; `false` when
/// the group has no process left (or cannot be signalled).
#[cfg(unix)]
fn signal_group(group: libc::pid_t, signal: libc::c_int) -> bool {
    // SAFETY: `killpg` only sends a signal and touches no memory. `group` is the id of a group
    // the referee created for one engine (its leader's pid); 0 and 1 would mean the referee's
    // own group and init's, so they are never signalled.
    group > 1 && unsafe { libc::killpg(group, signal) } == 0
}
