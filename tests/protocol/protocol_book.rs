//! Option `SolvedBook` through the protocol: advertised (on by default); on a board with a
//! certificate in `data/` (Sight 4×4 here) `Level full` answers a won position with the
//! book's move and one `info` line with `score mate N` and no nodes; below the book's leaves
//! (Sight 5×5 at 16 empty points) the exact prover's win the same way, whatever the limit; a
//! lost position (book or prover) is searched, answered as with `SolvedBook false` and with
//! the proven `score mate -N` last;
//! `SolvedBook false`, a `searchmoves` without the book's move or another `Level` search as
//! usual. With `MultiPV` above 1 the book answers every line it knows the value of (its wins
//! first, the book's move first among them, then its losses, each with a line along the book),
//! and a search numbered after its wins answers for the moves it does not know.

use std::time::Duration;

use crate::common::process::{Engine, is_bestmove, mask_timing};

fn search(engine: &mut Engine, go: &str) -> Vec<String> {
    engine.send(go);
    let lines = engine.read_until_within(Duration::from_secs(30), "bestmove", is_bestmove);
    lines.iter().map(|l| mask_timing(l)).collect()
}

#[test]
fn a_won_position_is_answered_from_the_book() {
    let mut engine = Engine::spawn();
    engine.send("ugi");
    let lines = engine.read_until(|l| l == "ugiok");
    assert!(
        lines
            .iter()
            .any(|l| l == "option name SolvedBook type check default true"),
        "{lines:#?}"
    );
    engine.send("setoption name Sight_BoardSize value 4");
    // 4×4 is lost for White (docs/solved.md): after a1, Black's book move.
    engine.send("position startpos moves a1");
    let lines = search(&mut engine, "go movetime 5000");
    assert_eq!(
        lines,
        [
            "info depth 15 seldepth 15 score mate 8 nodes 0 nps * time * hashfull 0 pv d4",
            "bestmove d4"
        ]
    );
    // The book's move is not among searchmoves: a search.
    let lines = search(&mut engine, "go depth 2 searchmoves a2 b2");
    assert!(
        lines.len() > 1 && lines.iter().all(|l| !l.contains(" nodes 0 ")),
        "{lines:#?}"
    );
    // Off: a search.
    engine.send("setoption name SolvedBook value false");
    let lines = search(&mut engine, "go depth 2");
    assert!(
        lines.iter().all(|l| !l.contains("score mate 8")),
        "{lines:#?}"
    );
    engine.send("setoption name SolvedBook value true");
    // White to move at the start is lost (the book knows every move loses): searched, as
    // without the book, to play for the opponent's mistakes.
    engine.send("position startpos");
    let with = search(&mut engine, "go depth 2");
    assert!(
        with.iter().any(|l| l.starts_with("info depth 1 ")),
        "{with:#?}"
    );
    // The search's move, with the proven score (the book's longest line: 16 plies).
    let proven = &with[with.len() - 2];
    assert!(
        proven.starts_with("info depth 16 seldepth 16 score mate -8 nodes 0 "),
        "{with:#?}"
    );
    engine.send("setoption name SolvedBook value false");
    let without = search(&mut engine, "go depth 2");
    assert_eq!(with.last(), without.last());
    engine.quit(Duration::from_secs(10));
}

/// Finding 10 of issue 31: 16 empty points, below the 5×5 book's leaves; only d4-c4 wins
/// (the heuristic search once played d4-c5 at `go movetime 200` on a loaded machine).
const BELOW_THE_BOOK: &str = "position startpos moves d4 c3 b2 e3 e1 c3-d2 e4 e3-d3";

#[test]
fn below_the_book_the_prover_plays_the_win_at_any_limit() {
    for strict in [false, true] {
        let mut engine = Engine::spawn();
        engine.send(&format!(
            "setoption name Sight_StrictTallest value {strict}"
        ));
        engine.send(BELOW_THE_BOOK);
        // The books are read before the first search; `isready` waits for them, so that
        // `go movetime 300` has its 300 ms. The proof takes 2–4 ms on a quiet core; 50 ms
        // was once not enough with the test suite and two self-play processes on two cores
        // (load 5): a deadline is wall time, and the proof gave up.
        engine.assert_ready();
        for go in ["go movetime 300", "go nodes 1"] {
            let lines = search(&mut engine, go);
            assert_eq!(
                lines,
                [
                    "info depth 17 seldepth 17 score mate 9 nodes 0 nps * time * hashfull 0 pv d4-c4",
                    "bestmove d4-c4"
                ],
                "strict {strict}, {go}"
            );
        }
        // `SolvedBook false`: the plain search (no proof's one-line answer).
        engine.send("setoption name SolvedBook value false");
        let lines = search(&mut engine, "go depth 1");
        assert!(lines.iter().all(|l| !l.contains(" nodes 0 ")), "{lines:#?}");
        engine.quit(Duration::from_secs(10));
    }
}

/// Finding 11 of issue 31: after a1 d4 White (to move) is lost; the book's longest proof
/// line plays b1, which one-ply bots punish (a2, then c1 shuts White in). The engine now
/// lets the search choose, as with `SolvedBook false`, at the same fixed limit.
#[test]
fn a_lost_position_is_played_by_the_search_not_the_longest_proof() {
    let mut engine = Engine::spawn();
    let mut best = Vec::new();
    for book in [true, false] {
        engine.send(&format!("setoption name SolvedBook value {book}"));
        engine.send("ucinewgame");
        engine.send("position startpos moves a1 d4");
        let lines = search(&mut engine, "go nodes 20000");
        assert!(
            lines.iter().any(|l| l.starts_with("info depth 1 ")),
            "{lines:#?}"
        );
        // With the book, the search's move comes with the proven score.
        let last_info = &lines[lines.len() - 2];
        assert_eq!(last_info.contains(" score mate -11 "), book, "{lines:#?}");
        best.push(lines.last().cloned());
    }
    assert_eq!(best[0], best[1]);
    assert_ne!(best[0].as_deref(), Some("bestmove b1"));
    engine.quit(Duration::from_secs(10));
}

/// `MultiPV 3` on positions of the book: three proven lines where it knows every move (4×4
/// after a1, Black wins; the 4×4 start, White loses whatever it plays), and its two wins then
/// a searched third line where it does not (5×5 after b2 e5: e1 and a5 win in 12).
#[test]
fn multipv_lines_come_from_the_book() {
    let mut engine = Engine::spawn();
    engine.send("setoption name Sight_BoardSize value 4");
    engine.send("setoption name MultiPV value 3");
    engine.send("position startpos moves a1");
    let lines = search(&mut engine, "go movetime 5000");
    assert_eq!(
        lines,
        [
            "info depth 15 seldepth 15 multipv 1 score mate 8 nodes 0 nps * time * hashfull 0 pv d4 c1 b2 a1-b1 d4-d3",
            "info depth 15 seldepth 15 multipv 2 score mate 8 nodes 0 nps * time * hashfull 0 pv c1 d1 a3 b1 c1-c2",
            "info depth 15 seldepth 15 multipv 3 score mate 8 nodes 0 nps * time * hashfull 0 pv d1 c1 b1 a1-a2 a3",
            "bestmove d4",
        ]
    );
    engine.send("position startpos");
    let lines = search(&mut engine, "go depth 2");
    assert_eq!(
        lines,
        [
            "info depth 16 seldepth 16 multipv 1 score mate -8 nodes 0 nps * time * hashfull 0 pv a1 d4 c1 b2 a1-b1 d4-d3",
            "info depth 16 seldepth 16 multipv 2 score mate -8 nodes 0 nps * time * hashfull 0 pv b1 c4 a1 c1 b1-b2 c4-d4",
            "info depth 16 seldepth 16 multipv 3 score mate -8 nodes 0 nps * time * hashfull 0 pv c1 b4 a1 b1 c1-d1 b4-a3",
            "bestmove a1",
        ]
    );
    engine.send("setoption name Sight_BoardSize value 5");
    engine.send("position startpos moves b2 e5");
    let lines: Vec<String> = search(&mut engine, "go depth 3")
        .into_iter()
        .filter(|l| !l.contains(" currmove "))
        .collect();
    assert_eq!(
        lines[..2],
        [
            "info depth 23 seldepth 23 multipv 1 score mate 12 nodes 0 nps * time * hashfull 0 pv e1 a1 d3 c1 b1",
            "info depth 23 seldepth 23 multipv 2 score mate 12 nodes 0 nps * time * hashfull 0 pv a5 a1 c4 c1 b1",
        ]
    );
    let searched = &lines[2..lines.len() - 1];
    let depths: Vec<&str> = searched
        .iter()
        .map(|l| l.split(" seldepth").next().unwrap_or(""))
        .collect();
    assert_eq!(
        depths,
        ["info depth 1", "info depth 2", "info depth 3"],
        "{lines:#?}"
    );
    assert!(
        searched
            .iter()
            .all(|l| l.contains(" multipv 3 score cp ") && !l.contains(" nodes 0 ")),
        "{lines:#?}"
    );
    assert_eq!(lines.last().map(String::as_str), Some("bestmove e1"));
    engine.quit(Duration::from_secs(10));
}
