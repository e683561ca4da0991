//! How a long run stops short: [`RunError`], the one error of `ludus match`, `datagen`,
//! `solve` (and `solve check`), `train` and `analyse` — refused before any work, or failed
//! while working — with its exit status ([`crate::exit_status`]) and its line on standard
//! error ([`report`]); and the writes of a run's progress and results to its output, a failure
//! of which is the run's ([`write_text`], [`write_line`]).

use std::fmt;
use std::io::Write;

use crate::exit_status;

/// Why a long run stopped short: what it says on standard error, and its exit status.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum RunError {
    /// The command line, a file or a setting was refused before any work; exit status
    /// [`exit_status::USAGE`].
    Refused(String),
    /// The work started and could not go on (memory, a file or the output that cannot be
    /// written, an engine or a computation that failed); exit status [`exit_status::FAILURE`].
    Failed(String),
}

impl RunError {
    /// The run was refused before any work, for `message`.
    pub fn refused(message: impl Into<String>) -> RunError {
        RunError::Refused(message.into())
    }

    /// The run failed while working, for `message`.
    pub fn failed(message: impl Into<String>) -> RunError {
        RunError::Failed(message.into())
    }

    /// The process exit status this error gives: [`exit_status::USAGE`] for a refusal,
    /// [`exit_status::FAILURE`] for a failure.
    pub fn status(&self) -> i32 {
        match self {
            RunError::Refused(_) => exit_status::USAGE,
            RunError::Failed(_) => exit_status::FAILURE,
        }
    }

    /// What went wrong, in words (without the `error: ` that [`report`] puts before it).
    pub fn message(&self) -> &str {
        match self {
            RunError::Refused(message) | RunError::Failed(message) => message,
        }
    }
}

impl fmt::Display for RunError {
    /// The message alone, as [`RunError::message`].
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(self.message())
    }
}

impl std::error::Error for RunError {}

/// The exit status of a run that ended with `outcome`; an error is first said on standard
/// error as `error: MESSAGE`.
pub fn report(outcome: Result<(), RunError>) -> i32 {
    report_as("error", outcome)
}

/// As [`report`], with the error said as `LABEL: MESSAGE` (`ludus match` says its errors as
/// `ludus match: MESSAGE`).
pub fn report_as(label: &str, outcome: Result<(), RunError>) -> i32 {
    report_to(label, outcome, &mut std::io::stderr())
}

/// [`report_as`] with the error said to `err`; a failure to say it changes nothing.
fn report_to(label: &str, outcome: Result<(), RunError>, err: &mut dyn Write) -> i32 {
    match outcome {
        Ok(()) => exit_status::SUCCESS,
        Err(e) => {
            let _ = writeln!(err, "{label}: {}", e.message());
            e.status()
        }
    }
}

/// Writes `text` as it is to a run's output `out` and flushes it, so that it is seen at once
/// (a progress line of a run that lasts days); output that cannot be written fails the run
/// with `WHAT: the error` (`what` says what could not be written: `cannot write`, `cannot
/// print the table`).
pub fn write_text(out: &mut dyn Write, text: &str, what: &str) -> Result<(), RunError> {
    out.write_all(text.as_bytes())
        .and_then(|()| out.flush())
        .map_err(|e| RunError::Failed(format!("{what}: {e}")))
}

/// Writes `line` and a newline to a run's output `out` and flushes it; output that cannot be
/// written fails the run with `cannot write: the error`.
pub fn write_line(out: &mut dyn Write, line: &str) -> Result<(), RunError> {
    write_text(out, &format!("{line}\n"), "cannot write")
}

#[cfg(test)]
mod tests {
    use super::*;

    /// An output that takes nothing (a closed pipe, a full disk).
    struct Broken;

    impl Write for Broken {
        fn write(&mut self, _: &[u8]) -> std::io::Result<usize> {
            Err(std::io::Error::other("the pipe is closed"))
        }
        fn flush(&mut self) -> std::io::Result<()> {
            Ok(())
        }
    }

    /// An output that takes everything and cannot be flushed.
    struct Unflushable(Vec<u8>);

    impl Write for Unflushable {
        fn write(&mut self, bytes: &[u8]) -> std::io::Result<usize> {
            self.0.extend_from_slice(bytes);
            Ok(bytes.len())
        }
        fn flush(&mut self) -> std::io::Result<()> {
            Err(std::io::Error::other("no space left"))
        }
    }

    #[test]
    fn a_refusal_exits_with_usage_and_a_failure_with_failure() {
        assert_eq!(RunError::refused("bad --size").status(), 2);
        assert_eq!(RunError::failed("out of memory").status(), 1);
        assert_eq!(exit_status::USAGE, 2);
        assert_eq!(exit_status::FAILURE, 1);
        assert_eq!(
            RunError::refused("bad --size"),
            RunError::Refused("bad --size".to_string())
        );
        assert_eq!(
            RunError::failed(String::from("x")),
            RunError::Failed("x".into())
        );
    }

    #[test]
    fn the_message_is_the_words_alone() {
        let e = RunError::refused("--fen: a bad position");
        assert_eq!(e.message(), "--fen: a bad position");
        assert_eq!(e.to_string(), "--fen: a bad position");
        assert_eq!(
            RunError::failed("cannot write: x").message(),
            "cannot write: x"
        );
    }

    #[test]
    fn an_error_is_said_as_label_colon_message_and_gives_its_status() {
        let mut err = Vec::new();
        let status = report_to("error", Err(RunError::refused("no --out")), &mut err);
        assert_eq!(status, exit_status::USAGE);
        assert_eq!(String::from_utf8(err).unwrap(), "error: no --out\n");
        let mut err = Vec::new();
        let failed = Err(RunError::failed("cannot print the table: gone"));
        assert_eq!(report_to("ludus match", failed, &mut err), 1);
        assert_eq!(
            String::from_utf8(err).unwrap(),
            "ludus match: cannot print the table: gone\n"
        );
    }

    #[test]
    fn a_run_that_ended_well_says_nothing_and_exits_with_success() {
        let mut err = Vec::new();
        assert_eq!(report_to("error", Ok(()), &mut err), exit_status::SUCCESS);
        assert!(err.is_empty());
        // Nothing said where saying fails either.
        assert_eq!(report_to("error", Ok(()), &mut Broken), 0);
        assert_eq!(
            report_to("error", Err(RunError::failed("x")), &mut Broken),
            1
        );
    }

    #[test]
    fn a_line_is_written_whole_and_an_output_that_fails_fails_the_run() {
        let mut out = Vec::new();
        write_line(&mut out, "[1/2] done").unwrap();
        write_text(&mut out, "a table\n  with rows\n", "cannot print the table").unwrap();
        assert_eq!(
            String::from_utf8(out).unwrap(),
            "[1/2] done\na table\n  with rows\n"
        );
        assert_eq!(
            write_line(&mut Broken, "lost"),
            Err(RunError::Failed("cannot write: the pipe is closed".into()))
        );
        assert_eq!(
            write_text(&mut Broken, "lost", "cannot write the output"),
            Err(RunError::Failed(
                "cannot write the output: the pipe is closed".into()
            ))
        );
        let mut full = Unflushable(Vec::new());
        assert_eq!(
            write_line(&mut full, "kept, not flushed"),
            Err(RunError::Failed("cannot write: no space left".into()))
        );
        assert_eq!(full.0, b"kept, not flushed\n");
    }
}
