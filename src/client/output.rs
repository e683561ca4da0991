//! Reading an engine's output: the reader thread that turns bytes into timestamped lines
//! (capped in length), and the score an engine reports.

use std::fmt;
use std::io::Read;
use std::time::Instant;

use crossbeam_channel::Sender;

use crate::lines::{BoundedLine, read_bounded_lines};

/// Longest line the referee reads from an engine; longer ones are bad output.
pub(super) const MAX_LINE: usize = 1 << 20;

/// Lines the reader thread may queue before it waits for the referee.
pub(super) const CHANNEL_CAPACITY: usize = 256;

/// One line of engine output, as the reader thread sends it.
#[derive(Debug, PartialEq, Eq)]
pub(super) enum Line {
    Text(String),
    TooLong,
    Eof,
}

/// Sends every line of `output` with the instant it was read; [`Line::Eof`] at the end.
pub(super) fn read_lines(output: impl Read, tx: &Sender<(Instant, Line)>) {
    let ended = read_bounded_lines(output, MAX_LINE, |line| {
        let line = match line {
            BoundedLine::Text(text) => Line::Text(text),
            BoundedLine::TooLong(_) => Line::TooLong,
        };
        tx.send((Instant::now(), line)).is_ok()
    });
    if ended {
        let _ = tx.send((Instant::now(), Line::Eof));
    }
}

/// A score as an engine reported it, from the mover's view.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum ReportedScore {
    /// `score cp N`.
    Cp(i32),
    /// `score mate N` (N moves; negative when the mover is mated).
    Mate(i32),
}

impl ReportedScore {
    /// The score in the units resign and draw adjudication compare: centipawns, with mate
    /// scores beyond every centipawn score.
    pub fn adjudication_value(self) -> i64 {
        match self {
            ReportedScore::Cp(cp) => cp as i64,
            ReportedScore::Mate(n) if n > 0 => 1_000_000 - n as i64,
            ReportedScore::Mate(n) => -1_000_000 - n as i64,
        }
    }
}

impl fmt::Display for ReportedScore {
    /// `+35`, `-120`, `+M3`, `-M2`.
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match *self {
            ReportedScore::Cp(cp) => write!(f, "{cp:+}"),
            ReportedScore::Mate(n) if n >= 0 => write!(f, "+M{n}"),
            ReportedScore::Mate(n) => write!(f, "-M{}", -n),
        }
    }
}
