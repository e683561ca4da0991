//! How the protocol loop reads its input, driven through pipes: line conventions (`\r`, blank
//! lines, tabs, case, invalid UTF-8, NUL), lines over 1 MiB, `--strict`, and a long stream of
//! seeded garbage that must leave the engine responsive.

mod process;

use std::time::{Duration, Instant};

use process::Engine;
use process::garbage::{garbage, is_forbidden};

#[test]
fn garbage_generator_is_seeded_and_safe() {
    assert_eq!(garbage(7, 500), garbage(7, 500));
    assert!(is_forbidden(b"quit"));
    assert!(is_forbidden(b"  quit now"));
    assert!(is_forbidden(b"setoption name HASH value 65"));
    assert!(is_forbidden(b"setoption name Debug Log File value x"));
    assert!(!is_forbidden(b"setoption name Hash value 64"));
    assert!(!is_forbidden(
        b"setoption name Hash value 99999999999999999999999"
    ));
    let (stream, _) = garbage(11, 3000);
    assert!(!stream.split(|&b| b == b'\n').any(is_forbidden));
}

#[test]
fn ten_thousand_garbage_lines_leave_the_engine_responsive() {
    let started = Instant::now();
    // LUDUS_GARBAGE_SEED=<n> replays another stream (to hunt for bugs with other seeds).
    let seed = std::env::var("LUDUS_GARBAGE_SEED")
        .ok()
        .and_then(|s| s.parse().ok())
        .unwrap_or(0x1d05);
    let (stream, huge_len) = garbage(seed, 10_000);
    assert!(huge_len >= 2 << 20, "the long line has {huge_len} bytes");
    let too_long =
        format!("info string error bad-argument line of {huge_len} bytes ignored: too long");

    let mut engine = Engine::spawn();
    let mut stdin = engine.take_stdin();
    let writer = std::thread::spawn(move || {
        use std::io::Write;
        let result = stdin.write_all(&stream).and_then(|_| stdin.flush());
        (stdin, result)
    });
    // Drain stdout while the writer runs (the reader thread of `Engine` drains the pipe; this
    // keeps the channel short and looks for the over-long line's error).
    let mut seen_too_long = false;
    let mut lines_read = 0usize;
    while !writer.is_finished() {
        if started.elapsed() > Duration::from_secs(50) {
            panic!(
                "writing the garbage (seed {seed}) took over 50 s{}",
                engine.context()
            );
        }
        match engine.try_read_line(Duration::from_millis(50)) {
            Ok(line) => {
                lines_read += 1;
                seen_too_long |= line == too_long;
            }
            Err(process::ReadError::Timeout) => {}
            Err(process::ReadError::Closed) => {
                panic!("ludus closed its output mid-stream{}", engine.context())
            }
        }
    }
    let (stdin, result) = writer.join().expect("the writer thread panicked");
    result.unwrap_or_else(|e| panic!("writing the garbage failed: {e}{}", engine.context()));
    engine.restore_stdin(stdin);

    // The garbage holds `isready` lines of its own, so first send a command whose answer it
    // cannot contain, then isready: that readyok is ours.
    let marker = "ludus-garbage-end-3f9c1a";
    let marker_error = format!("info string error unknown-command '{marker}' (try help)");
    engine.send(marker);
    engine.send("isready");
    let rest = engine.read_until_within(Duration::from_secs(30), "the end marker", |l| {
        l == marker_error
    });
    lines_read += rest.len();
    seen_too_long |= rest.contains(&too_long);
    let tail = engine.read_until_within(Duration::from_secs(30), "readyok", |l| l == "readyok");
    lines_read += tail.len();
    assert!(
        seen_too_long,
        "no '{too_long}' among {lines_read} lines of output"
    );
    engine.quit(Duration::from_secs(10));
    let elapsed = started.elapsed();
    eprintln!("garbage (seed {seed}): {lines_read} output lines in {elapsed:?}");
    // A worker that panicked is papered over by the loop ("answering for it") but must not
    // happen.
    let stderr = engine.stderr();
    assert!(
        !stderr.contains("panicked") && !stderr.contains("did not finish"),
        "ludus logged a failure on stderr (garbage seed {seed}):\n{stderr}"
    );
    assert!(elapsed < Duration::from_secs(60), "took {elapsed:?}");
}

#[test]
fn strict_mode_exits_with_status_one_on_the_first_error() {
    let mut engine = Engine::spawn_with_args(&["--strict"]);
    engine.send("fly");
    // stdin stays open: the engine must quit by itself.
    let status = engine.wait_exit(Duration::from_secs(10));
    assert_eq!(status.code(), Some(1), "{}", engine.context());
    let output = engine.read_to_end_within(Duration::from_secs(5));
    assert_eq!(
        output,
        ["info string error unknown-command 'fly' (try help)"]
    );
}

#[test]
fn strict_mode_without_errors_exits_zero() {
    let mut engine = Engine::spawn_with_args(&["--strict"]);
    engine.assert_ready();
    engine.close_stdin();
    let status = engine.wait_exit(Duration::from_secs(10));
    assert_eq!(status.code(), Some(0), "{}", engine.context());
}

#[test]
fn input_conventions_cr_blank_tabs_case_and_invalid_utf8() {
    let mut engine = Engine::spawn();
    // `\r` before `\n` is dropped, blank lines are ignored, tabs separate words.
    engine.send_bytes(b"isready\r\n\n   \n\t isready \t\n");
    engine.expect_line("readyok");
    engine.expect_line("readyok");
    // Commands are case-sensitive.
    engine.send("ISREADY");
    engine.expect_line("info string error unknown-command 'ISREADY' (try help)");
    // Bytes that are not UTF-8 become U+FFFD.
    engine.send_bytes(b"\xff\xfe\n");
    engine.expect_line("info string error unknown-command '\u{FFFD}\u{FFFD}' (try help)");
    // A NUL byte is just a character of an unknown command.
    engine.send_bytes(b"\x00\n");
    engine.expect_line("info string error unknown-command '\u{0}' (try help)");
    // `ponderhit` is accepted and ignored.
    engine.send("ponderhit");
    engine.assert_ready();
    engine.quit(Duration::from_secs(10));
}

#[test]
fn lines_over_one_mib_are_skipped_with_an_error() {
    const MAX_LINE: usize = 1 << 20;
    let mut engine = Engine::spawn();
    let mut line = b"isready".to_vec();
    line.resize(MAX_LINE, b' ');
    line.push(b'\n');
    engine.send_bytes(&line);
    engine.expect_line("readyok");
    line.truncate(MAX_LINE);
    line.extend_from_slice(b" \n");
    engine.send_bytes(&line);
    engine.expect_line(&format!(
        "info string error bad-argument line of {} bytes ignored: too long",
        MAX_LINE + 1
    ));
    engine.assert_ready();
    engine.quit(Duration::from_secs(10));
}
