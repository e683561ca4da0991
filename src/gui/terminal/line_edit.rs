//! Editing the line typed at the prompt, when standard input and output are a terminal: the
//! terminal is put in raw mode while a line is typed (and restored after it), and the keys are
//! read one by one: ← → Home End move in the line, Backspace and Delete erase, Ctrl-U and
//! Ctrl-K cut before and after the cursor, ↑ ↓ recall the lines typed before, Enter ends the
//! line, Ctrl-D on an empty line ends the input and Ctrl-C leaves. Any other key sequence is
//! ignored, so that an arrow key is never taken as text.
//!
//! Written by hand on `libc`'s termios, a dependency already, rather than with a line-editing
//! crate: a prompt of one short line needs a few keys, and the lines of a pipe or a test
//! (standard input not a terminal) are read as they are, by the caller.

use std::io::{self, Write};
use std::time::Duration;

/// What reading a line gave.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Got {
    /// A line, without its end.
    Line(String),
    /// The end of input (Ctrl-D on an empty line, or the terminal closed).
    End,
    /// Ctrl-C.
    Interrupt,
}

/// A key, decoded from the bytes the terminal sends.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
enum Key {
    Char(char),
    Enter,
    Backspace,
    Delete,
    Left,
    Right,
    Home,
    End,
    Up,
    Down,
    CutBefore,
    CutAfter,
    /// Ctrl-D: the end of input on an empty line, Delete otherwise.
    EndOfInput,
    Interrupt,
    /// A key or sequence that does nothing here.
    Ignored,
}

/// Where the bytes of keys come from: the terminal, or a test's bytes.
trait Bytes {
    /// The next byte, waiting for it (`wait`) or only if it is already coming (the rest of an
    /// escape sequence); `None` at the end of input, or when none came.
    fn byte(&mut self, wait: bool) -> Option<u8>;
}

/// The next key; `None` at the end of input.
fn decode(bytes: &mut dyn Bytes) -> Option<Key> {
    let first = bytes.byte(true)?;
    Some(match first {
        b'\r' | b'\n' => Key::Enter,
        0x7f | 0x08 => Key::Backspace,
        0x01 => Key::Home,
        0x05 => Key::End,
        0x02 => Key::Left,
        0x06 => Key::Right,
        0x10 => Key::Up,
        0x0e => Key::Down,
        0x15 => Key::CutBefore,
        0x0b => Key::CutAfter,
        0x04 => Key::EndOfInput,
        0x03 => Key::Interrupt,
        0x1b => escape(bytes),
        b if b < 0x20 => Key::Ignored,
        b if b < 0x80 => Key::Char(char::from(b)),
        b => utf8(b, bytes),
    })
}

/// The key of an escape sequence, its `ESC` read: `ESC [ A` (or `ESC O A`) and the like.
fn escape(bytes: &mut dyn Bytes) -> Key {
    let Some(b'[' | b'O') = bytes.byte(false) else {
        return Key::Ignored;
    };
    let mut params = Vec::new();
    while let Some(b) = bytes.byte(false) {
        if (0x40..=0x7e).contains(&b) {
            return match (b, params.as_slice()) {
                (b'A', _) => Key::Up,
                (b'B', _) => Key::Down,
                (b'C', _) => Key::Right,
                (b'D', _) => Key::Left,
                (b'H', _) | (b'~', b"1" | b"7") => Key::Home,
                (b'F', _) | (b'~', b"4" | b"8") => Key::End,
                (b'~', b"3") => Key::Delete,
                _ => Key::Ignored,
            };
        }
        params.push(b);
    }
    Key::Ignored
}

/// The character whose UTF-8 encoding starts with `first`.
fn utf8(first: u8, bytes: &mut dyn Bytes) -> Key {
    let len = match first {
        0xc0..=0xdf => 2,
        0xe0..=0xef => 3,
        0xf0..=0xf7 => 4,
        _ => return Key::Ignored,
    };
    let mut encoded = vec![first];
    for _ in 1..len {
        match bytes.byte(false) {
            Some(b) => encoded.push(b),
            None => return Key::Ignored,
        }
    }
    std::str::from_utf8(&encoded)
        .ok()
        .and_then(|s| s.chars().next())
        .map_or(Key::Ignored, Key::Char)
}

/// The line being typed.
struct Edit<'a> {
    line: Vec<char>,
    cursor: usize,
    /// The lines typed before, oldest first, and which is shown (`history.len()`: the new one).
    history: &'a [String],
    shown: usize,
    /// The new line, kept while an earlier one is shown.
    draft: Vec<char>,
    /// The most characters the line may hold (so that it never wraps).
    limit: usize,
}

impl Edit<'_> {
    /// Applies `key`; what was read, when the key ends the line.
    fn apply(&mut self, key: Key) -> Option<Got> {
        match key {
            Key::Char(c) if self.line.len() < self.limit => {
                self.line.insert(self.cursor, c);
                self.cursor += 1;
            }
            Key::Enter => return Some(Got::Line(self.line.iter().collect())),
            Key::Interrupt => return Some(Got::Interrupt),
            Key::EndOfInput if self.line.is_empty() => return Some(Got::End),
            Key::Backspace if self.cursor > 0 => {
                self.cursor -= 1;
                self.line.remove(self.cursor);
            }
            Key::Delete | Key::EndOfInput if self.cursor < self.line.len() => {
                self.line.remove(self.cursor);
            }
            Key::Left => self.cursor = self.cursor.saturating_sub(1),
            Key::Right => self.cursor = (self.cursor + 1).min(self.line.len()),
            Key::Home => self.cursor = 0,
            Key::End => self.cursor = self.line.len(),
            Key::CutBefore => {
                self.line.drain(..self.cursor);
                self.cursor = 0;
            }
            Key::CutAfter => self.line.truncate(self.cursor),
            Key::Up if self.shown > 0 => self.recall(self.shown - 1),
            Key::Down if self.shown < self.history.len() => self.recall(self.shown + 1),
            _ => {}
        }
        None
    }

    /// Shows line `index` of the history (its length: the new line).
    fn recall(&mut self, index: usize) {
        if self.shown == self.history.len() {
            self.draft = std::mem::take(&mut self.line);
        }
        self.shown = index;
        self.line = match self.history.get(index) {
            Some(line) => line.chars().take(self.limit).collect(),
            None => std::mem::take(&mut self.draft),
        };
        self.cursor = self.line.len();
    }

    /// What redraws the prompt's line: back to its start, the prompt and the line, the rest
    /// of the terminal's line cleared, the cursor moved back to its place.
    fn show(&self, prompt: &str) -> String {
        let line: String = self.line.iter().collect();
        let back = self.line.len() - self.cursor;
        let left = if back > 0 {
            format!("\x1b[{back}D")
        } else {
            String::new()
        };
        format!("\r{prompt}{line}\x1b[K{left}")
    }
}

/// The line editor: the lines typed so far, to recall.
#[derive(Default)]
pub struct Editor {
    history: Vec<String>,
}

impl Editor {
    /// Reads a line from the terminal on standard input after writing `prompt` to `out`, with
    /// the terminal in raw mode meanwhile. Fails when standard input is not a terminal.
    pub fn read_line(&mut self, prompt: &str, out: &mut dyn Write) -> io::Result<Got> {
        let raw = tty::RawMode::enable()?;
        let got = self.edit(prompt, &mut tty::Input, out);
        drop(raw);
        got
    }

    /// Reads a line from `bytes`, writing the prompt and its redrawings to `out`; the line,
    /// unless empty, joins the history.
    fn edit(
        &mut self,
        prompt: &str,
        bytes: &mut dyn Bytes,
        out: &mut dyn Write,
    ) -> io::Result<Got> {
        let mut edit = Edit {
            line: Vec::new(),
            cursor: 0,
            history: &self.history,
            shown: self.history.len(),
            draft: Vec::new(),
            limit: super::COLUMNS.saturating_sub(prompt.chars().count() + 1),
        };
        write!(out, "{}", edit.show(prompt))?;
        out.flush()?;
        let got = loop {
            let Some(key) = decode(bytes) else {
                break Got::End;
            };
            if let Some(got) = edit.apply(key) {
                break got;
            }
            write!(out, "{}", edit.show(prompt))?;
            out.flush()?;
        };
        match &got {
            Got::Interrupt => writeln!(out, "^C")?,
            _ => writeln!(out)?,
        }
        out.flush()?;
        if let Got::Line(line) = &got
            && !line.trim().is_empty()
            && self.history.last() != Some(line)
        {
            self.history.push(line.clone());
        }
        Ok(got)
    }
}

/// The terminal on standard input: raw mode and its bytes.
#[cfg(unix)]
mod tty {
    use super::{Bytes, Duration};
    use std::io;

    /// Raw mode on standard input while it lives: no echo, no line buffering, no signals from
    /// keys (Ctrl-C is read as a key); output is still processed (`\n` starts a new line). The
    /// terminal's own settings come back when it is dropped.
    pub struct RawMode(libc::termios);

    impl RawMode {
        pub fn enable() -> io::Result<RawMode> {
            // SAFETY: `termios` is plain integers, for which all-zero bytes are a valid value;
            // `tcgetattr` fills it and `tcsetattr` only reads it, both on descriptor 0, which
            // they check to be a terminal.
            unsafe {
                let mut settings: libc::termios = std::mem::zeroed();
                if libc::tcgetattr(0, &mut settings) != 0 {
                    return Err(io::Error::last_os_error());
                }
                let saved = settings;
                settings.c_lflag &= !(libc::ICANON | libc::ECHO | libc::IEXTEN | libc::ISIG);
                settings.c_iflag &= !(libc::IXON | libc::ICRNL | libc::INLCR);
                settings.c_cc[libc::VMIN] = 1;
                settings.c_cc[libc::VTIME] = 0;
                if libc::tcsetattr(0, libc::TCSADRAIN, &settings) != 0 {
                    return Err(io::Error::last_os_error());
                }
                Ok(RawMode(saved))
            }
        }
    }

    impl Drop for RawMode {
        fn drop(&mut self) {
            // SAFETY: as in `enable`: the settings read from the same terminal.
            unsafe {
                libc::tcsetattr(0, libc::TCSADRAIN, &self.0);
            }
        }
    }

    /// The bytes of standard input, read one at a time past any buffer.
    pub struct Input;

    /// How long the rest of an escape sequence may take to come.
    const SEQUENCE: Duration = Duration::from_millis(50);

    impl Bytes for Input {
        fn byte(&mut self, wait: bool) -> Option<u8> {
            loop {
                if !wait {
                    let mut poll = libc::pollfd {
                        fd: 0,
                        events: libc::POLLIN,
                        revents: 0,
                    };
                    // SAFETY: one `pollfd` of ours, the count says one.
                    let ready = unsafe { libc::poll(&mut poll, 1, SEQUENCE.as_millis() as i32) };
                    if ready <= 0 {
                        return None;
                    }
                }
                let mut byte = 0u8;
                // SAFETY: reads at most one byte into `byte`, which has room for it.
                let n = unsafe { libc::read(0, (&mut byte as *mut u8).cast(), 1) };
                match n {
                    1 => return Some(byte),
                    -1 if io::Error::last_os_error().kind() == io::ErrorKind::Interrupted => {}
                    _ => return None,
                }
            }
        }
    }
}

/// No raw mode but on Unix: the caller reads plain lines.
#[cfg(not(unix))]
mod tty {
    use super::Bytes;
    use std::io;

    pub struct RawMode;

    impl RawMode {
        pub fn enable() -> io::Result<RawMode> {
            Err(io::Error::from(io::ErrorKind::Unsupported))
        }
    }

    pub struct Input;

    impl Bytes for Input {
        fn byte(&mut self, _wait: bool) -> Option<u8> {
            None
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// A test's keys.
    struct Script(std::collections::VecDeque<u8>);

    impl Bytes for Script {
        fn byte(&mut self, _wait: bool) -> Option<u8> {
            self.0.pop_front()
        }
    }

    fn typed(editor: &mut Editor, keys: &str) -> (Got, String) {
        let mut out = Vec::new();
        let mut script = Script(keys.bytes().collect());
        let got = editor.edit("> ", &mut script, &mut out).expect("written");
        (got, String::from_utf8(out).expect("UTF-8"))
    }

    #[test]
    fn arrows_move_and_recall_and_are_never_text() {
        let mut editor = Editor::default();
        assert_eq!(typed(&mut editor, "c3\r").0, Got::Line("c3".into()));
        // ← twice, then `b` before `c`; an unknown sequence (F1) is ignored.
        let (got, out) = typed(&mut editor, "c4\x1b[D\x1b[Db\x1bOP\r");
        assert_eq!(got, Got::Line("bc4".into()));
        assert!(out.ends_with("\r> bc4\x1b[K\x1b[2D\n"), "{out:?}");
        // ↑ recalls the last line, ↑ again the one before, ↓ comes back; Backspace erases.
        let (got, _) = typed(&mut editor, "x\x1b[A\x1b[A\x1b[B\x7f5\r");
        assert_eq!(got, Got::Line("bc5".into()));
        // ↑ then ↓ past the newest line gives back the draft.
        assert_eq!(
            typed(&mut editor, "d\x1b[A\x1b[B\r").0,
            Got::Line("d".into())
        );
        assert_eq!(editor.history, ["c3", "bc4", "bc5", "d"]);
    }

    #[test]
    fn home_end_delete_cuts_and_the_ends_of_input() {
        let mut editor = Editor::default();
        let keys = "b4-c4\x1b[H\x1b[3~X\x1b[F\x7fd\r";
        assert_eq!(typed(&mut editor, keys).0, Got::Line("X4-cd".into()));
        assert_eq!(typed(&mut editor, "abc\x02\x15\r").0, Got::Line("c".into()));
        assert_eq!(typed(&mut editor, "abc\x01\x0b\r").0, Got::Line("".into()));
        assert_eq!(typed(&mut editor, "\x04").0, Got::End);
        assert_eq!(typed(&mut editor, "ab").0, Got::End);
        let (got, out) = typed(&mut editor, "ab\x03");
        assert_eq!(got, Got::Interrupt);
        assert!(out.ends_with("^C\n"), "{out:?}");
        assert_eq!(typed(&mut editor, "é×\r").0, Got::Line("é×".into()));
    }

    #[test]
    fn the_line_never_wraps() {
        let mut editor = Editor::default();
        let long = "a".repeat(200) + "\r";
        let Got::Line(line) = typed(&mut editor, &long).0 else {
            panic!("a line");
        };
        assert_eq!(line.len(), super::super::COLUMNS - 3);
    }
}
