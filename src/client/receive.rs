//! Waiting for an engine: its next line of output within a deadline, the end of its output
//! (which is also its process exiting, even while a child of it holds the output open), and
//! its exit status.

use std::time::{Duration, Instant};

use crossbeam_channel::{RecvTimeoutError, TryRecvError};

use super::EngineProcess;
use super::output::{Line, MAX_LINE};

/// How long to wait for an exit status once an engine has closed its output.
const EXIT_WAIT: Duration = Duration::from_millis(200);

/// How often a wait for the engine's output also checks whether its process still runs.
const EXIT_POLL: Duration = Duration::from_millis(20);

/// How long output may still arrive once the engine's process has exited (what it wrote just
/// before exiting); after that its output counts as ended even if a child of the engine
/// still holds it open.
const EXIT_LINGER: Duration = Duration::from_millis(50);

impl EngineProcess {
    /// Whether the process has exited (and been reaped) within `limit`.
    pub(super) fn wait_exit(&mut self, limit: Duration) -> bool {
        let until = Instant::now() + limit;
        loop {
            match self.child.try_wait() {
                Ok(Some(_)) => return true,
                Ok(None) if Instant::now() < until => std::thread::sleep(Duration::from_millis(2)),
                _ => return false,
            }
        }
    }

    /// The next line, or `None` once `until` has passed. The end of output is [`Line::Eof`]:
    /// the output closing, or the process having exited (checked every [`EXIT_POLL`]) with
    /// nothing more arriving for [`EXIT_LINGER`] or until `until` (a child of the engine may
    /// hold the output open: the engine has crashed all the same). After the end of output
    /// every call returns [`Line::Eof`] at once.
    pub(super) fn recv_until(&mut self, until: Instant) -> Option<(Instant, Line)> {
        loop {
            if self.closed {
                return Some((Instant::now(), Line::Eof));
            }
            let wake = until.min(Instant::now() + EXIT_POLL);
            match self.lines.recv_deadline(wake) {
                Ok(received) => return Some(self.note(received)),
                Err(RecvTimeoutError::Disconnected) => {
                    return Some(self.note((Instant::now(), Line::Eof)));
                }
                Err(RecvTimeoutError::Timeout) => {}
            }
            let now = Instant::now();
            if self.exited_at.is_none() && matches!(self.child.try_wait(), Ok(Some(_))) {
                self.exited_at = Some(now);
            }
            if let Some(exited) = self.exited_at
                && (now >= exited + EXIT_LINGER || now >= until)
            {
                log::debug!("{}: exited, its output still open", self.name);
                return Some(self.note((now, Line::Eof)));
            }
            if now >= until {
                return None;
            }
        }
    }

    /// Logs a received line and remembers the end of output.
    pub(super) fn note(&mut self, received: (Instant, Line)) -> (Instant, Line) {
        match &received.1 {
            Line::Text(text) => log::debug!("{} > {text}", self.name),
            Line::TooLong => log::debug!("{} > (a line over {MAX_LINE} bytes)", self.name),
            Line::Eof => {
                log::debug!("{} > (end of output)", self.name);
                self.closed = true;
            }
        }
        received
    }

    /// Discards the lines already queued, without waiting.
    pub(super) fn drain(&mut self) {
        while !self.closed {
            match self.lines.try_recv() {
                Ok(received) => {
                    self.note(received);
                }
                Err(TryRecvError::Empty) => break,
                Err(TryRecvError::Disconnected) => {
                    self.note((Instant::now(), Line::Eof));
                }
            }
        }
    }

    /// Describes an engine whose output ended: `exited while thinking (status 3)` once it has
    /// exited (waiting briefly for it), `closed its output while thinking` otherwise.
    pub(super) fn exit_detail(&mut self, when: &str) -> String {
        let until = Instant::now() + EXIT_WAIT;
        loop {
            match self.child.try_wait() {
                Ok(Some(status)) => {
                    return match status.code() {
                        Some(code) => format!("exited {when} (status {code})"),
                        None => format!("exited {when} ({status})"),
                    };
                }
                Ok(None) if Instant::now() < until => std::thread::sleep(Duration::from_millis(5)),
                _ => return format!("closed its output {when}"),
            }
        }
    }
}
