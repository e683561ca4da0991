//! The server's engine processes, each counted in a tally while it runs, so that
//! `GET /api/server` can say how many run (and tests can see that ended sessions leave none).

use std::ops::{Deref, DerefMut};
use std::sync::Arc;
use std::sync::atomic::{AtomicUsize, Ordering};
use std::time::Duration;

use crate::client::{EngineCommand, EngineFailure, EngineProcess};

/// How long an engine may take to start and finish its handshake.
pub const START_TIMEOUT: Duration = Duration::from_secs(10);

/// An engine process, counted in the server's tally of running engines while it lives.
pub struct Engine {
    // Declared first, so it is ended (and reaped) before the tally goes down.
    process: EngineProcess,
    tally: Tally,
}

struct Tally(Arc<AtomicUsize>);

impl Drop for Tally {
    fn drop(&mut self) {
        self.0.fetch_sub(1, Ordering::SeqCst);
    }
}

impl Engine {
    /// Starts `command` (handshake within [`START_TIMEOUT`]) and counts it in `tally`.
    pub fn start(
        command: &EngineCommand,
        tally: &Arc<AtomicUsize>,
    ) -> Result<Engine, EngineFailure> {
        let process = EngineProcess::start(command, START_TIMEOUT)?;
        tally.fetch_add(1, Ordering::SeqCst);
        Ok(Engine {
            process,
            tally: Tally(Arc::clone(tally)),
        })
    }

    /// Sends `quit` and ends the process ([`EngineProcess::quit`]).
    pub fn quit(self) {
        let Engine { process, tally } = self;
        process.quit();
        drop(tally);
    }
}

impl Deref for Engine {
    type Target = EngineProcess;
    fn deref(&self) -> &EngineProcess {
        &self.process
    }
}

impl DerefMut for Engine {
    fn deref_mut(&mut self) -> &mut EngineProcess {
        &mut self.process
    }
}
