//! Reading the files ludus is given (nets, records, openings, results, data, certificates):
//! only a regular file is read, it is opened without blocking, and no more than a stated
//! number of bytes is ever taken from it: whole ([`read_regular`]), or as a stream
//! ([`open_bounded`]) for files too large to hold, whose readers check the header first. A FIFO, a device (`/dev/zero`, `/dev/stdin`) or a
//! directory is refused at once with an error naming it, instead of hanging the engine or
//! growing it without bound.

use std::fs::{File, OpenOptions};
use std::io::{self, BufRead, Read};
use std::os::unix::fs::OpenOptionsExt;
use std::path::Path;

/// Opens `path` for reading if it is a regular file: opened with `O_NONBLOCK` (opening a FIFO
/// with no writer would otherwise wait for one) and `O_NOCTTY`, then checked with `fstat`, so
/// a path swapped between a check and the opening is caught too.
pub fn open_regular(path: &Path) -> io::Result<File> {
    if std::fs::metadata(path).is_ok_and(|m| !m.is_file()) {
        return Err(not_regular());
    }
    let file = OpenOptions::new()
        .read(true)
        .custom_flags(libc::O_NONBLOCK | libc::O_NOCTTY)
        .open(path)?;
    if !file.metadata().is_ok_and(|m| m.is_file()) {
        return Err(not_regular());
    }
    Ok(file)
}

/// The bytes of the regular file `path`, refused when it holds more than `limit` bytes (also
/// when it grows past `limit` while it is read) or when its size cannot be had in memory (an
/// error, not an abort). For files that may be large, [`open_bounded`] streams instead.
pub fn read_regular(path: &Path, limit: u64) -> io::Result<Vec<u8>> {
    let file = open_regular(path)?;
    let size = file.metadata()?.len();
    if size > limit {
        return Err(too_large(size, limit));
    }
    let mut bytes = Vec::new();
    usize::try_from(size)
        .ok()
        .and_then(|n| bytes.try_reserve_exact(n).ok())
        .ok_or_else(|| {
            io::Error::new(
                io::ErrorKind::OutOfMemory,
                format!("{size} bytes, more than can be had in memory now"),
            )
        })?;
    file.take(limit + 1).read_to_end(&mut bytes)?;
    if bytes.len() as u64 > limit {
        return Err(too_large(bytes.len() as u64, limit));
    }
    Ok(bytes)
}

/// The regular file `path` opened for reading as a stream ([`open_regular`]), refused at once
/// when it holds more than `limit` bytes; a read that would take it past `limit` (the file
/// grew while it was read) fails with the same error. Nothing is read before the caller
/// reads, so a reader can check a file's header before anything else of it.
pub fn open_bounded(path: &Path, limit: u64) -> io::Result<Bounded> {
    let file = open_regular(path)?;
    let size = file.metadata()?.len();
    if size > limit {
        return Err(too_large(size, limit));
    }
    Ok(Bounded {
        file,
        left: limit,
        limit,
    })
}

/// A regular file read with a bound on the bytes it may give ([`open_bounded`]).
#[derive(Debug)]
pub struct Bounded {
    file: File,
    /// Bytes it may still give.
    left: u64,
    limit: u64,
}

impl Read for Bounded {
    fn read(&mut self, buf: &mut [u8]) -> io::Result<usize> {
        let n = self.file.read(buf)?;
        self.left = self.left.checked_sub(n as u64).ok_or_else(|| {
            io::Error::new(
                io::ErrorKind::InvalidData,
                format!(
                    "grew past the {} bytes this file may have while it was read",
                    self.limit
                ),
            )
        })?;
        Ok(n)
    }
}

/// [`read_regular`] as UTF-8 text.
pub fn read_regular_text(path: &Path, limit: u64) -> io::Result<String> {
    String::from_utf8(read_regular(path, limit)?)
        .map_err(|_| io::Error::new(io::ErrorKind::InvalidData, "not UTF-8 text"))
}

/// The lines of `input` without their line ends (`\n` or `\r\n`), as [`BufRead::lines`]
/// gives them, but none longer than `max` bytes with its line end: a longer one is an error
/// (`InvalidData`) once `max` bytes of it were read, so a file of other bytes (a sparse file's zeros) is
/// refused at its first long line instead of being read to its end as one line.
pub fn bounded_lines<R: BufRead>(input: R, max: usize) -> BoundedLines<R> {
    BoundedLines {
        input,
        max,
        line: Vec::new(),
        failed: false,
    }
}

/// The iterator of [`bounded_lines`]; it ends after its first error.
#[derive(Debug)]
pub struct BoundedLines<R> {
    input: R,
    max: usize,
    line: Vec<u8>,
    failed: bool,
}

impl<R: BufRead> Iterator for BoundedLines<R> {
    type Item = io::Result<String>;

    fn next(&mut self) -> Option<io::Result<String>> {
        if self.failed {
            return None;
        }
        self.line.clear();
        let limit = self.max as u64 + 1;
        let line = match (&mut self.input)
            .take(limit)
            .read_until(b'\n', &mut self.line)
        {
            Ok(0) => return None,
            Ok(_) if self.line.last() == Some(&b'\n') => {
                self.line.pop();
                if self.line.last() == Some(&b'\r') {
                    self.line.pop();
                }
                String::from_utf8(std::mem::take(&mut self.line))
                    .map_err(|_| invalid("a line is not UTF-8 text".into()))
            }
            Ok(_) if self.line.len() > self.max => {
                Err(invalid(format!("a line longer than {} bytes", self.max)))
            }
            Ok(_) => String::from_utf8(std::mem::take(&mut self.line))
                .map_err(|_| invalid("a line is not UTF-8 text".into())),
            Err(e) => Err(e),
        };
        self.failed = line.is_err();
        Some(line)
    }
}

fn invalid(message: String) -> io::Error {
    io::Error::new(io::ErrorKind::InvalidData, message)
}

/// FNV-1a, 64 bit: the checksum of net files and datagen records, and the digest that ties a
/// check record or a match identity to its file. Stable across builds and platforms.
pub fn fnv1a64(bytes: &[u8]) -> u64 {
    bytes.iter().fold(0xcbf2_9ce4_8422_2325, |h, &b| {
        (h ^ u64::from(b)).wrapping_mul(0x0100_0000_01b3)
    })
}

/// The error for a path that is not a regular file; like every `io::Error`, it leaves the
/// naming of the path to the caller.
fn not_regular() -> io::Error {
    io::Error::new(
        io::ErrorKind::InvalidInput,
        "not a regular file (a FIFO, a device or a directory)",
    )
}

fn too_large(size: u64, limit: u64) -> io::Error {
    io::Error::new(
        io::ErrorKind::InvalidData,
        format!("{size} bytes, more than the {limit} this file may have"),
    )
}

#[cfg(test)]
mod tests {
    use super::*;

    fn temp(name: &str) -> std::path::PathBuf {
        std::env::temp_dir().join(format!("ludus-files-{}-{name}", std::process::id()))
    }

    #[test]
    fn fnv1a64_is_the_published_function() {
        assert_eq!(fnv1a64(b""), 0xcbf2_9ce4_8422_2325);
        assert_eq!(fnv1a64(b"a"), 0xaf63_dc4c_8601_ec8c);
        assert_eq!(fnv1a64(b"foobar"), 0x8594_4171_f739_67e8);
    }

    #[test]
    fn regular_files_are_read_up_to_their_limit() {
        let path = temp("regular");
        std::fs::write(&path, b"twelve bytes").unwrap();
        assert_eq!(read_regular(&path, 12).unwrap(), b"twelve bytes");
        assert_eq!(read_regular_text(&path, 100).unwrap(), "twelve bytes");
        let err = read_regular(&path, 11).unwrap_err();
        assert!(
            err.to_string().contains("12 bytes, more than the 11"),
            "{err}"
        );
        std::fs::remove_file(&path).unwrap();
        assert_eq!(
            read_regular(&path, 11).unwrap_err().kind(),
            io::ErrorKind::NotFound
        );
    }

    #[test]
    fn a_bounded_file_is_read_up_to_its_limit_and_not_beyond() {
        let path = temp("bounded");
        std::fs::write(&path, b"twelve bytes").unwrap();
        let err = open_bounded(&path, 11).unwrap_err();
        assert_eq!(
            err.to_string(),
            "12 bytes, more than the 11 this file may have"
        );
        let mut text = String::new();
        open_bounded(&path, 12)
            .unwrap()
            .read_to_string(&mut text)
            .unwrap();
        assert_eq!(text, "twelve bytes");
        // A file that grows past its limit while it is read.
        let mut file = open_bounded(&path, 12).unwrap();
        std::fs::write(&path, b"thirteen bytes").unwrap();
        let err = file.read_to_end(&mut Vec::new()).unwrap_err();
        assert_eq!(
            err.to_string(),
            "grew past the 12 bytes this file may have while it was read"
        );
        std::fs::remove_file(&path).unwrap();
    }

    #[test]
    fn lines_are_read_up_to_their_bound() {
        let text = b"one\r\ntwo\nfour\n\nlast";
        let lines: Vec<String> = bounded_lines(&text[..], 4).map(Result::unwrap).collect();
        assert_eq!(lines, ["one", "two", "four", "", "last"]);
        let long = b"one\nfive!\nsix\n";
        let lines: Vec<String> = bounded_lines(&long[..], 4)
            .map(|l| l.unwrap_or_else(|e| e.to_string()))
            .collect();
        assert_eq!(lines, ["one", "a line longer than 4 bytes"]);
        let lines: Vec<String> = bounded_lines(&b"\xff\n"[..], 4)
            .map(|l| l.unwrap_or_else(|e| e.to_string()))
            .collect();
        assert_eq!(lines, ["a line is not UTF-8 text"]);
    }

    #[test]
    fn fifos_devices_and_directories_are_refused_at_once() {
        let fifo = temp("fifo");
        let c_path = std::ffi::CString::new(fifo.to_str().unwrap()).unwrap();
        // SAFETY: mkfifo is given a valid NUL-terminated path.
        assert_eq!(unsafe { libc::mkfifo(c_path.as_ptr(), 0o600) }, 0);
        let paths = [
            fifo.clone(),
            "/dev/zero".into(),
            "/dev/urandom".into(),
            "/dev/null".into(),
            std::env::temp_dir(),
        ];
        // A read that blocked would never answer: the check runs on a thread of its own.
        let (tx, rx) = std::sync::mpsc::channel();
        std::thread::spawn(move || {
            for path in paths {
                let _ = tx.send((read_regular(&path, 1 << 20).map(|b| b.len()), path));
            }
        });
        for _ in 0..5 {
            let (result, path) = rx
                .recv_timeout(std::time::Duration::from_secs(10))
                .expect("refused at once, not blocked");
            let err = result.unwrap_err();
            assert!(
                err.to_string().contains("not a regular file"),
                "{path:?}: {err}"
            );
        }
        std::fs::remove_file(&fifo).unwrap();
    }
}
