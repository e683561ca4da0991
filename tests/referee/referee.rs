//! `ludus match` end to end: misbehaving engines lose with the right termination while the
//! match completes; a match killed with SIGKILL and resumed ends with the same games as an
//! uninterrupted run; shards merged equal the unsharded match. [`resume`] and [`merge`]:
//! records and results of other matches are refused; [`groups`]: engines that fork.
//!
//! Deterministic matches use `full` searches under `nodes=` limits: a node-limited search
//! gives the same move for the same game history, so two runs play the same games.

#[path = "groups.rs"]
mod groups;
#[path = "merge.rs"]
mod merge;
#[path = "resume.rs"]
mod resume;

use std::path::{Path, PathBuf};
use std::process::{Command, Output, Stdio};
use std::time::{Duration, Instant};

use serde_json::Value;

const LUDUS: &str = env!("CARGO_BIN_EXE_ludus");

/// A fresh scratch directory for one test.
fn scratch(name: &str) -> PathBuf {
    let dir = std::env::temp_dir().join(format!("ludus-referee-{}-{name}", std::process::id()));
    let _ = std::fs::remove_dir_all(&dir);
    std::fs::create_dir_all(&dir).unwrap();
    dir
}

/// The path of a test engine script in `tests/engines/`.
fn engine_script(name: &str) -> String {
    Path::new(env!("CARGO_MANIFEST_DIR"))
        .join("tests/engines")
        .join(name)
        .display()
        .to_string()
}

fn faulty_script() -> String {
    engine_script("faulty.sh")
}

/// A quick match of `games` games between `a` (nodes=100) and `b` (`b_nodes`), from 2
/// random plies (seed 1) unless `extra` says otherwise; `extra` adds settings.
fn quick(games: u32, b_nodes: u32, extra: &str) -> Vec<String> {
    let mut args = words(&format!(
        "--games {games} --quiet --engine cmd={LUDUS} name=a nodes=100 --engine cmd={LUDUS} \
         name=b nodes={b_nodes}"
    ));
    for (flag, default) in [("--random-openings", "2"), ("--seed", "1")] {
        if !extra.contains(flag) {
            args.extend([flag.to_string(), default.to_string()]);
        }
    }
    args.extend(words(extra));
    args
}

/// `args` with `--flag PATH` added.
fn with_file(mut args: Vec<String>, flag: &str, path: &Path) -> Vec<String> {
    args.extend([flag.to_string(), path.display().to_string()]);
    args
}

/// Runs `ludus match --game GAME ARGS`, which must succeed; returns its stdout.
fn run_ok(game: &str, args: &[String]) -> String {
    let mut all = vec!["--game".to_string(), game.to_string()];
    all.extend(args.iter().cloned());
    let out = run(&all);
    assert!(
        out.status.success(),
        "{all:?}: {}",
        String::from_utf8_lossy(&out.stderr)
    );
    String::from_utf8_lossy(&out.stdout).into_owned()
}

/// Runs `ludus match ARGS`, which must fail with status 2 and this one error line; returns
/// what it printed on stdout.
fn refused(args: &[String], error: &str) -> Vec<u8> {
    let out = run(args);
    assert_eq!(
        String::from_utf8_lossy(&out.stderr),
        format!("ludus match: {error}\n"),
        "{args:?}"
    );
    assert_eq!(out.status.code(), Some(2), "{args:?}");
    out.stdout
}

/// Runs `ludus match --game GAME ARGS`, which must fail with status 2 and this one error line.
fn run_refused(game: &str, args: &[String], error: &str) {
    let mut all = vec!["--game".to_string(), game.to_string()];
    all.extend(args.iter().cloned());
    let stdout = refused(&all, error);
    assert!(stdout.is_empty(), "{all:?}");
}

fn ludus_match(args: &[String]) -> Command {
    let mut cmd = Command::new(LUDUS);
    cmd.arg("match").args(args).stdin(Stdio::null());
    cmd
}

fn run(args: &[String]) -> Output {
    ludus_match(args).output().unwrap()
}

fn words(s: &str) -> Vec<String> {
    s.split_whitespace().map(str::to_string).collect()
}

/// The games of a results file as `number result termination p1 p2 plies` lines.
fn games(results: &Path) -> Vec<String> {
    let text = std::fs::read_to_string(results).unwrap();
    let json: Value = serde_json::from_str(&text).unwrap();
    json["games"]
        .as_array()
        .unwrap()
        .iter()
        .map(|g| {
            format!(
                "{} {} {} {} {} {}",
                g["number"], g["result"], g["termination"], g["p1"], g["p2"], g["plies"]
            )
            .replace('"', "")
        })
        .collect()
}

/// Plays one pair of Sight games between `faulty.sh MODE` and ludus; returns the games.
/// `each` holds the engines' limits: the tests that are not about time give a time margin
/// of 500 ms, so a busy machine cannot turn their failure into a time forfeit.
fn faulty_pair(mode: &str, each: &str, stall: &str) -> (Vec<String>, String, String) {
    let dir = scratch(mode);
    let results = dir.join("results.json");
    let pgn = dir.join("games.pgn");
    let mut args = words("--game sight --games 2 --quiet --stall-timeout");
    args.push(stall.into());
    args.extend(words(&format!(
        // Without the solved book, so that the wrapped engine really searches (a book move
        // comes at once, however slow the wrapper makes the `go`).
        "--engine cmd={} arg={mode} arg={LUDUS} name=faulty option.SolvedBook=false",
        faulty_script()
    )));
    args.extend(words(&format!(
        "--engine cmd={LUDUS} name=ludus option.Level=greedy --each {each}"
    )));
    args.extend(["--results".into(), results.display().to_string()]);
    args.extend(["--pgnout".into(), pgn.display().to_string()]);
    let out = run(&args);
    let stdout = String::from_utf8_lossy(&out.stdout).into_owned();
    assert!(
        out.status.success(),
        "{mode}: {stdout}\n{}",
        String::from_utf8_lossy(&out.stderr)
    );
    let record = std::fs::read_to_string(&pgn).unwrap();
    (games(&results), stdout, record)
}

/// Both games of the pair end with `termination`, lost by the faulty engine.
fn assert_faulty_loses(mode: &str, each: &str, stall: &str, termination: &str) -> String {
    let (games, table, record) = faulty_pair(mode, each, stall);
    assert_eq!(games.len(), 2, "{mode}: {games:?}");
    assert!(
        games[0].starts_with(&format!("1 0-1 {termination} faulty ludus ")),
        "{mode}: {games:?}"
    );
    assert!(
        games[1].starts_with(&format!("2 1-0 {termination} ludus faulty ")),
        "{mode}: {games:?}"
    );
    assert!(
        table.contains(&format!("Failures: faulty {termination} 2")),
        "{mode}: {table}"
    );
    assert_eq!(
        record
            .matches(&format!("[Termination \"{termination}\"]"))
            .count(),
        2
    );
    record
}

#[test]
fn an_engine_that_crashes_mid_game_loses_by_crash() {
    let record = assert_faulty_loses("crash", "st=0.05 timemargin=500", "5", "crash");
    assert!(record.contains("exited while thinking"), "{record}");
}

#[test]
fn an_engine_that_never_answers_loses_by_stall() {
    // The stall timeout also bounds the healthy engine's handshake: 3 s, not less, so that a
    // debug build starting on a loaded machine is not the one that stalls (0.5 s did, with
    // both cores busy: "no readyok within 0.5 s" from ludus itself).
    let record = assert_faulty_loses("hang", "st=0.05 timemargin=500", "3", "stall");
    assert!(record.contains("no bestmove within"), "{record}");
}

#[test]
fn an_engine_that_plays_an_illegal_move_loses_by_illegal_move() {
    let record = assert_faulty_loses("illegal", "st=0.05 timemargin=500", "5", "illegal-move");
    assert!(record.contains("played an illegal move"), "{record}");
}

#[test]
fn an_engine_that_prints_garbage_loses_by_bad_output() {
    let record = assert_faulty_loses("garbage", "st=0.05 timemargin=500", "5", "bad-output");
    assert!(record.contains("#!garbage!#"), "{record}");
}

#[test]
fn an_engine_that_answers_slowly_loses_on_time() {
    // The slow answer comes after 1.5 s, far past 0.1 s + 100 ms margin, well before the
    // stall timeout.
    let record = assert_faulty_loses("slow", "st=0.1 timemargin=100", "10", "time-forfeit");
    assert!(record.contains("ms past its time"), "{record}");
}

/// A deterministic two-engine Sight match of `pairs` pairs from seeded random openings.
fn deterministic_match(pairs: u32, extra: &str) -> Vec<String> {
    let mut args = words(&format!(
        "--game sight --rounds {pairs} --random-openings 2 --seed 11 --concurrency 2 --quiet"
    ));
    args.extend(words(&format!(
        "--engine cmd={LUDUS} name=deep nodes=3000 --engine cmd={LUDUS} name=shallow nodes=200"
    )));
    // Without the solved book and its prover, which play both sides of 5×5 perfectly from
    // 20 empty points on: the depth of the search then decides, as the SPRT test needs.
    args.extend(words("--each option.SolvedBook=false"));
    args.extend(words(extra));
    args
}

#[test]
fn a_killed_match_resumes_to_the_same_games() {
    let dir = scratch("resume");
    let whole = dir.join("whole.json");
    let mut args = deterministic_match(6, "");
    args.extend(["--results".into(), whole.display().to_string()]);
    assert!(run(&args).status.success());
    let expected = games(&whole);
    assert_eq!(expected.len(), 12);

    let pgn = dir.join("cut.pgn");
    let cut = dir.join("cut.json");
    let mut args = deterministic_match(6, "");
    args.extend(["--pgnout".into(), pgn.display().to_string()]);
    args.extend(["--results".into(), cut.display().to_string()]);
    let mut child = ludus_match(&args)
        .stdout(Stdio::null())
        .stderr(Stdio::null())
        .spawn()
        .unwrap();
    // Kill it (SIGKILL) once some games are on disk but not all.
    let started = Instant::now();
    loop {
        let done = std::fs::read_to_string(&pgn)
            .map(|t| t.matches("[PlyCount ").count())
            .unwrap_or(0);
        if done >= 3 || started.elapsed() > Duration::from_secs(60) {
            break;
        }
        std::thread::sleep(Duration::from_millis(5));
    }
    child.kill().unwrap();
    child.wait().unwrap();
    let recorded = std::fs::read_to_string(&pgn).unwrap();
    let kept = recorded.matches("[PlyCount ").count();
    assert!((3..12).contains(&kept), "killed after {kept} games");
    // A rerun without --resume refuses to touch the record.
    let refused = run(&args);
    assert_eq!(refused.status.code(), Some(2));
    assert!(String::from_utf8_lossy(&refused.stderr).contains("--resume"));
    assert_eq!(std::fs::read_to_string(&pgn).unwrap(), recorded);

    args.push("--resume".into());
    let out = run(&args);
    assert!(
        out.status.success(),
        "{}",
        String::from_utf8_lossy(&out.stderr)
    );
    assert_eq!(games(&cut), expected);
    assert_eq!(
        std::fs::read_to_string(&pgn)
            .unwrap()
            .matches("[PlyCount ")
            .count(),
        12
    );
}

#[test]
fn shards_merged_equal_the_whole_match() {
    let dir = scratch("shards");
    let whole = dir.join("whole.json");
    let mut args = deterministic_match(5, "");
    args.extend(["--results".into(), whole.display().to_string()]);
    let whole_out = run(&args);
    assert!(whole_out.status.success());

    let mut files = Vec::new();
    for k in 1..=3 {
        let part = dir.join(format!("shard{k}.json"));
        let mut args = deterministic_match(5, &format!("--shard {k}/3"));
        args.extend(["--results".into(), part.display().to_string()]);
        assert!(run(&args).status.success());
        files.push(part.display().to_string());
    }
    let merged = dir.join("merged.json");
    let mut args = vec!["merge".to_string()];
    args.extend(files.iter().cloned());
    args.extend(["--results".into(), merged.display().to_string()]);
    let out = run(&args);
    assert!(
        out.status.success(),
        "{}",
        String::from_utf8_lossy(&out.stderr)
    );
    assert_eq!(games(&merged), games(&whole));
    assert_eq!(games(&merged).len(), 10);
    assert_eq!(
        out.stdout, whole_out.stdout,
        "the merged table equals the whole one"
    );
}

#[test]
fn bad_command_lines_are_refused_with_a_reason() {
    let cases = [
        ("--engine cmd=x tc=1", "at least two --engine"),
        ("--engine cmd=a --engine cmd=b", "has no limit"),
        (
            "--engine cmd=a tc=1 --engine cmd=a tc=1",
            "two engines are named 'a'",
        ),
        (
            "--engine cmd=a --engine cmd=b --each tc=1 --games 3",
            "even number",
        ),
        (
            "--engine cmd=a --engine cmd=b --each tc=1 --option Sight_Nope=1",
            "no rule option",
        ),
        (
            "--engine cmd=a --engine cmd=b --each tc=1 --sprt elo0=5 elo1=0",
            "elo0 < elo1",
        ),
    ];
    for (line, why) in cases {
        let out = run(&words(line));
        assert_eq!(out.status.code(), Some(2), "{line}");
        let err = String::from_utf8_lossy(&out.stderr);
        assert!(err.contains(why), "{line}: {err}");
    }
}

#[test]
fn the_sprt_stops_the_match_once_it_decides() {
    let dir = scratch("sprt");
    let results = dir.join("results.json");
    let mut args = deterministic_match(40, "--sprt elo0=0 elo1=150 alpha=0.1 beta=0.1");
    args.extend(["--results".into(), results.display().to_string()]);
    let out = run(&args);
    assert!(out.status.success());
    let table = String::from_utf8_lossy(&out.stdout);
    assert!(table.contains("H1 accepted"), "{table}");
    let played = games(&results).len();
    // Stopped early, with whole pairs only (both workers finish their pair in progress).
    assert!(
        played < 80 && played.is_multiple_of(2),
        "{played} games\n{table}"
    );
    // Where it decided is kept: the games then in progress can move the final LLR back.
    let json: Value = serde_json::from_str(&std::fs::read_to_string(&results).unwrap()).unwrap();
    let decided = &json["decided"];
    assert_eq!(decided["verdict"], "H1", "{json}");
    let at = decided["games"].as_u64().unwrap() as usize;
    // Each of the two workers may still finish its pair in progress and one it took just
    // before the stop was seen (games already queued for the tally count after it too).
    assert!(
        at <= played && at + 8 >= played,
        "decided at {at} of {played}"
    );
    assert!(decided["llr"].as_f64().unwrap() >= (0.9_f64 / 0.1).ln());
    let line = format!("SPRT decided H1 at game {at} (LLR ");
    assert_eq!(table.contains(&line), at < played, "{table}");
}

#[test]
fn a_gauntlet_with_max_plies_adjudication() {
    let dir = scratch("gauntlet");
    let results = dir.join("results.json");
    let mut args = words("--game isaac --tournament gauntlet --maxplies 4 --quiet");
    for (name, nodes) in [("a", 300), ("b", 100), ("c", 50)] {
        args.extend(words(&format!(
            "--engine cmd={LUDUS} name={name} nodes={nodes}"
        )));
    }
    args.extend(["--results".into(), results.display().to_string()]);
    let out = run(&args);
    assert!(out.status.success());
    assert_eq!(
        games(&results),
        [
            "1 1/2-1/2 max-plies a b 4",
            "2 1/2-1/2 max-plies b a 4",
            "3 1/2-1/2 max-plies a c 4",
            "4 1/2-1/2 max-plies c a 4"
        ]
    );
    let table = String::from_utf8_lossy(&out.stdout);
    assert!(table.contains("a vs b: 0-0-2 [0.500]"), "{table}");
    assert!(table.contains("a vs c: 0-0-2 [0.500]"), "{table}");
    assert!(!table.contains("b vs c"), "{table}");
}

/// The ladder's Tactigon openings file: every line a legal, distinct 2-ply line from the start
/// that leaves the game undecided (a stale or hand-edited file would skew the ladder).
#[test]
fn the_ladder_openings_file_is_legal_and_complete() {
    use ludus::game::GameId;
    use ludus::game::dynamic::RuleSet;
    use ludus::referee::openings::read_openings_file;
    let path = Path::new(env!("CARGO_MANIFEST_DIR")).join("benches/strength/openings/tactigon.txt");
    let rules = RuleSet::new(GameId::Tactigon, &[]).unwrap();
    let openings = read_openings_file(&path, &rules).unwrap();
    assert_eq!(openings.len(), 2142);
    let lines: std::collections::HashSet<String> = openings.iter().map(|o| o.line()).collect();
    assert_eq!(lines.len(), 2142, "duplicate openings");
    for o in &openings {
        assert_eq!(o.moves.len(), 2, "{}", o.line());
        assert!(o.fen.is_none(), "{}", o.line());
    }
}

/// `ponder=on`: the engine gets `Ponder true`, and after each `bestmove … ponder …` a
/// `go ponder` that ends in `ponderhit` (the expected reply came) or `stop` (it did not, or
/// the game ended); the games are played as usual and the record names the setting.
#[test]
fn a_pondering_engine_is_sent_ponderhit_or_stop_after_every_go_ponder() {
    let dir = scratch("ponder");
    let pgn = dir.join("ponder.pgn");
    let mut args = words("--game sight --games 2 --random-openings 2 --seed 5 --concurrency 1");
    args.extend(words(&format!(
        "--engine cmd={LUDUS} name=ponderer ponder=on --engine cmd={LUDUS} name=plain"
    )));
    args.extend(words("--each nodes=2000 option.SolvedBook=false"));
    args.extend(["--pgnout".into(), pgn.display().to_string()]);
    let out = ludus_match(&args)
        .env("RUST_LOG", "ludus::client=debug")
        .output()
        .unwrap();
    assert!(out.status.success(), "{out:?}");
    let log = String::from_utf8_lossy(&out.stderr);
    let sent = |what: &str| {
        log.lines()
            .filter(|l| l.contains(&format!("ponderer < {what}")))
            .count()
    };
    let (ponders, hits, stops) = (sent("go ponder"), sent("ponderhit"), sent("stop"));
    assert!(
        ponders >= 4 && hits >= 1,
        "{ponders} go ponder, {hits} ponderhit"
    );
    assert_eq!(
        ponders,
        hits + stops,
        "each go ponder ends in ponderhit or stop"
    );
    assert_eq!(sent("setoption name Ponder value true"), 1);
    assert!(
        !log.contains("plain < go ponder"),
        "only the ponderer ponders"
    );
    let record = std::fs::read_to_string(&pgn).unwrap();
    assert_eq!(
        record.matches("[Termination \"rules\"]").count(),
        2,
        "{record}"
    );
    assert!(record.contains("name=ponderer cmd="), "{record}");
    assert!(record.contains(" ponder=on limits=nodes=2000"), "{record}");
}

/// The processors this test may run on (its affinity), in order.
fn allowed_cpus() -> Vec<usize> {
    // SAFETY: a zeroed cpu_set_t is the empty set; sched_getaffinity fills it for this thread.
    let mut set: libc::cpu_set_t = unsafe { std::mem::zeroed() };
    let size = std::mem::size_of::<libc::cpu_set_t>();
    assert_eq!(unsafe { libc::sched_getaffinity(0, size, &mut set) }, 0);
    (0..libc::CPU_SETSIZE as usize)
        .filter(|&cpu| unsafe { libc::CPU_ISSET(cpu, &set) })
        .collect()
}

/// `ludus match ARGS` run on the processors `cpus` only (its affinity, which the engines
/// inherit and `available_parallelism` reports); returns its output.
fn run_on_cpus(cpus: &[usize], args: &[String]) -> Output {
    // SAFETY: as in `allowed_cpus`; CPU_SET adds processors below CPU_SETSIZE.
    let mut set: libc::cpu_set_t = unsafe { std::mem::zeroed() };
    for &cpu in cpus {
        unsafe { libc::CPU_SET(cpu, &mut set) };
    }
    let mut cmd = ludus_match(args);
    // SAFETY: the closure only makes the sched_setaffinity system call (async-signal-safe)
    // on a set built before the fork.
    unsafe {
        std::os::unix::process::CommandExt::pre_exec(&mut cmd, move || {
            let size = std::mem::size_of::<libc::cpu_set_t>();
            match libc::sched_setaffinity(0, size, &set) {
                0 => Ok(()),
                _ => Err(std::io::Error::last_os_error()),
            }
        });
    }
    cmd.output().unwrap()
}

/// Issue 57 F7: pondering needs a core per engine. With `ponder=on`, both engines of a game
/// search at once, so a game takes two cores: `ludus match` warns once on stderr (not once
/// per worker, and with `--quiet` too) when the games at once need more cores than it may
/// run on, and says nothing when they fit or when no engine ponders.
#[test]
fn pondering_beyond_the_cores_is_warned_about_once() {
    let cpus = allowed_cpus();
    let warning = |games: usize, cores: usize| {
        format!(
            "ludus match: warning: with ponder=on both engines of a game search at once: \
             {games} game(s) at once need {} cores, and this machine has {cores}; engines short \
             of a core lose on time (lower --concurrency; docs/referee.md, \"Pondering\")\n",
            2 * games
        )
    };
    let mut cases = vec![
        // One core: one pondering game needs two; two games at once need four.
        (1, "ponder=on", 1, warning(1, 1)),
        (1, "ponder=on", 2, warning(2, 1)),
        // No engine ponders: two games on one core are the user's choice, no warning.
        (1, "ponder=off", 2, String::new()),
    ];
    // What the referee sees is its affinity, capped by a CPU quota (a container's) if any.
    let usable = std::thread::available_parallelism().map_or(1, |n| n.get());
    if cpus.len() >= 2 && usable >= 2 {
        // Two cores: one pondering game fits, two do not.
        cases.push((2, "ponder=on", 1, String::new()));
        cases.push((2, "ponder=on", 2, warning(2, 2)));
    }
    for (cores, ponder, concurrency, expected) in cases {
        let mut args = words(&format!(
            "--game sight --games 4 --maxplies 6 --quiet --concurrency {concurrency} \
             --engine cmd={LUDUS} name=a {ponder} --engine cmd={LUDUS} name=b"
        ));
        args.extend(words("--each nodes=200 option.SolvedBook=false"));
        let out = run_on_cpus(&cpus[..cores], &args);
        assert!(out.status.success(), "{out:?}");
        assert_eq!(
            String::from_utf8_lossy(&out.stderr),
            expected,
            "{cores} core(s), {ponder}, --concurrency {concurrency}"
        );
    }
}
