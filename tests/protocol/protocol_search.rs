//! The protocol loop's searches, driven through pipes: `go` with and without limits, `isready`
//! answered while a search runs, `stop`, `go infinite` holding its `bestmove` until `stop`, a
//! second `go` or `setoption` ending the running search, end of input during a search,
//! `searchmoves`, the reproducibility of `go nodes`, and the game history that `position …
//! moves` and `move` give the search for repetitions.

use std::time::{Duration, Instant};

use crate::common::process::{Engine, bestmove_of, is_bestmove, mask_timing};

/// Sends `query legalmoves` and returns the moves of the `response` line.
fn legal_moves(engine: &mut Engine) -> Vec<String> {
    engine.send("query legalmoves");
    let line = engine.read_line();
    let moves = line
        .strip_prefix("response ")
        .unwrap_or_else(|| panic!("expected a response line, got '{line}'"));
    moves.split(' ').map(str::to_string).collect()
}

#[test]
fn isready_is_answered_during_go_infinite_and_stop_gives_one_legal_bestmove() {
    let mut engine = Engine::spawn();
    engine.send("position startpos");
    let legal = legal_moves(&mut engine);
    assert_eq!(legal.len(), 25, "start position moves: {legal:?}");

    engine.send("go infinite");
    let mut during = Vec::new();
    for round in 0..20 {
        std::thread::sleep(Duration::from_millis(15));
        let lines = engine.sync();
        assert!(
            !lines.iter().any(|l| is_bestmove(l)),
            "bestmove before stop (isready round {round}): {lines:#?}"
        );
        for line in &lines[..lines.len() - 1] {
            assert!(line.starts_with("info depth "), "unexpected line {line:?}");
        }
        during.extend(lines);
    }

    engine.send("stop");
    let after = engine.read_until_within(Duration::from_secs(5), "bestmove after stop", |l| {
        is_bestmove(l)
    });
    // `isready` is answered at once, also before a pending bestmove, so it cannot tell when
    // the bestmove is due; give a stray second bestmove time to show, then require that the
    // very next line after isready is readyok.
    std::thread::sleep(Duration::from_millis(200));
    engine.assert_ready();

    let bestmoves: Vec<&String> = during
        .iter()
        .chain(&after)
        .filter(|l| is_bestmove(l))
        .collect();
    assert_eq!(bestmoves.len(), 1, "bestmove lines: {bestmoves:?}");
    let best = bestmove_of(bestmoves[0]).expect("a bestmove line");
    assert!(
        legal.iter().any(|m| m == best),
        "bestmove {best} is not among the legal moves {legal:?}"
    );
    // The position is untouched by the search.
    assert_eq!(legal_moves(&mut engine), legal);
    engine.quit(Duration::from_secs(10));
}

#[test]
fn stop_without_a_search_prints_nothing() {
    let mut engine = Engine::spawn();
    engine.send("stop");
    engine.assert_ready();
    engine.send("position startpos");
    engine.send("stop");
    engine.send("stop");
    engine.assert_ready();
    // After a finished search, too.
    engine.send("go depth 1");
    let lines = engine.read_until(is_bestmove);
    assert_eq!(lines.len(), 2, "go depth 1: {lines:#?}");
    engine.send("stop");
    engine.assert_ready();
    engine.quit(Duration::from_secs(10));
}

#[test]
fn second_go_infinite_stops_the_first_two_bestmoves_in_all() {
    let mut engine = Engine::spawn();
    engine.send("position startpos");
    engine.send("go infinite");
    engine.send("go infinite");
    // The second go stops the first: its bestmove comes without any stop.
    let first = engine.read_until(is_bestmove);
    assert_eq!(first.iter().filter(|l| is_bestmove(l)).count(), 1);
    // The second search runs on: no bestmove until stop.
    std::thread::sleep(Duration::from_millis(50));
    let lines = engine.sync();
    assert!(
        !lines.iter().any(|l| is_bestmove(l)),
        "second go infinite ended without stop: {lines:#?}"
    );
    engine.send("stop");
    let second = engine.read_until_within(Duration::from_secs(5), "the second bestmove", |l| {
        is_bestmove(l)
    });
    std::thread::sleep(Duration::from_millis(200));
    engine.assert_ready();
    let total = first
        .iter()
        .chain(&lines)
        .chain(&second)
        .filter(|l| is_bestmove(l))
        .count();
    assert_eq!(total, 2);
    engine.quit(Duration::from_secs(10));
}

#[test]
fn go_on_a_finished_game_answers_bestmove_none_only() {
    let mut engine = Engine::spawn();
    engine.send("position startpos moves a1 a2 b1 b2");
    engine.send("query gameover");
    engine.expect_line("response true");
    engine.send("go depth 3");
    engine.expect_line("bestmove (none)");
    engine.assert_ready();
    // `go infinite` too answers at once, and there is nothing left for stop to end.
    engine.send("go infinite");
    engine.expect_line("bestmove (none)");
    engine.send("stop");
    engine.assert_ready();
    engine.quit(Duration::from_secs(10));
}

/// Starts a new game at the start position and returns the output of `go nodes 20000`, up to
/// and including `bestmove`, with the `nps` and `time` values masked.
fn reproducible_search(engine: &mut Engine) -> Vec<String> {
    engine.send("uginewgame");
    engine.send("position startpos");
    engine.send("go nodes 20000");
    let lines = engine.read_until_within(Duration::from_secs(30), "bestmove", is_bestmove);
    lines.iter().map(|l| mask_timing(l)).collect()
}

#[test]
fn go_nodes_is_reproducible_in_one_process_and_across_processes() {
    let mut first = Engine::spawn();
    let a = reproducible_search(&mut first);
    let b = reproducible_search(&mut first);
    first.quit(Duration::from_secs(10));
    let mut second = Engine::spawn();
    let c = reproducible_search(&mut second);
    second.quit(Duration::from_secs(10));

    assert!(a.len() >= 2, "expected info lines and a bestmove: {a:#?}");
    for line in &a[..a.len() - 1] {
        assert!(line.starts_with("info depth "), "unexpected line {line:?}");
        assert!(
            line.contains(" nps * time * "),
            "timing not masked: {line:?}"
        );
    }
    assert_eq!(a, b, "two searches in one process differ");
    assert_eq!(a, c, "searches in two processes differ");
}

#[test]
fn end_of_input_during_a_search_prints_one_bestmove_and_exits_zero() {
    let mut engine = Engine::spawn();
    engine.send("setoption name SolvedBook value false");
    engine.send("position startpos");
    engine.send("go infinite");
    let first = engine.read_line();
    assert!(first.starts_with("info depth 1 "), "first line: {first:?}");
    let closed = Instant::now();
    engine.close_stdin();
    let rest = engine.read_to_end_within(Duration::from_secs(5));
    let status = engine.wait_exit(Duration::from_secs(5).saturating_sub(closed.elapsed()));
    assert_eq!(status.code(), Some(0), "{}", engine.context());
    let bestmoves: Vec<&String> = rest.iter().filter(|l| is_bestmove(l)).collect();
    assert_eq!(bestmoves.len(), 1, "output after end of input: {rest:#?}");
    assert_eq!(
        rest.last(),
        Some(bestmoves[0]),
        "bestmove is not the last line"
    );
    assert!(closed.elapsed() < Duration::from_secs(5));
}

/// TV11's final position (docs/rules/sight.md §9): White to move mates at once with d4-e4.
/// With `SolvedBook` on the solver's prover would answer it before any search (16 empty
/// points, protocol_book.rs); the tests here are about the search, so they turn it off.
const MATE_IN_ONE: &str = "position fen 5:x5/x,w,x,w2,x/b,x,w,w3,b2/x3,b,b/x5 w";

/// The only `info` line of a search of [`MATE_IN_ONE`], with its timing masked.
const MATE_IN_ONE_INFO: &str =
    "info depth 1 seldepth 2 score mate 1 nodes 7 nps * time * hashfull 0 pv d4-e4";

#[test]
fn go_without_limits_answers_at_once_when_the_result_is_proven() {
    let mut engine = Engine::spawn();
    engine.send("setoption name SolvedBook value false");
    engine.send(MATE_IN_ONE);
    engine.send("go");
    let lines = engine.read_until_within(Duration::from_secs(5), "bestmove", is_bestmove);
    let masked: Vec<String> = lines.iter().map(|l| mask_timing(l)).collect();
    assert_eq!(masked, [MATE_IN_ONE_INFO, "bestmove d4-e4"]);
    engine.assert_ready();
    engine.quit(Duration::from_secs(10));
}

#[test]
fn go_infinite_holds_a_proven_bestmove_until_stop() {
    let mut engine = Engine::spawn();
    engine.send("setoption name SolvedBook value false");
    engine.send(MATE_IN_ONE);
    engine.send("go infinite");
    let info = engine.read_line();
    assert_eq!(mask_timing(&info), MATE_IN_ONE_INFO);
    // The search is over, but the bestmove waits for stop.
    std::thread::sleep(Duration::from_millis(300));
    engine.assert_ready();
    engine.send("stop");
    engine.expect_line("bestmove d4-e4");
    engine.quit(Duration::from_secs(10));
}

#[test]
fn go_movetime_zero_still_answers_a_legal_move() {
    let mut engine = Engine::spawn();
    engine.send("position startpos");
    let legal = legal_moves(&mut engine);
    engine.send("go movetime 0");
    // The deadline may cut even depth 1 (protocol.md, Search); the answer is a legal move.
    let lines = engine.read_until_within(Duration::from_secs(5), "bestmove", is_bestmove);
    let best = bestmove_of(lines.last().expect("a bestmove")).expect("a bestmove");
    assert!(legal.iter().any(|m| m == best), "bestmove {best}");
    engine.quit(Duration::from_secs(10));
}

#[test]
fn go_searchmoves_restricts_the_root_and_checks_its_moves() {
    let mut engine = Engine::spawn();
    engine.send("position startpos");
    engine.send("go depth 2 searchmoves e5");
    let lines = engine.read_until(is_bestmove);
    assert_eq!(bestmove_of(lines.last().expect("a bestmove")), Some("e5"));
    for line in &lines[..lines.len() - 1] {
        assert!(
            line.ends_with(" pv e5") || line.contains(" pv e5 "),
            "{line:?}"
        );
    }
    engine.send("go depth 1 searchmoves z9");
    engine.expect_line("info string error illegal-move searchmoves: z9 is not a legal move here");
    engine.expect_line("bestmove (none)");
    engine.send("go searchmoves");
    engine.expect_line("info string error bad-argument searchmoves needs at least one move");
    engine.expect_line("bestmove (none)");
    engine.assert_ready();
    engine.quit(Duration::from_secs(10));
}

#[test]
fn setoption_during_a_search_stops_it_first() {
    let mut engine = Engine::spawn();
    // Sight's empty board is in the solved book, which answers without searching.
    engine.send("setoption name SolvedBook value false");
    engine.send("position startpos");
    engine.send("go infinite");
    engine.read_line_within(Duration::from_secs(5), "the first info line");
    engine.send("setoption name MultiPV value 2");
    // protocol.md: "`setoption` during a search first stops the search (its `bestmove` is
    // printed)". No stop is sent here. `isready` is answered at once, so its `readyok` may
    // come before or after that `bestmove`; the next `go`'s output comes after both.
    engine.send("isready");
    engine.send("go depth 1");
    let lines = engine.read_until_within(Duration::from_secs(5), "two bestmoves", {
        let mut seen = 0;
        move |l: &str| {
            seen += usize::from(is_bestmove(l));
            seen == 2
        }
    });
    let at = |want: &dyn Fn(&str) -> bool| lines.iter().position(|l| want(l));
    let first_bestmove = at(&|l| is_bestmove(l)).expect("a bestmove");
    let readyok = at(&|l| l == "readyok").expect("readyok");
    let new_info = at(&|l| l.starts_with("info depth 1 ") && l.contains(" multipv 1 "));
    let new_info = new_info.expect("the new search's first MultiPV line");
    assert!(
        first_bestmove < new_info && readyok < new_info,
        "the stopped search's bestmove and readyok must come before the next go's output: \
         {lines:#?}"
    );
    assert_eq!(lines.iter().filter(|l| *l == "readyok").count(), 1);
    engine.quit(Duration::from_secs(10));
}

/// The `bestmove` of `go depth 5` after the commands `setup`.
fn best_after(engine: &mut Engine, setup: &[&str]) -> String {
    for line in setup {
        engine.send(line);
    }
    engine.send("go depth 5");
    let lines = engine.read_until_within(Duration::from_secs(60), "bestmove", is_bestmove);
    let last = &lines[lines.len() - 1];
    bestmove_of(last)
        .unwrap_or_else(|| panic!("not a bestmove line: {last}"))
        .to_string()
}

#[test]
fn the_moves_of_position_count_as_the_game_s_history_for_repetitions() {
    // Tactigon, Red a triangle up (tests/search/search_tactigon.rs has the same position): f12-d8
    // is its best move under the hand evaluation, unless the game already had the position f12-d8
    // leads to. (The built-in net prefers another move here; this test is about the history.)
    let mut engine = Engine::spawn_with_args(&["--game", "tactigon"]);
    engine.send("setoption name Eval value hand");
    let fen = "2/4c2p1/2C5c1/3P2c4/C1C4cc1/4CT3/2";
    let fresh = format!("position fen {fen} r 156");
    assert_eq!(best_after(&mut engine, &[&fresh]), "f12-d8");
    let shuffled = format!("position fen {fen} r 152 moves f12-d8 e15-e13 d8-f12 e13-e15");
    let best = best_after(&mut engine, &[&shuffled]);
    assert_ne!(best, "f12-d8");
    assert_ne!(best, "(none)");
    // `move` adds to the history in the same way.
    let half = format!("position fen {fen} r 152 moves f12-d8 e15-e13");
    assert_ne!(
        best_after(&mut engine, &[&half, "move d8-f12 e13-e15"]),
        "f12-d8"
    );
    // A new `position` forgets the old history.
    assert_eq!(best_after(&mut engine, &[&fresh]), "f12-d8");
    engine.quit(Duration::from_secs(10));
}
