//! How the protocol loop reads its input, driven through pipes: line conventions (`\r`, blank
//! lines, tabs, case, invalid UTF-8, NUL), lines over 1 MiB, `--strict`, and a long stream of
//! seeded garbage that must leave the engine responsive.

use crate::common::process;

use std::time::{Duration, Instant};

use crate::common::process::Engine;
use crate::common::process::garbage::{MAX_GARBAGE_HASH_MIB, garbage, is_forbidden};

#[test]
fn garbage_generator_is_seeded_and_safe() {
    assert_eq!(garbage(7, 500), garbage(7, 500));
    assert!(is_forbidden(b"quit"));
    assert!(is_forbidden(b"  quit now"));
    assert!(is_forbidden(b"setoption name HASH value 257"));
    assert!(is_forbidden(b"setoption name Debug Log File value x"));
    assert!(!is_forbidden(b"setoption name Hash value 256"));
    assert!(!is_forbidden(
        b"setoption name Hash value 99999999999999999999999"
    ));
    let (stream, _) = garbage(11, 3000);
    assert!(!stream.split(|&b| b == b'\n').any(is_forbidden));
}

fn env_number(name: &str, default: u64) -> u64 {
    std::env::var(name)
        .ok()
        .and_then(|s| s.parse().ok())
        .unwrap_or(default)
}

/// What one garbage stream left behind.
struct StreamRun {
    lines_read: usize,
    peak_mib: u64,
    elapsed: Duration,
}

/// Memory the engine may use besides `Hash` and an MCTS tree of the same size: code, stacks,
/// move lists, channels and the 2 MiB line (docs/benchmarks.md, "Protocol fuzzing").
const MEMORY_BOUND_BESIDES_HASH_MIB: u64 = 128;

/// Feeds one seeded stream of `count` garbage lines to a fresh engine; panics if it stops
/// answering, logs a failure on stderr, or uses more memory than its tables allow.
fn fuzz_stream(seed: u64, count: usize) -> StreamRun {
    let started = Instant::now();
    let (stream, huge_len) = garbage(seed, count);
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
        if started.elapsed() > Duration::from_secs(120) {
            panic!(
                "writing the garbage (seed {seed}) took over 120 s{}",
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
                panic!(
                    "ludus closed its output mid-stream (seed {seed}){}",
                    engine.context()
                )
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
        "no '{too_long}' among {lines_read} lines of output (seed {seed})"
    );
    let status = std::fs::read_to_string(format!("/proc/{}/status", engine.id()))
        .expect("the engine's /proc status");
    let peak_kb: u64 = status
        .lines()
        .find_map(|l| l.strip_prefix("VmHWM:"))
        .and_then(|v| v.split_whitespace().next()?.parse().ok())
        .expect("VmHWM in /proc status");
    engine.quit(Duration::from_secs(10));
    // A worker that panicked is papered over by the loop ("answering for it") but must not
    // happen.
    let stderr = engine.stderr();
    assert!(
        !stderr.contains("panicked") && !stderr.contains("did not finish"),
        "ludus logged a failure on stderr (garbage seed {seed}):\n{stderr}"
    );
    let peak_mib = peak_kb / 1024;
    let allowed = 2 * MAX_GARBAGE_HASH_MIB as u64 + MEMORY_BOUND_BESIDES_HASH_MIB;
    assert!(
        peak_mib <= allowed,
        "seed {seed}: peak memory {peak_mib} MiB, more than {allowed} MiB"
    );
    StreamRun {
        lines_read,
        peak_mib,
        elapsed: started.elapsed(),
    }
}

/// The protocol fuzz run: `LUDUS_FUZZ_PROCESSES` streams (default 1) of `LUDUS_FUZZ_LINES`
/// lines (default 10,000), each in a fresh engine, seeds from `LUDUS_GARBAGE_SEED` on (default
/// 0x1d05). `.ci/run` runs a bounded one, docs/benchmarks.md records a long one.
#[test]
fn garbage_streams_leave_the_engine_responsive_within_its_memory() {
    let processes = env_number("LUDUS_FUZZ_PROCESSES", 1);
    let count = env_number("LUDUS_FUZZ_LINES", 10_000) as usize;
    let first_seed = env_number("LUDUS_GARBAGE_SEED", 0x1d05);
    let mut total_lines = 0;
    let mut peak = 0;
    for seed in first_seed..first_seed + processes {
        let run = fuzz_stream(seed, count);
        total_lines += count;
        peak = peak.max(run.peak_mib);
        eprintln!(
            "garbage (seed {seed}): {count} lines in, {} out in {:?}, peak {} MiB",
            run.lines_read, run.elapsed, run.peak_mib
        );
    }
    eprintln!(
        "fuzz: {processes} processes, {total_lines} lines, 0 panics, 0 hangs, peak {peak} MiB"
    );
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
    // `ponderhit` with no ponder search under way searches nothing and says so.
    engine.send("ponderhit");
    engine.expect_line("info string ponderhit ignored: no ponder search under way");
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
