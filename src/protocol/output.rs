//! The only writer of standard output: one flushed line at a time, optionally copied to the
//! `Debug Log File`, and the formatting of every reply that carries data.

use std::fs::{File, OpenOptions};
use std::io::Write;
use std::os::unix::fs::OpenOptionsExt;

use super::command::ProtocolError;
use crate::game::wdl::PerMille;
use crate::search::SearchInfo;
use crate::search::progress::Progress;

/// How output lines are routed.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Mode {
    /// Protocol loop: every line goes to the output.
    Protocol,
    /// One-shot command: errors go to stderr; search `info` lines only when asked for, and
    /// then only the last one of the first line (`multipv 1`, the one `bestmove` plays),
    /// printed just before `bestmove`.
    OneShot {
        /// Print the last `info` line before `bestmove`.
        show_info: bool,
    },
}

/// Where replies go.
pub struct Output {
    sink: Box<dyn Write + Send>,
    log: Option<File>,
    mode: Mode,
    last_info: Option<String>,
    /// Set once a write failed (the client went away): the loop then quits.
    pub closed: bool,
}

impl Output {
    /// Output to `sink` in the given mode.
    pub fn new(sink: Box<dyn Write + Send>, mode: Mode) -> Self {
        Output {
            sink,
            log: None,
            mode,
            last_info: None,
            closed: false,
        }
    }

    /// Writes one line and flushes it.
    pub fn line(&mut self, text: &str) {
        self.log_line("<<", text);
        if let Mode::OneShot { show_info } = self.mode {
            // The script's own `isready` (see `oneshot::go`): not a result.
            if text == "readyok" {
                return;
            }
            if text.starts_with("info string error") {
                eprintln!("{text}");
                return;
            }
            // Which evaluation the search uses: a protocol session's news, no result.
            if text.starts_with("info string eval ") {
                return;
            }
            if text.starts_with("info ") && !text.starts_with("info string") {
                // The line that matches `bestmove`: with MultiPV, the first line's.
                let other_line = text.contains(" multipv ") && !text.contains(" multipv 1 ");
                // Progress lines (`currmove`, totals) carry no score: not a result.
                if show_info && !other_line && text.contains(" score ") {
                    self.last_info = Some(text.to_string());
                }
                return;
            }
            if text.starts_with("bestmove")
                && let Some(info) = self.last_info.take()
            {
                self.write_raw(&info);
            }
        }
        self.write_raw(text);
    }

    fn write_raw(&mut self, text: &str) {
        let ok = writeln!(self.sink, "{text}").and_then(|_| self.sink.flush());
        if ok.is_err() {
            self.closed = true;
        }
    }

    /// Writes several lines (a text block such as the board).
    pub fn lines(&mut self, text: &str) {
        for l in text.lines() {
            self.line(l);
        }
    }

    /// Reports an error as `info string error <code> <detail>`.
    pub fn error(&mut self, e: &ProtocolError) {
        self.line(&format!("info string error {e}"));
    }

    /// Copies an input line to the debug log.
    pub fn log_input(&mut self, text: &str) {
        self.log_line(">>", text);
    }

    fn log_line(&mut self, prefix: &str, text: &str) {
        if let Some(log) = &mut self.log
            && writeln!(log, "{prefix} {text}").is_err()
        {
            self.log = None;
        }
    }

    /// Starts (path) or ends (empty path) copying all I/O to a file, appending to it. Only a
    /// regular file (new or existing) is accepted: a FIFO, a device or a directory is
    /// refused, and opening never blocks (it is done with `O_NONBLOCK`, then checked).
    pub fn set_log_file(&mut self, path: &str) -> Result<(), String> {
        if path.is_empty() {
            self.log = None;
            return Ok(());
        }
        let not_regular = || format!("cannot use '{path}' for the debug log: not a regular file");
        if std::fs::metadata(path).is_ok_and(|m| !m.is_file()) {
            return Err(not_regular());
        }
        let file = OpenOptions::new()
            .create(true)
            .append(true)
            .custom_flags(libc::O_NONBLOCK | libc::O_NOCTTY)
            .open(path)
            .map_err(|e| format!("cannot open '{path}' for the debug log: {e}"))?;
        // The path may have changed between the check and the opening.
        if !file.metadata().is_ok_and(|m| m.is_file()) {
            return Err(not_regular());
        }
        self.log = Some(file);
        Ok(())
    }
}

/// The `info …` line of one iteration; with `wdl` (option `UCI_ShowWDL`), the chances
/// `wdl W D L` right after the score, as Stockfish writes them.
pub fn format_info(info: &SearchInfo<String>, wdl: Option<PerMille>) -> String {
    let mut line = format!("info depth {} seldepth {}", info.depth, info.seldepth);
    if let Some(k) = info.multipv {
        line.push_str(&format!(" multipv {k}"));
    }
    line.push_str(&format!(" score {}", info.score));
    if let Some(w) = wdl {
        line.push_str(&format!(" wdl {} {} {}", w.win, w.draw, w.loss));
    }
    line.push_str(&format!(
        " nodes {} nps {} time {} hashfull {}",
        info.nodes, info.nps, info.time_ms, info.hashfull
    ));
    if !info.pv.is_empty() {
        line.push_str(" pv ");
        line.push_str(&info.pv.join(" "));
    }
    line
}

/// The `info …` line of a progress report: `info depth D currmove M currmovenumber N`, or
/// `info depth D seldepth S nodes N nps N time T hashfull H` (no score, no `pv`).
pub fn format_progress(progress: &Progress<String>) -> String {
    match progress {
        Progress::CurrMove { depth, mv, number } => {
            format!("info depth {depth} currmove {mv} currmovenumber {number}")
        }
        Progress::Totals(t) => format!(
            "info depth {} seldepth {} nodes {} nps {} time {} hashfull {}",
            t.depth, t.seldepth, t.nodes, t.nps, t.time_ms, t.hashfull
        ),
    }
}

/// The `bestmove …` line of two words, `bestmove <move>` or `bestmove (none)`: what strict
/// match runners read, and all ludus prints while the option `Ponder` is off.
pub fn format_bestmove(best: Option<&str>) -> String {
    format!("bestmove {}", best.unwrap_or("(none)"))
}

/// The `bestmove` line naming the expected reply too: `bestmove <move> ponder <reply>` when
/// there is a move and a reply, else as [`format_bestmove`].
pub fn format_bestmove_ponder(best: Option<&str>, ponder: Option<&str>) -> String {
    match (best, ponder) {
        (Some(best), Some(reply)) => format!("bestmove {best} ponder {reply}"),
        _ => format_bestmove(best),
    }
}
