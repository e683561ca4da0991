//! A small driver for the `ludus` binary as a child process, shared by the protocol tests.
//!
//! Output is read on a thread of its own and handed over through a channel, so every read has a
//! timeout: an engine that hangs makes the test fail with a message instead of hanging it.
//! The child's stdout is drained continuously by that thread, so writing a lot of input can
//! never deadlock on a full output pipe. Standard error is drained too and kept (up to a cap)
//! for failure messages.
//!
//! Each test binary (one per folder of `tests/`) compiles this module once, within `common`,
//! and uses only part of it, so unused items are expected in some binaries.
#![allow(dead_code)]

pub mod garbage;

use std::io::{BufRead, BufReader, Read, Write};
use std::process::{Child, ChildStdin, Command, ExitStatus, Stdio};
use std::sync::mpsc::{self, Receiver, RecvTimeoutError};
use std::sync::{Arc, Mutex};
use std::thread::JoinHandle;
use std::time::{Duration, Instant};

/// How long a read waits for a line unless told otherwise.
pub const DEFAULT_TIMEOUT: Duration = Duration::from_secs(10);

/// How many bytes of the child's stderr are kept for failure messages.
const STDERR_CAP: usize = 64 * 1024;

/// How many of the last lines read are quoted in failure messages.
const CONTEXT_LINES: usize = 20;

/// The path of the `ludus` binary built by Cargo for the integration tests.
pub fn binary() -> &'static str {
    env!("CARGO_BIN_EXE_ludus")
}

/// Why a read did not produce a line.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum ReadError {
    /// No line arrived in time.
    Timeout,
    /// The child closed its stdout (usually: it exited).
    Closed,
}

/// A running `ludus` process with piped stdin, stdout and stderr.
pub struct Engine {
    /// The child process.
    child: Child,
    /// Its stdin; `None` once closed or handed to another thread.
    stdin: Option<ChildStdin>,
    /// Lines of its stdout, without the final `\n`, from the reader thread.
    lines: Receiver<String>,
    /// Its stderr so far (capped at [`STDERR_CAP`] bytes).
    stderr: Arc<Mutex<Vec<u8>>>,
    /// The stderr drain thread, joined once the child has exited.
    stderr_thread: Option<JoinHandle<()>>,
    /// The last lines read from stdout, for failure messages.
    recent: Vec<String>,
    /// Set once the child has been waited for.
    exited: bool,
    /// Whether `info string eval …` lines are read (a search's first line says which
    /// evaluation it uses, protocol.md "Search"): only for the tests of that line and the
    /// transcripts; the other tests read the searches as they were.
    eval_lines: bool,
}

/// The start of the line a search begins with to say which evaluation it uses.
pub const EVAL_LINE: &str = "info string eval ";

impl Engine {
    /// Starts `ludus` with no arguments: the protocol loop.
    pub fn spawn() -> Engine {
        Engine::spawn_with_args(&[])
    }

    /// Starts `ludus` with the given command-line arguments.
    pub fn spawn_with_args(args: &[&str]) -> Engine {
        let mut child = Command::new(binary())
            .args(args)
            .stdin(Stdio::piped())
            .stdout(Stdio::piped())
            .stderr(Stdio::piped())
            .spawn()
            .unwrap_or_else(|e| panic!("cannot start {}: {e}", binary()));
        let stdout = child.stdout.take().expect("stdout is piped");
        let stderr_pipe = child.stderr.take().expect("stderr is piped");
        let stdin = child.stdin.take();

        let (tx, rx) = mpsc::channel();
        std::thread::Builder::new()
            .name("ludus-stdout".into())
            .spawn(move || {
                let mut reader = BufReader::new(stdout);
                let mut buffer = Vec::new();
                loop {
                    buffer.clear();
                    match reader.read_until(b'\n', &mut buffer) {
                        Ok(0) | Err(_) => break,
                        Ok(_) => {
                            if buffer.last() == Some(&b'\n') {
                                buffer.pop();
                            }
                            let line = String::from_utf8_lossy(&buffer).into_owned();
                            if tx.send(line).is_err() {
                                break;
                            }
                        }
                    }
                }
            })
            .expect("cannot start the stdout reader thread");

        let stderr = Arc::new(Mutex::new(Vec::new()));
        let sink = Arc::clone(&stderr);
        let stderr_thread = std::thread::Builder::new()
            .name("ludus-stderr".into())
            .spawn(move || {
                let mut pipe = stderr_pipe;
                let mut chunk = [0u8; 4096];
                while let Ok(n) = pipe.read(&mut chunk) {
                    if n == 0 {
                        break;
                    }
                    let mut kept = sink.lock().unwrap_or_else(|e| e.into_inner());
                    let room = STDERR_CAP.saturating_sub(kept.len());
                    kept.extend_from_slice(&chunk[..n.min(room)]);
                }
            })
            .expect("cannot start the stderr reader thread");

        Engine {
            child,
            stdin,
            lines: rx,
            stderr,
            stderr_thread: Some(stderr_thread),
            recent: Vec::new(),
            exited: false,
            eval_lines: false,
        }
    }

    /// The same engine, its `info string eval …` lines read as any other line.
    pub fn showing_evaluation(mut self) -> Engine {
        self.eval_lines = true;
        self
    }

    /// The child's process id.
    pub fn id(&self) -> u32 {
        self.child.id()
    }

    /// Sends one line (a `\n` is appended); panics if stdin is closed or the write fails.
    pub fn send(&mut self, line: &str) {
        let mut bytes = line.as_bytes().to_vec();
        bytes.push(b'\n');
        self.send_bytes(&bytes);
    }

    /// Writes raw bytes to the child's stdin and flushes; panics if that fails.
    pub fn send_bytes(&mut self, bytes: &[u8]) {
        let context = self.context();
        let stdin = self
            .stdin
            .as_mut()
            .unwrap_or_else(|| panic!("stdin of ludus is already closed{context}"));
        if let Err(e) = stdin.write_all(bytes).and_then(|_| stdin.flush()) {
            panic!("cannot write to ludus: {e}{context}");
        }
    }

    /// Hands the child's stdin over (e.g. to a writer thread); panics if it is already gone.
    pub fn take_stdin(&mut self) -> ChildStdin {
        self.stdin.take().expect("stdin of ludus is already taken")
    }

    /// Gives back a stdin taken with [`Engine::take_stdin`].
    pub fn restore_stdin(&mut self, stdin: ChildStdin) {
        self.stdin = Some(stdin);
    }

    /// Closes the child's stdin: end of input, which the protocol treats as `quit`.
    pub fn close_stdin(&mut self) {
        drop(self.stdin.take());
    }

    /// Reads one line, waiting at most `timeout`.
    pub fn try_read_line(&mut self, timeout: Duration) -> Result<String, ReadError> {
        let deadline = Instant::now() + timeout;
        match self.next_line(deadline) {
            Ok(line) => {
                if self.recent.len() == CONTEXT_LINES {
                    self.recent.remove(0);
                }
                self.recent.push(line.clone());
                Ok(line)
            }
            Err(RecvTimeoutError::Timeout) => Err(ReadError::Timeout),
            Err(RecvTimeoutError::Disconnected) => Err(ReadError::Closed),
        }
    }

    /// The next line before `deadline`, `info string eval …` skipped unless
    /// [`Engine::showing_evaluation`].
    fn next_line(&mut self, deadline: Instant) -> Result<String, RecvTimeoutError> {
        loop {
            let left = deadline.saturating_duration_since(Instant::now());
            let line = self.lines.recv_timeout(left)?;
            if self.eval_lines || !line.starts_with(EVAL_LINE) {
                return Ok(line);
            }
        }
    }

    /// Reads one line within `timeout`; panics (naming `what` was awaited) on timeout or end
    /// of output.
    pub fn read_line_within(&mut self, timeout: Duration, what: &str) -> String {
        match self.try_read_line(timeout) {
            Ok(line) => line,
            Err(e) => {
                let context = self.context();
                panic!("waiting {timeout:?} for {what}: {e:?}{context}")
            }
        }
    }

    /// Reads one line within [`DEFAULT_TIMEOUT`]; panics on timeout or end of output.
    pub fn read_line(&mut self) -> String {
        self.read_line_within(DEFAULT_TIMEOUT, "a line")
    }

    /// Reads one line and panics unless it is exactly `expected`.
    pub fn expect_line(&mut self, expected: &str) {
        let line = self.read_line_within(DEFAULT_TIMEOUT, &format!("'{expected}'"));
        if line != expected {
            let context = self.context();
            panic!("expected '{expected}', got '{line}'{context}");
        }
    }

    /// Reads lines until one satisfies `done`, all within `timeout` in total; returns every
    /// line read, the matching one last. Panics on timeout or end of output.
    pub fn read_until_within(
        &mut self,
        timeout: Duration,
        what: &str,
        mut done: impl FnMut(&str) -> bool,
    ) -> Vec<String> {
        let deadline = Instant::now() + timeout;
        let mut lines = Vec::new();
        loop {
            let left = deadline.saturating_duration_since(Instant::now());
            match self.try_read_line(left) {
                Ok(line) => {
                    let last = done(&line);
                    lines.push(line);
                    if last {
                        return lines;
                    }
                }
                Err(e) => {
                    let context = self.context();
                    panic!(
                        "waiting {timeout:?} for {what}: {e:?} after {} lines{context}",
                        lines.len()
                    )
                }
            }
        }
    }

    /// Reads lines until one satisfies `done`, within [`DEFAULT_TIMEOUT`] in total; returns
    /// every line read, the matching one last.
    pub fn read_until(&mut self, done: impl FnMut(&str) -> bool) -> Vec<String> {
        self.read_until_within(DEFAULT_TIMEOUT, "a matching line", done)
    }

    /// Reads every line until the child closes its stdout, within `timeout`; panics on
    /// timeout.
    pub fn read_to_end_within(&mut self, timeout: Duration) -> Vec<String> {
        let deadline = Instant::now() + timeout;
        let mut lines = Vec::new();
        loop {
            let left = deadline.saturating_duration_since(Instant::now());
            match self.try_read_line(left) {
                Ok(line) => lines.push(line),
                Err(ReadError::Closed) => return lines,
                Err(ReadError::Timeout) => {
                    let context = self.context();
                    panic!("ludus did not close its output within {timeout:?}{context}")
                }
            }
        }
    }

    /// Sends `isready` and requires the very next line to be `readyok`: proves that nothing
    /// else was printed in between.
    pub fn assert_ready(&mut self) {
        self.send("isready");
        self.expect_line("readyok");
    }

    /// Sends `isready` and returns every line up to and including `readyok`.
    pub fn sync(&mut self) -> Vec<String> {
        self.send("isready");
        self.read_until_within(DEFAULT_TIMEOUT, "readyok", |l| l == "readyok")
    }

    /// Waits for the child to exit, at most `timeout`; kills it and panics if it does not.
    pub fn wait_exit(&mut self, timeout: Duration) -> ExitStatus {
        let deadline = Instant::now() + timeout;
        loop {
            match self.child.try_wait() {
                Ok(Some(status)) => {
                    self.exited = true;
                    if let Some(t) = self.stderr_thread.take() {
                        let _ = t.join();
                    }
                    return status;
                }
                Ok(None) if Instant::now() < deadline => {
                    std::thread::sleep(Duration::from_millis(5));
                }
                Ok(None) => {
                    self.kill();
                    let context = self.context();
                    panic!("ludus did not exit within {timeout:?}; killed it{context}")
                }
                Err(e) => panic!("cannot wait for ludus: {e}"),
            }
        }
    }

    /// Sends `quit` and requires exit status 0 within `timeout`.
    pub fn quit(&mut self, timeout: Duration) {
        self.send("quit");
        let status = self.wait_exit(timeout);
        assert_eq!(
            status.code(),
            Some(0),
            "exit status after quit{}",
            self.context()
        );
    }

    /// Kills the child (if it still runs) and reaps it.
    pub fn kill(&mut self) {
        if !self.exited {
            let _ = self.child.kill();
            let _ = self.child.wait();
            self.exited = true;
        }
    }

    /// What the child wrote to stderr so far (lossy UTF-8, capped).
    pub fn stderr(&self) -> String {
        let kept = self.stderr.lock().unwrap_or_else(|e| e.into_inner());
        String::from_utf8_lossy(&kept).into_owned()
    }

    /// The last lines read and the stderr so far, formatted for a failure message.
    pub fn context(&self) -> String {
        let mut text = String::from("\n--- last stdout lines ---\n");
        for line in &self.recent {
            text.push_str(line);
            text.push('\n');
        }
        let stderr = self.stderr();
        if !stderr.is_empty() {
            text.push_str("--- stderr ---\n");
            text.push_str(&stderr);
        }
        text
    }
}

impl Drop for Engine {
    /// Never leaves a child behind, also when a test panics.
    fn drop(&mut self) {
        self.kill();
    }
}

/// Replaces the value after each `nps` and `time` field by `*`: what is left of a search's
/// output is reproducible.
pub fn mask_timing(line: &str) -> String {
    let mut out: Vec<&str> = Vec::new();
    let mut mask_next = false;
    let is_search_info = line.starts_with("info ") && !line.starts_with("info string");
    for token in line.split(' ') {
        if mask_next {
            out.push("*");
            mask_next = false;
        } else {
            mask_next = matches!(token, "nps" | "time") && is_search_info;
            out.push(token);
        }
    }
    out.join(" ")
}

/// The move of a `bestmove <m>` line, or `None` if the line is not one. Panics on a line
/// that starts with `bestmove` but is not exactly two words: strict runners read no other
/// shape (protocol.md).
pub fn bestmove_of(line: &str) -> Option<&str> {
    let mut tokens = line.split(' ');
    if tokens.next() != Some("bestmove") {
        return None;
    }
    match (tokens.next(), tokens.next()) {
        (Some(mv), None) if !mv.is_empty() => Some(mv),
        _ => panic!("a bestmove line must be exactly `bestmove <move>`: {line:?}"),
    }
}

/// The number after the word `name` in an `info` line (e.g. `depth`, `nodes`, `hashfull`).
pub fn info_field(line: &str, name: &str) -> Option<u64> {
    let words: Vec<&str> = line.split(' ').collect();
    let at = words.iter().position(|w| *w == name)?;
    words.get(at + 1)?.parse().ok()
}

/// Whether a line is a `bestmove` line.
pub fn is_bestmove(line: &str) -> bool {
    bestmove_of(line).is_some()
}

/// What a finished one-shot run of `ludus` produced.
#[derive(Debug)]
pub struct Finished {
    /// Its exit status.
    pub status: ExitStatus,
    /// Everything it wrote to stdout, byte for byte (lossy UTF-8).
    pub stdout: String,
    /// Everything it wrote to stderr (lossy UTF-8).
    pub stderr: String,
}

impl Finished {
    /// The exit code, `None` if the process was ended by a signal.
    pub fn code(&self) -> Option<i32> {
        self.status.code()
    }

    /// The lines of stdout.
    pub fn lines(&self) -> Vec<&str> {
        self.stdout.lines().collect()
    }
}

/// Runs `ludus` with `args` and an empty stdin to the end, at most `timeout`; kills it and
/// panics if it runs longer.
pub fn run(args: &[&str], timeout: Duration) -> Finished {
    let mut child = Command::new(binary())
        .args(args)
        .stdin(Stdio::null())
        .stdout(Stdio::piped())
        .stderr(Stdio::piped())
        .spawn()
        .unwrap_or_else(|e| panic!("cannot start {}: {e}", binary()));
    let drain = |pipe: Option<Box<dyn Read + Send>>| {
        std::thread::spawn(move || {
            let mut bytes = Vec::new();
            if let Some(mut pipe) = pipe {
                let _ = pipe.read_to_end(&mut bytes);
            }
            String::from_utf8_lossy(&bytes).into_owned()
        })
    };
    let stdout = drain(
        child
            .stdout
            .take()
            .map(|p| Box::new(p) as Box<dyn Read + Send>),
    );
    let stderr = drain(
        child
            .stderr
            .take()
            .map(|p| Box::new(p) as Box<dyn Read + Send>),
    );
    let deadline = Instant::now() + timeout;
    let status = loop {
        match child.try_wait() {
            Ok(Some(status)) => break status,
            Ok(None) if Instant::now() < deadline => std::thread::sleep(Duration::from_millis(5)),
            Ok(None) => {
                let _ = child.kill();
                let _ = child.wait();
                panic!("ludus {args:?} did not finish within {timeout:?}; killed it");
            }
            Err(e) => panic!("cannot wait for ludus {args:?}: {e}"),
        }
    };
    Finished {
        status,
        stdout: stdout.join().expect("the stdout reader panicked"),
        stderr: stderr.join().expect("the stderr reader panicked"),
    }
}
