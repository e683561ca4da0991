//! Pondering, as a match runner drives it: after a `bestmove <m> ponder <reply>`, the engine
//! is sent the position after the reply and `go ponder` with its clock; when the opponent has
//! moved, `ponderhit` (it played the reply: the answer's time counts from then) or `stop`
//! (it did not: the ponder search's `bestmove` is read and thrown away).

use std::time::{Duration, Instant};

use super::output::Line;
use super::{Answer, EngineFailure, EngineProcess, secs};

impl EngineProcess {
    /// Sends `position` (the position after the expected reply) and `go ponder <go_args>`.
    /// Lines queued before are discarded first.
    pub fn start_ponder(&mut self, position: &str, go_args: &str) -> Result<(), EngineFailure> {
        self.drain();
        self.send(position)?;
        self.send(format!("go ponder {go_args}").trim_end())
    }

    /// The opponent played the expected reply: sends `ponderhit` and waits for the
    /// `bestmove` as [`EngineProcess::go`] does, its time counted from the `ponderhit`. The
    /// ponder search's `info` lines are discarded; the answer's score is the real search's.
    pub fn ponder_hit(
        &mut self,
        deadline: Option<Duration>,
        grace: Duration,
    ) -> Result<Answer, EngineFailure> {
        self.drain();
        let search = self.send_timed("ponderhit")?;
        self.await_answer(search, deadline, grace, None, &mut |_| {})
    }

    /// The opponent played something else: sends `stop` and reads the ponder search's
    /// `bestmove` (within `grace`), which is discarded.
    pub fn ponder_miss(&mut self, grace: Duration) -> Result<(), EngineFailure> {
        self.send("stop")?;
        let until = Instant::now() + grace;
        loop {
            match self.recv_until(until) {
                Some((_, Line::Text(text)))
                    if text.split_whitespace().next() == Some("bestmove") =>
                {
                    return Ok(());
                }
                Some((_, Line::Text(_) | Line::TooLong)) => {}
                Some((_, Line::Eof)) => {
                    return Err(EngineFailure::Crash(self.exit_detail("while pondering")));
                }
                None => {
                    return Err(EngineFailure::Stall(format!(
                        "no bestmove within {} after stop (pondering)",
                        secs(grace)
                    )));
                }
            }
        }
    }
}
