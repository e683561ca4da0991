//! Pondering (issue 33): with option `Ponder` on, `bestmove <m> ponder <reply>` names the
//! second move of the last principal variation; `go ponder` searches until `ponderhit` (then
//! the real search answers, its time counted from the `ponderhit`) or `stop` (answered at
//! once); at `ponderhit` on a clock the ponder search goes on as the real one, with other
//! limits the real search starts afresh, and the ponder search's own `bestmove` is never
//! printed after such a restart. With
//! `Ponder` off every `bestmove` stays two words.

use std::time::{Duration, Instant};

use crate::common::process::{Engine, ReadError, info_field};

const WAIT: Duration = Duration::from_secs(30);

fn is_bestmove_line(line: &str) -> bool {
    line.starts_with("bestmove ")
}

/// An engine on `game` with `Ponder` set to `ponder` (and no solved book: the search plays).
fn engine(game: &str, ponder: bool) -> Engine {
    let mut engine = Engine::spawn_with_args(&["--game", game]);
    engine.send("ugi");
    engine.read_until(|l| l == "ugiok");
    engine.send("setoption name SolvedBook value false");
    engine.send(&format!("setoption name Ponder value {ponder}"));
    engine.assert_ready();
    engine
}

/// The `pv` moves of an `info` line.
fn pv(line: &str) -> Vec<&str> {
    line.split(" pv ")
        .nth(1)
        .map_or(Vec::new(), |m| m.split(' ').collect())
}

/// Lines read until (and with) the first `bestmove`.
fn until_bestmove(engine: &mut Engine) -> Vec<String> {
    engine.read_until_within(WAIT, "bestmove", is_bestmove_line)
}

/// The lines the engine has printed so far (read until 50 ms pass without one).
fn printed_so_far(engine: &mut Engine) -> Vec<String> {
    let mut lines = Vec::new();
    while let Ok(line) = engine.try_read_line(Duration::from_millis(50)) {
        lines.push(line);
    }
    lines
}

/// Nothing at all is printed within `window`.
fn silent_for(engine: &mut Engine, window: Duration) {
    match engine.try_read_line(window) {
        Err(ReadError::Timeout) => {}
        other => panic!("expected silence, got {other:?}"),
    }
}

#[test]
fn bestmove_names_the_reply_of_its_principal_variation() {
    for (game, position, go) in [
        ("sight", "position startpos moves c3 b2", "go depth 5"),
        (
            "tactigon",
            "position startpos moves d8-c9 e15-f12",
            "go depth 4",
        ),
        // MCTS: its principal variation follows the most visited children.
        (
            "isaac",
            "position startpos moves 7h40 5v50",
            "go nodes 3000",
        ),
    ] {
        let mut engine = engine(game, true);
        engine.send(position);
        engine.send(go);
        let lines = until_bestmove(&mut engine);
        let last_pv = lines
            .iter()
            .rev()
            .find(|l| l.starts_with("info depth") && l.contains(" pv "))
            .map(|l| pv(l))
            .expect("an info line with a pv");
        assert!(last_pv.len() >= 2, "{game}: {lines:?}");
        let expected = format!("bestmove {} ponder {}", last_pv[0], last_pv[1]);
        assert_eq!(lines.last(), Some(&expected), "{game}");
        engine.assert_ready();
    }
}

#[test]
fn ponderhit_starts_the_real_search_on_the_clock_and_prints_one_bestmove() {
    for game in ["sight", "isaac"] {
        let mut engine = engine(game, true);
        engine.send("position startpos");
        engine.send("go ponder wtime 1500 btime 1500");
        // Pondering prints its iterations but holds its move, however long it runs.
        let first = engine.read_line_within(WAIT, "a ponder info line");
        assert!(first.starts_with("info "), "{game}: {first}");
        std::thread::sleep(Duration::from_millis(300));
        let held = printed_so_far(&mut engine);
        assert!(
            !held.iter().any(|l| is_bestmove_line(l)),
            "{game}: {held:?}"
        );
        let hit = Instant::now();
        engine.send("ponderhit");
        let lines = until_bestmove(&mut engine);
        let answered = hit.elapsed();
        // One bestmove, from the real search: the hit started a clock (a search still
        // pondering would never answer). The bound is a hang bound; how soon the answer comes
        // is the clock benchmark's figure (benches/clock/run.sh), not an assert.
        assert!(answered < WAIT, "{game}: {answered:?}");
        assert_eq!(
            lines.iter().filter(|l| is_bestmove_line(l)).count(),
            1,
            "{game}: {lines:?}"
        );
        engine.assert_ready();
    }
}

#[test]
fn stop_answers_a_ponder_search_at_once() {
    let mut engine = engine("tactigon", true);
    engine.send("position startpos moves d8-c9");
    engine.send("go ponder wtime 60000 btime 60000");
    std::thread::sleep(Duration::from_millis(200));
    let stop = Instant::now();
    engine.send("stop");
    let lines = until_bestmove(&mut engine);
    // A ponder search left running would never answer: a hang bound. The latency of `stop`
    // is measured by `cargo bench --bench engine -- protocol`.
    assert!(stop.elapsed() < WAIT, "{:?}", stop.elapsed());
    assert!(lines.last().is_some_and(|l| l.starts_with("bestmove ")));
    engine.assert_ready();
    // A ponderhit after the stop, or with nothing pondered, searches nothing and says so.
    engine.send("ponderhit");
    engine.expect_line("info string ponderhit ignored: no ponder search under way");
    silent_for(&mut engine, Duration::from_millis(200));
    engine.assert_ready();
}

/// Issue 57 F5: a `position` during `go ponder` ends the ponder search, with a clock as with
/// `depth`, `nodes` or `mate` (before, with a clock the `ponderhit` made the ponder search for
/// the old position the real one, and its `bestmove` was illegal in the new position). The
/// ponder search's `bestmove` comes at the `position`; the `ponderhit` has nothing to hit.
#[test]
fn a_position_during_go_ponder_ends_the_ponder_search() {
    for limits in [
        "wtime 60000 btime 60000",
        "movetime 5000",
        "depth 30",
        "nodes 50000000",
    ] {
        let mut engine = engine("tactigon", true);
        engine.send("position startpos moves d8-c9");
        engine.send(&format!("go ponder {limits}"));
        std::thread::sleep(Duration::from_millis(100));
        engine.send("position startpos moves d8-c9 b14-b12");
        let lines = until_bestmove(&mut engine);
        assert!(
            lines.last().is_some_and(|l| l.starts_with("bestmove ")),
            "{limits}: {lines:?}"
        );
        engine.send("ponderhit");
        engine.expect_line("info string ponderhit ignored: no ponder search under way");
        silent_for(&mut engine, Duration::from_millis(200));
        engine.send("go depth 2");
        let lines = until_bestmove(&mut engine);
        let best = lines
            .last()
            .and_then(|l| l.split(' ').nth(1))
            .expect("a bestmove");
        let mut pos = ludus::game::tactigon::Tactigon::start(&Default::default());
        use ludus::game::Game;
        for m in ["d8-c9", "b14-b12"] {
            pos.try_play_str(m).expect("legal");
        }
        assert!(
            pos.try_play_str(best).is_ok(),
            "{limits}: {best} is not legal"
        );
        engine.assert_ready();
    }
}

#[test]
fn with_ponder_off_bestmove_stays_two_words() {
    let mut engine = engine("sight", false);
    engine.send("position startpos moves c3 b2");
    engine.send("go depth 4");
    let lines = until_bestmove(&mut engine);
    let last = lines.last().expect("bestmove");
    assert_eq!(last.split(' ').count(), 2, "{last}");
    engine.send("go ponder movetime 200");
    std::thread::sleep(Duration::from_millis(100));
    engine.send("ponderhit");
    let lines = until_bestmove(&mut engine);
    let last = lines.last().expect("bestmove");
    assert_eq!(last.split(' ').count(), 2, "{last}");
    engine.assert_ready();
}

/// The `depth` and `nodes` of an `info depth` line.
fn depth_and_nodes(line: &str) -> Option<(u32, u64)> {
    if !line.starts_with("info depth ") {
        return None;
    }
    Some((
        info_field(line, "depth")? as u32,
        info_field(line, "nodes")?,
    ))
}

#[test]
fn ponderhit_on_a_clock_goes_on_with_the_ponder_search() {
    // Tactigon (alpha-beta) and Isaac (MCTS in placement): the search that pondered becomes
    // the real one, so it goes on from where it was: its node count never falls back (a new
    // search would count from 0) and alpha-beta's iterations never start again from depth 1
    // (MCTS's depth is its main line's length, which may shrink).
    for (game, position) in [
        ("tactigon", "position startpos moves d8-c9"),
        ("isaac", "position startpos moves 7h40"),
    ] {
        let mut engine = engine(game, true);
        engine.send(position);
        engine.send("go ponder wtime 3000 btime 3000 winc 30 binc 30");
        engine.read_line_within(WAIT, "a ponder info line");
        std::thread::sleep(Duration::from_millis(400));
        let before = printed_so_far(&mut engine);
        let pondered = before
            .iter()
            .rev()
            .find_map(|l| depth_and_nodes(l))
            .expect("the ponder search reported an iteration");
        let hit = Instant::now();
        engine.send("ponderhit");
        let after = until_bestmove(&mut engine);
        assert!(hit.elapsed() < WAIT, "{game}: {:?}", hit.elapsed());
        let reported: Vec<(u32, u64)> = after.iter().filter_map(|l| depth_and_nodes(l)).collect();
        assert!(
            reported
                .iter()
                .all(|&(d, n)| n >= pondered.1 && (game == "isaac" || d >= pondered.0)),
            "{game}: pondered to {pondered:?}, then {after:?}"
        );
        assert_eq!(
            after.iter().filter(|l| is_bestmove_line(l)).count(),
            1,
            "{game}: {after:?}"
        );
        engine.assert_ready();
    }
}

#[test]
fn ponderhit_with_a_depth_limit_starts_the_real_search_afresh() {
    // `go ponder depth 3`: the real search is the depth-3 search, from depth 1 (on the table
    // the ponder search filled), not the deeper ponder search.
    let mut engine = engine("tactigon", true);
    engine.send("position startpos moves d8-c9");
    engine.send("go ponder depth 3");
    engine.read_line_within(WAIT, "a ponder info line");
    std::thread::sleep(Duration::from_millis(300));
    engine.send("ponderhit");
    let after = until_bestmove(&mut engine);
    // The ponder search's lines may still come after the `ponderhit`; the real search's
    // begin at depth 1.
    let depths: Vec<u32> = after
        .iter()
        .filter_map(|l| depth_and_nodes(l))
        .map(|(d, _)| d)
        .collect();
    let restart = depths.iter().rposition(|&d| d == 1);
    let real = &depths[restart.unwrap_or(depths.len())..];
    assert_eq!(real, [1, 2, 3], "{after:?}");
    engine.assert_ready();
}
