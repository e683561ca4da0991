//! Engines run in process groups of their own: what an engine forks is ended with it, and an
//! engine that exits while a child holds its output open has crashed (not stalled).
//! `tests/engines/forking.sh` starts `sleep 987654` with the engine's stdout and records the
//! pids; the checks read `/proc`.

use super::*;

/// The `(engine, child)` pids forking.sh recorded.
fn recorded(pidfile: &Path) -> Vec<(u32, u32)> {
    std::fs::read_to_string(pidfile)
        .unwrap()
        .lines()
        .map(|l| {
            let (a, b) = l.split_once(' ').unwrap();
            (a.parse().unwrap(), b.parse().unwrap())
        })
        .collect()
}

/// Every live (not zombie) process as `(pid, process group, command line)`.
fn processes() -> Vec<(u32, u32, Vec<u8>)> {
    let mut found = Vec::new();
    for entry in std::fs::read_dir("/proc").unwrap().flatten() {
        let Ok(pid) = entry.file_name().to_string_lossy().parse::<u32>() else {
            continue;
        };
        let Ok(stat) = std::fs::read_to_string(entry.path().join("stat")) else {
            continue;
        };
        // After the command name in parentheses: state, parent, process group.
        let Some((_, rest)) = stat.rsplit_once(')') else {
            continue;
        };
        let fields: Vec<&str> = rest.split_whitespace().collect();
        if fields.len() < 3 || fields[0] == "Z" {
            continue;
        }
        let cmdline = std::fs::read(entry.path().join("cmdline")).unwrap_or_default();
        found.push((pid, fields[2].parse().unwrap_or(0), cmdline));
    }
    found
}

/// No child forking.sh started, and nothing in the engines' groups, is still running.
fn assert_nothing_left(pidfile: &Path, starts: usize) {
    let engines = recorded(pidfile);
    assert_eq!(engines.len(), starts, "{engines:?}");
    let left: Vec<(u32, u32, String)> = processes()
        .into_iter()
        .filter(|(pid, group, cmdline)| {
            engines.iter().any(|&(engine, child)| {
                *group == engine || (*pid == child && cmdline == b"sleep\0987654\0")
            })
        })
        .map(|(pid, group, cmdline)| (pid, group, String::from_utf8_lossy(&cmdline).into()))
        .collect();
    assert!(left.is_empty(), "still running: {left:?}");
}

/// A one-pair Sight match of `forking.sh PIDFILE ENGINE…` against ludus.
fn forking_match(dir: &Path, engine: &str, stall: &str) -> (Vec<String>, String) {
    let pidfile = dir.join("pids");
    let results = dir.join("results.json");
    let pgn = dir.join("games.pgn");
    let mut args = words(&format!(
        "--game sight --games 2 --quiet --stall-timeout {stall} --engine cmd={} arg={} {engine} \
         name=forking --engine cmd={LUDUS} name=ludus option.Level=greedy \
         --each st=0.05 timemargin=500",
        engine_script("forking.sh"),
        pidfile.display(),
    ));
    args = with_file(with_file(args, "--results", &results), "--pgnout", &pgn);
    let out = run(&args);
    assert!(
        out.status.success(),
        "{}",
        String::from_utf8_lossy(&out.stderr)
    );
    (games(&results), std::fs::read_to_string(&pgn).unwrap())
}

#[test]
fn an_engine_that_forks_leaves_no_process_behind() {
    let dir = scratch("forks");
    let (games, _) = forking_match(&dir, &format!("arg={LUDUS}"), "5");
    assert_eq!(games.len(), 2, "{games:?}");
    assert!(games.iter().all(|g| g.contains(" rules ")), "{games:?}");
    // Started twice: the check before the match, and once for both games.
    assert_nothing_left(&dir.join("pids"), 2);
}

#[test]
fn an_engine_that_exits_while_its_child_holds_its_output_loses_by_crash() {
    let dir = scratch("forks-crash");
    let engine = format!("arg={} arg=crash arg={LUDUS}", faulty_script());
    let (games, record) = forking_match(&dir, &engine, "5");
    assert_eq!(games.len(), 2, "{games:?}");
    assert!(
        games[0].starts_with("1 0-1 crash forking ludus "),
        "{games:?}"
    );
    assert!(
        games[1].starts_with("2 1-0 crash ludus forking "),
        "{games:?}"
    );
    assert_eq!(
        record
            .matches("(forking): exited while thinking (status 3)")
            .count(),
        2,
        "{record}"
    );
    // Started three times: the check before the match, and once for each game (a crashed
    // engine is started afresh).
    assert_nothing_left(&dir.join("pids"), 3);
}
