//! Tests of the engine process driver with tiny `bash -c` engines.

use super::output::*;
use super::*;

fn ms(n: u64) -> Duration {
    Duration::from_millis(n)
}

/// How long a test waits for a reply that must come: a hang bound, never a measurement (a
/// fake engine's `echo` can take hundreds of milliseconds on a loaded machine). Short waits
/// are kept only where the test expects the wait to run out.
const PATIENCE: Duration = Duration::from_secs(10);

/// [`PATIENCE`] in milliseconds, for `Answer::elapsed_ms`.
const PATIENCE_MS: u64 = 10_000;

/// A `bash -c` engine: the handshake, `isready`, `quit`, plus the script's own `case` arms.
fn engine(arms: &str) -> EngineCommand {
    let script = format!(
        "while read -r line; do case \"$line\" in \
         ugi|uci) echo 'id name fake'; \
         echo 'option name Move Overhead type spin default 10 min 0 max 5000'; \
         echo 'option name Hash type spin default 16 min 1 max 64'; echo ugiok;; \
         isready) echo readyok;; quit) exit 0;; {arms} esac; done"
    );
    EngineCommand {
        name: "fake".into(),
        cmd: "bash".into(),
        dir: None,
        args: vec!["-c".into(), script],
        proto: Proto::Ugi,
    }
}

fn started(arms: &str) -> EngineProcess {
    match EngineProcess::start(&engine(arms), PATIENCE) {
        Ok(e) => e,
        Err(e) => panic!("start failed: {e}"),
    }
}

/// `go movetime 100`, with `stop` sent only after [`PATIENCE`].
fn go(e: &mut EngineProcess) -> Result<Answer, EngineFailure> {
    e.go(
        "position startpos",
        "movetime 100",
        Some(PATIENCE),
        PATIENCE,
    )
}

#[test]
fn answers_go_with_score_and_depth() {
    let mut e = started("go*) echo 'info depth 3 score cp 12'; echo 'bestmove c3';;");
    assert!(e.advertises("move overhead"));
    assert!(e.advertises("Hash"));
    assert!(!e.advertises("Move"));
    assert_eq!(e.new_game(PATIENCE), Ok(()));
    let answer = go(&mut e).unwrap();
    assert_eq!(
        (answer.mv.as_str(), answer.score, answer.depth),
        ("c3", Some(ReportedScore::Cp(12)), Some(3))
    );
    e.quit();
}

#[test]
fn keeps_the_last_scored_line_of_the_first_pv() {
    let mut e = started(
        "go*) echo 'info depth 1 score cp 5'; \
         echo 'info depth 2 multipv 1 score mate 3 lowerbound pv c3 b2'; \
         echo 'info depth 2 multipv 2 score cp -40 pv b2'; echo 'info depth 4 nodes 10'; \
         echo 'info string score cp 999'; echo 'bestmove c3 ponder b2';;",
    );
    let answer = go(&mut e).unwrap();
    assert_eq!(answer.mv, "c3");
    assert_eq!(
        (answer.score, answer.depth),
        (Some(ReportedScore::Mate(3)), Some(2))
    );
}

#[test]
fn the_answer_has_the_chances_of_its_scored_line() {
    let mut e = started(
        "go*) echo 'info depth 1 score cp 5 wdl 400 300 300'; \
         echo 'info depth 2 multipv 1 score cp 30 wdl 500 300 200 pv c3'; \
         echo 'info depth 2 multipv 2 score cp -40 wdl 100 300 600 pv b2'; \
         echo 'info depth 3 nodes 10'; echo 'bestmove c3';;",
    );
    let answer = go(&mut e).unwrap();
    assert_eq!(
        (answer.score, answer.wdl),
        (Some(ReportedScore::Cp(30)), Some([500, 300, 200]))
    );
    // A scored line without chances (or with malformed ones) leaves none.
    let mut e = started(
        "go*) echo 'info depth 1 score cp 5 wdl 400 300 300'; \
         echo 'info depth 2 score cp 9 wdl 1 2 3'; echo 'bestmove c3';;",
    );
    let answer = go(&mut e).unwrap();
    assert_eq!(
        (answer.score, answer.wdl),
        (Some(ReportedScore::Cp(9)), None)
    );
}

#[test]
fn exit_on_go_is_a_crash() {
    let mut e = started("go*) exit 3;;");
    let failure = go(&mut e).unwrap_err();
    assert_eq!(
        failure,
        EngineFailure::Crash("exited while thinking (status 3)".into())
    );
    assert_eq!(failure.kind(), "crash");
    assert_eq!(e.ready(ms(100)).unwrap_err().kind(), "crash");
}

#[test]
fn an_exit_is_a_crash_while_a_child_holds_the_output_open() {
    // The child keeps the engine's input and output open: no end of output ever comes.
    let mut e = started("go*) sleep 987654 <&0 & exit 3;;");
    assert_eq!(
        go(&mut e),
        Err(EngineFailure::Crash(
            "exited while thinking (status 3)".into()
        ))
    );
}

#[test]
fn silence_is_a_stall() {
    let mut e = started("");
    let start = Instant::now();
    let failure = e
        .go("position startpos", "movetime 100", Some(ms(200)), ms(200))
        .unwrap_err();
    assert_eq!(
        failure,
        EngineFailure::Stall("no bestmove within 0.2 s and 0.2 s after stop".into())
    );
    assert!(start.elapsed() >= ms(400));
    let failure = e
        .go("position startpos", "infinite", None, ms(100))
        .unwrap_err();
    assert_eq!(failure.detail(), "no bestmove within 0.1 s");
}

#[test]
fn bestmove_without_a_move_is_bad_output() {
    let mut e = started("'go depth 1') echo 'bestmove (none)';; go*) echo bestmove;;");
    assert_eq!(
        go(&mut e),
        Err(EngineFailure::BadOutput("bestmove without a move".into()))
    );
    let failure = e
        .go("position startpos", "depth 1", None, PATIENCE)
        .unwrap_err();
    assert_eq!(failure, EngineFailure::BadOutput("bestmove (none)".into()));
    assert_eq!(failure.to_string(), "bad-output: bestmove (none)");
}

#[test]
fn an_over_long_line_is_bad_output() {
    let mut e = started("go*) head -c 3000000 /dev/zero | tr '\\0' x; echo; echo 'bestmove c3';;");
    let failure = e
        .go("position startpos", "depth 1", None, PATIENCE)
        .unwrap_err();
    assert_eq!(
        failure,
        EngineFailure::BadOutput("a line longer than 1 MiB".into())
    );
}

#[test]
fn an_answer_after_stop_counts_its_time() {
    let mut e = started("stop) echo 'bestmove b2';;");
    // `stop` goes out after 200 ms: the answer to it cannot come sooner.
    let answer = e
        .go("position startpos", "movetime 100", Some(ms(200)), PATIENCE)
        .unwrap();
    assert_eq!(
        (answer.mv.as_str(), answer.score, answer.depth),
        ("b2", None, None)
    );
    assert!(
        (200..200 + PATIENCE_MS).contains(&answer.elapsed_ms),
        "{answer:?}"
    );
}

#[test]
fn a_late_bestmove_is_not_taken_for_the_next_search() {
    let mut e =
        started("'go depth 1') echo 'bestmove a1'; echo 'bestmove a1';; go*) echo 'bestmove b2';;");
    assert_eq!(
        e.go("position startpos", "depth 1", None, PATIENCE)
            .unwrap()
            .mv,
        "a1"
    );
    std::thread::sleep(ms(100));
    assert_eq!(
        e.go("position startpos", "depth 2", None, PATIENCE)
            .unwrap()
            .mv,
        "b2"
    );
}

#[test]
fn query_reads_the_response() {
    let mut e = started("'query result') echo 'response p1win';;");
    assert_eq!(e.query("result", PATIENCE), Some("p1win".into()));
    assert_eq!(e.query("gameover", ms(500)), None);
    e.quit();
}

#[test]
fn uci_handshake_and_new_game() {
    let mut command = engine("ucinewgame) echo 'info string fresh';;");
    command.proto = Proto::Uci;
    let mut e = EngineProcess::start(&command, PATIENCE).unwrap();
    assert_eq!(e.new_game(PATIENCE), Ok(()));
    assert_eq!(e.set_option("Hash", "32"), Ok(()));
}

#[test]
fn a_missing_program_is_a_crash() {
    let mut command = engine("");
    command.cmd = "./no-such-engine".into();
    let failure = EngineProcess::start(&command, ms(500)).err().unwrap();
    assert_eq!(
        failure,
        EngineFailure::Crash(
            "could not start './no-such-engine': No such file or directory".into()
        )
    );
}

#[test]
fn handshake_failures() {
    let mut command = engine("");
    command.args[1] = "exit 3".into();
    let failure = EngineProcess::start(&command, PATIENCE).err().unwrap();
    assert_eq!(
        failure,
        EngineFailure::Crash("exited during the handshake (status 3)".into())
    );
    command.args[1] = "while read -r line; do :; done".into();
    let failure = EngineProcess::start(&command, ms(200)).err().unwrap();
    assert_eq!(
        failure,
        EngineFailure::Stall("no ugiok within 0.2 s".into())
    );
}

#[test]
fn quit_kills_an_engine_that_stays() {
    let mut command = engine("");
    command.args[1] = "echo ugiok; trap '' TERM; while :; do sleep 0.05; done".into();
    let e = EngineProcess::start(&command, PATIENCE).unwrap();
    let start = Instant::now();
    e.quit();
    // Without the kill the engine would stay for ever: a hang bound, not a measurement.
    assert!(start.elapsed() < PATIENCE, "{:?}", start.elapsed());
}

#[test]
fn reader_caps_lines_and_strips_cr() {
    let mut input = vec![b'x'; 3 * MAX_LINE];
    input.extend_from_slice(b"\nok\r\n\xffend");
    let (tx, rx) = crossbeam_channel::bounded(CHANNEL_CAPACITY);
    read_lines(std::io::Cursor::new(input), &tx);
    drop(tx);
    let lines: Vec<Line> = rx.iter().map(|(_, l)| l).collect();
    assert_eq!(
        lines,
        [
            Line::TooLong,
            Line::Text("ok".into()),
            Line::Text("\u{fffd}end".into()),
            Line::Eof
        ]
    );
}

#[test]
fn option_names_may_have_spaces() {
    let name = |line: &str| EngineOption::parse(line).map(|o| o.name);
    assert_eq!(
        name("option name Clear Hash type button"),
        Some("Clear Hash".into())
    );
    assert_eq!(name("option name  type button"), None);
    assert_eq!(name("id name x"), None);
}

#[test]
fn go_until_stops_when_asked_and_waits_for_bestmove() {
    let mut e = started("go*) echo 'info depth 1 score cp 3 pv c3';; stop) echo 'bestmove c3';;");
    let mut seen = Vec::new();
    let mut asked = 0;
    let answer = e
        .go_until(
            "position startpos",
            "infinite",
            &mut |elapsed| {
                asked += 1;
                elapsed >= ms(150)
            },
            PATIENCE,
            &mut |info| seen.push(info.clone()),
        )
        .unwrap();
    assert_eq!(answer.mv, "c3");
    assert_eq!(answer.score, Some(ReportedScore::Cp(3)));
    assert!(answer.elapsed_ms >= 150, "{answer:?}");
    assert!(asked >= 3, "asked {asked} times");
    assert_eq!(
        seen,
        [Info::parse("info depth 1 score cp 3 pv c3").unwrap()]
    );
    // An engine deaf to stop stalls once the grace has passed.
    let mut deaf = started("go*) echo 'info depth 1 score cp 3';;");
    let failure = deaf
        .go_until(
            "position startpos",
            "infinite",
            &mut |_| true,
            ms(100),
            &mut |_| {},
        )
        .unwrap_err();
    assert_eq!(
        failure,
        EngineFailure::Stall("no bestmove within 0.1 s after stop".into())
    );
}

/// Pondering as a runner drives it: the reply of `bestmove … ponder …` is read; `go ponder`
/// holds its answer; `ponderhit` gets the real answer, timed from the hit; `stop` gets the
/// ponder search's answer, which is read and dropped.
#[test]
fn ponders_then_hits_or_misses() {
    let mut e = started(
        "'go ponder'*) pondering=1;; \
         ponderhit) sleep 0.05; echo 'info depth 7 score cp 30'; echo 'bestmove d4 ponder e5';; \
         stop) echo 'bestmove a1';; \
         go*) echo 'info depth 2 score cp 1'; echo 'bestmove c3 ponder b2';;",
    );
    let answer = go(&mut e).unwrap();
    assert_eq!(
        (answer.mv.as_str(), answer.ponder.as_deref()),
        ("c3", Some("b2"))
    );
    assert_eq!(
        e.start_ponder("position startpos moves c3 b2", "wtime 900"),
        Ok(())
    );
    // Nothing comes back until the hit.
    std::thread::sleep(ms(100));
    let hit = e.ponder_hit(Some(PATIENCE), PATIENCE).unwrap();
    assert_eq!((hit.mv.as_str(), hit.ponder.as_deref()), ("d4", Some("e5")));
    assert_eq!(
        (hit.score, hit.depth),
        (Some(ReportedScore::Cp(30)), Some(7))
    );
    // The engine sleeps 50 ms after the hit before it answers.
    assert!(
        (50..PATIENCE_MS).contains(&hit.elapsed_ms),
        "timed from the hit: {hit:?}"
    );
    assert_eq!(e.start_ponder("position startpos moves d4 e5", ""), Ok(()));
    assert_eq!(e.ponder_miss(PATIENCE), Ok(()));
    // The dropped answer is not taken for the next search's.
    let answer = go(&mut e).unwrap();
    assert_eq!(answer.mv, "c3");
    e.quit();
}

#[test]
fn a_ponder_search_that_never_answers_stop_is_a_stall() {
    let mut e = started("'go ponder'*) ;; stop) ;; go*) echo 'bestmove c3';;");
    assert_eq!(e.start_ponder("position startpos", "wtime 900"), Ok(()));
    assert_eq!(
        e.ponder_miss(ms(100)),
        Err(EngineFailure::Stall(
            "no bestmove within 0.1 s after stop (pondering)".into()
        ))
    );
}
