//! One engine process driven by the referee: it is started with piped input and output, a
//! reader thread turns its output into timestamped lines, and the referee talks UGI (or UCI) to
//! it: the handshake, options, `isready`, `position` and `go` with a deadline, `query`, `quit`.
//! Whatever the engine does (exits, hangs, prints nonsense or a 100 MiB line), every call comes
//! back in bounded time with an [`EngineFailure`] naming the game's [`Termination`].

use std::fmt;
use std::io::{BufRead, BufReader, ErrorKind, Read, Write};
use std::path::PathBuf;
use std::process::{Child, ChildStdin, Command, Stdio};
use std::time::{Duration, Instant};

use crossbeam_channel::{Receiver, RecvTimeoutError, Sender, TryRecvError};

use crate::referee::game_record::{ReportedScore, Termination};

/// Longest line the referee reads from an engine; longer ones are bad output.
const MAX_LINE: usize = 1 << 20;

/// Lines the reader thread may queue before it waits for the referee.
const CHANNEL_CAPACITY: usize = 256;

/// How long to wait for an exit status once an engine has closed its output.
const EXIT_WAIT: Duration = Duration::from_millis(200);

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
    /// The termination of a game lost by this failure.
    pub fn termination(&self) -> Termination {
        match self {
            EngineFailure::Crash(_) => Termination::Crash,
            EngineFailure::Stall(_) => Termination::Stall,
            EngineFailure::BadOutput(_) => Termination::BadOutput,
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
        write!(f, "{}: {}", self.termination().label(), self.detail())
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
}

/// One line of engine output, as the reader thread sends it.
#[derive(Debug, PartialEq, Eq)]
enum Line {
    Text(String),
    TooLong,
    Eof,
}

/// A running engine. Dropping it closes its input, waits briefly, then kills and reaps it.
pub struct EngineProcess {
    name: String,
    proto: Proto,
    child: Child,
    stdin: Option<ChildStdin>,
    lines: Receiver<(Instant, Line)>,
    closed: bool,
    options: Vec<String>,
}

impl EngineProcess {
    /// Spawns the engine (stdin and stdout piped, stderr discarded, in `dir` if given) and does
    /// the handshake: sends `ugi` (or `uci`), records the names of the `option` lines, and waits
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
            options: Vec::new(),
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
                        if let Some(name) = option_name(&text) {
                            self.options.push(name);
                        }
                    }
                    _ => {}
                },
            }
        }
    }

    /// Whether the engine advertised option `name` (ASCII case-insensitive).
    pub fn advertises(&self, name: &str) -> bool {
        self.options.iter().any(|o| o.eq_ignore_ascii_case(name))
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

    /// Sends the `position` line (complete, e.g. `position startpos moves c3 b2`) and
    /// `go <go_args>`, and waits for `bestmove`. Lines queued before are discarded first, so a
    /// late `bestmove` of an earlier search is not taken for this one. With a `deadline`, `stop`
    /// is sent when it passes and the engine gets `grace` more; without one, `grace` in all.
    /// The answer carries the time from writing `go` to receiving `bestmove`, and the score and
    /// depth of the last `info` line with a score (MultiPV lines after the first are ignored).
    pub fn go(
        &mut self,
        position: &str,
        go_args: &str,
        deadline: Option<Duration>,
        grace: Duration,
    ) -> Result<Answer, EngineFailure> {
        self.drain();
        self.send(position)?;
        let go = if go_args.is_empty() {
            "go".to_string()
        } else {
            format!("go {go_args}")
        };
        self.send(&go)?;
        let start = Instant::now();
        let mut stop_sent = deadline.is_none();
        let mut until = start + deadline.unwrap_or(grace);
        let mut last: Option<(ReportedScore, Option<u32>)> = None;
        loop {
            let (at, line) = match self.recv_until(until) {
                Some(received) => received,
                None if !stop_sent => {
                    self.send("stop")?;
                    stop_sent = true;
                    until = Instant::now() + grace;
                    continue;
                }
                None => {
                    let waited = match deadline {
                        Some(d) => format!("{} and {} after stop", secs(d), secs(grace)),
                        None => secs(grace),
                    };
                    return Err(EngineFailure::Stall(format!("no bestmove within {waited}")));
                }
            };
            let text = match line {
                Line::Text(text) => text,
                Line::TooLong => {
                    return Err(EngineFailure::BadOutput(format!(
                        "a line longer than {} MiB",
                        MAX_LINE >> 20
                    )));
                }
                Line::Eof => return Err(EngineFailure::Crash(self.exit_detail("while thinking"))),
            };
            let mut words = text.split_whitespace();
            match words.next() {
                Some("bestmove") => {
                    return match words.next() {
                        None => Err(EngineFailure::BadOutput("bestmove without a move".into())),
                        Some(mv @ ("(none)" | "0000")) => {
                            Err(EngineFailure::BadOutput(format!("bestmove {mv}")))
                        }
                        Some(mv) => Ok(Answer {
                            mv: mv.to_string(),
                            elapsed_ms: millis(at.saturating_duration_since(start)),
                            score: last.map(|(s, _)| s),
                            depth: last.and_then(|(_, d)| d),
                        }),
                    };
                }
                Some("info") => {
                    if let Some(found) = parse_info(&text) {
                        last = Some(found);
                    }
                }
                _ => {}
            }
        }
    }

    /// Sends `query <what>` and `isready`; returns the first word after `response` if a
    /// `response` line arrives before `readyok`, within `timeout`. `None` otherwise: an engine
    /// without queries, a timeout or an exit are not failures here.
    pub fn query(&mut self, what: &str, timeout: Duration) -> Option<String> {
        self.drain();
        let until = Instant::now() + timeout;
        self.send(&format!("query {what}")).ok()?;
        self.send("isready").ok()?;
        let mut response = None;
        loop {
            match self.recv_until(until) {
                None | Some((_, Line::Eof)) => return response,
                Some((_, Line::Text(text))) => {
                    let mut words = text.split_whitespace();
                    match words.next() {
                        Some("readyok") => return response,
                        Some("response") if response.is_none() => {
                            response = words.next().map(str::to_string);
                        }
                        _ => {}
                    }
                }
                Some((_, Line::TooLong)) => {}
            }
        }
    }

    /// Sends `quit`, closes the engine's input, waits up to 1 s for it to exit, then kills it.
    pub fn quit(mut self) {
        let _ = self.send("quit");
        self.stdin = None;
        if !self.wait_exit(QUIT_WAIT) {
            log::debug!("{}: did not exit after quit, killing it", self.name);
        }
        // Drop kills and reaps it if it still runs.
    }

    /// Whether the process has exited (and been reaped) within `limit`.
    fn wait_exit(&mut self, limit: Duration) -> bool {
        let until = Instant::now() + limit;
        loop {
            match self.child.try_wait() {
                Ok(Some(_)) => return true,
                Ok(None) if Instant::now() < until => std::thread::sleep(Duration::from_millis(2)),
                _ => return false,
            }
        }
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

    /// The next line, or `None` once `until` has passed. After the end of output every call
    /// returns [`Line::Eof`] at once.
    fn recv_until(&mut self, until: Instant) -> Option<(Instant, Line)> {
        if self.closed {
            return Some((Instant::now(), Line::Eof));
        }
        match self.lines.recv_deadline(until) {
            Ok(received) => Some(self.note(received)),
            Err(RecvTimeoutError::Timeout) => None,
            Err(RecvTimeoutError::Disconnected) => Some(self.note((Instant::now(), Line::Eof))),
        }
    }

    /// Logs a received line and remembers the end of output.
    fn note(&mut self, received: (Instant, Line)) -> (Instant, Line) {
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
    fn drain(&mut self) {
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
    fn exit_detail(&mut self, when: &str) -> String {
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

impl Drop for EngineProcess {
    /// Closes the engine's input (end of input means `quit`), gives it a moment to exit on its
    /// own (so a wrapper script can take its own children down), then kills and reaps it.
    fn drop(&mut self) {
        self.stdin = None;
        if !self.wait_exit(DROP_WAIT) {
            let _ = self.child.kill();
            let _ = self.child.wait();
        }
    }
}

/// Reads the engine's output line by line and sends each with the instant it was complete;
/// `\r` before the newline is dropped, bytes that are not UTF-8 are replaced, lines over
/// [`MAX_LINE`] bytes are never buffered whole and arrive as [`Line::TooLong`]. Ends with
/// [`Line::Eof`] at the end of output or a read error, or silently once the receiver is gone.
fn read_lines(output: impl Read, tx: &Sender<(Instant, Line)>) {
    let mut reader = BufReader::new(output);
    let mut line: Vec<u8> = Vec::new();
    let mut length = 0usize;
    let emit = |line: &mut Vec<u8>, length: &mut usize| {
        let event = if *length > MAX_LINE {
            Line::TooLong
        } else {
            if line.last() == Some(&b'\r') {
                line.pop();
            }
            Line::Text(String::from_utf8_lossy(line).into_owned())
        };
        line.clear();
        *length = 0;
        tx.send((Instant::now(), event)).is_ok()
    };
    loop {
        let buffer = match reader.fill_buf() {
            Ok(b) => b,
            Err(e) if e.kind() == ErrorKind::Interrupted => continue,
            Err(_) => break,
        };
        if buffer.is_empty() {
            if length > 0 && !emit(&mut line, &mut length) {
                return;
            }
            break;
        }
        let newline = buffer.iter().position(|&b| b == b'\n');
        let chunk = &buffer[..newline.unwrap_or(buffer.len())];
        length = length.saturating_add(chunk.len());
        if length <= MAX_LINE {
            line.extend_from_slice(chunk);
        } else {
            line = Vec::new();
        }
        let used = chunk.len() + usize::from(newline.is_some());
        reader.consume(used);
        if newline.is_some() && !emit(&mut line, &mut length) {
            return;
        }
    }
    let _ = tx.send((Instant::now(), Line::Eof));
}

/// The score and depth of an `info` line, if it has a score and is not a MultiPV line after
/// the first. Words after `string` are text, not fields.
fn parse_info(text: &str) -> Option<(ReportedScore, Option<u32>)> {
    let mut words = text.split_whitespace().skip(1);
    let mut depth = None;
    let mut score = None;
    while let Some(word) = words.next() {
        match word {
            "string" => break,
            "depth" => depth = words.next().and_then(|d| d.parse().ok()),
            // The guard takes the number either way; K <= 1 falls through to the last arm.
            "multipv"
                if words
                    .next()
                    .and_then(|k| k.parse::<u32>().ok())
                    .is_some_and(|k| k > 1) =>
            {
                return None;
            }
            "score" => {
                score = match (words.next(), words.next().and_then(|n| n.parse().ok())) {
                    (Some("cp"), Some(n)) => Some(ReportedScore::Cp(n)),
                    (Some("mate"), Some(n)) => Some(ReportedScore::Mate(n)),
                    _ => score,
                }
            }
            _ => {}
        }
    }
    score.map(|s| (s, depth))
}

/// The name of an `option name <NAME> type …` line: every word between `name` and `type`.
fn option_name(text: &str) -> Option<String> {
    let mut words = text.split_whitespace();
    if words.next() != Some("option") || words.next() != Some("name") {
        return None;
    }
    let name: Vec<&str> = words.take_while(|&w| w != "type").collect();
    (!name.is_empty()).then(|| name.join(" "))
}

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

#[cfg(test)]
mod tests {
    use super::*;

    fn ms(n: u64) -> Duration {
        Duration::from_millis(n)
    }

    /// A `bash -c` engine: the handshake, `isready`, `quit`, plus the script's own `case` arms.
    fn engine(arms: &str) -> EngineCommand {
        let script = format!(
            "while read -r line; do case \"$line\" in \
             ugi|uci) echo 'id name fake'; \
             echo 'option name Move Overhead type spin default 10 min 0 max 5000'; \
             echo 'option name Hash type spin default 16 min 1 max 64'; echo ugiok;; \
             isready) echo readyok;; quit) exit 0;; {arms} esac; done"
        );
        EngineCommand {
            name: "fake".into(),
            cmd: "bash".into(),
            dir: None,
            args: vec!["-c".into(), script],
            proto: Proto::Ugi,
        }
    }

    fn started(arms: &str) -> EngineProcess {
        match EngineProcess::start(&engine(arms), ms(2000)) {
            Ok(e) => e,
            Err(e) => panic!("start failed: {e}"),
        }
    }

    fn go(e: &mut EngineProcess) -> Result<Answer, EngineFailure> {
        e.go("position startpos", "movetime 100", Some(ms(200)), ms(200))
    }

    #[test]
    fn answers_go_with_score_and_depth() {
        let mut e = started("go*) echo 'info depth 3 score cp 12'; echo 'bestmove c3';;");
        assert!(e.advertises("move overhead"));
        assert!(e.advertises("Hash"));
        assert!(!e.advertises("Move"));
        assert_eq!(e.new_game(ms(1000)), Ok(()));
        let answer = go(&mut e).unwrap();
        assert_eq!(
            (answer.mv.as_str(), answer.score, answer.depth),
            ("c3", Some(ReportedScore::Cp(12)), Some(3))
        );
        assert!(answer.elapsed_ms < 200, "{answer:?}");
        e.quit();
    }

    #[test]
    fn keeps_the_last_scored_line_of_the_first_pv() {
        let mut e = started(
            "go*) echo 'info depth 1 score cp 5'; \
             echo 'info depth 2 multipv 1 score mate 3 lowerbound pv c3 b2'; \
             echo 'info depth 2 multipv 2 score cp -40 pv b2'; echo 'info depth 4 nodes 10'; \
             echo 'info string score cp 999'; echo 'bestmove c3 ponder b2';;",
        );
        let answer = go(&mut e).unwrap();
        assert_eq!(answer.mv, "c3");
        assert_eq!(
            (answer.score, answer.depth),
            (Some(ReportedScore::Mate(3)), Some(2))
        );
    }

    #[test]
    fn exit_on_go_is_a_crash() {
        let mut e = started("go*) exit 3;;");
        let failure = go(&mut e).unwrap_err();
        assert_eq!(
            failure,
            EngineFailure::Crash("exited while thinking (status 3)".into())
        );
        assert_eq!(failure.termination(), Termination::Crash);
        assert_eq!(
            e.ready(ms(100)).unwrap_err().termination(),
            Termination::Crash
        );
    }

    #[test]
    fn silence_is_a_stall() {
        let mut e = started("");
        let start = Instant::now();
        let failure = go(&mut e).unwrap_err();
        assert_eq!(
            failure,
            EngineFailure::Stall("no bestmove within 0.2 s and 0.2 s after stop".into())
        );
        assert!(start.elapsed() >= ms(400));
        let failure = e
            .go("position startpos", "infinite", None, ms(100))
            .unwrap_err();
        assert_eq!(failure.detail(), "no bestmove within 0.1 s");
    }

    #[test]
    fn bestmove_without_a_move_is_bad_output() {
        let mut e = started("'go depth 1') echo 'bestmove (none)';; go*) echo bestmove;;");
        assert_eq!(
            go(&mut e),
            Err(EngineFailure::BadOutput("bestmove without a move".into()))
        );
        let failure = e
            .go("position startpos", "depth 1", None, ms(500))
            .unwrap_err();
        assert_eq!(failure, EngineFailure::BadOutput("bestmove (none)".into()));
        assert_eq!(failure.to_string(), "bad-output: bestmove (none)");
    }

    #[test]
    fn an_over_long_line_is_bad_output() {
        let mut e =
            started("go*) head -c 3000000 /dev/zero | tr '\\0' x; echo; echo 'bestmove c3';;");
        let failure = e
            .go("position startpos", "depth 1", None, ms(2000))
            .unwrap_err();
        assert_eq!(
            failure,
            EngineFailure::BadOutput("a line longer than 1 MiB".into())
        );
    }

    #[test]
    fn an_answer_after_stop_counts_its_time() {
        let mut e = started("stop) echo 'bestmove b2';;");
        let answer = go(&mut e).unwrap();
        assert_eq!(
            (answer.mv.as_str(), answer.score, answer.depth),
            ("b2", None, None)
        );
        assert!((200..1000).contains(&answer.elapsed_ms), "{answer:?}");
    }

    #[test]
    fn a_late_bestmove_is_not_taken_for_the_next_search() {
        let mut e = started(
            "'go depth 1') echo 'bestmove a1'; echo 'bestmove a1';; go*) echo 'bestmove b2';;",
        );
        assert_eq!(
            e.go("position startpos", "depth 1", None, ms(500))
                .unwrap()
                .mv,
            "a1"
        );
        std::thread::sleep(ms(100));
        assert_eq!(
            e.go("position startpos", "depth 2", None, ms(500))
                .unwrap()
                .mv,
            "b2"
        );
    }

    #[test]
    fn query_reads_the_response() {
        let mut e = started("'query result') echo 'response p1win';;");
        assert_eq!(e.query("result", ms(500)), Some("p1win".into()));
        assert_eq!(e.query("gameover", ms(500)), None);
        e.quit();
    }

    #[test]
    fn uci_handshake_and_new_game() {
        let mut command = engine("ucinewgame) echo 'info string fresh';;");
        command.proto = Proto::Uci;
        let mut e = EngineProcess::start(&command, ms(1000)).unwrap();
        assert_eq!(e.new_game(ms(1000)), Ok(()));
        assert_eq!(e.set_option("Hash", "32"), Ok(()));
    }

    #[test]
    fn a_missing_program_is_a_crash() {
        let mut command = engine("");
        command.cmd = "./no-such-engine".into();
        let failure = EngineProcess::start(&command, ms(500)).err().unwrap();
        assert_eq!(
            failure,
            EngineFailure::Crash(
                "could not start './no-such-engine': No such file or directory".into()
            )
        );
    }

    #[test]
    fn handshake_failures() {
        let mut command = engine("");
        command.args[1] = "exit 3".into();
        let failure = EngineProcess::start(&command, ms(1000)).err().unwrap();
        assert_eq!(
            failure,
            EngineFailure::Crash("exited during the handshake (status 3)".into())
        );
        command.args[1] = "while read -r line; do :; done".into();
        let failure = EngineProcess::start(&command, ms(200)).err().unwrap();
        assert_eq!(
            failure,
            EngineFailure::Stall("no ugiok within 0.2 s".into())
        );
    }

    #[test]
    fn quit_kills_an_engine_that_stays() {
        let mut command = engine("");
        command.args[1] = "echo ugiok; trap '' TERM; while :; do sleep 0.05; done".into();
        let e = EngineProcess::start(&command, ms(1000)).unwrap();
        let start = Instant::now();
        e.quit();
        assert!(start.elapsed() < ms(1500));
    }

    #[test]
    fn reader_caps_lines_and_strips_cr() {
        let mut input = vec![b'x'; 3 * MAX_LINE];
        input.extend_from_slice(b"\nok\r\n\xffend");
        let (tx, rx) = crossbeam_channel::bounded(CHANNEL_CAPACITY);
        read_lines(std::io::Cursor::new(input), &tx);
        drop(tx);
        let lines: Vec<Line> = rx.iter().map(|(_, l)| l).collect();
        assert_eq!(
            lines,
            [
                Line::TooLong,
                Line::Text("ok".into()),
                Line::Text("\u{fffd}end".into()),
                Line::Eof
            ]
        );
    }

    #[test]
    fn option_names_may_have_spaces() {
        assert_eq!(
            option_name("option name Clear Hash type button"),
            Some("Clear Hash".into())
        );
        assert_eq!(option_name("option name  type button"), None);
        assert_eq!(option_name("id name x"), None);
    }
}
