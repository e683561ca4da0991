//! The protocol client: one engine process driven by the referee, a front end or
//! `ludus analyse`. It is started with piped input and output, a reader thread turns its output
//! into timestamped lines, and the client talks UGI (or UCI) to it: the handshake, options,
//! `isready`, `position` and `go` with a deadline, `query`, `quit`. Whatever the engine does
//! (exits, hangs, prints nonsense or a 100 MiB line), every call comes back in bounded time with
//! an [`EngineFailure`] saying what went wrong.

use std::fmt;
use std::io::{ErrorKind, Write};
use std::path::{Path, PathBuf};
use std::process::{Child, ChildStdin, Command, Stdio};
use std::time::{Duration, Instant};

use crossbeam_channel::Receiver;

use crate::game::GameId;

mod go;
mod group;
mod info;
mod option;
mod output;
mod ponder;
mod query;
mod receive;
#[cfg(test)]
mod tests;

pub use info::Info;
pub use option::EngineOption;
pub use output::ReportedScore;
use output::{CHANNEL_CAPACITY, Line, read_lines};
pub use query::{QueryError, Snapshot};

/// How long `quit` waits for the engine to exit before killing it.
const QUIT_WAIT: Duration = Duration::from_secs(1);

/// How long dropping an engine waits for it to exit once its input is closed.
const DROP_WAIT: Duration = Duration::from_millis(100);

/// Which handshake words an engine expects.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Default)]
pub enum Proto {
    /// `ugi` / `ugiok` / `uginewgame`.
    #[default]
    Ugi,
    /// `uci` / `uciok` / `ucinewgame`.
    Uci,
}

impl Proto {
    fn hello(self) -> &'static str {
        match self {
            Proto::Ugi => "ugi",
            Proto::Uci => "uci",
        }
    }

    fn new_game(self) -> &'static str {
        match self {
            Proto::Ugi => "uginewgame",
            Proto::Uci => "ucinewgame",
        }
    }
}

/// How to start an engine.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct EngineCommand {
    /// The engine's name in logs, records and tables.
    pub name: String,
    /// The program to run (a relative path with a directory part is taken from `dir` when given).
    pub cmd: PathBuf,
    /// The working directory of the engine, if not the referee's.
    pub dir: Option<PathBuf>,
    /// Command-line arguments.
    pub args: Vec<String>,
    /// The handshake it speaks.
    pub proto: Proto,
}

/// Why an engine cannot go on; the game is lost with the matching termination.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum EngineFailure {
    /// The process could not start, exited, or closed its input or output.
    Crash(String),
    /// No expected answer (`ugiok`, `readyok`, `bestmove`) in time.
    Stall(String),
    /// An answer that cannot be read: `bestmove` without a move, a line over 1 MiB.
    BadOutput(String),
}

impl EngineFailure {
    /// The kind of failure as one word: `crash`, `stall` or `bad-output` (the labels of the
    /// record's terminations for a game lost so).
    pub fn kind(&self) -> &'static str {
        match self {
            EngineFailure::Crash(_) => "crash",
            EngineFailure::Stall(_) => "stall",
            EngineFailure::BadOutput(_) => "bad-output",
        }
    }

    /// What happened, e.g. `exited while thinking (status 3)`.
    pub fn detail(&self) -> &str {
        match self {
            EngineFailure::Crash(d) | EngineFailure::Stall(d) | EngineFailure::BadOutput(d) => d,
        }
    }
}

impl fmt::Display for EngineFailure {
    /// `crash: exited while thinking (status 3)`.
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "{}: {}", self.kind(), self.detail())
    }
}

/// An engine's answer to `go`.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Answer {
    /// The move token of the `bestmove` line.
    pub mv: String,
    /// Milliseconds from writing `go` to receiving `bestmove`.
    pub elapsed_ms: u64,
    /// The score of the last `info` line with a score (first line of MultiPV only).
    pub score: Option<ReportedScore>,
    /// The depth of that same `info` line.
    pub depth: Option<u32>,
    /// The chances of that same `info` line (`wdl W D L`, per mille, from the side to move;
    /// option `UCI_ShowWDL`), if it gave them.
    pub wdl: Option<[u32; 3]>,
    /// The reply the engine expects (`bestmove <mv> ponder <reply>`), if it named one.
    pub ponder: Option<String>,
}

/// A running engine. Dropping it closes its input, waits briefly for it to exit, then ends
/// its process group and reaps it.
pub struct EngineProcess {
    name: String,
    proto: Proto,
    child: Child,
    stdin: Option<ChildStdin>,
    lines: Receiver<(Instant, Line)>,
    closed: bool,
    /// When the process was first seen to have exited.
    exited_at: Option<Instant>,
    /// The options advertised in the handshake.
    options: Vec<EngineOption>,
    /// The `id name` of the handshake.
    id_name: Option<String>,
}

impl EngineProcess {
    /// Starts the engine a front end plays or analyses with, `cmd` or else this program
    /// itself, speaking UGI, with `UCI_Variant` set to `game` (when offered) and the rule
    /// `options`; errors are for people.
    pub fn start_for_game(
        cmd: Option<&Path>,
        game: GameId,
        options: &[(String, String)],
        timeout: Duration,
    ) -> Result<EngineProcess, String> {
        let cmd = match cmd {
            Some(path) => path.to_path_buf(),
            None => {
                std::env::current_exe().map_err(|e| format!("cannot find ludus itself: {e}"))?
            }
        };
        let command = EngineCommand {
            name: "engine".into(),
            cmd,
            dir: None,
            args: Vec::new(),
            proto: Proto::Ugi,
        };
        let mut engine = EngineProcess::start(&command, timeout).map_err(|e| e.to_string())?;
        if engine.advertises("UCI_Variant") {
            engine
                .set_option("UCI_Variant", game.name())
                .map_err(|e| e.to_string())?;
        }
        for (name, value) in options {
            engine.set_option(name, value).map_err(|e| e.to_string())?;
        }
        Ok(engine)
    }

    /// Spawns the engine in a process group of its own (stdin and stdout piped, stderr
    /// discarded, in `dir` if given) and does
    /// the handshake: sends `ugi` (or `uci`), records the `id name` and the `option` lines, and waits
    /// up to `timeout` for `ugiok` or `uciok`. A spawn error or an early exit is a crash, no
    /// answer in time a stall.
    pub fn start(
        command: &EngineCommand,
        timeout: Duration,
    ) -> Result<EngineProcess, EngineFailure> {
        let mut cmd = Command::new(&command.cmd);
        cmd.args(&command.args)
            .stdin(Stdio::piped())
            .stdout(Stdio::piped())
            .stderr(Stdio::null());
        group::in_own_group(&mut cmd);
        if let Some(dir) = &command.dir {
            cmd.current_dir(dir);
        }
        let mut child = cmd.spawn().map_err(|e| {
            EngineFailure::Crash(format!(
                "could not start '{}': {}",
                command.cmd.display(),
                os_error(&e)
            ))
        })?;
        let stdin = child.stdin.take();
        let stdout = child.stdout.take();
        let (tx, rx) = crossbeam_channel::bounded(CHANNEL_CAPACITY);
        if let Some(stdout) = stdout {
            let spawned = std::thread::Builder::new()
                .name(format!("{}-reader", command.name))
                .spawn(move || read_lines(stdout, &tx));
            if spawned.is_err() {
                log::error!("{}: cannot start the output reader thread", command.name);
            }
        }
        let mut engine = EngineProcess {
            name: command.name.clone(),
            proto: command.proto,
            child,
            stdin,
            lines: rx,
            closed: false,
            exited_at: None,
            options: Vec::new(),
            id_name: None,
        };
        engine.handshake(timeout)?;
        Ok(engine)
    }

    fn handshake(&mut self, timeout: Duration) -> Result<(), EngineFailure> {
        let until = Instant::now() + timeout;
        if self.send(self.proto.hello()).is_err() {
            return Err(EngineFailure::Crash(
                self.exit_detail("during the handshake"),
            ));
        }
        loop {
            match self.recv_until(until) {
                None => {
                    let ok = format!("{}ok", self.proto.hello());
                    return Err(EngineFailure::Stall(format!(
                        "no {ok} within {}",
                        secs(timeout)
                    )));
                }
                Some((_, Line::Eof)) => {
                    return Err(EngineFailure::Crash(
                        self.exit_detail("during the handshake"),
                    ));
                }
                Some((_, Line::TooLong)) => {}
                Some((_, Line::Text(text))) => match first_word(&text) {
                    "ugiok" | "uciok" => return Ok(()),
                    "option" => {
                        if let Some(option) = EngineOption::parse(&text) {
                            self.options.push(option);
                        }
                    }
                    "id" => {
                        if let Some(name) = text.trim().strip_prefix("id name ") {
                            self.id_name = Some(name.trim().to_string());
                        }
                    }
                    _ => {}
                },
            }
        }
    }

    /// Does the handshake once more (after `UCI_Variant` changed, an engine may advertise
    /// other ranges: ludus gives each game's own `UCI_Elo` range): the options are those of
    /// the new answer. No `ugiok` within `timeout` is a stall.
    pub fn handshake_again(&mut self, timeout: Duration) -> Result<(), EngineFailure> {
        self.options.clear();
        self.handshake(timeout)
    }

    /// The options the engine advertised in its handshake, in order.
    pub fn options(&self) -> &[EngineOption] {
        &self.options
    }

    /// The `id name` the engine gave in its handshake, if any.
    pub fn id_name(&self) -> Option<&str> {
        self.id_name.as_deref()
    }

    /// The option `name` as the engine advertised it (ASCII case-insensitive).
    pub fn option(&self, name: &str) -> Option<&EngineOption> {
        self.options
            .iter()
            .find(|o| o.name.eq_ignore_ascii_case(name))
    }

    /// Whether the engine advertised option `name` (ASCII case-insensitive).
    pub fn advertises(&self, name: &str) -> bool {
        self.option(name).is_some()
    }

    /// Sends `setoption name N value V` (`setoption name N` when the value is empty, for
    /// buttons). A closed input is a crash.
    pub fn set_option(&mut self, name: &str, value: &str) -> Result<(), EngineFailure> {
        if value.is_empty() {
            self.send(&format!("setoption name {name}"))
        } else {
            self.send(&format!("setoption name {name} value {value}"))
        }
    }

    /// Sends `uginewgame` (or `ucinewgame`), then waits for readiness as [`EngineProcess::ready`].
    pub fn new_game(&mut self, timeout: Duration) -> Result<(), EngineFailure> {
        self.send(self.proto.new_game())?;
        self.ready(timeout)
    }

    /// Sends `isready` and waits up to `timeout` for `readyok`, ignoring other lines (and
    /// discarding lines queued before). No `readyok` is a stall, an exit a crash.
    pub fn ready(&mut self, timeout: Duration) -> Result<(), EngineFailure> {
        self.drain();
        let until = Instant::now() + timeout;
        self.send("isready")?;
        loop {
            match self.recv_until(until) {
                None => {
                    return Err(EngineFailure::Stall(format!(
                        "no readyok within {}",
                        secs(timeout)
                    )));
                }
                Some((_, Line::Eof)) => {
                    return Err(EngineFailure::Crash(self.exit_detail("before readyok")));
                }
                Some((_, Line::Text(text))) if first_word(&text) == "readyok" => return Ok(()),
                Some(_) => {}
            }
        }
    }

    /// Sends `query <what>` and `isready`; returns the first word after `response` if a
    /// `response` line arrives before `readyok`, within `timeout`. `None` otherwise: an engine
    /// without queries, a timeout or an exit are not failures here.
    pub fn query(&mut self, what: &str, timeout: Duration) -> Option<String> {
        self.query_text(what, timeout)
            .and_then(|text| text.split_whitespace().next().map(str::to_string))
    }

    /// [`EngineProcess::query`], returning everything after `response ` (for `query fen` or
    /// `query legalmoves`, whose answers have several words).
    pub fn query_text(&mut self, what: &str, timeout: Duration) -> Option<String> {
        self.drain();
        let until = Instant::now() + timeout;
        self.send(&format!("query {what}")).ok()?;
        self.send("isready").ok()?;
        let mut response = None;
        loop {
            match self.recv_until(until) {
                None | Some((_, Line::Eof)) => return response,
                Some((_, Line::Text(text))) => {
                    let mut words = text.splitn(2, char::is_whitespace);
                    match words.next() {
                        Some("readyok") => return response,
                        Some("response") if response.is_none() => {
                            response = words.next().map(|rest| rest.trim().to_string());
                        }
                        _ => {}
                    }
                }
                Some((_, Line::TooLong)) => {}
            }
        }
    }

    /// Sends `quit`, closes the engine's input, waits up to 1 s for it to exit, then ends its
    /// process group (as dropping it does).
    pub fn quit(mut self) {
        let _ = self.send("quit");
        self.stdin = None;
        if !self.wait_exit(QUIT_WAIT) {
            log::debug!("{}: did not exit after quit, killing it", self.name);
        }
        // Drop ends its process group and reaps it.
    }

    /// Writes one line and flushes it, e.g. a `position` line before a [`EngineProcess::query`].
    /// A closed input is a crash.
    pub fn send(&mut self, line: &str) -> Result<(), EngineFailure> {
        log::debug!("{} < {line}", self.name);
        let mut bytes = Vec::with_capacity(line.len() + 1);
        bytes.extend_from_slice(line.as_bytes());
        bytes.push(b'\n');
        let written = match self.stdin.as_mut() {
            Some(stdin) => stdin.write_all(&bytes).and_then(|()| stdin.flush()),
            None => Err(ErrorKind::BrokenPipe.into()),
        };
        written.map_err(|e| {
            log::debug!("{}: write failed: {e}", self.name);
            self.stdin = None;
            EngineFailure::Crash("closed its input".into())
        })
    }
}

impl Drop for EngineProcess {
    /// Closes the engine's input (end of input means `quit`), gives it a moment to exit on its
    /// own (so a wrapper script can take its own children down), then ends its process group
    /// (SIGTERM, then SIGKILL: whatever the engine started goes too) and reaps it.
    fn drop(&mut self) {
        self.stdin = None;
        self.wait_exit(DROP_WAIT);
        group::end_group(&mut self.child);
    }
}

/// The first word of a line (empty if none).
fn first_word(text: &str) -> &str {
    text.split_whitespace().next().unwrap_or("")
}

/// An I/O error's message without the ` (os error N)` suffix.
fn os_error(e: &std::io::Error) -> String {
    let text = e.to_string();
    match text.find(" (os error ") {
        Some(at) => text[..at].to_string(),
        None => text,
    }
}

fn secs(d: Duration) -> String {
    format!("{:.1} s", d.as_secs_f64())
}

fn millis(d: Duration) -> u64 {
    u64::try_from(d.as_millis()).unwrap_or(u64::MAX)
}
