//! Option `SolvedBook` through the protocol: advertised (on by default); on a board with a
//! certificate in `data/` (Sight 4×4 here) `Level full` answers a won position with the
//! book's move and one `info` line with `score mate N` and no nodes, a lost one with the reply
//! resisting longest and `score mate -N`; `SolvedBook false`, a `searchmoves` without the
//! book's move or another `Level` search as usual.

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
    // White to move at the start is lost, every move into Black's proofs: the book resists
    // longest (all 16 plies), `score mate -8`.
    engine.send("position startpos");
    let lines = search(&mut engine, "go depth 2");
    assert_eq!(
        lines,
        [
            "info depth 16 seldepth 16 score mate -8 nodes 0 nps * time * hashfull 0 pv a1",
            "bestmove a1"
        ]
    );
    // After a1 d4, White is to move off Black's strategy (d4 is Black's move): a lost
    // position whose moves all lead into it again.
    engine.send("position startpos moves a1 d4");
    let lines = search(&mut engine, "go depth 2");
    assert!(lines[0].contains(" score mate -7 nodes 0 "), "{lines:#?}");
    engine.quit(Duration::from_secs(10));
}
