//! What the attack of issue 19 found in the engine, each driven through pipes as a GUI would:
//! option maxima the machine can serve (`Threads`, `Hash`), a `Hash` resize that frees the
//! old table first and takes memory lazily, `searchmoves` honoured by every level,
//! `uginewgame` re-seeding the random choices, and a `Debug Log File` that is not a regular
//! file refused without blocking.

use std::time::Duration;

use crate::common::process::{Engine, bestmove_of, is_bestmove};

/// The `max` of an option line of `ugi`.
fn advertised_max(engine: &mut Engine, option: &str) -> u64 {
    engine.send("ugi");
    let lines = engine.read_until(|l| l == "ugiok");
    let prefix = format!("option name {option} type spin ");
    let line = lines
        .iter()
        .find(|l| l.starts_with(&prefix))
        .unwrap_or_else(|| panic!("no option line for {option}: {lines:#?}"));
    line.rsplit(' ')
        .next()
        .and_then(|m| m.parse().ok())
        .unwrap_or_else(|| panic!("no max in '{line}'"))
}

/// A field of `/proc/meminfo` or `/proc/<pid>/status`, in kB.
fn kb_field(text: &str, name: &str) -> u64 {
    text.lines()
        .find_map(|l| l.strip_prefix(name)?.strip_prefix(':'))
        .and_then(|rest| rest.split_whitespace().next()?.parse().ok())
        .unwrap_or_else(|| panic!("no {name} field"))
}

#[test]
fn threads_and_hash_maxima_are_what_the_machine_can_serve() {
    let mut engine = Engine::spawn();
    let cpus = std::thread::available_parallelism().map_or(1, |n| n.get()) as u64;
    assert_eq!(advertised_max(&mut engine, "Threads"), cpus);
    let meminfo = std::fs::read_to_string("/proc/meminfo").expect("Linux reports memory");
    let quarter = kb_field(&meminfo, "MemTotal") / 1024 / 4;
    assert_eq!(advertised_max(&mut engine, "Hash"), quarter);
    // Before: Threads went to 256 on any machine (and starved the command loop on two cores),
    // Hash to 16384 MiB (and the kernel killed the engine).
    engine.send(&format!("setoption name Threads value {}", cpus + 1));
    engine.expect_line(&format!(
        "info string error bad-option-value Threads takes a whole number from 1 to {cpus}, not '{}'",
        cpus + 1
    ));
    engine.send(&format!("setoption name Hash value {}", quarter + 1));
    engine.expect_line(&format!(
        "info string error bad-option-value Hash takes a whole number from 1 to {quarter}, not '{}'",
        quarter + 1
    ));
    engine.send(&format!("setoption name Threads value {cpus}"));
    engine.assert_ready();
    engine.quit(Duration::from_secs(10));
}

#[test]
fn hash_resizes_free_the_old_table_first_and_take_the_new_one_in_full() {
    let mut engine = Engine::spawn();
    // Two resizes to 1 GiB: before issue 19 each was written in full on the command loop while
    // the old table was still held (a peak of 2 GiB, isready waiting for seconds). The worker
    // frees the old table first, then takes the new one's memory in full (every page written,
    // so that no search waits for the kernel to map it: src/search/table_memory.rs).
    for _ in 0..2 {
        engine.send("setoption name Hash value 1024");
        engine.assert_ready();
    }
    engine.send("position startpos");
    engine.send("go depth 3");
    engine.read_until(is_bestmove);
    engine.assert_ready();
    let status = std::fs::read_to_string(format!("/proc/{}/status", engine.id()))
        .expect("the engine's /proc status");
    let peak_mib = kb_field(&status, "VmHWM") / 1024;
    let resident_mib = kb_field(&status, "VmRSS") / 1024;
    assert!(
        peak_mib < 1024 + 256,
        "peak resident memory {peak_mib} MiB after two 1 GiB tables and a short search"
    );
    // Before: a table took its memory as the search wrote to it (VmRSS under 256 MiB here).
    assert!(
        resident_mib >= 1024,
        "{resident_mib} MiB resident with a 1 GiB table"
    );
    // A new game (a new session) takes its table on its worker too, after the old one is gone;
    // `isready` answers once it is in place.
    engine.send("setoption name UCI_Variant value tactigon");
    engine.send("position startpos");
    engine.send("go depth 2");
    engine.read_until(is_bestmove);
    engine.assert_ready();
    let status = std::fs::read_to_string(format!("/proc/{}/status", engine.id()))
        .expect("the engine's /proc status");
    let (peak_mib, resident_mib) = (
        kb_field(&status, "VmHWM") / 1024,
        kb_field(&status, "VmRSS") / 1024,
    );
    assert!(
        peak_mib < 1024 + 256,
        "peak {peak_mib} MiB after the switch"
    );
    assert!(resident_mib >= 1024, "{resident_mib} MiB after the switch");
    engine.quit(Duration::from_secs(10));
}

/// Issue 57 F2: `readyok` after a `Hash` change comes once the table is in place, every page
/// of it written (before, `readyok` came at once and the next `go` waited for the table).
#[test]
fn readyok_after_a_hash_change_means_the_table_is_in_place() {
    let mut engine = Engine::spawn();
    engine.assert_ready();
    engine.send("setoption name Hash value 1024");
    engine.assert_ready();
    let status = std::fs::read_to_string(format!("/proc/{}/status", engine.id()))
        .expect("the engine's /proc status");
    let resident_mib = kb_field(&status, "VmRSS") / 1024;
    assert!(
        resident_mib >= 1024,
        "{resident_mib} MiB resident at readyok with a 1 GiB table"
    );
    engine.quit(Duration::from_secs(10));
}

/// Issue 57 F2: `quit` while `isready` waits for a new table acts at once: no `readyok`, and
/// the engine exits without finishing the table (before, `readyok` came at once and `quit`
/// waited for the whole table).
#[test]
fn quit_while_isready_waits_for_a_table_acts_at_once() {
    let mut engine = Engine::spawn();
    engine.assert_ready();
    engine.send("setoption name Hash value 4096\nisready\nquit");
    let lines = engine.read_to_end_within(Duration::from_secs(30));
    assert!(
        !lines.iter().any(|l| l == "readyok"),
        "readyok before the table was in place: {lines:?}"
    );
    assert!(engine.wait_exit(Duration::from_secs(10)).success());
}

/// The `bestmove`s of `count` times `go`, each after `setup`.
fn moves_of(engine: &mut Engine, go: &str, count: usize) -> Vec<String> {
    (0..count)
        .map(|_| {
            engine.send(go);
            let lines = engine.read_until(is_bestmove);
            let last = lines.last().expect("a bestmove line");
            bestmove_of(last).expect("a move").to_string()
        })
        .collect()
}

#[test]
fn every_level_honours_searchmoves() {
    let mut engine = Engine::spawn();
    engine.send("setoption name Seed value 7");
    for level in ["random", "greedy", "full"] {
        engine.send(&format!("setoption name Level value {level}"));
        engine.send("position startpos");
        // Before: random and greedy ignored searchmoves (e.g. `bestmove c3`).
        for mv in moves_of(&mut engine, "go depth 2 searchmoves e5 a1", 30) {
            assert!(mv == "e5" || mv == "a1", "{level}: bestmove {mv}");
        }
        engine.send("position startpos moves c3 c4");
        for mv in moves_of(&mut engine, "go nodes 500 searchmoves b2", 3) {
            assert_eq!(mv, "b2", "{level}");
        }
    }
    engine.quit(Duration::from_secs(10));
}

#[test]
fn uginewgame_reseeds_the_random_choices_from_seed() {
    for (game, level) in [
        ("sight", "random"),
        ("tactigon", "random"),
        ("isaac", "greedy"),
    ] {
        let mut engine = Engine::spawn();
        engine.send(&format!("setoption name UCI_Variant value {game}"));
        engine.send("setoption name Seed value 42");
        engine.send(&format!("setoption name Level value {level}"));
        let mut games = Vec::new();
        for _ in 0..2 {
            engine.send("uginewgame");
            engine.send("position startpos");
            games.push(moves_of(&mut engine, "go movetime 10", 8));
        }
        // Before: the second game went on with the first one's random stream.
        assert_eq!(games[0], games[1], "{game} at level {level}");
        let distinct: std::collections::HashSet<&String> = games[0].iter().collect();
        assert!(
            distinct.len() > 1,
            "{game}: the choices are random: {games:?}"
        );
        engine.quit(Duration::from_secs(10));
    }
}

#[test]
fn a_debug_log_file_that_is_not_a_regular_file_is_refused_without_blocking() {
    let dir = std::env::temp_dir().join(format!("ludus-debug-log-{}", std::process::id()));
    std::fs::create_dir_all(&dir).expect("a temporary directory");
    let fifo = dir.join("fifo");
    let made = std::process::Command::new("mkfifo")
        .arg(&fifo)
        .status()
        .expect("mkfifo runs");
    assert!(made.success());
    let mut engine = Engine::spawn();
    // Before: opening the FIFO for writing blocked the engine for good.
    for path in [fifo.display().to_string(), dir.display().to_string()] {
        engine.send(&format!("setoption name Debug Log File value {path}"));
        engine.expect_line(&format!(
            "info string error bad-option-value cannot use '{path}' for the debug log: not a \
             regular file"
        ));
        engine.assert_ready();
    }
    let log = dir.join("log.txt");
    engine.send(&format!(
        "setoption name Debug Log File value {}",
        log.display()
    ));
    engine.assert_ready();
    engine.send("setoption name Debug Log File value");
    engine.quit(Duration::from_secs(10));
    let text = std::fs::read_to_string(&log).expect("the log was written");
    assert_eq!(
        text,
        ">> isready\n<< readyok\n>> setoption name Debug Log File value\n"
    );
    std::fs::remove_dir_all(&dir).ok();
}
