//! What the person types: lines read on a thread of their own from a stream (a pipe, a file, a
//! test's text; also a terminal while two engines play, so that `quit` can be typed between
//! moves), or lines edited key by key on the terminal ([`Editor`]).

use std::io::{self, BufRead, Write};

use crossbeam_channel::Receiver;

use super::line_edit::{Editor, Got};

/// Where `ludus play` reads what is typed.
pub enum Input {
    /// Lines of a stream (a pipe, a file, a test's text), as they come: no editing.
    Lines(Box<dyn BufRead + Send>),
    /// The terminal on standard input (and output), read key by key: the line at the prompt
    /// can be edited and earlier lines recalled ([`super::line_edit`]). While two engines play
    /// its lines are read as they come.
    Terminal,
}

/// The reader of what is typed.
pub(super) enum Typed {
    /// Lines read on a thread.
    Lines(Receiver<String>),
    /// Lines edited on the terminal.
    Keys(Editor),
}

impl Typed {
    /// The reader of `input`; `watching`: nobody is asked for a move.
    pub fn new(input: Input, watching: bool) -> Typed {
        match input {
            Input::Terminal if !watching => Typed::Keys(Editor::default()),
            Input::Terminal => Typed::spawn(Box::new(io::BufReader::new(io::stdin()))),
            Input::Lines(lines) => Typed::spawn(lines),
        }
    }

    fn spawn(mut input: Box<dyn BufRead + Send>) -> Typed {
        let (tx, rx) = crossbeam_channel::unbounded();
        // If the thread cannot start, the sender is gone and input reads as ended.
        let _ = std::thread::Builder::new()
            .name("play-input".into())
            .spawn(move || {
                loop {
                    let mut line = String::new();
                    match input.read_line(&mut line) {
                        Ok(0) | Err(_) => break,
                        Ok(_) if tx.send(line).is_err() => break,
                        Ok(_) => {}
                    }
                }
            });
        Typed::Lines(rx)
    }

    /// The next line after `prompt`, waiting for it, without its end; `None` at the end of
    /// input or on Ctrl-C, the cursor then at the start of a new line.
    pub fn next(&mut self, prompt: &str, out: &mut dyn Write) -> io::Result<Option<String>> {
        if let Typed::Keys(editor) = self {
            match editor.read_line(prompt, out) {
                Ok(Got::Line(line)) => return Ok(Some(line)),
                Ok(Got::End | Got::Interrupt) => return Ok(None),
                // Not a terminal after all: its lines as they come.
                Err(_) => *self = Typed::spawn(Box::new(io::BufReader::new(io::stdin()))),
            }
        }
        write!(out, "{prompt}")?;
        out.flush()?;
        let Typed::Lines(lines) = self else {
            return Ok(None);
        };
        match lines.recv() {
            Ok(line) => Ok(Some(line.trim_end_matches(['\n', '\r']).to_string())),
            Err(_) => {
                writeln!(out)?;
                Ok(None)
            }
        }
    }

    /// Whether `quit` or `exit` was typed since the last look, without waiting; other lines
    /// are dropped (nobody is asked for a move).
    pub fn quit_typed(&self) -> bool {
        match self {
            Typed::Lines(lines) => lines
                .try_iter()
                .any(|line| matches!(line.trim(), "quit" | "exit")),
            Typed::Keys(_) => false,
        }
    }
}

/// Whether a typed line holds control characters: the escape sequences of arrow keys and the
/// like, typed where lines are read as they come (a pipe), which do not edit the line.
pub fn has_control_keys(line: &str) -> bool {
    line.chars().any(char::is_control)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn lines_from_a_stream_with_their_arrow_keys_seen() {
        let text = "c3\n\x1b[A\r\n";
        let mut typed = Typed::new(Input::Lines(Box::new(io::Cursor::new(text))), false);
        let mut out = Vec::new();
        assert_eq!(
            typed.next("> ", &mut out).ok().flatten().as_deref(),
            Some("c3")
        );
        let arrow = typed.next("> ", &mut out).ok().flatten();
        assert_eq!(arrow.as_deref(), Some("\x1b[A"));
        assert!(has_control_keys("\x1b[A") && !has_control_keys("c3 b4-c4 ×"));
        assert_eq!(typed.next("> ", &mut out).ok().flatten(), None);
        assert_eq!(String::from_utf8_lossy(&out), "> > > \n");
    }
}
