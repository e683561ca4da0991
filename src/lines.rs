//! Reading text lines of bounded length from a byte stream: the engine's input (the protocol
//! loop) and, in the referee, an engine's output. A line that grows past the bound is never
//! buffered whole: its bytes are dropped and only its length is reported.

use std::io::{BufRead, BufReader, ErrorKind, Read};

/// One line read by [`read_bounded_lines`].
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum BoundedLine {
    /// A line without its `\n` (and a `\r` before it); bytes that are not UTF-8 replaced.
    Text(String),
    /// A line longer than the bound, with its length in bytes (saturating).
    TooLong(usize),
}

/// Reads `input` to its end and hands every line to `emit`; a last line without `\n` counts.
/// Stops early, returning `false`, when `emit` returns `false`; returns `true` at the end of
/// the input (or at a read error, which ends it too).
pub fn read_bounded_lines(
    input: impl Read,
    max: usize,
    mut emit: impl FnMut(BoundedLine) -> bool,
) -> bool {
    let mut reader = BufReader::new(input);
    let mut line: Vec<u8> = Vec::new();
    let mut length = 0usize;
    let mut finish = |line: &mut Vec<u8>, length: &mut usize| {
        let item = if *length > max {
            BoundedLine::TooLong(*length)
        } else {
            if line.last() == Some(&b'\r') {
                line.pop();
            }
            BoundedLine::Text(String::from_utf8_lossy(line).into_owned())
        };
        *line = Vec::new();
        *length = 0;
        emit(item)
    };
    loop {
        let buffer = match reader.fill_buf() {
            Ok(b) => b,
            Err(e) if e.kind() == ErrorKind::Interrupted => continue,
            Err(_) => break,
        };
        if buffer.is_empty() {
            if length > 0 {
                return finish(&mut line, &mut length);
            }
            break;
        }
        let newline = buffer.iter().position(|&b| b == b'\n');
        let chunk = &buffer[..newline.unwrap_or(buffer.len())];
        length = length.saturating_add(chunk.len());
        if length <= max {
            line.extend_from_slice(chunk);
        } else {
            line.clear();
        }
        let used = chunk.len() + usize::from(newline.is_some());
        reader.consume(used);
        if newline.is_some() && !finish(&mut line, &mut length) {
            return false;
        }
    }
    true
}

#[cfg(test)]
mod tests {
    use super::*;

    fn lines(input: &[u8], max: usize) -> Vec<BoundedLine> {
        let mut out = Vec::new();
        assert!(read_bounded_lines(input, max, |l| {
            out.push(l);
            true
        }));
        out
    }

    #[test]
    fn splits_strips_cr_caps_and_keeps_a_last_partial_line() {
        use BoundedLine::{Text, TooLong};
        assert_eq!(
            lines(b"ab\r\n\ncdefgh\nij\xff", 5),
            [
                Text("ab".into()),
                Text("".into()),
                TooLong(6),
                Text("ij\u{fffd}".into())
            ]
        );
    }

    #[test]
    fn stops_when_the_receiver_does() {
        let mut seen = 0;
        assert!(!read_bounded_lines(&b"a\nb\nc\n"[..], 10, |_| {
            seen += 1;
            seen < 2
        }));
        assert_eq!(seen, 2);
    }
}
