//! Searching: `position` and `go`, then the `info` lines and the one `bestmove`, with `stop`
//! sent at a deadline ([`EngineProcess::go`]) or when the caller asks for it
//! ([`EngineProcess::go_until`], for `go infinite` in an analysis display).

use std::time::{Duration, Instant};

use super::ReportedScore;
use super::info::Info;
use super::output::{Line, MAX_LINE};
use super::{Answer, EngineFailure, EngineProcess, millis, secs};

/// How often [`EngineProcess::go_until`] asks whether to stop while no line arrives.
const STOP_POLL: Duration = Duration::from_millis(25);

/// What one line of a search's output means.
enum Seen {
    /// An `info` line or anything else: the search goes on.
    More,
    /// The `bestmove` line (or an output that ends the search).
    Done(Result<Answer, EngineFailure>),
}

/// A search in flight: when `go` (or `ponderhit`) was written and the last score reported.
pub(super) struct Search {
    pub(super) start: Instant,
    pub(super) last: Option<(ReportedScore, Option<u32>)>,
    /// The chances of the line `last` is from.
    pub(super) last_wdl: Option<[u32; 3]>,
}

impl EngineProcess {
    /// Sends the `position` line (complete, e.g. `position startpos moves c3 b2`) and
    /// `go <go_args>`, and waits for `bestmove`. Lines queued before are discarded first, so a
    /// late `bestmove` of an earlier search is not taken for this one. With a `deadline`, `stop`
    /// is sent when it passes and the engine gets `grace` more; without one, `grace` in all.
    /// The answer carries the time from writing `go` to receiving `bestmove`, and the score,
    /// depth and chances (`wdl`) of the last `info` line with a score (MultiPV lines after the
    /// first are ignored).
    pub fn go(
        &mut self,
        position: &str,
        go_args: &str,
        deadline: Option<Duration>,
        grace: Duration,
    ) -> Result<Answer, EngineFailure> {
        self.go_watching(position, go_args, deadline, grace, &mut |_| {})
    }

    /// [`EngineProcess::go`], handing every `info` line, read, to `watch` as it arrives (for
    /// an analysis display).
    pub fn go_watching(
        &mut self,
        position: &str,
        go_args: &str,
        deadline: Option<Duration>,
        grace: Duration,
        watch: &mut dyn FnMut(&Info),
    ) -> Result<Answer, EngineFailure> {
        self.go_inner(position, go_args, deadline, grace, None, watch)
    }

    /// [`EngineProcess::go_watching`] that also sends `stop` as soon as `cancelled()` says so
    /// (asked whenever a line arrives and at least every 25 ms); the engine then has `grace`
    /// to answer. For a search nobody waits for any more: a front end's dropped job.
    pub fn go_cancellable(
        &mut self,
        position: &str,
        go_args: &str,
        deadline: Option<Duration>,
        grace: Duration,
        cancelled: &mut dyn FnMut() -> bool,
        watch: &mut dyn FnMut(&Info),
    ) -> Result<Answer, EngineFailure> {
        self.go_inner(position, go_args, deadline, grace, Some(cancelled), watch)
    }

    fn go_inner(
        &mut self,
        position: &str,
        go_args: &str,
        deadline: Option<Duration>,
        grace: Duration,
        cancelled: Option<&mut dyn FnMut() -> bool>,
        watch: &mut dyn FnMut(&Info),
    ) -> Result<Answer, EngineFailure> {
        let search = self.start_search(position, go_args)?;
        self.await_answer(search, deadline, grace, cancelled, watch)
    }

    /// Waits for the `bestmove` of `search` (see [`EngineProcess::go_cancellable`]).
    pub(super) fn await_answer(
        &mut self,
        mut search: Search,
        deadline: Option<Duration>,
        grace: Duration,
        mut cancelled: Option<&mut dyn FnMut() -> bool>,
        watch: &mut dyn FnMut(&Info),
    ) -> Result<Answer, EngineFailure> {
        let mut stop_sent = deadline.is_none();
        let mut until = search.start + deadline.unwrap_or(grace);
        let mut cancel_sent = false;
        loop {
            if !cancel_sent && cancelled.as_mut().is_some_and(|c| c()) {
                cancel_sent = true;
                self.send("stop")?;
                stop_sent = true;
                until = until.min(Instant::now() + grace);
            }
            // Without a cancel to watch for, sleep until the deadline; else wake to ask.
            let wake = match cancelled {
                Some(_) if !cancel_sent => until.min(Instant::now() + STOP_POLL),
                _ => until,
            };
            let (at, line) = match self.recv_until(wake) {
                Some(received) => received,
                None if Instant::now() < until => continue,
                None if !stop_sent => {
                    self.send("stop")?;
                    stop_sent = true;
                    until = Instant::now() + grace;
                    continue;
                }
                None => {
                    let waited = match deadline {
                        _ if cancel_sent => format!("{} after stop", secs(grace)),
                        Some(d) => format!("{} and {} after stop", secs(d), secs(grace)),
                        None => secs(grace),
                    };
                    return Err(EngineFailure::Stall(format!("no bestmove within {waited}")));
                }
            };
            if let Seen::Done(answer) = self.seen(&mut search, at, line, watch) {
                return answer;
            }
        }
    }

    /// Like [`EngineProcess::go_watching`] without a deadline (for `go infinite`): `stop` is
    /// sent once `stop(elapsed)` says so — it is asked whenever a line arrives and at least
    /// every 25 ms — and the engine then has `grace` to answer `bestmove`.
    pub fn go_until(
        &mut self,
        position: &str,
        go_args: &str,
        stop: &mut dyn FnMut(Duration) -> bool,
        grace: Duration,
        watch: &mut dyn FnMut(&Info),
    ) -> Result<Answer, EngineFailure> {
        let mut search = self.start_search(position, go_args)?;
        let mut stop_by: Option<Instant> = None;
        loop {
            let now = Instant::now();
            if stop_by.is_none() && stop(now.saturating_duration_since(search.start)) {
                self.send("stop")?;
                stop_by = Some(now + grace);
            }
            let until = stop_by.unwrap_or(now + STOP_POLL);
            match self.recv_until(until) {
                Some((at, line)) => {
                    if let Seen::Done(answer) = self.seen(&mut search, at, line, watch) {
                        return answer;
                    }
                }
                None if stop_by.is_some() => {
                    return Err(EngineFailure::Stall(format!(
                        "no bestmove within {} after stop",
                        secs(grace)
                    )));
                }
                None => {}
            }
        }
    }

    /// Discards the lines queued, sends `position_line` and `go <go_args>` (`go` when empty).
    /// The search is timed from just before `go` is written ([`Self::send_timed`]).
    fn start_search(&mut self, position: &str, go_args: &str) -> Result<Search, EngineFailure> {
        self.drain();
        self.send(position)?;
        let go = if go_args.is_empty() {
            "go".to_string()
        } else {
            format!("go {go_args}")
        };
        self.send_timed(&go)
    }

    /// Sends `line` (`go …` or `ponderhit`) and starts timing the search it begins: from just
    /// before the write, so a referee thread descheduled after it never shortens the
    /// engine's measured time.
    pub(super) fn send_timed(&mut self, line: &str) -> Result<Search, EngineFailure> {
        let start = Instant::now();
        self.send(line)?;
        Ok(Search {
            start,
            last: None,
            last_wdl: None,
        })
    }

    /// Takes one line of a search's output: an `info` line goes to `watch` (and its score is
    /// kept), `bestmove` ends the search, the end of output or an overlong line fails it.
    fn seen(
        &mut self,
        search: &mut Search,
        at: Instant,
        line: Line,
        watch: &mut dyn FnMut(&Info),
    ) -> Seen {
        let text = match line {
            Line::Text(text) => text,
            Line::TooLong => {
                return Seen::Done(Err(EngineFailure::BadOutput(format!(
                    "a line longer than {} MiB",
                    MAX_LINE >> 20
                ))));
            }
            Line::Eof => {
                return Seen::Done(Err(EngineFailure::Crash(
                    self.exit_detail("while thinking"),
                )));
            }
        };
        let mut words = text.split_whitespace();
        match words.next() {
            Some("bestmove") => Seen::Done(match words.next() {
                None => Err(EngineFailure::BadOutput("bestmove without a move".into())),
                Some(mv @ ("(none)" | "0000")) => {
                    Err(EngineFailure::BadOutput(format!("bestmove {mv}")))
                }
                Some(mv) => Ok(Answer {
                    mv: mv.to_string(),
                    elapsed_ms: millis(at.saturating_duration_since(search.start)),
                    score: search.last.map(|(s, _)| s),
                    depth: search.last.and_then(|(_, d)| d),
                    wdl: search.last_wdl,
                    ponder: match (words.next(), words.next()) {
                        (Some("ponder"), Some(reply)) => Some(reply.to_string()),
                        _ => None,
                    },
                }),
            }),
            Some("info") => {
                if let Some(info) = Info::parse(&text) {
                    if let Some(found) = info.reported() {
                        search.last = Some(found);
                        search.last_wdl = info.wdl;
                    }
                    watch(&info);
                }
                Seen::More
            }
            _ => Seen::More,
        }
    }
}
